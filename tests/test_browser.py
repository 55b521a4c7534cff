"""A real browser on a real server: headless Chromium, driven by Selenium, against
the app served by werkzeug on 127.0.0.1 (a free port), over a real SQLite file.

The admin signs in with the one-time URL ``pbem serve`` prints, opens the demo
game, types orders into the form, checks them, submits them, and reads the
report once the day is resolved.

Needs Debian's ``chromium`` and ``chromium-driver`` packages (/usr/bin/chromium,
/usr/bin/chromedriver) and the ``selenium`` package. This test never skips:
without a working Chromium it fails.
"""

from __future__ import annotations

import threading
from pathlib import Path

import pytest
from conftest import fresh, stale
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait
from werkzeug.serving import make_server

from pbem.server.config import Config
from pbem.server.serve import make_demo_game
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.server.web import admin_login_url, create_app

SCREENSHOT = Path("/tmp/pbem-browser-game.png")
ADMIN = "admin@example.org"


@pytest.fixture
def server(tmp_path):
    config = Config(instance=str(tmp_path), secret_key="browser-test-secret", admin_email=ADMIN)
    store = Store(tmp_path / "pbem.sqlite3")
    service = Service(store, config)
    game_id = make_demo_game(service, config)
    app = create_app(service, config)
    web = make_server("127.0.0.1", 0, app, threaded=True)
    config.web_host, config.web_port = "127.0.0.1", web.server_port
    thread = threading.Thread(target=web.serve_forever, name="web", daemon=True)
    thread.start()
    yield service, config, game_id
    web.shutdown()
    thread.join(10)
    store.close()


@pytest.fixture
def browser(chromium):
    """The run's headless Chromium (conftest.py), without cookies, 1100 x 1400."""
    return fresh(chromium, 1100, 1400)


def press(browser, wait, element_id: str, then: str):
    """Click a button and wait for the next page's element ``then`` (not the old page's)."""
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, element_id).click()
    wait.until(stale(old))
    return wait.until(EC.presence_of_element_located((By.ID, then)))


def test_sign_in_check_and_submit_orders_then_read_the_report(server, browser):
    service, config, game_id = server
    wait = WebDriverWait(browser, 30)

    # the admin signs in with the URL `pbem serve` prints: no mail needed
    browser.get(admin_login_url(service, config))
    assert ADMIN in browser.find_element(By.TAG_NAME, "main").text
    press(browser, wait, "sign-in", then="my-games")

    # the demo game, from My games
    browser.find_element(By.PARTIAL_LINK_TEXT, "Demo: Bonaparte at Marengo").click()
    textarea = wait.until(EC.presence_of_element_located((By.ID, "orders-text")))
    assert textarea.get_attribute("value").startswith(f"GAME {game_id} SIDE Austria TURN 6AM")
    assert browser.find_element(By.ID, "side-switch")  # the admin holds both seats
    assert browser.execute_script("return document.getElementById('map').naturalWidth") > 500

    # type orders, one of them wrong: Check shows the problem with its line and column
    textarea.clear()
    textarea.send_keys(f"GAME {game_id} SIDE Austria TURN 6AM\nENTER A1 A2 A3 BY ROAD AT Bormida bridge\nENTRE A4\n")
    result = press(browser, wait, "check", then="orders-result")
    assert "NOT accepted" in result.text and "line 3, column 1" in result.text, result.text
    assert service.orders_on_file(game_id, "austria") == ""

    # fix it: Check shows the echo, nothing stored yet
    textarea = browser.find_element(By.ID, "orders-text")
    textarea.clear()
    textarea.send_keys(f"GAME {game_id} SIDE Austria TURN 6AM\nENTER A1 A2 A3 BY ROAD AT Bormida bridge\n")
    result = press(browser, wait, "check", then="orders-result")
    assert "These orders are good" in result.text, result.text
    assert "ENTER A1 A2 A3 BY ROAD AT Bormida bridge" in result.text
    assert service.orders_on_file(game_id, "austria") == ""

    # Submit stores them
    result = press(browser, wait, "submit", then="orders-result")
    assert "Orders accepted" in result.text, result.text
    assert "ENTER A1 A2 A3" in service.orders_on_file(game_id, "austria")

    # the day is resolved; the game page shows Austria's report, and the day's report page reads the same
    assert service.resolve_next(game_id) == 0
    browser.get(f"{config.url}/games/{game_id}?side=austria")
    report = wait.until(EC.presence_of_element_located((By.ID, "report")))
    assert "Report for Austria" in report.text, report.text[:2000]
    assert wait.until(lambda d: d.execute_script("return document.getElementById('map').naturalWidth")) > 500
    height = browser.execute_script("return document.body.scrollHeight")
    browser.set_window_size(1100, min(height + 100, 6000))
    assert browser.save_screenshot(str(SCREENSHOT))
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "#days a").click()
    wait.until(stale(old))
    page = wait.until(EC.presence_of_element_located((By.ID, "report")))
    assert "/reports/0" in browser.current_url
    assert "Report for Austria" in page.text and "6AM" in page.text
    assert browser.execute_script("return document.getElementById('map').naturalWidth") > 500
