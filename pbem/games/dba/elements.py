"""Elements, brigades and commanders — «Состав армий» and «Боевые факторы отрядов».

    «Каждая армия на столе представляет одну-две (а может и больше) бригады. Каждая бригада состоит из
    определенного количества элементов, который грубо соответствуют пехотному батальону, кавалерийскому
    эскадрону или артиллерийской батарее.»

Lengths are integer tenths of an inch (the rule book measures in inches): ``inches(3) == 30``. An element
stands where the centre of its front edge is, faces a compass bearing in whole degrees (0 north, 90 east;
the table's y grows northward), and covers an oriented rectangle whose frontage and depth come from its
troop type and formation (:data:`FOOTPRINTS`, authored: the rule book gives no base sizes). Every shape is
``box`` turned and moved as ``shapely.affinity`` would, its arithmetic written out (:func:`placed`: the same
floats, without building arrays for four corners).
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from functools import lru_cache

import shapely
from shapely import affinity
from shapely.geometry import LineString, Point, Polygon

from pbem.lang import Text

TENTHS = 10  # tenths of an inch in an inch


def inches(value: float) -> int:
    """A length in inches as integer tenths (``inches(2.5) == 25``)."""
    return round(value * TENTHS)


def in_inches(tenths: float) -> int | float:
    """Tenths as a number of inches for a Text's value (``19`` → ``1.9``, ``30`` → ``3``): a float is written with
    the reader's decimal sign (1,9 in French; pbem.lang), English as ``f"{tenths / 10:g}"`` wrote it."""
    number = float(f"{tenths / 10:g}")
    return int(number) if number.is_integer() else number


def length_said(tenths: int) -> Text:
    """Tenths as a length for a Text's value, with its inch sign: ``3.5"`` (``3,5"`` in French)."""
    return Text('%(inches)s"', {"inches": in_inches(tenths)})


def as_inches(tenths: int) -> str:
    """Tenths written as inches for a report: ``35`` → ``3.5"``, ``30`` → ``3"``."""
    whole, part = divmod(abs(tenths), TENTHS)
    sign = "-" if tenths < 0 else ""
    return f'{sign}{whole}"' if part == 0 else f'{sign}{whole}.{part}"'


@dataclass(frozen=True)
class TroopType:
    """One row of «Боевые факторы отрядов»: melee factor(s), move in tenths, weapons."""

    key: str
    russian: str
    melee: int                 # the factor (infantry: 2 ranks; artillery and lancers: the first round)
    melee_later: int           # the factor in later rounds (artillery 0, lancers +2); = melee otherwise
    move: int                  # tenths: in line (infantry), or the one figure
    move_column: int           # tenths in column (infantry 5"), = move otherwise
    weapons: tuple[str, ...]   # keys of fire.WEAPONS this type may carry, the first the default
    arm: str                   # "infantry", "cavalry", "artillery" or "staff"
    light: bool = False        # light infantry / light cavalry (skirmish screens, passing through)


TROOPS: dict[str, TroopType] = {t.key: t for t in (
    TroopType("infantry", "Пехота", 2, 2, inches(3), inches(5), ("musket",), "infantry"),
    TroopType("light_infantry", "Легкая пехота", 1, 1, inches(5), inches(5), ("musket", "rifle"), "infantry",
              light=True),
    TroopType("heavy_artillery", "Тяжелая артиллерия", 4, 0, inches(3), inches(3), ("heavy_gun",), "artillery"),
    TroopType("light_artillery", "Легкая артиллерия", 3, 0, inches(6), inches(6), ("light_gun",), "artillery"),
    TroopType("light_cavalry", "Легкая кавалерия", 2, 2, inches(8), inches(8), (), "cavalry", light=True),
    TroopType("dragoons", "Драгуны", 3, 3, inches(6), inches(6), ("carbine",), "cavalry"),
    TroopType("cuirassiers", "Кирасиры", 4, 4, inches(6), inches(6), (), "cavalry"),
    TroopType("lancers", "Уланы (с пиками)", 4, 2, inches(8), inches(8), (), "cavalry"),
    TroopType("staff", "Штаб и прочее", 0, 0, inches(10), inches(10), (), "staff"),
)}

FORMATIONS = ("line", "column", "square", "skirmish", "limbered", "unlimbered", "mounted", "dismounted")

# (arm or troop key, formation) -> (frontage, depth) in tenths. Authored (the rule book gives no base sizes):
# DBA's 40 mm frontage (1.6"), depths 15 mm foot, 20 mm light foot, 30 mm horse, 40 mm guns; a column is
# half as wide and twice as deep, a square as wide as deep, a limbered battery trails its team.
FOOTPRINTS: dict[tuple[str, str], tuple[int, int]] = {
    ("infantry", "line"): (16, 6),
    ("infantry", "column"): (8, 12),
    ("infantry", "square"): (10, 10),
    ("light_infantry", "line"): (16, 8),
    ("light_infantry", "column"): (8, 16),
    ("light_infantry", "skirmish"): (16, 8),
    ("light_infantry", "square"): (10, 10),
    ("cavalry", "line"): (16, 12),
    ("cavalry", "column"): (8, 24),
    ("cavalry", "dismounted"): (16, 8),
    ("artillery", "unlimbered"): (16, 16),
    ("artillery", "limbered"): (8, 24),
    ("staff", "line"): (16, 16),
}

FORMATIONS_OF: dict[str, tuple[str, ...]] = {
    "infantry": ("line", "column", "square"),
    "light_infantry": ("line", "column", "skirmish", "square"),
    "cavalry": ("line", "column"),
    "dragoons": ("line", "column", "dismounted"),
    "artillery": ("unlimbered", "limbered"),
    "staff": ("line",),
}

QUALITIES = ("elite", "veteran", "trained", "green")
QUALITY_RANK = {"elite": 3, "veteran": 2, "trained": 1, "green": 0}


def formations_for(troop: str) -> tuple[str, ...]:
    """The formations a troop type may take."""
    if troop in FORMATIONS_OF:
        return FORMATIONS_OF[troop]
    return FORMATIONS_OF[TROOPS[troop].arm]


def footprint_size(troop: str, formation: str) -> tuple[int, int]:
    """(frontage, depth) in tenths of ``troop`` in ``formation``."""
    t = TROOPS[troop]
    if formation == "mounted":
        formation = "line"
    for key in ((troop, formation), (t.arm, formation)):
        if key in FOOTPRINTS:
            return FOOTPRINTS[key]
    raise ValueError(f"{t.russian} ({troop}) has no formation {formation!r}; expected one of "
                     f"{', '.join(formations_for(troop))}")


@dataclass
class Element:
    """An element on the table: a battalion, a squadron or a battery (the rule book's «элемент»).

    ``x``, ``y``: the centre of its front edge, tenths; ``facing``: compass degrees. ``moved`` is whether it
    moved this turn (artillery that moved may not fire next turn: «Артиллерия не может вести огонь, если она
    двигалась в предыдущий ход»), ``moved_last`` whether it moved the turn before.
    """

    id: str
    side: str
    brigade: str
    troop: str
    x: int
    y: int
    facing: int = 0
    formation: str = "line"
    ranks: int = 2                 # infantry: 2 or 3 ranks
    weapon: str | None = None      # a key of fire.WEAPONS; None: the troop type's default (or none)
    quality: str = "trained"
    disorganised: bool = False
    shaken: bool = False
    fleeing: bool = False
    moved: bool = False
    moved_last: bool = False
    rounds: int = 0                # rounds of melee fought in the present contact (0: none yet)
    pursuing: bool = False         # cavalry in pursuit («Кавалерия в преследовании», −2)
    name: str = ""

    @property
    def type(self) -> TroopType:
        return TROOPS[self.troop]

    @property
    def arm(self) -> str:
        return TROOPS[self.troop].arm

    @property
    def limbered(self) -> bool:
        return self.formation == "limbered"

    @property
    def frontage(self) -> int:
        return footprint_size(self.troop, self.formation)[0]

    @property
    def depth(self) -> int:
        return footprint_size(self.troop, self.formation)[1]

    @property
    def arms(self) -> str | None:
        """The weapon it fires with, or None (cavalry but dismounted dragoons, staff, limbered guns)."""
        if self.troop == "dragoons":
            return "carbine" if self.formation == "dismounted" else None
        if self.weapon is not None:
            return self.weapon
        if self.troop == "infantry":
            return "musket3" if self.ranks == 3 else "musket2"
        if self.troop == "light_infantry":
            return "musket2"
        return self.type.weapons[0] if self.type.weapons else None

    def _place(self, geom):
        """A shape drawn in the element's frame (front edge on y = 0, centred, facing +y) put on the table."""
        return affinity.translate(affinity.rotate(geom, -self.facing, origin=(0, 0)), self.x, self.y)

    @property
    def shape(self) -> Polygon:
        """The base as a polygon on the table (shapely geometries never change, so one is shared by every
        element standing the same way at the same spot)."""
        return _base(self.troop, self.formation, self.x, self.y, self.facing)

    def edge(self, which: str) -> LineString:
        """One side of the base: ``front``, ``rear``, ``left`` or ``right`` (as the element faces)."""
        return _edge(self.troop, self.formation, self.x, self.y, self.facing, which)

    @property
    def centre(self) -> Point:
        return self.shape.centroid

    @property
    def front(self) -> Point:
        return point_at(self.x, self.y)

    @property
    def reach(self) -> float:
        """The farthest any corner of the base lies from its front edge's centre (tenths): a bound that lets a
        geometric question about two bases far apart be answered without building them (Table.apart)."""
        return reach(self)

    def moved_to(self, x: int, y: int, facing: int | None = None) -> "Element":
        """The element as it would stand at (x, y), facing ``facing`` (kept when None): a copy, this one unchanged
        (as ``dataclasses.replace``, without calling ``__init__`` again)."""
        new = object.__new__(Element)
        new.__dict__.update(self.__dict__)
        new.x, new.y = x, y
        if facing is not None:
            new.facing = facing % 360
        return new


REACHES: dict[str, dict[str, float]] = {}  # troop -> formation -> reach


def reach(e: Element) -> float:
    """``e.reach``, read from a table of every troop type and formation met so far (the rules ask it of every
    pair of bases they look at)."""
    try:
        return REACHES[e.troop][e.formation]
    except KeyError:
        value = _reach(e.troop, e.formation)
        REACHES.setdefault(e.troop, {})[e.formation] = value
        return value


def _reach(troop: str, formation: str) -> float:
    w, d = footprint_size(troop, formation)
    return math.hypot(w / 2, d)


@lru_cache(maxsize=1 << 16)
def _base(troop: str, formation: str, x: int, y: int, facing: int) -> Polygon:
    """``translate(rotate(box(-w / 2, -d, w / 2, 0), -facing, origin=(0, 0)), x, y)`` (shapely.affinity), its
    corners computed as that computes them (:func:`placed`) without its arrays, made by ``shapely.polygons`` (the
    same polygon as ``Polygon(corners)``, without its checks of the argument)."""
    w, d = footprint_size(troop, formation)
    return shapely.polygons(placed(((w / 2, -d), (w / 2, 0), (-w / 2, 0), (-w / 2, -d), (w / 2, -d)), facing, x, y))


@lru_cache(maxsize=1 << 16)
def _edge(troop: str, formation: str, x: int, y: int, facing: int, which: str) -> LineString:
    w, d = footprint_size(troop, formation)
    local = {"front": ((-w / 2, 0), (w / 2, 0)), "rear": ((-w / 2, -d), (w / 2, -d)),
             "left": ((-w / 2, 0), (-w / 2, -d)), "right": ((w / 2, 0), (w / 2, -d))}[which]
    return shapely.linestrings(placed(local, facing, x, y))


@lru_cache(maxsize=1 << 16)
def point_at(x: int, y: int) -> Point:
    """``Point(x, y)``, one shared by every element and commander standing there (shapely geometries never change;
    building one costs more than a dozen of the rules' own steps)."""
    return Point(x, y)


@lru_cache(maxsize=1 << 10)
def _turn(facing: int) -> tuple[float, float]:
    """cos and sin of ``-facing`` degrees, as shapely.affinity.rotate computes them (tiny values made 0)."""
    angle = -facing * math.pi / 180.0
    cosp, sinp = math.cos(angle), math.sin(angle)
    return (0.0 if abs(cosp) < 2.5e-16 else cosp), (0.0 if abs(sinp) < 2.5e-16 else sinp)


def placed(points, facing: int, x: int, y: int) -> list[tuple[float, float]]:
    """``points`` (in an element's frame) turned by ``-facing`` degrees about the origin, then moved by (x, y):
    every coordinate the same float ``translate(rotate(geom, -facing, origin=(0, 0)), x, y)`` gives (its affine
    matrices written out, each product and sum in its order: rotate's offsets are 0.0, translate's matrix is
    1, 0, 0, 1): tests/test_dba_speed.py compares them."""
    cosp, sinp = _turn(facing)
    nsin = -sinp
    xo, yo = float(x), float(y)
    out = []
    for px, py in points:
        rx = cosp * px + nsin * py + 0.0
        ry = sinp * px + cosp * py + 0.0
        out.append((1.0 * rx + 0.0 * ry + xo, 0.0 * rx + 1.0 * ry + yo))
    return out


CHARACTERS = ("dashing", "ordinary", "cautious", "timid")
CHARACTER_RUSSIAN = {"dashing": "Лихой", "ordinary": "Обычный", "cautious": "Осторожный", "timid": "Робкий"}
LEVELS = ("army", "corps", "division", "brigade")


@dataclass
class Commander:
    """An officer: his character («Тип командующего») and where he stands (a point on the table)."""

    id: str
    name: str
    side: str
    character: str = "ordinary"
    level: str = "brigade"
    x: int = 0
    y: int = 0
    brigade: str | None = None     # the brigade he commands (None: a superior commander)
    superior: str | None = None    # the commander above him
    alive: bool = True
    present: bool = True           # False: he comes on with his brigade later (the scenario's ``arrives``)
    initiative_used: bool = False  # «Каждый командир имеет право только на один такой тест за игру»

    @property
    def point(self) -> Point:
        return point_at(self.x, self.y)


@dataclass
class Brigade:
    """A brigade: its elements (ids, in order of the order of battle) and its commander."""

    id: str
    name: str
    side: str
    commander: str | None
    elements: list[str] = field(default_factory=list)
    allied: bool = False           # «армию из союзников от разных стран»: -1 on each PIP die
    bef_start: int = 0             # the starting brigade effectiveness (computed at setup)
    bef_permanent: int = 0         # permanent losses so far
    bef_temporary: int = 0         # temporary losses (D results), recovered 1 a turn
    surrendered: bool = False
