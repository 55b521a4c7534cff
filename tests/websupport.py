"""A web site over a real database, for the web tests (test_web.py, test_web_security.py)."""

from __future__ import annotations

import re
from pathlib import Path

from pbem.server.config import Config
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.server.web import create_app
from pbem.server.web.auth import make_login_token

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
ANNA, FRED, MOD, OTTO = "anna@example.org", "fred@example.org", "mod@example.org", "otto@example.org"
ADMIN = "admin@example.org"


def csrf(page_text: str) -> str:
    """The CSRF token in a page's forms."""
    return re.search(r'name="csrf_token" value="([^"]+)"', page_text).group(1)


class Site:
    """A server's web app over a real database in tmp_path."""

    def __init__(self, tmp_path, base_url="http://pbem.test"):
        self.config = Config(instance=str(tmp_path), secret_key="test-secret-key", admin_email=ADMIN,
                             base_url=base_url)
        self.store = Store(tmp_path / "pbem.sqlite3")
        self.service = Service(self.store, self.config)
        self.app = create_app(self.service, self.config)
        self.app.config["PBEM_SCENARIOS"][f"marengo:{SMALL}"] = "Small test scenario"
        self._ip = 0

    def client(self, email: str | None = None, ip: str | None = None):
        """A browser of its own (its own IP); signed in as ``email`` by a mailed link when given,
        with its session's CSRF token as ``client.csrf``."""
        self._ip += 1
        client = self.app.test_client()
        client.environ_base["REMOTE_ADDR"] = ip or f"10.0.0.{self._ip}"
        if email:
            token = make_login_token(self.store, email, self.service.now())
            page = client.get(f"/login/{token}")
            assert page.status_code == 200, page.text
            assert client.post(f"/login/{token}", data={"csrf_token": csrf(page.text)}).status_code == 302
            client.csrf = csrf(client.get("/").text)
        return client

    def game(self, seats=None, moderator=MOD, settings=None) -> tuple[int, dict]:
        """A game of the small scenario: Anna (Austria) against Fred (France) unless ``seats`` says."""
        seats = {"austria": ANNA, "france": FRED} if seats is None else seats
        return self.service.create_game("Test game", seats, scenario=SMALL, seed=3, moderator=moderator,
                                        settings=settings or {"hours": 48})


def post(client, url, **data):
    """A form posted by a signed-in client, with its CSRF token."""
    return client.post(url, data={"csrf_token": client.csrf, **data})
