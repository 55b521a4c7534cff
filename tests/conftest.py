"""Shared test fixtures."""

import re
import tempfile
from datetime import datetime, timedelta
from pathlib import Path

import pytest

from pbem.server import store as _store
from pbem.server.service.base import ServiceLock

ServiceLock.STRICT = True  # the service's lock asked for inside a store transaction fails the test that did it

# A seat's key is hashed with scrypt at a cost meant to slow a guesser down (pbem.server.store.SCRYPT: n = 2**14,
# about 50 ms a hash). In a test that cost buys nothing (test_web_security.py alone made 649 hashes, 35 of its 68
# CPU seconds), so the tests' own process hashes new keys at n = 2**4 (CHEAP_SCRYPT): every key is still hashed,
# salted, checked right and refused wrong. A seat's row keeps the cost its key was hashed at (key_cost), so a
# server the tests start as a process (hashing at the real cost) checks a key hashed here, and the other way
# round; test_store.py checks the server's parameters (PRODUCTION_SCRYPT).
PRODUCTION_SCRYPT = dict(_store.SCRYPT)
CHEAP_SCRYPT = {**PRODUCTION_SCRYPT, "n": 2**4}
_store.SCRYPT = CHEAP_SCRYPT


@pytest.fixture
def site(tmp_path):
    """tests/websupport.py's Site (a service and its web app over a SQLite file in this test's folder), its store
    closed after the test. A module that needs another site (a game made, settings) defines its own."""
    from websupport import Site

    site = Site(tmp_path)
    yield site
    site.store.close()


CHROMIUM = "/usr/bin/chromium"
CHROMEDRIVER = "/usr/bin/chromedriver"


class Clock:
    """A clock the test moves by hand (the service and store take any callable)."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)


def pytest_addoption(parser):
    group = parser.getgroup("pbem")
    group.addoption("--oracle-games", type=int, default=1,
                    help="games per ruleset for the leak oracle (tests/test_leak_oracle.py); 20 is the long run")
    group.addoption("--oracle-days", type=int, default=5,
                    help="resolved days checked per oracle game (0: play each game to its end)")
    group.addoption("--fog-games", type=int, default=1,
                    help="kriegsspiel games of the DBA fog leak test (tests/test_dba_fog.py); 50 is the long run")
    group.addoption("--fog-days", type=int, default=6,
                    help="turns played per fog game (0: each game to its end)")
    group.addoption("--fog-engine-games", type=int, default=1,
                    help="whole kriegsspiel games checked on the engine's outputs (tests/test_dba_fog.py); 50: long")


@pytest.fixture(scope="session")
def chromium(tmp_path_factory):
    """One headless Chromium (Debian's, through its chromedriver) for every browser test of the run:
    tests/test_browser.py, test_league_browser.py and test_pages.py each take it with its cookies
    cleared and their window size (starting a browser takes seconds)."""
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service as DriverService

    assert Path(CHROMIUM).exists(), f"{CHROMIUM} is missing: apt-get install -y chromium chromium-driver"
    assert Path(CHROMEDRIVER).exists(), f"{CHROMEDRIVER} is missing: apt-get install -y chromium-driver"
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tmp_path_factory.mktemp("chromium-profile")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--hide-scrollbars", f"--user-data-dir={profile}", "--window-size=1280,900"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=DriverService(executable_path=CHROMEDRIVER), options=options)
    driver.set_page_load_timeout(60)
    driver.set_script_timeout(60)
    yield driver
    driver.quit()


def fresh(driver, width: int, height: int):
    """The shared browser as a new user would have it: no cookies (of any site), this window size."""
    driver.execute_cdp_cmd("Network.clearBrowserCookies", {})
    driver.get("about:blank")
    driver.set_window_size(width, height)
    return driver


def stale(element):
    """A wait condition: the page that held ``element`` has been replaced (selenium's staleness_of,
    which knows only "stale element reference"; Chromium asked in mid-navigation may answer
    instead that the node "does not belong to the document", which says the same)."""
    from selenium.common.exceptions import StaleElementReferenceException, WebDriverException

    def gone(_driver) -> bool:
        try:
            element.is_enabled()
            return False
        except StaleElementReferenceException:
            return True
        except WebDriverException as exc:
            if "does not belong to the document" in str(exc):
                return True
            raise

    return gone


def run_case_text(run_case, text: str):
    """A case written in a test (its TOML ``text``) run by a game's ``run_case`` from a file of its own."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "case.toml"
        path.write_text(text)
        return run_case(path)


class CountingParses:
    """A ruleset whose ``parse_orders`` counts its calls (everything else is the ruleset's): how many orders
    texts a replay read (tests of the stored parse and of the reading handed on from submit)."""

    def __init__(self, rules):
        self._rules, self.parses = rules, 0

    def __getattr__(self, name):
        return getattr(self._rules, name)

    def parse_orders(self, *args, **kwargs):
        self.parses += 1
        return self._rules.parse_orders(*args, **kwargs)


def first_setting(name):
    """(ruleset, its first scenario) of the game ``name``."""
    from pbem.games import ruleset

    rules = ruleset(name)
    return rules, rules.load_scenario(next(iter(rules.scenarios().values())))
