"""The map image of a side's view of a Bonaparte at Marengo game, as SVG.

    svg = render_svg(board, view(scenario, state, "austria"), title="Game 12")

``render_svg`` draws only what the view holds (pbem.games.marengo.view), so
an enemy block is a bar of the enemy's colour, with its face only while it
stands revealed. The drawing is the family's (pbem.games.simmons.render);
Marengo adds its morale and legend rows (svg.py). ``locale_polygons`` and
``approach_segment`` are the plane geometry the map is drawn on. pbem.render
turns the SVG into a PNG for mail.
"""

from pbem.games.simmons.render import approach_segment, locale_polygons

from .svg import render_svg

__all__ = ["render_svg", "locale_polygons", "approach_segment"]
