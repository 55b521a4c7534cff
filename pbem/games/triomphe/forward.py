"""The forward player for Triomphe à Marengo (the first strategist, kept to measure against).

It reads only its own side's view and the map. Austria brings blocks on by
the free main road, pushes east, attacks approaches not fully blocked with as
many blocks as it can, assaults with strong vanguards and bombards with its
gun. France reorganises the blocks nearest the enemy, blocks approaches
facing the enemy by free defensive marches, and brings its reinforcements
toward the front. It exists to see whether the authored map plays like a
battle (docs/rules-notes.md ("Triomphe à Marengo"), figures), not to play well.
"""

from __future__ import annotations

from pbem.core.rng import Rng

from .bot import enemy_counts
from .scenario import Scenario

PAID = 3


class Forward:
    def __init__(self, scenario: Scenario, side: str, seed: int = 0):
        self.sc = scenario
        self.board = scenario.board
        self.side = side
        self.rng = Rng(seed)

    def name(self, lid: str) -> str:
        return self.board.locales[lid].name

    def east(self, lid: str) -> float:
        return self.board.locales[lid].x

    def orders(self, view: dict) -> str:
        if self.side == "austria":
            return self.flow_east(view)
        return self.hold(view)

    def flow_east(self, view: dict) -> str:
        """Austria: the minor victory needs three blocks east of the line (§19), and every
        fight costs discs it has few of. Bring blocks on, march them east through empty
        locales, attack only where the defender cannot block (§9), assault only with a clear
        edge, never into a locale with more defenders than attackers."""
        board = self.board
        line = self.sc.terrain.east_of_line
        mine = [b for b in view["blocks"] if b["status"] == "map"]
        enemy_at: dict[str, int] = {}
        enemy_on: dict[tuple, int] = {}
        enemy_reserve: dict[str, int] = {}
        for e in view["enemy"]:
            enemy_at[e["locale"]] = enemy_at.get(e["locale"], 0) + 1
            if e["facing"]:
                enemy_on[(e["locale"], e["facing"])] = enemy_on.get((e["locale"], e["facing"]), 0) + 1
            else:
                enemy_reserve[e["locale"]] = enemy_reserve.get(e["locale"], 0) + 1
        count: dict[str, int] = {}
        for b in mine:
            count[b["locale"]] = count.get(b["locale"], 0) + 1

        def room(lid):
            return board.locales[lid].capacity - count.get(lid, 0)

        def to_line(lid):
            return 0 if lid in line else min(board.distance(lid, t) for t in line)

        free: list[str] = []
        paid: list[tuple[float, str]] = []
        used: set[str] = set()
        waiting = any(b["status"] == "waiting" for b in view["blocks"])
        entry_locales = {board.entries[e].locale for c in self.sc.cells.values() if c.side == "austria"
                         for e in c.entries}
        groups: dict[tuple, list[dict]] = {}
        for b in mine:
            facing = b["facing"] if b["facing"] and enemy_at.get(b["facing"]) else None
            groups.setdefault((b["locale"], facing), []).append(b)
        for (lid, facing), group in sorted(groups.items(), key=lambda g: to_line(g[0][0])):
            ids = [b["id"] for b in group if b["type"] != "artillery"][:3]
            if lid in line and facing is None:
                continue  # there: stay
            if facing is not None:
                guns = [b for b in group if b["type"] == "artillery" and not b["bombard"]]
                if guns and not board.approach(facing, lid).artillery:
                    free.append(f"BOMBARD {guns[0]['id']} FROM {self.name(lid)}>{self.name(facing)}")
                strong = [b for b in group if b["strength"] >= 3 and b["type"] == "infantry"]
                if enemy_on.get((facing, lid)) and len(strong) >= min(2, board.approach(facing, lid).width) \
                        and enemy_at.get(facing, 0) <= len(group):
                    paid.append((6, f"ASSAULT {self.name(lid)}>{self.name(facing)} WITH {' '.join(ids)} LEAD BEST"))
                elif not enemy_on.get((facing, lid)) and ids and room(facing) >= len(ids):
                    paid.append((8, f"ATTACK {' '.join(ids)} {self.name(lid)}>{self.name(facing)} -> "
                                    f"{self.name(facing)}"))
                else:
                    paid.append((1, f"MARCH {' '.join(ids)} {self.name(lid)}>{self.name(facing)} -> {self.name(lid)}"))
                used.update(ids)
                continue
            if not ids:
                continue
            best = None
            everyone = ids
            jammed = lid in entry_locales and waiting  # make room for the blocks still to enter
            for n in board.adjacent(lid):
                gain = to_line(lid) - to_line(n) + (self.east(n) - self.east(lid)) / 1000 + (1.5 if jammed else 0)
                ids = everyone[:room(n)] if jammed else (everyone[:max(0, room(n) - 1)] or everyone[:room(n)])
                if gain <= 0 or not ids:
                    continue
                if enemy_at.get(n):
                    width = board.approach(n, lid).width
                    blockers = enemy_on.get((n, lid), 0) + min(enemy_reserve.get(n, 0), len(ids))
                    if blockers >= width or (blockers and len(ids) == 1):
                        continue  # it would be blocked (§9 step 3)
                    if board.approach(n, lid).cavalry_obstacle and not any(
                            b["type"] == "infantry" for b in group if b["id"] in ids):
                        continue
                    option = (gain + 0.5, f"ATTACK {' '.join(ids)} {self.name(lid)} -> {self.name(n)}")
                else:
                    option = (gain, f"MARCH {' '.join(ids)} {self.name(lid)} -> {self.name(n)}")
                if best is None or option[0] > best[0]:
                    best = option + (ids,)
            if best:
                ids = best[2]
                paid.append((3 + best[0], best[1]))
                used.update(ids)
                target = best[1].split(" -> ")[-1]
                for lid2, loc in board.locales.items():
                    if loc.name == target:
                        count[lid2] = count.get(lid2, 0) + len(ids)
                count[lid] -= len(ids)
        entered = 0
        for b in view["blocks"]:
            if b["status"] != "waiting" or (b["arrives"] or 0) > view["hour"] or b["cell"] not in self.sc.cells:
                continue
            kinds = {board.entries[e].kind: e for e in self.sc.cells[b["cell"]].entries}
            if "pontoon" in kinds and not any("PONTOON" in f for f in free):
                free.append(f"ENTER {b['id']} BY PONTOON")
            elif "road" in kinds and entered < 3:
                here = board.entries[kinds["road"]].locale
                free.append(f"ENTER {b['id']}" + "".join(f" -> {self.name(p)}"
                                                          for p in self.road_forward(here, enemy_at, 1, count, 2 - entered)))
                entered += 1
        paid.sort(key=lambda p: -p[0])
        return "\n".join(free + [text for _score, text in paid[:4]]) + "\nSTANDING COVER ALWAYS\n"

    def hold(self, view: dict) -> str:
        board, side = self.board, self.side
        forward = 1 if side == "austria" else -1
        mine = [b for b in view["blocks"] if b["status"] == "map"]
        enemy_at, enemy_on = enemy_counts(view)
        six = view["hour"] == self.sc.first_hour and side == "france"

        def place(b):
            if b["facing"] and not enemy_at.get(b["facing"]):
                return b["locale"], None
            return b["locale"], b["facing"]

        free: list[str] = []
        paid: list[tuple[float, str]] = []
        used: set[str] = set()
        count: dict[str, int] = {}
        for b in mine:
            count[b["locale"]] = count.get(b["locale"], 0) + 1
        # reorganisation (France): the locales nearest the enemy first, whole locales
        if side == "france":
            groups: dict[str, list[str]] = {}
            for b in mine:
                if b["disorganised"]:
                    groups.setdefault(b["locale"], []).append(b["id"])
            near = sorted(groups, key=lambda l: min((board.distance(l, e) for e in enemy_at), default=9))
            budget = 2
            for lid in near:
                if len(groups[lid]) <= budget:
                    for bid in groups[lid]:
                        paid.append((10 - len(groups[lid]), f"REORGANISE {bid}"))
                    budget -= len(groups[lid])
        by_place: dict[tuple, list[dict]] = {}
        for b in mine:
            by_place.setdefault(place(b), []).append(b)
        for (lid, facing), group in by_place.items():
            fit = [b for b in group if not b["disorganised"]]
            if facing is not None:
                leads = [b for b in fit if b["strength"] >= 2 and b["type"] != "artillery"]
                guns = [b for b in fit if b["type"] == "artillery" and not b["bombard"]]
                if guns and not board.approach(facing, lid).artillery:
                    free.append(f"BOMBARD {guns[0]['id']} FROM {self.name(lid)}>{self.name(facing)}")
                    used.add(guns[0]["id"])
                if enemy_on.get((facing, lid)) and leads and side == "austria":
                    ids = [b["id"] for b in fit if b["type"] != "artillery"][:3]
                    paid.append((8 + len(ids), f"ASSAULT {self.name(lid)}>{self.name(facing)} WITH {' '.join(ids)}"))
                    used.update(ids)
                elif enemy_at.get(facing) and not enemy_on.get((facing, lid)):
                    ids = [b["id"] for b in fit if b["type"] != "artillery"][:3]
                    if ids:
                        paid.append((9, f"ATTACK {' '.join(ids)} {self.name(lid)}>{self.name(facing)} -> "
                                        f"{self.name(facing)}"))
                        used.update(ids)
                continue
            targets = [n for n in board.adjacent(lid) if enemy_at.get(n)]
            if targets:
                n = max(targets, key=lambda t: forward * self.east(t))
                width = board.approach(n, lid).width
                ids = [b["id"] for b in fit if b["type"] != "artillery"][:3]
                if side == "austria" and ids and enemy_on.get((n, lid), 0) < width and len(ids) >= 2 \
                        and len(ids) <= board.locales[n].capacity:
                    paid.append((7 + len(ids), f"ATTACK {' '.join(ids)} {self.name(lid)} -> {self.name(n)}"))
                    used.update(ids)
                    continue
                crowded = count.get(lid, 0) >= board.locales[lid].capacity - 1
                spill = [n for n in board.adjacent(lid) if not enemy_at.get(n)
                         and count.get(n, 0) < board.locales[n].capacity - 1]
                if crowded and spill and side == "austria":
                    n = max(spill, key=lambda t: forward * self.east(t))
                    ids = [b["id"] for b in fit if b["id"] not in used][:2]
                    if ids:
                        paid.append((5, f"MARCH {' '.join(ids)} {self.name(lid)} -> {self.name(n)}"))
                        used.update(ids)
                        count[n] = count.get(n, 0) + len(ids)
                if not six:
                    for t in targets:
                        have = sum(1 for b in mine if b["locale"] == lid and b["facing"] == t)
                        width = board.approach(lid, t).width
                        movers = [b["id"] for b in group if b["id"] not in used][:max(0, width - have)]
                        if movers:
                            free.append(f"MARCH {' '.join(movers)} {self.name(lid)} -> {self.name(lid)}>{self.name(t)}")
                            used.update(movers)
                continue
            for b in fit:
                if b["id"] in used:
                    continue
                path = self.road_forward(lid, enemy_at, forward, count)
                if path:
                    free.append(f"ROAD {b['id']} {self.name(lid)} " + "".join(f"-> {self.name(p)} " for p in path))
                    used.add(b["id"])
                    count[path[-1]] = count.get(path[-1], 0) + 1
                    count[lid] -= 1
                    break
        entered = 0
        for b in view["blocks"]:
            if b["status"] != "waiting" or (b["arrives"] or 0) > view["hour"] or b["cell"] not in self.sc.cells:
                continue
            kinds = {board.entries[e].kind: e for e in self.sc.cells[b["cell"]].entries}
            if "pontoon" in kinds and not any("PONTOON" in f for f in free):
                free.append(f"ENTER {b['id']} BY PONTOON")
            elif "road" in kinds and entered < 3:
                here = board.entries[kinds["road"]].locale
                steps = 2 - entered
                path = self.road_forward(here, enemy_at, forward, count, steps)
                free.append(f"ENTER {b['id']}" + "".join(f" -> {self.name(p)}" for p in path))
                entered += 1
        paid.sort(key=lambda p: -p[0])
        lines = free + [text for _score, text in paid[:PAID + 1]]
        if side == "france":
            lines.append("STANDING COUNTERATTACK TURN")
        return "\n".join(lines)

    def road_forward(self, start: str, enemy_at: dict, forward: int, count: dict, steps: int = 3) -> list[str]:
        path = [start]
        for _ in range(steps):
            options = [n for n, r in self.board.road_neighbours(path[-1]) if r.main and n not in path
                       and not enemy_at.get(n) and forward * (self.east(n) - self.east(path[-1])) > 0
                       and count.get(n, 0) < self.board.locales[n].capacity - 1]
            if not options:
                break
            path.append(options[0])
        return path[1:]
