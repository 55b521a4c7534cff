"""A Triomphe à Marengo scenario: the map, the order of battle, the waiting
cells, the morale-disc track.

Read from two TOML files: the map (docs/maps.md, plus a ``[triomphe]`` table
of what Triomphe adds to the map system: the approach arrows and the
objective line) and the scenario (docs/triomphe-orders.md, "The scenario
file"). Every figure the printed game would print lives in those files.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.core.parsed import WHERE_READ
from pbem.games.simmons.clock import parse_hour
from pbem.games.simmons.board import Board, MapError, load_board, read_toml
from pbem.games.simmons.scenario import (
    RoundClock, Spec, check_french_starts, read_block, read_first_hour, read_retreat_toward, scenario_file,
)

from pbem.games.simmons.sides import MAX_STRENGTH, SIDE_ADJ, SIDE_NAME, SIDES, TYPES  # noqa: F401 (the game's names)


@dataclass(frozen=True)
class BlockSpec(Spec):
    """A block of the order of battle: the family's fields (pbem.games.simmons.scenario.Spec), then the game's."""

    reinforcement: bool = False  # French, shuffled over the waiting cells (000 §4 step 5)
    waiting: str | None = None  # a waiting cell named in the file (the Austrian staging cell)
    arrives: int | None = None  # an hour before which the block may not enter (000 §15: Austrian artillery)


@dataclass(frozen=True)
class Cell:
    """A waiting cell (000 §15): its blocks may enter from ``hour`` by ``entries``."""

    id: str
    side: str
    hour: int
    entries: tuple[str, ...]
    count: int = 0  # French reinforcement cells: how many of the shuffled blocks it gets


@dataclass(frozen=True)
class Terrain:
    """What Triomphe adds to the map: arrows and the objective line."""

    east: frozenset = frozenset()  # (from, to) pairs whose crossing is eastward (000 §3 ▸)
    east_of_line: frozenset = frozenset()  # locales east of the objective line (000 §19)

    def direction(self, frm: str, to: str) -> str:
        """'east', 'west' or '' (unmarked) for a crossing from ``frm`` into ``to``."""
        if (frm, to) in self.east:
            return "east"
        if (to, frm) in self.east:
            return "west"
        return ""


@dataclass(frozen=True)
class Scenario(RoundClock):
    name: str
    board: Board
    blocks: tuple[BlockSpec, ...]
    cells: dict
    terrain: Terrain
    discs_start: dict
    track: dict  # side -> {hour: discs}
    rounds: int = 16
    first_hour: int = 6
    retreat_toward: dict | None = None
    path: str = field(default="", metadata=WHERE_READ)  # where it was read from: not in the parser's version
    french_start: tuple = field(default=())  # (locale, count) in map order

    @property
    def last_hour(self) -> int:
        return self.first_hour + self.rounds - 1


def terrain_from_dict(data: dict, board: Board, problems: list[str]) -> Terrain:
    """The map file's ``[triomphe]`` table: ``east_of_line`` and ``[[triomphe.arrow]]``."""
    table = data.get("triomphe", {})
    east = set()
    for i, arrow in enumerate(table.get("arrow", []), 1):
        w, e = arrow.get("west"), arrow.get("east")
        if w not in board.locales or e not in board.locales:
            problems.append(f"triomphe.arrow #{i}: unknown locale in {w!r} -> {e!r}")
        elif (w, e) not in board.approaches:
            problems.append(f"triomphe.arrow #{i}: {w} and {e} have no passable border")
        else:
            east.add((w, e))
    line = set()
    for lid in table.get("east_of_line", []):
        if lid not in board.locales:
            problems.append(f"triomphe.east_of_line: unknown locale {lid!r}")
        line.add(lid)
    return Terrain(frozenset(east), frozenset(line))


def scenario_from_dict(data: dict, board: Board, terrain: Terrain, path: str = "scenario") -> Scenario:
    problems: list[str] = []
    meta = data.get("scenario", {})
    cells: dict[str, Cell] = {}
    for i, spec in enumerate(data.get("waiting", []), 1):
        cid = str(spec.get("id", f"cell{i}"))
        where = f"waiting #{i} ({cid})"
        side = spec.get("side")
        if side not in SIDES:
            problems.append(f"{where}: side must be one of {', '.join(SIDES)}")
            continue
        try:
            hour = parse_hour(spec.get("hour", "6AM"))
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            continue
        entries = tuple(spec.get("entries", ()))
        if not entries:
            problems.append(f"{where}: give the entry points its blocks use (entries = [...])")
        for e in entries:
            if e not in board.entries:
                problems.append(f"{where}: unknown entry point {e!r}")
            elif board.entries[e].side != side:
                problems.append(f"{where}: entry point {e} belongs to {board.entries[e].side}")
        cells[cid] = Cell(cid, side, hour, entries, int(spec.get("count", 0)))
    blocks = []
    ids = set()
    for i, spec in enumerate(data.get("block", []), 1):
        common = read_block(spec, i, ids, problems)
        if common is None:
            continue
        where, side, start = common["where"], common["side"], common["start"]
        reinforcement = bool(spec.get("reinforcement", False))
        waiting = spec.get("waiting")
        if sum((start, reinforcement, waiting is not None)) != 1:
            problems.append(f"{where}: give exactly one of start = true, reinforcement = true, waiting = \"cell\"")
        if (start or reinforcement) and side != "france":
            problems.append(f"{where}: only French blocks start on the map or are shuffled as reinforcements")
        if waiting is not None and waiting not in cells:
            problems.append(f"{where}: unknown waiting cell {waiting!r}")
        blocks.append(BlockSpec(common["id"], side, common["name"], common["type"], common["strength"], start,
                                reinforcement, waiting, common["arrives"]))
    check_french_starts(blocks, board, problems)
    shuffled = sum(1 for b in blocks if b.reinforcement)
    room = sum(c.count for c in cells.values() if c.side == "france")
    if shuffled != room:
        problems.append(f"{shuffled} French reinforcements are shuffled but the French waiting cells hold {room}")
    discs = data.get("discs", {})
    start = discs.get("start", {})
    track: dict[str, dict[int, int]] = {s: {} for s in SIDES}
    for side in SIDES:
        if not isinstance(start.get(side, 0), int) or start.get(side, 0) < 0:
            problems.append(f"discs.start.{side}: a whole number of discs")
        for label, n in discs.get("track", {}).get(side, {}).items():
            try:
                track[side][parse_hour(label)] = int(n)
            except ValueError as exc:
                problems.append(f"discs.track.{side}: {exc}")
    retreat = read_retreat_toward(data, board, problems)
    rounds = meta.get("rounds", 16)
    first_hour = read_first_hour(meta, problems)
    if problems:
        raise MapError(problems, path)
    return Scenario(
        name=meta.get("name", path), board=board, blocks=tuple(blocks), cells=cells, terrain=terrain,
        discs_start={s: int(start.get(s, 0)) for s in SIDES}, track=track, rounds=int(rounds),
        first_hour=first_hour, retreat_toward=retreat or None, path=path,
        french_start=tuple((lid, loc.french_start) for lid, loc in board.locales.items() if loc.french_start),
    )


def load_map(path: str | Path) -> tuple[Board, Terrain]:
    data = read_toml(path)
    board = load_board(path)
    problems: list[str] = []
    terrain = terrain_from_dict(data, board, problems)
    if problems:
        raise MapError(problems, str(path))
    return board, terrain


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario file and the map file it names (relative to it)."""
    data, map_path = scenario_file(path, "triomphe-map.toml")
    board, terrain = load_map(map_path)
    return scenario_from_dict(data, board, terrain, str(path))
