"""Where the DBA map writes its names (issue 30 §4, "the map names what orders name"): every place, terrain
feature, road and stream an order may name, the seat's own brigades by name and its commanders who command no
brigade of their own. Each name is set where it overlaps no name already set and covers no piece (an element or
a commander drawn on the map): a list of candidate spots is
tried in turn (on the feature, then around it; along a road; beside a place's dot; under a brigade), and the
first free one inside the table is taken (the least overlapped when none is free, so that no name is ever
dropped). Names are set in the order of ``KINDS``: places first, brigades last.

Text widths are estimated from the characters (DejaVu Sans, the map's first font: about 0.6 of the size for a
Latin or Cyrillic letter, 1 for a Chinese character), a little wide rather than narrow.

    placer = Placer((x0, y0, x1, y1))
    label = placer.place("Gemioncourt", 13, [(400.0, 300.0), (400.0, 283.0)])
    label.svg()   # <text x=... y=... font-size="13" ...>Gemioncourt</text>
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from html import escape

FONT = 'font-family="DejaVu Sans, Arial, sans-serif"'
# the font sizes, in the map's units (1100 across): the page shows the map about 0.8 of that wide on a phone
# (zoomed 2.5 times, pbem.css) and on a desktop (1400 px, beside the orders), so 13 is about 10.5 px there
SIZE = {"place": 13, "feature": 13, "road": 13, "brigade": 13, "commander": 13}
STYLE = {"place": 'fill="#111"', "feature": 'fill="#3b2f1e" font-style="italic"',
         "road": 'fill="#5a3510" font-style="italic"', "brigade": 'font-weight="bold"', "commander": 'fill="#111"'}
PAD = 2  # room kept round each name, in the map's units
HALO = 'stroke="#f4eed8" stroke-width="3" stroke-opacity="0.85" paint-order="stroke" stroke-linejoin="round"'


def char_width(c: str) -> float:
    """About how wide a character of DejaVu Sans is, in ems."""
    if ord(c) >= 0x2E80:
        return 1.0
    if c in "il.,:;'|!()[] ":
        return 0.36
    if c.isupper() or c in "mwMWЖШЩЮМДФЫ":
        return 0.78
    return 0.62


def text_width(text: str, size: float) -> float:
    return sum(char_width(c) for c in text) * size


@dataclass(frozen=True)
class Label:
    """A name set at (x, y): the middle of its baseline."""

    text: str
    x: float
    y: float
    size: int
    kind: str
    colour: str | None = None

    @property
    def box(self) -> tuple[float, float, float, float]:
        w = text_width(self.text, self.size) + 2 * PAD
        return self.x - w / 2, self.y - 0.8 * self.size - PAD, self.x + w / 2, self.y + 0.25 * self.size + PAD

    def svg(self) -> str:
        style = STYLE[self.kind] if self.colour is None else f'fill="{self.colour}" {STYLE[self.kind]}'
        return (f'<text class="label {self.kind}" x="{self.x:.1f}" y="{self.y:.1f}" {FONT} font-size="{self.size}" '
                f'text-anchor="middle" {style} {HALO}>{escape(self.text)}</text>')


def overlap(a, b) -> float:
    w = min(a[2], b[2]) - max(a[0], b[0])
    h = min(a[3], b[3]) - max(a[1], b[1])
    return w * h if w > 0 and h > 0 else 0.0


class Placer:
    """Sets names one by one inside ``bounds`` (x0, y0, x1, y1), each where it overlaps the fewest set before and
    covers none of ``pieces`` (the boxes of the elements and commanders drawn on the map: a name over a piece
    hides it, and the piece under it blurs the name)."""

    def __init__(self, bounds: tuple[float, float, float, float], pieces=()):
        self.bounds = bounds
        self.pieces = list(pieces)
        self.labels: list[Label] = []

    def inside(self, label: Label) -> Label:
        """The label moved the least that puts it inside the bounds."""
        x0, y0, x1, y1 = label.box
        dx = max(self.bounds[0] - x0, 0) - max(x1 - self.bounds[2], 0)
        dy = max(self.bounds[1] - y0, 0) - max(y1 - self.bounds[3], 0)
        return Label(label.text, label.x + dx, label.y + dy, label.size, label.kind, label.colour)

    def crowding(self, label: Label) -> float:
        box = label.box
        return sum(overlap(box, other.box) for other in self.labels) + sum(overlap(box, p) for p in self.pieces)

    def place(self, text: str, kind: str, spots, colour: str | None = None) -> Label:
        best, least = None, math.inf
        for x, y in spots:
            label = self.inside(Label(text, x, y, SIZE[kind], kind, colour))
            crowd = self.crowding(label)
            if crowd < least:
                best, least = label, crowd
            if crowd == 0:
                break
        self.labels.append(best)
        return best


def around(x: float, y: float, text: str, kind: str) -> list[tuple[float, float]]:
    """Spots for a name centred on (x, y): there, then above and below, then to each side, farther and
    farther."""
    h = 1.25 * SIZE[kind]
    w = text_width(text, SIZE[kind])
    spots = [(x, y)]
    for step in range(1, 7):
        spots += [(x, y - step * h), (x, y + step * h), (x - step * w / 2, y), (x + step * w / 2, y),
                  (x - step * w / 2, y - step * h), (x + step * w / 2, y + step * h),
                  (x + step * w / 2, y - step * h), (x - step * w / 2, y + step * h)]
    return spots


def beside(x: float, y: float, text: str, kind: str) -> list[tuple[float, float]]:
    """Spots for a place's name beside its dot at (x, y): right, left, above, below, then farther round."""
    w = text_width(text, SIZE[kind])
    size = SIZE[kind]
    near = [(x + 6 + w / 2, y + size * 0.35), (x - 6 - w / 2, y + size * 0.35), (x, y - 7), (x, y + size + 6)]
    return near + around(x, y, text, kind)[1:]


def along(points: list[tuple[float, float]], text: str, kind: str) -> list[tuple[float, float]]:
    """Spots for a road's or stream's name: beside the line at its middle, then farther along each way."""
    lengths = [0.0]
    for (ax, ay), (bx, by) in zip(points, points[1:]):
        lengths.append(lengths[-1] + math.hypot(bx - ax, by - ay))
    total = lengths[-1] or 1.0

    def at(f: float) -> tuple[float, float]:
        d = f * total
        for i in range(1, len(points)):
            if lengths[i] >= d:
                (ax, ay), (bx, by) = points[i - 1], points[i]
                t = (d - lengths[i - 1]) / ((lengths[i] - lengths[i - 1]) or 1.0)
                return ax + t * (bx - ax), ay + t * (by - ay)
        return points[-1]

    h = 1.1 * SIZE[kind]
    spots = []
    for f in (0.5, 0.4, 0.6, 0.3, 0.7, 0.22, 0.78, 0.15, 0.85):
        x, y = at(f)
        spots += [(x + 8, y - h / 2), (x - 8, y + h), (x, y - h), (x, y + 1.5 * h)]
    return spots
