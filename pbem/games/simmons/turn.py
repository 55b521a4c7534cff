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

from functools import lru_cache

from pbem.core.decisions import Decider, Decision
from pbem.core.events import Event
from pbem.lang import Text, say

from .orders import Orders, Standing
from .sides import SIDE_ADJ, enemy
from .words import InWords
from .standing import in_force


class SideTurn:
    """The position (``st``), the side playing and its enemy, the orders, the decider
    and the events told so far."""

    tag_decisions = False  # True: a decision's event carries its kind (``decision=kind``)
    WORDS = None  # the game's order words (pbem.games.simmons.words.OrderWords): a void order in the reader's

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

    def place(self, locale: str, facing: str | None) -> Text | str:
        if facing is None:
            return in_reserve(self.name(locale))
        return f"{self.name(locale)}>{self.name(facing)}"

    def own(self, block, strength: int | None = None) -> Text:
        """A block as its owner knows it (a block without a name of its own, as in cases, by its id):
        a Text, its type in the reader's language (``str()``: the English)."""
        return owned(block.id, block.name, block.type, block.strength if strength is None else strength)

    @staticmethod
    def shown(block, strength: int | None = None) -> Text:
        """A revealed block as its enemy sees it: side, type and strength only."""
        return seen_block(block.side, block.type, block.strength if strength is None else strength)

    # -- telling what happened

    def public(self, kind: str, text: str | Text, **data) -> None:
        """An event every seat sees; ``text`` a Text (read in each seat's language) or English."""
        said = isinstance(text, Text)  # English written when read
        self.events.append(Event(kind, "" if said else text, data, said=text if said else None))

    def private(self, kind: str, owner: str, text: str | Text, seen: str | Text | None = None,
                seen_data: dict | None = None, **data) -> None:
        """An event ``owner`` knows in full and the enemy as ``seen`` (None: not at all)."""
        said, seen_said = isinstance(text, Text), isinstance(seen, Text)  # English written when read
        self.events.append(Event(kind, "" if said else text, data, owner=owner,
                                 seen=None if seen is None or seen_said else seen, seen_data=seen_data,
                                 said=text if said else None, seen_said=seen if seen_said else None))

    def void(self, order, why: str | Text) -> None:
        text = str(order.text or order)
        self.private("void", self.side, say("Order not carried out: %(order)s — %(why)s.",
                                            order=InWords(text, self.WORDS) if self.WORDS else text, why=why))

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
        labels = dict(options)  # a label may be a Text (a block): the decision writes its English when read
        decision = Decision(side=side, kind=kind, question=question,
                            options=tuple(k for k, _ in options), default=tuple(default),
                            labels=tuple(options), min=lo, max=hi,
                            said=question if isinstance(question, Text) else None,
                            said_labels=tuple((k, v) for k, v in options if isinstance(v, Text)))
        answer = self.decider.decide(decision, given=given, source=source or self.source_for(side), check=check)
        record = self.decider.records[-1]
        tag = {"decision": kind} if self.tag_decisions else {}
        if record.source in ("default", "standing", "log"):
            how = {"default": say("by default"), "standing": say("by your standing orders"),
                   "log": say("by the answer on record")}[record.source]
            chosen = [labels.get(k, k) for k in answer] or say("none")
            note = say(" (%(note)s)", note=record.note) if record.note else ""
            self.private("decision", side, say("%(question)s Chosen %(how)s: %(chosen)s.%(note)s", question=question,
                                               how=how, chosen=chosen, note=note), **tag)
        elif record.note:
            self.private("decision", side, say("%(question)s %(note)s.", question=question, note=record.note),
                         **tag)
        return answer


def adjective(side: str) -> Text:
    """A side as a sentence names its army or blocks: "Austrian" in English; in the other languages
    the side's name as the sentence needs it ("de l'Autriche", "Австрии", "奥地利")."""
    return _AUSTRIAN if side == "austria" else _FRENCH


_AUSTRIAN, _FRENCH = say("Austrian"), say("French")

# The sentences naming a place's reserve and a block, made once for each set of values and shared by every
# event that says them (a replay tells thousands, of a few hundred such names: issue 15). A Text is never
# changed once made (pbem.lang), so sharing one is saying it again; the caches are bounded, and what they
# hold depends only on the values given (the same in every process and game).


@lru_cache(maxsize=1024)
def in_reserve(name: str) -> Text:
    """A locale's reserve ("Marengo (reserve)")."""
    return say("%(place)s (reserve)", place=name)


@lru_cache(maxsize=256)
def block_kind(kind: str) -> Text:
    """A block's type (infantry, cavalry...), read in the reader's language."""
    return say(kind)


@lru_cache(maxsize=4096)
def owned(block_id: str, name: str | None, kind: str, strength: int) -> Text:
    """A block as its owner knows it: id, name (a block without a name of its own by its id alone), type
    and strength (:meth:`SideTurn.own`)."""
    name = f" {name}" if name and name != block_id else ""
    return say("%(block)s (%(kind)s %(strength)d)", block=f"{block_id}{name}", kind=block_kind(kind),
               strength=strength)


@lru_cache(maxsize=1024)
def seen_block(side: str, kind: str, strength: int) -> Text:
    """A revealed block as its enemy sees it: side, type and strength (:meth:`SideTurn.shown`)."""
    return say("%(side)s %(kind)s %(strength)d", side=adjective(side), kind=block_kind(kind), strength=strength)


def moving_side(scenario, state) -> str:
    """The side whose turn (day) comes next."""
    return scenario.side_of_day(state.day)


def is_over(scenario, state) -> bool:
    return state.over
