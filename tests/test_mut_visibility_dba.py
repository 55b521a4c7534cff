"""What each seat of Napoleonic DBA sees and reads, asserted exactly (the visibility group of scripts/mutation).

One hand-built position of the meeting engagement on turn 3, played both ways: one seat a side, and kriegsspiel
(a seat per commander, pbem/games/dba/seats.py). Blue's 1st brigade sees the Red skirmishers ahead of it (red-1-1);
General Azur, ridden forward alone, sees a Red battery (red-2-4) that no brigade of his sees; the 2nd Blue brigade,
sent south, sees nothing. Couriers ride and are delivered, reports climb to the general, a brigade's order is in
force with more waiting, and each side remembers enemies it saw before. Each seat's view is asserted whole.
"""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from pbem.games import ruleset
from pbem.games.dba.command import Pending, Track
from pbem.games.dba.reports import DELIVERED, LOST, Report
from pbem.games.dba.sight import Sighting
from pbem.games.dba.state import initial_state

view = importlib.import_module("pbem.games.dba.view")
seats = importlib.import_module("pbem.games.dba.seats")
RULES = ruleset("dba")
MEETING = RULES.load_scenario(RULES.scenarios()["dba-meeting"])
PLACES = ["Blue edge", "Mill Village", "North Wood", "Red edge", "South Copse", "Windmill Hill", "the bridge",
          "the broken ground", "the high road", "the mill pond", "the mill stream", "the north lane"]
TO_COBALT = "FROM General Azur TO Colonel Cobalt\nMOVE TO Mill Village"
TO_BLEU = "FROM General Azur TO Colonel Bleu\nHOLD"
TO_ROUGE = "FROM General Carmin TO Colonel Rouge\nATTACK NEAREST ENEMY"


def order(seat, text):
    """A dispatch as its writer's seat in the kriegsspiel game reads it."""
    state = initial_state(MEETING, {"command": seats.KRIEGSSPIEL})
    return RULES.check_orders(MEETING, state, seat, text + "\n").dispatches[0]


def position(mode="kriegsspiel"):
    state = initial_state(MEETING, {"command": mode})
    elements, commanders = state.elements, state.commanders
    for n, eid in enumerate(["blue-2-1", "blue-2-2", "blue-2-3", "blue-2-4"]):  # the 2nd brigade sent south
        elements[eid].x, elements[eid].y = 60, 70 - 16 * n
    commanders["blue-2"].x, commanders["blue-2"].y = 50, 40
    commanders["blue-general"].x, commanders["blue-general"].y = 240, 40  # the general rides forward alone
    elements["red-1-1"].x, elements["red-1-1"].y = 260, 320  # Red's skirmishers, before the 1st Blue brigade
    elements["red-2-4"].x, elements["red-2-4"].y = 400, 40  # a Red battery, seen by the general alone
    elements["blue-1-1"].x, elements["blue-1-1"].y = 61, 305  # the 1st brigade's centre: (60.25, 280.25)
    elements["blue-3-4"].fleeing = True  # a fleeing element is no brigade's centre
    state.turn, state.a = 3, "red"
    # what each side and each commander remembers (the skirmishers, seen now too, are shown as seen now)
    old = {"red-3-1": Sighting("red-3-1", "red-3", "cuirassiers", "line", 300, 400, 270, 2),
           "red-1-1": Sighting("red-1-1", "red-1", "light_infantry", "skirmish", 300, 330, 270, 2),
           "red-1-2": Sighting("red-1-2", "red-1", "infantry", "line", 420, 272, 270, 1)}
    state.memory = {"blue": dict(old), "red": {}, "blue-1": dict(old),
                    "blue-general": {"red-1-2": old["red-1-2"]}}
    # the post: two dispatches from the general (one delivered, one riding), one of Red's, delivered
    cobalt, bleu = order("blue-general", TO_COBALT), order("blue-general", TO_BLEU)
    rouge = order("red-general", TO_ROUGE)
    state.post.send(cobalt, 1, (20, 240))
    state.post.deliver(state.post.couriers[0], 2)
    state.post.send(bleu, 2, (240, 40))
    state.post.couriers[1].ridden = 35
    state.post.send(rouge, 2, (460, 240))
    state.post.deliver(state.post.couriers[2], 3)
    # the reports up the chain: the 1st brigade's, delivered; the 2nd's, riding; the cavalry's, lost
    state.reports.send("blue-1", "blue-general", 1, (50, 280), [old["red-1-1"]], ["all quiet"])
    state.reports.send("blue-2", "blue-general", 2, (50, 40), [], [])
    state.reports.send("blue-3", "blue-general", 2, (50, 90), [], [])
    state.reports.reports[0].status, state.reports.reports[0].delivered = DELIVERED, 2
    state.reports.reports[2].status, state.reports.reports[2].delivered = LOST, 3
    # the 2nd brigade's order in force at its second step, two more waiting; six lines of history
    orders = state.commands["blue-2"]
    orders.current = Track(cobalt, 1, 1, index=1, began=2)
    orders.pending = [Pending(cobalt, 2, 2, 2, 4), Pending(cobalt, 3, 1, 2, 5)]
    orders.history = [f"line {n}" for n in range(6)]
    state.brigades["blue-2"].bef_permanent, state.brigades["blue-2"].bef_temporary = 2, 1
    if mode == "kriegsspiel":
        seats.know_troops(MEETING, state, 2)  # each seat looks at its own troops at the end of turn 2 (DS7)
    return state


def elements(state, *ids) -> list[dict]:
    """Elements as a view shows them (its own, or an enemy it sees now)."""
    return [{"id": e.id, "brigade": e.brigade, "side": e.side, "troop": e.troop, "formation": e.formation, "x": e.x,
             "y": e.y, "facing": e.facing, "disorganised": e.disorganised, "shaken": e.shaken, "fleeing": e.fleeing}
            for e in (state.elements[i] for i in ids)]


def side_elements(state, side) -> list[dict]:
    return elements(state, *sorted(i for i, e in state.elements.items() if e.side == side))


def fog(state, side, seen, key="id") -> list[dict]:
    """Enemy elements as a kriegsspiel seat of ``side`` reads them (DS8): by the id its army drew for each (the
    state's record), no brigade, in the order of those ids."""
    out = [e | {key: state.enemy_ids[side][e[key]], "brigade": ""} for e in seen]
    return sorted(out, key=lambda e: int(e[key].split("-")[1]))


def commanders(state, *ids) -> list[dict]:
    return [{"id": c.id, "name": c.name, "side": c.side, "level": c.level, "character": c.character,
             "brigade": c.brigade, "superior": c.superior, "alive": c.alive, "x": c.x, "y": c.y,
             "initiative_used": c.initiative_used, "present": c.present} for c in (state.commanders[i] for i in ids)]


def sighting(eid, brigade, troop, formation, x, y, turn) -> dict:
    return {"element": eid, "brigade": brigade, "troop": troop, "formation": formation, "x": x, "y": y,
            "facing": 270, "turn": turn}


def brigade(bid, name, side, at, elements, bef=9, rating="fresh", order="", step=None, waiting=0, history=()):
    return {"id": bid, "name": name, "side": side, "commander": bid, "bef": bef, "bef_start": 9, "rating": rating,
            "elements": [f"{bid}-{n}" for n in range(1, elements + 1)], "order": order, "step": step,
            "waiting": waiting, "history": list(history), "at": at}


BLUE_1 = brigade("blue-1", "1st Blue brigade", "blue", [60, 280], 4)  # (60.25, 280.25), rounded
BLUE_2 = brigade("blue-2", "2nd Blue brigade", "blue", [60, 46], 4, bef=6, rating="tired", order=TO_COBALT, step=1,
                 waiting=2, history=["line 2", "line 3", "line 4", "line 5"])
BLUE_3 = brigade("blue-3", "Blue cavalry brigade", "blue", [60, 128], 4)  # its fleeing element is left out
RED = [brigade("red-1", "1st Red brigade", "red", [380, 296], 4),
       brigade("red-2", "2nd Red brigade", "red", [415, 154], 4),
       brigade("red-3", "Red cavalry brigade", "red", [420, 360], 4)]
RED_3_1 = sighting("red-3-1", "red-3", "cuirassiers", "line", 300, 400, 2)
RED_1_2 = sighting("red-1-2", "red-1", "infantry", "line", 420, 272, 1)
SEATS = ["blue-general", "blue-1", "blue-2", "blue-3", "red-general", "red-1", "red-2", "red-3"]
KRIEG_OWING = ["blue-general", "red-general"]  # the turn waits for those with commanders under them (DS4)
DISPATCH_1 = "dispatch 1, General Azur to Colonel Cobalt, sent turn 1: delivered on turn 2"
DISPATCH_2 = "dispatch 2, General Azur to Colonel Bleu, sent turn 2: on the road (3.5\" ridden)"
DISPATCH_3 = "dispatch 3, General Carmin to Colonel Rouge, sent turn 2: delivered on turn 3"
REPORT_1 = "report 1, Colonel Bleu to General Azur, sent turn 1: delivered on turn 2"
REPORT_2 = "report 2, Colonel Cobalt to General Azur, sent turn 2: on the road (0\" ridden)"
REPORT_3 = "report 3, Colonel Indigo to General Azur, sent turn 2: lost on turn 3"


def facts(seat, side, commander, owing, **rest) -> dict:
    return {"seat": seat, "side": side, "turn": 3, "turn_label": "turn 3 (11:00)", "commander": commander,
            "owing": owing, "over": False, "winner": None, "victory": "", "a": "red", "places": PLACES,
            "table": [480, 480], **rest}


def test_dba_a_brigades_seat_sees_its_troops_what_they_see_and_its_own_post():
    state = position()
    assert view.view(MEETING, state, "blue-1") == facts(
        "blue-1", "blue", "blue-1", KRIEG_OWING, dispatches=[],
        elements=elements(state, "blue-1-1", "blue-1-2", "blue-1-3", "blue-1-4"),
        enemy=fog(state, "blue", elements(state, "red-1-1")),  # seen now: where it is, not where it was seen
        last_known=fog(state, "blue", [RED_1_2, RED_3_1], "element"), brigades=[BLUE_1], commanders=commanders(state, "blue-1"),
        couriers=[REPORT_1])  # not the dispatch riding to him: nobody knows of a courier on the road to him


def test_dba_a_brigades_seat_reads_the_dispatches_delivered_to_it_and_its_own_reports():
    state = position()
    assert view.view(MEETING, state, "blue-2") == facts(
        "blue-2", "blue", "blue-2", KRIEG_OWING, dispatches=[TO_COBALT],
        elements=elements(state, "blue-2-1", "blue-2-2", "blue-2-3", "blue-2-4"), enemy=[], last_known=[],
        brigades=[BLUE_2], commanders=commanders(state, "blue-2"), couriers=[DISPATCH_1, REPORT_2])
    cavalry = view.view(MEETING, state, "blue-3")
    assert (cavalry["couriers"], cavalry["dispatches"], cavalry["brigades"]) == ([REPORT_3], [], [BLUE_3])
    red = view.view(MEETING, state, "red-1")
    assert (red["dispatches"], red["couriers"]) == ([TO_ROUGE], [DISPATCH_3])
    assert red["enemy"] == fog(state, "red", elements(state, "blue-1-1", "blue-1-2", "blue-1-3", "blue-1-4"))


def deployed(eid) -> dict:
    """An element as its general knows it from the deployment (turn 0), no report having placed it since (DS7)."""
    e = MEETING.table.elements[eid]
    return {"id": eid, "brigade": e.brigade, "side": "blue", "troop": e.troop, "formation": e.formation, "x": e.x,
            "y": e.y, "facing": e.facing, "disorganised": False, "shaken": False, "fleeing": False, "reported": 0}


def known_brigade(b: dict, order: str, at, turn: int) -> dict:
    """A brigade under the general that he does not lead, as he knows it (DS7): the order he last wrote to it."""
    return {**b, "order": order, "step": 0 if order else None, "waiting": 0, "history": [], "at": at,
            "reported": turn}


def test_dba_the_general_sees_his_division_but_only_what_his_own_eyes_see():
    state = position()
    # General Azur at (24, 4) sees, within 24", the 2nd brigade (about 18" off) and the cavalry (about 20"); the
    # 1st brigade, 30" off, he knows only where it deployed: no report has placed it (Bleu's carried no troops)
    mine = commanders(state, "blue-1", "blue-2", "blue-3", "blue-general")
    for c, at in zip(mine, [(50, 280), (50, 200), (50, 90)]):  # Bleu's report left (5, 28); the others' none came
        c["x"], c["y"] = at
    first = [deployed(f"blue-1-{n}") for n in range(1, 5)]
    assert view.view(MEETING, state, "blue-general") == facts(
        "blue-general", "blue", "blue-general", KRIEG_OWING, dispatches=[],
        elements=elements(state, *[f"blue-{b}-{n}" for b in (2, 3) for n in range(1, 5)]) + first,
        enemy=fog(state, "blue", elements(state, "red-2-4")), last_known=fog(state, "blue", [RED_1_2], "element"),
        brigades=[known_brigade(BLUE_1, TO_BLEU, [60, 280], 0), known_brigade(BLUE_2, TO_COBALT, [60, 46], 2),
                  known_brigade({**BLUE_3}, "", [60, 120], 2)],
        commanders=mine, couriers=[DISPATCH_1, DISPATCH_2, REPORT_1])  # the reports riding or lost are not his yet


def test_dba_one_seat_a_side_sees_all_its_troops_see_and_its_sides_post():
    state = position("commanders")
    assert view.view(MEETING, state, "blue") == facts(
        "blue", "blue", None, ["blue", "red"], dispatches=[], elements=side_elements(state, "blue"),
        enemy=elements(state, "red-1-1", "red-2-4"), last_known=[RED_1_2, RED_3_1], brigades=[BLUE_1, BLUE_2, BLUE_3],
        commanders=commanders(state, "blue-1", "blue-2", "blue-3", "blue-general"), couriers=[DISPATCH_1, DISPATCH_2])
    assert view.view(MEETING, state, "red") == facts(
        "red", "red", None, ["blue", "red"], dispatches=[], elements=side_elements(state, "red"),
        enemy=elements(state, "blue-1-1", "blue-1-2", "blue-1-3", "blue-1-4"), last_known=[], brigades=RED,
        commanders=commanders(state, "red-1", "red-2", "red-3", "red-general"), couriers=[DISPATCH_3])


def test_dba_the_moderator_sees_everything_and_reads_every_courier_and_report():
    everything = {"dispatches": [], "enemy": [], "last_known": [], "brigades": [BLUE_1, BLUE_2, BLUE_3, *RED],
                  "couriers": [DISPATCH_1, DISPATCH_2, DISPATCH_3, REPORT_1, REPORT_2, REPORT_3]}
    for mode, owing in (("kriegsspiel", KRIEG_OWING), ("commanders", ["blue", "red"])):
        state = position(mode)
        assert view.view(MEETING, state, None) == facts(
            None, None, None, owing, elements=side_elements(state, "blue") + side_elements(state, "red"),
            commanders=commanders(state, *sorted(state.commanders)), **everything), mode


def test_dba_when_the_game_is_over_nobody_owes_orders():
    state = position()
    state.over, state.winner, state.victory = True, "blue", "breaks"
    seen = view.view(MEETING, state, "blue-1")
    assert (seen["owing"], seen["over"], seen["winner"], seen["victory"]) == ([], True, "blue", "breaks")
    state = position("commanders")
    state.over = True
    assert view.view(MEETING, state, "red")["owing"] == []
    assert RULES.view(MEETING, state, "*spectator*") == view.view(MEETING, state, None)  # a finished game: all


def test_dba_a_spectator_sees_the_turn_and_the_outcome_and_no_troops():
    state = position()
    assert view.public(MEETING, state) == {
        "seat": "*spectator*", "side": None, "turn": 3, "turn_label": "turn 3 (11:00)", "owing": [], "over": False,
        "winner": None, "victory": "", "a": "red", "elements": [], "enemy": [], "last_known": [], "brigades": [],
        "commanders": [], "couriers": [], "commander": None, "dispatches": [], "places": PLACES, "table": [480, 480]}
    assert RULES.view(MEETING, state, "*spectator*") == view.public(MEETING, state)


def test_dba_the_turns_name_and_the_end_of_the_game():
    assert view.turn_label(MEETING, 1) == "turn 1 (10:00)"
    assert view.turn_label(MEETING, 12) == "turn 12 (15:30)"  # the last turn of twelve
    assert view.turn_label(MEETING, 13) == "the end of the game"
    said = view.turn_said(MEETING, 4)
    assert (said.message, said.values) == ("turn %(turn)s (%(clock)s)", {"turn": 4, "clock": "11:30"})
    assert view.turn_said(MEETING, 13).message == "the end of the game"


# -- seats.py: who a kriegsspiel seat is, what he commands, what his eyes are --------------------------------

from types import SimpleNamespace  # noqa: E402

from pbem.core.chance import Chance  # noqa: E402
from pbem.core.events import Event  # noqa: E402
from pbem.games.dba.orders import Orders  # noqa: E402
from pbem.lang import Text, say_plural  # noqa: E402


def test_dba_the_way_of_playing_is_read_from_the_options_or_the_state():
    assert seats.kriegsspiel({"command": "kriegsspiel"}) is True
    assert seats.kriegsspiel({"command": "commanders"}) is False
    assert seats.kriegsspiel({}) is False
    assert seats.kriegsspiel(position()) is True and seats.kriegsspiel(position("commanders")) is False


def test_dba_the_seats_are_the_commanders_side_by_side_the_highest_first():
    assert [c.id for c in seats.commanders_of(MEETING)] == SEATS

    def officer(cid, side, level):
        return SimpleNamespace(id=cid, side=side, level=level)

    staff = [officer("b-brig", "red", "brigade"), officer("c-corps", "red", "corps"), officer("d-army", "red", "army"),
             officer("e-div", "blue", "division"), officer("f-brig", "blue", "brigade"),
             officer("h-div", "red", "division"), officer("a-brig", "blue", "brigade")]
    scenario = SimpleNamespace(sides={"blue": "Blue", "red": "Red"},
                               table=SimpleNamespace(commanders={o.id: o for o in staff}))
    assert [c.id for c in seats.commanders_of(scenario)] == [
        "e-div", "a-brig", "f-brig", "d-army", "c-corps", "h-div", "b-brig"]


def test_dba_a_seats_title_names_the_commander_his_command_and_his_army():
    table = MEETING.table.commanders
    assert seats.seat_title(MEETING, table["blue-1"]) == "Colonel Bleu (1st Blue brigade, Blue division)"
    assert seats.seat_title(MEETING, table["red-general"]) == "General Carmin (division commander, Red division)"
    assert seats.seat_said(MEETING, table["red-3"]) == Text(
        "%(commander)s (%(command)s, %(army)s)",
        {"commander": Text("Colonel Grenat"), "command": Text("Red cavalry brigade"), "army": Text("Red division")})
    assert seats.seat_said(MEETING, table["blue-general"]).values["command"] == Text(
        "%(level)s commander", {"level": Text("division")})


def test_dba_a_commander_commands_every_commander_under_him_however_deep():
    def officer(cid, superior):
        return SimpleNamespace(id=cid, superior=superior)

    # listed lowest first: the chain is found whatever the order
    chain = {o.id: o for o in (officer("brig", "div"), officer("div", "corps"), officer("corps", None),
                               officer("other", None), officer("stray", "other"))}
    assert seats.under(chain, "corps") == {"corps", "div", "brig"}
    assert seats.under(chain, "div") == {"div", "brig"}
    assert seats.under(chain, "brig") == {"brig"}
    state = position()
    assert seats.command(state, "blue-general") == ({"blue-1", "blue-2", "blue-3"},
                                                    {"blue-general", "blue-1", "blue-2", "blue-3"})
    assert seats.command(state, "red-2") == ({"red-2"}, {"red-2"})
    assert seats.eyes(state, "blue-general") == (set(), {"blue-general"})
    assert seats.eyes(state, "red-2") == ({"red-2"}, {"red-2"})
    assert (seats.side_of(MEETING, "red"), seats.side_of(MEETING, "blue-3")) == ("red", "blue")


def test_dba_every_living_commander_on_the_table_writes_and_nobody_once_the_game_is_over():
    state = position()
    state.commanders["blue-3"].alive = False
    state.commanders["red-2"].present = False  # still to arrive
    assert seats.writing(MEETING, state) == ("blue-general", "blue-1", "blue-2", "red-general", "red-1", "red-3")
    # the turn waits for the generals only: the colonels have no one under them to write to (issue 30, DS4)
    assert seats.owing(MEETING, state) == ("blue-general", "red-general")
    assert seats.not_owing(MEETING, state) == ("blue-1", "blue-2", "red-1", "red-3")
    state.commanders["blue-1"].alive = state.commanders["blue-2"].alive = False
    assert seats.owing(MEETING, state) == ("red-general",)  # Azur has no one left under him
    state.over = True
    assert seats.owing(MEETING, state) == () and seats.writing(MEETING, state) == ()


def test_dba_the_seats_orders_are_gathered_by_side_in_seat_order():
    got = seats.merged(MEETING, {
        "blue-2": Orders(dispatches=["cobalt's"], initiatives=["cobalt's own"]),
        "blue-1": Orders(),
        "red-1": Orders(initiatives=["rouge's own"]),
        "blue-general": Orders(dispatches=["azur's 1", "azur's 2"], initiatives=["azur's own"]),
        "blue": Orders(dispatches=["the side's"]), "red": Orders(dispatches=["red's"])})  # no commander: first
    assert sorted(got) == ["blue", "red"]
    assert got["blue"].dispatches == ["the side's", "azur's 1", "azur's 2", "cobalt's"]
    assert got["blue"].initiatives == ["azur's own", "cobalt's own"]
    assert (got["red"].dispatches, got["red"].initiatives) == (["red's"], ["rouge's own"])


def test_dba_each_commander_looks_with_his_own_eyes_after_reading_the_reports_brought_to_him():
    state = position()
    state.memory = {"blue": {}, "red": {}, "blue-general": {"red-1-2": SIGHTINGS["red-1-2"],
                                                            "red-2-2": SIGHTINGS["red-2-2"]}}
    report = state.reports.reports[0]
    report.sightings = [SIGHTINGS["red-3-1"], SIGHTINGS["red-1-2-new"]]
    scouts = Report(4, "red-1", "red-general", 1, 430, 280, [SIGHTINGS["blue-3-1"]])  # to one who remembers nothing
    seats.look(MEETING, state, [report, scouts], 2)
    now = {eid: e for eid, e in state.elements.items()}

    def seen(eid, turn):
        e = now[eid]
        return {eid: (e.brigade, e.troop, e.formation, e.x, e.y, e.facing, turn)}

    def memory(seat):
        return {k: (s.brigade, s.troop, s.formation, s.x, s.y, s.facing, s.turn) for k, s in state.memory[seat].items()}

    assert memory("blue-general") == {**seen("red-2-4", 2),
                                      "red-3-1": ("red-3", "cuirassiers", "line", 300, 400, 270, 2),
                                      "red-1-2": ("red-1", "infantry", "line", 410, 272, 270, 2),
                                      "red-2-2": ("red-2", "infantry", "line", 420, 192, 270, 1)}  # kept
    assert memory("blue-1") == seen("red-1-1", 2)
    assert memory("blue-2") == {} and memory("blue-3") == {}
    assert memory("red-general") == {"blue-3-1": ("blue-3", "light_cavalry", "line", 60, 144, 90, 1)}
    assert memory("red-1") == {**seen("blue-1-1", 2), **seen("blue-1-2", 2), **seen("blue-1-3", 2),
                               **seen("blue-1-4", 2)}
    assert (memory("blue"), memory("red")) == ({}, {})  # the sides' own memories are the turn's, not the seats'
    seats.look(MEETING, state)  # the turn looked on is the state's by default
    assert memory("blue-1") == seen("red-1-1", 3)


SIGHTINGS = {"red-1-2": Sighting("red-1-2", "red-1", "infantry", "line", 420, 272, 270, 1),
             "red-3-1": Sighting("red-3-1", "red-3", "cuirassiers", "line", 300, 400, 270, 2),
             "red-1-2-new": Sighting("red-1-2", "red-1", "infantry", "line", 410, 272, 270, 2),
             "red-2-2": Sighting("red-2-2", "red-2", "infantry", "line", 420, 192, 270, 1),
             "blue-3-1": Sighting("blue-3-1", "blue-3", "light_cavalry", "line", 60, 144, 90, 1)}


def test_dba_a_report_rides_to_its_recipient_where_he_is_and_is_told_to_him_alone():
    state = position()
    state.turn = 4
    state.post.speed = 100
    state.commanders["blue-general"].x, state.commanders["blue-general"].y = 50, 140  # 10" from blue-2 at (50, 40)
    riding = state.reports.reports[1]
    assert seats.ride_reports(MEETING, state, Chance(1)) == [riding]
    assert (riding.status, riding.delivered, riding.ridden, riding.x, riding.y) == (DELIVERED, 4, 100, 50, 140)
    riding.sightings = [SIGHTINGS["red-3-1"]]
    riding.lines = ["all quiet", Text("the %(who)s holds", {"who": "Guard"}).to_dict()]
    told = seats.report_events(MEETING, state, [riding, state.reports.reports[0]])
    assert [(e.kind, e.data, e.owner) for e in told] == [("report", {"report": 2}, ("blue-general",)),
                                                         ("report", {"report": 1}, ("blue-general",))]
    assert told[0].said == say_plural(
        "report %(seq)s from %(sender)s, sent turn %(turn)s (%(num)d enemy element known): %(news)s",
        "report %(seq)s from %(sender)s, sent turn %(turn)s (%(num)d enemy elements known): %(news)s", 1,
        seq=2, sender=Text("Colonel Cobalt"), turn=2, news=riding.news())
    assert told[0].text == ("report 2 from Colonel Cobalt, sent turn 2 (1 enemy element known): all quiet; "
                            "the Guard holds")
    assert told[1].text == "report 1 from Colonel Bleu, sent turn 1 (1 enemy element known): all quiet"


def test_dba_a_report_for_a_commander_gone_is_lost_and_where_a_commander_is():
    state = position()
    state.turn = 4
    state.commanders["blue-general"].alive = False
    assert seats.ride_reports(MEETING, state, Chance(1)) == []
    assert state.reports.reports[1].status == LOST
    where = seats._where(state)
    assert (where("blue-1"), where("blue-general"), where("nobody")) == ((50, 280), None, None)
    state.commanders["blue-1"].present = False
    assert where("blue-1") is None


def test_dba_each_commander_reports_to_his_superior_what_he_knows_and_the_lines_he_read():
    state = position()
    state.reports.reports.clear()
    state.commanders["red-3"].alive = False
    state.commanders["blue-general"].present = False  # not yet on the table: nobody reports to him
    state.memory["red-1"] = {"blue-1-1": Sighting("blue-1-1", "blue-1", "light_infantry", "skirmish", 61, 305, 90, 3)}
    told = [Event("fire", "Rouge fires", owner=("red-1",), said=Text("%(who)s fires", {"who": "Rouge"})),
            Event("move", "red-1 and red-2 march", owner=("red-1", "red-2")),
            Event("roll", "a die: 4", owner=("red-1",)),
            Event("weather", "rain"),
            Event("move", "the general rides", owner=("red-general",))]
    seats.send_reports(MEETING, state, told, 3)
    sent = [(r.seq, r.sender, r.recipient, r.sent, (r.x, r.y), [s.element for s in r.sightings], r.lines)
            for r in state.reports.reports]
    assert sent == [(1, "red-1", "red-general", 3, (430, 280), ["blue-1-1"],
                     [{"message": "%(who)s fires", "values": {"who": "Rouge"}}, "red-1 and red-2 march"]),
                    (2, "red-2", "red-general", 3, (430, 200), [], ["red-1 and red-2 march"])]


# -- what a kriegsspiel seat reads of the turn: the lines naming its own troops, the unseen enemy unnamed ------

from pbem.games.dba import turn as dba_turn  # noqa: E402
from pbem.games.dba.fire import Shot, Volley  # noqa: E402

MOD, COPY = seats.MODERATOR, seats.COPY


def test_dba_the_names_of_a_seats_troops():
    state = position()
    assert seats.tokens(state, "blue-1") == {"blue-1", "1st Blue brigade", "Colonel Bleu", "blue-1-1",
                                                      "blue-1-2", "blue-1-3", "blue-1-4"}
    assert seats.tokens(state, "blue-general", own=True) == {"blue-general", "General Azur"}
    every = seats.tokens(state, "blue-general")
    assert every == {"blue-general", "General Azur", "blue-1", "blue-2", "blue-3", "1st Blue brigade",
                     "2nd Blue brigade", "Blue cavalry brigade", "Colonel Bleu", "Colonel Cobalt", "Colonel Indigo",
                     *(f"blue-{b}-{n}" for b in (1, 2, 3) for n in (1, 2, 3, 4))}
    assert seats._words("blue-1-2 fires; Colonel Bleu's men") == {"blue-1-2", "fires", "Colonel", "Bleu", "s", "men"}
    names = {"blue-1", "Colonel Bleu"}
    assert seats._mentions("blue-1 holds", names) and seats._mentions("so says Colonel Bleu.", names)
    assert not seats._mentions("blue-1-2 holds", names)  # another id that begins with it
    assert not seats._mentions("blue-10 holds", names) and not seats._mentions("Colonel Bleuet", {"Bleu"})
    assert not seats._mentions("Colonel  Bleu", names) and not seats._mentions("", names)


def test_dba_a_seat_reads_the_enemy_it_has_not_seen_as_an_unseen_element():
    state = position()
    line = "red-1-1 and red-2-4 charge red-1-12; red-1-1x stays"
    seen = state.enemy_ids["blue"]["red-1-1"]  # DS8: the enemy it has seen by its army's id for it
    assert seen.startswith("E-") and seats.redact(line, MEETING, state, "blue-1") == \
        f"{seen} and an unseen element charge red-1-12; red-1-1x stays"
    assert seats.redact(line, MEETING, state, "blue-general") == \
        "an unseen element and an unseen element charge red-1-12; red-1-1x stays"
    said = Text("%(who)s charges %(whom)s", {"who": "red-2-4", "whom": Text("%(e)s", {"e": "blue-1-1"})})
    assert seats.redact(said, MEETING, state, "blue-1") == Text(
        "%(who)s charges %(whom)s", {"who": Text("an unseen element"), "whom": Text("%(e)s", {"e": "blue-1-1"})})
    assert seats.redact(said, MEETING, state, "red-2") == Text(
        "%(who)s charges %(whom)s", {"who": "red-2-4", "whom": Text("%(e)s", {"e": Text("an unseen element")})})
    state.memory["red-2"] = {e: None for e in state.elements if e.startswith("blue")}  # he has seen every one
    assert seats.redact(said, MEETING, state, "red-2") == Text(
        "%(who)s charges %(whom)s", {"who": "red-2-4", "whom": Text("%(e)s", {"e": state.enemy_ids["red"]["blue-1-1"]})})
    # the enemy's brigades and officers are not named (DS8), a brigade before its colonel of the same id
    assert seats.redact("red-1 fires at blue-1; Colonel Rouge watches 1st Red brigade", MEETING, state, "blue-1") == \
        "an enemy brigade fires at blue-1; an enemy officer watches an enemy brigade"
    assert seats.redact(Text("%(b)s", {"b": Text("1st Blue brigade")}), MEETING, state, "red-2") == \
        Text("%(b)s", {"b": Text("an enemy brigade")})  # a name kept as a term, in every language
    # an element still to arrive is the enemy too
    later = SimpleNamespace(id="red-9-1", side="red")
    scenario = SimpleNamespace(sides=MEETING.sides, table=MEETING.table, waiting={"red-9-1": later})
    assert seats.redact("red-9-1 arrives", scenario, state, "blue-1") == "an unseen element arrives"


def test_dba_a_side_reads_the_enemy_it_has_not_seen_as_an_unseen_element():
    state = position()
    state.memory["blue"] = {"red-1-1": None}
    assert dba_turn.redact("red-1-1 routs red-1-2", "blue", state, MEETING) == Text(
        "%(p0)s%(p1)s", {"p0": "red-1-1 routs ", "p1": Text("an unseen element")})  # the empty end left out
    assert dba_turn.redact("red-1-2", "blue", state, MEETING) == Text("an unseen element")
    assert dba_turn.redact("red-1-1 holds", "blue", state, MEETING) == "red-1-1 holds"
    beats = Text("%(a)s beats %(b)s", {"a": "red-2-1", "b": "blue-1-1", "n": 3})
    assert dba_turn.redact(beats, "blue", state, MEETING) == Text(
        "%(a)s beats %(b)s", {"a": Text("an unseen element"), "b": "blue-1-1", "n": 3})
    state.memory["red"] = {e: None for e in state.elements if e.startswith("blue")}
    assert dba_turn.redact("blue-1-1 breaks", "red", state, MEETING) == "blue-1-1 breaks"
    later = SimpleNamespace(id="red-9-1", side="red")
    scenario = SimpleNamespace(table=MEETING.table, waiting={"red-9-1": later})
    assert str(dba_turn.redact("red-9-1 and red-9-10", "blue", state, scenario)) == "an unseen element and red-9-10"
    plural = Text("%(num)s men of %(e)s", {"num": 2, "e": "red-2-2"}, "%(num)s men of %(e)s")
    assert dba_turn.redact(plural, "blue", state, MEETING).plural == "%(num)s men of %(e)s"


def test_dba_a_volley_names_the_enemy_hit_that_the_firing_side_has_seen_and_counts_the_others():
    volley = Volley("blue-1", "red-1", "infantry",
                    [Shot("blue-1-2", "red-1-2", 5, 2), Shot("blue-1-3", "red-1-2", 5, 0),
                     Shot("blue-1-4", "red-1-3", 3, 1, doubled=True)], base=4, value=3, die=5,
                    modifiers=["+1 uphill", "-1 tired"], result="D -1", destroyed=["red-1-2", "red-1-3"],
                    disorganised=["red-1-4"], shaken=["red-1-2", "red-1-4"], commanders_lost=["Colonel Rouge"])
    line = dba_turn.fire_line(volley, {"red-1-2"})
    assert str(line) == ("blue-1 fires at red-1 (infantry): value 3 (of 4) [blue-1-2 2, blue-1-4 1 (doubled)], die 5 "
                         "+1 uphill -1 tired → D -1; destroyed red-1-2, 1 unseen; disorganised 1 unseen; "
                         "shaken red-1-2, 1 unseen; Colonel Rouge killed or taken with it")
    plain = Volley("red-2", "blue-1", "artillery", [Shot("red-2-4", None, 0, 0, why_not="limbered")], base=2, value=2,
                   die=1, result="NE")
    assert str(dba_turn.fire_line(plain, set())) == "red-2 fires at blue-1 (artillery): value 2 [no shot], die 1 → NE"
    seen_all = Volley("red-2", "blue-1", "artillery", [Shot("red-2-4", "blue-1-1", 8, 2)], base=2, value=2, die=6,
                      result="D -2", destroyed=["blue-1-1", "blue-1-2"])
    assert str(dba_turn.fire_line(seen_all, {"blue-1-1", "blue-1-2"})) == \
        "red-2 fires at blue-1 (artillery): value 2 [red-2-4 2], die 6 → D -2; destroyed blue-1-1, blue-1-2"
    unseen = Volley("red-2", "blue-1", "artillery", [], base=2, value=2, die=6, result="D -1", shaken=["blue-1-1"])
    assert str(dba_turn.fire_line(unseen, set())) == \
        "red-2 fires at blue-1 (artillery): value 2 [no shot], die 6 → D -1; shaken 1 unseen"


def test_dba_the_post_and_the_reports_a_seat_knows_of():
    state = position()
    post, reports = state.post, state.reports
    assert [c.seq for c in post.seen_by(["blue-general"])] == [1, 2]
    assert [c.seq for c in post.seen_by(("blue-2",))] == [1]  # delivered to him
    assert post.seen_by(["blue-1"]) == []  # riding to him: he does not know of it
    assert [c.seq for c in post.seen_by(["red-1", "red-2"])] == [3]
    assert [c.seq for c in post.seen_by(iter(["red-general"]))] == [3]
    assert [c.seq for c in post.of("red-1")] == [3]
    assert [r.seq for r in reports.seen_by("blue-general")] == [1]  # the riding and the lost are not his
    assert [r.seq for r in reports.seen_by("blue-2")] == [2] and [r.seq for r in reports.seen_by("blue-3")] == [3]
    assert [r.seq for r in reports.seen_by("blue-1")] == [1] and reports.seen_by("red-general") == []


def test_dba_each_seat_reads_the_lines_naming_its_own_troops_and_the_moderator_each_line_once():
    state = position()
    beats = Text("%(a)s beats %(b)s", {"a": "blue-1-1", "b": "red-1-1"})
    public, mine = Event("weather", "rain"), Event("note", "for blue-1 alone", owner="blue-1")
    events = [
        public, mine,
        Event("fire", "1st Blue brigade fires at red-1-1 and red-2-4; General Azur watches", {"n": 1}, owner="blue",
              seen="blue-1-2 fires at Colonel Rouge's brigade", seen_data={"m": 2}),
        Event("move", "red-1-1 advances", owner="red", seen="red-1-1 advances on Colonel Cobalt and Colonel Indigo",
              witnesses=("blue",)),
        Event("courier", "dispatch 2 to Colonel Bleu sets out", {"sender": "blue-general"}, owner="blue"),
        Event("move", "blue-3 rides", owner="blue", seen="blue-3 rides by red-3", witnesses=()),
        Event("melee", said=beats, owner="blue", seen_said=beats, witnesses=("red",)),
        Event("move", "nobody's troops", owner=("blue", "red")),
    ]
    unseen = Text("an unseen element")
    skirmishers = state.enemy_ids["blue"]["red-1-1"]  # blue-1 has seen them: by his army's id (DS8)
    assert seats.for_seats(MEETING, state, events) == [
        public, mine,
        Event("fire", "1st Blue brigade fires at red-1-1 and red-2-4; General Azur watches", {"n": 1}, owner=(MOD,)),
        Event("fire", "1st Blue brigade fires at an unseen element and an unseen element; General Azur watches",
              {"n": 1, COPY: True}, owner=("blue-general",)),
        Event("fire", f"1st Blue brigade fires at {skirmishers} and an unseen element; General Azur watches",
              {"n": 1, COPY: True}, owner=("blue-1",)),
        Event("fire", "an unseen element fires at Colonel Rouge's brigade", {"m": 2, COPY: True}, owner=("red-1",)),
        Event("move", "red-1-1 advances", owner=(MOD,)),
        Event("move", "red-1-1 advances", {COPY: True}, owner=("red-1",)),
        Event("move", "an unseen element advances on Colonel Cobalt and Colonel Indigo", {COPY: True},
              owner=("blue-2", "blue-3")),  # the same words: one copy for both
        Event("courier", "dispatch 2 to Colonel Bleu sets out", {"sender": "blue-general"}, owner=(MOD,)),
        Event("courier", "dispatch 2 to Colonel Bleu sets out", {"sender": "blue-general", COPY: True},
              owner=("blue-general",)),  # the sender's news alone, though it names Colonel Bleu
        Event("move", "blue-3 rides", owner=(MOD,)),
        Event("move", "blue-3 rides", {COPY: True}, owner=("blue-3",)),
        Event("melee", "blue-1-1 beats red-1-1", owner=(MOD,), said=beats),
        Event("melee", f"blue-1-1 beats {skirmishers}", {COPY: True}, owner=("blue-1",),
              said=Text("%(a)s beats %(b)s", {"a": "blue-1-1", "b": skirmishers})),
        Event("melee", "an unseen element beats red-1-1", {COPY: True}, owner=("red-1",),
              said=Text("%(a)s beats %(b)s", {"a": unseen, "b": "red-1-1"})),
        Event("move", "nobody's troops", owner=(MOD,)),  # naming no seat's troops: the moderator's alone
    ]
    assert seats.for_seats(MEETING, state, []) == []


# -- a kriegsspiel seat's bot writes for its commander alone; a decision goes to the seat its question names ----

from pbem.core.decisions import Decision  # noqa: E402


def test_dba_a_bot_in_a_kriegsspiel_seat_writes_only_its_commanders_dispatches():
    calls = []

    def side_bot(scenario, seen, seed):
        calls.append((scenario, seen, seed))
        return ("FROM General Azur TO Colonel Bleu\nHOLD\n\nFROM Colonel Bleu TO Colonel Bleu\nHOLD\n\n"
                "FROM General Azur AT the bridge TO Colonel Cobalt\nHOLD\n\n\n\nFROM General Azur TO Colonel Cobalt\n"
                "MOVE TO Mill Village")

    write = seats.bot(side_bot)
    state = position()
    seen = view.view(MEETING, state, "blue-general")
    assert write(MEETING, seen, 7) == ("FROM General Azur TO Colonel Bleu\nHOLD\n\n"
                                       "FROM General Azur TO Colonel Cobalt\nMOVE TO Mill Village\n")
    assert calls == [(MEETING, seen | {"owing": ["blue"]}, 7)]  # the side's bot writes as for the whole side
    assert seen["owing"] == KRIEG_OWING  # the seat's own view is left as it was
    side = view.view(MEETING, position("commanders"), "blue")
    assert write(MEETING, side, 8) == side_bot(None, None, None)  # one seat a side: the side's bot as it is
    assert calls[-2] == (MEETING, side, 8)
    calls.clear()
    assert write(MEETING, seen | {"owing": ["blue-1"]}, 7) == "" and calls == []  # he owes nothing
    assert write(MEETING, seen | {"over": True}, 7) == "" and calls == []
    assert write(MEETING, view.view(MEETING, state, "blue-2"), 7) == ""  # a colonel is not waited for (DS4)
    owing = view.view(MEETING, state, "blue-2") | {"owing": ["blue-2"]}
    assert write(MEETING, owing, 7) == "\n"  # nothing of his in the side's orders


class Recorder:
    """A decider that answers with the decision's default and keeps what it was asked."""

    def __init__(self):
        self.asked, self.records = [], ["kept"]

    def decide(self, decision, given=None, source="orders", check=None):
        self.asked.append((decision, given, source, check))
        return decision.default


def question(side, text):
    return Decision(side, "rally", text, ("yes", "no"), ("no",))


def test_dba_a_decision_goes_to_the_seat_whose_troops_its_question_names_the_lowest_first():
    state = position()
    decider = seats.SeatDecider(Recorder(), MEETING, state)
    assert decider.seat_for(question("blue", "rally blue-2-3 of the 2nd Blue brigade?")) == "blue-2"
    # two named: the later in seat order
    assert decider.seat_for(question("blue", "Colonel Bleu or Colonel Cobalt: who rides?")) == "blue-2"
    assert decider.seat_for(question("blue", "General Azur rides?")) == "blue-general"
    assert decider.seat_for(question("red", "initiative: A or B?")) == "red-general"  # naming nobody: the highest
    assert decider.seat_for(question("blue-1", "already a seat's")) == "blue-1"
    state.commanders["blue-2"].alive = False
    assert decider.seat_for(question("blue", "rally blue-2-3?")) == "blue-general"  # his superior commands them
    state.commanders["blue-general"].alive = False
    assert decider.seat_for(question("blue", "initiative: A or B?")) == "blue-1"  # the highest still alive
    for c in state.commanders.values():
        c.alive = False
    assert decider.seat_for(question("red", "initiative: A or B?")) == "red-general"  # nobody alive: the highest


def test_dba_the_seat_decider_asks_the_wrapped_decider_as_the_seat_and_keeps_its_records():
    recorder = Recorder()
    decider = seats.SeatDecider(recorder, MEETING, position())
    check = len
    assert decider.decide(question("red", "rally red-3-1?"), ("yes",), source="standing", check=check) == ("no",)
    assert recorder.asked == [(question("red-3", "rally red-3-1?"), ("yes",), "standing", check)]
    assert decider.records == ["kept"] and decider.decider is recorder
    assert (decider.scenario, decider.state.turn) == (MEETING, 3)


def test_dba_a_seat_that_is_no_seat_of_the_game_sees_nothing():
    state = position()
    for stranger in ("nobody", "*spectator*", ""):
        with pytest.raises(ValueError, match="is no seat of this game"):
            view.view(MEETING, state, stranger)


def test_dba_a_commander_may_not_bear_a_sides_id(tmp_path):
    text = (Path(RULES.scenarios()["dba-meeting"]).read_text(encoding="utf-8")
            .replace('id = "red-3"\nname = "Colonel Grenat"', 'id = "red"\nname = "Colonel Grenat"'))
    (tmp_path / "clash.toml").write_text(text, encoding="utf-8")
    assert any("commander 8 ('red'): a side's id" in p for p in RULES.check_map(tmp_path / "clash.toml"))


def test_dba_a_brigade_without_orders_or_troops_on_the_table():
    state = position()
    del state.commands["blue-3"]  # no state of command kept for it: no order, nothing waiting
    for eid in state.brigades["red-3"].elements:
        state.elements[eid].fleeing = True  # every element fleeing: no centre
    seen = view.view(MEETING, state, None)["brigades"]
    assert seen[2] == BLUE_3
    assert seen[5] == brigade("red-3", "Red cavalry brigade", "red", None, 4)


def test_dba_a_commander_knows_nothing_of_a_dispatch_delivered_to_a_commander_under_him():
    state = position()
    state.commanders["blue-3"].superior = "blue-1"  # the cavalry under the 1st brigade's colonel
    seats.know_troops(MEETING, state, 2)  # and he has looked at it (16" off: he sees it)
    state.post.send(order("blue-general", "FROM General Azur TO Colonel Indigo\nHOLD"), 2, (240, 40))
    state.post.deliver(state.post.couriers[3], 3)
    indigo = "dispatch 4, General Azur to Colonel Indigo, sent turn 2: delivered on turn 3"
    assert view.view(MEETING, state, "blue-1")["couriers"] == [REPORT_1]
    assert view.view(MEETING, state, "blue-3")["couriers"] == [indigo, REPORT_3]
    assert view.view(MEETING, state, "blue-general")["couriers"] == [DISPATCH_1, DISPATCH_2, indigo, REPORT_1]
    assert [e["brigade"] for e in view.view(MEETING, state, "blue-1")["elements"]] == ["blue-1"] * 4 + ["blue-3"] * 4


def test_dba_a_report_may_be_lost_on_arriving_by_the_posts_roll():
    state = position()
    state.turn, state.post.loss = 4, 100
    state.commanders["blue-general"].x, state.commanders["blue-general"].y = 50, 140
    chance = Chance(1)
    assert seats.ride_reports(MEETING, state, chance) == []
    assert state.reports.reports[1].status == LOST
    assert len(chance.rolls) == 1


def test_dba_a_side_that_remembers_nothing_reads_every_enemy_unseen():
    state = position()
    del state.memory["blue"]
    assert str(dba_turn.redact("red-1-1 holds", "blue", state, MEETING)) == "an unseen element holds"
