"""§1 The board: towns, major and minor roads, rivers, the border and the setup line.

The map is data (maps/napoleon1815-map.toml, docs/napoleon1815-maps.md); this
module reads and checks it, and answers the questions the rules ask of it:
which towns are adjacent by road, what kind of road joins them, whether it
crosses a river.
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pbem.core.orders import fold

ROAD_KINDS = ("major", "minor")
ARMIES = ("french", "anglo", "prussian")


class MapError(ValueError):
    """A map file that cannot be used; the message lists every problem."""


@dataclass(frozen=True)
class Town:
    id: str
    name: str
    at: tuple[float, float]
    country: str  # "france" or "netherlands"
    zone: str = ""  # "west" or "east" of the Anglo-Prussian setup line
    supply: str = ""  # the Allied army this supply city feeds


@dataclass(frozen=True)
class Road:
    a: str
    b: str
    kind: str
    river: bool = False

    def other(self, town: str) -> str:
        return self.b if town == self.a else self.a


@dataclass
class Board:
    title: str
    towns: dict[str, Town]
    roads: dict[frozenset, Road]
    _next: dict[str, list[str]] = field(default_factory=dict, repr=False)
    _names: dict[str, str] = field(default_factory=dict, repr=False)

    def __post_init__(self):
        for key, road in self.roads.items():
            self._next.setdefault(road.a, []).append(road.b)
            self._next.setdefault(road.b, []).append(road.a)
        for nexts in self._next.values():
            nexts.sort()
        for tid, town in self.towns.items():
            self._names[fold(town.name)] = tid
            self._names[fold(tid)] = tid

    def adjacent(self, town: str) -> list[str]:
        """The towns joined to ``town`` by a road (§5.1)."""
        return self._next.get(town, [])

    def road(self, a: str, b: str) -> Road | None:
        return self.roads.get(frozenset((a, b)))

    def find(self, text: str) -> str | None:
        """The id of the town named ``text`` (any case, accents, spaces), or None."""
        return self._names.get(fold(text))

    def name(self, town: str | None) -> str:
        return self.towns[town].name if town in self.towns else str(town)

    def supply_cities(self) -> dict[str, str]:
        """Supply city -> the army it feeds (§10)."""
        return {tid: t.supply for tid, t in self.towns.items() if t.supply}


def board_from_dict(data: dict, where: str) -> Board:
    problems = []
    towns: dict[str, Town] = {}
    for i, t in enumerate(data.get("town", []), 1):
        try:
            tid = t["id"]
            town = Town(tid, t.get("name", tid), tuple(float(v) for v in t["at"]), t["country"],
                        t.get("zone", ""), t.get("supply", ""))
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"town {i}: missing or bad field {exc}")
            continue
        if tid in towns:
            problems.append(f"town {tid} is given twice")
        if town.country not in ("france", "netherlands"):
            problems.append(f"town {tid}: country {town.country!r}, expected france or netherlands")
        if town.country == "netherlands" and town.zone not in ("west", "east"):
            problems.append(f"town {tid}: zone {town.zone!r}, expected west or east of the setup line")
        if town.supply and town.supply not in ("anglo", "prussian"):
            problems.append(f"town {tid}: supply {town.supply!r}, expected anglo or prussian")
        towns[tid] = town
    roads: dict[frozenset, Road] = {}
    for i, r in enumerate(data.get("road", []), 1):
        a, b, kind = r.get("a"), r.get("b"), r.get("kind")
        for end in (a, b):
            if end not in towns:
                problems.append(f"road {i}: unknown town {end!r}")
        if kind not in ROAD_KINDS:
            problems.append(f"road {i} ({a}-{b}): kind {kind!r}, expected major or minor")
        if a == b:
            problems.append(f"road {i}: joins {a} to itself")
        key = frozenset((a, b))
        if key in roads:
            problems.append(f"road {a}-{b} is given twice")
        roads[key] = Road(a, b, kind, bool(r.get("river", False)))
    if problems:
        raise MapError(f"{where}: " + "; ".join(problems))
    board = Board(data.get("map", {}).get("name", where), towns, roads)
    lonely = [t for t in towns if not board.adjacent(t)]
    if lonely:
        raise MapError(f"{where}: towns on no road: {', '.join(lonely)}")
    return board


def load_board(path: str | Path) -> Board:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise MapError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise MapError(f"{path}: cannot read: {exc.strerror}") from None
    return board_from_dict(data, str(path))


def check_board(path) -> list[str]:
    try:
        load_board(path)
    except MapError as exc:
        return [p.strip() for p in str(exc).split(";")]
    return []
