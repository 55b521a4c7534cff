"""A report's mail written as bytes: the MIME layout the email package gives it, without the package.

A report is a text, its HTML with the map shown inline, and attachments (the seat's view.json):
``multipart/mixed`` holding ``multipart/alternative`` (the text; ``multipart/related`` of the HTML
and its pictures), then the attachments. ``outbox.build_email`` builds that as an ``EmailMessage``
and smtplib flattens it; in a tournament round that was most of the server's own CPU (the
generator rewriting every line of a half-megabyte message, the header objects; docs/performance.md,
"Issue 35 item 1, twelfth session, speed-round2"). ``report`` writes the same bytes directly:
header for header, line for line, as ``smtplib.SMTP.send_message`` sends the package's message
(policy.default, CRLF, ``From `` lines mangled), given the same boundaries
(tests/test_mimebytes.py compares them, and the parsed trees). What it cannot write exactly so
(a name or type that would be quoted or folded) it declines (``writable``), and the package builds it.
"""

from __future__ import annotations

import binascii
import email.policy
import re
from email.contentmanager import _encode_text  # what EmailMessage.set_content encodes a text with

FROM_LINE = re.compile(r"^From ", re.MULTILINE)  # mangled by smtplib's generator (mangle_from_)
NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]{0,40}")  # a file name or Content-ID written as it is
MIME_TYPE = re.compile(r"[a-z]{1,20}/[a-z0-9][a-z0-9.+-]{0,30}")
MARK = re.compile(r"=_pbem_[0-9a-f]{24}")  # outbox.boundary's: a line of multipart/alternative is folded
BASE64_LINE = 76  # policy.default's max_line_length (78) // 4 * 3 bytes a line, as the package encodes
CRLF = b"\r\n"


def writable(mime: str, filename: str, cid: str | None) -> bool:
    """Whether an attachment's headers are written here as the package writes them (plain names)."""
    return bool(MIME_TYPE.fullmatch(mime) and NAME.fullmatch(filename) and (cid is None or NAME.fullmatch(cid)))


def text_part(subtype: str, text: str) -> bytes:
    """A text part (its headers, a blank line, its body) encoded as ``set_content`` encodes it:
    7bit, 8bit, quoted-printable or base64, whichever the package picks for this text."""
    cte, payload = _encode_text(text, "utf-8", None, email.policy.default)  # pragma: no mutate (case-blind)
    payload = FROM_LINE.sub(">From ", payload).replace("\n", "\r\n")
    return (f'Content-Type: text/{subtype}; charset="utf-8"\r\nContent-Transfer-Encoding: {cte}\r\n\r\n'
            f"{payload}").encode("ascii", "surrogateescape")  # 8bit: the text's own UTF-8 bytes


def base64_body(data: bytes) -> bytes:
    """``data`` in base64, lines of 76 characters, each ended by CRLF (the last too)."""
    encoded = binascii.b2a_base64(data, newline=False)
    if not encoded:
        return b""
    lines = [encoded[i:i + BASE64_LINE] for i in range(0, len(encoded), BASE64_LINE)]
    return CRLF.join(lines) + CRLF


def attachment(mime: str, filename: str, data: bytes, cid: str | None = None) -> bytes:
    """A part of bytes, base64, with its file name (and Content-ID when shown inline), as
    ``add_attachment`` and ``add_related`` write it (their MIME-Version last)."""
    head = (f"Content-Type: {mime}\r\nContent-Transfer-Encoding: base64\r\n"
            f'Content-Disposition: attachment; filename="{filename}"\r\n')
    if cid is not None:
        head += f"Content-ID: <{cid}>\r\n"
    return (head + "MIME-Version: 1.0\r\n\r\n").encode("ascii") + base64_body(data)


def multipart(head: str, mark: str, parts: list[bytes]) -> bytes:
    """A multipart part: its headers ``head`` (each line ended by CRLF), then ``parts`` between
    boundary lines ``mark``."""
    between = f"\r\n--{mark}\r\n".encode("ascii")
    return b"".join([f"{head}\r\n--{mark}\r\n".encode("ascii"), between.join(parts),
                     f"\r\n--{mark}--\r\n".encode("ascii")])


def report(headers: list[str], text: str, html: str, inline: list[tuple[str, str, str, bytes]],
           attached: list[tuple[str, str, bytes]], marks: tuple[str, str, str]) -> bytes:
    """The bytes of a report: the message's own ``headers`` ("Name: value", folded lines joined
    by CRLF), then ``text`` and ``html`` as alternatives, the HTML's ``inline`` pictures (mime,
    file name, Content-ID, bytes) beside it, and the ``attached`` parts (mime, file name, bytes);
    ``marks``: the boundaries of the mixed, alternative and related parts (``outbox.boundary``)."""
    mixed, alternative, related = marks
    if not (inline and attached and all(MARK.fullmatch(mark) for mark in marks)):
        raise ValueError("a report has inline pictures, attachments and three boundaries of outbox.boundary's")
    pictures = multipart(f'MIME-Version: 1.0\r\nContent-Type: multipart/related; boundary="{related}"\r\n',
                         related, [text_part("html", html)] + [attachment(m, f, d, c) for m, f, c, d in inline])
    both = multipart(f'Content-Type: multipart/alternative;\r\n boundary="{alternative}"\r\n', alternative,
                     [text_part("plain", text), pictures])
    top = "".join(f"{line}\r\n" for line in headers)
    return multipart(f'{top}MIME-Version: 1.0\r\nContent-Type: multipart/mixed; boundary="{mixed}"\r\n', mixed,
                     [both] + [attachment(m, f, d) for m, f, d in attached])
