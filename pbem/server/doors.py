"""The doors mail comes in by (the built-in SMTP receiver, an IMAP mailbox polled, a mail server's pipe to
``pbem mail-in``) and what each did last, in words: for ``pbem serve``'s first lines and the admin page."""

from __future__ import annotations

import threading
from dataclasses import dataclass
from datetime import datetime


@dataclass
class Fetch:
    """The IMAP door's last poll: when, how many new messages it stored, and what went wrong (in words)."""

    at: datetime
    stored: int = 0
    error: str = ""


class Doors:
    """What this process's doors did last. The SMTP receiver's and the pipe's mail are in the store (the
    inbound table, by source); the IMAP poll's outcome, error included, is only here."""

    def __init__(self):
        self._lock = threading.Lock()
        self.imap_last: Fetch | None = None
        self.imap_last_ok: Fetch | None = None

    def fetched(self, at: datetime, stored: int) -> None:
        with self._lock:
            self.imap_last = self.imap_last_ok = Fetch(at, stored)

    def failed(self, at: datetime, error: str) -> bool:
        """Record a failed poll; whether its error is news (not the same as the last poll's)."""
        with self._lock:
            news = self.imap_last is None or self.imap_last.error != error
            self.imap_last = Fetch(at, 0, error)
            return news


def described(config) -> list[tuple[str, bool, str]]:
    """Each door as (name, open, where and how), from the settings."""
    smtp = (f"{config.smtp_host}:{config.smtp_port}, the built-in receiver" if config.smtp_enabled
            else "closed (smtp_enabled = false)")
    if config.imap_host:
        after = {"seen": "marked seen and kept", "move": f"moved to the folder {config.imap_move_to}",
                 "delete": "deleted"}[config.imap_after]
        imap = (f"{config.imap_host}:{config.imap_port} ({'TLS' if config.imap_ssl else 'plain'}), mailbox "
                f"{config.imap_folder} of {config.imap_user}; fetched mail is {after}")
    else:
        imap = "closed (no imap_host)"
    pipe = "pbem mail-in, run by a mail server for each message (always open)"
    return [("SMTP", config.smtp_enabled, smtp), ("IMAP", bool(config.imap_host), imap), ("pipe", True, pipe)]
