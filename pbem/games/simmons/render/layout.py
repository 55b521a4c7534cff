"""Where things stand on the map: block sizes, places and the rows of blocks in them.

``Layout`` is the base of the map renderer (svg.MapRenderer): it holds the
board, the view and the scale, and answers where a locale's reserve or an
approach's slot is, where the n blocks at a place go, and which blocks of the
view are on the map. The layers (board, blocks, moves, margins) draw there.
"""

from __future__ import annotations

import math

from .drawing import _unit
from .geometry import approach_segment, centroid, inward_normal, locale_polygons, point_in_polygon


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


class Layout:
    """The board, the view and the geometry of blocks on it; the layers draw with it.

    The geometry depends on the board alone (the polygons, the approaches' segments, the places, the
    reserves' columns, the blocks' size): it is worked out once a board and kept with it (``kept``), so
    a process that draws many maps of one scenario (a drawing worker, the web) does not redo it."""

    def __init__(self, board, view: dict, title: str | None = None):
        self.board = board
        self.view = view
        self.viewer = view.get("viewer")
        self.title = title
        self.u = board.width / 1400.0
        self.polygons = self.kept("polygons", lambda: locale_polygons(board))
        self._segments: dict[tuple[str, str], tuple] = self.kept("segments", dict)
        self.L, self.T, self.gap, self.inset = self.kept("block size", self._size_blocks)
        self.header_h = 78 * self.u
        self.places: dict[tuple[str, str | None], _Place] = self.kept("places", dict)
        self._cols: dict[str, int] = self.kept("reserve columns", dict)

    def kept(self, what, make):
        """``make()``, made once a board and drawing class and kept with the board (in its ``__dict__``,
        as the board keeps its folded names): for what depends on the board (and ``what`` names)
        alone, never on the view. A board is not changed once loaded; a new board starts empty."""
        store = self.board.__dict__.setdefault("_drawing_kept", {})
        key = (type(self), what)
        if key not in store:
            store[key] = make()
        return store[key]

    # -- geometry -----------------------------------------------------------

    def segment(self, a: str, b: str):
        key = (a, b)
        if key not in self._segments:
            self._segments[key] = approach_segment(self.board, self.polygons, a, b)
        return self._segments[key]

    def _size_blocks(self) -> tuple[float, float, float, float]:
        """(length, thickness, gap, inset) of a block: 58 x 17 at 1400 wide, smaller if narrow approaches
        are short."""
        u = self.u
        lengths = sorted(math.dist(*self.segment(a, b)) for (a, b), ap in self.board.approaches.items()
                         if ap.width == 1)
        scale = 1.0
        if lengths:
            median = lengths[len(lengths) // 2]
            scale = max(0.6, min(1.0, median / (1.25 * 58 * u)))
        return 58 * u * scale, 17 * u * scale, 2.5 * u * scale, 5 * u * scale

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

    def place_name(self, locale: str, facing: str | None) -> str:
        """A place as orders write it: a locale's name (its reserve), or ``Locale>Faced`` (an approach)."""
        name = self.board.locales[locale].name
        if facing is None or facing not in self.board.locales or facing == locale:
            return name
        return f"{name}>{self.board.locales[facing].name}"

    def edge_point(self, x: float, y: float) -> tuple[float, float]:
        w, h = self.board.width, self.board.height
        return min([(x, 0.0), (x, h), (0.0, y), (w, y)], key=lambda p: math.dist(p, (x, y)))

    # -- the view's blocks on the map ------------------------------------------

    def _own_blocks(self) -> list[dict]:
        return [blk for blk in self.view.get("blocks", [])
                if blk.get("locale") in self.board.locales and blk.get("status", "map") == "map"]

    def _enemy_blocks(self) -> list[dict]:
        return [e for e in self.view.get("enemy", []) if e.get("locale") in self.board.locales]
