"""What must hold after every day of Bonaparte at Marengo (self-play checks it), and
the summary of a finished game that balance runs tally."""

from __future__ import annotations

from collections import Counter

from .rules import MORALE_BONUS
from .scenario import MAX_STRENGTH, SIDES


def check_day(scenario, result) -> list[str]:
    """Everything that must hold after a day (returns the broken invariants)."""
    board, before, after = scenario.board, result.before, result.after
    problems = []
    if after.day != before.day + 1:
        problems.append(f"the clock went from day {before.day} to {after.day}")
    if not after.check_index():  # before the lookups below, which would build it afresh
        problems.append("the index of where blocks are disagrees with the blocks (a move not made by State.put)")
    for side in SIDES:
        counts = Counter(b.locale for b in after.blocks.values() if b.side == side and b.on_map)
        for lid, n in counts.items():
            if n > board.locales[lid].capacity:
                problems.append(f"{n} {side} blocks in {lid}, capacity {board.locales[lid].capacity}")
    for lid in board.locales:
        if after.occupied_by(lid, "austria") and after.occupied_by(lid, "france"):
            problems.append(f"both armies in {lid}")
    for b in after.blocks.values():
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
            if b.locale is not None or b.strength != before.blocks[b.id].strength:
                problems.append(f"waiting {b.id} is on the map or changed strength")
        else:
            problems.append(f"{b.id} has status {b.status}")
    for side in SIDES:
        lost = sum(before.blocks[bid].strength - b.strength for bid, b in after.blocks.items() if b.side == side)
        if lost < 0:
            problems.append(f"{side} gained strength")
        bonus = MORALE_BONUS if before.bonus_due.get(side) else 0
        expected = max(0, before.morale[side] + bonus - lost)
        if after.morale[side] != expected:
            problems.append(f"{side} morale {after.morale[side]}, expected {expected} "
                            f"(before {before.morale[side]}, bonus {bonus}, lost {lost})")
        if after.demoralised[side] != (before.demoralised[side] or after.morale[side] == 0):
            problems.append(f"{side} demoralised is {after.demoralised[side]} with morale {after.morale[side]}")
    return problems


def how_won(state) -> str:
    """'demoralisation' when one army ended demoralised and the other not, else 'objectives'."""
    return "demoralisation" if state.demoralised["austria"] != state.demoralised["france"] else "objectives"


def summary(scenario, state) -> dict:
    """A finished game for a balance run: who won and how, the end morale of each side
    (averaged over the run), and the objectives Austria held (counted over the run)."""
    board = scenario.board
    held = [f"{loc.name} ({loc.objective})" for lid, loc in board.locales.items()
            if loc.objective and state.occupied_by(lid, "austria")]
    return {"winner": state.winner, "how": how_won(state),
            "means": {f"{side} morale": state.morale[side] for side in SIDES},
            "counts": {"objectives Austria held at the end": held}}
