"""§10 Allied supply: each supply city the French hold at the end of a French turn
costs its army blocks (Brussels and Ghent 1 Anglo-Dutch each, Liège 2 Prussian),
chosen by the army's owner (SUPPLY LOSS standing order; default: the weakest)."""

from __future__ import annotations

from pbem.core.decisions import Decision
from pbem.core.events import Event

from .movement import eliminate
from .scenario import ARMY_SEAT


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
        answer = decider.decide(Decision(seat, "supply", f"The French hold {scenario.board.name(city)}: which "
                                         f"{n} block(s) leave your army (§10)?", options, default, min=n, max=n),
                                given, source="standing")
        for bid in answer:
            eliminate(state, bid, None, count=scenario.supply_losses_count)
            events.append(Event("supply", f"{bid} leaves the army: the French hold {scenario.board.name(city)} (§10)",
                                {"block": bid, "city": city}, owner=seat,
                                seen=f"A {army_name(army)} block leaves the army: the French hold "
                                f"{scenario.board.name(city)} (§10)"))


def army_name(army):
    return {"anglo": "Anglo-Dutch", "prussian": "Prussian", "french": "French"}[army]
