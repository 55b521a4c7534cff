"""Resolution in the server's batches, issue 35 item 3 (fourteenth session, speed-batch): a resolved game's
row decoded once, and the statements that only read again what the batch had read cut. No timing is asserted:
the work is counted (the game's row decoded, the statements run), never timed; what a resolution does is
checked with it (its day, its log numbered on, each missed day counted and audited, its clock, its job)."""

from __future__ import annotations

import collections
import re

import pytest
from test_speed_mail import due_games

from pbem.server.service import Service, ServiceError
from pbem.server.store import NoSuchGame, NoSuchSeat, Store
from pbem.tools.traced import Traced


def test_a_resolved_game_decodes_its_row_once_and_takes_fourteen_statements(tmp_path):
    """A game resolved in the tick's batch decoded its row (settings, options, pending: JSON) six times and ran
    22 statements: its row read three times, its log's end three times, the missing seat's row twice, the log's
    last number once more. Now its row is decoded once (the check that its clock is still the one the tick
    saw; the "ask me" setting, the computer seats and the missed days' policy take that row), read once, its
    log's end read once (the game passed on, the next number taken from it), the seat's missed days counted in
    one statement, the seat's address for the vacation check taken from the seats the tick read, and no seat's
    FINAL mark cleared where the tick read none: 14 statements, with the same outcome."""
    ids = due_games(tmp_path / "pbem.db", 3)
    store = Store(tmp_path / "pbem.db")
    service = Service(store)
    owing = {}
    for game_id in ids:
        game = service.game(game_id)
        owing[game_id] = set(game.turn().seats)
        assert not any(game.orders_text(game.day, seat) for seat in owing[game_id])  # every one of them misses
    decoded = []
    get_game = store.get_game
    store.get_game = lambda game_id: decoded.append(game_id) or get_game(game_id)
    with Traced(store.db.conn) as traced:
        assert sorted(service.tick(batch=10, seconds=60)) == [(g, 0) for g in ids]
    del store.get_game
    assert collections.Counter(decoded) == {g: 1 for g in ids}, decoded
    assert traced.statements <= 14 * 3 + 2, traced.by_text  # and BEGIN, COMMIT
    reads = collections.Counter({re.sub(r"\bLIMIT \?", "LIMIT", text): n for text, n in traced.by_text.items()
                                 if text.startswith("SELECT")})
    assert reads["SELECT * FROM games WHERE id = ?"] == 3
    assert reads["SELECT seq, entry FROM log WHERE game_id = ? ORDER BY seq DESC LIMIT"] == 3
    assert not [text for text in reads if "FROM seats WHERE game_id = ? AND side" in text or "MAX(seq)" in text]
    for game_id in ids:
        row = store.get_game(game_id)
        assert (row["deadline"], row["next_check"], row["pending"]) == (None, None, None)
        assert [d["day"] for d in store.read_days(game_id)] == [0]
        log = store.query("SELECT seq, entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,))
        assert [r["seq"] for r in log] == list(range(len(log))) == list(range(len(service.game(game_id).log)))
        assert {s["side"]: s["missed"] for s in store.seats(game_id)} == {
            s["side"]: int(s["side"] in owing[game_id]) for s in store.seats(game_id)}
        audited = [a["detail"] for a in store.read_audit(game_id) if a["action"] == "missed"]
        assert sorted(a["side"] for a in audited) == sorted(owing[game_id]) and all(a["count"] == 1 for a in audited)
    assert sorted(j["game_id"] for j in store.due_jobs() if j["kind"] == "reports") == ids
    store.close()


def test_a_missed_day_is_counted_on_from_the_stored_count(tmp_path):
    """The missed days are counted in the database (one statement, the count given back), from what is stored:
    a count set by a moderator is counted on; a seat that is not there is refused, by the store and by the
    service, as before."""
    ids = due_games(tmp_path / "pbem.db", 1)
    store = Store(tmp_path / "pbem.db")
    service = Service(store)
    store.update_seat(ids[0], "austria", missed=4)
    assert store.count_missed(ids[0], "austria") == 5
    assert store.count_missed(ids[0], "austria") == 6
    assert {s["side"]: s["missed"] for s in store.seats(ids[0])} == {"austria": 6, "france": 0}
    with pytest.raises(NoSuchSeat):
        store.count_missed(ids[0], "prussia")
    with pytest.raises(ServiceError, match="has no side"):
        with store.transaction():
            service.missed(ids[0], "prussia", 0)
    assert not [a for a in store.read_audit(ids[0]) if a["action"] == "missed"]
    store.close()


def test_a_clock_set_or_a_log_entry_for_no_game_is_refused(tmp_path):
    """``set_clock`` tells a game that is not there by its UPDATE changing no row (it read the game's row
    first), ``append_log`` by the game's row read undecoded: both still refuse it, and write nothing."""
    store = Store(tmp_path / "pbem.db")
    game_id = store.create_game("marengo", "s", 1)
    for change in ({"deadline": "2026-11-29T12:00:00Z"}, {"pending": None}, {"next_check": None}, {}):
        with pytest.raises(NoSuchGame):
            store.set_clock(game_id + 1, **change)
        with pytest.raises(NoSuchGame):
            with store.transaction():
                store.set_clock(game_id + 1, **change)
    with pytest.raises(NoSuchGame):
        store.append_log(game_id + 1, {"kind": "note"})
    store.set_clock(game_id, deadline="2026-11-29T12:00:00Z")
    assert store.get_game(game_id)["next_check"] == "2026-11-29T12:00:00Z"
    assert [store.append_log(game_id, {"kind": "note", "n": n}) for n in range(3)] == [0, 1, 2]
    assert store.query("SELECT COUNT(*) AS n FROM log")[0]["n"] == 3
    store.close()


def test_the_next_log_number_follows_an_entry_another_connection_appended(tmp_path):
    """The next number is the kept end of the log, read again in each transaction: an entry another process
    appended between two transactions is counted, and inside one transaction each append takes the next."""
    store = Store(tmp_path / "pbem.db")
    other = Store(tmp_path / "pbem.db")
    game_id = store.create_game("marengo", "s", 1)
    with store.transaction():
        assert store.log_end(game_id) == (0, None)
        assert store.append_log(game_id, {"kind": "note", "n": 0}) == 0
        assert store.append_log(game_id, {"kind": "note", "n": 1}) == 1
    assert other.append_log(game_id, {"kind": "note", "n": 2}) == 2
    with store.transaction():
        assert store.append_log(game_id, {"kind": "note", "n": 3}) == 3
    assert [e["n"] for e in store.read_log(game_id)] == [0, 1, 2, 3]
    other.close()
    store.close()


def test_a_final_mark_is_cleared_where_there_is_one(tmp_path):
    """The tick reads the seats (their FINAL marks) and hands them on: a resolved day clears the marks of the
    seats that owed orders and had one (one statement each), and no longer writes NULL over the others'."""
    ids = due_games(tmp_path / "pbem.db", 2)
    store = Store(tmp_path / "pbem.db")
    service = Service(store)
    marked = set(service.game(ids[0]).turn().seats)
    for side in marked:
        store.mark_final(ids[0], side, 0)
    store.mark_final(ids[1], "austria", 7)  # a mark of another day on a seat of the other game, not cleared if it owes nothing
    owing = set(service.game(ids[1]).turn().seats)
    with Traced(store.db.conn) as traced:
        assert sorted(service.tick(batch=10, seconds=60)) == [(g, 0) for g in ids]
    clears = sum(n for text, n in traced.by_text.items() if text.startswith("UPDATE seats SET final_day = NULL"))
    assert clears == len(marked) + len(owing & {"austria"})
    assert all(s["final_day"] is None for s in store.seats(ids[0]))
    assert {s["side"]: s["final_day"] for s in store.seats(ids[1])} == {
        "austria": None if "austria" in owing else 7, "france": None}
    store.close()


def test_the_kept_encoders_write_what_json_dumps_wrote():
    """The store's JSON and the state digest use one encoder each, made once, where ``json.dumps`` made one
    at each call with the same arguments: the same text (a guard; the digests of stored games depend on it)."""
    import dataclasses
    import hashlib
    import json

    from pbem.core import digest as digests
    from pbem.server.store import _json

    @dataclasses.dataclass
    class Block:
        name: str
        strength: int
        at: tuple = ()

    values = [{"b": [1, 2.5, None, True], "a": {"é": "Маренго", "z": "拿破仑"}}, [], "x\u2028y", {"n": {"m": {}}},
              {"seats": ["austria", "france"], "digest": "0" * 16, "events": [{"kind": "move", "to": 3}]}]
    for value in values:
        assert _json(value) == json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    state = {"blocks": [Block("Ott", 4, (1, 2)), Block("Лан", 3)], "day": 2, "notes": ["é"]}
    for ascii in (True, False):
        text = json.dumps(state, sort_keys=True, default=digests._written, ensure_ascii=ascii)
        assert digests.digest(state, ensure_ascii=ascii) == hashlib.sha256(text.encode()).hexdigest()[:16]
    assert digests.digest(state) != digests.digest(state, ensure_ascii=False)  # the two encoders are not one
