"""The random legal bot: from its seat's view alone, now and then a dispatch from the side's general to one of
its brigade commanders, in the orders' vocabulary: march to a place, attack the nearest enemy (or an enemy brigade
it has seen), hold, deploy, fall back. What it writes is read by the same parser as a player's orders."""

from __future__ import annotations

from pbem.core.rng import Rng

from .elements import formations_for


def superior_of(view: dict, c: dict) -> dict | None:
    """The first living officer above commander ``c`` in the seat's view: only a superior writes him an order
    («высший офицер должен написать этот приказ»)."""
    by_id = {x["id"]: x for x in view["commanders"]}
    up = by_id.get(c["superior"]) if c["superior"] else None
    while up is not None and not up["alive"]:
        up = by_id.get(up["superior"]) if up["superior"] else None
    return up


def bot_orders(scenario, view: dict, seed: int) -> str:
    side = view["side"]
    if side is None or view["over"] or side not in view["owing"]:
        return ""
    rng = Rng(seed * 7919 + view["turn"] * 104729 + len(side))
    alive = [c for c in view["commanders"] if c["alive"]]

    def superior(c):
        return superior_of(view, c)
    places = list(view["places"])
    enemies = sorted({e["brigade"] for e in view["enemy"]} | {s["brigade"] for s in view["last_known"]})
    objective = scenario.settings.victory.get("hold")
    names = {b.id: b.name for b in scenario.table.brigades.values()}
    lines = []
    for b in view["brigades"]:
        c = next((c for c in alive if c["id"] == b["commander"]), None)
        general = superior(c) if c is not None else None
        if general is None or not general.get("present", True) or b["waiting"] or rng.below(3):
            continue
        pick = rng.below(10)
        if pick in (4, 5, 6) and not enemies:
            pick = 0  # nobody to attack in sight: march instead
        troops = {e["troop"] for e in view["elements"] if e["brigade"] == b["id"]}
        if pick < 2 and objective in places:
            step = f"MOVE TO {objective}"
        elif pick < 4:
            step = f"MOVE TO {places[rng.below(len(places))]}"
        elif pick < 7:
            step = ("ATTACK " + names[enemies[rng.below(len(enemies))]]) if enemies and rng.below(2) \
                else "ATTACK NEAREST ENEMY"
        elif pick == 7:
            step = "HOLD"
        elif pick == 8:
            shared = sorted(set.intersection(*(set(formations_for(t)) for t in troops))) if troops else []
            shared = [f for f in shared if f in ("line", "column")]
            step = f"DEPLOY IN {shared[rng.below(len(shared))].upper()}" if shared else "HOLD"
        else:
            step = f"RETREAT TO {places[rng.below(len(places))]}"
        lines += [f"FROM {general['name']} TO {c['name']}", step, ""]
    return "\n".join(lines)
