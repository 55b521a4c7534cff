"""The map loader and validator (pbem.games.simmons.board) and the shipped Marengo map."""

from __future__ import annotations

import math
from collections import Counter
from pathlib import Path

import pytest

from pbem.cli import main as pbem_main
from pbem.games.simmons.board import (
    Approach,
    LocaleNameError,
    NAME_MISSES,
    MapError,
    check_board,
    load_board,
)
from pbem.games.marengo.scenario import load_scenario

ROOT = Path(__file__).resolve().parent.parent
MAP = ROOT / "maps" / "marengo-map.toml"
SCENARIO = ROOT / "maps" / "marengo.toml"


@pytest.fixture(scope="module")
def board():
    return load_board(MAP)


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(SCENARIO)


# A small map to break on purpose: three locales in a row, a road, two entries.
#   Città Alta (north) -- Borgo -- Città Bassa (south); Borgo Nuovo hangs off Borgo.
TINY = """
[map]
name = "Tiny"

[[locale]]
id = "alta"
name = "Città Alta"
capacity = 3
at = [200, 100]
objective = "red"

[[locale]]
id = "borgo"
name = "Borgo"
capacity = 4
at = [200, 300]
french_start = 2

[[locale]]
id = "borgo_nuovo"
name = "Borgo Nuovo"
capacity = 2
at = [400, 300]

[[locale]]
id = "bassa"
name = "Città Bassa"
capacity = 3
at = [200, 500]
objective = "green"

[[border]]
a = "alta"
b = "borgo"
a_approach = { width = "wide" }
b_approach = { infantry = 1, cavalry = 2, artillery = 1, cavalry_obstacle = true }

[[border]]
a = "borgo"
b = "bassa"
a_approach = {}
b_approach = { width = "wide" }

[[border]]
a = "borgo"
b = "borgo_nuovo"
a_approach = {}
b_approach = {}

[[border]]
a = "alta"
b = "borgo_nuovo"
impassable = true

[[road]]
id = "high_road"
kind = "main"
path = ["alta", "borgo", "bassa"]

[[entry]]
id = "north_gate"
name = "North gate"
side = "austria"
locale = "alta"
kind = "road"
road = "high_road"
at = [200, 0]

[[entry]]
id = "ferry"
name = "Ferry"
side = "austria"
locale = "borgo_nuovo"
kind = "pontoon"
"""


def write(tmp_path: Path, text: str, name: str = "map.toml") -> Path:
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def problems_of(tmp_path: Path, text: str) -> list[str]:
    path = write(tmp_path, text)
    problems = check_board(path)
    with pytest.raises(MapError) as info:
        load_board(path)
    assert info.value.problems == problems
    return problems


# ----------------------------------------------------------------- the shipped map


def test_shipped_map_and_scenario_load(board, scenario):
    assert check_board(MAP) == []
    assert 45 <= len(board.locales) <= 60
    assert scenario.board.locales.keys() == board.locales.keys()
    assert scenario.rounds == 16 and scenario.first_hour == 6
    assert scenario.morale == {"austria": 16, "france": 17}


def test_pbem_map_check_says_ok(capsys):
    assert pbem_main(["map", "check", str(MAP)]) == 0
    assert capsys.readouterr().out.strip() == f"{MAP}: ok"


def test_locale_ids_are_snake_case_and_names_unique(board):
    for lid, loc in board.locales.items():
        assert lid.isascii() and lid == lid.lower() and " " not in lid, lid
        assert 1 <= loc.capacity <= 6
        assert 0 <= loc.x <= board.width and 0 <= loc.y <= board.height
    assert len({loc.name for loc in board.locales.values()}) == len(board.locales)


def test_eight_objectives_in_three_colours_in_the_east(board):
    objectives = [loc for loc in board.locales.values() if loc.objective]
    assert len(objectives) == 8
    colours = Counter(loc.objective for loc in objectives)
    assert set(colours) == {"red", "green", "blue"}
    assert min(colours.values()) >= 2
    # All past the Marengo–Spinetta line, so Austria has to push east for them.
    spinetta = board.locales["spinetta"]
    assert all(loc.x > spinetta.x + 150 for loc in objectives)
    assert all(board.distance("spinetta", loc.id) >= 2 for loc in objectives)


def test_austria_needs_two_colours_far_from_its_entry(board):
    # The nearest pair of objectives of two different colours is at least 5 crossings
    # from the bridgehead: no walk-over.
    objectives = [loc for loc in board.locales.values() if loc.objective]
    near = {loc.id: board.distance("bormida_bridgehead", loc.id) for loc in objectives}
    assert min(near.values()) >= 5


def test_french_start_seats(board, scenario):
    seats = [loc.french_start for loc in board.locales.values() if loc.french_start]
    assert sorted(seats, reverse=True) == [2, 2, 2, 1, 1, 1, 1, 1]
    assert sum(seats) == 11 == sum(1 for b in scenario.blocks if b.start)
    assert all(b.side == "france" for b in scenario.blocks if b.start)


def test_every_road_step_is_a_passable_border(board):
    assert board.roads, "the map has roads"
    for road in board.roads.values():
        for a, b in zip(road.path, road.path[1:]):
            assert board.is_adjacent(a, b) and board.is_adjacent(b, a), (road.id, a, b)
            assert road in board.roads_across(a, b)
    main = [r for r in board.roads.values() if r.main]
    assert len(main) == 1
    assert main[0].path[0] == "bormida_bridgehead" and main[0].path[-1] == "torre_garofoli"
    for lid in ("marengo", "spinetta", "san_giuliano_vecchio"):
        assert lid in main[0].path


def test_every_border_has_two_approaches(board):
    for (a, b), ap in board.approaches.items():
        assert (b, a) in board.approaches
        assert ap.locale == a and ap.toward == b
        assert ap.width in (1, 2)
        assert all(0 <= v <= 3 for v in (ap.infantry, ap.cavalry, ap.artillery))
    for pair in board.impassable:
        a, b = tuple(pair)
        assert not board.is_adjacent(a, b)


def test_fontanone_crossings_are_penalised(board):
    marengo_front = board.approach("marengo", "pedrabona")
    assert marengo_front.infantry >= 2 and marengo_front.cavalry_obstacle
    assert board.approach("pedrabona", "marengo").cavalry_obstacle
    assert board.approach("piana_di_san_giuliano", "cascina_bozzola").wide


def test_every_entry_is_valid(board, scenario):
    by_side = {"austria": [], "france": []}
    for entry in board.entries.values():
        assert entry.side in by_side, entry.id
        assert entry.locale in board.locales
        by_side[entry.side].append(entry)
        if entry.kind == "road":
            assert entry.road in board.roads and entry.locale in board.roads[entry.road].path
        else:
            assert entry.kind == "pontoon" and entry.side == "austria"
        assert entry.x in (0, board.width), "drawn on the west or east edge"
    austria = {e.kind: e for e in by_side["austria"]}
    assert sorted(e.kind for e in by_side["austria"]) == ["pontoon", "road"]
    assert board.roads[austria["road"].road].main
    assert board.is_adjacent(austria["road"].locale, austria["pontoon"].locale)
    assert {e.road for e in by_side["france"]} == {"main_road", "rivalta_road"}
    assert all(e.x == 0 for e in by_side["austria"]) and all(e.x == board.width for e in by_side["france"])
    for block in scenario.blocks:
        for eid in block.entries:
            assert board.entries[eid].side == block.side, block.id
    assert board.find_entry("pontoon", "austria") == "pontoon"
    assert board.find_entry("Rivalta", "france") == "rivalta"


def test_scenario_order_of_battle(scenario):
    blocks = scenario.blocks
    assert [b.id for b in blocks if b.side == "austria"] == [f"A{i}" for i in range(1, 21)]
    assert [b.id for b in blocks if b.side == "france"] == [f"F{i}" for i in range(1, 21)]
    assert len({b.name for b in blocks}) == 40
    count = Counter((b.side, b.type, b.strength) for b in blocks)
    assert count == {
        ("france", "infantry", 3): 4, ("france", "infantry", 2): 10, ("france", "cavalry", 2): 5,
        ("france", "artillery", 1): 1,
        ("austria", "infantry", 3): 3, ("austria", "infantry", 2): 10, ("austria", "cavalry", 2): 6,
        ("austria", "artillery", 1): 1,
    }
    french_waves = Counter((b.arrives, b.type, b.strength) for b in blocks if b.side == "france" and not b.start)
    assert french_waves == {(11, "infantry", 3): 2, (11, "artillery", 1): 1, (16, "infantry", 2): 4, (17, "cavalry", 2): 2}
    assert all(b.arrives is not None and 6 <= b.arrives <= 8 for b in blocks if b.side == "austria")
    assert all(b.arrives >= 7 for b in blocks if b.side == "austria" and b.type == "artillery")
    assert scenario.retreat_toward == {"austria": "bormida_bridgehead", "france": "torre_garofoli"}


def _voronoi_edges(points: dict[str, tuple[float, float]], w: float, h: float) -> dict[frozenset, float]:
    """Length of the shared edge of every pair of neighbouring Voronoi cells."""
    edges: dict[frozenset, float] = {}
    for i, s in points.items():
        poly = [((0.0, 0.0), None), ((w, 0.0), None), ((w, h), None), ((0.0, h), None)]
        for j, t in points.items():
            if j == i:
                continue
            mx, my, nx, ny = (s[0] + t[0]) / 2, (s[1] + t[1]) / 2, t[0] - s[0], t[1] - s[1]
            side = [(p[0] - mx) * nx + (p[1] - my) * ny for p, _ in poly]
            out = []
            for k, (p, label) in enumerate(poly):
                q = poly[(k + 1) % len(poly)][0]
                fp, fq = side[k], side[(k + 1) % len(poly)]
                if fp <= 0:
                    out.append((p, label))
                if (fp <= 0) != (fq <= 0):
                    r = fp / (fp - fq)
                    cut = (p[0] + r * (q[0] - p[0]), p[1] + r * (q[1] - p[1]))
                    out.append((cut, j if fp <= 0 else label))
            poly = out
        for k, (p, label) in enumerate(poly):
            if label is not None:
                length = math.dist(p, poly[(k + 1) % len(poly)][0])
                key = frozenset((i, label))
                edges[key] = max(edges.get(key, 0.0), length)
    return edges


def test_borders_match_the_drawn_voronoi_cells(board):
    assert not any(loc.shape for loc in board.locales.values())
    points = {lid: (loc.x, loc.y) for lid, loc in board.locales.items()}
    edges = _voronoi_edges(points, board.width, board.height)
    declared = {frozenset(k) for k in board.approaches} | board.impassable
    assert declared - set(edges) == set(), "declared borders between cells that do not touch"
    undeclared = {tuple(sorted(k)): round(v) for k, v in edges.items() if k not in declared and v > 15}
    assert undeclared == {}, "cells that touch along an edge but have no border"
    assert min(edges[k] for k in declared) > 40


# ----------------------------------------------------------------- the validator


def test_tiny_map_loads(tmp_path):
    b = load_board(write(tmp_path, TINY))
    assert b.name == "Tiny" and (b.width, b.height) == (1400, 1000)
    assert b.adjacent("borgo") == ["alta", "bassa", "borgo_nuovo"]
    ap = b.approach("borgo", "alta")
    assert (ap.width, ap.infantry, ap.cavalry, ap.artillery, ap.cavalry_obstacle) == (1, 1, 2, 1, True)
    assert ap.penalty("cavalry") == 2 and not ap.wide
    assert b.approach("alta", "borgo").wide
    assert b.approach("borgo", "borgo_nuovo") == Approach("borgo", "borgo_nuovo")  # {}: plain narrow
    assert b.impassable == {frozenset(("alta", "borgo_nuovo"))}
    assert [r.id for r in b.roads_across("borgo", "alta")] == ["high_road"]
    assert b.roads_across("borgo", "borgo_nuovo") == []
    assert [(lid, r.id) for lid, r in b.road_neighbours("borgo")] == [("alta", "high_road"), ("bassa", "high_road")]
    assert b.entries["ferry"].kind == "pontoon" and b.entries["ferry"].road is None
    assert (b.entries["north_gate"].x, b.entries["north_gate"].y) == (200, 0)
    assert b.locales["borgo"].french_start == 2 and b.locales["alta"].objective == "red"


def test_approach_with_no_opposite(tmp_path):
    text = TINY.replace('a_approach = {}\nb_approach = { width = "wide" }', 'a_approach = {}')
    problems = problems_of(tmp_path, text)
    assert len(problems) == 1
    assert problems[0].startswith("border #2 (borgo–bassa): an approach with no opposite")
    assert "b_approach" in problems[0] and "impassable = true" in problems[0]


def test_road_through_a_non_adjacent_pair(tmp_path):
    text = TINY.replace('path = ["alta", "borgo", "bassa"]', 'path = ["alta", "bassa"]')
    assert problems_of(tmp_path, text) == [
        "road #1 (high_road): runs from alta to bassa, which have no border between them"
    ]


def test_road_across_an_impassable_border(tmp_path):
    text = TINY.replace('path = ["alta", "borgo", "bassa"]', 'path = ["borgo_nuovo", "alta", "borgo"]')
    assert problems_of(tmp_path, text) == [
        "road #1 (high_road): runs from borgo_nuovo to alta, which have an impassable border between them"
    ]


def test_missing_capacity(tmp_path):
    text = TINY.replace('capacity = 2\n', '', 1)
    problems = problems_of(tmp_path, text)
    assert problems == ["locale #3 (borgo_nuovo): missing capacity (a whole number of blocks, 1 or more)"]


def test_duplicate_name_accents_and_case_folded(tmp_path):
    text = TINY.replace('name = "Borgo Nuovo"', 'name = "CITTA ALTA"')
    problems = problems_of(tmp_path, text)
    assert problems == ["locale #3 (borgo_nuovo): duplicate name 'CITTA ALTA' (also alta)"]


def test_unknown_locale_in_a_border(tmp_path):
    text = TINY.replace('a = "borgo"\nb = "borgo_nuovo"', 'a = "borgo"\nb = "borgo_vecchio"')
    problems = problems_of(tmp_path, text)
    assert "border #3 (borgo–borgo_vecchio): unknown locale 'borgo_vecchio'" in problems
    # borgo_nuovo has lost its only passable border, and that is reported too.
    assert "locale borgo_nuovo: has no passable border" in problems


def test_bad_width(tmp_path):
    text = TINY.replace('a_approach = { width = "wide" }', 'a_approach = { width = "broad" }')
    assert problems_of(tmp_path, text) == [
        "border #1 (alta–borgo) a_approach: width must be 'narrow' or 'wide', not 'broad'"
    ]


def test_bad_symbols_and_unknown_approach_field(tmp_path):
    text = TINY.replace("cavalry = 2, artillery = 1", "cavalry = 4, artilery = 1")
    problems = problems_of(tmp_path, text)
    assert "border #1 (alta–borgo) b_approach: cavalry penalty must be a whole number from 0 to 3, not 4" in problems
    assert any("unknown approach field 'artilery'" in p for p in problems)


def test_bad_objective_entry_and_duplicate_border(tmp_path):
    text = TINY.replace('objective = "green"', 'objective = "yellow"')
    text = text.replace('road = "high_road"', 'road = "low_road"')
    text += '\n[[border]]\na = "bassa"\nb = "borgo"\na_approach = {}\nb_approach = {}\n'
    problems = problems_of(tmp_path, text)
    assert "locale #4 (bassa): objective must be one of red, green, blue, not 'yellow'" in problems
    assert "entry #1 (north_gate): a road entry must name the road it enters by (road = ...)" in problems
    assert "border #5 (bassa–borgo): the border between bassa and borgo is given twice" in problems
    assert len(problems) == 3


def test_every_problem_is_listed_at_once(tmp_path, capsys):
    text = TINY.replace('a_approach = { width = "wide" }', 'a_approach = { width = "broad" }')
    text = text.replace('capacity = 2\n', '', 1)
    path = write(tmp_path, text)
    with pytest.raises(MapError) as info:
        load_board(path)
    assert len(info.value.problems) == 2
    assert str(info.value).endswith(": 2 problems:\n" + "\n".join(f"  - {p}" for p in info.value.problems))
    assert pbem_main(["map", "check", str(path)]) == 1
    out = capsys.readouterr().out
    assert out.startswith(f"{path}: 2 problem(s)\n  - ")


def test_map_error_names_the_file(tmp_path):
    text = TINY.replace('capacity = 2\n', '', 1).replace('name = "Tiny"', '')
    path = write(tmp_path, text)
    with pytest.raises(MapError) as info:
        load_board(path)
    assert str(info.value).startswith(f"{path}: ")
    assert load_board(write(tmp_path, TINY.replace('name = "Tiny"', ''))).name == str(path)


def test_bad_values_are_listed_not_raised(tmp_path):
    text = TINY.replace('capacity = 2\n', 'capacity = 2\nfrench_start = "two"\nshape = [[1]]\n', 1)
    problems = check_board(write(tmp_path, text))
    assert any("french_start must be a whole number" in p for p in problems)
    assert any("shape must be a list of [x, y] points" in p for p in problems)


def test_not_toml_and_missing_file(tmp_path):
    assert check_board(write(tmp_path, "[[locale]\nid = "))[0].startswith("not valid TOML")
    assert check_board(tmp_path / "nowhere.toml")[0].startswith("cannot read")


# ----------------------------------------------------------------- names and distances


def test_find_locale(tmp_path, board):
    tiny = load_board(write(tmp_path, TINY))
    assert tiny.find_locale("Città Alta") == "alta"
    assert tiny.find_locale("citta alta") == "alta"  # no accent
    assert tiny.find_locale("CITTÀ-BASSA") == "bassa"  # case, hyphen
    assert tiny.find_locale("borgo") == "borgo"  # exact match beats the prefix of Borgo Nuovo
    assert tiny.find_locale("borgo n") == "borgo_nuovo"  # unique prefix
    assert tiny.find_locale("borgo_nuovo") == "borgo_nuovo"  # by id
    with pytest.raises(LocaleNameError) as info:
        tiny.find_locale("Citta")
    assert str(info.value) == "'Citta' could be any of: Città Alta, Città Bassa; write more of the name"
    with pytest.raises(LocaleNameError, match="no locale is called 'Tortona'"):
        tiny.find_locale("Tortona")
    with pytest.raises(LocaleNameError, match="a locale name was expected"):
        tiny.find_locale(" - ")

    assert board.find_locale("san giuliano v") == "san_giuliano_vecchio"
    assert board.find_locale("SAN GIULIANO NUOVO") == "san_giuliano_nuovo"
    assert board.find_locale("cascina sant anna") == "cascina_sant_anna"  # apostrophe ignored
    assert board.find_locale("castel") == "castel_ceriolo"
    with pytest.raises(LocaleNameError, match="San Giuliano Nuovo, San Giuliano Vecchio"):
        board.find_locale("San Giuliano")


def test_distance(tmp_path, board):
    tiny = load_board(write(tmp_path, TINY))
    assert tiny.distance("alta", "alta") == 0
    assert tiny.distance("alta", "bassa") == 2
    assert tiny.distance("alta", "borgo_nuovo") == 2  # not across the impassable border
    assert tiny.distance("borgo_nuovo", "alta") == 2

    assert board.distance("bormida_bridgehead", "pedrabona") == 1
    assert board.distance("cascina_orbicella", "fontanone_marsh_north") == 2  # the deep Fontanone
    assert board.distance("bormida_bridgehead", "marengo") == 2
    assert board.distance("bormida_bridgehead", "torre_garofoli") == 9
    assert board.distance("torre_garofoli", "bormida_bridgehead") == 9


def test_distance_unreachable(tmp_path):
    text = TINY + """
[[locale]]
id = "isola"
name = "Isola"
capacity = 2
at = [900, 900]

[[locale]]
id = "scoglio"
name = "Scoglio"
capacity = 1
at = [1100, 900]

[[border]]
a = "isola"
b = "scoglio"
a_approach = {}
b_approach = {}
"""
    tiny = load_board(write(tmp_path, text))
    assert tiny.distance("alta", "isola") == 10**6
    assert tiny.distance("isola", "scoglio") == 1


def test_name_matching_remembers_only_what_names_something(board):
    """Players' words are matched against the map's names; what matches nothing
    is not remembered, so a stream of nonsense cannot grow the server's memory."""
    assert board.name_match("marengo")[0] == "marengo"
    assert board.name_match("spin")[0] is not None  # a unique prefix
    before = len(board.__dict__.get("_name_match", {}))
    for n in range(3 * NAME_MISSES):
        assert board.name_match(f"zzz{n}") == (None, ())
    assert len(board.__dict__["_name_match"]) == before
    assert len(board.__dict__["_name_misses"]) <= NAME_MISSES
    assert board.name_match("marengo")[0] == "marengo"
