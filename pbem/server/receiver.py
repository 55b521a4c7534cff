"""The SMTP receiver in a process of its own (setting ``smtp_process``; docs/performance.md, mailcpu).

``pbem serve`` is one Python process, whose Python runs on one core at a time: the receipt of a mail
(aiosmtpd, its store and commit: about a third of the server's CPU a mail) and its processing and
answer (the rest) take turns. With ``smtp_process = true`` the receiver runs in a child process of its
own: it stores each message (``inbox.Receipts``: a round of messages a commit) on its own connection
to the same SQLite file before its 250, as the receiver in the server's process does, and tells the
server (a line on a pipe) that mail was stored, which wakes the mail worker. Nothing changes in what
is stored or acknowledged: a crash of either process loses nothing (the stored mail is processed by
the next server), and the child ends when the server does (it watches its parent, as the drawing
workers do).
"""

from __future__ import annotations

import multiprocessing
import os
import threading
import time

from pbem.server import inbox
from pbem.server.mail.limits import Backlog, SenderLimit
from pbem.server.mail.smtpd import start_smtpd


class ReceiverProcess:
    """The receiver's child process; ``port`` is where it listens. ``on_stored()`` is called in this
    process (a thread of its own) whenever the child has stored mail."""

    def __init__(self, config, on_stored):
        context = multiprocessing.get_context("spawn")  # this process has threads
        self._conn, child = context.Pipe()
        self.proc = context.Process(target=run, args=(config, child, os.getpid()), name="pbem-smtp", daemon=True)
        self.proc.start()
        child.close()
        try:
            said = self._conn.recv() if self._conn.poll(120) else ("error", None, "the receiver did not start")
        except EOFError:
            said = ("error", None, "the receiver ended as it started")
        if said[0] != "port":
            self.proc.join(timeout=10)
            self._conn.close()
            raise OSError(said[1], said[2])
        self.port = said[1]
        self.on_stored = on_stored
        self._thread = threading.Thread(target=self._listen, name="smtp-process", daemon=True)
        self._thread.start()

    def _listen(self) -> None:
        while True:
            try:
                self._conn.recv()
            except (EOFError, OSError):
                return
            self.on_stored()

    def stop(self) -> None:
        """The child stops taking mail, stores what it took, and ends."""
        try:
            self._conn.send("stop")
        except OSError:
            pass
        self.proc.join(timeout=30)
        if self.proc.is_alive():
            self.proc.kill()
            self.proc.join()
        self._conn.close()


def run(config, conn, parent: int) -> None:
    """In the child: receive, store, tell the server; until told to stop or the server is gone."""
    from pbem.server.service import Service  # here: the child's own imports
    from pbem.server.store import Store

    store = Store(config.database_path)
    receipts = inbox.Receipts(Service(store, config), "smtp")
    stored = threading.Event()
    limit = SenderLimit(config.smtp_sender_messages, config.smtp_sender_mib * 1024 * 1024)

    def deliver(raw: bytes) -> None:
        receipts.receive(raw)  # committed: the 250 may be given
        stored.set()

    try:
        smtpd = start_smtpd(deliver, config.smtp_host, config.smtp_port, limit_bytes=config.max_message_bytes * 4,
                            sender_limit=limit, backlog=Backlog(store, config.smtp_backlog),
                            connections=config.smtp_connections, per_address=config.smtp_connections_per_address)
    except OSError as exc:
        conn.send(("error", exc.errno, exc.strerror))
        receipts.stop()
        store.close()
        return
    conn.send(("port", smtpd.port))

    def tell() -> None:  # one line a wake, however many mails were stored meanwhile
        while True:
            stored.wait()
            stored.clear()
            try:
                conn.send("stored")
            except OSError:
                return

    def watch() -> None:  # the server gone (killed): end, as a drawing worker does
        while os.getppid() == parent:
            time.sleep(1)
        os._exit(0)

    threading.Thread(target=tell, daemon=True).start()
    threading.Thread(target=watch, daemon=True).start()
    try:
        while not conn.poll(1.0):  # until "stop", or the pipe closed
            if not smtpd._thread.is_alive():  # the receiver's thread died: end, and the server sees it (watch)
                os._exit(1)
    except (EOFError, OSError):
        pass
    smtpd.stop()
    receipts.stop()  # after the receiver: every message it took is stored first
    store.close()
