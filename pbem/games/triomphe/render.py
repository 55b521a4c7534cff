"""The map of one side's view of a Triomphe à Marengo game, as SVG.

The family's map (pbem.games.simmons.render: the board, the blocks, the last
turn's arrows, the bands above and below) with what Triomphe puts on the
table: the east/west arrows of the approaches (000 §3) and the objective line
(§19) on the board; the morale discs committed to each locale (§18); a
disorganised block's marker (§14, seen by both sides) and the outline of an
enemy block standing revealed (T52); in the header each side's discs and the
orders spent (§6); below the map the waiting cells with their counts and the
blocks face up in them (§15), and the discs still to come on the time track.

It draws from the view alone, so it shows only what the reader may see.
"""

from __future__ import annotations

from pbem.games.simmons.clock import parse_hour
from pbem.games.simmons.render import MapDrawing
from pbem.games.simmons.render.drawing import INK, PAPER, SANS, SIDE_COLOUR, SIDE_DARK, _el, _n, _pts, _text, _unit
from pbem.games.simmons.render.geometry import shared_edges

from .scenario import Scenario
from .words import triomphe_tongue

ORDERS = 3  # 000 §6
LINE = "#5a3d8a"  # the objective line
REVEALED = "#f2c230"  # the outline of an enemy block standing revealed
DISORGANISED = "#fffaf0"  # the stripes across a disorganised block


class TriompheMap(MapDrawing):
    """The family's map with Triomphe's layers and bands. Use :func:`render_svg`."""

    TURN = "turn"
    DUE = "Waiting cells"

    def due_title(self) -> str:
        return self.tongue.gettext("Waiting cells")

    def __init__(self, scenario: Scenario, view: dict, title: str | None = None):
        super().__init__(scenario.board, view, title)
        self.terrain = scenario.terrain

    # -- the bands

    def side_line(self, side: str) -> str | None:
        v = self.view
        if side not in v.get("uncommitted", {}):
            return None
        committed = sum(v["committed"][side].values())
        t = self.tongue
        # each count its own plural (1 disque, 2 диска, 5 дисков): the discs in hand as a phrase of their own
        values = dict(side=self.side_word(side), committed=committed,
                      hand=t.ngettext("%(num)d disc in hand", "%(num)d discs in hand", v["uncommitted"][side]))
        if v.get("demoralised", {}).get(side):
            return t.ngettext("%(side)s: %(hand)s, %(num)d committed, demoralised",
                              "%(side)s: %(hand)s, %(num)d committed, demoralised", committed, **values)
        return t.ngettext("%(side)s: %(hand)s, %(num)d committed", "%(side)s: %(hand)s, %(num)d committed", committed,
                          **values)

    def header_bits(self) -> list[str]:
        v = self.view
        if v.get("over") or v.get("orders_spent") is None or not v.get("day") or not v.get("next_side"):
            return []
        # the orders of the turn just played, by the side that played it (000 §6: each side's turn spends its
        # own 3), not of the turn to come that the header names next ("France spent 3 of 3 orders · next: the
        # Austrian turn")
        played = "austria" if v["next_side"] == "france" else "france"
        return [self.tongue.gettext("%(side)s spent %(spent)d of %(orders)d orders", side=self.side_word(played),
                                    spent=v["orders_spent"], orders=ORDERS)]

    def due(self) -> dict:
        """Each waiting cell at the hour it opens: the blocks face up in it, then the others face down."""
        out: dict[str, list] = {}
        for side, cells in self.view.get("waiting", {}).items():
            items = []
            for cell in cells:
                try:
                    hour = parse_hour(cell.get("hour") or cell.get("cell"))
                except ValueError:
                    hour = 0
                up = [dict(b, arrives=hour) for b in cell.get("face_up", [])]
                items += up + [{"arrives": hour}] * max(0, int(cell.get("count", 0)) - len(up))
            if items:
                out[side] = items
        return out

    def footer_extra(self, y: float) -> tuple[list[str], float]:
        """The discs still to come on the time track, a line a side."""
        u = self.u
        track = self.view.get("track", {})
        if not any(track.get(s) for s in ("austria", "france")):
            return [], y
        y += 30 * u
        out = [_text(24 * u, y, self.tongue.gettext("Discs on the time track"), 14 * u, font_weight="bold")]
        for side in ("austria", "france"):
            hours = track.get(side) or {}
            if not hours:
                continue
            y += 22 * u
            out.append(_text(24 * u, y, self.side_word(side), 13 * u, fill=SIDE_COLOUR[side], font_weight="bold"))
            x = 100 * u
            for hour, n in hours.items():
                out.append(_text(x, y, self.hour_text(hour), 12 * u, font_weight="bold"))
                out.append(self._discs(x + 50 * u, y - 4 * u, side, int(n)))
                x += 50 * u + min(max(1, int(n)), 6) * 11 * u + 16 * u
                if x > self.board.width * 0.46:
                    x, y = 100 * u, y + 20 * u
        return out, y

    def hour_text(self, label: str) -> str:
        """An hour of the time track (7AM) as the reader writes it (7:00, 7 h, 7时)."""
        try:
            return self.clock_label(parse_hour(label))
        except ValueError:
            return label

    def legend_places(self, bx: float, L: float) -> list[tuple[str, str]]:
        u = self.u
        arrow = _el("path", d=f"M{_n(bx)},0h{_n(L)}", stroke="#8a7d63", stroke_width=1.1 * u) + \
            self._arrowhead(bx + L / 2, 0, 1.0, 0.0)
        line = _el("path", d=f"M{_n(bx)},0h{_n(L)}", stroke=LINE, stroke_width=3.4 * u,
                   stroke_dasharray=f"{_n(9 * u)} {_n(4 * u)}")
        _ = self.tongue.gettext
        return [(arrow, _("eastward across this border (000 §3)")), (line, _("objective line (east of it: 000 §19)"))]

    def legend_more(self, bx: float, L: float, T: float) -> list[tuple[str, str]]:
        u = self.u
        body = _el("path", d=f"M{_n(bx)},{_n(-T / 2)}h{_n(L)}v{_n(T)}h{_n(-L)}z", fill=SIDE_COLOUR["france"],
                   stroke=SIDE_DARK["france"], stroke_width=0.8 * u)
        rows = [(self._discs(bx + 6 * u, 0, "austria", 2) + self._discs(bx + 34 * u, 0, "france", 1),
                 self.tongue.gettext("morale discs committed to a locale")),
                (body + _el("g", self._stripes(L, T), transform=f"translate({_n(bx + L / 2)} 0)"),
                 self.tongue.gettext("disorganised block (000 §14)"))]
        foe = {"austria": "france", "france": "austria"}.get(self.viewer or "")
        if foe:
            enemy = _el("path", d=f"M{_n(bx)},{_n(-T / 2)}h{_n(L)}v{_n(T)}h{_n(-L)}z", fill=SIDE_COLOUR[foe],
                        stroke=SIDE_DARK[foe], stroke_width=0.8 * u)
            rows.append((enemy + _el("g", self._outline(L, T), transform=f"translate({_n(bx + L / 2)} 0)"),
                         self.tongue.gettext("enemy block revealed (its face shown)")))
        return rows

    # -- the layers on the map

    def game_layers(self) -> list[str]:
        # the line and the arrows are printed on the board: drawn once a board (``kept``)
        return [self.kept("objective line", self.objective_line), self.kept("direction arrows", self.direction_arrows),
                self.discs()]

    def objective_line(self) -> str:
        """000 §19: the borders between the locales east of the objective line and the others."""
        u = self.u
        east = self.terrain.east_of_line
        tol = max(self.board.width, self.board.height) * 1e-3
        pieces = []
        for a in sorted(east):
            for b in sorted(self.board.adjacent(a)) if a in self.board.locales else ():
                if b in east or a not in self.polygons or b not in self.polygons:
                    continue
                for (x0, y0), (x1, y1) in shared_edges(self.polygons[a], self.polygons[b], tol) or \
                        [self.segment(a, b)]:
                    pieces.append(f"M{_n(x0)},{_n(y0)}L{_n(x1)},{_n(y1)}")
        if not pieces:
            return ""
        return _el("path", d="".join(pieces), fill="none", stroke=LINE, stroke_width=3.4 * u,
                   stroke_dasharray=f"{_n(9 * u)} {_n(4 * u)}", stroke_linecap="butt", stroke_opacity=0.85)

    def direction_arrows(self) -> str:
        """000 §3: a small arrowhead on each marked border, pointing east."""
        out = []
        for frm, to in sorted(self.terrain.east):
            if frm not in self.board.locales or to not in self.board.locales:
                continue
            (x0, y0), (x1, y1) = self.segment(frm, to)
            a, b = self.board.locales[frm], self.board.locales[to]
            ux, uy = _unit(b.x - a.x, b.y - a.y)
            out.append(self._arrowhead((x0 + x1) / 2, (y0 + y1) / 2, ux, uy))
        return "".join(out)

    def _arrowhead(self, x: float, y: float, ux: float, uy: float) -> str:
        s = 5.5 * self.u
        tip = (x + ux * s, y + uy * s)
        left = (x - ux * s * 0.6 - uy * s * 0.8, y - uy * s * 0.6 + ux * s * 0.8)
        right = (x - ux * s * 0.6 + uy * s * 0.8, y - uy * s * 0.6 - ux * s * 0.8)
        return _el("polygon", points=_pts([tip, left, right]), fill="#8a7d63", stroke=PAPER, stroke_width=0.6 * self.u)

    def discs(self) -> str:
        """The discs each side has committed to a locale (000 §18), beside its reserve."""
        u = self.u
        out = []
        for side, offset in (("austria", -1), ("france", 1)):
            for lid, n in sorted(self.view.get("committed", {}).get(side, {}).items()):
                if lid not in self.board.locales or n <= 0:
                    continue
                loc = self.board.locales[lid]
                rows = self.reserve_rows(lid)
                y = loc.y + rows * (self.T + self.gap) / 2 + 9 * u
                width = min(n, 5) * 11 * u
                x = loc.x + offset * (6 * u) - (width if offset < 0 else 0) + 5.5 * u
                out.append(self._discs(x, y, side, n))
        return "".join(out)

    def _discs(self, x: float, y: float, side: str, n: int) -> str:
        """``n`` discs from (x, y) rightward (five, then the count)."""
        u = self.u
        out = [_el("circle", cx=x + i * 11 * u, cy=y, r=4.6 * u, fill=SIDE_COLOUR[side], stroke=PAPER,
                   stroke_width=1.1 * u) for i in range(min(n, 5))]
        if n > 5:
            out.append(_text(x + 5 * 11 * u - 2 * u, y + 4 * u, f"+{n - 5}", 10 * u, font_family=SANS,
                             font_weight="bold", fill=SIDE_DARK[side]))
        return "".join(out)

    # -- the marks on blocks

    def block_data(self, blk: dict) -> dict:
        """The family's marks for map clicks, whether the block is disorganised (REORGANISE, §14) and
        whether it has declared a bombardment (§10)."""
        out = super().block_data(blk)
        if blk.get("disorganised"):
            out["data-disorganised"] = "true"
        out["data-bombard"] = "true" if blk.get("bombard") is not None else ""  # BOMBARD, then FIRE or HOLD FIRE
        return out

    def block_marks(self, blk: dict, length: float, own: bool) -> str:
        marks = []
        if blk.get("disorganised"):
            marks.append(self._stripes(length, self.T))
        if not own and blk.get("revealed"):
            marks.append(self._outline(length, self.T))
        return "".join(marks)

    def _stripes(self, length: float, T: float) -> str:
        """Two light diagonal stripes across the block: disorganised."""
        u = self.u
        d = "".join(f"M{_n(x - T / 2)},{_n(T / 2)}L{_n(x + T / 2)},{_n(-T / 2)}" for x in (length * 0.18, length * 0.36))
        return _el("path", d=d, stroke=DISORGANISED, stroke_width=2.2 * u, stroke_opacity=0.9)

    def _outline(self, length: float, T: float) -> str:
        u = self.u
        m = 2.2 * u
        return _el("path", d=f"M{_n(-length / 2 - m)},{_n(-T / 2 - m)}h{_n(length + 2 * m)}v{_n(T + 2 * m)}"
                               f"h{_n(-length - 2 * m)}z", fill="none", stroke=REVEALED, stroke_width=1.8 * u)


def render_svg(scenario: Scenario, view: dict, title: str | None = None, lang: str = "en") -> str:
    """A complete standalone SVG document of ``view`` (triomphe/view.py) on the scenario's board, its
    margins and legend in ``lang``."""
    drawing = TriompheMap(scenario, view, title)
    drawing.tongue = triomphe_tongue(lang)
    return drawing.render()
