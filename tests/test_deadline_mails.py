"""Every mail tells the deadline (issue: what a player meets first): the welcome, the
acknowledgement of orders, each day's report (the next day's deadline, in the reader's
time zone, with the time left), the start of a game whose last seat was just taken; and
a report says when the reader's day was missed."""

from datetime import datetime, timezone
from pathlib import Path

from conftest import Clock

from pbem.games.marengo.bot import bot_orders
from pbem.server.service import Service
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
SEATS = {"austria": "anna@example.org", "france": "fred@example.org"}


def world(tmp_path):
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    service.rasterise = lambda svg: b"png"
    return service, clock


def bodies(service, kind, to=None):
    rows = service.store.mails("WHERE kind = ? ORDER BY id", (kind,))
    return [r["body"] for r in rows if to is None or r["to_addr"] == to]


def test_welcome_acknowledgement_and_reports_tell_the_deadline_in_the_readers_zone(tmp_path):
    service, clock = world(tmp_path)
    game_id, _ = service.create_game("Deadlines", SEATS, scenario=SMALL, seed=2, settings={"hours": 48},
                                     timezones={"austria": "Europe/Vienna", "france": "America/New_York"})
    welcome = bodies(service, "welcome", "anna@example.org")[0]
    assert "Deadline: Wednesday 04 November 2026, 10:00 Europe/Vienna, in 2 days." in welcome
    assert "not running" not in welcome and "set by the server" not in welcome
    game = service.game(game_id)
    ack = service.submit(game_id, "austria", bot_orders(game.scenario, game.view("austria"), 2)).message()
    assert "Deadline: Wednesday 04 November 2026, 10:00 Europe/Vienna, in 2 days." in ack
    clock.advance(hours=1)
    service.resolve_next(game_id)
    service.run_jobs()
    report = bodies(service, "report", "fred@example.org")[0]
    # the next day's deadline, set as the reports went out: 48 hours from now, in New York's time
    assert "Wednesday 04 November 2026, 05:00 America/New_York, in 2 days" in report
    assert service.deadline(game_id) == datetime(2026, 11, 4, 10, 0, tzinfo=timezone.utc)


def test_a_missed_day_is_said_in_the_report(tmp_path):
    service, clock = world(tmp_path)
    game_id, _ = service.create_game("Missed", SEATS, scenario=SMALL, seed=2, settings={"hours": 24})
    clock.advance(hours=25)
    service.tick()
    service.run_jobs()
    austria = bodies(service, "report", "anna@example.org")[0]
    assert austria.startswith("No orders from you arrived for this day before its deadline: it was played with "
                              "your standing orders only")
    assert not bodies(service, "report", "fred@example.org")[0].startswith("No orders")  # not France's day


def test_the_last_seat_taken_starts_the_game_and_the_others_are_told_their_deadline(tmp_path):
    service, clock = world(tmp_path)
    game_id, _ = service.create_game("Open", {"austria": "anna@example.org", "france": None}, scenario=SMALL)
    assert "(none yet: the game begins when every seat is taken)" in bodies(service, "welcome")[0]
    service.join(game_id, "france", "fred@example.org")
    assert "in 2 days" in bodies(service, "welcome", "fred@example.org")[0]
    start = bodies(service, "start", "anna@example.org")
    assert len(start) == 1 and "the game begins" in start[0] and "in 2 days" in start[0]
