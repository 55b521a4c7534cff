"""§3 Units and §9 leaders: armies, types, strength, firepower, reach.

A block's *fire* is a letter and a number (§3.5, "F2"): the number is the
highest die that hits; the letter is the order the block acts in, which the
doctrine follows (docs/napoleon1815-rules-notes.md, "the firing-order letter").
"""

from __future__ import annotations

from dataclasses import dataclass

TYPES = ("leader", "infantry", "cavalry", "foot_artillery", "horse_artillery")
ARMY_NAME = {"french": "French", "anglo": "Anglo-Dutch", "prussian": "Prussian"}
ARMY_SIDE = {"french": "france", "anglo": "allies", "prussian": "allies"}
TYPE_NAME = {"leader": "leader", "infantry": "infantry", "cavalry": "cavalry",
             "foot_artillery": "foot artillery", "horse_artillery": "horse artillery"}
LEADERS = {"french": "NAP", "anglo": "WEL", "prussian": "BLU"}


@dataclass(frozen=True)
class BlockSpec:
    id: str
    army: str
    name: str
    corps: str
    type: str
    strength: int  # full strength (§3.3)
    fire: str  # "B2": letter and number (§3.5)
    setup: str = ""  # the historical town (§4.3)
    nation: str = ""

    @property
    def firepower(self) -> int:
        return int(self.fire[1:])

    @property
    def letter(self) -> str:
        return self.fire[0]

    @property
    def side(self) -> str:
        return ARMY_SIDE[self.army]


def reach(btype: str, forced: bool = False) -> int:
    """How many towns a block may move in a turn (§5.3), one more by forced march (§5.6)."""
    base = 1 if btype in ("infantry", "foot_artillery") else 2
    return base + (1 if forced else 0)


def is_mounted(btype: str) -> bool:
    """Cavalry, horse artillery and leaders: two moves in a battle round (§6.32)."""
    return btype in ("cavalry", "horse_artillery", "leader")


def is_artillery(btype: str) -> bool:
    return btype in ("foot_artillery", "horse_artillery")


def skirmish_fire(btype: str) -> int:
    """§6.6: in a skirmish cavalry, horse artillery and leaders fire F2, infantry and foot artillery F1."""
    return 2 if is_mounted(btype) else 1
