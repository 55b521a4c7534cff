"""A random player for Triomphe à Marengo, for self-play and fuzzing.

It reads only its own side's view (``view(scenario, state, side)``) and the
map, and writes an orders text of a few random actions that the parser
accepts: reorganisations, entries, marches, road marches, maneuver attacks,
assaults and bombardments, in a random order. Whether each can be carried
out when its turn comes is the engine's question (an action that cannot is
void and costs nothing). ``choose`` answers decisions at random, within
their options.
"""

from __future__ import annotations

from pbem.core.decisions import Decision
from pbem.core.orders import OrdersError
from pbem.core.rng import Rng

from .parse import parse_orders
from .scenario import Scenario


def enemy_counts(view: dict) -> tuple[dict[str, int], dict[tuple, int]]:
    """How many enemy blocks ``view`` shows in each locale, and on each approach (locale, facing)."""
    at: dict[str, int] = {}
    on: dict[tuple, int] = {}
    for e in view["enemy"]:
        at[e["locale"]] = at.get(e["locale"], 0) + 1
        if e["facing"]:
            on[(e["locale"], e["facing"])] = on.get((e["locale"], e["facing"]), 0) + 1
    return at, on

ACTIONS = 5  # actions written a turn (the engine spends at most 3 orders)


class RandomBot:
    def __init__(self, scenario: Scenario, side: str, seed: int):
        self.sc = scenario
        self.board = scenario.board
        self.side = side
        self.rng = Rng(seed)

    def pick(self, items):
        items = list(items)
        return items[self.rng.below(len(items))] if items else None

    def chance(self, p: float) -> bool:
        return self.rng.below(1000) < p * 1000

    def orders(self, view: dict) -> str:
        """An orders text for the side's turn in ``view`` (its own view)."""
        board, side = self.board, self.side
        mine = [b for b in view["blocks"] if b["status"] == "map"]
        enemy_at, enemy_on = enemy_counts(view)
        first_hour = view["hour"] == self.sc.first_hour
        cannot_block = side == "france" and first_hour

        def place(b):
            # where the block will be after approach recovery (T8)
            if b["facing"] and not enemy_at.get(b["facing"]):
                return b["locale"], None
            return b["locale"], b["facing"]

        def name(lid):
            return board.locales[lid].name

        lines: list[str] = []
        used: set[str] = set()
        # reorganisation, a whole locale at a time
        disorganised: dict[str, list[str]] = {}
        for b in mine:
            if b["disorganised"]:
                disorganised.setdefault(b["locale"], []).append(b["id"])
        organising: set[str] = set()
        if disorganised and self.chance(0.8):
            locale = self.pick(sorted(disorganised))
            for bid in disorganised[locale]:
                lines.append(f"REORGANISE {bid}")
                organising.add(bid)
        candidates: list[tuple[str, list[str]]] = []
        pontoon = False
        for b in view["blocks"]:
            if b["status"] == "waiting" and (b["arrives"] or 0) <= view["hour"]:
                kinds = {board.entries[e].kind: e for e in self.sc.cells[b["cell"]].entries} if b["cell"] in \
                    self.sc.cells else {}
                if "pontoon" in kinds and not pontoon and self.chance(0.3):
                    pontoon = True  # §15: one a turn
                    candidates.append((f"ENTER {b['id']} BY PONTOON", [b["id"]]))
                elif "road" in kinds:
                    here = board.entries[kinds["road"]].locale
                    path = self.road_path(here, 2, enemy_at)
                    candidates.append((f"ENTER {b['id']}" + "".join(f" -> {name(p)}" for p in path), [b["id"]]))
        for b in mine:
            if b["disorganised"] and b["id"] not in organising:
                continue  # §14: it may not leave its locale or attack
            locale, facing = place(b)
            bid = b["id"]
            if b["type"] == "artillery" and facing and not b["bombard"]:
                if not board.approach(facing, locale).artillery:
                    candidates.append((f"BOMBARD {bid} FROM {name(locale)}>{name(facing)}", [bid]))
            if facing is None:
                for n in board.adjacent(locale):
                    if enemy_at.get(n):
                        if not cannot_block:
                            candidates.append((f"MARCH {bid} {name(locale)} -> {name(locale)}>{name(n)}", [bid]))
                        if enemy_on.get((n, locale), 0) < board.approach(n, locale).width and b["type"] != "artillery":
                            candidates.append((f"ATTACK {bid} {name(locale)} -> {name(n)}", [bid]))
                    else:
                        candidates.append((f"MARCH {bid} {name(locale)} -> {name(n)}", [bid]))
                path = self.road_path(locale, 3, enemy_at)
                if path:
                    candidates.append((f"ROAD {bid} {name(locale)}" + "".join(f" -> {name(p)}" for p in path), [bid]))
            else:
                candidates.append((f"MARCH {bid} {name(locale)}>{name(facing)} -> {name(locale)}", [bid]))
                if enemy_on.get((facing, locale)) and b["strength"] >= 2 and b["type"] != "artillery":
                    candidates.append((f"ASSAULT {name(locale)}>{name(facing)} WITH {bid}", [bid]))
                    there = [x["id"] for x in mine if place(x) == (locale, facing)]
                    if len(there) > 1 and bid == there[0]:  # T55: the assault blocks chosen at step 3
                        candidates.append((f"ASSAULT {name(locale)}>{name(facing)} WITH BEST", there))
                elif enemy_at.get(facing) and not enemy_on.get((facing, locale)):
                    candidates.append((f"ATTACK {bid} {name(locale)}>{name(facing)} -> {name(facing)}", [bid]))
        order = list(range(len(candidates)))
        self.rng.shuffle(order)
        for i in order:
            if len(lines) >= ACTIONS:
                break
            text, ids = candidates[i]
            if used.intersection(ids):
                continue
            used.update(ids)
            lines.append(text)
        if side == "france" and self.chance(0.3):
            lines.append("RETURN NONE")
        return "\n".join(lines)

    def road_path(self, start: str, steps: int, enemy_at: dict) -> list[str]:
        path = [start]
        for _ in range(self.rng.below(steps + 1)):
            nxt = [n for n, _r in self.board.road_neighbours(path[-1]) if n not in path and not enemy_at.get(n)]
            if not nxt:
                break
            path.append(self.pick(sorted(set(nxt))))
        return path[1:]

    def standing(self) -> str:
        """A few random standing orders for the enemy's turn."""
        lines = []
        if self.chance(0.3):
            lines.append("STANDING RESPOND ALL " + self.pick(["ALWAYS", "NEVER", "BLOCKING"]))
        if self.chance(0.3):
            lines.append("STANDING COUNTERATTACK " + self.pick(["NEVER", "TURN", "ALWAYS"]))
        if self.chance(0.2):
            lines.append("STANDING BARRAGE " + self.pick(["ALWAYS", "NEVER"]))
        if self.chance(0.2):
            lines.append("STANDING COVER " + self.pick(["ALWAYS", "NEVER"]))
        if self.chance(0.2):
            lines.append("STANDING VANGUARD ALL " + self.pick(["BEST", "NONE"]))
        return "\n".join(lines)

    def choose(self, decision: Decision) -> tuple[str, ...] | None:
        """A random answer within the decision's options (None: leave it to the default)."""
        if decision.side != self.side or self.chance(0.5):
            return None
        options = list(decision.options)
        self.rng.shuffle(options)
        n = decision.min + self.rng.below(decision.max - decision.min + 1)
        return tuple(options[:n])


def fit(scenario, state, side: str, text: str) -> str:
    """``text`` without the lines the parser refuses (a bot's guess can be wrong)."""
    lines = text.split("\n")
    for _ in range(10):
        try:
            parse_orders(scenario, state, side, "\n".join(lines))
            return "\n".join(lines)
        except OrdersError as exc:
            bad = {p.line for p in exc.problems}
            lines = [line for i, line in enumerate(lines, 1) if i not in bad]
    return ""
