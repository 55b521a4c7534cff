"""The orders of one side for one turn of Triomphe à Marengo, as values.

The parser (parse.py) turns text into these; each order keeps its source line
and its normalised text (``text``), which the reply echoes and ``str()``
prints: parsing the echo gives the same orders back. Places are locale ids; a
place is ``(locale, facing)`` with ``facing`` None for the reserve.

Each order but RETURN, STANDING and FINAL is one action (000 §6), carried out
in the order written (T1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.orders import Header

Place = tuple[str, str | None]


@dataclass
class Order:
    line: int = 0
    text: str = ""

    def __str__(self) -> str:
        return self.text


@dataclass
class Continue:
    """Cavalry continuation (000 §12): ``blocks`` (empty: every cavalry block of
    the action) go on to the approach of the locale where it ended facing ``toward``."""

    blocks: tuple[str, ...] = ()
    toward: str = ""


@dataclass
class Reorganise(Order):
    """French only: one or two disorganised blocks become organised (000 §14)."""

    blocks: tuple[str, ...] = ()


@dataclass
class March(Order):
    """An off-road march (000 §7): blocks from one place to one place, one step."""

    blocks: tuple[str, ...] = ()
    frm: Place = ("", None)
    to: Place = ("", None)
    then: tuple[Continue, ...] = ()


@dataclass
class Road(Order):
    """A road march of one block, up to three crossings (000 §8)."""

    block: str = ""
    path: tuple[str, ...] = ()  # the locales, starting with the one it is in
    if_blocked: str | None = None  # after a lost cavalry maneuver attack on the road: "advance"/"stay"
    then: tuple[Continue, ...] = ()


@dataclass
class Enter(Order):
    """A reinforcement entering by a road march (000 §15), or by the pontoon."""

    block: str = ""
    by: str = "road"  # "road" or "pontoon"
    entry: str | None = None  # the entry point; None: the first of its cell's of that kind
    path: tuple[str, ...] = ()  # locales after the entry locale
    if_blocked: str | None = None
    then: tuple[Continue, ...] = ()


@dataclass
class Attack(Order):
    """A maneuver attack (000 §9) from a place into an adjacent locale."""

    blocks: tuple[str, ...] = ()
    frm: Place = ("", None)
    target: str = ""
    if_blocked: str | None = None  # from a reserve, after a blocked attack: "advance"/"stay"
    then: tuple[Continue, ...] = ()


@dataclass
class Assault(Order):
    """An assault (000 §11) across the approach (locale, toward)."""

    locale: str = ""
    toward: str = ""
    blocks: tuple[str, ...] = ()  # the assault blocks (empty: every block on the approach, at most 3)
    lead: tuple[str, ...] | None = None  # the vanguard; None: LEAD BEST (chosen after the defender's)
    best: bool = False  # WITH BEST: the assault blocks are chosen at step 3, after the defender's vanguard (T55)
    then: tuple[Continue, ...] = ()


@dataclass
class Bombard(Order):
    """Declare a bombardment from the approach (locale, toward) (000 §10)."""

    block: str = ""
    locale: str = ""
    toward: str = ""


@dataclass
class Fire(Order):
    """Complete (``FIRE``) or cancel (``HOLD FIRE``) the bombardment declared last turn."""

    block: str = ""
    hold: bool = False


@dataclass
class Return(Order):
    """France's extra disc return at the end of its turn (000 §18 step 3); None: none."""

    locale: str | None = None


STANDING_KINDS = ("respond", "vanguard", "barrage", "counterattack", "retreat", "losses", "cover", "clear")


# family: shared with marengo/orders.py (Standing, Orders), to move to simmons
@dataclass
class Standing(Order):
    """An answer given in advance to a decision of the enemy's turn (or any turn).

    kind           form                                              value / blocks / places
    respond        STANDING RESPOND <locale>|ALL ALWAYS|NEVER|BLOCKING value
    vanguard       STANDING VANGUARD <approach>|ALL BEST|NONE|ids     value, blocks
    barrage        STANDING BARRAGE ALWAYS|NEVER                     value
    counterattack  STANDING COUNTERATTACK NEVER|TURN|ALWAYS          value
    retreat        STANDING RETREAT <locale>|ALL TO <locale>...      places
    losses         STANDING LOSSES STRONGEST|WEAKEST                 value
    cover          STANDING COVER ALWAYS|NEVER                       value
    clear          STANDING CLEAR [kind]                             value
    """

    kind: str = ""
    locale: str | None = None
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
    final: bool = False

    def of(self, kind: type) -> list:
        return [o for o in self.orders if isinstance(o, kind)]

    def echo(self) -> str:
        lines = [o.text for o in self.orders] + [s.text for s in self.standing]
        if self.final:
            lines.append("FINAL")
        return "\n".join(lines)
