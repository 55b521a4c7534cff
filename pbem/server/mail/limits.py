"""A per-sender limit at the SMTP receiver.

The receiver stores whatever it accepts before it says 250, so without a
limit one sender could fill the disk (2 MiB a message, as fast as it can
send). ``SenderLimit`` counts, for each envelope sender (the bounce sender
``<>`` is one sender too), the messages and bytes accepted in the last hour;
over ``messages`` or ``bytes``, the receiver answers ``451 4.7.1`` at MAIL
FROM (or at the end of DATA), a temporary refusal: a real mail server keeps
the message and tries again later, a flood stops being stored. It is counted
per envelope sender, not per client address: behind a relay every mail comes
from the relay's address.
"""

from __future__ import annotations

import threading
import time
from collections import deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pbem.server.store import Store

WINDOW = 3600.0
MAX_SENDERS = 50_000  # senders remembered; the oldest are forgotten first


class SenderLimit:
    def __init__(self, messages: int = 100, bytes_: int = 20 * 1024 * 1024, clock=time.monotonic):
        self.messages, self.bytes, self.clock = messages, bytes_, clock
        self._seen: dict[str, deque] = {}  # (when, size) of each message in the last hour
        self._sizes: dict[str, int] = {}  # their sizes' sum, kept as they come and go (not added up each check)
        self._lock = threading.Lock()

    @staticmethod
    def key(sender: str | None) -> str:
        return (sender or "").strip().strip("<>").lower() or "<>"

    def _recent(self, key: str) -> deque:
        now = self.clock()
        seen = self._seen.setdefault(key, deque())
        gone = 0
        while seen and seen[0][0] < now - WINDOW:
            gone += seen.popleft()[1]
        if gone:
            self._sizes[key] -= gone
        return seen

    def refusal(self, sender: str | None, size: int = 0) -> str:
        """Why one more message of ``size`` bytes from ``sender`` must wait, or ""."""
        if not self.messages and not self.bytes:
            return ""
        with self._lock:
            key = self.key(sender)
            seen = self._recent(key)
            if self.messages and len(seen) >= self.messages:
                return f"more than {self.messages} messages an hour from this sender"
            if self.bytes and self._sizes.get(key, 0) + size > self.bytes:
                return f"more than {self.bytes // (1024 * 1024)} MiB an hour from this sender"
            return ""

    def note(self, sender: str | None, size: int) -> None:
        if not self.messages and not self.bytes:
            return
        with self._lock:
            key = self.key(sender)
            self._recent(key).append((self.clock(), size))
            self._sizes[key] = self._sizes.get(key, 0) + size
            if len(self._seen) > MAX_SENDERS:
                for old in list(self._seen)[: len(self._seen) - MAX_SENDERS]:
                    del self._seen[old]
                    self._sizes.pop(old, None)


class Backlog:
    """Back-pressure: while more than ``most`` stored mails wait to be processed, the receiver answers
    ``451 4.3.2`` at MAIL FROM (a sending mail server keeps the message and tries again later), so
    the intake is held to what the server processes instead of growing a queue that delays every
    answer. ``most`` 0: no limit. The count reads the inbound table's (status, id) index and stops
    at ``most + 1``: its cost does not grow with the queue."""

    def __init__(self, store: Store, most: int):
        self.store, self.most = store, most

    def refusal(self) -> str:
        """Why the receiver must not take mail now, or ""."""
        if not self.most:
            return ""
        waiting = self.store.query_one(
            "SELECT COUNT(*) AS n FROM (SELECT 1 FROM inbound WHERE status = 'stored' LIMIT ?)", (self.most + 1,))
        if waiting["n"] > self.most:
            return f"more than {self.most} mails wait to be processed"
        return ""
