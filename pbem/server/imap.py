"""The IMAP door: poll a real mailbox, store each new message, then deal with it as the setting
``imap_after`` says: flag it \\Seen and keep it (the default: the mailbox stays the club's archive), move it
to the folder ``imap_move_to``, or delete it.

A message is flagged, moved or deleted only after it is stored, so a crash between the two stores it twice
at worst, and the second copy is recognised by its Message-ID. What goes wrong (an unknown host, a refused
login, a missing mailbox) is an ``ImapError`` whose message says it in one line, for the log and the admin
page; never a traceback.
"""

from __future__ import annotations

import imaplib
import socket
import ssl as tls

from pbem.server import inbox
from pbem.server.service import Service


class ImapError(RuntimeError):
    """The mailbox could not be polled; the message says why, in one line."""


def poll(service: Service, host: str, port: int, user: str, password: str, folder: str = "INBOX",
         ssl: bool = True, after: str = "seen", move_to: str = "pbem-fetched") -> int:
    """Store every unseen message of ``folder``; returns how many were new."""
    where = f"the IMAP server {host}:{port}"
    try:
        client = imaplib.IMAP4_SSL(host, port, timeout=60) if ssl else imaplib.IMAP4(host, port, timeout=60)
    except socket.gaierror as exc:
        raise ImapError(f"{where} cannot be found ({exc.strerror}): check imap_host") from None
    except tls.SSLError as exc:
        raise ImapError(f"{where} did not speak TLS ({exc.reason or exc}): check imap_ssl and imap_port "
                        f"(993 with TLS, 143 without)") from None
    except (OSError, imaplib.IMAP4.error) as exc:
        raise ImapError(f"{where} cannot be reached ({getattr(exc, 'strerror', None) or exc}): check imap_host, "
                        f"imap_port and imap_ssl") from None
    stored = 0
    try:
        try:
            client.login(user, password)
        except imaplib.IMAP4.error as exc:
            raise ImapError(f"{where} refused the login of {user!r}: check imap_user and imap_password "
                            f"(it said: {_said(exc)})") from None
        status, data = client.select(folder)
        if status != "OK":
            raise ImapError(f"{where} has no mailbox {folder!r} for {user!r}: check imap_folder "
                            f"(it said: {_said(data)})")
        if after == "move":
            client.create(move_to)  # "already exists" is an answer too: the folder is there
        status, data = client.uid("search", None, "UNSEEN")
        if status != "OK":
            raise ImapError(f"{where} refused to list the unseen mail of {folder!r} (it said: {_said(data)})")
        done = []
        for uid in data[0].split():
            status, parts = client.uid("fetch", uid, "(BODY.PEEK[])")
            if status != "OK" or not parts or not isinstance(parts[0], tuple):
                continue
            raw = parts[0][1]
            _id, duplicate = inbox.receive(service, raw, "imap")
            stored += 0 if duplicate else 1
            client.uid("store", uid, "+FLAGS", "(\\Seen)")
            done.append(uid)
        if done and after in ("move", "delete"):
            uids = b",".join(done).decode()
            if after == "move":
                client.uid("copy", uids, move_to)
            client.uid("store", uids, "+FLAGS", "(\\Deleted)")
            client.expunge()
    except (OSError, imaplib.IMAP4.error) as exc:
        raise ImapError(f"{where} broke off ({getattr(exc, 'strerror', None) or _said(exc)})") from None
    finally:
        try:
            client.logout()
        except (imaplib.IMAP4.error, OSError):
            pass
    return stored


def _said(what) -> str:
    """An IMAP server's answer as one short line."""
    if isinstance(what, list):
        what = b" ".join(x for x in what if isinstance(x, bytes)) or what
    if isinstance(what, bytes):
        what = what.decode("utf-8", "replace")
    return " ".join(str(what).split())[:200]
