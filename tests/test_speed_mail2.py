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
    assert store.log_end(long)[0] == 3001 and store.log_end(short)[0] == 4


def test_a_batch_reads_its_mails_in_one_statement_and_never_their_bytes_again(tmp_path):
    """A batch of stored mails was read one statement a mail, then each mail's whole row (its raw bytes, up to
    512 KB) read again under the lock to see it was still stored: now one read for the batch, and its status
    alone under the lock; what the batch does is the same (every mail processed once, its orders logged, its
    answer queued)."""
    import collections
    import re

    from test_speed_mail import orders_mails, statements

    from pbem.server import inbox

    store, service, markers = orders_mails(tmp_path / "pbem.db", 2, 6)
    for game_id in (1, 2):
        service.game(game_id)  # the cache warm, as in the server
    reads = []
    outside = store._readers.query
    store._readers.query = lambda sql, params=(): reads.append(" ".join(sql.split())) or outside(sql, params)
    seen = statements(store)
    assert inbox.process_pending(service, batch=10, seconds=60) == 6
    store.db.conn.set_trace_callback(None)
    store._readers.query = outside
    of_inbound = collections.Counter(re.sub(r"\d+", "N", s) for s in reads if "FROM inbound" in s)
    assert of_inbound == {"SELECT id FROM inbound WHERE status = 'stored' ORDER BY id": 1,
                          "SELECT * FROM inbound WHERE id IN (?, ?, ?, ?, ?, ?)": 1}, of_inbound
    assert not [s for s in seen if s.startswith("SELECT * FROM inbound")]  # under the lock: the status alone
    assert sum(s.startswith("SELECT status FROM inbound WHERE id") for s in seen) == 6
    assert [r["status"] for r in store.query("SELECT status FROM inbound ORDER BY id")] == ["processed"] * 6
    log = "\n".join(e["text"] for g in (1, 2) for e in store.read_log(g) if e["kind"] == "orders")
    assert all(f"# {m}\n" in log for m in markers)
    assert store.query_one("SELECT COUNT(*) AS n FROM outbox WHERE dedupe_key LIKE 'answer:%'")["n"] == 6
    store.close()


def test_a_deadline_read_again_is_not_parsed_again():
    """A game's deadline is read several times a mail and a tick (``deadlines.parse_iso``): the same text gives
    the same moment, parsed once (a datetime never changes); a text that is no moment is refused each time."""
    from datetime import datetime, timezone

    import pytest

    from pbem.server import deadlines

    text = "2026-12-01T18:00:00Z"
    assert deadlines.parse_iso(text) == datetime(2026, 12, 1, 18, 0, tzinfo=timezone.utc)
    assert deadlines.parse_iso(text) is deadlines.parse_iso(text)
    assert deadlines.parse_iso("") is None and deadlines.parse_iso(None) is None
    for _ in range(2):
        with pytest.raises(ValueError):
            deadlines.parse_iso("2026-12-01 18:00")


def test_a_cached_game_s_last_entry_is_decoded_once_and_another_process_s_entry_is_seen(tmp_path, monkeypatch):
    """The game cache is checked against the stored log's length and last entry at every read of a game (four a
    mail): the last entry, a stored parse in it, was decoded from its JSON each time; now the text found equal
    once is compared as text. An entry written by another connection is still seen: the game is read again."""
    import json

    from test_speed_mail import orders_mails

    from pbem.server.service import Service

    from pbem.server import inbox

    store, service, _ = orders_mails(tmp_path / "pbem.db", 1, 1)
    assert inbox.process_pending(service) == 1  # the game's log ends with orders, their stored parse in them
    game = service.game(1)
    side = game.turn().seats[0]
    body = game.orders_text(game.day, side)
    assert body
    text = store.query_one("SELECT entry FROM log WHERE game_id = 1 ORDER BY seq DESC LIMIT 1")["entry"]
    decoded = []
    loads = json.loads
    monkeypatch.setattr(json, "loads", lambda s, *a, **k: decoded.append(s) or loads(s, *a, **k))
    with service.lock, store.transaction():
        for n in range(4):
            store.audit("test", "note", 1, why=f"a write between: the store's kept reads start again ({n})")
            assert service.game(1) is game
    monkeypatch.setattr(json, "loads", loads)
    assert decoded.count(text) <= 1, len(decoded)
    other = Service(Store(tmp_path / "pbem.db"))  # another process's service: its own connection and cache
    assert other.submit(1, side, body + "\n# sent again", source="web").ok
    again = service.game(1)
    assert again is not game and again.orders_text(again.day, side) == body + "\n# sent again"
    assert len(again.log) == len(game.log) + 1
    other.store.close()
    store.close()
