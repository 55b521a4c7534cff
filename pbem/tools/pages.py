"""A small site to look at every page of: the demo game after its first day, a game of a plain
player, a finished game (its replay), a league with a running tournament, on a real server on 127.0.0.1. The accessibility test (tests/test_pages.py) and
the Lighthouse command (scripts/lighthouse) go over the same pages.

    with page_site(tmp_dir) as site:
        for who, paths in site.pages().items(): ...
        cookie = site.cookie(site.admin)   # the session cookie of a signed-in browser
"""

from __future__ import annotations

import contextlib
import re
import threading
from dataclasses import dataclass
from pathlib import Path

from werkzeug.serving import make_server

from pbem.server.config import Config
from pbem.server.httpd import start_httpd
from pbem.server.web.front import FlaskAlone
from pbem.server.leagues.service import Leagues
from pbem.server.serve import make_demo_game
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.server.web import create_app
from pbem.server.web.auth import make_login_token

ADMIN, PLAYER, RIVAL = "admin@example.org", "player@example.org", "rival@example.org"


@dataclass
class PageSite:
    service: Service
    config: Config
    app: object
    demo: int
    other: int
    over: int = 0
    league: int = 0
    tournament: int = 0
    admin: str = ADMIN
    player: str = PLAYER

    @property
    def url(self) -> str:
        return self.config.url

    def pages(self) -> dict[str, list[str]]:
        """Every page, by who sees it (the admin holds the demo's seats and moderates it)."""
        demo, other = self.demo, self.other
        return {
            "signed out": ["/login", "/no-such-page"],
            "player": ["/", "/games/new", f"/games/{other}", "/password", f"/games/{self.over}/replay?day=0",
                       "/leagues", f"/leagues/{self.league}", f"/tournaments/{self.tournament}"],
            "moderator": [f"/games/{demo}?side=", f"/games/{demo}/moderate", f"/games/{demo}/reports/0?side=austria",
                          f"/games/{demo}?side=austria"],
            "admin": ["/admin", f"/games/{demo}?side=france", f"/tournaments/{self.tournament}/console"],
        }

    def who(self, role: str) -> str | None:
        return {"signed out": None, "player": self.player, "moderator": self.admin, "admin": self.admin}[role]

    def login_url(self, email: str) -> str:
        return f"{self.url}/login/{make_login_token(self.service.store, email, self.service.now())}"

    def cookie(self, email: str) -> str:
        """A signed-in session for ``email``, as a Cookie header's value."""
        client = self.app.test_client()
        token = make_login_token(self.service.store, email, self.service.now())
        page = client.get(f"/login/{token}")
        csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
        client.post(f"/login/{token}", data={"csrf_token": csrf})
        cookie = client.get_cookie("pbem_session")
        return f"pbem_session={cookie.value}"


@contextlib.contextmanager
def page_site(folder: Path, waitress: bool = False):
    """The site, served until the block ends (``waitress``: by the server ``pbem serve`` uses,
    pbem.server.httpd, rather than werkzeug's)."""
    config = Config(instance=str(folder), secret_key="pages-secret", admin_email=ADMIN)
    store = Store(Path(folder) / "pbem.sqlite3")
    service = Service(store, config)
    demo = make_demo_game(service, config)
    if not service.submit(demo, "austria", f"GAME {demo}\nENTER A1 A2 A3 BY ROAD AT Bormida bridge\n").ok:
        raise RuntimeError("the demo's first orders were refused")
    service.resolve_next(demo)
    service.run_jobs()
    other, _ = service.create_game("Open game", {"austria": PLAYER}, settings={"hours": 48})
    over, _ = service.create_game("A finished game", {"austria": PLAYER, "france": RIVAL}, settings={"hours": 48})
    service.resolve_next(over)
    service.resign(over, "france")
    leagues = Leagues(service)
    league = leagues.create_league("The club", ADMIN)
    tournament = leagues.create_tournament(league, ADMIN, "Spring cup", "round_robin")
    for email in (PLAYER, RIVAL):
        leagues.join(league, email)
        leagues.enter(tournament, email)
    leagues.start(tournament, ADMIN)
    service.run_jobs()
    app = create_app(service, config)
    if waitress:
        config.web_host, config.web_port, config.web_connections_per_address = "127.0.0.1", 0, 0
        web = start_httpd(app, config)
        config.web_port = web.effective_port
        serve, stop = web.run, web.close
    else:
        web = make_server("127.0.0.1", 0, app, threaded=True)
        config.web_host, config.web_port = "127.0.0.1", web.server_port
        serve, stop = web.serve_forever, web.shutdown
    thread = threading.Thread(target=serve, name="web", daemon=True)
    thread.start()
    try:
        yield PageSite(service, config, app, demo, other, over, league, tournament)
    finally:
        stop()
        thread.join(10)
        store.close()


# -- ``pbem bench --page``: the game page against a static file of its size, in the same run -----------

def _fetch_all(port: int, requests: list[tuple[str, dict]], clients: int, seconds: float, out) -> None:
    """In a child process: ``clients`` keep-alive connections, each asking for the next request of
    ``requests`` (in turn) as soon as its last answer has fully arrived, for ``seconds``; put the
    answers' count, their times (s), the statuses seen, the bytes read and the connections opened (one a
    client, unless the server closes one: http.client opens another)."""
    import http.client
    import time as clock

    times: list[float] = []
    statuses: dict[int, int] = {}
    read = [0]
    opened = [0]
    lock = threading.Lock()
    end = clock.monotonic() + seconds

    def client(k: int) -> None:
        connection = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
        n = k
        while clock.monotonic() < end:
            path, headers = requests[n % len(requests)]
            n += 1
            started = clock.perf_counter()
            if connection.sock is None:
                with lock:
                    opened[0] += 1
            connection.request("GET", path, headers=headers)
            answer = connection.getresponse()
            body = answer.read()
            took = clock.perf_counter() - started
            with lock:
                times.append(took)
                statuses[answer.status] = statuses.get(answer.status, 0) + 1
                read[0] += len(body)
        connection.close()

    threads = [threading.Thread(target=client, args=(k,)) for k in range(clients)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    out.put((times, statuses, read[0], opened[0]))


@dataclass
class Rate:
    what: str
    answers: int
    seconds: float
    p50: float
    statuses: dict
    size: int  # bytes an answer
    cpu: float = 0.0  # seconds of this process's CPU (the servers', both in it) while it was measured
    connections: int = 0  # TCP connections the clients opened

    @property
    def per_second(self) -> float:
        return self.answers / self.seconds

    @property
    def cpu_ms(self) -> float:
        """The server's CPU an answer, ms."""
        return self.cpu * 1000 / max(1, self.answers)


def rate(what: str, port: int, requests: list[tuple[str, dict]], clients: int, seconds: float) -> Rate:
    """Answers a second from ``port`` to ``clients`` connections at once, the load from a process of
    its own (its GIL not the server's); with the CPU this process (the server's) spent meanwhile."""
    import multiprocessing
    import os
    import statistics

    context = multiprocessing.get_context("spawn")
    out = context.Queue()
    child = context.Process(target=_fetch_all, args=(port, requests, clients, seconds, out))
    before = os.times()
    child.start()
    times, statuses, read, opened = out.get(timeout=seconds + 300)
    after = os.times()
    child.join()
    cpu = (after.user - before.user) + (after.system - before.system)
    return Rate(what, len(times), seconds, statistics.median(times) if times else 0.0, statuses,
                read // max(1, len(times)), cpu, opened)


def static_server(data: bytes):
    """waitress (the same settings as the site's, pbem.server.httpd) serving one file of ``data`` from
    disk: the limit a page of that size is measured against."""
    import tempfile

    folder = Path(tempfile.mkdtemp(prefix="pbem-static-"))
    path = folder / "page.html"
    path.write_bytes(data)

    def app(environ, start_response):
        body = path.read_bytes()
        start_response("200 OK", [("Content-Type", "text/html; charset=utf-8"), ("Content-Length", str(len(body)))])
        return [body]

    app.config = {"MAX_CONTENT_LENGTH": 1 << 20}
    return side_server(app, folder, "static")


def side_server(app, folder: Path, name: str):
    """waitress (the site's settings, pbem.server.httpd) serving ``app`` on a port of its own, in a thread."""
    config = Config(instance=str(folder), web_host="127.0.0.1", web_port=0, web_connections_per_address=0)
    web = start_httpd(app, config)
    threading.Thread(target=web.run, name=name, daemon=True).start()
    return web


@dataclass
class Rounds:
    """The game page against the static file, measured in turn ``rounds`` times in one run: each round's
    ratio of answers a second (the page's to the file's, the two measured one after the other) and of the
    server's CPU an answer (the file's to the page's), their medians and spreads; and in each round the same
    page asked of the app's Flask alone (without pbem.server.web.front), over the same app."""
    limits: list[Rate]
    pages: list[Rate]
    flasks: list[Rate]

    @property
    def ratios(self) -> list[float]:
        return [page.per_second / limit.per_second for page, limit in zip(self.pages, self.limits)]

    @property
    def cpu_ratios(self) -> list[float]:
        return [limit.cpu_ms / page.cpu_ms for page, limit in zip(self.pages, self.limits) if page.cpu_ms]

    def lines(self) -> list[str]:
        import statistics

        def spread(values: list[float], digits: int = 2) -> str:
            return (f"median {statistics.median(values):.{digits}f} (from {min(values):.{digits}f} "
                    f"to {max(values):.{digits}f})")

        return [f"  the game page against the static file, {len(self.pages)} rounds, each the two in turn:",
                f"    static file, answers/s      {spread([r.per_second for r in self.limits], 0)}",
                f"    the game page, answers/s    {spread([r.per_second for r in self.pages], 0)}",
                f"    ratio of answers a second   {spread(self.ratios)}   (goal 0.2 or more)",
                f"    server CPU an answer, ms    static {spread([r.cpu_ms for r in self.limits], 3)}, "
                f"page {spread([r.cpu_ms for r in self.pages], 3)}",
                f"    ratio of CPU an answer      {spread(self.cpu_ratios)}   (static / page: the ratio "
                f"the page would reach were the server's CPU all that bound)",
                f"    the page of Flask alone     {spread([r.per_second for r in self.flasks], 0)} answers/s, "
                f"CPU an answer {spread([r.cpu_ms for r in self.flasks], 3)} ms (without the front: the same "
                f"kept page)"]


def page_bench(seconds: float = 4.0, clients: int = 8, rounds: int = 5, say=print) -> Rounds:
    """The game page (a seat that owes orders, as a signed-in browser asks for it: gzip, its cookie)
    against waitress serving a static file of the page's size, in turn ``rounds`` times, ``clients`` at once,
    ``seconds`` each; then, once each, the page asked again with its ETag, its map (PNG, SVG) and click
    data, beside the median static rate. Every figure is of this run: the machine's load moves both."""
    import logging
    import os
    import statistics
    import tempfile
    import urllib.request

    logging.getLogger("waitress.queue").setLevel(logging.ERROR)  # "Task queue depth": the load asked for

    def load() -> str:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())

    with tempfile.TemporaryDirectory(prefix="pbem-pagebench-") as folder, page_site(Path(folder), waitress=True) as site:
        cookie = site.cookie(site.admin)
        headers = {"Cookie": cookie, "Accept-Encoding": "gzip"}
        seat = site.service.game(site.demo).turn().seats[0]  # a seat that owes orders: the page with its form
        page = f"/games/{site.demo}?side={seat}"
        asked = urllib.request.urlopen(urllib.request.Request(site.url + page, headers=headers))
        body = asked.read()
        port = site.config.web_port
        say(f"pbem bench --page: the game page of a seat that owes orders ({len(body)} bytes as sent, gzip), "
            f"{clients} connections at once, {seconds:g} s each, {rounds} rounds; {os.cpu_count()} cores, "
            f"load average {load()}")
        static = static_server(body)
        flask = side_server(FlaskAlone(site.app), Path(folder), "flask")
        measured = Rounds([], [], [])
        try:
            for _ in range(rounds):
                measured.limits.append(rate("static file of the page's size (waitress)", static.effective_port,
                                            [("/page.html", {"Accept-Encoding": "gzip"})], clients, seconds))
                measured.pages.append(rate("the game page", port, [(page, headers)], clients, seconds))
                measured.flasks.append(rate("the game page, Flask alone", flask.effective_port, [(page, headers)],
                                            clients, seconds))
        finally:
            static.close()
            flask.close()
        for line in measured.lines():
            say(line)
        limit = statistics.median(r.per_second for r in measured.limits)
        runs = []
        # the tag asked again now: the page words the minutes left to its deadline, so a tag from a minute ago is
        # another page's (answered 200 with the page, not 304)
        tag = urllib.request.urlopen(urllib.request.Request(site.url + page, headers=headers)).headers.get("ETag")
        if tag:
            runs.append(rate("the game page asked with its ETag (If-None-Match)", port,
                             [(page, {**headers, "If-None-Match": tag})], clients, seconds))
        for what, path in (("the map, PNG (1400 px)", f"/games/{site.demo}/map/0.png?side={seat}"),
                           ("the map, SVG", f"/games/{site.demo}/map/0.svg?side={seat}"),
                           ("the click data (clicks.json)", f"/games/{site.demo}/map/clicks.json?side={seat}")):
            runs.append(rate(what, port, [(path, headers)], clients, seconds))
        say(f"  once each, against the static file's median rate ({limit:.0f}/s):")
        say(f"  {'what':52} {'answers/s':>9} {'p50 ms':>7} {'bytes':>7} {'CPU ms':>7} {'x limit':>7} "
            f"{'conns':>6}  statuses")
        for run in runs:
            say(f"  {run.what:52} {run.per_second:9.0f} {run.p50 * 1000:7.1f} {run.size:7d} {run.cpu_ms:7.3f} "
                f"{run.per_second / limit:7.2f} {run.connections:6d}  {run.statuses}")
        front = site.app.wsgi_app
        say(f"  answered before Flask (pbem.server.web.front): {front.answered} answers in all")
        say(f"  goal: the game page at 0.2 of the static file's rate or more (the median of the rounds); "
            f"load average at the end {load()}")
        return measured
