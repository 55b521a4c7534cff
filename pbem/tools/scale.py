"""``pbem loadtest --scale N --due M``: N active games on a real server, M of them due in the same
minute; prints the time from the first deadline until the last of their reports is delivered
(issue 15's goal: 10,000 games, 1,000 due, <= 10 minutes), beside the drawing limit measured in
the same run (two raw map renders a game-day, on every core), their ratio (issue 35's goal: >= 0.5),
the load average, and where the CPU went from the first deadline to the last report: the machine's
idle share, the server's own process and each drawing worker, in per cent of a core (``CpuWatch``).

The games are made by copying one template game's rows (``copy_games``), not by N calls of
``create_game``: a game's creation pays two scrypt key hashes (about 0.1 s), and every copy keeps
its template's keys, which a scale run does not use (nobody sends orders: a due game is resolved
without them, as a missed day, and its two reports are drawn and mailed as any day's).
"""

from __future__ import annotations

import math
import os
import shutil
import sqlite3
import tempfile
import threading
import time
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.tools.harness import BOT_DOMAIN, Delivery, Relay, ServerProcess, iso, read_only, wait_until

SETTINGS = {"hours": 24, "reminders": []}


def copy_games(path: Path, games: int) -> None:
    """Make games 2..``games`` in the database at ``path`` as copies of game 1 (its rows in games
    and seats; its log, empty at the start, needs none), each seat at an address of its own."""
    conn = sqlite3.connect(str(path))
    try:
        with conn:
            columns = [row[1] for row in conn.execute("PRAGMA table_info(games)") if row[1] not in ("id", "title")]
            listed = ", ".join(columns)
            conn.execute(
                f"WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
                f"INSERT INTO games (id, title, {listed}) SELECT n.i, 'Scale ' || n.i, {listed} "
                f"FROM n JOIN games g ON g.id = 1", (games,))
            seat_columns = [row[1] for row in conn.execute("PRAGMA table_info(seats)")
                            if row[1] not in ("game_id", "email")]
            listed = ", ".join(seat_columns)
            conn.execute(
                f"WITH RECURSIVE n(i) AS (SELECT 2 UNION ALL SELECT i + 1 FROM n WHERE i < ?) "
                f"INSERT INTO seats (game_id, email, {listed}) SELECT n.i, s.side || n.i || '@{BOT_DOMAIN}', {listed} "
                f"FROM n JOIN seats s ON s.game_id = 1", (games,))
    finally:
        conn.close()


def template(folder: Path, games: int, game: str, scenario: str | None) -> Path:
    """A database of ``games`` games, made once in ``folder`` and kept for the next runs."""
    from pbem.games import ruleset
    from pbem.server.service import Service
    from pbem.server.store import Store

    path = folder / f"scale-{games}-{game}-{Path(scenario or 'default').stem}.sqlite3"
    if path.exists():
        return path
    making = folder / f"making-{os.getpid()}.sqlite3"
    store = Store(making)
    rules = ruleset(game)
    first = next(iter(rules.scenarios().values()))
    seats = {seat.id: f"{seat.id}1@{BOT_DOMAIN}" for seat in rules.seats(rules.load_scenario(first), {})}
    Service(store).create_game("Scale 1", seats, game=game, scenario=scenario, seed=1, settings=SETTINGS)
    store.execute("UPDATE outbox SET status = 'sent'")  # its welcome: not what a scale run measures
    store.close()
    copy_games(making, games)
    making.replace(path)
    return path


TICK = os.sysconf("SC_CLK_TCK") if hasattr(os, "sysconf") else 100  # /proc's CPU times are in these


def machine_cpu() -> tuple[float, float]:
    """(busy, idle) CPU seconds of the whole machine since it started (/proc/stat; iowait counts as idle);
    (0, 0) where there is no /proc."""
    try:
        with open("/proc/stat") as stat:
            fields = [int(x) for x in stat.readline().split()[1:9]]
    except (OSError, ValueError):
        return 0.0, 0.0
    idle = fields[3] + fields[4]
    return (sum(fields) - idle) / TICK, idle / TICK


def process_cpu(pid: int) -> float:
    """CPU seconds (user and system) process ``pid`` has used; 0 when it is gone."""
    try:
        with open(f"/proc/{pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / TICK
    except (OSError, ValueError, IndexError):
        return 0.0


def drawing_workers(pid: int) -> list[int]:
    """The server's child processes that are drawing workers (multiprocessing's spawned processes)."""
    found = []
    try:
        tasks = os.listdir(f"/proc/{pid}/task")
    except OSError:
        return []
    for task in tasks:
        try:
            with open(f"/proc/{pid}/task/{task}/children") as children:
                kids = [int(k) for k in children.read().split()]
            for kid in kids:
                with open(f"/proc/{kid}/cmdline", "rb") as cmdline:
                    if b"spawn_main" in cmdline.read():
                        found.append(kid)
        except (OSError, ValueError):
            continue
    return sorted(found)


class CpuWatch:
    """Where the CPU went between ``start()`` and ``stop()``: the machine's idle share, the server's own
    process, each of its drawing workers (the figures of issue 35: the pipeline waits, or it is CPU-bound)."""

    def __init__(self, server_pid: int):
        self.pid = server_pid

    def snapshot(self) -> tuple[float, tuple[float, float], float, dict[int, float]]:
        return (time.monotonic(), machine_cpu(), process_cpu(self.pid),
                {w: process_cpu(w) for w in drawing_workers(self.pid)})

    def start(self) -> None:
        self.first = self.snapshot()

    def stop(self) -> None:
        self.last = self.snapshot()

    def lines(self) -> list[str]:
        (t0, (busy0, idle0), main0, workers0), (t1, (busy1, idle1), main1, workers1) = self.first, self.last
        wall = max(t1 - t0, 1e-9)
        total = (busy1 - busy0) + (idle1 - idle0)
        idle = (idle1 - idle0) / total if total > 0 else float("nan")
        drawing = [workers1[w] - workers0.get(w, 0.0) for w in sorted(workers1)]
        shares = ", ".join(f"{100 * d / wall:.0f}%" for d in drawing) or "none seen"
        return [f"  idle share of the machine over those {wall:.0f} s: {100 * idle:.0f}% (every process's, from "
                f"/proc/stat); CPU of a core: the server's process {100 * (main1 - main0) / wall:.0f}% "
                f"({main1 - main0:.1f} s), "
                f"its drawing workers {shares} ({sum(drawing):.1f} s of drawing in all)"]


def scale_run(games: int = 10_000, due: int = 1_000, game: str = "marengo", scenario: str | None = None,
              workdir=None, window: float = 60.0, drain: float = 3600.0, tick: float = 0.5, say=print) -> str:
    """Run it; returns the printed figures."""
    from pbem.server.backup import backup
    from pbem.tools import limits

    folder = Path(workdir or tempfile.mkdtemp(prefix="pbem-scale-")).resolve()
    folder.mkdir(parents=True, exist_ok=True)
    due = min(due, games)
    started = time.monotonic()
    made = template(folder, games, game, scenario)
    say(f"pbem loadtest --scale: {games} games ready in {time.monotonic() - started:.1f} s ({made.name})")
    raw, what = limits.raw_render(game, scenario)
    cores = os.cpu_count() or 1
    run = folder / f"run-{os.getpid()}"
    shutil.rmtree(run, ignore_errors=True)
    run.mkdir()
    backup(made, run / "pbem.sqlite3")
    far = datetime.now(timezone.utc) + timedelta(days=2)
    conn = sqlite3.connect(str(run / "pbem.sqlite3"))
    with conn:
        conn.execute("UPDATE games SET deadline = ?, next_check = ?", (iso(far), iso(far)))
    conn.close()

    reports: dict[int, set[str]] = {}
    last = [0.0]
    lock = threading.Lock()

    def on_message(delivery: Delivery, _raw: bytes) -> None:
        if not delivery.is_report:
            return
        local = delivery.to.partition("@")[0]
        number = int("".join(c for c in local if c.isdigit()) or 0)
        with lock:
            reports.setdefault(number, set()).add(delivery.to)
            last[0] = max(last[0], delivery.at)

    relay = Relay(on_message, keep_raw=False)
    server = ServerProcess(run, relay.port, tick=tick)
    lines = []
    try:
        server.start(timeout=300)
        # the due games: every game / due-th, deadlines spread over one minute from a few seconds on
        chosen = [1 + (k * games) // due for k in range(due)]
        first = math.ceil(time.time()) + 5.0
        deadlines = {g: first + (k * window) / due for k, g in enumerate(chosen)}
        writer = sqlite3.connect(str(server.database), timeout=60)
        with writer:
            writer.executemany("UPDATE games SET deadline = ?, next_check = ? WHERE id = ?",
                               [(iso(datetime.fromtimestamp(math.floor(w), timezone.utc)),) * 2 + (g,)
                                for g, w in deadlines.items()])
        writer.close()
        watch = CpuWatch(server.proc.pid)
        say(f"  {due} games due from {datetime.fromtimestamp(first, timezone.utc):%H:%M:%S} UTC over {window:.0f} s;"
            f" waiting for their {2 * due} reports")

        def delivered() -> bool:
            with lock:
                return all(len(reports.get(g, ())) >= 2 for g in chosen)

        time.sleep(max(0.0, first - time.time()))
        watch.start()  # at the first deadline
        try:
            wait_until(delivered, timeout=drain + window, interval=0.2, what="the reports of the due games")
            complete = True
        except TimeoutError:
            complete = False
        watch.stop()  # at the last report (within the 0.2 s the wait looks)
        load = os.getloadavg()
        conn = read_only(server.database)
        resolved = conn.execute("SELECT COUNT(DISTINCT game_id) FROM days").fetchone()[0]
        conn.close()
    finally:
        server.stop()
        relay.stop()
        shutil.rmtree(run, ignore_errors=True)
    with lock:
        got = sum(min(2, len(reports.get(g, ()))) for g in chosen)
        finished = last[0]
    took = finished - first if got else float("nan")
    behind = finished - max(deadlines.values()) if got else float("nan")
    limit = 2 * due * raw / cores  # every map drawn raw, on every core at once
    lines.append(f"scale run: {games} active games ({game}), {due} due within {window:.0f} s, load average "
                 f"{' '.join(f'{x:.1f}' for x in load)}, {cores} cores")
    lines.append(f"  reports delivered: {got} of {2 * due}{'' if complete else ' (NOT all: the drain ran out)'};"
                 f" days resolved: {resolved}")
    lines.append(f"  first deadline -> last report delivered: {took:.1f} s (goal <= 600 s: "
                 f"{'met' if complete and took <= 600 else 'NOT met'});"
                 f" last deadline -> last report delivered: {behind:.1f} s")
    lines.append(f"  limit: {2 * due} maps drawn raw on {cores} cores, one raw render {raw * 1000:.0f} ms ({what}):"
                 f" {limit:.1f} s; ratio (limit / run): {limits.ratio(limit, took)} (goal >= 0.5)")
    lines += watch.lines()
    return "\n".join(lines)
