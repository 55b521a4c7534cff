"""The click layer of the game page: what may be clicked on a map, as a small JSON of regions.

The page shows the map as an image (fast: no DOM of 1,800 SVG elements to lay out and no script
walking it) and lays over it one button per own block and nothing else; a click elsewhere is
hit-tested by its coordinates against the places' outlines. The regions are read here, once per
map, from the marks the game's map puts on own blocks and places (``data-block``, ``data-locale``,
``data-approach``, see pbem.core.ruleset.Ruleset.map_clicks), or given by the game's click
grammar as ``regions`` when its map marks nothing. Either way they hold only what the seat's own
map shows.

    {"viewbox": [x, y, width, height],
     "blocks": [{"id": "F5", "at": "Marengo", "data": {"type": "infantry"},
                 "box": [cx, cy, width, height, degrees]}, ...],        # box None: not on the map
     "places": [{"name": "Marengo>Spinetta", "kind": "approach", "points": [[x, y], ...]}, ...]}

What the layer offers (a verb for the chosen blocks, a place to go) is what the game's own orders
check accepts: the page sends the line each offer would write, and ``offers`` answers from the
ruleset's ``check_orders`` on the seat's position, with the orders already in the text (a second
activation, a line the check refuses). The layer holds no rule of any game.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
import math
import re
import xml.etree.ElementTree as ET

Matrix = tuple[float, float, float, float, float, float]  # a b c d e f, as SVG writes it
IDENTITY: Matrix = (1.0, 0.0, 0.0, 1.0, 0.0, 0.0)
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*|\.\d+)(?:[eE][-+]?\d+)?")


def multiply(m: Matrix, n: Matrix) -> Matrix:
    a, b, c, d, e, f = m
    a2, b2, c2, d2, e2, f2 = n
    return (a * a2 + c * b2, b * a2 + d * b2, a * c2 + c * d2, b * c2 + d * d2, a * e2 + c * f2 + e,
            b * e2 + d * f2 + f)


def parse_transform(text: str | None) -> Matrix:
    """An SVG ``transform`` attribute as one matrix (translate, rotate, scale, matrix, skew aside)."""
    m = IDENTITY
    for name, args in re.findall(r"(\w+)\s*\(([^)]*)\)", text or ""):
        v = [float(x) for x in NUMBER.findall(args)]
        if name == "translate":
            step = (1.0, 0.0, 0.0, 1.0, v[0], v[1] if len(v) > 1 else 0.0)
        elif name == "scale":
            step = (v[0], 0.0, 0.0, v[1] if len(v) > 1 else v[0], 0.0, 0.0)
        elif name == "rotate":
            r = math.radians(v[0])
            step = (math.cos(r), math.sin(r), -math.sin(r), math.cos(r), 0.0, 0.0)
            if len(v) == 3:
                step = multiply(multiply((1.0, 0.0, 0.0, 1.0, v[1], v[2]), step), (1.0, 0.0, 0.0, 1.0, -v[1], -v[2]))
        elif name == "matrix" and len(v) == 6:
            step = tuple(v)
        else:
            continue
        m = multiply(m, step)
    return m


def apply(m: Matrix, x: float, y: float) -> tuple[float, float]:
    a, b, c, d, e, f = m
    return a * x + c * y + e, b * x + d * y + f


def _num(el, name: str, default: float = 0.0) -> float:
    found = NUMBER.match(el.get(name) or "")
    return float(found.group()) if found else default


def outline(el, m: Matrix) -> list[tuple[float, float]]:
    """The outline of a polygon, rect or circle, in the map's coordinates."""
    tag = el.tag.rsplit("}", 1)[-1]
    if tag in ("polygon", "polyline"):
        v = [float(x) for x in NUMBER.findall(el.get("points", ""))]
        points = list(zip(v[0::2], v[1::2]))
    elif tag == "rect":
        x, y, w, h = _num(el, "x"), _num(el, "y"), _num(el, "width"), _num(el, "height")
        points = [(x, y), (x + w, y), (x + w, y + h), (x, y + h)]
    elif tag == "circle":
        cx, cy, r = _num(el, "cx"), _num(el, "cy"), _num(el, "r")
        points = [(cx + r * math.cos(i * math.pi / 8), cy + r * math.sin(i * math.pi / 8)) for i in range(16)]
    else:
        return []
    return [apply(m, x, y) for x, y in points]


def _r(v: float) -> float:
    return round(v, 1)


def viewbox(root) -> list[float]:
    v = [float(x) for x in NUMBER.findall(root.get("viewBox", ""))]
    if len(v) == 4:
        return v
    return [0.0, 0.0, _num(root, "width", 1400.0), _num(root, "height", 1327.0)]


def regions_from_svg(svg: str) -> dict:
    """The clickable regions marked on a map (see the module's docstring)."""
    root = ET.fromstring(svg)
    blocks, places = [], []

    def walk(el, m: Matrix):
        m = multiply(m, parse_transform(el.get("transform")))
        if el.get("data-block"):
            corners = outline(el, m)
            if corners:
                (x0, y0), (x1, y1), _, (x3, y3) = corners
                cx = sum(x for x, _ in corners) / 4
                cy = sum(y for _, y in corners) / 4
                box = [_r(cx), _r(cy), _r(math.hypot(x1 - x0, y1 - y0)), _r(math.hypot(x3 - x0, y3 - y0)),
                       _r(math.degrees(math.atan2(y1 - y0, x1 - x0)))]
                data = {k[5:]: v for k, v in el.attrib.items() if k.startswith("data-") and k not in (
                    "data-block", "data-at")}
                blocks.append({"id": el.get("data-block"), "at": el.get("data-at", ""), "data": data, "box": box})
        for kind in ("approach", "locale"):
            if el.get(f"data-{kind}"):
                points = outline(el, m)
                if len(points) >= 3:
                    places.append({"name": el.get(f"data-{kind}"), "kind": kind,
                                   "points": [[round(x), round(y)] for x, y in points]})
        for child in el:
            walk(child, m)

    walk(root, IDENTITY)
    return {"viewbox": viewbox(root), "blocks": blocks, "places": places}


def regions(grammar: dict, svg: str) -> dict:
    """The regions of a page's map: the grammar's own when it gives them (a map that marks nothing),
    else those its map marks; the grammar's extra blocks off the map (reinforcements to enter) added."""
    found = dict(grammar["regions"]) if grammar.get("regions") else regions_from_svg(svg)
    found.setdefault("viewbox", viewbox(ET.fromstring(svg)))
    found["blocks"] = list(found.get("blocks", [])) + list(grammar.get("offmap", []))
    return found


HIT_AREA = re.compile(r'<(?:polygon|rect|circle|path)\b(?=[^>]*\bfill="none")(?![^>]*\bstroke=)(?=[^>]*\bdata-[\w-]+=)'
                      r'[^>]*/>')
MARK = re.compile(r'\sdata-[\w-]+="[^"]*"')


def unmarked(svg: str) -> str:
    """The map as the page's image shows it: without the click marks (the click layer has them from
    ``regions``) and without the unpainted areas drawn only to be clicked. Smaller, and quicker for
    the browser to lay out and paint."""
    return MARK.sub("", HIT_AREA.sub("", svg))


MAX_OFFERS = 400
"""The most candidate lines one question may carry (a verb's every place: Marengo has 323)."""


def candidate_text(text: str, at: int, replace: bool, line: str | None) -> str:
    """The orders text with ``line`` written where the page would write it: over line ``at`` (0-based;
    ``replace``, the line being built), or inserted before it; None: the line at ``at`` left out."""
    lines = text.rstrip("\n").split("\n") if text.strip() else []
    at = max(0, min(at, len(lines)))
    if replace and at < len(lines):
        del lines[at]
    if line is not None:
        lines.insert(at, line)
    return "\n".join(lines) + "\n"


def offers(check: Callable[[str], Sequence], text: str, at: int, replace: bool, lines: Sequence[str]) -> list[dict]:
    """For each candidate order line, whether the orders check accepts it written into ``text`` (see
    ``candidate_text``): accepted when it adds no problem to those the text has without it (a text
    being typed may hold others). ``check`` gives a text's problems (pbem.core.orders.Problem).
    Each answer: {"ok": bool, "why": the first problem the line adds, as the check words it}."""
    def key(p):
        return (p.message, p.found, p.expected)

    known = {key(p) for p in check(candidate_text(text, at, replace, None))}
    out = []
    for line in lines:
        added = [p for p in check(candidate_text(text, at, replace, line)) if key(p) not in known]
        out.append({"ok": not added, "why": added[0].message if added else ""})
    return out
