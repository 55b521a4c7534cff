"""Rasterising a map SVG to PNG with resvg (the ``resvg-py`` wheel, nothing else).

Fonts: the map names its fonts as lists ending in a generic family (DejaVu
first, then common system faces). When the usual font folders exist, resvg is
pointed at them and the generic families are mapped to DejaVu if it is there;
otherwise resvg loads whatever system fonts it finds. A machine with no fonts
at all still gets a correct map, only without lettering: every symbol on it is
drawn, not typed.

The PNG is rewritten with only its image chunks (IHDR, PLTE, tRNS, IDAT,
IEND), so it carries no text, time or other metadata; its image data goes in
one chunk, recompressed at zlib's best level when that is smaller.
"""

from __future__ import annotations

import base64
import functools
import io
import os
import re
import struct
import zlib
from pathlib import Path

import resvg_py

from .layers import compose, root_width

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
KEEP_CHUNKS = (b"IHDR", b"PLTE", b"tRNS", b"IDAT", b"IEND")
FONT_DIRS = (
    "/usr/share/fonts",
    "/usr/local/share/fonts",
    "~/.local/share/fonts",
    "~/.fonts",
    "/Library/Fonts",
    "/System/Library/Fonts",
    "C:/Windows/Fonts",
)
PAPER = "#e8dbbb"


@functools.lru_cache(maxsize=1)
def font_options() -> dict:
    """resvg font options for this machine: the font folders present, generics mapped to DejaVu."""
    dirs = [str(Path(d).expanduser()) for d in FONT_DIRS if Path(d).expanduser().is_dir()]
    if not dirs:
        return {}
    options: dict = {"font_dirs": dirs, "skip_system_fonts": True}
    names = set()
    for d in dirs:
        for _root, _dirs, files in os.walk(d):
            names.update(f.lower() for f in files)
    if "dejavuserif.ttf" in names:
        options["serif_family"] = "DejaVu Serif"
    if "dejavusans.ttf" in names:
        options["sans_serif_family"] = "DejaVu Sans"
        options["font_family"] = "DejaVu Sans"
    return options


def _rasterise(svg: str, width: int, background: str | None = PAPER) -> bytes:
    options = {"svg_string": svg, "width": int(width), **font_options()}
    if background:
        options["background"] = background
    render = getattr(resvg_py, "svg_to_bytes", None)
    if render is None:  # resvg-py before svg_to_bytes: base64 text
        for key in ("font_dirs", "skip_system_fonts", "serif_family", "sans_serif_family", "font_family"):
            options.pop(key, None)
        return base64.b64decode(resvg_py.svg_to_base64(**options))
    try:
        data = render(**options)
    except TypeError:  # an older signature: the essentials only
        data = render(svg_string=svg, width=int(width))
    return bytes(data)


@functools.lru_cache(maxsize=1)
def _kept_renderer():
    """resvg through svg2png-py with one font database for the process (resvg-py loads the fonts and
    encodes a PNG at its best compression at every call: most of a map's time), or None."""
    try:
        import svg2png_py
    except ImportError:
        return None
    db = svg2png_py.FontDatabase()
    options = font_options()
    for folder in options.get("font_dirs", []):
        db.load_fonts_dir(folder)
    if not options:
        db.load_system_fonts()
    return svg2png_py, db, svg2png_py.RenderOptions(font_family=options.get("font_family", "DejaVu Sans"))


GENERIC = re.compile(r'font-family="(serif|sans-serif)"')


def generic_fonts(svg: str) -> str:
    """``svg`` with the generic families ``serif`` and ``sans-serif`` named as resvg-py is told to read
    them (``font_options``): the kept renderer has no such mapping of its own, and would draw a
    Napoleon 1815 map's names in another face than the whole render does."""
    options = font_options()
    names = {"serif": options.get("serif_family"), "sans-serif": options.get("sans_serif_family")}
    return GENERIC.sub(lambda m: f'font-family="{names[m.group(1)]}"' if names[m.group(1)] else m.group(0), svg)


def _colour(css: str) -> tuple[int, int, int, int]:
    return int(css[1:3], 16), int(css[3:5], 16), int(css[5:7], 16), 255


def rasterise_image(svg: str, width: int, background: str | None = PAPER):
    """The SVG as a Pillow RGBA image ``width`` pixels wide (``background``: None, transparent),
    drawn by the kept renderer when the SVG is that wide, else by resvg-py."""
    from PIL import Image

    if _drawn_as_is(svg, width):
        module, db, options = _kept_renderer()
        data, w, h = module.svg_to_rgba(generic_fonts(svg), db, bg_color=_colour(background) if background else None,
                                        options=options)
        return Image.frombuffer("RGBa", (w, h), data, "raw", "RGBa", 0, 1).convert("RGBA")
    return Image.open(io.BytesIO(_rasterise(svg, width, background))).convert("RGBA")


def encode_png(image, level: int = 3) -> bytes:
    """A Pillow image as PNG (RGB, zlib ``level``), without metadata."""
    out = io.BytesIO()
    image.convert("RGB").save(out, "PNG", compress_level=level)
    return strip_png(out.getvalue())


def chunks(png: bytes):
    """(type, data) for every chunk of a PNG; ValueError if it is not one."""
    if not png.startswith(PNG_SIGNATURE):
        raise ValueError("not a PNG")
    pos = len(PNG_SIGNATURE)
    while pos + 8 <= len(png):
        length, kind = struct.unpack(">I4s", png[pos:pos + 8])
        yield kind, png[pos + 8:pos + 8 + length]
        pos += 12 + length
        if kind == b"IEND":
            return


def _chunk(kind: bytes, data: bytes) -> bytes:
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)


def strip_png(png: bytes) -> bytes:
    """The same image with only its image chunks; its image data in one chunk, as resvg compressed it
    (recompressing at level 9 took 0.4 s an image and never made it smaller)."""
    out = [PNG_SIGNATURE]
    idat = []
    for kind, data in chunks(png):
        if kind == b"IDAT":
            idat.append(data)
            continue
        if kind not in KEEP_CHUNKS:
            continue
        if kind == b"IEND":
            out.append(_chunk(b"IDAT", b"".join(idat)))
        out.append(_chunk(kind, data))
    return b"".join(out)


def png_size(png: bytes) -> tuple[int, int]:
    """(width, height) from the IHDR chunk."""
    for kind, data in chunks(png):
        if kind == b"IHDR":
            return struct.unpack(">II", data[:8])
    raise ValueError("PNG without IHDR")


def render_png(svg: str, width: int = 1400) -> bytes:
    """The SVG as a PNG ``width`` pixels wide, without metadata. A map that carries its layers
    (pbem.render.layers.LayeredSVG) is drawn as its kept boards with its overlay over them."""
    layers = getattr(svg, "layers", None)
    if layers is not None:
        return encode_png(compose(layers, width, rasterise_image))
    if _drawn_as_is(str(svg), width):  # else resvg-py scales it, and its PNG is kept as it is
        return encode_png(rasterise_image(str(svg), width))
    return strip_png(_rasterise(str(svg), width))


def _drawn_as_is(svg: str, width: int) -> bool:
    """Whether the kept renderer draws ``svg`` at ``width`` pixels (it draws at the SVG's own size).
    A root that gives its width as a whole number of pixels says it; else resvg reads the document's
    size (it parses the whole SVG: a tenth of a composed map's time, issue 15)."""
    kept = _kept_renderer()
    if kept is None:
        return False
    given = root_width(svg)
    if given is not None:
        return given == int(width)
    return kept[0].svg_intrinsic_size(svg, kept[1])[0] == int(width)


def render_whole_png(svg: str, width: int = 1400) -> bytes:
    """The whole document rasterised by resvg-py at one call, its layers (if any) ignored: the raw
    render, what a composed map must equal."""
    return strip_png(_rasterise(str(svg), width))


def difference(png_a: bytes, png_b: bytes) -> tuple[float, float]:
    """How two PNGs of one size differ: (the mean over pixels of the largest channel difference,
    0-255; the share of pixels whose largest channel difference is over 32)."""
    from PIL import Image, ImageChops

    a, b = (Image.open(io.BytesIO(p)).convert("RGB") for p in (png_a, png_b))
    if a.size != b.size:
        raise ValueError(f"sizes differ: {a.size} and {b.size}")
    r, g, bl = ImageChops.difference(a, b).split()
    hist = ImageChops.lighter(ImageChops.lighter(r, g), bl).histogram()
    pixels = a.size[0] * a.size[1]
    return sum(i * n for i, n in enumerate(hist)) / pixels, sum(hist[33:]) / pixels
