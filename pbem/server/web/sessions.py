"""Ending one web session on the server, although it is a signed cookie.

A session started by ``sign_in`` carries a random id (``sid``). "Sign out"
records that id in ``ended_sessions``; every request checks it there, so a
copy of the cookie taken before the sign-out (a shared computer, a stolen
cookie) no longer signs anyone in. Ended ids are forgotten once a session
could no longer be alive anyway (``LIFETIME``, the cookie's own lifetime).
A session from before this existed has no id: signing it out ends every
session of its address, as "Sign out everywhere" does.
"""

from __future__ import annotations

import secrets
from datetime import timedelta

from pbem.server.store import iso

LIFETIME = timedelta(days=30)  # PERMANENT_SESSION_LIFETIME of the web app


def new_id() -> str:
    return secrets.token_urlsafe(18)


def end(store, sid: str, now) -> None:
    store.execute("INSERT OR IGNORE INTO ended_sessions (sid, at) VALUES (?, ?)", (sid, iso(now)))  # pragma: no mutate (SQL)


def ended(store, sid: str) -> bool:
    return store.query_one("SELECT 1 AS x FROM ended_sessions WHERE sid = ?", (sid,)) is not None  # pragma: no mutate (SQL)


def forget_old(store, now) -> int:
    """Drop ended ids older than a session can live; returns how many."""
    return store.execute("DELETE FROM ended_sessions WHERE at < ?", (iso(now - LIFETIME),)).rowcount  # pragma: no mutate (SQL)
