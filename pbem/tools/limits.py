"""The limits the server's figures are measured against, in the same run (issue 15): ``pbem loadtest
--limits``.

The machine is shared and its speed drifts through the day, so an absolute figure says little; each
figure of a load run is printed beside what the bare parts do on the same machine in the same minutes:

- **the bare receiver**: the same aiosmtpd receiver as the server's (pbem.server.mail.smtpd), whose
  hook only stores each message in a SQLite table, one commit each (WAL, as the store) -- nothing
  parsed, nothing answered. Mails a second from the load test's own client process
  (pbem.tools.loadgen: the same number of connections, prebuilt mails), and the time from the start
  of each mail to its 250 (p50, p99), so that the load run's ratio compares like with like.
- **the load generator's ceiling**: the same client process against a sink that stores nothing
  (pbem.tools.loadgen's, in a process of its own): what the generator itself can offer on this
  machine, and the CPU it and the sink take a mail.
- **SQLite's commit rate**: one row inserted and committed at a time into a WAL file in the same
  folder, for a second or so: commits a second.
- **one raw map render**: the game's first scenario's opening map, the SVG drawn once (not timed)
  and rasterised by resvg at the mailed width, best of three.

``ratio(figure, limit)`` is what the server achieves as a share of the limit (1.0: as fast as the bare
part; for a time, the limit divided by the figure).
"""

from __future__ import annotations

import os
import sqlite3
import tempfile
import threading
import time
from dataclasses import dataclass
from pathlib import Path

from pbem.tools.harness import ServerProcess, percentile
from pbem.tools.loadgen import Clients, Sink, orders_template

BODY = "".join(f"A{i} MOVE TO L{i} BY ROAD\n" for i in range(30))  # after the header line: about a day's orders


@dataclass
class Limits:
    receiver_rate: float  # mails a second, stored one commit each
    receiver_p50: float  # seconds from the start of a mail to its 250
    receiver_p99: float
    receiver_mails: int
    commit_rate: float  # commits a second
    render_seconds: float  # one map rasterised, best of three
    render_what: str
    load: tuple = ()  # the machine's load average when they were measured
    clients: int = 0  # the client process's connections
    generator_rate: float = 0.0  # mails a second the client process offers a sink that stores nothing
    generator_p99: float = 0.0
    generator_cpu: float = 0.0  # CPU seconds a mail in the client process
    sink_cpu: float = 0.0  # CPU seconds a mail in the sink

    def lines(self) -> list[str]:
        return [
            f"limits (measured in this run, {os.cpu_count()} cores, load average "
            f"{' '.join(f'{x:.1f}' for x in self.load)}):",
            f"  bare receiver (aiosmtpd, each message stored in SQLite, one commit): {self.receiver_mails} mails, "
            f"{self.receiver_rate:.0f} mails/s; mail -> 250 p50 {self.receiver_p50 * 1000:.1f} ms, "
            f"p99 {self.receiver_p99 * 1000:.1f} ms (fed by the load generator's client process, {self.clients} "
            f"connections)",
            f"  the load generator's ceiling (its client process, {self.clients} connections, against a sink storing "
            f"nothing, in its own process): {self.generator_rate:.0f} mails/s; 250 p99 "
            f"{self.generator_p99 * 1000:.1f} ms; CPU a mail: clients {self.generator_cpu * 1000:.2f} ms, "
            f"sink {self.sink_cpu * 1000:.2f} ms",
            f"  SQLite commits (one row each, WAL): {self.commit_rate:.0f}/s",
            f"  one raw map render ({self.render_what}): {self.render_seconds * 1000:.0f} ms",
        ]

    def __str__(self) -> str:
        return "\n".join(self.lines())


def ratio(figure: float | None, limit: float | None) -> str:
    """``figure / limit`` printed to two places (``-`` when either is unknown or the limit is 0)."""
    if figure is None or not limit:
        return "-"
    return f"{figure / limit:.2f}"


def flood(port: int, mails: int, connections: int) -> tuple[float, float, float, int, float]:
    """Send ``mails`` orders mails to ``port`` from the load test's client process, as fast as its
    ``connections`` go: (mails a second, p50, p99 of the time to each 250, mails accepted, the client
    process's CPU seconds)."""
    clients = Clients(port, connections, tag="flood", env=ServerProcess.environment())
    try:
        sender = "c1@load.invalid"
        clients.template(1, 0, "Austria", sender, orders_template(sender, 1, "Austria", "0123456789abcdef0123",
                                                                  "6 AM", BODY))
        before = clients.cpu()
        records, _ = clients.run("flood", {"games": [1] * mails})
        used = (clients.cpu() or 0.0) - (before or 0.0)
    finally:
        clients.close()
    accepted = [(started, at) for *_, started, at, _ in records if at is not None]
    took = max((at for _, at in accepted), default=0.0) - min((started for started, _ in accepted), default=0.0)
    latencies = [at - started for started, at in accepted]
    return (len(accepted) / took if took > 0 else 0.0, percentile(latencies, 50) or 0.0,
            percentile(latencies, 99) or 0.0, len(accepted), used)


def bare_store(database: Path):
    """The bare receiver's hook and its connection: each message inserted and committed (one
    transaction a message) in a table of a WAL SQLite file, as the server's store keeps its mail."""
    conn = sqlite3.connect(database, check_same_thread=False, isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE IF NOT EXISTS inbound (id INTEGER PRIMARY KEY, received_at REAL, raw BLOB)")
    lock = threading.Lock()

    def store(raw: bytes) -> None:
        with lock:
            conn.execute("BEGIN IMMEDIATE")
            conn.execute("INSERT INTO inbound (received_at, raw) VALUES (?, ?)", (time.time(), raw))
            conn.execute("COMMIT")

    return store, conn


def bare_receiver(folder: Path, mails: int = 1000, clients: int = 4) -> tuple[float, float, float, int]:
    """(mails a second, p50, p99 of the time to each 250, mails stored) of the bare receiver, fed by
    the load test's client process with ``clients`` connections."""
    from pbem.server.mail.smtpd import start_smtpd

    store, conn = bare_store(folder / "bare-receiver.sqlite3")
    controller = start_smtpd(store, return_path=False)
    try:
        rate, p50, p99, _, _ = flood(controller.port, mails, clients)
    finally:
        controller.stop()
    stored = conn.execute("SELECT COUNT(*) FROM inbound").fetchone()[0]
    conn.close()
    return rate, p50, p99, stored


def generator_ceiling(mails: int = 1000, clients: int = 4) -> tuple[float, float, float, float, int]:
    """(mails a second, p99 to each 250, the clients' and the sink's CPU seconds a mail, mails the sink
    took) of the load test's client process against a sink that stores nothing."""
    sink = Sink(count_only=True, env=ServerProcess.environment())
    try:
        before = sink.cpu() or 0.0
        rate, _, p99, accepted, client_cpu = flood(sink.port, mails, clients)
        sink_cpu = (sink.cpu() or 0.0) - before
    finally:
        took = sink.close()
    return rate, p99, client_cpu / max(1, accepted), sink_cpu / max(1, accepted), took


def commit_rate(folder: Path, seconds: float = 1.0) -> float:
    """Commits a second of one-row transactions on a WAL file in ``folder``."""
    conn = sqlite3.connect(folder / "commits.sqlite3", isolation_level=None)
    conn.execute("PRAGMA journal_mode = WAL")
    conn.execute("CREATE TABLE IF NOT EXISTS t (id INTEGER PRIMARY KEY, v TEXT)")
    done, started = 0, time.perf_counter()
    while time.perf_counter() - started < seconds:
        conn.execute("BEGIN IMMEDIATE")
        conn.execute("INSERT INTO t (v) VALUES ('x')")
        conn.execute("COMMIT")
        done += 1
    took = time.perf_counter() - started
    conn.close()
    return done / took


def opening_map_svg(game: str = "marengo", scenario: str | None = None) -> tuple[str, str]:
    """(SVG, what) of a game's opening map as one side sees it."""
    from pbem.core.chance import Chance
    from pbem.games import ruleset
    from pbem.paths import MAPS

    rules = ruleset(game)
    path = Path(scenario) if scenario and Path(scenario).is_absolute() else (
        MAPS / scenario if scenario else next(iter(rules.scenarios().values())))
    loaded = rules.load_scenario(path)
    state = rules.setup(loaded, {}, Chance(1))
    seat = rules.seats(loaded, {})[0].id
    return rules.render_svg(loaded, rules.view(loaded, state, seat), title="limits"), f"{game}, {path.name}"


def raw_render(game: str = "marengo", scenario: str | None = None, repeat: int = 3) -> tuple[float, str]:
    """(seconds, what): the best of ``repeat`` rasterisations of one map at the mailed width."""
    from pbem.render import render_png

    svg, what = opening_map_svg(game, scenario)
    best = float("inf")
    for _ in range(repeat):
        started = time.perf_counter()
        render_png(svg)
        best = min(best, time.perf_counter() - started)
    return best, f"{what}, 1400 px, best of {repeat}"


def measure(folder=None, mails: int = 1000, clients: int = 4, game: str = "marengo",
            scenario: str | None = None) -> Limits:
    """Every limit, measured now."""
    with tempfile.TemporaryDirectory(prefix="pbem-limits-", dir=folder) as tmp:
        rate, p50, p99, stored = bare_receiver(Path(tmp), mails, clients)
        commits = commit_rate(Path(tmp))
    generator_rate, generator_p99, generator_cpu, sink_cpu, _ = generator_ceiling(mails, clients)
    seconds, what = raw_render(game, scenario)
    return Limits(rate, p50, p99, stored, commits, seconds, what, os.getloadavg(), clients, generator_rate,
                  generator_p99, generator_cpu, sink_cpu)
