"""Officers — «Офицеры и командный радиус».

    «Если вражеский отряд входит в контакт с командующим, тот может отойти на расстояние до 6". Если после
    этого в тот же игровой тур последует ещё одна аналогичная атака, командующий считается убитым или
    плененным. Командующий считается в безопасности, если он находится в контакте с дружественным элементом,
    пока тот не будет уничтожен, в этом случае погибшим считается и командующий в том числе.»

A commander is a point on the table (elements.Commander); «в контакте» is within :data:`TOUCH`.
"""

from __future__ import annotations

from dataclasses import dataclass

from shapely.geometry import LineString, Point

from . import effectiveness
from .elements import Commander, inches
from .lang import N_, term
from .lang import say as T  # a Text: read in each seat's language
from .table import Table

EVADE = inches(6)
TOUCH = 1   # tenths
REACH = 40  # tenths: no base reaches farther than this from its reference point (the largest is 2.4" deep)


def sheltered_by(table: Table, c: Commander) -> str | None:
    """The friendly element he touches (which shelters him), or None."""
    for e in table.on_table(c.side):
        if _near(c, e) and c.point.distance(e.shape) <= TOUCH:
            return e.id
    return None


def contacted(table: Table, c: Commander) -> list[str]:
    """The enemy elements touching him."""
    return [e.id for e in table.on_table() if e.side != c.side and _near(c, e) and c.point.distance(e.shape) <= TOUCH]


def _near(c: Commander, e) -> bool:
    """Whether ``e``'s base may touch ``c`` at all (its reference point within the largest base's reach)."""
    return abs(e.x - c.x) <= REACH and abs(e.y - c.y) <= REACH


@dataclass
class Contact:
    commander: str
    outcome: str         # "sheltered", "evaded", "taken"
    x: int = 0
    y: int = 0


def enemy_contact(table: Table, c: Commander, evaded_this_turn: bool, towards: Point | None = None) -> Contact:
    """An enemy element reaches a commander: sheltered by a friend he touches, else he rides off up to 6"
    (towards ``towards``, by default straight away from the nearest enemy touching him), and a second contact in
    the same turn takes him."""
    if sheltered_by(table, c):
        return Contact(c.id, "sheltered", c.x, c.y)
    if evaded_this_turn:
        kill(table, c)
        return Contact(c.id, "taken")
    if towards is None:
        enemy = min((table.elements[i] for i in contacted(table, c)), key=lambda e: (c.point.distance(e.shape), e.id),
                    default=None)
        if enemy is None:
            return Contact(c.id, "sheltered", c.x, c.y)
        away = enemy.shape.centroid
        dx, dy = c.x - away.x, c.y - away.y
        n = max((dx * dx + dy * dy) ** 0.5, 1e-9)
        towards = Point(c.x + dx / n * EVADE, c.y + dy / n * EVADE)
    line = LineString([c.point, towards])
    end = line.interpolate(min(EVADE, line.length))
    end = Point(min(max(end.x, 0), table.width), min(max(end.y, 0), table.depth))
    c.x, c.y = round(end.x), round(end.y)
    return Contact(c.id, "evaded", c.x, c.y)


WAYS = (N_("away from the enemy"), N_("towards his troops"), N_("north"), N_("east"), N_("south"), N_("west"))
COMPASS = {"north": (0, 1), "east": (1, 0), "south": (0, -1), "west": (-1, 0)}


def evasion_ways(table: Table, c: Commander) -> dict[str, Point | None]:
    """Where a commander reached by the enemy may ride (D33: «может отойти на расстояние до 6"»): each way the
    point 6" off it aims at; "away from the enemy" (None: straight from the nearest enemy touching him, the
    default), "towards his troops" (the nearest element he commands, when there is one), or a point of the
    compass."""
    ways: dict[str, Point | None] = {"away from the enemy": None}
    brigades = set(troops_under(table, c)) | {b.id for b in table.brigades.values() if b.commander == c.id}
    friends = [e for e in table.on_table(c.side) if e.brigade in brigades and not e.fleeing]
    if friends:
        near = min(friends, key=lambda e: (c.point.distance(e.shape), e.id))
        ways["towards his troops"] = near.shape.exterior.interpolate(near.shape.exterior.project(c.point))
    for name, (dx, dy) in COMPASS.items():
        ways[name] = Point(c.x + dx * EVADE, c.y + dy * EVADE)
    return ways


def evade(table: Table, c: Commander, decider, evaded_this_turn: bool) -> Contact:
    """An enemy element reaches ``c`` (:func:`enemy_contact`); when he may ride off, which way is a decision put to
    his side (default: straight away from the enemy), recorded and open to the moderator."""
    if sheltered_by(table, c) or evaded_this_turn or not contacted(table, c):
        return enemy_contact(table, c, evaded_this_turn)
    from pbem.core.decisions import Decision

    ways = evasion_ways(table, c)
    said = T("%(commander)s, reached by the enemy, rides off up to 6\" which way?", commander=term(c.name))
    pick = decider.decide(Decision(c.side, "evade", str(said), tuple(ways), (WAYS[0],), said=said,
                                   said_labels=tuple((w, term(w)) for w in ways)), given=None)[0]
    return enemy_contact(table, c, False, ways.get(pick))


def shelter_lost(table: Table, element_id: str, was_at) -> list[str]:
    """The commanders who die with a destroyed element they touched (``was_at``: its base before removal)."""
    dead = []
    for c in table.commanders.values():
        if c.alive and c.point.distance(was_at) <= TOUCH and not sheltered_by(table, c):
            kill(table, c)
            dead.append(c.id)
    return dead


def destroy(table: Table, element_id: str) -> list[str]:
    """Take a destroyed element off the table; the commanders it sheltered die with it («в этом случае погибшим
    считается и командующий»). Returns their ids."""
    e = table.elements[element_id]
    was_at = e.shape
    table.remove(element_id)
    return shelter_lost(table, element_id, was_at)


def kill(table: Table, c: Commander) -> None:
    """A commander killed or taken: −2 permanent on his brigade (D14)."""
    c.alive = False
    if c.brigade and c.brigade in table.brigades:
        effectiveness.commander_lost(table.brigades[c.brigade])


STAFF_MOVE = inches(10)  # «Штаб и прочее … 10"»: a commander's move in a turn


def post(table: Table, elements) -> Point | None:
    """Where an officer stands with troops (DT6): the middle of the rear edge of the element nearest their
    centre (touching it, so sheltered by it). None without troops."""
    els = [e for e in elements if not e.fleeing]
    if not els:
        return None
    cx, cy = sum(e.x for e in els) / len(els), sum(e.y for e in els) / len(els)
    e = min(els, key=lambda e: ((e.x - cx) ** 2 + (e.y - cy) ** 2, e.id))
    return e.edge("rear").interpolate(0.5, normalized=True)


def ride(table: Table, c: Commander, to: Point, reach: int = STAFF_MOVE) -> int:
    """Move ``c`` straight towards ``to``, at most ``reach`` tenths (a staff move), kept on the table. Returns the
    distance ridden, in tenths."""
    line = LineString([c.point, to])
    end = line.interpolate(min(reach, line.length))
    x = round(min(max(end.x, 0), table.width))
    y = round(min(max(end.y, 0), table.depth))
    gone = round(Point(x, y).distance(c.point))
    c.x, c.y = x, y
    return gone


def troops_under(table: Table, c: Commander) -> list[str]:
    """The brigades whose chain of command reaches ``c`` (their commanders' superiors, up the levels)."""
    out = []
    for b in sorted(table.brigades.values(), key=lambda b: b.id):
        up = table.commanders.get(b.commander) if b.commander else None
        seen: set[str] = set()
        while up is not None and up.superior and up.superior not in seen:
            seen.add(up.superior)
            if up.superior == c.id:
                out.append(b.id)
                break
            up = table.commanders.get(up.superior)
    return out


def follow(table: Table, c: Commander, reach: int = STAFF_MOVE) -> int:
    """A commander keeps with his troops (DT6): a brigade's commander with his brigade, a superior with the
    brigades under him, each riding at most a staff move a turn towards his post (:func:`post`). Returns the
    distance ridden (0: he stays)."""
    if not c.alive or not c.present:
        return 0
    brigades = [c.brigade] if c.brigade else troops_under(table, c)
    where = post(table, [e for bid in brigades for e in table.brigade_elements(bid)])
    if where is None or where.distance(c.point) < 1:
        return 0
    return ride(table, c, where, reach)
