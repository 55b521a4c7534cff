"""Melee — «Рукопашная схватка»: scores, modifiers, outcomes, support and cavalry pursuit.

    «Элементы, которые находятся в контакте "база к базе", выравнивают подставки. Каждый игрок бросает кубик
    d6, перечень модификаторов приведен ниже.»

One combat is two elements in contact front to front (or an attacker on a flank or rear). Each side's total is
its die + its troop factor («Боевые факторы отрядов», by round for artillery and lancers) + the modifiers
(:func:`score`). The lower total loses: below half the winner's, it is destroyed («Меньше, чем половина
вражеского броска … Все в нокауте»); otherwise the table by troop type says whether it is destroyed (KO) or
recoils 3" (D15). Equal totals: no result, the combat goes on next turn. A spent brigade's recoils become
flight. Cavalry that wins pursues (:func:`pursue`).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache

from shapely import affinity
from shapely.geometry import LineString, Point

from pbem.core.chance import Chance
from pbem.core.decisions import Decider, Decision

from . import effectiveness, officers
from .elements import QUALITY_RANK, Element, in_inches, inches
from .lang import Text, joined, term, terms
from .lang import say as T  # a Text: read in each seat's language
from .table import Table

RECOIL = inches(3)
PURSUIT = inches(4)


def factor(e: Element, table: Table, enemy: Element) -> tuple[int, str]:
    """The troop factor of ``e`` against ``enemy`` in this round, with its reason."""
    t = e.type
    if e.troop == "infantry":
        return (3, T("3 ranks")) if e.ranks == 3 else (2, T("2 ranks"))
    if e.arm == "artillery":
        first = e.rounds == 0
        can_fire = not e.limbered and not e.moved_last and table.contact_edge(enemy, e) == "front"
        if first and can_fire:
            return t.melee, T("close-range volley")
        return 0, T("guns (no volley)") if first else T("guns (later round)")
    if e.troop == "lancers":
        return (t.melee, T("lances, first round")) if e.rounds == 0 else (t.melee_later, T("lances, later round"))
    return t.melee, term(t.key.replace("_", " "))


def supports(table: Table, e: Element, enemy: Element) -> list[str]:
    """The friends that support ``e`` («Поддержка»): not themselves engaged, touching the enemy with at least a
    corner, or straight behind ``e`` in column (at most 3). None when ``e`` stands in or attacks into difficult
    going («не могут получить поддержки»)."""
    if table.terrain.difficult(e.shape) or table.terrain.difficult(enemy.shape):
        return []
    found = []
    for f in table.friends_of(e):
        if f.fleeing or f.disorganised or not table.in_contact(f, enemy):
            continue
        if any(table.in_contact(f, x) for x in table.enemies_of(f) if x.id != enemy.id):
            continue  # themselves engaged with another enemy
        found.append(f.id)
    # straight behind in column: a chain of friends, each touching the rear of the one before, same facing
    chain, lead = [], e
    while len(chain) < 3:
        nxt = [f for f in table.friends_of(e) if f.id not in chain and f.id not in found and f.facing == lead.facing
               and table.contact_edge(f, lead) == "rear" and f.brigade == e.brigade]
        if not nxt:
            break
        chain.append(nxt[0].id)
        lead = nxt[0]
    return found + chain


def flank_rear(table: Table, e: Element) -> list[str]:
    """The enemies touching ``e``'s flank or rear."""
    return [o.id for o in table.enemies_of(e) if table.contact_edge(o, e) in ("left", "right", "rear")]


@dataclass
class Score:
    element: str
    die: int = 0
    parts: list[tuple[int, str]] = field(default_factory=list)

    @property
    def total(self) -> int:
        return self.die + sum(v for v, _ in self.parts)

    def text(self) -> str:
        mods = " ".join(f"{v:+d} {why}" for v, why in self.parts if v)
        return f"{self.element} {self.die} {mods} = {self.total}".replace("  ", " ")

    def said(self) -> Text:
        """:meth:`text` read in each language."""
        parts = [self.element, self.die] + [joined(f"{v:+d} ", why) for v, why in self.parts if v] \
            + ["=", self.total]
        return joined(*parts, sep=" ")


def score(table: Table, e: Element, enemy: Element, attacker: bool) -> Score:
    """Every modifier of ``e`` against ``enemy`` (the die is added by :func:`fight`)."""
    s = Score(e.id)
    s.parts.append(factor(e, table, enemy))
    sup = supports(table, e, enemy)
    if sup:
        s.parts.append((len(sup), T("support (%(elements)s)", elements=", ".join(sup))))
    le, ln = table.terrain.level(e.centre), table.terrain.level(enemy.centre)
    if e.arm == "cavalry" and attacker and le > ln:
        s.parts.append((1, T("cavalry charging downhill")))
    if le > ln:
        s.parts.append((1, T("higher up the slope")))
    shaken = enemy.shaken
    if e.arm == "cavalry":
        if enemy.arm == "infantry" and enemy.formation in ("line", "column", "skirmish"):
            s.parts.append((2, T("cavalry against infantry in %(formation)s", formation=term(enemy.formation))))
        if enemy.arm == "artillery":
            s.parts.append((2, T("cavalry against artillery")))
        if enemy.arm == "infantry" and enemy.formation == "square" and not shaken:
            s.parts.append((-2, T("cavalry against a square")))
        if e.pursuing:
            s.parts.append((-2, T("cavalry in pursuit")))
    fr = flank_rear(table, e)
    if fr:
        s.parts.append((-len(fr), T("enemy on flank or rear (%(elements)s)", elements=", ".join(fr))))
    state = effectiveness.rating(table.brigades[e.brigade])
    if state == "tired":
        s.parts.append((-1, term("tired")))
    elif state in ("spent", "broken"):
        s.parts.append((-2, term("spent")))
    if table.terrain.in_fieldworks(enemy.shape) and not shaken:
        s.parts.append((-2, T("against field works")))
    if QUALITY_RANK[enemy.quality] > QUALITY_RANK[e.quality]:
        s.parts.append((-1, T("enemy better (%(enemy)s against %(own)s)", enemy=term(enemy.quality), own=term(e.quality))))
    return s


def knocked_out(loser: Element, winner: Element, table: Table) -> bool:
    """The KO table: whether the loser (more than half the winner's total) is destroyed rather than recoiling.
    «в легко/трудно проходимой местности» is read at the loser's base (D15)."""
    rough = table.terrain.difficult(loser.shape)
    if loser.arm == "artillery":
        return True
    if loser.troop == "infantry":
        return winner.troop == "cuirassiers" and not rough
    if loser.troop == "light_infantry":
        return winner.troop == "light_cavalry" and not rough
    if loser.troop == "cuirassiers":
        return rough
    if loser.troop in ("light_cavalry", "lancers", "dragoons"):
        return winner.troop == "cuirassiers" and rough
    return False


@dataclass
class Combat:
    attacker: Score
    defender: Score
    loser: str | None = None
    outcome: str = "none"        # none, recoil, flee, destroyed, held (square / field works), shaken
    moved: list[str] = field(default_factory=list)      # elements that recoiled or fled with the loser
    destroyed: list[str] = field(default_factory=list)
    pursuit: Text | str = ""
    commanders_lost: list[str] = field(default_factory=list)

    def line(self) -> str:
        text = f"melee: {self.attacker.text()} against {self.defender.text()}"
        if self.loser is None:
            return text + ": no result"
        text += f": {self.loser} {self.outcome}"
        if self.destroyed:
            text += f" (destroyed {', '.join(self.destroyed)})"
        if self.commanders_lost:
            text += f"; {', '.join(self.commanders_lost)} killed or taken with it"
        return text + (f"; {self.pursuit}" if self.pursuit else "")

    def said(self) -> Text:
        """:meth:`line` read in each language."""
        text = T("melee: %(attacker)s against %(defender)s", attacker=self.attacker.said(),
                 defender=self.defender.said())
        if self.loser is None:
            return joined(text, T(": no result"))
        return joined(text, T(": %(element)s %(outcome)s", element=self.loser, outcome=term(self.outcome)),
                      T(" (destroyed %(elements)s)", elements=", ".join(self.destroyed)) if self.destroyed else "",
                      T("; %(commanders)s killed or taken with it", commanders=terms(self.commanders_lost))
                      if self.commanders_lost else "",
                      T("; %(then)s", then=self.pursuit) if self.pursuit else "")


def column_behind(table: Table, e: Element) -> list[Element]:
    """The friends straight behind ``e`` in its column (same facing, rear to front)."""
    out, lead = [], e
    while True:
        nxt = [f for f in table.friends_of(e) if f not in out and f.facing == lead.facing and f.brigade == e.brigade
               and table.contact_edge(f, lead) == "rear"]
        if not nxt:
            return out
        out.append(nxt[0])
        lead = nxt[0]


def turn_about(e: Element) -> None:
    """Turn an element about in place (its front where its rear was), as a fleeing element does."""
    e.fleeing = True
    e.facing = (e.facing + 180) % 360
    e.x, e.y = step_back(e, -e.depth)


def step_back(e: Element, distance: int, away_from: Element | None = None) -> tuple[int, int]:
    """Where ``e``'s front would be after moving ``distance`` tenths straight back (facing kept)."""
    return _step_back(e.x, e.y, e.facing, distance)


@lru_cache(maxsize=1 << 16)
def _step_back(x: int, y: int, facing: int, distance: int) -> tuple[int, int]:
    p = affinity.translate(affinity.rotate(Point(0, -distance), -facing, origin=(0, 0)), x, y)
    return round(p.x), round(p.y)


def recoil(table: Table, e: Element, distance: int, enemy: Element | None = None) -> bool:
    """Move ``e`` straight back ``distance`` tenths (facing kept); see :func:`slide`."""
    return slide(table, e, -distance, enemy)


def slide(table: Table, e: Element, distance: int, enemy: Element | None = None) -> bool:
    """Move ``e`` straight ahead (``distance`` > 0) or back (< 0) without turning, through friends but not
    through friendly guns or field works («кроме артиллерийской батареи … или укрепления»), nor enemies (but
    ``enemy``, the one it breaks from), impassable ground or off the table. Returns False (and moves nothing)
    when it cannot go the whole way (a recoil or flight so blocked destroys it: D16)."""
    x, y = step_back(e, -distance)
    moved = e.moved_to(x, y)
    swept = LineString([(e.x, e.y), (x, y)]).buffer(e.frontage / 2, cap_style="flat").union(moved.shape)
    if not moved.shape.within(table.area):
        return False
    for f in table.terrain.closed():
        if f.shape.intersects(swept) and f.shape.intersection(swept).area > 0.5:
            return False
    for f in table.terrain.features:
        if f.kind == "fieldworks" and f.shape.intersects(moved.shape) and not f.shape.intersects(e.shape):
            return False
    for o in table.on_table():
        if o.id == e.id or (enemy is not None and o.id == enemy.id):
            continue
        if swept.intersection(o.shape).area > 0.5:
            if o.side != e.side or o.arm == "artillery":
                return False
    e.x, e.y = x, y
    return True


def fight(table: Table, attacker: Element, defender: Element, chance: Chance, decider: Decider | None = None) -> Combat:
    """One round of melee between two elements in contact; changes the table."""
    decider = decider or Decider()
    a = score(table, attacker, defender, attacker=True)
    d = score(table, defender, attacker, attacker=False)
    attacker.pursuing = defender.pursuing = False  # a pursuit lasts until the pursuer's next combat (pursue: again)
    a.die = chance.roll(f"melee, {attacker.id} against {defender.id}")
    d.die = chance.roll(f"melee, {defender.id} against {attacker.id}")
    c = Combat(a, d)
    attacker.rounds += 1
    defender.rounds += 1
    if a.total == d.total:
        return c
    win, lose = (attacker, defender) if a.total > d.total else (defender, attacker)
    wt, lt = max(a.total, d.total), min(a.total, d.total)
    c.loser = lose.id
    lose_b = table.brigades[lose.brigade]
    if 2 * lt < wt or knocked_out(lose, win, table):
        c.outcome = "destroyed"
        c.destroyed.append(lose.id)
        _destroy(table, lose, c)
    else:
        if lose.formation == "square" or table.terrain.in_fieldworks(lose.shape):
            said = T("%(element)s lost the melee in %(where)s: stay (shaken) or recoil 3\"", element=lose.id,
                     where=term("square") if lose.formation == "square" else term("field works"))
            stay = decider.decide(Decision(lose_b.side, "hold or recoil", str(said), ("stay", "recoil"), ("stay",),
                                           said=said), given=None)
            if stay == ("stay",):
                lose.shaken = True
                c.outcome = "held"
                return c
        flee = effectiveness.rating(lose_b) in ("spent", "broken")
        group = [lose] + column_behind(table, lose)
        c.outcome = "flee" if flee else "recoil"
        for g in group:
            if flee:
                turn_about(g)
                ok = slide(table, g, inches(6 if g.arm != "cavalry" else 9), win)
            else:
                ok = recoil(table, g, RECOIL, win)
            if ok:
                c.moved.append(g.id)
            else:
                c.destroyed.append(g.id)
                _destroy(table, g, c)
        if lose.id in c.destroyed:
            c.outcome = "destroyed"
    if win.arm == "cavalry" and win.id in table.elements:
        c.pursuit = pursue(table, win, lose, c)
    return c


def _destroy(table: Table, e: Element, c: "Combat") -> None:
    c.commanders_lost += officers.destroy(table, e.id)
    effectiveness.element_lost(table.brigades[e.brigade])


def pursue(table: Table, cav: Element, beaten: Element, c: Combat) -> str:
    """«Преследование»: cavalry that drove its enemy back follows it and stays in contact; cavalry that destroyed
    it advances 4" straight ahead and contacts whatever is in its way; either way it is in pursuit (−2)."""
    cav.pursuing = True
    if beaten.id in table.elements and beaten.id in c.moved:
        # follow: put the cavalry's front against the beaten element's nearest edge along its own facing
        gap = round(cav.shape.distance(beaten.shape))
        for go in (gap, gap * 3 // 4, gap // 2, gap // 4, 0):  # never onto another base on the way
            x, y = step_back(cav, -go)
            moved = cav.moved_to(x, y).shape
            if not any(o.id != cav.id and moved.intersection(o.shape).area > 0.5
                       for o in table.on_table()) and moved.within(table.area):
                break
        cav.x, cav.y = x, y
        if not table.in_contact(cav, beaten):
            return T("%(element)s pursues %(other)s %(inches)s\" but cannot reach it", element=cav.id, other=beaten.id,
                     inches=in_inches(go))
        return T("%(element)s pursues %(other)s and stays in contact", element=cav.id, other=beaten.id)
    # its enemy destroyed, the contact is over: whatever it runs into is a new combat contact, whose first round
    # is a first round again (lancers' +4, «в первый раунд боевого контакта»; DR9)
    cav.rounds = 0
    ahead = LineString([(cav.x, cav.y), step_back(cav, -PURSUIT)])
    lane = ahead.buffer(cav.frontage / 2, cap_style="flat")
    hit = sorted((o for o in table.on_table() if o.id != cav.id and lane.intersects(o.shape)),
                 key=lambda o: (cav.front.distance(o.shape), o.id))
    if hit:
        o = hit[0]
        go = max(0, round(min(PURSUIT, cav.edge("front").distance(o.shape))))
        cav.x, cav.y = step_back(cav, -go)
        return T("%(element)s pursues %(inches)s\" into %(other)s", element=cav.id, inches=in_inches(go), other=o.id)
    for go in (PURSUIT, PURSUIT * 3 // 4, PURSUIT // 2, PURSUIT // 4, 0):  # the table's edge stops it
        if cav.moved_to(*step_back(cav, -go)).shape.within(table.area):
            break
    cav.x, cav.y = step_back(cav, -go)
    return T("%(element)s pursues %(inches)s\"", element=cav.id, inches=in_inches(go))


def pairs(table: Table, first_side: str) -> list[tuple[Element, Element, str]]:
    """The combats the melee phase fights, in order, as (element, enemy, kind): every pair of enemies in contact
    front to front («Элементы, которые находятся в контакте "база к базе", выравнивают подставки»), then every
    element whose front touches an enemy's flank or rear, against that enemy («в контакте с фланга или с
    тыла»), then any other pair in contact (side to side, corner to corner: «выравнивают подставки», they align
    and fight). ``first_side``'s elements lead, in id order. A pair is listed once; whether both are still free to
    fight is for :func:`phase` to see as it goes."""
    front, flank, other = [], [], []
    mine = sorted(table.on_table(first_side), key=lambda e: e.id)
    theirs = sorted((e for e in table.on_table() if e.side != first_side), key=lambda e: e.id)
    for e in mine:
        if not table.engaged(e):  # in contact with no enemy: no pair (spares the pairs' geometry below)
            continue
        for o in sorted(table.enemies_of(e), key=lambda o: o.id):
            if not table.in_contact(e, o):
                continue
            at_o, at_e = table.contact_edge(e, o), table.contact_edge(o, e)
            if at_o == "front" and at_e == "front":
                front.append((e, o, "front"))
            elif at_e == "front" and at_o in ("left", "right", "rear"):
                flank.append((e, o, "flank"))   # e's front against o's flank or rear: e attacks
            elif not (at_o == "front" and at_e in ("left", "right", "rear")):
                other.append((e, o, "front"))   # side to side, corner to corner: they align and fight
    for o in theirs:
        if not table.engaged(o):
            continue
        for e in sorted(table.enemies_of(o), key=lambda e: e.id):
            if table.in_contact(o, e) and table.contact_edge(o, e) in ("left", "right", "rear") \
                    and table.contact_edge(e, o) == "front":
                flank.append((o, e, "flank"))   # o's front against e's flank or rear: o attacks
    return front + flank + other


def phase(table: Table, first_side: str, attacks, chance: Chance, decider: Decider | None = None) -> list[Combat]:
    """«7. Рукопашная схватка»: every combat the text allows this turn (D34). Each element fights one combat in
    contact: front to front first; an element taken in flank or rear by an enemy fights that enemy if no other
    combat holds it (if one does, the enemy on its flank counts −1 against it: :func:`score`). Cavalry that
    destroys its enemy and runs 4" into another enemy fights it at once, in pursuit (−2, «войти в боевой контакт
    с любым элементом, который ей под копыта подвернется»), once a turn. ``attacks(element)`` says whether
    the element's brigade is ordered to ATTACK (the attacker of a pair, DT5; else ``first_side``'s element, and in
    a flank contact the one whose front touches)."""
    decider = decider or Decider()
    fought: set[str] = set()
    chased: set[str] = set()
    combats: list[Combat] = []
    queue = pairs(table, first_side)
    while queue:
        e, o, kind = queue.pop(0)
        if e.id in fought or o.id in fought or e.id not in table.elements or o.id not in table.elements \
                or not table.in_contact(e, o):
            continue
        if kind == "front" and attacks(o) and not attacks(e):
            e, o = o, e
        c = fight(table, e, o, chance, decider)
        combats.append(c)
        fought |= {e.id, o.id}
        cav = e if c.loser == o.id else o if c.loser == e.id else None
        if cav is not None and cav.id in table.elements and cav.arm == "cavalry" and cav.id not in chased \
                and c.outcome == "destroyed":
            hit = [x for x in table.enemies_of(cav) if table.in_contact(cav, x)]
            if hit:
                x = min(hit, key=lambda x: (cav.front.distance(x.shape), x.id))
                chased.add(cav.id)
                fought -= {cav.id, x.id}
                queue.insert(0, (cav, x, "pursuit"))
    return combats
