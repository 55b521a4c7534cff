"""The Marengo family package (pbem.games.simmons): what both games share behaves the same in each."""

import copy

import pytest

from pbem.core.game import Game
from pbem.games import ruleset
from pbem.tools.selfplay import play_game, simple_players

GAMES = ("marengo", "triomphe")


def _played(name: str, days: int):
    rules = ruleset(name)
    scenario = rules.load_scenario(rules.scenarios()[name])
    game = play_game(rules, scenario, 3, simple_players(rules, scenario), days=days)
    return rules, scenario, game


@pytest.mark.parametrize("name", GAMES)
def test_each_game_s_checks_catch_a_broken_position(name):
    """The family's invariants (capacity, one army a locale, strengths, places) run in both games."""
    rules, scenario, game = _played(name, 8)
    result = copy.copy(game.days[-1])
    result.after = copy.deepcopy(result.after)
    austrians = [b for b in result.after.blocks.values() if b.side == "austria" and b.on_map]
    french = next(b for b in result.after.blocks.values() if b.side == "france" and b.on_map)
    for b in austrians:
        b.locale, b.facing = austrians[0].locale, None  # everyone in one locale
    french.locale, french.facing = austrians[0].locale, None
    austrians[0].strength = 7
    if hasattr(result.after, "_where"):
        result.after._where = None
    problems = " | ".join(rules.check_turn(scenario, result))
    assert "capacity" in problems and "strength 7" in problems and "both armies" in problems, problems


def test_the_road_ledger_queues_in_triomphe_and_fills_gaps_in_marengo():
    """One crossing, a block on its second step crossed first (step 2); a block on its first step
    then takes step 1 in Bonaparte at Marengo (003 §8, V9), step 3 in Triomphe (000 §8, T12)."""
    from pbem.games.simmons.roads import FULL, OTHER_WAY, free_step, take_step

    key, way = ("border", "a|b", "r1"), ("a", "b")
    used: dict = {}
    take_step(used, key, 2, way)
    assert free_step(used, key, way, 0, queue=False) == (1, "")
    assert free_step(used, key, way, 0, queue=True) == (3, "")
    assert free_step(used, key, ("b", "a"), 0, queue=False) == (None, OTHER_WAY)
    take_step(used, key, 3, way)
    assert free_step(used, key, way, 0, queue=True) == (None, FULL)
    assert free_step(used, key, way, 2, queue=False) == (None, FULL)
