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
"""

from __future__ import annotations

import hashlib
import threading
from collections import OrderedDict

from flask import current_app, request

SIZES = {"report": 256, "page": 256, "grammar": 128, "svg": 64, "clicks": 64, "png": 24}
"""How many values of each kind are kept (least recently used dropped first)."""
_LOCK = threading.Lock()


def version(game_id: int) -> int:
    """The game's counter of writes, as last committed."""
    from pbem.server.web.security import service

    return service().store.game_version(game_id)


def kept(kind: str, key: tuple, make):
    """The value of ``kind`` under ``key`` (which names the game's version), made by ``make()`` when
    not kept; made outside the lock (two threads may make the same value once each: the same value)."""
    tables = current_app.extensions["pbem"].setdefault("pagecache", {})
    with _LOCK:
        table = tables.setdefault(kind, OrderedDict())
        if key in table:
            table.move_to_end(key)
            return table[key]
    value = make()
    with _LOCK:
        table[key] = value
        while len(table) > SIZES.get(kind, 64):
            table.popitem(last=False)
    return value


def etag_of(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()[:32]


def not_modified(tag: str) -> bool:
    """Does the request's If-None-Match name ``tag`` (or its gzip form, pbem.server.web.games.compress)?"""
    return request.if_none_match.contains(tag) or request.if_none_match.contains(tag + "-gz")
