"""The mail half of the second hardening round (issue 28, items 7, 8, 9, 11, 14; issue 33, item 1).

Every mail goes through the built-in SMTP receiver on loopback into a real
SQLite file (test_mail_hostile's ``Door``); the mail worker's function then
processes it, and the answers are read from the outbox.
"""

from __future__ import annotations

import pytest
from test_mail_hostile import ANNA, FRED, SPAM, Door, mail

from pbem.server import inbox, throttle
from pbem.server.mail import bounds


@pytest.fixture
def door(tmp_path):
    d = Door(tmp_path)
    yield d
    d.close()


# -- item 9: the MIME bounds in every boundary syntax, counted before parsing ---------------------------

def parts(content_type: str, count: int, newline: str = "\r\n", boundary: str = "bb") -> bytes:
    body = "".join(f"--{boundary}{newline}{newline}" for _ in range(count)) + f"--{boundary}--{newline}"
    return (f"From: someone@example.net{newline}To: pbem@localhost{newline}Subject: parts{newline}"
            f"Content-Type: multipart/mixed; {content_type}{newline}{newline}{body}").encode()


SYNTAXES = {
    "plain": "boundary=bb",
    "quoted": 'boundary="bb"',
    "rfc2231": "boundary*=''bb",
    "rfc2231-charset-percent": "boundary*=utf-8''%62b",
    "continuations": "boundary*0=b; boundary*1=b",
    "extended-continuations": "boundary*0*=us-ascii'en'%62; boundary*1=\"b\"",
    "folded": "boundary\r\n =bb",
}


@pytest.mark.parametrize("syntax", SYNTAXES.values(), ids=SYNTAXES.keys())
def test_parts_are_counted_whatever_the_boundary_syntax(syntax):
    """What the parser reads as the boundary, the bound counts: just over the bound is refused,
    and so is a long run of parts, in every syntax."""
    import email
    import email.policy

    raw = parts(syntax, bounds.MAX_PARTS + bounds.MAX_MULTIPARTS + 1)
    assert email.message_from_bytes(raw, policy=email.policy.compat32).get_boundary() == "bb"
    assert "MIME parts" in bounds.problem(raw)
    assert bounds.problem(parts(syntax, 60_000))
    assert bounds.problem(parts(syntax, 5)) == ""


def test_lines_split_by_a_carriage_return_alone_are_counted():
    """The parser splits lines at a lone CR as well: a mail written so is counted the same."""
    assert "MIME parts" in bounds.problem(parts("boundary=bb", 200, newline="\r"))


def test_a_long_quoted_boundary_is_still_read():
    raw = parts(f'boundary="{"b" * 300}"', 200, boundary="b" * 300)
    assert "MIME parts" in bounds.problem(raw)


def test_lines_starting_with_two_dashes_are_bounded_whatever_the_boundary():
    """A boundary the raw scan cannot read (here none is declared where the scan looks): the lines
    starting with -- are bounded all the same."""
    raw = parts("boundary=(a comment)bb", bounds.MAX_DASH_LINES + 1)
    assert "--" in bounds.problem(raw)


def test_status_after_ten_hostile_mails_is_answered_and_they_are_not_parsed(door, monkeypatch):
    """Ten mails of 60,000 parts declared by RFC 2231 parameters, from ten senders, then a player's
    STATUS: the hostile mails are refused on their raw bytes (only their heads are parsed), and the
    STATUS is answered like any other."""
    parsed = []
    real = inbox.parse_message
    monkeypatch.setattr(inbox, "parse_message", lambda data, *a, **k: parsed.append(len(data)) or real(data, *a, **k))
    for i, syntax in enumerate(["boundary*=''bb", "boundary*0=b; boundary*1=b"] * 5):
        door.send(parts(syntax, 60_000).replace(b"someone@", f"s{i}@".encode()), sender=f"s{i}@example.net")
    door.send(mail(f"GAME {door.game_id} SIDE Austria KEY {door.keys['austria']}\nSTATUS\n", sender=ANNA), sender=ANNA)
    door.process()
    rows = door.store.query("SELECT status, result FROM inbound ORDER BY id")
    assert len(rows) == 11
    assert all(r["status"] == "processed" and "MIME" in r["result"] for r in rows[:10])
    assert all(size < 1000 for size in parsed[:10])  # only the heads of the hostile mails were read
    (status,) = door.answers(ANNA)
    assert status["subject"] == f"[pbem {door.game_id}] Status"


# -- issue 33, item 1: a mail without a Message-ID is a duplicate only within a short window ---------------

def test_the_same_bytes_without_message_id_are_read_again_after_the_window(door):
    """A script that sends the same mail each turn (no Message-ID, no Date): a copy within the
    window is a relay's retry and is stored once; the same bytes later are read and answered."""
    raw = mail(f"GAME {door.game_id} SIDE Austria KEY {door.keys['austria']}\nSTATUS\n", sender=ANNA)
    assert b"Message-ID" not in raw and b"Date" not in raw
    door.send(raw, sender=ANNA)
    door.clock.advance(minutes=5)
    door.send(raw, sender=ANNA)  # a relay whose 250 was lost tries again
    door.process()
    assert len(door.answers(ANNA)) == 1
    door.clock.advance(hours=6)  # the next turn: the same bytes again
    door.send(raw, sender=ANNA)
    door.process()
    assert door.store.query_one("SELECT COUNT(*) AS n FROM inbound")["n"] == 2
    assert len(door.answers(ANNA)) == 2


def test_the_readme_snippet_sent_twice_gets_two_answers(door):
    """The README's own smtplib snippet, run twice as written (the game, key, sender and port put in):
    each run is a mail of its own, answered."""
    import re
    from pathlib import Path

    readme = (Path(__file__).parent.parent / "README.md").read_text()
    (snippet,) = re.findall(r"python3 - <<'EOF'\n(import smtplib\n.*?)EOF\n", readme, re.S)
    snippet = (snippet.replace("2525", str(door.smtpd.port)).replace("you@example.org", ANNA)
               .replace("GAME 1 KEY your-seat-key", f"GAME {door.game_id} KEY {door.keys['austria']}"))
    for _ in range(2):
        exec(compile(snippet, "README.md", "exec"), {})
    door.process()
    assert [a["subject"] for a in door.answers(ANNA)] == [f"[pbem {door.game_id}] Status"] * 2


# -- issue 28 item 14, issue 33 item 1: a held answer is said once ------------------------------------------

def held(door, to=None) -> list[dict]:
    return [r for r in door.store.mails("WHERE kind = 'held' ORDER BY id") if to is None or r["to_addr"] == to]


def test_the_fourth_error_answer_of_an_hour_says_once_that_answers_are_held(door):
    for i in range(6):
        door.send(mail("Hello\n", sender="lost@example.net", message_id=f"<a{i}@example.net>"))
    door.process()
    assert len(door.answers("lost@example.net")) == throttle.STRANGER_PER_ADDRESS
    (notice,) = held(door, "lost@example.net")
    assert notice["subject"] == inbox.HELD_SUBJECT and "held until" in notice["body"]
    assert "Hello" not in notice["body"]
    door.clock.advance(minutes=61)  # an hour on: answered again, and told again when held again
    for i in range(5):
        door.send(mail("Hello again\n", sender="lost@example.net", message_id=f"<b{i}@example.net>"))
    door.process()
    assert len(door.answers("lost@example.net")) == 2 * throttle.STRANGER_PER_ADDRESS
    assert len(held(door, "lost@example.net")) == 2


def test_a_seat_holder_past_the_cap_of_wrong_keys_is_told_right_keys_are_still_answered(door):
    """Wrong keys from a seat's own address are unproven mail: past 3 answers an hour they are held and the
    notice says so once; it does not say his right-key mail goes unanswered, because it does not."""
    for i in range(5):
        door.send(mail(f"GAME {door.game_id} SIDE Austria KEY wrong{i}\nSTATUS\n", sender=ANNA,
                       message_id=f"<w{i}@example.org>"), sender=ANNA)
    door.process()
    (notice,) = held(door, ANNA)
    assert notice["body"] == inbox.HELD_UNPROVEN % {"until": notice["body"].split("held until ")[1].split(". ")[0]}
    assert "right seat key is still read, done and answered" in notice["body"]
    assert "is not answered" not in notice["body"]
    before = len(door.answers(ANNA))
    door.send(mail(f"GAME {door.game_id} SIDE Austria KEY {door.keys['austria']}\nSTATUS\n", sender=ANNA,
                   message_id="<right@example.org>"), sender=ANNA)
    door.process()
    answers = door.answers(ANNA)
    assert len(answers) == before + 1 and answers[-1]["subject"] == f"[pbem {door.game_id}] Status"
    assert len(held(door, ANNA)) == 1


def test_a_player_over_the_cap_of_every_answer_is_told_once(door, monkeypatch):
    monkeypatch.setattr(throttle, "ANSWERS_PER_ADDRESS", 12)
    for i in range(20):
        door.send(mail(f"GAME {door.game_id} SIDE Austria KEY {door.keys['austria']}\nSTATUS\n", sender=ANNA,
                       subject=f"status {i}"), sender=ANNA)
    door.process()
    assert len(door.answers(ANNA)) == 12 and len(held(door, ANNA)) == 1


def test_a_forged_reply_to_never_reaches_a_new_address_by_a_held_notice(door):
    """One sender, many forged Reply-To victims: past the sender's cap nobody new is mailed, not even
    a notice."""
    for i in range(10):
        door.send(mail("Hello\n", sender="spammer@example.net", Reply_To=f"v{i}@example.com"))
    door.process()
    assert len(door.answers()) == throttle.STRANGER_PER_SOURCE
    assert len({a["to_addr"] for a in door.answers()}) == throttle.STRANGER_PER_SOURCE
    assert held(door) == []


# -- item 11: reliability counts only days owed to a game with another person -----------------------------

def test_reliability_cannot_be_farmed_by_hot_seat_or_computer_games(tmp_path):
    """A player who missed his one day against another person stays at 0 %, whatever he plays alone:
    a hot-seat game (both seats his) and a game against the computer, a few days each with orders."""
    from pbem.server.leagues.records import reliability
    from pbem.server.service import Service
    from pbem.server.store import Store
    from test_mail_hostile import SMALL

    store = Store(tmp_path / "pbem.sqlite3")
    service = Service(store)
    flaky = "flaky@example.org"
    real, _ = service.create_game("real", {"austria": flaky, "france": "ok@example.org"}, scenario=SMALL,
                                  settings={"hours": 48})
    service.resolve_next(real)
    service.resolve_next(real)
    assert reliability(store, flaky)["percent"] == 0.0
    alone, _ = service.create_game("hot seat", {"austria": flaky, "france": flaky}, scenario=SMALL,
                                   settings={"hours": 48})
    robot, _ = service.create_game("computer", {"france": flaky}, scenario=SMALL, settings={"hours": 48},
                                   bots={"austria": "strategist"})
    for _ in range(4):
        for game_id, sides in ((alone, ("austria", "france")), (robot, ("france",))):
            for side in sides:
                service.submit(game_id, side, "FINAL")
            service.resolve_next(game_id)
    record = reliability(store, flaky)
    assert (record["owed"], record["missed"], record["percent"], record["games"]) == (1, 1, 0.0, 1)
    store.close()


# -- items 7 and 8: league mail by a forged From ---------------------------------------------------------

VICTIM, ORGANISER = "victim@example.com", "org@example.org"


def league_named_spam(door) -> tuple[object, int, int]:
    from pbem.server.leagues.service import Leagues
    from test_mail_hostile import SMALL

    leagues = Leagues(door.service)
    league_id = leagues.create_league(f"{SPAM} buy now", ORGANISER, rules={"scenario": SMALL})
    tid = leagues.create_tournament(league_id, ORGANISER, f"{SPAM} cup", "swiss")
    return leagues, league_id, tid


def code_in(answer: dict) -> str:
    import re

    (code,) = re.findall(r"\b[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}\b", answer["body"])
    return code


def test_a_forged_league_join_enrols_nobody_and_tells_the_real_address(door):
    """LEAGUE n JOIN with a forged From (and a Reply-To elsewhere): nobody is signed up; the From address
    alone is told, by a fixed text naming the league by number (not its name, the attacker's text) and
    carrying the code that would sign it up; that code, sent back from it, does."""
    leagues, league_id, _ = league_named_spam(door)
    door.send(mail(f"LEAGUE {league_id} JOIN Mr {SPAM}", sender=VICTIM, Reply_To="attacker@example.net"))
    door.process()
    assert not leagues.is_member(league_id, VICTIM)
    assert door.answers("attacker@example.net") == []
    (asked,) = door.answers(VICTIM)
    assert SPAM not in asked["body"] and SPAM not in asked["subject"]
    assert f"league {league_id}" in asked["body"] and f"/leagues/{league_id}" in asked["body"]
    door.send(mail(f"LEAGUE {league_id} JOIN abcd-efgh-ijkl", sender=VICTIM, message_id="<guess@x>"))  # a guess
    door.process()
    assert not leagues.is_member(league_id, VICTIM)
    door.send(mail(f"LEAGUE {league_id} JOIN {code_in(asked)}", sender=VICTIM, message_id="<yes@x>"))
    door.process()
    assert leagues.is_member(league_id, VICTIM)
    assert [m["name"] for m in leagues.league(league_id)["members"]] == [f"Mr {SPAM}"]  # the name he asked under
    assert "now a member" in door.answers(VICTIM)[-1]["body"]


def test_entering_a_tournament_by_mail_needs_the_code(door):
    leagues, league_id, tid = league_named_spam(door)
    leagues.join(league_id, ANNA)  # a member, signed up on the web
    door.send(mail(f"TOURNAMENT {tid} ENTER", sender=ANNA), sender=ANNA)
    door.process()
    assert leagues.tournament(tid)["entries"] == []
    (asked,) = door.answers(ANNA)
    assert SPAM not in asked["body"]
    door.send(mail(f"TOURNAMENT {tid} ENTER {code_in(asked)}", sender=ANNA), sender=ANNA)
    door.process()
    assert [e["email"] for e in leagues.tournament(tid)["entries"]] == [ANNA]


def test_forged_league_mail_to_one_address_is_capped_as_a_strangers(door):
    _, league_id, _ = league_named_spam(door)
    for i in range(10):
        door.send(mail(f"LEAGUE {league_id} JOIN", sender=VICTIM, message_id=f"<j{i}@example.net>"))
    door.process()
    assert len(door.answers(VICTIM)) == throttle.STRANGER_PER_ADDRESS
    assert len(held(door, VICTIM)) == 1


# -- item 7: the new game's moderator and invitations ------------------------------------------------------

from test_around_settings import Http, served  # noqa: E402,F401 -- the site on a real HTTP server
from websupport import post  # noqa: E402


def games_made(site) -> int:
    return len(site.store.games())


def test_the_moderator_is_one_address_in_the_api_and_the_form(served):  # noqa: F811
    from test_mail_hostile import SMALL

    anna = Http(served, ANNA)
    before = games_made(served)
    for given in ("a@example.org, b@example.org", "a@example.org b@example.org", "Anna", "<a@example.org>; x"):
        status, answer = anna.post("/api/games", {"title": "T", "scenario": SMALL, "seats": ["austria"],
                                                  "moderator": given})
        assert status == 400 and "the moderator is one email address" in answer["error"], (given, answer)
    form = post(served.client(ANNA), "/games/new", title="T", scenario=f"marengo:{SMALL}", seat="marengo:austria",
                moderator="x@example.org; y@example.org")
    assert form.status_code == 400 and "the moderator is one email address" in form.text
    assert games_made(served) == before
    status, made = anna.post("/api/games", {"title": "T", "scenario": SMALL, "seats": ["austria"],
                                            "moderator": " Bob@Example.org "})
    assert status == 201 and served.service.info(made["id"])["moderator"] == "Bob@example.org"


def test_a_new_games_moderator_mail_carries_no_title_and_strangers_are_capped(served):  # noqa: F811
    """A signed-in user names moderators who never signed in here: each is mailed the game's number and
    link, not its title; past the strangers' cap for that user, naming one is refused. A moderator
    who signed in is mailed as any player."""
    from test_mail_hostile import SMALL

    anna = Http(served, ANNA)
    answers = [anna.post("/api/games", {"title": f"{SPAM} buy now", "scenario": SMALL, "seats": ["austria"],
                                        "moderator": f"m{i}@example.com"}) for i in range(5)]
    assert [status for status, _ in answers] == [201] * throttle.STRANGER_PER_SOURCE + [400] * 2
    assert "never signed in here" in answers[-1][1]["error"]
    mailed = served.store.mails("WHERE kind = 'moderator' ORDER BY id")
    assert [m["to_addr"] for m in mailed] == [f"m{i}@example.com" for i in range(throttle.STRANGER_PER_SOURCE)]
    assert all(SPAM not in m["subject"] + m["body"] for m in mailed)
    Http(served, FRED)  # Fred signs in: he has confirmed his address
    status, _ = anna.post("/api/games", {"title": "T", "scenario": SMALL, "seats": ["austria"], "moderator": FRED})
    assert status == 201


def test_invitations_carry_no_title_and_strangers_are_capped(served):  # noqa: F811
    from test_mail_hostile import SMALL

    anna = Http(served, ANNA)
    client = served.client(ANNA)
    made = [anna.post("/api/games", {"title": f"{SPAM} buy now", "scenario": SMALL, "seats": ["austria"],
                                     "settings": {"private": True}})[1]["id"] for _ in range(5)]
    statuses = [post(client, f"/games/{game_id}/invite", side="france", email=f"i{n}@example.com").status_code
                for n, game_id in enumerate(made)]
    assert statuses[:throttle.STRANGER_PER_SOURCE] == [302] * throttle.STRANGER_PER_SOURCE
    assert all(status == 400 for status in statuses[throttle.STRANGER_PER_SOURCE:])
    invited = served.store.mails("WHERE kind = 'invitation' ORDER BY id")
    assert [m["to_addr"] for m in invited] == [f"i{n}@example.com" for n in range(throttle.STRANGER_PER_SOURCE)]
    assert all(SPAM not in m["subject"] + m["body"] for m in invited)
    assert f"game {made[0]} " in invited[0]["body"]


def test_a_moderator_replacing_players_mails_strangers_within_their_caps(tmp_path):
    """A moderator's "replace" mails the new address a welcome: to addresses that confirmed nothing, at
    most the strangers' cap an hour for one moderator; then refused, saying why."""
    from pbem.server.service import Service, ServiceError
    from pbem.server.store import Store
    from test_mail_hostile import SMALL

    store = Store(tmp_path / "pbem.sqlite3")
    service = Service(store)
    game_id, _ = service.create_game("g", {"austria": ANNA, "france": FRED}, scenario=SMALL,
                                     settings={"hours": 48}, moderator="mod@example.org")
    for n in range(throttle.STRANGER_PER_SOURCE):
        service.moderate(game_id, "mod@example.org", "replace", "gone quiet", side="france", email=f"new{n}@example.com")
    with pytest.raises(ServiceError, match="never signed in here"):
        service.moderate(game_id, "mod@example.org", "replace", "gone quiet", side="france", email="more@example.com")
    assert service.seat(game_id, "france")["email"] == f"new{throttle.STRANGER_PER_SOURCE - 1}@example.com"
    store.close()


def test_a_replacement_who_confirmed_nothing_is_mailed_no_title_nor_reason(tmp_path):
    from pbem.server.service import Service
    from pbem.server.store import Store
    from test_mail_hostile import SMALL

    store = Store(tmp_path / "pbem.sqlite3")
    service = Service(store)
    game_id, _ = service.create_game(f"{SPAM} buy now", {"austria": ANNA, "france": FRED}, scenario=SMALL,
                                     settings={"hours": 48}, moderator="mod@example.org")
    service.moderate(game_id, "mod@example.org", "replace", f"{SPAM} reasons", side="france", email=VICTIM)
    mailed = store.mails("WHERE to_addr = ? ORDER BY id", (VICTIM,))
    assert [m["kind"] for m in mailed] == ["welcome"]
    assert SPAM not in mailed[0]["subject"] + mailed[0]["body"] and f"game {game_id} " in mailed[0]["body"]
    assert any(SPAM in m["body"] for m in store.mails("WHERE to_addr = ? ORDER BY id", (ANNA,)))  # a player's: as before
    store.close()
