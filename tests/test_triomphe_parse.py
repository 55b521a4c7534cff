"""The Triomphe order language: the echo reads back to the same orders; problems name line and column."""

from pathlib import Path

import pytest

from pbem.core.orders import OrdersError
from pbem.games.triomphe import parse_orders, setup
from pbem.games.triomphe.scenario import load_scenario

SCENARIO = Path(__file__).parent.parent / "maps" / "triomphe.toml"


@pytest.fixture(scope="module")
def game():
    scenario = load_scenario(SCENARIO)
    return scenario, setup(scenario, 1)


def test_austria_first_turn_echo_round_trips(game):
    scenario, state = game
    text = """GAME 7 SIDE Austria TURN 6AM KEY k
    enter a1 -> pedrabona THEN CONTINUE a1 pedrabona>marengo
    ENTER A2 ; ENTER A4 by pontoon
    STANDING RESPOND ALL BLOCKING
    STANDING COUNTERATTACK TURN
    STANDING RETREAT ALL TO Bormida bridgehead
    FINAL
    """
    orders = parse_orders(scenario, state, "austria", text)
    echo = orders.echo()
    assert echo.splitlines()[0] == "ENTER A1 -> Pedrabona THEN CONTINUE A1 Pedrabona>Marengo"
    again = parse_orders(scenario, state, "austria", echo)
    assert again.echo() == echo
    assert orders.final


def test_french_standing_orders_in_the_austrian_turn(game):
    scenario, state = game
    orders = parse_orders(scenario, state, "france", "STANDING VANGUARD ALL BEST\nSTANDING COVER NEVER")
    assert [s.kind for s in orders.standing] == ["vanguard", "cover"]


def test_every_problem_is_listed_with_its_line(game):
    scenario, state = game
    with pytest.raises(OrdersError) as err:
        parse_orders(scenario, state, "austria", "ENTER A1 -> Nowhere\nMARCH A99 Pedrabona -> Marengo\nFOO")
    lines = sorted(p.line for p in err.value.problems)
    assert lines == [1, 2, 3]
    assert "no block of yours called A99" in str(err.value)
    assert "'FOO' is not an order" in str(err.value)


def test_the_french_may_not_act_in_the_austrian_turn(game):
    scenario, state = game
    with pytest.raises(OrdersError, match="it is Austria's turn"):
        parse_orders(scenario, state, "france", "REORGANISE F1")


WORDS = ["MARCH", "ROAD", "ENTER", "ATTACK", "ASSAULT", "BOMBARD", "FIRE", "HOLD", "REORGANISE", "RETURN",
         "STANDING", "RESPOND", "VANGUARD", "RETREAT", "THEN", "CONTINUE", "IF", "BLOCKED", "WITH", "LEAD", "BEST",
         "BY", "PONTOON", "AT", "TO", "ALL", "NONE", "A1", "A2", "A14", "F1", "F3", "Pedrabona", "Marengo",
         "Bormida", "bridgehead", "->", ">", ";", "#", "Spinetta", "San", "Giuliano", "Nuovo", "FINAL", "TURN", "6AM"]


def test_no_text_crashes_the_parser(game):
    """Whatever arrives by mail, the parser answers with orders or an OrdersError."""
    from hypothesis import given, settings, strategies as st

    scenario, state = game

    @settings(max_examples=300, deadline=None)
    @given(st.lists(st.one_of(st.sampled_from(WORDS), st.text(max_size=6)), max_size=14),
           st.sampled_from(["austria", "france"]))
    def check(words, side):
        text = " ".join(words).replace(" ; ", "\n")
        try:
            parse_orders(scenario, state, side, text)
        except OrdersError as exc:
            assert all(p.line >= 1 and p.column >= 1 for p in exc.problems)

    check()
