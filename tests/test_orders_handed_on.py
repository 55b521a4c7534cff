"""Orders read once (issue 15): ``Game.submit`` hands the reading its check made to the day it is for, so
``Game.advance`` does not read the same text again against the same position. The reading handed on is
the one the day would make (for Marengo, before the check edits an assault written without WITH), and
it is believed only for the entry that counts and the very position it was read against; the days are
those a replay from the texts makes. No timing is asserted (`pbem bench` prints self-play's speed)."""

from __future__ import annotations

from pathlib import Path

import pytest
from conftest import CountingParses, first_setting

from pbem.core.decisions import Pending
from pbem.core.game import Game
from pbem.games import ruleset
from pbem.games.marengo.cases import case_board, case_position
from pbem.games.simmons.cases import load_case
from pbem.tools.selfplay import play_game, simple_players

GAMES = ("marengo", "triomphe", "napoleon1815")
CASES = Path(__file__).parent / "cases" / "marengo"


def days_of(game):
    return [(d.day, d.seats, game.ruleset.digest(d.after), [e.text for e in d.events]) for d in game.days]


def bots_orders(game, players):
    """The texts the bots send for the next day: each owing seat's orders, the others' standing orders."""
    turn, scenario = game.turn(), game.scenario
    sent = [(seat, players[seat].orders(scenario, game.view(seat), game.seed)) for seat in turn.seats]
    sent += [(seat, players[seat].standing(scenario, game.view(seat), game.seed))
             for seat in turn.others if players[seat].standing is not None]
    return sent


@pytest.mark.parametrize("name", GAMES)
def test_a_self_play_day_reads_no_orders_text_again_and_plays_as_a_replay_from_the_texts(name):
    rules, scenario = first_setting(name)
    counting = CountingParses(rules)
    players = simple_players(rules, scenario)
    game = Game(counting, scenario, 2)
    while not game.over and game.day < 40:
        for seat, text in bots_orders(game, players):
            game.submit(seat, text)
        counting.parses = 0
        game.advance()
        assert counting.parses == 0, f"day {game.day - 1}: the orders were read again to resolve the day"
    replayed = Game(CountingParses(rules), scenario, 2, game.log)  # every text read again
    assert len(game.days) > 10 and days_of(replayed) == days_of(game)
    assert days_of(play_game(rules, scenario, 2, players, days=len(game.days))) == days_of(game)


@pytest.mark.parametrize("name", GAMES)
def test_a_reading_is_not_believed_after_a_rewind_nor_for_orders_sent_again(name):
    rules, scenario = first_setting(name)
    players = simple_players(rules, scenario)
    plain = play_game(rules, scenario, 3, players, days=6)
    counting = CountingParses(rules)
    game = Game(counting, scenario, 3, [entry for entry in plain.log if entry["kind"] != "resolved"
                                        or entry["day"] < 5])
    assert game.day == 5
    sent = [(entry["side"], entry["text"]) for entry in plain.entries_of(5) if entry["kind"] == "orders"]
    for seat, text in sent:
        game.submit(seat, "")  # sent, then sent again: the last counts
        game.submit(seat, text)
    game.rewind(5)  # days 0-4 replayed: the position before day 5 is another object, equal to the first
    counting.parses = 0
    game.advance()
    assert counting.parses == len([text for _, text in sent if text])  # read again, against the new position
    assert days_of(game) == days_of(plain)[:6]


def test_marengo_hands_on_the_reading_before_the_check_edits_an_assault_written_without_with():
    path = CASES / "assault-without-with-leaves-out-artillery.toml"
    data = load_case(path)
    scenario, state = case_position(data, case_board(data, path), path)
    rules, text = ruleset("marengo"), data["orders"]["austria"]
    checked = rules.check_orders(scenario, state, "austria", text)
    read = rules.day_orders(checked)
    fresh = rules.parse_orders(scenario, state, "austria", text)
    assert [o.blocks for o in checked.orders] == [("A1",)]  # the check left out the artillery that fires
    assert [o.blocks for o in read.orders] == [("A1", "G1")] and not read.orders[0].named
    assert read == fresh and repr(read) == repr(fresh)
    assert read.orders[0] is not checked.orders[0]


@pytest.mark.parametrize("name", GAMES)
def test_a_day_stopped_at_a_decision_resolves_with_the_reading_handed_on_once_answered(name):
    rules, scenario = first_setting(name)
    counting = CountingParses(rules)
    players = simple_players(rules, scenario)
    game = Game(counting, scenario, 4)
    stopped = 0
    while not game.over and game.day < 40:
        for seat, text in bots_orders(game, players):
            game.submit(seat, text)
        counting.parses = 0
        while True:
            try:
                game.advance(ask=lambda decision: True)  # every decision asked of its side
                break
            except Pending as pending:
                stopped += 1
                game.answer(game.day, pending.index, pending.decision.default)
        assert counting.parses == 0
    assert stopped > 0 and days_of(Game(CountingParses(rules), scenario, 4, game.log)) == days_of(game)


def test_triomphe_hands_on_and_stores_its_orders_without_the_check_s_warnings():
    """Triomphe's check only warns (``orders.warnings``: what depends on the enemy's answers); the day reads the
    text without them. What the check hands on is what the day's own reading gives, in the stored parse's JSON
    too, for every orders text of a self-play game, the texts with warnings among them."""
    rules, scenario = first_setting("triomphe")
    players = simple_players(rules, scenario)
    game = Game(rules, scenario, 4)
    form = rules.orders_form(scenario)
    warned = compared = 0
    while not game.over and game.day < 30:
        for seat, text in bots_orders(game, players):
            checked = rules.check_orders(scenario, game.state, seat, text)
            warned += bool(checked.warnings)
            assert form.dumps(rules.day_orders(checked)) == form.dumps(rules.parse_orders(scenario, game.state, seat,
                                                                                          text))
            compared += 1
            game.submit(seat, text)
        game.advance()
    assert compared > 20 and warned > 0
