"""Time in tests: printed, never a pass mark a busy machine can break.

A test that guards against a hang (a quadratic loop, a regex that backtracks
without end) bounds the time by ``HANG`` seconds, so loose that only a hang
breaks it: the inputs the tests use take well under a second alone, and a
real blow-up on them takes minutes or never ends. The measured time is
printed (``pytest -s`` shows it; docs/testing.md). Beside this, every test
has pytest-timeout's limit (pyproject's ``timeout``), which stops a test that
hangs outright.
"""

from __future__ import annotations

import time
from contextlib import contextmanager

HANG = 60.0  # seconds: only a hang takes this long


@contextmanager
def no_hang(what: str, limit: float = HANG, show: bool = True):
    """Run the block; print how long it took (``show``); fail only if it took ``limit`` seconds."""
    start = time.monotonic()
    try:
        yield
    finally:  # also when the block raised (an input refused is timed too)
        elapsed = time.monotonic() - start
        if show:
            print(f"{what}: {elapsed:.3f} s")
        assert elapsed < limit, f"{what} took {elapsed:.0f} s (a hang: a quadratic or a runaway pattern?)"
