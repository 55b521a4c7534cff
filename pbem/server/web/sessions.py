"""Ending one web session on the server, although it is a signed cookie.

A session started by ``sign_in`` carries a random id (``sid``). "Sign out"
records that id in ``ended_sessions``; every request checks it there, so a
copy of the cookie taken before the sign-out (a shared computer, a stolen
cookie) no longer signs anyone in. Ended ids are forgotten once a session
could no longer be alive anyway (``LIFETIME``, the cookie's own lifetime).
A session from before this existed has no id: signing it out ends every
session of its address, as "Sign out everywhere" does.

The cookie is signed again only when the session changed or its signature is
``RENEW_AFTER`` old (``DailyRenewed``), not on every request as Flask does for a
permanent session: signing it (JSON, zlib, HMAC) was 17-21 % of a kept game page
(issue 35, item 2). A session used at least every 29 days still never ends by
itself; one unused for 30 days ends, as before.
"""

from __future__ import annotations

import secrets
import threading
from collections import OrderedDict
from datetime import datetime, timedelta, timezone

from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature

from pbem.server.store import iso

LIFETIME = timedelta(days=30)  # PERMANENT_SESSION_LIFETIME of the web app
RENEW_AFTER = timedelta(days=1)  # a permanent session's cookie is signed again (30 days more) once this old


OPENED = 1024  # cookies kept read (``DailyRenewed.opened``)


class DailyRenewed(SecureCookieSessionInterface):
    """Flask's signed cookie, sent again when the session changed, or when it is permanent and its
    signature (itsdangerous's timestamp, the same clock its 30 days are counted by) is a day old.

    A cookie once read (its signature checked, its JSON unpacked) is kept read, by its exact text, so the
    same browser's next request does not check and unpack it again (another 13-21 % of a kept game page);
    its age is still checked against the lifetime every time. Only a session of plain values is kept (a
    list, such as the messages flashed, is changed in place by the request)."""

    def __init__(self):
        self.opened: OrderedDict[str, tuple[dict, datetime]] = OrderedDict()
        self.lock = threading.Lock()
        self.clock = lambda: datetime.now(timezone.utc)  # itsdangerous's clock (a test moves it)

    def open_session(self, app, request):
        if not app.secret_key:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        with self.lock:
            read = self.opened.get(value)
        if read is None:
            read = self.read(app, value)
            if read is None:
                return self.session_class()
        data, signed = read
        if self.clock() - signed > app.permanent_session_lifetime:
            return self.session_class()
        session = self.session_class(data)
        session.signed_at = signed
        return session

    def read(self, app, value: str) -> tuple[dict, datetime] | None:
        """The data and signing time of cookie ``value``, or None when its signature is wrong or too old."""
        try:
            data, signed = self.get_signing_serializer(app).loads(
                value, max_age=int(app.permanent_session_lifetime.total_seconds()), return_timestamp=True)
        except BadSignature:
            return None
        if all(isinstance(v, (str, int, float, bool, type(None))) for v in data.values()):
            with self.lock:
                self.opened[value] = (dict(data), signed)
                while len(self.opened) > OPENED:
                    self.opened.popitem(last=False)
        return data, signed

    def known(self, value: str) -> tuple[dict, datetime] | None:
        """The data and signing time of cookie ``value`` if it was read before (its signature checked then),
        else None; not to be changed (pbem.server.web.front reads it before Flask)."""
        with self.lock:
            return self.opened.get(value)

    def should_set_cookie(self, app, session) -> bool:
        if session.modified:
            return True
        signed = getattr(session, "signed_at", None)
        return session.permanent and (signed is None or self.clock() - signed >= RENEW_AFTER)


def new_id() -> str:
    return secrets.token_urlsafe(18)


def end(store, sid: str, now) -> None:
    store.execute("INSERT OR IGNORE INTO ended_sessions (sid, at) VALUES (?, ?)", (sid, iso(now)))  # pragma: no mutate (SQL)


def ended(store, sid: str) -> bool:
    return store.query_one("SELECT 1 AS x FROM ended_sessions WHERE sid = ?", (sid,)) is not None  # pragma: no mutate (SQL)


def forget_old(store, now) -> int:
    """Drop ended ids older than a session can live; returns how many."""
    return store.execute("DELETE FROM ended_sessions WHERE at < ?", (iso(now - LIFETIME),)).rowcount  # pragma: no mutate (SQL)
