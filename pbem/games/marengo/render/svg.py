"""The map of one side's view of a Bonaparte at Marengo game as a standalone SVG document.

The family's map (pbem.games.simmons.render: the board, the blocks, the last
day's arrows) with Marengo's bands: a header with the clock and morale, a
footer with the reinforcements still due and the legend (margins.py).
"""

from __future__ import annotations

from pbem.games.simmons.render import MapDrawing

from .margins import Margins


class MapRenderer(MapDrawing, Margins):
    """Draws one view of one board. Use :func:`render_svg`."""


def render_svg(board, view: dict, title: str | None = None) -> str:
    """A complete standalone SVG document of ``view`` (a dict from the game's ``view()``) on ``board``."""
    return MapRenderer(board, view, title).render()
