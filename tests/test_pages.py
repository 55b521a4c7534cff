"""Every page in a real browser: orders by clicking on the map, and axe-core over every page.

Headless Chromium (Debian's, driven by Selenium, as in test_browser.py) against the app on a real
server. axe-core's script comes from PyPI (the ``axe-playwright-python`` package ships
``axe.min.js``; only that file is used, run here through Selenium): nothing is downloaded at run
time. ``PBEM_SCREENSHOTS=docs/images`` also saves the game page at desktop and phone width there.
"""

from __future__ import annotations

import json
import os
import re
from importlib import resources
from pathlib import Path

import pytest
from conftest import fresh, stale
from selenium import webdriver
from selenium.webdriver.common.actions.action_builder import ActionBuilder
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait

from pbem.server.web import clicklayer, create_app
from pbem.server.web.auth import make_login_token
from pbem.tools.pages import ADMIN, page_site

DESKTOP, PHONE = (1280, 900), (375, 800)


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The demo game (the admin holds both seats and moderates it) after Austria's first day, and a
    game in which a plain player holds Austria's seat (pbem.tools.pages)."""
    with page_site(tmp_path_factory.mktemp("pages")) as site:
        yield site


@pytest.fixture(scope="module")
def browser(chromium):
    """The run's headless Chromium (conftest.py), without cookies, at desktop width."""
    return fresh(chromium, *DESKTOP)


def sign_in(browser, site, email):
    browser.delete_all_cookies()
    browser.get(site.login_url(email))
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, "sign-in").click()
    WebDriverWait(browser, 30).until(stale(old))


MAP_POINT = """
    // the point of the window showing map point (x, y), scrolled into view; null if a block's button covers it
    const [layer, x, y] = arguments, vb = JSON.parse(layer.dataset.viewbox);
    const at = () => { const r = layer.getBoundingClientRect();
      return [r.left + (x - vb[0]) / vb[2] * r.width, r.top + (y - vb[1]) / vb[3] * r.height, r]; };
    let [cx, cy] = at();
    const view = document.getElementById("map-view");
    view.scrollBy(cx - view.getBoundingClientRect().left - view.clientWidth / 2,
                  cy - view.getBoundingClientRect().top - view.clientHeight / 2);
    window.scrollBy(0, at()[1] - window.innerHeight / 2);
    const [px, py] = at();
    return document.elementFromPoint(px, py) === layer ? [px, py] : null;"""


def click_map(browser, x: float, y: float) -> bool:
    """Click the map at map point (x, y) (the click layer hit-tests it), if no block's button covers it."""
    layer = browser.find_element(By.CSS_SELECTOR, "#map-view .click-layer")
    point = browser.execute_script(MAP_POINT, layer, x, y)
    if point is None:
        return False
    action = ActionBuilder(browser)
    action.pointer_action.move_to_location(round(point[0]), round(point[1])).click()
    action.perform()
    return True


def middle(points) -> tuple[float, float]:
    return sum(x for x, _ in points) / len(points), sum(y for _, y in points) / len(points)


def offered_here(site, text: str, lines: list[str]) -> list[bool]:
    """What the orders check accepts of these lines written at the end of France's text (the server's
    own answer, pbem.server.web.clicklayer.offers, asked without the page)."""
    service, demo = site.service, site.demo

    def check(orders: str):
        return service.check_orders(demo, "france", orders)[0].problems

    at = len(text.rstrip("\n").split("\n")) if text.strip() else 0
    return [o["ok"] for o in clicklayer.offers(check, text, at, False, lines)]


COVERED = """
    // the point of the window showing map point (x, y), scrolled into view, and whether a block's button covers it
    const [layer, x, y] = arguments, vb = JSON.parse(layer.dataset.viewbox);
    const at = () => { const r = layer.getBoundingClientRect();
      return [r.left + (x - vb[0]) / vb[2] * r.width, r.top + (y - vb[1]) / vb[3] * r.height]; };
    let [cx, cy] = at();
    const view = document.getElementById("map-view");
    view.scrollBy(cx - view.getBoundingClientRect().left - view.clientWidth / 2,
                  cy - view.getBoundingClientRect().top - view.clientHeight / 2);
    window.scrollBy(0, at()[1] - window.innerHeight / 2);
    const [px, py] = at(), there = document.elementFromPoint(px, py);
    return [px, py, there !== layer && there.closest(".click-layer") === layer && there.matches("button.block")];"""


def pointer_click(browser, point) -> None:
    action = ActionBuilder(browser)
    action.pointer_action.move_to_location(round(point[0]), round(point[1])).click()
    action.perform()


def offered_verbs(browser, block: str) -> list[str]:
    """The verbs offered for the chosen blocks (``block`` among them), once the server has answered which
    the check accepts."""
    WebDriverWait(browser, 30).until(lambda d: f"{block} at" in d.find_element(By.ID, "click-selection").text
                                     and "finding" not in d.find_element(By.ID, "click-selection").text)
    return [b.get_attribute("data-verb") for b in browser.find_elements(By.CSS_SELECTOR, "#click-verbs button")]


def open_places(browser) -> list[str]:
    """The places the page offers as where the chosen blocks go (the keyboard's list of them)."""
    WebDriverWait(browser, 30).until(lambda d: "finding" not in d.find_element(By.ID, "click-selection").text)
    return [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#click-target option")
            if o.get_attribute("value")]


def tab_order(browser, start, key: str, steps: int) -> set[str]:
    """What the keyboard's focus meets going from ``start`` by ``key`` (Tab or Shift+Tab) this many times:
    ids, and "verb:NAME" for the verbs' buttons."""
    browser.execute_script("arguments[0].focus()", start)
    met = set()
    for _ in range(steps):
        browser.switch_to.active_element.send_keys(key)
        here = browser.switch_to.active_element
        met.add(f"verb:{here.get_attribute('data-verb')}" if here.get_attribute("data-verb") else here.get_attribute("id"))
    return met


def test_orders_by_clicking_on_the_map(site, browser):
    service, config, demo = site.service, site.config, site.demo
    wait = WebDriverWait(browser, 30)
    browser.set_window_size(*DESKTOP)
    sign_in(browser, site, ADMIN)
    browser.get(f"{config.url}/games/{demo}?side=france")
    text = browser.find_element(By.ID, "orders-text")
    start = text.get_attribute("value")
    # the map is an image; the click layer puts a button on each of France's blocks (nothing of Austria's)
    assert browser.find_element(By.CSS_SELECTOR, "#map-view img#map").get_attribute("alt")
    board = service.game(demo).scenario.board
    mine = [b for b in service.game(demo).view("france")["blocks"] if b["status"] == "map"]
    regions = clicklayer.regions_from_svg(service.map_svg(demo, None, "france"))
    names = sorted({p["name"] for p in regions["places"]})
    where = {b["id"]: board.locales[b["locale"]].name for b in mine}
    # a block asleep (not activated, no enemy next to it to wake it): the check refuses its every move
    asleep = [b["id"] for b in mine if not any(offered_here(site, start, [
        f"MOVE {b['id']} {where[b['id']]} -> {n}" for n in names]))]
    assert asleep, "every French block may move on the first day"
    first = asleep[0]
    third = next(b["id"] for b in mine if b["id"] != first)
    name = where[first]
    one = f'#map-view .click-layer [data-block="{first}"]'
    block = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, one)))
    assert wait.until(lambda d: d.find_element(By.ID, "clicks").is_displayed())
    buttons = browser.find_elements(By.CSS_SELECTOR, "#map-view .click-layer [data-block]")
    assert sorted(b.get_attribute("data-block") for b in buttons) == sorted(b["id"] for b in mine)

    # the sleeping block is offered what the check accepts of it: to be activated, not to move (said why)
    block.click()
    assert f"{first} at {name}" in browser.find_element(By.ID, "click-selection").text
    assert offered_verbs(browser, first) == ["activate"]
    refused = browser.find_element(By.ID, "click-refused").text
    assert "Move (" in refused and "March by road (" in refused, refused
    browser.find_element(By.CSS_SELECTOR, '#click-verbs [data-verb="activate"]').click()
    assert f"ACTIVATE {first}" in text.get_attribute("value")

    # activated, it may move: the places offered are those the check accepts, with ACTIVATE in the text
    browser.find_element(By.CSS_SELECTOR, one).click()
    assert offered_verbs(browser, first)[0] == "move"
    places = open_places(browser)
    accepted = offered_here(site, text.get_attribute("value"), [f"MOVE {first} {name} -> {n}" for n in names])
    assert places == [n for n, ok in zip(names, accepted) if ok] and places
    assert len(browser.find_elements(By.CSS_SELECTOR, "#map-view .click-layer .open polygon")) >= len(places)
    # a place the check refuses is not taken: the reason is said, nothing is written
    far = next(n for n, ok in zip(names, accepted) if not ok and ">" not in n)
    before = text.get_attribute("value")
    layer = browser.find_element(By.CSS_SELECTOR, "#map-view .click-layer")
    spot = next(p for p in regions["places"] if p["name"] == far)
    pointer_click(browser, browser.execute_script(COVERED, layer, *middle(spot["points"])))
    wait.until(lambda d: d.find_element(By.ID, "click-selection").text.startswith("✗"))
    assert far in browser.find_element(By.ID, "click-selection").text and text.get_attribute("value") == before
    # an offered place taken by the pointer, on a block's button if one is drawn over it (the button does
    # not catch the click meant for the place)
    spots = {p["name"]: browser.execute_script(COVERED, layer, *middle(p["points"])) for p in regions["places"]
             if p["name"] in places}
    goal = next((n for n, s in spots.items() if s[2]), places[0])
    browser.find_element(By.CSS_SELECTOR, one).click()  # chosen again (the refused click left it chosen)
    if first not in browser.find_element(By.ID, "click-selection").text:
        browser.find_element(By.CSS_SELECTOR, one).click()
    assert open_places(browser) == places
    pointer_click(browser, browser.execute_script(COVERED, layer, *middle(
        next(p for p in regions["places"] if p["name"] == goal)["points"])))
    wait.until(lambda d: f"MOVE {first} {name} -> {goal}" in text.get_attribute("value"))
    live = wait.until(lambda d: d.find_element(By.ID, "live-check").text or None)
    assert live.startswith("✓"), (live, text.get_attribute("value"))

    # another sleeping block, now that the day's activation is spent: nothing is offered, and why
    browser.execute_script("arguments[0].value = arguments[0].value.split('\\n').filter("
                           "l => !l.startsWith('MOVE ')).join('\\n')", text)
    chooser = browser.find_element(By.ID, "click-block")
    if len(asleep) > 1:
        browser.execute_script("arguments[0].focus()", chooser)  # the list is filled when it takes the focus
        Select(chooser).select_by_value(asleep[1])
        assert offered_verbs(browser, asleep[1]) == []
        assert "Activate (" in browser.find_element(By.ID, "click-refused").text
        assert offered_here(site, text.get_attribute("value"), [f"ACTIVATE {asleep[1]}"]) == [False]

    # the keyboard alone reaches and works every control: the block list, the verbs (Shift+Tab from
    # the list), a verb by Space, an option by the arrow keys, the place list, Add, Clear, and a block
    # on the map by Tab and Enter
    chooser.send_keys(f"{first} (")  # typed: taken when the typing stops
    verbs = offered_verbs(browser, first)
    assert "move" in verbs
    assert tab_order(browser, chooser, Keys.SHIFT + Keys.TAB, 12) >= {f"verb:{v}" for v in verbs}
    assert tab_order(browser, chooser, Keys.TAB, 3) == {"click-target", "click-add", "click-clear"}
    browser.find_element(By.CSS_SELECTOR, '#click-verbs [data-verb="move"]').send_keys(Keys.SPACE)
    option = wait.until(EC.element_to_be_clickable((By.ID, "click-option-blocked")))
    option.send_keys(Keys.ARROW_DOWN)
    assert Select(option).first_selected_option.get_attribute("value") == " IF BLOCKED STAY"
    goals = open_places(browser)
    assert goals == places
    browser.find_element(By.ID, "click-target").send_keys(goals[-1])
    browser.find_element(By.ID, "click-add").send_keys(Keys.ENTER)
    wait.until(lambda d: f"MOVE {first} {name} -> {goals[-1]} IF BLOCKED STAY" in text.get_attribute("value"))
    focused = browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{third}"]')
    browser.execute_script("arguments[0].focus()", focused)
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    offered_verbs(browser, third)
    browser.find_element(By.ID, "click-clear").send_keys(Keys.ENTER)
    assert browser.find_element(By.ID, "click-selection").text == "No block chosen."
    # keep the activation only, to submit good orders
    browser.execute_script("arguments[0].value = arguments[0].value.split('\\n').filter("
                           "l => !l.startsWith('MOVE ')).join('\\n')", text)

    # Submit: post-redirect-get, the orders are on file, a refresh posts nothing
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, "submit").click()
    wait.until(stale(old))
    result = wait.until(EC.presence_of_element_located((By.ID, "orders-result")))
    assert "/orders" not in browser.current_url
    assert f"ACTIVATE {first}" in service.orders_on_file(demo, "france"), result.text
    shots = os.environ.get("PBEM_SCREENSHOTS")
    if shots:
        browser.get(f"{config.url}/games/{demo}?side=france")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map-view .click-layer"))
        browser.save_screenshot(str(Path(shots) / "game-page-desktop.png"))
        browser.set_window_size(*PHONE)
        browser.get(f"{config.url}/games/{demo}?side=france")
        wait.until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map-view .click-layer"))
        browser.save_screenshot(str(Path(shots) / "game-page-phone.png"))


def axe_script() -> str:
    return resources.files("axe_playwright_python").joinpath("axe.min.js").read_text()


def violations(browser) -> list[str]:
    """axe-core's violations on the page shown, one line each."""
    if not browser.execute_script("return typeof window.axe !== 'undefined'"):
        browser.execute_script(axe_script())
    result = browser.execute_async_script(
        "const done = arguments[arguments.length - 1];"
        "axe.run(document, {resultTypes: ['violations']}).then(r => done(JSON.stringify(r.violations)))"
        ".catch(e => done(JSON.stringify([{id: 'axe-error', help: String(e), nodes: []}])));")
    return [f"{v['id']}: {v['help']} — " + "; ".join(n.get("target", [""])[0] if isinstance(n.get("target", [""])[0], str)
                                                        else str(n.get("target")) for n in v["nodes"][:4])
            for v in json.loads(result)]


@pytest.mark.parametrize("width", [DESKTOP, PHONE], ids=["desktop", "phone"])
def test_axe_finds_no_violation_on_any_page(site, browser, width):
    browser.set_window_size(*width)
    found = {}
    for who, paths in site.pages().items():
        if site.who(who):
            sign_in(browser, site, site.who(who))
        else:
            browser.delete_all_cookies()
        for path in paths:
            browser.get(site.url + path)
            if browser.find_elements(By.ID, "map-view") and browser.find_elements(By.ID, "clicks"):
                WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map-view .click-layer"))
            problems = violations(browser)
            if problems:
                found[f"{who} {path}"] = problems
    assert not found, "\n".join(f"{page}:\n  " + "\n  ".join(p) for page, p in found.items())


def test_map_is_compact_cached_and_compressed(site):
    service, config, demo = site.service, site.config, site.demo
    client = create_app(service, config).test_client()
    token = make_login_token(service.store, ADMIN, service.now())
    page = client.get(f"/login/{token}")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    client.post(f"/login/{token}", data={"csrf_token": csrf})
    svg = client.get(f"/games/{demo}/map/0.svg?side=austria", headers={"Accept-Encoding": "gzip"})
    assert svg.status_code == 200 and svg.headers["Content-Encoding"] == "gzip"
    assert len(svg.data) < 40_000 and "immutable" in svg.headers["Cache-Control"]
    again = client.get(f"/games/{demo}/map/0.svg?side=austria", headers={"If-None-Match": svg.headers["ETag"]})
    assert again.status_code == 304
    small = client.get(f"/games/{demo}/map/0.png?side=austria&w=480")
    assert small.status_code == 200 and small.data[16:20] == (480).to_bytes(4, "big")
    assert client.get(f"/games/{demo}/map/0.png?side=austria&w=333").status_code == 404
    now = client.get(f"/games/{demo}/map/now.svg?side=austria")
    assert "no-cache" in now.headers["Cache-Control"]
    page = client.get(f"/games/{demo}?side=austria", headers={"Accept-Encoding": "gzip"})
    assert page.headers["Content-Encoding"] == "gzip"
    css = client.get("/static/pbem.css", headers={"Accept-Encoding": "gzip"})
    assert css.headers["Content-Encoding"] == "gzip"
    assert client.get("/favicon.ico").status_code == 200
