"""What a search for a game's seed would cost (issue 28): ``pbem measure seed-search``.

A player who sees some dice of a game (his own DBA initiative rolls, say) may try every seed and
keep those that give the dice he saw; the seed found foretells every later die, the enemy's hidden
ones too. The cost is candidates tried times the cost of one candidate, which is one die derived
from the seed (the first check rejects all but one in six). This measures that cost here, for
each dice version (pbem.core.chance), on one core of this machine, and prints what a search of
all the seeds of version 1, of 2**40 candidates and of all the seeds of version 2 would take.
Figures are printed, never asserted: they depend on the machine; the conclusion does not.
"""

from __future__ import annotations

import hmac
import time

from pbem.core.chance import DICE_KEYED, DICE_PLAIN, SEED_BITS, derive, seed_key
from pbem.core.rng import Rng

GPU_PER_SECOND = 1e10
"""HMAC-SHA256 per second of a large graphics card, as an attacker's (generous) figure."""
AGE_OF_UNIVERSE_YEARS = 1.4e10


def first_die(seed: int, dice: int, turn: int = 3) -> int:
    """The first die of ``turn`` by the shortest path a search would take: version 1, SHA-256 of the
    seed and the stream's name, then one SplitMix64 draw; version 2, one HMAC-SHA256 keyed by the seed
    (pbem.core.chance.KeyedRng's first draw). The same die as ``Chance(seed, turn, dice=).roll``,
    but for the rare draw that the rejection of a biased value throws away (one in 2**61)."""
    if dice == DICE_KEYED:
        draw = int.from_bytes(hmac.digest(seed_key(seed), f"turn {turn}/roll 0/0".encode(), "sha256")[:8], "big")
    else:
        draw = Rng(derive(seed, f"turn {turn}/roll 0")).next64()
    return 1 + draw % 6


def candidates_per_second(dice: int, seconds: float = 0.5) -> float:
    """Seeds tried per second on one core, each by its first die (:func:`first_die`)."""
    tried, seed = 0, 1 << (SEED_BITS[dice] - 1)
    start = time.perf_counter()
    while True:
        for _ in range(1000):
            first_die(seed + tried, dice)
            tried += 1
        elapsed = time.perf_counter() - start
        if elapsed >= seconds:
            return tried / elapsed


def _duration(seconds: float) -> str:
    if seconds < 3600 * 48:
        return f"{seconds / 3600:,.1f} core-hours"
    years = seconds / (3600 * 24 * 365.25)
    return f"{years:,.3g} core-years" if years < 1e6 else f"{years:.2e} core-years"


def report(seconds: float = 0.5) -> str:
    """The figures, as lines of text."""
    plain, keyed = candidates_per_second(DICE_PLAIN, seconds), candidates_per_second(DICE_KEYED, seconds)
    forty = 2.0 ** 40
    all_keyed = 2.0 ** SEED_BITS[DICE_KEYED]
    gpu_years = all_keyed / GPU_PER_SECOND / (3600 * 24 * 365.25)
    return "\n".join([
        "A search for a game's seed: each candidate seed costs one die derived from it.",
        f"dice version 1 (games made before issue 28): {plain:,.0f} candidates a second on one core here; "
        f"all 2^{SEED_BITS[DICE_PLAIN]} seeds: {_duration(2.0 ** SEED_BITS[DICE_PLAIN] / plain)}: "
        "the seed is found, and every later die with it.",
        f"dice version 2 (HMAC-SHA256 keyed by a {SEED_BITS[DICE_KEYED]}-bit seed): {keyed:,.0f} candidates a "
        "second on one core here.",
        f"2^40 candidates: {_duration(forty / keyed)}, and they hold the game's seed with a chance of "
        f"2^40 / 2^{SEED_BITS[DICE_KEYED]} = 2^-{SEED_BITS[DICE_KEYED] - 40}: nothing is learnt of its dice.",
        f"all 2^{SEED_BITS[DICE_KEYED]} seeds: {_duration(all_keyed / keyed)}; even at {GPU_PER_SECOND:.0e} "
        f"HMACs a second (a large graphics card) {gpu_years:.1e} years, {gpu_years / AGE_OF_UNIVERSE_YEARS:.0e} "
        "times the age of the universe: the search is hopeless, and a seat foresees no die.",
    ])
