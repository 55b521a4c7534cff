"""Hardening figures (issue 14), printed, never asserted: ``pbem measure``.

``hostile-mail``: a real server (``pbem serve`` in a subprocess, as the load
test runs it) with one game; the JSON API is asked for the game (a seat key
as Bearer token) again and again while the server is idle, then while it
receives and processes hostile mails (by default ten of 45,000 empty MIME
parts, 395 KB each, the mail of the issue). Printed: the median and the
slowest answer in each phase, and their ratio.

``footprint``: a whole game of the Marengo scenario played through the
service as the server plays it -- orders by mail, a report with its map and
view.json mailed to each side every day, all of it delivered -- then the
database file's size (after VACUUM, so that only live content counts), then
the same after the retention settings' defaults have passed and ``pbem
prune`` has run; each with the bytes of content by table and column.
"""

from __future__ import annotations

import json
import shutil
import smtplib
import statistics
import tempfile
import threading
import time
import urllib.request
from dataclasses import dataclass
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.server import inbox, retention
from pbem.server.config import Config
from pbem.server.mail.outbox import Sender
from pbem.server.service import Service
from pbem.server.store import Store


def many_parts(parts: int = 45_000, sender: str = "stranger@example.net") -> bytes:
    body = "".join("--b\r\n\r\n" for _ in range(parts)) + "--b--\r\n"
    head = f"From: {sender}\r\nTo: pbem@load.invalid\r\nSubject: parts\r\n"
    return (head + "Content-Type: multipart/mixed; boundary=b\r\n\r\n" + body).encode()


@dataclass
class Latency:
    idle: list[float]
    busy: list[float]
    processed_in: float

    def __str__(self) -> str:
        idle, busy = statistics.median(self.idle), statistics.median(self.busy)
        return (f"idle: {len(self.idle)} answers, median {idle * 1000:.1f} ms, slowest {max(self.idle) * 1000:.1f} ms\n"
                f"during the hostile mail ({self.processed_in:.1f} s to store and process it): {len(self.busy)} "
                f"answers, median {busy * 1000:.1f} ms, slowest {max(self.busy) * 1000:.1f} ms\n"
                f"ratio: median {busy / idle:.2f}, slowest {max(self.busy) / max(self.idle):.2f}")


def hostile_mail(mails: int = 10, parts: int = 45_000, idle_requests: int = 40, workdir=None,
                 server_code: str | None = None) -> Latency:
    from pbem.tools import harness

    folder = Path(workdir or tempfile.mkdtemp(prefix="pbem-hostile-"))
    relay = harness.Relay(keep_raw=False)
    server = harness.ServerProcess(folder / "instance", relay.port, tick=0.5)
    if server_code:  # measure another checkout's server (e.g. the code before the fix)
        root = str(Path(server_code).resolve())
        server.environment = lambda: {**harness.ServerProcess.environment(), "PYTHONPATH": root}
    service = Service(Store(server.database))
    game_id, keys = service.create_game("Measured", {"austria": "a@bots.invalid", "france": "f@bots.invalid"},
                                        settings={"hours": 48})
    service.store.close()
    server.start()
    url = f"{server.url}/api/games/{game_id}?side=austria"
    request = urllib.request.Request(url, headers={"Authorization": f"Bearer {keys['austria']}"})

    def ask() -> float:
        started = time.perf_counter()
        with urllib.request.urlopen(request, timeout=120) as response:
            json.loads(response.read())
        return time.perf_counter() - started

    try:
        harness.wait_until(lambda: _answers(ask), 30, what="the web server")
        idle = [ask() for _ in range(idle_requests)]
        raws = [many_parts(parts, f"stranger{i}@example.net") for i in range(mails)]
        done = threading.Event()

        def send() -> None:
            with smtplib.SMTP("127.0.0.1", server.smtp_port, timeout=300) as smtp:
                for i, raw in enumerate(raws):
                    smtp.sendmail(f"stranger{i}@example.net", [harness.SERVER_ADDR], raw)
            done.set()

        started = time.perf_counter()
        sender = threading.Thread(target=send)
        sender.start()
        busy = []
        while not (done.is_set() and _processed(server.database) >= mails):
            busy.append(ask())
            if time.perf_counter() - started > 600:
                break
        processed_in = time.perf_counter() - started
        for _ in range(5):
            busy.append(ask())
        sender.join()
        return Latency(idle, busy, processed_in)
    finally:
        server.stop()
        relay.stop()
        if workdir is None:
            shutil.rmtree(folder, ignore_errors=True)


def _answers(ask) -> bool:
    try:
        ask()
        return True
    except OSError:
        return False


def _processed(database: Path) -> int:
    from pbem.tools.harness import read_only

    with read_only(database) as conn:
        return conn.execute("SELECT COUNT(*) FROM inbound WHERE status != 'stored'").fetchone()[0]


@dataclass
class Footprint:
    days: int
    before: int
    after: int
    pruned: str
    parts: dict = None  # what holds the bytes before pruning: content bytes by table and column
    parts_after: dict = None
    empty: int = 0  # an empty database of the same schema (a page for each table and index), vacuumed

    GOAL = 1_000_000  # issue 15: at most 1 MB a finished game, every past report and map still available

    def __str__(self) -> str:
        lines = [f"a finished game of {self.days} days, its mail delivered: database {self.before / 1e6:.2f} MB"]
        if self.empty:
            own = self.before - self.empty
            lines.append(f"  the game's own bytes (the database less an empty one, {self.empty / 1e6:.2f} MB of "
                         f"schema that every game on a server shares): {own / 1e6:.2f} MB, "
                         f"{own / self.GOAL:.2f} of the goal of {self.GOAL / 1e6:.0f} MB "
                         f"(the whole file: {self.before / self.GOAL:.2f})")
        if self.parts:
            lines.append("  of which: " + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in self.parts.items()))
        lines.append(f"after the retention defaults have passed and pbem prune: {self.after / 1e6:.2f} MB "
                     f"({100 * self.after / self.before:.1f} %)")
        if self.parts_after:
            lines.append("  of which: " + ", ".join(f"{k} {v / 1e6:.2f} MB" for k, v in self.parts_after.items()))
        lines.append(f"pruned: {self.pruned}")
        return "\n".join(lines)


PARTS = {  # what a game's bytes are, by table and column (content only: SQLite adds pages and indexes)
    "outbox texts inline": "SELECT SUM(length(body)) FROM outbox",
    "outbox HTML inline": "SELECT SUM(COALESCE(length(html), 0)) FROM outbox",
    "outbox texts and HTML kept once (zlib)": "SELECT SUM(length(data)) FROM texts",
    "outbox attachments": "SELECT SUM(length(attachments)) FROM outbox",
    "inbound mail": "SELECT SUM(length(raw)) FROM inbound",
    "log": "SELECT SUM(length(entry)) FROM log",
    "days": "SELECT SUM(length(events) + length(decisions)) FROM days",
    "jobs": "SELECT SUM(length(payload)) FROM jobs",
}


def parts(store) -> dict:
    """Content bytes by table and column (a column missing from the schema counts nothing)."""
    out = {}
    for name, sql in PARTS.items():
        try:
            out[name] = store.db.execute(sql).fetchone()[0] or 0
        except Exception:  # noqa: BLE001 - a figure, not a check
            out[name] = 0
    return out


def footprint(scenario: str = "marengo.toml", seed: int = 1, workdir=None) -> Footprint:
    from pbem.games import ruleset
    from pbem.tools.harness import orders_mail

    bot = ruleset("marengo").bots()["bot"]

    folder = Path(workdir or tempfile.mkdtemp(prefix="pbem-footprint-"))
    now = [datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc)]
    clock = lambda: now[0]  # noqa: E731
    config = Config(instance=str(folder), demo=False)
    store = Store(folder / "pbem.sqlite3", clock=clock)
    service = Service(store, config, clock=clock)
    sender = Sender(store, maildir=str(folder / "maildir"), resolve=service.attachment)  # as the server does
    seats = {"austria": "austria@bots.invalid", "france": "france@bots.invalid"}
    game_id, keys = service.create_game("Footprint", seats, scenario=scenario, seed=seed, settings={"hours": 48})
    try:
        while not service.game(game_id).over:
            game = service.game(game_id)
            for side in game.turn().seats:
                view = game.view(side)
                raw = orders_mail(seats[side], game_id, side, keys[side], view, bot.orders(game.scenario, view, seed),
                                  f"<{game_id}.{game.day}.{side}@bots.invalid>")
                inbox.process(service, inbox.receive(service, raw, "smtp")[0])
            service.resolve_next(game_id)
            service.run_jobs()
            sender.send_due(clock())
            now[0] += timedelta(hours=12)
        days = len(service.game(game_id).days)
        retention.vacuum(store)
        before = (folder / "pbem.sqlite3").stat().st_size
        held = parts(store)
        now[0] += timedelta(days=31)
        pruned = retention.prune(store, config, clock(), service.maps)
        retention.vacuum(store)
        after = (folder / "pbem.sqlite3").stat().st_size
        return Footprint(days, before, after, str(pruned), held, parts(store), empty_size(folder / "empty.sqlite3"))
    finally:
        store.close()
        if workdir is None:
            shutil.rmtree(folder, ignore_errors=True)


DICTIONARY_SIZE = 32768  # zlib's window: a preset dictionary longer is cut to its end


def text_dictionary(maildir) -> bytes:
    """A preset dictionary for the kept texts of mail (pbem.server.store.TEXT_DICTIONARIES), from the report
    mails a finished game delivered into ``maildir`` (``pbem measure footprint --workdir``): the start of a
    mid-game report's text, then its HTML; zlib reads the end of a dictionary most cheaply, so the HTML's
    markup, in every report, comes last."""
    import mailbox

    reports = []
    for msg in mailbox.Maildir(str(maildir), create=False):
        parts = {p.get_content_type(): p.get_payload(decode=True) for p in msg.walk()}
        if "text/html" in parts and any(p.get_filename() == "map.png" for p in msg.walk()):
            reports.append((msg["Date"], parts["text/plain"], parts["text/html"]))
    if not reports:
        raise ValueError(f"no report mail in {maildir}")
    _, text, html = sorted(reports)[len(reports) // 2]
    return (text[:12000] + html)[-DICTIONARY_SIZE:]


def empty_size(path: Path) -> int:
    """The size of an empty database with every migration applied, vacuumed (then removed)."""
    empty = Store(path)
    try:
        retention.vacuum(empty)
        return path.stat().st_size
    finally:
        empty.close()
        for leftover in path.parent.glob(path.name + "*"):
            leftover.unlink()


def resident_mb() -> tuple[float, float]:
    """(resident now, its peak) of this process in MB, from /proc (0.0 where there is none)."""
    now = peak = 0.0
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                now = int(line.split()[1]) / 1024
            elif line.startswith("VmHWM:"):
                peak = int(line.split()[1]) / 1024
    except OSError:
        pass
    return now, peak


def memory(games: int = 10_000, cache: int | None = None, game: str = "marengo", logs: int = 20,
           seed: int = 1, say=None) -> list[str]:
    """Resident memory while ``games`` active games come due one after another, each replayed from
    its log into a cache bounded as the service's is (``cache``: Config.cache_games): the figure of
    issue 15 (<= 500 MB with 10,000 active games). The logs are ``logs`` self-play games of ``game``,
    each stopped at a day drawn from the seed (an active game is somewhere in its course), replayed
    under ``games`` different ids; the resident size is printed as the cache fills and after."""
    import gc
    import random
    from collections import OrderedDict

    from pbem.core.game import Game
    from pbem.games import ruleset
    from pbem.server.service.base import CACHE_GAMES
    from pbem.tools.selfplay import play_game, simple_players

    cache = cache or CACHE_GAMES
    rules = ruleset(game)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    pick = random.Random(seed)
    played = []
    for s in range(seed, seed + logs):
        whole = play_game(rules, scenario, s, simple_players(rules, scenario, {}), options={})
        played.append((s, whole.log[:len(whole.log) * pick.randint(1, 10) // 10]))
    del whole
    gc.collect()
    start = resident_mb()[0]
    kept: OrderedDict[int, Game] = OrderedDict()
    lines = [f"memory: {games} active {game} games coming due one after another, each replayed into a "
             f"cache of {cache} (least recently used out); resident at the start {start:.0f} MB"]
    if say:
        say(lines[0])
    marks = sorted({min(cache, games), min(2 * cache, games), games // 10, games // 2, games} - {0})
    for n in range(1, games + 1):
        s, log = played[n % len(played)]
        kept[n] = Game(rules, scenario, s, log, options={})
        while len(kept) > cache:
            kept.popitem(last=False)
        if n in marks:
            now, peak = resident_mb()
            lines.append(f"  after {n} games: {len(kept)} cached, resident {now:.0f} MB (peak {peak:.0f} MB)")
            if say:
                say(lines[-1])
    return lines
