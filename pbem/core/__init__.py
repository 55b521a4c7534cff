"""The ruleset-agnostic engine core.

A game is its scenario, its seed and its log. Nothing here knows any rule of
any game: rulesets live in ``pbem.games.<name>`` and are driven through
:class:`pbem.core.game.Game`.
"""

from .decisions import Decider, Decision, DecisionRecord, Pending
from .events import Event, events_for
from .rng import Rng

__all__ = ["Decider", "Decision", "DecisionRecord", "Pending", "Event", "events_for", "Rng"]
