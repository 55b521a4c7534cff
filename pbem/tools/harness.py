"""The harness that drives a real pbem server from tests and tools.

``ServerProcess`` runs ``pbem serve`` in a subprocess on loopback, on its own
SQLite file; its outgoing mail goes to a ``Relay`` in the calling process (an
SMTP server, aiosmtpd on loopback) that records each delivery. ``orders_mail``
and ``send_mail`` build and send players' mail to the server's SMTP receiver;
``Players`` are bots behind the relay that answer each report with their
orders marked FINAL, retrying until the server answers 250. Small helpers:
``free_port``, ``wait_until``, ``iso``, ``epoch``, ``percentile``,
``seconds``, ``integrity``, ``read_only``.

Used by ``pbem loadtest`` (pbem/tools/loadtest.py: the server process and
the helpers; its clients and sink are pbem/tools/loadgen.py's), ``pbem
loadtest --scale`` (the relay too), tests/test_kill.py, tests/test_backup.py
and tests/test_loadtest.py.
"""

from __future__ import annotations

import email
import email.parser
import email.policy
import json
import math
import os
import queue
import signal
import smtplib
import socket
import sqlite3
import subprocess
import sys
import threading
import time
from dataclasses import dataclass
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pbem
from pbem.server.mail.smtpd import start_smtpd
from pbem.tools.loadgen import orders_text

SERVER_ADDR = "pbem@load.invalid"
SERVER_DOMAIN = "load.invalid"
BOT_DOMAIN = "bots.invalid"
PACKAGE_ROOT = Path(pbem.__path__[0]).resolve().parent  # the checkout this code runs from


# -- small helpers ---------------------------------------------------------------------


def free_port(host: str = "127.0.0.1") -> int:
    with socket.socket() as s:
        s.bind((host, 0))
        return s.getsockname()[1]


def wait_until(predicate, timeout: float, interval: float = 0.05, what: str = "a condition"):
    """Poll ``predicate`` until it is true (returns its value) or ``timeout`` runs out."""
    end = time.monotonic() + timeout
    while True:
        value = predicate()
        if value:
            return value
        if time.monotonic() >= end:
            raise TimeoutError(f"gave up after {timeout:.0f} s waiting for {what}")
        time.sleep(interval)


def iso(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def epoch(text: str) -> float:
    return datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp()


def percentile(values, p: float) -> float | None:
    """The p-th percentile (nearest rank) of ``values``; None when empty."""
    values = sorted(values)
    if not values:
        return None
    rank = max(1, math.ceil(p / 100 * len(values)))
    return values[rank - 1]


def seconds(value: float | None) -> str:
    return "-" if value is None else f"{value:.2f} s"


def integrity(path) -> str:
    """PRAGMA integrity_check of a database file (read by a fresh connection)."""
    conn = sqlite3.connect(str(path), timeout=30)
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def read_only(path) -> sqlite3.Connection:
    conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True, timeout=30, check_same_thread=False)
    conn.row_factory = sqlite3.Row
    return conn


# -- the relay ------------------------------------------------------------------------------


@dataclass
class Delivery:
    """One message the relay took from the server."""

    at: float  # time.time() when it arrived
    to: str
    subject: str
    message_id: str
    in_reply_to: str
    size: int
    is_report: bool  # a day's report: the map and the view attached
    raw: bytes | None = None


_HEADERS = email.parser.BytesHeaderParser(policy=email.policy.compat32)


def attached_json(raw: bytes, name: str = "view.json"):
    """The JSON attachment ``name`` of a raw message, or None."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    for part in msg.iter_attachments():
        if part.get_filename() == name:
            content = part.get_content()
            return json.loads(content if isinstance(content, str) else content.decode())
    return None


class Relay:
    """The outgoing relay of the server under test: an SMTP server on loopback
    that notes every message (headers only unless ``keep_raw``) and hands it to
    ``on_message(delivery, raw)``."""

    def __init__(self, on_message=None, keep_raw: bool = True):
        self.on_message = on_message
        self.keep_raw = keep_raw
        self.deliveries: list[Delivery] = []
        self.lock = threading.Lock()
        self.controller = start_smtpd(self._deliver, return_path=False)

    @property
    def port(self) -> int:
        return self.controller.port

    def _deliver(self, raw: bytes) -> None:
        at = time.time()
        cut = [i for i in (raw.find(b"\r\n\r\n"), raw.find(b"\n\n")) if i >= 0]
        head = _HEADERS.parsebytes(raw[:min(cut)] if cut else raw)
        delivery = Delivery(
            at=at, to=str(head.get("To", "")).strip().lower(), subject=" ".join(str(head.get("Subject", "")).split()),
            message_id=str(head.get("Message-ID", "")).strip(), in_reply_to=str(head.get("In-Reply-To", "")).strip(),
            size=len(raw), is_report=b'filename="view.json"' in raw and b'filename="map.png"' in raw,
            raw=raw if self.keep_raw else None)
        with self.lock:
            self.deliveries.append(delivery)
        if self.on_message is not None:
            self.on_message(delivery, raw)

    def snapshot(self) -> list[Delivery]:
        with self.lock:
            return list(self.deliveries)

    def stop(self) -> None:
        self.controller.stop()


# -- the server in a subprocess -------------------------------------------------------------------


def _toml_value(value) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, (int, float)):
        return repr(value)
    return json.dumps(str(value))  # a JSON string is a TOML basic string


class ServerProcess:
    """``pbem serve`` as a subprocess on loopback: SMTP in on ``smtp_port``
    (the same port at every start), mail out to the relay at ``relay_port``."""

    def __init__(self, instance, relay_port: int, smtp_port: int | None = None, web_port: int | None = None,
                 tick: float = 0.2, **settings):
        self.instance = Path(instance).resolve()
        self.instance.mkdir(parents=True, exist_ok=True)
        self.smtp_port = smtp_port or free_port()
        self.web_port = web_port or free_port()
        self.config_path = self.instance / "pbem.toml"
        self.log_path = self.instance / "server.log"
        values = dict(instance=str(self.instance), smtp_host="127.0.0.1", smtp_port=self.smtp_port,
                      web_host="127.0.0.1", web_port=self.web_port, relay_host="127.0.0.1", relay_port=relay_port,
                      tick_seconds=tick, demo=False, from_addr=SERVER_ADDR, domain=SERVER_DOMAIN,
                      secret_key="load-test-secret")
        values.update(settings)
        self.config_path.write_text("".join(f"{k} = {_toml_value(v)}\n" for k, v in values.items()))
        self.proc: subprocess.Popen | None = None
        self.starts = 0

    @property
    def database(self) -> Path:
        return self.instance / "pbem.sqlite3"

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.web_port}"

    def command(self) -> list[str]:
        return [sys.executable, "-m", "pbem.cli", "serve", "--config", str(self.config_path)]

    @staticmethod
    def environment() -> dict:
        env = {k: v for k, v in os.environ.items() if not k.startswith("PBEM_")}
        env["PYTHONUNBUFFERED"] = "1"
        env["PYTHONPATH"] = os.pathsep.join([str(PACKAGE_ROOT)] + [p for p in [env.get("PYTHONPATH")] if p])
        return env

    def start(self, timeout: float = 60) -> None:
        with open(self.log_path, "ab") as log:
            log.write(f"--- start {self.starts + 1} at {iso(datetime.now(timezone.utc))}\n".encode())
            log.flush()
            self.proc = subprocess.Popen(self.command(), stdout=log, stderr=subprocess.STDOUT,
                                         stdin=subprocess.DEVNULL, cwd=self.instance, env=self.environment(),
                                         start_new_session=True)  # its own process group: its helpers too
        self.starts += 1
        end = time.monotonic() + timeout
        while not self.smtp_ready():
            if self.proc.poll() is not None:
                raise RuntimeError(f"the server exited with {self.proc.returncode}:\n{self.log_tail()}")
            if time.monotonic() > end:
                self.kill()
                raise TimeoutError(f"the server did not listen within {timeout:.0f} s:\n{self.log_tail()}")
            time.sleep(0.05)

    def smtp_ready(self) -> bool:
        try:
            with socket.create_connection(("127.0.0.1", self.smtp_port), timeout=0.5) as s:
                s.settimeout(1.0)
                return s.recv(3) == b"220"
        except OSError:
            return False

    @property
    def alive(self) -> bool:
        return self.proc is not None and self.proc.poll() is None

    orphans = 0  # helper processes (a map-drawing worker, its tracker) a dead server left behind

    def kill(self) -> None:
        """SIGKILL the server process: no clean-up of any kind, as a crash would leave it.
        Helper processes it leaves running are counted in ``orphans`` and then killed."""
        if self.proc is not None and self.proc.poll() is None:
            self.proc.send_signal(signal.SIGKILL)
        if self.proc is not None:
            self.proc.wait()
            self._reap()

    def stop(self, timeout: float = 30) -> None:
        """SIGTERM (``pbem serve`` stops cleanly), then SIGKILL if it hangs."""
        if self.proc is None:
            return
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGTERM)
            try:
                self.proc.wait(timeout)
            except subprocess.TimeoutExpired:
                self.proc.send_signal(signal.SIGKILL)
                self.proc.wait()
        self._reap()

    def group(self) -> list[int]:
        """Processes still in the server's process group (Linux /proc; empty elsewhere)."""
        pids = []
        for stat in Path("/proc").glob("[0-9]*/stat"):
            try:
                fields = stat.read_text().rpartition(")")[2].split()
            except OSError:
                continue
            if int(fields[2]) == self.proc.pid:  # the process group: the server's pid (its own session)
                pids.append(int(stat.parent.name))
        return pids

    def _reap(self) -> None:
        left = self.group()
        if left:
            self.orphans += len(left)
            try:
                os.killpg(self.proc.pid, signal.SIGKILL)
            except ProcessLookupError:
                pass

    def log_tail(self, lines: int = 40) -> str:
        try:
            return "\n".join(self.log_path.read_text(errors="replace").splitlines()[-lines:])
        except OSError:
            return ""


# -- mail ----------------------------------------------------------------------------------------


def orders_mail(sender: str, game_id: int, side: str, key: str, view: dict, body: str, message_id: str,
                final: bool = False, marker: str = "") -> bytes:
    """A player's orders mail: the header line with the key, the orders, FINAL if asked."""
    text = orders_text(game_id, side, key, body, final, marker)
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = SERVER_ADDR
    msg["Subject"] = f"Orders {view['turn_label']}"
    msg["Message-ID"] = message_id
    msg.set_content(text)
    return msg.as_bytes()


def send_mail(port: int, raw: bytes, sender: str, timeout: float = 10, smtp: smtplib.SMTP | None = None) -> None:
    """Send one message to the server's SMTP receiver; returns on its 250 (raises otherwise)."""
    if smtp is not None:
        smtp.sendmail(sender, [SERVER_ADDR], raw)
        return
    with smtplib.SMTP("127.0.0.1", port, timeout=timeout) as conn:
        conn.sendmail(sender, [SERVER_ADDR], raw)


# -- bot players for the kill and backup tests ------------------------------------------------------


@dataclass
class Seat:
    game_id: int
    side: str
    key: str
    address: str
    seed: int
    silent: bool = False  # never sends orders: its days are resolved at the deadline


def bot_marker(game_id: int, day: int, side: str) -> str:
    """A comment line that makes a bot's orders for one day findable in the game log."""
    return f"mail {game_id}-{day}-{side}"


def bot_mail(ruleset, scenario, seat: Seat, view: dict, message_id: str) -> bytes:
    """The simple bot's orders mail for the day ``view`` shows, marked FINAL."""
    body = ruleset.bots()["bot"].orders(scenario, view, seat.seed)
    return orders_mail(seat.address, seat.game_id, seat.side, seat.key, view, body, message_id, final=True,
                       marker=bot_marker(seat.game_id, view["day"], seat.side))


@dataclass
class Accepted:
    """An orders mail the server answered 250 (perhaps more than once, when resent)."""

    message_id: str
    game_id: int
    side: str
    day: int
    marker: str
    accepted_at: float
    times: int = 1


class Players:
    """Bots behind the relay. Each reads the reports mailed to its seat (the
    view attached as view.json) and, when its side moves next, mails its
    orders with FINAL by SMTP, retrying until the server answers 250 -- as a
    mail server would, with the same Message-ID every time."""

    def __init__(self, ruleset, scenario, port: int, seats: list[Seat], tag: str = "run"):
        self.ruleset = ruleset
        self.scenario = scenario
        self.port = port
        self.tag = tag
        self.seats = {s.address.lower(): s for s in seats}
        self.answered: set[tuple[int, int, str]] = set()
        self.accepted: dict[str, Accepted] = {}
        self.lock = threading.Lock()
        self.outgoing: queue.Queue = queue.Queue()
        self.failures = 0  # SMTP attempts that did not end in 250
        self.stopping = threading.Event()
        self.on_sending = None  # called with (seat, day) before each first attempt
        self.on_accepted = None  # called with the Accepted after each 250
        self.errors: list[str] = []
        self.thread = threading.Thread(target=self._work, name="players", daemon=True)
        self.thread.start()

    def mail_for(self, seat: Seat, view: dict, message_id: str) -> bytes:
        return bot_mail(self.ruleset, self.scenario, seat, view, message_id)

    def on_message(self, delivery: Delivery, raw: bytes) -> None:
        """The relay's hook: answer a report (or welcome) whose view says this seat moves next."""
        seat = self.seats.get(delivery.to)
        if seat is None or seat.silent or b'filename="view.json"' not in raw:
            return
        try:
            view = attached_json(raw)
        except Exception as exc:
            self.errors.append(f"unreadable view in {delivery.subject!r}: {exc}")
            return
        if not view or view.get("over") or seat.side not in view.get("to_move", ()):
            return
        key = (seat.game_id, view["day"], seat.side)
        with self.lock:
            if key in self.answered:
                return
            self.answered.add(key)
        self.outgoing.put((seat, view))

    def _work(self) -> None:
        while not self.stopping.is_set():
            try:
                seat, view = self.outgoing.get(timeout=0.1)
            except queue.Empty:
                continue
            message_id = f"<orders.{seat.game_id}.{view['day']}.{seat.side}.{self.tag}@{BOT_DOMAIN}>"
            try:
                raw = self.mail_for(seat, view, message_id)
            except Exception as exc:
                self.errors.append(f"game {seat.game_id} {seat.side}: the bot failed: {exc}")
                continue
            if self.on_sending:
                self.on_sending(seat, view["day"])
            while not self.stopping.is_set():
                try:
                    send_mail(self.port, raw, seat.address, timeout=10)
                except (OSError, smtplib.SMTPException):
                    self.failures += 1
                    time.sleep(0.1)
                    continue
                with self.lock:
                    found = self.accepted.get(message_id)
                    if found is None:
                        found = self.accepted[message_id] = Accepted(
                            message_id, seat.game_id, seat.side, view["day"],
                            bot_marker(seat.game_id, view["day"], seat.side), time.time(), 0)
                    found.times += 1
                if self.on_accepted:
                    self.on_accepted(found)
                break

    def stop(self) -> None:
        self.stopping.set()
        self.thread.join(5)
