"""§6.6 Skirmish: fewer than three blocks on either side. Up to four blocks a side, one
round without movement, the defender fires first; the side with fewer blocks in the
town retreats (the attacker on a tie), disorganised; no regroup."""

from __future__ import annotations

from collections import Counter

from pbem.core.events import Event

from .blocks import skirmish_fire
from .losses import victim
from .movement import eliminate
from .retreat import choose_towns, retreat_towns, withdraw
from .scenario import SEATS
from .sight import Told, seats_seeing


def skirmish(scenario, state, town, attacker, entries, orders, decider, chance, events, battles) -> None:
    """The skirmish at ``town``, told round by round to the seats that see an army there
    (sight.py); the others read that it was fought and who held the town."""
    board = scenario.board
    witnesses = set(seats_seeing(state.players, {b.army for b in state.at(town)}))
    seen_by = tuple(s for s in SEATS if s in witnesses)
    public, events = events, Told(events, witnesses)
    defender = "allies" if attacker == "france" else "france"
    chosen = {}
    for side in (attacker, defender):
        here = [b.id for b in sorted(state.side_at(town, side), key=lambda b: (-b.strength, b.id))]
        chosen[side] = first(here, orders, "skirmish")[:4]  # SKIRMISH blocks first, then the strongest
    opening = (f"Skirmish at {board.name(town)}: {len(state.side_at(town, attacker))} {word(attacker)} against "
               f"{len(state.side_at(town, defender))} {word(defender)} blocks")
    fighting = ", ".join(f"{b} ({scenario.blocks[b].type.replace('_', ' ')} {state.blocks[b].strength})"
                         for s in (defender, attacker) for b in chosen[s])
    public.append(Event("skirmish", f"{opening}; they fight with {fighting}", {"town": town},
                        owner=seen_by, seen=opening + "."))
    for side, foe in ((defender, attacker), (attacker, defender)):
        for bid in chosen[side]:
            block = state.blocks[bid]
            if block.town != town:
                continue
            value = skirmish_fire(scenario.blocks[bid].type)
            dice = [chance.roll(f"{bid} fires, skirmish at {board.name(town)}", seen_by=seen_by)
                    for _ in range(block.strength)]
            hits = sum(1 for d in dice if d <= value)
            events.append(Event("skirmish", f"{bid} fires (hits on {value} or less): "
                                f"{' '.join(map(str, dice))}: {hits} hit(s)."))
            for _ in range(hits):
                targets = [b for b in chosen[foe] if state.blocks[b].town == town]
                if not targets:
                    break
                hit = victim(scenario, state, decider, targets, f"Skirmish at {board.name(town)}", orders)
                state.blocks[hit].strength -= 1
                if state.blocks[hit].strength <= 0:
                    eliminate(state, hit, events, f"hit in the skirmish at {board.name(town)} (§6.6)")
                else:
                    events.append(Event("skirmish", f"{hit} takes a hit: strength {state.blocks[hit].strength}."))
    n_att, n_def = len(state.side_at(town, attacker)), len(state.side_at(town, defender))
    if n_att == 0 or n_def == 0:
        held = f"Skirmish at {board.name(town)}: the {word(defender if n_att == 0 else attacker)} blocks hold the town."
        public.append(Event("skirmish", held, owner=seen_by, seen=held))
        return
    loser = attacker if n_att <= n_def else defender
    told = (f"Skirmish at {board.name(town)}: the {word(loser)} side has fewer blocks"
            f"{' (or a tie: the attacker)' if n_att == n_def else ''} and retreats (§6.6).")
    public.append(Event("skirmish", told, owner=seen_by, seen=told))
    options = retreat_towns(scenario, state, town, loser, loser == attacker, entries, battles)
    seat = "french" if loser == "france" else ("anglo-dutch" if any(b.army == "anglo" for b in
                                                                    state.side_at(town, loser)) else "prussian")
    towns = choose_towns(scenario, state, town, loser, options, decider, orders, seat)
    going = first(sorted((b.id for b in state.side_at(town, loser)),
                         key=lambda b: (scenario.blocks[b].type != "leader", -state.blocks[b].strength, b)),
                  orders, "retreat_first")
    left = withdraw(scenario, state, going, towns, town, Counter(), events, "skirmish")
    for bid in left:
        eliminate(state, bid, events, "no road left to retreat by (§7.2)")


def first(ids: list[str], orders: dict, key: str) -> list[str]:
    """``ids`` with the blocks a seat's standing order ``key`` (SKIRMISH, RETREAT FIRST) names
    put first, in its order (seats in order), the others after them as they were."""
    named = [b for seat in SEATS if orders.get(seat) is not None for b in getattr(orders[seat], key) if b in ids]
    named = list(dict.fromkeys(named))
    return named + [b for b in ids if b not in named]


def word(side):
    return "French" if side == "france" else "Allied"
