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

Two derivations, a game's **dice version** (kept with the game, given to ``Chance(seed,
dice=)``; a game keeps the version it was created with, so its dice never change):

- version 1 (:data:`DICE_PLAIN`, games created before issue 28, and self-play, cases and
  benchmarks): a seed below 2**31; a stream is SplitMix64 (pbem.core.rng) from the first 8 bytes
  of SHA-256 of ``"seed/scope/name"``, and the stream named ``"setup"`` is the seed's own
  generator (``Rng(seed)``), so games created before streams existed replay unchanged. Anyone
  who sees a few dice can search the 2**31 seeds and foresee the rest: fit for play among
  friends and for tests, not for a server's games.
- version 2 (:data:`DICE_KEYED`, every game the server creates): a seed of 256 random bits, the
  key of HMAC-SHA256; each draw of a stream is 64 bits of HMAC(seed, "scope/name/k") (the k-th
  draw of that stream: :class:`KeyedRng`), and each die is drawn from its own stream
  ``"roll n"`` of its turn. Without the seed no die tells anything of another: the only way to
  foresee one is to search the 2**256 seeds (``pbem measure seed-search`` prints what a search
  would cost).
"""

from __future__ import annotations

import hashlib
import hmac
from dataclasses import dataclass

from .rng import MASK, Rng

DICE_PLAIN = 1
"""The first derivation: a 31-bit seed, SplitMix64 streams seeded by SHA-256 of the seed and a name."""
DICE_KEYED = 2
"""The keyed derivation: a 256-bit seed, every draw HMAC-SHA256 of its stream, turn and index."""
DICE_VERSIONS = (DICE_PLAIN, DICE_KEYED)
SEED_BITS = {DICE_PLAIN: 31, DICE_KEYED: 256}
"""How many bits a seed of each version holds (what a search must try)."""


def derive(seed: int, name: str) -> int:
    """A 64-bit seed for the stream ``name`` of the game seeded ``seed`` (version 1)."""
    return int.from_bytes(hashlib.sha256(f"{seed}/{name}".encode()).digest()[:8], "big")


def seed_key(seed: int) -> bytes:
    """The HMAC key of a version 2 seed: its 32 bytes, big-endian."""
    if not 0 <= seed < 1 << 256:
        raise ValueError("a keyed seed is an integer of at most 256 bits")
    return seed.to_bytes(32, "big")


def seed_text(seed: int, dice: int = DICE_PLAIN) -> str:
    """The seed as it is shown and exported: version 1 in decimal, version 2 as 64 hex digits."""
    return f"{seed:064x}" if dice == DICE_KEYED else str(seed)


def seed_of(text, dice: int = DICE_PLAIN) -> int:
    """The seed :func:`seed_text` wrote (a version 1 export's seed may be a JSON number)."""
    if dice == DICE_KEYED:
        if type(text) is not str or len(text) != 64 or text.strip("0123456789abcdef"):
            raise ValueError("a version 2 seed is 64 lower-case hex digits")
        return int(text, 16)
    return int(text)


class KeyedRng(Rng):
    """A stream of the keyed derivation: the k-th 64-bit draw is the first 8 bytes of
    HMAC-SHA256(key, "name/k"). ``below`` and ``shuffle`` are :class:`Rng`'s, over these draws."""

    def __init__(self, key: bytes, name: str):
        self.mac = hmac.new(key, digestmod=hashlib.sha256)
        self.name = name
        self.drawn = 0

    def next64(self) -> int:
        mac = self.mac.copy()
        mac.update(f"{self.name}/{self.drawn}".encode())
        self.drawn += 1
        return int.from_bytes(mac.digest()[:8], "big") & MASK


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
    def __init__(self, seed: int, turn: int | None = None, fixed: list[int] | None = None,
                 dice: int = DICE_PLAIN):
        if dice not in DICE_VERSIONS:
            raise ValueError(f"no dice version {dice!r} (there are {', '.join(map(str, DICE_VERSIONS))})")
        self.seed = seed
        self.turn = turn
        self.dice = dice
        self.key = seed_key(seed) if dice == DICE_KEYED else None
        self.rolls: list[Roll] = []
        self.fixed = list(fixed or [])  # results given by a case, used by the first rolls in order

    def for_turn(self, turn: int) -> "Chance":
        """The chance of turn ``turn`` (0-based), with no rolls yet."""
        return Chance(self.seed, turn, dice=self.dice)

    def stream(self, name: str) -> Rng:
        """The generator named ``name`` (of this turn, when the chance is a turn's)."""
        scope = "game" if self.turn is None else f"turn {self.turn}"
        if self.key is not None:
            return KeyedRng(self.key, f"{scope}/{name}")
        if name == "setup" and self.turn is None:
            return Rng(self.seed)
        return Rng(derive(self.seed, f"{scope}/{name}"))

    def roll(self, purpose: str, sides: int = 6, seen_by: tuple[str, ...] | None = None) -> int:
        """Roll a die of ``sides`` sides for ``purpose`` ("forced march, block F12"); recorded."""
        n = len(self.rolls)
        if n < len(self.fixed):
            value = self.fixed[n]
            if not 1 <= value <= sides:
                raise ValueError(f"die {n + 1} ({purpose}) is fixed at {value}, but it has {sides} sides")
        else:
            value = 1 + self.stream(f"roll {n}").below(sides)
        self.rolls.append(Roll(n, purpose, sides, value, seen_by))
        return value
