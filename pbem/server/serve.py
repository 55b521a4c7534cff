"""``pbem serve``: the web server, the scheduler, the SMTP receiver and the
outbox sender in one process, on one SQLite file."""

from __future__ import annotations

import logging
import multiprocessing
import os
import threading
import time
from concurrent.futures import ProcessPoolExecutor

from waitress import wasyncore

from pbem.games import default
from pbem.server import inbox
from pbem.server.config import Config
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
        self.drawer = ProcessPoolExecutor(max_workers=DRAWERS, mp_context=multiprocessing.get_context("spawn"),
                                          initializer=drawing_worker, initargs=(os.getpid(),))
        self.service.rasterise = lambda svg: self.drawer.submit(render_png, svg).result(timeout=300)
        self.sender = make_sender(self.store, config, resolve=self.service.attachment)
        self.clock = Clock(self.service, self.sender, config.tick_seconds)
        self.smtpd = None
        self.receipts = None  # the SMTP receiver's messages, stored a round a commit (inbox.Receipts)
        self.receiver = None  # the SMTP receiver in a process of its own (setting smtp_process)
        self.web = None
        self.web_thread = None
        self.clock_started = False

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
        from waitress import create_server

        from pbem.server.web import create_app

        app = create_app(self.service, self.config)
        try:  # the ports first: a port in use stops the start before anything runs
            self.web = create_server(app, host=self.config.web_host, port=self.config.web_port, threads=8,
                                     ident="pbem", **proxy_options(self.config))
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
                                             backlog=Backlog(self.store, self.config.smtp_backlog))
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
        self.web_thread = threading.Thread(target=self.web.run, name="web", daemon=True)
        self.web_thread.start()

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
        if self.web:
            self.web.close()  # the listening socket and the worker threads
            self.web.task_dispatcher.shutdown()
            wasyncore.close_all(self.web._map)  # the open connections: the loop then ends
            if self.web_thread:
                self.web_thread.join(timeout=10)
        if self.smtpd:
            self.smtpd.stop()
        if self.receipts:
            self.receipts.stop()  # after the receiver: every message it took is stored first
        if self.receiver:
            self.receiver.stop()
        if self.clock_started:
            self.clock.stop()
        self.drawer.shutdown(wait=True, cancel_futures=True)
        self.store.close()


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
