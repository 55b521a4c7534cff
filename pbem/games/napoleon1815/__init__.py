"""Napoleon: the Waterloo campaign 1815 (Columbia Games, 4th edition), rules 002.

Modules named as the rule book names its sections: board (§1), blocks (§3, §9),
setup (§4, and the bid of §13), turn (§2), movement (§5), battle (§6.2-6.34: the
board, terrain, the round's sequence, reinforcement, rout and regroup), deployment
(§6.22-6.24), combat (§6.3's actions: morale, combat movement, fire, squares and
shelter, farm and hill), losses (§6.4), skirmish (§6.6), retreat (§7), supply (§10),
victory (§11); triggers (the live mode's round sub-turns and the hybrid mode's ASK),
sight (who sees a fight, §12); parse and orders (the order language), view, report,
render, bot and general (computer players), cases, invariants, and ruleset (the
interface).
"""

from .ruleset import RULESET

__all__ = ["RULESET"]
