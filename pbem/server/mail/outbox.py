"""The outbox: every outgoing mail is a row in the database before it is sent.

``queue(store, ...)`` adds a message (inside the caller's transaction, if
any, so a reply is queued together with the change it reports); a second
``queue`` with the same ``dedupe_key`` does nothing and returns the first id.
``Sender(store, ...).send_due(now)`` delivers what is due, by SMTP to a relay
or into a Maildir folder, and retries failures with exponential backoff
(1, 2, 4 ... minutes, at most an hour apart) until ``max_attempts``, after
which the row is ``failed`` and an audit entry records why.

Crash safety. A row is claimed -- status ``sending``, attempt counted, its
Message-ID recorded -- and committed *before* delivery, and marked ``sent``
after. A crash in between leaves it ``sending``; it is retried once its lease
(``LEASE``) has run out, with the same deterministic Message-ID.

- Maildir delivery is exactly-once: the file name is derived from the row, and
  a retry that finds the file already delivered only marks the row sent.
- Attachments that can be drawn again from the game's log (a report's map and
  view.json) are kept as a reference (``Drawn``), not as bytes: the row holds
  what to draw, and the message is built with them drawn again (the map from
  the map cache, pbem.server.mapcache, by its SVG's digest, else redrawn). The
  same log gives the same bytes, so a retry after a crash sends the same
  message; a finished game keeps no copy of its maps in the database.
- SMTP delivery is at-least-once: if the relay accepted the message and the
  process died before the ``sent`` mark was committed (a window of one
  SQLite commit), the message is sent again. The copy carries the same
  Message-ID, so mail programs that de-duplicate by Message-ID (Gmail,
  most clients) show it once. This window cannot be closed from this side:
  SMTP has no way to ask a relay whether it already took a message.
"""

from __future__ import annotations

import base64
import email.policy
import json
import os
import re
import secrets
import smtplib
import socket
import time
from datetime import datetime, timedelta
from email.contentmanager import _encode_text  # what EmailMessage.set_content encodes a text with
from email.header import Header
from email.message import EmailMessage
from email.utils import format_datetime
from pathlib import Path

from pbem.server.addresses import one_line
from pbem.server.mail import mimebytes
from pbem.server.mail.reply import mark_html, mark_text
from pbem.server.store import TEXT_INLINE, iso, put_text

# Mutation testing (docs/testing.md): a line marked ``# pragma: no mutate`` has only equivalent
# mutants. (SQL): SQL keywords and names are case-blind, so a case change does nothing. (see top):
# smtplib.send_message takes the same envelope from the From and To headers when not given it.
LEASE = timedelta(minutes=5)  # how long a claimed row is left alone before a retry
BACKOFF_CAP = timedelta(hours=1)
MAX_ATTEMPTS = 10
BATCH = 50  # rows claimed in one commit
MARK_EVERY = 0.2  # seconds: rows delivered are marked sent at least this often


class Unsendable(ValueError):
    """The outbox row cannot be made into a message; retrying cannot help."""


class DrawingFailed(RuntimeError):
    """An attachment kept as a reference could not be drawn now; a later attempt may."""


class Drawn(dict):
    """An attachment's content given by what to draw again (a JSON object the sender's ``resolve``
    understands, e.g. ``{"map": [game, day, side], "svg": digest}``) instead of bytes."""


def queue(store, to: str, subject: str, body: str, html=None, attachments=(), kind: str = "",
          game_id=None, dedupe_key=None, in_reply_to=None, lang: str | None = None) -> int:
    """Queue one message; returns its outbox id (the existing one for a known dedupe_key).

    ``lang``: the language the message is written in, when not its address's own choice (the
    marker line is written in it: ``build_email``).

    ``attachments``: (filename, mime type, bytes or ``Drawn``, inline Content-ID or None);
    an inline one is shown in the HTML part as ``<img src="cid:ID">``.
    """
    subject = one_line(subject, 900)  # a header is one line, without control characters
    parts = [
        {"filename": name, "mime": mime, "ref": dict(data), "cid": cid} if isinstance(data, Drawn) else
        {"filename": name, "mime": mime, "data": base64.b64encode(data).decode(), "cid": cid}
        for name, mime, data, cid in attachments
    ]
    texts_kept = len(body) > TEXT_INLINE or (html is not None and len(html) > TEXT_INLINE)  # more than one change
    with store.transaction() if texts_kept else store.one_change():  # an answer: one INSERT, no savepoint for it
        if dedupe_key is not None:
            row = store.db.execute("SELECT id FROM outbox WHERE dedupe_key = ?", (dedupe_key,)).fetchone()  # pragma: no mutate (SQL)
            if row is not None:
                return row[0]
        now = store.now()
        html_ref = body_ref = None
        if html is not None and len(html) > TEXT_INLINE:  # a report's HTML: kept once, compressed
            html, html_ref = None, put_text(store.db, html)
        if len(body) > TEXT_INLINE:  # a report's text, a long answer: the same
            body, body_ref = "", put_text(store.db, body)
        return store.db.execute(
            "INSERT INTO outbox (created, to_addr, subject, body, body_ref, html, html_ref, attachments, kind,"  # pragma: no mutate (SQL)
            " game_id, in_reply_to, dedupe_key, next_attempt_at, lang)"  # pragma: no mutate (SQL)
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",  # pragma: no mutate (SQL)
            (now, to, subject, body, body_ref, html, html_ref, json.dumps(parts), kind, game_id, in_reply_to,
             dedupe_key, now, lang),
        ).lastrowid


def backoff(attempts: int) -> timedelta:
    """The wait after the ``attempts``-th failed attempt: 1, 2, 4 ... minutes, at most an hour."""
    return min(timedelta(minutes=2 ** min(attempts - 1, 10)), BACKOFF_CAP)


def _created(row) -> datetime:
    return datetime.fromisoformat(row["created"].replace("Z", "+00:00"))  # pragma: no mutate (3.11 reads a Z itself)


def message_id(row, domain: str) -> str:
    """The Message-ID of an outbox row: the same on every attempt."""
    return f"<pbem.{row['id']}.{_created(row):%Y%m%d%H%M%S}@{domain}>"


def content(part: dict, resolve=None) -> bytes:
    """The bytes of one stored attachment: its data, or its reference drawn again by ``resolve``."""
    if "ref" not in part:
        return base64.b64decode(part["data"])
    if resolve is None:
        raise Unsendable(f"{part['filename']} is kept as a reference and nothing here can draw it")
    try:
        return resolve(part["ref"])
    except Exception as error:
        raise DrawingFailed(f"{part['filename']} could not be drawn: {type(error).__name__}: {error}") from error


def subject_header(subject: str) -> str:
    """A Subject that is not ASCII, encoded and folded here (RFC 2047, by ``email.header.Header``:
    the spaces inside its encoded words). Left to the email package's folding, a subject is cut
    between two encoded words at a space, which RFC 2047 then drops: "ви граєте" would be read
    "виграєте"."""
    return Header(subject, "utf-8", header_name="Subject").encode()


def build_email(row, from_addr: str = "pbem@localhost", domain=None, resolve=None, texts=None,
                lang: str | None = None) -> EmailMessage:
    """The message of an outbox row: text, HTML alternative with inline images, attachments
    (those kept as a reference drawn again by ``resolve(ref) -> bytes``). A text or HTML kept once
    in the store's ``texts`` (``body_ref``, ``html_ref``) is read by ``texts(digest) -> str``
    (``Store.text``); a row whose kept text cannot be read is ``Unsendable``, never mailed without it.

    The text and HTML bodies carry the marker lines (``reply.mark_text``) by
    which the mail in ignores the server's own text quoted in a reply; the first says, in the
    recipient's language ``lang`` (None: English), that only the lines he writes are read.
    """
    domain = domain or from_addr.rpartition("@")[2] or "localhost"
    msg = EmailMessage()
    msg["From"] = from_addr
    msg["To"] = row["to_addr"]
    if row["subject"].isascii():
        msg["Subject"] = row["subject"]
    else:
        msg.set_raw("Subject", subject_header(row["subject"]))  # folded already: kept as it is
    msg["Date"] = format_datetime(_created(row))
    msg["Message-ID"] = row.get("message_id") or message_id(row, domain)
    if row.get("in_reply_to"):
        msg["In-Reply-To"] = msg["References"] = row["in_reply_to"]
    msg["Auto-Submitted"] = "auto-generated"  # RFC 3834: robots must not answer this
    msg["X-Auto-Response-Suppress"] = "All"  # the same, for Exchange
    msg.set_content(mark_text(_kept(row, "body", texts), lang))  # the markers a reply's quoted copy is known by
    parts = json.loads(row["attachments"] or "[]")
    html = _kept(row, "html", texts)
    inline = [p for p in parts if p["cid"]] if html else []
    if html:
        msg.add_alternative(mark_html(html, lang), subtype="html")
        html_part = msg.get_payload()[1]
        for part in inline:
            maintype, _, subtype = part["mime"].partition("/")
            html_part.add_related(content(part, resolve), maintype, subtype,
                                  cid=f"<{part['cid']}>", filename=part["filename"])
    for part in parts:
        if part not in inline:
            maintype, _, subtype = part["mime"].partition("/")
            msg.add_attachment(content(part, resolve), maintype, subtype, filename=part["filename"])
    for part in msg.walk():
        if part.is_multipart():
            part.set_boundary(boundary())
    return msg


def boundary() -> str:
    """A multipart boundary no part can hold: "=_" never occurs in base64 or quoted-printable text, and a
    text sent as it is would have to guess 96 random bits. Given here, the email package does not scan the
    whole flattened message for a boundary of its own (a tenth of the server's CPU in a round's reports,
    docs/performance.md)."""
    return f"=_pbem_{secrets.token_hex(12)}"


SIMPLE_ADDRESS = re.compile(r"[A-Za-z0-9.!#$%&'*+/=?^_`{|}~-]+@[A-Za-z0-9.-]+")
"""An address the email package writes as it is given (no name, quotes, brackets or non-ASCII)."""
FROM_LINE = re.compile(r"^From ", re.MULTILINE)
HEADER_LINE = 78  # policy.default's max_line_length: a longer header line would be folded


def plain_bytes(row, from_addr: str = "pbem@localhost", domain=None, texts=None,
                lang: str | None = None) -> bytes | None:
    """The message of a row with a text alone (an answer: no HTML, no attachment) as the bytes
    ``smtplib.send_message(build_email(...))`` sends, byte for byte, written here without the email
    package's header objects (most of what building and flattening an answer cost); None when
    the row is not one it writes exactly so (an HTML part, an attachment, an address with a name or
    not ASCII, a header line the package would fold): then ``build_email`` builds it."""
    if row.get("html_ref") or row.get("html") or json.loads(row["attachments"] or "[]"):
        return None
    lines = _header_lines(row, from_addr, domain)
    if lines is None:
        return None
    text = mark_text(_kept(row, "body", texts), lang)
    cte, payload = _encode_text(text, "utf-8",  # pragma: no mutate (a codec's name is case-blind)
                                None, email.policy.default)
    payload = FROM_LINE.sub(">From ", payload)  # as smtplib's generator writes a body (mangle_from_)
    lines += ['Content-Type: text/plain; charset="utf-8"', f"Content-Transfer-Encoding: {cte}", "MIME-Version: 1.0",
              "", payload.replace("\n", "\r\n")]
    # 8bit (short lines, not ASCII): the text's own UTF-8 bytes. Never so today -- every language's marker
    # line is longer than 78 bytes, so a text is 7bit, quoted-printable or base64 -- kept for a shorter one.
    return "\r\n".join(lines).encode("ascii", "surrogateescape")  # pragma: no mutate (see above: ASCII, today)


def report_bytes(row, from_addr: str = "pbem@localhost", domain=None, resolve=None, texts=None,
                 lang: str | None = None) -> bytes | None:
    """The message of a report's row (a text, its HTML with inline pictures, attachments) as the bytes
    ``smtplib.send_message(build_email(...))`` sends, byte for byte but for the boundaries (random in
    both), written by ``mimebytes.report`` without the email package (in a tournament round, building
    and flattening the reports was most of the server's own CPU). None when the row is not of that
    shape or has a header or a name the package would write otherwise: then ``build_email`` builds it.
    Raises as ``build_email`` does: a kept text that cannot be read, an attachment not drawn."""
    parts = json.loads(row["attachments"] or "[]")
    inline = [p for p in parts if p["cid"]]
    attached = [p for p in parts if p not in inline]
    if not (row.get("html_ref") or row.get("html")) or not inline or not attached or not all(
            mimebytes.writable(p["mime"], p["filename"], p["cid"]) for p in parts):
        return None
    lines = _header_lines(row, from_addr, domain)
    if lines is None:
        return None
    text, html = mark_text(_kept(row, "body", texts), lang), mark_html(_kept(row, "html", texts), lang)
    return mimebytes.report(lines, text, html,
                            [(p["mime"], p["filename"], p["cid"], content(p, resolve)) for p in inline],
                            [(p["mime"], p["filename"], content(p, resolve)) for p in attached],
                            (boundary(), boundary(), boundary()))


def _header_lines(row, from_addr: str, domain) -> list[str] | None:
    """The message's own headers as ``build_email`` gives them and smtplib writes them ("Name: value", a
    folded Subject's lines joined by CRLF), or None when the email package would write one otherwise
    (an address with a name or not ASCII, a header line it would fold). The robots' headers last."""
    to = row["to_addr"] or ""  # pragma: no mutate (None and "" match no address, nor does a text put for them)
    if not (SIMPLE_ADDRESS.fullmatch(from_addr) and SIMPLE_ADDRESS.fullmatch(to)):
        return None
    if not domain:
        domain = from_addr.rpartition("@")[2]  # pragma: no mutate (a simple address has one "@", and a domain)
    encoded = not row["subject"].isascii()  # encoded and folded here, as build_email does
    subject = subject_header(row["subject"]) if encoded else row["subject"]
    headers = [("From", from_addr), ("To", row["to_addr"]), ("Subject", subject),
               ("Date", format_datetime(_created(row))), ("Message-ID", row.get("message_id") or message_id(row, domain))]
    if row.get("in_reply_to"):
        headers += [("In-Reply-To", row["in_reply_to"]), ("References", row["in_reply_to"])]
    lines = []
    for name, value in headers:
        if not _kept_as_written(name, value, raw=encoded and name == "Subject"):
            return None
        lines.append(f"{name}: {value}".replace("\n", "\r\n"))
    return lines + ["Auto-Submitted: auto-generated", "X-Auto-Response-Suppress: All"]


def _kept_as_written(name: str, value: str, raw: bool) -> bool:
    """Whether policy.default writes header ``name: value`` as it is: ASCII, no encoded word to
    decode again (an encoded Subject given ``raw``, already folded, excepted), no space at either
    end or doubled, and no line it would fold again."""
    if not value or not value.isascii() or value != value.strip() or "\r" in value:
        return False
    if raw:
        lines = value.split("\n")
        return len(name) + 2 + len(lines[0]) <= HEADER_LINE and all(
            line.startswith(" ") and len(line) <= HEADER_LINE for line in lines[1:])
    return ("\n" not in value and "=?" not in value and "  " not in value and "\t" not in value
            and len(name) + 2 + len(value) <= HEADER_LINE)


def _kept(row, column: str, texts) -> str | None:
    """A row's text or HTML: its column, or the text its ``<column>_ref`` keeps once (then the
    column is empty: ``queue``)."""
    ref = row.get(f"{column}_ref")
    if not ref:
        return row[column]
    text = texts(ref) if texts is not None else None
    if text is None:
        raise Unsendable(f"the {'HTML' if column == 'html' else 'text'} kept as {ref[:12]} cannot be read")
    return text


def _permanent(error: Exception) -> bool:
    """Whether the relay refused for good (a 5xx answer): retrying cannot help."""
    if isinstance(error, Unsendable):
        return True
    if isinstance(error, smtplib.SMTPRecipientsRefused):
        return all(code >= 500 for code, _ in error.recipients.values())
    return isinstance(error, smtplib.SMTPResponseException) and error.smtp_code >= 500


class Relay(smtplib.SMTP):
    """smtplib's SMTP client, but a message's leading dots are doubled (RFC 5321 §4.5.2) by a replace of
    bytes, not smtplib's regular expression over the whole message (a tenth of what sending a
    half-megabyte report cost the server once its bytes were written directly, docs/performance.md):
    the same bytes go on the wire."""

    def data(self, msg):
        if not isinstance(msg, bytes):
            return super().data(msg)
        self.putcmd("data")
        code, reply = self.getreply()
        if code != 354:
            raise smtplib.SMTPDataError(code, reply)
        stuffed = dot_stuffed(msg)
        self.send(b"".join([stuffed, b"" if stuffed.endswith(b"\r\n") else b"\r\n", b".\r\n"]))
        return self.getreply()


def dot_stuffed(msg: bytes) -> bytes:
    """``msg`` with a dot put before each line's leading dot, as ``smtplib._quote_periods`` does."""
    stuffed = msg.replace(b"\n.", b"\n..")  # every line but the first ("\n." cannot overlap itself)
    return b"." + stuffed if stuffed.startswith(b".") else stuffed


class Sender:
    """Delivers due outbox rows by SMTP to ``relay`` or, without one, into ``maildir``.

    ``resolve(ref) -> bytes`` draws an attachment kept as a reference (the server gives its
    service's ``Reports.attachment``); without it, a service on the same store is made when
    first needed."""

    def __init__(self, store, relay=None, maildir=None, from_addr: str = "pbem@localhost", domain=None,
                 max_attempts: int = MAX_ATTEMPTS, relay_login=None, starttls: bool = False, timeout: float = 60,
                 resolve=None, batch: int = BATCH):
        if (relay is None) == (maildir is None):
            raise ValueError("give exactly one of relay=(host, port) and maildir=path")
        self._resolve = resolve
        self.batch = max(1, batch)
        self.store, self.relay, self.maildir = store, relay, maildir
        self.from_addr = from_addr
        self.domain = domain or from_addr.rpartition("@")[2] or "localhost"
        self.max_attempts, self.relay_login, self.starttls, self.timeout = max_attempts, relay_login, starttls, timeout

    def send_due(self, now=None) -> int:
        """Deliver every row due at ``now``; returns how many were delivered.

        Rows are claimed ``batch`` at a time in one commit, and those delivered are marked
        sent together in one commit (at the batch's end, or sooner once ``MARK_EVERY``
        seconds have passed since the last mark): two commits a batch instead of two a mail.
        A crash between a delivery and its mark leaves the row ``sending``; it is sent again
        with the same Message-ID (at-least-once, as before: the window is now the rows
        delivered since the last mark, at most a batch)."""
        now = now or self.store.clock()
        sent = 0
        try:
            while rows := self._claim_batch(now, self.batch):
                delivered, last_mark = [], time.monotonic()
                for row in rows:
                    try:
                        self._deliver(row)
                    except Exception as error:  # any failure is recorded on the row, never lost
                        self._hang_up()
                        self._mark_sent(delivered, now)
                        sent, delivered = sent + len(delivered), []
                        self._failed(row, now, f"{type(error).__name__}: {error}", _permanent(error))
                    else:
                        delivered.append(row["id"])
                        if time.monotonic() - last_mark >= MARK_EVERY:
                            self._mark_sent(delivered, now)
                            sent, delivered, last_mark = sent + len(delivered), [], time.monotonic()
                self._mark_sent(delivered, now)
                sent += len(delivered)
        finally:
            self._hang_up()
        return sent

    def _mark_sent(self, ids: list[int], now: datetime) -> None:
        """Mark delivered rows sent, all in one commit."""
        if ids:
            with self.store.transaction():
                self.store.db.conn.executemany("UPDATE outbox SET status = 'sent', sent_at = ?, last_error = NULL"  # pragma: no mutate (SQL)
                                               " WHERE id = ?",  # pragma: no mutate (SQL)
                                               [(iso(now), i) for i in ids])

    def _connection(self) -> smtplib.SMTP:
        """One connection to the relay for a whole batch of messages."""
        if getattr(self, "_smtp", None) is None:
            host, port = self.relay
            smtp = Relay(host, port, timeout=self.timeout)
            try:
                if self.starttls:
                    smtp.starttls()
                if self.relay_login:
                    smtp.login(*self.relay_login)
            except Exception:
                smtp.close()
                raise
            self._smtp = smtp
        return self._smtp

    def _hang_up(self) -> None:
        smtp, self._smtp = getattr(self, "_smtp", None), None
        if smtp is not None:
            try:
                smtp.quit()
            except (smtplib.SMTPException, OSError):
                smtp.close()

    def _claim(self, now: datetime):
        """Claim the next due row (or None)."""
        rows = self._claim_batch(now, 1)
        return rows[0] if rows else None

    def _claim_batch(self, now: datetime, limit: int) -> list[dict]:
        """Claim up to ``limit`` due rows in one commit: each ``sending``, its attempt counted,
        its Message-ID recorded, its lease set."""
        with self.store.transaction():
            rows = self.store.query(
                "SELECT * FROM outbox WHERE status IN ('queued', 'sending') AND next_attempt_at <= ?"  # pragma: no mutate (SQL)
                " ORDER BY next_attempt_at, id LIMIT ?",  # pragma: no mutate (SQL)
                (iso(now), limit))
            for row in rows:
                row["message_id"] = row["message_id"] or message_id(row, self.domain)
                row["attempts"] += 1
            self.store.db.conn.executemany(
                "UPDATE outbox SET status = 'sending', attempts = ?, next_attempt_at = ?, message_id = ?"  # pragma: no mutate (SQL)
                " WHERE id = ?", [(row["attempts"], iso(now + LEASE), row["message_id"], row["id"])  # pragma: no mutate (SQL)
                                  for row in rows])
            return rows

    def _failed(self, row, now: datetime, error: str, permanent: bool) -> None:
        give_up = permanent or row["attempts"] >= self.max_attempts
        with self.store.transaction():
            self.store.db.execute(
                "UPDATE outbox SET status = ?, next_attempt_at = ?, last_error = ? WHERE id = ?",  # pragma: no mutate (SQL)
                ("failed" if give_up else "queued", iso(now + backoff(row["attempts"])), error, row["id"]))
            if give_up:
                self.store.audit("outbox", "mail failed", game_id=row["game_id"], why=error, detail={
                    "outbox_id": row["id"], "to": row["to_addr"], "kind": row["kind"], "attempts": row["attempts"]})

    def resolve(self, ref: dict) -> bytes:
        if self._resolve is None:
            from pbem.server.service import Service  # here: the service queues into this module

            self._resolve = Service(self.store).attachment
        return self._resolve(ref)

    def _deliver(self, row) -> None:
        try:
            lang = row.get("lang") or self.store.language_of(row["to_addr"])
            # an answer (a text alone) or a report to a relay: its bytes written at once, the same as build_email's
            raw = (plain_bytes(row, self.from_addr, self.domain, self.store.text, lang)
                   or report_bytes(row, self.from_addr, self.domain, self.resolve, self.store.text, lang)) \
                if self.relay else None
            msg = build_email(row, self.from_addr, self.domain, self.resolve, self.store.text, lang=lang) \
                if raw is None else None
        except DrawingFailed:
            raise  # retried with the backoff, as a relay that failed
        except Exception as error:
            raise Unsendable(f"the message cannot be built: {error}") from error
        if raw is not None:
            self._connection().sendmail(self.from_addr, [row["to_addr"]], raw)
            return
        if self.relay is None:
            self._deliver_maildir(msg, row)
            return
        self._connection().send_message(msg, from_addr=self.from_addr, to_addrs=[row["to_addr"]])  # pragma: no mutate (see top)

    def _deliver_maildir(self, msg: EmailMessage, row) -> None:
        """Write the message under a name derived from the row, unless it is already there."""
        root = Path(self.maildir)
        for sub in ("tmp", "new", "cur"):  # the Maildir layout (mailbox.Maildir reads it)
            (root / sub).mkdir(parents=True, exist_ok=True)  # safe when two senders race
        name = f"{int(_created(row).timestamp())}.pbem{row['id']}.{re.sub(r'[^A-Za-z0-9.-]', '_', self.domain)}"
        if (root / "new" / name).exists() or any((root / "cur").glob(name + ":*")):
            return
        tmp = root / "tmp" / f"{name}.{socket.gethostname()}.{os.getpid()}"
        with open(tmp, "wb") as f:
            f.write(msg.as_bytes())
            f.flush()
            os.fsync(f.fileno())
        os.rename(tmp, root / "new" / name)
