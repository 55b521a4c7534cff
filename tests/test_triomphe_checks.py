"""Triomphe's check at submission (pbem/games/triomphe/checks.py) as a player meets it: through the
ruleset's check_orders, in each of the five languages, with the line and column of each refused order
(issue 31 §2). The positions are the adjudication cases' (tests/cases/triomphe/check-*.toml)."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.orders import OrdersError
from pbem.games.simmons.cases import load_case
from pbem.games.triomphe import RULESET
from pbem.games.triomphe.cases import case_map, case_position

CASES = Path(__file__).parent / "cases" / "triomphe"


def _position(name: str):
    path = CASES / name
    data = load_case(path)
    board, terrain = case_map(data, path)
    scenario, state = case_position(data, board, terrain, path)
    return scenario, state, data["orders"]


# (language, the frame of a refusal, the words of the cavalry obstacle's reason, "line" in that language)
REFUSALS = [
    ("en", "this order would not be carried out", "cavalry obstacle", "line 1, column 1"),
    ("fr", "cet ordre ne serait pas exécuté", "obstacle à la cavalerie", "ligne 1, colonne 1"),
    ("ru", "этот приказ не был бы выполнен", "препятствие для кавалерии", "строка 1, столбец 1"),
    ("uk", "цей наказ не було б виконано", "перешкоджає кінноті", "рядок 1, стовпчик 1"),
    ("zh", "此命令将不会被执行", "阻挠骑兵", "第 1 行，第 1 列"),
]


@pytest.mark.parametrize("lang, frame, obstacle, line", REFUSALS)
def test_the_three_doomed_orders_are_refused_in_every_language(lang, frame, obstacle, line):
    scenario, state, orders = _position("check-three-doomed-orders.toml")
    with pytest.raises(OrdersError) as refused:
        RULESET.check_orders(scenario, state, "austria", orders["austria"], lang=lang)
    problems = refused.value.problems
    assert [(p.line, p.column) for p in problems] == [(1, 1), (3, 1), (7, 1)]
    text = str(refused.value)
    assert line in text and frame in text and obstacle in text
    if lang != "en":  # read in the language: the English frame and reasons are not left in it
        assert "this order would not be carried out" not in text and "cavalry obstacle" not in text
        assert "orders of the turn are spent" not in text and "is full" not in text


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "uk", "zh"])
def test_an_order_that_depends_on_the_enemy_is_accepted_with_a_warning_in_the_language(lang):
    scenario, state, orders = _position("check-warns-what-depends-on-the-enemy.toml")
    checked = RULESET.check_orders(scenario, state, "austria", orders["austria"], lang=lang)
    assert len(checked.orders) == 2 and len(checked.warnings) == 1
    warning = checked.warnings[0]
    english = "line 2: MARCH A2 West -> East — as the position stands it would not be carried out"
    assert (english in warning) == (lang == "en")
    assert "2" in warning and "West" in warning and "East" in warning


def test_the_day_reads_the_orders_without_checking_them_again():
    """A replay or a stored parse reads the text as the turn reads it (ruleset.parse_orders): the turn's
    check was made when the orders arrived, and the engine checks each order as it carries it out."""
    scenario, state, orders = _position("check-three-doomed-orders.toml")
    read = RULESET.parse_orders(scenario, state, "austria", orders["austria"])
    assert len(read.orders) == 7 and read.warnings == []
