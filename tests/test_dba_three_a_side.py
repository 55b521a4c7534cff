"""A kriegsspiel game with three commanders a side (issue 30, "Done when"): the advance guards
(maps/dba-advance-guards.toml: General Azur with Colonels Bleu and Indigo against General Carmin with Colonels
Rouge and Grenat) played to its end through the real server,

- by mail: ``pbem demo``'s machinery (the server's SMTP receiver on loopback, its outgoing mail through a relay to
  each seat's bot, who answers each report by SMTP with its key), every mail each seat received searched by the
  leak oracle (tests/leak_oracle.py) for an enemy's real id, brigade or officer, or an enemy element it never
  knew of;
- on the web: every turn's orders typed into the game page's form in headless Chromium and submitted, a colonel
  taking his initiative there too, each seat's page read back in the browser.
"""

from __future__ import annotations

import email
import json
import time
from email import policy

from leak_oracle import check as oracle_check
from leak_oracle import check_view_json, knowledge, all_ids
from test_dba_server import web  # noqa: F401 (the fixture: the real server on loopback)

from pbem.games import ruleset
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.demo import run_demo

RULES = ruleset("dba")
KRIEG = {"command": "kriegsspiel"}
SCENARIO = "dba-advance-guards.toml"
SEATS = ["blue-general", "blue-1", "blue-3", "red-general", "red-1", "red-3"]


def test_three_commanders_a_side_by_mail_to_the_end_and_no_mail_says_what_its_seat_may_not_know(tmp_path):
    out = tmp_path / "demo"
    summary = run_demo(out, seed=3, game="dba", scenario=SCENARIO, options=KRIEG, day_seconds=60, timeout=600,
                       draw_maps=False)  # the mails' PNGs are not read here (tests/test_dba_fog.py reads the maps')
    assert not summary.problems, summary.problems
    service = Service(Store(out / "instance" / "pbem.sqlite3"))
    assert service.info(summary.game_id)["status"] == "finished"
    game = service.game(summary.game_id)
    assert game.over and [s.id for s in RULES.seats(game.scenario, game.options)] == SEATS
    by_side = {side: [c for c in game.scenario.table.commanders.values() if c.side == side] for side in ("blue", "red")}
    assert {side: len(cs) for side, cs in by_side.items()} == {"blue": 3, "red": 3}
    couriers = game.state.post.couriers
    assert {c.sender for c in couriers} <= {"blue-general", "red-general"}
    assert {c.recipient for c in couriers if c.status == "delivered"} >= {"blue-1", "blue-3"} or \
        {c.recipient for c in couriers if c.status == "delivered"} >= {"red-1", "red-3"}
    every = all_ids(game)
    known = {seat: knowledge(game, seat) for seat in SEATS}  # what each may know by the end: the check is on
    mails = {seat: 0 for seat in SEATS}                      # what no seat ever may (real ids, brigades, officers)
    enemy_ids_read = 0
    for path in sorted(out.glob("*.eml")):
        message = email.message_from_bytes(path.read_bytes(), policy=policy.default)
        seat = str(message["To"]).split("@")[0]
        if seat not in known:
            continue
        mails[seat] += 1
        for part in message.walk():
            if part.get_content_maintype() == "multipart" or part.get_content_type() == "image/png":
                continue
            text = part.get_content() if part.get_content_maintype() == "text" else part.get_payload(decode=True)
            text = text.decode() if isinstance(text, bytes) else text
            oracle_check(f"{path.name} to {seat}", text, [known[seat]])
            if part.get_content_type() == "application/json":
                view = json.loads(text)
                check_view_json(f"{path.name} view.json", view, [known[seat]], every)
                enemy_ids_read += len(view.get("enemy", []))
    assert all(n >= game.day for n in mails.values()), mails  # a report a turn, to each of the six seats
    assert enemy_ids_read > 0, "no mail showed an enemy: the fog was not tried"


def test_three_commanders_a_side_on_the_web_in_chromium_to_the_end(web, chromium):  # noqa: F811
    from conftest import fresh, stale
    from selenium.webdriver.common.by import By
    from selenium.webdriver.support.ui import WebDriverWait

    from pbem.server.web.auth import make_login_token

    server, base = web
    service = server.service
    fred = "fred@example.org"
    game_id, _ = service.create_game("Three a side", {s: fred for s in SEATS}, scenario=SCENARIO, seed=6,
                                     game="dba", options=KRIEG, settings={"hours": 24, "early": True})
    browser = fresh(chromium, 1280, 900)
    browser.get(f"{base}/login/{make_login_token(service.store, fred, service.now())}")
    old = browser.find_element(By.TAG_NAME, "html")
    browser.find_element(By.ID, "sign-in").click()
    WebDriverWait(browser, 30).until(stale(old))

    def send(seat: str, text: str) -> str:
        browser.get(f"{base}/games/{game_id}?side={seat}")
        box = browser.find_element(By.ID, "orders-text")
        box.clear()
        browser.execute_script("arguments[0].value = arguments[1]", box, text)
        old = browser.find_element(By.TAG_NAME, "html")
        browser.find_element(By.ID, "submit").click()
        WebDriverWait(browser, 60).until(stale(old))
        page = browser.page_source
        assert "NOT accepted" not in page, page[:3000]
        return page

    bot = RULES.bots()["general"]
    send("blue-1", "INITIATIVE Colonel Bleu\nMOVE TO Mill Village IN COLUMN\n")  # a colonel writes on the web too
    started = time.monotonic()
    while service.info(game_id)["status"] != "finished":
        assert time.monotonic() - started < 600, "the game did not finish in 10 minutes"
        game = service.game(game_id)
        day = game.day
        for seat in game.turn().seats:
            send(seat, bot.orders(game.scenario, game.view(seat), 6 + day) + "FINAL\n")
        deadline = time.monotonic() + 120
        while service.game(game_id).day == day and service.info(game_id)["status"] != "finished":
            assert time.monotonic() < deadline, f"turn {day + 1} was not resolved"
            time.sleep(0.1)
    game = service.game(game_id)
    assert game.over and game.day >= 1
    assert game.state.commanders["blue-1"].initiative_used  # the colonel's order from the web was tested
    assert any(e.text.startswith("Colonel Bleu tests his initiative") for e in game.days[0].events)
    for seat in SEATS:  # each seat's last report in the browser: his own troops, the enemy by his army's ids
        browser.get(f"{base}/games/{game_id}/reports/{game.day - 1}?side={seat}")
        page = browser.page_source
        side, enemy = ("blue", "red") if seat.startswith("blue") else ("red", "blue")
        assert f"{side}-" in page and "Your brigades" in page
        assert not any(f"{enemy}-{b}-{n}" in page for b in (1, 3) for n in range(1, 6)), seat
