"""Triomphe à Marengo (Bowen Simmons, Histogame 2022).

The rule book is ../shared/rules/000 (Ukrainian); its readings are in
docs/rules-notes.md ("Triomphe à Marengo") (T1, T2...). This package is the ruleset
interface: ``RULESET`` is the game as the server sees it (pbem.core.ruleset,
in ruleset.py); the module-level functions below are the same rules for the
package's own tests and tools. What Triomphe shares with Bonaparte at
Marengo is the Marengo family's (pbem.games.simmons, docs/architecture.md):
the map system, the scenario file's common fields, the order values and the
reading of an order text, the turn in progress (naming, events, standing
orders, decisions), the road-step ledger (with 000 §8's queue), the ranking
of retreat destinations, the view's frame, the self-play invariants' frame,
the report frame and the map drawing. This package says what is Triomphe's
own: each module below subclasses or calls the family's piece and adds the
rules of its section.

The modules, by the rule book's sections:

====================  =========================================================
scenario.py, setup.py  the map's extra tables, the order of battle, cells, discs (§4)
sequence.py            the sequence of play, approach recovery (§5, §6, §16)
turn.py                a turn in progress: orders spent, decisions, reductions (§6)
march.py               off-road and road marches, entry, continuation (§7, §8, §12, §15)
maneuver.py            the maneuver attack (§9)
bombardment.py         bombardment (§10)
assault.py             the assault's nine steps (§11)
retreat.py             retreats (§13)
reorganisation.py      disorganisation and reorganisation (§14)
morale.py              morale discs (§18)
victory.py             how to win (§19)
orders.py, parse.py,   the order language (docs/triomphe-orders.md)
standing.py, reader.py
view.py, report.py,    what a side sees, its report's sections, its orders form,
template.py, render.py its map's layers (on simmons/report and simmons/render)
cases.py               adjudication cases (tests/cases/triomphe/)
bot.py, strategist.py, computer players: random, the strategist (it tries each
forward.py,            action with these rules), the first forward player;
selfplay.py            self-play with invariants
ruleset.py             RULESET: the game as the server sees it
====================  =========================================================
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
