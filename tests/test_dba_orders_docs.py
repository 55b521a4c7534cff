"""docs/dba-orders.md, run: every ```orders block is read whole by the parser (as turn 3's orders of one side,
against the shipped Quatre Bras scenario's names, whose examples tests/test_dba_orders_doc.py plays through the
server), the ```steps block (the rule book's own example, its village X, farm Y and bridge) against the table of
tests/test_dba_orders.py, the ```refused block gets the ```answer
shown word for word, and what the page says of couriers and delays is what the code does."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from test_dba_orders import TEXT_EXAMPLE, stand_in

from pbem.core.chance import Chance
from pbem.core.orders import OrdersError
from pbem.games.dba.command import TABLE, BrigadeOrders, receive
from pbem.games.dba.names import Names
from pbem.games.dba.couriers import Post
from pbem.games.dba.parse import parse_orders, parse_steps
from pbem.games.dba.scenario import load_scenario
from pbem.games.dba.words import HEAD_WORDS, fold_word

DOC = (Path(__file__).resolve().parent.parent / "docs" / "dba-orders.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", DOC, re.S)
QUATRE_BRAS = Names.of(load_scenario(Path(__file__).resolve().parent.parent / "maps" / "dba-quatre-bras.toml").table)


def read(text: str):
    """The orders as one side reads them on turn 3: the first side that reads them without a problem."""
    answers = []
    for side in ("allies", "french"):
        try:
            return parse_orders(text, QUATRE_BRAS, side, 3)
        except OrdersError as exc:
            answers.append(f"{side}: {exc}")
    raise AssertionError("\n".join(answers))


def test_every_orders_example_is_read():
    examples = [text for kind, text in BLOCKS if kind == "orders"]
    assert len(examples) >= 8
    total = 0
    for text in examples:
        orders = read(text)
        assert orders.dispatches or orders.initiatives
        steps = sum(len(o.steps) for o in orders.dispatches + orders.initiatives)
        written = [line for line in text.splitlines()  # the step lines: not a head line, in any language
                   if line.strip() and fold_word(line.split()[0]) not in HEAD_WORDS]
        assert steps >= len(written), text  # no step line was lost
        total += steps
    assert total >= 25


def test_the_echo_of_every_example_reads_back():
    for kind, text in BLOCKS:
        if kind == "orders":
            orders = read(text)
            again = read(orders.echo())
            assert again.dispatches == orders.dispatches and again.initiatives == orders.initiatives


def test_the_steps_example_is_the_rule_books_and_reads_as_the_page_says():
    (text,) = [text for kind, text in BLOCKS if kind == "steps"]
    assert text.strip() == TEXT_EXAMPLE
    got = [s.text for s in parse_steps(text, stand_in(), "allied")]
    assert got == ["MOVE TO X", "HOLD X UNTIL ENEMY REACHES Y", "RETREAT TO bridge AT TURN 6"]
    assert "is `MOVE TO X`, `THEN HOLD X UNTIL ENEMY REACHES Y`, `THEN RETREAT TO bridge AT\nTURN 6`" in DOC


def test_the_refused_orders_get_the_answer_shown():
    (refused,) = [text for kind, text in BLOCKS if kind == "refused"]
    (answer,) = [text for kind, text in BLOCKS if kind == "answer"]
    with pytest.raises(OrdersError) as exc:
        parse_orders(refused, QUATRE_BRAS, "allies", 3)
    assert "\n".join(str(p) for p in exc.value.problems) == answer.strip()


def test_the_delay_table_on_the_page_is_the_codes():
    rows = re.findall(r"^\| \S+ \((\w+)\) \| (\d) \| (\d) \| (\d) \| (\d) \| (\d) \| (\d) \| ([^|]+) \|$", DOC, re.M)
    assert [r[0] for r in rows] == ["dashing", "ordinary", "cautious", "timid"]
    for kind, *delays, passes in rows:
        assert tuple(int(d) for d in delays) == TABLE[kind].delays
        need = TABLE[kind].initiative
        assert passes.strip() == ("no test (n/a)" if need is None else ", ".join(str(d) for d in range(need, 7)))


def test_the_pages_courier_and_delay_story():
    """«a dispatch written on turn 3 to a commander 13" away arrives on turn 5»; «delivered on turn 5 to
    Bijlandt (an ordinary commander) who rolls 5: a delay of 2 turns; the brigade marches on turn 7»."""
    assert "written on turn 3 to a commander 13\" away arrives on turn 5" in DOC
    names = stand_in()
    (dispatch,) = read("FROM Wellington AT Quatre Bras TO Bijlandt TURN 3\nMOVE TO Gemioncourt IN LINE\n").dispatches
    post, brigade = Post(), BrigadeOrders("1nl")
    post.send(dispatch, 3, (580, 600))
    marching = []
    for turn in range(4, 9):
        chance = Chance(1, turn, fixed=[5])
        for courier in post.ride(turn, {"bijlandt": (580, 470)}.get, chance):
            assert turn == 5 and receive(courier, turn, names.commanders["bijlandt"], brigade, chance) == 2
        if brigade.in_force(turn, Sight()).step == dispatch.steps[0]:
            marching.append(turn)
    assert marching[0] == 7


class Sight:
    def happened(self, event):
        return False

    def done(self, step):
        return False
