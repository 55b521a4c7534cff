"""A small site to look at every page of: the demo game after its first day, a game of a plain
player, a finished game (its replay), a league with a running tournament, on a real server on 127.0.0.1. The accessibility test (tests/test_pages.py) and
the Lighthouse command (scripts/lighthouse) go over the same pages.

    with page_site(tmp_dir) as site:
        for who, paths in site.pages().items(): ...
        cookie = site.cookie(site.admin)   # the session cookie of a signed-in browser
"""

from __future__ import annotations

import contextlib
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from werkzeug.serving import make_server

from pbem.server.config import Config
from pbem.server.leagues.service import Leagues
from pbem.server.serve import make_demo_game
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.server.web import create_app
from pbem.server.web.auth import make_login_token

ADMIN, PLAYER, RIVAL = "admin@example.org", "player@example.org", "rival@example.org"


@dataclass
class PageSite:
    service: Service
    config: Config
    app: object
    demo: int
    other: int
    over: int = 0
    league: int = 0
    tournament: int = 0
    admin: str = ADMIN
    player: str = PLAYER

    @property
    def url(self) -> str:
        return self.config.url

    def pages(self) -> dict[str, list[str]]:
        """Every page, by who sees it (the admin holds the demo's seats and moderates it)."""
        demo, other = self.demo, self.other
        return {
            "signed out": ["/login", "/no-such-page"],
            "player": ["/", "/games/new", f"/games/{other}", "/password", f"/games/{self.over}/replay?day=0",
                       "/leagues", f"/leagues/{self.league}", f"/tournaments/{self.tournament}"],
            "moderator": [f"/games/{demo}?side=", f"/games/{demo}/moderate", f"/games/{demo}/reports/0?side=austria",
                          f"/games/{demo}?side=austria"],
            "admin": ["/admin", f"/games/{demo}?side=france", f"/tournaments/{self.tournament}/console"],
        }

    def who(self, role: str) -> str | None:
        return {"signed out": None, "player": self.player, "moderator": self.admin, "admin": self.admin}[role]

    def login_url(self, email: str) -> str:
        return f"{self.url}/login/{make_login_token(self.service.store, email, self.service.now())}"

    def cookie(self, email: str) -> str:
        """A signed-in session for ``email``, as a Cookie header's value."""
        client = self.app.test_client()
        token = make_login_token(self.service.store, email, self.service.now())
        page = client.get(f"/login/{token}")
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
        client.post(f"/login/{token}", data={"csrf_token": csrf})
        cookie = client.get_cookie("pbem_session")
        return f"pbem_session={cookie.value}"


@contextlib.contextmanager
def page_site(folder: Path):
    """The site, served until the block ends."""
    config = Config(instance=str(folder), secret_key="pages-secret", admin_email=ADMIN)
    store = Store(Path(folder) / "pbem.sqlite3")
    service = Service(store, config)
    demo = make_demo_game(service, config)
    if not service.submit(demo, "austria", f"GAME {demo}\nENTER A1 A2 A3 BY ROAD AT Bormida bridge\n").ok:
        raise RuntimeError("the demo's first orders were refused")
    service.resolve_next(demo)
    service.run_jobs()
    other, _ = service.create_game("Open game", {"austria": PLAYER}, settings={"hours": 48})
    over, _ = service.create_game("A finished game", {"austria": PLAYER, "france": RIVAL}, settings={"hours": 48})
    service.resolve_next(over)
    service.resign(over, "france")
    leagues = Leagues(service)
    league = leagues.create_league("The club", ADMIN)
    tournament = leagues.create_tournament(league, ADMIN, "Spring cup", "round_robin")
    for email in (PLAYER, RIVAL):
        leagues.join(league, email)
        leagues.enter(tournament, email)
    leagues.start(tournament, ADMIN)
    service.run_jobs()
    app = create_app(service, config)
    web = make_server("127.0.0.1", 0, app, threaded=True)
    config.web_host, config.web_port = "127.0.0.1", web.server_port
    thread = threading.Thread(target=web.serve_forever, name="web", daemon=True)
    thread.start()
    try:
        yield PageSite(service, config, app, demo, other, over, league, tournament)
    finally:
        web.shutdown()
        thread.join(10)
        store.close()
