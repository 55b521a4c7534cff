"""A plainer-minded player than the random bot: the French march their two biggest
stacks on the nearest Allied supply city and attack what stands in the way when they
outnumber it; each Allied army marches its biggest stack to its nearest supply city
under threat, or toward its second stack to concentrate, and attacks a smaller French
stack next to it. Legal by construction (reach, road limits, night, one group a
target), from its seat's view alone; battles are left to the doctrine."""

from __future__ import annotations

from collections import Counter, defaultdict

from .blocks import ARMY_SIDE, reach
from .bot import deploy_orders
from .scenario import SEAT_ARMY


def distances(board, start: str) -> dict[str, int]:
    seen, frontier = {start: 0}, [start]
    while frontier:
        nxt = []
        for town in frontier:
            for other in board.adjacent(town):
                if other not in seen:
                    seen[other] = seen[town] + 1
                    nxt.append(other)
        frontier = nxt
    return seen


def step_toward(board, start: str, goal: str, blocked: set[str]) -> str | None:
    """The neighbour of ``start`` on a shortest road path to ``goal`` (None if already there)."""
    if start == goal:
        return None
    far = distances(board, goal)
    options = [t for t in board.adjacent(start) if t not in blocked or t == goal]
    if not options:
        return None
    return min(options, key=lambda t: (far.get(t, 99), t))


def general_orders(scenario, view: dict, seed: int) -> str:
    seat = view["seat"]
    if view["phase"] == "battle deployment" and seat in view["owing"]:
        return deploy_orders(scenario, view, seed)
    if view["phase"] != "campaign" or seat not in view["owing"]:
        return ""
    board = scenario.board
    army = SEAT_ARMY[seat]
    side = ARMY_SIDE[army]
    stacks = defaultdict(list)
    for b in view["blocks"]:
        if b["army"] == army:
            stacks[b["town"]].append(b)
    enemy = Counter()
    for h in view["hidden"]:
        if ARMY_SIDE[h["army"]] != side:
            enemy[h["town"]] += h["count"]
    for b in view["blocks"]:
        if ARMY_SIDE[b["army"]] != side:
            enemy[b["town"]] += 1
    order = sorted(stacks, key=lambda t: (-len(stacks[t]), t))
    if army == "french":  # the stacks with somewhere to go first
        order = [t for t in order if len(stacks[t]) >= 3] + [t for t in order if len(stacks[t]) < 3]
    cities = board.supply_cities()
    if army == "french":
        goals = [c for c in cities if not any(b["town"] == c for b in view["blocks"] if b["army"] == "french")]
        plans = [(t, min(goals, key=lambda g: (distances(board, t).get(g, 99), g)) if goals else t)
                 for t in order[:scenario.groups[army]]]
    else:
        mine = [c for c, a in cities.items() if a == army]
        threatened = [c for c in mine if any(distances(board, c).get(t, 99) <= 2 for t in enemy)]
        big = order[0] if order else None
        plans = [(big, threatened[0])] if big and threatened else []
        for town in order:  # else strike a weaker French stack next to one of ours
            weak = [t for t in board.adjacent(town) if 0 < enemy[t] < len(stacks[town])]
            if not plans and weak and len(stacks[town]) >= 3:
                plans = [(town, weak[0])]
    lines, used, targets = [], Counter(), set()
    for start, goal in plans:
        nxt = step_toward(board, start, goal, set())
        if nxt is None:
            continue
        group = sorted(stacks[start], key=lambda b: (-b["strength"], b["id"]))
        attacking = nxt in enemy
        if attacking and (view["night"] or nxt in targets or len(group) < 3 or len(group) <= enemy[nxt]):
            continue
        road = board.road(start, nxt)
        room = scenario.road[road.kind] // (2 if attacking and road.river else 1) - used[frozenset((start, nxt))]
        going = [b["id"] for b in group if reach(b["type"]) >= 1][:max(0, room)]
        if len(going) < len(group) and not attacking:
            going = going[:-1] if len(going) > 1 else going  # keep a block behind when the road is short
        if not going or (attacking and len(going) < 3):
            continue
        used[frozenset((start, nxt))] += len(going)
        if attacking:
            targets.add(nxt)
        lines.append(f"MOVE {' '.join(going)} {board.name(start)} -> {board.name(nxt)}")
    return "\n".join(lines) + ("\n" if lines else "")
