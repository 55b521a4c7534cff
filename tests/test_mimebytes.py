"""A report's mail written as bytes (outbox.report_bytes, pbem.server.mail.mimebytes; issue 35 item 1):
the same bytes as ``smtplib.send_message(build_email(row))`` sends, given the same boundaries, and so
the same parsed message (headers, parts, decoded payloads) -- for real reports of real games in the
five languages, and for texts and attachments of every kind a report's layout can hold; what it cannot
write exactly so is built by the email package as before. Delivered by the Sender over real SMTP."""

from __future__ import annotations

import email
import email.policy
import io
import itertools
import json
import re
import smtplib
import threading
from datetime import datetime, timezone
from email.generator import BytesGenerator

import pytest
from conftest import Clock

from pbem.server.mail.outbox import Relay, Sender, build_email, dot_stuffed, queue, report_bytes
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.service import Service
from pbem.server.store import Store

FROM = "pbem@games.example.org"
T0 = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)
BOUNDARY = re.compile(rb'boundary="(=_pbem_[0-9a-f]{24})"')
PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 3
LANGS = ["en", "fr", "ru", "uk", "zh"]


def sent_by_send_message(msg) -> bytes:
    """The bytes ``smtplib.SMTP.send_message`` gives the relay for ``msg`` (its own flattening)."""
    out = io.BytesIO()
    BytesGenerator(out).flatten(msg, linesep="\r\n")
    return out.getvalue()


def package_bytes(row, raw: bytes, **kwargs) -> bytes:
    """What the email package sends for ``row``, its multipart parts given the boundaries ``raw`` has,
    in the same order (mixed, alternative, related)."""
    msg = build_email(row, FROM, **kwargs)
    marks = [m.decode() for m in BOUNDARY.findall(raw)]
    multiparts = [part for part in msg.walk() if part.is_multipart()]
    assert len(marks) == len(multiparts) == 3
    for part, mark in zip(multiparts, marks):
        part.set_boundary(mark)
    return sent_by_send_message(msg)


def tree(raw: bytes) -> list:
    """A message parsed: each part's headers (boundaries left out: random), type and decoded payload."""
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    return [([(k, re.sub(r"=_pbem_[0-9a-f]{24}", "B", str(v))) for k, v in part.items()], part.get_content_type(),
             None if part.is_multipart() else part.get_payload(decode=True)) for part in msg.walk()]


@pytest.fixture
def reports(tmp_path):
    """The reports of day 1 of five games, both seats, the players in the five languages."""
    clock = Clock(T0)
    store = Store(tmp_path / "pbem.sqlite3", clock=clock)
    service = Service(store, clock=clock)
    for i, (a, f) in enumerate(zip(LANGS, LANGS[1:] + LANGS[:1])):
        store.set_language(f"a{i}@example.org", a)
        store.set_language(f"f{i}@example.org", f)
        service.create_game("Test", {"austria": f"a{i}@example.org", "france": f"f{i}@example.org"}, seed=i,
                            settings={"hours": 24, "reminders": []})
    clock.advance(hours=25)
    service.tick()
    service.run_jobs()
    store.execute("UPDATE outbox SET status = 'sent' WHERE kind != 'report'")  # the welcomes: not reports
    yield service, store.mails("WHERE kind = 'report' ORDER BY id")
    store.close()


def test_a_report_written_as_bytes_is_what_send_message_sent_in_every_language(reports):
    service, rows = reports
    store = service.store
    assert len(rows) == 10 and {store.language_of(r["to_addr"]) for r in rows} == set(LANGS)
    for row in rows:
        row["message_id"] = row["message_id"] or f"<pbem.{row['id']}@games.example.org>"
        lang = store.language_of(row["to_addr"])
        raw = report_bytes(row, FROM, resolve=service.attachment, texts=store.text, lang=lang)
        assert raw is not None, row["subject"]
        assert raw == package_bytes(row, raw, resolve=service.attachment, texts=store.text, lang=lang), row["subject"]
        theirs = sent_by_send_message(build_email(row, FROM, resolve=service.attachment, texts=store.text, lang=lang))
        assert tree(raw) == tree(theirs)  # parsed, boundaries apart: the same headers, parts and payloads
        parsed = email.message_from_bytes(raw, policy=email.policy.default)
        assert parsed["Subject"] == row["subject"]
        picture = next(p for p in parsed.walk() if p.get_content_type() == "image/png")
        assert picture.get_content() == service.attachment(json.loads(row["attachments"])[0]["ref"])
        assert max(len(line) for line in raw.split(b"\r\n")) <= 78


BODIES = [
    "Day 3 report.\nFrom here on the French attack.\n.\n.a dot first\n..two\n",
    "Донесение: короткие строки\nв восемь бит\n",  # 8bit once the markers are in? (they are long: qp or base64)
    "a line of exactly seventy-eight characters, no more and no less, to the edge!!\n" * 3,
    "long " * 200,
    "a\rcarriage return alone\r\nand a pair\n\n\n",
    "命令已接受。\n\n  A1 移动",
    "",
]
HTMLS = ["<html><body><p>Day 3</p><img src=\"cid:map\"></body></html>",
         "<p>From the start</p>\n.<b>dot</b>\n" + "<p>long paragraph</p>" * 40,
         "<html><BODY class=x><p>Приказы</p></BODY></html>"]
PICTURES = [b"", b"x", PNG[:56], PNG[:57], PNG[:58], PNG[:114], PNG]


def synthetic_rows():
    for body, html, picture in itertools.product(BODIES, HTMLS, PICTURES[:3]):
        yield body, html, [("map.png", "image/png", picture, "map"), ("view.json", "application/json", b"{}", None)]
    for picture in PICTURES:
        yield BODIES[0], HTMLS[0], [("map.png", "image/png", picture, "map"),
                                    ("view.json", "application/json", picture, None)]
    yield BODIES[1], HTMLS[2], [("a.png", "image/png", PNG, "a"), ("b.gif", "image/gif", PNG[:90], "b.2"),
                                ("view.json", "application/json", b'{"a": 1}', None),
                                ("orders.txt", "text/plain", "A1 ИДТИ\n".encode(), None)]


@pytest.mark.parametrize("subject, in_reply_to, lang", [
    ("[pbem 3] Report for Austria: Austria 6AM", None, "en"),
    ("[pbem 12] Донесение для: Франция; сыграно: Австрия 6 ч; следующий ход: Франция 6 ч", "<a.1@bots.invalid>", "ru"),
    ("[pbem 4] 法国的战报：奥地利 6时已进行", None, "zh"),
    ("[corrected] [pbem 5] Rapport (France) : Autriche 6 h", "<b.2@x>", "fr"),
    ("[pbem 6] Донесення (Австрія); зіграно", None, "uk"),
])
def test_reports_of_every_kind_of_text_and_attachment_are_written_as_the_package_writes_them(tmp_path, subject,
                                                                                            in_reply_to, lang):
    store = Store(tmp_path / "pbem.sqlite3", clock=lambda: T0)
    try:
        written = 0
        for body, html, attachments in synthetic_rows():
            row = store.mail("WHERE id = ?", (queue(store, "p@example.org", subject, body, html=html,
                                                     attachments=attachments, in_reply_to=in_reply_to),))
            raw = report_bytes(row, FROM, texts=store.text, lang=lang)
            assert raw is not None
            assert raw == package_bytes(row, raw, texts=store.text, lang=lang), (body, html)
            assert tree(raw) == tree(sent_by_send_message(build_email(row, FROM, texts=store.text, lang=lang)))
            written += 1
        assert written == len(BODIES) * len(HTMLS) * 3 + len(PICTURES) + 1
    finally:
        store.close()


@pytest.mark.parametrize("change", [
    {"html": None},
    {"attachments": [("map.png", "image/png", PNG, "map")]},  # no attachment beside the picture
    {"attachments": [("view.json", "application/json", b"{}", None)]},  # no picture
    {"attachments": [("the map.png", "image/png", PNG, "map"), ("view.json", "application/json", b"{}", None)]},
    {"attachments": [("карта.png", "image/png", PNG, "map"), ("view.json", "application/json", b"{}", None)]},
    {"attachments": [("map.png", "image/png", PNG, "map@pbem"), ("view.json", "application/json", b"{}", None)]},
    {"attachments": [("map.png", "image/PNG", PNG, "map"), ("view.json", "application/json", b"{}", None)]},
    {"attachments": [("map.png", "image/png", PNG, "map"), ("v" * 60 + ".json", "application/json", b"{}", None)]},
    {"to": "Player <p@example.org>"},
    {"subject": "y" * 80},
])
def test_what_bytes_cannot_hold_exactly_is_built_by_the_package(tmp_path, change):
    store = Store(tmp_path / "pbem.sqlite3", clock=lambda: T0)
    try:
        mail = {"to": "p@example.org", "subject": "[pbem 3] Report", "body": "the text", "html": HTMLS[0],
                "attachments": [("map.png", "image/png", PNG, "map"), ("view.json", "application/json", b"{}", None)]}
        usual = store.mail("WHERE id = ?", (queue(store, **mail),))
        other = store.mail("WHERE id = ?", (queue(store, **{**mail, **change}),))
        assert report_bytes(usual, FROM) is not None
        assert report_bytes(other, FROM) is None
    finally:
        store.close()


def test_the_sender_delivers_reports_written_as_bytes_over_real_smtp(reports, monkeypatch):
    """Each report the Sender delivers to a relay is written as bytes (the package is not asked), and
    arrives parsed as the package's message of the same row; a text with lines starting with a dot
    arrives with its dots (doubled on the wire, undone by the receiver)."""
    service, rows = reports
    store = service.store
    got: list[bytes] = []
    lock = threading.Lock()

    def take(raw: bytes) -> None:
        with lock:
            got.append(raw)

    dotted = queue(store, "d@example.org", "[pbem 9] Report", ".a dot first\n" * 3, html="<p>x</p>\n.y\n",
                   attachments=[("map.png", "image/png", PNG, "map"), ("view.json", "application/json", b"{}", None)],
                   kind="report")
    relay = start_smtpd(take, return_path=False)
    try:
        sender = Sender(store, relay=("127.0.0.1", relay.port), from_addr=FROM, resolve=service.attachment)
        monkeypatch.setattr("pbem.server.mail.outbox.build_email", None)  # a report must not need it
        assert sender.send_due(store.clock()) == len(rows) + 1
        monkeypatch.undo()
        sent = {r["id"]: r for r in store.mails("WHERE status = 'sent' AND kind = 'report'")}
        assert len(got) == len(sent) == len(rows) + 1
        for raw in got:
            parsed = email.message_from_bytes(raw, policy=email.policy.default)
            row = sent.pop(int(parsed["Message-ID"].split(".")[1]))
            lang = store.language_of(row["to_addr"])
            theirs = build_email(row, FROM, resolve=service.attachment, texts=store.text, lang=lang)
            assert tree(raw) == tree(sent_by_send_message(theirs))
            if row["id"] == dotted:  # its text's lines start with a dot as written: doubled on the wire, undone
                assert b"\r\n.a dot first\r\n.a dot first\r\n" in raw
                assert parsed.get_body(("plain",)).get_content().splitlines()[2:5] == [".a dot first"] * 3
        assert not sent
    finally:
        relay.stop()


def test_the_relay_doubles_a_leading_dot_as_smtplib_does():
    """``Relay.data`` (the Sender's SMTP client, its dots doubled by ``dot_stuffed``): each message arrives
    as sent, as by smtplib's own client."""
    got: list[bytes] = []
    relay = start_smtpd(got.append, return_path=False)
    messages = [b"Subject: a\r\n\r\nno dot here\r\n", b"Subject: b\r\n\r\n.one\r\n..two\r\n.\r\nend",
                b".Subject: c\r\n\r\nx\r\n", b"Subject: d\r\n\r\nno line end at the end"]
    try:
        with Relay("127.0.0.1", relay.port) as smtp:
            for message in messages:
                smtp.sendmail(FROM, ["p@example.org"], message)
        with smtplib.SMTP("127.0.0.1", relay.port) as smtp:
            for message in messages:
                smtp.sendmail(FROM, ["p@example.org"], message)
    finally:
        relay.stop()
    assert got[:4] == got[4:]
    assert got[1] == messages[1] + b"\r\n" and got[0] == messages[0]


def test_dots_are_doubled_as_smtplib_doubles_them():
    messages = [b"", b".", b"..", b"\n.", b".\r\n.\r\n", b"a\r\n.b\r\n..c\r\nd.e\r\n.", b"\r.x", b"\n\n..\n.\n"]
    messages += [bytes(p) for p in itertools.product(b".\n\ra", repeat=5)]
    for message in messages:
        assert dot_stuffed(message) == smtplib._quote_periods(message), message
