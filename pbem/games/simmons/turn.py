"""One side's turn in progress in a Marengo-family game: what every rule of both games
uses while it lasts.

Bonaparte at Marengo calls it a day (marengo/day.py, ``Day``), Triomphe à Marengo a
turn (triomphe/turn.py, ``Turn``); each subclasses :class:`SideTurn` with its own
counters (the command limit, orders spent...) and rules. What they share is here:
the position and the side playing, naming places and blocks in events, telling
what happened (to everyone, or to a side with what the enemy sees of it), the
standing order in force, and asking a decision (the orders' answer, a standing
order, the default, or the player by mail).
"""

from __future__ import annotations

from pbem.core.decisions import Decider, Decision
from pbem.core.events import Event

from .orders import Orders, Standing
from .sides import SIDE_ADJ, enemy
from .standing import in_force


class SideTurn:
    """The position (``st``), the side playing and its enemy, the orders, the decider
    and the events told so far."""

    tag_decisions = False  # True: a decision's event carries its kind (``decision=kind``)

    def __init__(self, scenario, state, orders: Orders | None, decider: Decider):
        self.sc = scenario
        self.board = scenario.board
        self.st = state
        self.side = scenario.side_of_day(state.day)
        self.foe = enemy(self.side)
        self.orders = orders or Orders(self.side)
        self.decider = decider
        self.events: list[Event] = []
        self.moves: list[dict] = []  # what the map draws as arrows: {"side", "from", "to", "count", "kind"}

    @property
    def hour(self) -> int:
        return self.sc.hour(self.st.day)

    # -- naming

    def name(self, locale: str | None) -> str:
        return self.board.locales[locale].name if locale else "?"

    def place(self, locale: str, facing: str | None) -> str:
        if facing is None:
            return f"{self.name(locale)} (reserve)"
        return f"{self.name(locale)}>{self.name(facing)}"

    def own(self, block, strength: int | None = None) -> str:
        """A block as its owner knows it (a block without a name of its own, as in cases, by its id)."""
        name = f" {block.name}" if block.name and block.name != block.id else ""
        return f"{block.id}{name} ({block.type} {block.strength if strength is None else strength})"

    @staticmethod
    def shown(block, strength: int | None = None) -> str:
        """A revealed block as its enemy sees it: side, type and strength only."""
        return f"{SIDE_ADJ[block.side]} {block.type} {block.strength if strength is None else strength}"

    # -- telling what happened

    def public(self, kind: str, text: str, **data) -> None:
        self.events.append(Event(kind, text, data))

    def private(self, kind: str, owner: str, text: str, seen: str | None = None,
                seen_data: dict | None = None, **data) -> None:
        self.events.append(Event(kind, text, data, owner=owner, seen=seen, seen_data=seen_data))

    def void(self, order, why: str) -> None:
        self.private("void", self.side, f"Order not carried out: {order.text or order} — {why}.")

    def record_move(self, side: str, frm: tuple, to: tuple, count: int, kind: str) -> None:
        self.moves.append({"side": side, "from": list(frm), "to": list(to), "count": count, "kind": kind})

    # -- standing orders and decisions

    def standing(self, side: str, kind: str, locale: str | None = None, toward: str | None = None
                 ) -> Standing | None:
        """The most specific standing order of ``side`` for this kind and place."""
        return in_force(self.st, side, kind, locale, toward)

    def source_for(self, side: str) -> str:
        return "orders" if side == self.side else "standing"

    def decide(self, side: str, kind: str, question: str, options: list[tuple[str, str]],
               default: tuple[str, ...], lo: int = 1, hi: int = 1, given=None, source: str | None = None,
               check=None) -> tuple[str, ...]:
        """Ask ``side`` a decision (pbem.core.decisions); the answer, told to the side
        when it was not its own at the time (a default, a standing order, the log)."""
        decision = Decision(side=side, kind=kind, question=question,
                            options=tuple(k for k, _ in options), default=tuple(default),
                            labels=tuple(options), min=lo, max=hi)
        answer = self.decider.decide(decision, given=given, source=source or self.source_for(side), check=check)
        record = self.decider.records[-1]
        tag = {"decision": kind} if self.tag_decisions else {}
        if record.source in ("default", "standing", "log"):
            how = {"default": "by default", "standing": "by your standing orders",
                   "log": "by the answer on record"}[record.source]
            chosen = ", ".join(decision.label(k) for k in answer) or "none"
            note = f" ({record.note})" if record.note else ""
            self.private("decision", side, f"{question} Chosen {how}: {chosen}.{note}", **tag)
        elif record.note:
            self.private("decision", side, f"{question} {record.note}.", **tag)
        return answer


def moving_side(scenario, state) -> str:
    """The side whose turn (day) comes next."""
    return scenario.side_of_day(state.day)


def is_over(scenario, state) -> bool:
    return state.over
