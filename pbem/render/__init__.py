"""A game's map drawing (SVG, made by its ruleset) turned into a PNG for mail.

    png = render_png(svg)  # ~1400 px wide, no metadata

Every game draws its own SVG; this is the one raster step they share. A map whose SVG carries its
layers (layers.LayeredSVG: a kept board and the day's pieces) is drawn by composing them.
"""

from .layers import Layers, LayeredSVG
from .png import png_size, render_png, render_whole_png

__all__ = ["render_png", "render_whole_png", "png_size", "Layers", "LayeredSVG"]
