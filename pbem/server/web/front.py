"""The kept game page answered before Flask (issue 35, item 2, thirteenth session).

    app.wsgi_app = Front(app)   # pbem.server.web.create_app

A browser asking again for a game page it was given, the game unchanged and the time left on the page
reading the same, gets the page kept for it (pbem.server.web.pagecache) here, without Flask: Flask and
werkzeug were over half of a kept page's CPU. Everything else goes to Flask, and so does this request
whenever one of the checks below is not plainly passed; Flask then decides as before.

The checks are those Flask's path makes before it gives a kept page (``pagecache.kept_page`` in
``games.game_page``), read the same way:

- a GET of ``/games/<id>`` by a signed-in session (``load_user``): the session cookie already read once
  by the app's session interface (``DailyRenewed.known``: its signature checked then, looked up now by
  its exact text), permanent (as ``sign_in`` makes it) and not yet due to be signed again (a day old:
  Flask sends the new cookie; so never past its 30 days' lifetime either), with its form token made (else Flask adds one and sends the cookie), and holding no
  orders answer nor message to show; its session generation still the address's and the session not
  signed out (``Store.session_facts``, one read, as ``load_user``);
- the page kept under the key Flask's path makes (``pagecache.page_key``): the game's counter (one
  read), the reader, his session's form token, the language (``i18n.select``) and the address asked for;
  a page was kept only after ``side_for`` let that reader see that seat (or the moderator's or
  spectator's view), so a seat only ever gets its own seat's page, and the same key is the same
  decision;
- its deadlines' minutes left still those it says (``kept_page``).

The answer is the one ``pagecache.page_sent`` and the app's hooks give: a 304 to its ETag, gzip when the
browser takes it, the security headers, the same Vary and Cache-Control; no cookie (none would be sent).
tests/test_page_front.py compares the two, header by header and byte by byte.
"""

from __future__ import annotations

import logging
import re

from werkzeug.http import parse_cookie, parse_etags

from pbem.server import i18n
from pbem.server.web import pagecache
from pbem.server.web.security import SECURITY_HEADERS
from pbem.server.web.sessions import RENEW_AFTER

log = logging.getLogger("pbem.server.web")

GAME_PAGE = re.compile(r"/games/([0-9]+)\Z")


class Front:
    """A WSGI layer before the Flask app ``app``: the kept game page, or Flask."""

    def __init__(self, app):
        self.app = app
        self.flask = app.wsgi_app
        self.answered = 0  # answers given here (the tests see this path taken; threads may miss a few counts)

    def __call__(self, environ, start_response):
        try:
            answer = self.answer(environ)
        except Exception:  # noqa: BLE001 - Flask answers instead (it reads the same and says what failed)
            log.exception("the kept page's front failed; Flask answers")
            answer = None
        if answer is None:
            return self.flask(environ, start_response)
        status, headers, body = answer
        self.answered += 1
        start_response(status, headers)
        return [body]

    def answer(self, environ) -> tuple[str, list, bytes] | None:
        """The kept page's status, headers and body for this request, or None (Flask answers)."""
        if environ.get("REQUEST_METHOD") != "GET":
            return None
        found = GAME_PAGE.match(environ.get("PATH_INFO", ""))
        query = environ.get("QUERY_STRING", "")
        if found is None or not query.isascii():
            return None
        cookies = parse_cookie(environ)
        session = self.session(cookies.get(self.app.config["SESSION_COOKIE_NAME"]))
        if session is None:
            return None
        service = self.app.extensions["pbem"]["service"]
        email = session["email"]
        generation, saved, ended = service.store.session_facts(email, session.get("sid"))
        if session.get("generation", 0) != generation or ended:
            return None  # Flask clears the session and sends the cookie
        negotiated = not saved
        language = saved or i18n.negotiated(cookies.get(i18n.COOKIE), environ.get("HTTP_ACCEPT_LANGUAGE"))
        game_id = int(found.group(1))
        key = pagecache.key_of(game_id, service.store.game_version(game_id), (email, None), session["csrf"], language,
                               f"{environ.get('PATH_INFO')}?{query}")
        page = pagecache.peek("page", key, self.app)
        if page is None or page.clock != pagecache.clock_of(page.deadlines, service):
            return None
        return sent(page, environ, negotiated)

    def session(self, cookie: str | None) -> dict | None:
        """The session of a signed-in reader's cookie, read before and not to be sent again, or None."""
        if not cookie:
            return None
        interface = self.app.session_interface
        known = interface.known(cookie)
        if known is None:
            return None
        session, signed = known
        if interface.clock() - signed >= RENEW_AFTER or not session.get("_permanent"):
            return None  # a day old: Flask signs it again (or, past its lifetime, refuses it)
        if not session.get("email") or "csrf" not in session or "answer" in session or "_flashes" in session:
            return None
        return session


def sent(page: pagecache.KeptPage, environ, negotiated: bool) -> tuple[str, list, bytes]:
    """``pagecache.page_sent``'s answer with the app's hooks' headers (security.headers, the session's
    Vary), as werkzeug sends it (a 304 without the body's headers)."""
    gzipped = "gzip" in environ.get("HTTP_ACCEPT_ENCODING", "")
    tag = page.tag + "-gz" if gzipped else page.tag
    vary = "Accept-Encoding, Cookie, Accept-Language" if negotiated else "Accept-Encoding, Cookie"
    headers = [("Vary", vary), ("ETag", f'"{tag}"'), ("Cache-Control", "private, no-cache")]
    wanted = parse_etags(environ.get("HTTP_IF_NONE_MATCH"))
    if wanted.contains(tag) or wanted.contains(tag + "-gz"):
        return "304 NOT MODIFIED", [*headers, *SECURITY_HEADERS], b""
    body = page.packed if gzipped else page.data
    if gzipped:
        headers.append(("Content-Encoding", "gzip"))
    return "200 OK", [*headers, ("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body))),
                      *SECURITY_HEADERS], body


class FlaskAlone:
    """The app's Flask without the front, as a WSGI app pbem.server.httpd can serve (it reads the app's
    ``config``): ``pbem bench --page`` and tests/test_page_front.py ask it beside the front, over the same
    app and what it keeps."""

    def __init__(self, app):
        self.wsgi, self.config = app.wsgi_app.flask, app.config

    def __call__(self, environ, start_response):
        return self.wsgi(environ, start_response)
