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

import numpy as np
import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

from .bases import farther_than, share_at_most
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
        return not cls.apart(a, b, gap) and not farther_than(a, b, gap) and a.shape.distance(b.shape) <= gap

    @classmethod
    def overlap(cls, a: Element, b: Element, least: float = 0.5) -> bool:
        """Whether the bases of ``a`` and ``b`` overlap by more than ``least`` square tenths (those apart, or side by
        side, settled from their corners: bases.share_at_most)."""
        return not cls.apart(a, b) and not share_at_most(a, b, least) and a.shape.intersection(b.shape).area > least

    @staticmethod
    def in_contact(a: Element, b: Element) -> bool:
        try:  # Table.apart(a, b, CONTACT), written out: the rules ask it of every pair, many times a turn
            r = REACHES[a.troop][a.formation] + REACHES[b.troop][b.formation] + CONTACT + 1
        except KeyError:
            r = reach(a) + reach(b) + CONTACT + 1
        dx, dy = a.x - b.x, a.y - b.y
        return dx * dx + dy * dy <= r * r and not farther_than(a, b, CONTACT) \
            and a.shape.distance(b.shape) <= CONTACT

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
            if dx * dx + dy * dy > r * r or farther_than(e, o, CONTACT):  # surely apart: not measured
                continue
            shape = e.shape if shape is None else shape
            if shape.distance(o.shape) <= CONTACT:
                return True
        return False

    @classmethod
    def contact_edge(cls, a: Element, b: Element) -> str | None:
        """The edge of ``b`` that ``a`` touches: the one sharing the longest stretch with ``a``'s base
        (a corner-to-corner touch counts for the edge it reaches); None when they do not touch."""
        if cls.apart(a, b, CONTACT) or farther_than(a, b, CONTACT) or a.shape.distance(b.shape) > CONTACT:
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
        """Whether one of ``observers`` sees ``target`` (``any(sees(o, target, spotting) for o in observers)``)."""
        return self.seen_by(observers, [target], spotting)[0]

    def seen_by(self, observers: list, targets: list[Element], spotting: int) -> list[bool]:
        """For each of ``targets``, whether one of ``observers`` sees it (:meth:`sees_any` of each): the observers
        surely beyond the spotting range left out (the bound :meth:`sees` asks first, for every pair at once), the
        answers remembered read first, the others asked of every pair at once (:meth:`_sees_pairs`) and
        remembered."""
        if not observers or not targets:
            return [False] * len(targets)
        memo = self.terrain.__dict__.setdefault("_sees", {})
        ox = np.array([o.x for o in observers], dtype=np.int64)
        oy = np.array([o.y for o in observers], dtype=np.int64)
        tx = np.array([t.x for t in targets], dtype=np.int64)
        ty = np.array([t.y for t in targets], dtype=np.int64)
        far = np.array([spotting + reach(t) + 1 for t in targets])
        within = (ox[:, None] - tx) ** 2 + (oy[:, None] - ty) ** 2 <= far * far  # observer by target
        answers = [False] * len(targets)
        ask: list[tuple[int, object, tuple]] = []  # (target's index, observer, key) not remembered
        places = [(o.x, o.y) for o in observers]
        for i, near in enumerate(within.T.tolist()):
            if not any(near):
                continue
            t = targets[i]
            pose = (t.troop, t.formation, t.x, t.y, t.facing, spotting)
            keys = [(j, places[j] + pose) for j, n in enumerate(near) if n]
            if any(memo.get(k) for _, k in keys):
                answers[i] = True
                continue
            ask += [(i, observers[j], k) for j, k in keys if k not in memo]
        if not ask:
            return answers
        found = self._sees_pairs([o for _, o, _ in ask], [targets[i] for i, _, _ in ask], spotting)
        if len(memo) + len(ask) > SEES_MEMO:
            memo.clear()
        for (i, _, k), seen in zip(ask, found):
            memo[k] = seen
            answers[i] = answers[i] or seen
        return answers

    def _sees_pairs(self, observers: list, targets: list[Element], spotting: int) -> list[bool]:
        """``[_sees(o, t, spotting) for o, t in zip(observers, targets)]``, each shapely question asked of every pair
        at once (the same questions, so the same answers: tests/test_dba_speed.py compares them): the sight lines
        from each eye to the target's centre and front corners within the spotting range, asked of the terrain
        together (Terrain.sight_clear_lines)."""
        eyes = shapely.points([(o.x, o.y) for o in observers])
        shapes = [t.shape for t in targets]
        near = np.flatnonzero(shapely.distance(eyes, shapes) <= spotting)
        answers = [False] * len(observers)
        if not near.size:
            return answers
        terrain = self.terrain
        aims = {}  # a target (by id) -> (its three sight points' coordinates, the level at its centre)
        ends, lbs, owner = [], [], []
        for i in near.tolist():
            t = targets[i]
            if id(t) not in aims:
                centre = shapes[i].centroid
                front = t.edge("front").coords
                aims[id(t)] = ([(centre.x, centre.y), front[0], front[1]], terrain.level(centre))
            points, lb = aims[id(t)]
            ends += points
            lbs += [lb] * 3
            owner += [i] * 3
        owner = np.array(owner)
        ends = np.array(ends, dtype=float)
        reached = shapely.distance(eyes[owner], shapely.points(ends)) <= spotting
        if not reached.any():
            return answers
        owner, ends = owner[reached], ends[reached]
        las = dict(zip(near.tolist(), terrain.levels(eyes[near])))
        lines = np.empty((len(owner), 2, 2))
        lines[:, 0, :] = shapely.get_coordinates(eyes[owner])
        lines[:, 1, :] = ends
        clear = terrain.sight_clear_lines(lines, [las[i] for i in owner.tolist()],
                                          [lb for lb, r in zip(lbs, reached.tolist()) if r])
        for i, c in zip(owner.tolist(), clear):
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


class SweptGround:
    """The ground a base covers going along a path: the path grown by half the frontage (flat ends), the base where
    it stands and where it ends, as one shape (``whole``, built when first needed). :meth:`overlaps` answers
    ``whole.intersection(shape).area > least`` (or ``shape.intersection(whole)`` with ``shape_first``) from the
    three parts where they settle it: no part meets the shape (nothing shared), a part shares more than ``least``
    with it (the whole shares at least that), or the parts share less than ``least`` together (the whole shares
    no more than their sum); a millionth either side of ``least`` is left to the whole. So every answer is
    shapely's, and the union of the parts is built only for the shapes they leave open."""

    MARGIN = 1e-6

    def __init__(self, path: LineString, frontage: int, shape: Polygon, moved: Polygon):
        self.path, self.frontage, self.shape, self.moved = path, frontage, shape, moved
        self._parts = self._whole = None

    @property
    def parts(self):
        if self._parts is None:
            grown = self.path.buffer(self.frontage / 2, cap_style="flat") if self.path.length else self.shape
            self._parts = np.array([grown, self.shape, self.moved], dtype=object)
        return self._parts

    @property
    def whole(self):
        if self._whole is None:
            start = unary_union([self.parts[0], self.shape]) if self.path.length else self.shape
            self._whole = start.union(self.moved)
        return self._whole

    def overlaps(self, shape, least: float = 0.5, shape_first: bool = False) -> bool:
        meets = shapely.intersects(self.parts, shape)
        if not meets.any():
            return False
        shared = np.zeros(3)
        shared[meets] = shapely.area(shapely.intersection(self.parts[meets], shape))
        if shared.max() > least + self.MARGIN:
            return True
        if shared.sum() < least - self.MARGIN:
            return False
        whole = self.whole
        return (shape.intersection(whole) if shape_first else whole.intersection(shape)).area > least


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
