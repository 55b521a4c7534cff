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
    # str(): the English of the line (a Text once the engine's lines are translated, issue 17)
    assert str(redact("red-a-1 fires at blue-a-1; red-a-10 stays", "blue", state, sc)) == \
        "an unseen element fires at blue-a-1; red-a-10 stays"
    assert str(redact("blue-a-1 holds", "red", state, sc)) == "an unseen element holds"


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


def test_a_brigade_with_no_temporary_loss_recovers_nothing():
    # effectiveness.x_recover__mutmut_7 (1 recovered when there is nothing to recover) survived
    from pbem.games.dba import effectiveness

    b = small().fresh_table().brigades["blue-a"]
    assert (effectiveness.recover(b), b.bef_temporary) == (0, 0)
    effectiveness.disordered(b)
    assert (effectiveness.recover(b), b.bef_temporary, effectiveness.recover(b)) == (1, 0, 0)


def test_a_delivered_order_says_when_it_comes_into_force():
    # command.xǁBrigadeOrdersǁdeliver__mutmut_32 (the turn in force counted back) survived
    from pbem.games.dba.parse import parse_orders
    from test_dba_orders import stand_in

    (order,) = parse_orders("FROM Wellington TO Bijlandt\nHOLD\n", stand_in(), "allied", 3).dispatches
    orders = BrigadeOrders("bijlandt")
    orders.deliver(order, 4, 2, 3, 1)
    assert orders.history == ["turn 4: order from Wellington (sent turn 3) delivered; delay 2 turns, in force from "
                              "turn 6"]


def test_an_officer_posts_himself_behind_the_middle_element_of_his_troops():
    # officers.x_post__mutmut_5 (the troops' centre miscounted) survived: DT6, the element nearest their centre
    from pbem.games.dba import officers

    sc = small(count=3)
    table = sc.fresh_table()
    row = table.brigade_elements("blue-a")
    for e, x in zip(row, (60, 76, 92)):  # one behind another, west to east
        e.x, e.y = x, 100
    middle = row[1]
    assert officers.post(table, row).equals(middle.edge("rear").interpolate(0.5, normalized=True))


def test_an_officer_a_tenth_of_an_inch_from_his_post_rides_to_it():
    # officers.x_follow__mutmut_22 (1 made 2: an officer up to 0.2" away stays) survived
    from pbem.games.dba import officers

    table = small(count=1).fresh_table()
    c = table.commanders["b1"]
    where = officers.post(table, table.brigade_elements("blue-a"))
    c.x, c.y = round(where.x) + 1, round(where.y)
    assert where.distance(c.point) >= 1
    assert officers.follow(table, c) > 0 and c.point.distance(where) < 1


def test_a_move_is_checked_where_its_path_ends():
    # movement.x_check_move__mutmut_14 (the second point of the path taken for its end) survived: a case's path
    # has two points, the executor's may turn round impassable ground
    from shapely.geometry import LineString

    from pbem.games.dba import movement

    table = small(count=1).fresh_table()
    e = table.elements["blue-a-1"]
    e.x, e.y, e.facing = 150, 194, 0
    path = LineString([e.front, (150, 170), (150, 198), (150, 205)])
    assert str(movement.check_move(table, e, path)) == "blue-a-1 would leave the table"


def test_a_brigade_in_retreat_does_not_fire():
    # executor.xǁExecutorǁfire__mutmut_14 (RETREAT misspelt: a retreating brigade fires) survived
    from pbem.core.chance import Chance
    from pbem.core.decisions import Decider
    from pbem.games.dba.executor import Executor
    from pbem.games.dba.orders import Step

    sc = small(count=1, blue_at=(12, 10), red_at=(16, 10))
    table = sc.fresh_table()
    ex = Executor(table, sc, Decider(), Chance(1, 1, fixed=[6] * 10), lambda text, side=None: None)
    seen = {"red-a-1"}
    assert ex.fire("blue-a", Step("RETREAT", place="goal"), seen) is None
    assert ex.fire("blue-a", Step("HOLD"), seen) is not None


# -- reports up the chain (reports.py, reading DS6) and breaking contact (disorder.py, D17): the survivors of a
# sample of the two modules added after the dba group's run (seed 18, 12 a module)

def _report(**kwargs):
    from pbem.games.dba.reports import Report

    return Report(**{"seq": 3, "sender": "b1", "recipient": "bg", "sent": 4, "x": 0, "y": 0, **kwargs})


def test_a_report_in_the_couriers_list_names_its_recipient_and_how_far_it_rode():
    # reports.xǁReportǁsaid__mutmut_21 (no recipient), _24 (riding read as ended), _34 (tenths read wrong),
    # xǁReportǁtext__mutmut_1 (no text at all)
    names = {"b1": "Pire", "bg": "Ney"}
    riding = _report(ridden=15)
    assert riding.text(names) == 'report 3, Pire to Ney, sent turn 4: on the road (1.5" ridden)'
    assert _report(status="delivered", delivered=6).text(names) == "report 3, Pire to Ney, sent turn 4: delivered on turn 6"
    assert _report(status="lost", delivered=5).text(names) == "report 3, Pire to Ney, sent turn 4: lost on turn 5"
    assert _report(recipient="bx").text(names).startswith("report 3, Pire to bx,")  # a name not known: its id


def test_a_reports_news_reads_its_kept_lines_one_after_another():
    # reports.xǁReportǁnews__mutmut_5 (no separator), _8 (the kept data left unread)
    from pbem.lang import say

    report = _report(lines=[say("%(element)s falls back 3\"", element="red-a-1").to_dict(), "a plain line"])
    assert str(report.news()) == 'red-a-1 falls back 3"; a plain line'
    assert str(_report().news()) == "nothing new"


def test_a_report_whose_recipient_is_gone_or_whose_courier_falls_is_lost_on_that_turn():
    # reports.xǁReportsǁride__mutmut_14 (no turn), _43 (no status) survived: no test lost a report
    from pbem.core.chance import Chance
    from pbem.games.dba.reports import LOST, Reports

    reports = Reports()
    gone = reports.send("b1", "bg", 4, (0, 0), [], [])
    assert reports.ride(5, lambda who: None, 100, 0, Chance(1)) == []
    assert (gone.status, gone.delivered) == (LOST, 5)
    fallen = reports.send("b1", "bg", 5, (0, 0), [], [])
    chance = Chance(1, fixed=[1])  # the roll for the loss: 1, and the post loses a courier on 1-100
    assert reports.ride(6, lambda who: (10, 0), 100, 100, chance) == []
    assert (fallen.status, fallen.delivered) == (LOST, 6) and len(chance.rolls) == 1
    assert reports.check() == []


def test_a_reported_sighting_replaces_one_in_memory_only_when_newer():
    # reports.x_merge__mutmut_5 (a sighting of the same turn replaced the one remembered)
    from pbem.games.dba.reports import merge
    from pbem.games.dba.sight import Sighting

    mine = Sighting("red-a-1", "red-a", "line_infantry", "line", 100, 100, 0, 3)
    theirs = Sighting("red-a-1", "red-a", "line_infantry", "column", 140, 100, 0, 3)
    newer = Sighting("red-a-1", "red-a", "line_infantry", "column", 180, 100, 0, 4)
    assert merge({"red-a-1": mine}, [theirs]) == {"red-a-1": mine}
    assert merge({"red-a-1": mine}, [newer]) == {"red-a-1": newer}


def test_an_element_breaking_contact_steps_clear_of_where_it_stood_along_one_line():
    # disorder.x__spots__mutmut_3 (a side step shorter than the frontage), _21 (the step right also forward)
    from pbem.games.dba.disorder import _spots

    sc = small(count=2)
    e = sc.fresh_table().elements["blue-a-1"]
    ways = {way: (dx, dy) for way, dx, dy in _spots(e)}
    assert list(ways) == ["back", "ahead", "left", "right"]  # the order tried (D17's reading)
    for way, (dx, dy) in ways.items():
        assert (dx == 0) != (dy == 0), way  # straight back, ahead or to a side
        reach = e.frontage if dx else e.depth  # a step clear of its own footprint, no more than a gap beyond
        assert reach < abs(dx or dy) <= reach + 3, way
    assert ways["left"] == (-ways["right"][0], 0) and ways["back"] == (0, -ways["ahead"][1])


def test_a_path_along_a_stream_is_off_the_road_unless_the_whole_stretch_is_on_it():
    # terrain.crosses_stream (reading D5): a path crossing a stream at a point is on the bridge when the point is
    # within the road's half-width; a path running along the stream for a stretch only when all of it is (it
    # once took the stretch's centre: 2" of stream bed either side of a bridge went as good going)
    from shapely.geometry import LineString

    from pbem.games.dba.terrain import ROAD_WIDTH, Line, Terrain

    road = Line("road", "the road", LineString([(50, -20), (50, 20)]))
    stream = Line("stream", "the brook", LineString([(0, 0), (100, 0)]))
    terrain = Terrain(roads=[road], streams=[stream])
    assert ROAD_WIDTH == 10  # the road's area: 45 to 55 across the brook
    assert terrain.crosses_stream(LineString([(30, 0), (70, 0)]))  # along the bed, the bridge in the middle
    assert terrain.crosses_stream(LineString([(40, 0), (54, 0)]))
    assert not terrain.crosses_stream(LineString([(46, 0), (54, 0)]))  # along the bridge only
    assert not terrain.crosses_stream(LineString([(50, -10), (50, 10)]))  # over the bridge
    assert not terrain.crosses_stream(LineString([(45.2, -10), (45.2, 10)]))  # inside its edge
    assert terrain.crosses_stream(LineString([(44.7, -10), (44.7, 10)]))  # 0.3 beyond: off the road (a stretch
    # along the stream may stray that far off, as path_on_road allows, a crossing point not)
    assert terrain.crosses_stream(LineString([(30, -10), (30, 10)]))
    assert not terrain.crosses_stream(LineString([(30, 5), (70, 5)]))  # beside the brook, never on it
    assert not Terrain(streams=[stream]).crosses_stream(LineString([(30, 5), (70, 5)]))
    assert Terrain(streams=[stream]).crosses_stream(LineString([(50, -10), (50, 10)]))  # no road at all
    assert terrain.path_difficult(LineString([(30, 0), (70, 0)]))
