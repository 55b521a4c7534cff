"""Survivors of scripts/mutation's dba sample killed where a case cannot reach (docs/testing.md, "Mutation
testing"): the seat's view (sight.py), the turn's own steps (turn.py) and the executor's decisions, read exactly.
The rules a case can pin down have cases (tests/cases/dba/)."""

from __future__ import annotations

from pbem.core.game import Game
from pbem.games.dba import sight
from pbem.games.dba.command import BrigadeOrders
from pbem.games.dba.ruleset import DBA_RULESET as RULES
from pbem.games.dba.turn import redact
from test_dba_turn import play, small, texts


def test_a_seat_of_one_brigade_sees_its_own_elements_and_commander_only():
    # sight.x_seat_view__mutmut_19 (every element of the side) and _28 (every commander of the side, when the
    # seat names brigades but no commander) survived: no test of the rules' groups asked for one seat's view
    sc = small(count=2)
    table = sc.fresh_table()
    view, _ = sight.seat_view(table, "blue", 24, {}, 1, brigades={"blue-a"})
    assert [e["id"] for e in view["elements"]] == ["blue-a-1", "blue-a-2"]
    assert [c["id"] for c in view["commanders"]] == ["b1"]  # his brigade's commander, not the general
    view, _ = sight.seat_view(table, "blue", 24, {}, 1, brigades=set())
    assert (view["elements"], view["commanders"], view["brigades"]) == ([], [], [])
    view, _ = sight.seat_view(table, "blue", 24, {}, 1)  # the whole side
    assert [c["id"] for c in view["commanders"]] == ["bg", "b1"]


def test_an_enemy_seen_before_is_shown_where_it_was_with_its_turn():
    # sight.x_sighting_dict__mutmut_20 ("id" misspelt), _36 ("turn" misspelt), _39 (now for earlier) survived
    sc = small(count=1)
    table = sc.fresh_table()
    view, memory = sight.seat_view(table, "blue", 400, {}, 1)
    assert [(s["id"], s["turn"], s["now"]) for s in view["enemy"]] == [("red-a-1", 1, True)]
    assert set(view["enemy"][0]) == {"id", "troop", "formation", "corners", "front", "turn", "now"}
    table.elements["red-a-1"].x = 2000  # gone from the table's sight: remembered where it was
    view, _ = sight.seat_view(table, "blue", 400, memory, 2)
    assert [(s["id"], s["turn"], s["now"]) for s in view["enemy"]] == [("red-a-1", 1, False)]


def test_an_enemy_not_seen_is_written_as_an_unseen_element():
    # turn.x_redact__mutmut_24 (the replacement dropped) survived
    sc = small(count=1)
    state = RULES.setup(sc, {}, None)
    state.memory["blue"] = {}
    assert redact("red-a-1 fires at blue-a-1; red-a-10 stays", "blue", state, sc) == \
        "an unseen element fires at blue-a-1; red-a-10 stays"
    assert redact("blue-a-1 holds", "red", state, sc) == "an unseen element holds"


def test_the_executors_path_decision_offers_go_or_stay():
    # executor.xǁExecutorǁmove_element__mutmut_199 (the options misspelt: "go" stood first as the default only)
    sc = small(blue_at=(7, 10), red_at=(28, 3), count=1, spotting=4)
    game = play(Game(RULES, sc, 5), {"blue": "FROM Azur TO Bleu\nMOVE TO goal\n"}, 6)
    paths = [r for d in game.days for r in d.decisions if r.decision.kind == "path"]
    assert paths and all(r.decision.options == ("go", "stay") and r.answer == ("go",) for r in paths)


def test_a_shaken_element_in_line_out_of_field_works_stays_where_it_is():
    # turn.x_leave_shaken__mutmut_13 (in field works and out of them swapped) survived: DT13, only a square
    # or an element in field works must leave its position after a turn shaken
    sc = small(count=2, red_at=(28, 18), spotting=4)
    game = Game(RULES, sc, 1)
    e = game.state.elements["blue-a-1"]
    e.shaken = True
    at = (e.x, e.y, e.formation)
    play(game, {}, 1)
    after = game.state.elements["blue-a-1"]
    assert (after.x, after.y, after.formation, after.shaken) == (*at, False)
    assert not any("leaves its position" in t for t in texts(game, "blue"))


def test_a_shaken_element_in_field_works_falls_back_out_of_them():
    works = {"kind": "fieldworks", "name": "redoubt", "points": [[4, 8], [8, 8], [8, 12], [4, 12]]}
    sc = small(features=[works], count=1, red_at=(28, 18), spotting=4)
    game = Game(RULES, sc, 1)
    e = game.state.elements["blue-a-1"]
    e.shaken = True
    play(game, {}, 1)
    assert "blue-a-1 leaves its position: falls back 3\"" in texts(game, "blue")
    assert not game.state.elements["blue-a-1"].shaken


def test_a_brigades_orders_with_an_initiative_in_force_survive_saving():
    # command.xǁBrigadeOrdersǁfrom_dict__mutmut_27 (the initiative read under another key) survived: the
    # state of command is saved between turns (to_dict, from_dict) with the initiative order it holds
    from pbem.games.dba.parse import parse_orders
    from test_dba_orders import stand_in

    (own,) = parse_orders("INITIATIVE Bijlandt\nHOLD\n", stand_in(), "allied", 3).initiatives
    orders = BrigadeOrders("bijlandt")
    orders.take_initiative(own, 3)
    again = BrigadeOrders.from_dict(orders.to_dict())
    assert again == orders and again.initiative.order == own and again.initiative.began == 3


def test_each_melee_die_is_recorded_with_who_fights_whom():
    # melee.x_fight__mutmut_28 (the defender's die recorded with no purpose) survived: every die is in the log
    # with what it was rolled for
    from pathlib import Path

    from pbem.games.dba.cases import run_case

    outcome = run_case(Path(__file__).parent / "cases" / "dba" / "melee-better-quality.toml")
    assert outcome.ok
    assert [r.purpose for r in outcome.rolls] == ["melee, red-1-2 against blue-1-2", "melee, blue-1-2 against red-1-2"]


def test_a_brigadiers_initiative_order_is_tested_on_the_turn_it_is_written():
    # turn.x_resolve__mutmut_122 (every initiative order refused as from "no such commander") survived: no test
    # played an initiative order through a turn
    for seed in (1, 2, 3):
        game = play(Game(RULES, small(), seed), {"blue": "INITIATIVE Bleu\nHOLD\n"}, 1)
        said = texts(game, "blue")
        tested = [t for t in said if t.startswith("Bleu tests his initiative: ")]
        assert tested in (["Bleu tests his initiative: passed, his order is in force"],
                          ["Bleu tests his initiative: failed"]), said
        assert not any("no initiative test" in t for t in said)
