"""The outbox, asserted exactly: the message as it goes out, the relay connection, failures.

These tests kill mutants scripts/mutation's "outbox" group found alive: the
headers of a built message (names and values as written), the Maildir name and
its exactly-once check, the one connection per batch and its hang-up, what a
permanent refusal is, and the audit entry of a mail given up.
"""

from __future__ import annotations

import base64
import hashlib
import html
import json
import mailbox
import smtplib
from datetime import datetime, timezone
from email import message_from_bytes, policy

import pytest

from pbem.server.mail import outbox
from pbem.server.mail.outbox import Sender, Unsendable, build_email, queue
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.store import Store

T0 = datetime(2024, 5, 1, 12, 0, tzinfo=timezone.utc)


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "pbem.db", clock=lambda: T0)
    yield s
    s.close()


@pytest.fixture
def relay():
    received, controllers = [], []
    controller = start_smtpd(received.append)
    controllers.append(controller)
    yield controller, received
    controller.stop()


def row(store, outbox_id):
    return store.mail("WHERE id = ?", (outbox_id,))


def test_a_message_carries_exactly_these_headers(store):
    outbox_id = queue(store, "Jean <a@example.org>", "Game 12, day 3", "report", in_reply_to="<o-1@example.org>")
    msg = build_email(row(store, outbox_id), from_addr="pbem@games.example.org")
    mid = f"<pbem.{outbox_id}.20240501120000@games.example.org>"
    assert msg.items()[:9] == [
        ("From", "pbem@games.example.org"), ("To", "Jean <a@example.org>"), ("Subject", "Game 12, day 3"),
        ("Date", "Wed, 01 May 2024 12:00:00 +0000"), ("Message-ID", mid), ("In-Reply-To", "<o-1@example.org>"),
        ("References", "<o-1@example.org>"), ("Auto-Submitted", "auto-generated"),
        ("X-Auto-Response-Suppress", "All")]
    plain = build_email(row(store, queue(store, "a@example.org", "Help", "x")))
    assert [name for name, _ in plain.items()][:7] == ["From", "To", "Subject", "Date", "Message-ID",
                                                     "Auto-Submitted", "X-Auto-Response-Suppress"]
    assert plain["From"] == "pbem@localhost" and plain["Message-ID"].endswith("@localhost>")


def test_the_message_id_domain_comes_from_the_sender_address_or_is_given():
    base = {"id": 7, "to_addr": "a@example.org", "subject": "s", "body": "b", "html": None,
            "attachments": None, "created": "2024-05-01T12:00:00Z"}
    assert build_email(base, '"pbem@x"@games.example')["Message-ID"] == "<pbem.7.20240501120000@games.example>"
    assert build_email(base, "pbem@a.example", "b.example")["Message-ID"] == "<pbem.7.20240501120000@b.example>"
    assert build_email({**base, "message_id": "<kept@here>"})["Message-ID"] == "<kept@here>"
    assert build_email(base).get_content_type() == "text/plain"  # no attachments column: none


def test_html_and_inline_images_and_attachments_keep_their_names(store):
    outbox_id = queue(store, "a@example.org", "Day", "text", html='<img src="cid:m">',
                      attachments=[("map.png", "image/png", b"PNG", "m"), ("o.txt", "text/plain", b"HOLD", None)])
    msg = build_email(row(store, outbox_id))
    html = next(p for p in msg.walk() if p.get_content_type() == "text/html")
    assert html["Content-Type"].startswith("text/html")
    image = next(p for p in msg.walk() if p["Content-ID"] == "<m>")
    assert image.get_filename() == "map.png" and image.get_content_type() == "image/png"
    # without an HTML part, an image meant to be inline is an attachment like any other
    text_only = build_email(row(store, queue(store, "a@example.org", "Day", "text",
                                             attachments=[("map.png", "image/png", b"PNG", "m")])))
    assert [(a.get_filename(), a.get_content_type()) for a in text_only.iter_attachments()] == \
        [("map.png", "image/png")]


def test_a_subject_is_one_line_of_at_most_900_characters(store):
    kept = "x" * 900
    assert row(store, queue(store, "a@example.org", kept, "b"))["subject"] == kept
    assert row(store, queue(store, "a@example.org", kept + "yz", "b"))["subject"] == kept
    assert row(store, queue(store, "a@example.org", "a\r\nBcc: b", "b"))["subject"] == "a Bcc: b"
    assert row(store, queue(store, "a@example.org", "s", "b"))["kind"] == ""


def test_what_counts_as_a_permanent_refusal():
    permanent = outbox._permanent
    assert permanent(Unsendable("x"))
    assert permanent(smtplib.SMTPRecipientsRefused({"a@x": (500, b"no"), "b@x": (550, b"no")}))
    assert not permanent(smtplib.SMTPRecipientsRefused({"a@x": (550, b"no"), "b@x": (499, b"later")}))
    assert permanent(smtplib.SMTPResponseException(500, b"no"))
    assert permanent(smtplib.SMTPDataError(552, b"too big"))
    assert not permanent(smtplib.SMTPResponseException(499, b"later"))
    assert not permanent(OSError("refused"))
    assert outbox.backoff(11) == outbox.backoff(40) == outbox.BACKOFF_CAP


def test_a_sender_needs_one_destination_and_says_so(store, tmp_path):
    with pytest.raises(ValueError) as error:
        Sender(store)
    assert str(error.value) == "give exactly one of relay=(host, port) and maildir=path"
    sender = Sender(store, maildir=tmp_path)
    assert (sender.from_addr, sender.domain, sender.starttls, sender.timeout, sender.relay_login) == \
        ("pbem@localhost", "localhost", False, 60, None)
    assert Sender(store, maildir=tmp_path, from_addr="p@games.example").domain == "games.example"
    assert Sender(store, maildir=tmp_path, from_addr='"p@x"@games.example').domain == "games.example"
    assert Sender(store, maildir=tmp_path, from_addr="p@", domain=None).domain == "localhost"
    assert Sender(store, maildir=tmp_path, from_addr="p@a.example", domain="b.example").domain == "b.example"


def test_the_maildir_file_is_named_from_the_row_and_written_once(store, tmp_path):
    maildir = tmp_path / "Maildir"
    outbox_id = queue(store, "a@example.org", "s", "b")
    sender = Sender(store, maildir=maildir, from_addr="pbem@Games_x.Example")
    assert sender.send_due(T0) == 1
    (written,) = (maildir / "new").iterdir()
    assert written.name == f"{int(T0.timestamp())}.pbem{outbox_id}.Games_x.Example"
    sent = message_from_bytes(written.read_bytes(), policy=policy.default)
    assert sent["Message-ID"] == f"<pbem.{outbox_id}.20240501120000@Games_x.Example>"
    assert row(store, outbox_id)["message_id"] == sent["Message-ID"]
    inode = written.stat().st_ino
    # a retry of a row already delivered (in new/, or read and moved to cur/) writes nothing again
    claimed = row(store, outbox_id)
    sender._deliver(claimed)
    assert written.stat().st_ino == inode and len(list((maildir / "new").iterdir())) == 1
    written.rename(maildir / "cur" / (written.name + ":2,S"))
    sender._deliver(claimed)
    assert list((maildir / "new").iterdir()) == [] and len(list((maildir / "cur").iterdir())) == 1
    odd = Sender(store, maildir=maildir, domain="a:b/c")
    assert odd.send_due(T0) == 0
    queue(store, "a@example.org", "s", "b")
    assert odd.send_due(T0) == 1
    assert sorted(p.name.rsplit(".", 1)[-1] for p in (maildir / "new").iterdir()) == ["a_b_c"]


class CountingSMTP(outbox.Relay):
    """The real client (the outbox's, smtplib's with its own dot-stuffing), counting its connections, their timeouts and their hang-ups."""

    opened: list = []
    quits: list = []

    def __init__(self, host="", port=0, **kwargs):
        CountingSMTP.opened.append((host, port, kwargs.get("timeout")))
        super().__init__(host, port, **kwargs)

    def quit(self):
        CountingSMTP.quits.append(1)
        return super().quit()


def test_one_connection_per_batch_hung_up_after_it(store, relay, monkeypatch):
    controller, received = relay
    CountingSMTP.opened, CountingSMTP.quits = [], []
    monkeypatch.setattr(outbox, "Relay", CountingSMTP)
    for n in range(3):
        queue(store, f"p{n}@example.org", f"day {n}", "report")
    sender = Sender(store, relay=("127.0.0.1", controller.port), from_addr="pbem@games.example", timeout=7)
    assert sender.send_due(T0) == 3
    assert CountingSMTP.opened == [("127.0.0.1", controller.port, 7)]
    assert CountingSMTP.quits == [1] and sender._smtp is None
    assert len(received) == 3
    first = message_from_bytes(received[0], policy=policy.default)
    assert first["From"] == "pbem@games.example" and first["To"] == "p0@example.org"
    assert first["Return-Path"] == "<pbem@games.example>"


def test_a_mail_given_up_is_audited_with_its_row(store, tmp_path):
    game_id = store.create_game("marengo", "small", 3)
    outbox_id = queue(store, "a@example.org", "s", "b", kind="report", game_id=game_id)
    store.execute("UPDATE outbox SET attachments = 'not json' WHERE id = ?", (outbox_id,))
    assert Sender(store, maildir=tmp_path / "M").send_due(T0) == 0
    assert row(store, outbox_id)["status"] == "failed"
    (entry,) = [a for a in store.read_audit() if a["action"] == "mail failed"]
    assert entry["who"] == "outbox" and entry["game_id"] == game_id
    assert entry["why"].startswith("Unsendable: the message cannot be built: ")
    assert entry["detail"] == {"outbox_id": outbox_id, "to": "a@example.org", "kind": "report", "attempts": 1}


# -- attachments drawn again, a subject that is not ASCII, a batch with a failure -----------------------------


def test_an_attachment_is_its_bytes_or_drawn_again_by_its_reference():
    from pbem.server.mail.outbox import DrawingFailed, content

    assert content({"filename": "a.txt", "data": "aGk="}) == b"hi"
    assert content({"filename": "a.txt", "data": "aGk="}, resolve=lambda ref: b"never") == b"hi"
    asked = []
    assert content({"filename": "map.png", "ref": {"map": [1, 2]}}, lambda ref: asked.append(ref) or b"PNG") == b"PNG"
    assert asked == [{"map": [1, 2]}]
    with pytest.raises(Unsendable) as nothing:
        content({"filename": "map.png", "ref": {"map": [1, 2]}})
    assert str(nothing.value) == "map.png is kept as a reference and nothing here can draw it"

    def broken(ref):
        raise KeyError("svg")

    with pytest.raises(DrawingFailed) as failed:
        content({"filename": "map.png", "ref": {"map": [1, 2]}}, broken)
    assert str(failed.value) == "map.png could not be drawn: KeyError: 'svg'"
    assert isinstance(failed.value.__cause__, KeyError)


def test_a_sender_without_a_drawer_draws_with_a_service_on_its_store(tmp_path):
    from pbem.server.service import Service

    from websupport import SMALL

    store = Store(tmp_path / "pbem.db")
    try:
        game_id, _ = Service(store).create_game("Drawn", {"austria": "a@example.org", "france": "b@example.org"},
                                                scenario=SMALL, seed=3)
        ref = {"view": [game_id, None, "austria"]}  # the position now
        sender = Sender(store, maildir=tmp_path / "Maildir")
        drawn = sender.resolve(ref)
        assert drawn == Service(store).attachment(ref) and drawn.startswith(b"{")
        assert sender.resolve(ref) == drawn  # the same drawer, made once
        assert Sender(store, maildir=tmp_path / "M2", resolve=lambda r: b"given").resolve(ref) == b"given"
    finally:
        store.close()


def test_a_subject_that_is_not_ascii_is_folded_with_its_spaces_inside_the_encoded_words(store):
    from email.header import decode_header, make_header

    subject = "[pbem 12] Вітаємо: ви граєте Австрія, день 3 з 14 — накази до п'ятниці 18:00 Europe/Kyiv"
    msg = build_email(row(store, queue(store, "a@example.org", subject, "x")))
    head = msg.as_bytes().decode("ascii").split("\n\n")[0]
    folded = head[head.index("Subject: "):head.index("\nDate: ")]
    # three encoded words, the first sized to sit after "Subject: " within 78 characters, every space inside one
    assert folded.split("\n") == [
        "Subject: =?utf-8?b?W3BiZW0gMTJdINCS0ZbRgtCw0ZTQvNC+OiDQstC4INCz0YDQsNGU0YI=?=",
        " =?utf-8?b?0LUg0JDQstGB0YLRgNGW0Y8sINC00LXQvdGMIDMg0LcgMTQg4oCUINC90LDQutCw?=",
        " =?utf-8?b?0LfQuCDQtNC+INC/J9GP0YLQvdC40YbRliAxODowMCBFdXJvcGUvS3lpdg==?="]
    assert str(make_header(decode_header(folded[len("Subject: "):]))) == subject
    received = message_from_bytes(msg.as_bytes(), policy=policy.default)
    assert received["Subject"] == subject  # "ви граєте", not "виграєте"


def test_claim_takes_the_next_due_row_only(tmp_path, store):
    sender = Sender(store, maildir=tmp_path / "Maildir")
    assert sender._claim(T0) is None
    first, second = queue(store, "a@example.org", "One", "x"), queue(store, "b@example.org", "Two", "y")
    assert sender._claim(T0)["id"] == first
    assert [(r["id"], r["status"]) for r in store.query("SELECT id, status FROM outbox ORDER BY id")] == \
        [(first, "sending"), (second, "queued")]


def _batch_with_a_failure(store, tmp_path, seen):
    """Three rows in one batch: the second's attachment cannot be drawn (it records, while being built,
    how the first row stands)."""
    ids = [queue(store, "a@example.org", "One", "x"),
           queue(store, "b@example.org", "Two", "y",
                 attachments=[("map.png", "image/png", outbox.Drawn({"map": [1]}), None)]),
           queue(store, "c@example.org", "Three", "z")]

    def draw(ref):
        seen.append(row(store, ids[0])["status"])
        raise OSError("no rasteriser")

    return ids, Sender(store, maildir=tmp_path / "Maildir", resolve=draw)


def test_a_failure_in_a_batch_keeps_the_rows_delivered_before_it(tmp_path, store, monkeypatch):
    monkeypatch.setattr(outbox, "MARK_EVERY", 10 ** 9)  # no mark by time: only the failure marks mid-batch
    seen = []
    ids, sender = _batch_with_a_failure(store, tmp_path, seen)
    assert sender.send_due(T0) == 2
    assert seen == ["sending"]  # delivered, not yet marked when the second was built
    rows = [row(store, i) for i in ids]
    assert [(r["status"], r["sent_at"]) for r in rows] == [
        ("sent", "2024-05-01T12:00:00Z"), ("queued", None), ("sent", "2024-05-01T12:00:00Z")]
    assert rows[1]["last_error"] == "DrawingFailed: map.png could not be drawn: OSError: no rasteriser"


def test_rows_delivered_are_marked_sent_as_often_as_mark_every_says(tmp_path, store, monkeypatch):
    monkeypatch.setattr(outbox, "MARK_EVERY", 0)  # every delivery marked at once
    seen = []
    ids, sender = _batch_with_a_failure(store, tmp_path, seen)
    assert sender.send_due(T0) == 2
    assert seen == ["sent"]  # the first row was marked sent before the second was built
    assert [(row(store, i)["status"], row(store, i)["sent_at"]) for i in ids] == [
        ("sent", "2024-05-01T12:00:00Z"), ("queued", None), ("sent", "2024-05-01T12:00:00Z")]


def test_a_bound_on_the_time_since_the_last_mark_is_a_difference_of_two_readings(tmp_path, store, monkeypatch):
    import time

    # a bound no delivery here takes, but below the sum of two readings of the monotonic clock (seconds since
    # the machine started): a sum in place of the difference would mark the first row before the second
    monkeypatch.setattr(outbox, "MARK_EVERY", time.monotonic())
    seen = []
    _, sender = _batch_with_a_failure(store, tmp_path, seen)
    assert sender.send_due(T0) == 2 and seen == ["sending"]


def test_a_long_html_is_kept_once_by_its_digest_and_a_short_one_in_its_row(store):
    from pbem.server.store import TEXT_INLINE

    short, edge, long = "<p>a</p>", "x" * TEXT_INLINE, "<html><body>" + "y" * TEXT_INLINE + "</body></html>"
    rows = [store.query_one("SELECT * FROM outbox WHERE id = ?",  # the row as stored, its kept texts not read
                            (queue(store, "a@example.org", "S", "b", html=h),)) for h in (short, edge, long, None)]
    assert [(r["html"], r["html_ref"]) for r in rows[:2]] == [(short, None), (edge, None)]
    assert rows[2]["html"] is None and rows[2]["html_ref"] == hashlib.sha256(long.encode()).hexdigest()
    assert store.text(rows[2]["html_ref"]) == long
    assert (rows[3]["html"], rows[3]["html_ref"]) == (None, None)
    # the message reads it back; without the store's texts it cannot be built
    msg = build_email(rows[2], texts=store.text)
    assert msg.get_body(("html",)).get_content().count("y" * TEXT_INLINE) == 1
    with pytest.raises(Unsendable) as unread:
        build_email(rows[2])
    assert str(unread.value) == f"the HTML kept as {rows[2]['html_ref'][:12]} cannot be read"
    with pytest.raises(Unsendable):
        build_email({**rows[2], "html_ref": "0" * 64}, texts=store.text)  # kept no more
    plain = build_email(rows[3], texts=lambda digest: pytest.fail("nothing to read"))
    assert plain.get_body(("html",)) is None


def test_an_attachment_to_draw_again_is_stored_as_its_reference(store):
    drawn, data = outbox.Drawn({"map": [3, 2, "austria", "fr"], "svg": "ab12"}), b"\x89PNG"
    outbox_id = queue(store, "a@example.org", "S", "b", attachments=[("map.png", "image/png", drawn, "map"),
                                                                      ("view.json", "application/json", data, None)])
    assert json.loads(row(store, outbox_id)["attachments"]) == [
        {"filename": "map.png", "mime": "image/png", "ref": {"map": [3, 2, "austria", "fr"], "svg": "ab12"},
         "cid": "map"},
        {"filename": "view.json", "mime": "application/json", "data": base64.b64encode(data).decode(), "cid": None}]


def test_the_marker_line_is_in_the_recipients_language(store):
    from pbem.server.mail.reply import mark_line

    r = row(store, queue(store, "a@example.org", "S", "the body", html="<html><body><p>b</p></body></html>"))
    for lang in ("fr", "zh"):
        msg = build_email(r, lang=lang)
        assert msg.get_body(("plain",)).get_content().startswith(mark_line(lang) + "\n\nthe body\n")
        assert html.escape(mark_line(lang)) in msg.get_body(("html",)).get_content()
    english = build_email(r).get_body(("plain",)).get_content()
    assert english.startswith(mark_line("en") + "\n") and mark_line("en") != mark_line("fr")


def test_the_sender_builds_with_its_domain_drawer_texts_and_the_rows_language(tmp_path, store):
    store.set_language("b@example.org", "uk")
    page = "<html><body>" + "z" * 2000 + "<img src=\"cid:map\"></body></html>"
    queue(store, "a@example.org", "One", "x", html=page, lang="fr",
          attachments=[("map.png", "image/png", outbox.Drawn({"map": [1]}), "map"),
                       ("view.json", "application/json", outbox.Drawn({"view": [1]}), None)])
    queue(store, "b@example.org", "Two", "y")  # no language of its own: its address's
    drawn = {"map": b"PNG!", "view": b"{}"}
    sender = Sender(store, maildir=tmp_path / "Maildir", domain="games.example.org",
                    resolve=lambda ref: drawn[next(iter(ref))])
    assert sender.send_due(T0) == 2
    from pbem.server.mail.reply import mark_line

    got = {m["Subject"]: m for m in (message_from_bytes(bytes(m), policy=policy.default)
                                     for m in mailbox.Maildir(tmp_path / "Maildir"))}
    one, two = got["One"], got["Two"]
    assert one["Message-ID"].endswith("@games.example.org>")
    assert one.get_body(("plain",)).get_content().startswith(mark_line("fr"))
    assert "z" * 2000 in one.get_body(("html",)).get_content()
    assert [(p.get_filename(), p.get_content()) for p in one.walk() if p.get_filename()] == \
        [("map.png", b"PNG!"), ("view.json", b"{}")]
    assert two.get_body(("plain",)).get_content().startswith(mark_line("uk"))


def test_a_batch_is_at_least_one_row(store, tmp_path):
    assert [Sender(store, maildir=tmp_path, batch=n).batch for n in (0, 1, 2, 50)] == [1, 1, 2, 50]


def test_a_long_plain_text_is_kept_once_by_its_digest_and_a_short_one_in_its_row(store):
    from pbem.server.store import TEXT_INLINE

    short, edge, long = "a report", "x" * TEXT_INLINE, "y" * (TEXT_INLINE + 1)
    rows = [store.query_one("SELECT * FROM outbox WHERE id = ?",  # the row as stored, its kept texts not read
                            (queue(store, "a@example.org", "S", b),)) for b in (short, edge, long)]
    assert [(r["body"], r["body_ref"]) for r in rows[:2]] == [(short, None), (edge, None)]
    assert (rows[2]["body"], rows[2]["body_ref"]) == ("", hashlib.sha256(long.encode()).hexdigest())
    assert build_email(rows[2], texts=store.text).get_body(("plain",)).get_content().count(long) == 1
    with pytest.raises(Unsendable) as unread:
        build_email(rows[2])
    assert str(unread.value) == f"the text kept as {rows[2]['body_ref'][:12]} cannot be read"
