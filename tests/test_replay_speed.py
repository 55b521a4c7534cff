"""Issue 15, the rest of a replay: the cheap wins keep every day the same. A state's fast copy is a deep
copy (equal, its digest the same, nothing mutable shared, Marengo's index as a scan builds it); the
family's kept Turn is the one a day's name makes. No timing is asserted (`pbem bench` prints them)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass

import copy

import pytest

from pbem.core.game import Game
from pbem.core.ruleset import Turn
from pbem.games import ruleset
from pbem.tools.selfplay import play


def setting(name):
    rules = ruleset(name)
    return rules, rules.load_scenario(next(iter(rules.scenarios().values())))


def mutable_ids(value, out=None) -> set[int]:
    """The ids of every mutable object inside ``value`` (lists, dicts, sets, dataclass instances)."""
    out = set() if out is None else out
    if isinstance(value, (list, dict, set)) or is_dataclass(value) and not isinstance(value, type):
        if id(value) in out:
            return out
        out.add(id(value))
    if isinstance(value, dict):
        for item in value.values():
            mutable_ids(item, out)
    elif isinstance(value, (list, tuple, set, frozenset)):
        for item in value:
            mutable_ids(item, out)
    elif is_dataclass(value) and not isinstance(value, type):
        for f in fields(value):
            mutable_ids(getattr(value, f.name), out)
    return out


def kept_whole(state) -> set[int]:
    """...but the Marengo family's standing orders and last moves, dicts that are replaced, never changed in
    place (State.copy of pbem.games.marengo.state and pbem.games.triomphe.state): the copy's lists hold the
    same dicts."""
    out: set[int] = set()
    for item in [d for orders in state.standing.values() for d in orders] + list(state.last_moves):
        mutable_ids(item, out)
    return out


@pytest.mark.parametrize("name", ["marengo", "triomphe", "napoleon1815"])
def test_a_state_copied_fast_is_a_deep_copy_of_every_position_of_a_game(name):
    rules, scenario = setting(name)
    game = play(rules, scenario, 5, random_decisions=True)
    states = [game.initial] + [day.after for day in game.days] + [day.before for day in game.days]
    assert len(states) > 40
    for state in states:
        copied = copy.deepcopy(state)  # as the driver copies it (Marengo's and Triomphe's copy(), N1815's own)
        assert type(copied) is type(state) and copied == state and copied.digest() == state.digest()
        assert set(vars(copied)) == set(vars(state)) or name == "marengo"  # Marengo's index is built at once
        shared = mutable_ids(copied) & mutable_ids(state)  # changing the copy never changes the original...
        assert shared == (kept_whole(state) if name != "napoleon1815" else set())
        if name == "marengo":
            assert copied.check_index() and copied._where is not None
            assert {bid: i for i, bid in enumerate(state.blocks)} == copied._rank
        moved = next(iter(copied.blocks.values()))
        moved.strength += 1
        assert copied != state


@pytest.mark.parametrize("name", ["marengo", "triomphe"])
def test_the_turn_kept_for_a_day_is_the_one_its_name_makes(name):
    rules, scenario = setting(name)
    game = play(rules, scenario, 6)
    for day in range(len(game.days) + 1):
        state = game.state_before(day)
        said = rules.label_text(scenario, state.day)
        side = scenario.side_of_day(state.day)
        made = Turn((side,), str(said), others=tuple(s for s in game.seats() if s != side), said=said)
        kept = rules.turn(scenario, state)
        assert kept == made and kept.said == said and kept.label == str(said)
        assert game.turn_label(day, "fr") == rules.tongue("fr").say(said)  # read in another language too
    assert rules.turn(scenario, game.state).label == "the end of the game"


def test_a_game_asks_its_seats_once():
    rules, scenario = setting("marengo")
    asked = []

    class Counting:
        def __getattr__(self, attr):
            return getattr(rules, attr)

        def seats(self, *args):
            asked.append(args)
            return rules.seats(*args)

    game = Game(Counting(), scenario, 1, play(rules, scenario, 1).log)
    assert game.seats() == ("austria", "france") and len(game.days) > 20 and len(asked) == 1
