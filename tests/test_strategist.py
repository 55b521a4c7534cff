"""The strategist (pbem/games/marengo/strategist.py): its orders always parse and
break no invariant, it is deterministic, it plays from its own side's view only,
and between two strategists either side can win (docs/maps.md, "Balance")."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.games.marengo.invariants import how_won, summary
from pbem.tools.balance import Balance, balance, play_match
from pbem.cli import main
from pbem.core.game import Game
from pbem.games import rulesets

RULES = rulesets()["marengo"]
from pbem.games.marengo.strategist import strategist_chooser, strategist_orders, strategist_standing

ROOT = Path(__file__).parent.parent
MARENGO = str(ROOT / "maps" / "marengo.toml")
SIDES = ("austria", "france")


@pytest.fixture(scope="module")
def scenario():
    return RULES.load_scenario(MARENGO)


@pytest.mark.parametrize("austria,france", [("strategist", "strategist"), ("strategist", "bot"),
                                            ("bot", "strategist")])
def test_whole_games_parse_and_break_no_invariant(scenario, austria, france):
    # play_match submits every orders text through Game.submit (which parses it and raises
    # OrdersError on any problem) and runs selfplay's check_day after every day
    for seed in (1, 2, 3):
        game = play_match(RULES, scenario, seed, {"austria": austria, "france": france}, check=True)
        assert game.over and game.day == scenario.days
        assert game.state.winner in SIDES


def test_its_orders_parse_on_every_day_for_both_sides(scenario):
    # both sides' views on every day, including the enemy's days (standing orders only)
    game = play_match(RULES, scenario, 5)
    replay = Game(rulesets()["marengo"], scenario, 5)
    for result in game.days:
        for side in SIDES:
            view = replay.ruleset.view(scenario, result.before, side)
            if side == result.seats[0]:
                text = strategist_orders(scenario, view, 5)
            else:
                text = strategist_standing(scenario, view, 5)
            replay.ruleset.parse_orders(scenario, result.before, side, text)  # raises OrdersError


def test_deterministic_for_a_seed(scenario):
    one = play_match(RULES, scenario, 11)
    two = play_match(RULES, scenario, 11)
    assert [d.orders for d in one.days] == [d.orders for d in two.days]
    assert [d.after.digest() for d in one.days] == [d.after.digest() for d in two.days]
    other = play_match(RULES, scenario, 12)
    assert [d.orders for d in other.days] != [d.orders for d in one.days]


def test_a_strategist_game_replays_from_its_log(scenario):
    # the chooser's answers are logged, so the game rebuilds exactly from scenario, seed and log
    game = play_match(RULES, scenario, 4)
    assert any(e["kind"] == "answer" and e.get("by") == "bot" for e in game.log)
    again = Game(rulesets()["marengo"], scenario, 4, game.log)
    assert [d.after.digest() for d in again.days] == [d.after.digest() for d in game.days]


def hidden_variants(state, side: str):
    """Copies of ``state`` that differ only in what ``side`` may not see: the ids and names of
    two enemy blocks at one place swapped, or an unrevealed enemy block's type and strength."""
    foe = [b for b in state.blocks.values() if b.side != side and b.on_map]
    by_place: dict = {}
    for b in foe:
        if b.bombard is None:
            by_place.setdefault((b.locale, b.facing), []).append(b)
    for blocks in by_place.values():
        if len(blocks) >= 2:
            other = state.copy()
            a, b = other.blocks.pop(blocks[0].id), other.blocks.pop(blocks[1].id)
            a.id, b.id, a.name, b.name = b.id, a.id, b.name, a.name
            other.blocks[a.id], other.blocks[b.id] = a, b
            yield other
            break
    for b in foe:
        if b.bombard is None and b.type != "artillery":
            other = state.copy()
            changed = other.blocks[b.id]
            changed.type, changed.strength = ("cavalry", 1) if b.type == "infantry" else ("infantry", 3)
            yield other
            break


def test_it_reads_only_its_own_side_s_view(scenario):
    ruleset = rulesets()["marengo"]
    game = play_match(RULES, scenario, 8)
    checked = 0
    for result in game.days[::3]:
        for side in SIDES:
            state = result.before
            view = ruleset.view(scenario, state, side)
            orders = strategist_orders(scenario, view, 8) if side == result.seats[0] else \
                strategist_standing(scenario, view, 8)
            for other in hidden_variants(state, side):
                seen = ruleset.view(scenario, other, side)
                again = strategist_orders(scenario, seen, 8) if side == result.seats[0] else \
                    strategist_standing(scenario, seen, 8)
                assert again == orders, f"day {result.day}, {side}: hidden enemy details changed its orders"
                checked += 1
    assert checked > 10


def test_the_chooser_keeps_a_reserve_and_answers_only_its_own_side(scenario):
    from pbem.core.decisions import Decision

    game = play_match(RULES, scenario, 2)
    view = game.view("france", day=20)
    own = [b for b in view["blocks"] if b["status"] == "map"][:4]
    ids = tuple(b["id"] for b in own)
    choose = strategist_chooser(scenario, view, 2)
    block = Decision("france", "block", "block?", ids, ids, min=0, max=len(ids))
    answer = choose(block)
    assert 1 <= len(answer) < len(ids) and not block.problem(answer)
    theirs = Decision("austria", "block", "block?", ("A1", "A2"), ("A1", "A2"), min=0, max=2)
    assert choose(theirs) == ("A1", "A2")  # not its decision: the default
    other = Decision("france", "retreat", "where?", ("x", "y"), ("y",))
    assert choose(other) == ("y",)


def test_either_side_can_win_between_strategists(scenario):
    tally = balance(RULES, scenario, seed=1, games=24)
    assert tally.problems == []
    assert tally.games == 24
    assert tally.winners["austria"] >= 1 and tally.winners["france"] >= 1


def test_the_tally_counts_how_games_were_won(scenario):
    tally = Balance({"austria": "strategist", "france": "bot"})
    for seed in (1, 2):
        game = play_match(RULES, scenario, seed, {"austria": "strategist", "france": "bot"})
        tally.add(summary(scenario, game.state))
        assert how_won(game.state) in ("demoralisation", "objectives")
    assert tally.games == 2 and sum(tally.winners.values()) == 2
    assert sum(tally.how.values()) == 2
    lines = tally.lines()
    assert lines[0].startswith("austria=strategist france=bot: 2 games")
    assert any(line.startswith("mean at the end: austria morale") for line in lines)


def test_cli_balance(capsys):
    assert main(["balance", "--games", "2", "--seed", "3", "--seat", "france=bot"]) == 0
    out = capsys.readouterr().out
    assert "austria=strategist france=bot: 2 games" in out
    assert "austria wins" in out and "france wins" in out
    assert "objectives Austria held at the end" in out


def test_games_are_the_same_in_every_process():
    """Python orders a set by its members' hashes, which change with the process's hash seed:
    no choice of the engine, the bot or the strategist may follow such an order. (Seed 12 of
    the strategist once did: a tie between two candidate moves went the way a set iterated.)"""
    import os
    import subprocess
    import sys

    script = (
        "from pbem.tools.balance import play_match\n"
        "from pbem.tools.selfplay import play\n"
        "from pbem.games import ruleset\n"
        "r = ruleset('marengo')\n"
        "sc = r.load_scenario(r.scenarios()['marengo'])\n"
        "out = [play_match(r, sc, s).state.digest() for s in (12, 13, 14)]\n"
        "out += [play(r, sc, s, random_decisions=True).state.digest() for s in (1, 2, 3)]\n"
        "print(' '.join(out))\n"
    )
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "3", "5")}
    assert len(runs) == 1, runs
