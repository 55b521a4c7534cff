"""Commanders (rule book 004, «Приказы» and the table of commander types): the delay before a delivered
order comes into force, the initiative test, and which order a brigade follows each turn.

The table of the text, one row a type of commander ("Тип командующего"):

    type                    charisma  initiative   delay by the die 1 2 3 4 5 6
    Лихой       dashing        +1       4-6                       0 0 0 0 1 1
    Обычный     ordinary        0       5-6                       0 0 1 1 2 3
    Осторожный  cautious        0       6                         0 1 1 2 2 3
    Робкий      timid          -1       n/a                       1 1 2 2 3 3

The delay is counted in turns (docs/rules-notes.md, DO5). Charisma ("Харизма", the translator's word for the
commander's rating when he rallies fleeing troops, «Бегство») is kept here with the rest of the row for the
rally rule.

:class:`BrigadeOrders` is one brigade's state of command, plain data saved with the game: the order in force
and its step, the orders delivered and waiting for their delay, the initiative order. Each turn
:meth:`BrigadeOrders.in_force` says what the brigade does, asking the executor (a :class:`Sight`) only what
the brigade sees: whether an event of a condition is so, whether a step is done. No table geometry here.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Protocol

from .elements import CHARACTER_RUSSIAN, CHARACTERS
from .lang import Text, say, term
from .orders import HOLD, Event, Order, Step


@dataclass(frozen=True)
class Character:
    """One row of the text's table of commander types."""

    name: str
    charisma: int  # added to the rally die («Бегство»)
    initiative: int | None  # the least d6 that passes the initiative test; None: n/a, no test
    delays: tuple[int, int, int, int, int, int]  # turns of delay for the die 1..6

    def delay(self, die: int) -> int:
        return self.delays[die - 1]


TABLE = {
    "dashing": Character("dashing", +1, 4, (0, 0, 0, 0, 1, 1)),
    "ordinary": Character("ordinary", 0, 5, (0, 0, 1, 1, 2, 3)),
    "cautious": Character("cautious", 0, 6, (0, 1, 1, 2, 2, 3)),
    "timid": Character("timid", -1, None, (1, 1, 2, 2, 3, 3)),
}
assert tuple(TABLE) == CHARACTERS

# how a scenario may name a type: the text's Russian words and the English ones
_CHARACTER_WORDS = {**{c: c for c in CHARACTERS}, **{r.lower(): c for c, r in CHARACTER_RUSSIAN.items()},
                    "average": "ordinary", "bold": "dashing"}


class CommandError(ValueError):
    """A command action the rules do not allow (a second initiative test, a test by a timid commander)."""


def character(name: str) -> Character:
    """The table's row for a type of commander, named in English or as the text names it."""
    row = _CHARACTER_WORDS.get(str(name).strip().lower())
    if row is None:
        raise CommandError(f"no type of commander called {name!r}; expected one of "
                           + ", ".join(f"{c} ({CHARACTER_RUSSIAN[c]})" for c in CHARACTERS))
    return TABLE[row]


def delay_roll(chance, commander, purpose: str) -> int:
    """Roll ``commander``'s delay die (d6, recorded with ``purpose``) for an order delivered to him: the delay
    in turns, by his character's row of the table."""
    row = character(commander.character)
    die = chance.roll(f"delay, {commander.name} ({row.name}): {purpose}")
    return row.delay(die)


def why_no_initiative(commander) -> Text | None:
    """Why ``commander`` (a :class:`~pbem.games.dba.elements.Commander`) may not take the initiative test now,
    or None: a timid commander has none (n/a in the table), and each has one a game."""
    if character(commander.character).initiative is None:
        return say("%(commander)s is timid (%(russian)s): the table gives him no initiative test (n/a)",
                   commander=term(commander.name), russian=CHARACTER_RUSSIAN['timid'])
    if commander.initiative_used:
        return say("%(commander)s has taken his one initiative test of the game", commander=term(commander.name))
    if not commander.alive:
        return say("%(commander)s is dead or taken", commander=term(commander.name))
    return None


def initiative_test(chance, commander, turn: int) -> bool:
    """Roll ``commander``'s initiative test (d6, recorded); True if it passes («Лихой» 4-6, «Обычный» 5-6,
    «Осторожный» 6). It uses his one test of the game (``commander.initiative_used``) whatever the die shows.
    Raises CommandError if he may not test."""
    why = why_no_initiative(commander)
    if why is not None:
        raise CommandError(str(why))
    row = character(commander.character)
    die = chance.roll(f"initiative test, {commander.name} ({row.name}, passes on {row.initiative}+), turn {turn}")
    commander.initiative_used = True
    return die >= row.initiative


class Sight(Protocol):
    """What the executor tells about one brigade this turn, as its troops see it."""

    def happened(self, event: Event) -> bool:
        """Is ``event`` so this turn, as the brigade sees it (docs/dba-orders.md, "Events")?"""

    def done(self, step: Step) -> bool:
        """Has the brigade finished ``step`` (reached the place, the target gone, deployed)?"""


@dataclass
class Pending:
    """An order delivered to the brigade's commander, waiting for its delay."""

    order: Order
    delivered: int  # the turn it was delivered
    delay: int  # turns, by the delay die
    sent: int  # the turn it was written (its header's time), to tell the newer order
    seq: int  # the courier's number, to order two dispatches of one turn

    @property
    def in_force_from(self) -> int:
        return self.delivered + self.delay

    def to_dict(self) -> dict:
        return {"order": self.order.to_dict(), "delivered": self.delivered, "delay": self.delay,
                "sent": self.sent, "seq": self.seq}

    @classmethod
    def from_dict(cls, data: dict) -> "Pending":
        return cls(Order.from_dict(data["order"]), data["delivered"], data["delay"], data["sent"], data["seq"])


@dataclass(frozen=True)
class InForce:
    """What a brigade does this turn: a step of its order, or HOLD (the default, «Действие по умолчанию»)."""

    step: Step
    index: int | None  # the step's place in its order (0-based); None: the default HOLD
    order: Order | None
    waiting: str = ""  # why the brigade holds before the step (waiting for a turn or an event)
    initiative: bool = False  # the step belongs to the commander's initiative order
    waiting_said: Text | None = field(default=None, compare=False)  # ``waiting`` read in each language

    @property
    def text(self) -> str:
        if self.index is None:
            return "HOLD (no order in force)" if self.order is None else "HOLD (the order is carried out)"
        where = f"step {self.index + 1} of {len(self.order.steps)}"
        head = f"{self.step.text}  ({where}{', initiative' if self.initiative else ''})"
        return f"HOLD, {self.waiting}; then {head}" if self.waiting else head

    @property
    def said(self) -> Text:
        """:attr:`text` read in each language."""
        if self.index is None:
            return say("HOLD (no order in force)") if self.order is None else say("HOLD (the order is carried out)")
        head = say("%(step)s  (step %(n)s of %(of)s)", step=self.step.said, n=self.index + 1,
                   of=len(self.order.steps)) if not self.initiative else \
            say("%(step)s  (step %(n)s of %(of)s, initiative)", step=self.step.said, n=self.index + 1,
                of=len(self.order.steps))
        return say("HOLD, %(waiting)s; then %(step)s", waiting=self.waiting_said or self.waiting, step=head) \
            if self.waiting else head


@dataclass
class Track:
    """An order being carried out: its steps so far."""

    order: Order
    sent: int
    seq: int
    index: int = 0
    waiting_if: bool = False  # the current step's IF event has been seen (the step has begun)
    abandoned: bool = False  # an UNLESS event happened: the rest of the order is not carried out
    began: int | None = None  # the turn the order came into force

    @property
    def finished(self) -> bool:
        return self.abandoned or self.index >= len(self.order.steps)

    def to_dict(self) -> dict:
        return {"order": self.order.to_dict(), "sent": self.sent, "seq": self.seq, "index": self.index,
                "waiting_if": self.waiting_if, "abandoned": self.abandoned, "began": self.began}

    @classmethod
    def from_dict(cls, data: dict) -> "Track":
        return cls(Order.from_dict(data["order"]), data["sent"], data["seq"], data["index"],
                   data["waiting_if"], data["abandoned"], data["began"])


@dataclass
class BrigadeOrders:
    """One brigade's state of command: the order in force and where it stands, orders waiting for their delay,
    the initiative order. Plain data (:meth:`to_dict`); changed only by the methods below."""

    brigade: str
    current: Track | None = None
    pending: list[Pending] = field(default_factory=list)
    initiative: Track | None = None  # an initiative order, carried out before returning to ``current``
    history: list[str] = field(default_factory=list)  # what changed, turn by turn, for the report

    # -- orders arriving

    def deliver(self, order: Order, turn: int, delay: int, sent: int, seq: int) -> Pending:
        """An order delivered to the commander on ``turn``, with the delay its die gave."""
        if delay < 0:
            raise ValueError("a delay is never negative")
        if any(p.seq == seq for p in self.pending) or (self.current and self.current.seq == seq):
            raise CommandError(f"dispatch {seq} was already delivered to {self.brigade}")
        waiting = Pending(order, turn, delay, sent, seq)
        self.pending.append(waiting)
        self.history.append(f"turn {turn}: order from {order.sender} (sent turn {sent}) delivered; "
                            f"delay {delay} turn{'s' if delay != 1 else ''}, in force from turn {turn + delay}")
        return waiting

    def take_initiative(self, order: Order, turn: int) -> None:
        """The commander passed his initiative test: ``order`` is carried out from this turn; when it is done
        the brigade goes back to the order it had («вернуться к исполнению своего первоначального приказа»)."""
        self.initiative = Track(order, turn, -1, began=turn)
        self.history.append(f"turn {turn}: initiative order in force")

    def _newest(self) -> tuple[int, int] | None:
        if self.current is None:
            return None
        return (self.current.sent, self.current.seq)

    def _come_into_force(self, turn: int) -> None:
        due = sorted((p for p in self.pending if p.in_force_from <= turn), key=lambda p: (p.sent, p.seq))
        for waiting in due:
            self.pending.remove(waiting)
            newest = self._newest()
            if newest is not None and (waiting.sent, waiting.seq) < newest:
                self.history.append(f"turn {turn}: the order from {waiting.order.sender} sent turn {waiting.sent}"
                                    f" is older than the order in force (sent turn {newest[0]}): set aside")
                continue
            self.current = Track(waiting.order, waiting.sent, waiting.seq, began=turn)
            self.initiative = None  # a new order ends the initiative («вплоть до поступления нового приказа»)
            self.history.append(f"turn {turn}: order from {waiting.order.sender} (sent turn {waiting.sent}) "
                                "in force")

    # -- each turn

    def in_force(self, turn: int, sight: Sight) -> InForce:
        """What the brigade does on ``turn``: orders whose delay has passed come into force, then the steps are
        followed as far as the brigade sees they are done. Call once a turn, in turn order."""
        self._come_into_force(turn)
        if self.initiative is not None:
            step = self._advance(self.initiative, turn, sight, initiative=True)
            if step is not None:
                return step
            self.history.append(f"turn {turn}: the initiative order is carried out; back to the order in force")
            self.initiative = None
        if self.current is None:
            return InForce(HOLD, None, None)
        step = self._advance(self.current, turn, sight, initiative=False)
        return step if step is not None else InForce(HOLD, None, self.current.order)

    def _advance(self, track: Track, turn: int, sight: Sight, initiative: bool) -> InForce | None:
        """Follow ``track`` on ``turn``: the step it is at, or None when it is carried out."""
        steps = track.order.steps
        while not track.finished:
            later = [j for j in range(track.index + 1, len(steps))
                     if steps[j].at is not None and steps[j].at <= turn]
            if later:  # AT: the step begins at its turn, whatever is being done (DO8)
                track.index, track.waiting_if = later[-1], False
            step = steps[track.index]
            if step.unless is not None and sight.happened(step.unless):
                track.abandoned = True
                self.history.append(f"turn {turn}: UNLESS {step.unless.text}: the rest of the order is dropped")
                return None
            if step.at is not None and turn < step.at:
                waiting = say("waiting for turn %(turn)s", turn=step.at)
                return InForce(step, track.index, track.order, str(waiting), initiative, waiting)
            if step.when is not None and not track.waiting_if:
                if not sight.happened(step.when):
                    waiting = say("waiting until %(event)s", event=step.when.said)
                    return InForce(step, track.index, track.order, str(waiting), initiative, waiting)
                track.waiting_if = True
            if (step.until is not None and sight.happened(step.until)) or sight.done(step):
                track.index, track.waiting_if = track.index + 1, False
                continue
            return InForce(step, track.index, track.order, "", initiative)
        return None

    # -- saving

    def to_dict(self) -> dict:
        return {"brigade": self.brigade, "current": self.current.to_dict() if self.current else None,
                "pending": [p.to_dict() for p in self.pending],
                "initiative": self.initiative.to_dict() if self.initiative else None,
                "history": list(self.history)}

    @classmethod
    def from_dict(cls, data: dict) -> "BrigadeOrders":
        return cls(data["brigade"], Track.from_dict(data["current"]) if data["current"] else None,
                   [Pending.from_dict(p) for p in data["pending"]],
                   Track.from_dict(data["initiative"]) if data["initiative"] else None, list(data["history"]))


def receive(courier, turn: int, commander, brigade: BrigadeOrders | None, chance) -> int | None:
    """A courier delivered on ``turn`` to ``commander``: he rolls his delay die and the order waits in
    ``brigade`` (his brigade's state of command) until it comes into force, exactly as written and never
    earlier. Returns the delay in turns, or None when he commands no brigade (the dispatch is read by his seat;
    nothing comes into force, and no die is rolled)."""
    if brigade is None:
        return None
    order = courier.order
    sent = order.sent if order.sent is not None else courier.sent
    delay = delay_roll(chance, commander, f"order from {order.sender.name} (courier {courier.seq})")
    brigade.deliver(order, turn, delay, sent, courier.seq)
    return delay


def take_initiative(chance, commander, order: Order, brigade: BrigadeOrders, turn: int) -> bool:
    """``commander`` tests his initiative on ``turn`` to carry out ``order``, written with the test: if the die
    passes, the order is in force from this turn (DO12); either way his one test of the game is spent."""
    passed = initiative_test(chance, commander, turn)
    if passed:
        brigade.take_initiative(order, turn)
    else:
        brigade.history.append(f"turn {turn}: {commander.name} failed his initiative test; the order stands")
    return passed
