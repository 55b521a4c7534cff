"""Reading one raw mail into what the server needs: who sent it, the orders
text, and whether it may be answered at all.

``parse_message(raw)`` never raises: a message it cannot read comes back with
``problem`` set (a sentence the reply can quote), a message over the size
limit with ``too_big`` set. Mail written by robots -- auto-replies, vacation
notices, bounces, read receipts, list and bulk mail -- comes back with
``auto`` set: it must be logged and dropped, never answered, so no mail loop
can start.

The orders text is the message body (plain text preferred, else HTML turned
into text) with everything the player did not write left out: the quoted
mail in every mail program's style, footers and signatures (``reply.py``
says how). ``cuts`` lists what was left out, for the acknowledgement. When
the body holds no orders, a ``.txt`` attachment is taken instead.
"""

from __future__ import annotations

import codecs
import email.message
import email.parser
import email.policy
import email.utils
import re
from dataclasses import dataclass, field
from html.parser import HTMLParser

from pbem.server import addresses
from pbem.server.mail import headers, robots
from pbem.server.mail.reply import Cut, new_text

LIMIT_BYTES = 10 * 1024 * 1024
HEADER_LIMIT = 256 * 1024

# Labels that mail programs use loosely, read as browsers read them (WHATWG).
CHARSET_ALIASES = {
    "us-ascii": "cp1252", "ascii": "cp1252", "iso-8859-1": "cp1252", "latin-1": "cp1252",
    "latin1": "cp1252", "gb2312": "gb18030", "gbk": "gb18030", "x-gbk": "gb18030",
    "euc-cn": "gb18030", "ks_c_5601-1987": "cp949",
}
AUTO_HEADERS = ("X-Autoreply", "X-Autorespond", "X-Auto-Reply", "X-Autoresponder", "X-Failed-Recipients", "List-Id")
ROBOT_SENDERS = ("mailer-daemon", "postmaster")
BROKEN = "the message says it has several parts, but its MIME structure is broken, so it could not be read"


class _Message(email.message.EmailMessage):
    """A message parsed as written (compat32): its disposition read from the header's text."""

    def is_attachment(self) -> bool:
        return self.get_content_disposition() == "attachment"

    def get_filename(self, failobj=None):
        name = super().get_filename(failobj)
        return headers.decoded(name) if isinstance(name, str) and "=?" in name else name


@dataclass
class Inbound:
    message_id: str | None = None
    from_addr: str = ""
    reply_to: str = ""
    subject: str = ""
    auto: bool = False
    auto_reason: str = ""  # which header made it a robot's mail
    text: str = ""
    attachments: list[tuple[str, str]] = field(default_factory=list)  # (.txt filename, text)
    too_big: bool = False
    problem: str = ""
    cuts: list[Cut] = field(default_factory=list)  # what was left out of the body (quotes, footers)
    accept_language: str = ""  # the sender's languages, as his mail program says them (Accept-Language)
    content_language: str = ""  # the language of the text (Content-Language, of the mail or its text part)
    # the parsed message when its head lies whole within addresses.HEAD_LIMIT: the head addresses.answer_address
    # would parse again from the raw bytes (the same compat32 headers), so it need not
    head: object = field(default=None, repr=False, compare=False)

    @property
    def answer_to(self) -> str:
        """Where a reply goes: Reply-To if given, else From."""
        return self.reply_to or self.from_addr


def parse_message(raw: bytes, limit_bytes: int = LIMIT_BYTES, has_orders=None, words=(),
                  policy=email.policy.compat32) -> Inbound:
    """Read one raw message (never raises).

    The headers are read as written (``policy`` compat32: no header is parsed into
    objects until asked for, and each only as far as needed: its encoded words decoded, a
    Content-Type split at its parameters) -- the full parse of every header that
    ``email.policy.default`` does was a third of a mail's work (issue 15). The tests read
    every corpus mail both ways and require the same result.

    ``words`` are the ruleset's mail words (the first words of its orders):
    a line starting with one is never cut as quoted text, footer or signature.

    ``has_orders(text) -> bool`` decides whether a text holds orders (the
    server passes the orders parser's header check); without it, any
    non-blank body counts as orders and attachments are read only when the
    body is blank.
    """
    raw = bytes(raw)
    result = Inbound()
    head_end = min((i for i in (raw.find(b"\n\n"), raw.find(b"\r\n\r\n")) if i >= 0), default=len(raw))
    result.too_big = len(raw) > limit_bytes
    try:
        if result.too_big or head_end > HEADER_LIMIT:
            msg = email.parser.BytesHeaderParser(_class=_Message, policy=policy).parsebytes(
                raw[:HEADER_LIMIT])
        else:
            msg = email.parser.BytesParser(_class=_Message, policy=policy).parsebytes(raw)
        _read_headers(msg, result)
        if head_end + 4 <= addresses.HEAD_LIMIT:
            result.head = msg
    except Exception as exc:
        result.problem = f"the message headers could not be read ({type(exc).__name__})"
        return result
    if head_end > HEADER_LIMIT and not result.too_big:
        result.problem = "the message headers are too long to read"
    if result.too_big or result.problem:
        return result
    try:
        _read_body(msg, result, has_orders, words)
    except Exception as exc:
        result.problem = f"the message body could not be read ({type(exc).__name__})"
    return result


# -- headers ------------------------------------------------------------------


def _header(msg, name: str) -> str:
    """Header ``name`` (its first) on one line, its encoded words (RFC 2047) decoded; "" if absent."""
    value = headers.raw(msg, name)
    return "" if value is None else " ".join(headers.decoded(value).split())


def _address(value: str) -> str:
    try:
        pairs = email.utils.getaddresses([value[:2000]])
    except Exception:  # e.g. RecursionError on deeply nested comments
        return ""
    return next((addr.strip().lower() for _, addr in pairs if "@" in addr), "")


def _read_headers(msg, result: Inbound) -> None:
    result.message_id = _header(msg, "Message-ID") or None
    result.from_addr = _address(_header(msg, "From"))
    result.reply_to = _address(_header(msg, "Reply-To"))
    result.subject = _header(msg, "Subject")
    result.accept_language = _header(msg, "Accept-Language")[:200]
    result.content_language = _header(msg, "Content-Language")[:200]
    if not result.content_language and msg.is_multipart():
        text_part = next((p for p in msg.walk() if p.get_content_type() == "text/plain"), None)
        result.content_language = _header(text_part, "Content-Language")[:200] if text_part is not None else ""
    result.auto_reason = _auto_reason(msg, result.from_addr)
    result.auto = bool(result.auto_reason)


def _auto_reason(msg, from_addr: str) -> str:
    auto_submitted = _header(msg, "Auto-Submitted")
    if auto_submitted and auto_submitted.split(";")[0].strip().lower() != "no":
        return f"Auto-Submitted: {auto_submitted}"
    for name in AUTO_HEADERS:
        if name in msg:
            return f"{name} header"
    precedence = _header(msg, "Precedence").lower()
    if precedence in ("bulk", "junk", "list", "auto_reply"):
        return f"Precedence: {precedence}"
    if "Return-Path" in msg and _header(msg, "Return-Path") in ("", "<>"):
        return "empty Return-Path"
    if from_addr.split("@")[0] in ROBOT_SENDERS:
        return f"sent by {from_addr}"
    for part in msg.walk() if msg.is_multipart() else [msg]:
        if part.get_content_type() in ("multipart/report", "message/delivery-status"):
            return part.get_content_type()
    return robots.reason(msg, from_addr)  # the markers of responders that ignore Auto-Submitted


# -- the body -----------------------------------------------------------------


def _read_body(msg, result: Inbound, has_orders, words=()) -> None:
    broken = any(p.get_content_maintype() == "multipart" and not p.is_multipart() for p in msg.walk())
    body_part = msg.get_body(preferencelist=("plain", "html"))
    for part in msg.walk():
        if part is body_part or part.is_multipart():
            continue
        if _is_txt(part) or (part.is_attachment() and part.get_content_type() == "text/plain"):
            result.attachments.append((part.get_filename() or "attachment.txt", _decode(part).strip("\n")))
    body = ""
    if body_part is not None:
        body = _decode(body_part)
        if body_part.get_content_subtype() == "html":
            body = html_to_text(body)
        elif str(body_part.get_param("format", "")).lower() == "flowed":
            body = _unflow(body, str(body_part.get_param("delsp", "")).lower() == "yes")
        reply = new_text(body, words)
        body, result.cuts = reply.text, reply.cuts
    texts = [t for _, t in result.attachments]
    attached = None if _accepts(has_orders, body) else next((t for t in texts if _accepts(has_orders, t)), None)
    if attached is not None:
        result.text, result.cuts = attached, []  # the orders came from an attachment, read whole
    else:
        result.text = body
    if broken and not result.text.strip():
        result.problem = BROKEN


def _accepts(has_orders, text: str) -> bool:
    if has_orders is None:
        return bool(text.strip())
    try:
        return bool(has_orders(text))
    except Exception:
        return False


def _is_txt(part) -> bool:
    return (part.get_filename() or "").lower().endswith(".txt")


def _decode(part) -> str:
    data = part.get_payload(decode=True) or b""
    charset = (part.get_content_charset() or "").strip().lower()
    for bom, name in ((codecs.BOM_UTF8, "utf-8-sig"), (codecs.BOM_UTF16_LE, "utf-16"), (codecs.BOM_UTF16_BE, "utf-16")):
        if data.startswith(bom):  # a byte order mark says more than any label (Notepad files)
            charset = name
            break
    candidates = ["utf-8"] if charset in ("", "us-ascii", "ascii", "unknown-8bit") else []
    candidates += [CHARSET_ALIASES.get(charset, charset), "utf-8", "cp1252"]
    for name in filter(None, candidates):
        try:
            return _normalise(data.decode(name))
        except (LookupError, ValueError):
            continue
    return _normalise(data.decode("latin-1"))


def _normalise(text: str) -> str:
    return text.replace("\r\n", "\n").replace("\r", "\n").replace("\0", "")


def _unflow(text: str, delsp: bool) -> str:
    """Join the soft-broken lines of a format=flowed text (RFC 3676)."""
    out, joined, joined_depth = [], None, 0
    for line in text.split("\n"):
        depth = len(line) - len(line.lstrip(">"))
        body = line[depth:]
        body = body[1:] if body.startswith(" ") else body
        if joined is not None and depth == joined_depth:
            joined += body
        else:
            if joined is not None:
                out.append(">" * joined_depth + joined)
            joined, joined_depth = body, depth
        if body.endswith(" ") and body != "-- ":
            joined = joined[:-1] if delsp else joined
            continue
        out.append(">" * depth + joined)
        joined = None
    if joined is not None:
        out.append(">" * joined_depth + joined)
    return "\n".join(out)


def strip_reply(text: str, words=()) -> str:
    """The new text of a reply: quotes, attribution lines, footers and signature removed."""
    return new_text(_normalise(text), words).text


# -- HTML ---------------------------------------------------------------------

BLOCK_TAGS = {"p", "div", "br", "li", "tr", "table", "ul", "ol", "h1", "h2", "h3", "h4", "h5", "h6", "pre", "hr"}
HIDDEN_TAGS = {"script", "style", "head", "title"}


class _TextExtractor(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.lines: list[str] = []
        self.line: list[str] = []
        self.depth = 0  # inside how many <blockquote>
        self.line_depth = 0
        self.hidden = 0
        self.pre = 0

    def newline(self, hard: bool = False) -> None:
        """End the line; an empty one counts only at a <br> (hard) break."""
        text = "".join(self.line).strip()
        if text:
            self.lines.append("> " + text if self.line_depth else text)
        elif hard and self.lines and self.lines[-1]:
            self.lines.append("")
        self.line, self.line_depth = [], self.depth

    def handle_starttag(self, tag, attrs):
        if tag in HIDDEN_TAGS:
            self.hidden += 1
        elif tag == "blockquote":
            self.newline()
            self.depth += 1
            self.line_depth = self.depth
        elif tag == "hr":  # a rule: Outlook, Hotmail and Zimbra draw one above the replied-to mail
            self.newline()
            self.line.append("_" * 32)
            self.newline()
        elif tag in BLOCK_TAGS:
            self.newline(hard=tag == "br")
        self.pre += tag == "pre"

    def handle_endtag(self, tag):
        if tag in HIDDEN_TAGS:
            self.hidden = max(0, self.hidden - 1)
        elif tag == "blockquote":
            self.newline()
            self.depth = max(0, self.depth - 1)
            self.line_depth = self.depth
        elif tag in BLOCK_TAGS and tag != "br":
            self.newline()
        self.pre = max(0, self.pre - (tag == "pre"))

    def handle_data(self, data):
        if self.hidden:
            return
        data = data.replace("\xa0", " ")
        if self.pre:
            first, *rest = data.split("\n")
            self.line.append(first)
            for part in rest:
                self.newline(hard=True)
                self.line.append(part)
        else:
            self.line.append(re.sub(r"\s+", " ", data))


def html_to_text(html: str) -> str:
    """Plain text of an HTML body: tags stripped, block ends kept as line breaks,
    entities unescaped, lines in a blockquote (at any depth) start with ``>``."""
    parser = _TextExtractor()
    parser.feed(html)
    parser.close()
    parser.newline()
    return "\n".join(parser.lines).strip("\n")
