import smtplib
import threading
from datetime import datetime, timezone
from email import message_from_bytes, policy

import pytest

from pbem.server.mail.inbound import parse_message
from pbem.server.mail.outbox import Sender, queue
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.store import Store

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)
RAW = (
    "From: Jean Lannes <lannes@example.fr>\r\nTo: orders@pbem.example.org\r\nSubject: Orders\r\n"
    "Message-ID: <smtp-test@example.fr>\r\nContent-Type: text/plain; charset=utf-8\r\n"
    "Content-Transfer-Encoding: 8bit\r\n\r\n"
    "GAME 12 SIDE french TURN 3 KEY x\r\n.leading dot\r\n..two dots\r\nGénéral ✓\r\n"
).encode("utf-8")


@pytest.fixture
def smtpd():
    """Start a receiver with the given deliver function; stopped after the test."""
    controllers = []

    def start(deliver, **kwargs):
        controller = start_smtpd(deliver, **kwargs)
        controllers.append(controller)
        return controller

    yield start
    for controller in controllers:
        controller.stop()


def send(port, raw=RAW, sender="lannes@example.fr"):
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        client.sendmail(sender, ["orders@pbem.example.org"], raw)


def test_receiver_hands_over_the_exact_bytes(smtpd):
    received = []
    controller = smtpd(received.append)
    assert controller.port > 0
    send(controller.port)
    assert received == [b"Return-Path: <lannes@example.fr>\r\n" + RAW]


def test_receiver_without_return_path(smtpd):
    received = []
    send(smtpd(received.append, return_path=False).port)
    assert received == [RAW]


def test_mail_for_other_addresses_is_refused(smtpd):
    received = []
    port = smtpd(received.append, recipients=["Orders@pbem.example.org", "@games.example.org"]).port
    send(port)
    with smtplib.SMTP("127.0.0.1", port, timeout=10) as client:
        client.sendmail("x@example.fr", ["anyone@games.example.org"], RAW)
        with pytest.raises(smtplib.SMTPRecipientsRefused) as caught:
            client.sendmail("x@example.fr", ["victim@elsewhere.example"], RAW)
    assert caught.value.recipients["victim@elsewhere.example"][0] == 550
    assert len(received) == 2


def test_bounce_gets_an_empty_return_path(smtpd):
    received = []
    send(smtpd(received.append).port, sender="")
    assert received[0].startswith(b"Return-Path: <>\r\n")
    assert parse_message(received[0]).auto


def test_250_only_after_the_message_is_stored(smtpd, tmp_path):
    store = Store(tmp_path / "pbem.db")
    release, answered = threading.Event(), threading.Event()

    def deliver(raw):
        store.store_inbound(raw, "smtp")
        release.wait(10)

    controller = smtpd(deliver)
    client = threading.Thread(target=lambda: (send(controller.port), answered.set()))
    client.start()
    assert not answered.wait(0.5)  # deliver has not returned: no 250 yet
    release.set()
    client.join(10)
    assert answered.is_set()
    (inbound_id,) = store.pending_inbound()
    row = store.get_inbound(inbound_id)
    assert row["raw"].endswith(RAW) and row["message_id"] == "<smtp-test@example.fr>"
    store.close()


def test_failed_deliver_answers_451(smtpd):
    def deliver(raw):
        raise OSError("disk full")

    with pytest.raises(smtplib.SMTPDataError) as caught:
        send(smtpd(deliver).port)
    assert caught.value.smtp_code == 451


def test_too_big_is_refused_with_552(smtpd):
    received = []
    controller = smtpd(received.append, limit_bytes=1000)
    big = RAW + (b"x" * 70 + b"\r\n") * 30
    with pytest.raises(smtplib.SMTPSenderRefused) as caught:  # announced with SIZE=
        send(controller.port, big)
    assert caught.value.smtp_code == 552
    with smtplib.SMTP("127.0.0.1", controller.port, timeout=10) as client:  # not announced
        client.ehlo()
        client.mail("lannes@example.fr")
        client.rcpt("orders@pbem.example.org")
        code, _ = client.data(big)
    assert code == 552
    assert received == []


def test_sender_delivers_through_a_real_relay(smtpd, tmp_path):
    relayed = []
    relay = smtpd(relayed.append)
    store = Store(tmp_path / "pbem.db", clock=lambda: T0)
    outbox_id = queue(store, "lannes@example.fr", "Game 12, day 3", "Your orders were accepted.",
                      html="<p>Accepted</p><img src='cid:map'>",
                      attachments=[("map.png", "image/png", b"\x89PNG\r\n\x1a\nxyz", "map")])
    sender = Sender(store, relay=("127.0.0.1", relay.port), from_addr="pbem@games.example.org")
    assert sender.send_due() == 1
    assert sender.send_due() == 0
    (raw,) = relayed
    msg = message_from_bytes(raw, policy=policy.default)
    row = store.mail("WHERE id = ?", (outbox_id,))
    assert row["status"] == "sent"
    assert msg["Return-Path"] == "<pbem@games.example.org>"
    assert msg["Message-ID"] == row["message_id"]
    assert msg["Subject"] == "Game 12, day 3" and msg["Auto-Submitted"] == "auto-generated"
    image = next(p for p in msg.walk() if p["Content-ID"] == "<map>")
    assert image.get_content() == b"\x89PNG\r\n\x1a\nxyz"
    assert parse_message(raw).auto  # if it ever came back to us, it would not be answered
    store.close()


def test_relay_temporary_failure_is_retried_and_refusal_is_final(smtpd, tmp_path):
    def unavailable(raw):
        raise OSError("try later")

    store = Store(tmp_path / "pbem.db", clock=lambda: T0)
    temporary = smtpd(unavailable)
    small = smtpd(lambda raw: None, limit_bytes=500)
    first = queue(store, "a@example.org", "Day 3", "report")
    Sender(store, relay=("127.0.0.1", temporary.port)).send_due()
    row = store.mail("WHERE id = ?", (first,))
    assert (row["status"], row["attempts"]) == ("queued", 1) and "451" in row["last_error"]

    second = queue(store, "b@example.org", "Day 3", "x" * 2000)
    Sender(store, relay=("127.0.0.1", small.port)).send_due()
    row = store.mail("WHERE id = ?", (second,))
    assert (row["status"], row["attempts"]) == ("failed", 1) and "552" in row["last_error"]
    store.close()


def test_the_receiver_answers_451_while_too_many_stored_mails_wait(smtpd, tmp_path):
    """Back-pressure (setting smtp_backlog): with more than ``most`` stored mails waiting to be processed,
    every sender gets 451 at MAIL FROM with a clear text, and nothing is stored; once the server processed
    enough of them, the same mail is taken. ``most`` 0: no limit."""
    from pbem.server.mail.limits import Backlog

    store = Store(tmp_path / "pbem.db")
    waiting = [store.store_inbound(b"Message-ID: <w%d@example.fr>\r\n\r\nx\r\n" % n, "smtp")[0] for n in range(3)]
    controller = smtpd(lambda raw: store.store_inbound(raw, "smtp"), backlog=Backlog(store, 2))
    with pytest.raises(smtplib.SMTPSenderRefused) as caught:
        send(controller.port)
    assert caught.value.smtp_code == 451
    assert b"busy (more than 2 mails wait to be processed); try again later" in caught.value.smtp_error
    assert len(store.pending_inbound()) == 3
    store.execute("UPDATE inbound SET status = 'processed' WHERE id = ?", (waiting[0],))
    send(controller.port)  # two wait: taken
    assert len(store.pending_inbound()) == 3
    with pytest.raises(smtplib.SMTPSenderRefused):  # three wait again
        send(controller.port, RAW.replace(b"smtp-test", b"smtp-test-2"))
    assert Backlog(store, 0).refusal() == "" and Backlog(store, 3).refusal() == ""
    assert Backlog(store, 2).refusal() != ""
    store.close()
