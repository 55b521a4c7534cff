"""axe-core over every page in another language than English (Ukrainian), in headless Chromium: the
language chooser, the translated labels and <html lang> keep every page accessible."""

from __future__ import annotations

import pytest
from conftest import fresh
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait
from test_pages import DESKTOP, sign_in, violations

from pbem.tools.pages import page_site


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with page_site(tmp_path_factory.mktemp("i18n-axe")) as site:
        yield site


def test_axe_finds_no_violation_on_any_page_in_ukrainian(site, chromium):
    browser = fresh(chromium, *DESKTOP)
    found, langs = {}, set()
    for who, paths in site.pages().items():
        if site.who(who):
            sign_in(browser, site, site.who(who))
        else:
            browser.delete_all_cookies()
            browser.get(site.url + "/login")
        browser.add_cookie({"name": "pbem_lang", "value": "uk", "path": "/"})
        for path in paths:
            browser.get(site.url + path)
            langs.add(browser.find_element(By.TAG_NAME, "html").get_attribute("lang"))
            if browser.find_elements(By.ID, "map-view") and browser.find_elements(By.ID, "clicks"):
                WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map-view .click-layer"))
            problems = violations(browser)
            if problems:
                found[f"{who} {path}"] = problems
    assert langs == {"uk"}
    assert not found, "\n".join(f"{page}:\n  " + "\n  ".join(p) for page, p in found.items())


def test_the_countdown_and_the_click_help_speak_the_pages_language(site, chromium):
    """static/game.js writes only what the page handed it: the countdown in Ukrainian plural forms."""
    browser = fresh(chromium, *DESKTOP)
    sign_in(browser, site, site.admin)
    browser.add_cookie({"name": "pbem_lang", "value": "uk", "path": "/"})
    browser.get(f"{site.url}/games/{site.demo}?side=france")
    WebDriverWait(browser, 30).until(lambda d: d.find_elements(By.CSS_SELECTOR, "#map-view .click-layer"))
    left = browser.find_element(By.CSS_SELECTOR, "[data-deadline]").text
    assert left.startswith("за ") and any(word in left for word in ("день", "дні", "днів", "годин", "хвилин")), left
    assert browser.find_element(By.ID, "click-selection").text == "Блок не вибрано."
