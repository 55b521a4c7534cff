"""A post office for the language tests: the service on a real SQLite file, its SMTP receiver on
loopback (players' mail goes in by SMTP), its outbox sent by SMTP to a relay on loopback (what the
players read comes out by SMTP), and, when asked, the web site served over real HTTP
(tests/test_i18n_mails.py, tests/test_i18n_e2e.py)."""

from __future__ import annotations

import email
import email.policy
import re
import smtplib
import threading
import urllib.parse
import urllib.error
import urllib.request
from datetime import timedelta
from email.message import EmailMessage
from http.cookiejar import CookieJar

from pbem.server import inbox
from pbem.server.config import Config
from pbem.server.mail.outbox import Sender
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.harness import Relay


class PostOffice:
    """Mail in and out by real SMTP; ``read(to)`` gives each mail delivered to ``to``, decoded:
    (subject, text of every text part, the raw message)."""

    def __init__(self, folder, clock, web: bool = False):
        self.config = Config(instance=str(folder), secret_key="i18n-secret", admin_email="admin@example.org")
        self.store = Store(folder / "pbem.sqlite3", clock=clock)
        self.service = Service(self.store, self.config, clock=clock)
        self.service.rasterise = lambda svg: b"png"  # the map's SVG is what the tests read; its PNG costs seconds
        self.clock = clock
        self.inbound = start_smtpd(lambda raw: inbox.receive(self.service, raw, "smtp"))
        self.relay = Relay()
        self.sender = Sender(self.store, relay=("127.0.0.1", self.relay.port), resolve=self.service.attachment)
        self.seen = 0
        self.web = None
        if web:
            self.serve()

    # -- mail ---------------------------------------------------------------------------

    def send(self, sender: str, text: str, subject: str = "orders", **headers) -> None:
        """A player's mail, by SMTP to the server's receiver; then the server handles it."""
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", subject
        msg.set_content(text)  # before the headers: it would drop a Content-Language set before it
        for name, value in headers.items():
            msg[name.replace("_", "-")] = value
        with smtplib.SMTP("127.0.0.1", self.inbound.port, timeout=10) as smtp:
            smtp.send_message(msg)
        inbox.process_pending(self.service)

    def flush(self) -> None:
        """The server's work done and its outbox sent to the relay."""
        self.service.run_jobs()
        self.sender.send_due(self.clock() + timedelta(days=1))

    def read(self, to: str) -> list[tuple[str, str, bytes]]:
        self.flush()
        out = []
        for delivery in self.relay.snapshot():
            if delivery.to != to.lower():
                continue
            msg = email.message_from_bytes(delivery.raw, policy=email.policy.default)
            texts = [part.get_content() for part in msg.walk()
                     if part.get_content_type() == "text/plain" and not part.get_filename()]
            out.append((str(msg["Subject"]), "\n".join(texts), delivery.raw))
        return out

    def attachment(self, raw: bytes, name: str) -> bytes | None:
        msg = email.message_from_bytes(raw, policy=email.policy.default)
        for part in msg.iter_attachments():
            if part.get_filename() == name:
                return part.get_payload(decode=True)
        return None

    # -- the web ------------------------------------------------------------------------

    def serve(self) -> None:
        from werkzeug.serving import make_server

        from pbem.server.web import create_app

        self.app = create_app(self.service, self.config)
        self.web = make_server("127.0.0.1", 0, self.app, threaded=True)
        self.config.web_host, self.config.web_port = "127.0.0.1", self.web.server_port
        threading.Thread(target=self.web.serve_forever, name="web", daemon=True).start()

    def browser(self, accept_language: str | None = None) -> Browser:
        return Browser(self.config.url, accept_language)

    def close(self) -> None:
        if self.web is not None:
            self.web.shutdown()
        self.inbound.stop()
        self.relay.stop()
        self.store.close()


class Browser:
    """A reader's browser over real HTTP: cookies kept, the form's token posted back."""

    def __init__(self, base: str, accept_language: str | None = None):
        self.base = base
        self.jar = CookieJar()
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(self.jar))
        self.headers = {"Accept-Language": accept_language} if accept_language else {}
        self.token = ""

    def get(self, path: str, **headers) -> tuple[int, str]:
        request = urllib.request.Request(self.base + path, headers={**self.headers, **headers})
        try:
            with self.opener.open(request, timeout=30) as answer:
                text = answer.read().decode()
                status = answer.status
        except urllib.error.HTTPError as error:
            text, status = error.read().decode(), error.code
        found = re.search(r'name="csrf_token" value="([^"]+)"', text)
        self.token = found.group(1) if found else self.token
        return status, text

    def post(self, path: str, data: dict, **headers) -> tuple[int, str]:
        body = urllib.parse.urlencode({"csrf_token": self.token, **data}, doseq=True).encode()
        request = urllib.request.Request(self.base + path, data=body, headers={**self.headers, **headers})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, answer.read().decode()
        except urllib.error.HTTPError as error:
            return error.code, error.read().decode()

    def sign_in(self, link: str) -> None:
        """Through the link of the sign-in mail: its page, then its button."""
        path = link[len(self.base):] if link.startswith(self.base) else link
        self.get(path)
        self.post(path, {})
