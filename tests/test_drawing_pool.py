"""The drawing workers survive a worker's death (issue 35, item 1).

Python's process pool breaks for good when one of its workers dies (killed by the kernel's
out-of-memory killer, or by hand): every job pending on it and every later one fails with
BrokenProcessPool. Before, every later report then failed until the server was restarted. The server's
pool (pbem.server.drawing.DrawingPool) is made again when it breaks, and the jobs it failed are
drawn on the new one. Real spawned worker processes, killed with SIGKILL."""

from __future__ import annotations

import multiprocessing
import os
import signal
import time
from concurrent.futures import ProcessPoolExecutor
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import Clock

from pbem.server.drawing import DrawingPool
from pbem.server.service import Service
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
START = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)


@pytest.fixture
def world(tmp_path):
    clock = Clock(START)
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    service.drawing = DrawingPool(lambda: ProcessPoolExecutor(1, mp_context=multiprocessing.get_context("spawn")))
    yield service, clock
    service.drawing.shutdown(cancel_futures=True)


def new_game(service) -> int:
    game_id, _ = service.create_game("Round", {"austria": "anna@example.org", "france": "fred@example.org"},
                                     scenario=SMALL, seed=5, settings={"hours": 24, "reminders": []})
    return game_id


def killed(pid: int) -> None:
    """Kill a worker and wait until it is dead (gone, or a zombie its pool has not reaped yet)."""
    os.kill(pid, signal.SIGKILL)
    status = Path(f"/proc/{pid}/status")
    deadline = time.monotonic() + 30
    while time.monotonic() < deadline:
        try:
            if "\nState:\tZ" in status.read_text():
                return
        except FileNotFoundError:
            return
        time.sleep(0.05)
    raise AssertionError(f"worker {pid} did not die")


def worker(service) -> int:
    """The pid of the pool's worker (one worker: the one that runs this)."""
    return service.drawing.submit(os.getpid).result(timeout=120)


def drawn(service, game_id: int) -> list[bytes]:
    """The PNGs kept for the maps of the game's queued reports (what the outbox attaches)."""
    import json

    rows = service.store.mails("WHERE kind = 'report' AND game_id = ? ORDER BY id", (game_id,))
    refs = [next(p["ref"] for p in json.loads(row["attachments"]) if p["filename"] == "map.png") for row in rows]
    return [service.maps.get(ref["svg"]) for ref in refs]


def test_after_a_worker_is_killed_the_next_reports_are_still_drawn(world):
    service, clock = world
    first, second = new_game(service), new_game(service)
    clock.advance(hours=25)
    assert sorted(service.tick()) == [(first, 0), (second, 0)]
    # the first job's maps are drawn, then the worker is killed while nothing is asked of it
    jobs = service.store.due_jobs(10)
    assert service.run_job(jobs[0], service.job_maps(jobs[0])) == 1
    killed(worker(service))
    assert service.run_jobs() == 1  # the second job: on the broken pool before, it failed
    assert service.store.query("SELECT status, error FROM jobs ORDER BY id") == [
        {"status": "done", "error": None}, {"status": "done", "error": None}]
    for game_id in (first, second):
        pngs = drawn(service, game_id)
        assert len(pngs) == 2 and all(png and png.startswith(b"\x89PNG") for png in pngs), game_id
    assert service.drawing.replaced == 1


def test_maps_ordered_when_the_worker_dies_are_drawn_on_the_new_one(world):
    service, clock = world
    game_id = new_game(service)
    clock.advance(hours=25)
    assert service.tick() == [(game_id, 0)]
    pid = worker(service)
    ordered = service.maps_ordered(game_id, 0)  # the worker loads the scenario first: it dies drawing them
    killed(pid)
    mails = service.draw_reports(game_id, 0, maps=ordered)
    assert [m["to"] for m in mails] == ["anna@example.org", "fred@example.org"]
    for mail in mails:
        ref = mail["attachments"][0][2]
        assert service.maps.get(ref["svg"]).startswith(b"\x89PNG")
    assert worker(service) != pid and service.drawing.replaced == 1


def test_a_stopped_pool_is_not_made_again(world):
    """At a stop the workers go for good: a job that finds the pool shut down is not drawn on a new one
    (no workers left behind the stopping server)."""
    service, _ = world
    pid = worker(service)
    service.drawing.shutdown(wait=True)
    with pytest.raises(RuntimeError, match="after shutdown"):
        service.drawing.submit(os.getpid)
    service.drawing.replace(service.drawing.pool)  # as a job that met it broken would ask
    assert service.drawing.replaced == 0
    assert not Path(f"/proc/{pid}").exists() or "\nState:\tZ" in Path(f"/proc/{pid}/status").read_text()
