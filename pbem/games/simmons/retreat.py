"""Where a retreating block goes, in both Marengo-family games: the ranking of the
destinations a game's rules leave open, and the standing order's choice among them.

Which locales are open is each game's rule (003 §12: not whence the attack came,
not the enemy's, room left; 000 §13 adds closed entry locales and the last-resort
direction, T37). Both then rank them the same way: nearest the scenario's
``retreat_toward`` locale for the side (if it names one), then the most room
left, then the map's order; the first is the default, and ``STANDING RETREAT``
names the locales to prefer, best first.
"""

from __future__ import annotations


def ranked(board, options: list[str], goal: str | None, room: dict[str, int]) -> list[str]:
    """``options`` best first: nearest ``goal`` (if any), most ``room`` left, the map's order."""
    order = {lid: i for i, lid in enumerate(board.locales)}
    return sorted(options, key=lambda lid: (board.distance(lid, goal) if goal else 0, -room[lid], order[lid]))


def preferred(standing, options: list[str]) -> tuple[str] | None:
    """The first locale of the standing RETREAT order (None: no order) that is among ``options``;
    as a decision's given answer, or None."""
    if standing is None:
        return None
    for lid in standing.places:
        if lid in options:
            return (lid,)
    return None
