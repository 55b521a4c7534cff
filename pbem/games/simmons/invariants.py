"""What must hold of a Marengo-family position after every turn, whatever the game:
the frame of each game's self-play invariants (marengo/invariants.py,
triomphe/selfplay.py), which add their own (morale, discs, orders spent...).
Each function returns the broken invariants as sentences (none: all hold)."""

from __future__ import annotations

from collections import Counter

from .sides import MAX_STRENGTH, SIDES


def clock(before, after, turn: str = "day") -> list[str]:
    """A resolved turn moves the clock one turn on."""
    if after.day != before.day + 1:
        return [f"the clock went from {turn} {before.day} to {after.day}"]
    return []


def position(board, state) -> list[str]:
    """No locale over its capacity for a side, never both armies in one locale, and every
    block in a place that exists with a strength in range (on the map), or nowhere with
    none (eliminated), or nowhere (waiting)."""
    problems = []
    for side in SIDES:
        counts = Counter(b.locale for b in state.blocks.values() if b.side == side and b.on_map)
        for lid, n in counts.items():
            if lid in board.locales and n > board.locales[lid].capacity:
                problems.append(f"{n} {side} blocks in {lid}, capacity {board.locales[lid].capacity}")
    for lid in board.locales:
        if state.occupied_by(lid, "austria") and state.occupied_by(lid, "france"):
            problems.append(f"both armies in {lid}")
    for b in state.blocks.values():
        if b.status == "map":
            if b.locale not in board.locales:
                problems.append(f"{b.id} on the map at an unknown place {b.locale}")
            elif b.facing is not None and (b.locale, b.facing) not in board.approaches:
                problems.append(f"{b.id} blocks a missing approach {b.locale}>{b.facing}")
            if not 1 <= b.strength <= MAX_STRENGTH[b.type]:
                problems.append(f"{b.id} has strength {b.strength}")
        elif b.status == "eliminated":
            if b.strength != 0 or b.locale is not None:
                problems.append(f"eliminated {b.id} still has strength {b.strength} or a place")
        elif b.status == "waiting":
            if b.locale is not None:
                problems.append(f"waiting {b.id} is on the map")
        else:
            problems.append(f"{b.id} has status {b.status}")
    return problems
