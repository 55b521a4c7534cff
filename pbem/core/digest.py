"""The digest that pins a position: the first 16 hex digits of SHA-256 of its plain data as JSON
with sorted keys -- what ``json.dumps(dataclasses.asdict(state), sort_keys=True)`` gives, without
the deep copy ``asdict`` makes first (issue 15: that copy was two thirds of a resolution). The
encoder asks ``fields_of`` for each dataclass it meets and writes its fields where it stands, so
the text, and the digests kept in stored games, are the same."""

from __future__ import annotations

import dataclasses
import hashlib
import json

_FIELDS: dict[type, tuple[str, ...]] = {}


def fields_of(obj) -> dict:
    """A dataclass instance's fields by name (the JSON encoder's ``default``); anything else is
    not plain data (TypeError, as the encoder itself says)."""
    names = _FIELDS.get(type(obj))
    if names is None:
        if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
            raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")
        names = _FIELDS[type(obj)] = tuple(f.name for f in dataclasses.fields(obj))
    return {name: getattr(obj, name) for name in names}


def digest(data, ensure_ascii: bool = True) -> str:
    """The digest of ``data``: plain data, in which dataclasses stand for their fields."""
    text = json.dumps(data, sort_keys=True, default=fields_of, ensure_ascii=ensure_ascii)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
