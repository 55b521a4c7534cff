"""The two sides of a Marengo-family game and the blocks' kinds, as both rule books have them."""

from __future__ import annotations

SIDES = ("austria", "france")  # the Austrian day (turn) comes first in every round (003 §7, 000 §5)
SIDE_NAME = {"austria": "Austria", "france": "France"}  # the sides as reports, maps and events name them
SIDE_ADJ = {"austria": "Austrian", "france": "French"}
TYPES = ("infantry", "cavalry", "artillery")
MAX_STRENGTH = {"infantry": 3, "cavalry": 2, "artillery": 1}


def enemy(side: str) -> str:
    return SIDES[1 - SIDES.index(side)]
