"""Around each game in a real browser (headless Chromium): a player answers a draw offer from the
game page, resigns another game with the confirmation box, writes to the other seat on the press
page, steps through a finished game's replay, bids for a side in a tournament, takes a seat kept
for her by invitation, and schedules a
vacation on /vacations; axe-core finds no violation on those pages (and the notifications page)
at 1280 and 375 px wide."""

from __future__ import annotations

import threading

import pytest
from conftest import stale
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import Select, WebDriverWait
from werkzeug.serving import make_server

from pbem.server.config import Config
from pbem.server.leagues.service import Leagues
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.server.web import create_app
from pbem.server.web.auth import make_login_token

from test_browser import browser  # noqa: F401 -- the headless Chromium fixture
from test_pages import DESKTOP, PHONE, violations
from websupport import ANNA, FRED, SMALL


@pytest.fixture
def site(tmp_path):
    config = Config(instance=str(tmp_path), secret_key="browser-test-secret", admin_email="admin@example.org")
    store = Store(tmp_path / "pbem.sqlite3")
    service = Service(store, config)
    games = [service.create_game(f"Duel {n}", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=n,
                                 settings={"hours": 48})[0] for n in (1, 2, 3)]
    service.offer_draw(games[0], "france")
    service.send_press(games[0], "france", ["austria"], "A draw, then?")
    service.resolve_next(games[2])
    service.resign(games[2], "france")  # over: its replay is open
    invited, _ = service.create_game("Private", {"austria": FRED}, scenario=SMALL, seed=4,
                                     settings={"hours": 48, "private": True})
    service.invite(invited, "france", ANNA, FRED)
    leagues = Leagues(service)
    league_id = leagues.create_league("Club", "org@example.org", rules={"scenario": SMALL, "bidding": True})
    for email in (ANNA, FRED):
        leagues.join(league_id, email)
    tid = leagues.create_tournament(league_id, "org@example.org", "Bids", "round_robin")
    for email in (ANNA, FRED):
        leagues.enter(tid, email)
    app = create_app(service, config)
    web = make_server("127.0.0.1", 0, app, threaded=True)
    thread = threading.Thread(target=web.serve_forever, name="web", daemon=True)
    thread.start()
    yield service, f"http://127.0.0.1:{web.server_port}", games + [tid, invited]
    web.shutdown()
    thread.join(10)
    store.close()


def click(browser, css: str) -> None:
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, css).click()
    WebDriverWait(browser, 30).until(stale(old))


def test_draw_resign_and_vacations_in_a_browser(site, browser):  # noqa: F811
    service, base, (drawn, resigned, over, tid, invited) = site
    browser.get(f"{base}/login/{make_login_token(service.store, ANNA, service.now())}")
    click(browser, "#sign-in")
    found = {}
    for width in (DESKTOP, PHONE):
        browser.set_window_size(*width)
        for path in (f"/games/{drawn}?side=austria", f"/games/{resigned}?side=austria", "/vacations",
                     f"/games/{drawn}/press?side=austria", f"/games/{over}/replay?day=0&view=austria",
                     f"/games/{over}?side=austria", f"/tournaments/{tid}", "/notifications",
                     f"/games/{invited}/invitation"):
            browser.get(base + path)
            problems = violations(browser)
            if problems:
                found[f"{width[0]} px {path}"] = problems
    assert not found, "\n".join(f"{page}:\n  " + "\n  ".join(p) for page, p in found.items())
    browser.set_window_size(*DESKTOP)

    browser.get(f"{base}/games/{drawn}/press?side=austria")
    browser.find_element(By.CSS_SELECTOR, "#write input[value=france]").click()
    browser.find_element(By.ID, "press-text").send_keys("Agreed, my friend.")
    click(browser, "#write button")
    assert "Your message went to France" in browser.find_element(By.TAG_NAME, "main").text
    assert [m["text"] for m in service.press_for(drawn, "france")] == ["A draw, then?", "Agreed, my friend."]

    browser.get(f"{base}/games/{drawn}?side=austria")
    assert "France offers a draw" in browser.find_element(By.ID, "draw-offered").text
    click(browser, "#around form[action$='/draw/accept'] button")
    assert "drawn by agreement" in browser.find_element(By.TAG_NAME, "main").text
    assert service.game(drawn).over

    browser.get(f"{base}/games/{resigned}?side=austria")
    browser.find_element(By.CSS_SELECTOR, "#around input[name=confirm]").click()
    click(browser, "#around form[action$='/resign'] button")
    assert "You resigned" in browser.find_element(By.TAG_NAME, "main").text
    assert service.game(resigned).view(None)["winner"] == "france"

    browser.get(f"{base}/games/{over}/replay?day=0&view=neutral")
    assert browser.find_elements(By.CSS_SELECTOR, "#replay-map svg")
    click(browser, "#views a")
    assert "view=austria" in browser.current_url and "Austria" in browser.find_element(By.CSS_SELECTOR,
                                                                                       "#views strong").text

    browser.get(f"{base}/tournaments/{tid}")
    Select(browser.find_element(By.ID, "bid-seat")).select_by_visible_text("Austria")
    field = browser.find_element(By.ID, "bid-points")
    field.clear()
    field.send_keys("4")
    click(browser, "#bidding button")
    assert "Austria, up to 4 points" in browser.find_element(By.TAG_NAME, "main").text

    browser.get(f"{base}/games/{invited}/invitation")
    click(browser, "#invitation-france button")
    assert service.seat(invited, "france")["email"] == ANNA and service.info(invited)["status"] == "running"

    browser.get(f"{base}/vacations")
    for name, value in (("starts", "2030-07-01"), ("ends", "2030-07-03")):
        field = browser.find_element(By.ID, name)
        browser.execute_script("arguments[0].value = arguments[1]", field, value)
    click(browser, "#schedule button")
    assert "2030-07-04T00:00:00Z" in browser.find_element(By.ID, "vacations").text
    assert violations(browser) == []
