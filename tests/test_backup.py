"""Backups taken while the real server runs and takes mail; restores into a
fresh instance that the server then serves; corrupt files refused.

The server is ``pbem serve`` in a subprocess (see tests/test_kill.py and
pbem/harness.py): two bot games on the small scenario play by SMTP while
``pbem backup`` copies the live database three times.
"""

from __future__ import annotations

import hashlib
import json
import shutil
import smtplib
import sqlite3
import subprocess
import sys
import urllib.request
from email.message import EmailMessage
from pathlib import Path

from pbem.core.game import Game
from pbem.games import rulesets
from pbem.tools.harness import SERVER_ADDR, Players, Relay, Seat, ServerProcess, integrity, read_only, wait_until
from pbem.server.service import Service
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
SIDES = ("austria", "france")
SETTINGS = {"hours": 0, "minutes": 10, "reminders": [], "early": True}


def pbem(*args, config: Path) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "pbem.cli", *args, "--config", str(config)], capture_output=True,
                          text=True, timeout=60, env=ServerProcess.environment())


def make_games(db: Path, count: int = 2) -> list[Seat]:
    store = Store(db)
    service = Service(store)
    seats = []
    for i in range(count):
        addresses = {side: f"b{i}.{side}@bots.invalid" for side in SIDES}
        game_id, keys = service.create_game(f"Backup {i}", addresses, scenario=SMALL, seed=200 + i,
                                            settings=SETTINGS)
        seats += [Seat(game_id, side, keys[side], addresses[side], 200 + i) for side in SIDES]
    store.close()
    return seats


def tables(path: Path) -> dict:
    """The games, their logs and their resolved days, as stored."""
    conn = read_only(path)
    try:
        return {
            "games": [tuple(r) for r in conn.execute("SELECT id, scenario, seed, title FROM games ORDER BY id")],
            "log": [tuple(r) for r in conn.execute("SELECT game_id, seq, at, entry FROM log ORDER BY game_id, seq")],
            "days": [tuple(r) for r in conn.execute("SELECT game_id, day, digest FROM days ORDER BY game_id, day")],
        }
    finally:
        conn.close()


def count(path: Path, sql: str) -> int:
    conn = read_only(path)
    try:
        return conn.execute(sql).fetchone()[0]
    finally:
        conn.close()


def api(server: ServerProcess, path: str, key: str):
    request = urllib.request.Request(server.url + path, headers={"Authorization": f"Bearer {key}"})
    with urllib.request.urlopen(request, timeout=30) as answer:
        return json.loads(answer.read())


def test_backup_while_serving_then_restore_into_a_fresh_instance(tmp_path):
    live = tmp_path / "live"
    live.mkdir()
    seats = make_games(live / "pbem.sqlite3")
    ruleset = rulesets()["marengo"]
    scenario = ruleset.load_scenario(Path(SMALL))
    players = None
    relay = Relay(lambda d, raw: players and players.on_message(d, raw))
    server = ServerProcess(live, relay.port, tick=0.2)
    players = Players(ruleset, scenario, server.smtp_port, seats, tag="backup")
    backups = []
    try:
        server.start()
        for n in range(3):
            # a backup in the middle of play: orders coming in, days resolved, reports going out
            wait_until(lambda: count(server.database, "SELECT COUNT(*) FROM days") >= 2 * (n + 1), timeout=90,
                       interval=0.1, what=f"{2 * (n + 1)} days resolved")
            dest = tmp_path / "backups" / f"pbem-{n}.sqlite3"
            result = pbem("backup", str(dest), config=server.config_path)
            assert result.returncode == 0, result.stderr
            assert f"wrote {dest}: a consistent copy of" in result.stdout
            assert server.alive
            backups.append(dest)
        assert players.accepted and not players.errors
    finally:
        players.stop()
        server.stop()
        relay.stop()
    final = tables(server.database)
    for dest in backups:
        assert integrity(dest) == "ok"
        copy = tables(dest)
        assert copy["games"] == final["games"]
        # the copy is a moment of the live database: each game's log a prefix of what it became,
        # its days the ones that log resolved
        assert copy["log"] == [row for row in final["log"] if row in copy["log"]]
        assert set(copy["log"]) <= set(final["log"]) and set(copy["days"]) <= set(final["days"])
        for game_id, _, seed, _ in copy["games"]:
            log = [json.loads(entry) for g, _, _, entry in copy["log"] if g == game_id]
            game = Game(ruleset, scenario, seed, log)
            assert [(game_id, r.day, r.after.digest()) for r in game.days] == \
                [row for row in copy["days"] if row[0] == game_id]
        assert count(dest, "SELECT COUNT(*) FROM inbound") > 0  # it holds the mail taken before it, too
    assert len(tables(backups[-1])["days"]) >= 6

    # restore the last backup into a fresh instance; the server starts on it and shows the same games
    fresh = tmp_path / "fresh"
    relay2 = Relay()
    server2 = ServerProcess(fresh, relay2.port, tick=0.2)
    result = pbem("restore", str(backups[-1]), config=server2.config_path)
    assert result.returncode == 0, result.stderr
    assert f"restored {backups[-1]}" in result.stdout
    expected = tables(backups[-1])
    try:
        server2.start()
        assert integrity(server2.database) == "ok"
        # it carries on from the backup: a day whose FINAL orders were in is resolved, queued mail goes out
        wait_until(lambda: count(server2.database, "SELECT COUNT(*) FROM jobs WHERE status = 'due'")
                   + count(server2.database, "SELECT COUNT(*) FROM outbox WHERE status IN ('queued', 'sending')")
                   + count(server2.database, "SELECT COUNT(*) FROM inbound WHERE status = 'stored'") == 0,
                   timeout=60, interval=0.1, what="the restored server to finish what the backup left")
        restored = tables(server2.database)
        assert restored["games"] == expected["games"]
        assert restored["log"][:len(expected["log"])] == expected["log"] or \
            set(expected["log"]) <= set(restored["log"])
        assert set(expected["days"]) <= set(restored["days"])
        for seat in seats:
            game = api(server2, f"/api/games/{seat.game_id}?game={seat.game_id}&side={seat.side}", seat.key)
            log = [json.loads(entry) for g, _, _, entry in restored["log"] if g == seat.game_id]
            replayed = Game(ruleset, scenario, seat.seed, log)
            assert game["status"] == "running"
            assert game["days"] == len(replayed.days) == len([r for r in restored["days"] if r[0] == seat.game_id])
            assert game["view"] == json.loads(json.dumps(replayed.view(seat.side)))
            last = replayed.days[-1].day
            report = api(server2, f"/api/games/{seat.game_id}/reports/{last}?game={seat.game_id}&side={seat.side}",
                         seat.key)
            assert report["day"] == last and report["text"]
        # and it takes mail: a STATUS by SMTP, answered through its relay
        seat = seats[0]
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = seat.address, SERVER_ADDR, "status"
        msg["Message-ID"] = "<status.after.restore@bots.invalid>"
        msg.set_content(f"GAME {seat.game_id} SIDE {seat.side.title()} KEY {seat.key}\nSTATUS\n")
        with smtplib.SMTP("127.0.0.1", server2.smtp_port, timeout=30) as smtp:
            smtp.send_message(msg)
        answer = wait_until(lambda: [d for d in relay2.snapshot() if d.in_reply_to == msg["Message-ID"]],
                            timeout=30, what="the answer to STATUS")
        assert f"Game #{seat.game_id}" in answer[0].raw.decode(errors="replace")
    finally:
        server2.stop()
        relay2.stop()


def test_restore_refuses_a_corrupt_or_foreign_file_and_leaves_the_database_alone(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    config = instance / "pbem.toml"
    config.write_text(f'instance = "{instance}"\ndemo = false\n')
    make_games(instance / "pbem.sqlite3", count=3)
    good = tmp_path / "good.sqlite3"
    assert pbem("backup", str(good), config=config).returncode == 0
    assert integrity(good) == "ok"
    live = instance / "pbem.sqlite3"
    before = hashlib.sha256(live.read_bytes()).hexdigest()

    corrupt = tmp_path / "corrupt.sqlite3"
    shutil.copyfile(good, corrupt)
    conn = sqlite3.connect(str(good))
    page_size = conn.execute("PRAGMA page_size").fetchone()[0]
    pages = conn.execute("PRAGMA page_count").fetchone()[0]
    conn.close()
    assert pages > 4
    data = bytearray(corrupt.read_bytes())
    for index in range(1, pages, 2):  # scribble over the b-tree header of every other page after the first
        start = index * page_size
        data[start:start + 64] = bytes(range(200, 232)) * 2
    corrupt.write_bytes(bytes(data))

    foreign = tmp_path / "notes.sqlite3"
    foreign.write_text("this is not a database, only some notes\n" * 200)
    truncated = tmp_path / "truncated.sqlite3"
    truncated.write_bytes(good.read_bytes()[:page_size * 2 + 10])

    for bad, words in ((corrupt, ("integrity check", "malformed")), (foreign, ("not a database",)),
                       (truncated, ("integrity check", "malformed", "not a database")),
                       (tmp_path / "missing.sqlite3", ("does not exist",))):
        result = pbem("restore", str(bad), config=config)
        assert result.returncode == 1, (bad, result.stdout, result.stderr)
        assert result.stderr.startswith("pbem restore: ") and str(bad) in result.stderr, result.stderr
        assert any(w in result.stderr for w in words), result.stderr
        assert "restored" not in result.stdout
        assert hashlib.sha256(live.read_bytes()).hexdigest() == before
        assert not list(instance.glob("*.restoring"))
    assert integrity(live) == "ok"

    # the good backup is taken
    result = pbem("restore", str(good), config=config)
    assert result.returncode == 0, result.stderr
    assert tables(live) == tables(good)


def test_restore_refuses_while_the_server_runs_and_stops_it_when_told(tmp_path):
    """A restore under a running server would be overwritten by it, or read half-written: refused, naming the
    process, unless --stop, which stops the server first (as systemd does) and leaves it stopped. A second
    server on the same database is refused too."""
    live = tmp_path / "live"
    live.mkdir()
    make_games(live / "pbem.sqlite3", count=1)
    relay = Relay()
    server = ServerProcess(live, relay.port, tick=0.2)
    try:
        server.start()
        copy = tmp_path / "copy.sqlite3"
        made = pbem("backup", str(copy), config=server.config_path)
        assert made.returncode == 0, made.stderr
        assert f"wrote {copy}" in made.stdout and "pbem restore" in made.stdout and "MiB" in made.stdout
        before = tables(server.database)

        refused = pbem("restore", str(copy), config=server.config_path)
        assert refused.returncode == 1
        assert f"process {server.proc.pid}) is running" in refused.stderr and "--stop" in refused.stderr
        assert "restored" not in refused.stdout
        assert server.alive and tables(server.database) == before

        second = subprocess.run(server.command(), capture_output=True, text=True, timeout=60,
                                env=ServerProcess.environment())
        assert second.returncode == 1 and f"process {server.proc.pid}) is running" in second.stderr
        assert server.alive

        stopped = pbem("restore", "--stop", str(copy), config=server.config_path)
        assert stopped.returncode == 0, stopped.stderr
        assert f"restored {copy}" in stopped.stdout and "still stopped" in stopped.stdout
        server.proc.wait(timeout=30)
        assert not server.alive
    finally:
        server.stop()
        relay.stop()
    assert tables(server.database)["games"] == before["games"]
    # stopped, the database takes a restore without --stop
    again = pbem("restore", str(copy), config=server.config_path)
    assert again.returncode == 0 and "still stopped" not in again.stdout
