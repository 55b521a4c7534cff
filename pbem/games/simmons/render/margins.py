"""The bands above and below a Marengo-family map.

Above: the title, the hour and round, whose view it is, a line for each side
(``side_line``: Marengo's morale, Triomphe's discs) and a clock. Below: the
blocks still to come, by hour (``due``: Marengo's reinforcements, Triomphe's
waiting cells), what a game adds beside them (``footer_extra``), and the
legend, whose rows a game completes (``legend_own``, ``legend_places``,
``legend_more``).
"""

from __future__ import annotations

import math

from ..clock import hour_label
from ..lang import Tongue, tongue
from ..sides import SIDE_NAME
from .drawing import (INK, INK_SOFT, OTHER, PAPER, ROAD, SANS, SIDE_COLOUR, SIDE_DARK, _el, _n, _pts, _text,
                      block_face, star, type_symbol)
from .layout import Layout


class Margins(Layout):
    """The header (title, clock, a line a side) and the footer (blocks to come, legend)."""

    TURN = "day"  # what the rule book calls one side's turn
    DUE = "Reinforcements to come"  # the footer's list of blocks to come (in English; due_title: the reader's)
    tongue: Tongue = tongue()  # the reader's language; the game's render_svg sets it

    def due_title(self) -> str:
        """The footer's title over the blocks to come, in the reader's language (a game that names them
        otherwise, ``DUE``, overrides this)."""
        return self.tongue.gettext("Reinforcements to come") if self.DUE == "Reinforcements to come" else self.DUE

    def whose_next(self, side: str) -> str:
        """"next: the Austrian day" in the reader's language."""
        _ = self.tongue.gettext
        words = {("austria", "day"): _("next: the Austrian day"), ("france", "day"): _("next: the French day"),
                 ("austria", "turn"): _("next: the Austrian turn"), ("france", "turn"): _("next: the French turn")}
        return words.get((side, self.TURN)) or f"next: {side}"

    def side_word(self, side: str | None) -> str:
        _ = self.tongue.gettext
        return {"austria": _("Austria"), "france": _("France")}.get(side or "") or SIDE_NAME.get(side, side or "")

    def clock_label(self, hour: int) -> str:
        """An hour as the reader writes it (1PM, 13:00, 13 h)."""
        return hour_label(hour) if self.tongue.lang == "en" else self.tongue.gettext("%(hour)d:00", hour=hour)

    def side_line(self, side: str) -> str | None:
        """The header's line for ``side`` (None: none)."""
        return None

    def header_bits(self) -> list[str]:
        """What the game adds to the header's line after the hour and round."""
        return []

    def due(self) -> dict:
        """The blocks to come, {side: [{"arrives": hour, "type", "strength", "id"} or {"arrives", "count"}]}."""
        return self.view.get("reinforcements", {})

    def footer_extra(self, y: float) -> tuple[list[str], float]:
        """What the game draws under the blocks to come, from ``y`` down: (elements, the new ``y``)."""
        return [], y

    def header(self) -> str:
        v, u, w = self.view, self.u, self.board.width
        out = []
        _ = self.tongue.gettext
        scenario = v.get("scenario")  # a name of the game's catalog (not written _(v["scenario"]): pybabel took "scenario")
        title = self.title or (_(scenario) if scenario else "") or self.board.name
        out.append(_text(24 * u, 34 * u, title, 26 * u, font_style="italic", font_weight="bold"))
        viewer = v.get("viewer")
        if v.get("spectator"):  # an onlooker's view: neither a side's nor the moderator's
            who = _("spectator's view: every block") if v.get("over") else _("spectator's view: what both sides see")
        else:
            who = (_("as seen by %(side)s", side=self.side_word(viewer)) if viewer
                   else _("moderator's view: every block"))
        rnd = v.get("round")
        rounds = v.get("rounds")
        bits = []
        if isinstance(v.get("hour"), int) and v.get("hour_label"):
            bits.append(self.clock_label(v["hour"]))
        elif v.get("hour_label"):
            bits.append(str(v["hour_label"]))
        if rnd and not (rounds and rnd > rounds):  # a finished game's clock has run past the last round: no "17 of 16"
            bits.append(_("round %(round)d of %(rounds)d", round=rnd, rounds=rounds) if rounds
                        else _("round %(round)d", round=rnd))
        bits += self.header_bits()
        if v.get("over"):
            winner = v.get("winner")
            # why, as the state words it (English): the reports tell it in the reader's language; its own
            # "France wins:" is the line's already ("game over: France wins (Austria holds ...)")
            said = _("game over: %(side)s wins", side=self.side_word(winner)) if winner else _("game over: a draw")
            why = (v.get("victory") or "").strip().rstrip(".")
            if why and self.tongue.lang == "en":
                won = winner and why.lower().startswith(self.side_word(winner).lower() + " win")
                said = f"game over: {why}" if won else f"{said} ({why})"
            bits.append(said)
        elif v.get("next_side"):
            bits.append(self.whose_next(v["next_side"]))
        bits.append(who)
        out.append(_text(24 * u, 60 * u, " · ".join(bits), 15 * u))
        # a line a side (morale...), right-aligned; the clock to their left
        y = 31 * u
        widest = 0.0
        for side in ("austria", "france"):
            text = self.side_line(side)
            if text is None:
                continue
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
        left.append(_text(24 * u, y, self.due_title(), 14 * u, font_weight="bold"))
        y += 10 * u
        rein = self.due()
        any_due = False
        for side in ("austria", "france"):
            due = rein.get(side) or []
            if not due:
                continue
            any_due = True
            y += 22 * u
            left.append(_text(24 * u, y + 4 * u, self.side_word(side), 13 * u, fill=SIDE_COLOUR.get(side, INK),
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
                left.append(_text(x, y + 4 * u, self.clock_label(hour), 12 * u, font_weight="bold"))
                x += 44 * u
                for chip in chips:
                    if x + self.L > max_x:  # a long row goes on under its hour
                        x = 144 * u
                        y += 22 * u
                    left.append(self._chip(x, y, side, chip))
                    x += self.L + 3 * u
                x += 14 * u
        if not any_due:
            y += 22 * u
            left.append(_text(24 * u, y, self.tongue.gettext("none"), 12 * u, font_style="italic"))
        extra, y = self.footer_extra(y)
        left += extra
        legend, legend_h = self.legend(self.board.width * 0.5, y0 - 12 * u)
        self.footer_h = max(y + 24 * u, legend_h + 16 * u)
        out.extend(left)
        out.append(legend)
        return "".join(out)

    def _chip(self, x: float, y: float, side: str, item: dict | None) -> str:
        """A small block in the margin (a path, not a rect: rects are only the blocks on the map)."""
        u = self.u
        L, T = self.L, self.T
        out = [_el("path", d=f"M{_n(x)},{_n(y - T / 2)}h{_n(L)}v{_n(T)}h{_n(-L)}z",
                   fill=SIDE_COLOUR.get(side, "#555"), stroke=SIDE_DARK.get(side, INK), stroke_width=0.8 * u)]
        if item:
            face = block_face(item.get("type"), item.get("strength"), item.get("id"), L, T, u)
            if face:
                out.append(_el("g", face, transform=f"translate({_n(x + L / 2)} {_n(y)})"))
        return "".join(out)

    def legend(self, x0: float, y0: float) -> tuple[str, float]:
        u = self.u
        _ = self.tongue.gettext
        out = [_text(x0, y0 + 14 * u, _("Legend"), 14 * u, font_weight="bold")]
        col_w = (self.board.width - x0 - 20 * u) / 2
        rows: list[tuple[str, str]] = []  # (drawing at 0,0 in a 60 x 20 box, caption)

        L, T = self.L * 0.75, self.T * 0.9
        bx = 4 * u

        def chip(fill, stroke, dashed=False, face=None):
            parts = [_el("path", d=f"M{_n(bx)},{_n(-T / 2)}h{_n(L)}v{_n(T)}h{_n(-L)}z", fill=fill, stroke=stroke,
                         stroke_width=0.8 * u, stroke_dasharray=f"{_n(3 * u)} {_n(1.5 * u)}" if dashed else None)]
            if face:
                ink = stroke if dashed else "#fffaf0"
                parts.append(_el("g", block_face(face[0], face[1], None, L, T, u, ink),
                                 transform=f"translate({_n(bx + L / 2)} 0)"))
            return "".join(parts)

        rows.append((chip(SIDE_COLOUR["austria"], SIDE_DARK["austria"], face=("infantry", 3)),
                     _("Austrian block: infantry, strength 3")))
        rows.append((chip(SIDE_COLOUR["france"], SIDE_DARK["france"], face=("cavalry", 2)),
                     _("French block: cavalry, strength 2")))
        rows.append((chip(SIDE_COLOUR["france"], SIDE_DARK["france"], face=("artillery", 1)),
                     _("artillery, strength 1")))
        rows += self.legend_own(chip)
        foe = OTHER.get(self.viewer) if self.viewer else None
        if foe:
            rows.append((chip(SIDE_COLOUR[foe], SIDE_DARK[foe]), _("enemy block, face hidden")))
        ruler = f"M{_n(bx)},{_n(T / 2)}h{_n(L)}"
        tick = lambda x: f"M{_n(x)},{_n(T / 2)}v{_n(-T * 0.75)}"  # noqa: E731
        rows.append((_el("path", d=ruler, stroke=INK_SOFT, stroke_width=1.1 * u)
                     + _el("path", d=tick(bx + L * 0.25) + tick(bx + L * 0.75), stroke=INK, stroke_width=1.1 * u),
                     _("narrow approach: room for one block")))
        rows.append((_el("path", d=ruler, stroke=INK_SOFT, stroke_width=1.1 * u)
                     + _el("path", d=tick(bx) + tick(bx + L / 2) + tick(bx + L), stroke=INK, stroke_width=1.1 * u),
                     _("wide approach: two blocks abreast")))
        s = self.T * 0.5
        rows.append(("".join(type_symbol(k, bx + s / 2 + i * s * 1.4, 0, s, INK, 0.9 * u)
                             for i, k in enumerate(("infantry", "cavalry", "artillery"))),
                     _("attack penalty: infantry, cavalry, artillery")))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L)}", stroke=INK, stroke_width=3 * u), _("cavalry obstacle")))
        hatch = "".join(f"M{_n(bx + k * 7 * u)},{_n(4 * u)}l{_n(8 * u)},{_n(-8 * u)}" for k in range(int(L // (7 * u))))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L)}", stroke=INK, stroke_width=3 * u)
                     + _el("path", d=hatch, stroke=INK, stroke_width=1.2 * u), _("impassable border")))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L)}", stroke=ROAD["main"], stroke_width=2.6 * u), _("main road")))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L)}", stroke=ROAD["secondary"], stroke_width=1.8 * u,
                         stroke_dasharray=f"{_n(7 * u)} {_n(2.5 * u)}"), _("secondary road")))
        rows += self.legend_places(bx, L)
        rows.append((_text(bx + 4 * u, 4 * u, "4", 10.5 * u, font_family=SANS, font_weight="bold"),
                     _("capacity of the locale")))
        colour = SIDE_COLOUR.get(self.viewer or "france")
        arrow_body = _el("path", d=f"M{_n(bx)},0h{_n(L - 9 * u)}", stroke=colour, stroke_width=3 * u)
        arrow_head = _el("polygon", points=_pts([(bx + L, 0), (bx + L - 10 * u, -5 * u), (bx + L - 10 * u, 5 * u)]),
                         fill=colour)
        rows.append((arrow_body + arrow_head, self.tongue.gettext("last day's move (number: blocks)") if self.TURN == "day"
                     else self.tongue.gettext("last turn's move (number: blocks)")))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L - 9 * u)}", stroke=SIDE_DARK.get(self.viewer or "france"),
                         stroke_width=2.6 * u, stroke_dasharray=f"{_n(5 * u)} {_n(3.5 * u)}")
                     + _el("polygon", points=_pts([(bx + L, 0), (bx + L - 10 * u, -5 * u), (bx + L - 10 * u, 5 * u)]),
                           fill=SIDE_DARK.get(self.viewer or "france")), _("retreat")))
        rows.append((arrow_body + arrow_head + star(bx + L * 0.45, 0, 7 * u, "#f2c230", colour, u),
                     _("assault (the star where it broke through)")))
        rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L - 12 * u)}", stroke=colour, stroke_width=3.6 * u)
                     + _el("path", d=f"M{_n(bx + L - 4 * u)},{_n(-T * 0.8)}v{_n(T * 1.6)}", stroke=INK,
                           stroke_width=3.2 * u), _("assault thrown back")))
        if self.viewer is None or any(b.get("bombard") for b in self._own_blocks()):
            sight = 7 * u
            rows.append((_el("path", d=f"M{_n(bx)},0h{_n(L - 2 * sight)}", stroke=SIDE_DARK.get(self.viewer or "france"),
                             stroke_width=1.6 * u, stroke_dasharray=f"{_n(1.5 * u)} {_n(4 * u)}")
                         + _el("circle", cx=bx + L - sight, cy=0, r=sight, fill="none", stroke=INK, stroke_width=1.2 * u),
                         _("bombardment declared, and its target")))
        rows += self.legend_more(bx, L, T)
        per_col = math.ceil(len(rows) / 2)
        pitch = 21 * u
        for i, (body, caption) in enumerate(rows):
            col, r = divmod(i, per_col)
            x = x0 + col * col_w
            y = y0 + 36 * u + r * pitch
            out.append(_el("g", body, transform=f"translate({_n(x)} {_n(y)})"))
            out.append(_text(x + L + 14 * u, y + 4 * u, caption, 11 * u, font_family=SANS))
        return "".join(out), 36 * u + per_col * pitch + 8 * u

    # -- the game's rows of the legend: (drawing at 0,0 in the row, caption)

    def legend_own(self, chip) -> list[tuple[str, str]]:
        """Rows after the blocks' (``chip(fill, stroke, dashed=False, face=None)`` draws a block)."""
        return []

    def legend_places(self, bx: float, L: float) -> list[tuple[str, str]]:
        """Rows before the locale's capacity (the objectives)."""
        return []

    def legend_more(self, bx: float, L: float, T: float) -> list[tuple[str, str]]:
        """Rows at the end."""
        return []
