"""What every ruleset's order language shares: the header, problems, errors.

An orders text is a header line naming game, side, turn and key, then one
order per line. A problem names the line and column, what was found and what
was expected; that message is what the player reads in the reply.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass(frozen=True)
class Problem:
    line: int
    column: int
    message: str
    found: str = ""
    expected: str = ""

    def __str__(self) -> str:
        text = f"line {self.line}, column {self.column}: {self.message}"
        if self.found:
            text += f" (found {self.found!r})"
        if self.expected:
            text += f"; expected {self.expected}"
        return text


class OrdersError(ValueError):
    """Orders that cannot be accepted; ``problems`` lists every one found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


@dataclass
class Header:
    """GAME <id> SIDE <side> TURN <turn> KEY <key>; any field may be absent."""

    game: str | None = None
    side: str | None = None
    turn: str | None = None
    key: str | None = None
    line: int = 0
    extra: dict = field(default_factory=dict)
