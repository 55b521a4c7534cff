"""Addresses and header text a person or a mail program gave us, made safe to use.

``clean_address(text)`` is the address if it is one (checked by
email-validator, a kept library: syntax, length, no control characters, no
encoded words), normalised as that library does, else None.
``answer_address(raw)`` is where an answer to a raw mail may go: its Reply-To
if that is a valid address, else its From if valid, else None. Both are read
from the header as written, before any RFC 2047 decoding: an encoded word is
never part of an address, and a decoder would make ``=?utf-8?q?v=40x.org?=``
into ``v@x.org`` or a broken one into a mangled address.
``one_line(text)`` is text fit for a header or a heading: control characters
and line breaks folded to spaces, at most ``limit`` characters.
"""

from __future__ import annotations

import email.parser
import functools
import email.policy
import email.utils
import re
import unicodedata

from email_validator import EmailNotValidError, validate_email

HEAD_LIMIT = 64 * 1024
RESERVED = {"localhost", "test", "invalid", "example", "local", "internal", "lan"}
LABEL = re.compile(r"[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)*")
CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029\u200b-\u200f\u202a-\u202e\u2066-\u2069]")


class AddressError(ValueError):
    """The text is not an email address the server may write to."""


@functools.lru_cache(maxsize=4096)
def clean_address(text: str | None) -> str | None:
    """The normalised address, or None if ``text`` is not a valid address.

    Names reserved for local and test use (``pbem@localhost``, ``bot@pbem.test``)
    are taken: a club's own server and its tests use them. Their local part is
    checked as any other.

    The answer depends on the text alone (no look-up: deliverability is not checked), so the
    last few thousand are remembered: a mail asks it three times (sender, answer address, the
    answer's), each a tenth of a millisecond in email-validator.
    """
    text = (text or "").strip()
    if not text or len(text) > 254 or CONTROL.search(text) or "=?" in text:
        return None
    local, _, domain = text.rpartition("@")
    domain = domain.lower().rstrip(".")
    reserved = LABEL.fullmatch(domain) and domain.rpartition(".")[2] in RESERVED
    try:
        checked = validate_email(f"{local}@example.org" if reserved else text, check_deliverability=False,
                                 allow_smtputf8=True)
    except (EmailNotValidError, ValueError, UnicodeError):
        return None
    return f"{checked.local_part}@{domain}" if reserved else checked.normalized


def require_address(text: str | None) -> str:
    """``clean_address``, raising AddressError with a sentence a person can act on."""
    address = clean_address((text or "").strip())
    if address is None:
        raise AddressError(f"{one_line(text or '', 80)!r} is not an email address")
    return address


def one_line(text: str | None, limit: int = 200) -> str:
    """``text`` on one line: control characters and line breaks become spaces, runs of spaces one."""
    text = unicodedata.normalize("NFC", CONTROL.sub(" ", str(text or "")))
    return " ".join(text.split())[:limit].strip()


def _head(raw: bytes):
    """The message's head as written (None if the parser chokes on it)."""
    try:
        return email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(bytes(raw[:HEAD_LIMIT]))
    except Exception:  # noqa: BLE001 - any header the parser chokes on gives no address
        return None


def _raw_header(head, name: str) -> str:
    try:
        values = (head.get_all(name) or []) if head is not None else []
    except Exception:  # noqa: BLE001 - any header the parser chokes on gives no address
        return ""
    if len(values) != 1:  # none, or two Reply-To headers: which would we believe?
        return ""
    return str(values[0])


def header_address(raw: bytes, name: str, head=None) -> str | None:
    """The one valid address of header ``name`` as written (None if absent, invalid or several).
    ``head``: the head already parsed (``_head``), else it is parsed from ``raw``."""
    value = _raw_header(head if head is not None else _head(raw), name)
    if not value:
        return None
    try:
        pairs = email.utils.getaddresses([value[:2000]])
    except Exception:  # noqa: BLE001 - e.g. RecursionError on deeply nested comments
        return None
    found = [addr for _, addr in pairs if addr]
    if len(found) != 1 or "=?" in found[0]:
        return None
    return clean_address(found[0])


def answer_address(raw: bytes, head=None) -> str | None:
    """Where an answer to ``raw`` goes: a valid Reply-To, else a valid From, else None. ``head``: the
    message already parsed with the compat32 policy whose head lies whole within HEAD_LIMIT (the
    mail's parse, pbem.server.mail.inbound), else the head is parsed here."""
    head = head if head is not None else _head(raw)  # parsed once for both
    return header_address(raw, "Reply-To", head) or header_address(raw, "From", head)
