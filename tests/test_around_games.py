"""Around each game (issue 16 §5): resigning, draws by agreement, vacations scheduled ahead,
late notices in the grace time, and a replaced player's record -- through the service and by
mail (the inbox's whole path: stored, read, authenticated by the key, answered), on a real
database with a clock the test moves."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone
from email.message import EmailMessage

import pytest

from pbem.server import inbox
from pbem.server.leagues import ratings
from pbem.server.leagues.records import reliability
from pbem.server.leagues.service import Leagues
from pbem.server.service import Service, ServiceError
from pbem.server.store import Store

from conftest import Clock
from websupport import SMALL

ANNA, FRED, SUB = "anna@example.org", "fred@example.org", "sub@example.org"
MOD = "mod@example.org"
START = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def world(tmp_path):
    clock = Clock(START)
    store = Store(tmp_path / "pbem.sqlite3", clock=clock)
    service = Service(store, clock=clock)
    yield service, clock
    store.close()


def new_game(service, settings=None):
    return service.create_game("Duel", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=3, moderator=MOD,
                               settings={"hours": 48, "reminders": [], **(settings or {})})


def mail(service, sender: str, text: str, n=[0]) -> str:
    """Send ``text`` as a mail from ``sender``; the answer's body."""
    n[0] += 1
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "orders"
    msg["Message-ID"] = f"<around-{n[0]}@example.org>"
    msg.set_content(text)
    inbound_id, _ = inbox.receive(service, msg.as_bytes(), "pipe")
    inbox.process(service, inbound_id)
    return service.store.mail("WHERE to_addr = ? ORDER BY id DESC LIMIT 1",
                                   (sender,))["body"]


def mails_to(service, address: str, kind: str) -> list[dict]:
    return service.store.mails("WHERE to_addr = ? AND kind = ? ORDER BY id", (address, kind))


def test_a_resignation_by_mail_ends_the_game_for_good(world):
    service, clock = world
    game_id, keys = new_game(service)
    service.resolve_next(game_id)
    answer = mail(service, FRED, f"GAME {game_id} KEY {keys['france']}\nRESIGN")
    assert "You resigned" in answer and "Austria wins" in answer
    game = service.game(game_id)
    assert game.over and game.view(None)["winner"] == "austria"
    assert service.info(game_id)["status"] == "finished" and service.info(game_id)["deadline"] is None
    assert mails_to(service, ANNA, "ended") and "France resigns" in mails_to(service, ANNA, "ended")[0]["body"]
    # final: no moderator's rewind or resume plays it on, and a second resignation is refused
    with pytest.raises(ServiceError, match="final"):
        service.moderate(game_id, MOD, "rewind", "undo it", day=0)
    with pytest.raises(ServiceError, match="final"):
        service.moderate(game_id, MOD, "resume", "go on")
    assert "Nothing was done" in mail(service, ANNA, f"GAME {game_id} KEY {keys['austria']}\nRESIGN")
    assert "RESIGN alone" in mail(service, FRED, f"GAME {game_id} KEY {keys['france']}\nRESIGN now")
    # ratings count it as a win
    ratings.recompute(service)
    table = {r["email"]: r for r in ratings.table(service.store, "marengo")}
    assert table[ANNA]["mu"] > table[FRED]["mu"]


def test_a_draw_offered_declined_offered_again_and_accepted(world):
    service, clock = world
    game_id, keys = new_game(service)
    anna, fred = f"GAME {game_id} KEY {keys['austria']}\n", f"GAME {game_id} KEY {keys['france']}\n"
    assert "no draw offer" in mail(service, FRED, fred + "DRAW ACCEPT")
    assert "stands until" in mail(service, ANNA, anna + "DRAW")
    assert "DRAW ACCEPT" in mails_to(service, FRED, "draw")[0]["body"]
    assert "already stands" in mail(service, ANNA, anna + "DRAW")
    assert "does not wait for your answer" in mail(service, ANNA, anna + "DRAW ACCEPT")
    assert "declined" in mail(service, FRED, fred + "DRAW DECLINE")
    assert "declines" in mails_to(service, ANNA, "draw")[-1]["body"]
    assert not service.game(game_id).over
    # an offer lapses when the day is resolved
    mail(service, ANNA, anna + "DRAW")
    service.resolve_next(game_id)
    assert service.draw_offer(game_id) is None
    assert "no draw offer" in mail(service, FRED, fred + "DRAW ACCEPT")
    # offered again on the web's service call, accepted by mail: drawn
    service.offer_draw(game_id, "austria")
    assert "drawn by agreement" in mail(service, FRED, fred + "DRAW ACCEPT")
    game = service.game(game_id)
    assert game.over and game.view(None)["winner"] is None and game.ended["how"] == "agreed"
    assert "Nothing was done" in mail(service, ANNA, anna + "DRAW")
    assert "DRAW (to offer" in mail(service, ANNA, anna + "DRAW MAYBE")


def test_offering_a_draw_back_accepts_the_standing_offer(world):
    service, _ = world
    game_id, _ = new_game(service)
    service.offer_draw(game_id, "france")
    assert "drawn" in service.offer_draw(game_id, "austria")
    assert service.game(game_id).over


def test_a_tournament_counts_resignations_and_agreed_draws(world):
    service, _ = world
    leagues = Leagues(service)
    league_id = leagues.create_league("Club", "org@example.org", rules={"scenario": SMALL})
    emails = [f"p{n}@example.org" for n in range(1, 5)]
    for email in emails:
        leagues.join(league_id, email)
    tid = leagues.create_tournament(league_id, "org@example.org", "Pool", "swiss", rounds=2)
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, "org@example.org")
    board1, board2 = leagues.tournament(tid)["pairings"]
    service.resign(board1["game_id"], "austria")  # the first player resigns: the second wins
    service.offer_draw(board2["game_id"], "france")
    service.answer_draw(board2["game_id"], "austria", True)
    assert "round 2 paired" in leagues.sync(tid)
    t = leagues.tournament(tid)
    done = {p["id"]: p for p in t["pairings"]}
    assert (done[board1["id"]]["result"], done[board1["id"]]["how"]) == ("second", "resigned")
    assert (done[board2["id"]]["result"], done[board2["id"]]["how"]) == ("draw", "agreed")
    rows = {r.email: r for r in leagues.table(tid)["rows"]}
    assert rows[board1["second"]].points == 1 and rows[board1["first"]].points == 0
    assert rows[board2["first"]].points == rows[board2["second"]].points == 0.5
    cells = {r.email: r.cells[1] for r in leagues.table(tid)["rows"]}
    from pbem.server.leagues.standings import cell_text
    assert cell_text(cells[board1["first"]]).endswith("r") and cell_text(cells[board2["first"]]).startswith("=")


def test_a_vacation_scheduled_ahead_holds_the_deadline_and_counts_no_miss(world):
    service, clock = world
    game_id, keys = new_game(service)
    deadline = service.deadline(game_id)
    assert deadline == START + timedelta(hours=48)
    # by mail: the vacation covers the deadline (the end day included)
    answer = mail(service, FRED, f"GAME {game_id} KEY {keys['france']}\nVACATION FROM 2026-11-03 TO 2026-11-05")
    assert "Vacation scheduled" in answer and "2026-11-06T00:00:00Z" in answer
    assert service.vacations_of(FRED)[0]["days"] == 3  # the 3rd, 4th and 5th
    mail(service, ANNA, f"GAME {game_id} KEY {keys['austria']}\nFINAL")  # Austria moves first: day 0 resolves
    service.tick()
    service.run_jobs()
    assert service.game(game_id).day == 1  # France owes day 1, and Fred is away when it falls due
    deadline = service.deadline(game_id)
    clock.now = deadline + timedelta(minutes=1)
    service.tick()
    assert service.game(game_id).day == 1  # not resolved: the game waits for Fred's return
    back = datetime(2026, 11, 6, tzinfo=timezone.utc)
    assert service.deadline(game_id) == back + timedelta(hours=48)  # a day's time after the return
    assert "on a vacation scheduled ahead" in mails_to(service, ANNA, "vacation")[0]["body"]
    clock.now = back + timedelta(hours=47)
    service.tick()
    assert service.game(game_id).day == 1
    clock.now = back + timedelta(hours=48, minutes=1)
    service.tick()
    assert service.game(game_id).day == 2 and service.seat(game_id, "france")["missed"] == 1  # back, and late


def test_a_game_that_forbids_vacations_does_not_wait(world):
    service, clock = world
    game_id, _ = new_game(service, {"vacation_days": 0})
    service.schedule_vacation(ANNA, START + timedelta(hours=1), START + timedelta(days=5))
    clock.now = START + timedelta(hours=49)
    service.tick()
    assert service.game(game_id).day == 1 and service.seat(game_id, "austria")["missed"] == 1


def test_vacations_yearly_allowance_overlaps_and_cancelling(world):
    service, clock = world
    day = timedelta(days=1)
    service.schedule_vacation(ANNA, START + day, START + 20 * day)
    with pytest.raises(ServiceError, match="overlaps"):
        service.schedule_vacation(ANNA, START + 10 * day, START + 25 * day)
    with pytest.raises(ServiceError, match="a year allows 28 days.*2026 has 19 scheduled, and this one is 10"):
        service.schedule_vacation(ANNA, START + 30 * day, START + 40 * day)
    vid = service.schedule_vacation(ANNA, START + 30 * day, START + 39 * day)  # 9 more: 28 in all
    with pytest.raises(ServiceError, match="has passed"):
        service.schedule_vacation(ANNA, START - day, START + day)
    with pytest.raises(ServiceError, match="ends after it starts"):
        service.schedule_vacation(ANNA, START + 50 * day, START + 50 * day)
    service.cancel_vacation(ANNA, vid)
    assert len(service.vacations_of(ANNA)) == 1
    with pytest.raises(ServiceError, match="no vacation"):
        service.cancel_vacation(FRED, vid)
    game_id, keys = new_game(service)
    assert "not a date" in mail(service, ANNA, f"GAME {game_id} KEY {keys['austria']}\nVACATION FROM soon TO later")
    assert "VACATION FROM <start>" in mail(service, ANNA, f"GAME {game_id} KEY {keys['austria']}\nVACATION FROM x")


def test_late_notices_go_to_the_other_seats_in_the_grace_time(world):
    service, clock = world
    game_id, keys = new_game(service, {"grace_minutes": 60})
    deadline = service.deadline(game_id)
    clock.now = deadline - timedelta(minutes=5)
    service.tick()
    assert mails_to(service, ANNA, "late") == []
    clock.now = deadline + timedelta(minutes=1)
    service.tick()
    service.tick()
    assert mails_to(service, ANNA, "late") == []  # Austria, who owes day 0, is the one late
    late = mails_to(service, FRED, "late")
    assert len(late) == 1 and "Austria has sent no orders yet" in late[0]["body"]  # told once
    mail(service, ANNA, f"GAME {game_id} KEY {keys['austria']}\nFINAL")
    clock.now = deadline + timedelta(minutes=61)
    service.tick()
    assert service.game(game_id).day == 1


def test_a_replaced_player_keeps_his_misses(world):
    service, clock = world
    game_id, _ = new_game(service)
    for _ in range(4):  # days 0 to 3: France owes 1 and 3, and misses them
        service.resolve_next(game_id)
    assert reliability(service.store, FRED)["missed"] == 2
    service.moderate(game_id, MOD, "replace", "gone quiet", side="france", email=SUB)
    service.resolve_next(game_id)  # day 4: Austria's
    service.resolve_next(game_id)  # day 5: the newcomer's, missed
    fred, sub = reliability(service.store, FRED), reliability(service.store, SUB)
    assert (fred["owed"], fred["missed"], fred["percent"], fred["replaced"]) == (2, 2, 0.0, 1)
    assert (sub["owed"], sub["missed"]) == (1, 1)


def test_press_by_mail_goes_only_to_the_seats_named(world):
    service, clock = world
    game_id, keys = service.create_game("Three", {"french": ANNA, "anglo-dutch": FRED, "prussian": SUB},
                                        game="napoleon1815", options={"players": "3"}, moderator=MOD,
                                        settings={"hours": 48, "reminders": []})
    answer = mail(service, FRED, f"GAME {game_id} KEY {keys['anglo-dutch']}\nPRESS Prussian\n"
                                 "Meet me at Wavre.\n\nBring the guns.")
    assert "Your message went to" in answer
    sent = mails_to(service, SUB, "press")
    assert len(sent) == 1 and "Meet me at Wavre.\n\nBring the guns." in sent[0]["body"]
    assert mails_to(service, ANNA, "press") == []  # the French player hears nothing of it
    assert [m["text"] for m in service.press_for(game_id, "french")] == []
    assert len(service.press_for(game_id, "prussian")) == len(service.press_for(game_id, None)) == 1
    assert "no seat 'Austria'" in mail(service, ANNA, f"GAME {game_id} KEY {keys['french']}\nPRESS Austria\nhi")
    assert "not your own" in mail(service, ANNA, f"GAME {game_id} KEY {keys['french']}\nPRESS French\nhi")
    assert "empty" in mail(service, ANNA, f"GAME {game_id} KEY {keys['french']}\nPRESS ALL\n")
    assert "went to" in mail(service, ANNA, f"GAME {game_id} KEY {keys['french']}\nPRESS ALL\nSurrender.")
    assert len(mails_to(service, FRED, "press")) == 1 and len(mails_to(service, SUB, "press")) == 2
    assert [m["sender"] for m in service.press_for(game_id, "anglo-dutch")] == ["anglo-dutch", "french"]


def test_press_none_forbids_messages(world):
    service, _ = world
    game_id, keys = new_game(service, {"press": "none"})
    with pytest.raises(ServiceError, match="allows no messages"):
        service.send_press(game_id, "austria", ["france"], "hello")
    game_id, _ = new_game(service, {"press": "open"})
    assert "went to France" in service.send_press(game_id, "austria", ["france"], "hello")
    with pytest.raises(ServiceError, match="press must be one of"):
        new_game(service, {"press": "sometimes"})


def test_napoleon_1815_allied_talk_only_at_setup_and_on_allied_night_turns(world):
    """§12: "Союзным игрокам запрещено общаться между собой, кроме как во время начальной
    расстановки и союзных ночных ходов." The game's rule, through the core's generic door."""
    from types import SimpleNamespace

    from pbem.core.ruleset import press_refusal
    from pbem.games import ruleset

    rules = ruleset("napoleon1815")
    scenario = rules.load_scenario(rules.scenarios()["napoleon1815"])
    night = next(n for n, t in enumerate(scenario.track, 2) if t.side == "A" and t.night)
    day = next(n for n, t in enumerate(scenario.track, 2) if t.side == "A" and not t.night)
    french_night = next((n for n, t in enumerate(scenario.track, 2) if t.side == "F" and t.night), None)

    def refusal(turn, sender, to):
        return press_refusal(rules, scenario, SimpleNamespace(turn=turn), sender, to)

    assert refusal(0, "prussian", ("anglo-dutch",)) is None  # the setup
    assert refusal(night, "prussian", ("anglo-dutch",)) is None
    assert "night turns" in refusal(day, "prussian", ("anglo-dutch",))
    if french_night is not None:
        assert refusal(french_night, "anglo-dutch", ("prussian",)) is not None
    assert refusal(day, "prussian", ("french",)) is None  # talking to the enemy is not the rule's matter
    assert refusal(day, "french", ("prussian", "anglo-dutch")) is None
    # a game without a rule: every message may go
    assert press_refusal(ruleset("marengo"), None, None, "austria", ("france",)) is None


def test_a_rematch_swaps_the_seats(world):
    service, _ = world
    game_id, keys = new_game(service, {"press": "open"})
    with pytest.raises(ServiceError, match="not over"):
        service.rematch(game_id, ANNA)
    service.resign(game_id, "austria")
    with pytest.raises(ServiceError, match="only the players"):
        service.rematch(game_id, SUB)
    answer = mail(service, FRED, f"GAME {game_id} KEY {keys['france']}\nREMATCH")
    new_id = max(g["id"] for g in service.store.games())
    assert f"#{new_id} Rematch of #{game_id}" in answer
    assert {s["side"]: s["email"] for s in service.store.seats(new_id)} == {"austria": FRED, "france": ANNA}
    info = service.info(new_id)
    assert info["status"] == "running" and info["settings"]["press"] == "open" and info["moderator"] == MOD
    assert mails_to(service, FRED, "welcome")[-1]["game_id"] == new_id


def test_a_resigned_game_exports_and_verifies(world):
    from pbem.core.verify import verify
    from pbem.games import ruleset

    service, _ = world
    game_id, _ = new_game(service)
    service.resolve_next(game_id)
    with pytest.raises(ServiceError, match="not over"):
        service.export(game_id)
    service.resign(game_id, "france")
    export = service.export(game_id)
    assert export["log"][-1]["how"] == "resign" and export["log"][-1]["final"] is True
    rules = ruleset("marengo")
    assert verify(export, rules, rules.load_scenario(SMALL)) == []
