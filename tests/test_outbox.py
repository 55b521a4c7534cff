import email.policy
import mailbox
import re
import socket
import threading
from datetime import datetime, timedelta, timezone

import pytest

from pbem.server.mail.inbound import parse_message
from pbem.server.mail.outbox import LEASE, Sender, backoff, build_email, queue
from pbem.server.mail.reply import mark_text
from pbem.server.store import Store

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(64))


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pbem.db", clock=lambda: T0)
    yield s
    s.close()


def row(store, outbox_id):
    return store.mail("WHERE id = ?", (outbox_id,))


def closed_port() -> int:
    """A loopback port nobody listens on: connecting to it is refused."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def test_queue_with_the_same_dedupe_key_is_a_no_op(store):
    first = queue(store, "a@example.org", "Day 3", "report", kind="report", dedupe_key="game1/day3/french")
    again = queue(store, "a@example.org", "Day 3 (again)", "other", kind="report", dedupe_key="game1/day3/french")
    other = queue(store, "b@example.org", "Day 3", "report", dedupe_key="game1/day3/austrian")
    undeduped = [queue(store, "c@example.org", "x", "y") for _ in range(2)]
    assert again == first and other != first and undeduped[0] != undeduped[1]
    assert store.query_one("SELECT COUNT(*) AS n FROM outbox")["n"] == 4
    assert row(store, first)["subject"] == "Day 3"


def test_queue_joins_the_callers_transaction(store):
    with pytest.raises(RuntimeError):
        with store.transaction():
            queue(store, "a@example.org", "x", "y", dedupe_key="k")
            raise RuntimeError("crash before commit")
    assert store.mails() == []


def test_backoff_schedule():
    assert [backoff(n) for n in range(1, 10)] == [
        timedelta(minutes=m) for m in (1, 2, 4, 8, 16, 32, 60, 60, 60)
    ]


def test_failures_back_off_then_give_up(store):
    outbox_id = queue(store, "a@example.org", "Day 3", "report", game_id=None, kind="report")
    sender = Sender(store, relay=("127.0.0.1", closed_port()), max_attempts=4, timeout=5)
    now, waits = T0, []
    for attempt in range(1, 5):
        assert sender.send_due(now) == 0
        r = row(store, outbox_id)
        assert r["attempts"] == attempt and "ConnectionRefusedError" in r["last_error"]
        assert sender.send_due(now) == 0 and row(store, outbox_id)["attempts"] == attempt  # not due again yet
        due = datetime.fromisoformat(r["next_attempt_at"].replace("Z", "+00:00"))
        waits.append(due - now)
        now = due
    assert waits[:3] == [timedelta(minutes=1), timedelta(minutes=2), timedelta(minutes=4)]
    assert row(store, outbox_id)["status"] == "failed"
    assert sender.send_due(now + timedelta(days=1)) == 0
    (entry,) = store.read_audit()
    assert entry["action"] == "mail failed" and entry["detail"]["outbox_id"] == outbox_id
    assert "ConnectionRefusedError" in entry["why"]


def test_build_email(store):
    html = '<p>Day 3</p><img src="cid:map3">'
    outbox_id = queue(store, "Jean <a@example.org>", "Game 12, day 3", "Day 3 report", html=html,
                      attachments=[("map.png", "image/png", PNG, "map3"), ("orders.txt", "text/plain", b"HOLD A", None)],
                      in_reply_to="<orders-1@example.org>")
    msg = build_email(row(store, outbox_id), from_addr="pbem@games.example.org")
    assert msg["Auto-Submitted"] == "auto-generated"
    assert msg["Message-ID"] == f"<pbem.{outbox_id}.20240501120000@games.example.org>"
    assert msg["In-Reply-To"] == "<orders-1@example.org>"
    assert build_email(row(store, outbox_id), from_addr="pbem@games.example.org")["Message-ID"] == msg["Message-ID"]
    assert msg.get_content_type() == "multipart/mixed"
    assert msg.get_body(("plain",)).get_content() == mark_text("Day 3 report")
    related = next(p for p in msg.walk() if p.get_content_type() == "multipart/related")
    assert related.get_payload()[0].get_content_type() == "text/html"
    image = related.get_payload()[1]
    assert image["Content-ID"] == "<map3>" and image.get_content() == PNG
    (attachment,) = msg.iter_attachments()
    assert attachment.get_filename() == "orders.txt" and attachment.get_payload(decode=True) == b"HOLD A"
    # our own mail, if it ever comes back, is recognised as a robot's
    assert parse_message(msg.as_bytes()).auto


def test_a_report_mails_boundaries_are_given_and_unscanned(store, monkeypatch):
    """Every multipart part carries a boundary of its own ("=_pbem_" and 96 random bits), so the generator never
    scans the flattened message for one; the bytes read back into the same parts."""
    import email
    from email.generator import Generator

    def scanned(*args, **kwargs):
        raise AssertionError("the generator looked for a boundary of its own")

    monkeypatch.setattr(Generator, "_make_boundary", classmethod(scanned))
    outbox_id = queue(store, "a@example.org", "Game 12, day 3", "Day 3 report", html='<p>Day 3</p><img src="cid:m">',
                      attachments=[("map.png", "image/png", PNG, "m"), ("orders.txt", "text/plain", b"HOLD A", None)])
    msg = build_email(row(store, outbox_id))
    raw = msg.as_bytes()
    marks = [p.get_boundary() for p in msg.walk() if p.is_multipart()]
    assert len(marks) == 3 and len(set(marks)) == 3
    assert all(re.fullmatch(r"=_pbem_[0-9a-f]{24}", m) for m in marks)
    back = email.message_from_bytes(raw, policy=email.policy.default)
    assert [p.get_content_type() for p in back.walk()] == [p.get_content_type() for p in msg.walk()]
    assert next(p for p in back.walk() if p.get_content_type() == "image/png").get_content() == PNG


def test_text_only_email(store):
    msg = build_email(row(store, queue(store, "a@example.org", "Help", "How to play")))
    assert msg.get_content_type() == "text/plain" and msg["Auto-Submitted"] == "auto-generated"


def test_maildir_delivery_writes_one_file(store, tmp_path):
    outbox_id = queue(store, "a@example.org", "Day 3", "report ☃")
    sender = Sender(store, maildir=tmp_path / "Maildir", from_addr="pbem@games.example.org")
    assert sender.send_due(T0) == 1
    assert sender.send_due(T0 + timedelta(hours=2)) == 0
    messages = list(mailbox.Maildir(tmp_path / "Maildir"))
    assert len(messages) == 1
    assert messages[0]["Subject"] == "Day 3" and messages[0]["To"] == "a@example.org"
    r = row(store, outbox_id)
    assert (r["status"], r["attempts"], r["sent_at"]) == ("sent", 1, "2024-05-01T12:00:00Z")
    assert messages[0]["Message-ID"] == r["message_id"]


def crash_while_sending(store, sender):
    """Claim a row as send_due does, then 'crash': close the database without finishing."""
    claimed = sender._claim(T0)
    store.close()
    return claimed


@pytest.mark.parametrize("delivered_before_crash", [False, True])
def test_sending_row_after_a_crash_is_delivered_exactly_once(tmp_path, delivered_before_crash):
    path, maildir = tmp_path / "pbem.db", tmp_path / "Maildir"
    store = Store(path, clock=lambda: T0)
    outbox_id = queue(store, "a@example.org", "Day 3", "report")
    claimed = crash_while_sending(store, Sender(store, maildir=maildir))
    if delivered_before_crash:
        Sender(store, maildir=maildir)._deliver(claimed)

    store = Store(path, clock=lambda: T0)
    assert row(store, outbox_id)["status"] == "sending"
    sender = Sender(store, maildir=maildir)
    assert sender.send_due(T0) == 0  # the lease of the crashed attempt still holds
    assert sender.send_due(T0 + LEASE) == 1
    assert sender.send_due(T0 + LEASE + timedelta(days=1)) == 0
    assert len(list(mailbox.Maildir(maildir))) == 1
    r = row(store, outbox_id)
    assert (r["status"], r["attempts"]) == ("sent", 2)
    store.close()


def test_a_message_that_cannot_be_built_fails_at_once(store, tmp_path):
    broken = queue(store, "a@example.org\nBcc: everyone@example.org", "Day 3", "report")
    fine = queue(store, "a@example.org", "Day\r\nBcc: everyone@example.org", "report")
    assert Sender(store, maildir=tmp_path / "Maildir").send_due(T0) == 1
    r = row(store, broken)
    assert (r["status"], r["attempts"]) == ("failed", 1) and "Unsendable" in r["last_error"]
    assert store.read_audit()[0]["detail"]["outbox_id"] == broken
    (msg,) = mailbox.Maildir(tmp_path / "Maildir")
    assert msg["Subject"] == "Day Bcc: everyone@example.org" and msg["Bcc"] is None
    assert row(store, fine)["status"] == "sent"


def test_sender_needs_exactly_one_destination(store, tmp_path):
    with pytest.raises(ValueError):
        Sender(store)
    with pytest.raises(ValueError):
        Sender(store, relay=("127.0.0.1", 25), maildir=tmp_path)


def test_two_senders_on_two_connections_deliver_each_message_once(tmp_path):
    path, maildir = tmp_path / "pbem.db", tmp_path / "Maildir"
    first, second = Store(path, clock=lambda: T0), Store(path, clock=lambda: T0)
    for n in range(30):
        queue(first, f"p{n}@example.org", f"Day {n}", "report")
    counts = []
    threads = [threading.Thread(target=lambda s=s: counts.append(Sender(s, maildir=maildir).send_due(T0)))
               for s in (first, second)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert sum(counts) == 30
    assert len(list(mailbox.Maildir(maildir))) == 30
    assert first.query_one("SELECT COUNT(*) AS n FROM outbox WHERE status = 'sent' AND attempts = 1")["n"] == 30
    first.close()
    second.close()
