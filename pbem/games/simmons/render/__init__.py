"""The Marengo family's map drawing: one side's view on the family's board, as SVG.

:class:`~pbem.games.simmons.render.svg.MapDrawing` draws what both games print
(the board, the blocks, the last turn's arrows); each game subclasses it with
its bands and layers (marengo/render, triomphe/render.py). ``locale_polygons``
and ``approach_segment`` are the plane geometry the map is drawn on.
pbem.render turns the SVG into a PNG for mail.
"""

from .geometry import approach_segment, locale_polygons
from .svg import MapDrawing

__all__ = ["MapDrawing", "locale_polygons", "approach_segment"]
