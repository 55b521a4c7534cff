"""All chance in a game, drawn from its seed: named streams and recorded dice.

    chance = Chance(seed)                 # before the first turn
    chance.stream("setup").shuffle(cards) # a named stream, for setup draws
    turn = chance.for_turn(7)             # the chance of turn 7
    turn.roll("forced march, block F12")  # a die (1-6), recorded with its purpose

Every stream is fixed by the seed and its name alone, and every die by the
seed, its turn and its place in the turn, so a replay draws the same numbers
whatever else changed, and a verifier can recompute each roll. The rolls of a
turn are kept (:attr:`Chance.rolls`); the driver writes them into the turn's
record and its events, and ``pbem verify`` checks them.

An adjudication case fixes its dice: ``Chance(seed, turn, fixed=[4, 2])``
gives those results, in order, to the first rolls (each still recorded with
its purpose), so a case states the rolls it tests.

The stream named ``"setup"`` is the seed's own generator (``Rng(seed)``), so
games created before streams existed replay unchanged.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from .rng import Rng


def derive(seed: int, name: str) -> int:
    """A 64-bit seed for the stream ``name`` of the game seeded ``seed``."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{name}".encode()).digest()[:8], "big")


@dataclass(frozen=True)
class Roll:
    """One die: the ``n``-th of its turn, why it was rolled, how many sides, what it showed."""

    n: int
    purpose: str
    sides: int
    value: int
    seen_by: tuple[str, ...] | None = None  # the seats told of it; None: everyone

    def to_dict(self) -> dict:
        return {"n": self.n, "purpose": self.purpose, "sides": self.sides, "value": self.value}


class Chance:
    def __init__(self, seed: int, turn: int | None = None, fixed: list[int] | None = None):
        self.seed = seed
        self.turn = turn
        self.rolls: list[Roll] = []
        self.fixed = list(fixed or [])  # results given by a case, used by the first rolls in order

    def for_turn(self, turn: int) -> "Chance":
        """The chance of turn ``turn`` (0-based), with no rolls yet."""
        return Chance(self.seed, turn)

    def stream(self, name: str) -> Rng:
        """The generator named ``name`` (of this turn, when the chance is a turn's)."""
        if name == "setup" and self.turn is None:
            return Rng(self.seed)
        scope = "game" if self.turn is None else f"turn {self.turn}"
        return Rng(derive(self.seed, f"{scope}/{name}"))

    def roll(self, purpose: str, sides: int = 6, seen_by: tuple[str, ...] | None = None) -> int:
        """Roll a die of ``sides`` sides for ``purpose`` ("forced march, block F12"); recorded."""
        n = len(self.rolls)
        if n < len(self.fixed):
            value = self.fixed[n]
            if not 1 <= value <= sides:
                raise ValueError(f"die {n + 1} ({purpose}) is fixed at {value}, but it has {sides} sides")
        else:
            scope = "game" if self.turn is None else f"turn {self.turn}"
            value = 1 + Rng(derive(self.seed, f"{scope}/roll {n}")).below(sides)
        self.rolls.append(Roll(n, purpose, sides, value, seen_by))
        return value
