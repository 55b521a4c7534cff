"""The map of a Marengo-system game: locales, approaches, roads, entry points.

The rule book's words: a *locale* (lieu) is a polygon of the map; its sides
are *approaches*; two opposite approaches form the border between adjacent
locales. Each approach has its own width and penalty symbols. Roads (main or
secondary) join locales through approaches. The file format is described in
docs/maps.md; :func:`load_board` reads it and :func:`check_board` lists every
problem in it.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

from pbem.core.orders import fold

WIDTHS = {"narrow": 1, "wide": 2}
COLOURS = ("red", "green", "blue")
ROAD_KINDS = ("main", "secondary")


class MapError(ValueError):
    """A map file that cannot be used; the message lists every problem."""

    def __init__(self, problems: list[str], path: str = "map"):
        self.problems = problems
        super().__init__(f"{path}: " + "; ".join(problems) if len(problems) == 1 else
                         f"{path}: {len(problems)} problems:\n" + "\n".join(f"  - {p}" for p in problems))


class LocaleNameError(ValueError):
    """A locale name that matches no locale, or more than one."""


@dataclass(frozen=True)
class Approach:
    """The side of ``locale`` facing ``toward``."""

    locale: str
    toward: str
    width: int = 1  # 1 narrow (one block wide), 2 wide
    infantry: int = 0  # penalty symbols against infantry attacks on blocks here
    cavalry: int = 0
    artillery: int = 0
    cavalry_obstacle: bool = False

    def penalty(self, block_type: str) -> int:
        return {"infantry": self.infantry, "cavalry": self.cavalry, "artillery": self.artillery}[block_type]

    @property
    def wide(self) -> bool:
        return self.width == 2


@dataclass(frozen=True)
class Locale:
    id: str
    name: str
    capacity: int
    x: float
    y: float
    objective: str | None = None
    french_start: int = 0
    shape: tuple[tuple[float, float], ...] | None = None
    label: tuple[float, float] | None = None


@dataclass(frozen=True)
class Road:
    id: str
    kind: str
    path: tuple[str, ...]

    @property
    def main(self) -> bool:
        return self.kind == "main"


@dataclass(frozen=True)
class Entry:
    """A point where reinforcements come onto the map."""

    id: str
    name: str
    side: str
    locale: str
    kind: str  # "road" or "pontoon"
    road: str | None = None
    x: float | None = None
    y: float | None = None


@dataclass
class Board:
    name: str
    width: float
    height: float
    locales: dict[str, Locale]
    approaches: dict[tuple[str, str], Approach]
    impassable: set[frozenset[str]]
    roads: dict[str, Road]
    entries: dict[str, Entry]
    features: list[dict] = field(default_factory=list)

    @cached_property
    def rank(self) -> dict[str, int]:
        """Each locale's place in the board's order (the order of ``locales``)."""
        return {lid: i for i, lid in enumerate(self.locales)}

    @cached_property
    def folded_names(self) -> list[tuple[str, str, str]]:
        """(id, folded id, folded name) of every locale, for matching what players write."""
        return [(lid, fold(lid), fold(loc.name)) for lid, loc in self.locales.items()]

    def name_match(self, key: str) -> tuple[str | None, tuple[str, ...]]:
        """For a folded name: (id, ()) if it names one locale exactly or by unique
        prefix, else (None, the candidates). Remembered: players write the same
        names, and the prefixes of the map's names are few; what matches nothing
        (the parser tries block ids followed by a name, too) is remembered apart,
        and forgotten when there are too many, so the memory stays bounded."""
        cache = self.__dict__.setdefault("_name_match", {})
        if key in cache:
            return cache[key]
        misses = self.__dict__.setdefault("_name_misses", {})
        if key in misses:
            return misses[key]
        exact = [lid for lid, fid, fname in self.folded_names if key in (fid, fname)]
        found = [lid for lid, fid, fname in self.folded_names if fid.startswith(key) or fname.startswith(key)]
        if exact:
            answer = (exact[0], ())
        elif len(found) == 1:
            answer = (found[0], ())
        else:
            answer = (None, tuple(found))
        if found:
            cache[key] = answer
        else:
            if len(misses) >= NAME_MISSES:
                misses.clear()
            misses[key] = answer
        return answer

    @cached_property
    def _adjacent(self) -> dict[str, list[str]]:
        out: dict[str, list[str]] = {lid: [] for lid in self.locales}
        for a, b in self.approaches:
            out[a].append(b)
        return out

    def adjacent(self, locale: str) -> list[str]:
        """Locales across a passable border from ``locale``, in file order."""
        return list(self._adjacent.get(locale, ()))

    def is_adjacent(self, a: str, b: str) -> bool:
        return (a, b) in self.approaches

    def touching(self, locale: str) -> list[str]:
        """Locales whose approaches touch ``locale``'s, across an impassable border too: adjacency as a
        matter of the map's drawing, where ``adjacent`` is the way blocks go (Triomphe's disc update reads
        it so, rules-notes T62)."""
        across = sorted(next(iter(pair - {locale})) for pair in self.impassable if locale in pair)
        return self.adjacent(locale) + [n for n in across if n not in self._adjacent.get(locale, ())]

    def approach(self, locale: str, toward: str) -> Approach:
        return self.approaches[(locale, toward)]

    @cached_property
    def _roads_across(self) -> dict[frozenset, list[Road]]:
        out: dict[frozenset, list[Road]] = {}
        for road in self.roads.values():
            path = road.path
            for border in {frozenset(path[i:i + 2]) for i in range(len(path) - 1)}:
                out.setdefault(border, []).append(road)
        return out

    def roads_across(self, a: str, b: str) -> list[Road]:
        """The roads that cross the border between a and b (in the map's order of roads)."""
        return list(self._roads_across.get(frozenset((a, b)), ()))

    def roads_through(self, locale: str) -> list[Road]:
        return [road for road in self.roads.values() if locale in road.path]

    @cached_property
    def _road_steps(self) -> dict[str, list[tuple[str, Road]]]:
        out: dict[str, list[tuple[str, Road]]] = {}
        for road in self.roads.values():
            path = road.path
            for i, here in enumerate(path):
                steps = out.setdefault(here, [])
                if i > 0:
                    steps.append((path[i - 1], road))
                if i + 1 < len(path):
                    steps.append((path[i + 1], road))
        return out

    def road_neighbours(self, locale: str) -> list[tuple[str, Road]]:
        """(next locale, road) for every road step out of ``locale``, in the map's order of roads
        (kept by locale: the bots and the road moves ask it often)."""
        return list(self._road_steps.get(locale, ()))

    def distance(self, a: str, b: str) -> int:
        """Fewest border crossings from a to b (a large number if unreachable)."""
        key = (a, b)
        cache = self.__dict__.setdefault("_distances", {})
        if key not in cache:
            cache[key] = self._distance(a, b)
        return cache[key]

    def _distance(self, a: str, b: str) -> int:
        if a == b:
            return 0
        seen = {a}
        frontier = [a]
        steps = 0
        while frontier:
            steps += 1
            nxt = []
            for here in frontier:
                for there in self.adjacent(here):
                    if there == b:
                        return steps
                    if there not in seen:
                        seen.add(there)
                        nxt.append(there)
            frontier = nxt
        return 10**6

    def find_locale(self, text: str) -> str:
        """The id of the locale named by ``text``.

        Matches ids and names case-insensitively, without accents, ignoring
        spaces, hyphens, apostrophes and underscores, by exact match or else
        by unique prefix.
        """
        key = fold(text)
        if not key:
            raise LocaleNameError("a locale name was expected")
        exact = [lid for lid, loc in self.locales.items() if key in (fold(lid), fold(loc.name))]
        if len(exact) == 1:
            return exact[0]
        prefix = sorted(
            {lid for lid, loc in self.locales.items() if fold(lid).startswith(key) or fold(loc.name).startswith(key)}
        )
        if len(prefix) == 1:
            return prefix[0]
        if not prefix:
            raise LocaleNameError(f"no locale is called {text!r}")
        names = ", ".join(self.locales[lid].name for lid in prefix[:6])
        raise LocaleNameError(f"{text!r} could be any of: {names}; write more of the name")

    def find_entry(self, text: str, side: str) -> str:
        key = fold(text)
        found = [e.id for e in self.entries.values() if e.side == side and key in (fold(e.id), fold(e.name))]
        if not found:
            found = [e.id for e in self.entries.values()
                     if e.side == side and (fold(e.id).startswith(key) or fold(e.name).startswith(key))]
        if len(found) != 1:
            names = ", ".join(e.name for e in self.entries.values() if e.side == side)
            raise LocaleNameError(f"no single entry point of {side} is called {text!r} (entry points: {names})")
        return found[0]

    def locale_name(self, locale: str) -> str:
        return self.locales[locale].name

    def approach_name(self, locale: str, toward: str) -> str:
        return f"{self.locales[locale].name}>{self.locales[toward].name}"


NAME_MISSES = 4096  # strings naming no locale remembered at most (Board.name_match)


def _approach(spec: dict, locale: str, toward: str, where: str, problems: list[str]) -> Approach:
    known = {"width", "infantry", "cavalry", "artillery", "cavalry_obstacle"}
    for key in spec:
        if key not in known:
            problems.append(f"{where}: unknown approach field {key!r} (known: {', '.join(sorted(known))})")
    width = spec.get("width", "narrow")
    if width not in WIDTHS:
        problems.append(f"{where}: width must be 'narrow' or 'wide', not {width!r}")
        width = "narrow"
    values = {}
    for key in ("infantry", "cavalry", "artillery"):
        value = spec.get(key, 0)
        if not isinstance(value, int) or not 0 <= value <= 3:
            problems.append(f"{where}: {key} penalty must be a whole number from 0 to 3, not {value!r}")
            value = 0
        values[key] = value
    obstacle = spec.get("cavalry_obstacle", False)
    if not isinstance(obstacle, bool):
        problems.append(f"{where}: cavalry_obstacle must be true or false")
        obstacle = False
    return Approach(locale, toward, WIDTHS[width], cavalry_obstacle=obstacle, **values)


def board_from_dict(data: dict, path: str = "map") -> Board:
    """Build a Board from parsed TOML, raising MapError listing every problem."""
    problems: list[str] = []
    meta = data.get("map", {})
    locales: dict[str, Locale] = {}
    names: dict[str, str] = {}
    for i, spec in enumerate(data.get("locale", []), 1):
        lid = spec.get("id")
        where = f"locale #{i}" + (f" ({lid})" if lid else "")
        if not lid or not isinstance(lid, str):
            problems.append(f"{where}: missing id")
            continue
        if lid in locales:
            problems.append(f"{where}: duplicate id {lid!r}")
            continue
        name = spec.get("name", lid)
        if fold(name) in names:
            problems.append(f"{where}: duplicate name {name!r} (also {names[fold(name)]})")
        names[fold(name)] = lid
        capacity = spec.get("capacity")
        if not isinstance(capacity, int) or capacity < 1:
            problems.append(f"{where}: missing capacity (a whole number of blocks, 1 or more)")
            capacity = 1
        at = spec.get("at")
        if not (isinstance(at, list) and len(at) == 2 and all(isinstance(v, (int, float)) for v in at)):
            problems.append(f"{where}: 'at' must be [x, y], the point where its reserve is drawn")
            at = [0, 0]
        objective = spec.get("objective")
        if objective is not None and objective not in COLOURS:
            problems.append(f"{where}: objective must be one of {', '.join(COLOURS)}, not {objective!r}")
            objective = None
        if not isinstance(name, str) or not name.strip():
            problems.append(f"{where}: name must be text")
            name = lid
        shape = spec.get("shape")
        try:
            shape = None if shape is None else tuple((float(x), float(y)) for x, y in shape)
        except (TypeError, ValueError):
            problems.append(f"{where}: shape must be a list of [x, y] points")
            shape = None
        start = spec.get("french_start", 0)
        if not isinstance(start, int) or start < 0:
            problems.append(f"{where}: french_start must be a whole number of blocks, 0 or more")
            start = 0
        label = spec.get("label")
        locales[lid] = Locale(
            lid, name, capacity, float(at[0]), float(at[1]), objective,
            start, shape, tuple(label) if label else None,
        )

    approaches: dict[tuple[str, str], Approach] = {}
    impassable: set[frozenset[str]] = set()
    seen_borders: set[frozenset[str]] = set()
    for i, spec in enumerate(data.get("border", []), 1):
        a, b = spec.get("a"), spec.get("b")
        where = f"border #{i} ({a}–{b})"
        missing = [x for x in (a, b) if x not in locales]
        if missing:
            problems.append(f"{where}: unknown locale {', '.join(map(repr, missing))}")
            continue
        if a == b:
            problems.append(f"{where}: a locale cannot border itself")
            continue
        pair = frozenset((a, b))
        if pair in seen_borders:
            problems.append(f"{where}: the border between {a} and {b} is given twice")
            continue
        seen_borders.add(pair)
        if spec.get("impassable", False):
            impassable.add(pair)
            continue
        if "a_approach" not in spec or "b_approach" not in spec:
            problems.append(f"{where}: an approach with no opposite: give both a_approach and b_approach "
                            "(an empty table {} for a plain narrow approach), or impassable = true")
        approaches[(a, b)] = _approach(spec.get("a_approach", {}), a, b, f"{where} a_approach", problems)
        approaches[(b, a)] = _approach(spec.get("b_approach", {}), b, a, f"{where} b_approach", problems)

    roads: dict[str, Road] = {}
    for i, spec in enumerate(data.get("road", []), 1):
        rid = spec.get("id", f"road{i}")
        where = f"road #{i} ({rid})"
        if rid in roads:
            problems.append(f"{where}: duplicate road id")
            continue
        kind = spec.get("kind")
        if kind not in ROAD_KINDS:
            problems.append(f"{where}: kind must be 'main' or 'secondary', not {kind!r}")
        steps = tuple(spec.get("path", []))
        if len(steps) < 2:
            problems.append(f"{where}: a road needs a path of at least two locales")
        for lid in steps:
            if lid not in locales:
                problems.append(f"{where}: unknown locale {lid!r}")
        for x, y in zip(steps, steps[1:]):
            if x in locales and y in locales and (x, y) not in approaches:
                why = "an impassable border" if frozenset((x, y)) in impassable else "no border"
                problems.append(f"{where}: runs from {x} to {y}, which have {why} between them")
        roads[rid] = Road(rid, kind, steps)

    entries: dict[str, Entry] = {}
    for i, spec in enumerate(data.get("entry", []), 1):
        eid = spec.get("id", f"entry{i}")
        where = f"entry #{i} ({eid})"
        if eid in entries:
            problems.append(f"{where}: duplicate entry id")
            continue
        kind = spec.get("kind", "road")
        if kind not in ("road", "pontoon"):
            problems.append(f"{where}: kind must be 'road' or 'pontoon'")
        lid = spec.get("locale")
        if lid not in locales:
            problems.append(f"{where}: unknown locale {lid!r}")
        road = spec.get("road")
        if kind == "road":
            if road not in roads:
                problems.append(f"{where}: a road entry must name the road it enters by (road = ...)")
            elif lid not in roads[road].path:
                problems.append(f"{where}: road {road} does not pass through {lid}")
        if spec.get("side") not in ("austria", "france"):
            problems.append(f"{where}: side must be 'austria' or 'france', not {spec.get('side')!r}")
        at = spec.get("at") or [None, None]
        if not (isinstance(at, list) and len(at) == 2):
            problems.append(f"{where}: 'at' must be [x, y]")
            at = [None, None]
        entries[eid] = Entry(eid, spec.get("name", eid), spec.get("side", ""), lid, kind, road, at[0], at[1])

    for lid in locales:
        if not any(a == lid for (a, _b) in approaches):
            problems.append(f"locale {lid}: has no passable border")
    if problems:
        raise MapError(problems, path)
    return Board(
        name=meta.get("name", path),
        width=float(meta.get("width", 1400)),
        height=float(meta.get("height", 1000)),
        locales=locales,
        approaches=approaches,
        impassable=impassable,
        roads=roads,
        entries=entries,
        features=data.get("feature", []),
    )


def read_toml(path: str | Path) -> dict:
    """A data file's tables, or MapError saying why it cannot be read."""
    try:
        return tomllib.loads(Path(path).read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise MapError([f"not valid TOML: {exc}"], str(path)) from None
    except OSError as exc:
        raise MapError([f"cannot read: {exc.strerror}"], str(path)) from None


def load_board(path: str | Path) -> Board:
    return board_from_dict(read_toml(path), str(path))


def check_board(path: str | Path) -> list[str]:
    """Every problem in a map file (empty if it is fine)."""
    try:
        load_board(path)
    except MapError as exc:
        return exc.problems
    return []
