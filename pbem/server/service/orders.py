"""Orders: checked against the position as its ruleset reads them, the same answer by
mail and on the web, and recorded in the game's log."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pbem.server import deadlines
from pbem.core.orders import OrdersError, Problem

from .base import ServiceBase


@dataclass
class Submission:
    ok: bool
    game_id: int
    side: str
    day: int = 0
    turn: str = ""
    echo: str = ""
    problems: list[Problem] = field(default_factory=list)
    final: bool = False
    standing_only: bool = False
    seat_title: str = ""
    deadline: str = ""  # the day's deadline, as the seat reads it
    warnings: list[str] = field(default_factory=list)  # orders that depend on the enemy (the ruleset says)

    def message(self) -> str:
        if self.ok:
            what = "Standing orders" if self.standing_only else "Orders"
            lines = [f"{what} accepted for game {self.game_id}, {self.seat_title or self.side}, "
                     f"{self.turn}. They replace any you sent before for this day.", ""]
            lines += [f"  {line}" for line in (self.echo or "(no orders: standing orders still apply)").splitlines()]
            if self.warnings:
                lines += ["", "They will be carried out unless the enemy's actions prevent it. These depend "
                              "on what happens during the day:", ""]
                lines += [f"  - {w}" for w in self.warnings]
            if self.final:
                lines += ["", "You marked them FINAL: the day may be resolved before the deadline."]
            if self.deadline:
                lines += ["", f"Deadline: {self.deadline}."]
            return "\n".join(lines)
        lines = [f"Your orders for game {self.game_id} were NOT accepted. Nothing was changed; "
                 f"correct these and send them again:", ""]
        lines += [f"  - {p}" for p in self.problems]
        if self.deadline:
            lines += ["", f"Deadline: {self.deadline}."]
        return "\n".join(lines)


KEY_WORD = re.compile(r"(?im)^(\s*(?:(?:GAME|SIDE|TURN)\b.*?)?\bKEY\s+)(\S+)")


def redact_key(text: str) -> str:
    """The orders text with the header's secret key replaced, for storing and showing."""
    return KEY_WORD.sub(lambda m: m.group(1) + "***", text, count=1)


class Orders(ServiceBase):

    def check_orders(self, game_id: int, side: str, text: str) -> tuple[Submission, object]:
        """Check a side's orders for the coming day without recording them.

        Returns the answer the player gets (the same words by mail and on the
        web) and the parsed orders (None when refused).
        """
        info = self.info(game_id)
        game = self.game(game_id)
        result = Submission(False, game_id, side, game.day, self.turn_label(game),
                            seat_title=self.seat_title(game_id, side))
        if side in game.seats() and not game.over:
            result.deadline = self.deadline_for(game_id, side)
        if info["status"] == "finished" or game.over:
            result.problems = [Problem(1, 1, f"game {game_id} is over; it takes no more orders")]
            return result, None
        if side not in game.seats():
            result.problems = [Problem(1, 1, f"no seat called {side!r}")]
            return result, None
        try:
            orders = game.check_orders(side, text)
        except OrdersError as exc:
            result.problems = exc.problems
            return result, None
        if orders.header.game is not None and str(orders.header.game).lstrip("#") != str(game_id):
            result.problems = [Problem(orders.header.line or 1, 1,
                                       f"these orders name game {orders.header.game}, not {game_id}")]
            return result, None
        result.ok = True
        result.echo = orders.echo()
        result.final = orders.final
        result.warnings = list(getattr(orders, "warnings", ()))
        result.standing_only = side not in game.turn().seats
        return result, orders

    def submit(self, game_id: int, side: str, text: str, source: str = "web", who: str = "") -> Submission:
        """Check a side's orders for the coming day and, if they are good, record them.

        The last accepted orders of a side for a day count; all are kept.
        """
        with self.lock:
            result, orders = self.check_orders(game_id, side, text)
            if not result.ok:
                return result
            game = self.game(game_id)
            entry = {"kind": "orders", "day": game.day, "side": side, "text": redact_key(text), "source": source,
                     "by": who, "at": deadlines.iso(self.now())}
            with self.store.transaction():
                self.store.append_log(game_id, entry)
                if orders.final and side in game.turn().seats:
                    self.store.mark_final(game_id, side, game.day)
            game.log.append(entry)
            return result

    def orders_on_file(self, game_id: int, side: str) -> str:
        game = self.game(game_id)
        return game.orders_text(game.day, side)
