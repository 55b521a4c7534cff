"""The DBA map's names are readable on the game page (issue 30, §4): a Quatre Bras game served by the real server
(waitress on loopback, a real SQLite store), its page opened by a signed-in player in headless Chromium at 1400 px
and at 375 px wide; the map's picture is measured where the page lays it out (as first shown: on a phone zoomed,
to pan with a finger), and every name written on it (tests/test_dba_map_names.py checks that they are all there
and do not overlap) is at least 10 px high on the screen. Screenshots: docs/images/dba-map-names-*.png."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from pbem.games import ruleset
from pbem.server.config import Config
from pbem.server.serve import Server

RULES = ruleset("dba")
IMAGES = Path(__file__).resolve().parent.parent / "docs" / "images"
SIZES = re.compile(r'<text class="label \w+"[^>]* font-size="(\d+)"')


@pytest.fixture(scope="module")
def served(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("dba-map-page")
    config = Config(instance=str(tmp), web_port=0, smtp_port=0, smtp_host="127.0.0.1", tick_seconds=0.2,
                    demo=False, from_addr="pbem@web.invalid", domain="web.invalid", secret_key="map-test",
                    relay_host="127.0.0.1", relay_port=9)  # nothing listens: the mail stays queued
    server = Server(config)
    server.start()
    try:
        service = server.service
        game_id, _ = service.create_game("Quatre Bras names", {"french": "ney@example.org",
                                                               "allies": "duke@example.org"},
                                         game="dba", scenario="dba-quatre-bras.toml", seed=2)
        yield server, f"http://127.0.0.1:{config.web_port}", game_id
    finally:
        server.stop()


@pytest.mark.parametrize("width", [1400, 375])
def test_every_name_on_the_map_is_at_least_ten_pixels_high_on_the_page(served, chromium, width):
    from conftest import fresh, stale

    from pbem.server.web.auth import make_login_token

    server, base, game_id = served
    service = server.service
    svg = service.map_svg(game_id, None, "allies")
    sizes = [int(s) for s in SIZES.findall(svg)]
    own = int(re.search(r'<svg[^>]* width="(\d+)"', svg).group(1))
    assert len(sizes) >= 20  # the places, features, roads and brigades of Quatre Bras
    browser = fresh(chromium, width, 900)
    browser.get(f"{base}/login/{make_login_token(service.store, 'duke@example.org', service.now())}")
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, "sign-in").click()
    WebDriverWait(browser, 30).until(stale(old))
    browser.get(f"{base}/games/{game_id}?side=allies")
    WebDriverWait(browser, 30).until(lambda d: d.execute_script(
        "const i = document.getElementById('map'); return i && i.complete && i.naturalWidth > 0"))
    shown = browser.execute_script("return document.getElementById('map').getBoundingClientRect().width")
    scale = shown / own
    print(f"{width} px: the map shown {shown:.0f} px wide of its {own}, names {min(sizes) * scale:.1f} px high")
    assert min(sizes) * scale >= 10, (width, shown, min(sizes))
    IMAGES.mkdir(exist_ok=True)
    browser.find_element(By.ID, "map-view").screenshot(str(IMAGES / f"dba-map-names-{width}.png"))
