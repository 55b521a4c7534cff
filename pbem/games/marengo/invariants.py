"""What must hold after every day of Bonaparte at Marengo (self-play checks it), and
the summary of a finished game that balance runs tally."""

from __future__ import annotations

from pbem.games.simmons import invariants

from .rules import MORALE_BONUS
from .scenario import SIDES


def check_day(scenario, result) -> list[str]:
    """Everything that must hold after a day (returns the broken invariants): the family's
    (pbem.games.simmons.invariants), a waiting block's strength, morale."""
    board, before, after = scenario.board, result.before, result.after
    problems = invariants.clock(before, after)
    if not after.check_index():  # before the lookups below, which would build it afresh
        problems.append("the index of where blocks are disagrees with the blocks (a move not made by State.put)")
    problems += invariants.position(board, after)
    for b in after.blocks.values():
        if b.status == "waiting" and b.strength != before.blocks[b.id].strength:
            problems.append(f"waiting {b.id} changed strength")
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
