"""The table: its size, terrain, named places, reference grid, and the forces on it.

Every geometric question the rules ask is answered here with shapely, in tenths of an inch:

- ``distance(a, b)``: the shortest gap between two bases (0 when touching);
- ``in_contact(a, b)`` and ``contact_edge(a, b)``: whether two bases touch, and which edge of ``b`` the
  base ``a`` touches (front, left, right, rear) — contact «база к базе», flank and rear contact;
- ``quarter(of, point)``: where a point lies as an element faces (front, left, right, rear) — «позади
  элемента» for the rule on flank and rear contact;
- ``fire_zone(e, reach)``: the area an element may fire into («внутри зоны, ограниченной 45° во фронтальном
  направлении», reading D8) out to ``reach``;
- ``sees(observer, target)``: the line of sight (terrain.py's blocking rules) and the spotting range.

The table holds plain data (dataclasses), so a state is copied and compared as values; it knows no dice and
no order. The rules that act on it are in fire.py, melee.py, movement.py, pips.py, effectiveness.py, flight.py
and sight.py.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry

from .elements import REACHES, Brigade, Commander, Element, reach
from .names import Grid, Names
from .terrain import Terrain

CONTACT = 1  # tenths: bases this close count as touching (turned bases are not exact to the tenth)


SEES_MEMO = 200_000  # remembered sight answers (a few tens of bytes each) before the memo starts again


@dataclass
class Table:
    width: int
    depth: int
    terrain: Terrain
    grid: Grid
    places: dict[str, BaseGeometry] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    brigades: dict[str, Brigade] = field(default_factory=dict)
    commanders: dict[str, Commander] = field(default_factory=dict)
    elements: dict[str, Element] = field(default_factory=dict)
    reserve: dict[str, Element] = field(default_factory=dict)   # elements of brigades that arrive later, off the table

    @property
    def names(self) -> Names:
        return Names.of(self)

    @property
    def area(self) -> Polygon:
        """The table as a polygon (one per size, prepared: the rules ask whether a base is on it many times a
        turn, best as ``area.contains(shape)``, the same answer as ``shape.within(area)``)."""
        return _area(self.width, self.depth)

    def __post_init__(self):
        self._ids: tuple[str, ...] = ()      # the elements' ids as last sorted, and in id order
        self._sorted: list[str] = []

    # -- forces -------------------------------------------------------------------------------------------
    def on_table(self, side: str | None = None) -> list[Element]:
        """The elements still on the table (of ``side``), in id order (sorted again only when an element came or
        went since the last call)."""
        els = self.elements
        ids = tuple(els)
        if ids != self._ids:
            self._ids, self._sorted = ids, sorted(ids)
        if side is None:
            return [els[i] for i in self._sorted]
        return [e for e in map(els.__getitem__, self._sorted) if e.side == side]

    def brigade_elements(self, brigade: str) -> list[Element]:
        return [self.elements[i] for i in self.brigades[brigade].elements if i in self.elements]

    def enemies_of(self, e: Element) -> list[Element]:
        return [o for o in self.on_table() if o.side != e.side]

    def friends_of(self, e: Element) -> list[Element]:
        return [o for o in self.on_table() if o.side == e.side and o.id != e.id]

    def remove(self, element_id: str) -> None:
        self.elements.pop(element_id, None)

    # -- geometry -----------------------------------------------------------------------------------------
    @staticmethod
    def apart(a: Element, b: Element, gap: float = 0) -> bool:
        """Whether the bases of ``a`` and ``b`` are surely more than ``gap`` tenths apart, from where they stand
        alone: their front edges' centres farther apart than the two bases' reach, the gap and a tenth to spare.
        False says nothing (shapely answers then); True is exact, so a question it answers is answered as
        shapely would (the distance is at least the centres' distance less the two reaches)."""
        try:
            r = REACHES[a.troop][a.formation] + REACHES[b.troop][b.formation] + gap + 1
        except KeyError:
            r = reach(a) + reach(b) + gap + 1
        dx, dy = a.x - b.x, a.y - b.y
        return dx * dx + dy * dy > r * r

    @staticmethod
    def distance(a: Element, b: Element) -> float:
        return a.shape.distance(b.shape)

    @classmethod
    def near(cls, a: Element, b: Element, gap: float) -> bool:
        """Whether the bases of ``a`` and ``b`` are within ``gap`` tenths (``distance(a, b) <= gap``)."""
        return not cls.apart(a, b, gap) and a.shape.distance(b.shape) <= gap

    @classmethod
    def overlap(cls, a: Element, b: Element, least: float = 0.5) -> bool:
        """Whether the bases of ``a`` and ``b`` overlap by more than ``least`` square tenths."""
        return not cls.apart(a, b) and a.shape.intersection(b.shape).area > least

    @staticmethod
    def in_contact(a: Element, b: Element) -> bool:
        try:  # Table.apart(a, b, CONTACT), written out: the rules ask it of every pair, many times a turn
            r = REACHES[a.troop][a.formation] + REACHES[b.troop][b.formation] + CONTACT + 1
        except KeyError:
            r = reach(a) + reach(b) + CONTACT + 1
        dx, dy = a.x - b.x, a.y - b.y
        return dx * dx + dy * dy <= r * r and a.shape.distance(b.shape) <= CONTACT

    def engaged(self, e: Element) -> bool:
        """Whether ``e`` is in contact with an enemy element on the table (``any(in_contact(e, o) for o in
        enemies_of(e))``, the bound written out over every element: asked of every element many times a turn)."""
        side, ex, ey = e.side, e.x, e.y
        try:
            own = REACHES[e.troop][e.formation] + CONTACT + 1
        except KeyError:
            own = reach(e) + CONTACT + 1
        shape = None
        for o in self.elements.values():
            if o.side == side:
                continue
            try:
                r = own + REACHES[o.troop][o.formation]
            except KeyError:
                r = own + reach(o)
            dx, dy = ex - o.x, ey - o.y
            if dx * dx + dy * dy > r * r:
                continue
            shape = e.shape if shape is None else shape
            if shape.distance(o.shape) <= CONTACT:
                return True
        return False

    @classmethod
    def contact_edge(cls, a: Element, b: Element) -> str | None:
        """The edge of ``b`` that ``a`` touches: the one sharing the longest stretch with ``a``'s base
        (a corner-to-corner touch counts for the edge it reaches); None when they do not touch."""
        if cls.apart(a, b, CONTACT) or a.shape.distance(b.shape) > CONTACT:
            return None
        near = a.shape.buffer(CONTACT)
        best, length = None, -1.0
        for which in ("front", "left", "right", "rear"):
            edge = b.edge(which)
            if not edge.intersects(near):
                continue
            got = edge.intersection(near).length
            if got > length + 0.01:
                best, length = which, got
        return best

    @staticmethod
    def local(of: Element, point: Point) -> Point:
        """``point`` in the frame of ``of``: x to its right, y ahead of its front edge."""
        return affinity.rotate(affinity.translate(point, -of.x, -of.y), of.facing, origin=(0, 0))

    @classmethod
    def quarter(cls, of: Element, point: Point) -> str:
        """Where ``point`` lies as ``of`` faces: ``front`` (ahead of its front edge), ``rear`` (behind its rear
        edge), else ``left`` or ``right``."""
        p = cls.local(of, point)
        if p.y >= 0:
            return "front"
        if p.y <= -of.depth:
            return "rear"
        return "left" if p.x < 0 else "right"

    @classmethod
    def behind(cls, of: Element, other: Element) -> bool:
        """Whether ``other`` stands wholly behind the line of ``of``'s front edge («позади элемента», D7)."""
        return all(cls.local(of, Point(c)).y < 0 for c in other.shape.exterior.coords)

    @staticmethod
    def fire_zone(e: Element, reach: int) -> BaseGeometry:
        """The area ``e`` may fire into out to ``reach`` tenths: ahead of its front edge, between lines drawn
        forward at 45° outward from its front corners (D8), and within ``reach`` of that edge."""
        return _fire_zone(e.troop, e.formation, e.x, e.y, e.facing, reach)

    def in_arc(self, shooter: Element, target: Element, reach: int) -> bool:
        """Whether some of the target's base lies in the shooter's zone of fire within ``reach``, the reach
        itself counted in («Максимальное расстояние»: a target exactly at a weapon's maximum range may be fired at,
        docs/rules-notes.md DR2). The zone is drawn a tenth past ``reach`` (a base touching its far edge overlaps
        nothing); the range to the target (:meth:`fire_range`) is then held to ``reach`` by the caller."""
        zone = self.fire_zone(shooter, reach + 1)
        return zone.intersects(target.shape) and zone.intersection(target.shape).area > 0.01

    def fire_range(self, shooter: Element, target: Element) -> float:
        """The range from the shooter's front edge to the nearest part of the target in its zone of fire."""
        zone = self.fire_zone(shooter, max(self.width, self.depth))
        seen = zone.intersection(target.shape)
        if seen.is_empty:
            return float("inf")
        return shooter.edge("front").distance(seen)

    def sight_points(self, e: Element) -> list[Point]:
        """The points of a base a sight line may reach: its centre and front corners."""
        front = e.edge("front")
        return [e.centre, Point(front.coords[0]), Point(front.coords[1])]

    def line_clear(self, a: Point, b: Point, la: int | None = None, lb: int | None = None) -> bool:
        return self.terrain.sight_blocked(a, b, la, lb) is None

    def sees(self, observer: Element | Commander, target: Element, spotting: int) -> bool:
        """Whether ``observer`` (an element: from its front edge's centre; a commander: from where he stands)
        sees ``target``: within ``spotting`` tenths and a clear line to its centre or a front corner."""
        dx, dy, far = observer.x - target.x, observer.y - target.y, spotting + reach(target) + 1
        if dx * dx + dy * dy > far * far:  # surely beyond the spotting range (as _sees would find)
            return False
        # the answer depends only on where the two stand (the terrain never changes): remembered by the terrain
        key = (observer.x, observer.y, target.troop, target.formation, target.x, target.y, target.facing, spotting)
        memo = self.terrain.__dict__.setdefault("_sees", {})
        if key not in memo:
            if len(memo) > SEES_MEMO:
                memo.clear()
            memo[key] = self._sees(observer, target, spotting)
        return memo[key]

    def sees_any(self, observers: list, target: Element, spotting: int) -> bool:
        """Whether one of ``observers`` sees ``target`` (``any(sees(o, target, spotting) for o in observers)``):
        the answers remembered are read first, the others asked of every observer at once (:meth:`_sees_many`)
        and remembered."""
        memo = self.terrain.__dict__.setdefault("_sees", {})
        t = (target.troop, target.formation, target.x, target.y, target.facing, spotting)
        keys = [(o.x, o.y) + t for o in observers]
        if any(memo.get(k) for k in keys):
            return True
        ask = [(o, k) for o, k in zip(observers, keys) if k not in memo]
        if not ask:
            return False
        answers = self._sees_many([o for o, _ in ask], target, spotting)
        if len(memo) + len(ask) > SEES_MEMO:
            memo.clear()
        for (_, k), seen in zip(ask, answers):
            memo[k] = seen
        return any(answers)

    def _sees_many(self, observers: list, target: Element, spotting: int) -> list[bool]:
        """``[_sees(o, target, spotting) for o in observers]``, each shapely question asked of every observer at
        once (the same questions, so the same answers: tests/test_dba_speed.py compares them)."""
        eyes = shapely.points([(o.x, o.y) for o in observers])
        shape = target.shape
        near = shapely.distance(eyes, shape) <= spotting
        if not near.any():
            return near.tolist()
        terrain = self.terrain
        la = terrain.levels(eyes)
        centre = shape.centroid
        lb = terrain.level(centre)
        front = target.edge("front").coords
        answers = [False] * len(observers)
        for p in (centre, Point(front[0]), Point(front[1])):
            within = near & (shapely.distance(eyes, p) <= spotting)
            ask = [i for i, w in enumerate(within.tolist()) if w and not answers[i]]
            if not ask:
                continue
            clear = terrain.sight_clear_many([eyes[i] for i in ask], p, [la[i] for i in ask], lb)
            for i, c in zip(ask, clear):
                answers[i] = answers[i] or c
        return answers

    def _sees(self, observer: Element | Commander, target: Element, spotting: int) -> bool:
        eye = observer.front if isinstance(observer, Element) else observer.point
        if eye.distance(target.shape) > spotting:
            return False
        la = self.terrain.level(eye)
        lb = self.terrain.level(target.centre)
        return any(eye.distance(p) <= spotting and self.line_clear(eye, p, la, lb) for p in self.sight_points(target))

    def path_clear_of(self, path: LineString, mover: Element) -> list[Element]:
        """The other elements whose bases a path (swept by the mover's frontage) would cross."""
        swept = path.buffer(mover.frontage / 2, cap_style="flat") if path.length else mover.shape
        return [o for o in self.on_table() if o.id != mover.id and swept.intersects(o.shape)
                and swept.intersection(o.shape).area > 0.5]


@lru_cache(maxsize=16)
def _area(width: int, depth: int) -> Polygon:
    area = Polygon([(0, 0), (width, 0), (width, depth), (0, depth)])
    shapely.prepare(area)
    return area


@lru_cache(maxsize=1 << 12)
def _fire_zone(troop: str, formation: str, x: int, y: int, facing: int, reach: int) -> BaseGeometry:
    """Table.fire_zone of an element standing so: kept, as a volley asks it of each shooter for every target."""
    e = Element("", "", "", troop, x, y, facing, formation)
    w = e.frontage
    fan = Polygon([(-w / 2, 0), (w / 2, 0), (w / 2 + reach, reach), (-w / 2 - reach, reach)])
    fan = affinity.translate(affinity.rotate(fan, -facing, origin=(0, 0)), x, y)
    return fan.intersection(e.edge("front").buffer(reach))
