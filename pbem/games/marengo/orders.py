"""The orders of one side for one day of a Marengo game, as values.

The parser (parse.py) turns text into these; each order keeps its source line
and its normalised text (``text``), which is what the reply echoes back and
what ``str()`` prints. Places are locale ids; an approach is written
``(locale, toward)``: the side of ``locale`` that faces ``toward``. The base
order, the standing orders and a side's orders are the family's
(pbem.games.simmons.orders).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.simmons.orders import Bombard, Order, Orders, Standing


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
class Fire(Order):
    """How to resolve the bombardment declared last day: ``hold`` cancels it;
    ``target`` picks the approach (of the opposite locale, facing ``target``)
    when the rules leave the target to the bombarding side."""

    block: str = ""
    hold: bool = False
    target: str | None = None


# The kinds of Marengo's standing orders (pbem.games.simmons.orders.Standing):
# kind      form                                             value/blocks/places
# block     STANDING BLOCK <locale>|ALL ALWAYS|NEVER|WITH ids  value, blocks
# lead      STANDING LEAD <locale>><locale> ids              blocks
# artillery STANDING ARTILLERY DEFEND|HOLD                   value
# pursue    STANDING PURSUE ALWAYS|NEVER|STRONG              value
# retreat   STANDING RETREAT <locale>|ALL TO <locale>...     places
# losses    STANDING LOSSES STRONGEST|WEAKEST|ids            value or blocks
# inflict   STANDING INFLICT STRONGEST|WEAKEST               value
# clear     STANDING CLEAR [kind]                            value (kind or None)
STANDING_KINDS = ("block", "lead", "artillery", "pursue", "retreat", "losses", "inflict", "clear")


__all__ = ["Order", "Orders", "Standing", "STANDING_KINDS", "Activate", "Assault", "Move", "RoadMove", "Extend",
           "Enter", "Bombard", "Fire"]
