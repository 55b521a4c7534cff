"""Napoleonic DBA's order reader never fails with anything but OrdersError, whatever it is sent, and what it
accepts reads back the same from its echo (hypothesis: random text, random order words in both languages,
mutations of good orders)."""

from __future__ import annotations

import pytest
from bounds import no_hang
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from test_dba_orders import ORDERS, TEXT_EXAMPLE, stand_in

from pbem.core.orders import OrdersError
from pbem.games.dba.parse import Clock, parse_orders
from pbem.games.dba.words import PHRASES

NAMES = stand_in()
CLOCK = Clock("13:00", 20)
VALID = ORDERS.splitlines() + [
    "ОТ Perponcher КОМУ Bijlandt ХОД 3", TEXT_EXAMPLE,
    'ATTACK ENEMY AT Gemioncourt UNLESS ENEMY WITHIN 2.5" OF Piraumont AT 14:20',
    "DEPLOY IN LINE SUPPORTING 2nd Nassau IF FRIENDLY 2nd Nassau ATTACKS",
    "Удерживать лес Боссю в рассыпном строю, пока противник не окажется в пределах 6 дюймов от Пираумон.",
]
WORDS = sorted({w for forms in PHRASES.values() for f in forms for w in f.split()}) + [
    "Gemioncourt", "Quatre", "Bras", "Bossu", "Wood", "D4", "Z99", "X", "Х", "Y", "2nd", "Nassau", "Lancers",
    "Wellington", "Bijlandt", "FROM", "TO", "INITIATIVE", "FINAL", "GAME", "KEY", "6\"", "2.5", "6-ой", "14:20",
    "99:99", "0", "-1", "\n", ".", ";", ",", "#", "'", "\"", "→", "->", ""]


def check(text: str, side: str) -> None:
    try:
        with no_hang("parse_orders", show=False):
            orders = parse_orders(text, NAMES, side, 3, clock=CLOCK)
    except OrdersError as exc:
        assert exc.problems
        for p in exc.problems:
            assert isinstance(p.line, int) and isinstance(p.column, int) and p.message
            assert p.line >= 1 and p.column >= 1
    else:
        again = parse_orders(orders.echo(), NAMES, side, 3, clock=CLOCK)
        assert again.dispatches == orders.dispatches and again.initiatives == orders.initiatives
        assert again.echo() == orders.echo()


FUZZ = settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
SIDES = st.sampled_from(["allied", "french"])


@FUZZ
@given(st.text(max_size=400), SIDES)
def test_random_text(text, side):
    check(text, side)


@FUZZ
@given(st.lists(st.sampled_from(WORDS), max_size=40), SIDES)
def test_random_words_after_a_head(words, side):
    head = "FROM Wellington TO Bijlandt\n" if side == "allied" else "FROM Ney TO Husson\n"
    check(head + " ".join(words), side)


@st.composite
def mutated(draw):
    text = "\n".join(draw(st.lists(st.sampled_from(VALID), min_size=1, max_size=8)))
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
@given(mutated(), SIDES)
def test_mutated_orders(text, side):
    check(text, side)


@pytest.mark.parametrize("text", ["FROM Wellington TO Bijlandt\n" + "MOVE TO Gemioncourt THEN " * 150 + "HOLD",
                                  "FROM Wellington TO Bijlandt\nHOLD " + "Quatre " * 2000])
def test_long_lines_are_read_or_refused_without_a_hang(text):
    check(text, "allied")
