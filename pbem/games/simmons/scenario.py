"""What both Marengo-family scenario files hold, read once: the clock of the rounds,
the blocks' common fields, the French start count, the retreat directions, the
first hour, and the scenario file's link to its map (docs/maps.md, "Scenario
files"; docs/triomphe-orders.md, "The scenario file"). Each game's scenario.py
reads the rest (Marengo's morale and entry points, Triomphe's waiting cells and
disc track) and builds its own Scenario. Every problem is a sentence naming
where it is, gathered into one MapError.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from .board import MapError, read_toml
from .clock import parse_hour
from .sides import MAX_STRENGTH, SIDES, TYPES


@dataclass(frozen=True)
class Spec:
    """A block of the order of battle as the scenario file gives it; each game's BlockSpec
    adds how it comes into play after these fields."""

    id: str
    side: str
    name: str
    type: str
    strength: int
    start: bool = False  # French, on the map at the start (003 §6 step 6, 000 §4 step 4)


class RoundClock:
    """The clock of a scenario of ``rounds`` rounds from ``first_hour``: each round an hour,
    the Austrian turn (day) first (003 §7, 000 §5). Mixed into each game's Scenario."""

    def hour(self, day: int) -> int:
        return self.first_hour + day // len(SIDES)

    def side_of_day(self, day: int) -> str:
        return SIDES[day % len(SIDES)]

    @property
    def days(self) -> int:
        return self.rounds * len(SIDES)


def read_block(spec: dict, i: int, ids: set, problems: list[str]) -> dict | None:
    """The fields every block has (id, side, name, type, strength, arrives), checked; None
    when it has no id. ``ids`` collects the ids seen (a second one is a problem)."""
    bid = spec.get("id")
    where = f"block #{i}" + (f" ({bid})" if bid else "")
    if not bid:
        problems.append(f"{where}: missing id")
        return None
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
    arrives = spec.get("arrives")
    if arrives is not None:
        try:
            arrives = parse_hour(str(arrives))
        except ValueError as exc:
            problems.append(f"{where}: {exc}")
            arrives = None
    return {"id": bid, "where": where, "side": side, "name": spec.get("name", bid), "type": btype,
            "strength": strength, "start": bool(spec.get("start", False)), "arrives": arrives}


def check_french_starts(blocks, board, problems: list[str]) -> None:
    """As many French blocks start on the map as the map's start locales hold."""
    starts = sum(1 for b in blocks if b.start)
    seats = sum(loc.french_start for loc in board.locales.values())
    if starts != seats:
        problems.append(f"{starts} French blocks start on the map but the map's start locales hold {seats}")


def read_retreat_toward(data: dict, board, problems: list[str]) -> dict:
    """``retreat_toward``: the locale each side's retreats head for, if the scenario names one."""
    retreat = data.get("retreat_toward", {})
    for side, lid in retreat.items():
        if lid not in board.locales:
            problems.append(f"retreat_toward.{side}: unknown locale {lid!r}")
    return retreat


def read_first_hour(meta: dict, problems: list[str]) -> int:
    """``scenario.first_hour`` (6AM if not given)."""
    try:
        return parse_hour(str(meta.get("first_hour", "6AM")))
    except ValueError as exc:
        problems.append(f"scenario.first_hour: {exc}")
        return 6


def scenario_file(path: str | Path, example: str) -> tuple[dict, Path]:
    """A scenario file's data and the path of the map file it names (relative to it);
    ``example`` is the map file a problem suggests."""
    path = Path(path)
    data = read_toml(path)
    map_name = data.get("scenario", {}).get("map")
    if not map_name:
        raise MapError([f"[scenario] must name its map file (map = \"{example}\")"], str(path))
    return data, path.parent / map_name
