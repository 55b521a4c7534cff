"""The turn report: what one side learns of a day, and the orders form for its next.

    report = build_report(game, day, "france", deadline="Tue 14 June, 18:00 UTC", game_label="g12")
    report.subject, report.markdown, report.text, report.html, report.template

A side's report holds, in this order: the heading (the hour just played and
whose day it was, whose day comes next and its deadline); both armies' morale
and the reinforcements still due (the side's own by id and name, the enemy's
as counts per hour); the side's blocks on the map and the enemy blocks it can
see; what happened during the day as the side saw it; every decision taken on
its behalf (by its standing orders, by default, or by an answer on record);
its standing orders in force and the command limits; and an orders template
for its next day, ready to edit and send back (or a standing-orders-only
template when the next day is the enemy's).

The frame (heading, events, decisions, standing orders, the orders form) and
the reading of the game are the family's (pbem.games.simmons.report).
Hidden information is enforced by how the report is built. :func:`build_report`
reads the game (``facts_of``) for exactly three things: the side's view of the position after
the day (``game.view(side, day)``, see ``pbem.games.marengo.view``), the day's
events as the side saw them (``events_for``) and the decisions put to that
side. Everything else (:func:`compose`) works on those alone, plus the public
map and clock, and never sees a Block of either side. An enemy block is
therefore only ever a count at a place, with its type and strength while the
view says it stands revealed.

``side=None`` is the moderator's report (everything, with every side's orders
and every decision); ``spectator=True`` is the report of a finished game for
onlookers (everything, but no standing orders and no orders texts).

This module reads the game; ``facts.py`` holds what a report is built from,
``sections.py`` the report's sections and :func:`compose`, ``template.py`` the
orders template, and ``document.py`` the document rendered to Markdown, text and HTML.
"""

from __future__ import annotations

from pbem.games.marengo.parse import ORDER_WORDS
from pbem.games.marengo.scenario import SIDE_ADJ, SIDE_NAME
from pbem.report.document import (
    CSS, Bullets, Code, Document, Heading, Para, Report, Table, md_cell, md_escape, to_html, to_markdown, to_text,
)
from pbem.games.marengo.report.facts import (
    COMMAND_LIMIT, NO_DEADLINE, ROAD_CAPACITY, ROAD_ENTRIES, Facts, hour_label, natural, side_name,
)
from pbem.games.marengo.report.sections import SOURCES, compose, group_events
from pbem.games.marengo.words import marengo_tongue
from pbem.games.simmons.report import facts_of, opening_facts
from pbem.games.marengo.report.template import order_template

__all__ = [
    "COMMAND_LIMIT", "CSS", "NO_DEADLINE", "ORDER_WORDS", "ROAD_CAPACITY", "ROAD_ENTRIES", "SIDE_ADJ", "SIDE_NAME",
    "SOURCES", "Bullets", "Code", "Document", "Facts", "Heading", "Para", "Report", "Table", "all_reports",
    "build_report", "compose", "group_events", "hour_label", "md_cell", "md_escape", "natural", "order_template",
    "report_for_day", "opening_template", "side_name", "to_html", "to_markdown", "to_text",
]


def build_report(game, day: int, side: str | None, deadline: str | None = None, game_label: str = "",
                 spectator: bool = False, game_id: str = "", lang: str = "en") -> Report:
    """The report of day ``day`` (0-based, as in ``game.days``) for ``side``.

    ``side=None``: the moderator's report; ``spectator=True``: a finished
    game's report for onlookers (``side`` is ignored). ``deadline`` is the
    next day's deadline as the server words it; ``lang`` the reader's language.
    """
    return compose(facts_of(game, day, side, deadline, game_label, spectator, game_id, marengo_tongue(lang)))


def report_for_day(game, day: int | None = None, side: str | None = None, **options) -> Report:
    """``build_report`` with the last resolved day by default."""
    if day is None:
        day = len(game.days) - 1
    return build_report(game, day, side, **options)


def all_reports(game, day: int, deadline: str | None = None, game_label: str = "") -> dict:
    """{side: its report, for every side} and {None: the moderator's report}."""
    sides = game.seats()
    out = {s: build_report(game, day, s, deadline, game_label) for s in sides}
    out[None] = build_report(game, day, None, deadline, game_label)
    return out


def opening_template(game, side: str, deadline: str | None, game_label: str = "", game_id: str = "",
                     lang: str = "en") -> str:
    """The orders template of a side before any day has been resolved (its welcome mail)."""
    return order_template(opening_facts(game, side, deadline, game_label, game_id, marengo_tongue(lang)))
