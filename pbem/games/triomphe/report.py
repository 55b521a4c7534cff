"""A Triomphe player's turn report: the family's frame (pbem.games.simmons.report:
heading, what happened, decisions, standing orders, orders received, the orders
form) with Triomphe's sections.

Built from the side's view (view.py), its events and its decisions only, so it
cannot show what the side may not know. Triomphe's sections (issue 10 §4): both
armies' morale discs, uncommitted and committed by locale, and the discs still
to come on the time track; the orders spent; the waiting cells with their
counts (and the face-up Austrian artillery); the side's blocks (disorganised,
bombarding); the enemy blocks in sight, disorganised, and those revealed and
why. What happened is grouped as a turn unfolds: its start (discs received,
recovery, 000 §5), the actions in the order written (§6), the end of the game.
"""

from __future__ import annotations

from pbem.games.simmons.clock import parse_hour
from pbem.games.simmons.lang import colon, then, tongue
from pbem.games.simmons.report import Facts, ReportFrame, facts_of, natural, opening_facts
from pbem.report.document import Bullets, Document, Heading, Para, Report, Table

from .scenario import Scenario
from .template import template
from .words import triomphe_tongue

ORDERS = 3  # 000 §6
START_KINDS = {"turn", "discs", "recovery", "commit"}  # what the start of a turn tells (000 §5, §16, §18)
END_KINDS = {"victory"}


class TriompheReport(ReportFrame):
    """The family's report with Triomphe's sections; its orders form is template.py's."""

    TURN = "turn"

    def __init__(self, scenario: Scenario):
        self.scenario = scenario

    def body(self, doc: Document, facts: Facts) -> None:
        self.discs(doc, facts)
        self.waiting(doc, facts)
        for s in (facts.sides if facts.reader is None else (facts.reader,)):
            self.blocks(doc, facts, s)
        if facts.reader is not None:
            self.enemy(doc, facts)

    def discs(self, doc: Document, facts: Facts) -> None:
        t = facts.tongue
        _ = t.gettext
        v = facts.view
        rows = []
        for s in facts.sides:
            committed = t.listed([f"{facts.name(lid)} {n}" for lid, n in sorted(v["committed"][s].items())]) \
                or _("none")
            track = t.listed([colon(facts.clock(parse_hour(h)), n) for h, n in v["track"][s].items()]) \
                or _("none")
            rows.append([facts.side(s), str(v["morale"][s]), str(v["uncommitted"][s]), committed, track,
                         facts.yes(v["demoralised"].get(s))])
        doc.add(Heading(2, _("Morale discs")),
                Table([_("Army"), _("Morale"), _("Uncommitted"), _("Committed"), _("Still on the time track"),
                       _("Demoralised")], rows),
                Para(t.ngettext("%(num)d of %(orders)d orders were spent in the turn just played (000 §6).",
                                "%(num)d of %(orders)d orders were spent in the turn just played (000 §6).",
                                v["orders_spent"], orders=ORDERS)))

    def waiting(self, doc: Document, facts: Facts) -> None:
        t = facts.tongue
        items = []
        for s in facts.sides:
            for cell in facts.view["waiting"][s]:
                shown = [t.gettext("face up: %(type)s %(strength)s", type=facts.kind(b["type"]), strength=b["strength"])
                         for b in cell["face_up"]]
                hour = facts.clock(parse_hour(cell["hour"])) if cell["hour"] else ""
                items.append(t.say(then(t.ngettext("%(side)s, %(cell)s (from %(hour)s): %(num)d block",
                                                   "%(side)s, %(cell)s (from %(hour)s): %(num)d blocks", cell["count"],
                                                   side=facts.side(s), cell=cell_name(facts, cell["cell"]),
                                                   hour=hour), *shown)))
        doc.add(Heading(2, t.gettext("Waiting cells")),
                Bullets(items or [t.gettext("All reinforcements have entered.")]))

    def blocks(self, doc: Document, facts: Facts, side: str) -> None:
        _ = facts.tongue.gettext
        mine = [b for b in facts.view["blocks"] if b["side"] == side]
        doc.add(Heading(2, _("Your blocks") if side == facts.reader
                        else {"austria": _("Austrian blocks"), "france": _("French blocks")}[side]))
        rows = []
        on_map = facts.sort_blocks([b for b in mine if b["status"] == "map"])
        waiting = sorted((b for b in mine if b["status"] == "waiting"), key=lambda b: natural(b["id"]))
        for b in on_map + waiting:
            where = (facts.place(b["locale"], b["facing"]) if b["status"] == "map"
                     else _("waiting (%(cell)s)", cell=cell_name(facts, b["cell"])))
            notes = ", ".join(x for x in (_("disorganised") if b["disorganised"] else "",
                                           _("bombardment into %(locale)s", locale=facts.name(b["bombard"]))
                                           if b["bombard"] else "") if x)
            rows.append([b["id"], b["name"], facts.kind(b["type"]), str(b["strength"]), where, notes or "-"])
        doc.add(Table([_("Id"), _("Name"), _("Type"), _("Strength"), _("Where"), _("Notes")], rows) if rows
                else Para(_("No blocks.")))
        gone = sorted((b for b in mine if b["status"] == "eliminated"), key=lambda b: natural(b["id"]))
        if gone:
            doc.add(Para(facts.tongue.listed([f"{b['id']} {b['name']} ({facts.kind(b['type'])})" for b in gone]) + ".",
                         strong=_("Eliminated:")))

    def enemy(self, doc: Document, facts: Facts) -> None:
        """The enemy blocks in sight: counts per place, disorganised, and what stands revealed and why."""
        t = facts.tongue
        _ = t.gettext
        groups: dict[tuple, list[dict]] = {}
        for e in facts.view["enemy"]:
            groups.setdefault((e["locale"], e["facing"]), []).append(e)
        doc.add(Heading(2, _("Enemy blocks in sight")))
        if not groups:
            doc.add(Para(_("None on the map.")))
            return
        order = facts.locale_order()
        rows = []
        for (lid, facing), seen in sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], 10**6),
                                                                          kv[0][1] is not None,
                                                                          order.get(kv[0][1], -1))):
            shown = [f"{facts.kind(r['type'])} {r['strength']} ({_(r['why'])})" for r in (e["revealed"] for e in seen)
                     if r]
            disorganised = sum(1 for e in seen if e["disorganised"])
            rows.append([facts.place(lid, facing), str(len(seen)), str(disorganised) if disorganised else "-",
                         t.say(then(*shown)) if shown else "-"])
        doc.add(Table([_("Where"), _("Blocks"), _("Disorganised"), _("Revealed")], rows))

    def commands(self, doc: Document, facts: Facts) -> None:
        _ = facts.tongue.gettext
        doc.add(Para(_("Commands:")), Bullets([
            _("Orders: %(orders)d a turn (000 §6); each action but a defensive march, a march all along main roads, "
              "the pontoon and a bombardment costs one; actions are carried out in the order written.",
              orders=ORDERS),
            _("A block takes part in one action a turn (REORGANISE aside), at most three blocks an action."),
            _("Road steps: a road march is three steps; one block a step crosses a crossing, each later than the "
              "one before, all in the same direction (000 §8)."),
        ]))

    def group_events(self, events: list[dict], facts: Facts | None = None) -> list[tuple[str, list[str]]]:
        """The start of the turn, its actions in the order written, the end of the game."""
        t = facts.tongue if facts is not None else tongue("en")
        titles = [t.gettext("Start of the turn"), t.gettext("Actions"), t.gettext("End of the game")]
        groups: list[tuple[str, list[str]]] = []
        phase = -1
        for e in events:
            kind = e["kind"]
            p = 2 if kind in END_KINDS else 0 if (kind in START_KINDS and phase <= 0) else 1
            if p > phase:
                phase = p
                groups.append((titles[p], []))
            groups[-1][1].append(e["text"])
        return groups

    def template(self, facts: Facts) -> str:
        label = facts.game_id or facts.game_label or "<game>"
        return template(self.scenario, facts.view, game=label, deadline=facts.deadline, tongue=facts.tongue)


def build_report(game, day: int, side: str | None, deadline: str | None = None, game_label: str = "",
                 spectator: bool = False, game_id: str = "", lang: str = "en") -> Report:
    """The report of turn ``day`` (0-based, as in ``game.days``) for ``side`` (None: the moderator).
    ``lang``: the reader's language."""
    return TriompheReport(game.scenario).compose(facts_of(game, day, side, deadline, game_label, spectator, game_id,
                                                          triomphe_tongue(lang)))


def opening_template(game, side: str, deadline: str | None, game_label: str = "", game_id: str = "",
                     lang: str = "en") -> str:
    """The orders form of a side before any turn has been resolved (its welcome mail), in ``lang``."""
    return TriompheReport(game.scenario).template(opening_facts(game, side, deadline, game_label, game_id,
                                                                triomphe_tongue(lang)))


__all__ = ["TriompheReport", "build_report", "opening_template"]


def cell_name(facts: Facts, cell: str) -> str:
    """A waiting cell as the reader names it: a cell named by its hour (the French "4PM") in the reader's clock
    (16 h, 16:00, 16时; English 4PM, as the board prints it), Alessandria's as the town is written (the map's data
    names it "alessandria", an id no reader should meet)."""
    try:
        hour = parse_hour(cell)
    except ValueError:
        return cell[:1].upper() + cell[1:]
    return cell if facts.tongue.lang == "en" else facts.clock(hour)
