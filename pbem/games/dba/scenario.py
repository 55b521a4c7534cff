"""A DBA scenario: the table (terrain, places, grid), the orders of battle, the reinforcements, and the
settings the rule book leaves open — read from a TOML file under maps/ (docs/dba.md says how to write one).

Lengths in the file are inches (decimals allowed: ``12.5``); they are stored as integer tenths. Every problem is
reported with the entry it is in and what was expected (:class:`ScenarioError`), all of them at once.
"""

from __future__ import annotations

import copy
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from shapely.geometry import LineString, Point, Polygon
from shapely.validation import explain_validity

from .elements import CHARACTERS, LEVELS, Brigade, Commander, Element, inches
from .deployment import deploy
from .deployment import point as _pt
from .names import Grid
from .table import Table
from .terrain import KINDS, Feature, Line, Terrain


class ScenarioError(ValueError):
    """A scenario file that cannot be used; the message lists every problem found."""


@dataclass(frozen=True)
class Settings:
    """What the rule book leaves open (docs/rules-notes.md, D1, D24, D30), each with its default."""

    turns: int = 12                 # the game's length in turns
    start: str = "14:00"            # the clock time of turn 1 (for TIME in orders and reports)
    minutes: int = 30               # minutes a turn
    courier_speed: int = 100        # tenths a turn a courier rides (10", DO3)
    spotting: int = 240             # tenths: the farthest an element or commander sees (24")
    command_radius: int = 120       # tenths (the rule book: 12")
    initiative_bonus: dict = field(default_factory=dict)   # side -> +1 for «высшим командным навыком»
    victory: dict = field(default_factory=dict)            # see docs/dba.md "Victory"

    def clock(self, turn: int) -> str:
        """The clock time of ``turn`` (1-based): ``clock(3) == "15:00"`` with a 14:00 start and 30 minutes."""
        h, m = (int(p) for p in self.start.split(":"))
        t = h * 60 + m + (turn - 1) * self.minutes
        return f"{t // 60 % 24:02d}:{t % 60:02d}"


@dataclass(frozen=True)
class Arrival:
    """A brigade that enters later: on turn ``turn`` at ``place`` (its elements held off the table)."""

    brigade: str
    turn: int
    place: str


@dataclass
class Scenario:
    name: str
    sides: dict[str, str]            # side key -> title
    table: Table                     # the table at the start (brigades that arrive later are off it)
    settings: Settings
    arrivals: list[Arrival] = field(default_factory=list)
    waiting: dict[str, Element] = field(default_factory=dict)   # elements of later brigades (= table.reserve)
    source: str = ""

    def fresh_table(self) -> Table:
        """A copy of the starting table to play on: its forces copied, its terrain, grid and places shared (they
        never change in play; the terrain keeps what its sight lines answered, which a copy would copy)."""
        t = self.table
        return Table(t.width, t.depth, t.terrain, t.grid, dict(t.places), dict(t.aliases),
                     brigades=copy.deepcopy(t.brigades), commanders=copy.deepcopy(t.commanders),
                     elements=copy.deepcopy(t.elements), reserve=copy.deepcopy(t.reserve))


def _points(v, least: int) -> list[tuple[int, int]]:
    if not isinstance(v, list) or len(v) < least:
        raise ValueError(f"expected a list of at least {least} points [x, y], got {v!r}")
    return [_pt(p) for p in v]


def _entry(kind: str, i: int, spec: dict, seen: dict, sides: dict, problems: list[str]) -> str | None:
    """How the ``i``-th ``kind`` entry is named in a problem, or None (and the problem noted) when it has no id
    of its own or no known side."""
    where = f"{kind} {i} ({spec.get('id')!r})"
    if not spec.get("id") or spec["id"] in seen:
        problems.append(f"{where}: needs an id of its own")
        return None
    if spec.get("side") not in sides:
        problems.append(f"{where}: side {spec.get('side')!r}; expected one of {', '.join(sides)}")
        return None
    return where


def _one_of(where: str, spec: dict, key: str, default: str, allowed, problems: list[str]) -> bool:
    """Whether ``spec[key]`` (or its default) is one of ``allowed``; the problem noted otherwise."""
    if spec.get(key, default) in allowed:
        return True
    problems.append(f"{where}: {key} {spec.get(key)!r}; expected one of {', '.join(allowed)}")
    return False


def load_scenario(path) -> Scenario:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{path.name}: not TOML: {exc}") from None
    return scenario_from(data, path.name)


def scenario_from(data: dict, source: str = "scenario") -> Scenario:
    problems: list[str] = []
    head = data.get("scenario", {})
    sides = head.get("sides", {})
    if len(sides) != 2:
        problems.append(f"[scenario] sides: expected two sides (key = title), got {sides!r}")
    try:
        width, depth = _pt(head.get("table"))
    except ValueError as exc:
        problems.append(f"[scenario] table: {exc} (width, depth)")
        width, depth = 720, 480
    s = data.get("settings", {})
    try:
        settings = Settings(
            turns=int(s.get("turns", 12)), start=str(s.get("start", "14:00")), minutes=int(s.get("minutes", 30)),
            courier_speed=inches(s.get("courier_speed", 10)), spotting=inches(s.get("spotting", 24)),
            command_radius=inches(s.get("command_radius", 12)),
            initiative_bonus={k: int(v) for k, v in s.get("initiative_bonus", {}).items()},
            victory=dict(s.get("victory", {})))
        settings.clock(1)
    except (TypeError, ValueError) as exc:
        problems.append(f"[settings]: {exc}")
        settings = Settings()
    grid = Grid(width, depth, inches(head.get("grid", 6)))

    features, roads, streams = [], [], []
    for i, f in enumerate(data.get("feature", []), 1):
        where = f"feature {i} ({f.get('kind')} {f.get('name', '')!r})"
        if f.get("kind") not in KINDS:
            problems.append(f"{where}: unknown kind; expected one of {', '.join(KINDS)}")
            continue
        try:
            shape = Polygon(_points(f.get("points"), 3))
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        if not shape.is_valid:
            problems.append(f"{where}: not a simple polygon ({explain_validity(shape)})")
            continue
        if f["kind"] == "hill" and int(f.get("level", 1)) < 1:
            problems.append(f"{where}: a hill's level is 1 or more")
            continue
        features.append(Feature(f["kind"], f.get("name", ""), shape, int(f.get("level", 1 if f["kind"] == "hill" else 0)),
                                bool(f.get("impassable", False))))
    for kind, out in (("road", roads), ("stream", streams)):
        for i, r in enumerate(data.get(kind, []), 1):
            try:
                out.append(Line(kind, r.get("name", ""), LineString(_points(r.get("points"), 2))))
            except ValueError as exc:
                problems.append(f"{kind} {i} ({r.get('name', '')!r}): {exc}")
    terrain = Terrain(features, roads, streams)

    places, aliases = {}, {}
    for i, p in enumerate(data.get("place", []), 1):
        name = p.get("name")
        if not name:
            problems.append(f"place {i}: no name")
            continue
        try:
            places[name] = Point(_pt(p["at"])) if "at" in p else Polygon(_points(p.get("points"), 3))
        except ValueError as exc:
            problems.append(f"place {name!r}: {exc}")
            continue
        for a in p.get("aliases", []):
            aliases[a] = name
    for f in features:  # a named feature is a place too, unless a place of that name is given
        if f.name and f.name not in places:
            places[f.name] = f.shape
    for r in roads + streams:
        if r.name and r.name not in places:
            places[r.name] = r.line
    for name, geom in places.items():
        if not geom.within(Polygon([(0, 0), (width, 0), (width, depth), (0, depth)]).buffer(1)):
            problems.append(f"place {name!r}: not on the table ({width / 10}\" x {depth / 10}\")")
        if grid.square(name) is not None:
            problems.append(f"place {name!r}: the same as a grid square; rename it")

    commanders: dict[str, Commander] = {}
    for i, c in enumerate(data.get("commander", []), 1):
        where = _entry("commander", i, c, commanders, sides, problems)
        if where is None or not all(_one_of(where, c, k, d, allowed, problems) for k, d, allowed in
                                    (("character", "ordinary", CHARACTERS), ("level", "brigade", LEVELS))):
            continue
        cid = c["id"]
        if cid in sides:
            problems.append(f"{where}: a side's id; a commander's id is his own (each names a seat)")
            continue
        try:
            x, y = _pt(c.get("at", [0, 0]))
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        commanders[cid] = Commander(cid, c.get("name", cid), c["side"], c.get("character", "ordinary"),
                                    c.get("level", "brigade"), x, y, None, c.get("superior"))
    for c in commanders.values():
        if c.superior and c.superior not in commanders:
            problems.append(f"commander {c.id!r}: superior {c.superior!r} is not a commander")

    brigades: dict[str, Brigade] = {}
    elements: dict[str, Element] = {}
    waiting: dict[str, Element] = {}
    arrivals: list[Arrival] = []
    for i, b in enumerate(data.get("brigade", []), 1):
        where = _entry("brigade", i, b, brigades, sides, problems)
        if where is None:
            continue
        bid = b["id"]
        cid = b.get("commander")
        if cid is not None:
            if cid not in commanders:
                problems.append(f"{where}: commander {cid!r} is not a commander")
                continue
            if commanders[cid].brigade:
                problems.append(f"{where}: commander {cid!r} already commands {commanders[cid].brigade}")
                continue
            commanders[cid].brigade = bid
        try:
            made = deploy(bid, b, b["side"], problems)
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        brigade = Brigade(bid, b.get("name", bid), b["side"], cid, [e.id for e in made], bool(b.get("allied", False)))
        brigades[bid] = brigade
        later = "arrives" in b
        if later:
            if not isinstance(b["arrives"], int) or b["arrives"] < 2:
                problems.append(f"{where}: arrives = a turn number from 2")
            if b.get("enter") not in places:
                problems.append(f"{where}: enter = the place it comes on at; {b.get('enter')!r} is not a place")
            if cid is not None:
                commanders[cid].present = False   # he comes on with his brigade
            arrivals.append(Arrival(bid, int(b["arrives"]) if isinstance(b["arrives"], int) else 0, b.get("enter", "")))
        for e in made:
            if e.id in elements or e.id in waiting:
                problems.append(f"{where}: element id {e.id!r} used twice")
            (waiting if later else elements)[e.id] = e
    table = Table(width, depth, terrain, grid, places, aliases, brigades, commanders, elements, dict(waiting))
    for e in elements.values():
        if not e.shape.within(table.area):
            problems.append(f"element {e.id} ({e.brigade}): off the table at ({e.x / 10}, {e.y / 10})")
        for f in terrain.closed():
            if f.shape.intersects(e.shape) and not f.shape.touches(e.shape):
                problems.append(f"element {e.id} ({e.brigade}): inside impassable {f.kind} {f.name!r}")
    ids = sorted(elements)
    for n, a in enumerate(ids):
        for b_ in ids[n + 1:]:
            ea, eb = elements[a], elements[b_]
            if ea.shape.intersection(eb.shape).area > 1:
                problems.append(f"elements {a} and {b_} overlap")
    if problems:
        raise ScenarioError(f"{source}: " + "; ".join(problems))
    from .effectiveness import starting_bef
    for b in brigades.values():
        b.bef_start = starting_bef(b, [elements.get(i) or waiting[i] for i in b.elements], commanders)
    return Scenario(head.get("name", source), dict(sides), table, settings, arrivals, waiting, source)
