"""Marengo's report: the family's frame (pbem.games.simmons.report) with Marengo's
sections (morale, reinforcements, blocks, enemy blocks in sight), its events
grouped by the step of the sequence of play (003 §7), the command limits after
the standing orders, and its orders form (template.py)."""

from __future__ import annotations

import re

from pbem.games.marengo.scenario import SIDE_ADJ
from pbem.games.simmons.lang import Tongue, then
from pbem.games.simmons.lang import tongue as english
from pbem.games.simmons.report import ReportFrame
from pbem.report.document import Bullets, Document, Heading, Para, Report, Table
from pbem.games.marengo.report.facts import (
    COMMAND_LIMIT, ROAD_CAPACITY, ROAD_ENTRIES, Facts, natural,
)
from pbem.games.marengo.report.template import order_template
from pbem.games.marengo.words import in_words


class MarengoReport(ReportFrame):
    """The family's report with Marengo's sections."""

    TURN = "day"

    def body(self, doc: Document, facts: Facts) -> None:
        _morale(doc, facts)
        _reinforcements(doc, facts)
        if facts.reader is None:
            for s in facts.sides:
                _blocks(doc, facts, s)
        else:
            _blocks(doc, facts, facts.reader)
            _enemy(doc, facts)

    def group_events(self, events: list[dict], facts: Facts) -> list[tuple[str, list[str]]]:
        return group_events(events, facts.tongue)

    def commands(self, doc: Document, facts: Facts) -> None:
        _ = facts.tongue.gettext
        doc.add(Para(_("Commands:")), Bullets([
            _("Command limit: at most %(limit)d group moves and/or assaults a day (003 §8). A road move "
              "or an entry all along a main road is free of it; a block crossing by the pontoon counts as a group.",
              limit=COMMAND_LIMIT),
            _("Road capacity: at most %(capacity)d blocks cross one approach along one road in a day, one on "
              "its first, one on its second and one on its third move, all in the same direction (003 §8).",
              capacity=ROAD_CAPACITY),
            _("Reinforcements: at most %(entries)d blocks a day enter by one road entry point (the first may go "
              "three locales, the second two, the third one); the Austrians bring one more by the pontoon.",
              entries=ROAD_ENTRIES),
            _("A block moves once a day; a locale holds at most its capacity of one side's blocks."),
        ]))

    def template(self, facts: Facts) -> str:
        return order_template(facts)

    def in_words(self, order: str, facts: Facts) -> str:
        return in_words(order, facts.tongue.lang)


REPORT = MarengoReport()
SOURCES = {  # who took a decision, in English (the report words it in the reader's language: REPORT.sources)
    "standing": "your standing orders", "default": "the default", "log": "the answer on record",
    "orders": "the day's orders"}


def compose(facts: Facts) -> Report:
    """The report from ``facts`` alone (see :class:`Facts`)."""
    return REPORT.compose(facts)


def _morale(doc: Document, facts: Facts) -> None:
    _ = facts.tongue.gettext
    v = facts.view
    rows = [[facts.side(s), str(v["morale"].get(s, "?")), facts.yes(v["demoralised"].get(s))]
            for s in facts.sides]
    doc.add(Heading(2, _("Morale")), Table([_("Army"), _("Morale"), _("Demoralised")], rows))


def _reinforcements(doc: Document, facts: Facts) -> None:
    t = facts.tongue
    _ = t.gettext
    v = facts.view
    doc.add(Heading(2, _("Reinforcements still due")))
    own_hour = _own_next_hour(facts)
    for s in facts.sides:
        due = v["reinforcements"].get(s, [])
        if facts.reader is None or s == facts.reader:
            if not due:
                doc.add(Para(_("%(side)s: none.", side=facts.side(s))))
                continue
            rows = []
            for r in sorted(due, key=lambda r: (r.get("arrives") or 0, natural(r["id"]))):
                when = facts.clock(r["arrives"]) if r.get("arrives") is not None else _("any time")
                if facts.reader is not None and own_hour is not None and (r.get("arrives") or 0) <= own_hour:
                    when = _("%(when)s (may enter now)", when=when)
                rows.append([r["id"], r["name"], facts.kind(r["type"]), str(r["strength"]), when])
            doc.add(Para(_("%(side)s (yours):", side=facts.side(s)) if s == facts.reader
                         else _("%(side)s:", side=facts.side(s))),
                    Table([_("Id"), _("Name"), _("Type"), _("Strength"), _("From")], rows))
        else:
            if not due:
                doc.add(Para(_("%(side)s (enemy): none.", side=facts.side(s))))
                continue
            total = sum(r["count"] for r in due)
            items = [t.ngettext("%(num)d block from %(hour)s", "%(num)d blocks from %(hour)s", r["count"],
                                hour=facts.clock(r["arrives"])) for r in due]
            doc.add(Para(t.ngettext("%(side)s (enemy): %(num)d block still to come: %(items)s.",
                                    "%(side)s (enemy): %(num)d blocks still to come: %(items)s.", total,
                                    side=facts.side(s), items=t.say(then(*items)))))


def _own_next_hour(facts: Facts) -> int | None:
    """The hour of the reader's next own day (None when the game is over)."""
    v = facts.view
    if v["over"] or facts.reader is None:
        return None
    d = v["day"]
    while facts.side_of_day(d) != facts.reader:
        d += 1
    return facts.hour(d)


def _blocks(doc: Document, facts: Facts, side: str) -> None:
    _ = facts.tongue.gettext
    mine = [b for b in facts.view["blocks"] if b["side"] == side]
    on_map = facts.sort_blocks([b for b in mine if b["status"] == "map"])
    title = _("Your blocks") if side == facts.reader else {"austria": _("Austrian blocks"),
                                                          "france": _("French blocks")}.get(side, SIDE_ADJ[side])
    doc.add(Heading(2, title))
    if on_map:
        rows = []
        for b in on_map:
            position = _("reserve") if b["facing"] is None else facts.place(b["locale"], b["facing"])
            bombard = _("toward %(locale)s", locale=facts.name(b["bombard"])) if b.get("bombard") else "-"
            rows.append([b["id"], b["name"], facts.kind(b["type"]), str(b["strength"]), facts.name(b["locale"]),
                         position, facts.yes(b["activated"]), bombard])
        doc.add(Table([_("Id"), _("Name"), _("Type"), _("Strength"), _("Locale"), _("Position"), _("Activated"),
                       _("Bombardment")], rows))
    else:
        doc.add(Para(_("No blocks on the map.")))
    gone = sorted((b for b in mine if b["status"] == "eliminated"), key=lambda b: natural(b["id"]))
    if gone:
        doc.add(Para(facts.tongue.listed([f"{b['id']} {b['name']} ({facts.kind(b['type'])})" for b in gone]) + ".",
                     strong=_("Eliminated:")))


def _enemy(doc: Document, facts: Facts) -> None:
    """The enemy blocks in sight: counts per place, and what stands revealed."""
    t = facts.tongue
    _ = t.gettext
    groups: dict[tuple, list[dict]] = {}
    for e in facts.view["enemy"]:
        groups.setdefault((e["locale"], e["facing"]), []).append(e)
    order = facts.locale_order()
    foe = next((s for s in facts.sides if s != facts.reader), "")
    doc.add(Heading(2, {"austria": _("Enemy blocks in sight (Austrian)"),
                        "france": _("Enemy blocks in sight (French)")}.get(foe, f"Enemy blocks in sight ({foe})")))
    if not groups:
        doc.add(Para(_("None on the map.")))
        return
    rows = []
    for (locale, facing), seen in sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], 10**6),
                                                                         kv[0][1] is not None,
                                                                         order.get(kv[0][1], -1))):
        revealed = sorted(f"{facts.kind(r['revealed']['type'])} {r['revealed']['strength']}"
                          for r in seen if r["revealed"])
        position = _("reserve") if facing is None else facts.place(locale, facing)
        rows.append([facts.name(locale), position, str(len(seen)), facts.tongue.listed(revealed) or "-"])
    total = sum(len(s) for s in groups.values())
    doc.add(Table([_("Locale"), _("Position"), _("Blocks"), _("Revealed")], rows),
            Para(t.ngettext("%(num)d enemy block on the map.", "%(num)d enemy blocks on the map.", total) + " "
                 + _("An enemy block shows its type and strength only while it stands revealed (a declared "
                     "bombardment, 003 §10).")))


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


def _phase_titles(t: Tongue) -> list[str]:
    _ = t.gettext
    return [_("Start of the day"), _("Bombardments"), _("Assault"), _("Movement"), _("Bombardments declared"),
            _("End of the game")]


def group_events(events: list[dict], tongue: Tongue | None = None) -> list[tuple[str, list[str]]]:
    """[(title, texts)] in the order they happened: one group per step, one per assault (titles in
    ``tongue``'s language, English by default)."""
    t = tongue or english()
    _PHASE_TITLE = _phase_titles(t)
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
                title = t.gettext("Assault %(n)d", n=assaults)
            groups.append((title, []))
        elif not groups:
            groups.append((_PHASE_TITLE[0], []))
        groups[-1][1].append(e["text"])
    return groups


