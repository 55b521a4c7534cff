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

# Every decision the rules give a player (docs/triomphe-rules-notes.md, T3), for a game's "ask me" setting.
DECISION_KINDS = {
    "respond": "answer a maneuver attack from the reserve (§9)",
    "if_blocked": "after your blocked maneuver attack: advance or stay (§9)",
    "defence_vanguard": "your vanguard in defence (§11 step 2)",
    "attack_vanguard": "your vanguard in attack, after seeing the defender's (§11 step 3)",
    "barrage": "fire a barrage (§11 step 4)",
    "barrage_loss": "which vanguard block a barrage reduces (§11 step 4)",
    "counterattack": "counterattack, and with which blocks (§11 step 5)",
    "odd_reduction": "which of two blocks takes an odd reduction (§11)",
    "excess_loss": "which assault block takes a reduction beyond the vanguard (§11 step 8)",
    "bombard_loss": "which block a bombardment reduces (§10)",
    "retreat_loss": "which block takes a retreat reduction (§13)",
    "retreat_who": "which blocks retreat when room runs short (§13)",
    "retreat": "where a block retreats (§13)",
    "cover": "cover the enemy's disc shortfall with its discs from other locales (§18)",
    "disc_loss": "which of the enemy's committed discs are lost (§18)",
    "disc_return": "France's extra disc return (§18 step 3)",
}

NAME = "triomphe"
TITLE = "Triomphe à Marengo"

__all__ = ["DECISION_KINDS", "parse_orders", "is_over", "moving_side", "resolve_day", "SIDES", "Scenario", "load_scenario",
           "setup", "view", "NAME", "TITLE"]
