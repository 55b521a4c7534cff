"""§7 Retreat: where blocks may go (§7.1), the road limits 2 / 1 (§7.2),
disorganisation (§7.3), rout and its losses (§7.4, §7.41)."""

from __future__ import annotations

from collections import Counter

from pbem.core.events import Event
from pbem.lang import say

from .blocks import ARMY_SIDE
from .movement import eliminate, lose_step
from .scenario import ARMY_SEAT
from .words import Place, asked

WHY_SAID = {"rout": say("rout"), "withdrawal": say("withdrawal"), "stalemate": say("stalemate"),
            "skirmish": say("skirmish")}


def retreat_towns(scenario, state, town: str, side: str, attacker: bool, entries: set[str],
                  battles: set[str]) -> list[str]:
    """§7.1: the attacker only to the towns it entered from; the defender to any adjacent
    town the attacker did not come from; never into enemy blocks or another battle."""
    out = []
    for other in scenario.board.adjacent(town):
        if other in battles:
            continue
        if any(ARMY_SIDE[b.army] != side for b in state.at(other)):
            continue
        if attacker != (other in entries):
            continue
        out.append(other)
    return out


def preferred(scenario, state, town: str, options: list[str], side: str) -> list[str]:
    """The default order of retreat towns: most friendly blocks, then major roads, then name."""
    def key(t):
        road = scenario.board.road(town, t)
        return (-len(state.side_at(t, side)), road.kind != "major", t)
    return sorted(options, key=key)


def choose_towns(scenario, state, town, side, options, decider, standing: dict, seat_of_side: str) -> list[str]:
    """The towns a side's blocks retreat to, best first: asked of the side's first seat
    (its RETREAT TO standing order, else the default)."""
    if not options:
        return []
    default = preferred(scenario, state, town, options, side)
    names = tuple((t, scenario.board.name(t)) for t in options)
    decision = asked(seat_of_side, "retreat", say("Retreat from %(town)s: towns, best first",
                                                  town=Place(scenario.board.name(town))),
                     options, default, tuple((t, Place(n)) for t, n in names), min=1, max=len(options))
    orders = standing.get(seat_of_side)
    given = None
    if orders is not None and orders.retreat:
        wanted = [t for t in orders.retreat if t in options]
        if wanted:
            given = tuple(wanted + [t for t in default if t not in wanted])
    answer = decider.decide(decision, given, source="standing")
    return list(answer) + [t for t in default if t not in answer]


def withdraw(scenario, state, bids: list[str], towns: list[str], town: str, used: Counter, events: list,
             why: str, limit_left: bool = True) -> list[str]:
    """Move ``bids`` out of ``town`` along ``towns`` (best first) within the road limits
    2 / 1 of this round (``used`` counts the round's blocks per road). Returns those that could not go."""
    left = []
    for bid in bids:
        for t in towns:
            road = scenario.board.road(town, t)
            if used[t] < scenario.battle_road[road.kind]:
                used[t] += 1
                block = state.blocks[bid]
                block.town = t
                block.disorganized = True
                events.append(Event("retreat", "", {"block": bid, "to": t}, owner=ARMY_SEAT[block.army],
                                    said=say("%(block)s retreats to %(town)s (%(why)s), disorganised", block=bid,
                                             town=Place(scenario.board.name(t)), why=WHY_SAID.get(why, why)),
                                    seen_said=say("A block retreats from %(town)s to %(to)s",
                                                  town=Place(scenario.board.name(town)),
                                                  to=Place(scenario.board.name(t)))))
                break
        else:
            left.append(bid)
    return left


def rout_loss(btype: str, met_cavalry: bool) -> int:
    """§7.41: infantry and horse artillery 1 step, foot artillery 2, cavalry 1 only when
    engaged with enemy cavalry, leaders none."""
    return {"infantry": 1, "horse_artillery": 1, "foot_artillery": 2,
            "cavalry": 1 if met_cavalry else 0, "leader": 0}[btype]


def rout_losses(scenario, state, bids, met_cavalry: set[str], events: list) -> None:
    for bid in bids:
        steps = rout_loss(scenario.blocks[bid].type, bid in met_cavalry)
        if steps and state.blocks[bid].town is not None:
            events.append(Event("rout", "", {"block": bid},
                                said=say("%(block)s loses %(steps)s step(s) in the rout (§7.41)", block=bid,
                                         steps=steps)))
            lose_step(scenario, state, bid, events, say("rout losses (§7.41)"), steps)


def cannot_retreat(state, bids, events, why: str) -> None:
    for bid in bids:
        eliminate(state, bid, events, why)
