"""Bounds on a mail's MIME structure, checked before the message is parsed.

Python's email parser is linear but slow per part: a 395 KB mail of 45,000
empty parts took 4.6 s to parse and walk. ``problem(raw)`` looks at the raw
bytes only (a few regular-expression scans, milliseconds for the largest mail
taken) and names what is over a bound, or returns "":

- ``MAX_DASH_LINES`` lines starting with ``--``, whatever boundary they may
  belong to: every part of every syntax needs such a line, so this bounds the
  parse even where the boundary could not be read from the raw bytes;
- ``MAX_PARTS`` part delimiters (``--boundary`` lines of the boundaries the
  message declares) in all. A boundary is read in every syntax the parser
  reads: plain, quoted, and RFC 2231 (``boundary*=utf-8''%62b`` and the
  continuations ``boundary*0=``, ``boundary*0*=``, ``boundary*1=`` ...). Only
  its first piece is needed: every delimiter of the boundary starts with it,
  so counting the lines that start with ``--`` and that piece counts them all
  (and perhaps a few more);
- ``MAX_MULTIPARTS`` multipart containers (each declares a boundary), which
  bounds the depth of nesting as well;
- ``MAX_HEADER_LINES`` header lines, over the message and all its parts.

A line starts after a line feed or a carriage return alone, as the parser
splits lines. A player's mail has one to five parts; a mail program's richest
has a few dozen. A message over a bound is not parsed: its sender gets a fixed
answer (if it may be answered at all), and it is kept as it came.
"""

from __future__ import annotations

import re
from urllib.parse import unquote_to_bytes

MAX_PARTS = 100
MAX_MULTIPARTS = 20
MAX_HEADER_LINES = 2000
MAX_DASH_LINES = 1000
LINE_START = rb"(?:\A|(?<=[\r\n]))"
# a boundary parameter in every syntax: boundary=, boundary*=, boundary*0=, boundary*0*= (the first piece only:
# boundary*1= and later continue it); its value quoted (up to a backslash or the closing quote) or bare
BOUNDARY = re.compile(rb'(?i)\bboundary(\*0?\*?)?[ \t\r\n]*=[ \t\r\n]*(?:"([^"\r\n\\]{0,200})|([^\s;"]{0,200}))')
HEADER_LINE = re.compile(LINE_START + rb"[!-9;-~]{1,80}:")
DASH_LINE = re.compile(LINE_START + rb"--")
EXTENDED = re.compile(rb"^[^']*'[^']*'")  # RFC 2231 charset'language' before an extended value


def boundaries(raw: bytes) -> set[bytes]:
    """The first piece of each boundary the message declares, as its delimiter lines start."""
    found = set()
    for star, quoted, bare in BOUNDARY.findall(raw):
        value = quoted if quoted or not bare else bare
        if star.endswith(b"*"):  # extended: charset'language'%xx
            value = unquote_to_bytes(EXTENDED.sub(b"", value))
        found.add(value)
    return found


def problem(raw: bytes) -> str:
    """What makes ``raw`` too costly to parse, as a sentence for the answer; "" when it is within bounds."""
    raw = bytes(raw)
    dashes = 0
    for _ in DASH_LINE.finditer(raw):
        dashes += 1
        if dashes > MAX_DASH_LINES:
            return f"it has more than {MAX_DASH_LINES} lines starting with -- (MIME part delimiters or lines like them)"
    declared = boundaries(raw)
    if len(declared) > MAX_MULTIPARTS:
        return f"it nests more than {MAX_MULTIPARTS} groups of MIME parts"
    parts = 0
    if declared:
        delimiter = re.compile(LINE_START + rb"--(?:" + b"|".join(re.escape(b) for b in declared) + rb")")
        for _ in delimiter.finditer(raw):
            parts += 1
            if parts > MAX_PARTS + MAX_MULTIPARTS:  # each container adds its closing delimiter
                return f"it has more than {MAX_PARTS} MIME parts"
    lines = 0
    for _ in HEADER_LINE.finditer(raw):
        lines += 1
        if lines > MAX_HEADER_LINES:
            return f"it has more than {MAX_HEADER_LINES} header lines"
    return ""
