"""What a Marengo-family report is built from (Facts: a side's view, its events, its
decisions, the public map and clock), how they are read from a game (:func:`facts_of`),
and the names and hour labels every part of a report words alike."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pbem.core.events import events_for

from ..clock import hour_label  # noqa: F401 (the reports' name for it)
from ..lang import Tongue, tongue
from ..sides import SIDE_NAME

NO_DEADLINE = "(deadline set by the server)"  # in English; Facts.no_deadline in the reader's language


def side_name(side: str | None) -> str:
    return SIDE_NAME.get(side or "", (side or "").capitalize())


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
    day: int  # the day (turn) reported (0: Austria's 6AM day)
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
    tongue: Tongue = field(default_factory=tongue)  # the reader's language (pbem.games.simmons.lang)

    def side(self, side: str | None) -> str:
        """A side's name in the reader's language ("Austria", "Autriche", "Австрия"...)."""
        _ = self.tongue.gettext
        return {"austria": _("Austria"), "france": _("France")}.get(side or "") or side_name(side)

    def kind(self, kind: str) -> str:
        """A block's type in the reader's language."""
        _ = self.tongue.gettext
        return {"infantry": _("infantry"), "cavalry": _("cavalry"), "artillery": _("artillery")}.get(kind, kind)

    def yes(self, flag) -> str:
        return self.tongue.gettext("yes") if flag else self.tongue.gettext("no")

    def clock(self, hour: int) -> str:
        """An hour of the time track as the reader writes it: 1PM in English, 13 h in French, 13:00..."""
        if self.tongue.lang == "en":
            return hour_label(hour)
        return self.tongue.gettext("%(hour)d:00", hour=hour)

    def no_deadline(self) -> str:
        """What the report says when the server gave no deadline."""
        return self.tongue.gettext("(deadline set by the server)")

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


def facts_of(game, day: int, side: str | None, deadline: str | None = None, game_label: str = "",
             spectator: bool = False, game_id: str = "", tongue: Tongue | None = None) -> Facts:
    """What the report of day ``day`` (0-based, as in ``game.days``) for ``side`` may use.

    ``side=None``: the moderator's (every decision, every side's orders text);
    ``spectator=True``: a finished game's for onlookers (``side`` is ignored, no
    orders texts). A side's decisions are those taken for it without its answer at
    the time (its standing orders, the default, an answer on record).
    """
    if not 0 <= day < len(game.days):
        raise ValueError(f"day {day} has not been resolved (resolved: 0 to {len(game.days) - 1})")
    if spectator:
        if not game.over:
            raise ValueError("a spectator report is for a finished game")
        side = None
    sides = game.seats()
    if side is not None and side not in sides:
        raise ValueError(f"no side called {side!r} (sides: {', '.join(sides)})")
    result = game.days[day]
    scenario = game.scenario
    if side is None:
        decisions = list(result.decisions)
        orders = {} if spectator else {s: game.orders_text(day, s) for s in sides}
    else:
        decisions = [r for r in result.decisions
                     if r.decision.side == side and r.source in ("standing", "default", "log")]
        orders = {}
    return Facts(
        reader=side,
        spectator=spectator,
        game_title=game.ruleset.title,
        scenario_name=scenario.name,
        game_label=game_label,
        game_id=str(game_id),
        board=scenario.board,
        day=day,
        played_side=result.seats[0],
        played_hour=scenario.hour(day),
        rounds=scenario.rounds,
        first_hour=scenario.first_hour,
        sides=sides,
        view=game.view(side, day),
        events=events_in(result.events, side, tongue),
        decisions=decisions,
        deadline=deadline,
        retreat_toward=dict(scenario.retreat_toward or {}),
        orders=orders,
        **({"tongue": tongue} if tongue is not None else {}),
    )


def events_in(events, side: str | None, tongue: Tongue | None) -> list[dict]:
    """``events_for(events, side)``, each text in ``tongue``'s language where the engine wrote it as a
    Text (``Event.text_for``)."""
    if tongue is None or tongue.lang == "en":
        return events_for(events, side)
    out = []
    for event in events:
        known = event.for_side(side)
        if known is not None:
            out.append({"kind": event.kind, "text": event.text_for(side, tongue), "data": known[1]})
    return out


def opening_facts(game, side: str, deadline: str | None, game_label: str = "", game_id: str = "",
                  tongue: Tongue | None = None) -> Facts:
    """What the orders form of a side may use before any day has been resolved (its welcome mail)."""
    sc = game.scenario
    return Facts(reader=side, spectator=False, game_title=game.ruleset.title, scenario_name=sc.name,
                 game_label=game_label, game_id=str(game_id), board=sc.board, day=game.day, played_side=side,
                 played_hour=sc.first_hour, rounds=sc.rounds, first_hour=sc.first_hour,
                 sides=game.seats(), view=game.view(side), events=[], decisions=[], deadline=deadline,
                 **({"tongue": tongue} if tongue is not None else {}))
