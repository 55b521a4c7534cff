"""The map image: geometry of locales and approaches, the SVG of a side's view, the PNG."""

from __future__ import annotations

from pbem.core.chance import Chance

import re
import struct
import zlib
from pathlib import Path
from xml.etree import ElementTree as ET

import pytest

from pbem.games.marengo import load_scenario, setup, view
from pbem.games.simmons.board import board_from_dict
from pbem.games.marengo.render import approach_segment, locale_polygons, render_svg
from pbem.render import png_size, render_png
from pbem.render import png as png_module

FIXTURES = Path(__file__).parent / "fixtures"
MAPS = Path(__file__).parent.parent / "maps"
SVG = "{http://www.w3.org/2000/svg}"
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"


# -- geometry -----------------------------------------------------------------

def grid_board(shapes: dict | None = None, width=300, height=300):
    """A 3 x 3 grid of locales g00..g22 (column, row) 100 apart, every neighbour bordering."""
    locales, borders = [], []
    for r in range(3):
        for c in range(3):
            spec = {"id": f"g{c}{r}", "capacity": 2, "at": [50 + 100 * c, 50 + 100 * r]}
            if shapes and spec["id"] in shapes:
                spec["shape"] = shapes[spec["id"]]
            locales.append(spec)
            if c < 2:
                borders.append({"a": f"g{c}{r}", "b": f"g{c + 1}{r}", "a_approach": {}, "b_approach": {}})
            if r < 2:
                borders.append({"a": f"g{c}{r}", "b": f"g{c}{r + 1}", "a_approach": {}, "b_approach": {}})
    return board_from_dict({"map": {"width": width, "height": height}, "locale": locales, "border": borders})


def as_square(poly):
    return sorted((round(x, 6), round(y, 6)) for x, y in poly)


def test_voronoi_cells_of_a_grid_are_its_squares():
    polygons = locale_polygons(grid_board())
    assert set(polygons) == {f"g{c}{r}" for c in range(3) for r in range(3)}
    for c in range(3):
        for r in range(3):
            x0, y0 = 100 * c, 100 * r
            expected = [(x0, y0), (x0 + 100, y0), (x0 + 100, y0 + 100), (x0, y0 + 100)]
            assert as_square(polygons[f"g{c}{r}"]) == as_square(expected)


def test_approach_segment_is_the_shared_edge():
    board = grid_board()
    polygons = locale_polygons(board)
    seg = approach_segment(board, polygons, "g11", "g21")  # centre and its east neighbour
    assert sorted((round(x, 6), round(y, 6)) for x, y in seg) == [(200, 100), (200, 200)]
    seg = approach_segment(board, polygons, "g01", "g00")  # west-middle and the corner above it
    assert sorted((round(x, 6), round(y, 6)) for x, y in seg) == [(0, 100), (100, 100)]


def test_shapes_are_used_and_unshared_borders_get_a_stand_in():
    # g00 drawn as a small diamond that touches nobody: its approach to g10 is a short segment
    # across the line between the two centres, at its midpoint
    diamond = [[50, 20], [80, 50], [50, 80], [20, 50]]
    board = grid_board({"g00": diamond})
    polygons = locale_polygons(board)
    assert polygons["g00"] == [(50.0, 20.0), (80.0, 50.0), (50.0, 80.0), (20.0, 50.0)]
    (x0, y0), (x1, y1) = approach_segment(board, polygons, "g00", "g10")
    assert (x0 + x1) / 2 == pytest.approx(100) and (y0 + y1) / 2 == pytest.approx(50)
    assert x0 == pytest.approx(x1)  # perpendicular to the horizontal line between the centres
    assert abs(y1 - y0) == pytest.approx(40)


def test_shared_edge_of_shapes_is_found_when_vertices_differ():
    # two rectangles side by side whose common side is split differently on each
    left = [[0, 0], [100, 0], [100, 40], [100, 100], [0, 100]]
    right = [[100, 0], [200, 0], [200, 100], [100, 100]]
    board = grid_board({"g00": left, "g10": right})
    seg = approach_segment(board, locale_polygons(board), "g00", "g10")
    # the longest common piece
    assert sorted((round(x, 6), round(y, 6)) for x, y in seg) == [(100, 40), (100, 100)]


# -- the SVG of a view ----------------------------------------------------------

@pytest.fixture(scope="module")
def scenario():
    return load_scenario(FIXTURES / "render-scenario.toml")


def battle(scenario):
    """Austrians engaged along the main road and to the south; one French artillery revealed."""
    state = setup(scenario, Chance(7))

    def put(bid, locale, facing=None):
        block = state.blocks[bid]
        block.status, block.locale, block.facing = "map", locale, facing

    put("A1", "lobbi", "villanova")
    put("A2", "lobbi", "villanova")
    put("A3", "lobbi")
    put("A4", "frugarolo")
    put("A5", "piovera", "cantalupo")
    put("F1", "villanova", "lobbi")
    put("F5", "villanova")
    state.blocks["F5"].bombard = "lobbi"  # declared: it stands revealed
    put("F2", "cantalupo", "piovera")
    put("F3", "cantalupo", "piovera")
    put("F4", "torregarof")
    state.blocks["F2"].activated = True
    state.day = 5
    state.morale = {"austria": 9, "france": 4}
    state.demoralised = {"austria": False, "france": True}
    state.last_moves = [
        {"from": ["lobbi", None], "to": ["lobbi", "villanova"], "side": "austria", "kind": "move", "count": 2},
        {"from": ["frugarolo", None], "to": ["frugarolo", None], "side": "austria", "kind": "entry", "count": 1,
         "entry": "west"},
        {"from": ["sale", "piovera"], "to": ["sale", None], "side": "austria", "kind": "recoil", "count": 1},
        {"from": ["piovera", "cantalupo"], "to": ["cantalupo", "piovera"], "side": "austria",
         "kind": "assault", "count": 1},
        {"from": ["torregarof", None], "to": ["bosco", None], "side": "france", "kind": "retreat", "count": 1},
        {"from": ["retorto", None], "to": ["torregarof", None], "side": "france", "kind": "road", "count": 1,
         "path": ["retorto", "bosco", "torregarof"]},
        {"from": ["villanova", None], "to": ["retorto", None], "side": "france", "kind": "road", "count": 1},
    ]
    return state


def parse(svg: str) -> ET.Element:
    return ET.fromstring(svg)


def block_rects(root: ET.Element) -> list[ET.Element]:
    return list(root.iter(SVG + "rect"))


def on_map(state, side=None):
    return [b for b in state.blocks.values() if b.on_map and (side is None or b.side == side)]


def words(svg: str, word: str) -> bool:
    return re.search(rf"(?<![\w-]){re.escape(word)}(?![\w-])", svg) is not None


def test_svg_of_a_side_parses_and_has_one_rect_per_visible_block(scenario):
    state = battle(scenario)
    for side in ("austria", "france"):
        v = view(scenario, state, side)
        svg = render_svg(scenario.board, v, title="Game <12> & co")
        root = parse(svg)
        assert root.tag == SVG + "svg"
        rects = block_rects(root)
        assert len(rects) == len(on_map(state)) == len(v["enemy"]) + len(on_map(state, side))
        own = [r for r in rects if "own" in r.get("class", "")]
        assert sorted(r.get("data-block") for r in own) == sorted(b.id for b in on_map(state, side))
        for b in on_map(state, side):
            assert words(svg, b.id)


def test_svg_never_shows_an_enemy_id_or_name(scenario):
    state = battle(scenario)
    for side, foe in (("austria", "france"), ("france", "austria")):
        svg = render_svg(scenario.board, view(scenario, state, side))
        for block in state.blocks.values():
            if block.side == foe:
                assert not words(svg, block.id), (side, block.id)
                assert block.name not in svg, (side, block.name)
        assert "<!--" not in svg and "<title" not in svg and "<metadata" not in svg
        root = parse(svg)
        for el in root.iter():
            if "enemy" in el.get("class", ""):
                assert set(el.attrib) <= {"class", "x", "y", "width", "height", "rx", "fill", "stroke",
                                          "stroke-width"}, el.attrib
                assert foe in el.get("class")


def test_enemy_faces_show_only_when_revealed(scenario):
    state = battle(scenario)
    root = parse(render_svg(scenario.board, view(scenario, state, "austria")))
    faces = []
    for g in root.iter(SVG + "g"):
        children = list(g)
        if children and children[0].tag == SVG + "rect" and "enemy" in children[0].get("class", ""):
            assert set(g.attrib) == {"transform"}
            faces.append([c.tag.replace(SVG, "") for c in children[1:]])
    assert len(faces) == 5
    assert faces.count([]) == 4  # hidden: a plain bar
    assert ["circle"] in faces  # the revealed artillery: one ● for strength 1
    # the French see their own artillery as artillery too, with its id
    svg = render_svg(scenario.board, view(scenario, state, "france"))
    assert 'data-block="F5"' in svg


def test_svg_of_a_side_does_not_depend_on_which_enemy_block_is_where(scenario):
    """Swapping two enemy blocks of the same face-down look changes nothing in the picture."""
    one = battle(scenario)
    two = battle(scenario)
    # F2 and F3 both block cantalupo>piovera; F1 blocks villanova>lobbi: swap F1 and F2 around
    for bid, other in (("F1", "F2"), ("F2", "F1")):
        src = one.blocks[other]
        two.blocks[bid].locale, two.blocks[bid].facing = src.locale, src.facing
    assert render_svg(scenario.board, view(scenario, one, "austria")) == \
        render_svg(scenario.board, view(scenario, two, "austria"))


def test_every_move_of_the_last_day_gets_an_arrow(scenario):
    state = battle(scenario)
    root = parse(render_svg(scenario.board, view(scenario, state, "austria")))
    heads = [p for p in root.iter(SVG + "polygon")  # arrowheads: four points, edged with paper
             if len(p.get("points").split()) == 4 and p.get("stroke") == "#f3ead2"]
    assert len(heads) == len(state.last_moves)
    # the road move with no path follows the road: more than a straight line
    state.last_moves = [state.last_moves[-1]]
    svg = render_svg(scenario.board, view(scenario, state, "austria"))
    assert any(len(re.findall(r"C", p.get("d", ""))) >= 2 for p in parse(svg).iter(SVG + "path"))


def test_own_artillery_bombardment_and_long_ids(scenario):
    state = battle(scenario)
    state.blocks["A4"].bombard = "lobbi"
    state.blocks["A5"].id = "A5-with-a-long-id"
    state.blocks["A5-with-a-long-id"] = state.blocks.pop("A5")
    svg = render_svg(scenario.board, view(scenario, state, "austria"))
    root = parse(svg)
    assert any(c.get("fill") == "none" for c in root.iter(SVG + "circle"))  # the gun-sight on the target
    labels = [t for t in root.iter(SVG + "text") if t.text == "A5-with-a-long-id"]
    assert labels and labels[0].get("textLength")  # squeezed into its block


def test_moderator_sees_every_block_with_its_id(scenario):
    state = battle(scenario)
    svg = render_svg(scenario.board, view(scenario, state, None))
    root = parse(svg)
    rects = block_rects(root)
    assert len(rects) == len(on_map(state))
    assert sorted(r.get("data-block") for r in rects) == sorted(b.id for b in on_map(state))


def test_unactivated_french_blocks_are_paler(scenario):
    state = battle(scenario)
    root = parse(render_svg(scenario.board, view(scenario, state, "france")))
    fills = {r.get("data-block"): r.get("fill") for r in block_rects(root) if r.get("data-block")}
    assert fills["F1"] != fills["F2"]  # F1 still unactivated, F2 activated
    assert fills["F2"] == fills["F3"] or state.blocks["F3"].activated is False


def test_opening_position_renders_for_both_sides(scenario):
    state = setup(scenario, Chance(3))
    for side in ("austria", "france", None):
        v = view(scenario, state, side)
        root = parse(render_svg(scenario.board, v))
        assert len(block_rects(root)) == len(on_map(state))


# -- PNG ------------------------------------------------------------------------

def png_chunks(data: bytes):
    assert data.startswith(PNG_SIGNATURE)
    pos = 8
    while pos < len(data):
        length, kind = struct.unpack(">I4s", data[pos:pos + 8])
        body = data[pos + 8:pos + 8 + length]
        crc = struct.unpack(">I", data[pos + 8 + length:pos + 12 + length])[0]
        assert zlib.crc32(kind + body) & 0xFFFFFFFF == crc
        yield kind, body
        pos += 12 + length


def check_png(data: bytes, width: int = 1400):
    assert data[:8] == PNG_SIGNATURE
    kinds = [k for k, _ in png_chunks(data)]
    assert kinds[0] == b"IHDR" and kinds[-1] == b"IEND"
    assert set(kinds) <= {b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND"}  # no text, time, or other metadata
    w, h = png_size(data)
    assert w == width and 0.6 * width < h < 1.5 * width
    assert len(data) < 400_000


def test_png_is_a_1400_pixel_image_without_metadata(scenario):
    svg = render_svg(scenario.board, view(scenario, battle(scenario), "austria"))
    data = render_png(svg)
    check_png(data)
    idat = b"".join(body for kind, body in png_chunks(data) if kind == b"IDAT")
    w, h = png_size(data)
    ihdr = next(body for kind, body in png_chunks(data) if kind == b"IHDR")
    channels = {2: 3, 6: 4}[ihdr[9]]  # RGB (a composed map, pbem.render.layers) or RGBA (resvg's own)
    assert ihdr[8] == 8 and len(zlib.decompress(idat)) == h * (1 + channels * w)  # 8-bit rows, each with its filter byte


def test_png_without_any_font_still_renders(scenario, monkeypatch):
    monkeypatch.setattr(png_module, "font_options", lambda: {"skip_system_fonts": True})
    svg = render_svg(scenario.board, view(scenario, battle(scenario), "france"))
    check_png(render_png(svg, width=700), width=700)


def test_marengo_opening_fits_in_a_mail():
    marengo = load_scenario(MAPS / "marengo.toml")
    state = setup(marengo, Chance(1))
    for side in ("austria", "france"):
        svg = render_svg(marengo.board, view(marengo, state, side))
        assert len(block_rects(parse(svg))) == len(on_map(state))
        check_png(render_png(svg))


def test_the_drawing_is_the_same_in_every_process():
    """Sets iterate in an order that changes with Python's hash seed: nothing drawn may follow it."""
    import os
    import subprocess
    import sys

    script = (
        "import sys; from pbem.games.marengo import load_scenario, setup, view; from pbem.games.marengo.render import render_svg\n"
        "from pbem.core.chance import Chance\n"
        f"sc = load_scenario({str(FIXTURES / 'render-scenario.toml')!r})\n"
        "st = setup(sc, Chance(1))\n"
        "sys.stdout.write(render_svg(sc.board, view(sc, st, 'austria')) + render_svg(sc.board, view(sc, st, None)))\n"
    )
    outputs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                              env={**os.environ, "PYTHONHASHSEED": seed}).stdout for seed in ("1", "2", "3")}
    assert len(outputs) == 1


def test_the_map_marks_what_map_clicks_need_and_nothing_of_the_enemy(scenario):
    """Own blocks carry where they stand as orders write it; every locale and approach its name;
    the places' names read back as the parser reads them; the click grammar's verbs are whole."""
    from pbem.games.marengo.clicks import MAP_CLICKS

    state = battle(scenario)
    board = scenario.board
    for side in ("austria", "france"):
        root = parse(render_svg(board, view(scenario, state, side)))
        own = [r for r in block_rects(root) if r.get("data-block")]
        assert len(own) == len(on_map(state, side))
        for rect in own:
            block = state.blocks[rect.get("data-block")]
            at = rect.get("data-at")
            locale, _, facing = at.partition(">")
            assert board.find_locale(locale) == block.locale, at
            assert (board.find_locale(facing) if facing else None) == block.facing, at
            assert rect.get("data-type") == block.type
        places = {el.get("data-locale") for el in root.iter() if el.get("data-locale")}
        assert {board.find_locale(name) for name in places} == set(board.locales)
        approaches = {el.get("data-approach") for el in root.iter() if el.get("data-approach")}
        assert len(approaches) == len([k for k in board.approaches if all(x in board.locales for x in k)])
    for verb in MAP_CLICKS["verbs"]:
        assert "{blocks}" in verb["line"] and verb["min"] <= verb["max"]
        assert ("{targets}" in verb["line"]) == bool(verb["max"])
