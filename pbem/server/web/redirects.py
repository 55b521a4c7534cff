"""Where a sign-in may send the browser afterwards: a path of this site, never another.

``local_path(value)`` returns ``value`` normalised to a path of this site, or
None. Browsers are lenient where a server check is strict: they drop tabs and
newlines anywhere in a URL (``/\\t/evil.example`` becomes ``//evil.example``,
another host), read a backslash as a slash, and may decode ``%2F`` or fold
unicode look-alikes of ``/`` and ``.``. So a value is refused unless it is
plain printable ASCII, starts with exactly one ``/``, names no scheme or host
after any percent-decoding, and holds no backslash; the path handed back is
rebuilt from its parsed parts.
"""

from __future__ import annotations

from urllib.parse import unquote, urlsplit, urlunsplit

MAX_LENGTH = 2000


def local_path(value: str | None) -> str | None:
    """``value`` as a path of this site (``/games/3?side=austria``), or None if it might leave it."""
    if not value or len(value) > MAX_LENGTH:
        return None
    if any(not (0x21 <= ord(c) <=
                0x7E  # pragma: no mutate (DEL, 0x7F, let through here is refused below: unquote keeps it)
                ) for c in value):  # control characters, spaces, unicode
        return None
    decoded = value
    for _ in range(3):  # what a lenient reader might make of it, decoded up to three times
        if not _looks_local(decoded):
            return None
        decoded = unquote(decoded)
    if not _looks_local(decoded) or any(not (0x20 <= ord(c) <= 0x7E) for c in decoded):
        return None
    parts = urlsplit(value)
    if parts.scheme or parts.netloc:  # pragma: no mutate (never true: _looks_local(value) refused both above)
        return None
    return urlunsplit(("", "", parts.path, parts.query, parts.fragment))


def _looks_local(text: str) -> bool:
    # After one "/", urlsplit finds no scheme (it starts with a letter) and no host (it follows "//"):
    # the last two checks are a second belt, and their mutants change nothing (docs/testing.md).
    return (text.startswith("/") and not text.startswith("//") and "\\" not in text
            and not urlsplit(text).scheme and not urlsplit(text).netloc  # pragma: no mutate (a second belt)
            )
