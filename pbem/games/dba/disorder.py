"""D17: disorganised elements break contact with each other.

«1/2 D : Вполовину дезорганизованы – половина элементов бригады должны разорвать контакт друг с другом.
D : Дезорганизованы – все элементы бригады должны разорвать контакт друг с другом.»

The text says that they part, not how far nor which way. Each disorganised element touching another element of its
brigade (within the table's contact distance) steps away — straight back its own depth and 0.2", as far ahead,
or sideways its own frontage and 0.2" to the left or to the right — to a place clear of every base (and
touching none of its brigade's), of closed ground and of the table's edge: which of those that are clear is a
decision of its side (``break contact``), the first by default. An element in contact
with the enemy stays where it is (it is fighting: breaking off is the melee's to decide), and so does one with no
such place; the report says so.

    pull_apart(table, say, decider)   # after the fire phase, where the D and 1/2 D results fall
"""

from __future__ import annotations

from shapely import affinity
from shapely.geometry import Point

from . import movement
from .elements import in_inches
from .lang import N_, term
from .lang import say as T  # a Text: read in each seat's language
from .table import CONTACT, Table

GAP = 2  # tenths beyond a base's own depth or frontage: clear of the contact distance (CONTACT)


def _touching_friends(table: Table, e) -> list[str]:
    return sorted(o.id for o in table.brigade_elements(e.brigade) if o.id != e.id and table.in_contact(e, o))


def _spots(e) -> list[tuple[str, int, int]]:
    """(way, dx, dy) in the element's own frame, in the order tried: back, ahead, left, right."""
    back, side = e.depth + GAP, e.frontage + GAP
    return [(N_("back"), 0, -back), (N_("ahead"), 0, back), (N_("left"), -side, 0), (N_("right"), side, 0)]


def clear(table: Table, e, moved) -> bool:
    """Whether ``moved`` (``e`` at a new place) is on the table, on open ground, on no base, touching no
    element of its brigade and no enemy."""
    shape = moved.shape
    if not shape.within(table.area):
        return False
    closed = movement.obstacles(table, moved)
    if not closed.is_empty and closed.intersection(shape).area > 0.5:
        return False
    for o in table.on_table():
        if o.id == e.id:
            continue
        near = shape.distance(o.shape)
        if near <= CONTACT and (o.brigade == e.brigade or o.side != e.side) or shape.intersection(o.shape).area > 0.5:
            return False
    return True


def pull_apart(table: Table, say, decider=None) -> list[str]:
    """Every disorganised element touching another of its brigade steps clear of it (D17); returns those moved.
    Which way, when more than one is clear, is a decision put to its side (``decider``; default the first)."""
    moved_ids = []
    for e in sorted((e for e in table.on_table() if e.disorganised and not e.fleeing), key=lambda e: e.id):
        friends = _touching_friends(table, e)
        if not friends:
            continue
        touching = ", ".join(friends)
        if table.engaged(e):
            say(T("%(element)s is disorganised but in contact with the enemy: it stays touching %(elements)s",
                  element=e.id, elements=touching), e.side)
            continue
        ways = {}
        for way, dx, dy in _spots(e):
            p = affinity.translate(affinity.rotate(Point(dx, dy), -e.facing, origin=(0, 0)), e.x, e.y)
            trial = e.moved_to(round(p.x), round(p.y))
            if clear(table, e, trial):
                ways[way] = (trial, abs(dx or dy))
        if not ways:
            say(T("%(element)s is disorganised but has no room to break contact with %(elements)s", element=e.id,
                  elements=touching), e.side)
            continue
        way = next(iter(ways))
        if decider is not None and len(ways) > 1:
            from pbem.core.decisions import Decision

            said = T("%(element)s is disorganised: which way does it break contact with %(elements)s?",
                     element=e.id, elements=touching)
            way = decider.decide(Decision(e.side, "break contact", str(said), tuple(ways), (way,), said=said,
                                          said_labels=tuple((w, term(w)) for w in ways)), given=None)[0]
        trial, gone = ways[way]
        e.x, e.y = trial.x, trial.y
        moved_ids.append(e.id)
        say(T("%(element)s is disorganised: it breaks contact with %(elements)s (%(inches)s\" %(way)s)",
              element=e.id, elements=touching, inches=in_inches(gone), way=term(way)), e.side)
    return moved_ids
