"""What one side may see of a position (and the moderator's view of all of it).

A side sees its own blocks in full. Of the enemy it sees what stands on the
table: a block in a locale's reserve or on an approach, whether it is
disorganised (reorganisation is an open action), and the type and strength
of an artillery block with a bombardment declared (face up, 000 §10); never
an enemy block's id or name. Discs, the time track, the waiting cells' counts
and the orders spent are on the table for both.
"""

from __future__ import annotations

from pbem.games.simmons.clock import hour_label
from pbem.games.simmons.view import own_and_seen

from .scenario import SIDES, Scenario
from .state import State


def block_dict(block) -> dict:
    return {
        "id": block.id, "side": block.side, "name": block.name, "type": block.type,
        "strength": block.strength, "locale": block.locale, "facing": block.facing,
        "status": block.status, "cell": block.cell, "arrives": block.arrives,
        "disorganised": block.disorganised, "bombard": block.bombard,
    }


def face_up(scenario: Scenario, state: State, side: str, cell: str, hour: int) -> list[dict]:
    """Blocks shown in a waiting cell: a block held back later than its cell opens (the
    Austrian artillery, 000 §15: «залишається горілиць») is face up until it may enter."""
    opens = scenario.cells[cell].hour if cell in scenario.cells else 0  # pragma: no mutate (0 or 1: hour < arrives decides)
    return [{"type": b.type, "strength": b.strength} for b in state.blocks.values()
            if b.side == side and b.status == "waiting" and b.cell == cell
            and b.arrives is not None and opens < b.arrives and hour < b.arrives]


def seen_as(block) -> dict:
    """An enemy block as the other side sees it: where it stands, whether it is disorganised
    (its marker is on the board, §14), and its type and strength while a declared
    bombardment shows the artillery."""
    revealed = None
    if block.bombard is not None:
        revealed = {"type": block.type, "strength": block.strength, "why": "bombardment declared"}
    return {"side": block.side, "locale": block.locale, "facing": block.facing,
            "disorganised": block.disorganised, "revealed": revealed}


def view(scenario: Scenario, state: State, side: str | None) -> dict:
    """The position as ``side`` may know it; ``side=None`` is the moderator."""
    day = state.day
    hour = scenario.hour(min(day, scenario.days - 1))  # pragma: no mutate (days - 2 is the same hour: a round has a day per side)
    out = {
        "game": "triomphe",
        "scenario": scenario.name,
        "viewer": side,
        "day": day,
        "round": day // len(SIDES) + 1,
        "rounds": scenario.rounds,
        "hour": hour,
        "hour_label": hour_label(hour),
        "next_side": None if state.over else scenario.side_of_day(day),
        "over": state.over,
        "winner": state.winner,
        "victory": state.victory,
        "morale": {s: state.morale(s) for s in SIDES},
        "uncommitted": dict(state.uncommitted),
        "committed": {s: dict(state.committed[s]) for s in SIDES},
        "track": {s: {hour_label(h): n for h, n in sorted(scenario.track[s].items()) if h >= hour}
                  for s in SIDES},
        "demoralised": dict(state.demoralised),
        "orders_spent": state.spent,
        "blocks": [],
        "enemy": [],
        "waiting": {},
        "last_moves": [dict(m) for m in state.last_moves],
        "standing": {},
    }
    own_and_seen(out, scenario.board, state, side, block_dict, seen_as)
    for s in SIDES:
        cells: dict[str, int] = {}
        for b in state.blocks.values():
            if b.side == s and b.status == "waiting":
                cells[b.cell] = cells.get(b.cell, 0) + 1
        out["waiting"][s] = [{"cell": c, "hour": hour_label(scenario.cells[c].hour) if c in scenario.cells else "",
                              "count": n, "face_up": face_up(scenario, state, s, c, hour)} for c, n in cells.items()]
    return out
