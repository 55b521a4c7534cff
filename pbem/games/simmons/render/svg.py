"""The frame of a Marengo-family map: one side's view as a standalone SVG document.

A 19th-century battle map ("Le Look"): parchment, fine ink, the armies as
straight geometric bars, Austria red and France blue (003 §4 and the
designer's notes). :class:`MapDrawing` stacks the shared layers, bottom to
top: paper, rivers and towns, the locale polygons (washed faintly in the
colour of whoever holds them), roads, impassable borders, approach slots with
their symbols, entry points, names and capacities, the blocks, the arrows of
the last turn's moves, the frame; a game's map adds its own layers
(``game_layers``, drawn over the printed board and under the blocks) and fills
in the bands above and below (margins.py).

What the SVG says about the enemy is exactly what the view gives: a bar of
the enemy's colour at a place, with its type and strength only while
``revealed``. Enemy elements come in the view's order and carry no id, class
or data attribute derived from a block; the document has no comments and no
titles. The only ``<rect>`` elements are the blocks on the map, one each.
"""

from __future__ import annotations

from .blocks import BlockLayer
from .board import BoardLayers
from .drawing import PAPER_DEEP, _el, _n
from .margins import Margins
from .moves import MoveLayer


class MapDrawing(Margins, BoardLayers, BlockLayer, MoveLayer):
    """Draws one view of one board; a game's map subclasses it, fills in the hooks of the
    bands (margins.py: ``side_line``, ``due``, the legend's rows...) and its
    ``game_layers``, and calls :meth:`render`.

    The layers live beside it: board.py (the printed board), blocks.py, moves.py
    (the last turn's arrows), margins.py (header, blocks to come, legend), all on
    layout.py (where things stand); drawing.py holds the palette and the SVG helpers.
    """

    def game_layers(self) -> list[str]:
        """The game's own layers on the map, between the printed board and the blocks."""
        return []

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
            *self.game_layers(),
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
