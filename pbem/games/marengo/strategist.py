"""A stronger player than bot.py, for measuring the balance of a map.

Like ``bot_orders`` it reads only its own side's view (what a player reads in
a report: its own blocks in full, the enemy's as bars on the board) and the
public scenario (the map, the hours), writes an orders text in the order
language, and draws from a seeded ``Rng`` only, so a game between two
strategists replays exactly.

How it plays, each day, as a person with three commands would:

1. lists what it could do: assault from an approach it blocks (when its best
   leads beat what the enemy can show there), walk into an enemy locale
   whose approach is open (an attack maneuver: the enemy retreats if it has
   no reserve there to block), block the approach of an enemy facing its own
   blocks (or it walks in unopposed next day), move a group one step toward
   where the side wants to be, withdraw a weak stack from a strong one;
2. scores each, and takes the best it can afford (three commands; main-road
   marches and road entries along the main road are free);
3. brings on reinforcements, declares bombardments, and sets standing orders.

Austria wants objectives of two colours (003 §14): its groups go for the
nearest objective locale, on every axis the map offers (the main road, the
pontoon and the north, the river bend and the south). France wakes its front
first, blocks the approaches the enemy faces, falls back toward its objectives
when outnumbered, counter-attacks weak stacks, and brings its reinforcements
to the objectives most threatened.

The enemy's strength is never known (only its bars): each enemy block is
reckoned at ``GUESS`` strength unless the view shows it revealed.
"""

from __future__ import annotations

from pbem.core.rng import Rng

from pbem.games.simmons.board import Board
from .bot import activation_allowance, entry_road_onward
from .sendable import keep_accepted
from .scenario import Scenario

GUESS = 2.2  # what an unseen enemy block is reckoned at (both orders of battle average a little over 2)
COMMANDS = 3
LATE_HOUR = 18  # from 6 PM Austria keeps the objectives it holds and makes for more


class Planner:
    """One side's orders for its coming day, from its view."""

    def __init__(self, scenario: Scenario, view: dict, seed: int):
        self.sc = scenario
        self.board: Board = scenario.board
        self.view = view
        self.side = view["viewer"]
        self.foe = "france" if self.side == "austria" else "austria"
        self.hour = view["hour"]
        self.rng = Rng(seed * 104723 + view["day"] * 7907 + (3 if self.side == "austria" else 5))
        self.mine = [b for b in view["blocks"] if b["status"] == "map"]
        self.enemy_at: dict[str, list[dict]] = {}
        for e in view["enemy"]:
            self.enemy_at.setdefault(e["locale"], []).append(e)
        self.count: dict[str, int] = {}  # my blocks in each locale, as planned
        for b in self.mine:
            self.count[b["locale"]] = self.count.get(b["locale"], 0) + 1
        self.used: set[str] = set()
        self.commands = COMMANDS
        self.pontoon = False  # a command kept for the pontoon
        self.drawn: dict[str, int] = {}  # enemy reserve blocks my planned maneuvers will draw onto approaches
        self.taken: set[str] = set()  # enemy locales my planned maneuvers will take
        self.closed: set[tuple[str, str]] = set()  # approaches the enemy will block against my maneuvers
        self.assaulted: set[tuple[str, str]] = set()  # (my locale, the locale it faces): one assault each
        self.assaults: list[str] = []
        self.moves: list[str] = []
        self.free: list[str] = []
        self.activate: list[str] = []
        self.demoralised = view["demoralised"][self.side]
        self.objectives = [lid for lid, loc in self.board.locales.items() if loc.objective]
        self.colour = {lid: self.board.locales[lid].objective for lid in self.objectives}
        self.held = {lid for lid in self.objectives if self.count.get(lid)}
        self.active = self._active()
        self.targets = self._targets()
        self.days_left = scenario.days - view["day"]  # this day included
        self.late = self.days_left <= 4  # the last two rounds: objectives are all that count

    # -- what is where -----------------------------------------------------

    def name(self, lid: str) -> str:
        return self.board.locales[lid].name

    def appr(self, here: str, there: str) -> str:
        return f"{self.name(here)}>{self.name(there)}"

    def enemy_facing(self, locale: str, toward: str | None) -> list[dict]:
        return [e for e in self.enemy_at.get(locale, []) if e["facing"] == toward]

    def guess(self, e: dict) -> float:
        seen = e.get("revealed")
        return seen["strength"] if seen else GUESS

    def room(self, lid: str) -> int:
        return self.board.locales[lid].capacity - self.count.get(lid, 0)

    def _active(self) -> set[str]:
        """My blocks that may move today (French start blocks wake next to the enemy, or when chosen)."""
        if self.side == "austria":
            return {b["id"] for b in self.mine}
        near_enemy = {n for lid in self.enemy_at for n in self.board.adjacent(lid)}
        out = {b["id"] for b in self.mine if b["activated"] or b["locale"] in near_enemy}
        asleep = [b for b in self.mine if b["id"] not in out]
        allowance = activation_allowance(self.board, self.view)
        if asleep and allowance:
            front = self.enemy_rear()
            asleep.sort(key=lambda b: (self.board.distance(b["locale"], front), -b["strength"], b["id"]))
            self.activate = [b["id"] for b in asleep[:allowance]]
            out.update(self.activate)
        return out

    def enemy_rear(self) -> str:
        return (self.sc.retreat_toward or {}).get(self.foe) or next(iter(self.board.locales))

    def groups(self) -> dict[tuple[str, str | None], list[dict]]:
        out: dict[tuple[str, str | None], list[dict]] = {}
        for b in self.mine:
            if b["id"] not in self.used and b["id"] in self.active:
                out.setdefault((b["locale"], b["facing"]), []).append(b)
        return out

    # -- where the side wants to be ------------------------------------------

    def _targets(self) -> dict[str, float]:
        """The objectives the side makes for, each with a handicap (added to the distance).

        Austria: every objective, those of a colour it already holds elsewhere
        handicapped, so the next groups go for a second colour. France: every
        objective, handicapped when full or when its garrison outweighs the
        enemy near it, so free blocks go where the enemy presses.
        """
        held_colours = {self.colour[o] for o in self.held}
        if self.side == "austria":
            return {o: (0 if o in self.held or self.colour[o] not in held_colours else 3)
                    for o in self.objectives}
        out = {}
        for o in self.objectives:
            pressure = sum(GUESS * (4 - d) / 3 for lid, es in self.enemy_at.items()
                           if (d := self.board.distance(lid, o)) <= 3 for _ in es)
            garrison = self.count.get(o, 0) * GUESS
            full = self.room(o) <= 0
            out[o] = 4 if full else (0 if pressure > garrison else 2)
        return out

    def goal(self, lid: str) -> float:
        """Lower is better: how far a locale is from where the side wants its blocks."""
        d = self.board.distance
        return min(d(lid, o) + h for o, h in self.targets.items())

    def prize(self, lid: str) -> float:
        """What taking an enemy-held locale is worth beyond the fight: objectives, most of all
        those that decide the game in its last rounds."""
        colour = self.board.locales[lid].objective
        if not colour:
            return 0
        if self.side == "austria":
            held = {self.colour[o] for o in self.held}
            return 4 + (10 if self.late and colour not in held and len(held) < 2 else 0)
        # France: an objective Austria holds; decisive if Austria holds two colours with it
        austrian = {self.colour[o] for o in self.objectives if self.enemy_at.get(o)}
        others = {self.colour[o] for o in self.objectives if self.enemy_at.get(o) and o != lid}
        decisive = len(austrian) >= 2 and len(others) < 2
        return 4 + (10 if self.late and decisive else 0)

    def threat(self, lid: str) -> float:
        """The enemy strength reckoned next to a locale."""
        return sum(self.guess(e) for n in self.board.adjacent(lid) for e in self.enemy_at.get(n, []))

    # -- assaults -------------------------------------------------------------

    def leads(self, group: list[dict], target: str, here: str) -> tuple[float, list[dict]]:
        """The best attack strength across ``target``>``here`` (after the terrain), and its leads."""
        approach = self.board.approach(target, here)
        best, chosen = -99.0, []
        for kind in ("infantry", "cavalry"):
            if kind == "cavalry" and approach.cavalry_obstacle:
                continue
            pen = approach.penalty(kind)
            cands = sorted((b for b in group if b["type"] == kind and b["strength"] >= 2
                            and b["strength"] > pen), key=lambda b: -b["strength"])[:approach.width]
            if cands:
                force = sum(b["strength"] for b in cands) - pen
                if force > best:
                    best, chosen = force, cands
        return best, chosen

    def defence(self, target: str, here: str) -> float:
        """What the enemy can show in defence of ``target``>``here``, reckoned."""
        approach = self.board.approach(target, here)
        blockers = sorted((self.guess(e) for e in self.enemy_facing(target, here)), reverse=True)
        leads = blockers[:approach.width]
        strength = sum(leads)
        if self.view["demoralised"][self.foe]:
            strength -= len(leads)
        return strength

    def plan_assaults(self, cands: list) -> None:
        if self.demoralised:
            return
        morale = self.view["morale"][self.side]
        for (here, there), group in self.groups().items():
            if there is None or not self.enemy_facing(there, here) or (here, there) in self.assaulted:
                continue
            approach = self.board.approach(there, here)
            takers = [b for b in group if b["type"] != "artillery"
                      and not (b["type"] == "cavalry" and approach.cavalry_obstacle)]
            takers = sorted(takers, key=lambda b: -b["strength"])[:self.board.locales[there].capacity]
            force, leads = self.leads(takers, there, here)
            if not leads:
                continue
            margin = force - self.defence(there, here)
            need = 0.8 if self.side == "austria" else 1.0
            if morale <= 5:
                need += 1
            if self.late and self.prize(there) >= 10:
                need = 0.3
            if margin < need:
                continue
            rest = [b for b in group if b not in leads]
            if rest:  # one stays on the approach: if the assault fails, it is still blocked
                keep = min(rest, key=lambda b: (b["type"] == "cavalry", b["strength"], b["id"]))
                takers = [b for b in takers if b is not keep]
            held = len(self.enemy_at.get(there, []))
            score = 20 + 3 * margin + held + self.prize(there)
            ids = " ".join(b["id"] for b in takers)
            lead = " ".join(b["id"] for b in leads)
            text = f"ASSAULT {self.appr(here, there)} WITH {ids} LEAD {lead}"
            cands.append((score, 1, [b["id"] for b in takers], "assault", text, ("assault", here, there)))

    # -- movement ----------------------------------------------------------------

    def can_enter(self, group: list[dict], here: str, there: str) -> bool:
        """Whether ``group`` may try to move from ``here`` into ``there`` (not through a blocked approach)."""
        if not self.board.is_adjacent(here, there) or self.enemy_facing(there, here) \
                or (there, here) in self.closed:
            return False
        if self.enemy_at.get(there) and self.board.approach(there, here).cavalry_obstacle \
                and not any(b["type"] == "infantry" for b in group):
            return False
        return True

    def plan_maneuvers(self, cands: list) -> None:
        """Attack maneuvers: into an enemy locale through an open approach."""
        for (here, facing), group in self.groups().items():
            targets = [facing] if facing else [n for n in self.board.adjacent(here) if self.enemy_at.get(n)]
            for there in targets:
                if not self.enemy_at.get(there) or there in self.taken or not self.can_enter(group, here, there):
                    continue
                movers = self.movers(group)
                movers = movers[:self.board.locales[there].capacity]
                if not movers:
                    continue
                enemies = self.enemy_at[there]
                reserve = self.reserve_left(there)
                mine = sum(b["strength"] for b in movers)
                theirs = sum(self.guess(e) for e in enemies)
                gain = self.prize(there)
                if facing or not reserve:  # it cannot be blocked: the enemy retreats, with losses
                    score = 18 + len(enemies) + gain + (self.goal(here) - self.goal(there))
                elif (self.side == "austria" and mine >= theirs or gain >= 10) and not self.demoralised:
                    # it will be blocked: the group then faces the blockers, ready to assault tomorrow,
                    # and the enemy's reserve there is smaller for the next maneuver
                    score = 7 + (mine - theirs) + gain * 0.5
                else:
                    continue
                ids = [b["id"] for b in movers]
                text = f"MOVE {' '.join(ids)} {self.place(here, facing)} -> {self.name(there)}"
                if not facing:
                    text += " IF BLOCKED ADVANCE"
                cands.append((score, 1, ids, "move", text, (here, there, len(movers))))

    def movers(self, group: list[dict]) -> list[dict]:
        out = sorted(group, key=lambda b: (b["type"] == "artillery", -b["strength"], b["id"]))
        return out

    def place(self, here: str, facing: str | None) -> str:
        return self.appr(here, facing) if facing else self.name(here)

    def plan_blocks(self, cands: list) -> None:
        """Block the approaches the enemy faces (else he walks in), or to set up an assault."""
        for (here, facing), group in self.groups().items():
            if facing is not None:
                continue
            for there in self.board.adjacent(here):
                enemies = self.enemy_at.get(there)
                if not enemies:
                    continue
                on_me = [e for e in enemies if e["facing"] == here]
                mine_there = [b for b in self.mine if b["locale"] == here and b["facing"] == there]
                approach = self.board.approach(here, there)
                if on_me and not mine_there:
                    # defend: the best blocks the approach can use, the rest stay in reserve
                    best = [b for b in self.movers(group) if b["type"] != "artillery"][:approach.width] \
                        or group[:1]
                    score = 16 + len(on_me) + (3 if self.board.locales[here].objective else 0)
                    ids = [b["id"] for b in best]
                    text = f"MOVE {' '.join(ids)} {self.name(here)} -> {self.appr(here, there)}"
                    cands.append((score, 1, ids, "block", text, None))
                elif not mine_there and not self.demoralised and self.enemy_facing(there, here):
                    # close up to an approach the enemy blocks, to assault it tomorrow
                    force, leads = self.leads(group, there, here)
                    if not leads:
                        continue
                    margin = force - self.defence(there, here)
                    if margin < (0.5 if self.side == "austria" else 1.5):
                        continue
                    takers = [b for b in group if b["type"] != "artillery"
                              and not (b["type"] == "cavalry" and self.board.approach(there, here).cavalry_obstacle)]
                    takers = takers[:self.board.locales[there].capacity]
                    score = 9 + 2 * margin
                    ids = [b["id"] for b in takers]
                    text = f"MOVE {' '.join(ids)} {self.name(here)} -> {self.appr(here, there)}"
                    cands.append((score, 1, ids, "block", text, None))

    def open_to(self, lid: str) -> list[str]:
        """Enemy locales next to ``lid`` that could walk into it: their approach not blocked by me."""
        mine_on = {b["facing"] for b in self.mine if b["locale"] == lid and b["facing"]}
        return [n for n in self.board.adjacent(lid) if self.enemy_at.get(n) and n not in mine_on]

    def plan_reserves(self, cands: list) -> None:
        """A locale whose blocks all stand on approaches falls to any maneuver by another approach:
        bring one back to the reserve, or a group in from next door."""
        for lid in dict.fromkeys(b["locale"] for b in self.mine):  # in order: a set's order follows the hash seed
            reserve = [b for b in self.mine if b["locale"] == lid and b["facing"] is None]
            if reserve or not self.open_to(lid):
                continue
            value = 4 if self.board.locales[lid].objective else 0
            for (here, facing), group in self.groups().items():
                if here == lid and facing is not None and len(group) >= 2:
                    b = min(group, key=lambda b: (b["strength"], b["id"]))
                    cands.append((11 + value, 1, [b["id"]], "move",
                                  f"MOVE {b['id']} {self.appr(here, facing)} -> {self.name(here)}", None))
                elif facing is None and here != lid and self.board.is_adjacent(here, lid) \
                        and self.room(lid) > 0 and not self.threat(here) > 0:
                    movers = self.movers(group)[:self.room(lid)]
                    ids = [b["id"] for b in movers]
                    cands.append((10 + value, 1, ids, "move",
                                  f"MOVE {' '.join(ids)} {self.name(here)} -> {self.name(lid)}",
                                  (here, lid, len(ids))))

    def plan_marches(self, cands: list) -> None:
        """Group moves one step toward the goal, or away from a stronger enemy."""
        holding = self.side == "austria" and self.hour >= LATE_HOUR
        for (here, facing), group in self.groups().items():
            if facing is not None:
                continue
            movers = self.movers(group)
            mine = sum(b["strength"] for b in movers)
            threat = self.threat(here)
            here_goal = self.goal(here)
            if holding and self.board.locales[here].objective:
                continue  # hold what is held
            if self.side == "france" and self.board.locales[here].objective:
                continue  # a garrison stays
            for there in self.board.adjacent(here):
                if self.enemy_at.get(there) or not self.can_enter(movers, here, there):
                    continue
                n = min(len(movers), self.room(there))
                if n <= 0:
                    continue
                group_there = movers[:n]
                step = here_goal - self.goal(there)
                danger = self.threat(there)
                if self.side == "austria":
                    if step < 0 and here not in self.entry_locales():
                        continue  # no wandering sideways
                    score = 4 + 3 * step + 0.5 * n - 0.2 * max(0, danger - mine)
                    if holding and self.board.locales[there].objective:
                        score += 8
                    if self.days_left <= 8:
                        score += 3 * self.openings(there)
                    if here == self.enemy_rear() or here in self.entry_locales():
                        score += 2  # clear the door for those behind
                else:
                    outnumbered = threat > 1.6 * mine + 1 and threat >= 4
                    if outnumbered:
                        score = 6 + 2 * step + (threat - mine) * 0.5 - 0.3 * danger
                    else:
                        score = 3 + 3 * step + 0.3 * n - 0.5 * max(0, danger - mine - n * 2)
                    if self.board.locales[here].objective and not outnumbered:
                        score -= 3
                if score <= 3.5:
                    continue
                ids = [b["id"] for b in group_there]
                text = f"MOVE {' '.join(ids)} {self.name(here)} -> {self.name(there)}"
                cands.append((score + self.rng.below(100) / 400, 1, ids, "move", text, (here, there, n)))

    def openings(self, lid: str) -> int:
        """How many enemy-held objectives of a colour still needed ``lid`` may walk into
        (their approach toward it not blocked): places to exhaust a reserve from."""
        held = {self.colour[o] for o in self.held}
        if len(held) >= 2:
            return 0
        return sum(1 for o in self.board.adjacent(lid)
                   if self.board.locales[o].objective and self.enemy_at.get(o)
                   and self.colour[o] not in held and not self.enemy_facing(o, lid))

    def entry_locales(self) -> set[str]:
        return {e.locale for e in self.board.entries.values() if e.side == self.side}

    # -- free movement: main-road marches, entries -------------------------------

    def road_marches(self) -> None:
        """Single blocks along the main road toward the goal: free of the command limit."""
        for b in sorted(self.mine, key=lambda b: (self.goal(b["locale"]), b["id"])):
            if b["id"] in self.used or b["id"] not in self.active or b["facing"] is not None:
                continue
            here = b["locale"]
            if self.side == "france" and (self.board.locales[here].objective or self.threat(here) > 0):
                continue
            if self.side == "austria" and self.threat(here) > 0 and self.count.get(here, 0) <= 2:
                continue
            path = self.main_road_path(here, 3)
            if b["type"] == "cavalry":
                # on a road cavalry attack-maneuvers into a locale the enemy entered during the day (by
                # retreating: only next to where he stood), and if blocked it stays in a locale it was
                # only passing through, which may be full (the engine lets that happen: docs/maps.md,
                # "Balance"). Beyond its first step, it goes only where no retreat can come.
                near_enemy = {n for lid in self.enemy_at for n in self.board.adjacent(lid)}
                safe = 1
                while safe < len(path) and path[safe] not in near_enemy:
                    safe += 1
                path = path[:safe]
                while path and self.room(path[-1]) <= 0:
                    path.pop()
            if not path or self.goal(path[-1]) >= self.goal(here):
                continue
            self.free.append(f"ROAD {b['id']} {self.name(here)} -> " + " -> ".join(self.name(p) for p in path))
            self.used.add(b["id"])
            self.count[here] -= 1
            self.count[path[-1]] = self.count.get(path[-1], 0) + 1

    def main_road_path(self, here: str, steps: int) -> list[str]:
        """Along a main road, nearer the goal each step, short of the enemy, ending where there is room."""
        path, cur = [], here
        for _ in range(steps):
            nxt = None
            for n, road in self.board.road_neighbours(cur):
                if road.main and not self.enemy_at.get(n) and self.goal(n) < self.goal(cur) and n not in path:
                    nxt = n
            if nxt is None or any(self.enemy_at.get(m) for m in [nxt]):
                break
            path.append(nxt)
            cur = nxt
        while path and self.room(path[-1]) <= 0:
            path.pop()
        return path

    def entries(self) -> None:
        due = [b for b in self.view["blocks"] if b["status"] == "waiting" and (b["arrives"] or 0) <= self.hour]
        due.sort(key=lambda b: (b["type"] == "artillery", -b["strength"], b["type"] != "cavalry", b["id"]))
        board = self.board
        pontoons = [e for e in board.entries.values() if e.side == self.side and e.kind == "pontoon"]
        roads = [e for e in board.entries.values() if e.side == self.side and e.kind == "road"]
        for entry in roads:
            if self.enemy_at.get(entry.locale):
                continue
            allowed = [b for b in due if not b.get("entries") or entry.id in b["entries"]][:3]
            if not allowed:
                continue
            onward = self.entry_road(entry)
            for i, b in enumerate(allowed):
                due.remove(b)
                path = onward[:2 - i] if i < 2 else []
                while path and self.room(path[-1]) <= 0:
                    path.pop()
                end = path[-1] if path else entry.locale
                if self.room(end) <= 0:
                    continue
                self.count[end] = self.count.get(end, 0) + 1
                tail = "".join(f" -> {self.name(p)}" for p in path)
                self.free.append(f"ENTER {b['id']} BY ROAD AT {entry.name}{tail}")
        if due and pontoons and self.pontoon:
            entry = pontoons[0]
            if not self.enemy_at.get(entry.locale) and self.room(entry.locale) > 0:
                b = next((b for b in due if b["type"] != "artillery"), due[0])
                self.free.append(f"ENTER {b['id']} BY PONTOON")
                self.count[entry.locale] = self.count.get(entry.locale, 0) + 1
                self.commands -= 1

    def entry_road(self, entry) -> list[str]:
        out = []
        for lid in entry_road_onward(self.board, entry)[:2]:
            if self.enemy_at.get(lid) or (self.side == "france" and self.threat(lid) > 0 and out):
                break
            out.append(lid)
        return out

    # -- putting it together -------------------------------------------------------

    def candidates(self) -> list:
        cands: list = []
        self.plan_assaults(cands)
        self.plan_maneuvers(cands)
        self.plan_blocks(cands)
        self.plan_reserves(cands)
        if self.side == "austria" and not self.pontoon and any(
                b["status"] == "waiting" and (b["arrives"] or 0) <= self.hour for b in self.view["blocks"]):
            cands.append((8.5, 1, [], "pontoon", "", None))  # a pontoon entry costs a command too
        self.plan_marches(cands)
        cands.sort(key=lambda c: -c[0])
        return cands

    def choose(self) -> None:
        """Take the best thing to do, then look again (an earlier choice changes what the next is worth)."""
        while self.commands > 0:
            for score, cost, ids, kind, text, effect in self.candidates():
                if cost > self.commands or any(i in self.used for i in ids):
                    continue
                if effect is not None and kind != "assault":
                    here, there, n = effect
                    if not self.enemy_at.get(there) and self.room(there) < n:
                        continue
                break
            else:
                return
            self.commands -= cost
            if kind == "pontoon":
                self.pontoon = True
                continue
            (self.assaults if kind == "assault" else self.moves).append(text)
            self.used.update(ids)
            if kind == "assault":
                self.assaulted.add(effect[1:])
            elif effect is not None:
                here, there, n = effect
                self.count[here] -= n
                self.count[there] = self.count.get(there, 0) + n
                if self.enemy_at.get(there):
                    left = self.reserve_left(there)
                    if left:  # blocked: reckon the enemy blocks with (at least) half his reserve
                        self.drawn[there] = self.drawn.get(there, 0) + max(1, (left + 1) // 2)
                        self.closed.add((there, here))
                    else:  # he retreats: the locale is ours
                        self.taken.add(there)

    def reserve_left(self, lid: str) -> int:
        return max(0, len(self.enemy_facing(lid, None)) - self.drawn.get(lid, 0))

    def bombardments(self) -> list[str]:
        out = []
        for b in self.mine:
            if b["type"] == "artillery" and b["facing"] and b["id"] not in self.used and not b["bombard"] \
                    and self.enemy_at.get(b["facing"]):
                out.append(f"BOMBARD {b['id']} FROM {self.appr(b['locale'], b['facing'])}")
        return out

    def orders(self) -> str:
        lines = [f"# strategist orders for {self.side}, {self.view['hour_label']}"]
        if self.activate:
            lines.append("ACTIVATE " + " ".join(self.activate))
        self.choose()
        if self.pontoon:
            self.commands += 1  # kept for entries()
        self.road_marches()
        self.entries()
        lines += self.assaults + self.moves + self.free + self.bombardments()
        lines += standing_lines(self.side)
        return "\n".join(lines) + "\n"


def standing_lines(side: str) -> list[str]:
    # no STANDING BLOCK: the block decision is left to strategist_chooser, which keeps a reserve
    return ["STANDING ARTILLERY DEFEND", "STANDING PURSUE STRONG", "STANDING INFLICT WEAKEST"]


def strategist_orders(scenario: Scenario, view: dict, seed: int) -> str:
    """Orders text for the side ``view['viewer']`` on its coming day."""
    return keep_accepted(scenario, view, Planner(scenario, view, seed).orders())  # what would not be carried out, left out


def strategist_standing(scenario: Scenario, view: dict, seed: int) -> str:
    """Standing orders for the side ``view['viewer']`` on the enemy's day."""
    return "\n".join([f"# strategist standing orders for {view['viewer']}"] + standing_lines(view["viewer"])) + "\n"


def strategist_chooser(scenario: Scenario, view: dict, seed: int):
    """Answers to the decisions put to ``view['viewer']`` that its orders leave open.

    An enemy attack maneuver is blocked with the stronger half of the
    reserve (at least one block): the rest stays in reserve to block the
    next one, instead of leaving the locale open to a second maneuver by
    another approach. Every other decision takes its documented default.
    """
    strength = {b["id"]: b["strength"] for b in view["blocks"]}
    kinds = {b["id"]: b["type"] for b in view["blocks"]}

    def choose(decision) -> tuple[str, ...]:
        if decision.side != view["viewer"] or decision.kind != "block" or not decision.options:
            return tuple(decision.default)
        ranked = sorted(decision.options, key=lambda bid: (kinds.get(bid) == "artillery",
                                                          -strength.get(bid, 0), bid))
        n = max(1, (len(ranked) + 1) // 2)
        return tuple(ranked[:n])

    return choose
