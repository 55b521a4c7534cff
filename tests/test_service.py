"""The service: deadlines, resolution, reports out, questions, vacations, moderators."""

import json
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import Clock

from pbem.games.marengo.bot import bot_orders
from pbem.server.service import Service, ServiceError
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())


@pytest.fixture
def world(tmp_path):
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    return service, clock


def new_game(service, **settings):
    base = {"hours": 24, "reminders": [12, 2]}
    base.update(settings)
    game_id, keys = service.create_game("Test", {"austria": "anna@example.org", "france": "fred@example.org"},
                                        scenario=SMALL, seed=5, settings=base, moderator="mod@example.org")
    return game_id, keys


def mails(service, kind=None, to=None):
    out = service.store.mails("ORDER BY id")
    return [m for m in out if (kind is None or m["kind"] == kind) and (to is None or m["to_addr"] == to)]


def tick(service):
    """What the scheduler does: the clocks, then the work they left (reports)."""
    resolved = service.tick()
    service.run_jobs()
    return resolved


def play_bot_day(service, game_id):
    game = service.game(game_id)
    side = game.turn().seats[0]
    result = service.submit(game_id, side, bot_orders(game.scenario, game.view(side), 5))
    assert result.ok, result.message()


def test_creating_a_game_mails_each_seat_its_key_and_a_template(world):
    service, _ = world
    game_id, keys = new_game(service)
    welcome = mails(service, "welcome", "anna@example.org")
    assert len(welcome) == 1 and keys["austria"] in welcome[0]["body"]
    assert f"GAME {game_id} SIDE Austria TURN 6AM KEY <your-key>" in welcome[0]["body"]
    assert keys["france"] not in welcome[0]["body"]
    assert service.info(game_id)["status"] == "running"
    assert service.deadline(game_id) == datetime(2026, 11, 3, 9, 0, tzinfo=timezone.utc)


def test_a_day_resolves_at_its_deadline_and_each_side_gets_its_report(world):
    service, clock = world
    game_id, _ = new_game(service)
    play_bot_day(service, game_id)
    assert tick(service) == []
    clock.advance(hours=24)
    assert tick(service) == [(game_id, 0)]
    reports = mails(service, "report")
    assert sorted(m["to_addr"] for m in reports) == ["anna@example.org", "fred@example.org"]
    for m in reports:
        names = [a["filename"] for a in json.loads(m["attachments"])]
        assert names == ["map.png", "view.json"]
        assert 'src="cid:map"' in (m["html"] or service.store.text(m["html_ref"]))  # kept once, by reference
    # the next deadline runs from now
    assert service.deadline(game_id) == clock.now + timedelta(hours=24)


def test_final_orders_resolve_early(world):
    service, _ = world
    game_id, _ = new_game(service)
    game = service.game(game_id)
    text = bot_orders(game.scenario, game.view("austria"), 5) + "FINAL\n"
    assert service.submit(game_id, "austria", text).final
    assert tick(service) == [(game_id, 0)]


def test_reminders_go_once_each_to_a_side_without_orders(world):
    service, clock = world
    game_id, _ = new_game(service)
    clock.advance(hours=13)
    tick(service)
    tick(service)
    assert len(mails(service, "reminder", "anna@example.org")) == 1
    clock.advance(hours=10)
    tick(service)
    assert len(mails(service, "reminder", "anna@example.org")) == 2
    assert mails(service, "reminder", "fred@example.org") == []


def test_a_missed_day_is_played_with_standing_orders_and_counted(world):
    service, clock = world
    game_id, _ = new_game(service, miss_limit=1, miss_policy="alert")
    clock.advance(hours=25)
    assert tick(service) == [(game_id, 0)]
    assert service.seat(game_id, "austria")["missed"] == 1
    assert mails(service, "missed", "anna@example.org")
    assert mails(service, "alert", "mod@example.org")


def test_forfeit_after_too_many_misses(world):
    service, clock = world
    game_id, _ = new_game(service, miss_limit=1, miss_policy="forfeit")
    clock.advance(hours=25)
    tick(service)
    assert service.info(game_id)["status"] == "finished"
    assert mails(service, "forfeit", "fred@example.org")


def test_a_forfeit_is_in_the_log_and_a_moderators_rewind_reopens_the_game(world):
    service, clock = world
    game_id, _ = new_game(service, miss_limit=2, miss_policy="forfeit")
    for day in range(4):  # Austria plays days 0 and 2; France misses days 1 and 3
        if day % 2 == 0:
            play_bot_day(service, game_id)
        clock.advance(hours=25)
        assert tick(service) == [(game_id, day)]
    game = service.game(game_id)
    assert service.info(game_id)["status"] == "finished" and game.over
    assert game.ended["winner"] == "austria" and "France forfeits" in game.ended["why"]
    assert "France forfeits" in service.status(game_id)
    assert "France forfeits" in mails(service, "report", "anna@example.org")[-1]["body"]
    refused = service.submit(game_id, "austria", "FINAL")  # no orders after the end
    assert not refused.ok and "over" in refused.message()
    done = service.moderate(game_id, "mod@example.org", "rewind", "France's mails were lost", day=1)
    assert "paused until the moderator resumes it" in done
    game = service.game(game_id)
    assert not game.over and game.ended is None and service.info(game_id)["status"] == "paused"
    service.moderate(game_id, "mod@example.org", "resume", "go on")
    assert service.info(game_id)["status"] == "running"


def test_skipped_weekdays_move_the_deadline(world):
    service, clock = world
    clock.now = datetime(2026, 11, 6, 9, 0, tzinfo=timezone.utc)  # a Friday
    game_id, _ = new_game(service, skip_weekdays=[5, 6])
    assert service.deadline(game_id).weekday() == 0  # Monday


def test_daily_deadline_in_the_games_time_zone(world):
    service, clock = world
    game_id, _ = new_game(service, clock="daily", at="20:00", timezone="Europe/Paris")
    # it is 10:00 in Paris: 20:00 today leaves less than the 12 hours a day needs, so tomorrow,
    # and 20:00 in Paris in November is 19:00 UTC
    assert service.deadline(game_id) == datetime(2026, 11, 3, 19, 0, tzinfo=timezone.utc)
    from pbem.server.deadlines import local_time

    assert local_time(service.deadline(game_id), "Europe/Paris").endswith("20:00 Europe/Paris")
    assert service.deadline_for(game_id, "austria").endswith("19:00 UTC, in 1 day 10 hours")  # the seat's own zone, and the time left


def test_vacation_shifts_the_deadline_within_the_allowance(world):
    service, _ = world
    game_id, _ = new_game(service, vacation_days=3)
    before = service.deadline(game_id)
    service.vacation(game_id, "france", 2)
    assert service.deadline(game_id) == before + timedelta(days=2)
    with pytest.raises(ServiceError, match="at most 3 days"):
        service.vacation(game_id, "france", 2)


def test_ask_me_stops_at_the_decision_and_takes_the_answer(world):
    service, clock = world
    game_id, keys = new_game(service, ask=["block", "retreat", "defence_leads", "take_loss", "inflict_loss",
                                           "artillery_defence", "pursuit", "if_blocked", "attack_leads"])
    asked = None
    for _ in range(30):
        play_bot_day(service, game_id)
        clock.advance(hours=25)
        tick(service)
        pending = service.info(game_id)["pending"]
        if pending:
            asked = pending
            break
    assert asked is not None, "no decision came up in 30 days of bot play"
    question = mails(service, "question")[-1]
    assert f"ANSWER {asked['index']}" in question["body"]
    day_before = service.game(game_id).day
    side = asked["decision"]["side"]
    service.answer(game_id, side, asked["index"], asked["decision"]["default"])
    game = service.game(game_id)
    assert game.day > day_before or service.info(game_id)["pending"]["index"] > asked["index"]


def test_an_unanswered_question_times_out_to_the_default(world):
    service, clock = world
    game_id, _ = new_game(service, ask=["block", "retreat", "take_loss", "inflict_loss", "defence_leads",
                                        "artillery_defence", "pursuit"], ask_minutes=30)
    for _ in range(30):
        play_bot_day(service, game_id)
        clock.advance(hours=25)
        tick(service)
        if service.info(game_id)["pending"]:
            break
    assert service.info(game_id)["pending"]
    day = service.game(game_id).day
    clock.advance(minutes=31)
    tick(service)
    assert service.game(game_id).day == day + 1
    assert service.info(game_id)["pending"] is None


def test_moderator_amends_a_past_days_orders_and_both_sides_get_corrected_reports(world):
    service, clock = world
    game_id, _ = new_game(service)
    for _ in range(4):
        play_bot_day(service, game_id)
        clock.advance(hours=25)
        tick(service)
    game = service.game(game_id)
    assert game.day == 4
    digest_before = game.days[2].after.digest()
    with pytest.raises(ServiceError, match="reason"):
        service.moderate(game_id, "mod@example.org", "amend_orders", "", day=2, side="austria", text="")
    service.moderate(game_id, "mod@example.org", "amend_orders", "Anna's orders were lost by her provider",
                     day=2, side="austria", text="# no orders")
    service.run_jobs()
    game = service.game(game_id)
    assert game.day == 4
    assert game.days[2].orders == "# no orders"
    corrected = [m for m in mails(service, "report") if m["subject"].startswith("[corrected]")]
    assert sorted(m["to_addr"] for m in corrected) == ["anna@example.org", "fred@example.org"]
    assert "Anna's orders were lost" in corrected[0]["body"]
    audit = [a for a in service.store.read_audit(game_id) if a["action"] == "amend_orders"]
    assert audit and audit[0]["who"] == "mod@example.org" and audit[0]["why"]
    # the replay is exact: a fresh service rebuilds the same states from the stored log
    fresh = Service(Store(service.store.path, clock=clock), clock=clock).game(game_id)
    assert [d.after.digest() for d in fresh.days] == [d.after.digest() for d in game.days]
    # day 2 was resolved again with no orders: Anna's entering blocks stayed off the map
    assert game.days[2].after.digest() != digest_before


def test_pause_and_resume(world):
    service, clock = world
    game_id, _ = new_game(service)
    service.moderate(game_id, "mod@example.org", "pause", "holidays")
    clock.advance(days=5)
    assert tick(service) == []
    service.moderate(game_id, "mod@example.org", "resume", "back")
    assert service.deadline(game_id) == clock.now + timedelta(hours=24)


def test_replace_a_player(world):
    service, _ = world
    game_id, keys = new_game(service)
    service.moderate(game_id, "mod@example.org", "replace", "Fred left the club", side="france",
                     email="flo@example.org")
    assert service.seat(game_id, "france")["email"] == "flo@example.org"
    assert not service.store.check_key(game_id, "france", keys["france"])
    assert mails(service, "welcome", "flo@example.org")


def test_a_whole_game_to_the_end(world):
    service, clock = world
    game_id, _ = new_game(service)
    while service.info(game_id)["status"] == "running":
        play_bot_day(service, game_id)
        clock.advance(hours=25)
        tick(service)
    game = service.game(game_id)
    assert game.over and service.info(game_id)["status"] == "finished"
    assert len(mails(service, "report")) == 2 * game.scenario.days


def test_report_sent_again_on_request(world):
    service, clock = world
    game_id, _ = new_game(service)
    play_bot_day(service, game_id)
    clock.advance(hours=25)
    tick(service)
    before = len(mails(service, "report", "fred@example.org"))
    service.resend_report(game_id, "france")
    again = mails(service, "report", "fred@example.org")
    assert len(again) == before + 1 and mails(service, "report", "anna@example.org")
    assert [a["filename"] for a in json.loads(again[-1]["attachments"])] == ["map.png", "view.json"]
