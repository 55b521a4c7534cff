"""The kept game page answered before Flask, and a 304 that leaves the connection open (issue 35, item 2,
thirteenth session; pbem.server.web.front, pbem.server.httpd.BodilessKeptOpen).

Everything is asked of real waitress servers (pbem.server.httpd, as ``pbem serve`` runs it) over one app:
``front`` serves the app as ``create_app`` makes it (the front before Flask), ``flask`` serves the same app's
Flask alone (``Front.flask``), sharing what it keeps. The front's answer must be Flask's for the same request,
header by header and byte by byte; where one of its checks fails Flask must answer (``Front.answered`` does
not move), and no reader ever gets a page kept for another."""

from __future__ import annotations

import gzip
import http.client
import socket
import threading
from datetime import datetime, timedelta, timezone

import pytest

from pbem.server.config import Config
from pbem.server.httpd import start_httpd
from pbem.server.web.front import FlaskAlone
from test_page_cache import SECRET, site  # noqa: F401 (site: the fixture, shared)
from websupport import ANNA, FRED, MOD, OTTO


class Served:
    """``site``'s app served by waitress twice: ``front`` (as pbem serve does) and ``flask`` (Flask alone)."""

    def __init__(self, site, tmp_path):
        self.site, self.front_app = site, site.app.wsgi_app
        self.servers = [self.serve(site.app, tmp_path), self.serve(FlaskAlone(site.app), tmp_path)]
        self.front, self.flask = (server.effective_port for server in self.servers)

    @staticmethod
    def serve(app, folder):
        config = Config(instance=str(folder), web_host="127.0.0.1", web_port=0, web_connections_per_address=0)
        server = start_httpd(app, config)
        threading.Thread(target=server.run, daemon=True).start()
        return server

    def close(self):
        for server in self.servers:
            server.close()

    @property
    def answered(self) -> int:
        return self.front_app.answered


@pytest.fixture
def served(site, tmp_path):
    start = site.service.now()
    site.service.clock = lambda: start  # the page's minutes left do not move between two answers compared
    served = Served(site, tmp_path)
    yield served
    served.close()


def cookie_of(site, email: str) -> str:
    """The session cookie of ``email`` signed in by a mailed link (read once by the app, as a browser's is)."""
    return site.client(email).get_cookie("pbem_session").value


def ask(port: int, path: str, cookie: str | None, **headers) -> tuple[int, list, bytes]:
    """GET ``path`` on ``port``: the status, the headers but the date (sorted by waitress), the body."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=30)
    try:
        sent = {name.replace("_", "-"): value for name, value in headers.items()}
        if cookie:
            sent["Cookie"] = f"pbem_session={cookie}"
        connection.request("GET", path, headers=sent)
        answer = connection.getresponse()
        return answer.status, [(k, v) for k, v in answer.getheaders() if k != "Date"], answer.read()
    finally:
        connection.close()


def header(answer: tuple[int, list, bytes], name: str) -> str | None:
    """The value of header ``name`` in ``answer`` (waitress writes names its own way: ``Etag``)."""
    return next((value for key, value in answer[1] if key.lower() == name.lower()), None)


def front_as_flask(served, path: str, cookie: str, **headers) -> tuple[int, list, bytes]:
    """The front's answer, checked to be given by the front and to be Flask's for the same request, asked
    both ways (Flask first, then the front; the front, then Flask again)."""
    flask = ask(served.flask, path, cookie, **headers)
    before = served.answered
    front = ask(served.front, path, cookie, **headers)
    assert served.answered == before + 1, "the front did not answer"
    assert front == flask
    assert ask(served.flask, path, cookie, **headers) == front
    return front


def not_from_front(served, path: str, cookie: str | None, **headers) -> tuple[int, list, bytes]:
    """The answer to a request the front must leave to Flask: checked not answered by the front."""
    before = served.answered
    answer = ask(served.front, path, cookie, **headers)
    assert served.answered == before, "the front answered"
    return answer


def test_the_front_answers_as_flask_does(site, served):
    anna, path = cookie_of(site, ANNA), f"/games/{site.g}?side=austria"
    plain = front_as_flask(served, path, anna)
    packed = front_as_flask(served, path, anna, Accept_Encoding="gzip, deflate")
    assert plain[0] == packed[0] == 200 and gzip.decompress(packed[2]) == plain[2]
    assert header(packed, "Content-Encoding") == "gzip" and header(plain, "Set-Cookie") is None
    for answer, encoding in ((plain, "identity"), (packed, "gzip")):
        tag = header(answer, "ETag")
        again = front_as_flask(served, path, anna, Accept_Encoding=encoding, If_None_Match=tag)
        assert again[0] == 304 and again[2] == b""
    mine = front_as_flask(served, f"/games/{site.g}", anna)  # her own seat, chosen by the server
    assert mine[0] == 200
    french = front_as_flask(served, path, anna, Accept_Language="fr")  # the browser's language
    assert 'lang="fr"' in french[2].decode() and header(french, "Vary").endswith("Accept-Language")
    site.store.set_language(ANNA, "uk")  # saved: the page varies by the cookie alone
    saved = front_as_flask(served, path, anna, Accept_Language="fr")
    assert 'lang="uk"' in saved[2].decode() and header(saved, "Vary") == "Accept-Encoding, Cookie"


def test_a_wrong_expired_or_due_cookie_is_left_to_flask(site, served):
    anna, path = cookie_of(site, ANNA), f"/games/{site.g}?side=austria"
    front_as_flask(served, path, anna)
    forged = anna[:-2] + ("AA" if anna[-2:] != "AA" else "BB")
    refused = not_from_front(served, path, forged)
    assert refused[0] == 302 and "/login" in header(refused, "Location")
    assert not_from_front(served, path, None)[0] == 302
    cookies, now = site.app.session_interface, datetime.now(timezone.utc)
    cookies.clock = lambda: now + timedelta(days=30, minutes=1)  # past its lifetime
    late = not_from_front(served, path, anna)
    assert late[0] == 302 and "/login" in header(late, "Location")
    cookies.clock = lambda: now + timedelta(days=1, minutes=1)  # a day old: Flask signs it again
    renewed = not_from_front(served, path, anna)
    assert renewed[0] == 200 and "pbem_session=" in header(renewed, "Set-Cookie")
    cookies.clock = lambda: datetime.now(timezone.utc)
    front_as_flask(served, path, anna)


def test_a_session_signed_out_is_left_to_flask(site, served):
    anna = site.client(ANNA)
    cookie, path = anna.get_cookie("pbem_session").value, f"/games/{site.g}?side=austria"
    front_as_flask(served, path, cookie)
    assert anna.post("/logout", data={"csrf_token": anna.csrf}).status_code in (302, 303)
    after = not_from_front(served, path, cookie)
    assert after[0] == 302 and "/login" in header(after, "Location")


def test_a_changed_game_is_left_to_flask_once(site, served):
    """A day resolved, orders stored, a moderator's rewind: the next page is drawn by Flask (and differs),
    the one after it is the front's again."""
    anna, path = cookie_of(site, ANNA), f"/games/{site.g}?side=austria"
    before = front_as_flask(served, path, anna)
    for what, change in (("the day resolved", lambda: site.service.resolve_next(site.g)),
                         ("orders stored", lambda: site.service.submit(site.g, "austria", "STANDING PURSUE NEVER\n")),
                         ("a rewind", lambda: site.service.moderate(site.g, MOD, "rewind", "a mistake", day=0))):
        change()
        drawn = not_from_front(served, path, anna)
        assert drawn[0] == 200 and drawn[2] != before[2], what
        assert front_as_flask(served, path, anna) == drawn, what
        before = drawn


def test_the_time_left_moving_is_left_to_flask(site, served):
    anna, path = cookie_of(site, ANNA), f"/games/{site.g}?side=austria"
    before = front_as_flask(served, path, anna)
    start = site.service.now()
    site.service.clock = lambda: start + timedelta(hours=3)
    later = not_from_front(served, path, anna)
    assert later[0] == 200 and later[2] != before[2]


def test_no_reader_gets_another_readers_page_through_the_front(site, served):
    """Every reader asks every address of the game after every other reader's pages were kept: each
    answer is Flask's for him (the front's where it answers), France's orders never reach Austria's seat,
    and another seat's page is refused by Flask, never given by the front."""
    site.service.submit(site.g, "france", f"STANDING PURSUE NEVER  # {SECRET}\n")
    readers = {who: cookie_of(site, who) for who in (ANNA, FRED, MOD, OTTO)}
    paths = [f"/games/{site.g}{query}" for query in ("?side=austria", "?side=france", "?side=", "")]
    for _ in range(2):  # the second time, every page is kept for every reader
        for who, cookie in readers.items():
            for path in paths:
                flask = ask(served.flask, path, cookie)
                front = ask(served.front, path, cookie)
                assert front == flask, (who, path)
                if who == ANNA:
                    assert SECRET.encode() not in front[2]
                if (who, path.partition("?")[2]) in ((ANNA, "side=france"), (FRED, "side=austria")):
                    assert front[0] == 403, (who, path)
    assert served.answered > 0
    fred_page = ask(served.front, f"/games/{site.g}?side=france", readers[FRED])
    tag = header(fred_page, "ETag")
    assert not_from_front(served, f"/games/{site.g}?side=france", readers[ANNA], If_None_Match=tag)[0] == 403
    assert front_as_flask(served, f"/games/{site.g}?side=austria", readers[ANNA], If_None_Match=tag)[0] == 200


# -- the connection after a 304 ------------------------------------------------------------------------


def answer_on(sock: socket.socket, request: bytes) -> bytes:
    """Send ``request`` on ``sock`` and read one answer without a body (to its header's blank line);
    b"" when the server closed the connection."""
    sock.sendall(request)
    read = b""
    while b"\r\n\r\n" not in read:
        try:
            chunk = sock.recv(65536)
        except ConnectionResetError:
            return b""
        if not chunk:
            return b""
        read += chunk
    return read


@pytest.mark.parametrize("part", ["", "/map/0.svg"])
def test_two_conditional_requests_on_one_connection(site, served, part):
    """The page's 304 (the front's) and its map's (Flask's) leave the connection open for the next request;
    waitress 3.0.2 closed it after each (no Content-Length on a 304)."""
    site.service.resolve_next(site.g)  # day 0 resolved: its map is drawn
    anna = cookie_of(site, ANNA)
    path = f"/games/{site.g}{part}?side=austria"
    ask(served.front, path, anna)
    tag = header(ask(served.front, path, anna), "ETag")
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: pbem_session={anna}\r\n"
               f"If-None-Match: {tag}\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", served.front), timeout=30) as sock:
        first = answer_on(sock, request)
        assert first.startswith(b"HTTP/1.1 304 "), first
        assert b"connection: close" not in first.lower()
        second = answer_on(sock, request)
        assert second.startswith(b"HTTP/1.1 304 "), second


def test_a_304_asked_to_close_still_closes(site, served):
    anna = cookie_of(site, ANNA)
    path = f"/games/{site.g}?side=austria"
    tag = header(ask(served.front, path, anna), "ETag")
    request = (f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nCookie: pbem_session={anna}\r\n"
               f"If-None-Match: {tag}\r\nConnection: close\r\n\r\n").encode()
    with socket.create_connection(("127.0.0.1", served.front), timeout=30) as sock:
        first = answer_on(sock, request)
        assert first.startswith(b"HTTP/1.1 304 ") and b"connection: close" in first.lower()
        assert sock.recv(100) == b""  # closed, as asked
