"""§10 Allied supply: each supply city the French hold at the end of a French turn
costs its army blocks (Brussels and Ghent 1 Anglo-Dutch each, Liège 2 Prussian),
chosen by the army's owner (SUPPLY LOSS standing order; default: the weakest)."""

from __future__ import annotations

from pbem.core.events import Event
from pbem.lang import say

from .movement import eliminate
from .scenario import ARMY_SEAT
from .words import Place, asked


def supply(scenario, state, orders, decider, events) -> None:
    for city, army in sorted(scenario.board.supply_cities().items()):
        if not state.at(city, "french") or army in state.broken:
            continue
        n = scenario.supply_loss.get(city, 0)
        seat = ARMY_SEAT[army]
        pool = sorted(state.on_map(army), key=lambda b: (scenario.blocks[b.id].type == "leader", b.strength, b.id))
        if not pool or not n:
            continue
        n = min(n, len(pool))
        options = tuple(b.id for b in pool)
        default = options[:n]
        given = None
        standing = orders.get(seat)
        if standing is not None and standing.supply:
            wanted = [b for b in standing.supply if b in options]
            given = tuple(list(dict.fromkeys(wanted + list(default) + list(options)))[:n])
        name = Place(scenario.board.name(city))
        answer = decider.decide(asked(seat, "supply", say("The French hold %(city)s: which %(n)s block(s) leave "
                                                          "your army (§10)?", city=name, n=n),
                                      options, default, min=n, max=n),
                                given, source="standing")
        for bid in answer:
            eliminate(state, bid, None, count=scenario.supply_losses_count)
            events.append(Event("supply", "", {"block": bid, "city": city}, owner=seat,
                                said=say("%(block)s leaves the army: the French hold %(city)s (§10)", block=bid,
                                         city=name),
                                seen_said=LEAVES[army](name)))


LEAVES = {"anglo": lambda city: say("An Anglo-Dutch block leaves the army: the French hold %(city)s (§10)", city=city),
          "prussian": lambda city: say("A Prussian block leaves the army: the French hold %(city)s (§10)", city=city),
          "french": lambda city: say("A French block leaves the army: the French hold %(city)s (§10)", city=city)}
