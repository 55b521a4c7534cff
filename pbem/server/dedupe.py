"""Is a mail arriving the second time? Two tests, both before it is stored.

- Its Message-ID, **per sender**: the same Message-ID from the same From
  address is the same mail (a relay's retry, a second door). A Message-ID
  alone is not enough: anyone may write any Message-ID, and a site-wide test
  let a stranger who reused a player's Message-ID have his mail silently
  dropped (or a player's dropped, if the stranger came first).
- A digest (SHA-256) of the raw bytes as received, which include the
  envelope sender (the receiver's ``Return-Path:`` line), within ``WINDOW``:
  a mail without a Message-ID delivered twice (a relay whose 250 was lost:
  Postfix tries again after 5 minutes, Exim after 15) is the same bytes
  again. The window is short: after it the same bytes count as new, and are
  read and answered -- a script that sends ``GAME 3 KEY ... FINAL`` each turn
  without a Message-ID or a Date writes the same bytes every time, and a week's
  window dropped every one after the first in silence (issue 33).

``keys(raw)`` gives (sender, message_id, digest); ``find(db, ...)`` the id of
the stored copy, or None. Both run in the storing transaction.
"""

from __future__ import annotations

import email.parser
import email.policy
import email.utils
import hashlib
from datetime import datetime, timedelta

WINDOW = timedelta(minutes=15)
HEAD_LIMIT = 64 * 1024


def keys(raw: bytes) -> tuple[str, str | None, str]:
    """(sender, Message-ID or None, digest) of a raw message (never raises)."""
    raw = bytes(raw)
    digest = hashlib.sha256(raw).hexdigest()
    try:
        head = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw[:HEAD_LIMIT])
        message_id = " ".join(str(head.get("Message-ID", "")).split()) or None
        sender = ""
        for name in ("From", "Return-Path"):
            pairs = email.utils.getaddresses([str(head.get(name, ""))[:2000]])
            sender = next((addr.strip().lower() for _, addr in pairs if "@" in addr), "")
            if sender:
                break
    except Exception:  # noqa: BLE001 - an unreadable head: the digest still tells copies apart
        return "", None, digest
    return sender[:320], (message_id[:998] if message_id else None), digest


def find(db, sender: str | None, message_id: str | None, digest: str | None, when: str) -> int | None:
    """The id of an earlier copy of this mail, or None."""
    if message_id is not None and sender is not None:
        row = db.execute("SELECT id FROM inbound WHERE message_id = ? AND sender = ? ORDER BY id LIMIT 1",
                         (message_id, sender)).fetchone()
        if row is not None:
            return row[0]
    if digest is not None:
        since = (datetime.fromisoformat(when.replace("Z", "+00:00")) - WINDOW).strftime("%Y-%m-%dT%H:%M:%SZ")
        row = db.execute("SELECT id FROM inbound WHERE digest = ? AND received_at >= ? ORDER BY id LIMIT 1",
                         (digest, since)).fetchone()
        if row is not None:
            return row[0]
    return None
