"""Napoleonic DBA's table: the Names interface the order grammar codes against, the geometry the rules ask
(contact edges, quarters, the zone of fire, sight), the two scenarios, and purity (no clock, no global random)."""

import ast
import copy
from pathlib import Path

import pytest
from shapely.geometry import Point, box

from pbem.games.dba import fire, movement, pips, sight
from pbem.games.dba.elements import Element, as_inches, footprint_size, inches
from pbem.games.dba.names import Grid, Names, UnknownName
from pbem.games.dba.scenario import ScenarioError, load_scenario, scenario_from
from pbem.paths import MAPS

PACKAGE = Path(__file__).parent.parent / "pbem" / "games" / "dba"


@pytest.fixture(scope="module")
def quatre_bras():
    return load_scenario(MAPS / "dba-quatre-bras.toml")


@pytest.fixture(scope="module")
def meeting():
    return load_scenario(MAPS / "dba-meeting.toml")


# -- names ------------------------------------------------------------------------------------------------
def test_names_find_places_by_name_alias_and_any_case(quatre_bras):
    names = quatre_bras.table.names
    qb = names.location("quatre-bras")
    assert (qb.name, qb.kind, (qb.centre.x, qb.centre.y)) == ("Quatre Bras", "place", (360, 380))
    assert names.location("Катр-Бра").name == "Quatre Bras"
    wood = names.location("bois de bossu")
    assert wood.kind == "place" and wood.geometry.geom_type == "Polygon" and wood.geometry.contains(wood.centre)
    road = names.location("Charleroi road")
    assert road.geometry.geom_type == "LineString" and road.geometry.distance(road.centre) < 1


def test_names_grid_squares(quatre_bras):
    names = quatre_bras.table.names
    d4 = names.location("d4")
    assert (d4.name, d4.kind) == ("D4", "square")
    assert d4.geometry.bounds == (180, 240, 240, 300)       # fourth column, fourth row from the north
    assert (d4.centre.x, d4.centre.y) == (210, 270)
    assert names.location("A1").geometry.bounds == (0, 420, 60, 480)
    assert names.location("L8").geometry.bounds == (660, 0, 720, 60)
    assert names.find_location("M1") is None and names.find_location("A9") is None
    assert quatre_bras.table.grid.ref_at(361, 381) == "G2"


def test_unknown_names_say_what_was_meant(quatre_bras):
    names = quatre_bras.table.names
    with pytest.raises(UnknownName, match="no place or grid square 'Quatre Bra'; did you mean Quatre Bras"):
        names.location("Quatre Bra")
    with pytest.raises(UnknownName, match="no brigade 'Bijland'; did you mean"):
        names.brigade("Bijland")
    with pytest.raises(ValueError, match="no element"):
        names.element("nobody-1")


def test_names_forces(quatre_bras):
    names = quatre_bras.table.names
    assert names.brigade("Bijlandt's brigade (Perponcher)").id == "bijlandt"
    assert names.commander("Prince of Orange").id == "orange"
    assert names.brigade_of("Bijlandt").id == "bijlandt" and names.brigade_of("ney") is None
    assert names.commander_of("kempt").name == "Kempt"
    assert [c.id for c in names.subordinates("reille")] == ["husson", "campi", "gauthier", "jamin", "bauduin", "soye"]
    assert names.element("bijlandt-1").troop == "light_infantry"
    assert names.element("kempt-1").troop == "light_infantry"      # a brigade still to arrive is named too
    assert "kempt-1" not in quatre_bras.table.elements and "kempt-1" in quatre_bras.table.reserve
    assert {b.id for b in names.side_brigades("french")} >= {"husson", "kellermann"}


def test_names_built_by_hand_for_a_test():
    names = Names(places={"Mill": Point(50, 50), "Wood": box(0, 0, 30, 30)}, grid=Grid(120, 120, 60),
                  aliases={"the mill": "Mill"})
    assert names.location("THE  MILL").name == "Mill"
    assert names.location("B2").centre.coords[0] == (90, 30)
    assert names.place_names() == ["Mill", "Wood"]


# -- elements and geometry -------------------------------------------------------------------------------
def test_inches_are_tenths():
    assert inches(3) == 30 and inches(2.5) == 25 and as_inches(35) == '3.5"' and as_inches(30) == '3"'


def test_an_element_is_an_oriented_rectangle():
    e = Element("a", "blue", "b", "infantry", 100, 100, 90)         # facing east
    assert footprint_size("infantry", "line") == (16, 6)
    minx, miny, maxx, maxy = e.shape.bounds
    assert (round(minx), round(miny), round(maxx), round(maxy)) == (94, 92, 100, 108)  # behind its front, to the west
    assert e.edge("front").distance(Point(100, 100)) < 1e-9
    assert e.edge("rear").distance(Point(94, 100)) < 1e-9
    assert e.edge("left").centroid.y > e.edge("right").centroid.y    # facing east, left is north


def test_contact_edges_and_quarters(meeting):
    table = copy.deepcopy(meeting.table)
    target = Element("t", "red", "red-1", "infantry", 300, 300, 180)  # facing south
    front = Element("f", "blue", "blue-1", "infantry", 300, 300, 0)
    flank = Element("l", "blue", "blue-1", "infantry", 308, 303, 270)
    rear = Element("r", "blue", "blue-1", "infantry", 300, 306, 180)
    assert table.contact_edge(front, target) == "front"
    assert table.contact_edge(flank, target) in ("left", "right")
    assert table.contact_edge(rear, target) == "rear"
    assert table.contact_edge(Element("x", "blue", "blue-1", "infantry", 300, 250, 0), target) is None
    assert table.quarter(target, Point(300, 280)) == "front"
    assert table.quarter(target, Point(300, 320)) == "rear"
    assert table.behind(target, rear) and not table.behind(target, front)


def test_zone_of_fire_is_45_degrees_from_the_front_corners(meeting):
    table = copy.deepcopy(meeting.table)
    shooter = Element("s", "blue", "blue-1", "infantry", 300, 300, 0)
    zone = table.fire_zone(shooter, 50)
    assert zone.contains(Point(300, 340))                    # straight ahead
    assert zone.contains(Point(300 + 8 + 25, 330))          # out to the side, inside 45°
    assert not zone.contains(Point(300 + 8 + 35, 330))      # beyond the 45° line
    assert not zone.contains(Point(300, 290))               # behind the front edge
    assert not zone.contains(Point(300, 360))               # beyond reach


def test_the_two_scenarios_load_with_brigade_effectiveness(quatre_bras, meeting):
    assert len(quatre_bras.table.elements) == 32 and len(quatre_bras.waiting) == 45
    assert {a.brigade: a.turn for a in quatre_bras.arrivals}["kempt"] == 3
    assert quatre_bras.settings.clock(3) == "15:00" and quatre_bras.settings.spotting == 240
    assert quatre_bras.table.brigades["maitland"].bef_start == 7
    assert not quatre_bras.table.commanders["kempt"].present and quatre_bras.table.commanders["bijlandt"].present
    assert len(meeting.table.elements) == 24
    assert all(b.bef_start == 9 for b in meeting.table.brigades.values())
    for sc in (quatre_bras, meeting):
        assert sc.table.names.location(sc.settings.victory["hold"])


def test_scenario_problems_are_all_listed():
    with pytest.raises(ScenarioError) as err:
        scenario_from({"scenario": {"sides": {"a": "A"}, "table": [10, 10]},
                       "feature": [{"kind": "lava", "points": [[0, 0], [1, 0], [1, 1]]}],
                       "commander": [{"id": "c", "side": "z"}]}, "bad.toml")
    text = str(err.value)
    assert "expected two sides" in text and "unknown kind" in text and "side 'z'" in text


# -- the rules on the table -------------------------------------------------------------------------------
def test_path_finding_keeps_clear_of_impassable_ground(meeting):
    table = copy.deepcopy(meeting.table)
    table.elements.clear()
    e = Element("c", "blue", "blue-1", "infantry", 162, 153, 0, "column")
    table.elements["c"] = e
    path = movement.find_path(table, e, Point(162, 225))
    assert path is not None and path.length > 72
    pond = [f for f in table.terrain.features if f.kind == "water"][0].shape
    assert path.buffer(e.frontage / 2 - 1).intersection(pond).area < 0.5


def test_sight_is_symmetric_on_open_ground(meeting):
    table = copy.deepcopy(meeting.table)
    a, b = table.elements["blue-2-1"], table.elements["red-2-1"]
    assert table.sees(a, b, 400) == table.sees(b, a, 400)
    assert sight.seen(table, "blue", 10) == set()            # 36" apart at the start: nothing within 1"


def test_units_of_the_opening_lines(meeting):
    table = meeting.table
    assert pips.units(table, "blue-2") == [["blue-2-1", "blue-2-2", "blue-2-3", "blue-2-4"]]


def test_fire_result_table_is_monotonic():
    order = {r: i for i, r in enumerate(fire.RESULTS)}
    for value in range(1, 60):
        assert [order[fire.result(value, d)] for d in range(1, 7)] == sorted(order[fire.result(value, d)] for d in range(1, 7))
    for die in range(1, 7):
        got = [order[fire.result(v, die)] for v in range(1, 60)]
        assert got == sorted(got), die


def test_the_package_is_pure():
    """No wall clock, no global random, no I/O in the rules (cases.py and scenario.py read files by design)."""
    for path in PACKAGE.glob("*.py"):
        tree = ast.parse(path.read_text(encoding="utf-8"))
        imported = {a.name.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.Import) for a in n.names}
        imported |= {n.module.split(".")[0] for n in ast.walk(tree) if isinstance(n, ast.ImportFrom) and n.module}
        assert not imported & {"random", "time", "datetime", "os", "socket"}, path.name
        if path.name not in ("cases.py", "scenario.py"):
            calls = {n.func.id for n in ast.walk(tree) if isinstance(n, ast.Call) and isinstance(n.func, ast.Name)}
            assert "open" not in calls, path.name


def test_the_orders_grammar_reads_dispatches_against_the_real_table(quatre_bras):
    """The contract with the orders' grammar (parse.py codes against Names): dispatches naming places, a grid
    square, an enemy brigade and a brigade still to arrive are read on the Quatre Bras table."""
    from pbem.games.dba.parse import parse_orders

    names = quatre_bras.table.names
    orders = parse_orders("FROM Wellington TO Bijlandt\nMOVE TO D4 IN COLUMN BY ROAD\n"
                          "THEN DEPLOY IN LINE AT Gemioncourt\nTHEN ATTACK Husson\n\n"
                          "FROM Orange TO van Merlen\nATTACK ENEMY AT Frasnes IN COLUMN THEN RETREAT TO Thyle\n",
                          names, "allies", 3)
    first, second = orders.dispatches
    assert [s.place for s in first.steps[:2]] == ["D4", "Gemioncourt"]
    assert second.recipient.id == "van-merlen"
