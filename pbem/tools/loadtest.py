"""``pbem loadtest``: the real server under load on loopback, and its figures.

The server is ``pbem serve`` in a subprocess -- its SMTP receiver, its
scheduler and its outbox sender, on its own SQLite file -- so the load
generator does not share its interpreter. Nor do the generator's parts share
one (pbem/tools/loadgen.py): the SMTP clients are a process of their own that
sends mails made beforehand (a bytes template per game and day), and the
server's outgoing mail goes to an SMTP sink in another process that notes
when each message arrives and hands the reports' views back to this one, the
driver (the bots' orders, the schedule, the database watched, the checks).

1. N games are created (both seats bot addresses, the day 6 hours long, no
   reminders), once: the database is kept in the work folder as a template
   and copied for each run. Creating a game costs two scrypt key hashes.
2. The server starts and mails the 2N welcome mails; the run waits for them.
3. Warm-up (unless ``--no-warmup``): one orders mail to each game's moving
   seat. The first mail of a seat after a start pays one scrypt (the server
   then remembers the key), so a steady state has these behind it.
4. The measured window: for ``--seconds``, SMTP clients send orders mails (the
   bot's orders for the day, no FINAL) round-robin over the games at
   ``--rate`` a second; meanwhile ``--due-rate`` games a second come due (their
   deadline set a few seconds into the window), are resolved by the
   scheduler, and their reports are drawn and mailed.
5. Drain: the run waits until every accepted mail has its acknowledgement and
   every resolved day its two reports (or ``--drain`` seconds), stops the
   server, and prints the figures: mails accepted and acknowledged a second,
   the time from SMTP 250 to the acknowledgement at the sink, the time from
   each deadline to the day resolved, its reports queued and delivered,
   every message lost or doubled, and how the CPU was shared (the server's
   process, its helpers, each load process, the rest of the machine: read
   from /proc), per mail acknowledged.

The server process and small helpers are in pbem/tools/harness.py, which the
kill and backup tests drive the server with too.
"""

from __future__ import annotations

import json
import math
import os
import shutil
import queue
import sqlite3
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.tools.harness import (BOT_DOMAIN, Delivery, ServerProcess, epoch, iso, percentile, read_only, seconds,
                                wait_until)
from pbem.tools.loadgen import Clients, Sink, cpu_seconds, machine_busy, orders_template
from pbem.tools.traced import Traced


# -- the load test ------------------------------------------------------------------------------------

GAME_SETTINGS = {"hours": 6, "reminders": [], "early": True}


@dataclass
class LoadSettings:
    games: int = 1000
    seconds: float = 60.0
    rate: float = 50.0  # orders mails a second
    due_rate: float = 1.0  # games coming due a second
    clients: int = 4  # SMTP client threads, each with its own connection
    tick: float = 0.5  # the server's tick_seconds
    game: str = "marengo"
    scenario: str | None = None  # default: the game's first
    workdir: str | None = None
    warmup: bool = True
    drain: float = 180.0  # most seconds to wait after the window for late mail
    limits: bool = False  # also measure the bare parts in this run and print each figure's ratio (tools/limits.py)
    smtp_process: bool = False  # the server's setting smtp_process: its SMTP receiver in a process of its own


@dataclass
class Sent:
    message_id: str
    game_id: int
    side: str
    day: int
    phase: str
    started: float = 0.0
    accepted: float | None = None  # time.time() of the 250
    attempts: int = 0
    due: float | None = None  # when the schedule had it sent (None: as soon as a connection was free)


@dataclass
class Figures:
    settings: LoadSettings
    lines: list[str] = field(default_factory=list)
    lost: int = 0
    doubled: int = 0
    accepted_rate: float = 0.0
    acked_rate: float = 0.0
    ack_p50: float | None = None
    ack_p99: float | None = None
    resolve_max: float | None = None
    due: int = 0
    resolved: int = 0
    limits: object = None  # pbem.tools.limits.Limits, with --limits

    def __str__(self) -> str:
        return "\n".join(self.lines)


class LoadTest:
    def __init__(self, settings: LoadSettings, say=print):
        self.s = settings
        self.say = say
        self.workdir = Path(settings.workdir or tempfile.mkdtemp(prefix="pbem-loadtest-")).resolve()
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.sent: dict[str, Sent] = {}
        self.acks: dict[str, list[Delivery]] = {}
        self.reports: dict[tuple[int, int, str], list[Delivery]] = {}
        self.lock = threading.Lock()
        self.current: dict[int, dict] = {}  # game id -> {"day", "side", "view"}
        self.games: dict[int, dict] = {}  # game id -> seats, keys, seed
        self.address: dict[str, tuple[int, str]] = {}
        self.smtp_errors = 0
        self.days_seen: dict[tuple[int, int], tuple[float, str]] = {}
        self.reports_queued: dict[tuple[int, int, str], float] = {}
        self.deadline_of: dict[int, float] = {}
        self.view_errors: list[str] = []
        self.deliveries: list[Delivery] = []
        self.report_queue: queue.Queue = queue.Queue()

    # -- setting up -------------------------------------------------------------------------

    def rules(self):
        self.scenario()
        return self.ruleset

    def scenario(self):
        if not hasattr(self, "_scenario"):
            from pbem.games import ruleset
            from pbem.server.service import scenario_path

            self.ruleset = ruleset(self.s.game)
            name = self.s.scenario or next(iter(self.ruleset.scenarios().values())).name
            self._scenario = self.ruleset.load_scenario(scenario_path(name))
        return self._scenario

    def prepare(self) -> Path:
        """The run's database: a copy of the template with N games (made once, kept in the work folder)."""
        from pbem.server.backup import backup
        from pbem.server.service import Service
        from pbem.server.store import Store

        stem = f"{self.s.game}-{Path(self.s.scenario or 'default').stem}"
        template = self.workdir / f"games-{self.s.games}-{stem}.sqlite3"
        keys_file = self.workdir / f"games-{self.s.games}-{stem}.json"
        if not (template.exists() and keys_file.exists()):
            making = self.workdir / f"creating-{os.getpid()}.sqlite3"
            for suffix in ("", "-wal", "-shm"):
                Path(str(making) + suffix).unlink(missing_ok=True)
            store = Store(making)
            service = Service(store)
            started = time.monotonic()
            games = {}
            for i in range(self.s.games):
                seats = {seat.id: f"{seat.id}{i}@{BOT_DOMAIN}"
                         for seat in self.rules().seats(self.scenario(), {})}
                game_id, keys = service.create_game(f"Load {i}", seats, scenario=self.s.scenario, seed=i + 1,
                                                    settings=GAME_SETTINGS, game=self.s.game)
                games[game_id] = {"seed": i + 1, "keys": keys, "seats": seats}
                if (i + 1) % 100 == 0 or i + 1 == self.s.games:
                    self.say(f"  created {i + 1} games in {time.monotonic() - started:.0f} s")
            store.close()
            making.replace(template)
            keys_file.with_suffix(f".{os.getpid()}").write_text(json.dumps(games))
            keys_file.with_suffix(f".{os.getpid()}").replace(keys_file)
        self.games = {int(k): v for k, v in json.loads(keys_file.read_text()).items()}
        for game_id, info in self.games.items():
            for side, address in info["seats"].items():
                self.address[address.lower()] = (game_id, side)
        run = self.workdir / f"run-{os.getpid()}"  # runs sharing a work folder do not meet
        shutil.rmtree(run, ignore_errors=True)
        run.mkdir()
        backup(template, run / "pbem.sqlite3")
        far = iso(datetime.now(timezone.utc) + timedelta(hours=6))
        conn = sqlite3.connect(str(run / "pbem.sqlite3"))
        with conn:
            conn.execute("UPDATE games SET deadline = ? WHERE status = 'running'", (far,))
        conn.close()
        return run

    def opening_views(self) -> None:
        """Each game's coming day as its moving side sees it (what the welcome mail carried)."""
        from pbem.core.game import Game

        scenario = self.scenario()
        for game_id, info in self.games.items():
            game = Game(self.ruleset, scenario, info["seed"], [])
            side = game.turn().seats[0]
            self.current[game_id] = {"day": game.day, "side": side, "view": json.loads(json.dumps(game.view(side)))}

    # -- mail ---------------------------------------------------------------------------------

    def on_batch(self, batch: list[tuple]) -> None:
        """The sink's reader thread: note each delivery; a report goes to the bot thread."""
        reports = []
        with self.lock:
            for at, to, subject, message_id, in_reply_to, size, is_report, view in batch:
                delivery = Delivery(at, to, subject, message_id, in_reply_to, size, is_report)
                self.deliveries.append(delivery)
                if in_reply_to:
                    self.acks.setdefault(in_reply_to, []).append(delivery)
                elif is_report and to in self.address:
                    reports.append((delivery, view))
        for report in reports:
            self.report_queue.put(report)

    def on_report(self, delivery: Delivery, view_bytes: bytes | None) -> None:
        """A day's report to a seat: noted, and when its side moves next, the next day's orders made
        (once per game and day) and handed to the clients."""
        game_id, side = self.address[delivery.to]
        try:
            view = json.loads(view_bytes)
            day = view["day"] - 1
        except Exception as exc:  # noqa: BLE001 -- counted and printed: the run goes on
            self.view_errors.append(f"{delivery.subject}: {exc or type(exc).__name__}")
            return
        with self.lock:
            self.reports.setdefault((game_id, day, side), []).append(delivery)
            newer = (side in view.get("to_move", ()) and not view.get("over")
                     and view["day"] > self.current[game_id]["day"])
            if newer:
                self.current[game_id] = {"day": view["day"], "side": side, "view": view}
        if newer:
            self.hand_over(game_id)

    def bot_thread(self) -> None:
        while True:
            report = self.report_queue.get()
            if report is None:
                return
            self.on_report(*report)

    def hand_over(self, game_id: int) -> None:
        """The bot's orders for the game's current day, made into a mail template for the clients."""
        with self.lock:
            now = dict(self.current[game_id])
        body = self.ruleset.bots()["bot"].orders(self.scenario(), now["view"], self.games[game_id]["seed"])
        info, side = self.games[game_id], now["side"]
        parts = orders_template(info["seats"][side], game_id, side, info["keys"][side], now["view"]["turn_label"],
                                body)
        with self.lock:
            if self.current[game_id]["day"] != now["day"]:
                return  # a later report came meanwhile: its own hand-over follows
            self.clients.template(game_id, now["day"], side, info["seats"][side], parts)

    def run_phase(self, phase: str, jobs: dict) -> None:
        records, errors = self.clients.run(phase, jobs)
        self.smtp_errors += errors
        with self.lock:
            for message_id, game_id, side, day, due, started, accepted, attempts in records:
                self.sent[message_id] = Sent(message_id, game_id, side, day, phase, started, accepted, attempts, due)

    # -- the CPU -------------------------------------------------------------------------------

    def cpu_mark(self) -> dict:
        """CPU seconds so far of the server's process group, each load process and the machine."""
        server = {pid: cpu_seconds(pid) for pid in self.server.group()}
        return {"at": time.time(), "server": {pid: v for pid, v in server.items() if v is not None},
                "driver": cpu_seconds(os.getpid()), "clients": self.clients.cpu(), "sink": self.sink.cpu(),
                "machine": machine_busy()}

    def cpu_lines(self, marks: dict, acked: int) -> list[str]:
        """How the CPU was shared from the window's start until the drain ended, per mail acknowledged."""
        first, last = marks.get("start"), marks.get("drained")
        if not first or not last or first["driver"] is None:
            return ["CPU: not measured (no /proc here)"]
        span = last["at"] - first["at"]
        cores = os.cpu_count() or 1
        main_pid = self.server.proc.pid
        server = {pid: used - first["server"].get(pid, 0.0) for pid, used in last["server"].items()}
        gone = [pid for pid in first["server"] if pid not in last["server"]]
        main = server.get(main_pid, 0.0)
        helpers = sum(server.values()) - main
        load = {k: (last[k] or 0.0) - (first[k] or 0.0) for k in ("driver", "clients", "sink")}
        machine = (last["machine"] - first["machine"]) if last["machine"] is not None else None
        total_server, total_load = main + helpers, sum(load.values())

        def per_mail(cpu: float) -> str:
            return f"{cpu / acked * 1000:.2f} ms" if acked else "-"

        lines = [f"CPU from the window's start to the drain's end ({span:.1f} s; {cores} cores: "
                 f"{span * cores:.1f} CPU-s), per mail acknowledged ({acked}):",
                 f"  server (pbem serve and its {len(server) - 1} helper processes"
                 f"{f', {len(gone)} ended meanwhile, not counted' if gone else ''}): {total_server:.1f} CPU-s, "
                 f"{per_mail(total_server)} a mail (its own process {main:.1f} CPU-s, {per_mail(main)}; "
                 f"the helpers -- drawing{', the SMTP receiver' if self.s.smtp_process else ''} -- {helpers:.1f})",
                 f"  load generator: {total_load:.1f} CPU-s, {per_mail(total_load)} a mail (clients {load['clients']:.1f}, "
                 f"sink {load['sink']:.1f}, driver {load['driver']:.1f})"]
        if machine is not None:
            lines.append(f"  the whole machine busy {machine:.1f} CPU-s ({machine / max(span * cores, 1e-9):.0%}); "
                         f"other work beside this run {max(0.0, machine - total_server - total_load):.1f} CPU-s")
        if acked and total_server:
            lines.append(f"  at these costs {cores} cores hold at most {cores * acked / total_server:.0f} mails/s for "
                         f"the server alone, {cores * acked / (total_server + total_load):.0f} with this load "
                         f"generator beside it (goal 400)")
        if acked and main:
            lines.append(f"  the server's own process is one interpreter (one GIL): on one core at most "
                         f"{acked / main:.0f} mails/s at its {main / acked * 1000:.2f} ms a mail")
        return lines

    # -- watching the database ------------------------------------------------------------

    def poll(self, stop: threading.Event) -> None:
        conn = read_only(self.server.database)
        last_day = last_out = 0
        while not stop.is_set():
            try:
                now = time.time()
                for row in conn.execute("SELECT rowid, game_id, day, resolved_at FROM days WHERE rowid > ?"
                                        " ORDER BY rowid", (last_day,)):
                    last_day = row["rowid"]
                    self.days_seen.setdefault((row["game_id"], row["day"]), (now, row["resolved_at"]))
                for row in conn.execute("SELECT id, dedupe_key FROM outbox WHERE id > ? AND kind = 'report'"
                                        " ORDER BY id", (last_out,)):
                    last_out = row["id"]
                    parts = (row["dedupe_key"] or "").split(":")
                    if len(parts) >= 4:
                        self.reports_queued.setdefault((int(parts[1]), int(parts[2]), parts[3]), now)
            except sqlite3.OperationalError:
                pass
            stop.wait(0.1)
        conn.close()

    def count(self, sql: str, params=()) -> int:
        conn = read_only(self.server.database)
        try:
            return conn.execute(sql, params).fetchone()[0]
        finally:
            conn.close()

    # -- the run ---------------------------------------------------------------------------

    def run(self) -> Figures:
        s = self.s
        figures = Figures(s)
        out = figures.lines
        if s.limits:
            from pbem.tools import limits

            self.say("pbem loadtest: measuring the limits (bare receiver, SQLite commits, one raw map render)")
            figures.limits = limits.measure(self.workdir, mails=max(200, int(s.rate * 10)), clients=s.clients,
                                            game=s.game, scenario=s.scenario)
        self.say(f"pbem loadtest: preparing {s.games} games in {self.workdir}")
        started = time.monotonic()
        run_dir = self.prepare()
        self.opening_views()
        setup_seconds = time.monotonic() - started
        env = ServerProcess.environment()
        self.sink = Sink(self.on_batch, env=env)
        self.server = ServerProcess(run_dir, self.sink.port, tick=s.tick, smtp_process=s.smtp_process,
                                    smtp_connections_per_address=0)  # every client comes from 127.0.0.1
        poll_stop = threading.Event()
        bots = threading.Thread(target=self.bot_thread, name="bots", daemon=True)
        bots.start()
        try:
            t0 = time.time()
            self.server.start()
            self.clients = Clients(self.server.smtp_port, s.clients, env=env)
            for game_id in self.games:
                self.hand_over(game_id)
            listen_seconds = time.time() - t0
            welcomes = self.count("SELECT COUNT(*) FROM outbox")
            wait_until(lambda: self.count("SELECT COUNT(*) FROM outbox WHERE status IN ('queued', 'sending')") == 0,
                       timeout=max(600, welcomes / 5), interval=0.5, what="the welcome mails")
            welcome_seconds = time.time() - t0
            self.say(f"  server up in {listen_seconds:.1f} s; {welcomes} welcome mails out in {welcome_seconds:.0f} s")
            games = sorted(self.games)
            warm = None
            if s.warmup:
                w0 = time.time()
                self.run_phase("warmup", {"games": games})
                warm_ids = [m for m, x in self.sent.items() if x.phase == "warmup" and x.accepted]
                wait_until(lambda: all(m in self.acks for m in warm_ids), timeout=max(600, len(games) / 2),
                           interval=0.2, what="the warm-up acknowledgements")
                last = max(self.acks[m][0].at for m in warm_ids) if warm_ids else time.time()
                warm = (len(warm_ids), last - w0)
                self.say(f"  warm-up: {len(warm_ids)} first mails acknowledged in {last - w0:.0f} s")
            # the measured window
            start = math.ceil(time.time()) + 1.0
            end = start + s.seconds
            due = [g for g in games][:max(0, int((s.seconds - 3) * s.due_rate))]
            writer = sqlite3.connect(str(self.server.database), timeout=30)
            with writer:
                for k, game_id in enumerate(due):
                    when = math.floor(start + 3 + k / s.due_rate)
                    self.deadline_of[game_id] = when
                    writer.execute("UPDATE games SET deadline = ? WHERE id = ?",
                                   (iso(datetime.fromtimestamp(when, timezone.utc)), game_id))
            writer.close()
            poller = threading.Thread(target=self.poll, args=(poll_stop,), daemon=True)
            poller.start()
            total = int(s.seconds * s.rate)
            self.say(f"  measuring: {s.seconds:.0f} s at {s.rate:g} mails/s, {len(due)} games coming due")
            marks = {}
            at_start = threading.Timer(max(0.0, start - time.time()), lambda: marks.setdefault("start", self.cpu_mark()))
            at_start.start()
            self.run_phase("measure", {"games": games, "start": start, "rate": s.rate, "total": total, "stop_at": end})
            window_end = time.time()
            at_start.join()
            measured = [x for x in self.sent.values() if x.phase == "measure"]
            accepted = [x for x in measured if x.accepted]

            def drained():
                with self.lock:
                    acks_in = all(x.message_id in self.acks for x in accepted)
                    days = list(self.days_seen)
                    reports_in = all((g, d, side) in self.reports for g, d in days for side in self.games[g]["seats"])
                resolved = all((g, 0) in self.days_seen for g in due)
                return acks_in and reports_in and resolved and time.time() > max(self.deadline_of.values(),
                                                                                  default=0) + 1

            try:
                wait_until(drained, timeout=s.drain, interval=0.2, what="the acknowledgements and reports")
                drained_ok = True
            except TimeoutError:
                drained_ok = False
            drain_end = time.time()
            marks["drained"] = self.cpu_mark()
            time.sleep(1.0)  # a late duplicate, if any, has a moment to show
            poll_stop.set()
            poller.join(5)
            left_inbound = self.count("SELECT COUNT(*) FROM inbound WHERE status = 'stored'")
            left_outbox = self.count("SELECT COUNT(*) FROM outbox WHERE status != 'sent'")
            left_jobs = self.count("SELECT COUNT(*) FROM jobs WHERE status != 'done'")
            conn = read_only(self.server.database)
            outcome = {row[0]: row[1] for row in conn.execute(
                "SELECT message_id, json_extract(result, '$.orders') FROM inbound")}
            conn.close()
        finally:
            poll_stop.set()
            if hasattr(self, "clients"):
                self.clients.close()
            self.server.stop()
            self.sink.close()
            self.report_queue.put(None)
            bots.join(10)
            shutil.rmtree(run_dir, ignore_errors=True)

        # -- figures
        with self.lock:
            deliveries = list(self.deliveries)
        by_id: dict[str, int] = {}
        for d in deliveries:
            by_id[d.message_id] = by_id.get(d.message_id, 0) + 1
        duplicate_deliveries = sum(n - 1 for n in by_id.values() if n > 1)
        acked = [x for x in accepted if x.message_id in self.acks]
        latencies = [min(a.at for a in self.acks[x.message_id]) - x.accepted for x in accepted
                     if x.message_id in self.acks]
        smtp_latency = [x.accepted - x.started for x in accepted]
        no_ack = [x for x in accepted if x.message_id not in self.acks]
        many_acks = [x for x in accepted if len({a.message_id for a in self.acks.get(x.message_id, [])}) > 1]
        last_ack = max((min(a.at for a in self.acks[x.message_id]) for x in accepted if x.message_id in self.acks),
                       default=window_end)
        resolved = [(g, self.days_seen[(g, 0)]) for g in due if (g, 0) in self.days_seen]
        to_resolved = [seen - self.deadline_of[g] for g, (seen, _) in resolved]
        to_resolved_column = [epoch(at) - self.deadline_of[g] for g, (_, at) in resolved]
        to_queued, to_delivered = [], []
        for g, _ in resolved:
            queued = [self.reports_queued.get((g, 0, side)) for side in self.games[g]["seats"]]
            if all(queued):
                to_queued.append(max(queued) - self.deadline_of[g])
            delivered = [self.reports.get((g, 0, side)) for side in self.games[g]["seats"]]
            if all(delivered):
                to_delivered.append(max(min(d.at for d in ds) for ds in delivered) - self.deadline_of[g])
        days = list(self.days_seen)
        missing_reports = [(g, d, side) for g, d in days for side in self.games[g]["seats"]
                           if (g, d, side) not in self.reports]
        extra_reports = [(k, v) for k, v in self.reports.items() if len({d.message_id for d in v}) > 1]
        # each due game comes due once in the window (its next day is 6 hours long): any other day
        # resolved is a deadline acted on twice, or a game resolved that was not due
        unexpected = [(g, d) for g, d in days if g not in self.deadline_of or d != 0]

        figures.accepted_rate = len(accepted) / s.seconds
        ack_span = max(last_ack - start, s.seconds)  # the window, or longer if acknowledgements lagged
        figures.acked_rate = len(acked) / ack_span
        figures.ack_p50, figures.ack_p99 = percentile(latencies, 50), percentile(latencies, 99)
        figures.resolve_max = max(to_resolved, default=None)
        figures.due, figures.resolved = len(due), len(resolved)
        figures.lost = len(no_ack) + len(missing_reports) + left_inbound
        figures.doubled = len(many_acks) + len(extra_reports) + duplicate_deliveries + len(unexpected)

        out.append(f"pbem loadtest, {datetime.now(timezone.utc):%Y-%m-%d %H:%M} UTC, {os.cpu_count()} cores, "
                   f"Python {sys.version.split()[0]}")
        out.append(f"settings: --games {s.games} --seconds {s.seconds:g} --rate {s.rate:g} --due-rate {s.due_rate:g}"
                   f" --clients {s.clients} --tick {s.tick:g} --scenario {s.scenario}"
                   f"{'' if s.warmup else ' --no-warmup'}{' --smtp-process' if s.smtp_process else ''}")
        out.append(f"server: pbem serve in a subprocess (SMTP receiver"
                   f"{' in a child process of its own' if s.smtp_process else ''}, scheduler, outbox sender); load: "
                   f"{s.clients} SMTP connections in a client process (prebuilt mails), an SMTP sink in another, "
                   f"the driver (bots, schedule, checks) in a third")
        out.append(f"setup: {s.games} games ready in {setup_seconds:.0f} s; server listening in "
                   f"{listen_seconds:.1f} s; {welcomes} welcome mails delivered in {welcome_seconds:.0f} s"
                   f" ({welcomes / max(welcome_seconds, 1e-9):.0f} mails/s)")
        if warm:
            out.append(f"warm-up: {warm[0]} first mails of a seat (each pays one scrypt) acknowledged in "
                       f"{warm[1]:.0f} s ({warm[0] / max(warm[1], 1e-9):.1f} mails/s)")
        out.append("")
        out.append(f"order mails: {total} scheduled, {len(measured)} sent, {len(accepted)} accepted (SMTP 250) in the "
                   f"{s.seconds:g} s window: {figures.accepted_rate:.1f} mails/s sustained")
        out.append(f"  acknowledged at the sink: {len(acked)}, the last {last_ack - end:+.1f} s after the window "
                   f"closed: {figures.acked_rate:.1f} mails/s sustained")
        taken = sum(1 for x in accepted if outcome.get(x.message_id) == 1)
        out.append(f"  orders taken by the game: {taken} of {len(accepted)}; refused (the day had moved on): "
                   f"{sum(1 for x in accepted if outcome.get(x.message_id) == 0)}; "
                   f"SMTP errors retried: {self.smtp_errors}")
        late = [x.started - x.due for x in measured if x.due is not None]
        out.append(f"  started behind the schedule (a connection free, the mail due): p50 {seconds(percentile(late, 50))}, "
                   f"p99 {seconds(percentile(late, 99))}, max {seconds(max(late, default=None))}")
        if smtp_latency:
            mean = sum(smtp_latency) / len(smtp_latency)
            out.append(f"  the offer: {s.clients} connections, a mail {mean * 1000:.0f} ms on average to its 250: at most "
                       f"{s.clients / max(mean, 1e-9):.0f} mails/s could be sent (asked: {s.rate:g}/s; more connections "
                       f"offer more if the server takes them)")
        out.append(f"  SMTP 250 latency: p50 {seconds(percentile(smtp_latency, 50))}, "
                   f"p99 {seconds(percentile(smtp_latency, 99))}, max {seconds(max(smtp_latency, default=None))}")
        out.append(f"  SMTP 250 -> acknowledgement at the sink: p50 {seconds(figures.ack_p50)}, "
                   f"p99 {seconds(figures.ack_p99)}, max {seconds(max(latencies, default=None))}")
        out.append(f"deadlines: {len(due)} games came due ({s.due_rate:g}/s), {len(resolved)} resolved")
        out.append(f"  deadline -> day resolved (seen in the database): p50 {seconds(percentile(to_resolved, 50))}, "
                   f"p99 {seconds(percentile(to_resolved, 99))}, max {seconds(figures.resolve_max)}"
                   f" (days.resolved_at, whole seconds: max {seconds(max(to_resolved_column, default=None))})")
        out.append(f"  deadline -> both reports queued: p50 {seconds(percentile(to_queued, 50))}, "
                   f"p99 {seconds(percentile(to_queued, 99))}, max {seconds(max(to_queued, default=None))}"
                   f" ({len(to_queued)} days)")
        out.append(f"  deadline -> both reports delivered: p50 {seconds(percentile(to_delivered, 50))}, "
                   f"p99 {seconds(percentile(to_delivered, 99))}, max {seconds(max(to_delivered, default=None))}"
                   f" ({len(to_delivered)} days)")
        out.append(f"lost or doubled: accepted mails without acknowledgement {len(no_ack)}, with more than one "
                   f"{len(many_acks)}; resolved days missing a report {len(missing_reports)}, with a report twice "
                   f"{len(extra_reports)}; messages delivered twice (same Message-ID) {duplicate_deliveries}; "
                   f"days resolved beyond the one due {len(unexpected)}")
        out.append(f"  left at the end: inbound unprocessed {left_inbound}, outbox unsent {left_outbox}, "
                   f"jobs not done {left_jobs}"
                   + ("" if drained_ok else f"; DRAIN TIMED OUT after {drain_end - window_end:.0f} s"
                      " (mail still in the outbox counts as lost above)"))
        out += self.cpu_lines(marks, len(acked))
        out.append(f"  the server's mail reached the sink over {self.sink.sessions} SMTP connections "
                   f"({len(deliveries) / max(1, self.sink.sessions):.1f} messages a connection)")
        if self.view_errors:
            out.append(f"  unreadable reports: {len(self.view_errors)} (first: {self.view_errors[0]})")
        if figures.limits is not None:
            from pbem.tools.limits import ratio

            lim = figures.limits
            out += lim.lines()
            two_maps = 2 * lim.render_seconds  # a day's reports: one map a seat
            out.append("ratios to the limits (1.00: as fast as the bare part):")
            out.append(f"  order mails acknowledged a second {figures.acked_rate:.1f} / bare receiver "
                       f"{lim.receiver_rate:.0f}: {ratio(figures.acked_rate, lim.receiver_rate)}"
                       f" (offered: {s.rate:g}/s, the most this run could show: {ratio(s.rate, lim.receiver_rate)})")
            out.append(f"  250 -> acknowledgement p99 {seconds(figures.ack_p99)} vs bare mail -> 250 p99 "
                       f"{lim.receiver_p99 * 1000:.1f} ms: {ratio(lim.receiver_p99, figures.ack_p99)}")
            out.append(f"  order mails accepted a second {figures.accepted_rate:.1f} / the load generator's ceiling "
                       f"{lim.generator_rate:.0f}: {ratio(figures.accepted_rate, lim.generator_rate)}")
            p50 = percentile(to_delivered, 50)
            out.append(f"  deadline -> both reports delivered p50 {seconds(p50)} vs two raw map renders "
                       f"{two_maps * 1000:.0f} ms: {ratio(two_maps, p50)}")
        goals = [
            (f"{s.games} active games", True),
            # kept up with 50 a second: as many accepted (the schedule's rounding aside), each acknowledged,
            # the last no more than 2 s after the window closed
            (">= 50 order mails/s accepted and acknowledged", figures.accepted_rate >= 50 * 0.995
             and len(acked) == len(accepted) and last_ack - end <= 2.0),
            ("p99 acknowledgement < 2 s", figures.ack_p99 is not None and figures.ack_p99 < 2),
            ("every due game resolved within 5 s", len(resolved) == len(due)
             and (figures.resolve_max is None or figures.resolve_max < 5)),
            ("nothing lost or doubled", figures.lost == 0 and figures.doubled == 0),
        ]
        out.append("goals: " + "; ".join(f"{name}: {'met' if ok else 'NOT met'}" for name, ok in goals))
        return figures


def run_loadtest(settings: LoadSettings | None = None, say=print, **kwargs) -> Figures:
    return LoadTest(settings or LoadSettings(**kwargs), say=say).run()


# -- resolution in batches --------------------------------------------------------------------------


def resolution_figures(games: int = 100, game: str = "marengo", scenario: str | None = None, workdir=None,
                       say=print) -> str:
    """``pbem loadtest --resolution N``: N games due at once, resolved by the service's tick as the
    server does (the games replayed first, as a warm cache), one commit a batch, then the same games
    one a transaction; printed beside the limit measured in the same run: the engine's own time a game
    (``Game.advance``) plus one SQLite commit."""
    from pbem.core.game import Game
    from pbem.server.service import Service, scenario_path
    from pbem.server.store import Store
    from pbem.games import ruleset
    from pbem.tools import limits

    folder = Path(workdir or tempfile.mkdtemp(prefix="pbem-resolution-")).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    template = folder / "due.sqlite3"
    rules = ruleset(game)
    path = scenario_path(scenario) if scenario else next(iter(rules.scenarios().values()))
    if template.exists():
        template.unlink()
    store = Store(template)
    service = Service(store)
    started = time.monotonic()
    for i in range(games):
        service.create_game(f"Due {i}", {seat.id: f"g{i}.{seat.id}@{BOT_DOMAIN}" for seat in
                                         rules.seats(rules.load_scenario(path), {})},
                            game=game, scenario=str(path), seed=1000 + i, settings={"hours": 6, "reminders": []})
    past = iso(datetime.now(timezone.utc) - timedelta(hours=1))
    store.execute("UPDATE games SET deadline = ?, next_check = ?", (past, past))
    store.close()
    say(f"  {games} games made in {time.monotonic() - started:.0f} s")
    lines = [f"resolution: {games} games due at once ({game}, {path.name}), replayed before (a warm cache),"
             f" load average {' '.join(f'{x:.1f}' for x in os.getloadavg())}"]
    results = {}
    for label, batch in (("in batches (the server's tick)", 100), ("one a transaction", 1)):
        db = folder / f"run-{batch}.sqlite3"
        for suffix in ("", "-wal", "-shm"):
            if Path(f"{db}{suffix}").exists():
                Path(f"{db}{suffix}").unlink()
        shutil.copy(template, db)
        store = Store(db)
        service = Service(store)
        for game_id in range(1, games + 1):
            service.game(game_id)
        engine = [0.0]
        advance = Game.advance

        def timed(self, *args, **kwargs):
            t = time.perf_counter()
            try:
                return advance(self, *args, **kwargs)
            finally:
                engine[0] += time.perf_counter() - t

        commits = [0]
        commit = store.db.commit
        store.db.commit = lambda: commits.__setitem__(0, commits[0] + 1) or commit()
        Game.advance = timed
        try:
            with Traced(store.db.conn) as traced:
                t, cpu = time.perf_counter(), time.process_time()
                done = service.tick(batch=batch, seconds=60)
                elapsed, cpu = time.perf_counter() - t, time.process_time() - cpu
        finally:
            Game.advance = advance
        store.close()
        results[batch] = (elapsed / max(1, len(done)), engine[0] / max(1, len(done)))
        lines.append(f"  {label}: {len(done)} resolved in {elapsed * 1000:.0f} ms, {results[batch][0] * 1000:.2f} ms a"
                     f" game ({commits[0]} commits; the engine {results[batch][1] * 1000:.2f} ms a game; CPU"
                     f" {cpu * 1000 / max(1, len(done)):.2f} ms a game; a game: {traced.per(len(done))})")
    rate = limits.commit_rate(folder)
    limit = results[100][1] + 1 / rate
    lines.append(f"  limit: the engine {results[100][1] * 1000:.2f} ms + one commit {1000 / rate:.2f} ms"
                 f" ({rate:.0f} commits/s) = {limit * 1000:.2f} ms a game")
    lines.append(f"  ratio (limit / in batches): {limits.ratio(limit, results[100][0])}; goal <= 1 ms a game:"
                 f" {'met' if results[100][0] <= 0.001 else 'NOT met'}")
    return "\n".join(lines)
