"""The scenario: the map, the order of battle, the turn track and the rule constants,
all read from maps/napoleon1815.toml (docs/napoleon1815-maps.md)."""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from .blocks import TYPES, BlockSpec
from .board import ARMIES, Board, MapError, load_board

SEATS = ("french", "anglo-dutch", "prussian")
SEAT_ARMY = {"french": "french", "anglo-dutch": "anglo", "prussian": "prussian"}
ARMY_SEAT = {army: seat for seat, army in SEAT_ARMY.items()}
SEAT_SIDE = {"french": "france", "anglo-dutch": "allies", "prussian": "allies"}
SEAT_TITLE = {"french": "France (Napoleon)", "anglo-dutch": "Anglo-Dutch army (Wellington)",
              "prussian": "Prussian army (Blücher)"}


@dataclass(frozen=True)
class TurnSpec:
    date: str
    part: str
    side: str  # "F" or "A"
    night: bool = False

    @property
    def label(self) -> str:
        who = "French" if self.side == "F" else "Allied"
        night = ", night" if self.night and "night" not in self.part else ""
        return f"{self.date}, {self.part} ({who} turn{night})"


@dataclass
class Scenario:
    name: str
    board: Board
    blocks: dict[str, BlockSpec]
    track: list[TurnSpec]
    groups: dict[str, int] = field(default_factory=lambda: {"french": 2, "anglo": 1, "prussian": 1})
    road: dict[str, int] = field(default_factory=lambda: {"major": 8, "minor": 6})
    setup_per_town: dict[str, int] = field(default_factory=lambda: {"allies": 4, "french": 12})
    battle_road: dict[str, int] = field(default_factory=lambda: {"major": 2, "minor": 1})
    breaks: dict[str, int] = field(default_factory=lambda: {"french": 12, "anglo": 8, "prussian": 9})
    supply_loss: dict[str, int] = field(default_factory=lambda: {"brussels": 1, "ghent": 1, "liege": 2})
    city_victory_from: int = 0  # index in the track of the first turn whose end may win by cities
    supply_losses_count: bool = True
    max_battle_rounds: int = 40
    markers: tuple[str, ...] = ("woods",) * 3 + ("farm",) * 3 + ("stream",) * 3 + ("hill",) * 3

    def army_blocks(self, army: str) -> list[BlockSpec]:
        return [b for b in self.blocks.values() if b.army == army]


def expand_track(data: dict) -> list[TurnSpec]:
    first = [TurnSpec(t["date"], t.get("part", ""), t["side"], bool(t.get("night", False)))
             for t in data.get("turn", [])]
    track = list(first)
    extra = data.get("track", {})
    for date in extra.get("repeat_dates", []):
        track += [TurnSpec(date, t.part, t.side, t.night) for t in first]
    if extra.get("drop_last_allied_night") and track and track[-1].side == "A" and track[-1].night:
        track.pop()
    return track


def scenario_from_dict(data: dict, board: Board, where: str) -> Scenario:
    problems = []
    blocks: dict[str, BlockSpec] = {}
    for i, b in enumerate(data.get("block", []), 1):
        try:
            spec = BlockSpec(b["id"], b["army"], b.get("name", b["id"]), b.get("corps", ""), b["type"],
                             int(b["strength"]), b["fire"], b.get("setup", ""), b.get("nation", ""))
        except (KeyError, TypeError, ValueError) as exc:
            problems.append(f"block {i}: missing or bad field {exc}")
            continue
        if spec.id in blocks:
            problems.append(f"block {spec.id} is given twice")
        if spec.army not in ARMIES:
            problems.append(f"block {spec.id}: army {spec.army!r}, expected one of {', '.join(ARMIES)}")
        if spec.type not in TYPES:
            problems.append(f"block {spec.id}: type {spec.type!r}, expected one of {', '.join(TYPES)}")
        if not 1 <= spec.strength <= 4:
            problems.append(f"block {spec.id}: strength {spec.strength}, expected 1 to 4")
        if len(spec.fire) != 2 or not spec.fire[0].isalpha() or not spec.fire[1].isdigit():
            problems.append(f"block {spec.id}: fire {spec.fire!r}, expected a letter and a digit (B2)")
        if spec.setup and spec.setup not in board.towns:
            problems.append(f"block {spec.id}: setup town {spec.setup!r} is not on the map")
        blocks[spec.id] = spec
    track = expand_track(data)
    if not track:
        problems.append("no turn track ([[turn]] tables)")
    limits = data.get("limits", {})
    readings = data.get("readings", {})
    sc = Scenario(data.get("scenario", {}).get("name", where), board, blocks, track)
    for key in ("groups", "road", "setup_per_town", "battle_road", "breaks", "supply_loss"):
        if key in limits:
            setattr(sc, key, dict(limits[key]))
    for city in sc.supply_loss:
        if city not in board.towns or not board.towns[city].supply:
            problems.append(f"supply_loss names {city!r}, not a supply city of the map")
    start = readings.get("city_victory_from", track[-1].date if track else "")
    dates = [t.date for t in track]
    if start not in dates:
        problems.append(f"city_victory_from {start!r} is not a date of the track")
    else:
        sc.city_victory_from = dates.index(start)
    sc.supply_losses_count = bool(readings.get("supply_losses_count", True))
    sc.max_battle_rounds = int(readings.get("max_battle_rounds", 40))
    if "terrain" in data:
        sc.markers = tuple(data["terrain"].get("markers", sc.markers))
    if problems:
        raise ValueError(f"{where}: " + "; ".join(problems))
    return sc


def load_scenario(path: str | Path) -> Scenario:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise ValueError(f"{path}: not valid TOML: {exc}") from None
    try:
        board = load_board(path.parent / data.get("scenario", {}).get("map", ""))
    except MapError as exc:
        raise ValueError(str(exc)) from None
    return scenario_from_dict(data, board, str(path))
