"""A simple player for self-play, demos and the leak tests.

It reads only its own side's view (what a player would read in a report)
and writes orders in the order language, as a person would: each order as a
value (pbem.games.marengo.orders) with the text the parser writes for it, the
orders text made of those texts. The check of what it sends is handed the
values (sendable.keep_accepted), so it does not read its own text back. It is not
strong: it pushes toward the enemy (Austria) or holds and blocks (France),
assaults when its best lead looks good enough, and brings on reinforcements.
"""

from __future__ import annotations

from pbem.core.rng import Rng

from pbem.games.simmons.board import Board
from .orders import Activate, Assault, Bombard, Enter, Move, Order, Orders, RoadMove, Standing
from .sendable import keep_accepted
from .rules import ACTIVATION_HOUR
from .scenario import Scenario

GOAL_WEIGHT = 1


def bot_orders(scenario: Scenario, view: dict, seed: int) -> str:
    """Orders text for the side ``view['viewer']`` on its coming day."""
    board: Board = scenario.board
    side = view["viewer"]
    rng = Rng(seed * 7919 + view["day"] * 104729 + (0 if side == "austria" else 1))
    hour = view["hour"]
    heading = f"# bot orders for {side}, {view['hour_label']}"
    orders: list[Order] = []  # each with the text the parser writes for it: the orders text is made of them
    mine = [b for b in view["blocks"] if b["status"] == "map"]
    enemy_at = {}
    for e in view["enemy"]:
        enemy_at.setdefault(e["locale"], []).append(e)
    mine_at: dict[str, list[dict]] = {}
    for b in mine:
        mine_at.setdefault(b["locale"], []).append(b)
    name = lambda lid: board.locales[lid].name  # noqa: E731
    used: set[str] = set()
    commands = 3

    if side == "france":
        asleep = [b["id"] for b in mine if not b["activated"]]
        allowance = activation_allowance(board, view)
        if asleep and allowance:
            rng.shuffle(asleep)
            orders.append(Activate(text="ACTIVATE " + " ".join(asleep[:allowance]), blocks=tuple(asleep[:allowance])))

    # assaults: from approaches facing enemy-blocked approaches
    groups: dict[tuple, list[dict]] = {}
    for b in mine:
        if b["facing"]:
            groups.setdefault((b["locale"], b["facing"]), []).append(b)
    demoralised = view["demoralised"][side]
    for (here, there), group in groups.items():
        if commands <= 0 or demoralised:
            break
        defenders = [e for e in enemy_at.get(there, []) if e["facing"] == here]
        if not defenders:
            continue
        appr = board.approach(there, here)
        leads = [b for b in group if b["type"] in ("infantry", "cavalry") and b["strength"] >= 2
                 and b["strength"] > appr.penalty(b["type"])
                 and not (b["type"] == "cavalry" and appr.cavalry_obstacle)]
        if not leads:
            continue
        best = max(leads, key=lambda b: b["strength"] - appr.penalty(b["type"]))
        nerve = 1 if side == "austria" else 2  # the attacker presses; the defender picks its moments
        if best["strength"] - appr.penalty(best["type"]) < nerve and rng.below(3):
            continue
        takers = [b for b in group if not (b["type"] == "cavalry" and appr.cavalry_obstacle)]
        ids = tuple(b["id"] for b in takers)
        orders.append(Assault(text=f"ASSAULT {board.approach_name(here, there)} WITH {' '.join(ids)} LEAD {best['id']}",
                              locale=here, toward=there, blocks=ids, leads=(best["id"],)))
        used.update(b["id"] for b in takers)
        commands -= 1

    # reinforcements
    due = [b for b in view["blocks"] if b["status"] == "waiting" and (b["arrives"] or 0) <= hour]
    road_entries = [e for e in board.entries.values() if e.side == side and e.kind == "road"]
    pontoons = [e for e in board.entries.values() if e.side == side and e.kind == "pontoon"]
    if due and pontoons and commands > 1 and not enemy_at.get(pontoons[0].locale):
        b = due.pop()
        orders.append(by_pontoon(b["id"], pontoons))
        commands -= 1
    for entry in road_entries:
        allowed = [b for b in due if not b.get("entries") or entry.id in b.get("entries", [])][:3]
        if not allowed or enemy_at.get(entry.locale):
            continue
        for b in allowed:
            due.remove(b)
        path = tuple(road_onward(board, entry, enemy_at))
        ids = tuple(b["id"] for b in allowed)
        tail = "".join(f" -> {name(lid)}" for lid in path)
        orders.append(Enter(text=f"ENTER {' '.join(ids)} BY ROAD AT {entry.name}{tail}", blocks=ids, by="road",
                            entry=entry.id, path=path))

    # road moves along the main road, free of the command limit: Austria presses on
    if side == "austria" and goal_of(scenario, side):
        goal = goal_of(scenario, side)
        for b in mine:
            if b["facing"] or b["id"] in used or not b["activated"] or rng.below(3) == 0:
                continue
            step = main_road_step(board, b["locale"], goal, enemy_at)
            if step:
                orders.append(RoadMove(text=f"ROAD {b['id']} {name(b['locale'])} -> {name(step)}", block=b["id"],
                                       path=(b["locale"], step)))
                used.add(b["id"])
                mine_at[b["locale"]].remove(b)
                mine_at.setdefault(step, []).append(b)

    # moves: toward the enemy for Austria; France blocks approaches and holds objectives
    goal = (scenario.retreat_toward or {}).get("france" if side == "austria" else "austria")
    reserves: dict[str, list[dict]] = {}
    for b in mine:
        if not b["facing"] and b["id"] not in used and b["activated"]:
            reserves.setdefault(b["locale"], []).append(b)
    spots = list(reserves.items())
    rng.shuffle(spots)
    for here, group in spots:
        if commands <= 0:
            break
        threats = [n for n in board.adjacent(here) if enemy_at.get(n)]
        group = [b for b in group if b["id"] not in used]
        if not group:
            continue
        movers = [b for b in group if b["type"] != "artillery"] or group
        open_to_us = [n for n in threats if not any(e["facing"] == here for e in enemy_at[n])]
        weak = [n for n in open_to_us if len(enemy_at[n]) < len(movers)] or open_to_us
        if side == "austria" and weak and any(b["type"] == "infantry" for b in movers):
            there = weak[rng.below(len(weak))]
            orders.append(move(board, movers, here, (there, None), "advance"))
            used.update(b["id"] for b in movers)
            commands -= 1
            continue
        facing_us = [n for n in threats if any(e["facing"] == here for e in enemy_at[n])]
        if side == "austria" and facing_us:
            there = facing_us[rng.below(len(facing_us))]  # block it now, assault it tomorrow
            orders.append(move(board, movers, here, (here, there)))
            used.update(b["id"] for b in movers)
            commands -= 1
            continue
        if threats and (side == "france" or rng.below(2)):
            there = threats[rng.below(len(threats))]
            orders.append(move(board, movers, here, (here, there)))
            used.update(b["id"] for b in movers)
            commands -= 1
            continue
        if side == "france" and board.locales[here].objective:
            continue
        options = [n for n in board.adjacent(here)
                   if len(mine_at.get(n, [])) + len(movers) <= board.locales[n].capacity]
        if not options:
            continue
        if goal and side == "austria":
            options.sort(key=lambda n: board.distance(n, goal))
            there = options[0] if rng.below(3) else options[rng.below(len(options))]
        else:
            there = options[rng.below(len(options))]
        orders.append(move(board, movers, here, (there, None), "advance"))
        used.update(b["id"] for b in movers)
        mine_at.setdefault(there, []).extend(movers)
        commands -= 1

    # artillery: declare a bombardment where it blocks an approach
    for b in mine:
        if b["type"] == "artillery" and b["facing"] and b["id"] not in used and not b["bombard"]:
            orders.append(Bombard(text=f"BOMBARD {b['id']} FROM {board.approach_name(b['locale'], b['facing'])}",
                                  block=b["id"], locale=b["locale"], toward=b["facing"]))

    if view["day"] < 2:
        orders.append(Standing(text="STANDING ARTILLERY DEFEND", kind="artillery", value="DEFEND"))
        orders.append(Standing(text="STANDING PURSUE STRONG", kind="pursue", value="STRONG"))
    text = "\n".join([heading] + [o.text for o in orders]) + "\n"
    for line, order in enumerate(orders, 2):  # line 1 is the heading
        order.line = line
    written = Orders(side, orders=[o for o in orders if not isinstance(o, Standing)],
                     standing=[o for o in orders if isinstance(o, Standing)])
    return keep_accepted(scenario, view, text, written=written)  # what the day would not carry out, left out


def move(board: Board, group: list[dict], here: str, to: tuple[str, str | None], if_blocked: str | None = None) -> Move:
    """A group's MOVE from the reserve of ``here``, with the text the parser writes for it (parse.order_move)."""
    ids = tuple(b["id"] for b in group)
    there = board.locales[to[0]].name if to[1] is None else board.approach_name(*to)
    blocked = " IF BLOCKED ADVANCE" if if_blocked == "advance" else ""
    return Move(text=f"MOVE {' '.join(ids)} {board.locales[here].name} -> {there}{blocked}", blocks=ids,
                frm=(here, None), to=to, if_blocked=if_blocked)


def by_pontoon(bid: str, pontoons: list) -> Enter:
    """A block's ENTER BY PONTOON (written without AT: the side's only pontoon entry point, which the order
    then does not record, as parse.entry_point reads it)."""
    if len(pontoons) != 1:
        raise ValueError("the bot writes ENTER BY PONTOON without AT only for a side with one pontoon entry point")
    return Enter(text=f"ENTER {bid} BY PONTOON", blocks=(bid,), by="pontoon")


def goal_of(scenario: Scenario, side: str) -> str | None:
    """Where a side pushes: toward the enemy's line of retreat."""
    other = "france" if side == "austria" else "austria"
    return (scenario.retreat_toward or {}).get(other)


def activation_allowance(board: Board, view: dict) -> int:
    """How many French blocks France may activate on its coming day, as its view shows it
    (003 §6 step 6: one on the first French day, two more from 11 AM or once the enemy is
    in a French start locale)."""
    enemy_in_start = any(board.locales[e["locale"]].french_start for e in view["enemy"])
    return (1 if view["day"] == 1 else 0) + (2 if view["hour"] >= ACTIVATION_HOUR or enemy_in_start else 0)


def entry_road_onward(board: Board, entry) -> list[str]:
    """The locales along an entry point's road after its entry locale, away from the map edge."""
    road = board.roads.get(entry.road) if entry.road else None
    if road is None or entry.locale not in road.path:
        return []
    i = road.path.index(entry.locale)
    return list(road.path[i + 1:]) if i < len(road.path) / 2 else list(reversed(road.path[:i]))


def road_onward(board: Board, entry, enemy_at: dict) -> list[str]:
    """Up to two locales along the entry's road, short of the enemy."""
    out = []
    for lid in entry_road_onward(board, entry)[:2]:
        if enemy_at.get(lid):
            break
        out.append(lid)
    return out


def main_road_step(board: Board, here: str, goal: str, enemy_at: dict) -> str | None:
    """The next locale along a main road that brings a block nearer ``goal``, if free of the enemy."""
    best = None
    for nxt, road in board.road_neighbours(here):
        if not road.main or enemy_at.get(nxt):
            continue
        if board.distance(nxt, goal) < board.distance(here, goal):
            best = nxt
    return best
