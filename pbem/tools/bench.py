"""``pbem bench``: engine figures, printed, never asserted (docs/performance.md, "Engine speed").

For one game (or, with ``--all``, every installed game on its first scenario): self-play games a
second; the replay of each complete game from its seed and log alone, as the server does when it loads
a game (best of ``repeat``, and the first replay of each), from the texts and from the stored parses
(pbem.core.parsed), each as a ratio to the 4 ms goal; and the memory one replayed game holds
while the server keeps it in its cache (pbem.server.service.base, ``cache_games``): the Python
allocations of ``keep`` replayed games held at once, traced by tracemalloc, divided by ``keep``.
"""

from __future__ import annotations

import gc
import os
import statistics
import time
import tracemalloc
from collections import Counter

from pbem.core.game import Game, with_stored_parses
from pbem.tools.selfplay import play

REPLAY_GOAL = 0.004  # seconds: a complete game's replay (issue 15, Marengo's goal, printed for every game)


def bench(ruleset, scenario, seed: int = 1, games: int = 50, repeat: int = 3, options=None,
          keep: int = 20) -> list[str]:
    """The printed lines of one game's figures."""
    options = options or {}
    played, elapsed, fastest, parts = selfplay_runs(ruleset, scenario, seed, games, repeat, options)
    days = sum(len(g.days) for g in played)
    # A replay needs only a game's seed and log (as when the server loads a game):
    # keep those, let the played states go, and freeze what is left out of the
    # collector's sight, so a replay does not pay for scanning it.
    logs = [(game.seed, game.log) for game in played]
    # the same logs as the server stores them: each orders entry with its stored parse (pbem.core.parsed)
    parsed_logs = [(game.seed, with_stored_parses(game)) for game in played]
    stored = sum("parsed" in e for _, log in parsed_logs for e in log)
    entries = sum(e["kind"] == "orders" for _, log in parsed_logs for e in log)
    del played
    gc.collect()
    gc.freeze()
    first, best, parsing, kept = [], [], [], []
    for (s, log), (_, with_parses) in zip(logs, parsed_logs):
        times, kept_times = [], []
        for _ in range(repeat):  # the texts read again, then the stored parses believed, alternately
            t = time.perf_counter()
            Game(ruleset, scenario, s, log, options=options)
            times.append(time.perf_counter() - t)
            if stored:
                t = time.perf_counter()
                Game(ruleset, scenario, s, with_parses, options=options)
                kept_times.append(time.perf_counter() - t)
        first.append(times[0])
        best.append(min(times))  # as timeit: the other runs only add what else the machine did
        if kept_times:
            kept.append(min(kept_times))
        parsing.append(parse_share(ruleset, scenario, s, log, options, repeat))
    gc.unfreeze()
    held = memory_per_game(ruleset, scenario, parsed_logs[:keep], options)  # the logs as the server holds them
    replay, share = statistics.median(best), statistics.median(parsing)
    return [
        f"self-play: {len(logs)} complete games in {elapsed:.2f} s: {len(logs) / elapsed:.1f} games/s "
        f"({days / elapsed:.0f} days/s); the fastest of {max(1, repeat)} runs of the same games: "
        f"{len(logs) / fastest:.1f} games/s (goal 50 games/s: {len(logs) / fastest / 50:.2f}) "
        f"[load {os.getloadavg()[0]:.1f}]",
        selfplay_parts(parts, fastest),
        f"replay of a complete game's log ({days // len(logs)} days a game, orders parsed and every day "
        f"resolved): median {replay * 1000:.1f} ms (the best of {repeat} replays "
        f"of each game), max {max(best) * 1000:.1f} ms; the first replay of each: median "
        f"{statistics.median(first) * 1000:.1f} ms [load {os.getloadavg()[0]:.1f}]",
        f"  of which parsing the orders again: {share:.0%} (median over the games, timed inside {repeat} more "
        f"replays of each, the fastest counts); the replay without it would be about "
        f"{replay * (1 - share) * 1000:.1f} ms",
        replay_against_goal(replay, statistics.median(kept) if kept else None, stored, entries),
        f"memory of a replayed complete game held in the cache: {held / 1e6:.2f} MB "
        f"(tracemalloc, {min(keep, len(logs))} games held at once, their logs as the server stores them; "
        f"10,000 cached: {held * 10_000 / 1e9:.1f} GB)",
    ]


def replay_against_goal(texts: float, kept: float | None, stored: int, entries: int) -> str:
    """The replay read from the texts and from the stored parses, each as a ratio to the goal
    (the goal's time over the figure: 1.00 or more is met)."""
    def against(seconds: float) -> str:
        return f"{seconds * 1000:.1f} ms, goal {REPLAY_GOAL * 1000:.0f} ms: {REPLAY_GOAL / seconds:.2f}"

    if kept is None:
        return (f"  replay from the texts {against(texts)}; no stored parse (the ruleset has no JSON form of its "
                f"orders: every replay reads the texts) [load {os.getloadavg()[0]:.1f}]")
    return (f"  replay with the stored parse (as the server stores it: {stored} of {entries} orders entries): median "
            f"{against(kept)}; from the texts alone {against(texts)}; ratio {kept / texts:.2f} "
            f"[load {os.getloadavg()[0]:.1f}]")


class _Timed:
    """A ruleset whose ``parse_orders`` counts the seconds it takes (everything else is the ruleset's)."""

    def __init__(self, ruleset):
        self._ruleset, self.parsing = ruleset, 0.0

    def __getattr__(self, name):
        return getattr(self._ruleset, name)

    def parse_orders(self, *args, **kwargs):
        started = time.perf_counter()
        try:
            return self._ruleset.parse_orders(*args, **kwargs)
        finally:
            self.parsing += time.perf_counter() - started


def parse_share(ruleset, scenario, seed: int, log: list, options, repeat: int = 3) -> float:
    """The share of a replay of ``log`` spent parsing the orders again, timed inside the replay, where
    parsing and resolving alternate as in the server's (parsed apart, one after another, the same orders
    measured 2-3 times faster): the share in the fastest of ``repeat`` replays (the others only add what
    else the machine did)."""
    runs = []
    for _ in range(max(1, repeat)):
        timed = _Timed(ruleset)
        started = time.perf_counter()
        Game(timed, scenario, seed, log, options=options)
        runs.append((time.perf_counter() - started, timed.parsing))
    total, parsing = min(runs)
    return parsing / total


def selfplay_runs(ruleset, scenario, seed: int, games: int, repeat: int, options) -> tuple[list, float, float, Counter]:
    """Self-play of ``games`` games from ``seed`` on, ``repeat`` times (the same games each time: a game
    is its seed): the games of the first run, its seconds, the fastest run's seconds (as timeit: the
    other runs only add what else the machine did) and what each part of its days took. Every run does
    a game's whole work: each seat's orders written from its view by the ruleset's simple bot (with
    whatever the bot checks), checked against the position and logged (Game.submit), the day resolved."""
    runs = []
    played: list = []
    for run in range(max(1, repeat)):
        parts = Counter()  # the seconds of each part of the days (selfplay.play_game's clock)
        started = time.perf_counter()
        games_now = [play(ruleset, scenario, s, options=options, clock=parts) for s in range(seed, seed + games)]
        runs.append((time.perf_counter() - started, run, parts))
        if run == 0:
            played = games_now
        del games_now
    fastest, _, parts = min(runs)
    return played, runs[0][0], fastest, parts


def selfplay_parts(parts: Counter, elapsed: float) -> str:
    """What a self-play game's time is spent on, the parts of every day (pbem.tools.selfplay.play_game):
    the same work as a game by mail, each seat's orders written and checked, the day resolved."""
    share = {k: parts[k] / elapsed for k in ("bots", "submit", "resolve")}
    return (f"  every day: the bots' views and orders (each bot's own checks of its orders among them) "
            f"{share['bots']:.0%}, the orders checked against the position and logged (Game.submit) "
            f"{share['submit']:.0%}, the day resolved (Game.advance, with the orders Game.submit read) {share['resolve']:.0%}")


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


def day_maps(ruleset, scenario, seed: int = 1, options=None) -> list[str]:
    """Every day's map of one self-play game, as each seat sees it (the SVGs the reports draw)."""
    game = play(ruleset, scenario, seed, options=options or {})
    return [ruleset.render_svg(game.scenario, game.view(seat, day), title=f"bench {seed}")
            for day in range(len(game.days)) for seat in game.seats()]


def _draw(svg: str) -> float:
    from pbem.render import render_png

    started = time.perf_counter()
    render_png(svg)
    return time.perf_counter() - started


def draw_bench(ruleset, scenario, seed: int = 1, raw: int = 3, workers: int | None = None,
               due: int = 100) -> list[str]:
    """Drawing figures (docs/performance.md, "Drawing"): a raw render (resvg-py, one call: the
    whole document), the map as the server draws it (kept board, pieces over it), their ratio and
    pixel difference, and game-days of maps a second from ``workers`` processes (default: one a
    core) when ``due`` games come due at once (two maps a game-day)."""
    import multiprocessing
    import os
    from concurrent.futures import ProcessPoolExecutor

    from pbem.render import render_png, render_whole_png
    from pbem.render.layers import BOARDS
    from pbem.render.png import _kept_renderer, difference

    svgs = day_maps(ruleset, scenario, seed)
    layered = hasattr(svgs[0], "layers")
    sample = svgs[len(svgs) // 2]
    raw_times = []
    for _ in range(raw):
        t = time.perf_counter()
        whole = render_whole_png(sample)
        raw_times.append(time.perf_counter() - t)
    BOARDS.clear()
    t = time.perf_counter()
    render_png(sample)
    first = time.perf_counter() - t
    times = []
    worst = (0.0, 0.0)
    for i, svg in enumerate(svgs):
        t = time.perf_counter()
        png = render_png(svg)
        times.append(time.perf_counter() - t)
        if svg is sample or i % max(1, len(svgs) // 4) == 0:
            worst = max(worst, difference(render_whole_png(svg) if svg is not sample else whole, png))
    raw_best, med = min(raw_times), statistics.median(times)
    workers = workers or os.cpu_count() or 1
    batch = [svgs[i % len(svgs)] for i in range(2 * due)]
    with ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn")) as pool:
        list(pool.map(_draw, svgs[:workers]))  # each worker's boards drawn and fonts loaded first
        t = time.perf_counter()
        list(pool.map(_draw, batch, chunksize=4))
        burst = time.perf_counter() - t
    how = ("kept board and pieces over it" if layered else "the whole document") + (
        ", resvg with fonts loaded once (svg2png-py)" if _kept_renderer() else ", resvg-py")
    return [
        f"drawing ({len(svgs)} maps of one game, {how}; load average "
        f"{' '.join(f'{x:.1f}' for x in os.getloadavg())}):",
        f"  raw render (resvg-py, the whole document, one call): {raw_best * 1000:.0f} ms a map (best of {raw})",
        f"  as the server draws it: median {med * 1000:.0f} ms a map, max {max(times) * 1000:.0f} ms; "
        f"the first, its board drawn: {first * 1000:.0f} ms; ratio to the raw render {med / raw_best:.2f}",
        f"  pixel difference to the raw render, worst of the maps compared: mean {worst[0]:.3f} of 255, "
        f"{worst[1] * 100:.3f} % of pixels over 32",
        f"  {due} games due at once, {2 * due} maps on {workers} drawing processes: {burst:.1f} s, "
        f"{due / burst:.1f} game-days of maps a second",
    ]
