"""Fire — «Стрельба»: the value table by weapon and range, the result table, its modifiers, its results.

    «Элементы могут стрелять по любой цели внутри зоны, ограниченной 45° во фронтальном направлении.
    Стрельба указывается для бригады. Игрок указывает вражескую бригаду и объявляет, какие из его элементов
    будут стрелять по этой бригаде. Учтите, что отряды различных типов во вражеской бригаде (цели) поражаются
    как разные бригады …»

A volley is a brigade's chosen elements firing at one *target group*: the elements of one arm (infantry,
cavalry, artillery) of one enemy brigade (:func:`target_groups`). Each shooter adds the value of its weapon at
the range to the nearest target element it can hit (in its zone of fire and sight), doubled against limbered
guns and infantry in square or column; the sum falls by 25% when its brigade is tired, 50% when spent (rounded
down, D9). The die is read in the value's row of the result table (D10); −1 if the whole group is in cover,
−1 against skirmishers or dismounted cavalry; a modified die below 1 reads as 1.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from shapely.ops import unary_union

from pbem.core.chance import Chance
from pbem.core.decisions import Decider, Decision

from . import effectiveness, officers
from .elements import Element, as_inches, inches
from .lang import say as T  # a Text: read in each seat's language
from .table import Table


@dataclass(frozen=True)
class Weapon:
    key: str
    russian: str
    reach: int                       # tenths: the longest range
    bands: tuple[tuple[int, int], ...]   # (up to tenths, value), nearest first


WEAPONS: dict[str, Weapon] = {w.key: w for w in (
    Weapon("heavy_gun", "Тяжелая артиллерия", inches(20),
           ((inches(5), 8), (inches(10), 6), (inches(15), 4), (inches(20), 2))),
    Weapon("light_gun", "Легкая артиллерия", inches(15), ((inches(5), 6), (inches(10), 4), (inches(15), 2))),
    Weapon("musket3", "Мушкеты (3 шеренги)", inches(5), ((inches(5), 1),)),
    Weapon("musket2", "Мушкеты (2 шеренги)", inches(5), ((inches(5), 2),)),
    Weapon("rifle", "Ружья (штуцера)", inches(6), ((inches(5), 3), (inches(6), 2))),
    Weapon("carbine", "Карабины", inches(3), ((inches(3), 1),)),
)}
# the element's musket by ranks: 3 ranks → musket3, 2 → musket2 (elements.Element.arms)
WEAPONS["musket"] = WEAPONS["musket2"]

RESULTS = ("NE", "1/2 D", "D", "D, -1", "D, -2")

# «Результат схватки»: value rows (low, high), and for each result the dice that give it
_ROWS: tuple[tuple[int, int, tuple[tuple[int, ...], ...]], ...] = (
    (1, 1, ((1, 2, 3, 4, 5), (6,), (), (), ())),
    (2, 2, ((1, 2, 3, 4), (5,), (6,), (), ())),
    (3, 3, ((1, 2, 3), (4,), (5,), (6,), ())),
    (4, 4, ((1, 2), (3, 4), (5,), (6,), ())),
    (5, 6, ((1,), (2, 3), (4, 5), (6,), ())),
    (7, 8, ((1,), (2, 3), (4,), (5, 6), ())),
    (9, 10, ((1,), (2,), (3, 4), (5, 6), ())),
    (11, 15, ((1,), (2,), (3,), (4, 5), (6,))),
    (16, 20, ((), (1,), (2, 3), (4, 5), (6,))),
    (21, 25, ((), (1,), (2,), (3, 4), (5, 6))),
    (26, 30, ((), (1,), (2,), (3,), (4, 5, 6))),
    (31, 35, ((), (), (1,), (2,), (3, 4, 5, 6))),
    (36, 40, ((), (), (), (1,), (2, 3, 4, 5, 6))),
    (41, 10 ** 6, ((), (), (), (), (1, 2, 3, 4, 5, 6))),
)


def weapon_value(weapon: str, distance: float) -> int:
    """The value of ``weapon`` at ``distance`` tenths (0 beyond its reach). A range on a band's edge belongs to
    the nearer band (5" exactly is 0-5")."""
    for upto, value in WEAPONS[weapon].bands:
        if distance <= upto:
            return value
    return 0


def result(value: int, die: int) -> str:
    """The result for a volley of ``value`` and a (modified) die; a die below 1 reads as 1, above 6 as 6."""
    if value <= 0:
        return "NE"
    die = min(max(die, 1), 6)
    for low, high, cells in _ROWS:
        if low <= value <= high:
            for name, dice in zip(RESULTS, cells):
                if die in dice:
                    return name
    raise AssertionError(f"no result for value {value}, die {die}")


def target_groups(table: Table, brigade: str) -> dict[str, list[Element]]:
    """An enemy brigade's elements split by arm: each is fired at as a brigade of its own."""
    groups: dict[str, list[Element]] = {}
    for e in table.brigade_elements(brigade):
        groups.setdefault(e.arm if e.arm != "staff" else "infantry", []).append(e)
    return groups


def engaged(table: Table, e: Element) -> bool:
    """Whether ``e`` is in contact with an enemy (in melee: not fired at, does not fire)."""
    return table.engaged(e)


def why_not_fire(table: Table, e: Element) -> str | None:
    """Why ``e`` may not fire now, or None."""
    if e.arms is None:
        return f"{e.id} has no fire weapon" + (" (dragoons fire only dismounted)" if e.troop == "dragoons" else "")
    if e.fleeing:
        return f"{e.id} is fleeing"
    if e.arm == "artillery" and e.limbered:
        return f"{e.id} is limbered"
    if e.arm == "artillery" and e.moved_last:
        return f"{e.id} moved in the previous turn («Артиллерия не может вести огонь, если она двигалась в предыдущий ход»)"
    if engaged(table, e):
        return f"{e.id} is in melee"
    return None


@dataclass
class Shot:
    shooter: str
    target: str | None
    range: float
    value: int
    doubled: bool = False
    why_not: str = ""


def doubled_against(target: Element) -> bool:
    """«по артиллерии в походном состоянии (на передках) или по пехоте в каре или в колонне»"""
    if target.arm == "artillery":
        return target.limbered
    return target.arm == "infantry" and target.formation in ("square", "column")


def shot(table: Table, shooter: Element, group: list[Element], spotting: int | None = None) -> Shot:
    """What one shooter adds against a target group: the nearest target it may hit (in its zone of fire,
    within reach, seen, not in melee) and its value there."""
    why = why_not_fire(table, shooter)
    if why:
        return Shot(shooter.id, None, 0, 0, why_not=why)
    weapon = WEAPONS[shooter.arms]
    best = None
    for t in group:
        dx, dy, far = shooter.x - t.x, shooter.y - t.y, weapon.reach + t.reach + 1
        if dx * dx + dy * dy > far * far or shooter.front.distance(t.shape) > weapon.reach:
            continue  # out of reach whatever the zone (surely, from where the two stand): spares the geometry below
        if engaged(table, t):
            continue
        if not table.in_arc(shooter, t, weapon.reach):
            continue
        r = table.fire_range(shooter, t)
        if r > weapon.reach:
            continue
        if not table.sees(shooter, t, spotting if spotting is not None else 10 ** 6):
            continue
        if best is None or (r, t.id) < (best[0], best[1].id):
            best = (r, t)
    if best is None:
        return Shot(shooter.id, None, 0, 0, why_not=f"{shooter.id} has no target of the group in its zone of fire "
                                                       f"within {as_inches(weapon.reach)} and sight")
    r, t = best
    value = weapon_value(weapon.key, r)
    d = doubled_against(t)
    return Shot(shooter.id, t.id, r, value * 2 if d else value, d)


@dataclass
class Volley:
    """A volley and its outcome, as the report tells it."""

    brigade: str
    target_brigade: str
    arm: str
    shots: list[Shot]
    base: int = 0           # the sum before the brigade's state
    value: int = 0          # after it
    die: int = 0
    modifiers: list[str] = field(default_factory=list)
    modified: int = 0
    result: str = "NE"
    disorganised: list[str] = field(default_factory=list)
    shaken: list[str] = field(default_factory=list)
    destroyed: list[str] = field(default_factory=list)
    must_retreat: list[str] = field(default_factory=list)
    flee: bool = False      # the group is spent: it flees 6" instead of retreating 3"
    commanders_lost: list[str] = field(default_factory=list)   # sheltered by an element destroyed
    ignored: list[str] = field(default_factory=list)   # out of the enemy's fire and reach: not disorganised (DR7)

    def line(self) -> str:
        who = ", ".join(f"{s.shooter} {s.value}{' (doubled)' if s.doubled else ''}" for s in self.shots if s.value)
        mods = f" {' '.join(self.modifiers)}" if self.modifiers else ""
        text = (f"{self.brigade} fires at {self.target_brigade} ({self.arm}): value {self.value}"
                f"{f' (of {self.base})' if self.base != self.value else ''} [{who or 'no shot'}], "
                f"die {self.die}{mods} → {self.result}")
        if self.destroyed:
            text += f"; destroyed {', '.join(self.destroyed)}"
        if self.disorganised:
            text += f"; disorganised {', '.join(self.disorganised)}"
        if self.shaken:
            text += f"; shaken {', '.join(self.shaken)}"
        if self.commanders_lost:
            text += f"; {', '.join(self.commanders_lost)} killed or taken with it"
        return text


def volley(table: Table, shooters: list[Element], target_brigade: str, arm: str, chance: Chance,
           decider: Decider | None = None, spotting: int | None = None) -> Volley:
    """Resolve one volley: shooters (of one brigade) at the ``arm`` group of ``target_brigade``; changes the
    table (disorganised, shaken, destroyed elements, the target brigade's BEF)."""
    decider = decider or Decider()
    if not shooters or len({s.brigade for s in shooters}) != 1:
        raise ValueError("a volley is fired by elements of one brigade («Стрельба указывается для бригады»)")
    group = target_groups(table, target_brigade).get(arm, [])
    own = table.brigades[shooters[0].brigade]
    shots = [shot(table, s, group, spotting) for s in shooters]
    v = Volley(own.id, target_brigade, arm, shots)
    v.base = sum(s.value for s in shots)
    state = effectiveness.rating(own)
    v.value = v.base * 3 // 4 if state == "tired" else v.base // 2 if state == "spent" else v.base
    if state == "broken":  # «бригада сдается и все её элементы бегут»: a brigade at 0 fires no more (DR5)
        v.value = 0
    if v.value <= 0:
        v.result = "NE"
        return v
    v.die = chance.roll(f"fire, {own.id} at {target_brigade} ({arm})")
    hit = [t for t in group if not engaged(table, t)]
    if hit and table.terrain.cover(_union(hit)):
        v.modifiers.append("-1 cover")
    if hit and all(t.formation in ("skirmish", "dismounted") for t in hit):
        v.modifiers.append("-1 skirmishers" if hit[0].formation == "skirmish" else "-1 dismounted cavalry")
    v.modified = v.die - len(v.modifiers)
    v.result = result(v.value, v.modified)
    apply_result(table, v, hit, decider)
    return v


def _union(elements: list[Element]):
    return unary_union([e.shape for e in elements])


def _nearest_first(table: Table, group: list[Element], shots: list[Shot]) -> list[Element]:
    """The group ordered by distance to the shooters that hit it (the default choice), then id."""
    shooters = [table.elements[s.shooter] for s in shots if s.value and s.shooter in table.elements]
    def key(t):
        return (min((t.shape.distance(s.shape) for s in shooters), default=0), t.id)
    return sorted(group, key=key)


def out_of_harm(table: Table, t: Element) -> bool:
    """«Элементы, по которым не может вестись вражеский огонь И которые не находятся (и не могут) в контакте с
    противником, игнорируют дезорганизованность» (DR7): no enemy element may fire at ``t`` from where it stands
    (its weapon, zone and reach), none touches it, and none stands within its own longest move of it."""
    if table.engaged(t):
        return False
    for o in table.enemies_of(t):
        if o.fleeing:
            continue
        if o.arms is not None and shot(table, o, [t]).value > 0:
            return False
        if Table.distance(o, t) <= max(o.type.move, o.type.move_column):
            return False
    return True


def apply_result(table: Table, v: Volley, group: list[Element], decider: Decider) -> None:
    """Carry out a fire result on the group fired at («Результаты»)."""
    if v.result == "NE" or not group:
        return
    target_b = table.brigades[v.target_brigade]
    order = _nearest_first(table, group, v.shots)
    kills = {"D, -1": 1, "D, -2": 2}.get(v.result, 0)
    if kills:
        options = tuple(t.id for t in order)
        n = min(kills, len(options))
        said = T("%(result)s on %(brigade)s: which %(num)s element(s) are destroyed (the firing player chooses)",
                 result=v.result, brigade=v.target_brigade, num=n)
        chosen = decider.decide(Decision(table.brigades[v.brigade].side, "fire losses", str(said), options,
                                         options[:n], min=n, max=n, said=said), given=None)
        for eid in chosen:
            v.destroyed.append(eid)
            v.commanders_lost += officers.destroy(table, eid)
        effectiveness.element_lost(target_b, len(chosen))
    left = [t for t in order if t.id not in v.destroyed]
    if v.result == "1/2 D":
        n = -(-len(left) // 2)  # half, rounded up (D10)
        options = tuple(t.id for t in left)
        said = T("1/2 D on %(brigade)s: which %(num)s element(s) are disorganised", brigade=v.target_brigade, num=n)
        hit = decider.decide(Decision(target_b.side, "disorganised", str(said), options, options[:n], min=n, max=n,
                                      said=said), given=None)
        struck = [t for t in left if t.id in hit]
    else:
        struck = left
        if v.result != "NE":
            effectiveness.disordered(target_b)  # D, D -1, D -2: one D result (D28)
    for t in struck:
        if out_of_harm(table, t):
            v.ignored.append(t.id)
            continue
        if t.formation == "square" or table.terrain.in_fieldworks(t.shape):
            t.shaken = True
            v.shaken.append(t.id)
        else:
            t.disorganised = True
            v.disorganised.append(t.id)
    all_out = [t for t in table.brigade_elements(v.target_brigade) if t.arm == v.arm]
    if all_out and all(t.disorganised for t in all_out):
        v.flee = effectiveness.rating(target_b) == "spent"
        v.must_retreat = [t.id for t in all_out]
