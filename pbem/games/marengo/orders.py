"""The orders of one side for one day of a Marengo game, as values.

The parser (parse.py) turns text into these; each order keeps its source line
and its normalised text (``text``), which is what the reply echoes back and
what ``str()`` prints. Places are locale ids; an approach is written
``(locale, toward)``: the side of ``locale`` that faces ``toward``.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.orders import Header


@dataclass
class Order:
    line: int = 0
    text: str = ""
    column: int = field(default=1, compare=False)  # where it starts on its line (orders split by ';' share one)

    def __str__(self) -> str:
        return self.text


@dataclass
class Activate(Order):
    """French only: choose start blocks to activate (003 §6 step 6)."""

    blocks: tuple[str, ...] = ()


@dataclass
class Assault(Order):
    """Assault across the approach (locale, toward) with the blocks there (003 §11)."""

    locale: str = ""
    toward: str = ""
    blocks: tuple[str, ...] = ()  # every block taking part
    named: bool = field(default=True, compare=False)  # False: written without WITH (every block that may assault)
    leads: tuple[str, ...] = ()  # empty: the default choice
    pursue: tuple[str, ...] | None = None  # None: standing order/default; (): no pursuit
    extend: tuple[tuple[str, str], ...] = ()  # cavalry (block, toward) after a capture


@dataclass
class Move(Order):
    """A group move of one or more blocks (003 §8), possibly an attack maneuver (§9).

    ``frm`` and ``to`` are (locale, facing) with facing None for the reserve.
    """

    blocks: tuple[str, ...] = ()
    frm: tuple[str, str | None] = ("", None)
    to: tuple[str, str | None] = ("", None)
    if_blocked: str | None = None  # "stay", "advance"; None: the default
    advance: tuple[str, ...] = ()  # with "advance": the blocks that advance (empty: all)
    extend: str | None = None  # cavalry: block the approach of the destination toward this locale


@dataclass
class RoadMove(Order):
    """One block moving along roads, up to three locales (003 §8)."""

    block: str = ""
    path: tuple[str, ...] = ()  # the locales passed, starting with the one it is in
    if_blocked: str | None = None  # cavalry attack maneuver on the road
    extend: str | None = None


@dataclass
class Extend(Order):
    """Cavalry in reserve on a main road blocks an approach of its own locale
    along that road, free of the command limit (003 §8, the note on prolongement)."""

    block: str = ""
    locale: str = ""
    toward: str = ""


@dataclass
class Enter(Order):
    """Reinforcements entering the map (003 §8): by road, in the order named, or
    one block by the pontoon."""

    blocks: tuple[str, ...] = ()
    by: str = "road"  # "road" or "pontoon"
    entry: str | None = None  # entry point id; None: the side's only one of that kind
    path: tuple[str, ...] = ()  # locales after the entry locale, along the road
    if_blocked: str | None = None
    extend: str | None = None


@dataclass
class Bombard(Order):
    """Declare a bombardment from the approach (locale, toward) (003 §10)."""

    block: str = ""
    locale: str = ""
    toward: str = ""


@dataclass
class Fire(Order):
    """How to resolve the bombardment declared last day: ``hold`` cancels it;
    ``target`` picks the approach (of the opposite locale, facing ``target``)
    when the rules leave the target to the bombarding side."""

    block: str = ""
    hold: bool = False
    target: str | None = None


STANDING_KINDS = ("block", "lead", "artillery", "pursue", "retreat", "losses", "inflict", "clear")


@dataclass
class Standing(Order):
    """An answer given in advance to a decision of the enemy's day (or any day).

    kind      form                                             value/blocks/places
    block     STANDING BLOCK <locale>|ALL ALWAYS|NEVER|WITH ids  value, blocks
    lead      STANDING LEAD <locale>><locale> ids              blocks
    artillery STANDING ARTILLERY DEFEND|HOLD                   value
    pursue    STANDING PURSUE ALWAYS|NEVER|STRONG              value
    retreat   STANDING RETREAT <locale>|ALL TO <locale>...     places
    losses    STANDING LOSSES STRONGEST|WEAKEST|ids            value or blocks
    inflict   STANDING INFLICT STRONGEST|WEAKEST               value
    clear     STANDING CLEAR [kind]                            value (kind or None)
    """

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
    # answers (checks.py); each a sentence for the acknowledgement
    warnings: list[str] = field(default_factory=list)

    def of(self, kind: type) -> list:
        return [o for o in self.orders if isinstance(o, kind)]

    def echo(self) -> str:
        """The accepted orders in normalised form, one per line."""
        lines = [o.text for o in self.orders] + [s.text for s in self.standing]
        if self.final:
            lines.append("FINAL")
        return "\n".join(lines)
