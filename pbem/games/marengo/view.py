"""What one side may see of a position (and the moderator's view of all of it).

A side sees its own blocks in full. Of the enemy it sees only what stands on
the board: a block of the enemy's colour in a locale's reserve or along an
approach. It never sees an enemy block's id or name; it sees an enemy block's
type and strength only while that block stands revealed (an artillery block
with a bombardment declared, 003 §10). Enemy blocks are listed in a fixed
order (by locale and position) that says nothing of their ids.
"""

from __future__ import annotations

from pbem.games.simmons.view import own_and_seen

from .scenario import SIDES, Scenario
from pbem.games.simmons.clock import hour_label
from .state import State


def block_dict(block) -> dict:
    return {
        "id": block.id,
        "side": block.side,
        "name": block.name,
        "type": block.type,
        "strength": block.strength,
        "locale": block.locale,
        "facing": block.facing,
        "status": block.status,
        "activated": block.activated,
        "arrives": block.arrives,
        "bombard": block.bombard,
        "entries": list(block.entries),
    }


def seen_as(block) -> dict:
    """An enemy block as the other side sees it: where it stands; its type and strength only
    while a declared bombardment reveals the artillery (003 §10)."""
    revealed = {"type": block.type, "strength": block.strength} if block.bombard is not None else None
    return {"side": block.side, "locale": block.locale, "facing": block.facing, "revealed": revealed}


def view(scenario: Scenario, state: State, side: str | None) -> dict:
    """The position as ``side`` may know it; ``side=None`` is the moderator."""
    day = state.day
    over = state.over
    hour = scenario.hour(min(day, scenario.days - 1))  # pragma: no mutate (days - 2 is the same hour: a round has a day per side)
    out = {
        "game": "marengo",
        "scenario": scenario.name,
        "viewer": side,
        "day": day,
        "round": day // len(SIDES) + 1,
        "rounds": scenario.rounds,
        "hour": hour,
        "hour_label": hour_label(hour),
        "next_side": None if over else scenario.side_of_day(day),
        "morale": dict(state.morale),
        "demoralised": dict(state.demoralised),
        "over": over,
        "winner": state.winner,
        "victory": state.victory,
        "blocks": [],
        "enemy": [],
        "reinforcements": {},
        "last_moves": [dict(m) for m in state.last_moves],
        "standing": {},
    }
    own_and_seen(out, scenario.board, state, side, block_dict, seen_as)
    waiting_of: dict[str, list] = {s: [] for s in SIDES}
    for b in state.blocks.values():
        if b.status == "waiting":
            waiting_of[b.side].append(b)
    for s in SIDES:
        waiting = waiting_of[s]
        if side is None or s == side:
            out["reinforcements"][s] = [
                {"id": b.id, "name": b.name, "type": b.type, "strength": b.strength, "arrives": b.arrives}
                for b in sorted(waiting, key=lambda b: (b.arrives or 0, b.id))
            ]
        else:
            by_hour: dict[int, int] = {}
            for b in waiting:
                by_hour[b.arrives or 0] = by_hour.get(b.arrives or 0, 0) + 1
            out["reinforcements"][s] = [{"arrives": h, "count": n} for h, n in sorted(by_hour.items())]
    return out
