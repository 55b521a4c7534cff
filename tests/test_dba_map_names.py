"""The DBA map names what orders name (issue 30, §4): for each shipped scenario, each seat of both ways of playing
(one seat a side; a seat for each commander), at the start and after six turns of the bots (the later brigades
come on), the map has, written on it, every place, terrain feature, road and stream an order may name
(names.Names: the table's places), the name of each of the seat's own brigades on the table, and no enemy
brigade's name; no two names overlap by more than a tenth of the smaller, measured with the map's own font
(DejaVu Sans, read by Pillow, not the renderer's estimate); and every name is at least 10 px high on the game
page at 1400 px and at 375 px wide (the page shows the map's picture about 0.85 and 0.8 of its own width
there: tests/test_dba_map_page.py measures it in Chromium)."""

from __future__ import annotations

import re
from functools import lru_cache
from html import unescape

import pytest
from PIL import ImageFont

from pbem.core.game import Game
from pbem.games import ruleset

RULES = ruleset("dba")
LABEL = re.compile(r'<text class="label (\w+)" x="([-\d.]+)" y="([-\d.]+)"[^>]* font-size="(\d+)"[^>]*>([^<]*)</text>')
FONTS = "/usr/share/fonts/truetype/dejavu/"
SMALLEST_ON_PAGE = 0.8  # the picture's width on the page over its own (1400 px and 375 px; measured in Chromium)
TOLERANCE = 0.1


@lru_cache(maxsize=None)
def font(kind: str, size: int):
    face = {"brigade": "DejaVuSans-Bold.ttf", "feature": "DejaVuSans-Oblique.ttf",
            "road": "DejaVuSans-Oblique.ttf"}.get(kind, "DejaVuSans.ttf")
    return ImageFont.truetype(FONTS + face, size)


def labels(svg: str) -> list[tuple[str, str, tuple[float, float, float, float], int]]:
    """(kind, text, its box as DejaVu sets it, font size) of every name on the map."""
    out = []
    for kind, x, y, size, text in LABEL.findall(svg):
        text, x, y, size = unescape(text), float(x), float(y), int(size)
        left, top, right, bottom = font(kind, size).getbbox(text, anchor="ms")  # the middle of the baseline
        out.append((kind, text, (x + left, y + top, x + right, y + bottom), size))
    return out


def overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


def area(box) -> float:
    return (box[2] - box[0]) * (box[3] - box[1])


@lru_cache(maxsize=None)
def position(name: str, command: str, turns: int) -> Game:
    """The game of scenario ``name`` (``command``: commanders or kriegsspiel) at the start (``turns`` 0) or after
    six turns of bot play; played when a test first asks for it (not while the module is collected: each
    worker of the suite collects every module)."""
    scenario = RULES.load_scenario(RULES.scenarios()[name])
    options = {} if command == "commanders" else {"command": command}
    game = Game(RULES, scenario, 7, options=options)
    bot = RULES.bots()["bot"]
    while game.day < turns and not game.over:
        for seat in game.turn().seats:
            game.submit(seat, bot.orders(scenario, game.view(seat), 7) + "FINAL\n")
        game.advance()
    return game


POSITIONS = [pytest.param(name, command, turns, id=f"{name}-{command}-turn{turns + 1}")
             for name in RULES.scenarios() for command in ("commanders", "kriegsspiel") for turns in (0, 6)]


@pytest.mark.parametrize("name, command, turns", POSITIONS)
def test_every_name_an_order_may_use_is_on_the_map_and_readable(name, command, turns):
    game = position(name, command, turns)
    scenario, options = game.scenario, game.options
    table = game.state.table(scenario)
    checked = 0
    for seat in RULES.seats(scenario, options):
        view = game.view(seat.id)
        svg = str(RULES.render_svg(scenario, view, seat.title))
        found = labels(svg)
        written = [text for _, text, _, _ in found]
        for place in table.places:  # every place, feature, road and stream an order may name
            assert place in written, (seat.id, place)
        own = {e["brigade"] for e in view["elements"]}
        names = {b["id"]: b["name"] for b in view["brigades"]}
        for bid in own:
            assert names[bid] in written, (seat.id, bid)
        for b in table.brigades.values():
            if b.side != seat.side:
                assert b.name not in svg, (seat.id, b.name)  # nothing says which enemy brigade it is
        for i, (kind, text, box, size) in enumerate(found):
            assert size * SMALLEST_ON_PAGE >= 10, (text, size)
            for other_kind, other, other_box, _ in found[i + 1:]:
                shared = overlap(box, other_box)
                assert shared <= TOLERANCE * min(area(box), area(other_box)), (seat.id, text, other, shared)
        checked += 1
    assert checked == len(RULES.seats(scenario, options))


def test_a_name_is_written_even_where_every_spot_is_taken():
    """The placer never drops a name: with one spot only, the second name goes on it over the first."""
    from pbem.games.dba.labels import Placer

    placer = Placer((0, 0, 1100, 800))
    first = placer.place("Gemioncourt", "feature", [(400, 300)])
    second = placer.place("Piraumont", "feature", [(400, 300)])
    assert [first.text, second.text] == ["Gemioncourt", "Piraumont"] and second.x == first.x
    third = placer.place("Thyle", "place", [(400, 300), (400, 500)])
    assert (third.x, third.y) == (400, 500)  # the free spot, not the taken one
    edge = placer.place("Nivelles", "place", [(2, 400)])
    assert edge.box[0] >= 0  # moved inside the table


PIECE = re.compile(r'<polygon points="([-\d.,\s]+)" fill="(#2a4d9b|#b22222)"')  # an element, own or enemy
COMMANDER = re.compile(r'<circle cx="([-\d.]+)" cy="([-\d.]+)" r="4" fill="#fff"')


def pieces(svg: str) -> list[tuple[float, float, float, float]]:
    """The box of every piece drawn on the map: each element (the seat's, and the enemy it sees or saw) and each
    commander's ring, read from the SVG (its colours: the sides' own)."""
    out = []
    for coords, _ in PIECE.findall(svg):
        xs, ys = zip(*((float(a), float(b)) for a, b in (p.split(",") for p in coords.split())))
        out.append((min(xs), min(ys), max(xs), max(ys)))
    for cx, cy in COMMANDER.findall(svg):
        x, y = float(cx), float(cy)
        out.append((x - 5, y - 5, x + 5, y + 5))  # the ring (r 4) and its stroke
    return out


@pytest.mark.parametrize("name, command, turns", POSITIONS)
def test_no_name_on_the_map_covers_a_piece(name, command, turns):
    """No name (a place's, a feature's, a road's, a brigade's, a commander's) is written over a piece: a name over
    an element hides it, and the element under it makes the name hard to read. The map is one picture, shown
    whole at any width (0.85 of itself at 1400 px, 0.8 at 375 px: tests/test_dba_map_page.py), so what covers what
    is the same at both widths; measured here with the map's own font, as test_every_name_... above."""
    game = position(name, command, turns)
    scenario, options = game.scenario, game.options
    drawn = 0
    for seat in RULES.seats(scenario, options):
        view = game.view(seat.id)
        svg = str(RULES.render_svg(scenario, view, seat.title))
        found, under = labels(svg), pieces(svg)
        assert len(under) >= len(view["elements"])
        for kind, text, box, _ in found:
            for piece in under:
                shared = overlap(box, piece)
                assert shared <= TOLERANCE * min(area(box), area(piece)), (
                    f"{seat.id}: the {kind} name {text!r} covers a piece at {tuple(round(v) for v in piece)}")
        drawn += len(under)
    assert drawn
