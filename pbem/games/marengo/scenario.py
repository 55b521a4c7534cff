"""A scenario: the map, the order of battle, the reinforcement schedule and morale.

Read from a TOML file (see docs/maps.md, "Scenario files"). Every figure the
printed game would print on its board or charts lives in that file.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from pbem.core.parsed import WHERE_READ
from pbem.games.simmons.board import Board, MapError, load_board
from pbem.games.simmons.scenario import (
    RoundClock, Spec, check_french_starts, read_block, read_first_hour, read_retreat_toward, scenario_file,
)

from pbem.games.simmons.sides import MAX_STRENGTH, SIDE_ADJ, SIDE_NAME, SIDES, TYPES  # noqa: F401 (the game's names)


@dataclass(frozen=True)
class BlockSpec(Spec):
    """A block of the order of battle: the family's fields (pbem.games.simmons.scenario.Spec), then the game's."""

    arrives: int | None = None  # hour (24 h clock) the reinforcement may first enter
    entries: tuple[str, ...] = ()  # entry points it may use (empty: any of its side's)


@dataclass(frozen=True)
class Scenario(RoundClock):
    name: str
    board: Board
    blocks: tuple[BlockSpec, ...]
    morale: dict
    rounds: int = 16
    first_hour: int = 6
    retreat_toward: dict | None = None
    path: str = field(default="", metadata=WHERE_READ)  # where it was read from: not in the parser's version

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
        common = read_block(spec, i, ids, problems)
        if common is None:
            continue
        where, start, arrives = common["where"], common["start"], common["arrives"]
        if not start and arrives is None:
            problems.append(f"{where}: give start = true or an arrival hour (arrives = \"11AM\")")
        entries = tuple(spec.get("entries", ()))
        for e in entries:
            if e not in board.entries:
                problems.append(f"{where}: unknown entry point {e!r}")
        blocks.append(BlockSpec(common["id"], common["side"], common["name"], common["type"], common["strength"],
                                start, arrives, entries))
    morale = data.get("morale", {})
    for side in SIDES:
        if not isinstance(morale.get(side), int):
            problems.append(f"morale: give the starting morale of {side} (a whole number)")
    check_french_starts(blocks, board, problems)
    retreat = read_retreat_toward(data, board, problems)
    rounds = meta.get("rounds", 16)
    if not isinstance(rounds, int) or not 1 <= rounds <= 24:
        problems.append("scenario.rounds must be a whole number of rounds from 1 to 24")
        rounds = 16
    first_hour = read_first_hour(meta, problems)
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
    data, map_path = scenario_file(path, "marengo-map.toml")
    return scenario_from_dict(data, load_board(map_path), str(path))
