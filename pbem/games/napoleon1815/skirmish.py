"""§6.6 Skirmish: fewer than three blocks on either side. Up to four blocks a side, one
round without movement, the defender fires first; the side with fewer blocks in the
town retreats (the attacker on a tie), disorganised; no regroup."""

from __future__ import annotations

from collections import Counter

from pbem.core.events import Event
from pbem.lang import say, say_plural

from .blocks import skirmish_fire
from .losses import victim
from .movement import eliminate
from .retreat import choose_towns, retreat_towns, withdraw
from .scenario import SEATS
from .sight import Told, seats_seeing
from .words import TYPE_SAID, Join, Place


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
    name = Place(board.name(town))
    att, dfd = len(state.side_at(town, attacker)), len(state.side_at(town, defender))
    # each count chooses its own plural (1 bloc allié, 2 блока, 5 блоков): the defenders as a Text of their own
    opening = (say_plural("Skirmish at %(town)s: %(num)s French against %(dfd)s",
                          "Skirmish at %(town)s: %(num)s French against %(dfd)s", att, town=name,
                          dfd=say_plural("%(num)s Allied block", "%(num)s Allied blocks", dfd))
               if attacker == "france" else
               say_plural("Skirmish at %(town)s: %(num)s Allied against %(dfd)s",
                          "Skirmish at %(town)s: %(num)s Allied against %(dfd)s", att, town=name,
                          dfd=say_plural("%(num)s French block", "%(num)s French blocks", dfd)))
    fighting = Join(say("%(block)s (%(type)s %(strength)s)", block=b, type=TYPE_SAID[scenario.blocks[b].type],
                        strength=state.blocks[b].strength) for s in (defender, attacker) for b in chosen[s])
    public.append(Event("skirmish", "", {"town": town}, owner=seen_by,
                        said=say("%(opening)s; they fight with %(blocks)s", opening=opening, blocks=fighting),
                        seen_said=say("%(opening)s.", opening=opening)))
    for side, foe in ((defender, attacker), (attacker, defender)):
        for bid in chosen[side]:
            block = state.blocks[bid]
            if block.town != town:
                continue
            value = skirmish_fire(scenario.blocks[bid].type)
            dice = [chance.roll(f"{bid} fires, skirmish at {board.name(town)}", seen_by=seen_by)
                    for _ in range(block.strength)]
            hits = sum(1 for d in dice if d <= value)
            events.append(Event("skirmish", said=say_plural(
                "%(block)s fires (hits on %(value)s or less): %(dice)s: %(num)s hit.",
                "%(block)s fires (hits on %(value)s or less): %(dice)s: %(num)s hits.", hits, block=bid,
                value=value, dice=" ".join(map(str, dice)))))
            for _ in range(hits):
                targets = [b for b in chosen[foe] if state.blocks[b].town == town]
                if not targets:
                    break
                hit = victim(scenario, state, decider, targets, say("Skirmish at %(town)s", town=name), orders)
                state.blocks[hit].strength -= 1
                if state.blocks[hit].strength <= 0:
                    eliminate(state, hit, events, say("hit in the skirmish at %(town)s (§6.6)", town=name))
                else:
                    events.append(Event("skirmish", said=say("%(block)s takes a hit: strength %(strength)s.",
                                                             block=hit, strength=state.blocks[hit].strength)))
    n_att, n_def = len(state.side_at(town, attacker)), len(state.side_at(town, defender))
    if n_att == 0 or n_def == 0:
        holder = defender if n_att == 0 else attacker
        held = (say("Skirmish at %(town)s: the French blocks hold the town.", town=name) if holder == "france" else
                say("Skirmish at %(town)s: the Allied blocks hold the town.", town=name))
        public.append(Event("skirmish", "", owner=seen_by, said=held, seen_said=held))
        return
    loser = attacker if n_att <= n_def else defender
    told = RETREATS[(loser, n_att == n_def)](name)
    public.append(Event("skirmish", "", owner=seen_by, said=told, seen_said=told))
    options = retreat_towns(scenario, state, town, loser, loser == attacker, entries, battles)
    seat = "french" if loser == "france" else ("anglo-dutch" if any(b.army == "anglo" for b in
                                                                    state.side_at(town, loser)) else "prussian")
    towns = choose_towns(scenario, state, town, loser, options, decider, orders, seat)
    going = first(sorted((b.id for b in state.side_at(town, loser)),
                         key=lambda b: (scenario.blocks[b].type != "leader", -state.blocks[b].strength, b)),
                  orders, "retreat_first")
    left = withdraw(scenario, state, going, towns, town, Counter(), events, "skirmish")
    for bid in left:
        eliminate(state, bid, events, say("no road left to retreat by (§7.2)"))


RETREATS = {
    ("france", False): lambda town: say("Skirmish at %(town)s: the French side has fewer blocks and retreats (§6.6).",
                                        town=town),
    ("france", True): lambda town: say("Skirmish at %(town)s: the French side has fewer blocks (or a tie: the "
                                       "attacker) and retreats (§6.6).", town=town),
    ("allies", False): lambda town: say("Skirmish at %(town)s: the Allied side has fewer blocks and retreats (§6.6).",
                                        town=town),
    ("allies", True): lambda town: say("Skirmish at %(town)s: the Allied side has fewer blocks (or a tie: the "
                                       "attacker) and retreats (§6.6).", town=town)}


def first(ids: list[str], orders: dict, key: str) -> list[str]:
    """``ids`` with the blocks a seat's standing order ``key`` (SKIRMISH, RETREAT FIRST) names
    put first, in its order (seats in order), the others after them as they were."""
    named = [b for seat in SEATS if orders.get(seat) is not None for b in getattr(orders[seat], key) if b in ids]
    named = list(dict.fromkeys(named))
    return named + [b for b in ids if b not in named]
