"""The orders of one side for one turn of a Marengo-family game, as values.

Each game's parser turns text into these; each order keeps its source line and
its normalised text (``text``), which is what the reply echoes back and what
``str()`` prints. Places are locale ids; an approach is written ``(locale,
toward)``: the side of ``locale`` that faces ``toward``. Each game adds its own
kinds of :class:`Order` (marengo/orders.py, triomphe/orders.py); the standing
orders and the orders of a turn are the same values in both.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

from pbem.core.orders import Header


@dataclass
class Order:
    line: int = 0
    text: str = ""
    column: int = field(default=1, compare=False)  # where it starts on its line (orders split by ';' share one)

    def __str__(self) -> str:
        return self.text


@dataclass
class Bombard(Order):
    """Declare a bombardment from the approach (locale, toward) (003 §10, 000 §10)."""

    block: str = ""
    locale: str = ""
    toward: str = ""


@dataclass
class Standing(Order):
    """An answer given in advance to a decision of the enemy's turn (or any turn): a
    ``kind`` (each game has its own, in its STANDING_KINDS), where it applies (``locale``,
    ``toward``; None: everywhere), and what it says (``value``, ``blocks``, ``places``).
    It stays in force until one of the same kind and place replaces it, or it is cleared
    (:func:`pbem.games.simmons.standing.update_standing`)."""

    kind: str = ""
    locale: str | None = None  # None: every locale
    toward: str | None = None
    value: str | None = None
    blocks: tuple[str, ...] = ()
    places: tuple[str, ...] = ()

    def key(self) -> tuple:
        return (self.kind, self.locale, self.toward)

    def to_dict(self) -> dict:
        return {"kind": self.kind, "locale": self.locale, "toward": self.toward, "value": self.value,
                "blocks": list(self.blocks), "places": list(self.places), "text": self.text}

    @classmethod
    def from_dict(cls, d: dict) -> "Standing":
        return cls(text=d.get("text", ""), kind=d["kind"], locale=d.get("locale"), toward=d.get("toward"),
                   value=d.get("value"), blocks=tuple(d.get("blocks", ())), places=tuple(d.get("places", ())))


@dataclass
class Orders:
    side: str
    header: Header = field(default_factory=Header)
    orders: list[Order] = field(default_factory=list)
    standing: list[Standing] = field(default_factory=list)
    final: bool = False  # the FINAL line: resolve early if the deadline allows
    # what the check at submission could not settle: orders that depend on the enemy's
    # answers; each a sentence for the acknowledgement
    warnings: list[str] = field(default_factory=list)
    # the same warnings as Texts (pbem.lang), when the check wrote them so: read in the seat's language
    warnings_said: list = field(default_factory=list, compare=False, repr=False)
    # an English order in the reader's order words (set by check_orders for its seat's language):
    # what echo() writes; the orders themselves, and what is logged, stay English
    in_words: Callable[[str], str] | None = field(default=None, compare=False, repr=False)

    def of(self, kind: type) -> list:
        return [o for o in self.orders if isinstance(o, kind)]

    def echo(self) -> str:
        """The accepted orders in normalised form, one per line, in the words of the seat's language
        when check_orders was given one (``in_words``); English otherwise."""
        lines = [o.text for o in self.orders] + [s.text for s in self.standing]
        if self.final:
            lines.append("FINAL")
        if self.in_words is not None:
            lines = [self.in_words(line) for line in lines]
        return "\n".join(lines)
