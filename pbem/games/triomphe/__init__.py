"""Triomphe à Marengo (Bowen Simmons, Histogame 2022).

The rule book is ../shared/rules/000 (Ukrainian); its readings are in
docs/triomphe-rules-notes.md (T1, T2...). This package is the ruleset
interface: ``RULESET`` is the game as the server sees it (pbem.core.ruleset,
in ruleset.py); the module-level functions below are the same rules for the
package's own tests and tools. The map system is the Marengo family's
(pbem.games.simmons).
"""

from .parse import parse_orders  # one side's orders for the turn (docs/triomphe-orders.md)
from .scenario import SIDES, Scenario, load_scenario
from .sequence import is_over, moving_side, resolve_day
from .setup import setup
from .view import view
from .ruleset import DECISION_KINDS, RULESET  # the game as the server sees it (pbem.core.ruleset)

NAME = "triomphe"
TITLE = "Triomphe à Marengo"

__all__ = ["RULESET", "DECISION_KINDS", "parse_orders", "is_over", "moving_side", "resolve_day", "SIDES", "Scenario", "load_scenario",
           "setup", "view", "NAME", "TITLE"]
