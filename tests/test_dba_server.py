"""Napoleonic DBA played to its end through the real server (issue 12, "Done when"), in both ways of playing.

- By mail: ``pbem demo --game dba`` runs the server on loopback with its SMTP receiver, its outgoing mail through
  a relay to the seats' bots, who answer each report by SMTP with their keys (pbem/tools/demo.py): the meeting
  engagement with one seat a side, and with one seat per commander (kriegsspiel, eight seats).
- On the web: the same server (waitress on a loopback port); one game made by the JSON API (two seats), one on
  the new-game page (kriegsspiel), every turn's orders sent through the game page's form over HTTP by players
  signed in with a mailed link; each seat's report page and map read back.

Every game finishes, and its export verifies (``pbem verify``).
"""

from __future__ import annotations

import json
import re
import time
import urllib.request

import pytest
from test_n1815_server import Browser, csrf, signed_in

from pbem.cli import main
from pbem.core.verify import verify
from pbem.games import ruleset
from pbem.server.config import Config
from pbem.server.serve import Server
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.demo import run_demo

RULES = ruleset("dba")
KRIEGSSPIEL = {"command": "kriegsspiel"}
BLUE = ("blue-general", "blue-1", "blue-2", "blue-3")


@pytest.mark.parametrize("options", [{}, KRIEGSSPIEL], ids=["two-seats", "kriegsspiel"])
def test_a_meeting_engagement_by_mail_to_its_end(tmp_path, capsys, options):
    out = tmp_path / "demo"
    if not options:  # the command itself: pbem demo --game dba (its first scenario, the meeting engagement)
        assert main(["demo", "--game", "dba", "--out", str(out), "--seed", "2", "--day-seconds", "60",
                     "--timeout", "600"]) == 0
        assert "12 days resolved" in capsys.readouterr().out
        game_id = 1
    else:
        summary = run_demo(out, seed=2, game="dba", scenario="dba-meeting.toml", options=options, day_seconds=60,
                           timeout=600, draw_maps=False)  # eight seats' maps: the command above draws them
        assert not summary.problems, summary.problems
        game_id = summary.game_id
    service = Service(Store(out / "instance" / "pbem.sqlite3"))
    assert service.info(game_id)["status"] == "finished"
    game = service.game(game_id)
    assert game.over and game.day == 12  # the meeting engagement's 12 turns
    assert verify(service.export(game_id), RULES, game.scenario) == []
    seats = [s.id for s in RULES.seats(game.scenario, game.options)]
    assert seats == (["blue", "red"] if not options else list(BLUE) + ["red-general", "red-1", "red-2", "red-3"])
    mailed = {re.search(rb"(?m)^To: ([\w-]+)@", p.read_bytes()).group(1).decode() for p in out.glob("*.eml")}
    assert set(seats) <= mailed  # every seat's bot got its mails (its reports with the map)
    assert len(list(out.glob("*.png"))) >= 12 * len(seats)  # a map a report
    couriers = game.state.post.couriers
    assert couriers and all(c.status in ("riding", "delivered", "lost") for c in couriers)
    if options:  # every dispatch was written by a seat as itself, to a commander under it
        senders = {c.sender for c in couriers}
        assert senders <= {"blue-general", "red-general"}  # only the generals have commanders under them


def wait_resolved(service, game_id, day):
    deadline = time.monotonic() + 120
    while service.game(game_id).day == day and service.info(game_id)["status"] != "finished":
        assert time.monotonic() < deadline, f"day {day} was not resolved"
        time.sleep(0.1)


def play_on_the_web(service, game_id, browser_of, seed):
    """Every seat's bot orders sent through the game page's form, turn after turn, to the end."""
    bot = RULES.bots()["bot"]
    started = time.monotonic()
    while service.info(game_id)["status"] != "finished":
        assert time.monotonic() - started < 600, "the game did not finish in 10 minutes"
        game = service.game(game_id)
        day = game.day
        for seat in game.turn().seats:
            browser = browser_of(seat)
            page = browser.get(f"/games/{game_id}?side={seat}")
            text = bot.orders(game.scenario, game.view(seat), seed + day) + "FINAL\n"
            answer = browser.post(f"/games/{game_id}/orders", {"csrf_token": csrf(page), "side": seat,
                                                                "text": text, "action": "submit"})
            assert "NOT accepted" not in answer, answer[:2000]
        wait_resolved(service, game_id, day)
    return service.game(game_id)


@pytest.fixture
def web(tmp_path):
    config = Config(instance=str(tmp_path), web_port=0, smtp_port=0, smtp_host="127.0.0.1", tick_seconds=0.2,
                    demo=False, from_addr="pbem@web.invalid", domain="web.invalid", secret_key="web-test",
                    relay_host="127.0.0.1", relay_port=9)  # nothing listens: the mail stays queued
    server = Server(config)
    server.start()
    server.service.rasterise = lambda svg: b"png"  # the maps' PNGs are not this test's matter (the SVG is read)
    server.service.drawing = None  # (nor drawn whole in the drawing workers)
    try:
        yield server, f"http://127.0.0.1:{config.web_port}"
    finally:
        server.stop()


def test_a_two_seat_game_made_by_the_json_api_played_on_the_web(web, tmp_path):
    server, base = web
    service = server.service
    anna, fred = "anna@example.org", "fred@example.org"
    browsers = {anna: signed_in(base, service, anna), fred: signed_in(base, service, fred)}
    listed = json.loads(browsers[anna].get("/api/rulesets"))
    dba = next(r for r in listed["rulesets"] if r["name"] == "dba")
    assert {s["file"] for s in dba["scenarios"]} == {"dba-meeting.toml", "dba-advance-guards.toml", "dba-quatre-bras.toml"}
    token = json.loads(browsers[anna].get("/api/games"))["csrf_token"]
    request = urllib.request.Request(
        base + "/api/games", json.dumps({"game": "dba", "scenario": "dba-meeting.toml", "title": "Meeting",
                                         "seats": ["blue", "red"], "settings": {"hours": 1, "early": True}}).encode(),
        {"Content-Type": "application/json", "X-CSRF-Token": token})
    with browsers[anna].opener.open(request, timeout=60) as response:
        game_id = json.loads(response.read())["id"]
    assert service.game(game_id).ruleset.name == "dba"
    game = play_on_the_web(service, game_id, lambda seat: browsers[anna], 5)
    assert game.over and game.day == 12
    for seat, enemy in (("blue", "red"), ("red", "blue")):
        page = browsers[anna].get(f"/games/{game_id}/reports/5?side={seat}")
        assert "Your brigades" in page and f"{enemy}-general" not in page
        svg = browsers[anna].get(f"/api/games/{game_id}/map/5.svg?side={seat}")
        assert svg.lstrip().startswith("<") and "<svg" in svg
    export = tmp_path / "export.json"
    export.write_text(json.dumps(service.export(game_id)), encoding="utf-8")
    assert main(["verify", str(export)]) == 0


def test_a_kriegsspiel_game_made_on_the_new_game_page_played_on_the_web(web):
    server, base = web
    service = server.service
    fred = "fred@example.org"
    browser = signed_in(base, service, fred)
    form = browser.get("/games/new")
    assert '<option value="marengo:' in form and "kriegsspiel" in form
    # the default game is Bonaparte at Marengo, chosen on purpose (not the first name in order, "dba")
    assert form.index('value="marengo:') < form.index('value="dba:')
    page = browser.post("/games/new", {"csrf_token": csrf(form), "title": "Kriegsspiel",
                                       "scenario": "dba:dba-meeting.toml", "option.dba.command": "kriegsspiel",
                                       "seat": "both", "hours": "1", "early": "1", "timezone": "UTC"})
    game_id = max(g["id"] for g in json.loads(browser.get("/api/games"))["games"])
    assert "Kriegsspiel" in page and service.game(game_id).ruleset.name == "dba"
    game = service.game(game_id)
    assert game.options["command"] == "kriegsspiel"
    assert set(game.turn().seats) == {"blue-general", "red-general"}  # those with commanders under them
    assert set(game.turn().others) == set(BLUE[1:]) | {"red-1", "red-2", "red-3"}

    # a brigade's seat writes for its own commander only: a dispatch as his general is refused, saying why
    own = browser.get(f"/games/{game_id}?side=blue-1")
    answer = browser.post(f"/games/{game_id}/orders", {
        "csrf_token": csrf(own), "side": "blue-1", "action": "check",
        "text": f"GAME {game_id} SIDE blue-1\nFROM General Azur TO Colonel Cobalt\nHOLD\n"})
    assert "NOT accepted" in answer and "you do not write for General Azur" in answer

    game = play_on_the_web(service, game_id, lambda seat: browser, 9)
    assert game.over and game.day == 12
    # each seat reads its own troops only: the brigade seat's report names no other brigade's elements
    page = browser.get(f"/games/{game_id}/reports/6?side=blue-2")
    assert "blue-2-1" in page and "blue-1-1" not in page and "blue-3-1" not in page
    general = browser.get(f"/games/{game_id}/reports/6?side=blue-general")
    assert "blue-1-1" in general and "blue-2-1" in general  # the general commands them all
    delivered = [c for c in game.state.post.couriers if c.status == "delivered" and c.recipient == "blue-2"]
    if delivered:  # what the couriers brought him is in his report
        later = browser.get(f"/games/{game_id}/reports/{delivered[-1].delivered - 1}?side=blue-2")
        assert "Dispatches brought to you" in later


def test_the_demo_game_of_a_new_server_is_bonaparte_at_marengo_by_intent(tmp_path):
    """"dba" sorts first among the installed games; the demo game is still Marengo (pbem.games.DEFAULT)."""
    from pbem.games import DEFAULT, default, rulesets
    from pbem.server.serve import make_demo_game

    assert next(iter(rulesets())) == "dba" and DEFAULT == "marengo" and default()[0] == "marengo"
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    config = Config(instance=str(tmp_path), admin_email="admin@example.org")
    game_id = make_demo_game(service, config)
    assert service.game(game_id).ruleset.name == "marengo"
    assert service.info(game_id)["title"] == "Demo: Bonaparte at Marengo"


@pytest.mark.parametrize("width", [(1280, 900), (375, 800)], ids=["desktop", "phone"])
def test_axe_finds_no_violation_on_the_dba_pages(web, chromium, width):
    """A kriegsspiel game's page and report page of a brigade's seat and of the general's, and the new-game
    page with the DBA choices, in headless Chromium: axe-core finds nothing."""
    from conftest import fresh, stale
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait
    from test_pages import violations

    from pbem.server.web.auth import make_login_token

    server, base = web
    service = server.service
    fred = "fred@example.org"
    game_id, _ = service.create_game("Pages", {s.id: fred for s in RULES.seats(
        RULES.load_scenario(RULES.scenarios()["dba-meeting"]), KRIEGSSPIEL)}, scenario="dba-meeting.toml", seed=4,
        game="dba", options=KRIEGSSPIEL, settings={"hours": 24})
    bot = RULES.bots()["bot"]
    for _ in range(3):
        game = service.game(game_id)
        for seat in game.turn().seats:
            service.submit(game_id, seat, bot.orders(game.scenario, game.view(seat), 4) + "FINAL\n")
        service.resolve_next(game_id, ask=False)
        service.run_jobs()
    browser = fresh(chromium, *width)
    browser.get(f"{base}/login/{make_login_token(service.store, fred, service.now())}")
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, "sign-in").click()
    WebDriverWait(browser, 30).until(stale(old))
    found = {}
    for path in (f"/games/{game_id}?side=blue-1", f"/games/{game_id}?side=blue-general",
                 f"/games/{game_id}/reports/2?side=blue-2", f"/games/{game_id}/reports/2?side=red-general",
                 "/games/new"):
        browser.get(base + path)
        assert ("Napoleonic DBA" in browser.page_source and "Sign in" not in browser.title), path  # the page itself
        problems = violations(browser)
        if problems:
            found[path] = problems
    assert not found, "\n".join(f"{page}:\n  " + "\n  ".join(p) for page, p in found.items())
