"""The palette of the map and the small helpers that write its SVG.

Colours and fonts, short numbers, elements and text, smooth paths, and the
symbols drawn (never typed, so they need no font): the block-type marks, the
objective star and the face of a block. Every layer of the map uses these.
"""

from __future__ import annotations

import math
from xml.sax.saxutils import escape

PAPER = "#f3ead2"
PAPER_DEEP = "#e8dbbb"
INK = "#3b2f20"
INK_SOFT = "#9a8866"
SIDE_COLOUR = {"austria": "#b22222", "france": "#1f3f99"}
SIDE_PALE = {"austria": "#dc9a92", "france": "#98a6d4"}
SIDE_TINT = {"austria": "#f1d5c6", "france": "#d9dff0"}
SIDE_DARK = {"austria": "#6e1010", "france": "#101f55"}
STAR = {"red": "#c62828", "green": "#2e7d32", "blue": "#1c5fb8"}
ROAD = {"main": "#c0392b", "secondary": "#8b5a2b"}
WATER, WATER_PALE = "#5b8cc4", "#a9c4e4"
WATER_TEXT = "#2f5f9a"  # river names: 4.7:1 or more on the paper and the tints (WCAG's 4.5)
SERIF = "DejaVu Serif, Georgia, 'Times New Roman', serif"
SANS = "DejaVu Sans, Verdana, Arial, sans-serif"
OTHER = {"austria": "france", "france": "austria"}


def _n(v: float) -> str:
    """A coordinate, short: two decimals at most."""
    s = f"{v:.2f}".rstrip("0").rstrip(".")
    return "0" if s in ("-0", "") else s


def _pts(points) -> str:
    return " ".join(f"{_n(x)},{_n(y)}" for x, y in points)


def _attrs(attrs: dict) -> str:
    out = []
    for key, value in attrs.items():
        if value is None:
            continue
        if isinstance(value, float):
            value = _n(value)
        out.append(f' {key.replace("_", "-")}="{escape(str(value), {chr(34): "&quot;"})}"')
    return "".join(out)


def _el(tag: str, content: str | None = None, **attrs) -> str:
    if content is None:
        return f"<{tag}{_attrs(attrs)}/>"
    return f"<{tag}{_attrs(attrs)}>{content}</{tag}>"


def _text(x: float, y: float, text: str, size: float, **attrs) -> str:
    attrs.setdefault("font_family", SERIF)
    attrs.setdefault("fill", INK)
    return _el("text", escape(str(text)), x=float(x), y=float(y), font_size=float(size), **attrs)


def _unit(dx: float, dy: float) -> tuple[float, float]:
    length = math.hypot(dx, dy) or 1.0
    return dx / length, dy / length


def _smooth(points) -> str:
    """A path through ``points`` (Catmull–Rom turned into cubic Béziers)."""
    pts = [(float(x), float(y)) for x, y in points]
    if len(pts) < 3:
        return "M" + " L".join(f"{_n(x)},{_n(y)}" for x, y in pts)
    d = [f"M{_n(pts[0][0])},{_n(pts[0][1])}"]
    for i in range(len(pts) - 1):
        p0 = pts[i - 1] if i else pts[i]
        p1, p2 = pts[i], pts[i + 1]
        p3 = pts[i + 2] if i + 2 < len(pts) else p2
        c1 = (p1[0] + (p2[0] - p0[0]) / 6, p1[1] + (p2[1] - p0[1]) / 6)
        c2 = (p2[0] - (p3[0] - p1[0]) / 6, p2[1] - (p3[1] - p1[1]) / 6)
        d.append(f"C{_n(c1[0])},{_n(c1[1])} {_n(c2[0])},{_n(c2[1])} {_n(p2[0])},{_n(p2[1])}")
    return " ".join(d)


# -- symbols (drawn, never typed, so they need no font) ---------------------

def type_symbol(kind: str, x: float, y: float, s: float, colour: str, width: float, crisp: bool = False) -> str:
    """The face symbol of a block type centred at (x, y), ``s`` wide: ☒ infantry, ◫ cavalry, ● artillery.

    ``crisp``: no anti-aliasing (the small penalty marks: sharper, and far fewer PNG bytes).
    """
    h = s / 2
    if kind == "artillery":
        return _el("circle", cx=x, cy=y, r=s * 0.36, fill=colour)
    box = f"M{_n(x - h)},{_n(y - h)}h{_n(s)}v{_n(s)}h{_n(-s)}z"
    if kind == "infantry":
        cross = f"M{_n(x - h)},{_n(y - h)}L{_n(x + h)},{_n(y + h)}M{_n(x + h)},{_n(y - h)}L{_n(x - h)},{_n(y + h)}"
    else:  # cavalry: one diagonal
        cross = f"M{_n(x - h)},{_n(y + h)}L{_n(x + h)},{_n(y - h)}"
    return _el("path", d=box + cross, fill="none", stroke=colour, stroke_width=width, stroke_linejoin="miter",
               shape_rendering="crispEdges" if crisp else None)


def star(x: float, y: float, r: float, fill: str, stroke: str, width: float) -> str:
    pts = []
    for i in range(10):
        rad = r if i % 2 == 0 else r * 0.42
        a = -math.pi / 2 + i * math.pi / 5
        pts.append((x + rad * math.cos(a), y + rad * math.sin(a)))
    return _el("polygon", points=_pts(pts), fill=fill, stroke=stroke, stroke_width=width, stroke_linejoin="round")


def block_face(kind, strength, label, length: float, T: float, u: float, ink: str = "#fffaf0") -> str:
    """The face of a block centred on (0, 0): one symbol per strength point, then its id."""
    if kind not in ("infantry", "cavalry", "artillery"):
        return ""
    strength = max(1, min(3, int(strength or 1)))
    s = T * 0.56
    pitch = s * 1.28
    x0 = -length / 2 + T * 0.22 + s / 2
    out = [type_symbol(kind, x0 + i * pitch, 0, s, ink, 1.05 * u) for i in range(strength)]
    if label:
        label = str(label)
        fs = T * 0.6
        left = x0 + (strength - 0.5) * pitch + T * 0.2
        right = length / 2 - T * 0.15
        place = {"x": right, "text_anchor": "end"}
        if len(label) * fs * 0.52 > right - left > 0:  # squeeze a long id into the room left
            place = {"x": left, "textLength": right - left, "lengthAdjust": "spacingAndGlyphs"}
        out.append(_el("text", escape(label), y=fs * 0.36, font_size=fs, font_family=SANS,
                       font_stretch="condensed", font_weight="bold", fill=ink, **place))
    return "".join(out)
