"""Orders by clicking on the map for every game: Bonaparte at Marengo's reinforcements (ENTER with its
options), Triomphe à Marengo and Napoleon 1815, in headless Chromium on a real server; and, without a
browser, that the click regions of the maps that mark nothing sit where those maps draw, and that no
click grammar or region tells a seat anything of the enemy.

The browser, the sign-in and the map click are tests/test_pages.py's (the same Chromium and page site).
"""

from __future__ import annotations

import json
import math
import re

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from pbem.server.web import clicklayer
from pbem.tools.pages import ADMIN
from test_pages import COVERED, browser, click_map, middle, pointer_click, sign_in, site  # noqa: F401  (fixtures)

DESKTOP = (1280, 900)


def new_game(site, game: str, seed: int = 4) -> int:
    rules = __import__("pbem.games", fromlist=["ruleset"]).ruleset(game)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    seats = [s.id for s in rules.seats(scenario, {o.name: o.default for o in rules.options()})]
    game_id, _ = site.service.create_game(f"Clicks {game}", {s: ADMIN for s in seats}, game=game, seed=seed)
    return game_id


def regions_of(site, game_id: int, seat: str) -> dict:
    game = site.service.game(game_id)
    grammar = game.ruleset.map_clicks(game.scenario, game.view(seat))
    return clicklayer.regions(grammar, site.service.map_svg(game_id, None, seat))


def open_page(browser, site, game_id: int, seat: str):
    browser.set_window_size(*DESKTOP)
    browser.get(f"{site.url}/games/{game_id}?side={seat}")
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map-view .click-layer"))
    return browser.find_element(By.ID, "orders-text")


def choose_block(browser, block: str):
    """A block from the list (the keyboard's way, and the only one for blocks off the map): the list is
    filled when it takes the focus."""
    select = browser.find_element(By.ID, "click-block")
    browser.execute_script("arguments[0].focus()", select)
    Select(select).select_by_value(block)
    offered(browser, block)


def offered(browser, block: str) -> list[str]:
    """The verbs offered once ``block`` is chosen and the server has said which the check accepts."""
    said = (By.ID, "click-selection")
    WebDriverWait(browser, 30).until(lambda d: f"{block} at" in d.find_element(*said).text
                                     and "finding" not in d.find_element(*said).text)
    return [b.get_attribute("data-verb") for b in browser.find_elements(By.CSS_SELECTOR, "#click-verbs button")]


def verb(browser, name: str):
    WebDriverWait(browser, 10).until(EC.element_to_be_clickable(
        (By.CSS_SELECTOR, f'#click-verbs [data-verb="{name}"]'))).click()


def click_place(browser, regions: dict, name: str):
    place = next(p for p in regions["places"] if p["name"] == name)
    assert click_map(browser, *middle(place["points"])), f"{name} is covered on the map"


def open_places(browser) -> list[str]:
    """The places offered to the chosen blocks' verb (the check's answer; the keyboard's list of them)."""
    said = (By.ID, "click-selection")
    WebDriverWait(browser, 30).until(lambda d: "finding" not in d.find_element(*said).text)
    return [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#click-target option")
            if o.get_attribute("value")]


def lines(text) -> list[str]:
    return [line for line in text.get_attribute("value").splitlines() if line and not line.startswith("#")]


def checked(browser) -> str:
    """The live check's answer: good, or the server's reason with its line."""
    live = WebDriverWait(browser, 30).until(lambda d: d.find_element(By.ID, "live-check").text or None)
    assert live.startswith("✓") or ("✗" in live and "line" in live), live
    return live


def test_marengo_reinforcements_enter_by_clicks_with_their_options(site, browser):
    game_id = new_game(site, "marengo")
    sign_in(browser, site, ADMIN)
    text = open_page(browser, site, game_id, "austria")
    regions = regions_of(site, game_id, "austria")
    assert not [b for b in regions["blocks"] if not b["id"].startswith("A")]
    # A1 waits off the map: from the list, "Enter", the entry point, then a locale on the map
    choose_block(browser, "A1")
    verb(browser, "enter")
    assert lines(text)[-1] == "ENTER A1"
    Select(browser.find_element(By.ID, "click-option-at")).select_by_visible_text("Bormida bridge")
    assert lines(text)[-1] == "ENTER A1 AT Bormida bridge"
    click_place(browser, regions, "Pedrabona")
    WebDriverWait(browser, 10).until(lambda d: lines(text)[-1] == "ENTER A1 AT Bormida bridge -> Pedrabona")
    assert checked(browser).startswith("✓"), lines(text)
    # the pontoon: one block, by the option
    choose_block(browser, "A4")
    verb(browser, "enter")
    Select(browser.find_element(By.ID, "click-option-by")).select_by_value(" BY PONTOON")
    WebDriverWait(browser, 10).until(lambda d: lines(text)[-1] == "ENTER A4 BY PONTOON")
    assert lines(text)[-2] == "ENTER A1 AT Bormida bridge -> Pedrabona"
    browser.find_element(By.ID, "click-clear").click()
    assert checked(browser)


def before_the_assault(service, game_id: int) -> None:
    """Two Austrian blocks brought onto the approach facing the French in Pedrabona, who block it: Austria's
    next day may assault."""
    for seat, orders in [("austria", "ENTER A1 A2 A3 BY ROAD AT Bormida bridge\n"), ("france", "FINAL\n"),
                         ("austria", "MOVE A1 A2 Bormida bridgehead -> Bormida bridgehead>Pedrabona\n"),
                         ("france", None)]:
        if orders is None:
            there = [b["id"] for b in service.game(game_id).view("france")["blocks"] if b["locale"] == "pedrabona"]
            orders = f"MOVE {there[0]} Pedrabona -> Pedrabona>Bormida bridgehead\n"
        assert service.submit(game_id, seat, orders).ok
        service.resolve_next(game_id)


def test_marengo_assault_by_clicks_with_lead_and_pursuit(site, browser):
    """Two Austrian blocks brought onto the approach facing the French in Pedrabona, who block it:
    click them, "Assault", tick the lead block, choose no pursuit: each choice rewrites the line."""
    service = site.service
    game_id = new_game(site, "marengo")
    before_the_assault(service, game_id)
    service.run_jobs()
    sign_in(browser, site, ADMIN)
    text = open_page(browser, site, game_id, "austria")
    for block in ("A1", "A2"):
        browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{block}"]').click()
    assert "A1 A2 at Bormida bridgehead>Pedrabona" in browser.find_element(By.ID, "click-selection").text
    verb(browser, "assault")
    approach = "Bormida bridgehead>Pedrabona"
    assert lines(text)[-1] == f"ASSAULT {approach} WITH A1 A2"
    browser.find_element(By.CSS_SELECTOR, '#click-options input[data-option="lead"][value="A1"]').click()
    assert lines(text)[-1] == f"ASSAULT {approach} WITH A1 A2 LEAD A1"
    Select(browser.find_element(By.ID, "click-option-pursuit")).select_by_value(" NO PURSUIT")
    assert lines(text)[-1] == f"ASSAULT {approach} WITH A1 A2 LEAD A1 NO PURSUIT"
    assert checked(browser).startswith("✓"), lines(text)


def test_triomphe_orders_by_clicking(site, browser):
    service = site.service
    game_id = new_game(site, "triomphe")
    sign_in(browser, site, ADMIN)
    # Austria's 6 AM: every block waits across the Bormida; A1 enters by clicks
    text = open_page(browser, site, game_id, "austria")
    regions = regions_of(site, game_id, "austria")
    assert not browser.find_elements(By.CSS_SELECTOR, "#map-view .click-layer [data-block]")  # none on the map
    choose_block(browser, "A1")
    verb(browser, "enter")
    assert lines(text)[-1] == "ENTER A1"
    # where it may go: the check's answer (no road runs from its entry to the entry itself: not offered)
    goes = open_places(browser)
    assert goes and "Bormida bridgehead" not in goes, goes
    click_place(browser, regions, goes[0])
    WebDriverWait(browser, 10).until(lambda d: lines(text)[-1] == f"ENTER A1 -> {goes[0]}")
    assert checked(browser).startswith("✓")
    assert service.submit(game_id, "austria", "ENTER A1\nENTER A2\nENTER A4 BY PONTOON\n").ok
    service.resolve_next(game_id)
    service.run_jobs()

    # France's 6 AM: reorganise a block, then march it, by clicking it and the next locale
    text = open_page(browser, site, game_id, "france")
    regions = regions_of(site, game_id, "france")
    buttons = browser.find_elements(By.CSS_SELECTOR, "#map-view .click-layer [data-block]")
    assert buttons and all(b.get_attribute("data-block").startswith("F") for b in buttons)
    board = service.game(game_id).scenario.board
    first = regions["blocks"][0]
    here = first["at"]
    lid = board.find_locale(here) if hasattr(board, "find_locale") else next(
        k for k, v in board.locales.items() if v.name == here)
    others = [b["id"] for b in regions["blocks"] if b["at"] == here]
    for block in others:
        browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{block}"]').click()
    offered(browser, others[-1])
    assert browser.find_element(By.CSS_SELECTOR, '#click-verbs [data-verb="reorganise"]').get_attribute(
        "aria-pressed") == "true"  # a disorganised block: reorganising is offered first
    verb(browser, "reorganise")
    assert lines(text)[-1] == "REORGANISE " + " ".join(others)
    browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{first["id"]}"]').click()
    assert "march" in offered(browser, first["id"])
    verb(browser, "march")
    neighbours = [board.locales[b].name for (a, b) in board.approaches if a == lid]
    goes = open_places(browser)
    assert set(goes) <= set(neighbours) | {f"{here}>{n}" for n in neighbours}, goes  # the check's answer
    for name in [n for n in neighbours if n in goes]:
        if click_map(browser, *middle(next(p for p in regions["places"] if p["name"] == name)["points"])):
            break
    else:
        pytest.fail(f"no neighbour of {here} to click")
    WebDriverWait(browser, 10).until(lambda d: lines(text)[-1] == f"MARCH {first['id']} {here} -> {name}")
    checked(browser)


def test_napoleon1815_orders_by_clicking(site, browser):
    service = site.service
    game_id = new_game(site, "napoleon1815")
    sign_in(browser, site, ADMIN)
    # the Allied setup: a Prussian block placed from the list onto a town of the map
    text = open_page(browser, site, game_id, "prussian")
    regions = regions_of(site, game_id, "prussian")
    assert {b["id"][:2] for b in regions["blocks"]} <= {"P-", "BL"}
    choose_block(browser, "P-I-1")
    verb(browser, "place")
    click_place(browser, regions, "Charleroi")
    WebDriverWait(browser, 10).until(lambda d: lines(text)[-1] == "PLACE P-I-1 Charleroi")
    assert checked(browser).startswith("✓")
    for seat in ("anglo-dutch", "prussian"):
        assert service.submit(game_id, seat, "FINAL\n").ok
    service.resolve_next(game_id)
    assert service.submit(game_id, "french", "FINAL\n").ok
    service.resolve_next(game_id)
    service.run_jobs()

    # the French turn: a block on the map, then a town along its road
    game = service.game(game_id)
    assert game.turn().seats == ("french",)
    text = open_page(browser, site, game_id, "french")
    regions = regions_of(site, game_id, "french")
    board = game.scenario.board
    block = next(b for b in regions["blocks"] if b["box"] and b["data"]["type"] != "leader")
    town = next(t for t, v in board.towns.items() if v.name == block["at"])
    browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{block["id"]}"]').click()
    assert offered(browser, block["id"]) == ["move"]
    verb(browser, "move")
    ends = [r.b if r.a == town else r.a for r in board.roads.values() if town in (r.a, r.b)]
    goes = open_places(browser)
    assert goes and {board.towns[e].name for e in ends} & set(goes), goes
    for end in ends:
        name = board.towns[end].name
        if name not in goes:
            continue
        if click_map(browser, *middle(next(p for p in regions["places"] if p["name"] == name)["points"])):
            break
    else:
        pytest.fail(f"no town next to {block['at']} to click")
    WebDriverWait(browser, 10).until(lambda d: lines(text)[-1] == f"MOVE {block['id']} {block['at']} -> {name}")
    checked(browser)


def test_napoleon1815_deploys_by_clicking(site, browser):
    """A hybrid game's deployment sub-turn: a block of the battle's town on the map, then the position;
    each click writes a DEPLOY line that the server's check takes."""
    service = site.service
    rules = __import__("pbem.games", fromlist=["ruleset"]).ruleset("napoleon1815")
    seats = ("french", "anglo-dutch", "prussian")
    for seed in range(20):  # the first game of random bots to reach a battle (as tests/test_napoleon1815.py)
        game_id, _ = service.create_game(f"Deploy {seed}", {s: ADMIN for s in seats}, game="napoleon1815",
                                         seed=seed, options={"players": "2", "battle": "hybrid"})
        bot = rules.bots()["bot"]
        while True:
            game = service.game(game_id)
            if game.over or game.turn().kind == "subturn":
                break
            for seat in game.turn().seats:
                assert service.submit(game_id, seat, bot.orders(game.scenario, game.view(seat), seed) + "FINAL\n").ok
            service.resolve_next(game_id)
        if not game.over:
            break
    else:
        pytest.fail("no battle in 20 games")
    service.run_jobs()
    seat = game.turn().seats[0]
    sign_in(browser, site, ADMIN)
    text = open_page(browser, site, game_id, seat)
    regions = regions_of(site, game_id, seat)
    block = next(b for b in regions["blocks"] if b["box"])
    assert {b["at"] for b in regions["blocks"]} == {block["at"]}  # only the battle's blocks
    browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{block["id"]}"]').click()
    verb(browser, "deploy-centre")
    WebDriverWait(browser, 10).until(lambda d: lines(text)[-1] == f"DEPLOY {block['at']} CENTRE {block['id']}")
    assert checked(browser).startswith("✓")


def inside(points, x: float, y: float) -> bool:
    """Whether (x, y) is inside the polygon (the page's own test, static/game.js)."""
    yes, j = False, len(points) - 1
    for i, (xi, yi) in enumerate(points):
        xj, yj = points[j]
        if (yi > y) != (yj > y) and x < (xj - xi) * (y - yi) / (yj - yi) + xi:
            yes = not yes
        j = i
    return yes


def over_an_approach(regions: dict, accepted) -> tuple | None:
    """A block, an approach the check lets it go to, and a point of that approach on another block's
    button (a reserve block drawn over the approach): (block, approach, other block, point), or None."""
    approaches = [p for p in regions["places"] if p["kind"] == "approach"]
    for block in (b for b in regions["blocks"] if b["box"]):
        open_ = accepted(block)
        for place in (p for p in approaches if p["name"] in open_):
            for other in (b for b in regions["blocks"] if b["box"] and b is not block):
                cx, cy, w, h, deg = other["box"]
                r = math.radians(deg)
                for fx, fy in ((0, 0), (-.3, 0), (.3, 0), (0, -.3), (0, .3), (-.3, -.3), (.3, .3), (-.3, .3), (.3, -.3)):
                    x = cx + fx * w * math.cos(r) - fy * h * math.sin(r)
                    y = cy + fx * w * math.sin(r) + fy * h * math.cos(r)
                    if inside(place["points"], x, y) and not any(
                            inside(q["points"], x, y) for q in approaches if q is not place):
                        return block, place["name"], other, (x, y)
    return None


def test_a_block_drawn_over_an_approach_does_not_catch_the_click_meant_for_it(site, browser):
    """France's first day in the demo: a block of a locale may go onto an approach over which the map
    draws another block of that locale (the reserve); clicking there sends the chosen block onto the
    approach, and does not choose the block drawn there."""
    service, demo = site.service, site.demo
    sign_in(browser, site, ADMIN)
    text = open_page(browser, site, demo, "france")
    regions = regions_of(site, demo, "france")
    names = sorted({p["name"] for p in regions["places"]})
    start = text.get_attribute("value")

    def accepted(block):
        at = len(start.rstrip("\n").split("\n"))
        answers = clicklayer.offers(lambda t: service.check_orders(demo, "france", t)[0].problems, start, at, False,
                                    [f"MOVE {block['id']} {block['at']} -> {n}" for n in names])
        return {n for n, a in zip(names, answers) if a["ok"]}

    found = over_an_approach(regions, accepted)
    assert found, "no approach under a block on this map: the position of the test has changed"
    block, approach, other, point = found
    browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{block["id"]}"]').click()
    assert offered(browser, block["id"])[0] == "move"
    assert approach in open_places(browser)
    layer = browser.find_element(By.CSS_SELECTOR, "#map-view .click-layer")
    x, y, covered = browser.execute_script(COVERED, layer, *point)
    assert covered, f"{other['id']}'s button is not over {approach} on the page"
    pointer_click(browser, (x, y))
    WebDriverWait(browser, 10).until(lambda d: lines(text)[-1] == f"MOVE {block['id']} {block['at']} -> {approach}")
    assert browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{other["id"]}"]'
                                ).get_attribute("aria-pressed") == "false"
    assert checked(browser).startswith("✓"), lines(text)


# -- without a browser ----------------------------------------------------------------------------------------


def enemy_ids(game, seat: str) -> set[str]:
    scenario = game.scenario
    mine = {b["id"] for b in game.view(seat).get("blocks", [])} | {
        b["id"] for b in game.ruleset.map_clicks(scenario, game.view(seat)).get("offmap", [])}
    blocks = scenario.blocks.values() if isinstance(scenario.blocks, dict) else scenario.blocks
    return {b.id for b in blocks} - mine


@pytest.mark.parametrize("name", ["marengo", "triomphe", "napoleon1815"])
def test_click_grammars_and_regions_tell_nothing_of_the_enemy(site, name):
    game_id = new_game(site, name, seed=7)
    game = site.service.game(game_id)
    for seat in game.turn().seats:
        found = json.dumps([game.ruleset.map_clicks(game.scenario, game.view(seat)), regions_of(site, game_id, seat)])
        words = set(re.findall(r"[A-Za-z0-9-]+", found))
        leaked = {i for i in enemy_ids(game, seat) if i in words}
        assert not leaked, (seat, sorted(leaked))


@pytest.mark.parametrize("name,bar", [("napoleon1815", (70, 12))])  # Triomphe's map marks its own (simmons/render)
def test_the_regions_of_maps_without_marks_sit_on_their_blocks(site, name, bar):
    """Each own block's button covers the bar its map draws for it, the bar labelled with its id."""
    game_id = new_game(site, name, seed=3)
    service = site.service
    for _ in range(3):  # a few turns in, so that blocks stand on the map
        game = service.game(game_id)
        for seat in game.turn().seats:
            assert service.submit(game_id, seat, "FINAL\n").ok
        service.resolve_next(game_id)
    game = service.game(game_id)
    seen = 0
    for seat in game.turn().seats:
        svg = service.map_svg(game_id, None, seat)
        drawn = {(round(float(x), 1), round(float(y), 1)): label for x, y, label in re.findall(
            rf'<rect x="([-\d.]+)" y="([-\d.]+)" width="{bar[0]}" height="{bar[1]}"[^>]*/>\s*<text[^>]*>([^<]*)', svg)}
        for block in regions_of(site, game_id, seat)["blocks"]:
            if block["box"] is None:
                continue
            cx, cy, w, h, _ = block["box"]
            assert (w, h) == bar
            label = drawn.get((round(cx - w / 2, 1), round(cy - h / 2, 1)))
            assert label is not None and label.split()[0] == block["id"], (block, label)
            seen += 1
    assert seen, "no block on the map to compare"


def test_the_clicks_json_is_for_the_seat_that_owes_orders(site):
    client = site.app.test_client()
    client.set_cookie("pbem_session", site.cookie(ADMIN).split("=", 1)[1])
    game_id = new_game(site, "triomphe")
    answer = client.get(f"/games/{game_id}/map/clicks.json?side=austria")
    assert answer.status_code == 200 and answer.json["places"] and answer.json["viewbox"]
    assert client.get(f"/games/{game_id}/map/clicks.json?side=france").status_code == 404
    svg = client.get(f"/games/{game_id}/map/now.svg?side=austria").text
    assert "data-" not in svg


def test_the_list_chooses_one_block_while_it_has_the_focus_and_adds_when_it_comes_back(site, browser):
    """Going down the block list (or typing slowly) takes each block passed on the way when the typing
    stops; while the list keeps the focus, each new choice replaces the one it made, so only the block
    the player stops on is chosen. Leaving the list and coming back adds to the chosen blocks."""
    game_id = new_game(site, "marengo")
    sign_in(browser, site, ADMIN)
    text = open_page(browser, site, game_id, "austria")
    said = lambda: browser.find_element(By.ID, "click-selection").text  # noqa: E731
    choose_block(browser, "A1")
    assert said().startswith("Chosen: A1 at")
    Select(browser.find_element(By.ID, "click-block")).select_by_value("A2")  # the list still has the focus
    offered(browser, "A2")
    assert said().startswith("Chosen: A2 at") and "A1" not in said(), said()
    browser.execute_script("arguments[0].focus()", text)  # the list left: its choice is kept
    choose_block(browser, "A3")
    assert said().startswith("Chosen: A2 A3 at"), said()


def test_a_chinese_player_clicks_in_chinese_and_the_line_is_in_his_order_words(site, browser):
    """The page in the reader's language (issue 17): the verbs and options in Chinese, the places named as Chinese
    spells them, and the line written in the seat's order words (登场 ... 于 ...), which the check accepts."""
    game_id = new_game(site, "marengo")
    site.service.store.set_language(ADMIN, "zh")
    try:
        sign_in(browser, site, ADMIN)
        text = open_page(browser, site, game_id, "austria")
        regions = regions_of(site, game_id, "austria")
        select = browser.find_element(By.ID, "click-block")
        browser.execute_script("arguments[0].focus()", select)
        assert "A1 (增援)" in [o.text for o in Select(select).options]  # off the map: "reinforcements"
        Select(select).select_by_value("A1")
        said = (By.ID, "click-selection")
        WebDriverWait(browser, 30).until(lambda d: "A1" in d.find_element(*said).text
                                         and d.find_elements(By.CSS_SELECTOR, '#click-verbs [data-verb="enter"]'))
        titles = [b.text for b in browser.find_elements(By.CSS_SELECTOR, "#click-verbs button")]
        assert "登场" in titles and not {"Enter", "Move", "Assault"} & set(titles), titles
        verb(browser, "enter")
        assert lines(text)[-1] == "登场 A1"
        option = browser.find_element(By.ID, "click-option-at")
        assert "入口" in browser.find_element(By.CSS_SELECTOR, 'label[for="click-option-at"]').text
        Select(option).select_by_value(" 于 Bormida bridge")
        assert lines(text)[-1] == "登场 A1 于 Bormida bridge"
        click_place(browser, regions, "Pedrabona")
        WebDriverWait(browser, 10).until(lambda d: lines(text)[-1] == "登场 A1 于 Bormida bridge -> Pedrabona")
        assert "佩德拉博纳" in browser.find_element(*said).text  # Pedrabona as Chinese spells it
        live = WebDriverWait(browser, 30).until(lambda d: d.find_element(By.ID, "live-check").text or None)
        assert live.startswith("✓"), live
    finally:
        site.service.store.set_language(ADMIN, "en")


def test_a_chinese_page_names_the_blocks_on_the_map_at_their_towns_in_chinese(site, browser):
    """Blocks on the map (Napoleon 1815's setup): each button says where it stands as Chinese spells the town."""
    rules = __import__("pbem.games", fromlist=["ruleset"]).ruleset("napoleon1815")
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    seats = [s.id for s in rules.seats(scenario, {"bid": "france-3"})]
    game_id, _ = site.service.create_game("Clicks zh", {s: ADMIN for s in seats}, game="napoleon1815", seed=4,
                                          options={"bid": "france-3"})
    for _ in range(2):  # past the two setups: the blocks stand on the map
        site.service.resolve_next(game_id)
    game = site.service.game(game_id)
    seat = game.turn().seats[0]
    names = rules.map_clicks(game.scenario, game.view(seat), lang="zh")["names"]
    site.service.store.set_language(ADMIN, "zh")
    try:
        sign_in(browser, site, ADMIN)
        open_page(browser, site, game_id, seat)
        labels = [b.get_attribute("aria-label") for b in browser.find_elements(By.CSS_SELECTOR, "#map-view button.block")]
        assert labels and all(any(name in label for name in names.values()) for label in labels), labels[:3]
    finally:
        site.service.store.set_language(ADMIN, "en")
