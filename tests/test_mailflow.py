"""Mail in, end to end through the service: a real SQLite file, real MIME.

Each test builds a message as a player's mail program would, stores it
through the same door the SMTP receiver uses, processes it, and reads the
answers from the outbox.
"""

from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from conftest import Clock

from pbem.server import inbox
from pbem.server.service import Service
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())


@pytest.fixture
def world(tmp_path):
    clock = Clock(datetime(2026, 11, 1, 12, 0, tzinfo=timezone.utc))
    store = Store(tmp_path / "pbem.sqlite3", clock=clock)
    service = Service(store, clock=clock)
    game_id, keys = service.create_game("Test", {"austria": "anna@example.org", "france": "fred@example.org"},
                                        scenario=SMALL, seed=3, settings={"hours": 48})
    return service, game_id, keys, clock


def mail(text, sender="anna@example.org", subject="orders", message_id=None, **headers):
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


def outbox(service, to=None):
    rows = [(m["to_addr"], m["subject"], m["body"], m["kind"]) for m in service.store.mails("ORDER BY id")]
    return [r for r in rows if to is None or r[0] == to]


def deliver(service, raw):
    inbound_id, duplicate = inbox.receive(service, raw, "smtp")
    result = inbox.process(service, inbound_id)
    return inbound_id, duplicate, result


def entering_orders(service, game_id):
    game = service.game(game_id)
    due = [b.id for b in game.state.blocks.values() if b.side == "austria" and b.status == "waiting"
           and (b.arrives or 0) <= game.scenario.hour(game.day)]
    return f"ENTER {due[0]} BY ROAD"


def test_orders_by_mail_are_checked_stored_and_acknowledged(world):
    service, game_id, keys, _ = world
    text = f"GAME {game_id} SIDE Austria TURN 6AM KEY {keys['austria']}\n{entering_orders(service, game_id)}\n"
    _, _, result = deliver(service, mail(text))
    assert result["orders"] is True
    acks = [r for r in outbox(service, "anna@example.org") if "accepted" in r[1]]
    assert acks and "ENTER" in acks[-1][2]
    assert keys["austria"] not in acks[-1][2]  # the key is never quoted back
    stored = service.orders_on_file(game_id, "austria")
    assert "ENTER" in stored and keys["austria"] not in stored  # nor kept in the log


def test_bad_orders_get_every_problem_with_its_line(world):
    service, game_id, keys, _ = world
    text = f"GAME {game_id} SIDE Austria KEY {keys['austria']}\nMOVE A99 Nowhere -> Elsewhere\nFLY away\n"
    deliver(service, mail(text))
    answer = outbox(service, "anna@example.org")[-1]
    assert "NOT accepted" in answer[1]
    assert "line 2" in answer[2] and "line 3" in answer[2]
    assert service.orders_on_file(game_id, "austria") == ""


def test_wrong_key_is_refused_and_the_owner_told(world):
    service, game_id, keys, _ = world
    text = f"GAME {game_id} SIDE Austria KEY not-the-key\nENTER A1 BY ROAD\n"
    _, _, result = deliver(service, mail(text, sender="mallory@example.net"))
    assert result["why"] == "wrong key"
    assert any("Refused" in r[1] for r in outbox(service, "mallory@example.net"))
    assert any("wrong key" in r[1] for r in outbox(service, "anna@example.org"))
    assert service.orders_on_file(game_id, "austria") == ""


def test_the_from_address_alone_proves_nothing(world):
    service, game_id, keys, _ = world
    # the registered address, but France's key for Austria's seat
    text = f"GAME {game_id} SIDE Austria KEY {keys['france']}\nENTER A1 BY ROAD\n"
    _, _, result = deliver(service, mail(text, sender="anna@example.org"))
    assert result["why"] == "wrong key"


def test_orders_from_another_address_with_the_key_are_copied_to_the_owner(world):
    service, game_id, keys, _ = world
    text = f"GAME {game_id} SIDE Austria KEY {keys['austria']}\n{entering_orders(service, game_id)}\n"
    deliver(service, mail(text, sender="anna.at.work@example.com"))
    assert any("accepted" in r[1] for r in outbox(service, "anna.at.work@example.com"))
    assert any("copy" in r[1] for r in outbox(service, "anna@example.org"))


def test_repeated_wrong_keys_are_slowed_down(world):
    service, game_id, _, _ = world
    for i in range(inbox.FAILURES_PER_HOUR + 3):
        deliver(service, mail(f"GAME {game_id} SIDE France KEY guess{i}\nSTATUS\n", sender="bot@example.net"))
    answers = outbox(service, "bot@example.net")
    assert [a[3] for a in answers] == ["reply"] * inbox.FAILURES_PER_HOUR + ["held"]  # then told, once, of the cap


def test_a_duplicate_message_id_is_processed_once(world):
    service, game_id, keys, _ = world
    raw = mail(f"GAME {game_id} SIDE Austria KEY {keys['austria']}\nSTATUS\n", message_id="<same@example.org>")
    first, dup1, _ = deliver(service, raw)
    second, dup2, result = deliver(service, raw)
    assert (dup1, dup2) == (False, True) and first == second
    assert result == {"skipped": True}
    assert len([r for r in outbox(service, "anna@example.org") if "Status" in r[1]]) == 1


@pytest.mark.parametrize("headers", [
    {"Auto_Submitted": "auto-replied"},
    {"X_Autoreply": "yes"},
    {"Precedence": "bulk"},
])
def test_robots_are_never_answered(world, headers):
    service, game_id, _, _ = world
    before = len(outbox(service))
    _, _, result = deliver(service, mail("I am on holiday until Monday.", **headers))
    row = service.store.get_inbound(service.store.db.execute("SELECT max(id) FROM inbound").fetchone()[0])
    assert row["status"] == "dropped"
    assert len(outbox(service)) == before


def test_help_needs_no_header_and_commands_need_the_key(world):
    service, game_id, keys, _ = world
    deliver(service, mail("HELP\n", sender="new@example.org"))
    assert "GAME 17 SIDE Austria" in outbox(service, "new@example.org")[-1][2]
    deliver(service, mail(f"GAME {game_id} SIDE France KEY {keys['france']}\nSTATUS\n", sender="fred@example.org"))
    status = outbox(service, "fred@example.org")[-1]
    assert "Next: 6AM (Austria's day)" in status[2]


def test_a_reply_quoting_the_last_report_reads_only_the_new_lines(world):
    service, game_id, keys, _ = world
    orders = entering_orders(service, game_id)
    text = (f"GAME {game_id} SIDE Austria KEY {keys['austria']}\n{orders}\n\n"
            f"On Sunday the server wrote:\n> GAME {game_id} SIDE Austria KEY {keys['austria']}\n"
            f"> MOVE A1 Nowhere -> Elsewhere\n")
    _, _, result = deliver(service, mail(text))
    assert result["orders"] is True
    assert "Nowhere" not in service.orders_on_file(game_id, "austria")


def test_the_last_valid_orders_count_and_all_are_kept(world):
    service, game_id, keys, _ = world
    game = service.game(game_id)
    due = [b.id for b in game.state.blocks.values() if b.side == "austria" and b.status == "waiting"
           and (b.arrives or 0) <= 6]
    head = f"GAME {game_id} SIDE Austria KEY {keys['austria']}\n"
    deliver(service, mail(head + f"ENTER {due[0]} BY ROAD\n"))
    deliver(service, mail(head + f"ENTER {due[1]} BY ROAD\n"))
    assert f"ENTER {due[1]}" in service.orders_on_file(game_id, "austria")
    kept = [e for e in service.store.read_log(game_id) if e["kind"] == "orders"]
    assert len(kept) == 2


def test_a_crash_before_processing_loses_nothing(world, tmp_path):
    service, game_id, keys, clock = world
    text = f"GAME {game_id} SIDE Austria KEY {keys['austria']}\n{entering_orders(service, game_id)}\n"
    inbound_id, _ = inbox.receive(service, mail(text), "smtp")
    # the process dies here; a new one opens the same file and finds the message waiting
    store = Store(service.store.path, clock=clock)
    again = Service(store, clock=clock)
    assert inbox.process_pending(again) == 1
    assert "ENTER" in again.orders_on_file(game_id, "austria")
    assert inbox.process_pending(again) == 0


def test_orders_for_a_game_or_side_that_does_not_exist(world):
    service, game_id, keys, _ = world
    deliver(service, mail(f"GAME 999 SIDE Austria KEY {keys['austria']}\nENTER A1 BY ROAD\n"))
    assert "a game this server does not have" in outbox(service, "anna@example.org")[-1][2]
    deliver(service, mail(f"GAME {game_id} SIDE Prussia KEY {keys['austria']}\nENTER A1 BY ROAD\n"))
    answer = outbox(service, "anna@example.org")[-1][2]
    assert "a side game" in answer and "Prussia" not in answer  # nothing of a stranger's mail is quoted


def test_orders_for_a_past_turn_are_refused_with_the_turn_expected(world):
    service, game_id, keys, _ = world
    text = f"GAME {game_id} SIDE Austria TURN 9AM KEY {keys['austria']}\n{entering_orders(service, game_id)}\n"
    deliver(service, mail(text))
    answer = outbox(service, "anna@example.org")[-1][2]
    assert "NOT accepted" in answer and "6AM" in answer


def test_orders_for_a_finished_game_are_refused(world):
    service, game_id, keys, _ = world
    service.store.update_game(game_id, status="finished")
    deliver(service, mail(f"GAME {game_id} SIDE Austria KEY {keys['austria']}\nENTER A1 BY ROAD\n"))
    assert "is over" in outbox(service, "anna@example.org")[-1][2]


def test_an_html_only_mail_in_latin1_is_read(world):
    service, game_id, keys, _ = world
    msg = EmailMessage()
    msg["From"] = "anna@example.org"
    msg["To"] = "pbem@localhost"
    msg["Subject"] = "ordres"
    orders = entering_orders(service, game_id)
    html = (f"<html><body><p>GAME {game_id} SIDE Austria KEY {keys['austria']}</p><p>{orders}</p>"
            f"<p># café crème</p></body></html>")
    msg.set_content(html, subtype="html", charset="latin-1")
    _, _, result = deliver(service, msg.as_bytes())
    assert result["orders"] is True


def test_an_oversized_mail_is_answered_not_read(world):
    service, game_id, keys, _ = world
    big = mail(f"GAME {game_id} SIDE Austria KEY {keys['austria']}\n" + "# padding\n" * 60_000)
    _, _, result = deliver(service, big)
    assert result["why"] == "too big"
    assert "larger than" in outbox(service, "anna@example.org")[-1][2]


def test_game_and_key_name_the_seat_without_a_side(world):
    """docs/orders.md: GAME and KEY are required, SIDE is optional and checked when given."""
    service, game_id, keys, _ = world
    orders = entering_orders(service, game_id)
    _, _, result = deliver(service, mail(f"GAME {game_id} KEY {keys['austria']}\n{orders}\n"))
    assert result["orders"] is True and result["side"] == "austria"
    assert service.orders_on_file(game_id, "austria").endswith(orders)
    _, _, status = deliver(service, mail(f"GAME {game_id} KEY {keys['france']}\nSTATUS\n", sender="fred@example.org"))
    assert status == {"command": "STATUS", "game": game_id, "side": "france"}
    _, _, wrong = deliver(service, mail(f"GAME {game_id} KEY not-a-key\nSTATUS\n", sender="eve@example.net"))
    assert wrong["why"] == "wrong key"
    assert "not the key of any seat" in outbox(service, "eve@example.net")[-1][2]


def test_the_answer_says_what_was_read_and_what_ignored(world):
    service, game_id, keys, _ = world
    orders = entering_orders(service, game_id)
    text = (f"GAME {game_id} SIDE Austria KEY {keys['austria']}\n{orders}\n\nSent from my iPhone\n\n"
            f"On Sunday, pbem <pbem@example.org> wrote:\n> ENTER A9 BY ROAD\n")
    deliver(service, mail(text))
    answer = outbox(service, "anna@example.org")[-1][2]
    assert "Read from your mail: 2 lines, from 'GAME" in answer and keys["austria"] not in answer
    assert "Ignored: 2 quoted lines (from 'On Sunday, pbem <pbem@example.org> wrote:'), the footer " \
           "'Sent from my iPhone'." in answer
    # a mail whose every line was quoted: the refusal shows where the reading stopped
    deliver(service, mail(f"From: pbem\nSent: Sunday\nTo: anna\n\nGAME {game_id} SIDE Austria KEY <your-key>\n"))
    answer = outbox(service, "anna@example.org")[-1][2]
    assert "no first line" in answer and "Read from your mail: nothing." in answer
    # no key proved this mail: the answer says how much was read, and quotes none of it (issue 14)
    assert "taken for quoted text" in answer and "From: pbem" not in answer
