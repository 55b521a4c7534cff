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
    assert game.turn().seats == tuple(BLUE + RED)  # every living commander on the table writes


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
    assert game.view("blue-1")["couriers"] == []  # another brigade's seat knows nothing of it
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
    assert "delivered to Colonel Cobalt" in told["blue-2"] and "delivered to Colonel Cobalt" in told["blue-general"]
    assert "delivered to Colonel Cobalt" not in told["blue-1"] + told["red-general"] + told["red-2"]
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
        assert "1st Blue brigade:" in general and "2nd Blue brigade:" in general


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
