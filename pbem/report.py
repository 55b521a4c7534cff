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

Hidden information is enforced by how the report is built. :func:`build_report`
reads the game for exactly three things: the side's view of the position after
the day (``game.view(side, day)``, see ``pbem.games.marengo.view``), the day's
events as the side saw them (``events_for``) and the decisions put to that
side. Everything else (:func:`compose`) works on those alone, plus the public
map and clock, and never sees a Block of either side. An enemy block is
therefore only ever a count at a place, with its type and strength while the
view says it stands revealed.

``side=None`` is the moderator's report (everything, with every side's orders
and every decision); ``spectator=True`` is the report of a finished game for
onlookers (everything, but no standing orders and no orders texts).
"""

from __future__ import annotations

import html as html_lib
import re
import textwrap
from dataclasses import dataclass, field
from functools import cached_property

import markdown as markdown_lib

from pbem.core.events import events_for

SIDE_NAME = {"austria": "Austria", "france": "France"}
SIDE_ADJ = {"austria": "Austrian", "france": "French"}
COMMAND_LIMIT = 3  # 003 §8, "la limite de commandement"
ROAD_CAPACITY = 3  # 003 §8: three blocks may cross one approach along one road in a turn
ROAD_ENTRIES = 3  # blocks that may enter by one road entry point in a day (003 §8, rules notes V4)
ORDER_WORDS = ("ACTIVATE", "ASSAULT", "MOVE", "ROAD", "EXTEND", "ENTER", "BOMBARD", "FIRE", "HOLD",
               "STANDING", "FINAL")
SOURCES = {
    "standing": "your standing orders",
    "default": "the default",
    "log": "the answer on record",
    "orders": "the day's orders",
}
NO_DEADLINE = "(deadline set by the server)"


def side_name(side: str | None) -> str:
    return SIDE_NAME.get(side or "", (side or "").capitalize())


def hour_label(hour: int) -> str:
    """6 -> '6AM', 12 -> '12PM', 13 -> '1PM' (the printed time track)."""
    suffix = "AM" if hour < 12 else "PM"
    return f"{hour % 12 or 12}{suffix}"


def natural(text: str):
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", text)]


# -- the result -----------------------------------------------------------------


@dataclass
class Report:
    """One reader's report of one day: the same content in three forms.

    ``html`` is made when first read (it is the slow one), from the Markdown
    the report was built with: changing ``markdown`` afterwards does not change it.
    """

    side: str | None  # None: moderator or spectator
    day: int
    subject: str
    markdown: str
    text: str
    template: str = ""  # the orders template (also inside the report); "" when there is none
    spectator: bool = False
    title: str = ""
    source: str = field(default="", repr=False, compare=False)  # the Markdown ``html`` is made from

    @cached_property
    def html(self) -> str:
        return to_html(self.source or self.markdown, self.title or self.subject)

    def __str__(self) -> str:
        return self.text


# -- the document model: rendered to Markdown and to plain text -------------------


@dataclass
class Heading:
    level: int
    text: str


@dataclass
class Para:
    text: str
    strong: str = ""  # a bold lead-in ("Next:")


@dataclass
class Bullets:
    items: list[str]
    wrap: bool = True  # in plain text; events are not wrapped, one line each


@dataclass
class Table:
    headers: list[str]
    rows: list[list[str]]


@dataclass
class Code:
    text: str


@dataclass
class Document:
    title: str
    parts: list = field(default_factory=list)

    def add(self, *parts) -> None:
        self.parts.extend(parts)


_MD_SPECIAL = re.compile(r"([\\`*_\[\]])")


def md_escape(text: str) -> str:
    """Text for Markdown: emphasis and link characters escaped, raw HTML defused."""
    text = _MD_SPECIAL.sub(r"\\\1", text)
    return text.replace("&", "&amp;").replace("<", "&lt;")


def md_cell(text: str) -> str:
    return md_escape(text).replace("|", "\\|") or " "


def to_markdown(doc: Document) -> str:
    out = [f"# {md_escape(doc.title)}", ""]
    for part in doc.parts:
        if isinstance(part, Heading):
            out += ["#" * part.level + " " + md_escape(part.text), ""]
        elif isinstance(part, Para):
            lead = f"**{md_escape(part.strong)}** " if part.strong else ""
            out += [lead + md_escape(part.text), ""]
        elif isinstance(part, Bullets):
            out += [f"- {md_escape(item)}" for item in part.items] + [""]
        elif isinstance(part, Table):
            out.append("| " + " | ".join(md_cell(h) for h in part.headers) + " |")
            out.append("|" + "|".join("---" for _ in part.headers) + "|")
            out += ["| " + " | ".join(md_cell(c) for c in row) + " |" for row in part.rows]
            out.append("")
        elif isinstance(part, Code):
            out += ["```text", part.text.rstrip("\n"), "```", ""]
    return "\n".join(out).rstrip("\n") + "\n"


def to_text(doc: Document) -> str:
    """Plain text: underlined headings, aligned tables, the template between cut lines."""
    out = [doc.title, "=" * min(len(doc.title), 78), ""]
    for part in doc.parts:
        if isinstance(part, Heading):
            rule = "-" if part.level <= 2 else "."
            out += [part.text, rule * min(len(part.text), 78), ""]
        elif isinstance(part, Para):
            lead = f"{part.strong} " if part.strong else ""
            out += textwrap.wrap(lead + part.text, 78, break_long_words=False, break_on_hyphens=False) or [""]
            out.append("")
        elif isinstance(part, Bullets):
            for item in part.items:
                if part.wrap:
                    out += textwrap.wrap(f"- {item}", 78, subsequent_indent="  ", break_long_words=False,
                                         break_on_hyphens=False)
                else:
                    out.append(f"- {item}")
            out.append("")
        elif isinstance(part, Table):
            rows = [part.headers] + part.rows
            widths = [max(len(r[i]) for r in rows) for i in range(len(part.headers))]

            def line(row):
                return "  ".join(c.ljust(w) for c, w in zip(row, widths)).rstrip()

            out.append(line(part.headers))
            out.append("  ".join("-" * w for w in widths))
            out += [line(r) for r in part.rows]
            out.append("")
        elif isinstance(part, Code):
            out += ["-------- cut here --------", part.text.rstrip("\n"), "-------- cut here --------", ""]
    return "\n".join(out).rstrip("\n") + "\n"


CSS = """
body { font-family: Georgia, 'Times New Roman', serif; color: #222; background: #fff; }
.report { max-width: 46em; margin: 0 auto; padding: 0.5em 1em; line-height: 1.4; }
h1 { font-size: 1.35em; border-bottom: 2px solid #7a1f1f; padding-bottom: 0.2em; }
h2 { font-size: 1.15em; color: #7a1f1f; margin-top: 1.4em; }
h3 { font-size: 1em; margin-bottom: 0.3em; }
table { border-collapse: collapse; margin: 0.4em 0 1em 0; font-size: 0.92em; }
th, td { border: 1px solid #bbb; padding: 0.2em 0.5em; text-align: left; vertical-align: top; }
th { background: #eee6d8; }
pre { background: #f6f3ec; border: 1px solid #ccc; padding: 0.6em; font-size: 0.88em; overflow-x: auto; }
code { font-family: Menlo, Consolas, 'DejaVu Sans Mono', monospace; }
ul { padding-left: 1.4em; }
"""

# inline styles as well, for mail clients that drop <style>
_INLINE = {
    "<table>": '<table style="border-collapse:collapse;margin:0.4em 0 1em 0;font-size:0.92em">',
    "<th>": '<th style="border:1px solid #bbb;padding:0.2em 0.5em;text-align:left;background:#eee6d8">',
    "<td>": '<td style="border:1px solid #bbb;padding:0.2em 0.5em;text-align:left;vertical-align:top">',
    "<pre>": '<pre style="background:#f6f3ec;border:1px solid #ccc;padding:0.6em;font-size:0.88em">',
}


def to_html(md: str, title: str) -> str:
    body = markdown_lib.markdown(md, extensions=["tables", "fenced_code", "sane_lists"], output_format="html")
    for plain, styled in _INLINE.items():
        body = body.replace(plain, styled)
    return (
        "<!DOCTYPE html>\n<html>\n<head>\n<meta charset=\"utf-8\">\n"
        f"<title>{html_lib.escape(title)}</title>\n<style>{CSS}</style>\n</head>\n"
        "<body>\n<div class=\"report\" style=\"max-width:46em;font-family:Georgia,serif;line-height:1.4\">\n"
        f"{body}\n</div>\n</body>\n</html>\n"
    )


# -- what a report is built from ------------------------------------------------------


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


def build_report(game, day: int, side: str | None, deadline: str | None = None, game_label: str = "",
                 spectator: bool = False, game_id: str = "") -> Report:
    """The report of day ``day`` (0-based, as in ``game.days``) for ``side``.

    ``side=None``: the moderator's report; ``spectator=True``: a finished
    game's report for onlookers (``side`` is ignored). ``deadline`` is the
    next day's deadline as the server words it.
    """
    if not 0 <= day < len(game.days):
        raise ValueError(f"day {day} has not been resolved (resolved: 0 to {len(game.days) - 1})")
    if spectator:
        if not game.over:
            raise ValueError("a spectator report is for a finished game")
        side = None
    sides = tuple(game.sides()) if hasattr(game, "sides") else tuple(game.ruleset.SIDES)
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
    facts = Facts(
        reader=side,
        spectator=spectator,
        game_title=getattr(game.ruleset, "TITLE", ""),
        scenario_name=scenario.name,
        game_label=game_label,
        game_id=str(game_id),
        board=scenario.board,
        day=day,
        played_side=result.side,
        played_hour=scenario.hour(day),
        rounds=scenario.rounds,
        first_hour=scenario.first_hour,
        sides=sides,
        view=game.view(side, day),
        events=events_for(result.events, side),
        decisions=decisions,
        deadline=deadline,
        retreat_toward=dict(scenario.retreat_toward or {}),
        orders=orders,
    )
    return compose(facts)


def report_for_day(game, day: int | None = None, side: str | None = None, **options) -> Report:
    """``build_report`` with the last resolved day by default."""
    if day is None:
        day = len(game.days) - 1
    return build_report(game, day, side, **options)


def all_reports(game, day: int, deadline: str | None = None, game_label: str = "") -> dict:
    """{side: its report, for every side} and {None: the moderator's report}."""
    sides = tuple(game.sides()) if hasattr(game, "sides") else tuple(game.ruleset.SIDES)
    out = {s: build_report(game, day, s, deadline, game_label) for s in sides}
    out[None] = build_report(game, day, None, deadline, game_label)
    return out


# -- composing ----------------------------------------------------------------------


def compose(facts: Facts) -> Report:
    """The report from ``facts`` alone (see :class:`Facts`)."""
    doc = Document(title=_title(facts))
    _heading(doc, facts)
    _morale(doc, facts)
    _reinforcements(doc, facts)
    if facts.reader is None:
        for s in facts.sides:
            _blocks(doc, facts, s)
    else:
        _blocks(doc, facts, facts.reader)
        _enemy(doc, facts)
    _events(doc, facts)
    _decisions(doc, facts)
    if not facts.spectator:
        _standing(doc, facts)
    if facts.reader is None and facts.orders:
        _orders_sent(doc, facts)
    template = ""
    if facts.reader is not None and not facts.view["over"]:
        template = order_template(facts)
        next_side = facts.view["next_side"]
        what = "Orders" if next_side == facts.reader else "Standing orders"
        doc.add(Heading(2, f"{what} for {hour_label(facts.view['hour'])} ({side_name(next_side)}'s day)"),
                Para("Edit the text below and send it back as the body of a mail, header line first. "
                     "Lines starting with # are comments; remove the # in front of an example to use it.")
                if next_side == facts.reader else
                Para("The next day is the enemy's: only STANDING orders can be sent now. They answer, "
                     "in advance, the choices the enemy's day may put to you."),
                Code(template))
    md = to_markdown(doc)
    return Report(side=facts.reader, day=facts.day, subject=_subject(facts), markdown=md, text=to_text(doc),
                  template=template, spectator=facts.spectator, title=doc.title, source=md)


def _full_name(facts: Facts) -> str:
    """The game and scenario, without saying the game's name twice."""
    if not facts.game_title or facts.scenario_name.startswith(facts.game_title):
        return facts.scenario_name
    return f"{facts.game_title}: {facts.scenario_name}"


def _label(facts: Facts) -> str:
    return facts.game_label or facts.scenario_name


def _title(facts: Facts) -> str:
    return (f"{_label(facts)}: {side_name(facts.played_side)}'s day, {hour_label(facts.played_hour)} "
            f"(round {facts.day // len(facts.sides) + 1} of {facts.rounds})")


def _reader_words(facts: Facts) -> str:
    if facts.spectator:
        return "spectators"
    if facts.reader is None:
        return "the moderator"
    return side_name(facts.reader)


def _subject(facts: Facts) -> str:
    v = facts.view
    played = f"{side_name(facts.played_side)} {hour_label(facts.played_hour)}"
    tag = f"pbem {facts.game_id}" if facts.game_id else facts.game_label
    prefix = f"[{tag}] " if tag else ""
    if v["over"]:
        tail = "game over" + (f", {side_name(v['winner'])} wins" if v.get("winner") else "")
    elif facts.reader is not None and v["next_side"] == facts.reader:
        tail = f"your orders for {hour_label(v['hour'])}"
    else:
        tail = f"next: {side_name(v['next_side'])} {hour_label(v['hour'])}"
    return f"{prefix}Report for {_reader_words(facts)}: {played} played; {tail}"


def _heading(doc: Document, facts: Facts) -> None:
    v = facts.view
    lines = [
        Para(f"{_full_name(facts)}. "
             f"Report for {_reader_words(facts)}.", strong="Game:"),
        Para(f"{side_name(facts.played_side)}'s day at {hour_label(facts.played_hour)} has been played "
             f"(day {facts.day + 1} of {facts.rounds * len(facts.sides)}).", strong="Played:"),
    ]
    if v["over"]:
        lines.append(Para(v.get("victory") or "The game is over.", strong="The game is over."))
    else:
        nxt = v["next_side"]
        whose = "your day" if nxt == facts.reader else f"{side_name(nxt)}'s day"
        if facts.reader is not None and nxt != facts.reader:
            whose += " (you may send standing orders)"
        lines.append(Para(f"{hour_label(v['hour'])}, {whose}. Deadline: {facts.deadline or NO_DEADLINE}.",
                          strong="Next:"))
    doc.add(*lines)


def _morale(doc: Document, facts: Facts) -> None:
    v = facts.view
    rows = [[side_name(s), str(v["morale"].get(s, "?")), "yes" if v["demoralised"].get(s) else "no"]
            for s in facts.sides]
    doc.add(Heading(2, "Morale"), Table(["Army", "Morale", "Demoralised"], rows))


def _reinforcements(doc: Document, facts: Facts) -> None:
    v = facts.view
    doc.add(Heading(2, "Reinforcements still due"))
    own_hour = _own_next_hour(facts)
    for s in facts.sides:
        due = v["reinforcements"].get(s, [])
        if facts.reader is None or s == facts.reader:
            if not due:
                doc.add(Para(f"{side_name(s)}: none.", ))
                continue
            rows = []
            for r in sorted(due, key=lambda r: (r.get("arrives") or 0, natural(r["id"]))):
                when = hour_label(r["arrives"]) if r.get("arrives") is not None else "any time"
                if facts.reader is not None and own_hour is not None and (r.get("arrives") or 0) <= own_hour:
                    when += " (may enter now)"
                rows.append([r["id"], r["name"], r["type"], str(r["strength"]), when])
            doc.add(Para(f"{side_name(s)}{' (yours)' if s == facts.reader else ''}:"),
                    Table(["Id", "Name", "Type", "Strength", "From"], rows))
        else:
            if not due:
                doc.add(Para(f"{side_name(s)} (enemy): none."))
                continue
            total = sum(r["count"] for r in due)
            items = [f"{r['count']} block{'s' if r['count'] != 1 else ''} from {hour_label(r['arrives'])}"
                     for r in due]
            doc.add(Para(f"{side_name(s)} (enemy): {total} block{'s' if total != 1 else ''} still to come: "
                         + "; ".join(items) + "."))


def _own_next_hour(facts: Facts) -> int | None:
    """The hour of the reader's next own day (None when the game is over)."""
    v = facts.view
    if v["over"] or facts.reader is None:
        return None
    d = v["day"]
    while facts.side_of_day(d) != facts.reader:
        d += 1
    return facts.hour(d)


def _locale_order(facts: Facts) -> dict:
    return {lid: i for i, lid in enumerate(facts.board.locales)}


def _sort_blocks(facts: Facts, blocks: list[dict]) -> list[dict]:
    order = _locale_order(facts)
    return sorted(blocks, key=lambda b: (order.get(b["locale"], 10**6), b["facing"] is not None,
                                         order.get(b["facing"], -1), natural(b["id"])))


def _blocks(doc: Document, facts: Facts, side: str) -> None:
    mine = [b for b in facts.view["blocks"] if b["side"] == side]
    on_map = _sort_blocks(facts, [b for b in mine if b["status"] == "map"])
    title = "Your blocks" if side == facts.reader else f"{SIDE_ADJ[side]} blocks"
    doc.add(Heading(2, title))
    if on_map:
        rows = []
        for b in on_map:
            position = "reserve" if b["facing"] is None else facts.place(b["locale"], b["facing"])
            bombard = f"toward {facts.name(b['bombard'])}" if b.get("bombard") else "-"
            rows.append([b["id"], b["name"], b["type"], str(b["strength"]), facts.name(b["locale"]), position,
                         "yes" if b["activated"] else "no", bombard])
        doc.add(Table(["Id", "Name", "Type", "Strength", "Locale", "Position", "Activated", "Bombardment"],
                      rows))
    else:
        doc.add(Para("No blocks on the map."))
    gone = sorted((b for b in mine if b["status"] == "eliminated"), key=lambda b: natural(b["id"]))
    if gone:
        doc.add(Para(", ".join(f"{b['id']} {b['name']} ({b['type']})" for b in gone) + ".",
                     strong="Eliminated:"))


def _enemy(doc: Document, facts: Facts) -> None:
    """The enemy blocks in sight: counts per place, and what stands revealed."""
    groups: dict[tuple, list[dict]] = {}
    for e in facts.view["enemy"]:
        groups.setdefault((e["locale"], e["facing"]), []).append(e)
    order = _locale_order(facts)
    foe = next((s for s in facts.sides if s != facts.reader), "")
    doc.add(Heading(2, f"Enemy blocks in sight ({SIDE_ADJ.get(foe, foe)})"))
    if not groups:
        doc.add(Para("None on the map."))
        return
    rows = []
    for (locale, facing), seen in sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], 10**6),
                                                                         kv[0][1] is not None,
                                                                         order.get(kv[0][1], -1))):
        revealed = sorted(f"{r['revealed']['type']} {r['revealed']['strength']}" for r in seen if r["revealed"])
        position = "reserve" if facing is None else facts.place(locale, facing)
        rows.append([facts.name(locale), position, str(len(seen)), ", ".join(revealed) or "-"])
    total = sum(len(s) for s in groups.values())
    doc.add(Table(["Locale", "Position", "Blocks", "Revealed"], rows),
            Para(f"{total} enemy block{'s' if total != 1 else ''} on the map. An enemy block shows its type "
                 "and strength only while it stands revealed (a declared bombardment, 003 §10)."))


# the day's events, grouped by the step of the sequence of play they belong to (003 §7)
_PHASE_OF_KIND = {
    "morale": 0, "day": 0, "activate": 0,
    "bombard": 1,
    "assault": 2,
    "move": 3, "road": 3, "extend": 3, "attack": 3, "block": 3, "entry": 3, "return": 3, "note": 3,
    "declare": 4,
    "victory": 5,
}
_PHASE_OF_ORDER = {"ACTIVATE": 0, "FIRE": 1, "HOLD": 1, "ASSAULT": 2, "MOVE": 3, "ROAD": 3, "EXTEND": 3,
                   "ENTER": 3, "BOMBARD": 4}
_PHASE_TITLE = ["Start of the day", "Bombardments", "Assault", "Movement", "Bombardments declared",
                "End of the game"]


def group_events(events: list[dict]) -> list[tuple[str, list[str]]]:
    """[(title, texts)] in the order they happened: one group per step, one per assault."""
    groups: list[tuple[str, list[str]]] = []
    phase = -1
    assaults = 0
    for e in events:
        p = _PHASE_OF_KIND.get(e["kind"])
        if e["kind"] == "void":
            m = re.search(r"not carried out: ([A-Z]+)", e["text"])
            p = _PHASE_OF_ORDER.get(m.group(1)) if m else None
        new = p is not None and (p > phase or (p == 2 and e["kind"] == "assault"))
        if new:
            phase = p
            title = _PHASE_TITLE[p]
            if p == 2:
                assaults += 1
                title = f"Assault {assaults}"
            groups.append((title, []))
        elif not groups:
            groups.append((_PHASE_TITLE[0], []))
        groups[-1][1].append(e["text"])
    return groups


def _events(doc: Document, facts: Facts) -> None:
    title = "What happened" if facts.reader is None else f"What happened, as {side_name(facts.reader)} saw it"
    doc.add(Heading(2, title))
    groups = group_events(facts.events)
    if not groups:
        doc.add(Para("Nothing was seen."))
    for name, texts in groups:
        doc.add(Heading(3, name), Bullets(texts, wrap=False))


def _decisions(doc: Document, facts: Facts) -> None:
    if facts.reader is None:
        doc.add(Heading(2, "Decisions"))
        if not facts.decisions:
            doc.add(Para("No decision was put to either side."))
            return
        rows = [[str(r.index), side_name(r.decision.side), r.decision.question, _answer(r),
                 SOURCES.get(r.source, r.source).replace("your ", "")] for r in facts.decisions]
        doc.add(Table(["#", "Side", "Question", "Answer", "Taken by"], rows))
        return
    doc.add(Heading(2, "Decisions taken on your behalf"))
    if not facts.decisions:
        doc.add(Para("None: no choice was put to you that your orders did not answer."))
        return
    rows = [[str(r.index), r.decision.question, _answer(r), SOURCES.get(r.source, r.source)]
            for r in facts.decisions]
    doc.add(Table(["#", "Question", "Answer", "Taken by"], rows))
    doc.add(Para("The number is the decision's place in the day; the moderator can change an answer by it."))


def _answer(record) -> str:
    return ", ".join(record.decision.label(k) for k in record.answer) or "none"


def _standing(doc: Document, facts: Facts) -> None:
    standing = facts.view.get("standing", {})
    doc.add(Heading(2, "Standing orders and commands"))
    for s in facts.sides:
        if facts.reader is not None and s != facts.reader:
            continue
        texts = standing.get(s, [])
        who = "Your standing orders" if s == facts.reader else f"{side_name(s)}'s standing orders"
        if texts:
            doc.add(Para(f"{who} in force:"), Bullets(texts, wrap=False))
        else:
            doc.add(Para(f"{who}: none; every choice the enemy's day puts to "
                         f"{'you' if s == facts.reader else 'it'} is answered by its default."))
    doc.add(Para("Commands:"), Bullets([
        f"Command limit: at most {COMMAND_LIMIT} group moves and/or assaults a day (003 §8). A road move "
        "or an entry all along a main road is free of it; a block crossing by the pontoon counts as a group.",
        f"Road capacity: at most {ROAD_CAPACITY} blocks cross one approach along one road in a day, one on "
        "its first, one on its second and one on its third move, all in the same direction (003 §8).",
        f"Reinforcements: at most {ROAD_ENTRIES} blocks a day enter by one road entry point (the first may go "
        "three locales, the second two, the third one); the Austrians bring one more by the pontoon.",
        "A block moves once a day; a locale holds at most its capacity of one side's blocks.",
    ]))


def _orders_sent(doc: Document, facts: Facts) -> None:
    doc.add(Heading(2, "Orders received for the day"))
    for s in facts.sides:
        text = facts.orders.get(s, "")
        if text.strip():
            doc.add(Heading(3, side_name(s)), Code(text))
        else:
            doc.add(Para(f"{side_name(s)}: no orders."))


# -- the orders template ---------------------------------------------------------------


def order_template(facts: Facts) -> str:
    """The orders form for the reader's next day (standing orders only on the enemy's day).

    The header and every example order are written the way the parser reads
    them (locale names, ``Locale>Toward`` approaches, the scenario's ids); the
    examples are comments until their ``#`` is removed.
    """
    v = facts.view
    side = facts.reader
    board = facts.board
    hour = v["hour"]
    own_day = v["next_side"] == side
    label = facts.game_id or facts.game_label or "<game>"
    lines = [f"GAME {label} SIDE {side_name(side)} TURN {hour_label(hour)} KEY <your-key>"]
    if own_day:
        lines += [f"# Your orders for {side_name(side)}'s day at {hour_label(hour)} "
                  f"(round {v['round']} of {v['rounds']}).",
                  f"# Deadline: {facts.deadline or NO_DEADLINE}.",
                  "# One order per line under the header; a line starting with # is ignored.",
                  f"# At most {COMMAND_LIMIT} group moves and assaults. Assaults are carried out first,",
                  "# then the moves, each in the order written.",
                  "# The examples below are suggestions, not advice: remove the # to use one."]
    else:
        lines += [f"# It is {side_name(v['next_side'])}'s day at {hour_label(hour)}: you may send "
                  f"STANDING orders only.",
                  f"# Deadline: {facts.deadline or NO_DEADLINE}.",
                  "# They answer in advance what the enemy's day may ask of you; each stays in force until",
                  "# replaced by one of the same kind and place, or cleared. Remove the # to use one."]
    mine = [b for b in v["blocks"] if b["side"] == side]
    on_map = _sort_blocks(facts, [b for b in mine if b["status"] == "map"])
    enemy_at: dict[str, int] = {}
    enemy_facing: dict[tuple, int] = {}
    for e in v["enemy"]:
        enemy_at[e["locale"]] = enemy_at.get(e["locale"], 0) + 1
        enemy_facing[(e["locale"], e["facing"])] = enemy_facing.get((e["locale"], e["facing"]), 0) + 1
    mine_at: dict[str, int] = {}
    for b in on_map:
        mine_at[b["locale"]] = mine_at.get(b["locale"], 0) + 1
    groups: dict[tuple, list[dict]] = {}
    for b in on_map:
        groups.setdefault((b["locale"], b["facing"]), []).append(b)

    lines += ["#", "# == Your blocks on the map =="]
    if not on_map:
        lines.append("# (none)")
    road_example = False
    for (locale, facing), group in groups.items():
        where = (f"reserve of {facts.name(locale)}" if facing is None
                 else f"approach {facts.place(locale, facing)}")
        near = [n for n in facts.adjacent(locale) if enemy_at.get(n)]
        note = f"; {mine_at[locale]} of yours here, capacity {board.locales[locale].capacity}"
        if enemy_at.get(locale):
            note += f"; {enemy_at[locale]} enemy here"
        if near and facing is None:
            note += "; enemy next door in " + ", ".join(facts.name(n) for n in near)
        lines.append(f"# -- {where}{note}")
        for b in group:
            extra = []
            if not b["activated"]:
                extra.append("not activated")
            if b.get("bombard"):
                extra.append(f"bombardment declared toward {facts.name(b['bombard'])}")
            lines.append(f"#    {b['id']} {b['name']}, {b['type']} {b['strength']}"
                         + (f" ({'; '.join(extra)})" if extra else ""))
        if own_day:
            examples, road_example = _place_examples(facts, locale, facing, group, enemy_at, enemy_facing,
                                                     mine_at, road_example)
            lines += [f"# {x}" for x in examples]
    if own_day:
        asleep = [b["id"] for b in on_map if not b["activated"]]
        if asleep and side == "france":
            lines += ["#", "# Activation (one on the first French day; two more each day a French start "
                      "locale is occupied by the enemy, or from 11AM):",
                      f"# ACTIVATE {' '.join(asleep[:2])}"]
    waiting = sorted((b for b in mine if b["status"] == "waiting"),
                     key=lambda b: ((b.get("arrives") or 0), natural(b["id"])))
    if waiting:
        lines += ["#", "# == Reinforcements =="]
        for b in waiting:
            when = "due now" if (b.get("arrives") or 0) <= hour else f"from {hour_label(b['arrives'])}"
            if not own_day:
                when = f"from {hour_label(b['arrives'])}" if b.get("arrives") is not None else "any time"
            lines.append(f"#    {b['id']} {b['name']}, {b['type']} {b['strength']}: {when}")
        if own_day:
            lines += [f"# {x}" for x in _entry_examples(facts, [b for b in waiting
                                                                if (b.get("arrives") or 0) <= hour])]
    lines += ["#", "# == Standing orders =="]
    in_force = v.get("standing", {}).get(side, [])
    if in_force:
        lines.append("# In force now:")
        lines += [f"#    {t}" for t in in_force]
    else:
        lines.append("# In force now: none (the defaults apply).")
    lines += [f"# {x}" for x in _standing_examples(facts, groups) if x not in in_force]
    if own_day:
        lines += ["#", "# To have the day resolved as soon as the deadline allows, end with:", "# FINAL"]
    return "\n".join(lines) + "\n"


def _place_examples(facts: Facts, locale: str, facing: str | None, group: list[dict], enemy_at: dict,
                    enemy_facing: dict, mine_at: dict, road_example: bool) -> tuple[list[str], bool]:
    board = facts.board
    name, place = facts.name, facts.place
    out: list[str] = []
    movers = [b for b in group if b["activated"]]
    ids = " ".join(b["id"] for b in movers)
    if facing is None:
        if movers:
            threats = [n for n in facts.adjacent(locale) if enemy_at.get(n)]
            if threats:
                out.append(f"MOVE {ids} {name(locale)} -> {place(locale, threats[0])}")
            room = {n: board.locales[n].capacity - mine_at.get(n, 0) for n in facts.adjacent(locale)
                    if not enemy_at.get(n)}
            free = sorted((n for n in room if room[n] > 0), key=lambda n: -min(room[n], len(movers)))
            if free:
                fit = " ".join(b["id"] for b in movers[:room[free[0]]])
                out.append(f"MOVE {fit} {name(locale)} -> {name(free[0])}")
            if not road_example:
                path = _road_path(board, locale, enemy_at)
                if len(path) > 1:
                    out.append(f"ROAD {movers[0]['id']} " + " -> ".join(name(p) for p in path))
                    road_example = True
    else:
        if movers and enemy_at.get(facing):
            target = board.approaches.get((facing, locale))
            obstacle = target is not None and target.cavalry_obstacle
            takers = [b for b in movers if not (obstacle and b["type"] == "cavalry")]
            leads = [b for b in takers if b["type"] in ("infantry", "cavalry")]
            if leads:
                pen = (lambda t: target.penalty(t)) if target is not None else (lambda t: 0)
                lead = max(leads, key=lambda b: (b["strength"] - pen(b["type"]), b["type"] == "infantry"))
                out.append(f"ASSAULT {place(locale, facing)} WITH {' '.join(b['id'] for b in takers)} "
                           f"LEAD {lead['id']}")
        if movers:
            out.append(f"MOVE {ids} {place(locale, facing)} -> {name(locale)}")
        for b in group:
            if b["type"] == "artillery" and not b.get("bombard"):
                out.append(f"BOMBARD {b['id']} FROM {place(locale, facing)}")
    for b in group:
        if b["type"] == "artillery" and b.get("bombard"):
            out.append(f"FIRE {b['id']}")
            out.append(f"HOLD FIRE {b['id']}")
    return out, road_example


def _road_path(board, start: str, enemy_at: dict) -> list[str]:
    """Up to two steps along a road from ``start``, avoiding the enemy."""
    path = [start]
    for _ in range(2):
        options = [n for n, _road in board.road_neighbours(path[-1]) if n not in path and not enemy_at.get(n)]
        if not options:
            break
        path.append(options[0])
    return path


def _entry_examples(facts: Facts, due: list[dict]) -> list[str]:
    board = facts.board
    side = facts.reader
    out = []
    taken: set[str] = set()
    for entry in board.entries.values():
        if entry.side != side:
            continue
        allowed = [b for b in due if b["id"] not in taken and (not b.get("entries") or entry.id in b["entries"])]
        if not allowed:
            continue
        if entry.kind == "pontoon":
            pick = allowed[:1]
            out.append(f"ENTER {pick[0]['id']} BY PONTOON")
        else:
            pick = allowed[:ROAD_ENTRIES]
            out.append(f"ENTER {' '.join(b['id'] for b in pick)} BY ROAD AT {entry.name}")
        taken.update(b["id"] for b in pick)
    return out


def _standing_examples(facts: Facts, groups: dict) -> list[str]:
    board = facts.board
    out = ["STANDING ARTILLERY DEFEND", "STANDING PURSUE STRONG", "STANDING LOSSES WEAKEST",
           "STANDING INFLICT STRONGEST", "STANDING BLOCK ALL ALWAYS"]
    goal = (facts.retreat_toward or {}).get(facts.reader)
    for (locale, facing), group in groups.items():
        if facing is not None:
            leads = [b for b in group if b["type"] in ("infantry", "cavalry")]
            if leads:
                out.append(f"STANDING LEAD {facts.place(locale, facing)} {leads[0]['id']}")
                break
    for (locale, facing), _group in groups.items():
        near = facts.adjacent(locale)
        if facing is None and near:
            if goal in board.locales:
                near = sorted(near, key=lambda n: facts.distance(n, goal))
            out.append(f"STANDING RETREAT {facts.name(locale)} TO {facts.name(near[0])}")
            break
    return out
