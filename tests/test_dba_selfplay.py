"""Napoleonic DBA played whole by its bots through the engine core (pbem.tools.selfplay), with the invariants
checked after every turn (no element in two places, none in impassable ground nor off the table, effectiveness
in range, each courier delivered once), and the leak test: a seat's view, report and orders template never name
an enemy element its troops have not seen."""

from __future__ import annotations

import json
import re

import pytest

from pbem.games.dba.ruleset import DBA_RULESET as RULES
from pbem.tools.selfplay import play_game

MEETING = RULES.load_scenario(RULES.scenarios()["dba-meeting"])


def bots(scenario):
    return {s.id: RULES.bots()["bot"] for s in RULES.seats(scenario, {})}


@pytest.mark.parametrize("seed", [1, 4])
def test_meeting_engagements_play_to_their_end_with_every_invariant(seed):
    game = play_game(RULES, MEETING, seed, bots(MEETING), check=True)
    assert game.over
    assert 1 <= game.day <= MEETING.settings.turns
    summary = RULES.summary(MEETING, game.state)
    assert summary["winner"] in (None, "blue", "red") and summary["how"]
    dispatches = [c for c in game.state.post.couriers]
    assert dispatches and all(c.status in ("riding", "delivered", "lost") for c in dispatches)
    kinds = {r.decision.kind for d in game.days for r in d.decisions}
    assert {"path", "unit moves"} <= kinds  # the executor's choices are logged decisions


def test_a_game_replays_exactly_from_its_log():
    game = play_game(RULES, MEETING, 2, bots(MEETING), days=5)
    digests = [RULES.digest(d.after) for d in game.days]
    game.replay()
    assert [RULES.digest(d.after) for d in game.days] == digests


def _enemy_ids(scenario, side):
    return {e.id for e in list(scenario.table.elements.values()) + list(scenario.waiting.values()) if e.side != side}


def _named(text: str, ids) -> set[str]:
    return {i for i in ids if re.search(r"(?<![\w-])" + re.escape(i) + r"(?![\w-])", text)}


def test_a_seat_never_reads_the_name_of_an_enemy_element_it_has_not_seen():
    game = play_game(RULES, MEETING, 3, bots(MEETING), days=12)
    checked = 0
    for day, result in enumerate(game.days):
        for seat in ("blue", "red"):
            seen = set(result.after.memory[seat])
            enemy = _enemy_ids(MEETING, seat)
            view = game.view(seat, day)
            report = RULES.report(game, day, seat, game_id="1")
            for text in (json.dumps(view, ensure_ascii=False), report.markdown, report.text):
                leaked = _named(text, enemy - seen)
                assert not leaked, f"day {day}, {seat} reads {sorted(leaked)}"
            # and what it has seen is there to read: the enemy in sight now is in its view
            assert {e["id"] for e in view["enemy"]} <= seen
            checked += 1
    assert checked == 2 * game.day
    assert any(game.days[-1].after.memory[s] for s in ("blue", "red"))  # the test met the enemy at all


def test_the_invariants_see_a_broken_position():
    """check_turn is not vacuous: an element on another, one in the pond, a courier delivered twice, an
    effectiveness above its start are each reported."""
    import copy
    from types import SimpleNamespace

    from pbem.core.chance import Chance

    state = RULES.setup(MEETING, {}, Chance(1))
    after = copy.deepcopy(state)
    after.turn += 1
    assert RULES.check_turn(MEETING, SimpleNamespace(before=state, after=after)) == []
    a, b = after.elements["blue-1-2"], after.elements["blue-1-3"]
    b.x, b.y = a.x, a.y
    pond = next(f for f in MEETING.table.terrain.features if f.kind == "water").shape.centroid
    after.elements["red-1-2"].x, after.elements["red-1-2"].y = round(pond.x), round(pond.y) + 5
    after.brigades["red-2"].bef_temporary = -3
    problems = " | ".join(RULES.check_turn(MEETING, SimpleNamespace(before=state, after=after)))
    assert "blue-1-2 and blue-1-3 stand on one another" in problems
    assert "red-1-2 stands inside impassable water" in problems
    assert "red-2's effectiveness" in problems


# -- self-play at volume, and the general bot ------------------------------------------------------------------

QUATRE_BRAS = RULES.load_scenario(RULES.scenarios()["dba-quatre-bras"])


def test_a_short_volume_run_plays_both_scenarios_checks_and_replays_every_game():
    from pbem.tools.selfplay import play_volume

    played = []
    volume = play_volume(RULES, {"dba-meeting": MEETING, "dba-quatre-bras": QUATRE_BRAS}, 1, 3,
                         on_game=lambda name, seed, game, v: played.append((name, seed, game.day)))
    assert volume.problems == []
    assert [(n, s) for n, s, _ in played] == [("dba-meeting", 1), ("dba-quatre-bras", 2), ("dba-meeting", 3)]
    assert volume.days["dba-meeting"] >= 2 and volume.days["dba-quatre-bras"] >= 1
    assert "3 games" in volume.lines()[-1]


def test_a_volume_run_reports_a_replay_that_differs():
    """The replay check is not vacuous: a digest that changes each time it is taken is caught, with the seed."""
    from itertools import count

    from pbem.games.dba.ruleset import NapoleonicDBA
    from pbem.tools.selfplay import play_volume

    ticks = count()

    class Drifting(NapoleonicDBA):
        def digest(self, state):
            return f"{super().digest(state)}-{next(ticks)}"

    volume = play_volume(Drifting(), {"dba-meeting": MEETING}, 7, 1)
    assert volume.problems == ["dba-meeting seed 7: the replay differs from day 1"]


def _view_of_blue(bef=9, rating="fresh", enemy=(), order="", step=None):
    """A seat's view with one blue brigade of four elements at (20", 24"), as view.py writes it."""
    return {"side": "blue", "turn": 5, "over": False, "owing": ["blue", "red"], "places": sorted(MEETING.table.places),
            "enemy": list(enemy), "last_known": [], "couriers": [],
            "commanders": [{"id": "blue-general", "name": "General Azur", "alive": True, "present": True,
                            "superior": None},
                           {"id": "blue-1", "name": "Colonel Bleu", "alive": True, "present": True,
                            "superior": "blue-general"}],
            "brigades": [{"id": "blue-1", "commander": "blue-1", "bef": bef, "bef_start": 9, "rating": rating,
                          "elements": ["blue-1-1", "blue-1-2", "blue-1-3", "blue-1-4"], "order": order, "step": step,
                          "waiting": 0, "at": [200, 240]}]}


def _red(n, at=(260, 240)):
    return [{"id": f"red-1-{i}", "brigade": "red-1", "troop": "infantry", "x": at[0], "y": at[1] + 16 * i}
            for i in range(1, n + 1)]


def test_the_general_attacks_at_good_odds_holds_at_bad_falls_back_when_shaken_and_else_advances():
    from pbem.games.dba.bot import general_orders

    def written(view):
        return general_orders(MEETING, view, 1).splitlines()

    assert written(_view_of_blue()) == ["FROM General Azur TO Colonel Bleu",
                                        "MOVE TO Mill Village IN COLUMN THEN HOLD IT IN LINE"]
    assert written(_view_of_blue(enemy=_red(2)))[1] == "ATTACK 1st Red brigade"      # 4 against 2
    assert written(_view_of_blue(enemy=_red(4)))[1] == "HOLD"                        # 4 against 4: no
    assert written(_view_of_blue(bef=4, rating="spent", enemy=_red(1)))[1] == "RETREAT TO Blue edge"
    far = _red(1, at=(460, 240))  # 26" off: not this brigade's affair yet
    assert written(_view_of_blue(enemy=far))[1].startswith("MOVE TO Mill Village")


def test_the_general_writes_no_dispatch_the_brigade_already_follows_or_has_on_the_road():
    from pbem.games.dba.bot import general_orders

    marching = "FROM General Azur TO Colonel Bleu\nMOVE TO Mill Village IN COLUMN\nTHEN HOLD Mill Village IN LINE"
    assert general_orders(MEETING, _view_of_blue(order=marching, step=0), 1) == ""
    assert general_orders(MEETING, _view_of_blue(order=marching, step=1), 1) == ""   # holding the place
    on_road = _view_of_blue()
    on_road["couriers"] = ["dispatch 3, General Azur to Colonel Bleu, sent turn 4: on the road (6\" ridden)"]
    assert general_orders(MEETING, on_road, 1) == ""
    # a change of what it wants is written at once: attack while marching
    assert "ATTACK 1st Red brigade" in general_orders(MEETING, _view_of_blue(order=marching, step=0, enemy=_red(1)), 1)


def test_the_general_wins_more_meeting_engagements_than_the_random_bot():
    """Both bots write through the same parser, couriers and delays; the general, a seat each way, over the same
    seeds (the whole measure: pbem balance, docs/dba-turn.md)."""
    from pbem.games.dba import bot
    from pbem.games.dba.ruleset import NapoleonicDBA
    from pbem.tools.balance import balance

    class WithGeneral(NapoleonicDBA):
        def bots(self):
            return bot.bots()

    rules = WithGeneral()
    general = random = 0
    for seats in ({"blue": "general", "red": "bot"}, {"blue": "bot", "red": "general"}):
        tally = balance(rules, MEETING, 1, 4, seats)
        assert tally.problems == []
        for side, name in seats.items():
            if name == "general":
                general += tally.winners[side]
            else:
                random += tally.winners[side]
    assert general > random
