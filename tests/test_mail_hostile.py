"""Strangers' mail through the SMTP door: what it may make the server do (issue 14).

Every test sends real mail to the built-in receiver on loopback, which stores
it in a real SQLite file; the mail worker's function then processes it, and
the answers are read from the outbox.
"""

from __future__ import annotations

import smtplib
import threading
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from conftest import Clock

from pbem.server import inbox, throttle
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.service import Service
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
ANNA, FRED = "anna@example.org", "fred@example.org"
SPAM = "CHEAP-PILLS-AT-evil.example"


class Door:
    """A service on a real database behind a real SMTP receiver."""

    def __init__(self, tmp_path):
        self.clock = Clock(datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc))
        self.store = Store(tmp_path / "pbem.sqlite3", clock=self.clock)
        self.service = Service(self.store, clock=self.clock)
        self.game_id, self.keys = self.service.create_game("Test", {"austria": ANNA, "france": FRED},
                                                           scenario=SMALL, seed=3, settings={"hours": 48})
        self.smtpd = start_smtpd(lambda raw: inbox.receive(self.service, raw, "smtp"))

    def send(self, raw: bytes, sender: str = "someone@example.net") -> None:
        with smtplib.SMTP("127.0.0.1", self.smtpd.port, timeout=30) as client:
            client.sendmail(sender, ["pbem@localhost"], raw)

    def process(self) -> int:
        return inbox.process_pending(self.service)

    def answers(self, to=None) -> list[dict]:
        rows = self.store.mails("WHERE kind = 'reply' ORDER BY id")
        return [r for r in rows if to is None or r["to_addr"] == to]

    def close(self):
        self.smtpd.stop()
        self.store.close()


@pytest.fixture
def door(tmp_path):
    d = Door(tmp_path)
    yield d
    d.close()


def mail(text, sender="someone@example.net", subject="orders", message_id=None, **headers) -> bytes:
    msg = EmailMessage()
    msg["From"] = sender
    msg["To"] = "pbem@localhost"
    msg["Subject"] = subject
    if message_id:
        msg["Message-ID"] = message_id
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    msg.set_content(text)
    return msg.as_bytes()


# -- 2. strangers' mail: no attacker text, capped -------------------------------------------------


def test_an_answer_to_a_stranger_quotes_nothing_of_his_mail(door):
    """A mail with no key naming an unknown side, Reply-To a victim: the victim's answer
    carries neither the subject nor the side text the attacker chose."""
    door.send(mail(f"GAME {door.game_id} SIDE {SPAM} KEY x\nSTATUS\n", subject=f"Re: {SPAM} click here",
                   Reply_To="victim@example.com"))
    door.send(mail(f"GAME 999{SPAM} SIDE Austria KEY x\n", subject=SPAM, Reply_To="victim@example.com"))
    door.send(mail(f"Hello, {SPAM}\n", subject=SPAM, Reply_To="victim@example.com"))
    door.process()
    answers = door.answers("victim@example.com")
    assert len(answers) == 3
    for answer in answers:
        assert SPAM not in answer["subject"] and SPAM not in answer["body"]
        assert answer["subject"] == inbox.STRANGER_SUBJECT


def test_answers_to_strangers_are_capped_per_address_per_source_and_in_all(door):
    for i in range(10):  # one victim, many forged senders
        door.send(mail("Hello\n", sender=f"s{i}@example.net", Reply_To="victim@example.com"))
    for i in range(10):  # one sender, many victims
        door.send(mail("Hello\n", sender="spammer@example.net", Reply_To=f"v{i}@example.com"))
    door.process()
    assert len(door.answers("victim@example.com")) == throttle.STRANGER_PER_ADDRESS
    assert len([a for a in door.answers() if a["to_addr"][:2] in {f"v{i}" for i in range(10)}]) \
        == throttle.STRANGER_PER_SOURCE
    for i in range(throttle.STRANGER_PER_HOUR + 20):  # everyone different: the site-wide cap
        door.store.execute("INSERT INTO inbound (received_at, raw, source) VALUES (?, ?, 'smtp')",
                           (door.store.now(), mail("HELP\n", sender=f"x{i}@example.net")))
    door.process()
    assert len(door.answers()) == throttle.STRANGER_PER_HOUR
    door.clock.advance(hours=2)  # an hour later, strangers are answered again
    door.send(mail("HELP\n", sender="late@example.net"))
    door.process()
    assert len(door.answers("late@example.net")) == 1


# -- 3. robots' mail is never answered; every answer is capped -------------------------------------


@pytest.mark.parametrize("headers", [
    {"X_MS_Exchange_Inbox_Rules_Loop": "anna@example.org"},
    {"subject": "Automatic reply: orders"},
    {"subject": "Réponse automatique : absent"},
    {"subject": "Out of Office: back Monday"},
    {"X_Autogenerated": "Reply"},
    {"Precedence": "auto-reply"},
    {"sender": "noreply@example.org"},
    {"sender": "no-reply+bounce@example.org"},
    {"sender": "do-not-reply@example.org"},
    {"List_Unsubscribe": "<mailto:leave@example.org>"},
    {"X_Loop": "pbem"},
])
def test_robot_markers_are_never_answered(door, headers):
    headers = dict(headers)
    sender = headers.pop("sender", "robot@example.org")
    subject = headers.pop("subject", "orders")
    door.send(mail(f"GAME {door.game_id} SIDE Austria KEY {door.keys['austria']}\nSTATUS\n", sender=sender,
                   subject=subject, **headers))
    door.process()
    assert door.answers() == []
    assert door.store.query_one("SELECT status FROM inbound")["status"] == "dropped"


def test_every_kind_of_answer_is_capped_per_address(door, monkeypatch):
    """A responder that marks nothing and quotes the key: its loop ends at the cap."""
    monkeypatch.setattr(throttle, "ANSWERS_PER_ADDRESS", 12)
    for i in range(20):
        door.send(mail(f"GAME {door.game_id} SIDE Austria KEY {door.keys['austria']}\nSTATUS\n", sender=ANNA,
                       subject=f"Re: [pbem {door.game_id}] Status {i}"))
    door.process()
    assert len(door.answers(ANNA)) == 12


# -- 5. a hostile MIME structure is not parsed, and parsing holds no lock ----------------------------


def many_parts(count: int, depth: int = 1) -> bytes:
    body = "".join("--b\r\n\r\n" for _ in range(count)) + "--b--\r\n"
    head = "From: someone@example.net\r\nTo: pbem@localhost\r\nSubject: parts\r\n"
    return (head + "Content-Type: multipart/mixed; boundary=b\r\n\r\n" + body).encode()


def nested(depth: int) -> bytes:
    text = "Content-Type: text/plain\r\n\r\nHELP\r\n"
    for level in range(depth):
        text = f"Content-Type: multipart/mixed; boundary=n{level}\r\n\r\n--n{level}\r\n{text}--n{level}--\r\n"
    return ("From: someone@example.net\r\nTo: pbem@localhost\r\nSubject: deep\r\n" + text).encode()


@pytest.mark.parametrize("raw", [many_parts(45_000), nested(60)], ids=["45000-parts", "60-deep"])
def test_a_mail_beyond_the_mime_bounds_is_not_parsed(door, monkeypatch, raw):
    parsed = []
    real = inbox.parse_message
    monkeypatch.setattr(inbox, "parse_message", lambda data, *a, **k: parsed.append(len(data)) or real(data, *a, **k))
    door.send(raw)
    door.process()
    row = door.store.query_one("SELECT status, result FROM inbound")
    assert row["status"] == "processed" and "MIME" in row["result"]
    assert all(size < 1000 for size in parsed)  # only the head was read
    (answer,) = door.answers("someone@example.net")
    assert "could not be read" in answer["body"]


def test_a_mail_is_parsed_outside_the_lock_and_any_transaction(door, monkeypatch):
    parsing, release = threading.Event(), threading.Event()
    real = inbox.parse_message

    def slow(*args, **kwargs):
        parsing.set()
        release.wait(30)
        return real(*args, **kwargs)

    monkeypatch.setattr(inbox, "parse_message", slow)
    door.send(mail("HELP\n"))
    worker = threading.Thread(target=door.process)
    worker.start()
    try:
        assert parsing.wait(30)
        got = []

        def try_lock():
            got.append(door.service.lock.acquire(timeout=10))
            if got[-1]:
                door.service.lock.release()

        other = threading.Thread(target=try_lock)
        other.start()
        other.join()
        assert got == [True], "the service lock is held while a mail is parsed"
        with door.store.transaction():  # no write transaction is open either
            door.store.audit("test", "probe")
    finally:
        release.set()
        worker.join(30)
    assert door.answers("someone@example.net")


def test_reads_do_not_wait_for_a_write_transaction(door):
    writing, release, done = threading.Event(), threading.Event(), threading.Event()

    def writer():
        with door.store.transaction():
            door.store.audit("test", "long write")
            writing.set()
            release.wait(30)

    thread = threading.Thread(target=writer)
    thread.start()
    try:
        assert writing.wait(30)
        reader = threading.Thread(target=lambda: (door.service.info(door.game_id), door.store.read_audit(),
                                                  done.set()))
        reader.start()
        reader.join(10)
        assert done.is_set(), "a read waited for another thread's write transaction"
    finally:
        release.set()
        thread.join(30)


# -- 6. wrong keys: the owner is told once, grouped ---------------------------------------------------


def test_wrong_keys_from_forged_senders_reach_the_owner_once_grouped(door):
    for i in range(10):
        door.send(mail(f"GAME {door.game_id} SIDE Austria KEY guess{i}\nSTATUS\n", sender=f"forged{i}@example.net"))
        door.process()
        door.clock.advance(minutes=1)
    notices = [a for a in door.answers(ANNA) if "wrong key" in a["subject"]]
    assert len(notices) == 1 and notices[0]["body"].startswith("1 mail tried")
    door.clock.advance(hours=7)
    door.send(mail(f"GAME {door.game_id} SIDE Austria KEY again\nSTATUS\n", sender="forged-late@example.net"))
    door.process()
    notices = [a for a in door.answers(ANNA) if "wrong key" in a["subject"]]
    assert len(notices) == 2 and notices[1]["body"].startswith("10 mails tried")  # nine held back, and the new one


# -- 10. duplicates: by content without a Message-ID, by Message-ID per sender ---------------------------


def test_a_mail_without_message_id_delivered_twice_is_processed_once(door):
    raw = mail(f"GAME {door.game_id} SIDE Austria KEY {door.keys['austria']}\nVACATION 2\n", sender=ANNA)
    assert b"Message-ID" not in raw
    before = door.service.deadline(door.game_id)
    door.send(raw, sender=ANNA)
    door.send(raw, sender=ANNA)  # a relay whose 250 was lost sends it again
    door.process()
    assert door.store.query_one("SELECT COUNT(*) AS n FROM inbound")["n"] == 1
    assert (door.service.deadline(door.game_id) - before).days == 2


def test_a_reused_message_id_from_another_sender_is_not_a_duplicate(door):
    door.send(mail(f"GAME {door.game_id} SIDE Austria KEY {door.keys['austria']}\nSTATUS\n", sender=ANNA,
                   message_id="<m1@example.org>"), sender=ANNA)
    door.send(mail("HELP\n", sender="other@example.net", message_id="<m1@example.org>"))
    door.send(mail(f"GAME {door.game_id} SIDE Austria KEY {door.keys['austria']}\nORDERS\n", sender=ANNA,
                   message_id="<m1@example.org>"), sender=ANNA)  # the same sender's id again: a duplicate
    door.process()
    assert door.store.query_one("SELECT COUNT(*) AS n FROM inbound")["n"] == 2
    assert len(door.answers("other@example.net")) == 1 and len(door.answers(ANNA)) == 1


# -- 12. a broken Reply-To is not answered to -------------------------------------------------------------


@pytest.mark.parametrize("reply_to", ["=?utf-8?q?victim=40example.com?=", "=?utf-8?q?=0D=0ABcc:_x@y.org?= <a@b.org>",
                                      "=?utf-8?b?dmljdGlt?=@example.com", "=?utf-8?q?broken"])
def test_a_broken_encoded_word_in_reply_to_falls_back_to_from(door, reply_to):
    raw = (f"From: anna@example.org\r\nTo: pbem@localhost\r\nReply-To: {reply_to}\r\nSubject: s\r\n\r\n"
           f"GAME {door.game_id} SIDE Austria KEY {door.keys['austria']}\r\nSTATUS\r\n").encode()
    door.send(raw, sender=ANNA)
    door.process()
    assert [a["to_addr"] for a in door.answers()] == [ANNA]
