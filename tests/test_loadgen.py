"""The load generator's processes (pbem/tools/loadgen.py) against real SMTP servers on loopback: the
mails its client process sends arrive as ``harness.orders_mail`` would have made them, every one
retried until 250; its sink notes every message the server's outbox sender (smtplib) hands it, with
the headers and the view.json the load test reads."""

from __future__ import annotations

import email
import email.policy
import json
import smtplib
import socket
import sqlite3
import threading
from email.message import EmailMessage

from pbem.server.mail.smtpd import start_smtpd
from pbem.tools import limits
from pbem.tools.harness import SERVER_ADDR, ServerProcess, orders_mail, wait_until
from pbem.tools.loadgen import Clients, Sink, attachment, cpu_seconds, headers_of, orders_template

ENV = ServerProcess.environment()
BODY = ".A leading dot\nA1 MOVE TO Marengo\n..two dots\n"


def received(raw: bytes):
    """The message as the server's parser reads it (SMTP's CRLF line ends read as the LF of a file)."""
    return email.message_from_bytes(raw.replace(b"\r\n", b"\n"), policy=email.policy.default)


def test_a_template_mail_reads_as_the_email_package_s_with_its_message_id():
    before, after = orders_template("france3@bots.invalid", 3, "france", "KEY12345", "6 AM", BODY)
    ours = received((before + b"<m.1@bots.invalid>" + after).replace(b"\r\n..", b"\r\n."))
    theirs = received(orders_mail("france3@bots.invalid", 3, "france", "KEY12345", {"turn_label": "6 AM"}, BODY,
                                  "<m.1@bots.invalid>"))
    for name in ("From", "To", "Subject", "Message-ID"):
        assert ours[name] == theirs[name], name
    assert ours.get_content() == theirs.get_content() == "GAME 3 SIDE france KEY KEY12345\n" + BODY
    # non-ASCII: an encoded subject, the body as UTF-8
    before, after = orders_template("a@bots.invalid", 1, "austria", "K", "6 h du matin é", "A1 RESTE À Marengo\n")
    ours = received(before + b"<m.2@x>" + after)
    assert ours["Subject"] == "Orders 6 h du matin é" and "A1 RESTE À Marengo" in ours.get_content()


def test_the_client_process_delivers_every_mail_byte_for_byte_and_retries_a_451_until_250(tmp_path):
    stored, refused = [], [0]
    lock = threading.Lock()

    def deliver(raw: bytes) -> None:
        with lock:
            if refused[0] < 3:  # the first three attempts are refused: 451, the client tries again
                refused[0] += 1
                raise RuntimeError("not now")
            stored.append(raw)

    controller = start_smtpd(deliver, return_path=False)
    clients = Clients(controller.port, 3, tag="t", env=ENV)
    try:
        for game_id in (1, 2):
            sender = f"s{game_id}@bots.invalid"
            clients.template(game_id, 4, "austria", sender, orders_template(sender, game_id, "austria", "K", "6 AM",
                                                                            BODY))
        records, errors = clients.run("list", {"games": [1, 2, 1, 2, 1]})
        clients.template(2, 5, "france", "s2@bots.invalid",
                         orders_template("s2@bots.invalid", 2, "france", "K", "7 AM", "day 5\n"))
        later, _ = clients.run("again", {"games": [2]})
    finally:
        clients.close()
        controller.stop()
    assert errors == 3 and len(records) == 5 and all(r[6] is not None for r in records)
    assert sum(r[7] for r in records) == 5 + 3  # attempts: each refusal was one more
    ids = [r[0] for r in records + later]
    assert len(set(ids)) == 6
    by_id = {received(raw)["Message-ID"]: received(raw) for raw in stored}
    assert set(by_id) == set(ids)
    for message_id, game_id, side, day, due, started, accepted, attempts in records:
        mail = by_id[message_id]
        assert due is None and started <= accepted and day == 4 and side == "austria"
        assert mail["From"] == f"s{game_id}@bots.invalid" and mail["To"] == SERVER_ADDR
        assert mail.get_content() == f"GAME {game_id} SIDE austria KEY K\n" + BODY  # the dots un-stuffed
    assert later[0][2:4] == ("france", 5) and by_id[later[0][0]].get_content() == "GAME 2 SIDE france KEY K\nday 5\n"


def test_a_scheduled_phase_starts_no_mail_before_it_is_due_nor_after_the_stop(tmp_path):
    import time

    sink = Sink(count_only=True, env=ENV)
    clients = Clients(sink.port, 2, env=ENV)
    try:
        clients.template(1, 0, "austria", "a@bots.invalid", orders_template("a@bots.invalid", 1, "austria", "K",
                                                                            "6 AM", "x\n"))
        start = time.time() + 0.5
        records, _ = clients.run("measure", {"games": [1], "start": start, "rate": 20, "total": 1000,
                                             "stop_at": start + 1.0})
    finally:
        clients.close()
        took = sink.close()
    assert 0 < len(records) <= 20 and took == len(records)
    for *_, due, started, accepted, _ in records:
        assert start <= due < start + 1.0 and started >= due and accepted is not None
        assert started < start + 1.0


def test_the_sink_notes_every_message_its_headers_and_the_view_of_a_report():
    batches = []
    sink = Sink(batches.extend, env=ENV)
    report = EmailMessage()
    report["To"] = "France3@Bots.invalid"
    report["Subject"] = "Game 3: report of day 4, " + "a long subject " * 8  # folded by the generator
    report["Message-ID"] = "<report.1@load.invalid>"
    report.set_content("Your report.\n.\nA line that was a lone dot above.\n")
    view = {"day": 5, "to_move": ["france"], "text": "é" * 100}
    report.add_attachment(json.dumps(view).encode(), "application", "json", filename="view.json")
    report.add_attachment(b"\x89PNG" + bytes(range(256)) * 400, "image", "png", filename="map.png")
    ack = EmailMessage()
    ack["To"] = "austria3@bots.invalid"
    ack["Subject"] = "Orders received"
    ack["Message-ID"] = "<ack.1@load.invalid>"
    ack["In-Reply-To"] = "<load.7.3.4@bots.invalid>"
    ack.set_content("Taken.\n")
    try:
        with smtplib.SMTP("127.0.0.1", sink.port) as smtp:  # as the server's outbox sender sends
            smtp.send_message(report, from_addr=SERVER_ADDR, to_addrs=["france3@bots.invalid"])
            smtp.send_message(ack, from_addr=SERVER_ADDR, to_addrs=["austria3@bots.invalid"])
        wait_until(lambda: len(batches) == 2, 10)
    finally:
        assert sink.close() == 2 and sink.sessions == 1
    (at1, to, subject, mid, reply, size, is_report, got), (at2, *noted) = batches
    assert (to, mid, reply, is_report) == ("france3@bots.invalid", "<report.1@load.invalid>", "", True)
    assert subject == " ".join(report["Subject"].split()) and json.loads(got) == view and size > 100_000
    assert noted == ["austria3@bots.invalid", "Orders received", "<ack.1@load.invalid>", "<load.7.3.4@bots.invalid>",
                     noted[4], False, None] and at1 <= at2


def test_the_bytes_scan_reads_what_the_email_package_reads():
    msg = EmailMessage()
    msg["To"] = "X@Y.invalid"
    msg["Message-ID"] = "<a@b>"
    msg.set_content("body")
    msg.add_attachment(b'{"a": 1}', "application", "json", filename="view.json")
    msg.add_attachment("plain view", filename="notes.txt")
    raw = msg.as_bytes()
    assert headers_of(raw)[0] == "x@y.invalid" and headers_of(raw)[2] == "<a@b>"
    assert attachment(raw) == b'{"a": 1}' and attachment(raw, b"notes.txt").strip() == b"plain view"
    assert attachment(raw, b"map.png") is None


def test_the_bare_receiver_limit_and_the_generator_s_ceiling_come_from_the_same_client_process(tmp_path):
    rate, p50, p99, stored = limits.bare_receiver(tmp_path, mails=30, clients=3)
    with sqlite3.connect(tmp_path / "bare-receiver.sqlite3") as conn:
        ids = {received(r[0])["Message-ID"] for r in conn.execute("SELECT raw FROM inbound")}
    assert stored == 30 and len(ids) == 30 and rate > 0
    ceiling, p99, client_cpu, sink_cpu, took = limits.generator_ceiling(mails=30, clients=3)
    assert took == 30 and ceiling > 0 and client_cpu >= 0 and sink_cpu >= 0


def test_cpu_seconds_reads_a_live_process_and_none_for_a_gone_one():
    import os
    import subprocess
    import sys

    assert cpu_seconds(os.getpid()) > 0
    child = subprocess.Popen([sys.executable, "-c", "pass"])
    child.wait()
    assert cpu_seconds(child.pid) is None


def test_the_processes_end_when_the_driver_is_gone_without_a_word():
    """A driver that dies (its end of the socket closed, no "stop") leaves no client or sink behind."""
    sink = Sink(count_only=True, env=ENV)
    clients = Clients(sink.port, 2, env=ENV)
    for child in (clients, sink):
        # as the kernel does for a process that dies: the socket shut (a close alone would not wake
        # the sink's reader thread, which holds the socket in a recv of this process)
        socket.fromfd(child.conn.fileno(), socket.AF_UNIX, socket.SOCK_STREAM).shutdown(socket.SHUT_RDWR)
        assert child.proc.wait(10) == 0
        child.conn.close()
