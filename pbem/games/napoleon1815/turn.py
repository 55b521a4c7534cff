"""§2 The sequence of play: a campaign turn is the movement phase (§5), the combat
phase (skirmishes, then battles round by round, §6-7), then Allied supply (on French
turns, §10), army breaking and victory (§11). Turns 0 and 1 are the setup (§4)."""

from __future__ import annotations

from pbem.core.events import Event

from . import movement, supply, victory
from .battle import Fight
from .blocks import ARMY_SIDE
from .movement import turn_spec
from .scenario import SEAT_ARMY
from .setup import resolve_setup
from .skirmish import skirmish


def owing(scenario, state) -> tuple[str, ...]:
    if state.over:
        return ()
    if state.turn == 0:
        return ("anglo-dutch", "prussian")
    if state.turn == 1:
        return ("french",)
    spec = turn_spec(scenario, state)
    if spec is None:
        return ()
    return ("french",) if spec.side == "F" else ("anglo-dutch", "prussian")


def resolve(scenario, state, orders: dict, decider, chance):
    events: list[Event] = []
    state.last_battles = []
    if state.turn < 2:
        state.last_moves = []
        events += resolve_setup(scenario, state, orders, decider)
        state.turn += 1
        return state, events
    spec = turn_spec(scenario, state)
    seats = owing(scenario, state)
    moving = [(seat, orders[seat]) for seat in seats if seat in orders]
    side = ARMY_SIDE[SEAT_ARMY[seats[0]]]
    events.append(Event("turn", f"{spec.label}", {"turn": state.turn}))
    entries = movement.carry_out(scenario, state, moving, chance, events)
    fights = [t for t in entries]
    state.last_battles = list(fights)
    small = [t for t in fights if min(len(state.side_at(t, "france")), len(state.side_at(t, "allies"))) < 3]
    big = [t for t in fights if t not in small]
    for town in small:  # §6.6: skirmishes before battles
        skirmish(scenario, state, town, side, entries[town], orders, decider, chance, events, set(fights))
    if big:
        fight = Fight(scenario, state, orders, decider, chance, events, big)
        battles = [fight.open(t, side, entries[t]) for t in big]
        fight.fight(battles)
    if spec.side == "F":
        supply.supply(scenario, state, orders, decider, events)
    for b in state.blocks.values():  # §7.3: disorganised blocks turn back at the end of the turn
        b.disorganized = False
    last = state.turn - 2 == len(scenario.track) - 1
    victory.check(scenario, state, events, last)
    state.turn += 1
    return state, events
