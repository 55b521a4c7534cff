"""One lock order in the whole server: the service's lock first, then the store's (issue 28, item 1).

Before, ``create_game`` and ``join`` opened a store transaction and then took the service's lock
(replaying the game for its deadline and welcome mail), while the clock's tick takes the service's
lock and then opens a transaction for its batch of games: with one game the tick looks at every
time (a seat marked FINAL whose day is not resolved yet), a creation and a tick met within
seconds and the whole server stopped for good.
"""

from __future__ import annotations

import logging
import sys
import threading
import traceback

import pytest
from websupport import ANNA, SMALL, Site

from pbem.server.service.base import LockOrderError, ServiceLock
from pbem.tools.attack import deadlock

ROUNDS = 12  # creations and joins by each of the threads
WAIT = 300.0  # seconds: only a deadlock takes this long (the rounds take a few seconds alone)


@pytest.fixture
def site(tmp_path):
    return Site(tmp_path)


def waiting_on_final(service) -> int:
    """A game against the computer whose computer seat has marked its orders FINAL, in a game that
    resolves a day only at its deadline ("early": false): the clock looks at it at every tick."""
    game_id, _ = service.create_game("Waits on FINAL", {"france": ANNA}, scenario=SMALL, seed=4,
                                     settings={"hours": 48, "early": False}, bots={"austria": "strategist"})
    assert [s["side"] for s in service.store.seats(game_id) if s["final_day"] is not None] == ["austria"]
    assert [g["id"] for g in service.store.games_to_check(service.store.now())] == [game_id]
    return game_id


def stacks(threads) -> str:
    frames = sys._current_frames()
    return "\n".join(f"--- {t.name}\n" + "".join(traceback.format_stack(frames[t.ident]))
                     for t in threads if t.ident in frames)


def test_creations_and_joins_against_a_ticking_clock_all_end(site):
    service = site.service
    waiting_on_final(service)
    stop, ticks, errors = threading.Event(), [], []

    def clock():
        while not stop.is_set():
            ticks.append(service.tick())
            service.run_jobs()

    def player(n: int):
        try:
            for i in range(ROUNDS):
                game_id, _ = service.create_game(f"Game {n}.{i}", {"austria": f"a{n}@example.org"}, scenario=SMALL,
                                                 seed=i, settings={"hours": 48})
                service.join(game_id, "france", f"f{n}@example.org")
        except Exception as exc:  # a lock asked for out of order (LockOrderError), or any other failure
            errors.append(exc)

    ticking = threading.Thread(target=clock, name="clock", daemon=True)
    players = [threading.Thread(target=player, args=(n,), name=f"player {n}", daemon=True) for n in range(3)]
    ticking.start()
    for t in players:
        t.start()
    for t in players:
        t.join(timeout=WAIT)
    stuck = [t for t in players if t.is_alive()]
    stop.set()
    assert not stuck, f"deadlock: {len(stuck)} threads still wait after {WAIT:.0f} s\n{stacks(stuck + [ticking])}"
    ticking.join(timeout=WAIT)
    assert not ticking.is_alive(), f"the clock is stuck\n{stacks([ticking])}"
    assert not errors, errors
    assert ticks  # the clock ticked meanwhile
    running = [g for g in service.store.games() if g["status"] == "running"]
    assert len(running) == 1 + 3 * ROUNDS  # every game made, joined and begun


def test_the_service_lock_inside_a_transaction_is_refused_before_anything_waits(site):
    service = site.service
    assert ServiceLock.STRICT  # tests/conftest.py
    with pytest.raises(LockOrderError, match="take the service's lock first"):
        with service.store.transaction():
            with service.lock:
                pass
    with service.lock, service.store.transaction():  # the order: nothing to say
        with service.lock:  # held already: taken again
            assert service.lock.held()
    assert not service.lock.held()


def test_out_of_order_is_logged_once_a_place_when_not_strict(site, monkeypatch, caplog):
    service = site.service
    monkeypatch.setattr(ServiceLock, "STRICT", False)
    with caplog.at_level(logging.ERROR, logger="pbem.server.service"):
        for _ in range(3):
            with service.store.transaction():
                with service.lock:
                    pass
    said = [r for r in caplog.records if "lock order" in r.getMessage()]
    assert len(said) == 1 and "test_lock_order.py" in said[0].getMessage()


def test_the_deadlock_repro_runs_and_says_what_it_did(tmp_path):
    said = deadlock(tmp_path, seconds=5, threads=2)
    assert said.stuck is None, said.stuck
    assert said.creations > 0 and said.joins > 0
    assert said.exit_code == 0  # SIGTERM ended it
