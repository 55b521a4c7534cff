"""Plane geometry of a map: the polygon of every locale and the segment of every approach.

A locale with a ``shape`` in the map file is that polygon. A locale without
one is its Voronoi cell: the points of the map rectangle nearer to its ``at``
point than to any other locale's, found by clipping the rectangle with one
half-plane per other locale (no scipy). An approach is drawn on the edge two
locale polygons share; if they share none (hand-drawn shapes that do not
quite meet, or Voronoi cells that only touch at a corner), a short segment
across the line between the two centres stands in for it.

Points are (x, y) tuples of floats in map units, y downward as in SVG.
"""

from __future__ import annotations

import math

Point = tuple[float, float]
Polygon = list[Point]


def _tolerance(board) -> float:
    return max(board.width, board.height) * 1e-3


def clip_half_plane(poly: Polygon, nx: float, ny: float, c: float) -> Polygon:
    """The part of convex ``poly`` where nx*x + ny*y <= c (Sutherland–Hodgman, one edge)."""
    out: Polygon = []
    n = len(poly)
    for i in range(n):
        p, q = poly[i], poly[(i + 1) % n]
        dp = nx * p[0] + ny * p[1] - c
        dq = nx * q[0] + ny * q[1] - c
        if dp <= 0:
            out.append(p)
        if (dp < 0 < dq) or (dq < 0 < dp):
            t = dp / (dp - dq)
            out.append((p[0] + t * (q[0] - p[0]), p[1] + t * (q[1] - p[1])))
    return _dedupe(out)


def _dedupe(poly: Polygon, eps: float = 1e-9) -> Polygon:
    out: Polygon = []
    for p in poly:
        if not out or abs(p[0] - out[-1][0]) > eps or abs(p[1] - out[-1][1]) > eps:
            out.append(p)
    while len(out) > 1 and abs(out[0][0] - out[-1][0]) <= eps and abs(out[0][1] - out[-1][1]) <= eps:
        out.pop()
    return out


def voronoi_cell(site: Point, others: list[Point], width: float, height: float) -> Polygon:
    """The cell of ``site`` among ``others`` inside the rectangle [0, width] x [0, height]."""
    cell: Polygon = [(0.0, 0.0), (float(width), 0.0), (float(width), float(height)), (0.0, float(height))]
    sx, sy = site
    for ox, oy in others:
        nx, ny = ox - sx, oy - sy
        if nx == 0 and ny == 0:
            continue  # two locales drawn at one point: neither can claim the other's half
        c = nx * (sx + ox) / 2 + ny * (sy + oy) / 2
        cell = clip_half_plane(cell, nx, ny, c)
        if not cell:
            break
    return cell


def locale_polygons(board) -> dict[str, Polygon]:
    """Every locale's polygon: its ``shape`` if the map gives one, else its Voronoi cell."""
    sites = {lid: (loc.x, loc.y) for lid, loc in board.locales.items()}
    out: dict[str, Polygon] = {}
    for lid, loc in board.locales.items():
        if loc.shape:
            out[lid] = [(float(x), float(y)) for x, y in loc.shape]
        else:
            others = [p for other, p in sites.items() if other != lid]
            out[lid] = voronoi_cell(sites[lid], others, board.width, board.height)
    return out


def shared_edges(pa: Polygon, pb: Polygon, eps: float) -> list[tuple[Point, Point]]:
    """The pieces of boundary two polygons have in common (collinear, overlapping edges)."""
    pieces = []
    for i in range(len(pa)):
        p1, p2 = pa[i], pa[(i + 1) % len(pa)]
        dx, dy = p2[0] - p1[0], p2[1] - p1[1]
        length = math.hypot(dx, dy)
        if length <= eps:
            continue
        for j in range(len(pb)):
            q1, q2 = pb[j], pb[(j + 1) % len(pb)]
            # both ends of the other edge on this edge's line?
            d1 = abs((q1[0] - p1[0]) * dy - (q1[1] - p1[1]) * dx) / length
            d2 = abs((q2[0] - p1[0]) * dy - (q2[1] - p1[1]) * dx) / length
            if d1 > eps or d2 > eps:
                continue
            t1 = ((q1[0] - p1[0]) * dx + (q1[1] - p1[1]) * dy) / length**2
            t2 = ((q2[0] - p1[0]) * dx + (q2[1] - p1[1]) * dy) / length**2
            lo, hi = max(0.0, min(t1, t2)), min(1.0, max(t1, t2))
            if (hi - lo) * length > eps:
                pieces.append(((p1[0] + lo * dx, p1[1] + lo * dy), (p1[0] + hi * dx, p1[1] + hi * dy)))
    return pieces


def approach_segment(board, polygons: dict[str, Polygon], a: str, b: str) -> tuple[Point, Point]:
    """The border between locales a and b as a segment (the longest piece they share).

    If their polygons share no edge, a segment across the a–b line at its
    midpoint, perpendicular to it, 40% as long as the distance between them.
    """
    pieces = shared_edges(polygons[a], polygons[b], _tolerance(board))
    if pieces:
        return max(pieces, key=lambda s: math.dist(*s))
    la, lb = board.locales[a], board.locales[b]
    mx, my = (la.x + lb.x) / 2, (la.y + lb.y) / 2
    dx, dy = lb.x - la.x, lb.y - la.y
    dist = math.hypot(dx, dy) or 1.0
    half = 0.2 * dist
    px, py = -dy / dist * half, dx / dist * half
    return ((mx - px, my - py), (mx + px, my + py))


def centroid(poly: Polygon) -> Point:
    """Area centroid of a simple polygon (vertex mean if degenerate)."""
    area = cx = cy = 0.0
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        cross = x0 * y1 - x1 * y0
        area += cross
        cx += (x0 + x1) * cross
        cy += (y0 + y1) * cross
    if abs(area) < 1e-9:
        return (sum(p[0] for p in poly) / max(n, 1), sum(p[1] for p in poly) / max(n, 1))
    return (cx / (3 * area), cy / (3 * area))


def point_in_polygon(pt: Point, poly: Polygon) -> bool:
    x, y = pt
    inside = False
    n = len(poly)
    for i in range(n):
        x0, y0 = poly[i]
        x1, y1 = poly[(i + 1) % n]
        if (y0 > y) != (y1 > y):
            xi = x0 + (y - y0) * (x1 - x0) / (y1 - y0)
            if xi > x:
                inside = not inside
    return inside


def inward_normal(seg: tuple[Point, Point], toward: Point) -> Point:
    """Unit normal of ``seg`` pointing to the side ``toward`` lies on."""
    (x0, y0), (x1, y1) = seg
    dx, dy = x1 - x0, y1 - y0
    length = math.hypot(dx, dy) or 1.0
    nx, ny = -dy / length, dx / length
    mx, my = (x0 + x1) / 2, (y0 + y1) / 2
    if (toward[0] - mx) * nx + (toward[1] - my) * ny < 0:
        nx, ny = -nx, -ny
    return nx, ny
