"""Napoleon 1815's map as a player uses it (issue 29, §4): every block of a stack is drawn, however big
the stack (a stack of more than eight in an inset under the map, joined to its town), and has its click
target on its bar; the towns' names are drawn over the stacks on a halo; the setup shows the border, the
Anglo-Prussian setup line, where each army sets up, and a legend. The browser test opens the game page
at 1400 and 375 px in headless Chromium and measures each button against the bar drawn for it; its
screenshots are docs/images/n1815-waterloo-stack-*.png.

The largest stack at Waterloo is made by moving the whole French army there in the position (no game
played by its rules brings 24 blocks to one town within a test's time): in the browser test, in the
server's own cached game, whose page, map and click regions are then the server's as they are for any
position."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from pbem.core.game import Game
from pbem.games import ruleset
from pbem.tools.pages import ADMIN
from test_pages import browser, sign_in, site  # noqa: F401  (fixtures)

RULES = ruleset("napoleon1815")
SCENARIO = RULES.load_scenario(next(iter(RULES.scenarios().values())))
IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
BAR = re.compile(r'<rect x="([-\d.]+)" y="([-\d.]+)" width="70" height="12"[^>]*/>\s*<text[^>]*>([^<]*)</text>')


def french_turn(game: Game) -> Game:
    while game.state.turn < 2:
        for seat in game.turn().seats:
            game.submit(seat, "FINAL")
        game.advance()
    return game


def at_waterloo(game: Game) -> list[str]:
    """The whole French army moved to Waterloo in the position: the largest stack a test can make."""
    moved = []
    for b in game.state.blocks.values():
        if b.army == "french" and b.town is not None:
            b.town = "waterloo"
            moved.append(b.id)
    return sorted(moved)


def drawn_bars(svg: str) -> dict[str, tuple[float, float]]:
    return {label.split()[0]: (float(x), float(y)) for x, y, label in BAR.findall(svg)}


def test_every_block_of_the_largest_stack_is_drawn_with_its_click_target_on_it():
    game = french_turn(Game(RULES, SCENARIO, 1))
    stack = at_waterloo(game)
    assert len(stack) > 8  # more than the eight a town's stack used to show ("+16 more")
    view = game.view("french")
    svg = str(RULES.render_svg(SCENARIO, view, "g"))
    bars = drawn_bars(svg)
    assert set(stack) <= set(bars)
    assert "more" not in svg
    regions = RULES.map_clicks(SCENARIO, view)["regions"]
    boxes = {b["id"]: b["box"] for b in regions["blocks"]}
    for bid in stack:
        cx, cy, w, h, _ = boxes[bid]
        assert (round(cx - w / 2, 1), round(cy - h / 2, 1)) == bars[bid], bid
    height = float(re.search(r'<svg[^>]*height="([\d.]+)"', svg)[1])
    assert regions["viewbox"] == [0, 0, 1100, height]  # the click layer spans the whole picture it lies on
    assert '<g class="inset" data-town="waterloo">' in svg


def test_the_towns_names_are_drawn_over_the_stacks_on_a_halo():
    game = french_turn(Game(RULES, SCENARIO, 1))
    svg = str(RULES.render_svg(SCENARIO, game.view("french"), "g"))
    last_bar = max(m.end() for m in BAR.finditer(svg))
    for town in SCENARIO.board.towns.values():
        name = re.search(rf'<text [^>]*paint-order="stroke"[^>]*>{re.escape(town.name)}</text>', svg)
        assert name and name.start() > last_bar, town.name


def test_the_setup_map_shows_the_border_the_setup_line_where_each_army_sets_up_and_a_legend():
    game = Game(RULES, SCENARIO, 1)
    svg = str(RULES.render_svg(SCENARIO, game.view("prussian"), "g"))
    assert '<polyline class="border"' in svg and '<polyline class="setup-line"' in svg
    zones = {z: svg.count(f'data-setup="{z}"') for z in ("west", "east", "france")}
    towns = SCENARIO.board.towns.values()
    assert zones == {"west": sum(t.zone == "west" and t.country != "france" for t in towns),
                     "east": sum(t.zone == "east" and t.country != "france" for t in towns),
                     "france": sum(t.country == "france" for t in towns)}
    legend = svg.split('<g class="legend">', 1)[1].split("</g>", 1)[0]
    for words in ("major road", "river crossing", "supply city", "border", "setup line", "Anglo-Dutch set up",
                  "Prussians set up", "French set up"):
        assert f">{words}<" in legend
    later = french_turn(Game(RULES, SCENARIO, 1))  # after the setup: the legend without the setup's marks
    campaign = str(RULES.render_svg(SCENARIO, later.view("french"), "g"))
    assert 'class="border"' not in campaign and ">setup line<" not in campaign and ">major road<" in campaign


BUTTONS = """
    // each block button's centre, and where its bar's centre is on the picture (the map's image)
    const img = document.querySelector("#map-view .map-frame img"), r = img.getBoundingClientRect();
    const vb = JSON.parse(document.querySelector("#map-view .click-layer").dataset.viewbox);
    const out = {};
    for (const b of document.querySelectorAll("#map-view .click-layer button.block")) {
      const q = b.getBoundingClientRect();
      out[b.dataset.block] = [q.left + q.width / 2, q.top + q.height / 2, r.left, r.top, r.width / vb[2]];
    }
    return out;"""


@pytest.mark.parametrize("width", [1400, 375])
def test_the_game_page_gives_every_block_of_the_largest_stack_its_button_on_its_bar(site, browser, width):
    service = site.service
    seats = ("french", "anglo-dutch", "prussian")
    game_id, _ = service.create_game(f"Waterloo stack {width}", {s: ADMIN for s in seats}, game="napoleon1815",
                                     seed=1)
    for _ in range(2):
        for seat in service.game(game_id).turn().seats:
            assert service.submit(game_id, seat, "FINAL\n").ok
        service.resolve_next(game_id)
    game = service.game(game_id)  # the server's cached game: its page and map show this position
    stack = at_waterloo(game)
    bars = drawn_bars(service.map_svg(game_id, None, "french"))
    sign_in(browser, site, ADMIN)
    browser.set_window_size(width, 900)
    browser.get(f"{site.url}/games/{game_id}?side=french")
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map-view .click-layer"))
    WebDriverWait(browser, 30).until(lambda d: d.execute_script(
        "const i = document.querySelector('#map-view .map-frame img'); return i.complete && i.naturalWidth > 0"))
    for zoom in ("none", "fit"):  # the map as the page first shows it, then fitted to the window
        if zoom == "fit":
            browser.find_element(By.CSS_SELECTOR, '[data-zoom="fit"]').click()
        buttons = browser.execute_script(BUTTONS)
        assert set(stack) <= set(buttons)
        for bid in stack:
            bx, by, left, top, scale = buttons[bid]
            x, y = bars[bid]
            assert abs(bx - (left + (x + 35) * scale)) < 1.5 and abs(by - (top + (y + 6) * scale)) < 1.5, (
                bid, width, zoom)
    inset = browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{stack[0]}"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'nearest'})", inset)
    IMAGES.mkdir(exist_ok=True)
    browser.find_element(By.ID, "map-view").screenshot(str(IMAGES / f"n1815-waterloo-stack-{width}.png"))


def test_a_round_order_is_given_by_clicking_a_block_on_the_battle_board(site, browser):
    """A live game's round sub-turn on the game page: a block of the seat's on the battle board is clicked
    (its button sits on its bar of the board), then an order; the line is written and the check takes it."""
    from test_game_page_clicks import checked, lines, offered, open_page, verb

    service = site.service
    seats = ("french", "anglo-dutch", "prussian")
    game_id, _ = service.create_game("Board clicks", {s: ADMIN for s in seats}, game="napoleon1815", seed=1,
                                     options={"players": "2", "battle": "live"})
    bot = RULES.bots()["bot"]
    for _ in range(200):
        game = service.game(game_id)
        if game.state.pending and game.state.pending["stage"] == "round":
            break
        for seat in game.turn().seats:
            assert service.submit(game_id, seat, bot.orders(game.scenario, game.view(seat), 1) + "FINAL\n").ok
        service.resolve_next(game_id)
    game = service.game(game_id)
    seat = game.turn().seats[0]
    grammar = RULES.map_clicks(game.scenario, game.view(seat))
    on_board = [b for b in grammar["regions"]["blocks"] if b["data"].get("board") == "yes"]
    assert on_board and {v["name"] for v in grammar["verbs"]} >= {"engage", "fire", "hold", "shift-reserve"}
    svg = service.map_svg(game_id, None, seat)
    bars = drawn_bars(svg)
    for b in on_board:  # each on its bar of the board (the board's bars come after the map's in the picture)
        cx, cy, w, h, _ = b["box"]
        assert re.search(rf'<rect x="{cx - w / 2:g}(?:\.0)?" y="{cy - h / 2:g}(?:\.0)?" width="70" height="12"[^>]*/>'
                         rf'\s*<text[^>]*>{re.escape(b["id"])} ', svg), b
    assert bars
    sign_in(browser, site, ADMIN)
    text = open_page(browser, site, game_id, seat)
    block = on_board[0]["id"]
    button = browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{block}"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'})", button)
    button.click()
    assert "hold" in offered(browser, block)
    verb(browser, "hold")
    WebDriverWait(browser, 10).until(lambda d: lines(text)[-1] == f"HOLD {block}")
    assert checked(browser).startswith("✓")
