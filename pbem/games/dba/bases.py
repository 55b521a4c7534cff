"""Bases as plain numbers: their corners, and a bound on the ground two bases share.

The rules ask of many pairs of bases whether they overlap by more than a little (a move may not end on another
base, «Интерпретации ситуаций»; friends a recoil left on one another are pushed aside, D16). Shapely answers that
by building the shape the two share and measuring it, tens of microseconds a pair; most pairs it is asked of are
bases side by side in a line, touching along an edge, that share nothing. :func:`share_at_most` settles those
from the corners alone: False says nothing (shapely is asked), True is exact (shapely would find no more shared).
"""

from __future__ import annotations

import math
from functools import lru_cache

from .elements import Element, footprint_size, placed

MARGIN = 1e-6  # square tenths: a bound this close to the threshold is left to shapely (float rounding)


@lru_cache(maxsize=1 << 16)
def corners(troop: str, formation: str, x: int, y: int, facing: int) -> tuple[tuple[float, float], ...]:
    """The four corners of the base of a ``troop`` in ``formation`` standing at (x, y) facing ``facing``: the same
    floats as the corners of its shape (elements._base, both from :func:`elements.placed`), in that order: rear
    right, front right, front left, rear left."""
    w, d = footprint_size(troop, formation)
    return tuple(placed(((w / 2, -d), (w / 2, 0), (-w / 2, 0), (-w / 2, -d)), facing, x, y))


def corners_of(e: Element) -> tuple[tuple[float, float], ...]:
    return corners(e.troop, e.formation, e.x, e.y, e.facing)


def share_at_most(a: Element, b: Element, least: float) -> bool:
    """Whether the bases of ``a`` and ``b`` surely share no more than ``least`` square tenths
    (``a.shape.intersection(b.shape).area <= least`` without building it). The ground two bases share lies within
    the strip where their extents across each edge of one base overlap, so within a rectangle whose sides are the
    overlaps across that base's two edges (``slab_bound``); the bound from either base's edges, if it is at most
    ``least`` less :data:`MARGIN`, settles it. False says nothing (touching at a corner, overlapping, a bound near
    ``least``: shapely answers those)."""
    pa, pb = corners_of(a), corners_of(b)
    limit = least - MARGIN
    return slab_bound(pa, pb, pa) <= limit or slab_bound(pa, pb, pb) <= limit


def slab_bound(pa, pb, frame) -> float:
    """An upper bound on the area the convex quadrilaterals ``pa`` and ``pb`` (corners in order) share: the
    product of their extents' overlaps along the two edge directions of ``frame`` (one of them, a rectangle), each
    divided by that edge's length; 0 when they are apart along either."""
    (x0, y0), (x1, y1), (x2, y2) = frame[0], frame[1], frame[2]
    bound = 1.0
    for ux, uy in ((x1 - x0, y1 - y0), (x2 - x1, y2 - y1)):
        ka = [ux * x + uy * y for x, y in pa]
        kb = [ux * x + uy * y for x, y in pb]
        across = min(max(ka), max(kb)) - max(min(ka), min(kb))
        if across <= 0:
            return 0.0
        bound *= across / math.hypot(ux, uy)
    return bound


SWEPT_MARGIN = 1e-4  # square tenths: the grown path here and GEOS's buffer of it differ by a few 1e-13 in a corner


def grown_corners(path_coords, half: float):
    """The corners of a straight path (two ends, some length apart) grown by ``half`` on either side with flat
    ends, as ``path.buffer(half, cap_style="flat")`` draws it (GEOS's corners are within a few 1e-13 of these)."""
    (ax, ay), (bx, by) = path_coords
    dx, dy = bx - ax, by - ay
    length = math.hypot(dx, dy)
    nx, ny = -dy / length * half, dx / length * half
    return (ax + nx, ay + ny), (bx + nx, by + ny), (bx - nx, by - ny), (ax - nx, ay - ny)


def sweep_shares_at_most(path_coords, half: float, e: Element, moved: Element, o: Element, least: float) -> bool:
    """Whether the ground ``e`` sweeps going along a straight path to ``moved`` (table.SweptGround: the path grown
    by ``half`` with flat ends, its base where it stands and where it ends) surely shares no more than ``least``
    square tenths with the base of ``o``: the three parts' bounds (:func:`slab_bound`) add up to at most ``least``
    less :data:`SWEPT_MARGIN` (the whole shares no more than its parts together). False says nothing (a path of
    more than one stretch is not bounded here: SweptGround answers)."""
    if len(path_coords) != 2 or path_coords[0] == path_coords[1]:
        return False
    po = corners_of(o)
    grown = grown_corners(path_coords, half)
    total = 0.0
    for part in (grown, corners_of(e), corners_of(moved)):
        total += min(slab_bound(part, po, part), slab_bound(part, po, po))
        if total > least - SWEPT_MARGIN:
            return False
    return True


def farther_than(a: Element, b: Element, gap: float) -> bool:
    """Whether the bases of ``a`` and ``b`` are surely more than ``gap`` tenths apart (``a.shape.distance(b.shape) >
    gap`` without measuring it): across some edge of either base the other lies wholly beyond it by more than
    ``gap`` and :data:`MARGIN` (the distance between two shapes is at least the gap between their extents across
    any direction). False says nothing (touching, overlapping, a gap near ``gap``: shapely measures those)."""
    pa, pb = corners_of(a), corners_of(b)
    least = gap + MARGIN
    return separation(pa, pb, pa) > least or separation(pa, pb, pb) > least


def separation(pa, pb, frame) -> float:
    """The largest gap between the extents of ``pa`` and ``pb`` across the two edge directions of ``frame``
    (negative where they overlap across both): a lower bound on the distance between the two shapes."""
    (x0, y0), (x1, y1), (x2, y2) = frame[0], frame[1], frame[2]
    best = -math.inf
    for ux, uy in ((x1 - x0, y1 - y0), (x2 - x1, y2 - y1)):
        ka = [ux * x + uy * y for x, y in pa]
        kb = [ux * x + uy * y for x, y in pb]
        best = max(best, (max(min(kb) - max(ka), min(ka) - max(kb))) / math.hypot(ux, uy))
    return best
