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

WINDOW = 3600.0
MAX_SENDERS = 50_000  # senders remembered; the oldest are forgotten first


class SenderLimit:
    def __init__(self, messages: int = 100, bytes_: int = 20 * 1024 * 1024, clock=time.monotonic):
        self.messages, self.bytes, self.clock = messages, bytes_, clock
        self._seen: dict[str, deque] = {}
        self._lock = threading.Lock()

    @staticmethod
    def key(sender: str | None) -> str:
        return (sender or "").strip().strip("<>").lower() or "<>"

    def _recent(self, key: str) -> deque:
        now = self.clock()
        seen = self._seen.setdefault(key, deque())
        while seen and seen[0][0] < now - WINDOW:
            seen.popleft()
        return seen

    def refusal(self, sender: str | None, size: int = 0) -> str:
        """Why one more message of ``size`` bytes from ``sender`` must wait, or ""."""
        with self._lock:
            seen = self._recent(self.key(sender))
            if self.messages and len(seen) >= self.messages:
                return f"more than {self.messages} messages an hour from this sender"
            if self.bytes and sum(n for _, n in seen) + size > self.bytes:
                return f"more than {self.bytes // (1024 * 1024)} MiB an hour from this sender"
            return ""

    def note(self, sender: str | None, size: int) -> None:
        with self._lock:
            self._recent(self.key(sender)).append((self.clock(), size))
            if len(self._seen) > MAX_SENDERS:
                for key in list(self._seen)[: len(self._seen) - MAX_SENDERS]:
                    del self._seen[key]
