"""The server's CPU per order mail, stage by stage (issue 15): ``pbem mailbench``.

The goal of 400 order mails acknowledged a second on two cores shared with a load generator and a
relay leaves about 2.5 ms of the server's CPU a mail, all included. This bench stores N orders
mails (the simple bot's orders for the opening day of several games of several rulesets, as the
load test sends them) and measures, in ms of CPU a mail (``time.process_time`` of this process,
every thread of it; the SMTP clients and the sink run in processes of their own, not counted):

- **bare**: the bare receiver (aiosmtpd, each message stored in a SQLite table, one commit each:
  pbem.tools.limits' bare receiver), the limit every other stage is printed against;
- **receive**: the server's receiver (pbem.server.mail.smtpd) storing each mail with
  ``inbox.receive`` (the dedupe keys, the store's commit) before its 250;
- **process**: ``inbox.process_pending`` over the N stored mails, the game cache and the seats'
  keys warm (a seat's first mail pays a scrypt; the load test's seats send many);
- **send**: the outbox sender delivering the N answers to a bare SMTP sink on loopback.

``--profile`` prints a cProfile of each stage (the receiver's: its threads, the event loop's and
the one that stores). ``--serve`` measures the same mails through a real ``pbem serve`` (its CPU read
from /proc: every thread of the server's process, its drawing workers apart) after a warm-up round
of one mail a seat: the server's CPU a mail, mails acknowledged a second and the SMTP 250 ->
acknowledgement delay (p50, p99).
"""

from __future__ import annotations

import cProfile
import io
import json
import multiprocessing
import os
import pstats
import shutil
import smtplib
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from pbem.tools.harness import BOT_DOMAIN, SERVER_ADDR, orders_mail, percentile
from pbem.tools.limits import bare_store
from pbem.tools.traced import Traced

GAMES = ("marengo", "napoleon1815", "triomphe", "dba")
SETTINGS = {"hours": 24, "reminders": [], "early": False}  # nothing comes due during the bench
PER_SEAT = 80  # mails a seat sends at most, warm-up included: answers to an address are capped (throttle: 100 an hour)
BUSY_PAUSE = 0.05  # seconds a client waits after a 451 (busy) before it sends the mail again


@dataclass
class Stage:
    name: str
    mails: int
    cpu: float  # seconds of this process's CPU
    wall: float
    profile: str = ""

    @property
    def ms(self) -> float:
        return self.cpu * 1000 / max(1, self.mails)


@dataclass
class Mails:
    """The bench's games (in a database of their own) and the orders mails for them."""

    database: Path
    raws: list[tuple[str, bytes]] = field(default_factory=list)  # (sender, raw message)
    seats: list[tuple[int, str, str]] = field(default_factory=list)  # (game, seat, key)
    first: dict[int, tuple[str, bytes]] = field(default_factory=dict)  # a first mail a game


def make_mails(folder: Path, mails: int, games: int, rulesets=GAMES, say=print, times: int = 1) -> Mails:
    """``games`` games of each ruleset in ``folder``/pbem.sqlite3 (more if a seat would send more than
    ``PER_SEAT``, each mail sent ``times``) and ``mails`` orders mails spread over them (each the
    simple bot's orders for the day to come, as its moving seat sees it)."""
    from pbem.games import ruleset
    from pbem.server.service import Service
    from pbem.server.store import Store

    store = Store(folder / "pbem.sqlite3")
    service = Service(store)
    made = Mails(folder / "pbem.sqlite3")
    bodies = []  # (game id, seat, key, address, view, body)
    started = time.perf_counter()
    i = 0
    while i < games or len(bodies) * PER_SEAT < mails * times:  # games enough that no seat goes over its answers' cap
        for name in rulesets:
            rules = ruleset(name)
            scenario = next(iter(rules.scenarios().values()))
            seats = {seat.id: f"{seat.id}{i}.{name}@{BOT_DOMAIN}"
                     for seat in rules.seats(rules.load_scenario(scenario), {})}
            game_id, keys = service.create_game(f"Bench {name} {i}", seats, seed=i + 1, settings=SETTINGS, game=name)
            game = service.game(game_id)
            for side in keys:
                made.seats.append((game_id, side, keys[side]))
            for side in game.turn().seats:
                view = json.loads(json.dumps(game.view(side)))
                body = rules.bots()["bot"].orders(game.scenario, view, i + 1)
                bodies.append((game_id, side, keys[side], seats[side], view, body))
        i += 1
    store.execute("UPDATE outbox SET status = 'sent'")  # the welcomes: not the answers measured
    store.close()
    say(f"  {len(made.seats)} seats of {i * len(rulesets)} games made in {time.perf_counter() - started:.1f} s")
    for n in range(mails):
        game_id, side, key, address, view, body = bodies[n % len(bodies)]
        raw = orders_mail(address, game_id, side, key, view, body, f"<bench.{n}.{game_id}@{BOT_DOMAIN}>")
        made.raws.append((address, raw))
        made.first.setdefault(game_id, (address, raw))
    return made


# -- processes of their own: the SMTP clients and the sink ---------------------------------------------


def _send_all(port: int, raws: list[tuple[str, bytes]], clients: int, out) -> None:
    """In a child process: send every mail, ``clients`` connections at once; put each one's 250 time, its first
    attempt's time and how many 451s (the server busy: smtp_backlog) were answered and tried again."""
    done: dict[int, float] = {}
    first: dict[int, float] = {}
    busy = [0]
    lock = threading.Lock()

    def client(k: int) -> None:
        try:
            with smtplib.SMTP("127.0.0.1", port, timeout=120) as smtp:
                for n in range(k, len(raws), clients):
                    sender, raw = raws[n]
                    started = time.time()
                    while True:
                        try:
                            smtp.sendmail(sender, [SERVER_ADDR], raw)
                            break
                        except smtplib.SMTPSenderRefused as refused:  # 451: busy, tried again as a server would
                            if refused.smtp_code != 451:
                                raise
                            with lock:
                                busy[0] += 1
                            smtp.rset()
                            time.sleep(BUSY_PAUSE)
                    with lock:
                        done[n], first[n] = time.time(), started
        except (OSError, smtplib.SMTPException) as error:  # told, and the mails not sent are not waited for
            print(f"client {k}: {type(error).__name__}: {error}", flush=True)

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put((done, first, busy[0]))


def send_from_child(port: int, raws, clients: int) -> tuple[dict[int, float], dict[int, float], int]:
    """Send ``raws`` to ``port`` from a process of its own; returns each mail's 250 time and first attempt's
    time (time.time), and how many 451s (busy) were tried again."""
    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    child = context.Process(target=_send_all, args=(port, raws, clients, out))
    child.start()
    done = out.get(timeout=900)
    child.join()
    return done


def _sink(ready, count, stop) -> None:
    """In a child process: an SMTP server that takes every message and keeps nothing but a count."""
    from pbem.server.mail.smtpd import start_smtpd

    def take(raw: bytes) -> None:
        with count.get_lock():
            count.value += 1

    controller = start_smtpd(take, return_path=False)
    ready.put(controller.port)
    stop.wait()
    controller.stop()


class Sink:
    """A bare SMTP sink on loopback in a process of its own (``port``, ``count``, ``stop()``)."""

    def __init__(self):
        context = multiprocessing.get_context("spawn")
        ready = context.Queue()
        self.count = context.Value("i", 0)
        self._stop = context.Event()
        self.child = context.Process(target=_sink, args=(ready, self.count, self._stop), daemon=True)
        self.child.start()
        self.port = ready.get(timeout=60)

    def stop(self) -> None:
        self._stop.set()
        self.child.join(timeout=30)


# -- the stages, in this process ---------------------------------------------------------------------


class Profiled:
    """cProfile over the calling thread and, given an event loop, that loop's thread too."""

    def __init__(self, on: bool):
        self.on = on
        self.profiles: list[cProfile.Profile] = []

    def start(self, loop=None) -> None:
        if not self.on:
            return
        mine = cProfile.Profile()
        self.profiles.append(mine)
        mine.enable()
        if loop is not None:
            theirs = cProfile.Profile()
            self.profiles.append(theirs)
            loop.call_soon_threadsafe(theirs.enable)  # enabled in the loop's own thread

    def wrap(self, function):
        """``function`` profiled in whatever thread calls it (the receiver's executor)."""
        if not self.on:
            return function
        profile = cProfile.Profile()
        self.profiles.append(profile)

        def profiled(*args):
            return profile.runcall(function, *args)

        return profiled

    def stop(self, loop=None) -> None:
        if not self.on:
            return
        self.profiles[0].disable()
        if loop is not None:
            stopped = threading.Event()
            loop.call_soon_threadsafe(lambda: (self.profiles[1].disable(), stopped.set()))
            stopped.wait(10)

    def text(self, lines: int = 25) -> str:
        if not self.on:
            return ""
        out = io.StringIO()
        stats = None
        for profile in self.profiles:
            if stats is None:
                stats = pstats.Stats(profile, stream=out)
            else:
                stats.add(profile)
        stats.sort_stats("cumulative").print_stats(lines)
        stats.sort_stats("tottime").print_stats(lines)
        return out.getvalue()


def timed_receiver(name: str, deliver, raws, clients: int, profile: bool, receipts=None) -> Stage:
    """The receiver (pbem.server.mail.smtpd) with ``deliver`` as its hook: N mails from a child process
    (``receipts``: the ``inbox.Receipts`` behind ``deliver``, whose storing thread is profiled too)."""
    from pbem.server.mail.smtpd import start_smtpd

    prof = Profiled(profile)
    if receipts is not None:
        receipts._store = prof.wrap(receipts._store)  # runs in the receipts' own thread
    controller = start_smtpd(prof.wrap(deliver), return_path=True)
    try:
        prof.start(controller.loop)
        cpu, wall = time.process_time(), time.perf_counter()
        send_from_child(controller.port, raws, clients)[0]
        cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        prof.stop(controller.loop)
    finally:
        controller.stop()
    return Stage(name, len(raws), cpu, wall, prof.text())


def in_one_process(made: Mails, clients: int = 4, profile: bool = False, say=print) -> list[Stage]:
    """The four stages on the bench's database, in this process."""
    from pbem.server import inbox
    from pbem.server.mail.outbox import Sender
    from pbem.server.service import Service
    from pbem.server.store import Store

    bare, _ = bare_store(made.database.parent / "bare.sqlite3")
    stages = [timed_receiver("bare receiver (aiosmtpd + one INSERT and commit)", bare, made.raws, clients, profile)]
    store = Store(made.database)
    service = Service(store)
    try:
        stages.append(timed_receiver("receiver (aiosmtpd + inbox.receive)",
                                     lambda raw: inbox.receive(service, raw, "smtp"), made.raws, clients, profile))
        receipts = inbox.Receipts(service)
        try:
            stages.append(timed_receiver("receiver, a commit a round (inbox.Receipts, as pbem serve)",
                                         receipts.receive, [(a, _resent(raw)) for a, raw in made.raws], clients,
                                         profile, receipts))
        finally:
            receipts.stop()
        say(f"  the receiver stored {len(made.raws)} mails in {receipts.rounds} commits")
        stored = len(store.pending_inbound())
        for game_id, side, key in made.seats:  # warm: each game replayed, each key proven once
            service.game(game_id)
            service.check_key(game_id, side, key)
        prof = Profiled(profile)
        prof.start()
        with Traced(store.db.conn) as traced:
            cpu, wall = time.process_time(), time.perf_counter()
            done = inbox.process_pending(service)
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
        prof.stop()
        stages.append(Stage("process (inbox.process_pending, warm cache)", done, cpu, wall, prof.text()))
        say(f"  processing, a mail: {traced.per(done)}")
        accepted = store.query_one("SELECT COUNT(*) AS n FROM inbound WHERE status = 'processed'"
                                   " AND json_extract(result, '$.orders') = 1")["n"]
        queued = store.query_one("SELECT COUNT(*) AS n FROM outbox WHERE status = 'queued'")["n"]
        say(f"  {stored} stored, {done} processed ({accepted} orders accepted), {queued} answers queued")
        sink = Sink()
        try:
            sender = Sender(store, relay=("127.0.0.1", sink.port), from_addr=SERVER_ADDR, domain="load.invalid")
            prof = Profiled(profile)
            prof.start()
            cpu, wall = time.process_time(), time.perf_counter()
            sent = sender.send_due()
            cpu, wall = time.process_time() - cpu, time.perf_counter() - wall
            prof.stop()
            stages.append(Stage("send (outbox Sender to a bare SMTP sink)", sent, cpu, wall, prof.text()))
            end = time.monotonic() + 30
            while sink.count.value < sent and time.monotonic() < end:
                time.sleep(0.05)
            say(f"  {sent} answers sent, {sink.count.value} taken by the sink")
        finally:
            sink.stop()
    finally:
        store.close()
    return stages


# -- pbem serve ------------------------------------------------------------------------------------


def process_cpu(pid: int) -> float:
    """Seconds of CPU used by process ``pid`` (every thread; its children apart), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


@dataclass
class Served:
    mails: int
    cpu: float
    wall: float  # first mail sent -> last acknowledgement delivered
    p50: float
    p99: float
    acknowledged: int
    p99_sent: float = 0.0  # first attempt -> acknowledgement (the 451s' waits included)
    busy: int = 0  # 451s answered while too much stored mail waited (smtp_backlog), each tried again

    @property
    def ms(self) -> float:
        return self.cpu * 1000 / max(1, self.mails)


def in_serve(made: Mails, folder: Path, clients: int = 4, say=print, smtp_process: bool = False) -> Served:
    """The same mails through a real ``pbem serve``, after a warm-up round of a mail a game
    (``smtp_process``: its receiver in a process of its own, whose CPU is counted too)."""
    from pbem.tools.harness import Relay, ServerProcess

    acks: dict[str, float] = {}
    lock = threading.Lock()

    def noted(delivery, raw) -> None:
        if delivery.in_reply_to:
            with lock:
                acks.setdefault(delivery.in_reply_to, delivery.at)

    relay = Relay(noted, keep_raw=False)
    server = ServerProcess(folder, relay.port, smtp_connections_per_address=0,  # every client is 127.0.0.1
                           smtp_sender_messages=0,  # a bot sends more than a player's hourly cap
                           smtp_process=smtp_process)
    try:
        server.start()
        warm = list(made.first.values())
        send_from_child(server.smtp_port, warm, clients)
        end = time.monotonic() + 300
        while len(acks) < len(warm) and time.monotonic() < end:
            time.sleep(0.05)
        pids = [server.proc.pid] + (receiver_pids(server) if smtp_process else [])
        cpu0, wall0 = sum(process_cpu(p) for p in pids), time.time()
        done, first, busy = send_from_child(server.smtp_port, made.raws, clients)
        ids = [_message_id(raw) for n, (_, raw) in enumerate(made.raws) if n in done]  # those the server took
        end = time.monotonic() + 600
        while sum(1 for i in ids if i in acks) < len(ids) and time.monotonic() < end:
            time.sleep(0.02)
        cpu = sum(process_cpu(p) for p in pids) - cpu0
        with lock:
            delays = [acks[_message_id(raw)] - done[n] for n, (_, raw) in enumerate(made.raws)
                      if n in done and _message_id(raw) in acks]
            offered = [acks[_message_id(raw)] - first[n] for n, (_, raw) in enumerate(made.raws)
                       if n in done and _message_id(raw) in acks]
            last = max((acks[i] for i in ids if i in acks), default=time.time())
        return Served(len(ids), cpu, last - wall0, percentile(delays, 50) or 0, percentile(delays, 99) or 0,
                      len(delays), percentile(offered, 99) or 0, busy)
    finally:
        server.stop()
        relay.stop()


def receiver_pids(server) -> list[int]:
    """The server's receiver process (its children at the server's own priority: not a drawing worker's)."""
    mine = os.getpriority(os.PRIO_PROCESS, server.proc.pid)
    found = []
    for pid in server.group():
        try:
            command = Path(f"/proc/{pid}/cmdline").read_bytes()
            if pid != server.proc.pid and os.getpriority(os.PRIO_PROCESS, pid) == mine and b"spawn_main" in command \
                    and _parent(pid) == server.proc.pid:
                found.append(pid)
        except OSError:
            continue
    return found


def _parent(pid: int) -> int:
    return int(Path(f"/proc/{pid}/stat").read_text().rpartition(")")[2].split()[1])


def _resent(raw: bytes) -> bytes:
    """The same mail under another Message-ID (stored as a mail of its own, not a copy)."""
    return raw.replace(b"Message-ID: <bench.", b"Message-ID: <again.", 1)


def _message_id(raw: bytes) -> str:
    head = raw.split(b"\n\n", 1)[0]
    for line in head.splitlines():
        if line.lower().startswith(b"message-id:"):
            return line.split(b":", 1)[1].strip().decode()
    return ""


# -- the command -----------------------------------------------------------------------------------


def mailbench(mails: int = 1000, games: int = 2, rulesets=GAMES, clients: int = 4, profile: bool = False,
              serve: bool = False, workdir=None, say=print, smtp_process: bool = False) -> list[Stage]:
    """Every stage, printed as ms of CPU a mail and as a ratio to the bare receiver."""
    folder = Path(tempfile.mkdtemp(prefix="pbem-mailbench-", dir=workdir))
    try:
        say(f"pbem mailbench: {mails} orders mails, {games} games each of {', '.join(rulesets)}, {clients} SMTP "
            f"clients ({os.cpu_count()} cores, load average {_load()})")
        (folder / "one").mkdir()
        made = make_mails(folder / "one", mails, games, rulesets, say, times=2)  # two receivers
        stages = in_one_process(made, clients, profile, say)
        bare = stages[0].ms
        say(f"in one process (load average {_load()}):")
        say(f"  {'stage':60} {'ms CPU a mail':>13} {'x bare':>7} {'mails/s':>8}")
        for stage in stages:
            say(f"  {stage.name:60} {stage.ms:13.3f} {stage.ms / bare if bare else 0:7.2f} "
                f"{stage.mails / stage.wall if stage.wall else 0:8.0f}")
        total = sum(s.ms for s in stages[2:])
        say(f"  {'the server, all stages (a round a commit + process + send)':60} {total:13.3f} "
            f"{total / bare if bare else 0:7.2f} {1000 / total if total else 0:8.0f} (one core's worth)")
        say(f"  goal: 400 mails/s on 2 cores shared with the load generator: about 2.5 ms a mail "
            f"({total / 2.5:.2f} of it used)")
        if profile:
            for stage in stages:
                say(f"\n--- profile: {stage.name} ---\n{stage.profile}")
        if serve:
            (folder / "serve").mkdir()
            served_mails = make_mails(folder / "serve", mails, games, rulesets, say)
            served = in_serve(served_mails, folder / "serve", clients, say, smtp_process)
            how = "its receiver in a process of its own (smtp_process), both processes' CPU" if smtp_process else \
                "one process"
            say(f"in pbem serve, {how} (load average {_load()}): {served.acknowledged} of {served.mails} acknowledged; "
                f"server CPU {served.ms:.3f} ms a mail ({served.ms / bare if bare else 0:.2f} x bare), "
                f"{served.mails / served.wall if served.wall else 0:.0f} mails/s acknowledged, "
                f"250 -> acknowledgement p50 {served.p50 * 1000:.0f} ms, p99 {served.p99 * 1000:.0f} ms (first "
                f"attempt -> acknowledgement p99 {served.p99_sent * 1000:.0f} ms, {served.busy} busy 451s tried "
                f"again); the server "
                f"used {served.cpu / served.wall if served.wall else 0:.2f} of a core (a process's Python runs on one "
                f"core at a time)")
            rate, limit = served.mails / served.wall if served.wall else 0, stages[0].mails / stages[0].wall
            say(f"  acknowledged a second {rate:.0f} against the bare receiver's {limit:.0f} in this run: "
                f"{rate / limit if limit else 0:.2f} (goal >= 0.4: {'met' if rate >= 0.4 * limit else 'NOT met'})")
        return stages
    finally:
        shutil.rmtree(folder, ignore_errors=True)


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())
