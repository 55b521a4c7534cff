"""``pbem serve``: the web server, the scheduler, the SMTP receiver and the
outbox sender in one process, on one SQLite file.

No part dies silently: ``Server.watch`` looks at every part once a second (the web's thread, the
SMTP receiver's thread or process, the stored-mail thread, the scheduler and its three workers)
and returns the first found dead, which ``pbem serve`` logs in one line before it stops and exits
with status 1, for systemd (``Restart=on-failure``) to start the server again. ``stop_within``
stops the server within a time even when a part is stuck (then it says which threads were).
"""

from __future__ import annotations

import logging
import multiprocessing
import os
import resource
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from waitress import wasyncore

from pbem.games import default
from pbem.server import inbox
from pbem.server.config import Config
from pbem.server.drawing import DrawingPool
from pbem.server.httpd import start_httpd
from pbem.server.mail.outbox import Sender
from pbem.server.mail.limits import Backlog, SenderLimit
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.receiver import ReceiverProcess
from pbem.render.png import render_png
from pbem.server.scheduler import Clock
from pbem.server.service import Service
from pbem.server.store import Store

log = logging.getLogger("pbem")


class PortInUse(OSError):
    """A port the server must listen on is taken; the message says which and what to do."""


class Server:
    """Everything ``pbem serve`` runs; ``start()`` returns once it all listens."""

    def __init__(self, config: Config, clock=None):
        self.config = config
        self.store = Store(config.database_path)
        self.service = Service(self.store, config, clock=clock)
        # maps are rasterised in worker processes, one a core: resvg holds the GIL while it draws, which
        # would stall mail, clocks and the web meanwhile ("spawn": this process has threads); they run
        # at a lower priority (nice), so the mail path is never kept waiting behind drawing
        # a pool that breaks (a worker killed) is made again, its jobs redone (pbem.server.drawing)
        self.drawer = DrawingPool(lambda: ProcessPoolExecutor(
            max_workers=DRAWERS, mp_context=multiprocessing.get_context("spawn"), initializer=drawing_worker,
            initargs=(os.getpid(),)))
        self.service.rasterise = lambda svg: self.drawer.submit(render_png, svg).result(timeout=300)
        self.service.drawing = self.drawer  # a report's map is drawn whole there, SVG and PNG (pbem.server.drawing)
        self.sender = make_sender(self.store, config, resolve=self.service.attachment)
        self.clock = Clock(self.service, self.sender, config.tick_seconds)
        self.smtpd = None
        self.receipts = None  # the SMTP receiver's messages, stored a round a commit (inbox.Receipts)
        self.receiver = None  # the SMTP receiver in a process of its own (setting smtp_process)
        self.web = None
        self.web_thread = None
        self.clock_started = False
        self.stopping = False

    def deliver(self, raw: bytes) -> None:
        """The SMTP receiver's hook: store (the 250 waits for its commit), then wake the mail worker.
        The messages of connections arriving together are stored in one commit (``inbox.Receipts``)."""
        if self.receipts is not None:
            self.receipts.receive(raw)
        else:
            inbox.receive(self.service, raw, "smtp")
        self.clock.mail_arrived()

    def start(self) -> None:
        # mail a previous process claimed but may not have sent: this process is the only
        # sender now, so it need not wait for the claim's lease to run out
        self.store.execute("UPDATE outbox SET next_attempt_at = ? WHERE status = 'sending'", (self.store.now(),))
        if self.config.demo and not self.store.games():
            make_demo_game(self.service, self.config)
        from pbem.server.web import create_app

        app = create_app(self.service, self.config)
        try:  # the ports first: a port in use stops the start before anything runs
            # poll(), bounded connections (pbem.server.httpd); the proxy's headers trusted as configured
            self.web = start_httpd(app, self.config, **proxy_options(self.config))
        except OSError as exc:
            raise PortInUse(f"the web port {self.config.web_host}:{self.config.web_port} cannot be used "
                            f"({exc.strerror}): is another pbem running? Set web_port in the config file") from None
        if self.config.smtp_enabled:
            try:
                if self.config.smtp_process:
                    self.receiver = ReceiverProcess(self.config, self.clock.mail_arrived)
                else:
                    limit = SenderLimit(self.config.smtp_sender_messages, self.config.smtp_sender_mib * 1024 * 1024)
                    self.receipts = inbox.Receipts(self.service, "smtp")
                    self.smtpd = start_smtpd(self.deliver, self.config.smtp_host, self.config.smtp_port,
                                             limit_bytes=self.config.max_message_bytes * 4, sender_limit=limit,
                                             backlog=Backlog(self.store, self.config.smtp_backlog),
                                             connections=self.config.smtp_connections,
                                             per_address=self.config.smtp_connections_per_address)
            except OSError as exc:
                self.web.close()
                if self.receipts:
                    self.receipts.stop()
                raise PortInUse(f"the mail port {self.config.smtp_host}:{self.config.smtp_port} cannot be used "
                                f"({exc.strerror}): is another pbem running? Set smtp_port in the config file, "
                                f"or smtp_enabled = false") from None
        self.config.web_port = self.web.effective_port
        self.clock.start()
        self.clock_started = True
        self.web_thread = threading.Thread(target=self.serve_web, name="web", daemon=True)
        self.web_thread.start()

    def serve_web(self) -> None:
        """The web's thread: waitress's loop, until the server stops; its end otherwise is logged."""
        try:
            self.web.run()
        except Exception:  # noqa: BLE001 - told here; Server.watch finds the thread ended
            if not self.stopping:
                log.exception("the web's thread failed")

    def parts(self) -> dict[str, object]:
        """Each part that must keep running, by name: its thread or process (``is_alive()``)."""
        parts = {"the web's thread": self.web_thread}
        if self.smtpd is not None:
            parts["the SMTP receiver's thread"] = self.smtpd._thread
        if self.receipts is not None:
            parts["the thread that stores received mail"] = self.receipts._thread
        if self.receiver is not None:
            parts["the SMTP receiver's process"] = self.receiver.proc
        if self.clock_started:
            parts["the scheduler's thread"] = self.clock.scheduler._thread
            for worker in (self.clock.mail, self.clock.jobs, self.clock.sending):
                parts[f"the {worker.name} worker's thread"] = worker.thread
        return parts

    def dead_part(self) -> str | None:
        """The first part that ended though the server runs (None: all run)."""
        for name, part in self.parts().items():
            if part is None or not part.is_alive():
                return name
        return None

    def watch(self, stop: threading.Event, every: float = 1.0) -> str | None:
        """Until ``stop`` is set, look at the parts every ``every`` seconds; returns the first
        found dead (None: stopped by ``stop``)."""
        while not stop.wait(every):
            dead = self.dead_part()
            if dead is not None:
                return dead
        return None

    def stop_within(self, seconds: float) -> list[str]:
        """Stop, waiting at most ``seconds``; returns the names of the threads still running then
        (empty: stopped cleanly). A part stuck (on a lock, a disk, a database another process
        holds) cannot keep the process from ending: the caller exits regardless."""
        stopping = threading.Thread(target=self.stop, name="stop", daemon=True)
        stopping.start()
        stopping.join(timeout=seconds)
        if not stopping.is_alive():
            return []
        return sorted(t.name for t in threading.enumerate() if t is not threading.main_thread())

    def store_idle(self) -> bool:
        """Whether nothing is left to do: no mail to process, no report to draw, none to send."""
        busy = self.store.db.execute(
            "SELECT (SELECT COUNT(*) FROM outbox WHERE status IN ('queued', 'sending'))"
            " + (SELECT COUNT(*) FROM inbound WHERE status = 'stored')"
            " + (SELECT COUNT(*) FROM jobs WHERE status = 'due')").fetchone()[0]
        return busy == 0

    @property
    def smtp_port(self) -> int | None:
        return self.receiver.port if self.receiver else self.smtpd.port if self.smtpd else None

    def stop(self) -> None:
        """Stop every part, in order; a part whose stop fails (it died already, say) is logged and
        the others are stopped all the same."""
        self.stopping = True
        steps = []
        if self.web:
            steps.append(self.stop_web)
        if self.smtpd:
            steps.append(self.smtpd.stop)
        if self.receipts:
            steps.append(self.receipts.stop)  # after the receiver: every message it took is stored first
        if self.receiver:
            steps.append(self.receiver.stop)
        if self.clock_started:
            steps.append(self.clock.stop)
        steps += [lambda: self.drawer.shutdown(wait=True, cancel_futures=True), self.store.close]
        for step in steps:
            try:
                step()
            except Exception:  # noqa: BLE001 - the next parts are stopped all the same
                log.exception("stopping the server: %s failed", getattr(step, "__qualname__", step))

    def stop_web(self) -> None:
        self.web.close()  # the listening socket and the worker threads
        self.web.task_dispatcher.shutdown()
        try:
            wasyncore.close_all(self.web._map)  # the open connections: the loop then ends
        finally:
            if self.web_thread:
                self.web_thread.join(timeout=10)


def proxy_options(config: Config) -> dict:
    """waitress's trust of a reverse proxy (setting ``proxies``): the client's address (X-Forwarded-For) and
    scheme (X-Forwarded-Proto) as the proxy saw them, taken only from a connection of the proxy's address
    (``proxy_address``) and only the last ``proxies`` hops (those the proxies wrote, not the client). waitress
    removes these headers from every other request, so without ``proxies`` nobody can set them."""
    if not config.proxies:
        return {}
    return {"trusted_proxy": config.proxy_address, "trusted_proxy_count": config.proxies,
            "trusted_proxy_headers": {"x-forwarded-for", "x-forwarded-proto"}, "clear_untrusted_proxy_headers": True}


DRAWERS = os.cpu_count() or 1  # drawing worker processes


def more_descriptors() -> tuple[int, int]:
    """Raise this process's soft limit of open files to its hard limit (returns the two, after):
    the connection limits bound how many the server holds, this leaves room for the rest."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if soft != hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):  # not allowed here: the limits bound it anyway
            pass
    return soft, hard
DRAWING_NICE = 10  # how much lower the drawing workers' priority is than the server's


def drawing_worker(parent: int) -> None:
    """In a drawing worker: a lower priority than the server's, and an end when the server is gone."""
    try:
        os.nice(DRAWING_NICE)
    except (AttributeError, OSError):  # no nice on this system: the same priority
        pass
    exit_with_parent(parent)


def exit_with_parent(parent: int) -> None:
    """In the drawing worker: end when the server is gone (a killed server leaves no orphan)."""

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=watch, daemon=True).start()


def make_sender(store: Store, config: Config, resolve=None) -> Sender:
    """The outbox sender; ``resolve`` draws the attachments kept as references (the service's)."""
    login = (config.relay_user, config.relay_password) if config.relay_user else None
    if config.relay:
        return Sender(store, relay=config.relay, from_addr=config.from_addr, domain=config.domain,
                      relay_login=login, starttls=config.relay_starttls, resolve=resolve)
    return Sender(store, maildir=str(config.maildir), from_addr=config.from_addr, domain=config.domain,
                  resolve=resolve)


def make_demo_game(service: Service, config: Config) -> int:
    """A game of the default game (Bonaparte at Marengo, pbem.games.DEFAULT) whose seats all belong to the
    admin address: play every side from the browser."""
    name, rules = default()
    path = next(iter(rules.scenarios().values()))
    seats = {seat.id: config.admin_email for seat in rules.seats(rules.load_scenario(path), {})}
    game_id, keys = service.create_game(f"Demo: {rules.title}", seats, game=name, scenario=path.name,
                                        settings={"hours": 24}, moderator=config.admin_email, who="demo")
    service.store.audit("system", "demo", game_id, why="the demo game of a new server")
    return game_id
