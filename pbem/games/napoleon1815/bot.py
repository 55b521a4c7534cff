"""The random legal bot: from its seat's view alone, a few group moves of one town each
to random adjacent towns, within the group count, road limits and night rules."""

from __future__ import annotations

from collections import Counter, defaultdict

from pbem.core.rng import Rng

from .blocks import ARMY_SIDE
from .scenario import SEAT_ARMY


def bot_orders(scenario, view: dict, seed: int) -> str:
    seat = view["seat"]
    if view["phase"] != "campaign" or seat not in view["owing"]:
        return ""
    army = SEAT_ARMY[seat]
    side = ARMY_SIDE[army]
    board = scenario.board
    rng = Rng(seed * 7919 + view["turn"] * 104729 + len(seat))
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
    return "\n".join(lines) + ("\n" if lines else "")
