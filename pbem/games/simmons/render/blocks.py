"""The blocks on the map, and the lines of fire of declared bombardments.

Own blocks show their face; an enemy block is a bar of its side's colour with
its face only while ``revealed``, and carries no id, class or data attribute
derived from the block. These ``<rect>`` elements are the only ones in the
document.
"""

from __future__ import annotations

from .drawing import INK, SIDE_COLOUR, SIDE_DARK, SIDE_PALE, _el, _n, block_face
from .layout import Layout


class BlockLayer(Layout):
    """The blocks, each at its place in its locale's reserve or an approach."""

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

    def block_data(self, blk: dict) -> dict:
        """What the game page's map-click orders read of an own block (see the game's map_clicks):
        where it stands, as an order names it, its type and whether it may move yet."""
        out = {"data-at": self.place_name(blk["locale"], blk.get("facing")), "data-type": blk.get("type")}
        if blk.get("activated") is False:
            out["data-activated"] = "false"
        return out

    def block_marks(self, blk: dict, length: float, own: bool) -> str:
        """What a game marks on a block (drawn on its face, centred on (0, 0), along x); none here."""
        return ""

    def _block(self, blk: dict, pos, own: bool) -> str:
        x, y, angle, length = pos
        side = blk.get("side")
        T, u = self.T, self.u
        pale = own and blk.get("activated") is False
        fill = (SIDE_PALE if pale else SIDE_COLOUR).get(side, "#555")
        rect = dict(x=-length / 2, y=-T / 2, width=length, height=T, rx=1.2 * u, fill=fill,
                    stroke=SIDE_DARK.get(side, INK), stroke_width=0.9 * u)
        if own:
            rect = {"class": f"block own {side}", "data-block": blk.get("id", ""), **self.block_data(blk), **rect}
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
            body.append(block_face(face[0], face[1], blk.get("id") if own else None, length, T, u, ink))
        body.append(self.block_marks(blk, length, own))
        transform = f"translate({_n(x)} {_n(y)})" + (f" rotate({_n(angle)})" if angle else "")
        return _el("g", "".join(body), transform=transform)
