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
