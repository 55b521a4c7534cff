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

from pbem.games.simmons.orders import Bombard, Order, Orders, Standing

Place = tuple[str, str | None]


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
class Fire(Order):
    """Complete (``FIRE``) or cancel (``HOLD FIRE``) the bombardment declared last turn."""

    block: str = ""
    hold: bool = False


@dataclass
class Return(Order):
    """France's extra disc return at the end of its turn (000 §18 step 3); None: none."""

    locale: str | None = None


# The kinds of Triomphe's standing orders (pbem.games.simmons.orders.Standing):
# kind           form                                              value / blocks / places
# respond        STANDING RESPOND <locale>|ALL ALWAYS|NEVER|BLOCKING value
# vanguard       STANDING VANGUARD <approach>|ALL BEST|NONE|ids     value, blocks
# barrage        STANDING BARRAGE ALWAYS|NEVER                     value
# counterattack  STANDING COUNTERATTACK NEVER|TURN|ALWAYS          value
# retreat        STANDING RETREAT <locale>|ALL TO <locale>...      places
# losses         STANDING LOSSES STRONGEST|WEAKEST                 value
# cover          STANDING COVER ALWAYS|NEVER                       value
# clear          STANDING CLEAR [kind]                             value
STANDING_KINDS = ("respond", "vanguard", "barrage", "counterattack", "retreat", "losses", "cover", "clear")


__all__ = ["Order", "Orders", "Standing", "STANDING_KINDS", "Place", "Continue", "Reorganise", "March", "Road", "Enter",
           "Attack", "Assault", "Bombard", "Fire", "Return"]
