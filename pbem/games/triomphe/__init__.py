"""Triomphe à Marengo (Bowen Simmons, Histogame 2022).

The rule book is ../shared/rules/000 (Ukrainian); its readings are in
docs/triomphe-rules-notes.md (T1, T2...). This package is the ruleset
interface the engine core drives (see pbem.core.game); the map system is the
Marengo family's (pbem.games.simmons).
"""

from .parse import parse_orders  # one side's orders for the turn (docs/triomphe-orders.md)
from .scenario import SIDES, Scenario, load_scenario
from .sequence import is_over, moving_side, resolve_day
from .setup import setup
from .view import view

NAME = "triomphe"
TITLE = "Triomphe à Marengo"

__all__ = ["parse_orders", "is_over", "moving_side", "resolve_day", "SIDES", "Scenario", "load_scenario",
           "setup", "view", "NAME", "TITLE"]
