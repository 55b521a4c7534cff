"""The new-game form in headless Chromium (issue 33): only the chosen scenario's seats (a game's scenarios may
have other seats: Napoleonic DBA's meeting has blue and red, Quatre Bras France and the Allies, and each its own
commanders), and the whole form fits a phone's 375 px without scrolling sideways."""

from __future__ import annotations

import pytest
from conftest import fresh, stale
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from pbem.server.web.auth import make_login_token

from test_around_settings import served  # noqa: F401 -- the site on a real HTTP server
from websupport import ANNA


@pytest.fixture
def phone(chromium):
    return fresh(chromium, 375, 800)


def sign_in(browser, site):
    browser.get(f"{site.url}/login/{make_login_token(site.store, ANNA, site.service.now())}")
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, "sign-in").click()
    WebDriverWait(browser, 30).until(stale(old))
    browser.get(f"{site.url}/games/new")


def offered(browser) -> set[str]:
    """The seats a person can choose: shown and enabled."""
    return {e.get_attribute("value") for e in browser.find_elements(By.CSS_SELECTOR, "input[name=seat]")
            if e.is_displayed() and e.is_enabled() and ":" in e.get_attribute("value")}


def test_only_the_chosen_scenarios_seats_and_no_sideways_scroll_on_a_phone(served, phone):  # noqa: F811
    sign_in(phone, served)
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 375
    choose = Select(phone.find_element(By.NAME, "scenario"))
    choose.select_by_value("dba:dba-quatre-bras.toml")
    assert offered(phone) == {"dba:french", "dba:allies"}
    phone.find_element(By.CSS_SELECTOR, "details[data-scenarios='dba:dba-quatre-bras.toml'] summary").click()
    assert "dba:wellington" in offered(phone) and "dba:blue-general" not in offered(phone)
    choose.select_by_value("dba:dba-meeting.toml")
    assert {"dba:blue", "dba:red"} <= offered(phone) and not offered(phone) & {"dba:french", "dba:wellington"}
    checked = phone.find_element(By.CSS_SELECTOR, "input[name=seat]:checked").get_attribute("value")
    assert checked in offered(phone)  # the seat chosen before went with its scenario: one of this one's is
    assert phone.execute_script("return document.documentElement.scrollWidth") <= 375
