"""The game page's live check shows what Submit would answer: the orders that depend on the
enemy, not "good" alone (issue 13, the newcomer's trial). Headless Chromium on a real server,
as tests/test_browser.py (whose fixtures it uses)."""

from __future__ import annotations

from conftest import stale
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from pbem.server.web import admin_login_url

from test_browser import browser, press, server  # noqa: F401 -- the fixtures


def test_the_live_check_lists_the_orders_that_depend_on_the_enemy(server, browser):  # noqa: F811
    service, config, game_id = server
    wait = WebDriverWait(browser, 30)
    browser.get(admin_login_url(service, config))
    press(browser, wait, "sign-in", then="my-games")
    browser.get(f"{config.url}/games/{game_id}?side=austria")
    textarea = wait.until(EC.presence_of_element_located((By.ID, "orders-text")))
    live = browser.find_element(By.ID, "live-check")
    textarea.clear()
    textarea.send_keys(f"GAME {game_id} SIDE Austria TURN 6AM\nENTER A1 A2 A3 BY ROAD AT Bormida bridge\n")
    wait.until(lambda d: "good" in live.text)
    assert "depend" not in live.text
    textarea.send_keys("\b" * 1 + " -> Pedrabona\n")
    wait.until(lambda d: "depend" in live.text)
    assert "depends on whether the enemy blocks the attack maneuver into Pedrabona" in live.text, live.text
    assert "these orders are good" not in live.text
    submitted = service.check_orders(game_id, "austria", browser.find_element(By.ID, "orders-text")
                                     .get_attribute("value"))[0]
    assert submitted.ok and submitted.warnings and all(w in live.text for w in submitted.warnings)


def test_the_new_game_form_shows_only_the_chosen_games_choices(server, browser):  # noqa: F811
    from selenium.webdriver.support.ui import Select

    service, config, game_id = server
    wait = WebDriverWait(browser, 30)
    browser.get(admin_login_url(service, config))
    press(browser, wait, "sign-in", then="my-games")
    browser.get(f"{config.url}/games/new")
    scenario = Select(wait.until(EC.presence_of_element_located((By.NAME, "scenario"))))

    def shown():
        return {f.get_attribute("data-game") for f in browser.find_elements(By.CSS_SELECTOR, "fieldset.per-game")
                if f.is_displayed()}

    assert shown() == {"marengo"}
    scenario.select_by_value("triomphe:triomphe.toml")
    wait.until(lambda d: shown() == {"triomphe"})
    checked = browser.find_element(By.CSS_SELECTOR, "input[name=seat]:checked").get_attribute("value")
    assert checked.startswith("triomphe:")  # the seat follows the game chosen
    browser.find_element(By.NAME, "title").send_keys("Chosen by clicking")
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.CSS_SELECTOR, "form.card button[type=submit]").click()
    wait.until(stale(old))
    made = [g for g in service.store.games() if g["title"] == "Chosen by clicking"]
    assert made and made[0]["ruleset"] == "triomphe"
