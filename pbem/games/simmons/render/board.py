"""The printed board, drawn under the pieces.

Paper and frame, rivers and towns, the locale polygons (washed faintly in the
colour of whoever holds them), roads, impassable borders, approach slots with
their penalty marks and cavalry obstacles, entry points, and the names with
capacities and objective stars.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from .drawing import (INK, INK_SOFT, PAPER, PAPER_DEEP, ROAD, SANS, SERIF, SIDE_COLOUR, SIDE_TINT, STAR, WATER,
                      WATER_PALE, WATER_TEXT, _el, _n, _pts, _smooth, _text, _unit, star, type_symbol)
from .geometry import shared_edges
from .layout import Layout


class BoardLayers(Layout):
    """The layers of the board itself: what is printed, whatever the blocks do."""

    def paper(self) -> str:
        w, h = self.board.width, self.board.height
        return _el("path", d=f"M0,0H{_n(w)}V{_n(h)}H0z", fill=PAPER)

    def frame(self) -> str:
        w, h, u = self.board.width, self.board.height, self.u
        return "".join([
            _el("path", d=f"M0,0H{_n(w)}V{_n(h)}H0z", fill="none", stroke=INK, stroke_width=2.5 * u),
            _el("path", d=f"M{_n(4 * u)},{_n(4 * u)}H{_n(w - 4 * u)}V{_n(h - 4 * u)}H{_n(4 * u)}z",
                fill="none", stroke=INK, stroke_width=0.6 * u),
        ])

    def features(self) -> str:
        u = self.u
        out = []
        for f in self.board.features:
            kind = f.get("kind")
            name = self.spelled(f.get("name", ""))
            if kind in ("river", "stream") and len(f.get("points", [])) >= 2:
                d = _smooth(f["points"])
                if kind == "river":
                    out.append(_el("path", d=d, fill="none", stroke=WATER, stroke_width=7 * u,
                                   stroke_linecap="round", stroke_linejoin="round", stroke_opacity=0.75))
                    out.append(_el("path", d=d, fill="none", stroke=WATER_PALE, stroke_width=2.6 * u,
                                   stroke_linecap="round", stroke_linejoin="round"))
                else:
                    out.append(_el("path", d=d, fill="none", stroke=WATER, stroke_width=2 * u,
                                   stroke_linecap="round", stroke_linejoin="round", stroke_opacity=0.85))
                if name:
                    out.append(self._along_label(f["points"], name, WATER_TEXT, (13 if kind == "river" else 11) * u))
            elif kind == "town" and f.get("at"):
                x, y = f["at"]
                s = 7 * u
                out.append(_el("path", d=f"M{_n(x - s / 2)},{_n(y - s / 2)}h{_n(s)}v{_n(s)}h{_n(-s)}z",
                               fill="#6b5a44", stroke=INK, stroke_width=0.6 * u))
                if name:
                    out.append(_text(x + s, y + s * 1.6, name, 11 * u, font_style="italic", fill="#5a4a36"))
        return "".join(out)

    def spelled(self, name: str) -> str:
        """A name of the map as the reader's language usually spells it (the game's tongue: Маренго, 马伦哥);
        as the map writes it where that language has no spelling of its own, or no tongue is given."""
        return self.tongue.say(name) if hasattr(self, "tongue") and name else name

    def _along_label(self, points, name: str, colour: str, size: float) -> str:
        """A label set along the middle stretch of a line, upright."""
        pts = [(float(x), float(y)) for x, y in points]
        i = max(0, len(pts) // 2 - 1)
        (x0, y0), (x1, y1) = pts[i], pts[i + 1]
        ux, uy = _unit(x1 - x0, y1 - y0)
        if ux < 0:
            ux, uy = -ux, -uy
        angle = math.degrees(math.atan2(uy, ux))
        mx, my = (x0 + x1) / 2 - uy * 8 * self.u, (y0 + y1) / 2 + ux * 8 * self.u
        return _el("text", escape(name), x=mx, y=my, font_size=size, font_family=SERIF,
                   font_style="italic", fill=colour, text_anchor="middle", letter_spacing=1.5 * self.u,
                   transform=f"rotate({_n(angle)} {_n(mx)} {_n(my)})")

    def occupants(self) -> dict[str, set[str]]:
        held: dict[str, set[str]] = {}
        for blk in self.view.get("blocks", []):
            if blk.get("locale") in self.board.locales and blk.get("status", "map") == "map":
                held.setdefault(blk["locale"], set()).add(blk["side"])
        for e in self.view.get("enemy", []):
            if e.get("locale") in self.board.locales:
                held.setdefault(e["locale"], set()).add(e["side"])
        return held

    def held_by(self) -> dict[str, str]:
        """{locale: side} of the locales one side alone holds (washed in its colour)."""
        return {lid: next(iter(sides)) for lid, sides in self.occupants().items() if len(sides) == 1}

    def locales(self, tint: str | None = None) -> str:
        """The locale polygons, washed in the colour of whoever holds them (``tint``: every one
        in that side's colour, for a kept board, pbem.render.layers; "": none). Each polygon is
        written once a board and colour (``kept``)."""
        held = self.held_by() if tint is None else {lid: tint for lid in self.polygons if tint}
        washes = self.kept("locale washes", dict)
        out = []
        for lid, poly in self.polygons.items():
            side = held.get(lid)
            if side and len(poly) >= 3:
                if (lid, side) not in washes:
                    washes[(lid, side)] = _el("polygon", points=_pts(poly), fill=SIDE_TINT.get(side, PAPER_DEEP))
                out.append(washes[(lid, side)])
        return "".join(out) + self.kept("locale outlines", self._locale_outlines)

    def _locale_outlines(self) -> str:
        u = self.u
        out = []
        for lid, poly in self.polygons.items():
            if len(poly) >= 3:
                # crisp: fine straight ink costs a third of its anti-aliased bytes in the PNG, and looks engraved;
                # data-locale: where a click on the game page sends blocks (the game's map_clicks)
                out.append(_el("polygon", points=_pts(poly), fill="none", stroke=INK_SOFT,
                               stroke_width=1.1 * u, stroke_linejoin="round", shape_rendering="crispEdges",
                               data_locale=self.place_name(lid, None)))
        return "".join(out)

    def roads(self) -> str:
        u = self.u
        out = []
        for kind in ("secondary", "main"):
            for road in self.board.roads.values():
                if road.kind != kind:
                    continue
                path = [p for p in road.path if p in self.board.locales]
                pts = []
                for i, lid in enumerate(path):
                    loc = self.board.locales[lid]
                    pts.append((loc.x, loc.y))
                    if i + 1 < len(path):
                        (x0, y0), (x1, y1) = self.segment(lid, path[i + 1])
                        pts.append(((x0 + x1) / 2, (y0 + y1) / 2))
                if len(pts) < 2:
                    continue
                d = _smooth(pts)
                w = 2.6 * u if kind == "main" else 1.8 * u
                out.append(_el("path", d=d, fill="none", stroke=ROAD[kind], stroke_width=w,
                               stroke_linecap="round", stroke_linejoin="round",
                               stroke_dasharray=None if kind == "main" else f"{_n(7 * u)} {_n(2.5 * u)}"))
        return "".join(out)

    def impassables(self) -> str:
        u = self.u
        out = []
        tol = max(self.board.width, self.board.height) * 1e-3
        # a set: drawn in sorted order, so the drawing is the same in every process
        for pair in sorted(self.board.impassable, key=sorted):
            a, b = sorted(pair)
            if a not in self.polygons or b not in self.polygons:
                continue
            pieces = shared_edges(self.polygons[a], self.polygons[b], tol) or [self.segment(a, b)]
            for (x0, y0), (x1, y1) in pieces:
                ux, uy = _unit(x1 - x0, y1 - y0)
                length = math.dist((x0, y0), (x1, y1))
                out.append(_el("path", d=f"M{_n(x0)},{_n(y0)}L{_n(x1)},{_n(y1)}", stroke=INK,
                               stroke_width=3.2 * u, stroke_linecap="butt"))
                step, h = 7 * u, 5.5 * u
                ticks = []
                k = step / 2
                while k < length:
                    cx, cy = x0 + ux * k, y0 + uy * k
                    # slanted hatching across the line
                    ax, ay = (ux - uy) * h / 1.41, (uy + ux) * h / 1.41
                    ticks.append(f"M{_n(cx - ax)},{_n(cy - ay)}L{_n(cx + ax)},{_n(cy + ay)}")
                    k += step
                if ticks:
                    out.append(_el("path", d="".join(ticks), stroke=INK, stroke_width=1.3 * u))
        return "".join(out)

    def approaches(self, printed: bool = True, marks: bool = True) -> str:
        """Every approach: its slot (one or two blocks long), penalty marks, cavalry obstacle bar.
        ``printed``: the slots and obstacle bars; ``marks``: the penalty marks (which move behind
        the blocks that hold an approach, so a kept board has none: pbem.render.layers).
        What is printed is drawn once a board (``kept``), the marks once an approach and number of
        blocks holding it: a map only puts them together."""
        occupancy: dict[tuple, int] = {}
        for blk in self._own_blocks() + self._enemy_blocks():
            key = (blk["locale"], blk.get("facing"))
            occupancy[key] = occupancy.get(key, 0) + 1
        slot_path, hits, each = self.kept("approaches", self._printed_approaches)
        out = []
        for a, b, obstacle, marked in each:
            if printed and obstacle:
                out.append(obstacle)
            if marked and marks:
                out.append(self._approach_marks(a, b, occupancy.get((a, b), 0)))
        return (slot_path if printed else "") + "".join(out) + (hits if printed else "")

    def _printed_approaches(self) -> tuple[str, str, list[tuple[str, str, str, bool]]]:
        """(the slots' path, the slots' areas, (a, b, the cavalry obstacle's bar or "", whether it has
        penalty marks) for each approach drawn), as every map of the board prints them."""
        u = self.u
        slots, hits, each = [], [], []
        for (a, b), ap in self.board.approaches.items():
            if a not in self.board.locales or b not in self.board.locales:
                continue
            place = self.place(a, b)
            full = ap.width * place.block_len + (ap.width - 1) * self.gap
            d0 = self.inset
            # the slot, marked like a ruler on the border: a tick at each end (and the middle, if wide)
            ticks = [-full / 2, full / 2] + ([0.0] if ap.width == 2 else [])
            # the slot's area, unpainted: where a click on the game page sends blocks (the game's map_clicks)
            corners = [place.at(-full / 2, 0.0), place.at(full / 2, 0.0), place.at(full / 2, d0 + self.T),
                       place.at(-full / 2, d0 + self.T)]
            hits.append(_el("polygon", points=_pts(corners), fill="none", data_approach=self.place_name(a, b)))
            for t in ticks:
                (x0, y0), (x1, y1) = place.at(t, 0.0), place.at(t, d0 + self.T * 0.3)
                slots.append(f"M{_n(x0)},{_n(y0)}L{_n(x1)},{_n(y1)}")
            obstacle = ""
            if ap.cavalry_obstacle:
                (x0, y0), (x1, y1) = place.at(-full / 2, self.inset * 0.45), place.at(full / 2, self.inset * 0.45)
                obstacle = _el("path", d=f"M{_n(x0)},{_n(y0)}L{_n(x1)},{_n(y1)}", stroke=INK,
                               stroke_width=max(2.4 * u, self.inset * 0.55), stroke_linecap="butt")
            each.append((a, b, obstacle, bool(ap.infantry or ap.cavalry or ap.artillery)))
        slot_path = _el("path", d="".join(slots), fill="none", stroke=INK, stroke_width=1.1 * u,
                        stroke_linecap="butt", shape_rendering="crispEdges") if slots else ""
        return slot_path, "".join(hits), each

    def _approach_marks(self, a: str, b: str, held: int) -> str:
        """The penalty marks of approach (a, b) as printed in its slot, or behind the last row of the
        ``held`` blocks holding it; drawn once a board and number held (``kept``)."""
        kept = self.kept("approach marks", dict)
        if (a, b, held) not in kept:
            ap, place = self.board.approaches[(a, b)], self.place(a, b)
            kinds = ["infantry"] * ap.infantry + ["cavalry"] * ap.cavalry + ["artillery"] * ap.artillery
            mark_s = self.T * 0.5
            depth = self.inset + self.T / 2
            if held:
                depth = self.inset + math.ceil(held / ap.width) * (self.T + self.gap) + mark_s * 0.6
            pitch = mark_s * 1.3
            marks = []
            for i, kind in enumerate(kinds):
                x, y = place.at((i - (len(kinds) - 1) / 2) * pitch, depth)
                marks.append(type_symbol(kind, x, y, mark_s, INK, 0.9 * self.u, crisp=True))
            kept[(a, b, held)] = "".join(marks)
        return kept[(a, b, held)]

    def entries(self) -> str:
        """Entry points: a chevron onto the map for a road, a little bridge for a pontoon; the name below."""
        u, w, h = self.u, self.board.width, self.board.height
        out = []
        for entry in self.board.entries.values():
            if entry.locale not in self.board.locales:
                continue
            loc = self.board.locales[entry.locale]
            if entry.x is not None and entry.y is not None:
                ex, ey = float(entry.x), float(entry.y)
            else:
                ex, ey = self.edge_point(loc.x, loc.y) if entry.kind == "road" else (loc.x, loc.y + 2.2 * self.T)
            colour = SIDE_COLOUR.get(entry.side, INK)
            s = 10 * u
            if entry.kind == "pontoon":
                cx = min(max(ex, s + 6 * u), w - s - 6 * u)
                cy = min(max(ey, s + 6 * u), h - s - 6 * u)
                out.append(_el("path", d=f"M{_n(cx - s)},{_n(cy - s / 2)}h{_n(2 * s)}M{_n(cx - s)},{_n(cy + s / 2)}"
                                         f"h{_n(2 * s)}M{_n(cx - s / 2)},{_n(cy - s / 2)}v{_n(s)}M{_n(cx + s / 2)},"
                                         f"{_n(cy - s / 2)}v{_n(s)}", stroke=colour, stroke_width=1.8 * u))
            else:
                ux, uy = _unit(loc.x - ex, loc.y - ey)
                cx, cy = ex + ux * s, ey + uy * s
                tri = [(cx + ux * s, cy + uy * s), (cx - uy * s * 0.8, cy + ux * s * 0.8),
                       (cx + uy * s * 0.8, cy - ux * s * 0.8)]
                out.append(_el("polygon", points=_pts(tri), fill=colour, stroke=INK, stroke_width=0.6 * u))
            anchor, lx = "middle", cx
            if cx < 0.15 * w:
                anchor, lx = "start", max(cx - s, 6 * u)
            elif cx > 0.85 * w:
                anchor, lx = "end", min(cx + s, w - 6 * u)
            ly = cy + s * 2.2 if cy < h - 3 * s else cy - s * 1.6
            name = self.tongue.gettext(entry.name) if hasattr(self, "tongue") else entry.name  # "route de Tortone"
            out.append(_text(lx, ly, name, 10 * u, text_anchor=anchor, fill=colour, font_style="italic",
                             stroke=PAPER, stroke_width=2.5 * u, paint_order="stroke"))
        return "".join(out)

    def labels(self) -> str:
        """Locale names (long ones on two lines), the capacity after, the objective star before."""
        u, w = self.u, self.board.width
        out = []
        size = 12 * u
        cap_size = 10.5 * u
        for loc in self.board.locales.values():
            lines = _wrap(self.spelled(loc.name), 17)
            cap = str(loc.capacity)
            widths = [len(line) * size * 0.52 for line in lines]
            widths[-1] += 3 * u + len(cap) * cap_size * 0.65
            half = max(widths) / 2
            if loc.label:
                lx, ly = float(loc.label[0]), float(loc.label[1])
            else:
                rows = self.reserve_rows(loc.id)
                lx, ly = loc.x, loc.y - rows * (self.T + self.gap) / 2 - 6 * u
            star_room = 20 * u if loc.objective else 0.0
            lx = min(max(lx, 8 * u + half + star_room), w - 8 * u - half)
            lead = size * 1.1
            spans = []
            for i, line in enumerate(lines):
                spans.append(_el("tspan", escape(line), x=lx, dy=None if i == 0 else lead))
            spans.append(_el("tspan", escape(cap), dx=3 * u, font_family=SANS, font_style="normal",
                             font_weight="bold", font_size=cap_size))
            top = ly - (len(lines) - 1) * lead
            out.append(_el("text", "".join(spans), x=lx, y=top, font_size=size, font_family=SERIF,
                           font_style="italic", fill=INK, text_anchor="middle", stroke=PAPER,
                           stroke_width=3 * u, paint_order="stroke", stroke_linejoin="round"))
            if loc.objective:
                out.append(star(lx - half - 10 * u, (top + ly) / 2 - size * 0.35, 8.5 * u,
                                STAR.get(loc.objective, INK), INK, 0.8 * u))
        return "".join(out)


def _wrap(name: str, limit: int) -> list[str]:
    """A long name split at the space nearest its middle (two lines at most)."""
    if len(name) <= limit or " " not in name:
        return [name]
    middle = len(name) / 2
    cut = min((i for i, c in enumerate(name) if c == " "), key=lambda i: abs(i - middle))
    return [name[:cut], name[cut + 1:]]
