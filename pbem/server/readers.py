"""Reads that wait for no writer: a small pool of read-only SQLite connections.

The store's one connection is shared under a lock, so a read on it waits for
any write transaction another thread holds (a mail being processed, a day
being resolved). In WAL mode a reader on a connection of its own sees the last
committed state and never waits for a writer; ``Readers.query`` runs a read
so. The store uses it for every read made outside a transaction of the
calling thread (inside one, a read must see that transaction's own changes).
"""

from __future__ import annotations

import sqlite3
import threading

KEEP = 8  # idle connections kept open


class Readers:
    def __init__(self, path: str):
        self.path = path
        self._free: list[sqlite3.Connection] = []
        self._lock = threading.Lock()
        self.closed = False

    def query(self, sql: str, params=()) -> list[dict]:
        conn = self._take()
        try:
            cursor = conn.execute(sql, params)
            names = [d[0] for d in cursor.description or ()]
            return [dict(zip(names, row)) for row in cursor.fetchall()]
        finally:
            self._give(conn)

    def _take(self) -> sqlite3.Connection:
        with self._lock:
            if self._free:
                return self._free.pop()
        conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        conn.execute("PRAGMA query_only = ON")
        return conn

    def _give(self, conn: sqlite3.Connection) -> None:
        with self._lock:
            if not self.closed and len(self._free) < KEEP:
                self._free.append(conn)
                return
        conn.close()

    def close(self) -> None:
        with self._lock:
            self.closed = True
            free, self._free = self._free, []
        for conn in free:
            conn.close()
