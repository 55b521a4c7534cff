"""Napoleonic DBA's seats as the server sees them (pbem/games/dba/seats.py): one seat a side by default, one seat
per commander with ``command = kriegsspiel``; what each kriegsspiel seat may write, see and read; the whole
game played by the bots in that mode with the invariants, and the leak oracle (tests/leak_oracle.py) over every
seat's view, report and map; ``pbem selfplay --game dba``."""

from __future__ import annotations

import json

import pytest
from leak_oracle import all_ids, check_view_json, knowledge
from leak_oracle import check as oracle_check

from pbem.cli import main
from pbem.core.game import Game
from pbem.core.orders import OrdersError
from pbem.core.ruleset import options_of
from pbem.games import ruleset
from pbem.tools.selfplay import play_game

RULES = ruleset("dba")
MEETING = RULES.load_scenario(RULES.scenarios()["dba-meeting"])
KRIEG = options_of(RULES, {"command": "kriegsspiel"})
BLUE = ["blue-general", "blue-1", "blue-2", "blue-3"]
RED = ["red-general", "red-1", "red-2", "red-3"]


def kriegsspiel_game(seed: int = 3) -> Game:
    return Game(RULES, MEETING, seed, options=KRIEG)


def test_the_default_keeps_one_seat_a_side_and_kriegsspiel_gives_one_seat_per_commander():
    assert options_of(RULES)["command"] == "commanders"
    assert [s.id for s in RULES.seats(MEETING, options_of(RULES))] == ["blue", "red"]
    seats = RULES.seats(MEETING, KRIEG)
    assert [s.id for s in seats] == BLUE + RED  # the army's commander first, then his brigades'
    assert {s.side for s in seats[:4]} == {"blue"} and {s.side for s in seats[4:]} == {"red"}
    assert seats[1].title == "Colonel Bleu (1st Blue brigade, Blue division)"
    game = kriegsspiel_game()
    # the turn waits for the generals, who write to the commanders under them; the colonels, with no one under
    # them, may write (their initiative orders) and are not waited for (issue 30)
    assert game.turn().seats == ("blue-general", "red-general")
    assert game.turn().others == tuple(s for s in BLUE + RED if not s.endswith("general"))


def test_a_seat_writes_as_its_own_commander_only_and_a_refused_line_says_why():
    game = kriegsspiel_game()
    with pytest.raises(OrdersError) as refused:
        game.ruleset.check_orders(MEETING, game.state, "blue-1", "FROM General Azur TO Colonel Cobalt\nHOLD\n")
    assert "you do not write for General Azur" in str(refused.value)
    assert "line 1" in str(refused.value) or refused.value.problems[0].line == 1
    with pytest.raises(OrdersError, match="Colonel Rouge is an enemy commander"):
        game.ruleset.check_orders(MEETING, game.state, "blue-general", "FROM General Azur TO Colonel Rouge\nHOLD\n")
    ok = game.ruleset.check_orders(MEETING, game.state, "blue-general",
                                   "FROM General Azur TO Colonel Cobalt\nMOVE TO Mill Village\n")
    assert [o.recipient.id for o in ok.dispatches] == ["blue-2"]
    mine = game.ruleset.check_orders(MEETING, game.state, "blue-1", "INITIATIVE Colonel Bleu\nMOVE TO Mill Village\n")
    assert len(mine.initiatives) == 1  # a brigade's commander may take his own initiative test


def test_a_brigade_seat_sees_its_own_troops_and_the_general_sees_his_division():
    game = kriegsspiel_game()
    brigade = game.view("blue-1")
    assert brigade["commander"] == "blue-1" and brigade["side"] == "blue"
    assert {e["brigade"] for e in brigade["elements"]} == {"blue-1"}
    assert [b["id"] for b in brigade["brigades"]] == ["blue-1"]
    assert [c["id"] for c in brigade["commanders"]] == ["blue-1"]
    general = game.view("blue-general")
    assert {e["brigade"] for e in general["elements"]} == {"blue-1", "blue-2", "blue-3"}
    assert "blue-general" in {c["id"] for c in general["commanders"]}


def test_a_dispatch_travels_between_seats_by_courier_and_its_text_reaches_the_recipient_only():
    game = kriegsspiel_game(5)
    game.submit("blue-general", "FROM General Azur TO Colonel Cobalt\nMOVE TO Mill Village IN COLUMN\n")
    for seat in game.turn().seats:
        if seat != "blue-general":
            game.submit(seat, "")
    game.advance()
    sent = game.view("blue-general")["couriers"]
    assert sent and "General Azur to Colonel Cobalt" in sent[0]
    assert not any("dispatch" in c for c in game.view("blue-1")["couriers"])  # another brigade's seat knows nothing of it
    for _ in range(6):
        if game.view("blue-2")["dispatches"]:
            break
        for seat in game.turn().seats:
            game.submit(seat, "")
        game.advance()
    assert game.view("blue-2")["dispatches"] == ["FROM General Azur TO Colonel Cobalt\nMOVE TO Mill Village IN COLUMN"]
    assert game.view("blue-3")["dispatches"] == [] and game.view("blue-general")["dispatches"] == []
    day = next(d for d, r in enumerate(game.days) if any("delivered to Colonel Cobalt" in e.text for e in r.events))
    told = {seat: RULES.report(game, day, seat, game_id="1").text for seat in BLUE + RED}
    assert "delivered to Colonel Cobalt" in told["blue-2"]
    first = RULES.report(game, 0, "blue-2", game_id="1").text  # the courier's setting out is his sender's news
    assert "sets out: General Azur to Colonel Cobalt" not in first
    assert "sets out: General Azur to Colonel Cobalt" in RULES.report(game, 0, "blue-general", game_id="1").text
    assert "delivered to Colonel Cobalt" not in told["blue-1"] + told["red-general"] + told["red-2"]
    # the general learns of it from Colonel Cobalt's report, brought by courier on a later turn (DS6)
    assert "delivered to Colonel Cobalt" not in told["blue-general"]
    for seat in game.turn().seats:
        game.submit(seat, "")
    game.advance()
    later = RULES.report(game, day + 1, "blue-general", game_id="1").text
    assert "from Colonel Cobalt, sent turn" in later and "delivered to Colonel Cobalt" in later
    assert "Dispatches brought to you" in told["blue-2"] and "Dispatches brought to you" not in told["blue-1"]


def test_kriegsspiel_games_play_to_their_end_with_every_invariant_and_no_seat_reads_an_unseen_enemy():
    bots = {s.id: RULES.bots()["bot"] for s in RULES.seats(MEETING, KRIEG)}
    game = play_game(RULES, MEETING, 4, bots, check=True, options=KRIEG)
    assert game.over and game.day == MEETING.settings.turns
    assert game.state.post.couriers  # the generals' seats wrote dispatches
    ids = all_ids(game)
    checked = 0
    for day in range(len(game.days)):
        for seat in BLUE + RED:
            known = [knowledge(game, seat, through=day)]
            view = game.view(seat, day)
            where = f"seed 4, day {day}, {seat}"
            check_view_json(f"{where}: view", view, known, ids)
            report = RULES.report(game, day, seat, game_id="1")
            for what, text in (("view", json.dumps(view, ensure_ascii=False)), ("report", report.markdown),
                               ("report text", report.text),
                               ("map", RULES.render_svg(MEETING, view, "map"))):
                oracle_check(f"{where}: {what}", text, known)
                checked += 1
    assert checked == len(game.days) * 8 * 4


def test_the_brigade_seats_read_only_what_names_their_troops_or_nobody():
    bots = {s.id: RULES.bots()["bot"] for s in RULES.seats(MEETING, KRIEG)}
    game = play_game(RULES, MEETING, 6, bots, days=6, options=KRIEG)
    for day in range(len(game.days)):
        one = RULES.report(game, day, "blue-1", game_id="1").text
        two = RULES.report(game, day, "blue-2", game_id="1").text
        assert "2nd Blue brigade:" not in one and "1st Blue brigade:" not in two
        assert "1st Blue brigade:" in one and "2nd Blue brigade:" in two  # each its own order in force
        general = RULES.report(game, day, "blue-general", game_id="1").text
        events = general.split("What happened")[1].split("Your brigades")[0]
        if day == 0:  # he leads no brigade: his brigades' lines reach him only by their reports (DS6)
            assert "1st Blue brigade:" not in events and "from Colonel Bleu" not in events
        else:
            assert "from Colonel Bleu, sent turn" in events and "1st Blue brigade:" in events
            assert "from Colonel Cobalt, sent turn" in events and "2nd Blue brigade:" in events


def test_an_event_naming_no_seats_own_troops_is_the_moderators_alone_and_he_reads_each_event_once():
    from pbem.core.events import Event
    from pbem.games.dba import seats

    game = kriegsspiel_game()
    state = game.state
    told = seats.for_seats(MEETING, state, [
        Event("report", "the mist lifts over the valley", owner="blue"),
        Event("report", "1st Blue brigade: HOLD", owner="blue"),
        Event("report", "Colonel Bleu and Colonel Cobalt confer", owner="blue")])
    readers = {e.text: e.owners() for e in told}
    assert readers["the mist lifts over the valley"] == (seats.MODERATOR,)  # no seat's troops saw it
    assert [e.owners() for e in told if e.text == "1st Blue brigade: HOLD"] == [(seats.MODERATOR,), ("blue-1",)]
    assert [e.owners() for e in told if e.text.endswith("confer")] == [(seats.MODERATOR,), ("blue-1", "blue-2")]
    bots = {s.id: RULES.bots()["bot"] for s in RULES.seats(MEETING, KRIEG)}
    played = play_game(RULES, MEETING, 6, bots, days=3, options=KRIEG)
    moderator = RULES.report(played, 2, None, game_id="1").text
    lines = [line for line in moderator.split("What happened")[1].split("Choices")[0].splitlines() if line.startswith("- ")]
    assert lines and len(lines) == len(set(lines))  # each event once, not a copy per seat
    for seat in BLUE:
        mine = RULES.report(played, 2, seat, game_id="1").text
        assert all(line in moderator or "unseen" in line or "report" in line
                   for line in mine.split("What happened")[1].split("\n\n")[1].splitlines())


def test_a_superior_learns_what_his_brigades_see_from_their_reports_a_courier_ride_later():
    from pbem.games.dba import seats, sight

    bots = {s.id: RULES.bots()["general"] for s in RULES.seats(MEETING, KRIEG)}
    game = play_game(RULES, MEETING, 4, bots, days=8, options=KRIEG)
    checked, reported = 0, set()
    for day, result in enumerate(game.days):
        state = result.after
        table = state.table(MEETING)
        general = set(game.view("blue-general", day)["enemy"][i]["id"] for i in range(len(game.view("blue-general", day)["enemy"])))
        own = sight.seen(table, "blue", MEETING.settings.spotting, *seats.eyes(state, "blue-general"))
        assert general == {state.enemy_ids["blue"][i] for i in own}  # his own eyes only; by his army's ids (DS8)
        brigades = sight.seen(table, "blue", MEETING.settings.spotting, *seats.command(state, "blue-general"))
        riding = {r.seq: r for r in result.before.reports.reports}  # with what they carry, before they arrive
        for r in state.reports.reports:
            if r.recipient == "blue-general" and r.delivered == state.turn - 1:
                known = set(state.memory["blue-general"])
                assert {s.element for s in riding[r.seq].sightings} <= known  # what it brought is remembered
                assert r.sent < r.delivered and not r.sightings  # read, and not kept twice
                reported |= {s.element for s in riding[r.seq].sightings}
                checked += 1
        reported |= own  # what he has seen with his own eyes
        if brigades - own:  # his brigades see what he does not: he does not know it unless a report said so
            assert (brigades - own) & set(state.memory["blue-general"]) <= reported
    assert checked


def test_a_past_days_report_offers_no_orders_form():
    game = kriegsspiel_game()
    for _ in range(2):
        for seat in game.turn().seats:
            game.submit(seat, "")
        game.advance()
    assert RULES.report(game, 1, "blue-1", game_id="1").template  # the latest: tomorrow's form
    past = RULES.report(game, 0, "blue-1", game_id="1")
    assert past.template == "" and "Your next orders" not in past.text


@pytest.mark.parametrize("option", [[], ["--option", "command=kriegsspiel"]])
def test_pbem_selfplay_plays_dba(capsys, option):
    assert main(["selfplay", "--game", "dba", "--games", "1", "--seed", "2", *option]) == 0
    out = capsys.readouterr().out
    assert "1 games, 12 days" in out and "problem" not in out.lower()


def test_the_example_mail_of_the_how_to_play_section_is_read_and_its_refusal_is_the_servers():
    import re
    from pathlib import Path

    docs = (Path(__file__).resolve().parent.parent / "docs" / "dba.md").read_text(encoding="utf-8")
    example = re.search(r"A mail from the Blue general's seat of\na kriegsspiel game:\n\n```text\n(.*?)```", docs,
                        re.S).group(1)
    game = kriegsspiel_game()
    read = RULES.check_orders(MEETING, game.state, "blue-general", example)
    assert [o.recipient.id for o in read.dispatches] == ["blue-1", "blue-3"] and read.final
    assert [len(o.steps) for o in read.dispatches] == [2, 2]
    with pytest.raises(OrdersError) as refused:
        RULES.check_orders(MEETING, game.state, "blue-1", "GAME 12 SIDE blue-1\nFROM General Azur TO Colonel Cobalt\n"
                                                          "HOLD\n")
    problem = refused.value.problems[0]
    assert (problem.line, problem.column) == (2, 6)
    assert problem.message.startswith("you do not write for General Azur")
    assert '"line 2, column 6: you do not write for General Azur' in " ".join(docs.split())  # as the docs say


def test_a_decision_is_asked_of_the_seat_whose_troops_it_names():
    """DS5: in the kriegsspiel game "ask me" reaches the brigade's own seat (not the side, which is no seat)."""
    from pbem.core.decisions import Pending

    game = kriegsspiel_game(3)
    game.submit("blue-general", "FROM General Azur TO Colonel Cobalt\nMOVE TO Mill Village\n")
    asked = []
    for _ in range(6):
        try:
            game.advance(ask=lambda d: d.kind == "unit moves")
        except Pending as pending:
            asked.append(pending.decision)
            break
    assert asked, "no unit moved in six turns"
    assert asked[0].side in {s.id for s in RULES.seats(MEETING, KRIEG)} and asked[0].side not in ("blue", "red")
    assert asked[0].side in ("blue-1", "blue-2", "blue-3", "red-1", "red-2", "red-3")
    game.advance()  # without asking: the defaults answer, the turn is played
    assert game.days and all(r.decision.side not in ("blue", "red") for d in game.days for r in d.decisions)


def test_a_moderated_kriegsspiel_game_made_on_the_form_and_its_commanders_seats_taken_by_join(tmp_path):
    """The form's seat buttons are one seat a side; a kriegsspiel game is made with no seat (the maker
    moderates), and each player takes his commander's seat from the home page (Join), asking for 'ask me'."""
    from websupport import ANNA, FRED, Site, post

    site = Site(tmp_path)
    try:
        mod = site.client("mod@example.org")
        created = post(mod, "/games/new", **{"title": "Kriegsspiel", "scenario": "dba:dba-meeting.toml",
                                           "option.dba.command": "kriegsspiel", "seat": "none", "timezone": "UTC",
                                           "ask": ["dba:unit moves"], "hours": "24"})
        assert created.status_code == 302, created.text[:2000]
        game_id = int(site.store.db.execute("SELECT MAX(id) FROM games").fetchone()[0])
        assert site.service.info(game_id)["status"] == "open"
        anna, fred = site.client(ANNA), site.client(FRED)
        assert "Play Colonel Bleu (1st Blue brigade, Blue division)" in anna.get("/").text
        assert post(anna, f"/games/{game_id}/join", side="blue-1", timezone="UTC").status_code == 302
        assert post(fred, f"/games/{game_id}/join", side="red-general", timezone="UTC").status_code == 302
        assert site.service.seat(game_id, "blue-1")["email"] == ANNA
        page = anna.get(f"/games/{game_id}?side=blue-1")
        assert "Colonel Bleu" in page.text and "SIDE blue-1" in page.text
        assert site.service.info(game_id)["settings"]["ask"] == ["unit moves"]
    finally:
        site.store.close()


def test_a_general_knows_where_his_troops_are_only_by_his_own_eyes_and_their_reports():
    """Issue 30 §2 (DS7): a kriegsspiel general's view places the elements under him that he does not see now
    where the last report brought to him placed them (with that report's turn), never where they are now; and it
    gives a brigade he does not lead the order he last wrote to it, not the order in force or its history."""
    import dataclasses

    from pbem.games.dba.elements import inches

    near = dataclasses.replace(MEETING, settings=dataclasses.replace(MEETING.settings, spotting=inches(6)))
    bots = {s.id: RULES.bots()["bot"] for s in RULES.seats(near, KRIEG)}
    game = play_game(RULES, near, 4, bots, check=True, options=KRIEG, days=6)
    stale = 0
    for day, result in enumerate(game.days):
        state = result.after
        gen = state.commanders["blue-general"]
        table = state.table(near)
        view = RULES.view(near, state, "blue-general")
        for e in view["elements"]:
            real = state.elements.get(e["id"])
            if "reported" not in e:  # given where it is now: he sees it now
                assert real is not None and (e["x"], e["y"]) == (real.x, real.y)
                assert table.sees(gen, real, near.settings.spotting), (day, e["id"])
                continue
            assert e["reported"] < state.turn - 1  # an earlier turn's news
            then = game.days[e["reported"] - 1].after.elements[e["id"]] if e["reported"] else \
                near.table.elements[e["id"]]
            assert (e["x"], e["y"]) == (then.x, then.y)  # where it stood when reported, not where it stands now
            stale += real is not None and (real.x, real.y) != (then.x, then.y)
        sent = {c.order.text for c in state.post.couriers if c.sender == "blue-general"}
        for b in view["brigades"]:
            assert b["history"] == [] and (b["order"] == "" or b["order"] in sent)
    assert stale, "no element was ever shown at a stale place: the test saw nothing hidden"


def test_a_kriegsspiel_turn_waits_for_the_final_of_the_commanders_who_owe_orders_or_the_deadline(tmp_path):
    """Issue 30 §2 (DS4), through the service over a SQLite file with a clock moved by hand: the turn is resolved
    early once the two generals (who write to the colonels under them) have both sent FINAL, whether or not any
    colonel wrote; a colonel, with no one under him, is neither waited for nor reminded, and his FINAL does not
    stand for his general's; with no FINAL at all, the deadline resolves the turn."""
    from datetime import datetime, timezone

    from conftest import Clock

    from pbem.server.service import Service
    from pbem.server.store import Store

    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    service.rasterise = lambda svg: b"png"
    email = {seat: f"{seat}@example.org" for seat in BLUE + RED}
    game_id, _ = service.create_game("Waits", email, scenario="dba-meeting.toml", seed=3, game="dba",
                                     options={"command": "kriegsspiel"}, settings={"hours": 24})
    service.run_jobs()
    assert service.game(game_id).turn().seats == ("blue-general", "red-general")
    assert service.submit(game_id, "blue-general", "FROM General Azur TO Colonel Bleu\nHOLD\n\nFINAL\n").ok
    assert service.submit(game_id, "blue-1", "FINAL\n").ok  # a colonel may write: his FINAL is not his general's
    assert service.tick() == []  # General Carmin has not sent FINAL
    clock.advance(hours=23)  # the 2-hour reminder is due: to the general who owes orders, to no colonel
    assert service.tick() == []
    reminded = {r["to_addr"] for r in service.store.mails("WHERE kind = ? ORDER BY id", ("reminder",))}
    assert reminded == {email["red-general"]}
    assert service.submit(game_id, "red-general", "FINAL\n").ok
    assert service.tick() == [(game_id, 0)]  # before the deadline, no colonel of Red having written a word
    game = service.game(game_id)
    assert game.day == 1 and not any(game.orders_text(0, s) for s in ("blue-2", "blue-3", "red-1", "red-2", "red-3"))
    service.run_jobs()
    clock.advance(hours=23, minutes=59)
    assert service.tick() == []
    clock.advance(minutes=2)  # nobody sent FINAL: the deadline resolves the turn
    assert service.tick() == [(game_id, 1)]
