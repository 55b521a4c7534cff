"""The last day's moves as arrows in the mover's colour.

Moves, road marches (along the roads), entries, attacks and assaults (a star
where one broke through), retreats (dark and dashed) and assaults thrown back
(a short barred arrow); a number on an arrow counts its blocks.
"""

from __future__ import annotations

import math

from .drawing import INK, PAPER, SANS, SIDE_COLOUR, SIDE_DARK, _el, _n, _pts, _smooth, _text, _unit, star
from .layout import Layout


class MoveLayer(Layout):
    """The arrows of the moves in the view's ``last_moves``."""

    @staticmethod
    def _where(value) -> tuple[str | None, str | None]:
        """(locale, facing) from a move's ``from`` or ``to``: [locale, facing], [locale] or a locale."""
        if isinstance(value, (list, tuple)) and value:
            return value[0], (value[1] if len(value) > 1 else None)
        if isinstance(value, str):
            return value, None
        return None, None

    def point_of(self, locale, facing):
        """Where the blocks of a place stand: the reserve point, or the middle of the approach's slot."""
        if locale not in self.board.locales:
            return None
        if facing in self.board.locales and facing != locale:
            return self.place(locale, facing).at(0, self.inset + self.T / 2)
        loc = self.board.locales[locale]
        return (loc.x, loc.y)

    def entry_point(self, entry_id, locale) -> tuple[float, float] | None:
        entry = self.board.entries.get(entry_id) if isinstance(entry_id, str) else None
        if entry is not None and entry.x is not None and entry.y is not None:
            return (float(entry.x), float(entry.y))
        loc = self.board.locales.get(entry.locale if entry else locale)
        return self.edge_point(loc.x, loc.y) if loc else None

    def road_route(self, a: str, b: str) -> list[str]:
        """The locales from a to b along roads, fewest steps (just [a, b] if no road joins them)."""
        previous = {a: None}
        frontier = [a]
        while frontier and b not in previous:
            nxt = []
            for here in frontier:
                for there, _road in self.board.road_neighbours(here):
                    if there not in previous:
                        previous[there] = here
                        nxt.append(there)
            frontier = nxt
        if b not in previous:
            return [a, b]
        route = [b]
        while route[-1] != a:
            route.append(previous[route[-1]])
        return route[::-1]

    def arrows(self) -> str:
        """The last day's moves: arrows in the mover's colour (retreats dark and dashed)."""
        out = []
        seen: dict[tuple, int] = {}
        for move in self.view.get("last_moves", []):
            kind = move.get("kind", "move")
            side = move.get("side")
            count = int(move.get("count", 1) or 1)
            (fl, ff), (tl, tf) = self._where(move.get("from")), self._where(move.get("to"))
            if kind == "recoil":
                if fl in self.board.locales and ff in self.board.locales:
                    out.append(self._repulsed(fl, ff, side, count))
                continue
            finish = self.point_of(tl, tf)
            if finish is None:
                continue
            if kind == "entry":
                start = self.entry_point(move.get("entry") or fl, tl)
                pts = [start, finish] if start else []
            elif kind == "road" and fl in self.board.locales and fl != tl:
                route = [lid for lid in move.get("path", []) if lid in self.board.locales]
                if len(route) < 2 or route[0] != fl or route[-1] != tl:
                    route = self.road_route(fl, tl)
                pts = []
                for i, lid in enumerate(route):
                    loc = self.board.locales[lid]
                    pts.append((loc.x, loc.y))
                    if i + 1 < len(route):
                        (x0, y0), (x1, y1) = self.segment(lid, route[i + 1])
                        pts.append(((x0 + x1) / 2, (y0 + y1) / 2))
                pts[-1] = finish
            else:
                start = self.point_of(fl, ff)
                pts = [start, finish] if start else []
            if len(pts) < 2 or (len(pts) == 2 and math.dist(pts[0], pts[1]) < 1e-6):
                continue
            key = tuple(round(v) for v in (*pts[0], *pts[-1]))
            bend = 0.14 + 0.12 * seen.get(key, 0)
            seen[key] = seen.get(key, 0) + 1
            burst = None
            if kind == "assault" and fl in self.board.locales and ff in self.board.locales:
                burst = self.place(fl, ff).at(0, 0)
            out.append(self._arrow(pts, side, kind, count, bend, burst, inside=fl == tl))
        return "".join(out)

    def _repulsed(self, here: str, there: str, side, count: int) -> str:
        """An assault thrown back: a short thick arrow from the approach up to the border, barred."""
        u = self.u
        place = self.place(here, there)
        colour = SIDE_COLOUR.get(side, INK)
        w = 3.6 * u
        (sx, sy), (ex, ey) = place.at(0, self.inset + self.T * 2.4), place.at(0, 2.5 * u)
        tx, ty = -place.nx, -place.ny  # toward the border
        head, hw = w * 3, w * 1.7
        bx, by = ex - tx * head * 0.8, ey - ty * head * 0.8
        tip = [(ex, ey), (ex - tx * head - ty * hw, ey - ty * head + tx * hw),
               (ex - tx * head * 0.72, ey - ty * head * 0.72), (ex - tx * head + ty * hw, ey - ty * head - tx * hw)]
        (cx0, cy0), (cx1, cy1) = place.at(-self.T, -2.5 * u), place.at(self.T, -2.5 * u)
        out = [
            _el("path", d=f"M{_n(sx)},{_n(sy)}L{_n(bx)},{_n(by)}", stroke=PAPER, stroke_width=w + 3 * u,
                stroke_opacity=0.8),
            _el("path", d=f"M{_n(sx)},{_n(sy)}L{_n(bx)},{_n(by)}", stroke=colour, stroke_width=w),
            _el("polygon", points=_pts(tip), fill=colour, stroke=PAPER, stroke_width=0.8 * u),
            _el("path", d=f"M{_n(cx0)},{_n(cy0)}L{_n(cx1)},{_n(cy1)}", stroke=INK, stroke_width=3.2 * u,
                stroke_linecap="round"),
        ]
        if count > 1:
            out.append(self._count(sx, sy, count, colour))
        return "".join(out)

    def _count(self, x: float, y: float, count: int, colour: str) -> str:
        u = self.u
        return (_el("circle", cx=x, cy=y, r=7.5 * u, fill=PAPER, stroke=colour, stroke_width=1.4 * u)
                + _text(x, y + 3.8 * u, str(count), 10.5 * u, font_family=SANS, font_weight="bold", fill=colour,
                        text_anchor="middle"))

    def _arrow(self, pts, side, kind: str, count: int, bend: float, burst=None, inside: bool = False) -> str:
        u = self.u
        colour = SIDE_DARK.get(side, INK) if kind == "retreat" else SIDE_COLOUR.get(side, INK)
        width = {"assault": 4.4, "attack": 3.6, "retreat": 2.6, "road": 2.6}.get(kind, 3.0) * u
        if inside:  # between the reserve and an approach of one locale
            width = 2.2 * u
        head = width * 3.2
        # shorten the ends so the arrow sits between the places, not under the blocks
        (sx, sy), (ex, ey) = pts[0], pts[-1]
        trim_start = 0.0 if kind == "entry" else self.T * 0.8
        trim_end = self.T * 0.9
        if len(pts) == 2:
            dx, dy = ex - sx, ey - sy
            length = math.hypot(dx, dy)
            ux, uy = dx / length, dy / length
            trim_start = min(trim_start, length * 0.25)
            trim_end = min(trim_end, length * 0.25)
            sx, sy = sx + ux * trim_start, sy + uy * trim_start
            ex, ey = ex - ux * trim_end, ey - uy * trim_end
            length = math.hypot(ex - sx, ey - sy)
            cx = (sx + ex) / 2 - uy * length * bend
            cy = (sy + ey) / 2 + ux * length * bend
            tx, ty = _unit(ex - cx, ey - cy)
            bx, by = ex - tx * head * 0.8, ey - ty * head * 0.8
            d = f"M{_n(sx)},{_n(sy)}Q{_n(cx)},{_n(cy)} {_n(bx)},{_n(by)}"
            mid = (0.25 * sx + 0.5 * cx + 0.25 * ex, 0.25 * sy + 0.5 * cy + 0.25 * ey)
            if length < 3 * self.T:
                mid = (sx, sy)
        else:
            ux, uy = _unit(pts[-1][0] - pts[-2][0], pts[-1][1] - pts[-2][1])
            ex, ey = ex - ux * trim_end, ey - uy * trim_end
            tx, ty = ux, uy
            bx, by = ex - tx * head * 0.8, ey - ty * head * 0.8
            d = _smooth(pts[:-1] + [(bx, by)])
            mid = pts[len(pts) // 2]
        dash = f"{_n(5 * u)} {_n(3.5 * u)}" if kind == "retreat" else None
        out = [
            _el("path", d=d, fill="none", stroke=PAPER, stroke_width=width + 3 * u, stroke_linecap="round",
                stroke_opacity=0.8),
            _el("path", d=d, fill="none", stroke=colour, stroke_width=width, stroke_linecap="round",
                stroke_dasharray=dash),
        ]
        hw = head * 0.55
        tip = [(ex, ey), (ex - tx * head - ty * hw, ey - ty * head + tx * hw),
               (ex - tx * head * 0.72, ey - ty * head * 0.72), (ex - tx * head + ty * hw, ey - ty * head - tx * hw)]
        out.append(_el("polygon", points=_pts(tip), fill=colour, stroke=PAPER, stroke_width=0.8 * u,
                       stroke_linejoin="round"))
        if burst is not None:
            out.append(star(burst[0], burst[1], 9 * u, "#f2c230", colour, 1.0 * u))
        if kind == "entry":
            out.append(_el("circle", cx=pts[0][0], cy=pts[0][1], r=width * 1.3, fill=colour, stroke=PAPER,
                           stroke_width=0.8 * u))
        if count > 1:
            out.append(self._count(mid[0], mid[1], count, colour))
        return "".join(out)
