"""Scores, tie-breaks and the crosstable of a tournament. Pure functions of its results.

A win is 1 point, a draw 1/2, a loss 0, a bye 1 (a pairing-allocated bye, FIDE's default).
A game forfeited by the miss policy counts as a win for the side that stayed (it is marked
as a forfeit in the crosstable). Tie-breaks (FIDE C.07):

- **Buchholz**: the sum of the scores of the opponents played (byes add nothing);
- **Sonneborn-Berger**: the sum of the scores of the opponents beaten, plus half the
  scores of the opponents drawn with.

Swiss standings break ties by Buchholz, then Sonneborn-Berger; round robin by
Sonneborn-Berger, then wins (Buchholz is the same for everyone in a full round robin);
then the pairing number.
"""

from __future__ import annotations

from dataclasses import dataclass, field

POINTS = {"win": 1.0, "draw": 0.5, "loss": 0.0, "bye": 1.0, "annulled": 0.0}


@dataclass(frozen=True)
class Result:
    """One pairing: ``second`` None is a bye; ``result`` "first", "second", "draw", "bye", or None
    while the game is played; ``how``: "played", "forfeit", "resigned", "agreed" (a draw
    by agreement), "adjudicated", "overridden", "annulled" (counts for nobody) or "bye"."""

    round: int
    first: int
    second: int | None
    result: str | None
    how: str = "played"
    game_id: int | None = None
    third: int | None = None  # a three-seat game: the second side's other player (the first plays alone)


@dataclass
class Row:
    number: int
    points: float = 0.0
    wins: int = 0
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    bids: int = 0  # points paid in side bidding: the last tie-break, fewer first
    losses: int = 0
    out: int | None = None  # a double elimination: the round of his second loss, which put him out
    rank: int = 0
    cells: dict[int, dict] = field(default_factory=dict)  # round -> crosstable cell


def outcome(result: Result, number: int) -> str | None:
    """``number``'s outcome in ``result``: "win", "draw", "loss", "bye", "annulled" (a game that counts
    for nobody: an entrant withdrew, or the organiser annulled it) or None (not over)."""
    if result.result is None:
        return None
    if result.how == "annulled":
        return "annulled"
    if result.result == "bye":
        return "bye"
    if result.result == "draw":
        return "draw"
    won = (result.result == "first") == (number == result.first)
    return "win" if won else "loss"


def standings(numbers: list[int], results: list[Result], tie_breaks=("buchholz", "sonneborn_berger"),
              bids: dict[int, int] | None = None, eliminated: bool = False) -> list[Row]:
    """Every entrant's row, best first, with its rank (equal rows share it) and crosstable cells.
    ``bids``: the points each paid in side bidding, the last tie-break (fewer first). ``eliminated``: a double
    elimination, ranked by how long each stayed in (those still in first, then the later a player's second loss
    the better), then by points and the tie-breaks."""
    rows = {n: Row(n, bids=(bids or {}).get(n, 0)) for n in numbers}
    for r in sorted(results, key=lambda r: r.round):
        for me, others, seat in ((r.first, [r.second, r.third], "first"), (r.second, [r.first], "second"),
                                 (r.third, [r.first], "third")):
            if me is None or me not in rows:
                continue
            result = outcome(r, me)
            opponents = [o for o in others if o is not None]  # in a group of three, the partner is none
            rows[me].cells[r.round] = {"opponent": opponents[0] if opponents else None, "opponents": opponents,
                                       "seat": seat, "outcome": result, "how": r.how, "game_id": r.game_id}
            if result is not None:
                rows[me].points += POINTS[result]
                rows[me].wins += result == "win"
                rows[me].losses += result == "loss"
                if rows[me].losses == 2 and rows[me].out is None:
                    rows[me].out = r.round
    for row in rows.values():
        for cell in row.cells.values():
            for other in cell["opponents"]:
                if cell["outcome"] in (None, "annulled") or other not in rows:
                    continue
                score = rows[other].points
                row.buchholz += score
                row.sonneborn_berger += {"win": score, "draw": score / 2}.get(cell["outcome"], 0.0)

    def key(row: Row):
        stayed = (row.out is not None, -(row.out or 0)) if eliminated else ()
        return (*stayed, -row.points, *(-getattr(row, name) for name in tie_breaks), row.bids)

    ordered = sorted(rows.values(), key=lambda row: (key(row), row.number))
    for i, row in enumerate(ordered):
        row.rank = ordered[i - 1].rank if i and key(ordered[i - 1]) == key(row) else i + 1
    return ordered


def tie_breaks_for(format: str) -> tuple[str, ...]:
    return {"swiss": ("buchholz", "sonneborn_berger"), "round_robin": ("sonneborn_berger", "wins"),
            "knockout": ("wins", "sonneborn_berger"), "double_elimination": ("wins", "sonneborn_berger")}[format]


def cell_text(cell: dict | None, numbers: dict[int, int] | None = None) -> str:
    """A crosstable cell as read in print: "+5F" (beat number 5 from the first seat), "=3S", "-2F",
    "+bye"; "*5F" while the game is on; "x5F" a game annulled; an "f" after a forfeit, an "a" after an
    adjudication, an "o" after the organiser's override, an "r" after a resignation, a "d" after a draw by
    agreement."""
    if cell is None:
        return ""
    if cell["opponent"] is None:
        return "+bye"
    sign = {"win": "+", "draw": "=", "loss": "-", "annulled": "x", None: "*"}[cell["outcome"]]
    mark = {"forfeit": "f", "adjudicated": "a", "resigned": "r", "agreed": "d", "overridden": "o"}.get(cell["how"], "")
    opponents = ",".join(str(o) for o in cell.get("opponents") or [cell["opponent"]])
    return f"{sign}{opponents}{ {'first': 'F', 'second': 'S', 'third': 'T'}[cell['seat']]}{mark}"
