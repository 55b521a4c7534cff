"""The league pages in a real browser (headless Chromium, as tests/test_browser.py): the admin
signs in, joins a league from its page, opens a running round robin's console, adjudicates a
game there, publishes the tournament, and reads its public crosstable and a player's record;
axe-core finds no violation on any league page (the leagues, a league, a tournament, its console,
a player's record), at 1280 and 375 px wide."""

from __future__ import annotations

import re
import threading

import pytest
from conftest import stale
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait
from werkzeug.serving import make_server

from pbem.server.config import Config
from pbem.server.leagues.service import Leagues
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.server.web import admin_login_url, create_app

from test_browser import browser  # noqa: F401 -- the headless Chromium fixture
from test_pages import DESKTOP, PHONE, violations
from websupport import SMALL

ADMIN = "admin@example.org"
ORG = "org@example.org"


@pytest.fixture
def site(tmp_path):
    config = Config(instance=str(tmp_path), secret_key="browser-test-secret", admin_email=ADMIN)
    store = Store(tmp_path / "pbem.sqlite3")
    service = Service(store, config)
    leagues = Leagues(service)
    league_id = leagues.create_league("Marengo Club", ORG, rules={"scenario": SMALL})
    players = [f"p{n}@example.org" for n in range(1, 5)]
    for n, email in enumerate(players, 1):
        leagues.join(league_id, email, f"Player {n}")
    tid = leagues.create_tournament(league_id, ORG, "Spring pool", "round_robin")
    for email in players:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    cup = leagues.create_tournament(league_id, ORG, "Autumn cup", "double_elimination")
    for email in players[:3]:
        leagues.enter(cup, email)
    leagues.start(cup, ORG)
    for _ in range(2):  # W1.2, then W2.1 ruled: the page draws both brackets (L2.1 is paired)
        [p] = [p for p in leagues.tournament(cup)["pairings"] if p["result"] is None]
        leagues.adjudicate(cup, ORG, "played at the club", p["id"], "first")
        leagues.sync(cup)
    leagues.publish(cup, ORG)
    app = create_app(service, config)
    web = make_server("127.0.0.1", 0, app, threaded=True)
    config.web_host, config.web_port = "127.0.0.1", web.server_port
    thread = threading.Thread(target=web.serve_forever, name="web", daemon=True)
    thread.start()
    yield service, config, leagues, league_id, tid, cup
    web.shutdown()
    thread.join(10)
    store.close()


def test_league_pages_in_a_browser(site, browser):  # noqa: F811
    service, config, leagues, league_id, tid, cup = site
    base = f"http://127.0.0.1:{config.web_port}"
    wait = WebDriverWait(browser, 30)
    browser.get(admin_login_url(service, config))
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, "sign-in").click()
    wait.until(stale(old))

    browser.get(f"{base}/leagues")
    browser.find_element(By.PARTIAL_LINK_TEXT, "Marengo Club").click()
    wait.until(EC.presence_of_element_located((By.ID, "join")))
    browser.find_element(By.NAME, "name").send_keys("The Admin")
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "#join button").click()
    wait.until(stale(old))
    assert "You are a member" in browser.find_element(By.ID, "member").text
    assert "The Admin" in browser.find_element(By.ID, "members").text
    assert "Spring pool" in browser.find_element(By.ID, "tournaments").text

    browser.get(f"{base}/tournaments/{tid}/console")
    games = browser.find_element(By.ID, "games")
    assert len(games.find_elements(By.CSS_SELECTOR, "tbody tr")) == 2
    form = games.find_element(By.CSS_SELECTOR, "form.inline")
    form.find_element(By.NAME, "why").send_keys("agreed by both players")
    old = browser.find_element(By.TAG_NAME, "html")
    form.find_element(By.CSS_SELECTOR, "button").click()
    wait.until(stale(old))
    assert "adjudicate: done" in browser.find_element(By.TAG_NAME, "main").text
    assert "first (adjudicated)" in browser.find_element(By.ID, "games").text
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "#action-publish button").click()
    wait.until(stale(old))
    assert leagues.tournament(tid)["published"] == 1

    browser.get(f"{base}/tournaments/{tid}")
    table = wait.until(EC.presence_of_element_located((By.ID, "crosstable")))
    text = table.text
    assert "Player 1" in text and "Sonneborn-Berger" in text
    assert re.search(r"\+\d[FS]a", text) and re.search(r"-\d[FS]a", text)  # the adjudicated game, both ways
    assert re.search(r"\*\d[FS]", text)  # the other game of round 1, being played
    browser.find_element(By.ID, "round-1")

    browser.get(f"{base}/tournaments/{cup}")
    assert "Winners' bracket" in wait.until(EC.presence_of_element_located((By.ID, "bracket-w"))).get_attribute(
        "aria-label")
    assert browser.find_elements(By.CSS_SELECTOR, '#bracket-l [data-match="L2.1"]')

    browser.get(f"{base}/players/p1@example.org")
    assert "Reliability" in wait.until(EC.presence_of_element_located((By.ID, "reliability"))).text

    found = {}
    for width in (DESKTOP, PHONE):
        browser.set_window_size(*width)
        for path in ("/leagues", f"/leagues/{league_id}", f"/tournaments/{tid}", f"/tournaments/{tid}/console",
                     f"/tournaments/{cup}", "/players/p1@example.org"):
            browser.get(base + path)
            problems = violations(browser)
            if problems:
                found[f"{width[0]} px {path}"] = problems
    browser.set_window_size(*DESKTOP)
    assert not found, "\n".join(f"{page}:\n  " + "\n  ".join(p) for page, p in found.items())
