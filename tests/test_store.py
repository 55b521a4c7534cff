import hashlib
import sqlite3
import threading
from datetime import datetime, timezone

import pytest

from pbem.server.store import NoSuchGame, NoSuchSeat, SeatExists, Store, migrations, new_key


def clock():
    return datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pbem.db", clock=clock)
    yield s
    s.close()


@pytest.fixture
def game(store):
    game_id = store.create_game("marengo", "scenarios/marengo.toml", seed=7, title="Test")
    store.add_seat(game_id, "french", email="fr@example.org")
    store.add_seat(game_id, "austrian", email="au@example.org")
    return game_id


def test_opening_twice_applies_migrations_once(tmp_path):
    path = tmp_path / "pbem.db"
    Store(path).close()
    store = Store(path)
    names = [row[0] for row in store.db.execute("SELECT name FROM migrations ORDER BY id").fetchall()]
    assert names == [m.name for m in migrations.applied(store.db)]
    assert names[0] == "001_initial" and names == sorted(set(names))  # each once, in order
    assert migrations.pending(store.db) == []
    assert store.db.journal_mode == "wal"
    assert store.db.execute("PRAGMA foreign_keys").fetchone()[0] == 1
    assert {"games", "seats", "players", "log", "days", "inbound", "outbox", "audit"} <= set(store.db.table_names())


def test_game_round_trip(store):
    game_id = store.create_game("marengo", "s.toml", seed=3, settings={"deadline": "48h"})
    game = store.get_game(game_id)
    assert game["status"] == "open" and game["settings"] == {"deadline": "48h"}
    assert game["created"] == "2024-05-01T12:00:00Z"
    store.update_game(game_id, status="running")
    assert store.get_game(game_id)["status"] == "running"
    with pytest.raises(ValueError):
        store.update_game(game_id, status="won")
    with pytest.raises(NoSuchGame):
        store.get_game(999)


def test_seats(store, game):
    assert [s["side"] for s in store.seats(game)] == ["austrian", "french"]
    with pytest.raises(SeatExists):
        store.add_seat(game, "french")
    with pytest.raises(NoSuchSeat):
        store.get_seat(game, "russian")
    store.update_seat(game, "french", missed=2, vacation_from="2024-06-01", vacation_to="2024-06-10")
    seat = store.get_seat(game, "french")
    assert (seat["missed"], seat["vacation_to"]) == (2, "2024-06-10")
    with pytest.raises(ValueError):
        store.update_seat(game, "french", key_hash=b"x")


def test_seat_keys(store, game):
    key = new_key()
    assert len(key) >= 22
    assert new_key() != key
    store.set_seat_key(game, "french", key)
    store.set_seat_key(game, "austrian", key)
    assert store.check_key(game, "french", key)
    assert not store.check_key(game, "french", key + "x")
    assert not store.check_key(game, "french", "")
    assert not store.check_key(game, "russian", key)
    french, austrian = store.get_seat(game, "french"), store.get_seat(game, "austrian")
    assert key.encode() not in french["key_hash"] and french["key_hash"] != key
    assert french["key_salt"] != austrian["key_salt"]
    assert french["key_hash"] != austrian["key_hash"]


def test_a_seat_key_is_hashed_with_the_servers_scrypt_cost(store, game, monkeypatch):
    """tests/conftest.py hashes at a low cost in the tests' own process; the server's cost is scrypt's
    n = 2**14, r = 8, p = 1 (a 32-byte digest), and a key hashed at it is checked at it."""
    from conftest import PRODUCTION_SCRYPT

    from pbem.server import store as store_module

    assert PRODUCTION_SCRYPT == {"n": 2**14, "r": 8, "p": 1, "dklen": 32}
    monkeypatch.setattr(store_module, "SCRYPT", PRODUCTION_SCRYPT)
    key = new_key()
    store.set_seat_key(game, "french", key)
    seat = store.get_seat(game, "french")
    assert seat["key_hash"] == hashlib.scrypt(key.encode(), salt=seat["key_salt"], n=2**14, r=8, p=1, dklen=32)
    assert store.check_key(game, "french", key) and not store.check_key(game, "french", key + "x")


def test_a_seat_key_is_checked_at_the_cost_it_was_hashed_with(store, game, monkeypatch):
    """The row keeps scrypt's n its key was hashed at: a key hashed at one cost is still checked after the cost
    changed (a server process and the tests' own, or an operator raising it), and a key hashed before the
    column (NULL) is checked at 2**14."""
    from conftest import CHEAP_SCRYPT, PRODUCTION_SCRYPT

    from pbem.server import store as store_module

    monkeypatch.setattr(store_module, "SCRYPT", CHEAP_SCRYPT)
    cheap = new_key()
    store.set_seat_key(game, "french", cheap)
    assert store.get_seat(game, "french")["key_cost"] == 2**4
    monkeypatch.setattr(store_module, "SCRYPT", PRODUCTION_SCRYPT)
    assert store.check_key(game, "french", cheap) and not store.check_key(game, "french", cheap + "x")
    old = new_key()
    salt = b"s" * 16
    digest = hashlib.scrypt(old.encode(), salt=salt, n=2**14, r=8, p=1, dklen=32)
    store.execute("UPDATE seats SET key_hash = ?, key_salt = ?, key_cost = NULL WHERE game_id = ? AND side = ?",
                  (digest, salt, game, "austrian"))
    monkeypatch.setattr(store_module, "SCRYPT", CHEAP_SCRYPT)
    assert store.check_key(game, "austrian", old) and not store.check_key(game, "austrian", cheap)


def test_seat_without_key_matches_nothing(store, game):
    assert not store.check_key(game, "french", "")


def test_any_text_is_a_key_that_can_be_checked(store, game):
    store.set_seat_key(game, "french", "clé \udcff ☃")
    assert store.check_key(game, "french", "clé \udcff ☃")
    assert not store.check_key(game, "french", "\ud800")


def test_log_keeps_order_and_is_append_only(store, game):
    entries = [{"kind": "orders", "day": d, "side": "french", "text": f"day {d} ☃"} for d in range(5)]
    assert [store.append_log(game, e) for e in entries] == [0, 1, 2, 3, 4]
    assert store.read_log(game) == entries
    with pytest.raises(sqlite3.IntegrityError, match="append-only"):
        store.db.execute("DELETE FROM log")
    with pytest.raises(NoSuchGame):
        store.append_log(999, {"kind": "orders"})


def test_days(store, game):
    store.record_day(game, 0, "french", "abc", events=[{"e": 1}], decisions=[])
    store.record_day(game, 0, "french", "def")  # re-resolved after a rewind
    (day,) = store.read_days(game)
    assert (day["digest"], day["events"]) == ("def", [])


def test_duplicate_message_id_is_recognised(store):
    raw = b"Message-ID: <abc@example.org>\r\nSubject: x\r\n\r\norders\r\n"
    first, duplicate = store.store_inbound(raw, "smtp")
    assert not duplicate
    again, duplicate = store.store_inbound(raw.replace(b"orders", b"resent"), "imap")
    assert (again, duplicate) == (first, True)
    # without a Message-ID, the same bytes again are the same mail (a relay's retry); other bytes are not
    other, duplicate = store.store_inbound(b"Subject: no id\r\n\r\n", "pipe")
    again2, duplicate_again = store.store_inbound(b"Subject: no id\r\n\r\n", "pipe")
    assert (again2, duplicate, duplicate_again) == (other, False, True)
    other2, duplicate2 = store.store_inbound(b"Subject: no id\r\n\r\nsecond\r\n", "pipe")
    assert other != other2 and not duplicate2
    row = store.get_inbound(first)
    assert row["raw"] == raw and row["status"] == "stored" and row["received_at"] == "2024-05-01T12:00:00Z"
    assert store.pending_inbound() == [first, other, other2]
    store.mark_inbound(first, "processed", {"accepted": True})
    assert store.get_inbound(first)["result"] == {"accepted": True}
    assert store.pending_inbound() == [other, other2]
    with pytest.raises(ValueError):
        store.store_inbound(raw, "fax")


def test_transaction_is_all_or_nothing(store, game):
    inbound_id, _ = store.store_inbound(b"Message-ID: <t@x>\r\n\r\n", "smtp")
    with pytest.raises(RuntimeError):
        with store.transaction():
            store.append_log(game, {"kind": "orders"})
            store.mark_inbound(inbound_id, "processed")
            raise RuntimeError("crash")
    assert store.read_log(game) == []
    assert store.get_inbound(inbound_id)["status"] == "stored"


def test_audit_read_back(store, game):
    store.audit("moderator", "ruling", game_id=game, why="player asked", detail={"day": 3})
    store.audit("server", "started")
    assert [(a["who"], a["action"], a["why"], a["detail"]) for a in store.read_audit(game)] == [
        ("moderator", "ruling", "player asked", {"day": 3})
    ]
    assert [a["action"] for a in store.read_audit()] == ["ruling", "started"]


def test_store_shared_between_threads(store, game):
    def work(n):
        for i in range(20):
            store.append_log(game, {"thread": n, "i": i})

    threads = [threading.Thread(target=work, args=(n,)) for n in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    log = store.read_log(game)
    assert len(log) == 80
    assert [e["i"] for e in log if e["thread"] == 2] == list(range(20))


def test_second_connection_sees_committed_data(tmp_path, store, game):
    other = Store(tmp_path / "pbem.db")
    store.append_log(game, {"kind": "x"})
    assert other.read_log(game) == [{"kind": "x"}]
    other.close()


def test_a_database_made_before_the_platform_upgrades_and_its_games_replay(tmp_path):
    """Migration 007: games made before keep their log and get empty options and a salt."""
    import sqlite3

    from pbem.server.service import Service

    path = tmp_path / "old.sqlite3"
    service = Service(Store(path))
    game_id, _ = service.create_game("Old", {"austria": "a@x.invalid", "france": "f@x.invalid"}, seed=3)
    service.store.close()
    conn = sqlite3.connect(path)  # back to the schema of migration 006
    with conn:
        conn.execute("ALTER TABLE games DROP COLUMN options")
        conn.execute("ALTER TABLE games DROP COLUMN salt")
        conn.execute("DELETE FROM migrations WHERE name = '007_platform'")
    conn.close()
    store = Store(path)
    info = store.get_game(game_id)
    assert info["options"] == {} and len(info["salt"]) == 32 and info["ruleset"] == "marengo"
    assert Service(store).game(game_id).day == 0
