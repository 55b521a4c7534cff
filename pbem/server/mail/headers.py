"""A header as a person reads it, from a message parsed as written (``email.policy.compat32``).

The inbound path parses with compat32 (issue 15: ``email.policy.default`` parses every header
it is asked for into objects, a third of a mail's work); what it then reads of a header --
the sender, the subject, a robot's marker -- goes through ``decoded``.
"""

from __future__ import annotations

import binascii
import re


def raw(msg, name: str) -> str | None:
    """The first header ``name`` of ``msg`` as written (None if absent): 8-bit bytes as
    surrogates, folded lines as folded."""
    name = name.lower()
    return next((value for key, value in msg.raw_items() if key.lower() == name), None)


def decoded(value) -> str:
    """A header's text as a person reads it: raw 8-bit bytes read as UTF-8 (else replaced),
    encoded words (RFC 2047) decoded -- the blanks between two of them dropped, bytes an
    encoded word's charset cannot read replaced, an unknown charset read as UTF-8, a broken
    encoded word kept as written."""
    text = str(value)
    if any("\udc80" <= c <= "\udcff" for c in text):
        text = text.encode("ascii", "surrogateescape").decode("utf-8", "replace")
    if "=?" not in text:
        return text
    out, end, after_word = [], 0, False
    for match in ENCODED_WORD.finditer(text):
        between = text[end:match.start()]
        if not (after_word and not between.strip()):
            out.append(between)
        word = _word(*match.groups())
        out.append(match.group(0) if word is None else word)
        after_word, end = word is not None, match.end()
    out.append(text[end:])
    return "".join(out)


ENCODED_WORD = re.compile(r"=\?([^?\s]+)\?([qQbB])\?([^?\s]*)\?=")


def _word(charset: str, encoding: str, payload: str) -> str | None:
    """One encoded word's text (None if it cannot be decoded at all)."""
    data = payload.encode("utf-8")
    try:
        if encoding in "qQ":
            data = binascii.a2b_qp(data.replace(b"_", b" "), header=True)
        else:
            data = binascii.a2b_base64(data + b"=" * (-len(data) % 4), strict_mode=True)
    except (binascii.Error, ValueError):
        return None
    charset = charset.partition("*")[0]  # RFC 2231's language tag, if any
    try:
        return data.decode(charset, "replace")
    except LookupError:
        return data.decode("utf-8", "replace")
