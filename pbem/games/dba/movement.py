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

from shapely.geometry import LineString, Point, Polygon
from shapely.ops import substring, unary_union

from .elements import Element, in_inches, inches
from .lang import Text
from .lang import say as T  # a Text: read in each seat's language
from .table import Table

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


def _swept(e: Element, path: LineString):
    """The ground a base covers going along a path."""
    if path.length == 0:
        return e.shape
    return unary_union([path.buffer(e.frontage / 2, cap_style="flat"), e.shape])


def _rough_path(table: Table, e: Element, path: LineString) -> bool:
    return table.terrain.path_difficult(path) or table.terrain.difficult(e.shape)


def obstacles(table: Table, e: Element):
    """The ground ``e`` may not enter: impassable features; for artillery also difficult going off the roads
    («Труднопроходимую местность не может пересечь артиллерия, которая должна воспользоваться дорогами»)."""
    parts = [f.shape for f in table.terrain.closed()]
    if e.arm == "artillery":
        rough = [f.shape for f in table.terrain.features if f.type.difficult]
        if rough:
            area = unary_union(rough)
            road = table.terrain._road_area
            parts.append(area.difference(road) if road is not None else area)
    return unary_union(parts) if parts else Polygon()


def passes_through(mover: Element, other: Element) -> bool:
    """Whether ``mover`` may pass through ``other`` («Интерпретации ситуаций»): never an enemy; line infantry
    and any cavalry through light infantry; light infantry and cavalry through any friends."""
    if other.side != mover.side:
        return False
    if mover.troop == "light_infantry" or mover.arm == "cavalry":
        return True
    return mover.troop == "infantry" and other.troop == "light_infantry"


def check_move(table: Table, e: Element, path: LineString, facing: int | None = None,
               start: Element | None = None) -> Text | None:
    """Why moving ``e`` along ``path`` (ending facing ``facing``) is not allowed, or None. ``start``: where ``e``
    stood at the start of the turn (for flank and rear contact), by default where it stands."""
    start = start or e
    if e.fleeing:
        return T("%(element)s is fleeing: it flees, it is not moved", element=e.id)
    enemies = [o for o in table.enemies_of(e) if not o.fleeing]
    if any(table.in_contact(e, o) for o in table.enemies_of(e)):
        return T("%(element)s is in contact with the enemy", element=e.id)
    end = Point(path.coords[-1])
    face = e.facing if facing is None else facing
    if path.length:
        if facing is None:
            face = bearing(Point(path.coords[-2]), end)
    moved = e.moved_to(round(end.x), round(end.y), face)
    near = [o for o in enemies if table.distance(e, o) <= ZONE]
    if near and path.length and not any(moved.shape.distance(o.shape) < e.shape.distance(o.shape) for o in near):
        # the enemy is not named: the seat may not have seen it (behind woods, in a town)
        return T("%(element)s is within 3\" of the enemy: it may only move to close with the enemy", element=e.id)
    chasers = [o for o in enemies if o.id not in {x.id for x in near} and base_rate(o) > base_rate(e)
               and table.distance(e, o) <= base_rate(o)]
    if chasers and path.length:
        away = [o for o in chasers if moved.shape.distance(o.shape) > e.shape.distance(o.shape) + 0.5]
        if away:
            # the enemy is not named: the seat may not have seen it (behind woods within its move)
            return T("%(element)s may not break off from a faster enemy within its move (%(quote)s)", element=e.id,
                     quote="«Элемент не может оторваться от вражеского элемента, который двигается быстрее»")
    if not moved.shape.within(table.area):
        return T("%(element)s would leave the table", element=e.id)
    block = obstacles(table, e)
    swept = _swept(e, path).union(moved.shape)
    if not block.is_empty and block.intersection(swept).area > 0.5:
        what = T("difficult ground off a road") if e.arm == "artillery" else T("impassable ground")
        return T("%(element)s may not cross %(ground)s", element=e.id, ground=what)
    rate = allowance(table, e, path)
    if path.length > rate + 0.5:
        return T("%(element)s may move %(rate)s\" here, not %(length)s\"", element=e.id, rate=in_inches(rate),
                 length=round(path.length / 10, 1))
    for o in table.on_table():
        if o.id == e.id:
            continue
        if moved.shape.intersection(o.shape).area > 0.5:
            return T("%(element)s would end on %(other)s", element=e.id, other=o.id)
        if swept.intersection(o.shape).area > 0.5 and not passes_through(e, o):
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


def find_path(table: Table, e: Element, goal: Point) -> LineString | None:
    """The shortest path for ``e``'s front from where it stands to ``goal`` that keeps its base off the ground
    it may not enter (:func:`obstacles`), or None when there is none."""
    start = e.front
    block = obstacles(table, e)
    if block.is_empty:
        return LineString([start, goal])
    grown = block.buffer(e.frontage / 2 + 1, join_style="mitre")
    if grown.contains(goal):
        return None
    core = block.buffer(e.frontage / 2 - 0.5) if e.frontage > 2 else block

    def clear(a, b) -> bool:
        seg = LineString([a, b])
        return not seg.intersects(core) or seg.intersection(core).length < 0.01

    if clear(start, goal):
        return LineString([start, goal])
    polys = list(getattr(grown, "geoms", [grown]))
    nodes = [(start.x, start.y), (goal.x, goal.y)]
    for p in polys:
        nodes += [c for c in p.exterior.coords[:-1] if table.area.buffer(1).contains(Point(c))]
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
        for j in range(len(nodes)):
            if j in done or j == i:
                continue
            if not clear(Point(nodes[i]), Point(nodes[j])):
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
    return LineString([nodes[k] for k in reversed(way)])


def advance(table: Table, e: Element, path: LineString, budget: int | None = None) -> tuple[int, int, int]:
    """Where ``e`` gets along ``path`` with ``budget`` tenths (its :func:`allowance` by default): the point and
    the facing of the last stretch travelled (its facing kept when it does not move)."""
    go = allowance(table, e, path) if budget is None else budget
    if path.length == 0 or go <= 0:
        return e.x, e.y, e.facing
    part = substring(path, 0, min(go, path.length))
    coords = list(part.coords)
    end = Point(coords[-1])
    face = bearing(Point(coords[-2]), end) if len(coords) >= 2 and Point(coords[-2]).distance(end) > 0 else e.facing
    return round(end.x), round(end.y), face
