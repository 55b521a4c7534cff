"""The mail path and the resolution in batches (issue 15): what a batch does, and a
SIGKILL at any moment of a batch loses nothing and does nothing twice.

Each kill test runs the real code in a child process on a real SQLite file and
kills it with SIGKILL at random moments (seeded), restarting it until its work is
done; after every kill the database is checked (integrity, and the batch's
invariant: what was committed was committed whole), and at the end every piece of
work is done exactly once -- but for SMTP delivery, which is at-least-once in the
window between the relay's 250 and the sender's mark (the copies carry the same
Message-ID and are counted, never more than the rows claimed at the kill).
"""

from __future__ import annotations

import collections
import json
import mailbox
import os
import random
import re
import signal
import subprocess
import sys
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

import pytest

from pbem.core.game import Game
from pbem.games import rulesets
from pbem.server import inbox
from pbem.server.mail import outbox
from pbem.server.mail.outbox import Sender, queue
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.harness import Relay, ServerProcess, integrity, orders_mail, read_only

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
SEED = int(os.environ.get("KILL_TEST_SEED", "1815"))
T0 = datetime(2026, 5, 1, 12, 0, tzinfo=timezone.utc)


# -- a child process, killed and started again --------------------------------------------------

CHILD = r'''
import sys, time
from datetime import datetime, timezone
from pbem.server.store import Store
what, db = sys.argv[1], sys.argv[2]
store = Store(db)


def kill_self_in_the_work(store):
    """With arguments 6 and 7 (kills_in_the_work): SIGKILL this process in the work after its first commit."""
    if len(sys.argv) <= 6:
        return
    import os, signal, threading
    fraction, linger = float(sys.argv[6]), float(sys.argv[7])
    seen = {"first": 0, "committed": False, "after": 0}  # statements of the first transaction; since

    def traced(sql):  # called as a statement begins, before it takes effect
        if not seen["committed"]:
            seen["first"] += 1
            seen["committed"] = sql.startswith("COMMIT")
            return
        seen["after"] += 1
        if seen["after"] == max(1, round(fraction * seen["first"])):
            if linger:  # a moment inside this statement or soon after (its I/O, a COMMIT's fsync)
                threading.Timer(linger, os.kill, (os.getpid(), signal.SIGKILL)).start()
            else:  # before this statement (a COMMIT: the batch done, not committed)
                os.kill(os.getpid(), signal.SIGKILL)

    store.db.conn.set_trace_callback(traced)


if what == "send":
    from pbem.server.mail.outbox import Sender
    store.execute("UPDATE outbox SET next_attempt_at = ? WHERE status = 'sending'", (store.now(),))  # as pbem serve
    kind, where = sys.argv[3], sys.argv[4]
    sender = (Sender(store, relay=("127.0.0.1", int(where)), batch=int(sys.argv[5])) if kind == "relay"
              else Sender(store, maildir=where, batch=int(sys.argv[5])))
    print("ready", flush=True)
    while sender.send_due():
        pass
elif what == "mail":
    from pbem.server import inbox
    from pbem.server.service import Service
    service = Service(store)
    inbox.mail_words()  # the rulesets loaded: the kills fall in the work, not in the imports
    kill_self_in_the_work(store)
    print("ready", flush=True)
    while inbox.process_pending(service, batch=int(sys.argv[3]), seconds=float(sys.argv[4])):
        pass
elif what == "tick":
    from pbem.server.service import Service
    service = Service(store)
    from pbem.games import rulesets
    rulesets()["marengo"].load_scenario(__import__("pathlib").Path(sys.argv[5]))
    kill_self_in_the_work(store)
    print("ready", flush=True)
    while service.tick(batch=int(sys.argv[3]), seconds=float(sys.argv[4])):
        pass
print("done", flush=True)
store.close()
'''


class Child:
    """The child process: ``start()``, ``kill()`` (SIGKILL), ``wait_done()``."""

    def __init__(self, tmp_path: Path, *args: str):
        self.script = tmp_path / "child.py"
        self.script.write_text(CHILD)
        self.args = [str(a) for a in args]
        self.proc = None

    def start(self, *more: str) -> None:
        self.proc = subprocess.Popen([sys.executable, str(self.script), *self.args, *more], stdout=subprocess.PIPE,
                                     stderr=subprocess.PIPE, text=True, env=ServerProcess.environment())
        line = self.proc.stdout.readline()
        assert line.strip() == "ready", line + self.proc.stderr.read()

    def kill(self) -> None:
        """SIGKILL (unless it is over already: done, or killed from the relay); then reap it."""
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        self.ended()

    def ended(self, timeout: float = 300) -> None:
        """Wait until it has ended (SIGKILLed: ``killed``, or done) and reap it."""
        self.proc.wait(timeout)
        self.killed = self.proc.returncode == -signal.SIGKILL
        out, err = self.output()
        assert self.killed or (self.proc.returncode == 0 and out.strip() == "done"), out + err

    def output(self) -> tuple[str, str]:
        """What the ended child wrote (read through the pipes' own buffers, which ``start`` used)."""
        out, err = self.proc.stdout.read(), self.proc.stderr.read()
        self.proc.stdout.close()
        self.proc.stderr.close()
        return out, err

    def finish(self, timeout: float = 300) -> None:
        self.proc.wait(timeout)
        out, err = self.output()
        assert self.proc.returncode == 0 and out.strip() == "done", out + err


def kills_in_the_work(child: Child, rng: random.Random, kills: int, check) -> None:
    """Start the child (``tick`` or ``mail``) ``kills`` times, each time to SIGKILL itself at a seeded random statement
    after its first commit (a fraction of its first batch's length: in the next batch, its COMMIT included),
    at once before the statement (even kills) or a random 0-20 ms after it begins (odd ones: inside its I/O,
    a COMMIT's fsync, or a later statement); ``check()`` after every kill; then let it finish. A kill lands
    in the work whatever the load: where it falls is counted in the child's own statements, not in time here."""
    for n in range(kills):
        child.start(f"{rng.uniform(0.0, 1.0):.4f}", "0" if n % 2 == 0 else f"{rng.uniform(0.0, 0.02):.4f}")
        child.ended()
        if child.killed:
            check()
    child.start()
    child.finish()
    check()


def kill_and_restart(child: Child, rng: random.Random, kills: int, delay: tuple[float, float], check,
                     armed=None) -> int:
    """Start the child, kill it ``kills`` times (once the work is under way -- ``armed()``, called before
    each start, gives a predicate that says so -- or at once, then a random delay), calling ``check()`` after every kill; then let it finish.
    Returns how many kills came before the work was done."""
    done_before = 0
    for _ in range(kills):
        started = armed() if armed is not None else None
        child.start()
        if armed is not None:  # wait until the work is under way (a predicate of what was there before)
            deadline = time.monotonic() + 30
            while not started() and time.monotonic() < deadline and child.proc.poll() is None:
                time.sleep(0.005)
        time.sleep(rng.uniform(*delay))
        child.kill()
        if child.killed:
            check()
        else:  # the work was all done before the kill
            done_before += 1
    child.start()
    child.finish()
    check()
    return done_before


# -- the sender: claims and marks in batches -----------------------------------------------------


def test_the_sender_claims_and_marks_a_batch_in_one_commit_each(tmp_path):
    store = Store(tmp_path / "pbem.db", clock=lambda: T0)
    ids = [queue(store, f"p{n}@example.org", f"Day {n}", "report") for n in range(7)]
    commits = []
    real = store.transaction

    def counting():
        if not store.db.conn.in_transaction:
            commits.append(1)
        return real()

    store.transaction = counting
    sender = Sender(store, maildir=tmp_path / "Maildir", batch=3)
    assert sender.send_due(T0) == 7
    store.transaction = real
    # 7 rows in batches of 3: three claims, three marks, and one claim that found nothing
    assert len(commits) == 7
    assert len(list(mailbox.Maildir(tmp_path / "Maildir"))) == 7
    rows = store.query("SELECT status, attempts FROM outbox ORDER BY id")
    assert rows == [{"status": "sent", "attempts": 1}] * 7 and len(ids) == 7
    store.close()


def test_a_failure_inside_a_batch_marks_the_rows_delivered_before_it_and_backs_off_alone(tmp_path):
    store = Store(tmp_path / "pbem.db", clock=lambda: T0)
    good = [queue(store, f"p{n}@example.org", f"Day {n}", "report") for n in range(2)]
    broken = queue(store, "a@example.org\nBcc: x@example.org", "Day", "report")
    after = queue(store, "q@example.org", "Day", "report")
    assert Sender(store, maildir=tmp_path / "M", batch=10).send_due(T0) == 3
    status = {r["id"]: r["status"] for r in store.query("SELECT id, status FROM outbox")}
    assert [status[i] for i in good] == ["sent", "sent"] and status[after] == "sent"
    assert status[broken] == "failed"
    store.close()


@pytest.mark.parametrize("where", ["relay", "maildir"])
def test_sigkill_during_batched_claims_and_marks_loses_nothing(tmp_path, where):
    """300 mails, sent in batches of 20, the sender killed 8 times: inside the relay before its 250
    (half the kills) or a random moment after a delivery. Every row ends sent; SMTP delivers every
    message at least once and a copy only for a row delivered and not yet marked at a kill; the
    Maildir exactly once."""
    db = tmp_path / "pbem.db"
    store = Store(db)
    rows = 300
    for n in range(rows):
        queue(store, f"p{n}@example.org", f"Day {n}", f"report {n}", kind="report")
    store.close()
    rng = random.Random(SEED)
    maildir = tmp_path / "Maildir"
    kill_inside = threading.Event()
    child = None

    def on_message(delivery, raw):
        if kill_inside.is_set():
            kill_inside.clear()
            child.proc.send_signal(signal.SIGKILL)  # the relay has the message; its 250 never reaches the sender

    relay = Relay(on_message, keep_raw=False) if where == "relay" else None
    target = str(relay.port) if relay else str(maildir)

    def arrived():
        """A predicate: a message has arrived since this call."""
        before = len(relay.snapshot()) if relay else len(list((maildir / "new").glob("*")))
        return lambda: (len(relay.snapshot()) if relay else len(list((maildir / "new").glob("*")))) > before

    child = Child(tmp_path, "send", db, where, target, 20)
    claimed_at_kills = []

    def check():
        assert integrity(db) == "ok"
        conn = read_only(db)
        claimed_at_kills.append(conn.execute("SELECT COUNT(*) FROM outbox WHERE status = 'sending'").fetchone()[0])
        # a claim is whole: a row claimed has its attempt counted and its Message-ID recorded
        assert conn.execute("SELECT COUNT(*) FROM outbox WHERE status = 'sending' AND (attempts = 0 OR"
                            " message_id IS NULL)").fetchone()[0] == 0
        conn.close()
        if relay is not None and rng.random() < 0.5:
            kill_inside.set()

    try:
        kill_and_restart(child, rng, 8, (0.0, 0.15), check, armed=arrived)
    finally:
        kill_inside.clear()
        if relay is not None:
            relay.stop()
    conn = read_only(db)
    ids = {r["message_id"] for r in conn.execute("SELECT message_id FROM outbox WHERE status = 'sent'")}
    assert conn.execute("SELECT COUNT(*) FROM outbox WHERE status != 'sent'").fetchone()[0] == 0
    conn.close()
    assert len(ids) == rows
    assert sum(claimed_at_kills[:-1]) > 0, "no kill found a batch claimed: the test did not test batches"
    if relay is not None:
        copies = collections.Counter(d.message_id for d in relay.snapshot())
        assert set(copies) == ids
        doubled = sum(n - 1 for n in copies.values())
        assert doubled <= sum(claimed_at_kills)  # only rows claimed (delivered, not marked) at a kill
        print(f"\nsender kill test ({where}): {len(claimed_at_kills) - 1} kills, rows claimed at them "
              f"{claimed_at_kills[:-1]}, {doubled} copies sent again (same Message-ID)")
    else:
        delivered = [m["Message-ID"] for m in mailbox.Maildir(tmp_path / "Maildir")]
        assert sorted(delivered) == sorted(ids)  # exactly once
        print(f"\nsender kill test ({where}): rows claimed at the kills {claimed_at_kills[:-1]}, "
              f"every message written once")


# -- mail processing: a batch in one transaction ---------------------------------------------------


def orders_mails(db: Path, games: int, mails: int) -> tuple[Store, Service, list[str]]:
    """``games`` small games and ``mails`` orders mails stored for their seats, each with a marker."""
    store = Store(db)
    service = Service(store)
    ruleset = rulesets()["marengo"]
    scenario = ruleset.load_scenario(Path(SMALL))
    seats = []
    for i in range(games):
        addresses = {side: f"g{i}.{side}@bots.invalid" for side in ("austria", "france")}
        game_id, keys = service.create_game(f"Batch {i}", addresses, scenario=SMALL, seed=10 + i,
                                            settings={"hours": 6, "reminders": []})
        game = service.game(game_id)
        for side in game.turn().seats:
            view = json.loads(json.dumps(game.view(side)))
            seats.append((game_id, side, keys[side], addresses[side], view,
                          ruleset.bots()["bot"].orders(scenario, view, 10 + i)))
    markers = []
    for n in range(mails):
        game_id, side, key, address, view, body = seats[n % len(seats)]
        marker = f"mail {n}"
        raw = orders_mail(address, game_id, side, key, view, body, f"<m{n}@bots.invalid>", marker=marker)
        inbox.receive(service, raw, "smtp")
        markers.append(marker)
    return store, service, markers


def test_a_batch_of_mail_is_one_commit_and_a_failing_mail_is_rolled_back_alone(tmp_path, monkeypatch):
    store, service, markers = orders_mails(tmp_path / "pbem.db", 1, 6)
    real = inbox.handle
    failing = store.pending_inbound()[2]

    def handle(service, row, msg=None):
        result = real(service, row, msg)  # its orders and answer are written, then it fails
        if row["id"] == failing:
            raise RuntimeError("a bug in one mail's handling")
        return result

    monkeypatch.setattr(inbox, "handle", handle)
    commits = []
    real_commit = store.db.commit
    store.db.commit = lambda: commits.append(1) or real_commit()
    assert inbox.process_pending(service, batch=10, seconds=60) == 6
    assert len(commits) == 1  # six mails, one commit
    status = {r["id"]: r["status"] for r in store.query("SELECT id, status FROM inbound")}
    assert status[failing] == "stored" and sum(s == "processed" for s in status.values()) == 5
    answers = store.query("SELECT dedupe_key FROM outbox WHERE dedupe_key LIKE 'answer:%'")
    assert sorted(a["dedupe_key"] for a in answers) == sorted(f"answer:{i}" for i in status if i != failing)
    log = "\n".join(e["text"] for e in store.read_log(1) if e["kind"] == "orders")
    assert f"# {markers[2]}\n" not in log and all(f"# {m}\n" in log for i, m in enumerate(markers) if i != 2)
    monkeypatch.setattr(inbox, "handle", real)
    assert inbox.process_pending(service) == 1  # the failed one, tried again, now goes through
    assert store.get_inbound(failing)["status"] == "processed"
    store.close()


def test_a_batch_stops_taking_mail_when_its_time_is_up_and_the_rest_follow(tmp_path):
    store, service, _ = orders_mails(tmp_path / "pbem.db", 1, 5)
    ids = store.pending_inbound()
    assert inbox.process_batch(service, ids, seconds=0) == 1  # the first mail is always taken
    assert [store.get_inbound(i)["status"] for i in ids] == ["processed"] + ["stored"] * 4
    assert inbox.process_pending(service, batch=2, seconds=0) == 4
    assert store.pending_inbound() == []
    store.close()


def test_sigkill_during_batched_mail_processing_loses_and_doubles_nothing(tmp_path):
    """240 orders mails stored for 4 games, processed in batches of 16, the worker killed 8 times at
    random statements of its work (kills_in_the_work): after every kill, each mail processed has its orders in the log and its answer
    queued, and no mail stored has either (a batch commits whole); in the end every mail is
    processed once, its orders in the log once, one answer each."""
    db = tmp_path / "pbem.db"
    store, service, markers = orders_mails(db, 4, 240)
    store.close()
    rng = random.Random(SEED)
    child = Child(tmp_path, "mail", db, 16, 10, "-")  # "-": the tick's scenario argument, unused here
    partial = []

    def state():
        conn = read_only(db)
        rows = {r["id"]: (r["status"], re.search(rb"# (mail \d+)", r["raw"]).group(1).decode())
                for r in conn.execute("SELECT id, status, raw FROM inbound")}
        answers = collections.Counter(r[0] for r in conn.execute(
            "SELECT dedupe_key FROM outbox WHERE dedupe_key LIKE 'answer:%'"))
        logged = collections.Counter()
        for (entry,) in conn.execute("SELECT entry FROM log"):
            entry = json.loads(entry)
            if entry["kind"] == "orders":
                logged.update(re.findall(r"# (mail \d+)\n", entry["text"]))
        conn.close()
        return rows, answers, logged

    def check():
        assert integrity(db) == "ok"
        rows, answers, logged = state()
        processed = [i for i, (status, _) in rows.items() if status == "processed"]
        partial.append(len(processed))
        for inbound_id, (status, marker) in rows.items():
            done = status == "processed"
            assert answers[f"answer:{inbound_id}"] == int(done), (inbound_id, status)
            assert logged[marker] == int(done), (marker, status)

    # The child kills itself at a statement of its work, as the resolution kill test's: a SIGKILL sent from here a
    # random 0-0.5 s after a batch's commit came after the 240 mails were all processed in most kills (five of
    # eight at load 2), checking nothing.
    kills_in_the_work(child, rng, 8, check)
    rows, answers, logged = state()
    assert all(status == "processed" for status, _ in rows.values())
    assert set(logged) == set(markers) and set(logged.values()) == {1}
    assert any(0 < n < len(markers) for n in partial[:-1]), f"no kill came in the middle of the work: {partial}"
    print(f"\nmail kill test: mails processed at each kill {partial[:-1]} of {len(markers)}")


# -- resolution: due games in batches ------------------------------------------------------------


def due_games(db: Path, count: int) -> list[int]:
    store = Store(db)
    service = Service(store)
    ids = []
    for i in range(count):
        game_id, _ = service.create_game(f"Due {i}", {"austria": f"a{i}@bots.invalid", "france": f"f{i}@bots.invalid"},
                                         scenario=SMALL, seed=200 + i, settings={"hours": 6, "reminders": []})
        ids.append(game_id)
    past = (datetime.now(timezone.utc) - timedelta(hours=1)).strftime("%Y-%m-%dT%H:%M:%SZ")
    store.execute("UPDATE games SET deadline = ?, next_check = ?", (past, past))
    store.close()
    return ids


def test_due_games_are_resolved_in_batches_of_one_commit_and_a_broken_game_alone_is_rolled_back(tmp_path,
                                                                                               monkeypatch):
    ids = due_games(tmp_path / "pbem.db", 5)
    store = Store(tmp_path / "pbem.db")
    service = Service(store)
    real = service.record

    def record(game_id, result):
        real(game_id, result)
        if game_id == ids[1]:
            raise RuntimeError("a bug in one game")

    monkeypatch.setattr(service, "record", record)
    commits = []
    real_commit = store.db.commit
    store.db.commit = lambda: commits.append(1) or real_commit()
    resolved = service.tick(batch=3, seconds=60)
    assert sorted(resolved) == [(g, 0) for g in ids if g != ids[1]]
    assert len(commits) == 2  # four games resolved, three a batch: two commits
    assert store.read_days(ids[1]) == [] and store.read_log(ids[1]) == []  # rolled back whole
    assert [a["why"] for a in store.read_audit(ids[1]) if a["action"] == "error"] == ["RuntimeError: a bug in one game"]
    assert all(len(store.read_days(g)) == 1 for g in ids if g != ids[1])
    monkeypatch.setattr(service, "record", real)
    assert service.tick() == [(ids[1], 0)]
    store.close()


def test_sigkill_during_batched_resolution_loses_and_plays_nothing_twice(tmp_path):
    """40 games due at once, resolved in batches of 6, the clock killed 6 times at random statements of its
    work: after every kill each game has either nothing or its whole day (log, day, reports job, clock
    stopped); in the end every game has day 0 resolved once, and its log replays to the recorded day."""
    db = tmp_path / "pbem.db"
    ids = due_games(db, 40)
    rng = random.Random(SEED)
    child = Child(tmp_path, "tick", db, 6, 10, SMALL)
    partial = []

    def check():
        assert integrity(db) == "ok"
        conn = read_only(db)
        whole = 0
        for game_id in ids:
            days = conn.execute("SELECT COUNT(*) FROM days WHERE game_id = ?", (game_id,)).fetchone()[0]
            jobs = conn.execute("SELECT COUNT(*) FROM jobs WHERE game_id = ? AND kind = 'reports'",
                                (game_id,)).fetchone()[0]
            resolutions = sum(json.loads(e)["kind"] != "orders" for (e,) in conn.execute(
                "SELECT entry FROM log WHERE game_id = ?", (game_id,)))
            deadline = conn.execute("SELECT deadline FROM games WHERE id = ?", (game_id,)).fetchone()[0]
            assert days == jobs <= 1, (game_id, days, jobs)
            assert (resolutions > 0) == (days == 1) and (deadline is None) == (days == 1), game_id
            whole += days
        conn.close()
        partial.append(whole)

    # The child kills itself at a statement of its work (kills_in_the_work): a SIGKILL sent from here after a
    # batch's commit and a random delay came after all 40 games were resolved whenever this process was slower
    # to wake than the child to finish (about 0.1 s of CPU), as on a loaded machine.
    kills_in_the_work(child, rng, 6, check)
    assert partial[-1] == len(ids)
    assert any(0 < n < len(ids) for n in partial[:-1]), f"no kill came in the middle of the work: {partial}"
    store = Store(db)
    ruleset = rulesets()["marengo"]
    scenario = ruleset.load_scenario(Path(SMALL))
    for game_id in ids:
        info = store.get_game(game_id)
        game = Game(ruleset, scenario, info["seed"], store.read_log(game_id))
        assert {r.day: r.after.digest() for r in game.days} == {d["day"]: d["digest"] for d in store.read_days(game_id)}
        assert game.day == 1
    store.close()
    print(f"\nresolution kill test: games resolved at each kill {partial[:-1]} of {len(ids)}")


def test_pbem_loadtest_resolution_prints_both_ways_and_the_limit(tmp_path):
    """``pbem loadtest --resolution N``: every due game resolved both ways, the commits counted, the
    limit and the ratio printed (no timing asserted)."""
    result = subprocess.run(
        [sys.executable, "-m", "pbem.cli", "loadtest", "--resolution", "3", "--scenario", SMALL,
         "--workdir", str(tmp_path / "work"), "--out", str(tmp_path / "figures.txt")],
        capture_output=True, text=True, timeout=300, env=ServerProcess.environment())
    assert result.returncode == 0, result.stdout + result.stderr
    text = (tmp_path / "figures.txt").read_text()
    assert text.strip() in result.stdout
    assert re.search(r"in batches \(the server's tick\): 3 resolved in \d+ ms, [\d.]+ ms a game \(1 commits;", text)
    assert re.search(r"one a transaction: 3 resolved in \d+ ms, [\d.]+ ms a game \(3 commits;", text)
    assert re.search(r"CPU [\d.]+ ms a game; a game: [\d.]+ statements \(SELECT [\d.]+.*\), 1.00 commits\)", text)
    assert re.search(r"limit: the engine [\d.]+ ms \+ one commit [\d.]+ ms \(\d+ commits/s\)", text)
    assert re.search(r"ratio \(limit / in batches\): \d+\.\d\d; goal <= 1 ms a game: (met|NOT met)", text)


# -- statements a mail and a game (issue 35 item 3) ---------------------------------------------------


def statements(store: Store) -> list[str]:
    """Every statement the store's connection runs from now on, its SQL on one line (a trigger's statements
    are traced with the statement that fired them)."""
    seen: list[str] = []
    store.db.conn.set_trace_callback(lambda sql: seen.append(" ".join(sql.split())))
    return seen


def test_an_orders_mail_reads_its_game_once_and_takes_two_savepoints(tmp_path):
    """Handling an orders mail in a batch read the game's row 5 times, its log's tail 4 times and its seat's row
    3 times, and took 6 savepoints: each read is now made once while nothing is written between (the store keeps
    it for the transaction), and a block whose one change is one statement takes no savepoint; what the mail
    does is the same (its orders logged, its answer queued, it is marked processed)."""
    store, service, markers = orders_mails(tmp_path / "pbem.db", 2, 6)
    for game_id in (1, 2):
        service.game(game_id)  # the cache warm, as in the server
    seen = statements(store)
    assert inbox.process_pending(service, batch=10, seconds=60) == 6
    store.db.conn.set_trace_callback(None)
    reads = collections.Counter(re.sub(r"\d+", "N", s) for s in seen if s.startswith("SELECT"))
    assert reads["SELECT * FROM games WHERE id = N"] <= 6  # one a mail (5 a mail before)
    assert reads["SELECT seq, entry FROM log WHERE game_id = N ORDER BY seq DESC LIMIT N"] <= 6  # (4)
    assert sum(n for sql, n in reads.items() if sql.startswith("SELECT * FROM seats WHERE")) <= 6  # (3)
    assert sum(s.startswith("SAVEPOINT") for s in seen) <= 6 * 2  # the mail's and its orders' (6 before)
    assert sum(s == "COMMIT" for s in seen) == 1
    assert [r["status"] for r in store.query("SELECT status FROM inbound ORDER BY id")] == ["processed"] * 6
    log = "\n".join(e["text"] for g in (1, 2) for e in store.read_log(g) if e["kind"] == "orders")
    assert all(f"# {m}\n" in log for m in markers)
    assert store.query_one("SELECT COUNT(*) AS n FROM outbox WHERE dedupe_key LIKE 'answer:%'")["n"] == 6
    store.close()


def test_a_resolved_game_takes_two_savepoints_and_sets_its_clock_once(tmp_path):
    """A game resolved in the server's batch took 5 savepoints and set its clock twice; now the game's savepoint
    and its day's, and one UPDATE of the clock, with the same outcome (its day, its log, no deadline, no
    question pending, the reports' job)."""
    ids = due_games(tmp_path / "pbem.db", 3)
    store = Store(tmp_path / "pbem.db")
    service = Service(store)
    for game_id in ids:
        service.game(game_id)
    seen = statements(store)
    assert sorted(service.tick(batch=10, seconds=60)) == [(g, 0) for g in ids]
    store.db.conn.set_trace_callback(None)
    assert sum(s.startswith("SAVEPOINT") for s in seen) == 2 * 3
    assert sum(s.startswith("UPDATE games SET") and "WHERE id" in s for s in seen) <= 3 * 3  # one, traced with
    assert sum(s == "COMMIT" for s in seen) == 1                                           # its two triggers
    for game_id in ids:
        row = store.get_game(game_id)
        assert (row["deadline"], row["next_check"], row["pending"]) == (None, None, None)
        assert len(store.read_days(game_id)) == 1 and store.read_log(game_id)
    assert sorted(j["game_id"] for j in store.due_jobs() if j["kind"] == "reports") == ids
    store.close()


def test_reads_kept_in_a_transaction_see_its_writes_and_its_rollbacks(tmp_path):
    """The store's kept reads (``Store.kept_query``) give what the database holds: a write of any kind since,
    a savepoint rolled back, another connection's commit before the transaction -- each is seen."""
    store = Store(tmp_path / "pbem.db")
    other = Store(tmp_path / "pbem.db")
    game_id = store.create_game("marengo", "s.toml", seed=1, title="A")
    with store.transaction():
        assert store.get_game(game_id)["title"] == "A"
        store.db.execute("UPDATE games SET title = 'B' WHERE id = ?", (game_id,))  # not through the store's methods
        assert store.get_game(game_id)["title"] == "B"
        with pytest.raises(RuntimeError):
            with store.transaction():  # a savepoint
                store.update_game(game_id, title="C")
                assert store.get_game(game_id)["title"] == "C"
                raise RuntimeError("rolled back")
        assert store.get_game(game_id)["title"] == "B"
        game = store.get_game(game_id)
        game["settings"]["x"] = 1  # a caller's change to what it was given is not kept
        assert store.get_game(game_id)["settings"] == {}
    other.update_game(game_id, title="D")
    with store.transaction():
        assert store.get_game(game_id)["title"] == "D"
    assert store.get_game(game_id)["title"] == "D"
    store.close()
    other.close()
