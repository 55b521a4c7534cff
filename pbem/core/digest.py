"""The digest that pins a position: the first 16 hex digits of SHA-256 of its plain data as JSON
with sorted keys -- what ``json.dumps(dataclasses.asdict(state), sort_keys=True)`` gives, without
the deep copy ``asdict`` makes first (issue 15: that copy was two thirds of a resolution). The
encoder asks for the fields of each dataclass it meets (``_written``) and writes them where it stands,
so the text, and the digests kept in stored games, are the same."""

from __future__ import annotations

import dataclasses
import hashlib
import json

_FIELDS: dict[type, tuple[tuple[str, ...], frozenset[str], bool]] = {}  # a dataclass: _fields


def fields_of(obj) -> dict:
    """A dataclass instance's fields by name, in a dict of its own (the caller may change it); anything
    else is not plain data (TypeError, as the JSON encoder itself says)."""
    names, _, _ = _known(obj)
    return {name: getattr(obj, name) for name in names}


def _written(obj) -> dict:
    """``fields_of`` for the digest's encoder (its ``default``), which only reads what it is given: an
    instance whose ``__dict__`` holds its fields and nothing else (a block, a commander) is given as that
    dict itself (issue 35: a copy of each was a third of a Marengo digest); one with attributes of its own
    beside its fields (a state's index) gets a dict of its fields alone."""
    names, named, plain = _known(obj)
    own = getattr(obj, "__dict__", None) if plain else None
    if own is not None and own.keys() == named:
        return own
    return {name: getattr(obj, name) for name in names}


def _known(obj) -> tuple[tuple[str, ...], frozenset[str], bool]:
    known = _FIELDS.get(type(obj))
    if known is None:
        known = _FIELDS[type(obj)] = _fields(type(obj), obj)
    return known


def _fields(kind: type, obj) -> tuple[tuple[str, ...], frozenset[str], bool]:
    """A dataclass's field names (in order, and as a set), and whether its instances' ``__dict__`` may stand
    for them: no field is also a descriptor of the class (a property, a slot), which ``getattr`` would ask
    instead."""
    if not dataclasses.is_dataclass(obj) or isinstance(obj, type):
        raise TypeError(f"Object of type {type(obj).__name__} is not JSON serializable")
    names = tuple(f.name for f in dataclasses.fields(obj))
    plain = not any(hasattr(getattr(kind, name, None), "__get__") for name in names)
    return names, frozenset(names), plain


_ENCODERS = {ascii: json.JSONEncoder(sort_keys=True, default=_written, ensure_ascii=ascii) for ascii in (True, False)}
"""The encoders ``json.dumps`` with these arguments made anew at each digest (the same arguments: the same text)."""


def digest(data, ensure_ascii: bool = True) -> str:
    """The digest of ``data``: plain data, in which dataclasses stand for their fields."""
    text = _ENCODERS[bool(ensure_ascii)].encode(data)
    return hashlib.sha256(text.encode()).hexdigest()[:16]
