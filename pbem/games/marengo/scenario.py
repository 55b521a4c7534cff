"""A scenario: the map, the order of battle, the reinforcement schedule and morale.

Read from a TOML file (see docs/maps.md, "Scenario files"). Every figure the
printed game would print on its board or charts lives in that file.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from pbem.games.simmons.clock import parse_hour
from pbem.games.simmons.board import Board, MapError, load_board, read_toml

from pbem.games.simmons.sides import MAX_STRENGTH, SIDE_ADJ, SIDE_NAME, SIDES, TYPES  # noqa: F401 (the game's names)


@dataclass(frozen=True)
class BlockSpec:
    id: str
    side: str
    name: str
    type: str
    strength: int
    start: bool = False  # a French "at start" block, drawn at random onto the start locales
    arrives: int | None = None  # hour (24 h clock) the reinforcement may first enter
    entries: tuple[str, ...] = ()  # entry points it may use (empty: any of its side's)


@dataclass(frozen=True)
class Scenario:
    name: str
    board: Board
    blocks: tuple[BlockSpec, ...]
    morale: dict
    rounds: int = 16
    first_hour: int = 6
    retreat_toward: dict | None = None
    path: str = ""

    def hour(self, day: int) -> int:
        return self.first_hour + day // len(SIDES)

    def side_of_day(self, day: int) -> str:
        return SIDES[day % len(SIDES)]

    @property
    def days(self) -> int:
        return self.rounds * len(SIDES)

    def block(self, block_id: str) -> BlockSpec:
        for spec in self.blocks:
            if spec.id == block_id:
                return spec
        raise KeyError(block_id)


def scenario_from_dict(data: dict, board: Board, path: str = "scenario") -> Scenario:
    problems = []
    meta = data.get("scenario", {})
    blocks = []
    ids = set()
    for i, spec in enumerate(data.get("block", []), 1):
        bid = spec.get("id")
        where = f"block #{i}" + (f" ({bid})" if bid else "")
        if not bid:
            problems.append(f"{where}: missing id")
            continue
        if bid in ids:
            problems.append(f"{where}: duplicate id")
        ids.add(bid)
        side = spec.get("side")
        if side not in SIDES:
            problems.append(f"{where}: side must be one of {', '.join(SIDES)}")
        btype = spec.get("type")
        if btype not in TYPES:
            problems.append(f"{where}: type must be one of {', '.join(TYPES)}")
            btype = "infantry"
        strength = spec.get("strength")
        if not isinstance(strength, int) or not 1 <= strength <= MAX_STRENGTH[btype]:
            problems.append(f"{where}: strength of {btype} must be 1 to {MAX_STRENGTH[btype]}")
            strength = 1
        start = bool(spec.get("start", False))
        arrives = spec.get("arrives")
        if arrives is not None:
            try:
                arrives = parse_hour(str(arrives))
            except ValueError as exc:
                problems.append(f"{where}: {exc}")
                arrives = None
        if not start and arrives is None:
            problems.append(f"{where}: give start = true or an arrival hour (arrives = \"11AM\")")
        entries = tuple(spec.get("entries", ()))
        for e in entries:
            if e not in board.entries:
                problems.append(f"{where}: unknown entry point {e!r}")
        blocks.append(BlockSpec(bid, side, spec.get("name", bid), btype, strength, start, arrives, entries))
    morale = data.get("morale", {})
    for side in SIDES:
        if not isinstance(morale.get(side), int):
            problems.append(f"morale: give the starting morale of {side} (a whole number)")
    starts = sum(1 for b in blocks if b.start)
    seats = sum(loc.french_start for loc in board.locales.values())
    if starts != seats:
        problems.append(f"{starts} French blocks start on the map but the map's start locales hold {seats}")
    retreat = data.get("retreat_toward", {})
    for side, lid in retreat.items():
        if lid not in board.locales:
            problems.append(f"retreat_toward.{side}: unknown locale {lid!r}")
    rounds = meta.get("rounds", 16)
    if not isinstance(rounds, int) or not 1 <= rounds <= 24:
        problems.append("scenario.rounds must be a whole number of rounds from 1 to 24")
        rounds = 16
    try:
        first_hour = parse_hour(str(meta.get("first_hour", "6AM")))
    except ValueError as exc:
        problems.append(f"scenario.first_hour: {exc}")
        first_hour = 6
    for spec in blocks:
        if spec.start and spec.side != "france":
            problems.append(f"block {spec.id}: only French blocks start on the map (start = true)")
        for e in spec.entries:
            if e in board.entries and board.entries[e].side != spec.side:
                problems.append(f"block {spec.id}: entry point {e} belongs to {board.entries[e].side}")
    if problems:
        raise MapError(problems, path)
    return Scenario(
        name=meta.get("name", path),
        board=board,
        blocks=tuple(blocks),
        morale={side: morale[side] for side in SIDES},
        rounds=rounds,
        first_hour=first_hour,
        retreat_toward=retreat or None,
        path=path,
    )


def load_scenario(path: str | Path) -> Scenario:
    """Read a scenario file and the map file it names (relative to it)."""
    path = Path(path)
    data = read_toml(path)
    map_name = data.get("scenario", {}).get("map")
    if not map_name:
        raise MapError(["[scenario] must name its map file (map = \"marengo-map.toml\")"], str(path))
    board = load_board(path.parent / map_name)
    return scenario_from_dict(data, board, str(path))
