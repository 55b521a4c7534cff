"""What the second newcomer's trial found (issue 13): each fix with the test that failed
before it, over a real SQLite file, the real web app and the real command line."""

from __future__ import annotations

import html
import os
import smtplib
import subprocess
import sys
from email.message import EmailMessage

import pytest

from websupport import ANNA, FRED, SMALL


def pbem_cli(*args, tmp_path):
    env = {**os.environ, "XDG_DATA_HOME": str(tmp_path / "xdg"), "PBEM_CONFIG": ""}
    return subprocess.run([sys.executable, "-m", "pbem.cli", *args], capture_output=True, text=True, timeout=120,
                          env=env, cwd=tmp_path)


# -- pbem login-link on the wrong data folder ------------------------------------------------


def test_login_link_without_a_database_is_refused_in_one_line_and_makes_none(tmp_path):
    """The organiser who forgets --config (or PBEM_INSTANCE) got a link to an empty database
    made on the spot under ~/.local/share/pbem, for a server that was not running there."""
    config = tmp_path / "club.toml"
    config.write_text('instance = "data"\nadmin_email = "org@example.org"\n')
    done = pbem_cli("login-link", "--config", str(config), tmp_path=tmp_path)
    assert done.returncode == 1, done.stdout
    assert done.stdout == "" and done.stderr.strip().count("\n") == 0, done.stderr
    assert "there is no database at" in done.stderr and str(tmp_path / "data" / "pbem.sqlite3") in done.stderr
    assert "Traceback" not in done.stderr
    assert not (tmp_path / "data" / "pbem.sqlite3").exists()
    default = pbem_cli("login-link", tmp_path=tmp_path)
    assert default.returncode == 1 and "there is no database at" in default.stderr
    assert not (tmp_path / "xdg" / "pbem" / "pbem.sqlite3").exists()


def test_login_link_on_the_clubs_database_prints_the_link(tmp_path):
    from pbem.server.store import Store

    config = tmp_path / "club.toml"
    config.write_text('instance = "data"\nadmin_email = "org@example.org"\nweb_port = 8123\n')
    (tmp_path / "data").mkdir()
    Store(tmp_path / "data" / "pbem.sqlite3").close()
    done = pbem_cli("login-link", "--config", str(config), tmp_path=tmp_path)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("http://127.0.0.1:8123/login/")


# -- the new-game page, when the organiser names another moderator ----------------------------


def test_a_game_made_for_another_moderator_says_who_moderates_it(site):
    anna = site.client(ANNA)
    made = anna.post("/games/new", data={"csrf_token": anna.csrf, "title": "Club game", "hours": "24",
                                         "scenario": f"marengo:{SMALL}", "seat": "none",
                                         "moderator": "bob@example.org"}, follow_redirects=True)
    assert made.status_code == 200
    page = html.unescape(made.text)
    assert "Game created. bob@example.org moderates it" in page
    assert "You moderate it" not in page
    mine = anna.post("/games/new", data={"csrf_token": anna.csrf, "title": "Mine", "hours": "24",
                                         "scenario": f"marengo:{SMALL}", "seat": "none"}, follow_redirects=True)
    assert "Game created. You moderate it" in html.unescape(mine.text)


# -- mail: HELP tells the deadlines too --------------------------------------------------------


@pytest.fixture
def door(tmp_path):
    """A service on a real SQLite file behind the real SMTP receiver on loopback, at a fixed time."""
    from datetime import datetime, timezone

    from conftest import Clock

    from pbem.server import inbox
    from pbem.server.mail.smtpd import start_smtpd
    from pbem.server.service import Service
    from pbem.server.store import Store

    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    store = Store(tmp_path / "pbem.sqlite3", clock=clock)
    service = Service(store, clock=clock)
    game_id, keys = service.create_game("Club game", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=3,
                                        settings={"hours": 48}, timezones={"austria": "Europe/Vienna"})
    smtpd = start_smtpd(lambda raw: inbox.receive(service, raw, "smtp"))

    def send(text: str, sender: str) -> list[str]:
        """Mail ``text`` from ``sender`` through the receiver; the bodies of the answers to it."""
        before = store.query("SELECT max(id) AS n FROM outbox")[0]["n"] or 0
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "help"
        msg.set_content(text)
        with smtplib.SMTP("127.0.0.1", smtpd.port, timeout=30) as client:
            client.send_message(msg)
        inbox.process_pending(service)
        return [r["body"] for r in store.mails("WHERE id > ? ORDER BY id",
                                                (before,)) if r["to_addr"] == sender]

    yield game_id, keys, send
    smtpd.stop()
    store.close()


def test_help_without_a_header_lists_the_senders_games_and_deadlines(door):
    """docs/orders.md: every answer ends with the deadline; HELP's, which needs no header, told
    none (the answer to a mail with no header already listed the sender's games)."""
    game_id, _, send = door
    [answer] = send("HELP\n", ANNA)
    assert "pbem: how to play by mail" in answer
    assert (f"game {game_id}, Austria: deadline Wednesday 04 November 2026, 10:00 Europe/Vienna, in 2 days"
            in answer), answer
    [stranger] = send("HELP\n", "new@example.org")
    assert "pbem: how to play by mail" in stranger and "Your games on this server" not in stranger
    game_id, keys, send = door
    [headed] = send(f"GAME {game_id} KEY {keys['austria']}\nHELP\n", ANNA)
    assert "pbem: how to play by mail" in headed
    assert "Deadline: Wednesday 04 November 2026, 10:00 Europe/Vienna, in 2 days" in headed, headed


# -- mail: ANSWER takes a choice by its name, as the question shows it ---------------------------


def test_answer_by_mail_takes_the_choice_by_its_name_as_well_as_its_key(tmp_path):
    """The question lists "cascina_bianca: Cascina Bianca"; a player wrote ANSWER 1 Cascina Bianca
    and was refused: "expected exactly 1 choice(s), got 2"."""
    from datetime import datetime, timezone

    from conftest import Clock
    from test_service import play_bot_day, tick

    from pbem.server import inbox
    from pbem.server.service import Service
    from pbem.server.store import Store

    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    store = Store(tmp_path / "pbem.sqlite3", clock=clock)
    service = Service(store, clock=clock)
    game_id, keys = service.create_game("Asked", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=5,
                                        settings={"hours": 24, "ask": ["retreat", "block", "take_loss"]})
    pending = None
    for _ in range(30):
        play_bot_day(service, game_id)
        clock.advance(hours=25)
        tick(service)
        pending = service.info(game_id)["pending"]
        if pending and any(" " in label for label in pending["decision"]["labels"].values()):
            break
    assert pending, "no question with a name of several words came up in 30 days of bot play"
    decision, side = pending["decision"], pending["decision"]["side"]
    key, name = next((k, v) for k, v in decision["labels"].items() if " " in v)
    sender = {"austria": ANNA, "france": FRED}[side]
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "answer"
    msg.set_content(f"GAME {game_id} KEY {keys[side]}\nANSWER {pending['index']} {name.upper()}\n")
    inbox.receive(service, msg.as_bytes(), "smtp")
    inbox.process_pending(service)
    answered = store.mails("WHERE to_addr = ? ORDER BY id DESC LIMIT 1", (sender,))
    assert answered[0]["body"].startswith("Your answer was taken."), answered[0]["body"]
    logged = [e for e in service.store.read_log(game_id) if e.get("kind") == "answer"]
    assert logged[-1]["index"] == pending["index"] and logged[-1]["answer"] == [key]
    store.close()


# -- "ask me": a question with one possible answer is not put --------------------------------------


def test_a_question_with_one_possible_answer_is_not_put_to_the_player():
    """A retreat with one locale to go to was mailed as a question ("Choose 1 to 1": Bormida
    bend alone) and the game waited for the answer."""
    from pbem.core.decisions import Decider, Decision, Pending

    always = Decider(ask=lambda decision: True)
    one = Decision("austria", "retreat", "A3 retreats from Bormida bridgehead: where to?", ("bormida_bend",),
                   ("bormida_bend",), (("bormida_bend", "Bormida bend"),))
    assert always.decide(one, source="standing") == ("bormida_bend",)
    assert always.records[-1].source == "default"
    two = Decision("austria", "retreat", "A2 retreats: where to?", ("bormida_bend", "vigne"), ("bormida_bend",))
    with pytest.raises(Pending):
        always.decide(two, source="standing")
    none_or_one = Decision("austria", "if_blocked", "Which blocks advance?", ("A1",), (), min=0, max=1)
    with pytest.raises(Pending):
        Decider(ask=lambda decision: True).decide(none_or_one)


# -- mail: the orders form filled in inside the quoted mail ----------------------------------------


def test_a_form_filled_in_inside_the_quote_is_not_read_and_the_answer_says_where_to_write(door):
    """A player pressed Reply, put his key into the quoted form's header and took the # off the
    orders he wanted, all inside the "> " quote: the answer said only "Read from your mail:
    nothing. Ignored: 159 quoted lines"."""
    game_id, keys, send = door
    form = (f"GAME {game_id} SIDE Austria TURN 6AM KEY {keys['austria']}\n# Your orders for Austria's day\n"
            "FINAL\n")
    quoted = "\n".join("> " + line for line in ("[pbem-mail] Written by the pbem server", "", "Orders", *form.splitlines(),
                                                  "", "[pbem-mail-end]"))
    [answer] = send(f"On Monday, pbem <pbem@localhost> wrote:\n{quoted}\n", ANNA)
    assert "nothing was done" in answer
    assert "filled in the orders form inside the quoted mail" in answer, answer
    assert "write your orders above the quoted mail" in answer
    assert keys["austria"] not in answer
    [plain] = send("On Monday, pbem <pbem@localhost> wrote:\n> GAME 1 SIDE Austria TURN 6AM KEY <your-key>\n> FINAL\n",
                   ANNA)
    assert "filled in the orders form" not in plain
