"""The state digest without the deep copy (issue 15): the same value as SHA-256 of the
state's ``to_dict()`` (``dataclasses.asdict``) as sorted JSON, which stored games hold."""

from __future__ import annotations

import hashlib
import json
from dataclasses import dataclass, field

import pytest

from pbem.core import digest as digests
from pbem.games import rulesets
from pbem.tools.selfplay import play

GAMES = ["marengo", "triomphe", "napoleon1815"]


def reference(state) -> str:
    """The digest as stored games were recorded: the deep copy, then JSON."""
    return hashlib.sha256(json.dumps(state.to_dict(), sort_keys=True).encode()).hexdigest()[:16]


@pytest.mark.parametrize("name", GAMES)
def test_every_days_digest_of_a_whole_game_is_the_reference_digest(name):
    ruleset = rulesets()[name]
    scenario = ruleset.load_scenario(next(iter(ruleset.scenarios().values())))
    game = play(ruleset, scenario, 7, random_decisions=True)
    assert len(game.days) > 5
    for result in game.days:
        assert ruleset.digest(result.after) == reference(result.after)
        assert ruleset.digest(result.before) == reference(result.before)


@dataclass
class Inner:
    n: int
    seen: tuple[str, ...] = ()


@dataclass
class Outer:
    name: str
    inner: dict[str, Inner] = field(default_factory=dict)
    rows: list[Inner] = field(default_factory=list)
    note: str | None = None

    def __post_init__(self):
        self._cache = {"not": "a field"}  # attributes that are not fields stay out, as in asdict


def test_nested_dataclasses_lists_tuples_and_unicode_digest_as_asdict_does():
    from dataclasses import asdict

    value = Outer("Maréngo ✓", {"b": Inner(2, ("x", "y")), "a": Inner(1)}, [Inner(3), Inner(4, ("z",))])
    expected = hashlib.sha256(json.dumps(asdict(value), sort_keys=True).encode()).hexdigest()[:16]
    assert digests.digest(value) == expected
    value.inner["a"].n = 9  # a change anywhere changes it
    assert digests.digest(value) != expected
    with pytest.raises(TypeError):
        digests.digest({"x": object()})


@dataclass
class Plain:
    a: int
    b: list = field(default_factory=list)


@dataclass
class Shadowed:
    """A field the class also defines as a property: ``getattr`` reads the property, not ``__dict__``."""
    a: int = 0


Shadowed.a = property(lambda self: "the property's value",
                      lambda self, value: self.__dict__.update(a="the instance's own value, which getattr never gives"))


@dataclass(slots=True)
class Slotted:
    a: int
    b: str = "x"


def test_the_encoder_reads_a_plain_instance_s_own_fields_and_nothing_more():
    """Issue 35: the digest's encoder is handed a plain instance's ``__dict__`` itself, no copy of it; an
    instance with more than its fields, a field the class shadows, or slots gets a dict of its fields alone,
    so the text stays asdict's."""
    from dataclasses import asdict

    plain = Plain(1, [2])
    assert digests._written(plain) is plain.__dict__
    extra = Outer("x", {"a": Inner(1)})  # _cache beside the fields
    assert digests._written(extra) == {"name": "x", "inner": {"a": Inner(1)}, "rows": [], "note": None}
    shadowed = Shadowed()
    assert digests._written(shadowed) == {"a": "the property's value"}
    assert digests._written(Slotted(1)) == {"a": 1, "b": "x"}
    for value in (plain, extra, Slotted(3, "é")):
        expected = hashlib.sha256(json.dumps(asdict(value), sort_keys=True).encode()).hexdigest()[:16]
        assert digests.digest(value) == expected
    assert digests.digest(shadowed) == digests.digest({"a": "the property's value"})


def test_fields_of_gives_a_dict_its_caller_may_change():
    """Napoleon 1815's digest deletes a field from what ``fields_of`` gives: the state itself keeps it."""
    plain = Plain(1)
    out = digests.fields_of(plain)
    assert list(out) == ["a", "b"]
    del out["a"]
    assert plain.a == 1 and "a" in plain.__dict__
