"""Where the map (render.py) draws each block, and where the game page's click layer (clicks.py)
puts its button: one layout for both, so that every block drawn has its click target on it.

A town's stack of up to ``BESIDE`` blocks stands beside its town, ``ROWS`` a column. A bigger
stack (Beaumont at the French setup, a whole army at Waterloo) is drawn whole in an inset under
the map, a row of up to ``INSET_COLUMNS`` blocks after the town's name, joined to its town by a
leader line; the town shows how many blocks stand there. The map's height grows with the insets
(``map_height``), and the turn track and the battle boards follow them.
"""

from __future__ import annotations

from dataclasses import dataclass, field

W, H, PAD = 1100, 900, 40
RIGHT, BOTTOM = 130, 110  # room for the stacks of the east and south towns
TRACK = 70  # the turn track's strip under the map
LEGEND = 26  # the legend's strip between the map and the insets
BOARD = 230  # one battle board's panel
BAR_W, BAR_H, BAR_COLUMN, BAR_ROW = 70, 12, 74, 13
ROWS, BESIDE = 4, 8
INSET_LEFT = PAD + 130  # the inset's bars start after the town's name
INSET_COLUMNS = int((W - PAD - INSET_LEFT) // BAR_COLUMN)
INSET_TOP = 20  # the inset's room above its first row of bars (its heading)


@dataclass
class Item:
    """One bar of a stack: a block of the viewer's (``id``) or a count of blocks he cannot see."""

    army: str
    label: str
    id: str | None = None
    count: int = 1  # the blocks it stands for


@dataclass
class Inset:
    town: str
    top: float
    height: float
    count: int


@dataclass
class Layout:
    bars: dict = field(default_factory=dict)  # (town, k) -> (x, y): the top left of the k-th bar of the stack
    insets: list[Inset] = field(default_factory=list)

    @property
    def inset_height(self) -> float:
        return sum(i.height for i in self.insets)


def town_positions(board) -> dict[str, tuple[float, float]]:
    """Where each town's dot is drawn."""
    xs = [t.at[0] for t in board.towns.values()]
    ys = [t.at[1] for t in board.towns.values()]
    x0, x1, y0, y1 = min(xs), max(xs), min(ys), max(ys)
    return {tid: (PAD + (t.at[0] - x0) / (x1 - x0) * (W - PAD - RIGHT),
                  PAD + 30 + (y1 - t.at[1]) / (y1 - y0) * (H - PAD - 30 - BOTTOM))
            for tid, t in board.towns.items()}


def stacks(view: dict, count_said) -> dict[str, list[Item]]:
    """Each town's stack in the view: the blocks the viewer sees by id and strength, in the view's
    order, then a bar an army for the blocks he cannot see (``count_said(n)``: "3 blocks")."""
    out: dict[str, list[Item]] = {}
    for b in view.get("blocks", []):
        out.setdefault(b["town"], []).append(Item(b["army"], f'{b["id"]} {b["strength"]}', b["id"]))
    for h in view.get("hidden", []):
        out.setdefault(h["town"], []).append(Item(h["army"], count_said(h["count"]), None, h["count"]))
    return out


def layout(board, sizes: dict[str, int]) -> Layout:
    """The bars of stacks of ``sizes`` (town -> how many bars), beside their towns or in insets."""
    at = town_positions(board)
    out = Layout()
    top = H + LEGEND
    for town in sorted(sizes, key=lambda t: (at[t][1], t)):
        n = sizes[town]
        if n <= BESIDE:
            x, y = at[town]
            for k in range(n):
                out.bars[(town, k)] = (x + 10 + (k // ROWS) * BAR_COLUMN, y + 4 + (k % ROWS) * BAR_ROW)
            continue
        rows = -(-n // INSET_COLUMNS)
        height = INSET_TOP + rows * BAR_ROW + 8
        for k in range(n):
            out.bars[(town, k)] = (INSET_LEFT + (k % INSET_COLUMNS) * BAR_COLUMN, top + INSET_TOP - 12
                                   + (k // INSET_COLUMNS) * BAR_ROW)
        out.insets.append(Inset(town, top, height, n))
        top += height
    return out


def map_height(lay: Layout, battles: int) -> float:
    """The height of the whole picture: the map, the legend, the insets, the turn track, the boards."""
    return H + LEGEND + lay.inset_height + TRACK + BOARD * battles


# -- a battle board's panel (render.battle_board): the positions of each side in a row, the reserves
# above and below, the blocks in each place 4 a row

BOARD_ROWS = {"res-def": 34, "def": 74, "att": 124, "res-att": 174}  # from the panel's top
BOARD_COLUMN = (W - 2 * PAD - 140) / 3  # one position's width


def board_cell(loc: str, top: float) -> tuple[float, float]:
    """The top left of the first bar of the blocks in ``loc`` of a panel at ``top``."""
    if loc.startswith("res"):
        return PAD + 130, top + BOARD_ROWS[loc] + 2
    return PAD + 130 + int(loc[3]) * BOARD_COLUMN + 4, top + BOARD_ROWS[loc[:3]] + 16


def cell_bar(x: float, y: float, k: int) -> tuple[float, float]:
    """The k-th bar of a place's blocks, 4 a row."""
    return x + (k % 4) * 72, y + (k // 4) * 13


def board_top(lay: Layout, k: int) -> float:
    """The top of the k-th battle board's panel."""
    return H + LEGEND + lay.inset_height + TRACK + k * BOARD
