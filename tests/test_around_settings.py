"""Who may join, talk and watch, chosen when a game is made: ``private``, ``press`` and
``spectator_delay`` on the new-game form (in headless Chromium) and in the JSON API (over a real
HTTP server on loopback), checked with answers that name the setting, what came and what it takes."""

from __future__ import annotations

import http.cookiejar
import json
import re
import threading
import urllib.error
import urllib.request

import pytest
from conftest import stale
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait
from werkzeug.serving import make_server

from pbem.server.service import ServiceError
from pbem.server.web.auth import make_login_token

from test_browser import browser  # noqa: F401 -- the headless Chromium fixture
from websupport import ANNA, FRED, SMALL, Site, csrf, post


@pytest.fixture
def served(tmp_path):
    """The site on a real HTTP server on 127.0.0.1."""
    site = Site(tmp_path)
    web = make_server("127.0.0.1", 0, site.app, threaded=True)
    thread = threading.Thread(target=web.serve_forever, name="web", daemon=True)
    thread.start()
    site.url = f"http://127.0.0.1:{web.server_port}"
    yield site
    web.shutdown()
    thread.join(10)
    site.store.close()


class Http:
    """A script talking to the server over HTTP with a cookie jar, signed in by a mailed link."""

    def __init__(self, site, email: str):
        self.url = site.url
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        link = f"{site.url}/login/{make_login_token(site.store, email, site.service.now())}"
        page = self.opener.open(link, timeout=30).read().decode()
        form = urllib.parse.urlencode({"csrf_token": csrf(page)}).encode()
        self.opener.open(urllib.request.Request(link, data=form), timeout=30).read()
        self.token = self.get("/api/games")[1]["csrf_token"]

    def get(self, path: str) -> tuple[int, dict]:
        with self.opener.open(self.url + path, timeout=30) as answer:
            return answer.status, json.loads(answer.read())

    def post(self, path: str, body: dict) -> tuple[int, dict]:
        request = urllib.request.Request(self.url + path, data=json.dumps(body).encode(), method="POST",
                                         headers={"Content-Type": "application/json", "X-CSRF-Token": self.token})
        try:
            with self.opener.open(request, timeout=30) as answer:
                return answer.status, json.loads(answer.read())
        except urllib.error.HTTPError as error:
            return error.code, json.loads(error.read())


def test_the_api_lists_and_takes_private_press_and_spectator_delay(served):
    anna = Http(served, ANNA)
    status, listed = anna.get("/api/rulesets")
    assert status == 200
    settings = {s["name"]: s for s in listed["settings"]}
    assert settings["private"]["default"] is False and settings["press"]["default"] == "game"
    assert settings["spectator_delay"]["default"] is None and "none, open, game" in settings["press"]["takes"]
    assert "hours" in settings and "help" in settings["spectator_delay"]
    own_rule = {r["name"]: r["press_rule"] for r in listed["rulesets"]}
    assert own_rule["napoleon1815"] is True and own_rule["marengo"] is False

    status, made = anna.post("/api/games", {"title": "Invitation only", "scenario": SMALL, "seats": ["austria"],
                                            "settings": {"private": True, "press": "none", "spectator_delay": 2}})
    assert status == 201, made
    stored = served.service.info(made["id"])["settings"]
    assert (stored["private"], stored["press"], stored["spectator_delay"]) == (True, "none", 2)
    # private: not among the open games, and its seat is refused without an invitation
    fred = served.client(FRED)
    assert f"/games/{made['id']}" not in fred.get("/").text
    assert post(fred, f"/games/{made['id']}/join", side="france").status_code == 400
    # press none: no message goes (a game of both seats, so that it runs)
    status, silent = anna.post("/api/games", {"title": "Silent", "scenario": SMALL, "seats": ["austria", "france"],
                                              "settings": {"press": "none"}})
    with pytest.raises(ServiceError, match="allows no messages"):
        served.service.send_press(silent["id"], "austria", ["france"], "hello")

    status, plain = anna.post("/api/games", {"title": "Defaults", "scenario": SMALL, "seats": ["austria"]})
    stored = served.service.info(plain["id"])["settings"]
    assert (stored["private"], stored["press"], stored["spectator_delay"]) == (False, "game", None)

    for settings, said in (({"private": "maybe"}, "private is true or false, not 'maybe'"),
                           ({"press": "loud"}, "press is one of none, open, game, not 'loud'"),
                           ({"spectator_delay": -1}, "spectator_delay is a number of days (0 or more), or null, not -1"),
                           ({"spectator_delay": "two"}, "not 'two'"),
                           ({"spectator_delay": True}, "not True"),
                           ({"privat": True}, "there is no setting 'privat'; the settings are")):
        status, answer = anna.post("/api/games", {"title": "Bad", "scenario": SMALL, "seats": ["austria"],
                                                  "settings": settings})
        assert status == 400 and answer["ok"] is False and said in answer["error"], (settings, answer)
    status, answer = anna.post("/api/games", {"title": "Bad", "scenario": SMALL, "settings": ["private"]})
    assert status == 400 and "settings is an object" in answer["error"]
    # the settings' names are those of docs/operations.md: timezone (the game's) is taken as such
    status, made = anna.post("/api/games", {"title": "Paris", "scenario": SMALL, "seats": ["austria"],
                                            "settings": {"timezone": "Europe/Paris", "skip_weekdays": [6]}})
    assert status == 201 and served.service.info(made["id"])["settings"]["timezone"] == "Europe/Paris"
    assert served.service.info(made["id"])["settings"]["skip_weekdays"] == [6]


def test_the_new_game_form_refuses_a_bad_delay_or_press_saying_what_it_takes(served):
    anna = served.client(ANNA)
    base = {"title": "Form", "scenario": f"marengo:{SMALL}", "seat": "marengo:austria"}
    for extra, said in (({"spectator_delay": "two"}, "spectator_delay is a number of days"),
                        ({"press": "shout"}, "press is one of none, open, game")):
        answer = post(anna, "/games/new", **base, **extra)
        assert answer.status_code == 400 and said in answer.text
    assert post(anna, "/games/new", **base).status_code == 302  # nothing ticked: public, the game's rule, no delay
    settings = served.service.info(max(g["id"] for g in served.store.games()))["settings"]
    assert (settings["private"], settings["press"], settings["spectator_delay"]) == (False, "game", None)


def test_the_new_game_form_in_a_browser_sets_private_press_and_delay(served, browser):  # noqa: F811
    wait = WebDriverWait(browser, 30)
    browser.get(f"{served.url}/login/{make_login_token(served.store, ANNA, served.service.now())}")
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, "sign-in").click()
    wait.until(stale(old))
    browser.get(f"{served.url}/games/new")
    browser.find_element(By.NAME, "title").send_keys("Watched duel")
    Select(browser.find_element(By.NAME, "scenario")).select_by_visible_text("Small test scenario")
    browser.find_element(By.CSS_SELECTOR, "input[name=seat][value='marengo:austria']").click()
    box = browser.find_element(By.ID, "around-settings")
    box.find_element(By.NAME, "private").click()
    Select(box.find_element(By.NAME, "press")).select_by_value("open")
    box.find_element(By.NAME, "spectator_delay").send_keys("1")
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "form[action$='/games/new'] button[type=submit]").click()
    wait.until(stale(old))
    assert re.search(r"/games/\d+", browser.current_url), browser.find_element(By.TAG_NAME, "main").text
    game_id = int(re.search(r"/games/(\d+)", browser.current_url).group(1))
    settings = served.service.info(game_id)["settings"]
    assert (settings["private"], settings["press"], settings["spectator_delay"]) == (True, "open", 1)
    shown = browser.find_element(By.ID, "settings").text
    assert "seats by invitation only" in shown and "any seat to any" in shown and "1 day behind" in shown
