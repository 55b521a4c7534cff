"""The reply corpus (tests/reply_corpus) through the real doors.

Every mail is a player's reply laid out the way one mail program writes it,
quoting one of the server's own mails; each must give exactly the orders the
player meant. They go in by SMTP to the built-in receiver, are stored and
processed by the server, and the orders on file and the acknowledgement are
checked. Without the server's marker lines (a reply to a mail sent before
them) the rules alone must still find the orders, save the few cases listed
in UNMARKED_LIMITS, where no quoted line may get through either.
"""

import json
import smtplib
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import Clock

from pbem.games import ruleset
from pbem.server import inbox
from pbem.server.mail.inbound import parse_message
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.service import Service, redact_key
from pbem.server.store import Store

CORPUS = Path(__file__).parent / "reply_corpus"
EXPECTED = json.loads((CORPUS / "expected.json").read_text())
KEY = "Zk3v9Qh2Lp"
WORDS = ruleset("marengo").mail_words
ORDER_STARTS = {w.upper() for w in WORDS} | {"GAME", "SIDE", "TURN", "KEY"}
# Without markers these cannot be told from the player's text: the orders come after the
# server's mail quoted without ">" (found only by its end marker), or stand inside it (the form
# filled in place, found only between the markers). Such a mail is refused, never misread.
UNMARKED_LIMITS = {"bottom_unprefixed", "inplace_outlook_welcome", "inplace_pasted_welcome",
                   "inplace_outlook_report_de"}


def lines(text: str) -> list[str]:
    return [line.rstrip() for line in text.splitlines() if line.strip()]


def raw_of(name: str) -> bytes:
    return (CORPUS / f"{name}.eml").read_bytes()


def test_the_corpus_is_large_and_every_file_has_its_orders():
    assert {p.stem for p in CORPUS.glob("*.eml")} == set(EXPECTED)
    assert len(EXPECTED) >= 100
    for name, expected in EXPECTED.items():
        assert lines(expected["orders"])[0].startswith("GAME 1 SIDE Austria"), name


@pytest.fixture(scope="module")
def delivered(tmp_path_factory):
    """Every corpus mail sent by SMTP to the receiver and processed, one at a time, in order:
    {name: (result, orders on file after it, the acknowledgement)}."""
    clock = Clock(datetime(2024, 6, 3, 7, 0, tzinfo=timezone.utc))
    store = Store(tmp_path_factory.mktemp("corpus") / "pbem.sqlite3", clock=clock)
    service = Service(store, clock=clock)
    game_id, _ = service.create_game("Corpus", {"austria": "anna@example.org", "france": "fred@example.org"},
                                     seed=3, settings={"hours": 48})
    assert game_id == 1
    service.set_key(game_id, "austria", KEY)
    controller = start_smtpd(lambda raw: inbox.receive(service, raw, "smtp"))
    try:
        with smtplib.SMTP("127.0.0.1", controller.port, timeout=30) as client:
            for name in EXPECTED:
                client.sendmail("anna@example.org", ["orders@games.example.org"], raw_of(name))
    finally:
        controller.stop()
    results = {}
    for inbound_id in store.pending_inbound():
        row = store.get_inbound(inbound_id)
        name = row["message_id"].strip("<>").split("@")[0]
        result = inbox.process(service, inbound_id)
        ack = store.mail("WHERE kind = 'reply' ORDER BY id DESC LIMIT 1")
        ack = ack and (ack["subject"], ack["body"])
        results[name] = (result, service.orders_on_file(game_id, "austria"), ack)
    store.close()
    return results


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_through_the_smtp_door(delivered, name):
    result, on_file, (subject, body) = delivered[name]
    assert result.get("orders") is True, (name, result)
    assert lines(on_file) == lines(redact_key(EXPECTED[name]["orders"]))
    assert "Orders accepted" in subject
    assert "Read from your mail: " in body and "Ignored: " in body and "quoted line" in body


def test_the_acknowledgement_names_the_footer(delivered):
    body = delivered["footer_iphone"][2][1]
    assert "Ignored: " in body and "the footer 'Sent from my iPhone'" in body
    assert KEY not in body


def by_style(marked: bool) -> dict[str, tuple[int, int]]:
    from reply_corpus.evaluate import unmark

    figures: dict[str, list[int]] = {}
    for name, expected in EXPECTED.items():
        raw = raw_of(name) if marked else unmark(raw_of(name))
        got = parse_message(raw, words=WORDS).text
        good = lines(got) == lines(expected["orders"])
        if not marked and not good:
            assert name in UNMARKED_LIMITS, (name, got)
        # never a quoted order taken for the player's: every order line read is one he wrote
        orders = [line for line in lines(got) if line.split()[0].upper() in ORDER_STARTS]
        assert set(orders) <= set(lines(expected["orders"])), (name, got)
        figure = figures.setdefault(expected["style"], [0, 0])
        figure[0] += good
        figure[1] += 1
    return {style: tuple(f) for style, f in figures.items()}


def test_every_mail_gives_exactly_its_orders():
    figures = by_style(marked=True)
    assert all(good == total for good, total in figures.values()), figures


def test_without_the_markers_the_rules_alone_find_them():
    figures = by_style(marked=False)
    assert sum(good for good, _ in figures.values()) == len(EXPECTED) - len(UNMARKED_LIMITS), figures


def test_what_the_rules_alone_cannot_read_is_refused(tmp_path):
    from reply_corpus.evaluate import unmark

    clock = Clock(datetime(2024, 6, 3, 7, 0, tzinfo=timezone.utc))
    store = Store(tmp_path / "pbem.sqlite3", clock=clock)
    service = Service(store, clock=clock)
    game_id, _ = service.create_game("Corpus", {"austria": "anna@example.org", "france": "fred@example.org"},
                                     seed=3, settings={"hours": 48})
    service.set_key(game_id, "austria", KEY)
    for name in sorted(UNMARKED_LIMITS):
        inbound_id, _ = inbox.receive(service, unmark(raw_of(name)), "smtp")
        result = inbox.process(service, inbound_id)
        assert result.get("orders") is not True, name
    assert service.orders_on_file(game_id, "austria") == ""
    store.close()
