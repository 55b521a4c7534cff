"""A game's map drawing (SVG, made by its ruleset) turned into a PNG for mail.

    png = render_png(svg)  # ~1400 px wide, no metadata

Every game draws its own SVG; this is the one raster step they share.
"""

from .png import png_size, render_png

__all__ = ["render_png", "png_size"]
