"""The IMAP door: poll a real mailbox, store each new message, then mark it seen.

A message is flagged \\Seen only after it is stored, so a crash between the
two stores it twice at worst, and the second copy is recognised by its
Message-ID. Messages are never deleted from the mailbox: the mailbox is the
club's own archive.
"""

from __future__ import annotations

import imaplib

from pbem.server import inbox
from pbem.server.service import Service


def poll(service: Service, host: str, port: int, user: str, password: str, folder: str = "INBOX",
         ssl: bool = True) -> int:
    """Store every unseen message of ``folder``; returns how many were new."""
    client = imaplib.IMAP4_SSL(host, port) if ssl else imaplib.IMAP4(host, port)
    stored = 0
    try:
        client.login(user, password)
        client.select(folder)
        status, data = client.uid("search", None, "UNSEEN")
        if status != "OK":
            return 0
        for uid in data[0].split():
            status, parts = client.uid("fetch", uid, "(BODY.PEEK[])")
            if status != "OK" or not parts or not isinstance(parts[0], tuple):
                continue
            raw = parts[0][1]
            _id, duplicate = inbox.receive(service, raw, "imap")
            stored += 0 if duplicate else 1
            client.uid("store", uid, "+FLAGS", "(\\Seen)")
    finally:
        try:
            client.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
    return stored
