"""The web pages and the JSON API, through Flask's test client, on a real SQLite file.

Each test builds the real app over a real service: signing in by a mailed
link (read from the outbox, as a player reads the mail), the games list,
creating and joining games, orders with problems and without, the standing
orders editor, reports and maps of resolved days, moderator actions and the
API.
"""

from __future__ import annotations

import html
import re
from email.message import EmailMessage

from pbem.server import inbox
from pbem.core.decisions import Decision
from pbem.server.store import iso
from pbem.server.web import admin_login_url

from websupport import ADMIN, ANNA, FRED, MOD, OTTO, SMALL, csrf

PNG = b"\x89PNG\r\n\x1a\n"


def token_of(client) -> str:
    """The CSRF token of a signed-in client's session (read from any page)."""
    return csrf(client.get("/").text)


def post(client, url, data=None, **kwargs):
    return client.post(url, data={"csrf_token": token_of(client), **(data or {})}, **kwargs)


def entering_orders(service, game_id, side="austria") -> str:
    game = service.game(game_id)
    due = [b.id for b in game.state.blocks.values() if b.side == side and b.status == "waiting"
           and (b.arrives or 0) <= game.scenario.hour(game.day)]
    return f"ENTER {due[0]} BY ROAD"


def mail(text, sender):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "orders"
    msg.set_content(text)
    return msg.as_bytes()


# -- signing in --------------------------------------------------------------------------


def test_sign_in_by_a_mailed_link(site):
    client = site.client()
    page = client.get("/login")
    assert page.status_code == 200 and "Mail me a sign-in link" in page.text
    sent = client.post("/login", data={"csrf_token": csrf(page.text), "email": ANNA, "action": "link"})
    assert sent.status_code == 200 and "Check your mail" in sent.text
    row = [r for r in site.store.recent_outbox() if r["kind"] == "login"][0]
    assert row["to_addr"] == ANNA
    link = re.search(r"(http://pbem\.test/login/(\S+))", row["body"])
    assert link, row["body"]
    token = link.group(2)
    # only a hash of the token is stored
    assert token not in str(site.store.query("SELECT * FROM login_tokens"))
    # opening the link asks first (a mail scanner's fetch does not use it up)
    confirm = client.get(f"/login/{token}")
    assert confirm.status_code == 200 and ANNA in confirm.text
    assert client.get("/").status_code == 302  # not signed in yet
    done = client.post(f"/login/{token}", data={"csrf_token": csrf(confirm.text)})
    assert done.status_code == 302 and done.location == "/"
    home = client.get("/")
    assert home.status_code == 200 and "My games" in home.text and ANNA in home.text
    # single use
    again = site.client().get(f"/login/{token}")
    assert again.status_code == 400 and "used or expired" in again.text


def test_an_expired_link_does_not_sign_in(site):
    site.store.add_login_token(ANNA, "0" * 64, "2000-01-01T00:00:00Z")
    from pbem.server.web import auth

    old = auth.token_hash
    try:
        auth.token_hash = lambda token: "0" * 64
        page = site.client().get("/login/whatever")
    finally:
        auth.token_hash = old
    assert page.status_code == 400 and "expired" in page.text


def test_admin_login_url_signs_the_admin_in_without_mail(site):
    url = admin_login_url(site.service, site.config)
    assert url.startswith("http://pbem.test/login/")
    client = site.client()
    path = url[len("http://pbem.test"):]
    confirm = client.get(path)
    assert ADMIN in confirm.text
    client.post(path, data={"csrf_token": csrf(confirm.text)})
    assert client.get("/admin").status_code == 200
    assert not site.store.mails("WHERE kind = 'login'")  # no mail needed


def test_password_set_sign_in_and_change(site):
    client = site.client(ANNA)
    page = client.get("/password")
    assert "Set a password" in page.text and 'name="current"' not in page.text
    short = post(client, "/password", {"new": "short", "again": "short"})
    assert short.status_code == 400 and "at least 8" in short.text
    assert post(client, "/password", {"new": "correct horse", "again": "correct horse"}).status_code == 200
    post(client, "/logout")
    assert client.get("/").status_code == 302
    fresh = site.client()
    wrong = fresh.post("/login", data={"csrf_token": csrf(fresh.get("/login").text), "email": ANNA,
                                       "password": "battery staple", "action": "password"})
    assert wrong.status_code == 401 and "Wrong address or password" in wrong.text
    right = fresh.post("/login", data={"csrf_token": csrf(fresh.get("/login").text), "email": ANNA,
                                       "password": "correct horse", "action": "password"})
    assert right.status_code == 302 and fresh.get("/").status_code == 200
    # signed in by password, a change needs the current one
    page = fresh.get("/password")
    assert 'name="current"' in page.text
    bad = post(fresh, "/password", {"current": "nope", "new": "new password", "again": "new password"})
    assert bad.status_code == 400 and "current password is not right" in bad.text
    ok = post(fresh, "/password", {"current": "correct horse", "new": "new password", "again": "new password"})
    assert ok.status_code == 200 and "Your password is set" in ok.text


# -- my games, new games, joining ------------------------------------------------------------


def test_create_a_game_then_another_player_joins(site):
    anna = site.client(ANNA)
    form = post(anna, "/games/new", {})
    assert form.status_code == 400  # no title: the form again, with the reason
    assert "give the game a title" in form.text
    created = post(anna, "/games/new", {
        "title": "Spring offensive", "scenario": f"marengo:{SMALL}", "seat": "austria", "timezone": "Europe/Vienna",
        "clock": "daily", "at": "19:30", "game_timezone": "Europe/Paris", "skip": ["5", "6"],
        "reminders": "12, 1", "grace_minutes": "30", "miss_policy": "alert", "miss_limit": "2",
        "vacation_days": "7", "ask": ["retreat", "pursuit"], "ask_minutes": "600", "early": "1",
        "moderator": MOD})
    assert created.status_code == 302
    game_id = int(re.search(r"/games/(\d+)", created.location).group(1))
    info = site.service.info(game_id)
    assert info["title"] == "Spring offensive" and info["status"] == "open" and info["moderator"] == MOD
    s = info["settings"]
    assert (s["clock"], s["at"], s["timezone"], s["skip_weekdays"], s["reminders"]) == \
        ("daily", "19:30", "Europe/Paris", [5, 6], [12, 1])
    assert (s["miss_policy"], s["miss_limit"], s["vacation_days"], sorted(s["ask"]), s["early"]) == \
        ("alert", 2, 7, ["pursuit", "retreat"], True)
    assert site.service.seat(game_id, "austria")["email"] == ANNA
    assert site.service.seat(game_id, "austria")["timezone"] == "Europe/Vienna"
    home = anna.get("/")
    assert "Spring offensive" in home.text and "You play Austria" in home.text

    fred = site.client(FRED)
    listed = fred.get("/")
    assert "Open games" in listed.text and "Play France" in listed.text
    joined = post(fred, f"/games/{game_id}/join", {"side": "france", "timezone": "UTC"})
    assert joined.status_code == 302
    assert site.service.info(game_id)["status"] == "running"
    assert "Spring offensive" in fred.get("/").text
    taken = post(site.client(OTTO), f"/games/{game_id}/join", {"side": "france"})
    assert taken.status_code == 400 and "is taken" in taken.text
    # the welcome mail carries the seat key
    assert [r for r in site.store.recent_outbox() if r["to_addr"] == FRED and r["kind"] == "welcome"]


def test_a_hot_seat_game_switches_sides(site):
    anna = site.client(ANNA)
    created = post(anna, "/games/new", {"title": "Solo", "scenario": f"marengo:{SMALL}", "seat": "both", "hours": "24",
                                        "clock": "interval", "miss_policy": "warn"})
    game_id = int(re.search(r"/games/(\d+)", created.location).group(1))
    info = site.service.info(game_id)
    assert info["status"] == "running" and info["moderator"] == ANNA
    page = anna.get(f"/games/{game_id}")
    assert 'id="side-switch"' in page.text and "Austria" in page.text
    france = anna.get(f"/games/{game_id}?side=france")
    assert france.status_code == 200 and 'name="side" value="france"' in france.text


def test_a_player_cannot_moderate_a_game_against_another_player(site):
    anna = site.client(ANNA)
    refused = post(anna, "/games/new", {"title": "Cheat", "scenario": f"marengo:{SMALL}", "seat": "austria", "moderator": ANNA})
    assert refused.status_code == 400 and "cannot moderate" in refused.text
    game_id, _ = site.game(seats={"austria": ANNA})
    joined = post(site.client(MOD), f"/games/{game_id}/join", {"side": "france"})
    assert joined.status_code == 400 and "moderator cannot take a seat" in joined.text
    assert site.service.seat(game_id, "france")["email"] is None


# -- orders ------------------------------------------------------------------------------------


def test_orders_with_problems_show_the_mail_answers_words(site):
    game_id, keys = site.game()
    anna = site.client(ANNA)
    page = anna.get(f"/games/{game_id}")
    assert page.status_code == 200 and 'id="orders-text"' in page.text
    prefilled = html.unescape(re.search(r'id="orders-text"[^>]*>(.*?)</textarea>', page.text, re.S).group(1))
    assert prefilled.startswith(f"GAME {game_id} SIDE Austria TURN 6AM")
    body = "MOVEE A1 Nowhere -> Marengo\nENTER A99 BY ROAD\n"
    web = post(anna, f"/games/{game_id}/orders", {"side": "austria", "text": f"GAME {game_id} SIDE Austria\n{body}",
                                                   "action": "submit"}, follow_redirects=True)
    assert [r.status_code for r in web.history] == [303]  # post-redirect-get
    assert 'id="orders-result"' in web.text
    # the same orders by mail
    raw = mail(f"GAME {game_id} SIDE Austria KEY {keys['austria']}\n{body}", ANNA)
    inbox.process(site.service, inbox.receive(site.service, raw, "pipe")[0])
    answer = [r for r in site.store.recent_outbox() if r["subject"].endswith("Orders NOT accepted")][0]["body"]
    problems = [line.strip() for line in answer.splitlines() if line.strip().startswith("- line")]
    assert len(problems) >= 2
    shown = html.unescape(web.text)
    for line in problems:
        assert line in shown
    assert re.search(r"line 2, column \d+", web.text)
    assert site.service.orders_on_file(game_id, "austria") == ""  # nothing stored


def test_check_then_submit_correct_orders(site):
    game_id, _ = site.game()
    anna = site.client(ANNA)
    order = entering_orders(site.service, game_id)
    text = f"GAME {game_id} SIDE Austria TURN 6AM\n{order}\n"
    checked = post(anna, f"/games/{game_id}/orders", {"side": "austria", "text": text, "action": "check"},
                   follow_redirects=True)
    assert checked.status_code == 200 and "These orders are good" in checked.text
    assert html.unescape(text.splitlines()[1]) in html.unescape(checked.text)  # the text checked stays in the form
    echo = site.service.check_orders(game_id, "austria", text)[0].echo
    assert echo.splitlines()[0] in html.unescape(checked.text)
    assert site.service.orders_on_file(game_id, "austria") == ""  # a check stores nothing
    submitted = post(anna, f"/games/{game_id}/orders", {"side": "austria", "text": text, "action": "submit"})
    assert submitted.status_code == 303 and submitted.location.endswith(f"/games/{game_id}?side=austria#orders-result")
    submitted = anna.get(submitted.location)
    assert submitted.status_code == 200 and "Orders accepted" in submitted.text
    again = anna.get(f"/games/{game_id}?side=austria")  # a refresh: the answer is shown once, nothing posted
    assert "Orders accepted" not in again.text
    # the form now starts with the orders on file
    assert order in site.service.orders_on_file(game_id, "austria")
    assert order in html.unescape(again.text)
    # the box "final" marks them FINAL; they were the last the day waited for: it is resolved at once
    # (tests/test_web_after_final.py)
    final = post(anna, f"/games/{game_id}/orders", {"side": "austria", "text": text, "action": "submit",
                                                     "final": "1"})
    assert "Orders accepted" in anna.get(final.location).text
    played = site.service.game(game_id)
    assert played.day == 1 and played.orders_text(0, "austria").rstrip().endswith("FINAL")
    assert order in played.orders_text(0, "austria")


def test_standing_orders_editor(site):
    game_id, _ = site.game()
    fred = site.client(FRED)
    # Austria's day: France may send standing orders only
    refused = post(fred, f"/games/{game_id}/standing", {"side": "france", "text": "MOVE F1 Marengo -> Spinetta"})
    assert refused.status_code == 400 and "only STANDING lines" in refused.text
    ok = post(fred, f"/games/{game_id}/standing", {"side": "france", "text": "STANDING PURSUE NEVER\n"},
              follow_redirects=True)
    assert ok.status_code == 200 and "Standing orders accepted" in ok.text
    assert "STANDING PURSUE NEVER" in site.service.orders_on_file(game_id, "france")
    # on its own day, the day's orders on file are kept
    anna = site.client(ANNA)
    order = entering_orders(site.service, game_id)
    post(anna, f"/games/{game_id}/orders", {"side": "austria", "text": f"{order}\n", "action": "submit"})
    post(anna, f"/games/{game_id}/standing", {"side": "austria", "text": "STANDING LOSSES WEAKEST"})
    on_file = site.service.orders_on_file(game_id, "austria")
    assert order in on_file and "STANDING LOSSES WEAKEST" in on_file
    page = anna.get(f"/games/{game_id}")
    assert "STANDING LOSSES WEAKEST" in re.search(r'id="standing-text"[^>]*>(.*?)</textarea>', page.text, re.S).group(1)


def test_standing_orders_in_the_seats_own_words(site):
    """The form takes the game's STANDING word in any language it reads (PERMANENT, 常备 written without a
    space), replaces the standing lines on file whichever words wrote them, and keeps the day's orders."""
    game_id, _ = site.game()
    fred = site.client(FRED)
    ok = post(fred, f"/games/{game_id}/standing", {"side": "france", "text": "PERMANENT POURSUIVRE JAMAIS\n"},
              follow_redirects=True)
    assert ok.status_code == 200, ok.text
    assert "PERMANENT POURSUIVRE JAMAIS" in site.service.orders_on_file(game_id, "france")
    post(fred, f"/games/{game_id}/standing", {"side": "france", "text": "常备追击总是"})
    on_file = site.service.orders_on_file(game_id, "france")
    assert "常备追击总是" in on_file and "PERMANENT" not in on_file  # the French line replaced, not kept
    page = fred.get(f"/games/{game_id}?side=france")
    assert "常备追击总是" in re.search(r'id="standing-text"[^>]*>(.*?)</textarea>', page.text, re.S).group(1)

def test_vacation_and_a_new_key(site):
    game_id, keys = site.game()
    anna = site.client(ANNA)
    before = site.service.deadline(game_id)
    assert post(anna, f"/games/{game_id}/vacation", {"side": "austria", "days": "2"}).status_code == 302
    assert (site.service.deadline(game_id) - before).days == 2
    too_long = post(anna, f"/games/{game_id}/vacation", {"side": "austria", "days": "30"})
    assert too_long.status_code == 400 and "at most" in too_long.text
    page = post(anna, f"/games/{game_id}/key", {"side": "austria"})
    key = re.search(r'id="new-key">([^<]+)<', page.text).group(1)
    assert site.store.check_key(game_id, "austria", key)
    assert not site.store.check_key(game_id, "austria", keys["austria"])


def test_an_ask_me_question_is_answered_on_the_page(site):
    game_id, _ = site.game(settings={"hours": 48, "ask": ["pursuit"]})
    decision = Decision("france", "pursuit", "Pursue the beaten enemy with F4?", ("yes", "no"), ("yes",),
                        (("yes", "Pursue"), ("no", "Stay")))
    site.store.set_clock(game_id, pending={"day": 0, "index": 2, "decision": decision.to_dict(),
                                           "deadline": iso(site.service.now())})
    anna, fred = site.client(ANNA), site.client(FRED)
    assert "Pursue the beaten enemy" not in anna.get(f"/games/{game_id}").text  # not Austria's question
    page = fred.get(f"/games/{game_id}")
    assert 'id="question"' in page.text and "Pursue the beaten enemy" in page.text
    done = post(fred, f"/games/{game_id}/answer", {"side": "france", "index": "2", "choice": "no"})
    assert done.status_code == 302
    assert any(e["kind"] == "answer" and e["answer"] == ["no"] for e in site.store.read_log(game_id))


# -- reports and maps of resolved days ----------------------------------------------------------------


def test_a_resolved_days_report_and_map(site):
    game_id, _ = site.game()
    site.service.submit(game_id, "austria", entering_orders(site.service, game_id))
    assert site.service.resolve_next(game_id) == 0
    anna = site.client(ANNA)
    page = anna.get(f"/games/{game_id}")
    report = site.service.report(game_id, 0, "austria")
    assert 'id="report"' in page.text and "Report" in page.text
    assert f"/games/{game_id}/map/0.png?side=austria" in page.text
    assert f"/games/{game_id}/reports/0?side=austria" in page.text
    day = anna.get(f"/games/{game_id}/reports/0?side=austria")
    assert day.status_code == 200 and report.subject in html.unescape(day.text)
    text = anna.get(f"/games/{game_id}/reports/0?side=austria&format=text")
    assert text.mimetype == "text/plain" and text.text == report.text
    png = anna.get(f"/games/{game_id}/map/0.png?side=austria")
    assert png.status_code == 200 and png.mimetype == "image/png" and png.data.startswith(PNG)
    assert png.data == site.service.map_png(game_id, 0, "austria")
    assert anna.get(f"/games/{game_id}/map/now.png?side=austria").data.startswith(PNG)
    assert anna.get(f"/games/{game_id}/reports/5?side=austria").status_code == 404
    # France's next day: the form starts from the report's template, without the KEY placeholder
    fred = site.client(FRED)
    form = html.unescape(re.search(r'id="orders-text"[^>]*>(.*?)</textarea>', fred.get(f"/games/{game_id}").text,
                                   re.S).group(1))
    assert form.startswith(f"GAME {game_id} SIDE France") and "KEY" not in form.splitlines()[0]
    assert site.service.check_orders(game_id, "france", form)[0].ok  # the template as it stands is valid


# -- moderators -----------------------------------------------------------------------------------------


def test_moderator_pause_amend_and_rewind_are_seen_by_the_players(site):
    game_id, _ = site.game()
    site.service.resolve_next(game_id)
    site.service.run_jobs()  # as the scheduler does: the day's reports go out
    moderator = site.client(MOD)
    console = moderator.get(f"/games/{game_id}/moderate")
    assert console.status_code == 200 and ANNA in console.text and FRED in console.text
    assert f"/games/{game_id}/map/0.png" in console.text  # the full map (no side)
    assert moderator.get(f"/games/{game_id}/map/0.png").status_code == 200
    no_reason = post(moderator, f"/games/{game_id}/moderate/pause", {"why": "  "})
    assert no_reason.status_code == 400 and "needs a reason" in no_reason.text
    assert site.service.info(game_id)["status"] == "running"
    paused = post(moderator, f"/games/{game_id}/moderate/pause", {"why": "Fred is travelling"})
    assert paused.status_code == 302 and site.service.info(game_id)["status"] == "paused"
    order = entering_orders(site.service, game_id)
    amended = post(moderator, f"/games/{game_id}/moderate/amend_orders",
                   {"day": "0", "side": "austria", "text": order, "why": "Anna's mail was lost"})
    assert amended.status_code == 302, amended.text
    rewound = post(moderator, f"/games/{game_id}/moderate/rewind", {"day": "0", "why": "a rules question"})
    assert rewound.status_code == 302
    assert post(moderator, f"/games/{game_id}/moderate/resume", {"why": "back"}).status_code == 302
    assert site.service.info(game_id)["status"] == "running"
    for player in (site.client(ANNA), site.client(FRED)):
        log = player.get(f"/games/{game_id}").text.split('id="audit"')[1]
        for words in ("pause", "Fred is travelling", "amend orders", "Anna&#39;s mail was lost", "rewind",
                      "a rules question"):
            assert words in log
    assert site.service.game(game_id).orders_text(0, "austria") == order
    site.service.run_jobs()  # the corrected reports are drawn and queued after the ruling
    assert any(r["body"].startswith("CORRECTED REPORT") for r in site.store.recent_outbox() if r["kind"] == "report")


def test_the_console_shows_received_mail_with_the_key_hidden(site):
    game_id, keys = site.game()
    raw = mail(f"GAME {game_id} SIDE Austria KEY {keys['austria']}\nSTATUS\n", ANNA)
    inbox.process(site.service, inbox.receive(site.service, raw, "pipe")[0])
    console = site.client(MOD).get(f"/games/{game_id}/moderate")
    assert "KEY ***" in console.text and keys["austria"] not in console.text
    assert "STATUS" in console.text


def test_admin_page_lists_games_outbox_and_local_mail(site):
    game_id, _ = site.game()
    from pbem.server.serve import make_sender

    make_sender(site.store, site.config).send_due()
    page = site.client(ADMIN).get("/admin")
    assert page.status_code == 200
    assert "Test game" in page.text and "Welcome" in page.text
    assert "Local mail" in page.text and str(site.config.maildir) in page.text
    assert page.text.count("<details") >= 2
    # sign-in links show while mail stays local, not once it goes out through a relay
    visitor = site.client()
    visitor.post("/login", data={"csrf_token": csrf(visitor.get("/login").text), "email": OTTO, "action": "link"})
    assert "/login/" in site.client(ADMIN).get("/admin").text
    site.config.relay_host = "relay.example.org"
    assert "/login/" not in site.client(ADMIN).get("/admin").text.split('id="outbox"')[1]


# -- the JSON API -------------------------------------------------------------------------------------


def test_api_with_a_session(site):
    game_id, _ = site.game()
    anna = site.client(ANNA)
    games = anna.get("/api/games").json["games"]
    assert [g["id"] for g in games] == [game_id] and games[0]["sides"] == ["austria"]
    state = anna.get(f"/api/games/{game_id}").json
    assert state["side"] == "austria" and state["view"]["viewer"] == "austria"
    assert state["view"] == site.service.game(game_id).view("austria")
    token = token_of(anna)
    assert anna.get("/api/games").json["csrf_token"] == token
    order = entering_orders(site.service, game_id)
    no_token = anna.post(f"/api/games/{game_id}/orders", json={"side": "austria", "text": order})
    assert no_token.status_code == 400 and "security token" in no_token.json["error"]
    bad = anna.post(f"/api/games/{game_id}/orders", json={"side": "austria", "text": "MOVEE A1\n", "check_only": True},
                    headers={"X-CSRF-Token": token}).json
    assert bad["ok"] is False and bad["problems"][0]["line"] == 1 and bad["problems"][0]["column"] == 1
    assert bad["problems"][0]["message"] and bad["problems"][0]["text"].startswith("line 1, column 1:")
    checked = anna.post(f"/api/games/{game_id}/orders", json={"side": "austria", "text": order, "check_only": True},
                        headers={"X-CSRF-Token": token}).json
    assert checked["ok"] and order.split()[1] in checked["echo"]
    assert site.service.orders_on_file(game_id, "austria") == ""
    stored = anna.post(f"/api/games/{game_id}/orders", json={"side": "austria", "text": order},
                       headers={"X-CSRF-Token": token}).json
    assert stored["ok"] and order in site.service.orders_on_file(game_id, "austria")
    site.service.resolve_next(game_id)
    report = anna.get(f"/api/games/{game_id}/reports/0?side=austria").json
    assert report["markdown"] == site.service.report(game_id, 0, "austria").markdown
    svg = anna.get(f"/api/games/{game_id}/map/0.svg?side=austria")
    assert svg.mimetype == "image/svg+xml" and svg.text.lstrip().startswith("<")


def test_api_with_a_seat_key(site):
    game_id, keys = site.game()
    client = site.app.test_client()
    auth = {"Authorization": f"Bearer {keys['france']}"}
    state = client.get(f"/api/games/{game_id}?side=france", headers=auth)
    assert state.status_code == 200 and state.json["view"]["viewer"] == "france"
    assert client.get(f"/api/games?game={game_id}&side=france", headers=auth).json["games"][0]["sides"] == ["france"]
    answer = client.post(f"/api/games/{game_id}/orders?side=france", headers=auth,
                         json={"side": "france", "text": "STANDING PURSUE NEVER"})
    assert answer.status_code == 200 and answer.json["ok"], answer.json  # no CSRF token with a key
    assert "STANDING PURSUE NEVER" in site.service.orders_on_file(game_id, "france")
    assert client.get(f"/api/games/{game_id}", headers=auth).status_code == 401  # which seat?


def test_the_forms_scenario_names_are_read_again_only_when_a_scenario_file_changes(tmp_path):
    """A scenario's heading on the new-game form is read from its file once while the file is unchanged (every
    app made read every installed scenario again), and again once the file changes."""
    import os
    from pathlib import Path

    from pbem.server.web.games import heading_of_file

    shipped = (Path(__file__).parent.parent / "maps" / "dba-meeting.toml").read_text()
    path = tmp_path / "dba-meeting.toml"
    path.write_text(shipped)
    before = path.stat().st_mtime_ns
    first = heading_of_file("dba", str(path), before, "en")
    assert first.endswith("Meeting engagement at the mill bridge")
    path.write_text(shipped.replace("at the mill bridge", "at the old mill"))
    assert heading_of_file("dba", str(path), before, "en") == first  # kept: the file is not read again
    os.utime(path, ns=(before + 10**9, before + 10**9))
    assert heading_of_file("dba", str(path), path.stat().st_mtime_ns, "en").endswith("Meeting engagement at the old mill")


def test_the_ask_me_hint_names_standing_orders_only_for_a_game_that_has_them(site):
    """DBA has no standing orders (its choices are asked or take their documented defaults): its part of the
    new-game form does not tell the player to write one; Bonaparte at Marengo's does."""
    page = html.unescape(site.client(ANNA).get("/games/new").text)
    parts = dict(re.findall(r'<fieldset class="per-game" data-game="([^"]+)">(.*?)</fieldset>', page, re.S))
    assert "without a standing order" in parts["marengo"]
    assert "without a standing order" not in parts["dba"]
    assert "the server decides these by its documented defaults" in parts["dba"]
