"""Shared test fixtures."""

from datetime import datetime, timedelta


class Clock:
    """A clock the test moves by hand (the service and store take any callable)."""

    def __init__(self, now: datetime):
        self.now = now

    def __call__(self) -> datetime:
        return self.now

    def advance(self, **delta) -> None:
        self.now += timedelta(**delta)
