"""Triomphe à Marengo: the strategist (pbem/games/triomphe/strategist.py) plays either side,
keeps every invariant, replays exactly, and beats the random bot from both sides."""

from pathlib import Path

import pytest

import pbem.games.triomphe as triomphe
from pbem.core.game import Game
from pbem.games.triomphe.scenario import load_scenario
from pbem.games.triomphe.strategist import Strategist, accepted
from pbem.games.triomphe.view import view
from pbem.tools.balance import play_match

SCENARIO = Path(__file__).parent.parent / "maps" / "triomphe.toml"
RULES = triomphe.RULESET


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(SCENARIO)


def test_the_strategist_is_the_strongest_bot_listed():
    assert list(RULES.bots()) == ["bot", "forward", "strategist"]
    bot = RULES.bots()["strategist"]
    assert bot.standing is not None and bot.chooser is not None


@pytest.mark.parametrize("austria,france,seed", [("strategist", "bot", 1), ("bot", "strategist", 2)])
def test_it_beats_the_random_bot_from_either_side(scenario, austria, france, seed):
    game = play_match(RULES, scenario, seed, {"austria": austria, "france": france})  # invariants checked
    assert game.over
    assert game.state.winner == ("austria" if austria == "strategist" else "france"), game.state.victory


def test_strategist_games_replay_from_their_log(scenario):
    game = play_match(RULES, scenario, 3, {"austria": "strategist", "france": "strategist"})
    again = Game(RULES, scenario, 3, game.log)
    assert [d.after.digest() for d in again.days] == [d.after.digest() for d in game.days]
    assert game.state.winner in ("austria", "france") and game.state.victory


def test_the_same_view_gives_the_same_orders(scenario):
    state = triomphe.setup(scenario, 4)
    seen = view(scenario, state, "austria")
    first = Strategist(scenario, "austria", 9).orders(seen)
    assert first == Strategist(scenario, "austria", 9).orders(seen)
    assert "ENTER" in first  # 6 AM: the army comes on


def test_its_orders_are_accepted_and_its_standing_orders_read(scenario):
    state = triomphe.setup(scenario, 5)
    for side in triomphe.SIDES:
        text = Strategist(scenario, side, 1).orders(view(scenario, state, side)) if side == "austria" else \
            Strategist(scenario, side, 1).standing()
        orders = triomphe.parse_orders(scenario, state, side, text)
        kinds = {s.kind for s in orders.standing}
        assert {"respond", "vanguard", "barrage", "counterattack", "cover"} <= kinds


def test_accepted_drops_only_the_refused_lines(scenario):
    state = triomphe.setup(scenario, 5)
    text = "ENTER A1\nMARCH A99 Marengo -> Spinetta\nENTER A2"
    assert accepted(scenario, state, "austria", text) == "ENTER A1\nENTER A2"


def test_it_imagines_the_enemy_it_cannot_see(scenario):
    """Enemy blocks enter its imagined position without their ids or strengths (hidden, 000 §2)."""
    state = triomphe.setup(scenario, 6)
    imagined = Strategist(scenario, "austria", 1).imagine(view(scenario, state, "austria"))
    french = [b for b in imagined.blocks.values() if b.side == "france"]
    assert len(french) == len([b for b in state.blocks.values() if b.side == "france" and b.status != "eliminated"])
    assert not any(b.id.startswith("F") for b in french)
    on_map = sorted(b.locale for b in french if b.on_map)
    assert on_map == sorted(b.locale for b in state.side_blocks("france"))
