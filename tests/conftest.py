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


def pytest_addoption(parser):
    group = parser.getgroup("pbem")
    group.addoption("--oracle-games", type=int, default=1,
                    help="games per ruleset for the leak oracle (tests/test_leak_oracle.py); 20 is the long run")
    group.addoption("--oracle-days", type=int, default=5,
                    help="resolved days checked per oracle game (0: play each game to its end)")
