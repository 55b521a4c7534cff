"""The server's CPU per order mail (issue 15, mailcpu): what was made cheaper sends and answers the same.

- An answer (a text alone) is written as bytes by ``outbox.plain_bytes``: the same bytes, to the byte,
  as ``smtplib.send_message(build_email(row))`` sends (so it parses with policy.default to the same
  headers and text), over every kind of subject, body, address and reply reference; a row it cannot
  write so (HTML, attachments, a header the email package would fold) is built as before.
- ``pbem mailbench`` runs every stage and prints each as ms of CPU a mail beside the bare receiver.
"""

from __future__ import annotations

import email
import email.policy
import io
import itertools
import re
import smtplib
import sqlite3
import threading
from datetime import datetime, timezone
from email.generator import BytesGenerator
from pathlib import Path

import pytest

from pbem.server.mail.outbox import Sender, build_email, plain_bytes, queue
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.store import Store

T0 = datetime(2026, 11, 24, 0, 10, tzinfo=timezone.utc)
FROM = "pbem@games.example.org"

SUBJECTS = [
    "[pbem 3] Orders accepted",
    "[pbem 3] Orders NOT accepted",
    "[pbem 12] Приказы приняты",
    "[pbem 12] Накази прийнято: ви граєте за Австрію, що стоїть біля Маренго, і ще трохи слів",
    "[pbem 7] 命令已接受",
    "[pbem 4] Ordres acceptés",
    "[pbem 3] Orders accepted (copy: sent from someone.with.a.rather.long.address@example.org)",
    "[pbem 3] =?utf-8?q?not_an_encoded_word?= really",
    "[pbem 3] two  spaces",
    "x" * 69,
    "x" * 70,
    "x" * 71,
    "",
]
BODIES = [
    "Orders accepted for game 3, Austria, 6AM.\n\n  A1 MOVE TO L2\n\nDeadline: Tuesday.",
    "Приказы приняты для партии 12, Австрия, 6 ч. Они заменяют всё, что вы присылали раньше.\n\n  A1 ИДТИ",
    "é\nshort lines of eight bits\n",
    "a line of exactly seventy-eight characters, no more and no less, to the edge!!" + "\n.\n.leading dot\nFrom me",
    "a\rcarriage return alone\r\nand a pair",
    "long " * 40,
    "",
]
REFERENCES = [None, "<load.17.3.0@bots.invalid>", "<" + "m" * 70 + "@x>", "<a b@c>", "  <spaced@x>  ", "=?utf-8?q?x?="]
ADDRESSES = ["player@example.org", "Player.Name+pbem@example.org", "игрок@пример.рф", "a@b.invalid"]
LANGS = [None, "en", "fr", "ru", "uk", "zh"]


def sent_by_send_message(msg) -> bytes:
    """The bytes ``smtplib.SMTP.send_message`` gives the relay for ``msg`` (its own flattening)."""
    out = io.BytesIO()
    BytesGenerator(out).flatten(msg, linesep="\r\n")
    return out.getvalue()


def rows():
    """Outbox rows over the kinds of text an answer can hold."""
    n = itertools.count(1)
    for subject, body, reference in itertools.product(SUBJECTS, BODIES, REFERENCES):
        yield {"id": next(n), "created": "2026-11-24T00:10:00Z", "to_addr": "player@example.org", "subject": subject,
               "body": body, "html": None, "attachments": "[]", "in_reply_to": reference, "message_id": None}
    for address, lang in itertools.product(ADDRESSES, LANGS):
        yield {"id": next(n), "created": "2026-11-24T00:10:00Z", "to_addr": address, "subject": "[pbem 3] Answer",
               "body": BODIES[0], "html": None, "attachments": "[]", "in_reply_to": REFERENCES[1],
               "message_id": f"<pbem.{lang}@games.example.org>", "lang": lang}


def test_an_answer_written_as_bytes_is_what_send_message_sent_byte_for_byte():
    written = 0
    for row in rows():
        lang = row.get("lang")
        fast = plain_bytes(row, FROM, "games.example.org", lang=lang)
        before = sent_by_send_message(build_email(row, FROM, "games.example.org", lang=lang))
        usual = row["subject"] in SUBJECTS[:6] and row["body"] in BODIES[:4] and row["in_reply_to"] in REFERENCES[:2]
        assert fast is not None or not usual, row  # an answer as the server writes them, in any language
        if fast is None:
            continue
        written += 1
        assert fast == before, (row, fast, before)
        ours, theirs = (email.message_from_bytes(b, policy=email.policy.default) for b in (fast, before))
        assert ours.items() == theirs.items() and ours.get_content() == theirs.get_content()
    assert written > 2 * 6 * 4 * 2


@pytest.mark.parametrize("subject, body, lang", [
    ("[pbem 3] Orders accepted", BODIES[0], None),
    ("[pbem 12] Приказы приняты", BODIES[1], "ru"),
    ("[pbem 7] 命令已接受", "命令已接受。\n\n  A1 移动", "zh"),
    ("[pbem 4] Ordres acceptés", "é\ncourt", "fr"),
])
def test_the_usual_answers_are_written_as_bytes(subject, body, lang):
    row = {"id": 5, "created": "2026-11-24T00:10:00Z", "to_addr": "p@example.org", "subject": subject, "body": body,
           "html": None, "attachments": "[]", "in_reply_to": "<x.1@bots.invalid>", "message_id": None}
    fast = plain_bytes(row, FROM, lang=lang)
    assert fast == sent_by_send_message(build_email(row, FROM, lang=lang))


@pytest.mark.parametrize("change", [
    {"html": "<p>a report</p>"},
    {"html_ref": "ab" * 32},
    {"attachments": '[{"filename": "view.json", "mime": "application/json", "data": "e30=", "cid": null}]'},
    {"to_addr": "игрок@пример.рф"},
    {"subject": "y" * 80},
    {"subject": "[pbem 3] =?utf-8?q?x?="},
    {"in_reply_to": "<" + "m" * 70 + "@x>"},
])
def test_what_bytes_cannot_hold_exactly_is_built_as_before(change):
    row = {"id": 5, "created": "2026-11-24T00:10:00Z", "to_addr": "p@example.org", "subject": "[pbem 3] Answer",
           "body": "text", "html": None, "attachments": "[]", "in_reply_to": None, "message_id": None}
    assert plain_bytes(row, FROM) is not None
    assert plain_bytes({**row, **change}, FROM) is None


@pytest.mark.parametrize("name, value, raw, written", [
    ("Subject", "x" * 69, False, True),  # "Subject: " and 69: a line of 78, as policy.default writes it
    ("Subject", "x" * 70, False, False),  # 79: it would fold it
    ("In-Reply-To", "<a.1@b>", False, True),
    ("In-Reply-To", "<a\tb@c>", False, False),
    ("In-Reply-To", "<a  b@c>", False, False),
    ("In-Reply-To", "<a\nb@c>", False, False),
    ("In-Reply-To", "<a\rb@c>", False, False),
    ("In-Reply-To", " <a@b>", False, False),
    ("In-Reply-To", "=?utf-8?q?a?=", False, False),
    ("Subject", "é", False, False),
    ("Subject", "", False, False),
    ("Subject", "=?utf-8?b?" + "x" * 57 + "?=", True, True),  # an encoded subject's first line of 78
    ("Subject", "=?utf-8?b?" + "x" * 58 + "?=", True, False),
    ("Subject", "=?utf-8?b?eA==?=\n " + "x" * 77, True, True),  # a folded line of 78
    ("Subject", "=?utf-8?b?eA==?=\n " + "x" * 78, True, False),
    ("Subject", "=?utf-8?b?eA==?=\nx", True, False),  # a folded line must begin with a space
    ("Subject", "=?utf-8?b?" + "x" * 58 + "?=\n x", True, False),
    ("Subject", "=?utf-8?b?eA==?=\n ok\n bad\tbut-kept\nbad", True, False),
])
def test_a_header_is_written_as_bytes_only_as_the_email_package_writes_it(name, value, raw, written):
    from pbem.server.mail.outbox import _kept_as_written

    assert _kept_as_written(name, value, raw=raw) is written


def test_the_defaults_and_a_row_without_attachments_are_written_as_build_email_writes_them():
    row = {"id": 5, "created": "2026-11-24T00:10:00Z", "to_addr": "p@example.org", "subject": "[pbem 3] Answer",
           "body": "text", "html": None, "attachments": None, "in_reply_to": None, "message_id": None}
    assert plain_bytes(row) == sent_by_send_message(build_email(row))
    assert plain_bytes(row, FROM, "other.example") == sent_by_send_message(build_email(row, FROM, "other.example"))
    assert b"@other.example>" in plain_bytes(row, FROM, "other.example")
    assert plain_bytes(row, FROM) == sent_by_send_message(build_email(row, FROM))
    assert b"@games.example.org>" in plain_bytes(row, FROM)


def test_a_sender_with_a_name_is_built_as_before():
    row = {"id": 5, "created": "2026-11-24T00:10:00Z", "to_addr": "p@example.org", "subject": "[pbem 3] Answer",
           "body": "text", "html": None, "attachments": "[]", "in_reply_to": None, "message_id": None}
    assert plain_bytes(row, "Game Server <pbem@games.example.org>") is None
    assert plain_bytes(row, "pbem@games.example.org") is not None


def test_the_sender_delivers_answers_and_reports_to_a_real_relay_as_send_message_did(tmp_path):
    """Over real SMTP: each answer the sender delivers is the bytes ``send_message(build_email(row))``
    delivers for the same row; a report (HTML, an attachment) goes the old way."""
    got: list[bytes] = []
    lock = threading.Lock()

    def take(raw: bytes) -> None:
        with lock:
            got.append(raw)

    relay = start_smtpd(take, return_path=False)
    store = Store(tmp_path / "pbem.sqlite3", clock=lambda: T0)
    try:
        ids = [queue(store, "p@example.org", "[pbem 3] Orders accepted", BODIES[0], in_reply_to="<a.1@bots.invalid>"),
               queue(store, "q@example.org", "[pbem 12] Приказы приняты", BODIES[1], lang="ru"),
               queue(store, "r@example.org", "[pbem 3] Report", "the text", html="<p>the report</p>",
                     attachments=[("view.json", "application/json", b"{}", None)])]
        sender = Sender(store, relay=("127.0.0.1", relay.port), from_addr=FROM)
        assert sender.send_due(T0) == 3
        rows = store.mails("WHERE id IN (?, ?, ?) ORDER BY id", ids)
        assert [r["status"] for r in rows] == ["sent"] * 3
        with smtplib.SMTP("127.0.0.1", relay.port) as smtp:
            for r in rows:
                smtp.send_message(build_email(r, FROM, lang=r["lang"]), from_addr=FROM, to_addrs=[r["to_addr"]])
        assert len(got) == 6
        assert got[:2] == got[3:5]  # the answers, byte for byte
        boundless = [re.sub(rb"=_pbem_[0-9a-f]{24}", b"BOUNDARY", raw) for raw in (got[2], got[5])]  # a report's boundary is random
        assert boundless[0] == boundless[1]
        assert [email.message_from_bytes(raw, policy=email.policy.default)["Subject"] for raw in got[:3]] == [
            "[pbem 3] Orders accepted", "[pbem 12] Приказы приняты", "[pbem 3] Report"]
    finally:
        store.close()
        relay.stop()


def test_pbem_mailbench_prints_every_stage_against_the_bare_receiver(tmp_path):
    from pbem.tools.mailbench import mailbench

    lines: list[str] = []
    stages = mailbench(mails=12, games=1, rulesets=("marengo", "napoleon1815"), clients=2, workdir=tmp_path,
                       say=lines.append)
    text = "\n".join(lines)
    assert [s.name.split(" ")[0] for s in stages] == ["bare", "receiver", "receiver,", "process", "send"]
    assert [s.mails for s in stages] == [12, 12, 12, 24, 24], stages  # both receivers' mails processed, answered
    assert "the receiver stored 12 mails in " in text
    assert "24 stored, 24 processed (24 orders accepted), 24 answers queued" in text
    assert "24 answers sent, 24 taken by the sink" in text
    for stage in stages:
        assert stage.name in text
    assert "x bare" in text and "load average" in text
    assert re.search(r"processing, a mail: [\d.]+ statements \(SELECT [\d.]+.*\), [\d.]+ commits", text), text


# -- the receiver's rounds: inbox.Receipts -------------------------------------------------------------


def orders(n: int, sender: str = "p@example.org") -> bytes:
    return (f"From: {sender}\r\nTo: pbem@example.org\r\nSubject: orders\r\nMessage-ID: <r.{n}@example.org>\r\n\r\n"
            f"GAME 1 KEY abc\r\nline {n}\r\n").encode()


def receive_together(receipts, store, raws) -> list:
    """``receipts.receive`` of every raw, each in a thread of its own, all handed in while the store is
    busy with another transaction (so all but the first wait for one round); (id, duplicate) or the error."""
    from pbem.tools.harness import wait_until

    results: list = [None] * len(raws)

    def one(i: int) -> None:
        try:
            results[i] = receipts.receive(raws[i])
        except Exception as error:  # noqa: BLE001 - what the door would answer 451 to
            results[i] = error

    with store.transaction():  # the writer is busy: the receipts' first round waits for it
        threads = [threading.Thread(target=one, args=(0,))]
        threads[0].start()
        wait_until(lambda: not receipts._waiting, timeout=30, what="the first round taken")
        threads += [threading.Thread(target=one, args=(i,)) for i in range(1, len(raws))]
        for t in threads[1:]:
            t.start()
        wait_until(lambda: len(receipts._waiting) == len(raws) - 1, timeout=30, what="every mail handed in")
    for t in threads:
        t.join(30)
    return results


@pytest.fixture
def receipts_on(tmp_path):
    from pbem.server.inbox import Receipts
    from pbem.server.service import Service

    store = Store(tmp_path / "pbem.sqlite3", clock=lambda: T0)
    receipts = Receipts(Service(store, clock=lambda: T0))
    yield receipts, store
    receipts.stop()
    store.close()


def stored_now(path) -> list[bytes]:
    """The messages stored, as another connection sees them (what is committed)."""
    import sqlite3

    conn = sqlite3.connect(str(path))
    try:
        return [bytes(r[0]) for r in conn.execute("SELECT raw FROM inbound ORDER BY id")]
    finally:
        conn.close()


def test_messages_handed_in_together_are_stored_in_one_commit_and_each_returns_once_committed(receipts_on):
    receipts, store = receipts_on
    raws = [orders(n) for n in range(6)]
    seen_on_return: dict[int, list[bytes]] = {}
    real = receipts.receive

    def receive_and_look(raw):
        result = real(raw)
        seen_on_return[raws.index(raw)] = stored_now(store.path)
        return result

    receipts.receive = receive_and_look
    results = receive_together(receipts, store, raws)
    assert [duplicate for _, duplicate in results] == [False] * 6
    assert sorted(i for i, _ in results) == list(range(1, 7))
    assert receipts.rounds == 2  # the first alone, then the five that waited, in one commit
    for i, raw in enumerate(raws):
        assert raw in seen_on_return[i]  # committed before its receive returned (before the 250)
    assert sorted(stored_now(store.path)) == sorted(raws)


def test_a_copy_in_the_same_round_is_the_first_ones_and_a_bad_message_fails_alone(receipts_on):
    receipts, store = receipts_on
    raws = [orders(1), orders(2), orders(1), None, orders(3)]
    results = receive_together(receipts, store, raws)
    assert isinstance(results[3], TypeError)  # the door answers 451 to it; the others are stored
    assert results[2] == (results[0][0], True)  # the same Message-ID from the same sender: the first copy
    assert [r[1] for i, r in enumerate(results) if i != 3] == [False, False, True, False]
    assert sorted(stored_now(store.path)) == sorted({orders(1), orders(2), orders(3)})


def test_a_stopped_receipts_refuses_and_stores_what_it_took(receipts_on):
    receipts, store = receipts_on
    assert receipts.receive(orders(1)) == (1, False)
    receipts.stop()
    with pytest.raises(RuntimeError):
        receipts.receive(orders(2))
    assert stored_now(store.path) == [orders(1)]


# -- the receiver in a process of its own: smtp_process ------------------------------------------------


def one_game_server(tmp_path, title: str, tag: str):
    """A server's instance folder with one Marengo game (its welcome mail marked sent), and what a test of
    ``pbem serve`` sends it: (the folder, the moving seat's address, ``mail(n)``: that seat's orders mail
    with Message-ID ``<tag.n@...>``, the In-Reply-To of every answer the relay took, the relay)."""
    import json

    from pbem.core.game import Game
    from pbem.games import ruleset
    from pbem.server.service import Service
    from pbem.tools.harness import BOT_DOMAIN, Relay, orders_mail

    instance = tmp_path / "server"
    instance.mkdir()
    store = Store(instance / "pbem.sqlite3")
    service = Service(store)
    seats = {"austria": f"austria@{BOT_DOMAIN}", "france": f"france@{BOT_DOMAIN}"}
    game_id, keys = service.create_game(title, seats, seed=1, settings={"hours": 24, "reminders": []})
    store.execute("UPDATE outbox SET status = 'sent'")
    store.close()
    rules = ruleset("marengo")
    game = Game(rules, rules.load_scenario(next(iter(rules.scenarios().values()))), 1, [])
    side = game.turn().seats[0]
    view = json.loads(json.dumps(game.view(side)))
    body = rules.bots()["bot"].orders(game.scenario, view, 1)

    def mail(n: int) -> bytes:
        return orders_mail(seats[side], game_id, side, keys[side], view, body, f"<{tag}.{n}@{BOT_DOMAIN}>")

    acks: list[str] = []
    relay = Relay(lambda d, raw: acks.append(d.in_reply_to) if d.in_reply_to else None, keep_raw=False)
    return instance, seats[side], mail, acks, relay


def test_the_receiver_in_a_process_of_its_own_stores_before_250_answers_every_mail_and_ends_with_the_server(tmp_path):
    """``pbem serve`` with ``smtp_process``: orders mails sent over SMTP are each stored (by the child) and
    answered (by the server); the child is the server's own process and is gone once the server is killed
    (SIGKILL); a server started again on the same port takes and answers mail as before."""
    import os

    from pbem.tools.harness import BOT_DOMAIN, ServerProcess, send_mail, wait_until
    from pbem.tools.mailbench import receiver_pids

    instance, sender, mail, acks, relay = one_game_server(tmp_path, "Receiver", "proc")
    server = ServerProcess(instance, relay.port, smtp_process=True)
    try:
        server.start()
        children = receiver_pids(server)
        assert len(children) == 1 and children[0] != server.proc.pid
        for n in range(5):
            send_mail(server.smtp_port, mail(n), sender)  # returns on the 250: stored by the child
        wait_until(lambda: len(set(acks)) == 5, timeout=120, what="five answers")
        server.kill()
        wait_until(lambda: not os.path.exists(f"/proc/{children[0]}") or
                   Path(f"/proc/{children[0]}/stat").read_text().rpartition(")")[2].split()[0] == "Z",
                   timeout=30, what="the receiver gone with its server")
        server.start()
        send_mail(server.smtp_port, mail(5), sender)
        wait_until(lambda: f"<proc.5@{BOT_DOMAIN}>" in acks, timeout=120, what="the answer after a restart")
    finally:
        server.stop()
        relay.stop()
    conn = sqlite3.connect(str(instance / "pbem.sqlite3"))
    try:
        assert conn.execute("SELECT status, COUNT(*) FROM inbound GROUP BY status").fetchall() == [("processed", 6)]
    finally:
        conn.close()
    assert sorted(set(acks)) == sorted(f"<proc.{n}@{BOT_DOMAIN}>" for n in range(6))


def test_the_receiver_process_on_a_port_in_use_stops_the_start_with_a_clear_error(tmp_path):
    import socket

    from pbem.server.config import Config
    from pbem.server.serve import PortInUse, Server

    with socket.socket() as taken:
        taken.bind(("127.0.0.1", 0))
        taken.listen()
        config = Config(instance=str(tmp_path), web_port=0, smtp_port=taken.getsockname()[1], smtp_host="127.0.0.1",
                        demo=False, secret_key="x", relay_host="127.0.0.1", relay_port=9, smtp_process=True)
        server = Server(config)
        try:
            with pytest.raises(PortInUse, match="the mail port"):
                server.start()
        finally:
            server.stop()


def stop_holding_no_write_lock(pid: int, db) -> None:
    """SIGSTOP the server ``pid`` at a moment it holds no write lock on ``db``: the test takes the lock first
    (BEGIN IMMEDIATE waits until the server's transaction, if any, has ended, and keeps the server from
    beginning another), stops the server, and lets the lock go. A server stopped inside a transaction of
    its own (a tick, a claim of the outbox: it writes right after it starts) would keep the receiver's
    store waiting on the lock (30 s, SQLite's busy timeout) past the sender's 10 s: the mail not answered."""
    import os
    import signal

    gate = sqlite3.connect(str(db), timeout=60, isolation_level=None)
    try:
        gate.execute("BEGIN IMMEDIATE")
        os.kill(pid, signal.SIGSTOP)
        gate.execute("ROLLBACK")
    finally:
        gate.close()


def test_the_receiver_process_answers_451_while_too_much_stored_mail_waits_then_takes_it(tmp_path):
    """``smtp_process`` with ``smtp_backlog = 2``: while the server's processing is stopped (SIGSTOP: the
    receiver, a process of its own, still takes mail), three orders mails are stored (the third while two
    wait) and the fourth is refused with 451 and the busy text, unstored; once the server runs again and has
    answered the three, the fourth, sent again as a mail server would, is taken and answered. Nothing is lost, nothing answered twice."""
    import os
    import signal
    import smtplib

    from pbem.tools.harness import BOT_DOMAIN, ServerProcess, send_mail, wait_until

    instance, sender, mail, acks, relay = one_game_server(tmp_path, "Busy", "busy")
    server = ServerProcess(instance, relay.port, smtp_process=True, smtp_backlog=2)
    try:
        server.start()
        stop_holding_no_write_lock(server.proc.pid, instance / "pbem.sqlite3")
        try:
            send_mail(server.smtp_port, mail(0), sender)
            send_mail(server.smtp_port, mail(1), sender)
            send_mail(server.smtp_port, mail(2), sender)  # two waited: taken
            with pytest.raises(smtplib.SMTPSenderRefused) as refused:
                send_mail(server.smtp_port, mail(3), sender)
        finally:
            os.kill(server.proc.pid, signal.SIGCONT)
        assert refused.value.smtp_code == 451
        assert b"The server is busy (more than 2 mails wait to be processed); try again later" in \
            refused.value.smtp_error
        wait_until(lambda: len(set(acks)) == 3, timeout=120, what="the three stored mails answered")
        send_mail(server.smtp_port, mail(3), sender)
        wait_until(lambda: f"<busy.3@{BOT_DOMAIN}>" in acks, timeout=120, what="the fourth, sent again, answered")
    finally:
        server.stop()
        relay.stop()
    conn = sqlite3.connect(str(instance / "pbem.sqlite3"))
    try:
        assert conn.execute("SELECT status, COUNT(*) FROM inbound GROUP BY status").fetchall() == [("processed", 4)]
    finally:
        conn.close()
    assert sorted(acks) == [f"<busy.{n}@{BOT_DOMAIN}>" for n in range(4)]


def test_the_answer_address_read_from_the_mails_own_parse_is_the_one_read_from_its_bytes():
    """``answer_address(raw, head)`` with the head the mail's parse kept (not parsed a second time) gives the
    address ``answer_address(raw)`` gives, for every Reply-To and From a stranger might write; a head
    reaching past addresses.HEAD_LIMIT is not kept (the bytes are parsed as before)."""
    from pbem.server import addresses
    from pbem.server.mail.inbound import parse_message

    heads = [
        "From: anna@example.org", "From: Anna <anna@example.org>\r\nReply-To: other@example.net",
        "From: anna@example.org\r\nReply-To: a@example.net, b@example.net",
        "From: anna@example.org\r\nReply-To: x@example.net\r\nReply-To: y@example.net",
        "From: =?utf-8?q?Anna?= <anna@example.org>\r\nReply-To: =?utf-8?q?x?=@example.net",
        "From: not an address", "Reply-To: only@example.net", "From: anna@example.org\r\nReply-To: ",
        "From: (comment) anna@example.org (more)\r\nReply-To: \"q, w\" <qw@example.net>",
        "From: anna@example.org\r\nReply-To:\r\n fold@example.net", "From: ANNA@EXAMPLE.ORG",
        "From: anna@exa mple.org", "Subject: none", "From: <>",
    ]
    for head in heads:
        for body in ("GAME 1 KEY x\r\n", ""):
            raw = (head + "\r\nTo: pbem@localhost\r\nMessage-ID: <m@x>\r\n\r\n" + body).encode()
            parsed = parse_message(raw)
            assert parsed.head is not None, head
            assert addresses.answer_address(raw, parsed.head) == addresses.answer_address(raw), head
    long = ("From: anna@example.org\r\nReply-To: other@example.net\r\n"
            + "X-Pad: " + "p" * 998 + "\r\n") * 70
    raw = (long + "\r\nGAME 1\r\n").encode()
    assert len(long) > addresses.HEAD_LIMIT and parse_message(raw).head is None
    assert addresses.answer_address(raw, parse_message(raw).head) == addresses.answer_address(raw)
