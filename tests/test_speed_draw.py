"""Issue 15, drawing: a map drawn as a kept board with the day's pieces over it is the same picture
as the whole document rasterised (within anti-aliasing), for every game; the board is drawn once and
kept within its bound. No timing is asserted: `pbem bench --draw` prints them."""

from __future__ import annotations

import pickle
import re

import pytest

from pbem.games import ruleset, rulesets
from pbem.render import png_size, render_png, render_whole_png
from pbem.render.layers import BOARDS, BoardCache, LayeredSVG, at_width, compose
from pbem.render.png import difference, rasterise_image
from pbem.tools.selfplay import play_game, simple_players

MEAN, SHARE = 0.5, 0.001  # at most half a level on average, 0.1 % of pixels off by more than 32


def mid_game_maps(name: str, days: int = 5) -> list[str]:
    rules = ruleset(name)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    game = play_game(rules, scenario, 3, simple_players(rules, scenario, {}), days=days, options={})
    return [rules.render_svg(scenario, game.view(seat), title="test") for seat in game.seats()]


@pytest.mark.parametrize("name", sorted(rulesets()))
def test_the_map_as_drawn_equals_the_whole_render_for_every_game(name):
    for svg in mid_game_maps(name):
        drawn, whole = render_png(svg), render_whole_png(svg)
        assert png_size(drawn) == png_size(whole)
        mean, share = difference(drawn, whole)
        assert mean <= MEAN and share <= SHARE, (name, mean, share)


def test_a_marengo_map_is_layered_and_its_board_is_the_same_every_day():
    first, later = mid_game_maps("marengo", 1)[0], mid_game_maps("marengo", 8)[0]
    assert isinstance(first, LayeredSVG) and isinstance(later, LayeredSVG)
    assert str(first) != str(later)  # the pieces moved
    assert first.layers.board == later.layers.board  # the printed board did not
    assert first.layers.variants  # the locales held are washed in their side's colour, from a variant


def sized_alike(svg: str) -> str:
    """An SVG with its picture's height left out (the root's height and viewBox, the paper's rect)."""
    svg = re.sub(r'(<svg[^>]*\sheight=")[\d.]+(")', r"\1H\2", svg, count=1)
    svg = re.sub(r'(viewBox="0 0 [\d.]+ )[\d.]+(")', r"\1H\2", svg, count=1)
    return re.sub(r'(<rect width="[\d.]+" height=")[\d.]+(" fill="#f3ead2")', r"\1H\2", svg, count=1)


@pytest.mark.parametrize("name", ["napoleon1815", "dba"])
def test_a_map_drawn_narrower_than_the_mail_is_layered_and_scaled_as_resvg_scales_it(name):
    first, later = mid_game_maps(name, 1)[0], mid_game_maps(name, 8)[0]
    assert isinstance(first, LayeredSVG) and str(first) != str(later)
    # the printed board is the same every day but for the picture's height (Napoleon 1815's inset of a big
    # stack under the map, a battle board more: one board a height, each drawn once)
    assert sized_alike(first.layers.board) == sized_alike(later.layers.board)
    assert ">test</text>" not in first.layers.board and ">test</text>" in first.layers.overlay  # the title: the overlay
    sized = at_width(first.layers.board, 1400)
    assert 'width="1400"' in sized and 'preserveAspectRatio="none"' in sized
    assert render_whole_png(sized) == render_whole_png(str(first.layers.board), 1400)  # resvg's own scaling
    assert at_width(sized, 1400) == sized  # drawn at its own size already: unchanged


def test_the_board_is_drawn_once_and_the_cache_keeps_its_bound():
    svgs = mid_game_maps("marengo", 2) + mid_game_maps("marengo", 6)
    cache = BoardCache(keep=50)
    for svg in svgs:
        compose(svg.layers, 1400, rasterise_image, cache)
    boards = {svg.layers.board for svg in svgs}
    variants = {v for svg in svgs for v, _ in svg.layers.variants}
    regions = {svg.layers.regions for svg in svgs}
    assert len(boards) == 1
    assert cache.drawn == len(boards) + len(variants) + len(regions)  # nothing drawn twice
    small = BoardCache(keep=1)
    for svg in svgs:
        compose(svg.layers, 1400, rasterise_image, small)
    assert len(small) == 1


def test_a_layered_map_reaches_the_drawing_worker_as_itself():
    svg = mid_game_maps("triomphe", 2)[0]
    back = pickle.loads(pickle.dumps(svg))
    assert isinstance(back, LayeredSVG) and back == svg and back.layers == svg.layers


def test_a_difference_is_seen():
    svg = mid_game_maps("marengo", 3)
    a, b = render_png(svg[0]), render_png(svg[1])  # the two sides' views
    assert difference(a, a) == (0.0, 0.0)
    assert difference(a, b)[1] > SHARE
    BOARDS.clear()


# -- the drawing workers: one a core, below the mail path -------------------------------------

def test_a_burst_of_reports_draws_each_map_once(tmp_path):
    """Without drawing workers (``service.drawing`` None) each map of a burst is drawn here, once, and each
    report queued. (With workers a map is drawn whole in one of them while the reports of the job before are
    written: tests/test_round_reports.py; the batches this test once timed are gone, issue 35 item 1.)"""
    from websupport import ANNA, FRED, SMALL, Site

    service = Site(tmp_path).service
    games = [service.create_game(f"Burst {i}", {"france": ANNA, "austria": FRED}, scenario=SMALL, seed=i,
                                 settings={"hours": 48})[0] for i in range(3)]
    service.run_jobs()  # the welcomes
    for game_id in games:
        side = service.game(game_id).turn().seats[0]
        assert service.submit(game_id, side, "FINAL\n").ok
        assert service.resolve_next(game_id) == 0  # its first day resolved
    drawn = []

    def rasterise(svg):
        drawn.append(svg)
        return b"png"

    assert service.drawing is None
    service.rasterise = rasterise
    service.run_jobs()
    assert len(drawn) == 6 and len(set(drawn)) == 6  # two seats a game, each map drawn once
    rows = service.store.db.execute("SELECT COUNT(*) FROM outbox WHERE kind = 'report'").fetchone()[0]
    assert rows == 6


def test_the_drawing_workers_are_one_a_core_below_the_servers_priority(tmp_path):
    import os

    from pbem.server.config import Config
    from pbem.server.serve import DRAWERS, Server

    config = Config(instance=str(tmp_path), web_port=0, smtp_port=0, smtp_host="127.0.0.1", tick_seconds=5,
                    demo=False, from_addr="pbem@draw.invalid", domain="draw.invalid", secret_key="draw-test",
                    relay_host="127.0.0.1", relay_port=9)
    server = Server(config)
    try:
        assert DRAWERS == (os.cpu_count() or 1)
        pids = {server.drawer.submit(os.getpid).result(timeout=60) for _ in range(4 * DRAWERS)}
        assert server.drawer.pool._max_workers == DRAWERS  # the current pool (DrawingPool makes a new one if it breaks)
        mine = os.getpriority(os.PRIO_PROCESS, 0)
        assert pids and all(os.getpriority(os.PRIO_PROCESS, pid) > mine for pid in pids)
    finally:
        server.stop()


def test_the_memory_measure_keeps_the_cache_bound():
    from pbem.tools.measure import memory

    lines = memory(games=9, cache=3, logs=2)
    assert lines[0].startswith("memory: 9 active marengo games") and "cache of 3" in lines[0]
    assert lines[-1].startswith("  after 9 games: 3 cached, resident ")
    assert [line.split(":")[0] for line in lines[1:]] == ["  after 3 games", "  after 4 games", "  after 6 games",
                                                           "  after 9 games"]


@pytest.mark.parametrize("width", ["1400", "1100", "1400.6", "1400px", "100%", None])
def test_the_width_read_from_the_root_is_resvgs_or_nothing(width):
    """The map's size read from its root tag (not by resvg parsing the whole SVG) is resvg's own when the
    root gives a whole number of pixels; for anything else it says nothing and resvg is asked."""
    from pbem.render.layers import root_width
    from pbem.render.png import _kept_renderer

    given = f' width="{width}"' if width else ""
    svg = (f'<svg xmlns="http://www.w3.org/2000/svg" stroke-width="3"{given} height="100" viewBox="0 0 1400 100">'
           '<rect width="10" height="10"/></svg>')
    read = root_width(svg)
    assert (read is not None) == (width in ("1400", "1100"))
    if read is not None and _kept_renderer() is not None:
        module, db, _ = _kept_renderer()
        assert read == module.svg_intrinsic_size(svg, db)[0]


def test_a_variant_pasted_within_its_regions_box_gives_the_whole_paste():
    """compose pastes a board's variant only inside its mask's box: the picture is the one a paste of
    the whole variant through the whole mask gives."""
    from PIL import Image

    svg = mid_game_maps("marengo", days=8)[0]
    layers = svg.layers
    base = BOARDS.image(at_width(layers.board, 1400), 1400, rasterise_image, "RGBA").copy()
    regions = BOARDS.image(at_width(layers.regions, 1400), 1400, rasterise_image, "L")
    for variant_svg, shown in layers.variants:
        mask = regions.point([255 if n in set(shown) else 0 for n in range(256)])
        base.paste(BOARDS.image(at_width(variant_svg, 1400), 1400, rasterise_image, "RGBA"), (0, 0), mask)
    base.alpha_composite(rasterise_image(at_width(layers.overlay, 1400), 1400, background=None))
    composed = compose(layers, 1400, rasterise_image)
    assert any(shown for _, shown in layers.variants)  # a variant was pasted
    assert isinstance(composed, Image.Image) and composed.tobytes() == base.tobytes()
