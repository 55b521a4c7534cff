"""§2 The sequence of play: a campaign turn is the movement phase (§5), the combat
phase (skirmishes, then battles round by round, §6-7), then Allied supply (on French
turns, §10), army breaking and victory (§11). Turns 0 and 1 are the setup (§4).

In the hybrid and live battle modes a turn with battles pauses after the skirmishes:
the terrain is drawn, then two sub-turns ask for the deployments — the defenders'
first, then the attackers', who see where the defenders stand (§6.22) — and the
battles are fought when the attackers' deployments are in: by doctrine, stopping
for a round sub-turn before a round when a seat's trigger fires (hybrid) or before
every round (live; triggers.py). What the seats' standing orders said in the turn
itself is kept in ``state.pending`` until the battles end; orders sent in the
sub-turns add to it.
"""

from __future__ import annotations

from pbem.core.events import Event
from pbem.lang import say

from . import movement, supply, victory
from .auction import resolve_auction
from .battle import Battle, Fight
from .blocks import ARMY_SIDE
from .movement import turn_spec
from .orders import Orders
from .parse import section_index
from .played import PlayedFight
from .scenario import ARMY_SEAT, SEAT_ARMY, SEAT_SIDE, SEATS
from .setup import resolve_setup
from .skirmish import skirmish
from .triggers import pause_for
from .words import Join, Place, turn_said


def owing(scenario, state) -> tuple[str, ...]:
    if state.over:
        return ()
    if state.pending:
        return deploying_seats(state)
    if state.auction is not None:  # §13: every seat bids at once
        return SEATS
    if state.turn == 0:
        return ("anglo-dutch", "prussian")
    if state.turn == 1:
        return ("french",)
    spec = turn_spec(scenario, state)
    if spec is None:
        return ()
    return ("french",) if spec.side == "F" else ("anglo-dutch", "prussian")


def deploying_seats(state) -> tuple[str, ...]:
    """The seats owing orders in a battle sub-turn: the deploying side's, or those asked."""
    role = state.pending["stage"]
    if role == "round":
        return tuple(s for s in SEATS if s in state.pending["asked"])
    seats = set()
    for battle in state.pending["battles"]:
        side = battle["sides"][role]
        seats |= {ARMY_SEAT[b.army] for b in state.side_at(battle["town"], side)}
    return tuple(s for s in SEATS if s in seats)


def resolve(scenario, state, orders: dict, decider, chance):
    events: list[Event] = []
    if state.pending:
        return deployment(scenario, state, orders, decider, chance, events)
    if state.auction is not None:
        return state, resolve_auction(state, orders, chance)
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
    events.append(Event("turn", "", {"turn": state.turn}, said=turn_said(spec)))
    entries = movement.carry_out(scenario, state, moving, chance, events)
    fights = list(entries)
    state.last_battles = list(fights)
    small = [t for t in fights if min(len(state.side_at(t, "france")), len(state.side_at(t, "allies"))) < 3]
    big = [t for t in fights if t not in small]
    for town in small:  # §6.6: skirmishes before battles
        skirmish(scenario, state, town, side, entries[town], orders, decider, chance, events, set(fights))
    if big:
        fight = Fight(scenario, state, orders, decider, chance, events, big)
        if state.battle_mode == "doctrine":
            fight.fight([fight.open(t, side, entries[t]) for t in big])
        else:
            battles = [fight.begin(t, side, entries[t]) for t in big]
            state.pending = {"stage": "def", "deploy": {"def": {}, "att": {}}, "standing": standing(orders),
                             "battles": [{"town": b.town, "sides": dict(b.sides), "entries": sorted(b.entries),
                                          "terrain": dict(b.terrain)} for b in battles]}
            events.append(Event("battle", said=say("The defenders deploy their blocks for the battle(s) of %(towns)s "
                                                   "(a sub-turn).",
                                                   towns=Join(Place(scenario.board.name(t)) for t in big))))
            return state, events
    return finish(scenario, state, spec, orders, decider, events)


def finish(scenario, state, spec, orders, decider, events):
    if spec.side == "F":
        supply.supply(scenario, state, orders, decider, events)
    for b in state.blocks.values():  # §7.3: disorganised blocks turn back at the end of the turn
        b.disorganized = False
    last = state.turn - 2 == len(scenario.track) - 1
    victory.check(scenario, state, events, last)
    state.turn += 1
    return state, events


def standing(orders: dict) -> dict:
    """The standing orders of a turn, as plain data kept until its battles are fought."""
    return {seat: {"doctrine": dict(o.doctrine), "retreat": list(o.retreat), "supply": list(o.supply),
                   "ask": None if o.asks is None else list(o.asks), "skirmish": list(o.skirmish),
                   "hit_first": list(o.hit_first), "retreat_first": list(o.retreat_first),
                   "terrain": dict(o.terrain)}
            for seat, o in orders.items()}


def merged(saved: dict, orders: dict) -> dict:
    out = {}
    for seat in SEATS:
        old = saved.get(seat, {"doctrine": {}, "retreat": [], "supply": [], "ask": None})
        new = orders.get(seat)
        o = Orders(seat, doctrine={**old["doctrine"], **(new.doctrine if new else {})},
                   retreat=(new.retreat if new and new.retreat else old["retreat"]),
                   supply=(new.supply if new and new.supply else old["supply"]),
                   asks=(new.asks if new and new.asks is not None else old.get("ask")),
                   **{key: (getattr(new, key) if new and getattr(new, key) else old.get(key) or type(
                       getattr(Orders(seat), key))()) for key in ("skirmish", "hit_first", "retreat_first", "terrain")})
        out[seat] = o
    return out


def deployment(scenario, state, orders, decider, chance, events):
    pending = state.pending
    role = pending["stage"]
    for seat, o in orders.items():
        for d in o.deploys:
            where = pending["deploy"][role].setdefault(d.town, {})
            for key, ids in d.sections.items():
                for bid in ids:
                    where[bid] = None if key == "RESERVE" else section_index(role, key)
    pending["standing"] = standing(merged(pending["standing"], orders))
    if role == "round":
        return next_round(scenario, state, orders, decider, chance, events)
    if role == "def":
        pending["stage"] = "att"
        events.append(Event("battle", said=say("The defenders have deployed; the attackers deploy next (a sub-turn).")))
        return state, events
    spec = turn_spec(scenario, state)
    standing_orders = merged(pending["standing"], {})
    towns = [b["town"] for b in pending["battles"]]
    fight = Fight(scenario, state, standing_orders, decider, chance, events, towns)
    battles = []
    for saved in pending["battles"]:
        battle = fight.resume(saved["town"], saved["sides"], saved["entries"], saved["terrain"])
        given = {r: pending["deploy"][r].get(saved["town"]) for r in ("def", "att")}
        fight.deploy_all(battle, {r: g for r, g in given.items() if g})
        battles.append(battle)
    return fight_on(scenario, state, fight, battles, standing_orders, events)


def fight_on(scenario, state, fight, battles, standing_orders, events):
    """Fight the battles on; stop for a round sub-turn where the battle mode says (triggers.py)."""
    saved = state.pending["standing"]
    pause = pause_for(state, standing_orders)
    if fight.fight(battles, pause):
        state.pending = {"stage": "round", "standing": saved, "asked": pause.asked, "battles": [],
                         "fought": [b.to_dict() for b in battles if not b.over]}
        for seat, questions in pause.asked.items():
            said = pause.said.get(seat, questions)
            events.append(Event("battle", said=Join([*said, say("Your orders for the next round are due "
                                                                "(a sub-turn).")], " "), owner=seat))
        return state, events
    state.pending = None
    return finish(scenario, state, turn_spec(scenario, state), standing_orders, fight.decider, events)


def next_round(scenario, state, orders, decider, chance, events):
    """A round sub-turn's orders are in: the battles go on from where they stopped."""
    standing_orders = merged(state.pending["standing"], {})
    battles = [Battle.from_dict(d) for d in state.pending["fought"]]
    for seat, o in orders.items():  # COMMIT: reserve blocks sent in by name in the next part of the round
        for ids, where in o.commits:
            for battle in battles:
                for bid in ids:
                    if bid in battle.blocks:
                        battle.commits[bid] = section_index(battle.blocks[bid].role, where)
    for seat, o in orders.items():  # LEAVE: the seat's side withdraws from the next round on (§7)
        for battle in battles:
            if battle.town in o.leave:
                role = next(r for r, side in battle.sides.items() if side == SEAT_SIDE[seat])
                battle.withdrawing.add(role)
                town = Place(scenario.board.name(battle.town))
                events.append(Event("battle", said=say("The attacker will withdraw from %(town)s (LEAVE).", town=town)
                                    if role == "att" else
                                    say("The defender will withdraw from %(town)s (LEAVE).", town=town), owner=seat))
    fight = PlayedFight(scenario, state, standing_orders, decider, chance, events, [b.town for b in battles],
                        plays={seat: o.plays for seat, o in orders.items()})
    return fight_on(scenario, state, fight, battles, standing_orders, events)
