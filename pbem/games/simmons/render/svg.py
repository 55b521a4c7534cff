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

from pbem.render.layers import Layers, LayeredSVG

from .blocks import BlockLayer
from .board import BoardLayers
from .drawing import PAPER_DEEP, _el, _n, _pts
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
        """The whole document; it carries its layers too (a kept board under the day's pieces,
        pbem.render.layers), which draw the same picture faster."""
        b = self.board
        footer = self.footer()
        total_h = self.header_h + b.height + self.footer_h
        head = (f'<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="{_n(b.width)}" '
                f'height="{_n(total_h)}" viewBox="0 0 {_n(b.width)} {_n(total_h)}">')
        background = _el("path", d=f"M0,0H{_n(b.width)}V{_n(total_h)}H0z", fill=PAPER_DEEP)
        header = self.header()
        footer_g = [f'<g transform="translate(0 {_n(self.header_h + b.height)})">', footer, "</g>"]
        lang = self.tongue.lang
        # what is printed depends on the board and the reader's language alone: drawn once (``kept``)
        printed = self.kept(("printed", lang), lambda: [self.paper(), self.features(), None, self.roads(),
                                                        self.impassables(), None, self.entries(), self.labels()])
        pieces = [*self.game_layers(), self.blocks(), self.arrows(), self.frame()]

        def on_map(layers: list[str]) -> list[str]:
            return [f'<g transform="translate(0 {_n(self.header_h)})">',
                    f'<clipPath id="map-area"><path d="M0,0H{_n(b.width)}V{_n(b.height)}H0z"/></clipPath>',
                    '<g clip-path="url(#map-area)">', *[layer for layer in layers if layer], "</g>", "</g>"]

        def printed_board(tint: str) -> str:
            layers = list(printed)
            # the slots: the same on the plain board and each washed one
            layers[2], layers[5] = self.locales(tint), self.approaches(printed=True, marks=False)
            return "\n".join(on_map(layers))

        def board(tint: str) -> str:
            return "\n".join([head, background, self.kept(("board", lang, tint), lambda: printed_board(tint)),
                              "</svg>"]) + "\n"

        layers = list(printed)
        layers[2], layers[5] = self.locales(), self.approaches()
        whole = "\n".join([head, background, header, *on_map(layers + pieces), *footer_g, "</svg>"]) + "\n"
        # the overlay: the pieces unclipped, then the bands' paper over whatever crossed into them
        # (as the map's clip would: resvg's clip costs a full-size layer), then the bands
        marks = self.approaches(printed=False, marks=True)
        bands = _el("path", d=f"M0,0H{_n(b.width)}V{_n(self.header_h)}H0z"
                              f"M0,{_n(self.header_h + b.height)}H{_n(b.width)}V{_n(total_h)}H0z", fill=PAPER_DEEP)
        overlay = "\n".join([head, f'<g transform="translate(0 {_n(self.header_h)})">',
                              *[layer for layer in [marks, *pieces] if layer], "</g>", bands, header, *footer_g,
                              "</svg>"]) + "\n"
        # the board plain, and washed in each side's colour where that side alone holds a locale
        numbers, shapes = self.kept("regions", self.regions)
        held = self.held_by()
        variants = tuple((board(side), tuple(sorted(numbers[lid] for lid, by in held.items()
                                                    if by == side and lid in numbers)))
                         for side in sorted(set(held.values())))
        regions = ""
        if variants:
            regions = "\n".join([head, f'<g transform="translate(0 {_n(self.header_h)})" shape-rendering="crispEdges">',
                                  shapes, "</g>", "</svg>"]) + "\n"
        return LayeredSVG(whole, Layers(board(""), variants, regions, overlay))

    def regions(self) -> tuple[dict[str, int], str]:
        """({locale: its region's number}, the regions' polygons, each filled in its grey): where each
        locale shows in a washed board's variant (pbem.render.layers)."""
        numbers = {lid: n for n, lid in enumerate((lid for lid, poly in self.polygons.items() if len(poly) >= 3),
                                                  start=1) if n < 256}
        shapes = "".join(_el("polygon", points=_pts(self.polygons[lid]), fill=f"rgb({n},{n},{n})")
                         for lid, n in numbers.items())
        return numbers, shapes
