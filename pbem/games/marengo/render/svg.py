"""The map of one side's view of a Bonaparte at Marengo game as a standalone SVG document.

The family's map (pbem.games.simmons.render: the board, the blocks, the last
day's arrows, the bands above and below) with what Marengo adds: each side's
morale in the header, and in the legend the French blocks not yet activated
(003 §6) and the objectives' stars.
"""

from __future__ import annotations

from pbem.games.simmons.render import MapDrawing
from pbem.games.simmons.render.drawing import INK, SIDE_DARK, SIDE_PALE, STAR, star
from pbem.games.marengo.words import marengo_tongue


class MapRenderer(MapDrawing):
    """Draws one view of one board. Use :func:`render_svg`."""

    def side_line(self, side: str) -> str | None:
        morale = self.view.get("morale", {})
        if side not in morale:
            return None
        _ = self.tongue.gettext
        if self.view.get("demoralised", {}).get(side):
            return _("%(side)s: morale %(morale)s, demoralised", side=self.side_word(side), morale=morale[side])
        return _("%(side)s: morale %(morale)s", side=self.side_word(side), morale=morale[side])

    def legend_own(self, chip) -> list[tuple[str, str]]:
        if self.viewer == "france" or self.viewer is None:
            return [(chip(SIDE_PALE["france"], SIDE_DARK["france"], dashed=True, face=("infantry", 2)),
                     self.tongue.gettext("French block not yet activated"))]
        return []

    def legend_places(self, bx: float, L: float) -> list[tuple[str, str]]:
        u = self.u
        return [(star(bx + 9 * u, 0, 8 * u, STAR["red"], INK, 0.8 * u) + star(bx + 27 * u, 0, 8 * u, STAR["green"],
                 INK, 0.8 * u) + star(bx + 45 * u, 0, 8 * u, STAR["blue"], INK, 0.8 * u), self.tongue.gettext("objectives"))]


def render_svg(board, view: dict, title: str | None = None, lang: str = "en") -> str:
    """A complete standalone SVG document of ``view`` (a dict from the game's ``view()``) on ``board``,
    its margins and legend in ``lang``."""
    drawing = MapRenderer(board, view, title)
    drawing.tongue = marengo_tongue(lang)
    return drawing.render()
