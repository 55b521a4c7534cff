"""What a drawing worker does (pbem.server.serve runs them, one a core): a seat's map drawn whole
from the seat's view, its SVG and its PNG both.

The server's own process replays the game and takes the seat's view (what the seat may see: hidden
information stays decided there); a worker builds the SVG from that view and rasterises it. Before,
the server's process built every SVG itself (twice a report: once to draw it ahead, once for the
report) and the workers only rasterised: in a tournament round the server's process was the
bottleneck (63% of its time in SVGs) while the workers waited (issue 35).

The workers are a :class:`DrawingPool`: a process pool that is replaced when it breaks (a worker
killed, by the kernel's out-of-memory killer or by hand: Python's pool then fails every job, pending
and later, for good), the jobs it failed drawn again on the new one.
"""

from __future__ import annotations

import logging
import threading
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from typing import Callable

from pbem.games import ruleset
from pbem.server.mapcache import digest

log = logging.getLogger("pbem")
TRIES = 3  # how often a job is given to a pool: a job whose drawing itself kills its worker fails at the third

_scenarios: dict[tuple[str, str], object] = {}  # loaded once a worker


def map_picture(game: str, scenario: str, view: dict, title: str, lang: str) -> tuple[str, bytes]:
    """(the SVG's digest, the PNG) of ``view``'s map in game ``game``'s scenario ``scenario`` (its file
    name, as a game's row keeps it), titled ``title``, in ``lang``: the digest is the map cache's key
    of that PNG, the same as the server's own SVG of the map would give (pbem.server.mapcache)."""
    from pbem.render import render_png
    from pbem.server.service.base import scenario_path

    rules = ruleset(game)
    if (game, scenario) not in _scenarios:
        _scenarios[(game, scenario)] = rules.load_scenario(scenario_path(scenario))
    svg = rules.render_svg(_scenarios[(game, scenario)], view, title=title, lang=lang)
    return digest(svg), render_png(svg)


class DrawingPool:
    """The drawing workers: a pool made by ``make()`` (a ProcessPoolExecutor), made again when it breaks.
    ``submit`` gives a :class:`Drawing`, whose ``result`` gives the job to the new pool when the one it
    was on broke (at most ``TRIES`` pools a job); the jobs of a stop (cancelled) are not redone."""

    def __init__(self, make: Callable[[], Executor]):
        self.make = make
        self.pool = make()
        self.replaced = 0  # pools made again after one broke
        self.closed = False  # shut down (the server stops): a pool that breaks then is not made again
        self._lock = threading.Lock()

    def submit(self, fn, *args) -> "Drawing":
        return Drawing(self, fn, args)

    def send(self, fn, args: tuple):
        """(the pool, the future) of the job given to the current pool, a broken one replaced first."""
        for _ in range(TRIES):
            pool = self.pool
            try:
                return pool, pool.submit(fn, *args)
            except BrokenProcessPool:
                self.replace(pool)
        raise BrokenProcessPool(f"the drawing pool broke {TRIES} times in a row")

    def replace(self, broken) -> None:
        """A new pool in place of ``broken`` (once, however many jobs find it broken)."""
        with self._lock:
            if self.pool is not broken or self.closed:
                return
            self.pool = self.make()
            self.replaced += 1
        log.warning("the drawing workers' pool broke (a worker died); a new one is drawing the maps")
        broken.shutdown(wait=False, cancel_futures=True)

    def shutdown(self, wait: bool = True, cancel_futures: bool = False) -> None:
        with self._lock:
            self.closed = True
        self.pool.shutdown(wait=wait, cancel_futures=cancel_futures)


class Drawing:
    """A job given to the drawing workers (``DrawingPool.submit``): ``result`` as a future's, the job
    given to a new pool if the one it was on broke before it was done."""

    def __init__(self, workers: DrawingPool, fn, args: tuple):
        self.workers, self.fn, self.args = workers, fn, args
        self.tries = 1
        self.pool, self.future = workers.send(fn, args)

    def result(self, timeout: float | None = None):
        while True:
            try:
                return self.future.result(timeout)
            except BrokenProcessPool:
                if self.tries >= TRIES:
                    raise
                self.workers.replace(self.pool)
                self.tries += 1
                self.pool, self.future = self.workers.send(self.fn, self.args)
