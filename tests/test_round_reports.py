"""A tournament round's reports (issue 35, item 1): many games on one deadline.

- The clock's question "which running games must I look at?" is answered from indexes: it returns
  exactly the due games, and the work SQLite does for it does not grow with the games that are not due.
- Each report's map SVG is built once (before: once to draw it ahead, once for the report), and with
  drawing workers it is built there, not in the server's process.
- Every job's reports are queued once, whatever the batch the jobs are read in."""

from __future__ import annotations

import json
import multiprocessing
import threading
from concurrent.futures import ProcessPoolExecutor, ThreadPoolExecutor
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest
from conftest import Clock

from pbem.server.mapcache import digest
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.scale import copy_games

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
START = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)
FAR, PAST = "2027-01-01T00:00:00Z", "2026-11-01T00:00:00Z"


@pytest.fixture
def world(tmp_path):
    clock = Clock(START)
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    return service, clock


def new_game(service) -> int:
    game_id, _ = service.create_game("Round", {"austria": "anna@example.org", "france": "fred@example.org"},
                                     scenario=SMALL, seed=5, settings={"hours": 24, "reminders": []})
    return game_id


def games_of(store, count: int) -> None:
    """Games 2..``count`` as copies of game 1, none of them due."""
    store.execute("UPDATE games SET deadline = ?, next_check = ?", (FAR, FAR))
    copy_games(store.path, count)


def steps(store, when: str) -> tuple[list[int], int]:
    """(the ids games_to_check returns, how many SQLite virtual-machine steps it took)."""
    counted = [0]

    def count() -> int:
        counted[0] += 1
        return 0

    with store.transaction():  # on the store's own connection, where the handler counts
        store.db.conn.set_progress_handler(count, 1)
        try:
            ids = [row["id"] for row in store.games_to_check(when)]
        finally:
            store.db.conn.set_progress_handler(None, 1)
    return ids, counted[0]


def test_the_games_to_check_are_exactly_the_due_ones(world):
    service, _ = world
    store = service.store
    new_game(service)
    games_of(store, 9)
    store.execute("UPDATE games SET next_check = ? WHERE id = 2", (PAST,))  # a reminder or deadline due
    store.execute("UPDATE games SET deadline = ? WHERE id = 3", (PAST,))  # its deadline passed
    store.execute("UPDATE games SET pending = ? WHERE id = 4", (json.dumps({"deadline": FAR}),))  # a question waits
    store.execute("UPDATE seats SET final_day = 0 WHERE game_id = 5 AND side = 'france'")  # orders marked FINAL
    store.execute("UPDATE games SET status = 'finished', deadline = ?, next_check = ? WHERE id = 6", (PAST, PAST))
    store.execute("UPDATE games SET status = 'finished' WHERE id = 7")
    store.execute("UPDATE seats SET final_day = 0 WHERE game_id = 7")
    store.execute("UPDATE games SET status = 'paused', pending = ?, next_check = ? WHERE id = 8",
                  (json.dumps({"deadline": PAST}), PAST))
    store.execute("UPDATE games SET deadline = NULL, next_check = NULL WHERE id = 9")
    due = store.games_to_check("2026-11-02T09:00:00Z")
    assert [g["id"] for g in due] == [2, 3, 4, 5]
    assert due[2]["pending"] == {"deadline": FAR} and isinstance(due[0]["settings"], dict)
    assert [g["id"] for g in store.games_to_check(FAR)] == [1, 2, 3, 4, 5]  # 9 has no clock; 6-8 do not run


def test_an_empty_tick_does_not_read_every_game(tmp_path):
    """The work of the question stays the same when a thousand games that are not due are added: the
    due ones are found from indexes, not by reading every running game and every seat."""

    def round_of(count: int):
        service = Service(Store(tmp_path / f"{count}.sqlite3", clock=Clock(START)), clock=Clock(START))
        new_game(service)
        games_of(service.store, count)
        service.store.execute("UPDATE games SET next_check = ? WHERE id = 7", (PAST,))
        service.store.execute("UPDATE seats SET final_day = 0 WHERE game_id = 12 AND side = 'austria'")
        return steps(service.store, "2026-11-02T09:00:00Z")

    few, before = round_of(20)
    many, after = round_of(1020)
    assert few == many == [7, 12]
    assert after <= before + 50, (before, after)  # joined by OR, the question read every game: 20 times the steps


def render_counted(monkeypatch, service, game_id) -> list[str]:
    """The names of the threads that build a map SVG, one entry a build."""
    built = []
    rules = type(service.game(game_id).ruleset)
    real = rules.render_svg

    def counted(self, *args, **kwargs):
        built.append(threading.current_thread().name)
        return real(self, *args, **kwargs)

    monkeypatch.setattr(rules, "render_svg", counted)
    return built


def resolved_day(service, clock) -> int:
    game_id = new_game(service)
    clock.advance(hours=25)
    assert service.tick() == [(game_id, 0)]
    return game_id


def map_refs(service, game_id) -> dict[str, dict]:
    rows = service.store.mails("WHERE kind = 'report' AND game_id = ? ORDER BY id", (game_id,))
    return {row["to_addr"]: next(p["ref"] for p in json.loads(row["attachments"]) if p["filename"] == "map.png")
            for row in rows}


def test_each_reports_map_svg_is_built_once(world, monkeypatch):
    service, clock = world
    game_id = resolved_day(service, clock)
    service.rasterise = lambda svg: b"png of " + digest(svg).encode()
    built = render_counted(monkeypatch, service, game_id)
    assert service.run_jobs() == 1
    assert len(built) == 2  # one a seat (before: two a seat)
    refs = map_refs(service, game_id)
    assert sorted(refs) == ["anna@example.org", "fred@example.org"]
    for ref in refs.values():
        assert service.maps.get(ref["svg"]) == b"png of " + ref["svg"].encode()  # the outbox finds it kept


def test_with_drawing_workers_the_svg_is_built_there_and_keyed_as_the_servers_own(world, monkeypatch):
    service, clock = world
    game_id = resolved_day(service, clock)
    service.drawing = ThreadPoolExecutor(2, thread_name_prefix="drawer")
    try:
        built = render_counted(monkeypatch, service, game_id)
        assert service.run_jobs() == 1
    finally:
        service.drawing.shutdown()
    assert len(built) == 2 and all(name.startswith("drawer") for name in built)
    day = 0
    for to, ref in map_refs(service, game_id).items():
        side = "austria" if to.startswith("anna") else "france"
        assert ref["map"] == [game_id, day, side, "en"]
        assert ref["svg"] == digest(service.map_svg(game_id, day, side, "en"))  # the web's key of the same map
        assert service.maps.get(ref["svg"]).startswith(b"\x89PNG")


def test_the_drawing_worker_processes_draw_the_same_map(world):
    """The server's workers (spawned processes) build the SVG from the seat's view: the same picture and
    key as this process would draw."""
    service, clock = world
    game_id = resolved_day(service, clock)
    service.drawing = ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn"))
    try:
        assert service.run_jobs() == 1
    finally:
        service.drawing.shutdown()
    service.drawing = None
    refs = map_refs(service, game_id)
    ref = refs["fred@example.org"]
    kept = service.maps.get(ref["svg"])
    fresh = service.maps.__class__()  # drawn again here, from this process's own SVG
    assert fresh.png(service.map_svg(game_id, 0, "france", "en"), service.rasterise) == (ref["svg"], kept)


def test_every_jobs_reports_are_queued_once_whatever_the_batch(world):
    service, clock = world
    games = [new_game(service) for _ in range(3)]
    service.rasterise = lambda svg: b"png"
    clock.advance(hours=25)
    assert sorted(service.tick()) == [(g, 0) for g in games]
    told = []
    assert service.run_jobs(limit=1, queued=lambda: told.append(1)) == 3  # read one at a time, all done
    assert len(told) == 3  # the sender woken as each job's reports are queued
    reports = service.store.mails("WHERE kind = 'report' ORDER BY id")
    assert sorted((r["game_id"], r["to_addr"]) for r in reports) == sorted(
        (g, to) for g in games for to in ("anna@example.org", "fred@example.org"))
    assert service.store.query("SELECT status, COUNT(*) AS n FROM jobs GROUP BY status") == [{"status": "done", "n": 3}]
    assert service.run_jobs() == 0
    assert len(service.store.mails("WHERE kind = 'report'")) == 6


def test_a_stopping_server_takes_no_more_jobs_and_leaves_them_due(world):
    """At a stop the clock waits for the jobs worker a while, then the drawing workers go: the jobs not
    taken by then must stay due for the next start, not fail for want of workers (their reports lost)."""
    service, clock = world
    games = [new_game(service) for _ in range(3)]
    service.rasterise = lambda svg: b"png"
    clock.advance(hours=25)
    assert len(service.tick()) == 3
    taken = []

    def going() -> bool:  # the stop comes once the first job is taken
        taken.append(1)
        return len(taken) == 1

    assert service.run_jobs(going=going) == 1
    rows = service.store.query("SELECT game_id, status FROM jobs ORDER BY id")
    assert [(r["game_id"], r["status"]) for r in rows] == [(games[0], "done"), (games[1], "due"), (games[2], "due")]
    assert service.run_jobs() == 2  # the next start does them
    assert len(service.store.mails("WHERE kind = 'report'")) == 6
