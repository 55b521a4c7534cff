"""What a game's pages compute, kept while the game is unchanged (issue 35, item 2).

Every key begins with the game and its counter of writes (``Store.game_version``: SQLite's triggers
bump it on every write to what a game's pages show, whichever process wrote: new orders, a resolved
day, a rewind, an amendment, a moderator's act, a seat taken), so a kept value is never read after
the game changed. Hidden information: every key names the seat (None: the moderator's or a
spectator's view, told apart by ``spectator``) and, for a whole page, the reader; a value computed
for one seat is never given to another.

A write that commits while a value is made may be in it under the counter read before: harmless, the
next request reads the new counter and makes the value again; a value is never older than its counter.

The words that change with the clock (the time left to the deadline) are part of the keys that hold
them, so a kept report or page never says an old time left.

Each kind of value is held in a small least-recently-used table of this app (``kept``), under a lock
(the web's threads share it).

The whole game page is found before anything else of the game is read (``kept_page``): its key names
the game's counter (read once a request), the reader and his session's form token, the language and the
address asked for, which with the game's rows (under the counter) decide the seat shown and whether the
reader may see it; a page was kept only after that decision let him see it, so the same key is the same
decision. Its deadlines are kept with it, and the page is given only while the minutes left to them are
those it says.
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict
from dataclasses import dataclass
from datetime import datetime

from flask import Response, current_app, g, request, session

SIZES = {"report": 256, "page": 256, "grammar": 128, "svg": 64, "clicks": 64, "png": 24}
"""How many values of each kind are kept (least recently used dropped first)."""
_LOCK = threading.Lock()


def version(game_id: int) -> int:
    """The game's counter of writes, as committed when this request first asked (read once a request:
    whatever the request reads of the game after it is as new or newer)."""
    versions = g.setdefault("game_versions", {})
    if game_id not in versions:
        from pbem.server.web.security import service

        versions[game_id] = service().store.game_version(game_id)
    return versions[game_id]


def _table(kind: str, app=None) -> OrderedDict:
    app = app or current_app
    return app.extensions["pbem"].setdefault("pagecache", {}).setdefault(kind, OrderedDict())


def peek(kind: str, key: tuple, app=None):
    """The value of ``kind`` kept under ``key``, or None (``app``: the request's, unless given, as
    pbem.server.web.front gives it before Flask)."""
    with _LOCK:
        table = _table(kind, app)
        if key not in table:
            return None
        table.move_to_end(key)
        return table[key]


def keep(kind: str, key: tuple, value) -> None:
    with _LOCK:
        table = _table(kind)
        table[key] = value
        while len(table) > SIZES.get(kind, 64):
            table.popitem(last=False)


def kept(kind: str, key: tuple, make):
    """The value of ``kind`` under ``key`` (which names the game's version), made by ``make()`` when
    not kept; made outside the lock (two threads may make the same value once each: the same value)."""
    value = peek(kind, key)
    if value is None:
        value = make()
        keep(kind, key, value)
    return value


# -- the whole game page ---------------------------------------------------------------------------


@dataclass(frozen=True)
class KeptPage:
    side: str | None  # the seat shown (None: the moderator's or a spectator's view)
    deadlines: tuple  # the deadlines the page words with their time left (the game's, the seat's question's), read
    clock: tuple  # the whole minutes left to each when the page was drawn (``minutes_left``)
    data: bytes  # the page as sent
    tag: str  # its ETag
    packed: bytes  # its gzip


def page_key(game_id: int) -> tuple:
    """What decides a plain game page besides the game (its counter): the reader (and his session's form
    token, made first so the page carries it), the language, and the address asked for (the seat)."""
    from pbem.server import i18n
    from pbem.server.web.security import csrf_token

    token = csrf_token()
    user = (g.user.email, g.user.seat) if g.user is not None else None
    language = i18n.select()  # what decides the page's language (web_lang: the same, read by Babel)
    return key_of(game_id, version(game_id), user, token, language, request.full_path)


def key_of(game_id: int, counter: int, user: tuple | None, token: str, language: str, full_path: str) -> tuple:
    """A kept game page's key from its parts: ``page_key``'s, and pbem.server.web.front's, which reads them
    from the request before Flask (the same key is the same decision of who may read the page)."""
    return game_id, counter, user, token, language, full_path


def minutes_left(deadline: datetime | None, now: datetime) -> int | None:
    """The whole minutes left to a deadline (0: passed), as time_left words them; None: no deadline."""
    if deadline is None:
        return None
    return max(0, int((deadline - now).total_seconds() // 60))


def clock_of(deadlines: tuple, service=None) -> tuple:
    """The whole minutes left to each of ``deadlines`` now (``service``: the request's, unless given)."""
    if service is None:
        from pbem.server.web.security import service as current

        service = current()
    now = service.now()
    return tuple(minutes_left(deadline, now) for deadline in deadlines)


def kept_page(game_id: int) -> KeptPage | None:
    """The page kept for this very request whose time left still reads the same, or None; None also when
    the session holds an orders answer or a message to show (the page then says it, once)."""
    if "answer" in session or session.get("_flashes"):
        return None
    page = peek("page", page_key(game_id))
    if page is None or page.clock != clock_of(page.deadlines):
        return None
    return page


def keep_page(game_id: int, side: str | None, deadlines: tuple, draw) -> KeptPage:
    """The plain page of ``side`` (already allowed) for this request: the one kept if it is still the same,
    else ``draw()``'s HTML, kept."""
    import gzip

    from pbem.server.deadlines import parse_iso

    deadlines = tuple(parse_iso(deadline) for deadline in deadlines)
    key, clock = page_key(game_id), clock_of(deadlines)
    page = peek("page", key)
    if page is None or page.side != side or page.deadlines != deadlines or page.clock != clock:
        data = draw().encode()
        page = KeptPage(side, deadlines, clock, data, etag_of(data), gzip.compress(data, 6))
        keep("page", key, page)
    return page


def page_sent(page: KeptPage) -> Response:
    """The kept page as answered: 304 to its ETag, gzip when the browser takes it."""
    gzipped = "gzip" in request.headers.get("Accept-Encoding", "")
    tag = page.tag + "-gz" if gzipped else page.tag
    headers = [("Vary", "Accept-Encoding, Cookie"), ("ETag", f'"{tag}"'),
               ("Cache-Control", "private, no-cache")]  # kept by the browser, asked again each time
    if not_modified(tag):
        return Response(status=304, headers=headers)
    if gzipped:
        return Response(page.packed, mimetype="text/html", headers=[*headers, ("Content-Encoding", "gzip")])
    return Response(page.data, mimetype="text/html", headers=headers)


def etag_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def not_modified(tag: str) -> bool:
    """Does the request's If-None-Match name ``tag`` (or its gzip form, pbem.server.web.games.compress)?"""
    return request.if_none_match.contains(tag) or request.if_none_match.contains(tag + "-gz")
