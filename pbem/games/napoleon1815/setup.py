"""§4 Setup: the Allies first, then the French, each hidden from the other.

Turn 0 is the Allied setup (both Allied seats at once), turn 1 the French one.
A seat's PLACE orders put its blocks; every block it does not place goes to its
historical town (§4.3, maps/napoleon1815.toml), the documented default.
"""

from __future__ import annotations

from collections import Counter

from pbem.core.events import Event
from pbem.core.orders import Problem
from pbem.lang import say, say_plural

from .scenario import ARMY_SEAT, SEAT_ARMY
from .state import Block, State
from .words import Place, SaidProblem


def initial_state(scenario, options: dict) -> State:
    state = State(players=int(options.get("players", 2)), battle_mode=options.get("battle", "doctrine"))
    bid = options.get("bid", "none")
    if bid == "auction":  # §13 held in the game: its first sub-turn (auction.py)
        state.auction = {}
    elif bid != "none":
        side, steps = bid.rsplit("-", 1)
        state.bid = {"side": side, "steps": int(steps)}
    for spec in scenario.blocks.values():
        state.blocks[spec.id] = Block(spec.id, spec.army, None, spec.strength)
    return state


def allowed(scenario, army: str, town: str):
    """Why ``army`` may not set up in ``town`` (§4.1, §4.2), a Text, or None."""
    t = scenario.board.towns[town]
    if army == "french":
        return None if t.country == "france" else say("%(town)s is not a French town (§4.2)", town=Place(t.name))
    if t.country != "netherlands":
        return say("%(town)s is south of the Franco-Dutch border (§4.1)", town=Place(t.name))
    want = "west" if army == "anglo" else "east"
    if t.zone != want:
        if t.zone == "west":
            return say("%(town)s is west of the Anglo-Prussian setup line; your army sets up east of it (§4.1)",
                       town=Place(t.name))
        if t.zone == "east":
            return say("%(town)s is east of the Anglo-Prussian setup line; your army sets up west of it (§4.1)",
                       town=Place(t.name))
        return f"{t.name} is {t.zone} of the Anglo-Prussian setup line; your army sets up {want} of it (§4.1)"
    return None


def limit(scenario, army: str) -> int:
    return scenario.setup_per_town["french" if army == "french" else "allies"]


def setup_problems(scenario, state, seat, places) -> list[Problem]:
    army = SEAT_ARMY[seat]
    mine = (state.turn == 0) == (army != "french")
    problems = []
    if not mine and places:
        return [SaidProblem.of(places[0].line, 1, say("it is not your setup"), "PLACE", say("standing orders only"))]
    where = placement(scenario, army, places)
    for p in places:
        why = allowed(scenario, army, p.town)
        if why:
            problems.append(SaidProblem.of(p.line, 1, why, p.text, say("a town where your army sets up")))
    seen = Counter(b for p in places for b in p.blocks)
    for bid, n in seen.items():
        if n > 1:
            problems.append(SaidProblem.of(next(p.line for p in places if bid in p.blocks), 1,
                                           say("%(block)s is placed twice", block=bid), bid, say("each block once")))
    for town, n in Counter(where.values()).items():
        if n > limit(scenario, army):
            line = next((p.line for p in places if p.town == town), 0)
            problems.append(SaidProblem.of(line, 1, say_plural(
                "%(num)s block in %(town)s (with the blocks left at their historical towns); at most %(most)s a town",
                "%(num)s blocks in %(town)s (with the blocks left at their historical towns); at most %(most)s a town",
                n, town=Place(scenario.board.name(town)), most=limit(scenario, army)),
                scenario.board.name(town), say("at most %(most)s blocks", most=limit(scenario, army))))
    return problems


def placement(scenario, army: str, places) -> dict[str, str]:
    where = {b.id: b.setup for b in scenario.army_blocks(army)}
    for p in places:
        for bid in p.blocks:
            where[bid] = p.town
    return where


def resolve_setup(scenario, state, orders: dict, decider) -> list[Event]:
    """Place the blocks of the seats setting up now; an Allied town over the limit (the two
    armies set up at once) sends the later blocks to the nearest town of their zone with room."""
    armies = ("anglo", "prussian") if state.turn == 0 else ("french",)
    events = []
    counts: Counter = Counter(b.town for b in state.blocks.values() if b.town)
    for army in armies:
        seat = ARMY_SEAT[army]
        given = orders.get(seat)
        where = placement(scenario, army, given.places if given else [])
        for bid, town in sorted(where.items()):
            if counts[town] >= limit(scenario, army):
                town = nearest_room(scenario, army, town, counts)
                events.append(Event("setup", said=say("%(block)s goes to %(town)s: its town was full", block=bid,
                                                      town=Place(scenario.board.name(town))), owner=seat))
            state.blocks[bid].town = town
            counts[town] += 1
        events.append(Event("setup", "", {"army": army}, said=SET_UP[army](len(where))))
    if state.bid and state.bid["steps"] and (state.bid["side"] == "france") == (state.turn == 1):
        events += pay_bid(scenario, state, orders, armies)
    return events


def pay_bid(scenario, state, orders: dict, armies) -> list[Event]:
    """§13: the side that won the bidding removes as many steps as it bid at its setup, never more
    than one from a block. BID LOSS orders name the blocks (seats in order); the default takes the
    strongest, then by id; a block at strength 1 and a leader give none."""
    named = [bid for army in armies if orders.get(ARMY_SEAT[army]) is not None
             for bid in orders[ARMY_SEAT[army]].bid_loss]
    able = sorted((b for b in state.blocks.values() if b.army in armies and b.strength > 1
                   and scenario.blocks[b.id].type != "leader"), key=lambda b: (-b.strength, b.id))
    order = [b for b in dict.fromkeys(named) if state.blocks[b].strength > 1
             and scenario.blocks[b].type != "leader"] + [b.id for b in able]
    paid = list(dict.fromkeys(order))[:state.bid["steps"]]
    events = []
    for bid in paid:
        state.blocks[bid].strength -= 1
        block = state.blocks[bid]
        events.append(Event("setup", "", {"block": bid}, owner=ARMY_SEAT[block.army],
                            said=say("%(block)s sets up one step down, to strength %(strength)s: the bid (§13)",
                                     block=bid, strength=block.strength)))
    if state.bid["side"] == "france":
        said = say_plural("The French set up %(num)s step down: their winning bid (§13).",
                          "The French set up %(num)s steps down: their winning bid (§13).", len(paid))
    else:
        said = say_plural("The Allies set up %(num)s step down: their winning bid (§13).",
                          "The Allies set up %(num)s steps down: their winning bid (§13).", len(paid))
    events.append(Event("setup", said=said))
    return events


SET_UP = {
    "french": lambda n: say_plural("The French army is set up (%(num)s blocks).",
                                   "The French army is set up (%(num)s blocks).", n),
    "anglo": lambda n: say_plural("The Anglo-Dutch army is set up (%(num)s blocks).",
                                  "The Anglo-Dutch army is set up (%(num)s blocks).", n),
    "prussian": lambda n: say_plural("The Prussian army is set up (%(num)s blocks).",
                                     "The Prussian army is set up (%(num)s blocks).", n)}


def nearest_room(scenario, army, start, counts) -> str:
    seen, frontier = {start}, [start]
    while frontier:
        nxt = []
        for town in frontier:
            for other in scenario.board.adjacent(town):
                if other in seen:
                    continue
                seen.add(other)
                if allowed(scenario, army, other) is None and counts[other] < limit(scenario, army):
                    return other
                nxt.append(other)
        frontier = sorted(nxt)
    raise AssertionError(f"no town with room for the {army} army")
