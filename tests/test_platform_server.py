"""The server with a game of three seats that all owe orders at once (the toy race of
test_platform.py, installed for the test as any package under pbem/games/ would be):
options stored with the game, reminders, FINAL and missed turns per seat, reports per seat."""

from __future__ import annotations

from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import Clock
from test_platform import Race

from pbem.core.ruleset import Bot, Option
from pbem.games import rulesets
from pbem.report.document import Report
from pbem.server.service import Service, ServiceError
from pbem.server.store import Store

SEATS = {"red": "red@example.org", "blue": "blue@example.org", "green": "green@example.org"}


class InstalledRace(Race):
    """The toy race with the members a server needs beyond the engine's."""

    def scenarios(self):
        return {"race": Path(__file__)}

    def options(self):
        return (Option("length", "Length of the race", ("10", "20"), "10"),)

    def load_scenario(self, path):
        return "the race"

    def check_map(self, path):
        return []

    def setup(self, scenario, options, chance):
        state = super().setup(scenario, options, chance)
        state.length = int(options["length"])
        return state

    def is_over(self, scenario, state):
        return max(state.track.values()) >= getattr(state, "length", 10)

    def report(self, game, day, seat, *, deadline=None, game_label="", game_id="", spectator=False, lang: str = "en"):
        seen = [e.for_side(seat) for e in game.days[day].events]
        text = "\n".join(t for t, _ in filter(None, seen)) + f"\nDeadline: {deadline}"
        return Report(seat, day, f"[pbem {game_id}] Race, {self.turn_label(None, day)}", text, text)

    def orders_template(self, game, seat, *, deadline, game_label, game_id, lang: str = "en"):
        return f"GAME {game_id} SIDE {seat}\nRUN 3\n"

    def status_lines(self, game, seat, *, lang: str = "en"):
        return ["Track: " + ", ".join(f"{k} {v}" for k, v in game.view(seat)["track"].items())]

    def render_svg(self, scenario, view, title=None, *, lang: str = "en"):
        return '<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>'

    def bots(self):
        return {"bot": Bot("bot", "runs 3", lambda scenario, view, seed: "RUN 3")}


@pytest.fixture
def world(tmp_path, monkeypatch):
    monkeypatch.setitem(rulesets(), "race", InstalledRace())
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    service.rasterise = lambda svg: b"png"
    return service, clock


def sent(service, kind, to=None):
    rows = service.store.mails("WHERE kind = ? ORDER BY id", (kind,))
    return [r for r in rows if to is None or r["to_addr"] == to]


def test_options_are_checked_stored_and_used(world):
    service, _ = world
    with pytest.raises(ServiceError, match="option length may be 10, 20, not '7'"):
        service.create_game("Bad", SEATS, game="race", options={"length": "7"})
    with pytest.raises(ServiceError, match="The race has no seat purple"):
        service.create_game("Bad", {"purple": "p@example.org"}, game="race")
    game_id, keys = service.create_game("Long", SEATS, game="race", options={"length": "20"})
    assert set(keys) == {"red", "blue", "green"}
    assert service.info(game_id)["options"] == {"length": "20"}
    assert service.game(game_id).initial.length == 20
    assert service.seat_titles(game_id) == {"red": "Red", "blue": "Blue", "green": "Green"}


def test_every_seat_owes_orders_reminders_and_missed_turns_are_per_seat(world):
    service, clock = world
    game_id, _ = service.create_game("Race", SEATS, game="race", settings={"hours": 24, "reminders": [2]})
    assert service.game(game_id).turn().seats == ("red", "blue", "green")
    for seat in ("red", "blue"):
        result = service.submit(game_id, seat, "RUN 2")
        assert result.ok and not result.standing_only, result.message()
    clock.advance(hours=22, minutes=30)
    assert service.tick() == []
    assert [r["to_addr"] for r in sent(service, "reminder")] == ["green@example.org"]  # only the seat still owing
    clock.advance(hours=2)
    assert service.tick() == [(game_id, 0)]
    service.run_jobs()
    seats = {s["side"]: s for s in service.store.seats(game_id)}
    assert (seats["red"]["missed"], seats["blue"]["missed"], seats["green"]["missed"]) == (0, 0, 1)
    assert [r["to_addr"] for r in sent(service, "missed")] == ["green@example.org"]
    reports = sent(service, "report")
    assert sorted(r["to_addr"] for r in reports) == sorted(SEATS.values())
    # each seat's report holds its own die, not the others'
    red = next(r for r in reports if r["to_addr"] == "red@example.org")
    assert "Die for red stumbles on a 1" in red["body"] and "Die for blue" not in red["body"]
    assert "green ran" in red["body"] and "blue ran" in red["body"]  # a witness of green; blue's run is public
    blue = next(r for r in reports if r["to_addr"] == "blue@example.org")
    assert "red ran" not in blue["body"] and "green ran" not in blue["body"]  # not a witness of either


def test_the_turn_resolves_early_only_when_every_owing_seat_is_final(world):
    service, clock = world
    game_id, _ = service.create_game("Race", SEATS, game="race", settings={"hours": 24, "early": True})
    assert service.submit(game_id, "red", "RUN 1\nFINAL").final
    assert service.submit(game_id, "blue", "RUN 1\nFINAL").final
    assert service.tick() == []
    assert service.submit(game_id, "green", "RUN 3\nFINAL").final
    assert service.tick() == [(game_id, 0)]
    assert service.game(game_id).day == 1
