"""Stale stored parses are stored again (issue 15, reparse): after a release that changed the parser, a
replay reads the orders texts whose stored parse is not this code's, and the server writes the fresh
parse back into those log entries (only their ``parsed`` member), so the next replay reads no text.
Real SQLite; no timing asserted (`pbem store-parses` prints the replay before and after)."""

from __future__ import annotations

import json
import sqlite3
from datetime import datetime, timezone

import pytest
from conftest import Clock

from pbem.cli import main
from pbem.core.game import Game
from pbem.core.parsed import without_parses
from pbem.core.verify import verify
from pbem.games import ruleset
from pbem.games.marengo.bot import bot_orders
from pbem.server import store as store_module
from pbem.server.config import Config
from pbem.server.service import Service
from pbem.server.store import Store

OLD = "0" * 32  # the version of a parser of an earlier release


def days_of(game):
    return [(d.day, d.seats, game.ruleset.digest(d.after)) for d in game.days]


def new_service(path, cache_games=300):
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    return Service(Store(path / "pbem.sqlite3", clock=clock),
                   Config(instance=str(path), demo=False, cache_games=cache_games), clock=clock)


def played(service, days=6, seed=5):
    game_id, _ = service.create_game("G", {"austria": "anna@example.org", "france": "fred@example.org"},
                                     seed=seed, settings={"hours": 24})
    for _ in range(days):
        game = service.game(game_id)
        for side in game.turn().seats:
            assert service.submit(game_id, side, bot_orders(game.scenario, game.view(side), seed)).ok
        service.resolve_next(game_id)
    return game_id


def make_stale(store, game_id, when=lambda entry: True, drop=False) -> list[int]:
    """Give the chosen orders entries' stored parses an earlier release's version (as a database
    written before the upgrade holds them; ``drop``: none, as one written before the stored parse);
    returns their seqs."""
    rows = store.query("SELECT seq, entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,))
    staled = []
    with store.transaction():
        for row in rows:
            entry = json.loads(row["entry"])
            if entry["kind"] == "orders" and "parsed" in entry and when(entry):
                entry["parsed"]["version"] = OLD
                if drop:
                    del entry["parsed"]
                store.db.execute("UPDATE log SET entry = ? WHERE game_id = ? AND seq = ?",
                                 (store_module._json(entry), game_id, row["seq"]))
                staled.append(row["seq"])
    return staled


@pytest.fixture
def parses(monkeypatch):
    """The Marengo parser's calls, counted."""
    rules = ruleset("marengo")
    calls = []
    real = rules.parse_orders
    monkeypatch.setattr(rules, "parse_orders", lambda *args: calls.append(args) or real(*args))
    return calls


def versions(store, game_id):
    return {n: e["parsed"]["version"] for n, e in enumerate(store.read_log(game_id)) if "parsed" in e}


def resolved_orders(service, game_id):
    """The seqs of the orders entries a replay reads (those of resolved days that count)."""
    game = service.game(game_id)
    counting = {id(game.orders_entry(d, side)) for d in range(game.day) for side in game.seats()}
    return [n for n, e in enumerate(game.log) if id(e) in counting]


def test_a_replay_stores_again_the_stale_parses_it_read_and_the_next_replay_reads_no_text(tmp_path, parses):
    service = new_service(tmp_path)
    game_id = played(service)
    game = service.game(game_id)
    side = game.turn().seats[0]  # orders for the next day, not yet resolved: a replay does not read them
    assert service.submit(game_id, side, bot_orders(game.scenario, game.view(side), 5)).ok
    form = game.orders_form
    read = resolved_orders(service, game_id)
    staled = make_stale(service.store, game_id)
    assert set(read) <= set(staled) and len(read) >= 6
    log_before = service.store.read_log(game_id)
    at_before = service.store.query("SELECT seq, at FROM log WHERE game_id = ? ORDER BY seq", (game_id,))
    from_texts = Game(ruleset("marengo"), game.scenario, 5, without_parses(log_before))

    service._games.clear()
    parses.clear()
    game = service.game(game_id)  # a cache miss: replayed, the stale ones read from their texts, then stored
    # each read for its day, then read again to be stored; the next day's orders (not read by a replay) once
    assert len(parses) == 2 * len(read) + 1 and days_of(game) == days_of(from_texts)
    kept = versions(service.store, game_id)
    waiting = [n for n in staled if n not in read]
    assert len(waiting) == 1 and waiting[0] == len(log_before) - 1  # the last entry of the log
    assert all(kept[n] == form.version for n in read + waiting)
    log_after = service.store.read_log(game_id)  # nothing but the parse changed: text, day, side, at, order
    assert without_parses(log_after) == without_parses(log_before)
    assert service.store.query("SELECT seq, at FROM log WHERE game_id = ? ORDER BY seq", (game_id,)) == at_before
    for n in read + waiting:
        assert log_after[n]["parsed"] == game.log[n]["parsed"] != log_before[n]["parsed"]

    parses.clear()
    assert service.game(game_id) is game and not parses  # the cache still holds: no replay again
    service._games.clear()
    again = service.game(game_id)
    assert not parses and days_of(again) == days_of(from_texts)  # every parse believed now
    assert service.store_parses(game_id, again) == 0


def test_the_export_and_verify_are_the_same_after_the_parses_are_stored_again(tmp_path):
    service = new_service(tmp_path)
    game_id = played(service, days=4)
    service.resign(game_id, "austria")
    export = service.export(game_id)
    make_stale(service.store, game_id)
    service._games.clear()
    assert service.game(game_id).over
    assert set(versions(service.store, game_id).values()) != {OLD}  # some stored again
    again = service.export(game_id)
    assert again == export and "parsed" not in json.dumps(again)
    assert verify(again, ruleset("marengo"), service.game(game_id).scenario) == []


def test_entries_after_a_moderators_amendment_of_an_earlier_day_keep_being_read_from_their_texts(
        tmp_path, parses):
    service = new_service(tmp_path)
    game_id = played(service, seed=3)
    service.moderate(game_id, "mod@example.org", "amend_orders", "lost by the provider", day=1, side="austria",
                     text="# no orders")
    log = service.store.read_log(game_id)
    amended = max(n for n, e in enumerate(log) if e["kind"] == "orders" and e["day"] == 1)
    staled = make_stale(service.store, game_id)
    service._games.clear()
    game = service.game(game_id)
    kept = versions(service.store, game_id)
    later = [n for n in staled if n < amended and log[n]["day"] > 1]  # sent before the amendment, for later days
    earlier = [n for n in staled if log[n]["day"] == 0]
    assert later and earlier
    assert all(kept[n] == OLD for n in later)  # not theirs to store: the position they were read against changed
    assert all(kept[n] != OLD for n in earlier)  # day 0's orders: nothing after them changed an earlier day
    parses.clear()
    service._games.clear()
    again = service.game(game_id)
    assert len(parses) >= len(later) and days_of(again) == days_of(game)  # still read from their texts
    assert versions(service.store, game_id) == kept  # and nothing written again


def test_a_failed_or_interrupted_write_loses_nothing_the_texts_are_read_as_before(tmp_path, monkeypatch, parses):
    service = new_service(tmp_path)
    game_id = played(service, days=4)
    staled = make_stale(service.store, game_id)
    log = service.store.read_log(game_id)

    def busy(*args):
        raise sqlite3.OperationalError("database is locked")

    with monkeypatch.context() as patched:
        patched.setattr(service.store, "store_parses", busy)
        service._games.clear()
        game = service.game(game_id)  # the write fails: the game is served all the same, from its texts
    assert len(game.days) == 4 and service.store.read_log(game_id) == log

    calls = []  # a crash in the middle of the transaction (the process killed after one row): all undone
    real = store_module._json

    def crash(value):
        calls.append(value)
        if len(calls) == 2:
            raise KeyboardInterrupt
        return real(value)

    with monkeypatch.context() as patched, pytest.raises(KeyboardInterrupt):
        patched.setattr(store_module, "_json", crash)
        service.store.store_parses(game_id, [(n, game.log[n], p) for n, p in game.parses_to_store()])
    assert service.store.read_log(game_id) == log and set(versions(service.store, game_id).values()) == {OLD}
    service._games.clear()
    parses.clear()
    again = service.game(game_id)  # the next replay stores them
    assert days_of(again) == days_of(game) and len(parses) == 2 * len(staled)
    assert OLD not in versions(service.store, game_id).values()


def test_the_log_refuses_every_change_but_an_orders_entrys_stored_parse(tmp_path):
    service = new_service(tmp_path)
    game_id = played(service, days=1)
    rows = service.store.query("SELECT seq, entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,))
    orders = next(r for r in rows if json.loads(r["entry"])["kind"] == "orders")
    other = next(r for r in rows if json.loads(r["entry"])["kind"] != "orders")
    db = service.store.db

    def entry_with(row, **changed):
        return store_module._json({**json.loads(row["entry"]), **changed})

    for sql, params in [
            ("UPDATE log SET entry = ? WHERE game_id = ? AND seq = ?", (entry_with(orders, text="MOVE"), game_id,
                                                                        orders["seq"])),
            ("UPDATE log SET entry = ? WHERE game_id = ? AND seq = ?", (entry_with(orders, day=3), game_id,
                                                                        orders["seq"])),
            ("UPDATE log SET entry = ? WHERE game_id = ? AND seq = ?", (entry_with(other, parsed={}), game_id,
                                                                        other["seq"])),
            ("UPDATE log SET at = 'x' WHERE game_id = ? AND seq = ?", (game_id, orders["seq"])),
            ("UPDATE log SET seq = 99 WHERE game_id = ? AND seq = ?", (game_id, orders["seq"])),
            ("DELETE FROM log WHERE game_id = ?", (game_id,))]:
        with pytest.raises(sqlite3.IntegrityError, match="append-only"):
            db.execute(sql, params)
    db.execute("UPDATE log SET entry = ? WHERE game_id = ? AND seq = ?",
               (entry_with(orders, parsed={"version": OLD}), game_id, orders["seq"]))
    assert service.store.read_log(game_id)[orders["seq"]]["parsed"] == {"version": OLD}
    entry = json.loads(orders["entry"])  # the store writes only where the row is still that entry
    assert service.store.store_parses(game_id, [(orders["seq"], {**entry, "text": "other"}, {})]) == []
    assert service.store.store_parses(game_id, [(other["seq"], json.loads(other["entry"]), {})]) == []
    assert service.store.store_parses(game_id, [(orders["seq"], entry, {"version": "x"})]) == [orders["seq"]]


def test_the_command_stores_every_running_games_stale_parses_and_prints_the_replay_before_and_after(
        tmp_path, monkeypatch, capsys):
    service = new_service(tmp_path)
    first, second = played(service, days=3), played(service, days=2, seed=8)
    stale = {game_id: make_stale(service.store, game_id) for game_id in (first, second)}
    read = {game_id: resolved_orders(service, game_id) for game_id in stale}
    assert all(set(read[game_id]) <= set(stale[game_id]) for game_id in stale)
    monkeypatch.setenv("PBEM_INSTANCE", str(tmp_path))
    monkeypatch.setenv("PBEM_DEMO", "false")
    assert main(["store-parses"]) == 0
    out = capsys.readouterr().out
    for game_id in stale:
        assert sorted(n for n, v in versions(service.store, game_id).items() if v != OLD) == read[game_id]
        assert f"game {game_id}: {len(read[game_id])} orders entries stored again" in out
    total = len(read[first]) + len(read[second])
    assert f"{total} orders entries stored again in 2 of 2 games" in out and "ms before" in out
    assert main(["store-parses"]) == 0
    assert "0 orders entries stored again in 0 of 2 games" in capsys.readouterr().out


def test_a_parse_given_to_the_game_in_memory_is_not_believed_once_a_later_entry_changes_an_earlier_day(
        tmp_path, parses):
    service = new_service(tmp_path)
    game_id = played(service, days=5)
    make_stale(service.store, game_id, drop=True)  # a log written before the stored parse
    service._games.clear()
    game = service.game(game_id)
    read = resolved_orders(service, game_id)
    assert all("parsed" in game.log[n] for n in read) and all(
        "parsed" in service.store.read_log(game_id)[n] for n in read)
    upto, parses[:] = game.day, []
    game.rewind(2)  # in memory (a moderator's rewind): the days from 2 resolved again
    while game.day < upto:
        game.advance()
    later = [n for n in read if game.log[n]["day"] > 2]
    assert later and len(parses) == len(later)  # their position may have changed: read from their texts
    from_texts = Game(ruleset("marengo"), game.scenario, 5, without_parses(game.log))
    assert days_of(game) == days_of(from_texts)


@pytest.mark.parametrize("name", ["marengo", "triomphe", "napoleon1815"])
def test_every_game_stores_again_exactly_what_submit_stored_and_then_reads_no_text(name, monkeypatch):
    from pbem.core.game import with_stored_parses
    from pbem.tools.selfplay import play

    rules = ruleset(name)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    game = play(rules, scenario, 2, random_decisions=True)
    fresh = with_stored_parses(game)
    stale = [dict(e, parsed=dict(e["parsed"], version=OLD)) if "parsed" in e else e for e in fresh]
    replayed = Game(rules, scenario, 2, stale)
    out = replayed.parses_to_store()
    read = [n for n, e in enumerate(fresh) if e["kind"] == "orders" and e["text"] and "parsed" in e]
    assert [n for n, _ in out] == read and len(read) > 10  # every orders text of a day (none empty, none waiting)
    assert all(parsed == fresh[n]["parsed"] for n, parsed in out)  # byte for byte what submit stored
    replayed.keep_parses(out)
    calls = []
    real = rules.parse_orders
    monkeypatch.setattr(rules, "parse_orders", lambda *args: calls.append(args) or real(*args))
    again = Game(rules, scenario, 2, replayed.log)
    assert not calls and days_of(again) == days_of(game) and again.parses_to_store() == []
