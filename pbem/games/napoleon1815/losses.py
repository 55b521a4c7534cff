"""§6.4 Losses: each hit falls on the strongest enemy block engaged; among equally
strong blocks their owner chooses (asked as a "hit" decision; the default is the
block that is not a leader, then the one whose id sorts first)."""

from __future__ import annotations

from pbem.lang import say

from .scenario import ARMY_SEAT
from .words import asked


def victim(scenario, state, decider, ids: list[str], where, orders: dict | None = None) -> str:
    """The block among ``ids`` that takes the next hit; among equally strong ones, the first of
    the owner's standing HIT FIRST order, else the default (asked of a player who asked)."""
    top = max(state.blocks[b].strength for b in ids)
    tied = sorted((b for b in ids if state.blocks[b].strength == top),
                  key=lambda b: (scenario.blocks[b].type == "leader", b))
    if len(tied) == 1:
        return tied[0]
    seat = ARMY_SEAT[state.blocks[tied[0]].army]
    seats = one_player(state, seat)
    options = tuple(b for b in tied if ARMY_SEAT[state.blocks[b].army] in seats)
    wanted = [b for s in seats for b in getattr((orders or {}).get(s), "hit_first", ()) if b in options]
    question = say("%(where)s: which of your strength-%(top)s blocks takes the hit?", where=where, top=top)
    got = decider.decide(asked(seat, "hit", question, options, (options[0],)), tuple(wanted[:1]) or None,
                         source="standing")
    return got[0]


def one_player(state, seat: str) -> tuple[str, ...]:
    """The seats played by the player of ``seat``: in the two-player game the Allied player holds
    both Allied seats, and chooses among the tied blocks of both nations (§6.4)."""
    if state.players == 2 and seat != "french":
        return ("anglo-dutch", "prussian")
    return (seat,)
