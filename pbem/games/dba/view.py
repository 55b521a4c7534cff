"""What one seat may know of the table: its own forces, the enemy it sees now, the enemy it saw before
(last-known, with the turn), as plain data (issue 12 §4). The map (render.py) and, later, the report are drawn
from this alone, so nothing a seat's troops cannot see reaches it; the terrain is the scenario's, public.

    view = seat_view(table, "blue", spotting, memory, turn, brigades={"blue-1"}, commanders={"blue-1"})
"""

from __future__ import annotations

from . import effectiveness
from .elements import Element
from .sight import Sighting, update
from .table import Table


def _corners(e: Element) -> list[list[int]]:
    return [[round(x), round(y)] for x, y in list(e.shape.exterior.coords)[:-1]]


def element_dict(e: Element) -> dict:
    """An element as its own side knows it."""
    return {"id": e.id, "brigade": e.brigade, "troop": e.troop, "formation": e.formation, "x": e.x, "y": e.y,
            "facing": e.facing, "corners": _corners(e), "front": [[round(x), round(y)] for x, y in e.edge("front").coords],
            "disorganised": e.disorganised, "shaken": e.shaken, "fleeing": e.fleeing}


def sighting_dict(s: Sighting, table: Table, now: int) -> dict:
    """An enemy as seen (on turn ``s.turn``): where, its type and formation; no id of its own brigade's
    strength or losses. The shape is drawn from the sighting, not from where the enemy is now."""
    ghost = Element(s.element, "?", s.brigade, s.troop, s.x, s.y, s.facing, s.formation)
    return {"id": s.element, "troop": s.troop, "formation": s.formation, "corners": _corners(ghost),
            "front": [[round(x), round(y)] for x, y in ghost.edge("front").coords], "turn": s.turn,
            "now": s.turn == now}


def seat_view(table: Table, side: str, spotting: int, memory: dict[str, Sighting], turn: int,
              brigades: set[str] | None = None, commanders: set[str] | None = None) -> tuple[dict, dict]:
    """The seat's view after it looks on ``turn``, and its sightings to keep for the next turn."""
    memory = update(memory, table, side, spotting, turn, brigades, commanders)
    own = [e for e in table.on_table(side) if brigades is None or e.brigade in brigades]
    leaders = [c for c in table.commanders.values() if c.side == side and c.alive
               and (brigades is None and commanders is None or c.id in (commanders or ())
                    or c.brigade in (brigades or ()))]
    view = {
        "side": side, "turn": turn,
        "elements": [element_dict(e) for e in own],
        "commanders": [{"id": c.id, "name": c.name, "x": c.x, "y": c.y} for c in leaders],
        "brigades": [{"id": b.id, "name": b.name, "bef": effectiveness.current(b),
                      "rating": effectiveness.rating(b)} for b in table.brigades.values()
                     if b.side == side and (brigades is None or b.id in brigades)],
        "enemy": [sighting_dict(s, table, turn) for s in sorted(memory.values(), key=lambda s: s.element)],
    }
    return view, memory
