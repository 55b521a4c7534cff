"""Double elimination: who plays whom, from the bracket and the results so far. Pure functions.

The entrants are seeded into a **winners' bracket** as a knockout is (``pairing.knockout_first``: seed 1
against the last, byes to the top seeds up to a power of two). A player who loses there drops into the
**losers' bracket**; a loss there puts him out. So everyone is out after two losses, but the winner.

With a bracket of ``2**k`` places, the winners' bracket has rounds W1 .. Wk, the losers' bracket L1 ..
L(2k-2): L1 pairs the losers of W1 among themselves; each even round L(2j-2) pairs the winners of the
round before against the losers of Wj, who come in in the reverse order (so that two players who met in
the winners' bracket do not meet again at once); each odd round L(2j-1) pairs the winners of the round
before among themselves. Then the **grand final** F: the winners' bracket's winner against the losers'
bracket's winner. **The reset rule**: if the losers' bracket's winner wins F, both have lost once, so a
second final F2 decides; if the winners' bracket's winner wins F, the tournament is over (he has not lost).
With two entrants: W1, then F between its winner and its loser, and F2 as above.

A match is played as soon as both its players are known, so a tournament round holds every match then
ready (winners' and losers' brackets side by side). A match with one place empty (a bye: fewer entrants
than places) sends the other player on without a game: a bye of the winners' bracket's first round is
recorded as a bye (a point, as in a knockout); one of the losers' bracket (a bye's loser who is nobody)
passes him on. A draw sends the better seed on, as in a knockout.

A match is named by its round and place: ``W1.2`` (winners' round 1, match 2), ``L3.1``, ``F``, ``F2``; a
place in a match by where its player comes from: ``seed:3``, ``winner:W1.2``, ``loser:W2.1``.
"""

from __future__ import annotations

from dataclasses import dataclass

from .pairing import knockout_first, knockout_rounds

UNKNOWN = 0
"""A place whose player is not known yet (the match that sends him is not over); None is an empty place."""


@dataclass(frozen=True)
class Match:
    id: str
    first: str  # where its first player comes from: "seed:N", "winner:ID", "loser:ID"
    second: str


def bracket(count: int) -> list[Match]:
    """Every match of a double elimination of ``count`` entrants (2 or more), in the order they may be played,
    the reset F2 last."""
    k = max(1, knockout_rounds(count))
    size = 2 ** k
    out = [Match(f"W1.{m}", f"seed:{a}", f"seed:{b if b is not None else 0}")
           for m, (a, b) in enumerate(knockout_first(count), 1)]
    for r in range(2, k + 1):
        out += [Match(f"W{r}.{m}", f"winner:W{r - 1}.{2 * m - 1}", f"winner:W{r - 1}.{2 * m}")
                for m in range(1, size // 2 ** r + 1)]
    if k == 1:
        final = Match("F", "winner:W1.1", "loser:W1.1")
        return out + [final, Match("F2", final.first, final.second)]
    out += [Match(f"L1.{m}", f"loser:W1.{2 * m - 1}", f"loser:W1.{2 * m}") for m in range(1, size // 4 + 1)]
    for j in range(2, k + 1):
        n = size // 2 ** j
        out += [Match(f"L{2 * j - 2}.{m}", f"winner:L{2 * j - 3}.{m}", f"loser:W{j}.{n + 1 - m}")
                for m in range(1, n + 1)]
        if j < k:
            out += [Match(f"L{2 * j - 1}.{m}", f"winner:L{2 * j - 2}.{2 * m - 1}", f"winner:L{2 * j - 2}.{2 * m}")
                    for m in range(1, n // 2 + 1)]
    final = Match("F", f"winner:W{k}.1", f"winner:L{2 * k - 2}.1")
    return out + [final, Match("F2", final.first, final.second)]


def most_rounds(count: int) -> int:
    """How many tournament rounds a double elimination of ``count`` takes at most (the reset played)."""
    return 2 * max(1, knockout_rounds(count)) + 1


class Bracket:
    """The bracket of ``count`` entrants with the matches decided so far: ``won`` {match id: the winner's
    number} (a draw already turned into the better seed); ``paired`` {match id: its two players} for the matches
    paired, whose players are those who played them (a game begun stands even when a result before it changed)."""

    def __init__(self, count: int, won: dict[str, int], paired: dict[str, tuple[int, int | None]] | None = None):
        self.count = count
        self.matches = {m.id: m for m in bracket(count)}
        self.won = won
        self.paired = paired or {}

    def players(self, match_id: str) -> tuple[int | None, int | None]:
        if match_id in self.paired:
            return self.paired[match_id]
        m = self.matches[match_id]
        return self.place(m.first), self.place(m.second)

    def place(self, source: str) -> int | None:
        """The player of a place: his number, None (nobody: a bye) or UNKNOWN (not decided yet)."""
        kind, _, what = source.partition(":")
        if kind == "seed":
            n = int(what)
            return n if 1 <= n <= self.count else None
        a, b = self.players(what)
        if UNKNOWN in (a, b):
            return UNKNOWN
        if a is None or b is None:  # a match of one: the one goes on, nobody loses
            return (a if b is None else b) if kind == "winner" else None
        if what not in self.won:
            return UNKNOWN
        winner = self.won[what]
        return winner if kind == "winner" else (b if winner == a else a)

    def reset_needed(self) -> bool:
        """Whether the grand final is to be played again: its second player (the losers' bracket's) won it."""
        return "F" in self.won and self.won["F"] == self.place(self.matches["F"].second)

    def ready(self, played: set[str]) -> list[tuple[str, int, int | None]]:
        """The matches to pair now: both players known and the match not yet ``played`` (paired), nobody in two
        (a first-round bye's player waits for the next round); a match of one (a first-round bye) is given with None. Matches of one later in the bracket are not given: they pass
        their player on by themselves. F2 only when the reset rule calls for it."""
        out, busy = [], set()
        for match_id in self.matches:
            if match_id in played or (match_id == "F2" and not self.reset_needed()):
                continue
            a, b = self.players(match_id)
            if UNKNOWN in (a, b) or (a is None and b is None) or busy & {a, b}:  # one match a round each
                continue
            if b is None or a is None:
                if match_id.startswith("W1."):
                    out.append((match_id, a if b is None else b, None))
                    busy.add(a if b is None else b)
                continue
            out.append((match_id, a, b))
            busy |= {a, b}
        return out

    def over(self) -> bool:
        """Whether the champion is known: F won by the winners' bracket's player, or F2 decided."""
        return "F2" in self.won or ("F" in self.won and not self.reset_needed())

    def champion(self) -> int | None:
        if "F2" in self.won:
            return self.won["F2"]
        return self.won["F"] if "F" in self.won and not self.reset_needed() else None


def winner_of(first: int, second: int | None, result: str) -> int:
    """Who goes on from a match: its winner; a draw (or an annulled game) the better seed; a bye its player."""
    if second is None or result in ("first", "bye"):
        return first
    if result == "second":
        return second
    return min(first, second)
