"""Bonaparte at Marengo (Bowen Simmons, 2005), rules version 2006.04.09.

The rule book quoted throughout is ../shared/rules/003 (French). ``RULESET``
is the game as the server sees it (pbem.core.ruleset, in ruleset.py); the other
names are for the package's own tests and tools.
"""

from pbem.games.simmons.board import Board, load_board
from .parse import parse_orders  # one side's orders for the day (docs/orders.md)
from .rules import is_over, moving_side, resolve_day
from .ruleset import RULESET
from .scenario import SIDES, Scenario, load_scenario
from .setup import setup
from .view import view


NAME = "marengo"
TITLE = "Bonaparte at Marengo"

__all__ = ["Board", "load_board", "parse_orders", "is_over", "moving_side", "resolve_day",
           "SIDES", "Scenario", "load_scenario", "setup", "view", "NAME", "TITLE", "RULESET"]
