"""The map of one side's view as a standalone SVG document ("Le Look").

A 19th-century battle map: parchment, fine ink, the armies as straight
geometric bars, Austria red and France blue (003 §4 and the designer's
notes). Layers, bottom to top: paper, rivers and towns, the locale polygons
(washed faintly in the colour of whoever holds them), roads, impassable
borders, approach slots with their symbols, names, capacities and objective
stars, the blocks, then the arrows of the last day's moves. A band above the
map gives the clock and morale, a band below the reinforcements and a legend.

What the SVG says about the enemy is exactly what the view gives: a bar of
the enemy's colour at a place, with its type and strength only while
``revealed``. Enemy elements come in the view's order and carry no id, class
or data attribute derived from a block; the document has no comments and no
titles. The only ``<rect>`` elements are the blocks on the map, one each.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

from .geometry import (approach_segment, centroid, inward_normal, locale_polygons, point_in_polygon,
                       shared_edges)

PAPER = "#f3ead2"
PAPER_DEEP = "#e8dbbb"
INK = "#3b2f20"
INK_SOFT = "#9a8866"
SIDE_COLOUR = {"austria": "#b22222", "france": "#1f3f99"}
SIDE_PALE = {"austria": "#dc9a92", "france": "#98a6d4"}
SIDE_TINT = {"austria": "#f1d5c6", "france": "#d9dff0"}
SIDE_DARK = {"austria": "#6e1010", "france": "#101f55"}
SIDE_NAME = {"austria": "Austria", "france": "France"}
SIDE_ADJ = {"austria": "Austrian", "france": "French"}
STAR = {"red": "#c62828", "green": "#2e7d32", "blue": "#1c5fb8"}
ROAD = {"main": "#c0392b", "secondary": "#8b5a2b"}
WATER, WATER_PALE = "#5b8cc4", "#a9c4e4"
SERIF = "DejaVu Serif, Georgia, 'Times New Roman', serif"
SANS = "DejaVu Sans, Verdana, Arial, sans-serif"
OTHER = {"austria": "france", "france": "austria"}


def _n(v: float) -> str:
    """A coordinate, short: two decimals at most."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _pts(points) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _attrs(attrs: dict) -> str:
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = _n(value)
        out.append(f' {key.replace("_", "-")}="{escape(str(value), {chr(34): "&quot;"})}"')
    return "".join(out)


def _el(tag: str, content: str | None = None, **attrs) -> str:
    if content is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{content}</{tag}>"


def _text(x: float, y: float, text: str, size: float, **attrs) -> str:
    attrs.setdefault("font_family", SERIF)
    attrs.setdefault("fill", INK)
    return _el("text", escape(str(text)), x=float(x), y=float(y), font_size=float(size), **attrs)


def _unit(dx: float, dy: float) -> tuple[float, float]:
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _smooth(points) -> str:
    """A path through ``points`` (Catmull–Rom turned into cubic Béziers)."""
    pts = [(float(x), float(y)) for x, y in points]
    if len(pts) < 3:
        return "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in pts)
    d = [f"M{_n(pts[0][0])},{_n(pts[0][1])}"]
    for i in range(len(pts) - 1):
        p0 = pts[i - 1] if i else pts[i]
        p1, p2 = pts[i], pts[i + 1]
        p3 = pts[i + 2] if i + 2 < len(pts) else p2
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        d.append(f"C{_n(c1[0])},{_n(c1[1])} {_n(c2[0])},{_n(c2[1])} {_n(p2[0])},{_n(p2[1])}")
    return " ".join(d)


# -- symbols (drawn, never typed, so they need no font) ---------------------

def type_symbol(kind: str, x: float, y: float, s: float, colour: str, width: float, crisp: bool = False) -> str:
    """The face symbol of a block type centred at (x, y), ``s`` wide: ☒ infantry, ◫ cavalry, ● artillery.

    ``crisp``: no anti-aliasing (the small penalty marks: sharper, and far fewer PNG bytes).
    """
    h = s / 2
    if kind == "artillery":
        return _el("circle", cx=x, cy=y, r=s * 0.36, fill=colour)
    box = f"M{_n(x - h)},{_n(y - h)}h{_n(s)}v{_n(s)}h{_n(-s)}z"
    if kind == "infantry":
        cross = f"M{_n(x - h)},{_n(y - h)}L{_n(x + h)},{_n(y + h)}M{_n(x + h)},{_n(y - h)}L{_n(x - h)},{_n(y + h)}"
    else:  # cavalry: one diagonal
        cross = f"M{_n(x - h)},{_n(y + h)}L{_n(x + h)},{_n(y - h)}"
    return _el("path", d=box + cross, fill="none", stroke=colour, stroke_width=width, stroke_linejoin="miter",
               shape_rendering="crispEdges" if crisp else None)


def star(x: float, y: float, r: float, fill: str, stroke: str, width: float) -> str:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.42
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((x + rad * math.cos(a), y + rad * math.sin(a)))
    return _el("polygon", points=_pts(pts), fill=fill, stroke=stroke, stroke_width=width, stroke_linejoin="round")


class _Place:
    """Where blocks stand: a locale's reserve, or the inner side of one of its approaches."""

    def __init__(self, x, y, ux, uy, nx, ny, width, room, block_len):
        self.x, self.y = x, y  # anchor: centre of the reserve, or middle of the border
        self.ux, self.uy = ux, uy  # along the row of blocks
        self.nx, self.ny = nx, ny  # into the locale (rows stack this way)
        self.width = width  # blocks abreast
        self.room = room  # length of the border
        self.block_len = block_len

    @property
    def angle(self) -> float:
        return math.degrees(math.atan2(self.uy, self.ux))

    def at(self, along: float, depth: float) -> tuple[float, float]:
        return (self.x + self.ux * along + self.nx * depth, self.y + self.uy * along + self.ny * depth)


class MapRenderer:
    """Draws one view of one board. Use :func:`render_svg`."""

    def __init__(self, board, view: dict, title: str | None = None):
        self.board = board
        self.view = view
        self.viewer = view.get("viewer")
        self.title = title
        self.u = board.width / 1400.0
        self.polygons = locale_polygons(board)
        self._segments: dict[tuple[str, str], tuple] = {}
        self._size_blocks()
        self.header_h = 78 * self.u
        self.places: dict[tuple[str, str | None], _Place] = {}
        self._cols: dict[str, int] = {}

    # -- geometry -----------------------------------------------------------

    def segment(self, a: str, b: str):
        key = (a, b)
        if key not in self._segments:
            self._segments[key] = approach_segment(self.board, self.polygons, a, b)
        return self._segments[key]

    def _size_blocks(self) -> None:
        """Block length and thickness: 58 x 17 at 1400 wide, smaller if narrow approaches are short."""
        u = self.u
        lengths = sorted(math.dist(*self.segment(a, b)) for (a, b), ap in self.board.approaches.items()
                         if ap.width == 1)
        scale = 1.0
        if lengths:
            median = lengths[len(lengths) // 2]
            scale = max(0.6, min(1.0, median / (1.25 * 58 * u)))
        self.L = 58 * u * scale
        self.T = 17 * u * scale
        self.gap = 2.5 * u * scale
        self.inset = 5 * u * scale

    def place(self, locale: str, facing: str | None) -> _Place:
        key = (locale, facing)
        if key in self.places:
            return self.places[key]
        loc = self.board.locales[locale]
        if facing is None or facing not in self.board.locales or facing == locale:
            place = _Place(loc.x, loc.y, 1.0, 0.0, 0.0, 1.0, 2, 0.0, self.L)
        else:
            seg = self.segment(locale, facing)
            (x0, y0), (x1, y1) = seg
            ux, uy = _unit(x1 - x0, y1 - y0)
            if ux < -1e-9 or (abs(ux) <= 1e-9 and uy < 0):
                ux, uy = -ux, -uy  # keep labels upright
            inside = centroid(self.polygons[locale]) if self.polygons.get(locale) else (loc.x, loc.y)
            nx, ny = inward_normal(seg, inside)
            ap = self.board.approaches.get((locale, facing))
            width = ap.width if ap else 1
            room = math.dist(*seg)
            full = width * self.L + (width - 1) * self.gap
            block_len = self.L * max(0.55, min(1.0, 0.94 * room / full))
            place = _Place((x0 + x1) / 2, (y0 + y1) / 2, ux, uy, nx, ny, width, room, block_len)
        self.places[key] = place
        return place

    def reserve_cols(self, locale: str) -> int:
        """Blocks abreast in a locale's reserve: two, unless one (or three) keeps a full reserve inside it."""
        if locale not in self._cols:
            loc = self.board.locales[locale]
            poly = self.polygons.get(locale) or []
            n = max(1, loc.capacity)
            best, best_out = 2, None
            for cols in (2, 1, 3):
                if cols > n or (cols == 1 and n > 4):
                    continue
                outside = 0
                for x, y in self._reserve_centres(loc.x, loc.y, n, cols):
                    for dx in (-self.L / 2, self.L / 2):
                        for dy in (-self.T / 2, self.T / 2):
                            outside += len(poly) >= 3 and not point_in_polygon((x + dx, y + dy), poly)
                if best_out is None or outside < best_out:
                    best, best_out = cols, outside
            self._cols[locale] = best
        return self._cols[locale]

    def _reserve_centres(self, x: float, y: float, n: int, cols: int) -> list[tuple[float, float]]:
        rows = math.ceil(n / cols)
        out = []
        for k in range(n):
            r, c = divmod(k, cols)
            in_row = min(cols, n - r * cols)
            out.append((x + (c - (in_row - 1) / 2) * (self.L + self.gap), y + (r - (rows - 1) / 2) * (self.T + self.gap)))
        return out

    def reserve_rows(self, locale: str) -> int:
        return math.ceil(max(1, self.board.locales[locale].capacity) / self.reserve_cols(locale))

    def positions(self, locale: str, facing: str | None, n: int) -> list[tuple[float, float, float, float]]:
        """(x, y, angle, length) of the n blocks at a place, in filling order."""
        place = self.place(locale, facing)
        out = []
        if place.room == 0.0:  # reserve: rows centred on the point, two abreast as a rule
            cols = min(n, self.reserve_cols(locale)) if n <= self.board.locales[locale].capacity else 3
            return [(x, y, 0.0, self.L) for x, y in self._reserve_centres(place.x, place.y, n, max(1, cols))]
        bl = place.block_len
        for k in range(n):
            r, c = divmod(k, place.width)
            in_row = min(place.width, n - r * place.width)
            along = (c - (in_row - 1) / 2) * (bl + self.gap)
            depth = self.inset + self.T / 2 + r * (self.T + self.gap)
            x, y = place.at(along, depth)
            out.append((x, y, place.angle, bl))
        return out

    # -- the document -------------------------------------------------------

    def render(self) -> str:
        b = self.board
        footer = self.footer()
        footer_h = self.footer_h
        total_h = self.header_h + b.height + footer_h
        map_layers = [
            self.paper(),
            self.features(),
            self.locales(),
            self.roads(),
            self.impassables(),
            self.approaches(),
            self.entries(),
            self.labels(),
            self.blocks(),
            self.arrows(),
            self.frame(),
        ]
        parts = [
            f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(b.width)}" '
            f'height="{_n(total_h)}" viewBox="0 0 {_n(b.width)} {_n(total_h)}">',
            _el("path", d=f"M0,0H{_n(b.width)}V{_n(total_h)}H0z", fill=PAPER_DEEP),
            self.header(),
            f'<g transform="translate(0 {_n(self.header_h)})">',
            f'<clipPath id="map-area"><path d="M0,0H{_n(b.width)}V{_n(b.height)}H0z"/></clipPath>',
            '<g clip-path="url(#map-area)">',
            *[layer for layer in map_layers if layer],
            "</g>",
            "</g>",
            f'<g transform="translate(0 {_n(self.header_h + b.height)})">',
            footer,
            "</g>",
            "</svg>",
        ]
        return "\n".join(parts) + "\n"

    # -- map layers ---------------------------------------------------------

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
            name = f.get("name", "")
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
                    out.append(self._along_label(f["points"], name, WATER, (13 if kind == "river" else 11) * u))
            elif kind == "town" and f.get("at"):
                x, y = f["at"]
                s = 7 * u
                out.append(_el("path", d=f"M{_n(x - s / 2)},{_n(y - s / 2)}h{_n(s)}v{_n(s)}h{_n(-s)}z",
                               fill="#6b5a44", stroke=INK, stroke_width=0.6 * u))
                if name:
                    out.append(_text(x + s, y + s * 1.6, name, 11 * u, font_style="italic", fill="#5a4a36"))
        return "".join(out)

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

    def locales(self) -> str:
        u = self.u
        held = self.occupants()
        out = []
        for lid, poly in self.polygons.items():
            if len(poly) < 3:
                continue
            sides = held.get(lid, set())
            if len(sides) == 1:
                side = next(iter(sides))
                out.append(_el("polygon", points=_pts(poly), fill=SIDE_TINT.get(side, PAPER_DEEP)))
        for lid, poly in self.polygons.items():
            if len(poly) >= 3:
                # crisp: fine straight ink costs a third of its anti-aliased bytes in the PNG, and looks engraved
                out.append(_el("polygon", points=_pts(poly), fill="none", stroke=INK_SOFT,
                               stroke_width=1.1 * u, stroke_linejoin="round", shape_rendering="crispEdges"))
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
        for pair in self.board.impassable:
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

    def approaches(self) -> str:
        """Every approach: its slot (one or two blocks long), penalty marks, cavalry obstacle bar."""
        u = self.u
        slots, marks = [], []
        mark_s = self.T * 0.5
        occupancy: dict[tuple, int] = {}
        for blk in self._own_blocks() + self._enemy_blocks():
            key = (blk["locale"], blk.get("facing"))
            occupancy[key] = occupancy.get(key, 0) + 1
        for (a, b), ap in self.board.approaches.items():
            if a not in self.board.locales or b not in self.board.locales:
                continue
            place = self.place(a, b)
            bl = place.block_len
            full = ap.width * bl + (ap.width - 1) * self.gap
            d0 = self.inset
            # the slot, marked like a ruler on the border: a tick at each end (and the middle, if wide)
            ticks = [-full / 2, full / 2] + ([0.0] if ap.width == 2 else [])
            for t in ticks:
                (x0, y0), (x1, y1) = place.at(t, 0.0), place.at(t, d0 + self.T * 0.3)
                slots.append(f"M{_n(x0)},{_n(y0)}L{_n(x1)},{_n(y1)}")
            if ap.cavalry_obstacle:
                (x0, y0), (x1, y1) = place.at(-full / 2, self.inset * 0.45), place.at(full / 2, self.inset * 0.45)
                marks.append(_el("path", d=f"M{_n(x0)},{_n(y0)}L{_n(x1)},{_n(y1)}", stroke=INK,
                                 stroke_width=max(2.4 * u, self.inset * 0.55), stroke_linecap="butt"))
            kinds = ["infantry"] * ap.infantry + ["cavalry"] * ap.cavalry + ["artillery"] * ap.artillery
            if not kinds:
                continue
            # in the slot, as printed on the board; behind the last row of blocks when it is held
            held = occupancy.get((a, b), 0)
            depth = self.inset + self.T / 2
            if held:
                depth = self.inset + math.ceil(held / ap.width) * (self.T + self.gap) + mark_s * 0.6
            pitch = mark_s * 1.3
            for i, kind in enumerate(kinds):
                x, y = place.at((i - (len(kinds) - 1) / 2) * pitch, depth)
                marks.append(type_symbol(kind, x, y, mark_s, INK, 0.9 * u, crisp=True))
        slot_path = _el("path", d="".join(slots), fill="none", stroke=INK, stroke_width=1.1 * u,
                        stroke_linecap="butt", shape_rendering="crispEdges") if slots else ""
        return slot_path + "".join(marks)

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
            out.append(_text(lx, ly, entry.name, 10 * u, text_anchor=anchor, fill=colour, font_style="italic",
                             stroke=PAPER, stroke_width=2.5 * u, paint_order="stroke"))
        return "".join(out)

    def edge_point(self, x: float, y: float) -> tuple[float, float]:
        w, h = self.board.width, self.board.height
        return min([(x, 0.0), (x, h), (0.0, y), (w, y)], key=lambda p: math.dist(p, (x, y)))

    def labels(self) -> str:
        """Locale names (long ones on two lines), the capacity after, the objective star before."""
        u, w = self.u, self.board.width
        out = []
        size = 12 * u
        cap_size = 10.5 * u
        for loc in self.board.locales.values():
            lines = _wrap(loc.name, 17)
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

    # -- blocks -------------------------------------------------------------

    def _own_blocks(self) -> list[dict]:
        return [blk for blk in self.view.get("blocks", [])
                if blk.get("locale") in self.board.locales and blk.get("status", "map") == "map"]

    def _enemy_blocks(self) -> list[dict]:
        return [e for e in self.view.get("enemy", []) if e.get("locale") in self.board.locales]

    def blocks(self) -> str:
        own, foe = self._own_blocks(), self._enemy_blocks()
        groups: dict[tuple, list] = {}
        for blk in own:
            groups.setdefault((blk["locale"], blk.get("facing")), []).append(("own", blk))
        for e in foe:
            groups.setdefault((e["locale"], e.get("facing")), []).append(("enemy", e))
        where: dict[int, tuple] = {}
        for (locale, facing), members in groups.items():
            for (_, blk), pos in zip(members, self.positions(locale, facing, len(members))):
                where[id(blk)] = pos
        out = [self._block(blk, where[id(blk)], own=True) for blk in own]
        out += [self._block(e, where[id(e)], own=False) for e in foe]
        out.append(self._bombardments(own))
        return "".join(out)

    def _bombardments(self, own: list[dict]) -> str:
        """A dotted line of fire from own artillery to the locale it declared a bombardment on."""
        u = self.u
        out = []
        for blk in own:
            target = blk.get("bombard")
            if not target or target not in self.board.locales:
                continue
            here = self.place(blk["locale"], blk.get("facing"))
            loc = self.board.locales[target]
            out.append(_el("path", d=f"M{_n(here.x)},{_n(here.y)}L{_n(loc.x)},{_n(loc.y)}", stroke=SIDE_DARK.get(
                blk["side"], INK), stroke_width=1.6 * u, stroke_dasharray=f"{_n(1.5 * u)} {_n(4 * u)}",
                stroke_linecap="round"))
            r = 9 * u  # a gun-sight on the target
            out.append(_el("circle", cx=loc.x, cy=loc.y, r=r, fill="none", stroke=SIDE_DARK.get(blk["side"], INK),
                           stroke_width=1.4 * u))
            out.append(_el("path", d=f"M{_n(loc.x - 1.5 * r)},{_n(loc.y)}h{_n(3 * r)}M{_n(loc.x)},{_n(loc.y - 1.5 * r)}"
                                     f"v{_n(3 * r)}", stroke=SIDE_DARK.get(blk["side"], INK), stroke_width=1.2 * u))
        return "".join(out)

    def _block(self, blk: dict, pos, own: bool) -> str:
        x, y, angle, length = pos
        side = blk.get("side")
        T, u = self.T, self.u
        pale = own and blk.get("activated") is False
        fill = (SIDE_PALE if pale else SIDE_COLOUR).get(side, "#555")
        rect = dict(x=-length / 2, y=-T / 2, width=length, height=T, rx=1.2 * u, fill=fill,
                    stroke=SIDE_DARK.get(side, INK), stroke_width=0.9 * u)
        if own:
            rect = {"class": f"block own {side}", "data-block": blk.get("id", ""), **rect}
            if pale:
                rect["stroke_dasharray"] = f"{_n(3 * u)} {_n(1.5 * u)}"
        else:
            rect = {"class": f"block enemy {side}", **rect}
        body = [_el("rect", **rect)]
        face = None
        if own:
            face = (blk.get("type"), blk.get("strength"))
        elif blk.get("revealed"):
            face = (blk["revealed"].get("type"), blk["revealed"].get("strength"))
        if face:
            ink = SIDE_DARK.get(side, INK) if pale else "#fffaf0"
            body.append(self._face(face[0], face[1], blk.get("id") if own else None, length, T, ink))
        transform = f"translate({_n(x)} {_n(y)})" + (f" rotate({_n(angle)})" if angle else "")
        return _el("g", "".join(body), transform=transform)

    # -- last day's moves ---------------------------------------------------

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

    # -- margins --------------------------------------------------------------

    def header(self) -> str:
        v, u, w = self.view, self.u, self.board.width
        out = []
        title = self.title or v.get("scenario") or self.board.name
        out.append(_text(24 * u, 34 * u, title, 26 * u, font_style="italic", font_weight="bold"))
        viewer = v.get("viewer")
        who = f"as seen by {SIDE_NAME.get(viewer, viewer)}" if viewer else "moderator's view: every block"
        rnd = v.get("round")
        rounds = v.get("rounds")
        bits = []
        if v.get("hour_label"):
            bits.append(str(v["hour_label"]))
        if rnd:
            bits.append(f"round {rnd}" + (f" of {rounds}" if rounds else ""))
        if v.get("over"):
            winner = v.get("winner")
            bits.append("game over" + (f": {SIDE_NAME.get(winner, winner)} wins" if winner else ": a draw")
                        + (f" ({v['victory']})" if v.get("victory") else ""))
        elif v.get("next_side"):
            bits.append(f"next: the {SIDE_ADJ.get(v['next_side'], v['next_side'])} day")
        bits.append(who)
        out.append(_text(24 * u, 60 * u, " · ".join(bits), 15 * u))
        # morale, right-aligned, one line a side; the clock to their left
        morale = v.get("morale", {})
        demoralised = v.get("demoralised", {})
        y = 31 * u
        widest = 0.0
        for side in ("austria", "france"):
            if side not in morale:
                continue
            text = f"{SIDE_NAME[side]}: morale {morale[side]}"
            if demoralised.get(side):
                text += ", demoralised"
            widest = max(widest, len(text) * 15 * u * 0.6)
            out.append(_text(w - 24 * u, y, text, 15 * u, text_anchor="end", fill=SIDE_COLOUR[side],
                             font_weight="bold"))
            y += 26 * u
        hour = v.get("hour")
        if isinstance(hour, int):
            out.append(self._clock(w - 24 * u - widest - 50 * u, 39 * u, 25 * u, hour))
        return "".join(out)

    def _clock(self, cx: float, cy: float, r: float, hour: int) -> str:
        """A dial with the hour hand on the current hour."""
        u = self.u
        ticks = "".join(f"M{_n(cx + math.sin(k * math.pi / 6) * r * 0.8)},{_n(cy - math.cos(k * math.pi / 6) * r * 0.8)}"
                        f"L{_n(cx + math.sin(k * math.pi / 6) * r * 0.95)},{_n(cy - math.cos(k * math.pi / 6) * r * 0.95)}"
                        for k in range(12))
        a = (hour % 12) * math.pi / 6
        return "".join([
            _el("circle", cx=cx, cy=cy, r=r, fill=PAPER, stroke=INK, stroke_width=1.4 * u),
            _el("path", d=ticks, stroke=INK, stroke_width=1.0 * u),
            _el("path", d=f"M{_n(cx)},{_n(cy)}L{_n(cx + math.sin(a) * r * 0.55)},{_n(cy - math.cos(a) * r * 0.55)}",
                stroke=INK, stroke_width=2.6 * u, stroke_linecap="round"),
            _el("path", d=f"M{_n(cx)},{_n(cy)}L{_n(cx)},{_n(cy - r * 0.8)}", stroke=INK, stroke_width=1.3 * u,
                stroke_linecap="round"),
            _el("circle", cx=cx, cy=cy, r=2.2 * u, fill=INK),
        ])

    def footer(self) -> str:
        """Reinforcements still due (left) and the legend (right); sets ``footer_h``."""
        u = self.u
        out = []
        y0 = 26 * u
        left = []
        y = y0
        left.append(_text(24 * u, y, "Reinforcements to come", 14 * u, font_weight="bold"))
        y += 10 * u
        rein = self.view.get("reinforcements", {})
        any_due = False
        for side in ("austria", "france"):
            due = rein.get(side) or []
            if not due:
                continue
            any_due = True
            y += 22 * u
            left.append(_text(24 * u, y + 4 * u, SIDE_NAME.get(side, side), 13 * u, fill=SIDE_COLOUR.get(side, INK),
                              font_weight="bold"))
            by_hour: dict[int, list] = {}
            for item in due:
                by_hour.setdefault(item.get("arrives") or 0, []).append(item)
            x = 100 * u
            max_x = self.board.width * 0.48
            for hour in sorted(by_hour):
                items = by_hour[hour]
                if "count" in items[0] and "type" not in items[0]:
                    n = sum(int(i.get("count", 1)) for i in items)
                    chips = [None] * n
                else:
                    chips = items
                need = 52 * u + len(chips) * (self.L + 3 * u)
                if x + need > max_x and x > 100 * u:
                    x = 100 * u
                    y += 22 * u
                left.append(_text(x, y + 4 * u, _hour_label(hour), 12 * u, font_weight="bold"))
                x += 44 * u
                for chip in chips:
                    left.append(self._chip(x, y, side, chip))
                    x += self.L + 3 * u
                x += 14 * u
        if not any_due:
            y += 22 * u
            left.append(_text(24 * u, y, "none", 12 * u, font_style="italic"))
        legend, legend_h = self.legend(self.board.width * 0.5, y0 - 12 * u)
        self.footer_h = max(y + 24 * u, legend_h + 16 * u)
        out.extend(left)
        out.append(legend)
        return "".join(out)

    def _face(self, kind, strength, label, length: float, T: float, ink: str = "#fffaf0") -> str:
        """The face of a block centred on (0, 0): one symbol per strength point, then its id."""
        if kind not in ("infantry", "cavalry", "artillery"):
            return ""
        u = self.u
        strength = max(1, min(3, int(strength or 1)))
        s = T * 0.56
        pitch = s * 1.28
        x0 = -length / 2 + T * 0.22 + s / 2
        out = [type_symbol(kind, x0 + i * pitch, 0, s, ink, 1.05 * u) for i in range(strength)]
        if label:
            label = str(label)
            fs = T * 0.6
            left = x0 + (strength - 0.5) * pitch + T * 0.2
            right = length / 2 - T * 0.15
            place = {"x": right, "text_anchor": "end"}
            if len(label) * fs * 0.52 > right - left > 0:  # squeeze a long id into the room left
                place = {"x": left, "textLength": right - left, "lengthAdjust": "spacingAndGlyphs"}
            out.append(_el("text", escape(label), y=fs * 0.36, font_size=fs, font_family=SANS,
                           font_stretch="condensed", font_weight="bold", fill=ink, **place))
        return "".join(out)

    def _chip(self, x: float, y: float, side: str, item: dict | None) -> str:
        """A small block in the margin (a path, not a rect: rects are only the blocks on the map)."""
        u = self.u
        L, T = self.L, self.T
        out = [_el("path", d=f"M{_n(x)},{_n(y - T / 2)}h{_n(L)}v{_n(T)}h{_n(-L)}z",
                   fill=SIDE_COLOUR.get(side, "#555"), stroke=SIDE_DARK.get(side, INK), stroke_width=0.8 * u)]
        if item:
            face = self._face(item.get("type"), item.get("strength"), item.get("id"), L, T)
            if face:
                out.append(_el("g", face, transform=f"translate({_n(x + L / 2)} {_n(y)})"))
        return "".join(out)

    def legend(self, x0: float, y0: float) -> tuple[str, float]:
        u = self.u
        out = [_text(x0, y0 + 14 * u, "Legend", 14 * u, font_weight="bold")]
        col_w = (self.board.width - x0 - 20 * u) / 2
        rows: list[tuple[str, str]] = []  # (drawing at 0,0 in a 60 x 20 box, caption)

        L, T = self.L * 0.75, self.T * 0.9
        bx = 4 * u

        def chip(fill, stroke, dashed=False, face=None):
            parts = [_el("path", d=f"M{_n(bx)},{_n(-T / 2)}h{_n(L)}v{_n(T)}h{_n(-L)}z", fill=fill, stroke=stroke,
                         stroke_width=0.8 * u, stroke_dasharray=f"{_n(3 * u)} {_n(1.5 * u)}" if dashed else None)]
            if face:
                ink = stroke if dashed else "#fffaf0"
                parts.append(_el("g", self._face(face[0], face[1], None, L, T, ink),
                                 transform=f"translate({_n(bx + L / 2)} 0)"))
            return "".join(parts)

        rows.append((chip(SIDE_COLOUR["austria"], SIDE_DARK["austria"], face=("infantry", 3)),
                     "Austrian block: infantry, strength 3"))
        rows.append((chip(SIDE_COLOUR["france"], SIDE_DARK["france"], face=("cavalry", 2)),
                     "French block: cavalry, strength 2"))
        rows.append((chip(SIDE_COLOUR["france"], SIDE_DARK["france"], face=("artillery", 1)),
                     "artillery, strength 1"))
        if self.viewer == "france" or self.viewer is None:
            rows.append((chip(SIDE_PALE["france"], SIDE_DARK["france"], dashed=True, face=("infantry", 2)),
                         "French block not yet activated"))
        foe = OTHER.get(self.viewer) if self.viewer else None
        if foe:
            rows.append((chip(SIDE_COLOUR[foe], SIDE_DARK[foe]), "enemy block, face hidden"))
        ruler = f"M{_n(bx)},{_n(T / 2)}h{_n(L)}"
        tick = lambda x: f"M{_n(x)},{_n(T / 2)}v{_n(-T * 0.75)}"  # noqa: E731
        rows.append((_el("path", d=ruler, stroke=INK_SOFT, stroke_width=1.1 * u)
                     + _el("path", d=tick(bx + L * 0.25) + tick(bx + L * 0.75), stroke=INK, stroke_width=1.1 * u),
                     "narrow approach: room for one block"))
        rows.append((_el("path", d=ruler, stroke=INK_SOFT, stroke_width=1.1 * u)
                     + _el("path", d=tick(bx) + tick(bx + L / 2) + tick(bx + L), stroke=INK, stroke_width=1.1 * u),
                     "wide approach: two blocks abreast"))
        s = self.T * 0.5
        rows.append(("".join(type_symbol(k, bx + s / 2 + i * s * 1.4, 0, s, INK, 0.9 * u)
                             for i, k in enumerate(("infantry", "cavalry", "artillery"))),
                     "attack penalty: infantry, cavalry, artillery"))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L)}", stroke=INK, stroke_width=3 * u), "cavalry obstacle"))
        hatch = "".join(f"M{_n(bx + k * 7 * u)},{_n(4 * u)}l{_n(8 * u)},{_n(-8 * u)}" for k in range(int(L // (7 * u))))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L)}", stroke=INK, stroke_width=3 * u)
                     + _el("path", d=hatch, stroke=INK, stroke_width=1.2 * u), "impassable border"))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L)}", stroke=ROAD["main"], stroke_width=2.6 * u), "main road"))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L)}", stroke=ROAD["secondary"], stroke_width=1.8 * u,
                         stroke_dasharray=f"{_n(7 * u)} {_n(2.5 * u)}"), "secondary road"))
        rows.append((star(bx + 9 * u, 0, 8 * u, STAR["red"], INK, 0.8 * u) + star(bx + 27 * u, 0, 8 * u, STAR["green"],
                     INK, 0.8 * u) + star(bx + 45 * u, 0, 8 * u, STAR["blue"], INK, 0.8 * u), "objectives"))
        rows.append((_text(bx + 4 * u, 4 * u, "4", 10.5 * u, font_family=SANS, font_weight="bold"),
                     "capacity of the locale"))
        colour = SIDE_COLOUR.get(self.viewer or "france")
        arrow_body = _el("path", d=f"M{_n(bx)},0h{_n(L - 9 * u)}", stroke=colour, stroke_width=3 * u)
        arrow_head = _el("polygon", points=_pts([(bx + L, 0), (bx + L - 10 * u, -5 * u), (bx + L - 10 * u, 5 * u)]),
                         fill=colour)
        rows.append((arrow_body + arrow_head, "last day's move (number: blocks)"))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L - 9 * u)}", stroke=SIDE_DARK.get(self.viewer or "france"),
                         stroke_width=2.6 * u, stroke_dasharray=f"{_n(5 * u)} {_n(3.5 * u)}")
                     + _el("polygon", points=_pts([(bx + L, 0), (bx + L - 10 * u, -5 * u), (bx + L - 10 * u, 5 * u)]),
                           fill=SIDE_DARK.get(self.viewer or "france")), "retreat"))
        rows.append((arrow_body + arrow_head + star(bx + L * 0.45, 0, 7 * u, "#f2c230", colour, u),
                     "assault (the star where it broke through)"))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L - 12 * u)}", stroke=colour, stroke_width=3.6 * u)
                     + _el("path", d=f"M{_n(bx + L - 4 * u)},{_n(-T * 0.8)}v{_n(T * 1.6)}", stroke=INK,
                           stroke_width=3.2 * u), "assault thrown back"))
        if self.viewer is None or any(b.get("bombard") for b in self._own_blocks()):
            sight = 7 * u
            rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L - 2 * sight)}", stroke=SIDE_DARK.get(self.viewer or "france"),
                             stroke_width=1.6 * u, stroke_dasharray=f"{_n(1.5 * u)} {_n(4 * u)}")
                         + _el("circle", cx=bx + L - sight, cy=0, r=sight, fill="none", stroke=INK, stroke_width=1.2 * u),
                         "bombardment declared, and its target"))
        per_col = math.ceil(len(rows) / 2)
        pitch = 21 * u
        for i, (body, caption) in enumerate(rows):
            col, r = divmod(i, per_col)
            x = x0 + col * col_w
            y = y0 + 36 * u + r * pitch
            out.append(_el("g", body, transform=f"translate({_n(x)} {_n(y)})"))
            out.append(_text(x + L + 14 * u, y + 4 * u, caption, 11 * u, font_family=SANS))
        return "".join(out), 36 * u + per_col * pitch + 8 * u


def _wrap(name: str, limit: int) -> list[str]:
    """A long name split at the space nearest its middle (two lines at most)."""
    if len(name) <= limit or " " not in name:
        return [name]
    middle = len(name) / 2
    cut = min((i for i, c in enumerate(name) if c == " "), key=lambda i: abs(i - middle))
    return [name[:cut], name[cut + 1:]]


def _hour_label(hour: int) -> str:
    suffix = "AM" if hour < 12 else "PM"
    return f"{hour % 12 or 12}{suffix}"


def render_svg(board, view: dict, title: str | None = None) -> str:
    """A complete standalone SVG document of ``view`` (a dict from the game's ``view()``) on ``board``."""
    return MapRenderer(board, view, title).render()
