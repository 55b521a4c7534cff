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
    # the enemy brigades seen; a kriegsspiel seat sees no enemy's brigade: the enemy elements by his ids (DS8)
    enemies = sorted({e["brigade"] or e["id"] for e in view["enemy"]}
                     | {s["brigade"] or s["element"] for s in view["last_known"]})
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
            step = ("ATTACK " + names.get(foe := enemies[rng.below(len(enemies))], foe)) if enemies and rng.below(2) \
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


# -- the general: orders as a player would write them ----------------------------------------------------------

ENGAGE = 150   # tenths: an enemy this near a brigade's centre is the brigade's affair (15", a heavy battery's reach)
ODDS = 1.2     # the odds (own strength to the enemy brigade's) at which a brigade attacks
SHAKEN = 0.5   # a brigade at or below this share of its starting effectiveness falls back


def _home(scenario, side: str, places: list[str]) -> str | None:
    """The side's rear: the named place nearest where its troops stood at the start."""
    own = [e for e in list(scenario.table.elements.values()) + list(scenario.waiting.values()) if e.side == side]
    if not own or not places:
        return None
    cx, cy = sum(e.x for e in own) / len(own), sum(e.y for e in own) / len(own)

    def far(name):
        p = scenario.table.names.find_location(name).centre
        return ((p.x - cx) ** 2 + (p.y - cy) ** 2, name)

    return min((p for p in places if scenario.table.names.find_location(p) is not None), key=far, default=None)


def wanted(scenario, view: dict, b: dict, objective: str | None, home: str | None) -> str:
    """The step a general wants of brigade ``b`` now, from his seat's view alone: fall back when it is shaken
    (spent, or at half its effectiveness), attack the enemy brigade near it when the odds are good, hold where
    it is when they are not, else advance on the objective and hold it."""
    names = {x.id: x.name for x in scenario.table.brigades.values()}
    if b["rating"] in ("spent", "broken") or b["bef"] <= SHAKEN * b["bef_start"]:
        return f"RETREAT TO {home}" if home else "HOLD"
    at = b["at"]
    enemy = view["enemy"] + [s for s in view["last_known"] if view["turn"] - s.get("turn", view["turn"]) <= 2]
    near = sorted(((e["x"] - at[0]) ** 2 + (e["y"] - at[1]) ** 2, e["brigade"], e.get("id") or e["element"])
                  for e in enemy if ((e["x"] - at[0]) ** 2 + (e["y"] - at[1]) ** 2) ** 0.5 <= ENGAGE)
    if near:
        foe = near[0][1]
        if foe:  # one seat a side: the enemy brigade seen, its elements counted
            theirs = len({e["id"] if "id" in e else e["element"] for e in enemy if e["brigade"] == foe})
            target = names.get(foe, "NEAREST ENEMY")
        else:  # kriegsspiel: no enemy element's brigade is seen (DS8): every enemy near counts, the nearest is named
            theirs, target = len(near), near[0][2]
        mine = len(b["elements"]) * b["bef"] / max(b["bef_start"], 1)
        if mine >= ODDS * theirs and b["rating"] == "fresh":
            return f"ATTACK {target}"
        return "HOLD"
    if objective:  # march in column (5" a move against 3" in line), form line on the place
        return f"MOVE TO {objective} IN COLUMN THEN HOLD IT IN LINE"
    return "ATTACK NEAREST ENEMY"


def already(b: dict, step: str, objective: str | None) -> bool:
    """Whether the step the brigade follows now already says ``step`` (its first step: the verb and its place or
    target), or holds the objective ``step`` marches to."""
    if not b["order"] or b["step"] is None:
        return False
    lines = b["order"].split("\n")[1:]
    if b["step"] >= len(lines):
        return False
    now = lines[b["step"]].removeprefix("THEN ").strip()
    first = step.split(" THEN ")[0]
    return now.startswith(first) or (objective is not None and first.startswith(f"MOVE TO {objective}")
                                     and now.startswith(f"HOLD {objective}"))


def general_orders(scenario, view: dict, seed: int) -> str:
    """The general bot: like a player, a dispatch to a brigade only when its order should change (the verb and
    target it wants differ from the order in force) and no dispatch to its commander is on the road or waiting
    out its delay; written in the orders' vocabulary from the seat's view alone, read by the same parser,
    carried by the same couriers with the same delays."""
    side = view["side"]
    if side is None or view["over"] or side not in view["owing"]:
        return ""
    alive = {c["id"]: c for c in view["commanders"] if c["alive"]}
    places = list(view["places"])
    objective = scenario.settings.victory.get("hold")
    objective = objective if objective in places else None
    home = _home(scenario, side, places)
    lines = []
    for b in view["brigades"]:
        c = alive.get(b["commander"])
        general = superior_of(view, c) if c is not None else None
        if general is None or not general.get("present", True) or b["at"] is None or b["waiting"]:
            continue
        if any(f" to {c['name']}, " in t and "on the road" in t for t in view["couriers"]):
            continue
        step = wanted(scenario, view, b, objective, home)
        if already(b, step, objective):
            continue
        lines += [f"FROM {general['name']} TO {c['name']}", step, ""]
    return "\n".join(lines)


def bots() -> dict:
    """The game's bots, weakest first (balance's default is the last): the random legal bot and the general."""
    from pbem.core.ruleset import Bot

    from .lang import N_

    return {"bot": Bot("bot", N_("the random legal bot"), bot_orders),
            "general": Bot("general", N_("the general: advances on the objective, attacks at good odds, holds when "
                                         "they are not, falls back when shaken"), general_orders)}
