"""What a newcomer's trial found (issue 13): the server side, each fix with the test
that failed before it, over a real SQLite file and the real web app."""

from __future__ import annotations

import html
import re
from pathlib import Path

import pytest

from websupport import ADMIN, ANNA, FRED, MOD, OTTO, SMALL, csrf


# -- games made by the JSON API take the web form's defaults ------------------------------


def test_a_game_made_by_the_api_without_settings_has_the_default_settings(site):
    anna = site.client(ANNA)
    made = anna.post("/api/games", json={"title": "By script", "scenario": SMALL, "seats": ["austria"]},
                     headers={"X-CSRF-Token": anna.csrf})
    assert made.status_code == 201, made.text
    settings = site.service.info(made.json["id"])["settings"]
    assert settings["early"] is True and settings["reminders"] == [24, 2] and settings["hours"] == 48
    told = anna.post("/api/games", json={"title": "No early", "scenario": SMALL, "seats": ["austria"],
                                         "settings": {"early": False, "hours": 24}},
                     headers={"X-CSRF-Token": anna.csrf})
    settings = site.service.info(told.json["id"])["settings"]
    assert (settings["early"], settings["hours"], settings["reminders"]) == (False, 24, [24, 2])


# -- backup and restore refuse what is not a club's database -------------------------------


def pbem_cli(*args, tmp_path):
    import os
    import subprocess
    import sys

    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "PBEM_CONFIG": ""}
    return subprocess.run([sys.executable, "-m", "pbem.cli", *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=tmp_path)


def club(tmp_path, extra: str = "") -> "Path":
    config = tmp_path / "club.toml"
    config.write_text(f'instance = "data"\nadmin_email = "org@example.org"\n{extra}')
    return config


def test_backup_without_a_database_is_refused_in_one_line(tmp_path):
    config = club(tmp_path)
    done = pbem_cli("backup", str(tmp_path / "copy.sqlite3"), "--config", str(config), tmp_path=tmp_path)
    assert done.returncode != 0
    assert done.stderr.strip().count("\n") == 0 and "there is no database at" in done.stderr
    assert "pbem.sqlite3" in done.stderr and "Traceback" not in done.stderr
    assert not (tmp_path / "copy.sqlite3").exists() and not (tmp_path / "data" / "pbem.sqlite3").exists()


def test_restore_refuses_a_file_that_is_not_a_pbem_database_and_leaves_the_club_as_it_was(tmp_path):
    import sqlite3

    from pbem.server.store import Store

    config = club(tmp_path)
    (tmp_path / "data").mkdir()
    live = tmp_path / "data" / "pbem.sqlite3"
    store = Store(live)
    store.create_game("marengo", SMALL, 1, "Kept")
    store.close()
    before = live.read_bytes()
    other = tmp_path / "other.sqlite3"
    conn = sqlite3.connect(other)
    conn.execute("CREATE TABLE notes (text TEXT)")
    conn.commit()
    conn.close()
    text = tmp_path / "notes.txt"
    text.write_text("not a database at all\n" * 100)
    for wrong, said in ((other, "not pbem's (no table migrations, games, seats, log)"), (text, "not a database")):
        done = pbem_cli("restore", str(wrong), "--config", str(config), tmp_path=tmp_path)
        assert done.returncode != 0 and said in done.stderr, done.stderr
        assert "Traceback" not in done.stderr and done.stderr.strip().count("\n") == 0
        assert live.read_bytes() == before
    copy = tmp_path / "copy.sqlite3"
    assert pbem_cli("backup", str(copy), "--config", str(config), tmp_path=tmp_path).returncode == 0
    assert pbem_cli("restore", str(copy), "--config", str(config), tmp_path=tmp_path).returncode == 0


# -- settings-file errors: one line, exit code 2 -------------------------------------------


@pytest.mark.parametrize("content, said", [
    (None, "does not exist"),
    ('web_prot = 8080\n', "unknown setting 'web_prot' (did you mean web_port?)"),
    ('web_port = "eighty"\n', "web_port must be a whole number, not 'eighty'"),
    ('smtp_enabled = "maybe"\n', "smtp_enabled must be true or false, not 'maybe'"),
    ('web_port = 80\nweb_port = 81\n', "is not valid TOML"),
])
def test_a_bad_settings_file_is_one_clear_line_and_exit_code_2(tmp_path, content, said):
    config = tmp_path / "bad.toml"
    if content is not None:
        config.write_text(content)
    for command in (["serve"], ["backup", str(tmp_path / "b.sqlite3")], ["login-link"]):
        done = pbem_cli(*command, "--config", str(config), tmp_path=tmp_path)
        assert done.returncode == 2, (command, done.stderr)
        lines = done.stderr.strip().splitlines()
        assert len(lines) == 1 and said in lines[0] and str(config) in lines[0], done.stderr


# -- every mail of a running game states the deadline -------------------------------------

DEADLINE = re.compile(r"(Mon|Tues|Wednes|Thurs|Fri|Satur|Sun)day \d\d \w+ \d{4}, \d\d:\d\d [\w/+-]+, "
                      r"(in \d+ (day|hour|minute)|passed)|\(set when this day's reports are out\)")


def outbox(service, since: int = 0) -> list[dict]:
    return service.store.mails("WHERE id > ? ORDER BY id",
                               (since,))


def mail_in(service, sender: str, text: str) -> dict:
    from email.message import EmailMessage

    from pbem.server import inbox

    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "orders"
    msg["Message-ID"] = f"<{abs(hash((sender, text, service.now())))}@example.org>"
    msg.set_content(text)
    inbound_id, _ = inbox.receive(service, msg.as_bytes(), "smtp")
    return inbox.process(service, inbound_id)


def test_every_mail_the_server_sends_during_a_game_states_the_deadline(tmp_path):
    from datetime import datetime, timezone

    from conftest import Clock

    from pbem.games.marengo.bot import bot_orders
    from pbem.server.config import Config
    from pbem.server.service import Service
    from pbem.server.store import Store

    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    config = Config(instance=str(tmp_path), base_url="http://club.example.org")
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), config, clock=clock)
    service.rasterise = lambda svg: b"png"
    game_id, keys = service.create_game(
        "Every mail", {"austria": ANNA, "france": None}, scenario=SMALL, seed=2, moderator=MOD,
        settings={"hours": 48, "reminders": [24, 2], "miss_policy": "alert", "miss_limit": 1},
        timezones={"austria": "Europe/Vienna"})
    before_start = outbox(service)[-1]["id"]  # Anna's welcome and the moderator's: the game is not running yet
    fred_key = service.join(game_id, "france", FRED, timezone="America/New_York")
    assert service.info(game_id)["status"] == "running"
    game = service.game(game_id)
    anna = f"GAME {game_id} KEY {keys['austria']}"
    mail_in(service, ANNA, anna + "\n" + bot_orders(game.scenario, game.view("austria"), 2))  # accepted
    mail_in(service, ANNA, anna + "\nMOVE NOSUCH TO Nowhere")  # not accepted
    for command in ("STATUS", "ORDERS", "VACATION 1", "VACATION 99", "ANSWER 1 X"):
        mail_in(service, ANNA, f"{anna}\n{command}")
    mail_in(service, FRED, f"GAME {game_id} KEY not-the-key\nSTATUS")  # wrong key, no side named
    mail_in(service, OTTO, f"GAME {game_id} SIDE France KEY not-the-key\nSTATUS")  # wrong key for a side
    mail_in(service, ANNA, "Hello, here are my orders\nMOVE A1 TO X")  # no header
    clock.advance(hours=73)  # past the deadline (48 hours and a day of vacation): day 0 is played
    assert service.tick() == [(game_id, 0)]
    service.run_jobs()
    assert service.game(game_id).turn().seats == ("france",)
    clock.advance(hours=25)  # the 24-hour reminder: France has sent nothing
    service.tick()
    clock.advance(hours=24)
    assert service.tick() == [(game_id, 1)]  # France missed the day: its reports and the missed mails go out
    service.run_jobs()
    mail_in(service, FRED, f"GAME {game_id} KEY {fred_key}\nREPORT")
    mail_in(service, FRED, f"GAME {game_id} KEY {fred_key}\nKEY")
    service.moderate(game_id, MOD, "extend", "the post is slow", hours=24)
    assert service.info(game_id)["status"] == "running"
    sent = outbox(service, before_start)
    kinds = {row["kind"] for row in sent}
    assert {"welcome", "start", "moderator", "reply", "reminder", "report", "missed", "alert", "key",
            "vacation"} <= kinds, kinds
    subjects = {row["subject"] for row in sent}
    for wanted in ("Orders accepted", "Orders NOT accepted", "Status", "Orders", "Vacation", "Refused",
                   "Refused: wrong key", "Your mail to the game server", "Report", "Key", "Moderator: extend",
                   "The game you moderate begins"):
        assert any(wanted in s for s in subjects), (wanted, subjects)
    for row in sent:
        assert DEADLINE.search(row["body"]), (row["kind"], row["subject"], row["body"])
        assert "T" not in re.findall(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", row["body"])  # never a bare ISO time
    extended = [row["body"] for row in sent if row["subject"].endswith("Moderator: extend")
                and row["to_addr"] == FRED]
    assert "24 hours later" in extended[0] and "America/New_York, in 3 days" in extended[0]
    moderator = [row["body"] for row in outbox(service) if row["to_addr"] == MOD and "moderate" in row["subject"]]
    assert len(moderator) == 2 and "It begins when every seat is taken" in moderator[0]
    assert all(f"http://club.example.org/games/{game_id}/moderate" in body for body in moderator)
    # the answers that must help: where the key is, what of a mail without a header was read
    wrong = [row["body"] for row in sent if "The key in your mail" in row["body"]]
    assert len(wrong) == 2
    for body in wrong:
        assert "welcome mail" in body and f"http://club.example.org/games/{game_id}" in body
        assert "Make a new key" in body and "moderator" in body
    no_header = [row["body"] for row in sent if "no first line naming the game" in row["body"]][0]
    assert "Read from your mail: 2 lines" in no_header and "Ignored: nothing." in no_header
    assert f"game {game_id}, Austria: deadline " in no_header and "MOVE A1" not in no_header
    service.store.close()


def test_on_a_24_hour_turn_no_reminder_follows_the_welcome_and_the_2_hour_one_comes(tmp_path):
    from datetime import datetime, timezone

    from conftest import Clock

    from pbem.server.service import Service
    from pbem.server.store import Store

    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    game_id, keys = service.create_game("Quick", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=2,
                                        settings={"hours": 24, "reminders": [24, 2]})
    reminders = lambda: [r for r in outbox(service) if r["kind"] == "reminder"]  # noqa: E731
    for minutes in (0, 1, 30, 90):
        clock.now = datetime(2026, 11, 2, 9, minutes % 60, tzinfo=timezone.utc).replace(hour=9 + minutes // 60)
        service.tick()
    assert reminders() == []
    clock.now = datetime(2026, 11, 3, 7, 1, tzinfo=timezone.utc)  # 2 hours before the deadline
    service.tick()
    service.tick()
    assert [r["to_addr"] for r in reminders()] == [ANNA]


def test_extend_is_bounded_with_a_clear_answer(tmp_path):
    from pbem.server.service import Service, ServiceError
    from pbem.server.store import Store

    service = Service(Store(tmp_path / "pbem.sqlite3"))
    game_id, _ = service.create_game("Long", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=2)
    before = service.deadline(game_id)
    with pytest.raises(ServiceError, match=r"1 to 720 hours \(30 days\).*not 1224.*pause the game"):
        service.moderate(game_id, MOD, "extend", "holidays", hours=1224)
    assert service.deadline(game_id) == before
    service.moderate(game_id, MOD, "extend", "holidays", hours=720)
    assert (service.deadline(game_id) - before).days == 30


@pytest.mark.parametrize("name", ["triomphe", "napoleon1815"])
def test_reports_of_every_game_carry_the_subject_tag_and_the_deadline(tmp_path, name):
    from datetime import datetime, timezone

    from conftest import Clock

    from pbem.games import ruleset
    from pbem.core.ruleset import options_of
    from pbem.server.service import Service
    from pbem.server.store import Store

    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    service.rasterise = lambda svg: b"png"
    rules = ruleset(name)
    scenario = next(iter(rules.scenarios().values()))
    seats = [s.id for s in rules.seats(rules.load_scenario(scenario), options_of(rules))]
    addresses = {seat: f"{seat}@example.org" for seat in seats}
    game_id, _ = service.create_game("Tags", addresses, game=name, seed=4, settings={"hours": 24})
    clock.advance(hours=25)
    service.tick()
    service.run_jobs()
    reports = [r for r in outbox(service) if r["kind"] == "report"]
    assert reports
    for row in reports:
        assert row["subject"].startswith(f"[pbem {game_id}] "), row["subject"]
        assert DEADLINE.search(row["body"]), row["body"][:800]
    if name == "triomphe":
        next_para = re.search(r"Next: (.+?)\n\n", reports[0]["body"], re.S).group(1)
        assert re.search(r"Deadline:\s+\w+day\s.*,\s+in\s+1\s+day", next_para, re.S), next_para


# -- hidden information: a seat closes every other view of a running game, whatever the roles ----


def played_day(site, game_id):
    site.service.resolve_next(game_id)
    site.service.rasterise = lambda svg: b"png"
    site.service.run_jobs()


SEATED_ROUTES = [  # (method, url) of every route showing another seat's data, both sides, or the console
    ("GET", "/games/{id}?side=france"),
    ("GET", "/games/{id}?side="),
    ("GET", "/games/{id}/reports/0?side=france"),
    ("GET", "/games/{id}/reports/0?side="),
    ("GET", "/games/{id}/reports/0?side=france&format=text"),
    ("GET", "/games/{id}/map/now.svg?side=france"),
    ("GET", "/games/{id}/map/0.svg?side="),
    ("GET", "/games/{id}/map/0.png?side=france"),
    ("GET", "/games/{id}/moderate"),
    ("POST", "/games/{id}/moderate/pause"),
    ("POST", "/games/{id}/moderate/extend"),
    ("POST", "/games/{id}/moderate/resolve_now"),
    ("GET", "/api/games/{id}?side=france"),
    ("GET", "/api/games/{id}?side="),
    ("GET", "/api/games/{id}/reports/0?side=france"),
    ("GET", "/api/games/{id}/map/0.svg?side=france"),
    ("GET", "/api/games/{id}/map/now.svg?side="),
]


def ask(client, method, url):
    if method == "POST":
        return client.post(url, data={"csrf_token": client.csrf, "why": "test", "hours": "2"})
    return client.get(url)


@pytest.mark.parametrize("who", ["admin", "moderator"])
def test_a_moderator_or_admin_holding_a_seat_sees_only_his_seat_while_the_game_runs(site, who):
    person = ADMIN if who == "admin" else MOD
    game_id, _ = site.game(seats={"austria": ANNA, "france": FRED}, moderator=MOD)
    played_day(site, game_id)
    site.service.moderate(game_id, OTTO, "replace", "Anna left", side="austria", email=person)
    client = site.client(person)
    for method, url in SEATED_ROUTES:
        answer = ask(client, method, url.format(id=game_id))
        assert answer.status_code == 403, (url, answer.status_code)
        if not url.startswith("/api/") and ".svg" not in url and ".png" not in url:
            assert "which is still running" in answer.text and "Another moderator" in answer.text, url
    assert site.service.info(game_id)["status"] == "running"  # nothing done
    own = client.get(f"/games/{game_id}?side=austria")
    assert own.status_code == 200 and f"/games/{game_id}/moderate" not in own.text
    assert client.get(f"/api/games/{game_id}?side=austria").status_code == 200
    assert client.get(f"/games/{game_id}/reports/0?side=austria").status_code == 200
    if who == "admin":
        admin = client.get("/admin")
        assert admin.status_code == 200
        enemy = [r for r in site.store.recent_outbox(200) if r["to_addr"] == FRED and r["kind"] == "report"][0]
        assert html.escape(enemy["body"].splitlines()[0], quote=False) not in admin.text
        assert f"not shown: you play in game {game_id}" in admin.text and "another moderator" not in admin.text
    # the other moderator (the admin, or the game's moderator) still acts
    other = site.client(MOD if who == "admin" else ADMIN)
    assert other.get(f"/games/{game_id}/moderate").status_code == 200
    assert other.get(f"/games/{game_id}?side=france").status_code == 200
    # once the game is over, everything opens
    site.store.update_game(game_id, status="finished")
    for method, url in SEATED_ROUTES:
        if method == "GET":
            assert client.get(url.format(id=game_id)).status_code == 200, url


# -- Marengo: orders accepted then failed (pbem/games/marengo/checks.py) ---------------------


def marengo_start():
    from pbem.core.chance import Chance
    from pbem.games import rulesets

    rules = rulesets()["marengo"]
    scenario = rules.load_scenario(str(Path(__file__).parent.parent / "maps" / "marengo.toml"))
    return scenario, rules.setup(scenario, {}, Chance(1))


def test_cavalry_named_in_an_assault_across_a_cavalry_obstacle_is_refused():
    from pbem.core.orders import OrdersError
    from pbem.games.marengo.parse import parse_orders

    scenario, state = marengo_start()
    state.day = 1  # France's day
    for bid in ("F4", "F10"):
        state.put(state.blocks[bid], "pedrabona", "vigne_di_pedrabona")
        state.blocks[bid].activated = True
    state.put(state.blocks["A2"], "vigne_di_pedrabona", "pedrabona")
    assert scenario.board.approach("vigne_di_pedrabona", "pedrabona").cavalry_obstacle
    with pytest.raises(OrdersError) as refused:
        parse_orders(scenario, state, "france", "ASSAULT Pedrabona>Vigne di Pedrabona WITH F4 F10 LEAD F4")
    text = str(refused.value)
    assert text.startswith("line 1, column 1: F10 is cavalry, and Vigne di Pedrabona>Pedrabona is a cavalry "
                           "obstacle: cavalry takes no part in an assault across it (003 §5)"), text
    assert "leave F10 out of WITH" in text
    good = parse_orders(scenario, state, "france", "ASSAULT Pedrabona>Vigne di Pedrabona WITH F4 LEAD F4")
    assert good.warnings == []


def test_a_road_entry_into_a_locale_the_enemy_holds_warns_that_he_may_block_it():
    from pbem.games.marengo.parse import parse_orders

    scenario, state = marengo_start()
    assert {b.id for b in state.blocks.values() if b.locale == "pedrabona"} == {"F10", "F11"}
    orders = parse_orders(scenario, state, "austria", "ENTER A1 A2 A3 BY ROAD AT Bormida bridge -> Pedrabona")
    assert len(orders.warnings) == 1
    assert "depends on whether the enemy blocks the attack maneuver into Pedrabona" in orders.warnings[0]
    assert "the blocks behind it on the road do not move" in orders.warnings[0]
    plain = parse_orders(scenario, state, "austria", "ENTER A1 A2 A3 BY ROAD AT Bormida bridge")
    assert plain.warnings == []


# -- the admin page lists every person known --------------------------------------------------


def test_the_admin_page_lists_everyone_who_plays_moderates_or_signs_in_by_link(site):
    game_id, _ = site.game(seats={"austria": ANNA, "france": None}, moderator=MOD)
    site.client(OTTO)  # signs in by a mailed link only: no password, no seat
    admin = site.client(ADMIN)
    page = admin.get("/admin")
    assert page.status_code == 200
    table = re.search(r'<table id="players".*?</table>', page.text, re.S).group(0)
    rows = {re.search(r"<td>([^<]+)</td>", row).group(1): row
            for row in re.findall(r"<tr><td>.*?</tr>", table, re.S)}
    assert {ANNA, MOD, OTTO, ADMIN} <= set(rows), rows.keys()
    cells = lambda email: re.findall(r"<td>([^<]*)</td>", rows[email])  # noqa: E731
    assert cells(ANNA)[3:6] == ["1", "0", "link only"]
    assert cells(MOD)[3:6] == ["0", "1", "link only"]
    assert cells(OTTO)[3:6] == ["0", "0", "link only"] and cells(OTTO)[6]  # since his first sign-in


# -- the game's settings on its page and console ----------------------------------------------


def test_the_game_page_and_the_console_show_the_games_settings(site):
    game_id, _ = site.game(settings={"clock": "daily", "at": "19:30", "timezone": "Europe/Paris",
                                     "skip_weekdays": [5, 6], "reminders": [12], "miss_policy": "alert",
                                     "miss_limit": 2, "vacation_days": 7, "early": False, "ask": ["retreat"]})
    pages = [site.client(ANNA).get(f"/games/{game_id}"), site.client(MOD).get(f"/games/{game_id}/moderate")]
    for page in pages:
        assert page.status_code == 200
        block = re.search(r'<dl class="settings">(.*?)</dl>', page.text, re.S).group(1)
        facts = dict(re.findall(r"<dt>(.*?)</dt><dd>(.*?)</dd>", html.unescape(block)))
        assert facts["Deadlines"] == "daily at 19:30 Europe/Paris, at least 12 hours after the reports; " \
                                     "never on Sat, Sun"
        assert facts["Reminders"] == "12 hours before the deadline"
        assert facts["Missed days"] == "after 2: the moderator is alerted"
        assert facts["Vacation"] == "up to 7 days in all, per player"
        assert facts["Early resolution"] == "no: always at the deadline"
        assert facts["Asked by mail"].endswith("(answer within 720 minutes)")


# -- the new-game form: the chosen game's seats, computer players and decisions ----------------


def test_the_new_game_form_offers_each_games_own_choices_and_the_server_checks_them_per_game(site):
    anna = site.client(ANNA)
    form = html.unescape(anna.get("/games/new").text)
    assert "Bonaparte at Marengo: Bonaparte at Marengo" not in form
    fieldsets = dict(re.findall(r'<fieldset class="per-game" data-game="(\w+)">(.*?)</fieldset>', form, re.S))
    assert set(fieldsets) == {"marengo", "triomphe", "napoleon1815", "dba"}
    assert 'value="dba:rally"' in fieldsets["dba"] and "kriegsspiel" in fieldsets["dba"] and "kriegsspiel" not in fieldsets["marengo"]
    assert 'value="marengo:austria"' in fieldsets["marengo"] and "marengo:" not in fieldsets["triomphe"]
    assert 'value="triomphe:strategist"' in fieldsets["triomphe"] and "napoleon1815:general" not in fieldsets["triomphe"]
    assert 'value="napoleon1815:supply"' in fieldsets["napoleon1815"] and "supply" not in fieldsets["marengo"]
    assert 'value="none"' in form and "I moderate" in form
    base = {"csrf_token": anna.csrf, "title": "T", "hours": "24"}
    refusals = [
        ({"scenario": "triomphe:triomphe.toml", "seat": "marengo:austria"}, "choose your seat: Triomphe"),
        ({"scenario": "triomphe:triomphe.toml", "seat": "triomphe:austria", "computer": "marengo:strategist"},
         "choose a computer player of Triomphe à Marengo"),
        ({"scenario": "triomphe:triomphe.toml", "seat": "triomphe:austria", "ask": "pursuit"},
         "Triomphe à Marengo asks no pursuit decision by mail"),
    ]
    for fields, said in refusals:
        answer = anna.post("/games/new", data={**base, **fields})
        assert answer.status_code == 400 and said in html.unescape(answer.text), (fields, answer.text[:300])
    made = anna.post("/games/new", data={**base, "scenario": "triomphe:triomphe.toml", "seat": "triomphe:france",
                                         "computer": "triomphe:strategist", "ask": ["triomphe:retreat",
                                                                                   "marengo:pursuit"]})
    assert made.status_code == 302, made.text
    game_id = int(re.search(r"/games/(\d+)", made.location).group(1))
    info = site.service.info(game_id)
    assert info["ruleset"] == "triomphe" and info["settings"]["ask"] == ["retreat"]
    assert site.service.bots_of(game_id) == {"austria": "strategist"}
    organiser = anna.post("/games/new", data={**base, "scenario": f"marengo:{SMALL}", "seat": "none"})
    assert organiser.status_code == 302 and organiser.location.endswith("/moderate")
    game_id = int(re.search(r"/games/(\d+)", organiser.location).group(1))
    assert site.service.info(game_id)["moderator"] == ANNA and site.service.info(game_id)["status"] == "open"
    assert all(not seat["email"] for seat in site.store.seats(game_id))
    assert anna.get(organiser.location).status_code == 200


def test_the_start_line_prints_the_players_address_and_where_the_web_listens(tmp_path):
    import time

    from pbem.tools.harness import ServerProcess, free_port

    server = ServerProcess(tmp_path / "club", relay_port=free_port(), base_url="https://games.example.org")
    server.start()
    try:
        for _ in range(200):
            if "pbem is running" in server.log_tail():
                break
            time.sleep(0.05)
        line = next(line for line in server.log_tail().splitlines() if "pbem is running" in line)
        assert line == (f"pbem is running: https://games.example.org (the web listens on "
                        f"http://127.0.0.1:{server.web_port})"), line
    finally:
        server.stop()


# -- Napoleon 1815's templates: the setup lists the blocks, the campaign example is accepted -----


def test_napoleon_1815_templates_name_the_blocks_and_suggest_an_order_the_check_accepts(tmp_path):
    from pbem.server.service import Service
    from pbem.server.store import Store

    service = Service(Store(tmp_path / "pbem.sqlite3"))
    game_id, _ = service.create_game("N", {s: f"{s}@example.org" for s in ("french", "anglo-dutch", "prussian")},
                                     game="napoleon1815", seed=3)
    setup = service.opening_template(game_id, "anglo-dutch")
    assert "# Brussels: WEL" in setup and "# Ninove: BR-HC BR-LC BR-HA" in setup
    game = service.game(game_id)
    while game.view("french")["phase"] != "campaign":
        service.resolve_next(game_id)
        game = service.game(game_id)
    template = service.report(game_id, len(game.days) - 1, "french").template
    example = next(line for line in template.splitlines() if line.startswith("# e.g. MOVE"))
    order = example.removeprefix("# e.g. ").replace("<town>", "Beaumont")
    answer, _ = service.check_orders(game_id, "french", f"GAME {game_id} SIDE french\n{order}")
    assert answer.ok, (order, answer.message())


def test_the_pages_tell_a_questions_deadline_and_a_rulings_deadline_in_the_readers_zone(site):
    from datetime import timedelta

    from pbem.core.decisions import Decision
    from pbem.server.store import iso

    game_id, _ = site.game(settings={"hours": 48, "ask": ["pursuit"], "timezone": "Europe/Paris"})
    site.store.update_seat(game_id, "france", timezone="America/New_York")
    decision = Decision("france", "pursuit", "Pursue?", ("yes", "no"), ("yes",), (("yes", "Pursue"), ("no", "Stay")))
    site.store.set_clock(game_id, pending={"day": 0, "index": 2, "decision": decision.to_dict(),
                                           "deadline": iso(site.service.now() + timedelta(hours=5))})
    page = html.unescape(site.client(FRED).get(f"/games/{game_id}").text)
    assert re.search(r"Without an answer by \w+day .* America/New_York, in (5 hours|4 hours 5\d minutes) the default", page)
    site.store.set_clock(game_id, pending=None)
    moderator = site.client(MOD)
    done = moderator.post(f"/games/{game_id}/moderate/extend", data={"csrf_token": moderator.csrf, "why": "post",
                                                                      "hours": "24"}, follow_redirects=True)
    assert re.search(r"Done: the deadline is 24 hours later\. Deadline: \w+day .* Europe/Paris, in (3 days|2 days 23 hours)",
                     html.unescape(done.text)), done.text[:3000]
