"""No part of ``pbem serve`` dies silently, and a stop ends even when a part is stuck (issue 28).

Before, a part that died (the web's thread, after select() failed) left the process running
with the rest, so systemd never restarted it; and SIGTERM did not end a server whose worker was
stuck. Now the server looks at its parts every second and, one dead, logs one line and exits with
status 1 (deploy/pbem.service: ``Restart=on-failure``); a stop ends within ``stop_seconds``.
"""

from __future__ import annotations

import os
import re
import signal
import smtplib
import sqlite3
import threading
import time
from pathlib import Path

import pytest

from pbem.server.config import Config
from pbem.server.serve import Server
from pbem.tools.harness import ServerProcess

WAIT = 120.0  # seconds: only a server that never ends takes this long


def ended(server: ServerProcess, seconds: float = WAIT) -> int | None:
    """The server's exit status once it has ended (None: still running after ``seconds``)."""
    end = time.monotonic() + seconds
    while server.proc.poll() is None and time.monotonic() < end:
        time.sleep(0.1)
    return server.proc.poll()


def receiver_process(server: int) -> int:
    """The SMTP receiver's process: the server's one child started by multiprocessing's spawn
    that is not its resource tracker (no map has been drawn: no drawing worker is running)."""
    children = [int(pid) for tasks in Path(f"/proc/{server}/task").glob("*/children")
                for pid in tasks.read_text().split()]
    spawned = [pid for pid in children if b"spawn_main" in Path(f"/proc/{pid}/cmdline").read_bytes()
               and b"resource_tracker" not in Path(f"/proc/{pid}/cmdline").read_bytes()]
    assert len(spawned) == 1, spawned
    return spawned[0]


def said(server: ServerProcess, pattern: str) -> re.Match:
    """The first match of ``pattern`` in the server's log, once it has printed it."""
    end = time.monotonic() + WAIT
    while not (found := re.search(pattern, server.log_path.read_text())):
        assert time.monotonic() < end and server.alive, server.log_tail()
        time.sleep(0.1)
    return found


def test_the_server_exits_when_its_smtp_receiver_process_is_killed(tmp_path):
    server = ServerProcess(tmp_path / "instance", 0, relay_host="", smtp_process=True)
    server.start()
    try:
        said(server, r"sign in as")
        pid = receiver_process(server.proc.pid)
        assert f"a process of its own, pid {pid}" in server.log_path.read_text()  # told to the operator
        os.kill(pid, signal.SIGKILL)  # as the kernel's OOM killer would
        status = ended(server)
    finally:
        server.stop()
    log = server.log_path.read_text()  # told to the operator
    assert status == 1, log[-3000:]
    assert "the SMTP receiver's process has ended: the server stops" in log


def test_a_stop_ends_within_stop_seconds_while_a_part_is_stuck(tmp_path):
    """The database held by another process (a backup, an admin's sqlite3 shell): the thread that
    stores received mail waits on it, and SIGTERM must still end the server."""
    server = ServerProcess(tmp_path / "instance", 0, relay_host="", stop_seconds=3)
    server.start()
    said(server, r"sign in as")  # the last line before it waits for SIGTERM
    holder = sqlite3.connect(server.database, timeout=30, isolation_level=None)
    holder.execute("BEGIN IMMEDIATE")  # every write of the server waits (30 s each, again and again)
    sent = threading.Thread(target=send_one, args=(server.smtp_port,), daemon=True)
    sent.start()
    try:
        time.sleep(1.0)  # the message is in DATA: its store waits on the database
        server.proc.send_signal(signal.SIGTERM)
        status = ended(server, WAIT)
    finally:
        holder.execute("ROLLBACK")
        holder.close()
        server.stop()
    log = server.log_path.read_text()  # told to the operator
    assert status == 1, log[-3000:]
    assert re.search(r"did not stop within 3 s \(threads still running: [^)]*receipts", log), log[-3000:]


def test_a_stop_by_sigterm_is_said_in_the_log_and_ends_with_status_0(tmp_path):
    """The operator reads that the server is stopping, and that it has stopped (it said nothing before)."""
    server = ServerProcess(tmp_path / "instance", 0, relay_host="")
    server.start()
    said(server, r"sign in as")
    try:
        server.proc.send_signal(signal.SIGTERM)
        status = ended(server)
    finally:
        server.stop()
    log = server.log_path.read_text()
    assert status == 0, log[-3000:]
    assert "pbem is stopping (SIGTERM): what is under way is finished, or done again at the next start" in log
    assert re.search(r"pbem has stopped \(data: .*pbem\.sqlite3\)", log), log[-3000:]


def send_one(port: int) -> None:
    try:
        with smtplib.SMTP("127.0.0.1", port, timeout=WAIT) as client:
            client.sendmail("a@example.org", ["pbem@load.invalid"], b"Subject: x\r\n\r\nGAME 1\r\n")
    except (OSError, smtplib.SMTPException):  # the server ended first: the sender keeps the message
        pass


class Broken:
    """A channel whose every look fails: waitress's loop raises, and its thread ends."""

    def readable(self):
        raise RuntimeError("a broken channel")

    writable = readable


@pytest.fixture
def running(tmp_path):
    server = Server(Config(instance=str(tmp_path), web_port=0, smtp_port=0, demo=False, tick_seconds=0.5))
    server.start()
    yield server
    if not server.stopping:
        server.stop_within(30)


def test_a_part_that_dies_is_found(running):
    assert running.dead_part() is None
    running.web._map[10 ** 6] = Broken()
    stop = threading.Event()
    threading.Timer(WAIT, stop.set).start()  # only if the death were never seen
    assert running.watch(stop, every=0.1) == "the web's thread"
    stop.set()


def test_a_clean_stop_leaves_no_thread_running(running):
    assert running.stop_within(30) == []
    assert running.dead_part() is not None  # everything has ended
