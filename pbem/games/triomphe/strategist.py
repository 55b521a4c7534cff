"""A player for Triomphe à Marengo that looks before it acts (either side).

It reads only its own side's view, the map and the scenario (the order of
battle and the disc track are printed on the board). Each turn it imagines the
position: its own blocks as they are, every enemy block it sees as an infantry
block of the enemy's mean strength, the enemy's waiting cells as counted. Then
it plays the turn in its head with the engine's own rules (the actions of
march.py, maneuver.py, assault.py, ...): it tries every action it could write
next (reorganisations, entries, road and off-road marches, blocking marches,
maneuver attacks, assaults with all their blocks or the vanguard alone,
bombardments), finishes the imagined turn (reorganisation all-or-none, the
morale update) and scores the result; it keeps the best action, and looks
again from there, until no action improves the score or the orders are spent.
The enemy's answers inside the turn are the documented defaults.

The score (Austria's point of view; France's is its negative): morale discs
(each disc worth more as an army nears zero), strength on both sides, Austrian
blocks east of the objective line at 9 PM (three are a victory, 000 §19) and
the steps the nearest others still need, organised French blocks (§14), and
the threat of the enemy's next turn: a locale whose approaches facing enemy
blocks its reserve cannot all block (§9) may be taken by a maneuver attack,
costing its retreat's reductions and, for Austria, a disc a block (T36).

On the enemy's turn it sends standing orders (``standing``): block a
maneuver only with the blocks that stop it, the best defending vanguard, a
barrage always, a counterattack only to turn a loss, cover the enemy's disc
shortfall from its other locales; and it answers its open decisions
(``choose``): of the enemy's committed discs it takes those furthest from its
own blocks (the others it may win back), and the rest by the documented
defaults. Deterministic: no clock, its own seeded stream only (ties).
"""

from __future__ import annotations

import copy
import heapq
from collections import Counter

from pbem.core.decisions import Decider, Decision
from pbem.core.orders import OrdersError
from pbem.core.rng import Rng

from . import bombardment, morale, reorganisation
from .orders import Orders
from .parse import parse_orders
from .scenario import SIDES, Scenario
from .sequence import ACTIONS, start_of_turn
from .state import Block, State, enemy
from .turn import GROUP, Ended, Turn, Void

DISC = 3.0  # a morale disc, in the score's units
POINT = 1.2  # a strength point
EAST = 8.0  # each of the first three Austrian blocks east of the objective line
STEP = 1.0  # each step one of the nearest Austrian blocks still needs
ORGANISED = 1.0  # an organised French block
ORDER = 0.3  # an order spent: free actions first
THREAT = 0.5
PRESSURE = 0.3
BARRED = 4  # the steps a locale France holds counts for, on the way to the line
PUSH = 0.4  # each step any Austrian block still needs (the army comes on and forward)
CHANCE = 0.35  # the mover's own chances next turn, after the enemy has moved  # how likely the enemy takes a locale it can take
STEPS = 8  # actions looked at a turn (orders cap the paid ones)
KEEP = 12  # candidates tried again after the first step (the best of the first look)


def disc_value(m: int) -> float:
    """Discs matter more near zero: the army is demoralised at 0 (000 §19)."""
    return DISC * m + 12.0 * (1 - 0.75 ** max(m, 0))


def accepted(scenario: Scenario, state: State, side: str, text: str) -> str:
    """``text`` without the lines the parser refuses in ``state`` (the refused lines first, then
    any the parser refuses once those are gone)."""
    lines = text.split("\n")
    while lines:
        try:
            parse_orders(scenario, state, side, "\n".join(lines))
            return "\n".join(lines)
        except OrdersError as exc:
            bad = {p.line for p in exc.problems}
            kept = [line for i, line in enumerate(lines, 1) if i not in bad]
            if len(kept) == len(lines):
                return ""
            lines = kept
    return ""


class Strategist:
    def __init__(self, scenario: Scenario, side: str, seed: int = 0):
        self.sc = scenario
        self.board = scenario.board
        self.side = side
        self.foe = enemy(side)
        self.rng = Rng(seed)
        line = scenario.terrain.east_of_line
        self.to_line = {lid: 0 if lid in line else min(self.board.distance(lid, t) for t in line)
                        for lid in self.board.locales}
        entry = [self.board.entries[e].locale for c in scenario.cells.values() if c.side == "austria"
                 for e in c.entries]
        self.waiting_steps = (min(self.to_line[x] for x in entry) + 2) if entry else 9
        mean = {}
        for s in SIDES:
            strengths = [b.strength for b in scenario.blocks if b.side == s and b.type != "artillery"]
            mean[s] = max(1, round(sum(strengths) / len(strengths))) if strengths else 2
        self.guess = mean[self.foe]

    # -- the imagined position

    def imagine(self, view: dict) -> State:
        st = State(day=view["day"])
        for d in view["blocks"]:
            if d["status"] == "eliminated":
                continue
            b = Block(id=d["id"], side=d["side"], name=d["name"], type=d["type"], strength=d["strength"],
                      locale=d["locale"], facing=d["facing"], status=d["status"], cell=d["cell"],
                      arrives=d["arrives"], disorganised=d["disorganised"], bombard=d["bombard"])
            if b.cell in self.sc.cells:
                b.entries = tuple(self.sc.cells[b.cell].entries)
            if b.bombard is not None:
                b.bombard_days = (view["day"] - 1,)
            st.blocks[b.id] = b
        for i, e in enumerate(view["enemy"]):
            shown = e.get("revealed") or {}
            bid = f"?{i}"
            st.blocks[bid] = Block(id=bid, side=self.foe, name=bid, type=shown.get("type", "infantry"),
                                   strength=shown.get("strength", self.guess), locale=e["locale"],
                                   facing=e["facing"], disorganised=e["disorganised"],
                                   bombard=e["facing"] if shown else None)
        n = 0
        for cell in view["waiting"][self.foe]:
            for _ in range(cell["count"]):
                bid = f"?w{n}"
                n += 1
                spec = self.sc.cells.get(cell["cell"])
                st.blocks[bid] = Block(id=bid, side=self.foe, name=bid, type="infantry", strength=self.guess,
                                       status="waiting", cell=cell["cell"],
                                       arrives=spec.hour if spec else None,
                                       entries=tuple(spec.entries) if spec else ())
        for s in SIDES:
            st.uncommitted[s] = view["uncommitted"][s]
            st.committed[s] = dict(view["committed"][s])
            st.received[s] = view["morale"][s]
            st.lost[s] = 0
            st.demoralised[s] = bool(view["demoralised"][s])
        return st

    @staticmethod
    def clone(turn: Turn) -> Turn:
        st2 = turn.st.copy()  # the blocks, discs and moves made its own, and its own index of the blocks
        t2 = copy.copy(turn)
        t2.st = st2
        t2.decider = Decider()
        t2.events, t2.moves, t2.revealed = [], [], []
        t2.acted, t2.closed, t2.no_road_into = set(turn.acted), set(turn.closed), set(turn.no_road_into)
        t2.maneuvers = Counter(turn.maneuvers)
        t2.crossings = {k: dict(v) for k, v in turn.crossings.items()}
        t2.road_attacks = set(turn.road_attacks)
        t2.organised = {k: set(v) for k, v in turn.organised.items()}
        return t2

    def begin(self, view: dict) -> Turn:
        """The imagined turn after its start (discs of the hour, approach recovery, due bombardments)."""
        st = self.imagine(view)
        turn = Turn(self.sc, st, Orders(self.side), Decider())
        try:
            start_of_turn(turn)
            for b in st.side_blocks(self.side):
                if b.disorganised:
                    turn.start_disorganised.setdefault(b.locale, set()).add(b.id)
            for b in bombardment.due(turn):
                try:
                    bombardment.complete(turn, b)
                except Void:
                    pass
        except Ended:
            pass
        return turn

    def finish(self, turn: Turn) -> State:
        """The imagined end of the turn: reorganisation all-or-none, the morale update."""
        t2 = self.clone(turn)
        try:
            reorganisation.all_or_none(t2)
            morale.update(t2)
        except Ended:
            pass
        return t2.st

    # -- the score

    def score(self, st: State) -> float:
        """The position for ``self.side`` (higher is better)."""
        if st.over and st.winner:
            return 1000.0 if st.winner == self.side else -1000.0
        board, sc = self.board, self.sc
        a = disc_value(st.morale("austria")) - disc_value(st.morale("france"))
        strength = {s: 0 for s in SIDES}
        free = self.free_steps(st)
        steps = []
        east = 0
        organised = 0
        for b in st.blocks.values():
            if b.status == "eliminated":
                continue
            strength[b.side] += b.strength
            if b.side == "austria":
                d = free.get(b.locale, 12) if b.on_map else self.waiting_steps
                if d == 0:
                    east += 1
                else:
                    steps.append(d)
            elif b.on_map and not b.disorganised:
                organised += 1
        a += POINT * (strength["austria"] - strength["france"])
        late = 1 + 2 * max(0, sc.hour(st.day) - sc.first_hour) / sc.rounds  # 1 at 6 AM, 3 at 9 PM
        a += late * (EAST * min(east, 3) + 2.0 * min(max(east - 3, 0), 3))
        steps.sort()
        a -= late * STEP * sum(steps[:max(0, 5 - east)]) + PUSH * sum(steps)
        a -= ORGANISED * organised
        if east or min(steps, default=9) <= 2:
            a += PRESSURE * self.pressure(st, free)
        mine = self.side
        a_threat = self.threat(st, "austria")
        f_threat = self.threat(st, "france")
        if mine == "austria":
            a += -a_threat + CHANCE * f_threat
        else:
            a += -CHANCE * a_threat + f_threat
        return a if mine == "austria" else -a

    def free_steps(self, st: State) -> dict[str, int]:
        """Steps to the objective line, a locale France holds counting as BARRED steps (it must be
        fought through or gone round)."""
        held = st.held_by("france")
        dist = {lid: (BARRED if lid in held else 0) for lid in self.sc.terrain.east_of_line}
        queue = [(d, lid) for lid, d in dist.items()]
        heapq.heapify(queue)
        while queue:
            d, lid = heapq.heappop(queue)
            if d > dist[lid]:
                continue
            for n in self.board.adjacent(lid):
                nd = d + 1 + (BARRED - 1 if lid in held else 0)
                if nd < dist.get(n, 99):
                    dist[n] = nd
                    heapq.heappush(queue, (nd, n))
        return dist

    def pressure(self, st: State, free: dict[str, int]) -> float:
        """How far the French fighting blocks are from the Austrians at or near the line (more is
        better for Austria): France must go and push them back before 9 PM."""
        targets = [b.locale for b in st.side_blocks("austria") if free.get(b.locale, 12) <= 1]
        if not targets:
            return 0.0
        total = 0.0
        for b in st.side_blocks("france"):
            if b.type != "artillery":
                total += min(6, min(self.board.distance(b.locale, t) for t in targets))
        return total

    def threat(self, st: State, side: str) -> float:
        """What ``side`` may lose to maneuver attacks in the enemy's next turn (§9, §13)."""
        board = self.board
        foe = enemy(side)
        places: dict[str, list[Block]] = {}
        attackers: Counter = Counter()  # (locale, facing) -> enemy blocks that may attack from there
        for b in st.blocks.values():
            if not b.on_map:
                continue
            if b.side == side:
                places.setdefault(b.locale, []).append(b)
            elif b.type != "artillery" and not b.disorganised:
                attackers[(b.locale, b.facing)] += 1
        total = 0.0
        for lid, blocks in places.items():
            need = 0
            sure = False
            for n in board.adjacent(lid):
                on_approach, in_reserve = attackers.get((n, lid), 0), attackers.get((n, None), 0)
                if not on_approach and not in_reserve:
                    continue
                width = board.approach(lid, n).width
                short = max(0, width - sum(1 for b in blocks if b.facing == n))
                if on_approach and short:
                    sure = True  # an attack from an approach gets no response (§9 step 2)
                need += short
            reserve = sum(1 for b in blocks if b.facing is None)
            assaulted = any(self.margin(st, n, lid, foe) > 0 for n in {b.facing for b in blocks if b.facing})
            if (need > reserve and need) or sure or assaulted:
                loss = POINT * min(len(blocks), 2) + sum(POINT * b.strength for b in blocks if b.type == "artillery")
                loss += DISC * min(len(blocks), 2)
                if side == "austria":
                    loss += DISC * 0.5 * len(blocks)
                total += THREAT * loss
        return total

    def margin(self, st: State, locale: str, toward: str, side: str) -> int:
        """The result of ``side``'s best assault from ``locale``>``toward`` as it stands (§11 step 6),
        the defender's vanguard and one counterattack counted; -99 when there is none."""
        attackers = sorted((b.strength for b in st.at(locale, toward, side)
                            if b.type != "artillery" and b.strength >= 2), reverse=True)
        defenders = sorted((b.strength for b in st.at(toward, locale, enemy(side)) if b.type != "artillery"),
                           reverse=True)
        if not attackers or not defenders:
            return -99
        width = self.board.approach(toward, locale).width
        lead = attackers[:width]
        counter = max(0, defenders[width] - len(lead)) if len(defenders) > width else 0
        return sum(lead) - self.board.approach(toward, locale).penalty("infantry") - sum(defenders[:width]) - counter

    # -- the actions it could write next

    def name(self, lid: str) -> str:
        return self.board.locales[lid].name

    def candidates(self, turn: Turn) -> list[str]:
        st, board, side = turn.st, self.board, self.side
        foe_at: Counter = Counter()
        foe_on: Counter = Counter()
        for b in st.blocks.values():
            if b.on_map and b.side != side:
                foe_at[b.locale] += 1
                if b.facing:
                    foe_on[(b.locale, b.facing)] += 1
        out: list[str] = []
        fresh = [b for b in st.side_blocks(side) if b.id not in turn.acted]
        # reorganisation (France): every disorganised block of a locale, one order each
        if side == "france":
            todo = {lid: ids for lid, ids in sorted(self._disorganised(st).items())
                    if not set(ids) & turn.organised.get(lid, set())}
            for lid, ids in todo.items():
                out.append("\n".join(f"REORGANISE {x}" for x in ids))
            singles = [ids[0] for ids in todo.values() if len(ids) == 1]
            for i in range(len(singles) - 1):
                out.append(f"REORGANISE {singles[i]} {singles[i + 1]}")
        # entries
        seen_kind = set()
        for b in st.side_blocks(side, on_map=False):
            if b.status != "waiting" or (b.arrives or 0) > turn.hour or b.id in turn.acted:
                continue
            key = (b.cell, b.type, b.strength)
            if key in seen_kind:
                continue
            seen_kind.add(key)
            for e in b.entries:
                point = board.entries[e]
                if point.kind == "pontoon":
                    if not turn.pontoon:
                        out.append(f"ENTER {b.id} BY PONTOON")
                    continue
                for path in self.road_paths(point.locale, 2, foe_at):
                    out.append(f"ENTER {b.id}" + "".join(f" -> {self.name(p)}" for p in path))
        groups: dict[tuple, list[Block]] = {}
        for b in fresh:
            groups.setdefault((b.locale, b.facing), []).append(b)
        for (lid, facing), group in sorted(groups.items(), key=lambda g: (g[0][0], g[0][1] or "")):
            fit = sorted((b for b in group if not b.disorganised),
                         key=lambda b: (b.type == "artillery", -b.strength, b.id))
            if not fit:
                continue
            fighters = [b for b in fit if b.type != "artillery"]
            subsets = self.subsets(fit)
            if facing is None:
                for n in board.adjacent(lid):
                    if foe_at.get(n):
                        width = board.approach(lid, n).width
                        have = len(st.at(lid, n, side))
                        for k in range(1, min(width - have, len(fit)) + 1):
                            out.append(f"MARCH {' '.join(b.id for b in fit[:k])} {self.name(lid)} -> "
                                       f"{self.name(lid)}>{self.name(n)}")
                        for ids in self.subsets(fighters):
                            out.append(f"ATTACK {' '.join(ids)} {self.name(lid)} -> {self.name(n)}")
                    else:
                        for ids in subsets:
                            out.append(f"MARCH {' '.join(ids)} {self.name(lid)} -> {self.name(n)}")
                kinds = set()
                for b in fit:
                    if (b.type, b.strength) in kinds:
                        continue
                    kinds.add((b.type, b.strength))
                    for path in self.road_paths(lid, 3, foe_at):
                        if len(path) > 1:
                            out.append(f"ROAD {b.id} {self.name(lid)}" + "".join(f" -> {self.name(p)}" for p in path))
            else:
                out.append(f"MARCH {' '.join(b.id for b in fit)} {self.name(lid)}>{self.name(facing)} -> "
                           f"{self.name(lid)}")
                guns = [b for b in fit if b.type == "artillery" and b.bombard is None]
                if guns and foe_at.get(facing):
                    out.append(f"BOMBARD {guns[0].id} FROM {self.name(lid)}>{self.name(facing)}")
                if foe_on.get((facing, lid)):
                    leads = [b for b in fighters if b.strength >= 2]
                    if leads:
                        ids = [b.id for b in fit[:GROUP]]
                        out.append(f"ASSAULT {self.name(lid)}>{self.name(facing)} WITH {' '.join(ids)} LEAD BEST")
                        out.append(f"ASSAULT {self.name(lid)}>{self.name(facing)} WITH BEST")
                elif foe_at.get(facing):
                    for ids in self.subsets(fighters):
                        out.append(f"ATTACK {' '.join(ids)} {self.name(lid)}>{self.name(facing)} -> "
                                   f"{self.name(facing)}")
        return out

    @staticmethod
    def _disorganised(st: State) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {}
        for b in st.side_blocks("france"):
            if b.disorganised:
                out.setdefault(b.locale, []).append(b.id)
        return out

    @staticmethod
    def subsets(blocks: list[Block]) -> list[list[str]]:
        """The groups worth trying: the strongest 1, 2, 3, and each type alone."""
        out = []
        for k in range(1, min(GROUP, len(blocks)) + 1):
            out.append([b.id for b in blocks[:k]])
        for kind in ("infantry", "cavalry"):
            same = [b.id for b in blocks if b.type == kind][:GROUP]
            if same and same not in out:
                out.append(same)
        return out

    def road_paths(self, start: str, steps: int, foe_at) -> list[list[str]]:
        """Road paths from ``start`` (excluded) of 1 to ``steps`` crossings, one a destination."""
        best: dict[str, list[str]] = {}
        frontier = [[start]]
        for _ in range(steps):
            nxt = []
            for path in frontier:
                for n, _road in self.board.road_neighbours(path[-1]):
                    if n in path or foe_at.get(n):
                        continue
                    p = path + [n]
                    nxt.append(p)
                    if n not in best:
                        best[n] = p[1:]
            frontier = nxt
        return [best[k] for k in sorted(best)]

    # -- the turn

    def orders(self, view: dict) -> str:
        self.start = self.imagine(view)  # the parser reads each line against the turn's start (a block acts once)
        self.parsed: dict[str, list] = {}
        turn = self.begin(view)
        lines: list[str] = []
        now = self.score(self.finish(turn))
        short: list[str] | None = None  # after the first look, only the best few are tried again
        seen: set[str] = set()
        for _ in range(STEPS):
            if turn.st.over:
                break
            best = None
            tried = []
            now_possible = self.candidates(turn)
            if short is not None:  # the best few of the last look, and what has just become possible
                now_possible = short + [text for text in now_possible if text not in seen]
            seen.update(now_possible)
            for text in now_possible:
                t2 = self.try_line(turn, text)
                if t2 is None:
                    continue
                value = self.score(self.finish(t2) if not t2.st.over else t2.st) - ORDER * (t2.spent - turn.spent)
                key = (value, self.rng.below(1000))
                tried.append((key, text))
                if best is None or key > best[0]:
                    best = (key, text, t2)
            if best is None or best[0][0] <= now + 0.05:
                break
            short = [text for _key, text in sorted(tried, reverse=True)[1:KEEP + 1]]
            now = best[0][0] + ORDER * (best[2].spent - turn.spent)
            lines.append(best[1])
            turn = best[2]
        return "\n".join(self.checked(lines) + self.standing_lines()) + "\n"

    def checked(self, lines: list[str]) -> list[str]:
        """The lines the parser accepts together (each was read alone): a line it refuses in
        company (a reorganisation the turn's others leave incomplete, T39) is left out."""
        return accepted(self.sc, self.start, self.side, "\n".join(lines)).split("\n") if lines else []

    def try_line(self, turn: Turn, text: str) -> Turn | None:
        if text not in self.parsed:
            try:
                # read alone against the start: the turn's check waits for the whole text (checked)
                self.parsed[text] = parse_orders(self.sc, self.start, self.side, text, checks=False).orders
            except OrdersError:
                self.parsed[text] = []
        orders = self.parsed[text]
        if not orders:
            return None
        t2 = self.clone(turn)
        try:
            for order in orders:
                ACTIONS[type(order)](t2, order)
        except Void:
            return None
        except Ended:
            return t2
        return t2

    # -- the enemy's turn

    def standing_lines(self) -> list[str]:
        return ["STANDING RESPOND ALL BLOCKING", "STANDING VANGUARD ALL BEST", "STANDING BARRAGE ALWAYS",
                "STANDING COUNTERATTACK TURN", "STANDING COVER ALWAYS"]

    def standing(self) -> str:
        return "\n".join(self.standing_lines()) + "\n"

    def chooser(self, view: dict):
        mine = [b["locale"] for b in view["blocks"] if b["status"] == "map"]

        def choose(decision: Decision):
            if decision.side != self.side:
                return None
            if decision.kind == "disc_loss" and mine:
                lids = [o for o in decision.options if o in self.board.locales]
                if lids:
                    return (max(lids, key=lambda lid: (min(self.board.distance(lid, x) for x in mine), lid)),)
            return None

        return choose
