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
import threading
from datetime import datetime, timezone
from email.generator import BytesGenerator

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
        boundless = [re.sub(rb"=+\d+==", b"BOUNDARY", raw) for raw in (got[2], got[5])]  # a report's boundary is random
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
    assert [s.name.split(" ")[0] for s in stages] == ["bare", "receiver", "process", "send"]
    assert all(s.mails == 12 for s in stages), stages
    assert "12 stored, 12 processed (12 orders accepted), 12 answers queued" in text
    assert "12 answers sent, 12 taken by the sink" in text
    for stage in stages:
        assert stage.name in text
    assert "x bare" in text and "load average" in text
