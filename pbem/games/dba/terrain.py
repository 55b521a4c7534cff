"""Terrain — «Препятствия и пересеченная местность вообще».

    «К препятствием относятся леса, пересеченная местность и т.д. Максимальное перемещение для легкой
    кавалерии 3", 2" для пехоты и прочей кавалерии. Труднопроходимую местность не может пересечь
    артиллерия, которая должна воспользоваться дорогами»

Terrain is typed polygons (woods, rough ground, towns, field works, marsh, water, hills with a level) and
lines (roads, streams), all shapely geometry in tenths of an inch. What each kind does (:data:`KINDS`):

- ``difficult``: the going is rough (moves capped, no support, artillery only by road; readings D3, D4);
- ``cover``: fire at a brigade wholly in it takes −1 («в лесу, в городе, на пересеченной местности»);
- ``blocks_sight``: a sight line through more than :data:`SEE_INTO` of it is blocked (D11);
- ``impassable``: no element enters it (water; the scenario may mark any feature so).

Hills have a level (1, 2, …); the ground outside every hill is level 0. A stream is crossed as difficult
ground unless on a road (a bridge or ford; reading D5). Roads are lines; an element is on a road when its
front-edge centre is within :data:`ROAD_WIDTH` / 2 of one.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import shapely
from shapely.geometry import LineString, Point, Polygon
from shapely.geometry.polygon import orient
from shapely.geometry.base import BaseGeometry
from shapely.ops import unary_union

ROAD_WIDTH = 10       # tenths: a road is 1" wide (authored)
SEE_INTO = 10         # tenths: a sight line may run 1" into woods or a town and still see (authored, D11)


@dataclass(frozen=True)
class Kind:
    key: str
    russian: str
    difficult: bool = False
    cover: bool = False
    blocks_sight: bool = False
    impassable: bool = False


KINDS: dict[str, Kind] = {k.key: k for k in (
    Kind("woods", "лес", difficult=True, cover=True, blocks_sight=True),
    Kind("rough", "пересеченная местность", difficult=True, cover=True),
    Kind("town", "город", difficult=True, cover=True, blocks_sight=True),
    Kind("fieldworks", "полевое укрепление", cover=True),
    Kind("marsh", "болото", difficult=True),
    Kind("water", "вода", impassable=True),
    Kind("hill", "холм"),
)}


@dataclass(frozen=True)
class Feature:
    """One piece of terrain: a kind, a name (may be empty), its polygon, a hill's level."""

    kind: str
    name: str
    shape: Polygon
    level: int = 0
    impassable: bool = False   # the scenario may close any feature (a lake, a cliff)

    @property
    def type(self) -> Kind:
        return KINDS[self.kind]

    @property
    def closed(self) -> bool:
        return self.impassable or KINDS[self.kind].impassable


@dataclass(frozen=True)
class Line:
    """A road or a stream: a kind, a name, its centre line."""

    kind: str   # "road" or "stream"
    name: str
    line: LineString


@dataclass
class Terrain:
    features: list[Feature] = field(default_factory=list)
    roads: list[Line] = field(default_factory=list)
    streams: list[Line] = field(default_factory=list)

    def __post_init__(self):
        self._road_area = unary_union([r.line.buffer(ROAD_WIDTH / 2) for r in self.roads]) if self.roads else None
        # the terrain never changes in play: its shapes are prepared once (a prepared shape answers intersects,
        # covers, contains, touches as the plain one does, faster) and what is built from them is kept (kept())
        self._road_near = self._road_area.buffer(0.5) if self._road_area is not None else None
        for g in [f.shape for f in self.features] + [s.line for s in self.streams] + [self._road_area,
                                                                                      self._road_near]:
            if g is not None:
                shapely.prepare(g)
        self._kept: dict = {}

    def kept(self, key, build):
        """What ``build()`` makes of this terrain, made once and kept under ``key`` (the shapes the rules ask about
        many times a turn: the ground an element may not enter, grown by its half frontage)."""
        if key not in self._kept:
            self._kept[key] = build()
        return self._kept[key]

    # -- what is where -------------------------------------------------------------------------------------
    def at(self, geom: BaseGeometry) -> list[Feature]:
        """The features ``geom`` (a point or an element's base) overlaps, in file order."""
        return [f for f in self.features if f.shape.intersects(geom) and not f.shape.touches(geom)]

    def within(self, geom: BaseGeometry, kinds) -> bool:
        """Whether ``geom`` lies wholly inside features of the given kinds (their union)."""
        kinds = frozenset(kinds)

        def union():
            parts = [f.shape for f in self.features if f.kind in kinds]
            if not parts:
                return None
            area = unary_union(parts).buffer(0.01)
            shapely.prepare(area)
            return area

        area = self.kept(("within", kinds), union)
        return area is not None and area.contains(geom)

    def level(self, point: Point) -> int:
        """The hill level at ``point`` (0 off every hill)."""
        return max([f.level for f in self.features if f.kind == "hill" and f.shape.covers(point)], default=0)

    def levels(self, points) -> list[int]:
        """``[level(p) for p in points]`` (an array of points), each hill asked of every point at once."""
        found: list[int | None] = [None] * len(points)
        for f in self.features:
            if f.kind != "hill":
                continue
            for i, covered in enumerate(shapely.covers(f.shape, points).tolist()):
                if covered:
                    found[i] = f.level if found[i] is None else max(found[i], f.level)
        return [0 if v is None else v for v in found]

    def _boxed(self, key: str, which) -> list:
        """``(minx, miny, maxx, maxy, feature)`` of the features ``which(f)`` keeps, in file order (kept)."""
        return self.kept(("boxes", key), lambda: [(*f.shape.bounds, f) for f in self.features if which(f)])

    def difficult(self, geom: BaseGeometry) -> bool:
        """Whether ``geom`` overlaps difficult going (woods, rough, towns, marsh): ``any(f.type.difficult for f in
        self.at(geom))``, a feature whose bounding box is apart from ``geom``'s not asked (it cannot intersect)."""
        x0, y0, x1, y1 = geom.bounds
        return any(f.shape.intersects(geom) and not f.shape.touches(geom)
                   for a0, b0, a1, b1, f in self._boxed("difficult", lambda f: f.type.difficult)
                   if a0 <= x1 and x0 <= a1 and b0 <= y1 and y0 <= b1)

    def cover(self, geom: BaseGeometry) -> bool:
        """Whether ``geom`` is wholly in cover (woods, towns, rough ground, field works)."""
        return self.within(geom, {k for k, v in KINDS.items() if v.cover})

    def in_fieldworks(self, geom: BaseGeometry) -> bool:
        return any(f.kind == "fieldworks" for f in self.at(geom))

    def closed(self) -> list[Feature]:
        """The impassable features."""
        return [f for f in self.features if f.closed]

    # -- roads and streams ---------------------------------------------------------------------------------
    def on_road(self, point: Point) -> bool:
        return self._road_area is not None and self._road_area.covers(point)

    def path_on_road(self, path: LineString) -> bool:
        """Whether a whole path runs along roads."""
        return self._road_near is not None and self._road_near.covers(path)

    def crosses_stream(self, path: LineString) -> bool:
        """Whether a path crosses a stream other than on a road (a bridge or a ford). Where the path runs
        along the stream for a stretch, the whole stretch must be on the road (reading D5)."""
        x0, y0, x1, y1 = path.bounds
        for a0, b0, a1, b1, s in self.kept(("boxes", "streams"), lambda: [(*s.line.bounds, s) for s in self.streams]):
            if a1 < x0 or x1 < a0 or b1 < y0 or y1 < b0 or not s.line.intersects(path):  # boxes apart: no crossing
                continue
            cut = s.line.intersection(path)
            if cut.is_empty:
                continue
            pieces = [cut] if cut.geom_type == "Point" else list(getattr(cut, "geoms", [cut]))
            if any(not (self.on_road(p) if p.geom_type == "Point" else self.path_on_road(p)) for p in pieces):
                return True
        return False

    def path_difficult(self, path: LineString) -> bool:
        """Whether a path enters difficult going or crosses a stream off a road (the features' bounding boxes
        asked first, as in :meth:`difficult`)."""
        return self.difficult(path) or self.crosses_stream(path)

    def _sight_ground(self):
        """Every feature that may block a sight line (woods, towns, hills) as one prepared shape."""
        ground = unary_union([f.shape for f in self.features if f.type.blocks_sight or f.kind == "hill"])
        shapely.prepare(ground)
        return ground

    def sight_clear_lines(self, ends, las: list[int], lbs: list[int]) -> list[bool]:
        """``[sight_blocked(a, b, la, lb) is None for (a, b), la, lb in zip(ends, las, lbs)]`` for the sight lines
        ``ends`` (an array of their two ends' coordinates), each feature asked of every line at once (the same
        questions, in the same order of arguments)."""
        n = len(ends)
        if not n:
            return []
        lines = shapely.linestrings(ends)
        todo = shapely.intersects(self.kept("sight", self._sight_ground), lines)
        blocked = np.zeros(n, dtype=bool)
        higher = np.maximum(las, lbs)
        for f in self.features:
            todo &= ~blocked
            if not todo.any():
                break
            if f.type.blocks_sight:
                idx = np.flatnonzero(todo)
                blocked[idx[self._runs_into(f, ends[idx], lines[idx], SEE_INTO)]] = True
            elif f.kind == "hill":
                idx = np.flatnonzero(todo & (f.level >= higher))
                idx = idx[shapely.intersects(f.shape, lines[idx])]
                if idx.size:  # blocked unless an end stands on the hill
                    on = shapely.covers(f.shape, shapely.points(ends[idx, 1])) | \
                        shapely.covers(f.shape, shapely.points(ends[idx, 0]))
                    blocked[idx[~on]] = True
        return (~blocked).tolist()

    def _runs_into(self, f: Feature, ends, lines, beyond: float):
        """Whether each line (``ends``: its two ends' coordinates; ``lines``: the same as geometries) runs more than
        ``beyond`` inside feature ``f``: ``length(intersection(f.shape, line)) > beyond`` where the line meets it.
        For a convex feature the length inside is found by clipping each line against its edges
        (:func:`inside_lengths`, a few 1e-13 from shapely's); only a line within a millionth of ``beyond`` is
        asked of shapely, so every answer is shapely's."""
        corners = self.kept(("convex", id(f)), lambda: convex_corners(f.shape))
        if corners is None:
            hit = shapely.intersects(f.shape, lines)
            out = np.zeros(len(lines), dtype=bool)
            out[hit] = shapely.length(shapely.intersection(f.shape, lines[hit])) > beyond
            return out
        inside = inside_lengths(corners, ends)
        out = inside > beyond + 1e-6
        close = np.flatnonzero(np.abs(inside - beyond) <= 1e-6)
        if close.size:
            out[close] = shapely.length(shapely.intersection(f.shape, lines[close])) > beyond
        return out

    def sight_blocked(self, a: Point, b: Point, la: int | None = None, lb: int | None = None) -> Feature | None:
        """The feature that blocks the sight line a → b, or None (D11, D12).

        Woods and towns block when the line runs more than :data:`SEE_INTO` inside them (so troops at the edge
        of a wood see out and are seen); a hill blocks when the line crosses it, neither end stands on it and
        it is at least as high as the higher end (``la``, ``lb``: the ends' levels, found when not given).
        """
        line = LineString([a, b])
        if not self.kept("sight", self._sight_ground).intersects(line):
            return None  # it crosses no wood, town nor hill
        la = self.level(a) if la is None else la
        lb = self.level(b) if lb is None else lb
        for f in self.features:
            if f.type.blocks_sight:
                inside = f.shape.intersection(line).length if f.shape.intersects(line) else 0
                if inside > SEE_INTO:
                    return f
            elif f.kind == "hill" and f.shape.intersects(line):
                if f.shape.covers(a) or f.shape.covers(b):
                    continue
                if f.level >= max(la, lb):
                    return f
        return None


def convex_corners(shape: Polygon):
    """The corners of ``shape`` counter-clockwise (the first repeated last) when it is convex and has no holes (it
    covers the same ground as its convex hull), else None."""
    if shape.geom_type != "Polygon" or shape.interiors or not shape.equals(shape.convex_hull):
        return None
    return np.array(orient(shape.convex_hull, 1.0).exterior.coords)


def inside_lengths(corners, ends):
    """The length of each segment (``ends``: an array of its two ends' coordinates) inside the convex polygon of
    ``corners`` (counter-clockwise, closed): each segment clipped to the side of every edge the polygon is on
    (Cyrus-Beck), every segment and edge at once."""
    a, d = ends[:, 0, :], ends[:, 1, :] - ends[:, 0, :]
    v, edge = corners[:-1], corners[1:] - corners[:-1]
    normal = np.stack([edge[:, 1], -edge[:, 0]], axis=1)  # pointing out of the polygon
    # a point a + t d is on the polygon's side of an edge when num + t den <= 0
    num = (a[:, None, 0] - v[None, :, 0]) * normal[:, 0] + (a[:, None, 1] - v[None, :, 1]) * normal[:, 1]
    den = d[:, None, 0] * normal[:, 0] + d[:, None, 1] * normal[:, 1]
    with np.errstate(divide="ignore", invalid="ignore"):
        t = -num / den
    enter = np.max(np.where(den < 0, t, 0.0), axis=1, initial=0.0)
    leave = np.min(np.where(den > 0, t, 1.0), axis=1, initial=1.0)
    apart = np.any((den == 0) & (num > 0), axis=1)  # parallel to an edge, outside it
    length = np.maximum(leave - enter, 0.0) * np.hypot(d[:, 0], d[:, 1])
    return np.where(apart, 0.0, length)
