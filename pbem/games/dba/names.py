"""What an order may name on the table: places, grid squares, brigades, commanders, elements.

The rule book's order words name «Ориентир на местности» (LOCATION) and «Вражеское подразделение» (ENEMY
UNIT); this module is the one place that says what those names are. The order grammar (orders.py, parse.py)
codes against :class:`Names` and nothing else of the table:

    names = Names.of(table)              # or Names(places=..., grid=..., brigades=..., ...) in a test
    names.location("Quatre Bras")        # -> Location(name="Quatre Bras", kind="place", geometry, centre)
    names.location("D4")                 # -> Location(name="D4", kind="square", ...): a grid square
    names.brigade("Bijlandt")            # -> Brigade (by id or by name, any case)
    names.commander("Ney")               # -> Commander
    names.brigade_of("Perponcher")       # -> the brigade he commands, or None
    names.element("2NA-7")               # -> Element
    names.location("Hougomont")          # NameError: no place 'Hougomont'; did you mean Hougoumont?

Every lookup ignores case and runs of spaces, hyphens and underscores (``la haye sainte`` finds
``La-Haye-Sainte``); a place may have aliases (the scenario's ``aliases``, for example its Russian or French
name). A name that is both a place and a grid reference is the place. A failed lookup raises
:class:`UnknownName` (a ``ValueError`` whose message names the kind, the word and the nearest known names);
``find_*`` return None instead.

The reference grid: columns lettered A, B, … from the west edge, rows numbered 1, 2, … from the north edge,
each square ``grid.size`` tenths (default 6"). ``D4`` is the fourth column, fourth row; its centre is where a
``MOVE TO D4`` goes. Points are shapely geometry in tenths of an inch, x east, y north, (0, 0) the south-west
corner of the table. The API here is stable: it is what the order grammar codes against.
"""

from __future__ import annotations

import difflib
import re
from dataclasses import dataclass, field
from functools import lru_cache

from shapely.geometry import Point, box
from shapely.geometry.base import BaseGeometry

from .elements import Brigade, Commander, Element

LETTERS = "ABCDEFGHIJKLMNOPQRSTUVWXYZ"


class UnknownName(ValueError):
    """A name an order used that the table does not know."""

    def __init__(self, kind: str, word: str, known: list[str]):
        self.kind, self.word = kind, word
        near = difflib.get_close_matches(word, known, n=3, cutoff=0.6)
        hint = f"; did you mean {' or '.join(near)}?" if near else ""
        super().__init__(f"no {kind} {word!r}{hint}")


def native(name: str) -> str:
    """The scenario's (English) name a name spelt in another language stands for (the dba catalog's spellings,
    accents optional: «Катр-Бра», «ferme des Quatre-Bras»), or the name itself."""
    from .lang import fold, native_names

    return native_names().get(fold(name), name)


@lru_cache(maxsize=1 << 12)
def key(name: str) -> str:
    """The form names are compared in: lower case, spaces, hyphens and underscores as one space (remembered: the
    table's names are folded again each time its names are looked at)."""
    return re.sub(r"[\s_\-]+", " ", name.strip().lower())


def centre_of(geom: BaseGeometry) -> Point:
    """Where an order to go to ``geom`` aims: a point itself, a line's midpoint, an area's centroid (or a
    point inside it when the centroid falls outside), rounded to whole tenths."""
    if geom.geom_type == "Point":
        c = geom
    elif geom.geom_type in ("LineString", "MultiLineString"):
        c = geom.interpolate(0.5, normalized=True)
    else:
        c = geom.centroid if geom.centroid.within(geom) else geom.representative_point()
    return Point(round(c.x), round(c.y))


@dataclass(frozen=True)
class Location:
    """A named point or area on the table: a place (``kind="place"``) or a grid square (``"square"``)."""

    name: str
    kind: str
    geometry: BaseGeometry
    centre: Point

    def __str__(self) -> str:
        return self.name


@dataclass(frozen=True)
class Grid:
    """The lettered reference grid over a table ``width`` × ``depth`` tenths, squares of ``size`` tenths."""

    width: int
    depth: int
    size: int = 60

    @property
    def columns(self) -> int:
        return -(-self.width // self.size)

    @property
    def rows(self) -> int:
        return -(-self.depth // self.size)

    def refs(self) -> list[str]:
        return [f"{LETTERS[c]}{r + 1}" for r in range(self.rows) for c in range(self.columns)]

    def square(self, ref: str) -> Location | None:
        """The square ``ref`` ("D4", any case), or None when it is not a square of this grid."""
        m = re.fullmatch(r"\s*([A-Za-z])\s*(\d{1,2})\s*", ref)
        if not m:
            return None
        col, row = LETTERS.index(m.group(1).upper()), int(m.group(2)) - 1
        if col >= self.columns or not 0 <= row < self.rows:
            return None
        x0, x1 = col * self.size, min((col + 1) * self.size, self.width)
        y1 = self.depth - row * self.size
        y0 = max(y1 - self.size, 0)
        shape = box(x0, y0, x1, y1)
        return Location(f"{LETTERS[col]}{row + 1}", "square", shape, Point((x0 + x1) // 2, (y0 + y1) // 2))

    def ref_at(self, x: float, y: float) -> str | None:
        """The square holding the point (x, y), or None off the table."""
        if not (0 <= x <= self.width and 0 <= y <= self.depth):
            return None
        col = min(int(x // self.size), self.columns - 1)
        row = min(int((self.depth - y) // self.size), self.rows - 1)
        return f"{LETTERS[col]}{row + 1}"


@dataclass
class Names:
    """The names of a table. ``places``: name -> shapely geometry (a Point or a Polygon); ``aliases``:
    another name -> the place's name; brigades, commanders and elements by id."""

    places: dict[str, BaseGeometry]
    grid: Grid
    brigades: dict[str, Brigade] = field(default_factory=dict)
    commanders: dict[str, Commander] = field(default_factory=dict)
    elements: dict[str, Element] = field(default_factory=dict)
    aliases: dict[str, str] = field(default_factory=dict)
    # the troop of every element the brigades were formed with, those gone too (a brigade's composition, by which
    # an order's formation is judged: its general need not know which are gone); empty: the elements above only
    troops: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, table) -> "Names":
        """The names of a :class:`~pbem.games.dba.table.Table` (its places, grid and forces, with the elements of
        brigades still to arrive: an order may be written to them before they come on)."""
        return cls(places=dict(table.places), grid=table.grid, brigades=table.brigades,
                   commanders=table.commanders, elements={**table.reserve, **table.elements},
                   aliases=dict(table.aliases))

    def __post_init__(self):
        self._places = {key(n): n for n in self.places}
        self._places.update({key(a): n for a, n in self.aliases.items()})

    def longest_place(self) -> int:
        """The length of the longest way a place can be written (its name, an alias, or another language's
        spelling of it): words running longer than this plus a preposition and a kind noun name no place."""
        from .lang import native_names

        names = set(self._places.values())
        spellings = [k for k in self._places] + [k for k, n in native_names().items() if n in names]
        return max(map(len, spellings), default=0)

    # -- places and squares -------------------------------------------------------------------------------
    def find_location(self, word: str) -> Location | None:
        name = self._places.get(key(word)) or self._places.get(key(native(word)))
        if name is not None:
            geom = self.places[name]
            return Location(name, "place", geom, centre_of(geom))
        return self.grid.square(word)

    def location(self, word: str) -> Location:
        """The place or grid square ``word`` names; :class:`UnknownName` otherwise."""
        found = self.find_location(word)
        if found is None:
            raise UnknownName("place or grid square", word, list(self.places) + list(self.aliases))
        return found

    def place_names(self) -> list[str]:
        return sorted(self.places)

    # -- forces -------------------------------------------------------------------------------------------
    def _find(self, table: dict, word: str):
        found = self._find_key(table, key(word))
        if found is None and native(word) != word:  # a name as another language spells it
            found = self._find_key(table, key(native(word)))
        return found

    @staticmethod
    def _find_key(table: dict, k: str):
        for thing in table.values():
            if key(thing.id) == k or key(getattr(thing, "name", "") or "") == k:
                return thing
        return None

    def find_brigade(self, word: str) -> Brigade | None:
        return self._find(self.brigades, word)

    def brigade(self, word: str) -> Brigade:
        """The brigade with this id or name."""
        found = self.find_brigade(word)
        if found is None:
            raise UnknownName("brigade", word, [b.id for b in self.brigades.values()]
                              + [b.name for b in self.brigades.values()])
        return found

    def find_commander(self, word: str) -> Commander | None:
        return self._find(self.commanders, word)

    def commander(self, word: str) -> Commander:
        """The commander with this id or name."""
        found = self.find_commander(word)
        if found is None:
            raise UnknownName("commander", word, [c.id for c in self.commanders.values()]
                              + [c.name for c in self.commanders.values()])
        return found

    def brigade_of(self, commander: str) -> Brigade | None:
        """The brigade a commander (id or name) commands, or None (a superior commander)."""
        c = self.commander(commander)
        return self.brigades.get(c.brigade) if c.brigade else None

    def commander_of(self, brigade: str) -> Commander | None:
        """The commander of a brigade (id or name)."""
        b = self.brigade(brigade)
        return self.commanders.get(b.commander) if b.commander else None

    def find_element(self, word: str) -> Element | None:
        return self._find(self.elements, word)

    def troop_of(self, element: str) -> str | None:
        """The troop type of an element of a brigade, standing or gone (None: unknown)."""
        e = self.elements.get(element)
        return e.troop if e is not None else self.troops.get(element)

    def element(self, word: str) -> Element:
        """The element with this id."""
        found = self.find_element(word)
        if found is None:
            raise UnknownName("element", word, list(self.elements))
        return found

    def side_brigades(self, side: str) -> list[Brigade]:
        return [b for b in self.brigades.values() if b.side == side]

    def subordinates(self, commander: str) -> list[Commander]:
        """The commanders directly under this one."""
        c = self.commander(commander)
        return [o for o in self.commanders.values() if o.superior == c.id]
