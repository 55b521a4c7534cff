"""``pbem bench``: engine figures, printed, never asserted (docs/performance.md, "Engine speed").

For one game (or, with ``--all``, every installed game on its first scenario): self-play games a
second; the replay of each complete game from its seed and log alone, as the server does when it loads
a game (best of ``repeat``, and the first replay of each); and the memory one replayed game holds
while the server keeps it in its cache (pbem.server.service.base, ``cache_games``): the Python
allocations of ``keep`` replayed games held at once, traced by tracemalloc, divided by ``keep``.
"""

from __future__ import annotations

import gc
import statistics
import time
import tracemalloc

from pbem.core.game import Game
from pbem.tools.selfplay import play


def bench(ruleset, scenario, seed: int = 1, games: int = 50, repeat: int = 3, options=None,
          keep: int = 20) -> list[str]:
    """The printed lines of one game's figures."""
    options = options or {}
    started = time.perf_counter()
    played = [play(ruleset, scenario, s, options=options) for s in range(seed, seed + games)]
    elapsed = time.perf_counter() - started
    days = sum(len(g.days) for g in played)
    # A replay needs only a game's seed and log (as when the server loads a game):
    # keep those, let the played states go, and freeze what is left out of the
    # collector's sight, so a replay does not pay for scanning it.
    logs = [(game.seed, game.log) for game in played]
    del played
    gc.collect()
    gc.freeze()
    first, best = [], []
    for s, log in logs:
        times = []
        for _ in range(repeat):
            t = time.perf_counter()
            Game(ruleset, scenario, s, log, options=options)
            times.append(time.perf_counter() - t)
        first.append(times[0])
        best.append(min(times))  # as timeit: the other runs only add what else the machine did
    gc.unfreeze()
    held = memory_per_game(ruleset, scenario, logs[:keep], options)
    return [
        f"self-play: {len(logs)} complete games in {elapsed:.2f} s: {len(logs) / elapsed:.1f} games/s "
        f"({days / elapsed:.0f} days/s, bot orders and all)",
        f"replay of a complete game's log ({days // len(logs)} days a game, orders parsed and every day "
        f"resolved): median {statistics.median(best) * 1000:.1f} ms (the best of {repeat} replays "
        f"of each game), max {max(best) * 1000:.1f} ms; the first replay of each: median "
        f"{statistics.median(first) * 1000:.1f} ms",
        f"memory of a replayed complete game held in the cache: {held / 1e6:.2f} MB "
        f"(tracemalloc, {min(keep, len(logs))} games held at once; 10,000 cached: {held * 10_000 / 1e9:.1f} GB)",
    ]


def memory_per_game(ruleset, scenario, logs, options) -> float:
    """Bytes of Python allocations one replayed game holds (the mean over ``logs``, held at once)."""
    if not logs:
        return 0.0
    gc.collect()
    tracemalloc.start()
    try:
        before = tracemalloc.get_traced_memory()[0]
        held = [Game(ruleset, scenario, s, log, options=options) for s, log in logs]
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
    finally:
        tracemalloc.stop()
    del held
    return (after - before) / len(logs)
