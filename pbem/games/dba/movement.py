"""Movement — «Движение», with «Препятствия и пересеченная местность вообще» and «Интерпретации ситуаций».

    «Не забудьте добавить 1" ко всем перемещениям в колонне по дороге. Элемент не может двигаться, если он
    находится в 3" зоне от вражеского отряда (враг не в состоянии паники), который не находится в контакте с
    данным элементом – кроме как для сближения с вражеским отрядом. Элемент не может двигаться, если он
    находится в контакте с вражеским элементом. … Элемент не может войти в контакт с флангом другого элемента,
    кроме как в ситуации, когда на начало игрового тура он находился позади элемента. …»

:func:`allowance` is how far an element may go along a path; :func:`check_move` says why a move is illegal
(or None); :func:`find_path` finds the shortest way around the ground an element may not enter (a visibility
graph over the corners of the obstacles, every test by shapely); :func:`advance` moves an element along a
path as far as it may go.
"""

from __future__ import annotations

import heapq
import math
from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.ops import substring, unary_union

from .bases import share_at_most, sweep_shares_at_most
from .elements import Element, in_inches, inches, reach
from .lang import Text
from .lang import say as T  # a Text: read in each seat's language
from .table import SweptGround, Table

ZONE = inches(3)          # «в 3" зоне от вражеского отряда»
ROAD_BONUS = inches(1)    # «добавить 1" ко всем перемещениям в колонне по дороге»
ROUGH_CAP = {"light_cavalry": inches(3), "staff": inches(3)}   # every other type: 2" (D3)
ROUGH_CAP_DEFAULT = inches(2)
COLUMNISH = ("column", "limbered")   # formations that take the road bonus (D4)


def bearing(a: Point, b: Point) -> int:
    """The compass bearing from a to b in whole degrees (0 north, 90 east)."""
    return round(math.degrees(math.atan2(b.x - a.x, b.y - a.y))) % 360


def base_rate(e: Element) -> int:
    """Tenths a turn on good going: by troop type and formation («Боевые факторы отрядов»)."""
    t = e.type
    if e.formation == "square":
        return 0                  # D21: a square does not move; it changes formation first
    if e.troop == "dragoons" and e.formation == "dismounted":
        return inches(3)          # D22: dismounted dragoons move as infantry in line
    if e.troop == "infantry" and e.formation == "column":
        return t.move_column
    return t.move


def allowance(table: Table, e: Element, path: LineString) -> int:
    """How far ``e`` may go along ``path`` this turn: its rate, +1" in column (or limbered) when the whole path
    is on roads, capped in difficult going or across a stream off a road (3" light cavalry, 2" the rest)."""
    rate = base_rate(e)
    on_road = table.terrain.path_on_road(path) if path.length else table.terrain.on_road(e.front)
    if e.formation in COLUMNISH and on_road:
        rate += ROAD_BONUS
    if not on_road and path.length and _rough_path(table, e, path):
        rate = min(rate, ROUGH_CAP.get(e.troop, ROUGH_CAP_DEFAULT))
    return rate


def least_allowance(e: Element) -> int:
    """The least :func:`allowance` of ``e`` on any path: its rate, or the cap in difficult going when that is less
    (the road's inch only adds). A path no longer than this is within its allowance whatever the ground, so
    :func:`check_move` asks the ground only of a longer one."""
    return min(base_rate(e), ROUGH_CAP.get(e.troop, ROUGH_CAP_DEFAULT))


def _rough_path(table: Table, e: Element, path: LineString) -> bool:
    return table.terrain.path_difficult(path) or table.terrain.difficult(e.shape)


def obstacles(table: Table, e: Element):
    """The ground ``e`` may not enter: impassable features; for artillery also difficult going off the roads
    («Труднопроходимую местность не может пересечь артиллерия, которая должна воспользоваться дорогами»). Built
    once per terrain and kind (artillery or not), prepared, and kept (Terrain.kept)."""
    artillery = e.arm == "artillery"
    return table.terrain.kept(("obstacles", artillery), lambda: _obstacles(table.terrain, artillery))


def _obstacles(terrain, artillery: bool):
    parts = [f.shape for f in terrain.closed()]
    if artillery:
        rough = [f.shape for f in terrain.features if f.type.difficult]
        if rough:
            area = unary_union(rough)
            road = terrain._road_area
            parts.append(area.difference(road) if road is not None else area)
    block = unary_union(parts) if parts else Polygon()
    shapely.prepare(block)
    return block


def passes_through(mover: Element, other: Element) -> bool:
    """Whether ``mover`` may pass through ``other`` («Интерпретации ситуаций»): never an enemy; line infantry
    and any cavalry through light infantry; light infantry and cavalry through any friends."""
    if other.side != mover.side:
        return False
    if mover.troop == "light_infantry" or mover.arm == "cavalry":
        return True
    return mover.troop == "infantry" and other.troop == "light_infantry"


@dataclass
class Around:
    """What :func:`check_move` asks of the enemy around ``e`` where it stands, whatever the path: whether it is
    in contact, the enemies not fleeing, those within 3" (``near``) and the faster ones within their move
    (``chasers``). Worked out once for the tries of one move (executor.move_element), the table unchanged."""

    engaged: bool
    enemies: list = field(default_factory=list)
    near: list = field(default_factory=list)
    chasers: list = field(default_factory=list)


def around(table: Table, e: Element) -> Around:
    if table.engaged(e):
        return Around(True)
    enemies = [o for o in table.enemies_of(e) if not o.fleeing]
    near = [o for o in enemies if table.near(e, o, ZONE)]
    close = {x.id for x in near}
    rate_e = base_rate(e)
    chasers = [o for o in enemies if o.id not in close and base_rate(o) > rate_e and table.near(e, o, base_rate(o))]
    return Around(False, enemies, near, chasers)


def check_move(table: Table, e: Element, path: LineString, facing: int | None = None,
               start: Element | None = None, seen: Around | None = None) -> Text | None:
    """Why moving ``e`` along ``path`` (ending facing ``facing``) is not allowed, or None. ``start``: where ``e``
    stood at the start of the turn (for flank and rear contact), by default where it stands. ``seen``: what
    :func:`around` found of ``e`` as it stands (worked out here when not given)."""
    start = start or e
    if e.fleeing:
        return T("%(element)s is fleeing: it flees, it is not moved", element=e.id)
    seen = seen or around(table, e)
    if seen.engaged:
        return T("%(element)s is in contact with the enemy", element=e.id)
    enemies, near, chasers = seen.enemies, seen.near, seen.chasers
    coords = path.coords
    ex, ey = coords[-1]
    face = e.facing if facing is None else facing
    if path.length:
        if facing is None:
            px, py = coords[-2]
            face = round(math.degrees(math.atan2(ex - px, ey - py))) % 360  # bearing(Point(px, py), Point(ex, ey))
    moved = e.moved_to(round(ex), round(ey), face)
    if near and path.length and not any(moved.shape.distance(o.shape) < e.shape.distance(o.shape) for o in near):
        # the enemy is not named: the seat may not have seen it (behind woods, in a town)
        return T("%(element)s is within 3\" of the enemy: it may only move to close with the enemy", element=e.id)
    if chasers and path.length:
        away = [o for o in chasers if moved.shape.distance(o.shape) > e.shape.distance(o.shape) + 0.5]
        if away:
            # the enemy is not named: the seat may not have seen it (behind woods within its move)
            return T("%(element)s may not break off from a faster enemy within its move (%(quote)s)", element=e.id,
                     quote="«Элемент не может оторваться от вражеского элемента, который двигается быстрее»")
    if not table.area.contains(moved.shape):  # moved.shape.within(table.area), asked of the prepared table
        return T("%(element)s would leave the table", element=e.id)
    block = obstacles(table, e)
    # the ground the base sweeps lies in this box: the path's grown by half the frontage, the base where it
    # stands and where it ends; the swept ground itself is built only when something stands in the box
    x0, y0, x1, y1 = path.bounds
    half = e.frontage / 2
    re, rm = reach(e), reach(moved)
    box = (min(x0 - half, e.x - re, moved.x - rm) - 1, min(y0 - half, e.y - re, moved.y - rm) - 1,
           max(x1 + half, e.x + re, moved.x + rm) + 1, max(y1 + half, e.y + re, moved.y + rm) + 1)
    swept = SweptGround(path, e.frontage, e.shape, moved.shape)  # the path grown by half the frontage, both bases
    if not block.is_empty and block.intersects(shapely.box(*box)):
        if swept.overlaps(block, shape_first=True):
            what = T("difficult ground off a road") if e.arm == "artillery" else T("impassable ground")
            return T("%(element)s may not cross %(ground)s", element=e.id, ground=what)
    if path.length > least_allowance(e) + 0.5:  # else within its allowance on any ground: the ground not asked
        rate = allowance(table, e, path)
        if path.length > rate + 0.5:
            return T("%(element)s may move %(rate)s\" here, not %(length)s\"", element=e.id, rate=in_inches(rate),
                     length=round(path.length / 10, 1))
    mx, my, mr = moved.x, moved.y, reach(moved) + 1
    for o in table.on_table():
        if o.id == e.id:
            continue
        r, dx, dy = mr + reach(o), mx - o.x, my - o.y  # Table.overlap(moved, o), its bound written out
        if dx * dx + dy * dy <= r * r and moved.shape.intersects(o.shape) and not share_at_most(moved, o, 0.5) \
                and moved.shape.intersection(o.shape).area > 0.5:  # apart, or side by side: no overlap to measure
            return T("%(element)s would end on %(other)s", element=e.id, other=o.id)
        r = reach(o)
        if o.x + r < box[0] or o.x - r > box[2] or o.y + r < box[1] or o.y - r > box[3] or passes_through(e, o):
            continue
        # the swept ground is the path grown by half the frontage and the base at both ends: a base farther than
        # that from the path and off both bases cannot overlap it
        if path.distance(o.shape) > half + 1 and not e.shape.intersects(o.shape) \
                and not moved.shape.intersects(o.shape):
            continue
        if not sweep_shares_at_most(coords, half, e, moved, o, 0.5) and swept.overlaps(o.shape):
            return T("%(element)s may not pass through %(other)s", element=e.id, other=o.id)
    for o in enemies:
        edge = Table.contact_edge(moved, o)
        if edge in ("left", "right", "rear") and not Table.behind(o, start):
            if edge == "rear":
                return T("%(element)s may not contact the rear of %(other)s: it did not start the turn behind it",
                         element=e.id, other=o.id)
            return T("%(element)s may not contact the flank of %(other)s: it did not start the turn behind it",
                     element=e.id, other=o.id)
    return None


@dataclass
class Ways:
    """The ground a kind of base may not enter (:func:`obstacles`), grown by its half frontage, and the corners a
    path goes round: the same for every element of that kind and frontage on a table, so built once and kept
    (Terrain.kept), with which straight stretches between two corners are clear (``edges``)."""

    block: object
    grown: object = None        # the block grown by half the frontage and a tenth: a path's corners are on it
    core: object = None         # the block grown by half the frontage less a twentieth: a stretch may not cross it
    inner: object = None        # the core shrunk by DEEP (runs_deep_into)
    corners: list = field(default_factory=list)
    edges: dict = field(default_factory=dict)   # (corner, corner) -> clear

    def clear(self, a, ends) -> list[bool]:
        """Whether each straight stretch from ``a`` to one of ``ends`` keeps the base off the block: it does not
        cross ``core`` (or runs along it for less than a hundredth), asked of every stretch at once."""
        return self._clear([[a, b] for b in ends])

    def clear_from(self, starts, b) -> list[bool]:
        """Whether each straight stretch from one of ``starts`` to ``b`` keeps the base off the block."""
        return self._clear([[a, b] for a in starts])

    def _clear(self, stretches) -> list[bool]:
        if not stretches:
            return []
        lines = shapely.linestrings(stretches)
        hit = shapely.intersects(self.core, lines)
        out = ~hit
        if hit.any():
            idx = np.flatnonzero(hit)
            idx = idx[~runs_deep_into(self.core, self.inner, lines[idx])]
            out[idx] = shapely.length(shapely.intersection(lines[idx], self.core)) < 0.01
        return out.tolist()


DEEP = 0.1  # tenths: how far inside its ground a stretch must reach for runs_deep_into to answer


def runs_deep_into(ground, inner, lines):
    """For stretches that meet ``ground``, whether each surely runs more than 0.01 (tenths) inside it
    (``length(intersection(line, ground)) >= 0.01`` for those answered True, without building the intersection):
    a stretch of at least two :data:`DEEP` that meets ``inner`` (``ground`` shrunk by :data:`DEEP`) passes a point
    :data:`DEEP` deep in the ground, and runs at least :data:`DEEP` (less the buffer's chords, 1/2000 of it) inside
    it on one side of that point. False says nothing (shapely measures those)."""
    if inner is None or inner.is_empty:
        return np.zeros(len(lines), dtype=bool)
    return (shapely.length(lines) >= 2 * DEEP) & shapely.intersects(inner, lines)


def ways(table: Table, e: Element) -> Ways:
    artillery, frontage = e.arm == "artillery", e.frontage

    def build() -> Ways:
        block = obstacles(table, e)
        if block.is_empty:
            return Ways(block)
        grown = block.buffer(frontage / 2 + 1, join_style="mitre")
        core = block.buffer(frontage / 2 - 0.5) if frontage > 2 else block
        inner = core.buffer(-DEEP)
        shapely.prepare(grown)
        shapely.prepare(core)
        shapely.prepare(inner)
        inside = table.area.buffer(1)
        shapely.prepare(inside)
        corners = [c for p in getattr(grown, "geoms", [grown]) for c in p.exterior.coords[:-1]
                   if inside.contains(Point(c))]
        return Ways(block, grown, core, inner, corners)

    return table.terrain.kept(("ways", artillery, frontage, table.width, table.depth), build)


def find_path(table: Table, e: Element, goal: Point) -> LineString | None:
    """The shortest path for ``e``'s front from where it stands to ``goal`` that keeps its base off the ground
    it may not enter (:func:`obstacles`), or None when there is none: Dijkstra over the visibility graph of the
    start, the goal and the corners of that ground grown by half the frontage (:class:`Ways`; the stretches
    between two corners are asked once per terrain, those from the start and to the goal once a call)."""
    start = e.front
    a, b = (start.x, start.y), (goal.x, goal.y)
    w = ways(table, e)
    if w.block.is_empty:
        return shapely.linestrings([a, b])  # LineString([start, goal]), without its checks of the argument
    if w.grown.contains(goal):
        return None
    if w.clear(a, [b])[0]:
        return shapely.linestrings([a, b])
    nodes = [a, b] + w.corners
    edges = w.edges
    to_goal: list[bool] | None = None
    dist = {0: 0.0}
    prev: dict[int, int] = {}
    heap = [(0.0, 0)]
    done = set()
    while heap:
        d, i = heapq.heappop(heap)
        if i in done:
            continue
        done.add(i)
        if i == 1:
            break
        todo = [j for j in range(len(nodes)) if j not in done and j != i]
        if i == 0:  # from the start: every stretch asked at once
            ok = dict(zip(todo, w.clear(a, [nodes[j] for j in todo])))
        else:  # from a corner: to the goal (asked for every corner at once, the first time), to the corners kept
            if to_goal is None:
                to_goal = w.clear_from(w.corners, b)
            missing = [j for j in todo if j > 1 and (i - 2, j - 2) not in edges]
            for j, clear in zip(missing, w.clear(nodes[i], [nodes[j] for j in missing])):
                edges[(i - 2, j - 2)] = clear
            ok = {j: (to_goal[i - 2] if j == 1 else edges[(i - 2, j - 2)]) for j in todo}
        for j in todo:
            if not ok[j]:
                continue
            nd = d + math.dist(nodes[i], nodes[j])
            if nd < dist.get(j, math.inf) - 1e-9:
                dist[j] = nd
                prev[j] = i
                heapq.heappush(heap, (nd, j))
    if 1 not in prev:
        return None
    way, i = [1], 1
    while i != 0:
        i = prev[i]
        way.append(i)
    return shapely.linestrings([nodes[k] for k in reversed(way)])


def advance(table: Table, e: Element, path: LineString, budget: int | None = None) -> tuple[int, int, int]:
    """Where ``e`` gets along ``path`` with ``budget`` tenths (its :func:`allowance` by default): the point and
    the facing of the last stretch travelled (its facing kept when it does not move)."""
    go = allowance(table, e, path) if budget is None else budget
    if path.length == 0 or go <= 0:
        return e.x, e.y, e.facing
    return end_of(e, list(substring(path, 0, min(go, path.length)).coords))


def stretch(path: LineString, go: float) -> list[tuple[float, float]]:
    """The points of the first ``go`` tenths of ``path`` (``0 < go``, ``path`` of some length): the coordinates of
    ``shapely.ops.substring(path, 0, go)``, as it finds them (its ends interpolated by GEOS, the corners between
    them where its running sum of the stretches' lengths puts them), without its detours."""
    ends = shapely.get_coordinates(shapely.line_interpolate_point(path, [0, go])).tolist()
    out = [tuple(ends[0])]
    current = 0
    coords = path.coords
    p1 = coords[0]
    for p2 in coords[1:]:
        if 0 < current < go:
            out.append(p1)
        elif current >= go:
            break
        current += ((p2[0] - p1[0]) ** 2 + (p2[1] - p1[1]) ** 2) ** 0.5
        p1 = p2
    out.append(tuple(ends[1]))
    return out


def end_of(e: Element, coords: list[tuple[float, float]]) -> tuple[int, int, int]:
    """Where ``e`` stands at the end of the stretch of its path it goes (its points ``coords``, from its front):
    the end point rounded to tenths, facing along the last stretch (its facing kept when that has no length)."""
    x, y = coords[-1]
    if len(coords) >= 2:
        px, py = coords[-2]
        dx, dy = x - px, y - py
        if dx * dx + dy * dy > 0:  # Point(coords[-2]).distance(end) > 0
            return round(x), round(y), round(math.degrees(math.atan2(dx, dy))) % 360
    return round(x), round(y), e.facing
