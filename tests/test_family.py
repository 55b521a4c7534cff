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


def test_triomphe_s_map_is_the_family_s_with_its_own_layers():
    """Triomphe's map is drawn by the family's drawing (one <rect> a block on the map, no enemy id)
    with its layers: committed discs, the objective line, the approach arrows, waiting cells."""
    import re
    import xml.etree.ElementTree as ET

    rules, scenario, game = _played("triomphe", 14)
    for seat in ("austria", "france"):
        view = game.view(seat)
        svg = rules.render_svg(scenario, view, title="Game 7")
        root = ET.fromstring(svg)
        rects = list(root.iter("{http://www.w3.org/2000/svg}rect"))
        own = [b for b in view["blocks"] if b["status"] == "map"]
        assert len(rects) == len(own) + len(view["enemy"])
        assert sum(1 for r in rects if r.get("data-block")) == len(own)
        foe = "F" if seat == "austria" else "A"
        assert not re.search(rf"(?<![\w-]){foe}\d+(?![\w-])", svg), seat
        assert "Waiting cells" in svg and "objective line" in svg and "next: the Austrian turn" in svg
        # the orders spent are the turn just played, the French (day 13), and say whose (issue 33)
        assert f"France spent {view['orders_spent']} of 3 orders" in svg
        discs = len(re.findall(r'<circle[^>]*r="4\.6"', svg))
        had = view["committed"]["france"].get("marengo", 0)  # three more French discs in Marengo, no Austrian
        more = dict(view, committed={"austria": {}, "france": {**view["committed"]["france"], "marengo": had + 3}})
        svg_more = rules.render_svg(scenario, more, title="Game 7")
        shown = min(had + 3, 5) - min(had, 5)
        gone = sum(min(n, 5) for n in view["committed"]["austria"].values())
        assert len(re.findall(r'<circle[^>]*r="4\.6"', svg_more)) - discs == shown - gone
        arrows = len(scenario.terrain.east)
        assert svg.count('fill="#8a7d63"') >= arrows


def test_the_orders_form_of_a_finished_triomphe_game_says_it_is_over():
    from pbem.games import ruleset
    from pbem.tools.selfplay import play_game

    rules = ruleset("triomphe")
    scenario = rules.load_scenario(rules.scenarios()["triomphe"])
    game = play_game(rules, scenario, 3, {s.id: rules.bots()["bot"] for s in rules.seats(scenario, {})})
    assert game.over
    form = rules.orders_template(game, "austria", deadline=None, game_label="x", game_id="1")
    assert "The game is over" in form and "STANDING" not in form
