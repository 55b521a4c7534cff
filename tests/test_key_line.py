"""Every game's orders form carries the KEY line, and a reply whose first line names the game but lacks the key
(or keeps the form's placeholder) is told that the key is what is missing and where it is (issue 33)."""

from __future__ import annotations

import smtplib
from email.message import EmailMessage

import pytest

from pbem.games import ruleset
from pbem.server import inbox
from pbem.server.mail.smtpd import start_smtpd
from pbem.server.service import Service
from pbem.server.store import Store


@pytest.fixture
def service(tmp_path):
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    yield service
    service.store.close()


def dba_game(service) -> tuple[int, dict, str]:
    rules = ruleset("dba")
    path = next(iter(rules.scenarios().values()))
    seats = [s.id for s in rules.seats(rules.load_scenario(path), {})]
    game_id, keys = service.create_game("Key", {s: f"{s}@example.org" for s in seats}, game="dba",
                                        scenario=path.name, seed=4)
    return game_id, keys, seats[0]


def send(service, sender: str, text: str) -> dict:
    """By SMTP to the built-in receiver, then processed; the answer mailed back to the sender."""
    got = []
    controller = start_smtpd(lambda raw: got.append(inbox.receive(service, raw, "smtp")))
    try:
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "orders"
        msg.set_content(text)
        with smtplib.SMTP("127.0.0.1", controller.port, timeout=30) as client:
            client.send_message(msg)
    finally:
        controller.stop()
    result = inbox.process(service, got[0][0])
    answer = service.store.mail("WHERE to_addr = ? ORDER BY id DESC LIMIT 1", (sender,))
    return {**result, "answer": answer["body"]}


def test_the_dba_form_carries_the_key_line_and_a_filled_form_is_read(service):
    game_id, keys, seat = dba_game(service)
    form = service.opening_template(game_id, seat)
    first = form.splitlines()[0]
    assert first.startswith(f"GAME {game_id} SIDE ") and first.endswith("KEY <your-key>")
    filled = form.replace("<your-key>", keys[seat])
    result = send(service, f"{seat}@example.org", filled)
    assert result.get("orders") is True, result


def test_a_first_line_without_a_key_is_told_the_key_is_missing_and_where_it_is(service):
    game_id, keys, seat = dba_game(service)
    result = send(service, f"{seat}@example.org", f"GAME {game_id} SIDE {seat}\n")
    assert result.get("orders") is not True
    said = result["answer"]
    assert f"names game {game_id} but carries no key" in said and f"GAME {game_id} KEY ..." in said
    assert "Your key is in the welcome mail" in said


def test_the_placeholder_left_in_is_named_not_echoed(service):
    game_id, keys, seat = dba_game(service)
    result = send(service, f"{seat}@example.org", f"GAME {game_id} SIDE {seat} KEY <buy-at-evil.example>\n")
    said = result["answer"]
    assert "still the orders form's placeholder <your-key>" in said and "evil.example" not in said
    assert service.orders_on_file(game_id, seat) == ""
