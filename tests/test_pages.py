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
from selenium.webdriver.support.ui import WebDriverWait

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


def test_orders_by_clicking_on_the_map(site, browser):
    service, config, demo = site.service, site.config, site.demo
    wait = WebDriverWait(browser, 30)
    browser.set_window_size(*DESKTOP)
    sign_in(browser, site, ADMIN)
    browser.get(f"{config.url}/games/{demo}?side=france")
    text = browser.find_element(By.ID, "orders-text")
    # the map is an image; the click layer puts a button on each of France's blocks (nothing of Austria's)
    assert browser.find_element(By.CSS_SELECTOR, "#map-view img#map").get_attribute("alt")
    board = service.game(demo).scenario.board
    mine = [b for b in service.game(demo).view("france")["blocks"] if b["status"] == "map"]
    first, second, third = mine[0], mine[1], mine[2]
    name = board.locales[first["locale"]].name
    one = f'#map-view .click-layer [data-block="{first["id"]}"]'
    block = wait.until(EC.element_to_be_clickable((By.CSS_SELECTOR, one)))
    assert wait.until(lambda d: d.find_element(By.ID, "clicks").is_displayed())
    buttons = browser.find_elements(By.CSS_SELECTOR, "#map-view .click-layer [data-block]")
    assert sorted(b.get_attribute("data-block") for b in buttons) == sorted(b["id"] for b in mine)
    regions = clicklayer.regions_from_svg(service.map_svg(demo, None, "france"))

    # France wakes a block: click it, then "Activate"
    block.click()
    assert f"{first['id']} at {name}" in browser.find_element(By.ID, "click-selection").text
    browser.find_element(By.CSS_SELECTOR, '#click-verbs [data-verb="activate"]').click()
    assert f"ACTIVATE {first['id']}" in text.get_attribute("value")

    # then moves it: click the block, click an approach of its locale (where no block covers it)
    browser.find_element(By.CSS_SELECTOR, one).click()
    approaches = [p for p in regions["places"] if p["kind"] == "approach" and p["name"].startswith(name + ">")]
    where = next(p["name"] for p in approaches if click_map(browser, *middle(p["points"])))
    wait.until(lambda d: f"MOVE {first['id']} {name} -> {where}" in text.get_attribute("value"))
    # the live check answers, from the server's parser
    # (good, or the server's reason: whether an approach may be blocked depends on the random position)
    live = wait.until(lambda d: d.find_element(By.ID, "live-check").text or None)
    assert live.startswith("✓") or ("✗" in live and "line" in live), (live, text.get_attribute("value"))

    # the keyboard alone: a block from the list, a place from the list, Add
    other = board.locales[second["locale"]].name
    browser.find_element(By.ID, "click-block").send_keys(f"{second['id']} (")
    browser.find_element(By.ID, "click-target").send_keys(where)
    browser.find_element(By.ID, "click-add").send_keys(Keys.ENTER)
    wait.until(lambda d: f"MOVE {second['id']} {other} -> {where}" in text.get_attribute("value"))
    # and a block on the map by Tab and Enter
    focused = browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{third["id"]}"]')
    browser.execute_script("arguments[0].focus()", focused)
    browser.switch_to.active_element.send_keys(Keys.ENTER)
    assert f"{third['id']} at" in browser.find_element(By.ID, "click-selection").text
    browser.find_element(By.ID, "click-clear").send_keys(Keys.ENTER)
    # keep the activation only, to submit good orders
    browser.execute_script("arguments[0].value = arguments[0].value.split('\\n').filter("
                           "l => !l.startsWith('MOVE ')).join('\\n')", text)

    # Submit: post-redirect-get, the orders are on file, a refresh posts nothing
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, "submit").click()
    wait.until(stale(old))
    result = wait.until(EC.presence_of_element_located((By.ID, "orders-result")))
    assert "/orders" not in browser.current_url
    assert f"ACTIVATE {first['id']}" in service.orders_on_file(demo, "france"), result.text
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
