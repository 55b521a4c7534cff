"""A map drawn as a kept board and the day's pieces over it (issue 15: <= 0.1 s a map).

Most of a map's raster time is the printed board -- paper, rivers, locale outlines, roads, names --
which is the same in every view of every day of a scenario, and the PNG encoding, which resvg does
at its best (slowest) compression. A game's drawing may say which part of its SVG is the board:
``render_svg`` then returns a :class:`LayeredSVG`, a ``str`` (the whole document, what browsers get
and what the map cache's digest keys) that also carries its :class:`Layers`:

- ``board``: a standalone SVG of the whole map's size holding only what is printed;
- ``variants``: the board as it differs by view in a few known ways (Marengo's locales washed in the
  colour of whoever holds them: the board with every locale washed in one side's colour), each with
  the ``regions`` it shows in;
- ``regions``: an SVG of the map's size where region ``n`` (a locale) is filled in grey level ``n``,
  without anti-aliasing, on black: from it, the mask of any set of regions;
- ``overlay``: a standalone SVG, transparent, of what is drawn over the board (the pieces, the
  arrows, the bands above and below).

:func:`compose` rasterises the board, its variants and its regions once per width and keeps them
decoded (least recently used out, ``KEEP_BOARDS`` in this process: the drawing worker's); a map is
then the board with each variant pasted through its regions' mask, the overlay (rasterised by resvg)
composited over it by Pillow; pbem.render.png encodes it once, at zlib level 3. The result equals the
whole document rasterised within anti-aliasing at the regions' edges and rounding
(tests/test_speed_draw.py measures the difference for every game).
"""

from __future__ import annotations

import hashlib
import math
import re
import threading
from collections import OrderedDict
from dataclasses import dataclass

KEEP_BOARDS = 12  # decoded rasters kept (7.4 MB each at 1400 px, a region mask 1.9): a scenario holds 2-4



@dataclass(frozen=True)
class Layers:
    board: str  # the printed board, a standalone SVG of the map's size
    variants: tuple[tuple[str, tuple[int, ...]], ...]  # (a board's variant, the regions it shows in)
    regions: str  # region n filled in grey n (1-255), crisp, on black ("" if no variant)
    overlay: str  # a standalone SVG, transparent, drawn over the board


class LayeredSVG(str):
    """An SVG document (the ``str``) that also says how it is drawn as a board and an overlay."""

    layers: Layers

    def __new__(cls, svg: str, layers: Layers):
        self = super().__new__(cls, svg)
        self.layers = layers
        return self

    def __reduce__(self):  # to the drawing worker and back, as itself
        return (LayeredSVG, (str(self), self.layers))


def key(svg: str) -> str:
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()


class BoardCache:
    """Decoded rasters (Pillow images) of boards, variants and regions by (digest, width), the
    ``keep`` last used."""

    def __init__(self, keep: int = KEEP_BOARDS):
        self.keep = keep
        self._kept: OrderedDict[tuple[str, int], object] = OrderedDict()
        self._lock = threading.Lock()
        self.drawn = 0  # rasters this cache had to draw

    def image(self, svg: str, width: int, rasterise, mode: str):
        k = (key(svg), int(width))
        with self._lock:
            if k in self._kept:
                self._kept.move_to_end(k)
                return self._kept[k]
        image = rasterise(svg, width).convert(mode)
        with self._lock:
            self.drawn += 1
            self._kept[k] = image
            while len(self._kept) > self.keep:
                self._kept.popitem(last=False)
        return image

    def __len__(self) -> int:
        return len(self._kept)

    def clear(self) -> None:
        with self._lock:
            self._kept.clear()


BOARDS = BoardCache()


ROOT = re.compile(r"<svg\b[^>]*>")
SIZE = re.compile(r'\b(width|height)="([0-9.]+)"')
VIEWBOX = re.compile(r'\bviewBox="([0-9.\s-]+)"')


WHOLE = re.compile(r'(?<![-\w:])width="([0-9]+)"')


def root_width(svg: str) -> int | None:
    """The root element's width when given as a whole number (pixels, no unit), else None."""
    root = ROOT.search(svg, 0, 2000)
    found = WHOLE.search(root.group(0)) if root else None
    return int(found.group(1)) if found else None


def at_width(svg: str, width: int) -> str:
    """``svg`` drawn ``width`` pixels wide at its own size, as resvg scales a document to a width: the
    root's width set to ``width``, its height to the scaled height rounded up, the viewBox stretched
    over both (``preserveAspectRatio="none"``: resvg fits the drawing to the whole pixmap, a little
    more scaled down than across). A renderer that draws at the document's size (the kept one) then
    gives resvg-py's picture."""
    root = ROOT.search(svg, 0, 2000)
    if root is None:
        return svg
    size = dict(SIZE.findall(root.group(0)))
    box = VIEWBOX.search(root.group(0))
    if "width" not in size or "height" not in size or box is None or float(size["width"]) == width:
        return svg
    w, h = float(size["width"]), float(size["height"])
    height = math.ceil(width * h / w)
    tag = SIZE.sub(lambda m: f'{m.group(1)}="{width if m.group(1) == "width" else height}"', root.group(0))
    if "preserveAspectRatio" not in tag:
        tag = tag[:-1] + ' preserveAspectRatio="none">'
    return svg[:root.start()] + tag + svg[root.end():]


def compose(layers: Layers, width: int, rasterise, cache: BoardCache = BOARDS):
    """The map as a Pillow RGBA image: the kept board, its variants through their masks, the overlay.
    ``rasterise(svg, width, background=...)`` gives a Pillow image (pbem.render.png.rasterise_image);
    a drawing narrower or wider than ``width`` is scaled (``at_width``)."""
    base = cache.image(at_width(layers.board, width), width, rasterise, "RGBA").copy()
    if layers.variants:
        regions = cache.image(at_width(layers.regions, width), width, rasterise, "L")
        for svg, shown in layers.variants:
            wanted = set(shown)
            mask = regions.point([255 if n in wanted else 0 for n in range(256)])
            box = mask.getbbox()  # only where the variant shows: often a part of the map, or nothing
            if box is not None:
                variant = cache.image(at_width(svg, width), width, rasterise, "RGBA")
                base.paste(variant.crop(box), box, mask.crop(box))
    overlay = rasterise(at_width(layers.overlay, width), width, background=None)
    if overlay.size != base.size:  # never for a drawing that keeps the document's size; a clear error if so
        raise ValueError(f"the overlay is {overlay.size}, the board {base.size}")
    base.alpha_composite(overlay)
    return base
