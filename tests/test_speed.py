"""Speed and scale (issue 15): behaviour only -- the figures are printed by ``pbem loadtest --limits``,
``pbem bench`` and ``pbem measure``, never asserted here."""

import sqlite3
import subprocess
import sys
from datetime import datetime, timezone
from pathlib import Path

from conftest import Clock

from pbem.games.marengo.bot import bot_orders
from pbem.server.config import Config
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools import limits
from pbem.tools.harness import ServerProcess

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())


def service_with(tmp_path, **settings):
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    config = Config(instance=str(tmp_path), demo=False, **settings)
    return Service(Store(tmp_path / "pbem.sqlite3", clock=clock), config, clock=clock), clock


def play_days(service, game_id, days):
    for _ in range(days):
        game = service.game(game_id)
        for side in game.turn().seats:
            result = service.submit(game_id, side, bot_orders(game.scenario, game.view(side), game_id))
            assert result.ok, result.message()
        service.resolve_next(game_id)


def fingerprint(game):
    return [(d.day, d.seats, game.ruleset.digest(d.after)) for d in game.days], game.view("austria")


def test_the_cache_of_replayed_games_keeps_at_most_its_size_the_least_recently_used_dropped(tmp_path):
    service, _ = service_with(tmp_path, cache_games=2)
    seats = {"austria": "anna@example.org", "france": "fred@example.org"}
    ids = [service.create_game(f"G{i}", seats, scenario=SMALL, seed=i, settings={"hours": 24})[0] for i in range(4)]
    for game_id in ids:
        play_days(service, game_id, 2)
        assert len(service.cached_games()) <= 2
    assert service.cached_games() == ids[-2:]
    service.game(ids[2])  # used: now the most recent
    assert service.cached_games() == [ids[3], ids[2]]


def test_a_game_dropped_from_the_cache_replays_to_the_same_days_and_views(tmp_path):
    service, _ = service_with(tmp_path, cache_games=1)
    seats = {"austria": "anna@example.org", "france": "fred@example.org"}
    first, _ = service.create_game("First", seats, scenario=SMALL, seed=3, settings={"hours": 24})
    play_days(service, first, 3)
    held = service.game(first)
    before = fingerprint(held)
    second, _ = service.create_game("Second", seats, scenario=SMALL, seed=4, settings={"hours": 24})
    play_days(service, second, 1)
    assert first not in service.cached_games()
    again = service.game(first)
    assert again is not held and fingerprint(again) == before
    play_days(service, first, 1)  # and it goes on from there as if it had never left
    assert len(service.game(first).days) == len(before[0]) + 1


def test_a_cached_game_is_checked_by_one_row_of_its_log_and_replayed_when_the_log_grew_elsewhere(tmp_path):
    service, clock = service_with(tmp_path)
    seats = {"austria": "anna@example.org", "france": "fred@example.org"}
    game_id, _ = service.create_game("G", seats, scenario=SMALL, seed=5, settings={"hours": 24})
    play_days(service, game_id, 1)
    held = service.game(game_id)
    reads = []
    real = service.store.read_log
    service.store.read_log = lambda gid: reads.append(gid) or real(gid)
    assert service.game(game_id) is held and reads == []  # a hit reads the log's last row, not the log
    # another process (a second service on the same file) appends to the log: this one notices
    other = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), service.config, clock=clock)
    play_days(other, game_id, 1)
    again = service.game(game_id)
    assert again is not held and reads == [game_id] and fingerprint(again) == fingerprint(other.game(game_id))
    # an entry kept in memory whose write was rolled back (the game's log now longer than the stored one)
    again.log.append({"kind": "orders", "day": again.day, "side": "austria", "text": "rolled back"})
    assert service.game(game_id) is not again and len(reads) == 2
    other.store.close()


def test_the_bare_receiver_stores_every_mail_it_answers_250_in_sqlite(tmp_path):
    rate, p50, p99, stored = limits.bare_receiver(tmp_path, mails=40, clients=2)
    assert stored == 40 and rate > 0 and 0 < p50 <= p99
    with sqlite3.connect(tmp_path / "bare-receiver.sqlite3") as conn:
        raws = [r[0] for r in conn.execute("SELECT raw FROM inbound")]
    assert len(raws) == 40 and all(b"GAME 1 SIDE Austria" in raw for raw in raws)


def test_a_ratio_is_the_figure_over_its_limit():
    assert limits.ratio(82, 1050) == "0.08" and limits.ratio(1, 1) == "1.00"
    assert limits.ratio(None, 3) == "-" and limits.ratio(3, 0) == "-"


def test_pbem_loadtest_limits_only_prints_the_three_limits(tmp_path):
    result = subprocess.run([sys.executable, "-m", "pbem.cli", "loadtest", "--limits-only", "--clients", "2",
                             "--scenario", SMALL, "--workdir", str(tmp_path)],
                            capture_output=True, text=True, timeout=300, env=ServerProcess.environment())
    assert result.returncode == 0, result.stdout + result.stderr
    text = result.stdout
    assert "bare receiver (aiosmtpd, each message stored in SQLite, one commit): 1000 mails" in text
    assert "SQLite commits (one row each, WAL):" in text and "one raw map render (marengo, small.toml" in text
    assert list(tmp_path.iterdir()) == []  # its files are gone


def test_pbem_bench_all_prints_the_engine_figures_and_the_memory_of_a_game_for_every_ruleset():
    from pbem.games import rulesets

    result = subprocess.run([sys.executable, "-m", "pbem.cli", "bench", "--all", "--games", "2", "--repeat", "1"],
                            capture_output=True, text=True, timeout=300, env=ServerProcess.environment())
    assert result.returncode == 0, result.stdout + result.stderr
    for name in rulesets():
        assert f"{name} (" in result.stdout
    assert result.stdout.count("self-play: 2 complete games") == len(rulesets())
    assert result.stdout.count("replay of a complete game's log") == len(rulesets())
    assert result.stdout.count("of which parsing the orders again: ") == len(rulesets())
    assert result.stdout.count(", goal 4 ms: ") == len(rulesets()) + 3  # twice for each stored-parse game
    assert result.stdout.count("replay with the stored parse (as the server stores it: ") == 3
    assert result.stdout.count("no stored parse (the ruleset has no JSON form") == len(rulesets()) - 3
    assert result.stdout.count("goal 50 games/s: ") == len(rulesets()) and "[load " in result.stdout
    assert result.stdout.count("memory of a replayed complete game held in the cache: ") == len(rulesets())
