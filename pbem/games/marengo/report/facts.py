"""What a report is built from (Facts: a side's view, its events, its decisions, the
public map and clock), and the names, hour labels and rule numbers every part of
the report words alike."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pbem.games.marengo.scenario import SIDE_NAME

COMMAND_LIMIT = 3  # 003 §8, "la limite de commandement"
ROAD_CAPACITY = 3  # 003 §8: three blocks may cross one approach along one road in a turn
ROAD_ENTRIES = 3  # blocks that may enter by one road entry point in a day (003 §8, rules notes V4)
NO_DEADLINE = "(deadline set by the server)"


def side_name(side: str | None) -> str:
    return SIDE_NAME.get(side or "", (side or "").capitalize())


def hour_label(hour: int) -> str:
    """6 -> '6AM', 12 -> '12PM', 13 -> '1PM' (the printed time track)."""
    suffix = "AM" if hour < 12 else "PM"
    return f"{hour % 12 or 12}{suffix}"


def natural(text: str):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


@dataclass
class Facts:
    """Everything a report may use. For a side: its view, its events, its decisions.

    ``view`` is ``ruleset.view(scenario, state_after_day, reader)``; ``events``
    is ``events_for(day_events, reader)``; ``decisions`` are the DecisionRecords
    put to the reader (all of them for the moderator). ``orders`` (moderator
    only) maps a side to the orders text it sent for the day.
    """

    reader: str | None
    spectator: bool
    game_title: str
    scenario_name: str
    game_label: str
    board: object  # the public map
    day: int  # the day reported (0: Austria's 6AM day)
    played_side: str
    played_hour: int
    rounds: int
    first_hour: int
    sides: tuple[str, ...]
    view: dict
    events: list[dict]
    decisions: list
    deadline: str | None = None
    retreat_toward: dict | None = None  # the scenario's public retreat directions
    orders: dict = field(default_factory=dict)
    game_id: str = ""  # the number a player writes after GAME (the label may be a title)

    def hour(self, day: int) -> int:
        return self.first_hour + day // len(self.sides)

    def side_of_day(self, day: int) -> str:
        return self.sides[day % len(self.sides)]

    def name(self, locale: str | None) -> str:
        return self.board.locales[locale].name if locale else "?"

    def adjacent(self, locale: str) -> list[str]:
        """The map's neighbours of ``locale`` (cached: the board scans every approach)."""
        cache = self.__dict__.setdefault("_adjacent", {})
        if locale not in cache:
            cache[locale] = self.board.adjacent(locale)
        return cache[locale]

    def distance(self, a: str, b: str) -> int:
        """Fewest border crossings from ``a`` to ``b`` (a large number if there is no way)."""
        seen, frontier, steps = {a}, [a], 0
        while frontier:
            if b in frontier:
                return steps
            steps += 1
            frontier = [n for here in frontier for n in self.adjacent(here) if n not in seen and not seen.add(n)]
        return 10**6

    def place(self, locale: str | None, facing: str | None) -> str:
        if locale is None:
            return "off the map"
        return self.name(locale) if facing is None else f"{self.name(locale)}>{self.name(facing)}"

    def locale_order(self) -> dict:
        """{locale id: its place in the map's list}, the order blocks and places are listed in."""
        return {lid: i for i, lid in enumerate(self.board.locales)}

    def sort_blocks(self, blocks: list[dict]) -> list[dict]:
        """``blocks`` by locale, reserve before approaches, then by id."""
        order = self.locale_order()
        return sorted(blocks, key=lambda b: (order.get(b["locale"], 10**6), b["facing"] is not None,
                                             order.get(b["facing"], -1), natural(b["id"])))
