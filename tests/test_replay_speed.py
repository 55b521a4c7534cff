"""Issue 15, the rest of a replay: the cheap wins keep every day the same. A state's fast copy is a deep
copy (equal, its digest the same, nothing mutable shared, Marengo's index as a scan builds it); the
family's kept Turn is the one a day's name makes. No timing is asserted (`pbem bench` prints them)."""

from __future__ import annotations

from dataclasses import fields, is_dataclass

import copy

import pytest

from pbem.core.game import Game
from pbem.core.ruleset import Turn
from pbem.lang import Text
from pbem.games import ruleset
from pbem.games.marengo.scenario import SIDES
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
        assert set(vars(copied)) == set(vars(state)) or name != "napoleon1815"  # the family's index: built at once
        shared = mutable_ids(copied) & mutable_ids(state)  # changing the copy never changes the original...
        assert shared == (kept_whole(state) if name != "napoleon1815" else set())
        if name != "napoleon1815":
            assert copied.check_index() and copied._where is not None
            assert {bid: i for i, bid in enumerate(state.blocks)} == copied._rank
        moved = next(iter(copied.blocks.values()))
        moved.strength += 1
        assert copied != state


def test_a_change_to_a_marengo_copy_never_reaches_the_original():
    """Every way the rules change a position, done to a copy of each position of a game (every block moved by
    put(), on and off the map, and each field the rules write directly: strength, bombard, bombard_days,
    activated, facing; morale, the flags, the standing orders, the last moves), leaves the original as it was:
    its digest, its blocks' fields, its index (as a scan builds it) and its lookups."""
    rules, scenario = setting("marengo")
    game = play(rules, scenario, 5, random_decisions=True)
    states = [game.initial] + [day.after for day in game.days] + [day.before for day in game.days]
    locales = list(scenario.board.locales)
    for n, state in enumerate(states):
        digest, blocks = state.digest(), {bid: dict(vars(b)) for bid, b in state.blocks.items()}
        looked = {(loc, side): [b.id for b in state.in_locale(loc, side)] for loc in locales for side in SIDES}
        copied = state.copy()
        for i, b in enumerate(copied.blocks.values()):
            if b.status == "map" and i % 2:
                copied.put(b, None, status="eliminated")
            else:
                copied.put(b, locales[(n + i) % len(locales)], None)
            b.strength -= 1
            b.bombard, b.bombard_days, b.activated = locales[0], b.bombard_days + (99,), not b.activated
            b.facing = locales[1]
        for side in SIDES:
            copied.morale[side] = copied.morale.get(side, 0) + 3
            copied.demoralised[side] = copied.bonus_due[side] = True
            copied.standing.setdefault(side, []).append({"kind": "block"})
        copied.last_moves.append({"block": "x"})
        copied.french_start.append(locales[0])
        copied.day += 1
        assert state.digest() == digest and {bid: vars(b) for bid, b in state.blocks.items()} == blocks
        assert state.check_index()
        assert looked == {(loc, side): [b.id for b in state.in_locale(loc, side)] for loc in locales for side in SIDES}
        assert copied.check_index() and copied.digest() != digest


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


# -- replay2: what a replay no longer says at once, and the names said once

class Counted(Text):
    """A Text that counts how often its English (or any language) is written."""
    written = 0

    def read_in(self, tongue):
        Counted.written += 1
        return super().read_in(tongue)


def test_a_decisions_question_and_labels_given_as_texts_are_english_when_read_and_written_once():
    from pbem.core.decisions import Decision

    Counted.written = 0
    question = Counted("Retreat %(block)s to?", {"block": "A1"})
    lazy = Decision("austria", "retreat", question, ("a", "b"), ("a",),
                    labels=(("a", Counted("Alessandria")), ("b", "Bosco")), said=question)
    assert Counted.written == 0  # made, nothing written
    plain = Decision("austria", "retreat", "Retreat A1 to?", ("a", "b"), ("a",),
                     labels=(("a", "Alessandria"), ("b", "Bosco")))
    assert lazy.question == "Retreat A1 to?" and type(lazy.question) is str
    assert lazy.labels == (("a", "Alessandria"), ("b", "Bosco")) and all(type(v) is str for _, v in lazy.labels)
    assert Counted.written == 2
    assert lazy == plain and hash(lazy) == hash(plain) and repr(lazy) == repr(plain)
    assert lazy.to_dict() == plain.to_dict() and lazy.label("a") == "Alessandria"
    assert lazy.read(["alessandria"]) == ("a",)
    lazy.to_dict(), lazy.labels, lazy.question
    assert Counted.written == 2  # kept once written
    with pytest.raises(AttributeError):
        lazy.question = "another"  # still frozen
    assert Decision("a", "k", "Q?", ("x",), ("x",)).labels == ()


def test_a_decision_of_a_replayed_day_keeps_its_texts_unwritten_until_read():
    rules, scenario = setting("marengo")
    game = play(rules, scenario, 2)
    again = Game(rules, scenario, 2, game.log)
    records = [r for d in again.days for r in d.decisions]
    assert records
    assert any(not isinstance(r.decision.__dict__["_question"], str) for r in records)  # not written at once
    assert [r.to_dict() for d in again.days for r in d.decisions] == [r.to_dict() for d in game.days
                                                                       for r in d.decisions]


def test_the_names_of_blocks_and_reserves_are_the_sentences_they_were_in_every_language():
    from types import SimpleNamespace

    from pbem.games.simmons.turn import SideTurn, adjective
    from pbem.lang import say

    rules, scenario = setting("marengo")
    turn = SideTurn.__new__(SideTurn)
    turn.board = scenario.board
    block = SimpleNamespace(id="A1", name="Ott", type="infantry", strength=3, side="austria")
    unnamed = SimpleNamespace(id="B2", name="B2", type="cavalry", strength=2, side="france")
    locale = next(iter(scenario.board.locales))
    assert rules.tongue("fr").say(turn.own(block)) != str(turn.own(block))  # the languages differ
    made = {
        "own": (turn.own(block), say("%(block)s (%(kind)s %(strength)d)", block="A1 Ott", kind=say("infantry"),
                                     strength=3)),
        "own at a strength": (turn.own(block, 1), say("%(block)s (%(kind)s %(strength)d)", block="A1 Ott",
                                                      kind=say("infantry"), strength=1)),
        "own unnamed": (turn.own(unnamed), say("%(block)s (%(kind)s %(strength)d)", block="B2",
                                               kind=say("cavalry"), strength=2)),
        "shown": (turn.shown(unnamed, 1), say("%(side)s %(kind)s %(strength)d", side=say("French"),
                                             kind=say("cavalry"), strength=1)),
        "reserve": (turn.place(locale, None), say("%(place)s (reserve)", place=turn.name(locale))),
        "adjective": (adjective("austria"), say("Austrian")),
    }
    for what, (kept, fresh) in made.items():
        assert kept == fresh, what
        for lang in ("en", "fr", "ru", "uk", "zh"):
            assert rules.tongue(lang).say(kept) == rules.tongue(lang).say(fresh), (what, lang)
    assert turn.own(block) is turn.own(block)  # said once, shared
    block.strength = 2
    assert str(turn.own(block)) == "A1 Ott (infantry 2)"  # the block as it is now, not as first said
    other = list(scenario.board.locales)[1]
    assert turn.place(locale, other) == f"{turn.name(locale)}>{turn.name(other)}"


def test_an_event_made_is_the_dataclass_it_was():
    from pbem.core.events import Event
    from pbem.lang import say

    one, two = Event("move"), Event("move")
    assert one.data == {} and one.data is not two.data  # each its own dict
    assert Event("move", data=None).data is None  # as given
    full = Event("move", "A moved.", {"a": 1}, owner=("austria",), seen="Something moved.", seen_data={"b": 2},
                 witnesses=("france",), said=None, seen_said=None)
    assert (full.kind, full.text, full.data, full.owner, full.seen, full.seen_data, full.witnesses) == (
        "move", "A moved.", {"a": 1}, ("austria",), "Something moved.", {"b": 2}, ("france",))
    assert full.to_dict() == {"kind": "move", "text": "A moved.", "data": {"a": 1}, "owner": ("austria",),
                              "seen": "Something moved.", "seen_data": {"b": 2}, "witnesses": ["france"]}
    said = Event("move", said=say("A %(x)s.", x=1), owner="austria", seen_said=say("B."))
    assert (said.text, said.seen) == ("A 1.", "B.")
    assert said == Event("move", "A 1.", owner="austria", seen="B.", said=say("A %(x)s.", x=1),
                         seen_said=say("B."))
    assert copy.deepcopy(said) == said


def test_a_day_copies_its_position_as_deepcopy_would():
    from pbem.core.game import deep_copy

    class Own:
        asked = []

        def __deepcopy__(self, memo):
            Own.asked.append(memo)
            return "its own copy"

    assert deep_copy(Own()) == "its own copy" and Own.asked == [{}]  # asked with a new memo, as deepcopy asks it
    plain = {"blocks": [{"id": "A1", "strength": 3}]}
    copied = deep_copy(plain)
    assert copied == plain and copied["blocks"][0] is not plain["blocks"][0]  # no __deepcopy__: deepcopy's walk
    rules, scenario = setting("marengo")
    state = play(rules, scenario, 1).days[10].after
    assert rules.digest(deep_copy(state)) == rules.digest(copy.deepcopy(state))


def test_a_sides_blocks_on_the_map_kept_in_play_are_a_scans_in_order():
    rules, scenario = setting("marengo")
    game = play(rules, scenario, 4)

    def scan(state, side):
        return [b.id for b in state.blocks.values() if b.side == side and b.status == "map"]

    for day in game.days:
        state = copy.deepcopy(day.after)  # in play at once, its lists built on the way
        for side in ("austria", "france"):
            assert [b.id for b in state.side_blocks(side)] == scan(state, side)
        assert state.check_index()
    listed = state.side_blocks("austria")
    listed.clear()  # the caller's own list
    assert [b.id for b in state.side_blocks("austria")] == scan(state, "austria") != []
    first, last = state.side_blocks("austria")[0], state.side_blocks("austria")[-1]
    for block in (first, last):  # off the map and back: in the blocks' order again, not at the end
        where = (block.locale, block.facing)
        state.put(block, None, status="eliminated")
        assert block.id not in [b.id for b in state.side_blocks("austria")] and state.check_index()
        state.put(block, *where)
        assert [b.id for b in state.side_blocks("austria")] == scan(state, "austria") and state.check_index()
    fresh = type(state)(day=0, blocks=copy.deepcopy(state.blocks))  # not in play: a scan, no index built
    assert [b.id for b in fresh.side_blocks("austria")] == scan(fresh, "austria") and fresh._where is None


def test_triomphes_index_of_where_blocks_are_is_a_scan_after_every_turn_and_a_copys_is_its_own():
    rules, scenario = setting("triomphe")

    def scan(state, locale, side):
        return [b.id for b in state.blocks.values() if b.status == "map" and b.locale == locale and b.side == side]

    turns = 0
    for seed in (1, 2, 3):
        game = play(rules, scenario, seed, random_decisions=seed == 3)
        for day in game.days:
            for state in (day.after, copy.deepcopy(day.after)):  # as played (through put), and a copy's own
                assert state.check_index() and state._where is not None
                for locale in scenario.board.locales:
                    for side in ("austria", "france"):
                        ids = scan(state, locale, side)
                        assert [b.id for b in state.in_locale(locale, side)] == ids
                        assert state.count_in(locale, side) == len(ids)
                        assert state.occupied_by(locale, side) == bool(ids)
                        for facing in [None, *scenario.board.adjacent(locale)]:
                            assert [b.id for b in state.at(locale, facing, side)] == [
                                bid for bid in ids if state.blocks[bid].facing == facing]
                    assert [b.id for b in state.in_locale(locale)] == [
                        b.id for b in state.blocks.values() if b.status == "map" and b.locale == locale]
                for side in ("austria", "france"):
                    assert [b.id for b in state.side_blocks(side)] == [
                        b.id for b in state.blocks.values() if b.side == side and b.status == "map"]
                for side in ("austria", "france"):  # T14's closed locales: the cells still holding a block
                    assert state.waiting_cells(side) == {b.cell for b in state.blocks.values()
                                                         if b.side == side and b.status == "waiting"}
            turns += 1
    assert turns > 60
    state = copy.deepcopy(game.days[2].after)  # reinforcements still waiting
    copied = state.copy()
    block = next(b for b in copied.blocks.values() if b.status == "map")
    where = (block.locale, block.facing)
    copied.put(block, None, status="eliminated")  # the copy's index changes, the original's does not
    assert copied.check_index() and state.check_index()
    assert block.id not in [b.id for b in copied.in_locale(where[0], block.side)]
    assert block.id in [b.id for b in state.in_locale(where[0], block.side)]
    assert block.id not in [b.id for b in copied.side_blocks(block.side)]
    assert block.id in [b.id for b in state.side_blocks(block.side)]
    copied.put(block, *where)  # back on the map: in the blocks' order again, not at the end
    assert [b.id for b in copied.side_blocks(block.side)] == [b.id for b in state.side_blocks(block.side)]
    assert copied.check_index() and [b.id for b in copied.in_locale(where[0], block.side)] == scan(
        copied, where[0], block.side)
    copied.moved.setdefault("france", {"day": 0, "locales": {}})["locales"]["x"] = 9  # the moves made: its own
    assert "x" not in state.moved.get("france", {"locales": {}})["locales"]
    waiting = next(b for b in copied.blocks.values() if b.status == "waiting")  # it enters: the cells looked
    before = copied.waiting_cells(waiting.side)                                  # at again, the original's kept
    copied.put(waiting, where[0])
    assert copied.check_index() and state.waiting_cells(waiting.side) == before and waiting.cell in before
    assert copied.waiting_cells(waiting.side) == {b.cell for b in copied.blocks.values()
                                                  if b.side == waiting.side and b.status == "waiting"}
    block.locale = "elsewhere"  # a move not made by put(): the check sees it
    assert not copied.check_index()
    fresh = type(state)(day=0, blocks=copy.deepcopy(state.blocks))  # not in play: no index until looked at
    assert fresh._where is None and fresh.check_index()
    waiting = next(b for b in fresh.blocks.values() if b.status == "waiting")
    assert waiting.cell in fresh.waiting_cells(waiting.side) and fresh._where is None
    for b in fresh.blocks.values():  # the cell's blocks entered, not by put(): the cells kept are stale
        if b.side == waiting.side and b.status == "waiting" and b.cell == waiting.cell:
            b.status = "map"
    assert not fresh.check_index()
