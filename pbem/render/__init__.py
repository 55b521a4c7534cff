"""The map image of a side's view: SVG for the web, PNG for mail.

    svg = render_svg(board, view(scenario, state, "austria"), title="Game 12")
    png = render_png(svg)  # ~1400 px wide, no metadata

``render_svg`` draws only what the view holds (pbem.games.marengo.view), so
an enemy block is a bar of the enemy's colour, with its face only while it
stands revealed. ``locale_polygons`` and ``approach_segment`` are the plane
geometry the map is drawn on.
"""

from .geometry import approach_segment, locale_polygons
from .png import png_size, render_png
from .svg import render_svg

__all__ = ["render_svg", "render_png", "png_size", "locale_polygons", "approach_segment"]
