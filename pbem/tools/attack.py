"""The attacks of issue 28 on a real server on loopback, as commands: ``pbem attack``.

``deadlock``: ``pbem serve`` in a subprocess, with one game the clock looks at every tick (a game
against the computer whose computer seat marked its orders FINAL and whose day waits for its
deadline); then threads, each signed in, create games over the JSON API (every seat taken: the game
begins at once) and create-and-join (one seat, then the other by the join form), as fast as the
server answers, for the time asked. Before the fix of the lock order, the server stopped answering
within seconds and SIGTERM did not end it. Said: what was done, the slowest answer, whether a
request went unanswered (``stuck``), and how long the SIGTERM took to end the server.

``connections``: ``pbem serve`` in a subprocess; 1,000 idle TCP connections to its SMTP port (and
150 slow HTTP clients, each sending a request's headers a byte at a time), all to 127.0.0.1 only;
then one HTTP request and one SMTP greeting. Before the fix, waitress's select() failed on a
descriptor past 1023 and the web thread died for good. Said: how many connections the SMTP port
and the web took and kept, whether the web and SMTP still answer, whether the server still runs.

Figures are printed, never asserted (docs/security.md).
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request
from dataclasses import dataclass, field
from pathlib import Path

LOOPBACK = "127.0.0.1"  # the only address these attacks ever connect to
ANSWER_SECONDS = 60.0  # a request unanswered this long: the server is stuck
ADMIN = "admin@attack.invalid"
SMALL = "marengo.toml"


@dataclass
class Deadlock:
    seconds: float
    threads: int
    creations: int = 0
    joins: int = 0
    refused: int = 0  # answers other than the expected (counted, not fatal)
    slowest: float = 0.0
    stuck: str | None = None  # the request left unanswered, if one was
    stop_seconds: float | None = None  # how long SIGTERM took to end the server
    exit_code: int | None = None
    lock: threading.Lock = field(default_factory=threading.Lock, repr=False)

    def __str__(self) -> str:
        return "\n".join([
            f"deadlock attack: {self.threads} threads for {self.seconds:.0f} s against pbem serve",
            f"  games created (each begun at once): {self.creations}",
            f"  games created and then joined:      {self.joins}",
            f"  answers refused or unexpected:      {self.refused}",
            f"  slowest answer:                     {self.slowest:.2f} s",
            f"  the server: {'STUCK: ' + self.stuck if self.stuck else 'answered every request'}",
            f"  SIGTERM ended it in {self.stop_seconds:.1f} s, exit code {self.exit_code}"
            if self.stop_seconds is not None else "  SIGTERM did not end it: killed",
        ])


class Browser:
    """A signed-in browser over urllib: its cookies, the CSRF token of its session."""

    def __init__(self, base: str, token: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        page = self.open(f"/login/{token}").read().decode()
        self.open(f"/login/{token}", {"csrf_token": form_token(page)}).read()
        self.csrf = json.loads(self.open("/api/games").read())["csrf_token"]

    def open(self, path: str, form: dict | None = None, body: dict | None = None):
        data, headers = None, {}
        if form is not None:
            data = urllib.parse.urlencode(form).encode()
        if body is not None:
            data, headers = json.dumps(body).encode(), {"Content-Type": "application/json",
                                                         "X-CSRF-Token": self.csrf}
        request = urllib.request.Request(self.base + path, data=data, headers=headers)
        return self.opener.open(request, timeout=ANSWER_SECONDS)


def form_token(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def prepare(database: Path, threads: int) -> list[str]:
    """The game the clock looks at every tick, and a sign-in link for each thread."""
    from pbem.server.service import Service
    from pbem.server.store import Store
    from pbem.server.web.auth import make_login_token

    service = Service(Store(database))
    service.create_game("Waits on FINAL", {"france": "player@attack.invalid"}, scenario=SMALL, seed=4,
                        settings={"hours": 48, "early": False}, bots={"austria": "strategist"})
    tokens = [make_login_token(service.store, ADMIN, service.now()) for _ in range(threads)]
    service.store.close()
    return tokens


def deadlock(workdir=None, seconds: float = 600, threads: int = 4, server_code: str | None = None) -> Deadlock:
    """Create and join games from ``threads`` threads for ``seconds`` against a real server."""
    from pbem.tools import harness

    folder = Path(workdir or tempfile.mkdtemp(prefix="pbem-deadlock-"))
    server = harness.ServerProcess(folder / "instance", 0, tick=0.2, relay_host="", admin_email=ADMIN)
    if server_code:  # another checkout's server (e.g. the code before the fix)
        root = str(Path(server_code).resolve())
        server.environment = lambda: {**harness.ServerProcess.environment(), "PYTHONPATH": root}
    tokens = prepare(server.database, threads)
    said = Deadlock(seconds, threads)
    server.start()
    try:
        end = time.monotonic() + seconds
        workers = [threading.Thread(target=play, args=(server.url, token, end, said, n), daemon=True)
                   for n, token in enumerate(tokens)]
        for t in workers:
            t.start()
        for t in workers:
            t.join(timeout=seconds + 2 * ANSWER_SECONDS)
        if any(t.is_alive() for t in workers) and said.stuck is None:
            said.stuck = "a thread never came back"
    finally:
        began = time.monotonic()
        server.stop(timeout=60)
        if server.proc.returncode is not None and server.proc.returncode >= 0:
            said.stop_seconds, said.exit_code = time.monotonic() - began, server.proc.returncode
    return said


def play(base: str, token: str, end: float, said: Deadlock, n: int) -> None:
    """One thread of the attack: games created and joined until ``end`` or a request goes unanswered."""
    try:
        browser = Browser(base, token)
    except (OSError, ValueError) as exc:
        said.stuck = f"sign-in failed: {exc}"
        return
    i = 0
    while time.monotonic() < end and said.stuck is None:
        i += 1
        both = i % 2 == 0
        began = time.monotonic()
        try:
            answer = json.loads(browser.open("/api/games", body={
                "game": "marengo", "title": f"Attack {n}.{i}", "seats": ["austria", "france"] if both else ["austria"],
                "settings": {"hours": 48}}).read())
            if not both:
                browser.open(f"/games/{answer['id']}/join", form={"csrf_token": browser.csrf, "side": "france"}).read()
        except urllib.error.HTTPError:  # an answer, though not the one expected
            with said.lock:
                said.refused += 1
            continue
        except OSError as exc:  # no answer in ANSWER_SECONDS, or the server is gone
            said.stuck = f"{type(exc).__name__}: {exc} (after {time.monotonic() - began:.0f} s)"
            return
        with said.lock:
            said.slowest = max(said.slowest, time.monotonic() - began)
            if both:
                said.creations += 1
            else:
                said.joins += 1



@dataclass
class Flood:
    idle: int  # idle connections opened to the SMTP port
    slow: int  # slow HTTP clients
    smtp_kept: int = 0  # idle connections the SMTP receiver greeted (220) and held
    smtp_refused: int = 0  # answered 421 and closed, or closed
    slow_refused: int = 0  # slow clients answered 503 or closed at once
    slow_closed: int = 0  # slow clients the server closed before they finished their request
    slow_left: int = 0  # slow clients still open at the end
    web: str = ""  # the answer to one HTTP request during the flood (from another loopback address)
    smtp: str = ""  # the greeting of one SMTP connection during the flood (from another loopback address)
    web_after: str = ""  # the answer to one HTTP request after it
    alive: bool = False  # the server still runs at the end

    def __str__(self) -> str:
        return "\n".join([
            f"connection flood on 127.0.0.1: {self.idle} idle SMTP connections, {self.slow} slow HTTP clients",
            f"  SMTP: {self.smtp_kept} held, {self.smtp_refused} refused (421) or closed",
            f"  slow HTTP clients: {self.slow_refused} refused at once (503), {self.slow_closed} closed by the server "
            f"before their request was whole, {self.slow_left} still open",
            f"  during the flood: HTTP request -> {self.web or 'no answer'}; SMTP -> {self.smtp or 'no greeting'}",
            f"  after it: HTTP request -> {self.web_after or 'no answer'}; the server "
            + ("still runs" if self.alive else "has ENDED"),
        ])


def connect(port: int, source: str = LOOPBACK) -> socket.socket:
    """A TCP connection to 127.0.0.1 (and nowhere else), from the loopback address ``source``."""
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.bind((source, 0))
    sock.settimeout(10)
    sock.connect((LOOPBACK, port))
    return sock


def http_answer(port: int, source: str, timeout: float = 30) -> str:
    """The status line of one GET / to 127.0.0.1 from ``source`` ('' if none came)."""
    try:
        with connect(port, source) as sock:
            sock.settimeout(timeout)
            sock.sendall(b"GET /api/rulesets HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n")
            return sock.recv(200).split(b"\r\n")[0].decode(errors="replace")
    except OSError as exc:
        return f"({type(exc).__name__})"


def smtp_greeting(port: int, source: str, timeout: float = 30) -> str:
    try:
        with connect(port, source) as sock:
            sock.settimeout(timeout)
            return sock.recv(200).split(b"\r\n")[0].decode(errors="replace")
    except OSError as exc:
        return f"({type(exc).__name__})"


def said_first(sock: socket.socket, wait: float) -> bytes | None:
    """What the server sent first on ``sock`` within ``wait`` seconds (b'': closed; None: nothing yet)."""
    sock.settimeout(wait)
    try:
        return sock.recv(200)
    except socket.timeout:
        return None
    except OSError:
        return b""


def connections(workdir=None, idle: int = 1000, slow: int = 150, slow_seconds: float = 45,
                server_code: str | None = None, **settings) -> Flood:
    """``idle`` idle connections to the SMTP port and ``slow`` slow HTTP clients for ``slow_seconds``,
    all to 127.0.0.1, against a real server; ``settings`` go to its config file."""
    from pbem.server.serve import more_descriptors
    from pbem.tools import harness

    more_descriptors()  # this process holds the attack's connections
    folder = Path(workdir or tempfile.mkdtemp(prefix="pbem-flood-"))
    server = harness.ServerProcess(folder / "instance", 0, tick=1.0, relay_host="", **settings)
    if server_code:
        root = str(Path(server_code).resolve())
        server.environment = lambda: {**harness.ServerProcess.environment(), "PYTHONPATH": root}
    said = Flood(idle, slow)
    server.start()
    held: list[socket.socket] = []
    try:
        for _ in range(idle):
            held.append(connect(server.smtp_port))
        for sock in held:
            first = said_first(sock, 0.2)
            if first and first.startswith(b"220"):
                said.smtp_kept += 1
            else:
                said.smtp_refused += 1
        clients = []
        for _ in range(slow):
            sock = connect(server.web_port)
            sock.sendall(b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n")
            clients.append(sock)
        said.web = http_answer(server.web_port, "127.0.0.2")
        said.smtp = smtp_greeting(server.smtp_port, "127.0.0.2")
        open_ = {sock: True for sock in clients}
        end, first_round = time.monotonic() + slow_seconds, True
        while time.monotonic() < end:
            for sock in clients:
                if not open_[sock]:
                    continue
                answer = said_first(sock, 0.001)
                if answer is not None:  # answered (503) or closed before the request was whole
                    open_[sock] = False
                    if first_round:
                        said.slow_refused += 1
                    else:
                        said.slow_closed += 1
                    continue
                try:
                    sock.send(b"X")  # one byte of a header that never ends
                except OSError:
                    open_[sock] = False
                    said.slow_closed += 1
            first_round = False
            time.sleep(1.0)
        said.slow_left = sum(open_.values())
        for sock in held + clients:
            sock.close()
        said.web_after = http_answer(server.web_port, "127.0.0.2")
        said.alive = server.alive
    finally:
        for sock in held:
            sock.close()
        server.stop(timeout=60)
    return said
