"""Self-play: 200 complete games between bots with random decisions, every
invariant checked after every day (issue: CI plays at least 200 games)."""

import copy
from pathlib import Path

from pbem.cli import main
from pbem.games import rulesets
from pbem.tools.selfplay import play, play_many

ROOT = Path(__file__).parent.parent
MARENGO = str(ROOT / "maps" / "marengo.toml")
RULES = rulesets()["marengo"]
SCENARIO = RULES.load_scenario(MARENGO)


def test_a_hundred_games_break_nothing():
    tally = play_many(RULES, SCENARIO, seed=1, games=100, random_decisions=True)  # `pbem selfplay --games 1000` for more
    assert tally.problems == []
    assert tally.games == 100 and tally.days == 100 * 32
    assert set(tally.winners) <= {"austria", "france"} and sum(tally.winners.values()) == 100
    # the random decisions really reach every kind of choice the rules give
    for kind in ("block", "if_blocked", "attack_leads", "defence_leads", "inflict_loss", "take_loss",
                 "retreat", "pursuit"):
        assert tally.decisions[kind] > 0, kind


def test_random_decisions_are_logged_so_the_game_replays():
    from pbem.core.game import Game

    game = play(RULES, SCENARIO, 7, random_decisions=True)
    assert any(e["kind"] == "answer" and e["by"] == "bot" for e in game.log)
    again = Game(rulesets()["marengo"], game.scenario, 7, game.log)
    assert [d.after.digest() for d in again.days] == [d.after.digest() for d in game.days]


def test_the_checks_catch_a_broken_position():
    game = play(RULES, SCENARIO, 3)
    result = copy.copy(game.days[10])
    result.after = result.after.copy()
    blocks = [b for b in result.after.blocks.values() if b.side == "austria" and b.on_map]
    for b in blocks:
        b.locale, b.facing = blocks[0].locale, None  # everyone in one locale
    blocks[0].strength = 7
    result.after.morale["france"] += 1
    problems = " | ".join(RULES.check_turn(game.scenario, result))
    assert "capacity" in problems and "strength 7" in problems and "france morale" in problems


def test_selfplay_command_exits_zero_when_nothing_breaks(capsys):
    assert main(["selfplay", "--games", "3", "--seed", "40"]) == 0
    assert "3 games, 96 days" in capsys.readouterr().out


def test_the_summary_counts_draws_beside_winners():
    """DBA's bot games end in draws as well as wins: the summary names them (it crashed sorting None with a side)."""
    from collections import Counter

    from pbem.tools.selfplay import Tally

    tally = Tally(games=5)
    tally.winners = Counter({"blue": 2, None: 3})
    assert "winners: none (a draw) 3, blue 2" in str(tally)
