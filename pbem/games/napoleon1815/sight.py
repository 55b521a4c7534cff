"""§3.2, §6.24, §12 Who sees what: the armies a seat sees in full, the seats that take part
in a fight (and so see its narrative), and an event sink that tells a fight only to them.

A seat sees its own army's blocks; in the two-player game an Allied seat sees both
Allied armies (one player commands both). A battle or skirmish is told, round by round
with its dice, to the seats that see an army fighting in it — its *witnesses*; every
other seat (in the three-player game, the Allied seat whose army is not there) reads
only that a fight took place and who won it, as the map shows (docs/rules-notes.md
("Napoleon 1815"), "§12 the three-player game and what each Allied seat sees").
"""

from __future__ import annotations

from collections.abc import Iterable

from .scenario import SEAT_ARMY, SEATS

ARMIES = ("french", "anglo", "prussian")


def visible_armies(players: int, seat: str | None) -> set[str]:
    """The armies whose blocks ``seat`` sees in full (None or an onlooker: all)."""
    if seat is None or seat not in SEATS:
        return set(ARMIES)
    army = SEAT_ARMY[seat]
    if army != "french" and players == 2:
        return {"anglo", "prussian"}
    return {army}


def seats_seeing(players: int, armies: Iterable[str]) -> tuple[str, ...]:
    """The seats that see at least one of ``armies`` in full, in seat order."""
    armies = set(armies)
    return tuple(s for s in SEATS if visible_armies(players, s) & armies)


class Told:
    """Events of one fight, told only to its witnesses (a set that may grow: reinforcements).

    A public event becomes the witnesses' own (nobody else hears of it); an event owned by a
    seat keeps its owner, and what others saw of it goes to the witnesses only. Events
    that set their witnesses themselves are left as they are."""

    def __init__(self, events: list, witnesses: set[str]):
        self.events, self.witnesses = events, witnesses

    def append(self, event) -> None:
        seats = tuple(s for s in SEATS if s in self.witnesses)
        if event.owner is None:
            event.owner = seats
        elif event.witnesses is None:
            event.witnesses = tuple(s for s in seats if s not in event.owners())
        self.events.append(event)
