"""Napoleonic DBA's orders against a real scenario's names (maps/dba-quatre-bras.toml, built by the table's
scenario loader): the grammar reads orders naming its places, aliases, commanders and brigades, in English and
Russian, its clock's times, and the echo reads back. (Until the table branch is merged, scenario.py is absent
and this module is skipped as a whole; the stand-in table of tests/test_dba_orders.py covers the grammar.)"""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.orders import OrdersError
from pbem.games.dba import scenario
from pbem.games.dba.names import Names
from pbem.games.dba.orders import Event, Step
from pbem.games.dba.parse import Clock, parse_orders

MAP = Path(__file__).resolve().parent.parent / "maps" / "dba-quatre-bras.toml"

ALLIES = """FROM Wellington AT Quatre Bras TO Bijlandt TURN 3
MOVE TO Gemioncourt IN LINE THEN HOLD IT UNTIL ENEMY WITHIN 6" OF Gemioncourt
THEN RETREAT TO the crossroads BY ROAD AT 16:30
FROM Prince of Orange TO Saxe-Weimar
HOLD Bois de Bossu IN SKIRMISH ORDER UNLESS ENEMY husson ATTACKS
ОТ Wellington КОМУ Bijlandt
Двигаться к Катр-Бра в колонне по дороге, пока враг не достигнет Piraumont. Отступать к Фран на 8-ой ход.
"""
FRENCH = """FROM Ney AT Frasnes TO Reille TURN 3
HOLD Frasnes heights
FROM Reille TO Husson
ATTACK ENEMY AT Gemioncourt THEN MOVE TO Quatre Bras IF FRIENDLY campi REACHES Piraumont
ATTACK bijlandt UNLESS ENEMY FIRES
INITIATIVE Husson
MOVE TO E5
"""


@pytest.fixture(scope="module")
def table():
    loaded = scenario.load_scenario(MAP)
    return Names.of(loaded.table), Clock(loaded.settings.start, loaded.settings.minutes)


@pytest.mark.parametrize("side, text", [("allies", ALLIES), ("french", FRENCH)])
def test_orders_naming_the_scenario_read_and_echo_back(table, side, text):
    names, clock = table
    orders = parse_orders(text, names, side, 3, clock=clock)
    again = parse_orders(orders.echo(), names, side, 3, clock=clock)
    assert again.dispatches == orders.dispatches and again.initiatives == orders.initiatives
    assert orders.dispatches and all(o.steps for o in orders.dispatches)


def test_the_scenario_clock_aliases_and_ids(table):
    names, clock = table
    first, second, third = parse_orders(ALLIES, names, "allies", 3, clock=clock).dispatches
    assert clock.time_of(6) == "16:30" and first.steps[2] == Step("RETREAT", "Quatre Bras", road=True, at=6)
    assert second.steps[0].unless == Event("ENEMY ATTACKS", second.steps[0].unless.brigade)
    assert second.steps[0].unless.brigade.id == "husson"
    assert [s.text for s in third.steps] == ["MOVE TO Quatre Bras IN COLUMN BY ROAD UNTIL ENEMY REACHES Piraumont",
                                             "RETREAT TO Frasnes AT TURN 8"]


def test_the_scenarios_chain_of_command_is_kept(table):
    names, clock = table
    with pytest.raises(OrdersError, match="Wellington is not under Bijlandt's command"):
        parse_orders("FROM Bijlandt TO Wellington\nHOLD\n", names, "allies", 3, clock=clock)
