"""The random legal bot: from its seat's view alone, a few group moves of one town each
to random adjacent towns, within the group count, road limits and night rules."""

from __future__ import annotations

from collections import Counter, defaultdict

from pbem.core.rng import Rng

from .blocks import ARMY_SIDE
from .scenario import SEAT_ARMY
from .triggers import TRIGGERS as TRIGGER_TEXT

TRIGGERS = tuple(TRIGGER_TEXT)


def bot_orders(scenario, view: dict, seed: int) -> str:
    seat = view["seat"]
    if view["phase"] == "auction" and seat in view["owing"]:  # §13: a small bid, now and then none at all
        pick = Rng(seed * 613 + len(seat)).below(5)
        return f"BID {pick}\n" if pick < 4 else ""
    if view["phase"] == "battle deployment" and seat in view["owing"]:
        return deploy_orders(scenario, view, seed)
    if view["phase"] == "battle round" and seat in view["owing"]:
        return round_orders(scenario, view, seed)
    if view["phase"] != "campaign" or seat not in view["owing"]:
        return ""
    army = SEAT_ARMY[seat]
    side = ARMY_SIDE[army]
    board = scenario.board
    rng = Rng(seed * 7919 + view["turn"] * 104729 + len(seat))
    asks = []
    if view["battle"] == "hybrid" and rng.below(2):  # half the time, a trigger or two (triggers.py)
        asks = [f"ASK {' '.join(sorted({TRIGGERS[rng.below(len(TRIGGERS))] for _ in range(2)}))}"]
    mine = defaultdict(list)
    for b in view["blocks"]:
        if b["army"] == army:
            mine[b["town"]].append(b["id"])
    enemies = {h["town"] for h in view["hidden"] if ARMY_SIDE[h["army"]] != side}
    enemies |= {b["town"] for b in view["blocks"] if ARMY_SIDE[b["army"]] != side}
    towns = sorted(mine)
    rng.shuffle(towns)
    used = Counter()
    attacked: dict[str, str] = {}
    lines = []
    for start in towns[:scenario.groups[army]]:
        ids = sorted(mine[start])
        rng.shuffle(ids)
        ids = ids[:1 + rng.below(len(ids))]
        options = list(board.adjacent(start))
        main = options[rng.below(len(options))]
        targets = [t for t in options if t in enemies]
        if targets and not view["night"] and rng.below(2):  # half the time, attack with the group
            main = targets[rng.below(len(targets))]
            ids = sorted(mine[start])
        for bid in ids:
            target = main if rng.below(3) else options[rng.below(len(options))]
            road = board.road(start, target)
            attacking = target in enemies
            if attacking and (view["night"] or attacked.get(target, start) != start):
                continue
            limit = scenario.road[road.kind] // (2 if attacking and road.river else 1)
            if used[frozenset((target, start))] >= limit:
                continue
            used[frozenset((target, start))] += 1
            if attacking:
                attacked[target] = start
            lines.append(f"MOVE {bid} {board.name(start)} -> {board.name(target)}")
    lines += asks
    return "\n".join(lines) + ("\n" if lines else "")


def round_orders(scenario, view: dict, seed: int) -> str:
    """Between two rounds: an order for every block of the seat's on each battle board (round_orders.py:
    engage, fire, hold, disengage, shift, form or break square), and now and then a
    new WITHDRAW line, a change of REINFORCE, or LEAVE."""
    rng = Rng(seed * 31 + view["turn"] * 7 + sum(b.get("round", 0) for b in view["battles"]) * 13
              + len(view["seat"]))
    lines = [line for battle in view["battles"] for line in block_orders(scenario, view, battle, rng)]
    pick = rng.below(8)
    if pick == 2 and view["battles"]:
        lines.append(f"LEAVE {scenario.board.name(view['battles'][rng.below(len(view['battles']))]['town'])}")
    if pick == 0:
        lines.append(f"DOCTRINE WITHDRAW {rng.below(101)}")
    if pick == 1:
        lines.append(f"DOCTRINE REINFORCE {'YES' if rng.below(2) else 'NO'}")
    return "\n".join(lines) + ("\n" if lines else "")


def block_orders(scenario, view: dict, battle: dict, rng: Rng) -> list[str]:
    """A legal order for each of the seat's blocks on one battle board, chosen at random."""
    from .round_orders import own_loc

    side = ARMY_SIDE[SEAT_ARMY[view["seat"]]]
    role = next(r for r, s in battle["sides"].items() if s == side)
    other = "def" if role == "att" else "att"
    kind = {b["id"]: b["type"] for b in view["blocks"] if b["army"] == SEAT_ARMY[view["seat"]]}
    board, terrain = battle.get("board", {}), battle["terrain"]
    lines = []
    for loc, place in sorted(board.items()):
        for bid in place["own"]:
            if bid not in kind:
                continue
            t = kind[bid]
            square = bid in place.get("square", ())
            fighting = not loc.startswith("res") and place.get("enemies", 0) > 0
            mine = loc.startswith(role)
            opposite = board.get(f"{other}{loc[3]}", {}) if not loc.startswith("res") else {}
            choice = rng.below(12)
            if square:
                lines.append(f"BREAK SQUARE {bid}" if choice < 4 else f"FIRE {bid}" if fighting else f"HOLD {bid}")
            elif loc.startswith("res"):
                keys = [k for k in ("LEFT", "CENTRE", "RIGHT")
                        if not (t.endswith("artillery") and terrain.get(own_loc(role, k)) == "woods")]
                lines.append(f"SHIFT {bid} {keys[rng.below(len(keys))]}" if keys and choice < 8 else f"HOLD {bid}")
            elif fighting:
                lines.append(f"DISENGAGE {bid}" if choice < 2 else f"FIRE {bid}" +
                             (" SQUARE" if choice == 2 else " LINE" if choice == 3 else ""))
            elif mine and t == "infantry" and choice == 0 and terrain.get(loc) not in ("woods", "farm"):
                lines.append(f"FORM SQUARE {bid}")
            elif mine and t != "foot_artillery" and opposite.get("enemies", 0) and choice < 9:
                lines.append(f"ENGAGE {bid}")
            elif t.endswith("artillery"):
                lines.append(f"FIRE {bid}")
            elif mine and choice < 10:
                lines.append(f"SHIFT {bid} RESERVE")
            else:
                lines.append(f"HOLD {bid}")
    return lines


def deploy_orders(scenario, view: dict, seed: int) -> str:
    """A random legal DEPLOY for each battle: the leader somewhere, each corps to a position
    of its own (or the leader's) or the reserve, no artillery in the woods."""
    from .parse import section_index

    army = SEAT_ARMY[view["seat"]]
    side = ARMY_SIDE[army]
    rng = Rng(seed * 31 + view["turn"] * 7 + len(view["seat"]))
    lines = []
    for battle in view["battles"]:
        role = next(r for r, s in battle["sides"].items() if s == side)
        if battle["stage"] != role:
            continue
        mine = [b for b in view["blocks"] if b["town"] == battle["town"] and b["army"] == army]
        if not mine:
            continue
        keys = ["LEFT", "CENTRE", "RIGHT"]
        sections = {k: [] for k in keys + ["RESERVE"]}
        owners: dict[str, set] = {k: set() for k in keys}
        leader = [b for b in mine if b["type"] == "leader"]
        for b in leader:
            sections[keys[rng.below(3)]].append(b["id"])
        groups: dict[str, list] = defaultdict(list)
        for b in mine:
            if b["type"] != "leader":
                groups[b["corps"]].append(b)
        names = sorted(groups)
        rng.shuffle(names)
        for corps in names:
            choices = []
            for k in keys:
                woods = battle["terrain"].get(f"{role}{section_index(role, k)}") == "woods"
                if woods and any(b["type"].endswith("artillery") for b in groups[corps]):
                    continue
                if not owners[k] or any(x in sections[k] for x in (b["id"] for b in leader)):
                    choices.append(k)
            key = choices[rng.below(len(choices))] if choices and rng.below(4) else "RESERVE"
            sections[key] += [b["id"] for b in groups[corps]]
            if key != "RESERVE":
                owners[key].add(corps)
        parts = [f"{k} {' '.join(v)}" for k, v in sections.items() if v]
        lines.append(f"DEPLOY {scenario.board.name(battle['town'])} " + " ".join(parts))
    return "\n".join(lines) + ("\n" if lines else "")
