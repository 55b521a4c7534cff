"""The mail path and the resolution in batches, issue 35 (thirteenth session, speed-mail2): what was
cut keeps what the store, the digest and the service give. No timing is asserted: the work is counted
(SQLite's virtual machine steps, the objects handed on), never timed."""

from __future__ import annotations

from pbem.server.store import Store


def vm_steps(store: Store, work) -> int:
    """How many steps of SQLite's virtual machine ``work()`` takes on the store's connection."""
    steps = [0]

    def step() -> int:
        steps[0] += 1
        return 0

    store.db.conn.set_progress_handler(step, 1)
    try:
        work()
    finally:
        store.db.conn.set_progress_handler(None, 1)
    return steps[0]


def test_appending_to_a_long_log_takes_no_more_steps_than_to_a_short_one(tmp_path):
    """The next entry's number is read from the log's primary key, not by counting the game's rows: an append
    to a game with 3,000 entries costs what one to a game with 3 does, and each gets the next number."""
    store = Store(tmp_path / "pbem.sqlite3")
    long, short = (store.create_game("marengo", "s", 1) for _ in range(2))
    with store.transaction():
        for n in range(3000):
            store.append_log(long, {"kind": "note", "n": n})
        for n in range(3):
            store.append_log(short, {"kind": "note", "n": n})
    with store.transaction():
        steps_long = vm_steps(store, lambda: store.append_log(long, {"kind": "note", "n": 3000}))
        steps_short = vm_steps(store, lambda: store.append_log(short, {"kind": "note", "n": 3}))
    assert steps_long <= steps_short + 20, (steps_long, steps_short)
    assert [e["n"] for e in store.read_log(long)] == list(range(3001))
    assert [e["n"] for e in store.read_log(short)] == list(range(4))
    assert store.log_tail(long)[0] == 3001 and store.log_tail(short)[0] == 4
