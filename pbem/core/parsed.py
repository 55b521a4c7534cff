"""The stored parse: an orders entry of the log keeps the orders its text was read into.

A replay used to read every day's orders text again against the position before the day (a
third of a Marengo replay). At submit the server now keeps, beside the text, what the
ruleset's parser made of it, as JSON, with the parser's **version**: a digest of the parser's
source files and of the scenario, so a change to either reads the text again (a parser fix
reaches every stored game). The entry's ``parsed`` key::

    {"kind": "orders", "day": 4, "side": "france", "text": "MOVE ...",
     "parsed": {"version": "<hex>", "orders": "<the orders, as JSON text>", "check": "<hex>"}}

``check`` is HMAC-SHA256, keyed by the server's secret, of the version, the day, the side, the
text and the JSON together: a stored parse copied to another entry, cut short or changed by hand
is not believed (the text is read again, as for an entry without one), and nobody without the key
can write one that is (issue 28: an unkeyed digest let anyone who could write the database change
a replay). The key is handed in (``Game(parse_key=)``): the server derives it from its secret
(pbem.server.service.base.parse_key); the engine reads no secret. A parse stored under another key
(an older release's unkeyed check, a new secret) is not believed, read again and stored again. The log stays the orders as written (the text is
what counts: a replay that does not believe the stored parse reads it), and ``pbem verify``
never reads a stored parse. When a replay read a text because its stored parse was missing or of
another version (a release changed the parser), the server stores the fresh one back in the entry
(``Game.parses_to_store``, ``Service.store_parses``; ``pbem store-parses`` for every running game).

A ruleset gives its orders' JSON form by an optional member ``orders_form(scenario)`` that
returns an :class:`OrdersForm` (its version and its :class:`Codec`); a ruleset without one is
read from the text as before.
"""

from __future__ import annotations

import dataclasses
import hashlib
import hmac
import json
import threading
from pathlib import Path

from .orders import OrdersError

CORE_ORDERS = (Path(__file__).parent / "orders.py").resolve()  # the tokenizer and header every parser shares

FORM = "pbem-parsed/1"
"""This module's own form of the JSON: part of every version, so changing the codec reads every text again."""


class Codec:
    """Orders values to JSON text and back: the ruleset's own classes (dataclasses and named tuples,
    by their names), lists, tuples, dicts with string keys, strings, numbers, booleans and None.
    A value of any other type cannot be stored (:class:`TypeError`: the entry keeps its text alone).

    A dataclass is ``{"c": name, field: value...}`` with only the fields that differ from their
    defaults; a named tuple ``{"n": name, "a": [values]}``; a tuple ``{"t": [values]}``; a dict
    ``{"d": [[key, value]...]}`` (or ``{"s": name}``: one of the form's shared dicts, as the
    scenario's names every orders value holds); a list a JSON array. Read back by json's
    ``object_hook``, each object as it is read (no second walk over the values)."""

    def __init__(self, *types: type, files=(), left_out: dict[type, tuple[str, ...]] | None = None):
        """``types``: the classes an orders value holds; ``files``: the parser's source files, read
        now (when the ruleset is imported, with the code that runs: :func:`sources_digest`);
        ``left_out``: fields of some classes that only the parser reads (the header line's tokens),
        not written: read back as their default."""
        self.files = tuple(Path(f) for f in files)
        self.sources = sources_digest(self.files)
        left_out = left_out or {}
        self.types: dict[str, type] = {}
        self._defaults: dict[type, tuple] = {}
        self._post_init: dict[type, tuple[str, ...]] = {}  # a class's fields not given to __init__
        for kind in types:
            if kind.__name__ in self.types and self.types[kind.__name__] is not kind:
                raise ValueError(f"two order classes named {kind.__name__}")
            self.types[kind.__name__] = kind
            if dataclasses.is_dataclass(kind):
                fields = dataclasses.fields(kind)
                if any(f.name == "c" for f in fields):
                    raise ValueError(f"{kind.__name__} has a field named c, the JSON's tag of a class")
                self._defaults[kind] = tuple((f.name, _default(f), f.init) for f in fields
                                             if f.name not in left_out.get(kind, ()))
                self._post_init[kind] = tuple(f.name for f in fields if not f.init)

    def dumps(self, value, shared: dict[str, dict] | None = None) -> str:
        """``value`` as JSON text; a dict equal to one of ``shared`` is written as its name."""
        return json.dumps(self._to(value, tuple((shared or {}).items())), ensure_ascii=False, separators=(",", ":"))

    def loads(self, text: str, shared: dict[str, dict] | None = None):
        """The value ``dumps`` wrote (``shared`` as it was given to it; a shared dict read back is a copy)."""
        if shared:
            return json.loads(text, object_hook=lambda data: (
                dict(shared[data["s"]]) if "s" in data and len(data) == 1 else self._object(data)))
        return json.loads(text, object_hook=self._object)

    def _to(self, value, shared: tuple):
        if value is None or type(value) in (str, int, float, bool):
            return value
        kind = type(value)
        fields = self._defaults.get(kind)
        if fields is not None:
            out = {"c": kind.__name__}
            for name, default, _ in fields:
                item = getattr(value, name)
                if type(item) is not type(default) or item != default:
                    out[name] = self._to(item, shared)
            return out
        if kind is list:
            return [self._to(item, shared) for item in value]
        if kind is tuple:
            return {"t": [self._to(item, shared) for item in value]}
        if kind is dict:
            for name, kept in shared:
                if value == kept:
                    return {"s": name}
            if not all(type(key) is str for key in value):
                raise TypeError("a dict whose keys are not all strings")
            return {"d": [[key, self._to(item, shared)] for key, item in value.items()]}
        if isinstance(value, tuple) and self.types.get(kind.__name__) is kind:
            return {"n": kind.__name__, "a": [self._to(item, shared) for item in value]}
        raise TypeError(f"{kind.__name__} is not an order class of this ruleset")

    def _object(self, data: dict):
        """A JSON object read back (json's ``object_hook``: its values are read already). Every object
        in the JSON is one of the four tagged forms (a dict's items are pairs), so no key is mistaken."""
        if "c" in data:
            kind = self.types[data.pop("c")]
            post = self._post_init.get(kind)
            if post:
                late = {name: data.pop(name) for name in post if name in data}
                value = kind(**data)
                for name, item in late.items():
                    object.__setattr__(value, name, item)
                return value
            return kind(**data)
        if "t" in data:
            return tuple(data["t"])
        if "d" in data:
            return dict(data["d"])
        if "n" in data:
            return self.types[data["n"]](*data["a"])
        raise ValueError("not a stored orders value")  # {"s": name} of a shared dict unknown here too


_NO_DEFAULT = object()  # a field without a default: always written


def _default(field: dataclasses.Field):
    """A field's default (a fresh one from its factory: an empty list is left out as an empty default)."""
    if field.default is not dataclasses.MISSING:
        return field.default
    if field.default_factory is not dataclasses.MISSING:
        return field.default_factory()
    return _NO_DEFAULT


class OrdersForm:
    """A ruleset's orders as JSON for one scenario: the parser's ``version``, the ``codec``, and the
    scenario's ``shared`` dicts (name -> dict) that orders hold whole: written as their name."""

    def __init__(self, version: str, codec: Codec, shared: dict[str, dict] | None = None):
        self.version, self.codec, self.shared = version, codec, dict(shared or {})

    def dumps(self, orders) -> str:
        return self.codec.dumps(orders, self.shared)

    def loads(self, text: str):
        return self.codec.loads(text, self.shared)


def sources_digest(files) -> str:
    """A digest of this module's form and of the source ``files`` (each read as bytes; with this
    module and pbem/core/orders.py, which every parser uses)."""
    digest = hashlib.sha256(FORM.encode())
    for path in sorted({Path(f).resolve() for f in files} | {Path(__file__).resolve(), CORE_ORDERS}):
        digest.update(path.name.encode() + b"\0" + path.read_bytes() + b"\0")
    return digest.hexdigest()


def parser_version(scenario, codec: Codec) -> str:
    """The version of a parser: a digest of its sources as they were when its codec was made (the
    code running), the order classes the codec knows and the scenario (:func:`canonical`: every
    name, id and number it holds). Any change to any of them gives another version."""
    digest = hashlib.sha256(codec.sources.encode())
    digest.update(" ".join(f"{k.__module__}.{k.__qualname__}" for k in codec.types.values()).encode())
    digest.update(canonical(scenario).encode())
    return digest.hexdigest()[:32]


WHERE_READ = {"canonical": False}
"""The metadata of a dataclass field that :func:`canonical` leaves out (a scenario's file path)."""


def canonical(value, _stack: frozenset = frozenset()) -> str:
    """A text of ``value`` that is the same in every process (sets sorted, no object addresses):
    dataclasses by their fields, objects by their attributes, containers by their items. A dataclass's
    field marked ``metadata={"canonical": False}`` is left out: where a scenario was read from (its
    ``path``, :data:`WHERE_READ`) is not what it says, and would make every stored parse stale when the
    server's files move (another release directory, another checkout)."""
    if value is None or isinstance(value, (str, int, float, bool, Path)):
        return repr(value)
    if id(value) in _stack:
        return "<cycle>"
    inner = _stack | {id(value)}
    if isinstance(value, dict):
        items = sorted(f"{canonical(k, inner)}:{canonical(v, inner)}" for k, v in value.items())
        return "{" + ",".join(items) + "}"
    if isinstance(value, (set, frozenset)):
        return "set(" + ",".join(sorted(canonical(item, inner) for item in value)) + ")"
    if isinstance(value, (list, tuple)):
        return type(value).__name__ + "(" + ",".join(canonical(item, inner) for item in value) + ")"
    if dataclasses.is_dataclass(value):
        return type(value).__name__ + "(" + ",".join(
            f"{f.name}={canonical(getattr(value, f.name), inner)}" for f in dataclasses.fields(value)
            if f.metadata.get("canonical", True)) + ")"
    if hasattr(value, "__dict__"):
        return type(value).__name__ + canonical(vars(value), inner)
    if callable(value):
        return getattr(value, "__qualname__", type(value).__name__)
    text = repr(value)
    return type(value).__name__ if " at 0x" in text else text


def check_of(key: bytes, version: str, day: int, side: str, text: str, orders: str) -> str:
    """The keyed digest that binds a stored parse to its entry (its day, side and text) and its version:
    HMAC-SHA256 under ``key`` (the server's), 32 hex digits."""
    # one NUL between the parts: only the text may hold one, the JSON never (json writes it \u0000)
    message = "\0".join((version, str(day), side, text, orders)).encode("utf-8", "surrogatepass")
    return hmac.new(key, message, hashlib.sha256).hexdigest()[:32]


def stored(form: OrdersForm, day: int, side: str, text: str, orders, key: bytes = b"") -> dict | None:
    """The ``parsed`` value of an orders entry for ``orders`` (what ``text`` was read into), checked
    under ``key``, or None when they cannot be stored (a value the codec does not know)."""
    try:
        data = form.dumps(orders)
    except (TypeError, ValueError):
        return None
    return {"version": form.version, "orders": data, "check": check_of(key, form.version, day, side, text, data)}


def stored_as(ruleset, form: OrdersForm, scenario, state, day: int, side: str, text: str,
              key: bytes = b"") -> dict | None:
    """The ``parsed`` value of ``text`` as ``side``'s orders for ``day``, read by ``ruleset``'s
    ``parse_orders`` against ``state`` (the position before the day), or None when it does not parse."""
    try:
        orders = ruleset.parse_orders(scenario, state, side, text)
    except OrdersError:
        return None
    return stored(form, day, side, text, orders, key)


def believed(form: OrdersForm, entry: dict, key: bytes = b""):
    """The orders stored in ``entry`` when they are this parser's and intact; else None (read the text).

    Not believed: no stored parse, another version, a ``check`` that does not match the entry under
    ``key``, or JSON the codec cannot read back, whatever the error (a replay never fails on a stored parse)."""
    kept = entry.get("parsed")
    if type(kept) is not dict or kept.get("version") != form.version:
        return None
    data = kept.get("orders")
    if type(data) is not str or type(kept.get("check")) is not str or not hmac.compare_digest(
            kept["check"], check_of(key, form.version, entry["day"], str(entry["side"]), str(entry["text"]), data)):
        return None
    try:
        return form.loads(data)
    except Exception:  # JSON nested past the recursion limit, a class that refuses its fields...: never fail
        return None


def without_parses(log: list[dict]) -> list[dict]:
    """The log as written: every entry without its stored parse (what an export carries)."""
    return [{k: v for k, v in entry.items() if k != "parsed"} if "parsed" in entry else entry for entry in log]


_FORMS: dict[tuple[int, int], tuple[object, OrdersForm]] = {}
_KEPT_FORMS = 64  # scenarios whose form is kept (each holds its scenario, so its id is not reused)
_FORMS_LOCK = threading.Lock()


def form_of(scenario, codec: Codec, shared=None) -> OrdersForm:
    """The orders form of a parser (its ``codec``, which knows its sources) for ``scenario``, its version
    computed once per scenario object (kept for the last :data:`_KEPT_FORMS`); ``shared(scenario)``
    gives the scenario's dicts that orders hold whole (OrdersForm.shared)."""
    key = (id(codec), id(scenario))
    kept = _FORMS.get(key)
    if kept is not None and kept[0] is scenario:
        return kept[1]
    form = OrdersForm(parser_version(scenario, codec), codec, shared(scenario) if shared else None)
    with _FORMS_LOCK:  # games are loaded in several threads
        while len(_FORMS) >= _KEPT_FORMS:
            del _FORMS[next(iter(_FORMS))]
        _FORMS[key] = (scenario, form)
    return form
