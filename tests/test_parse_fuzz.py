from pbem.core.chance import Chance
"""The order parser never fails with anything but OrdersError, whatever it is sent,
and answers quickly (hypothesis: random text and mutations of valid orders)."""

from dataclasses import replace
from pathlib import Path

import pytest
from bounds import no_hang
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pbem.core.orders import OrdersError
from pbem.games.marengo.parse import parse_orders
from pbem.games.marengo.scenario import load_scenario
from pbem.games.marengo.setup import setup

FIXTURES = Path(__file__).parent / "fixtures"
SCENARIO = load_scenario(FIXTURES / "small.toml")

VALID = [
    "GAME 17 SIDE Austria TURN 6AM KEY 4f9c-2b71",
    "MOVE A1 A2 Pedrabona -> Marengo IF BLOCKED ADVANCE A1",
    "MOVE A3 Pedrabona>Marengo -> Marengo",
    "MOVE A1 Pedrabona -> Pedrabona>Castel Ceriolo",
    "ASSAULT Pedrabona>Marengo WITH A3 A5 LEAD A3 PURSUE A5 THEN EXTEND A5 Marengo>Spinetta",
    "ASSAULT Pedrabona>Marengo WITH A3 A5 NO PURSUIT",
    "ROAD A4 Bridgehead -> Pedrabona -> Marengo IF BLOCKED STAY THEN EXTEND Marengo>Spinetta",
    "EXTEND A4 Bridgehead>Pedrabona",
    "ENTER A7 BY PONTOON",
    "ENTER A7 BY PONTOON AT Pontoon",
    "BOMBARD A6 FROM Pedrabona>Marengo",
    "FIRE A6 AT Marengo>Spinetta",
    "HOLD FIRE A6",
    "ACTIVATE F1 F3",
    "STANDING BLOCK ALL WITH A1 A2",
    "STANDING LEAD Pedrabona>Marengo A3 A5",
    "STANDING RETREAT Pedrabona TO Castel Ceriolo Bridgehead",
    "STANDING LOSSES A3 A1 ; STANDING INFLICT WEAKEST ; STANDING CLEAR PURSUE",
    "STANDING RETREAT ALL TO San Giuliano Vecchio Torre Garòfoli",
    "FINAL",
]
WORDS = ["MOVE", "ROAD", "ASSAULT", "ENTER", "EXTEND", "BOMBARD", "FIRE", "HOLD", "STANDING", "FINAL",
         "ACTIVATE", "WITH", "LEAD", "PURSUE", "NO", "PURSUIT", "THEN", "IF", "BLOCKED", "STAY", "ADVANCE",
         "BY", "AT", "FROM", "TO", "ALL", "ALWAYS", "NEVER", "GAME", "SIDE", "TURN", "KEY", "->", ">", ";",
         "#", ",", "A1", "A3", "A5", "A6", "A99", "F1", "Pedrabona", "Marengo", "San", "Giuliano", "Vecchio",
         "Garòfoli", "Bridgehead", "Castel", "\n", "\t", "", "7AM", "→"]


def fresh_state(day: int):
    state = setup(SCENARIO, Chance(3))
    for bid, locale, facing in (("A1", "pedrabona", None), ("A2", "pedrabona", None),
                                ("A3", "pedrabona", "marengo"), ("A5", "pedrabona", "marengo"),
                                ("A4", "bridgehead", None), ("A6", "pedrabona", "marengo")):
        block = state.blocks[bid]
        block.status, block.locale, block.facing = "map", locale, facing
    state.blocks["A6"].bombard = "marengo"
    state.day = day
    return state


STATES = {day: fresh_state(day) for day in range(4)}


def check(text: str, side: str = "austria", day: int = 0) -> None:
    try:
        with no_hang("parse_orders", show=False):
            orders = parse_orders(SCENARIO, STATES[day], side, text)
    except OrdersError as exc:
        assert exc.problems
        for p in exc.problems:
            assert isinstance(p.line, int) and isinstance(p.column, int) and p.message
            assert p.line >= 1 and p.column >= 1
    else:
        # whatever was accepted reads back the same
        again = parse_orders(SCENARIO, STATES[day], side, orders.echo())
        assert again.echo() == orders.echo()
        assert [replace(o, line=0) for o in again.orders] == [replace(o, line=0) for o in orders.orders]
        assert [replace(o, line=0) for o in again.standing] == [replace(o, line=0) for o in orders.standing]


FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])


@FUZZ
@given(st.text(max_size=400), st.sampled_from(["austria", "france"]), st.integers(0, 3))
def test_random_text(text, side, day):
    check(text, side, day)


@FUZZ
@given(st.lists(st.sampled_from(WORDS), max_size=40), st.integers(0, 3))
def test_random_words(words, day):
    check(" ".join(words), "austria", day)


@st.composite
def mutated(draw):
    lines = draw(st.lists(st.sampled_from(VALID), min_size=1, max_size=8))
    text = "\n".join(lines)
    for _ in range(draw(st.integers(0, 6))):
        if not text:
            break
        at = draw(st.integers(0, len(text)))
        action = draw(st.sampled_from(["delete", "insert", "word", "swap"]))
        if action == "delete":
            text = text[:at] + text[at + draw(st.integers(1, 8)):]
        elif action == "insert":
            text = text[:at] + draw(st.text(max_size=5)) + text[at:]
        elif action == "word":
            text = text[:at] + " " + draw(st.sampled_from(WORDS)) + " " + text[at:]
        else:
            text = text[at:] + text[:at]
    return text


@FUZZ
@given(mutated(), st.sampled_from(["austria", "france"]), st.integers(0, 3))
def test_mutated_orders(text, side, day):
    check(text, side, day)


@pytest.mark.parametrize("text", [
    "MOVE " + "A1 " * 5000 + "Pedrabona -> Marengo",
    "STANDING RETREAT ALL TO " + "San " * 4000,
    "ROAD A4 " + "Pedrabona -> " * 1500,
    ";" * 19_999,
    "x" * 19_999,
    "\n" * 299 + "MOVE",
    "\x00\x01\x02 MOVE\u2028A1\u0085 Pedrabona",
    "ASSAULT Pedrabona>Marengo WITH " + "A3 " * 3000,
])
def test_pathological_inputs_are_quick(text):
    check(text)
