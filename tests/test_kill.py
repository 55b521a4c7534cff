"""The kill test: the real server, SIGKILLed at random moments, loses and doubles nothing.

``pbem serve`` runs as a subprocess on its own SQLite file, its SMTP receiver
on a loopback port, its outgoing mail going to a relay in this process that
keeps every message. Games are created in the database before the first
start: bot games (each side a bot that answers its reports with orders marked
FINAL, by SMTP, retrying until it gets a 250) and a silent game (no orders
ever: its days are resolved at their 2-second deadlines). The server is
killed with SIGKILL, from a seeded random, while it takes mail (ingest), while
it resolves a day and draws its reports (resolution), while it hands mail to
the relay (delivery), and with a report inside the relay before the relay's
250 went back (the relay window) -- then started again, until every game is
over. Then:

- every message the test got a 250 for is stored once and processed once
  (no inbound row left 'stored'; each orders mail is in its game's log once)
  and has exactly one acknowledgement -- the bots of one game send their
  mail without a Message-ID, so a mail sent again after a kill is known by
  its bytes (pbem.server.dedupe);
- every resolved day has exactly one report per side (deduplicated by
  Message-ID: SMTP delivery is at-least-once in the window between the
  relay's 250 and the sender's commit; the copies are counted and printed);
- replaying each game's log through the engine gives the digests the
  ``days`` table holds, and a control run of the same games with the same
  orders (the service in this process, no kills) gives the same days;
- ``PRAGMA integrity_check`` is ok after every kill and every restart.
"""

from __future__ import annotations

import collections
import dataclasses
import json
import os
import random
import re
import sqlite3
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.server import inbox
from pbem.core.game import Game
from pbem.games import rulesets
from pbem.tools.harness import Players, Relay, Seat, ServerProcess, attached_json, bot_mail, integrity, read_only
from pbem.server.service import Service
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
SEED = int(os.environ.get("KILL_TEST_SEED", "1815"))
KILLS = int(os.environ.get("KILL_TEST_KILLS", "8"))  # each kind of kill twice (docs/testing.md: more)
BOT_GAMES = int(os.environ.get("KILL_TEST_GAMES", "2"))
SILENT_GAMES = 1
BUDGET = 900.0  # seconds: only a stuck run takes this long (it takes about 60 alone, 240 under load);
# below pyproject's per-test timeout, so that a stuck run fails with the state of its games
BOT_SETTINGS = {"hours": 0, "minutes": 10, "reminders": [], "early": True}  # FINAL orders decide
SILENT_SETTINGS = {"hours": 0, "seconds": 2, "reminders": [], "early": True}  # the deadline decides
SIDES = ("austria", "france")
# kinds of kill: (the event that arms it, the random delay after it in seconds)
KINDS = {
    "ingest": (0.0, 0.25),  # a bot starts mailing orders: during SMTP, the store, or the tick that processes it
    "resolution": (0.0, 1.6),  # FINAL orders acknowledged: the next tick resolves the day and draws its reports
    "delivery": (0.0, 0.03),  # a report reached the relay: the sender is marking it sent or sending the next
    "relay window": (0.0, 0.0),  # killed inside the relay, the report taken but the relay's 250 not yet sent
}


MARKER = re.compile(rb"# (mail \d+-\d+-\w+)")


class PlayersWithoutIds(Players):
    """Bots whose mail carries no Message-ID in the games ``games`` (the same bytes at every retry)."""

    def __init__(self, *args, games=(), **kwargs):
        self.games = set(games)
        super().__init__(*args, **kwargs)

    def mail_for(self, seat: Seat, view: dict, message_id: str) -> bytes:
        raw = super().mail_for(seat, view, message_id)
        if seat.game_id in self.games:
            raw = re.sub(rb"(?im)^Message-ID:[^\n]*\n", b"", raw, count=1)
        return raw


def make_games(db: Path) -> list[Seat]:
    store = Store(db)
    service = Service(store)
    seats = []
    for i in range(BOT_GAMES + SILENT_GAMES):
        silent = i >= BOT_GAMES
        addresses = {side: f"g{i}.{side}@bots.invalid" for side in SIDES}
        game_id, keys = service.create_game(f"Kill {i}", addresses, scenario=SMALL, seed=100 + i,
                                            settings=SILENT_SETTINGS if silent else BOT_SETTINGS)
        seats += [Seat(game_id, side, keys[side], addresses[side], 100 + i, silent) for side in SIDES]
    store.close()
    return seats


def state_of(db: Path) -> dict:
    conn = read_only(db)
    try:
        one = lambda sql: conn.execute(sql).fetchone()[0]  # noqa: E731
        return {
            "stored": one("SELECT COUNT(*) FROM inbound WHERE status = 'stored'"),
            "jobs due": one("SELECT COUNT(*) FROM jobs WHERE status = 'due'"),
            "sending": one("SELECT COUNT(*) FROM outbox WHERE status = 'sending'"),
            "queued": one("SELECT COUNT(*) FROM outbox WHERE status = 'queued'"),
            "running": one("SELECT COUNT(*) FROM games WHERE status != 'finished'"),
            "days": one("SELECT COUNT(*) FROM days"),
        }
    finally:
        conn.close()


def finished(db: Path, players: Players) -> bool:
    state = state_of(db)
    return (state["running"] == 0 and state["stored"] == 0 and state["jobs due"] == 0 and state["sending"] == 0
            and state["queued"] == 0 and players.outgoing.empty())


class Clock:
    def __init__(self):
        self.now = datetime.now(timezone.utc)

    def __call__(self):
        return self.now


def control_run(path: Path, seats: list[Seat], scenario) -> Service:
    """The same games and the same orders through the service, no server, no kills."""
    clock = Clock()
    store = Store(path, clock=clock)
    service = Service(store, clock=clock)
    service.map_png = lambda *args, **kwargs: b""  # the maps are not compared; drawing them takes seconds
    by_game = collections.defaultdict(dict)
    for seat in seats:
        by_game[seat.game_id][seat.side] = seat
    for game_id, pair in sorted(by_game.items()):
        seat = next(iter(pair.values()))
        made, keys = service.create_game(f"Kill {game_id - 1}", {side: s.address for side, s in pair.items()},
                                         scenario=SMALL, seed=seat.seed,
                                         settings=SILENT_SETTINGS if seat.silent else BOT_SETTINGS)
        assert made == game_id
        for side, s in pair.items():
            pair[side] = dataclasses.replace(s, key=keys[side])
    sent = set()
    for _ in range(1000):
        if all(service.info(g)["status"] == "finished" for g in by_game):
            return service
        for game_id, pair in by_game.items():
            game = service.game(game_id)
            if game.over:
                continue
            seat = pair[game.turn().seats[0]]
            if seat.silent or (game_id, game.day) in sent:
                continue
            sent.add((game_id, game.day))
            view = json.loads(json.dumps(game.view(seat.side)))
            raw = bot_mail(rulesets()["marengo"], scenario, seat, view, f"<control.{game_id}.{game.day}@bots.invalid>")
            inbound_id, _ = inbox.receive(service, raw, "smtp")
            inbox.process(service, inbound_id)
        service.tick()
        service.run_jobs()  # the reports; the next day's clock starts when they are out
        clock.now += timedelta(seconds=3)
    raise AssertionError("the control run did not finish")


def orders_in_log(log: list[dict]) -> list[tuple[int, str, str]]:
    return [(e["day"], e["side"], e["text"]) for e in log if e["kind"] == "orders"]


def test_sigkill_at_random_moments_loses_and_doubles_nothing(tmp_path):
    instance = tmp_path / "instance"
    instance.mkdir()
    db = instance / "pbem.sqlite3"
    seats = make_games(db)
    ruleset = rulesets()["marengo"]
    scenario = ruleset.load_scenario(Path(SMALL))
    rng = random.Random(SEED)
    events = {kind: threading.Event() for kind in KINDS}
    inside = threading.Event()  # armed: the next report is killed inside the relay
    killed_inside = threading.Event()
    players = None

    def hook(delivery, raw):
        if delivery.is_report and inside.is_set():
            inside.clear()
            server.kill()
            killed_inside.set()
        if players is not None:
            players.on_message(delivery, raw)
        if delivery.is_report:
            events["delivery"].set()
        if delivery.in_reply_to:
            events["resolution"].set()

    relay = Relay(hook)
    server = ServerProcess(instance, relay.port, tick=0.2)
    without_ids = {s.game_id for s in seats if not s.silent}
    without_ids = {min(without_ids)}  # the first bot game's bots write no Message-ID
    players = PlayersWithoutIds(ruleset, scenario, server.smtp_port, seats, tag="kill", games=without_ids)
    players.on_sending = lambda seat, day: events["ingest"].set()
    kills = collections.Counter()
    plan: list[str] = []  # the kinds of kill to come, each kind in turn in a shuffled order
    interrupted = collections.Counter()
    restarts = 0
    down = 0.0
    started = time.monotonic()
    try:
        server.start()
        assert integrity(db) == "ok"
        while not finished(db, players):
            assert time.monotonic() - started < BUDGET, (
                f"the games did not finish within {BUDGET:.0f} s: {state_of(db)}\n{server.log_tail()}")
            assert server.alive, f"the server died by itself:\n{server.log_tail()}"
            if sum(kills.values()) >= KILLS:
                time.sleep(0.1)
                continue
            if not plan:
                plan = list(KINDS)
                rng.shuffle(plan)
            kind = plan.pop()
            delay = rng.uniform(*KINDS[kind])
            if kind == "relay window":
                killed_inside.clear()
                inside.set()
                if not killed_inside.wait(8):
                    inside.clear()
                    kind = "at rest"  # no report came: a kill at a quiet moment
                    server.kill()
            else:
                events[kind].clear()
                if not events[kind].wait(8):
                    kind = "at rest"
                time.sleep(delay)
                server.kill()
            kills[kind] += 1
            went_down = time.monotonic()
            state = state_of(db)
            for what in ("stored", "jobs due", "sending"):
                interrupted[what] += bool(state[what])
            check = integrity(db)
            assert check == "ok", f"integrity_check after kill {sum(kills.values())}: {check}"
            time.sleep(rng.uniform(0.0, 0.3))  # down a moment: mail sent now is refused and sent again
            server.start()
            restarts += 1
            down += time.monotonic() - went_down
            check = integrity(db)
            assert check == "ok", f"integrity_check after restart {restarts}: {check}"
            time.sleep(rng.uniform(0.2, 1.2))  # some work done before the next kill is armed
    finally:
        players.stop()
        server.stop()
        relay.stop()
    elapsed = time.monotonic() - started
    assert sum(kills.values()) >= min(KILLS, 10), f"the games were over after only {sum(kills.values())} kills"
    assert not players.errors, players.errors
    assert integrity(db) == "ok"

    conn = sqlite3.connect(str(db))
    conn.row_factory = sqlite3.Row
    deliveries = relay.snapshot()
    copies = collections.Counter(d.message_id for d in deliveries)
    duplicates = sum(n - 1 for n in copies.values())

    # every accepted message: stored once, processed once, answered once (known by its marker:
    # a mail without a Message-ID has none in the database)
    rows = list(conn.execute("SELECT * FROM inbound"))
    inbound = {MARKER.search(row["raw"]).group(1).decode(): row for row in rows}
    accepted = players.accepted
    assert len(rows) == len(inbound), "a mail was stored twice"
    assert set(inbound) == {a.marker for a in accepted.values()}, \
        "the stored messages are not the ones that were answered 250"
    assert sum(row["message_id"] is None for row in rows) == \
        sum(a.game_id in without_ids for a in accepted.values()) > 0
    assert all(row["status"] == "processed" for row in inbound.values()), \
        [dict(r) for r in inbound.values() if r["status"] != "processed"]
    assert all(json.loads(row["result"]).get("orders") is True for row in inbound.values())
    logs = {s.game_id: [json.loads(r["entry"]) for r in conn.execute(
        "SELECT entry FROM log WHERE game_id = ? ORDER BY seq", (s.game_id,))] for s in seats}
    for a in accepted.values():
        entries = [e for e in logs[a.game_id] if e["kind"] == "orders" and f"# {a.marker}\n" in e["text"]]
        assert len(entries) == 1, f"{a.message_id} is in the log {len(entries)} times"
        assert entries[0]["day"] == a.day and entries[0]["side"] == a.side
    assert sum(len(orders_in_log(log)) for log in logs.values()) == len(accepted)
    acks = collections.defaultdict(set)
    for d in deliveries:
        if d.in_reply_to:
            acks[d.in_reply_to].add(d.message_id)
    for message_id, a in accepted.items():
        if a.game_id not in without_ids:
            assert len(acks[message_id]) == 1, f"{message_id}: {len(acks[message_id])} acknowledgements"
    for seat in seats:  # without a Message-ID an answer cannot name its mail: one answer per mail, by seat
        if seat.game_id in without_ids:
            answered = {d.message_id for d in deliveries if d.to == seat.address.lower() and "accepted" in d.subject}
            assert len(answered) == sum(a.game_id == seat.game_id and a.side == seat.side for a in accepted.values())

    # every resolved day: one report per side
    game_of = {s.address.lower(): s.game_id for s in seats}
    reports = collections.defaultdict(set)
    for d in deliveries:
        if d.is_report:
            view = attached_json(d.raw)
            reports[(game_of[d.to], view["day"] - 1, view["viewer"])].add(d.message_id)
    days = [(row["game_id"], row["day"]) for row in conn.execute("SELECT game_id, day FROM days")]
    for game_id, day in days:
        for side in SIDES:
            assert len(reports[(game_id, day, side)]) == 1, (game_id, day, side, reports[(game_id, day, side)])
    assert len(reports) == 2 * len(days)

    # the states: the log replayed gives the recorded digests, and a run without kills the same days
    games = {row["id"]: row for row in conn.execute("SELECT * FROM games")}
    stored_days = collections.defaultdict(dict)
    for row in conn.execute("SELECT game_id, day, digest FROM days"):
        stored_days[row["game_id"]][row["day"]] = row["digest"]
    for game_id, info in games.items():
        assert info["status"] == "finished"
        game = Game(ruleset, scenario, info["seed"], logs[game_id])
        assert game.over
        assert {r.day: r.after.digest() for r in game.days} == stored_days[game_id]
    missed = conn.execute("SELECT game_id, detail FROM audit WHERE action = 'missed'").fetchall()
    bot_game_ids = {s.game_id for s in seats if not s.silent}
    assert not [m for m in missed if m["game_id"] in bot_game_ids], "a bot game missed a deadline"
    conn.close()
    control = control_run(tmp_path / "control.sqlite3", seats, scenario)
    for game_id in games:
        days_control = {r["day"]: r["digest"] for r in control.store.read_days(game_id)}
        assert days_control == stored_days[game_id], f"game {game_id} differs from the run without kills"
        assert orders_in_log(control.store.read_log(game_id)) == orders_in_log(logs[game_id])
    control.store.close()

    resent = sum(a.times - 1 for a in accepted.values())
    print(f"\nkill test (seed {SEED}): {sum(kills.values())} kills ({dict(kills)}), {restarts} restarts, "
          f"{elapsed:.0f} s in all, {down:.0f} s down; kills that left mail stored unprocessed "
          f"{interrupted['stored']}, a report job due {interrupted['jobs due']}, an outbox row claimed and not "
          f"marked sent {interrupted['sending']}; {len(days)} days resolved in {len(games)} games; "
          f"{len(accepted)} orders mails accepted ({players.failures} SMTP attempts failed and were retried, "
          f"{resent} mails answered 250 twice, stored once); {len(deliveries)} mails delivered to the relay, "
          f"{duplicates} of them a second copy (same Message-ID); helper processes left running by killed "
          f"servers (then killed) {server.orphans}")
