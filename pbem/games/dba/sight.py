"""What each commander sees (issue 12 §4; the rule book has no section on it: D24–D26).

An enemy element is seen by a side (or by one seat's troops, in the game with a seat per commander) when one of
its observers — its elements that are not fleeing, and its commanders — has a clear line of sight to it
within the scenario's spotting range (table.sees: woods and towns block beyond 1" in, hills block unless an end
is on them or higher). An enemy seen before and not now is remembered where it was last seen, with the turn.

:func:`seat_view` is what one seat may know of the table, as plain data: its own forces, the enemy it sees now and
the enemy it saw before (with the turn); the map (render.py) is drawn from it alone, so nothing a seat's troops
cannot see reaches it (the terrain is the scenario's, public):

    view, memory = seat_view(table, "blue", spotting, memory, turn, brigades={"blue-1"}, commanders={"blue-1"})
"""

from __future__ import annotations

from dataclasses import dataclass

from . import effectiveness
from .elements import Commander, Element
from .table import Table


@dataclass(frozen=True)
class Sighting:
    """An enemy element as last seen: where, how, and on which turn."""

    element: str
    brigade: str
    troop: str
    formation: str
    x: int
    y: int
    facing: int
    turn: int

    def to_dict(self) -> dict:
        return dict(self.__dict__)


def observers(table: Table, side: str, brigades: set[str] | None = None,
              commanders: set[str] | None = None) -> list[Element | Commander]:
    """Who looks for ``side``: its elements (not fleeing) and living commanders; with ``brigades``, only those
    brigades' elements and their commanders, plus the ``commanders`` named (a seat's own troops and himself)."""
    out: list[Element | Commander] = [e for e in table.on_table(side) if not e.fleeing
                                      and (brigades is None or e.brigade in brigades)]
    for c in table.commanders.values():
        if c.side != side or not c.alive or not c.present:
            continue
        if brigades is None and commanders is None or c.id in (commanders or ()) or c.brigade in (brigades or ()):
            out.append(c)
    return out


def seen(table: Table, side: str, spotting: int, brigades: set[str] | None = None,
         commanders: set[str] | None = None) -> set[str]:
    """The ids of the enemy elements ``side`` (or those brigades and commanders of it) sees now."""
    looking = observers(table, side, brigades, commanders)
    enemies = [t for t in table.on_table() if t.side != side]
    return {t.id for t, seen in zip(enemies, table.seen_by(looking, enemies, spotting)) if seen}


def sees_friend(table: Table, e: Element, spotting: int, brigades: set[str], commanders: set[str]) -> bool:
    """Whether a friendly element ``e`` is in sight of those brigades' elements (not fleeing) or those commanders,
    within ``spotting`` (a kriegsspiel seat's own eyes looking at his other troops, DS7)."""
    looking = [o for o in observers(table, e.side, brigades, commanders) if getattr(o, "id", None) != e.id]
    return table.sees_any(looking, e, spotting)


def update(memory: dict[str, Sighting], table: Table, side: str, spotting: int, turn: int,
           brigades: set[str] | None = None, commanders: set[str] | None = None) -> dict[str, Sighting]:
    """The side's sightings after looking on ``turn``: those seen now at their place, the others as last seen
    (an enemy destroyed unseen stays remembered: the side does not know)."""
    out = dict(memory)
    for eid in seen(table, side, spotting, brigades, commanders):
        e = table.elements[eid]
        out[eid] = Sighting(eid, e.brigade, e.troop, e.formation, e.x, e.y, e.facing, turn)
    return out


def last_known(memory: dict[str, Sighting], turn: int) -> list[Sighting]:
    """The enemies not seen this turn, as last seen."""
    return sorted((s for s in memory.values() if s.turn < turn), key=lambda s: (s.turn, s.element))


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
    leaders = [c for c in table.commanders.values() if c.side == side and c.alive and c.present
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
