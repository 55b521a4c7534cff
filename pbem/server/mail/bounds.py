"""Bounds on a mail's MIME structure, checked before the message is parsed.

Python's email parser is linear but slow per part: a 395 KB mail of 45,000
empty parts took 4.6 s to parse and walk. ``problem(raw)`` looks at the raw
bytes only (a few regular-expression scans, milliseconds for the largest mail
taken) and names what is over a bound, or returns "":

- ``MAX_PARTS`` part delimiters (``--boundary`` lines of the boundaries the
  message declares) in all;
- ``MAX_MULTIPARTS`` multipart containers (each declares a boundary), which
  bounds the depth of nesting as well;
- ``MAX_HEADER_LINES`` header lines, over the message and all its parts.

A player's mail has one to five parts; a mail program's richest has a few
dozen. A message over a bound is not parsed: its sender gets a fixed answer
(if it may be answered at all), and it is kept as it came.
"""

from __future__ import annotations

import re

MAX_PARTS = 100
MAX_MULTIPARTS = 20
MAX_HEADER_LINES = 2000
BOUNDARY = re.compile(rb'(?im)\bboundary\s*=\s*(?:"([^"\r\n]{1,200})"|([^\s;"]{1,200}))')
HEADER_LINE = re.compile(rb"(?m)^[!-9;-~]{1,80}:")


def problem(raw: bytes) -> str:
    """What makes ``raw`` too costly to parse, as a sentence for the answer; "" when it is within bounds."""
    raw = bytes(raw)
    boundaries = {quoted or bare for quoted, bare in BOUNDARY.findall(raw)}
    if len(boundaries) > MAX_MULTIPARTS:
        return f"it nests more than {MAX_MULTIPARTS} groups of MIME parts"
    parts = 0
    if boundaries:
        delimiter = re.compile(rb"(?m)^--(?:" + b"|".join(re.escape(b) for b in boundaries) + rb")")
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
