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

from pbem.games.simmons.lang import tongue
from pbem.games.simmons.report import Facts, ReportFrame, facts_of, natural, opening_facts, side_name
from pbem.report.document import Bullets, Document, Heading, Para, Report, Table

from .scenario import SIDE_ADJ, Scenario
from .template import template

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
        v = facts.view
        rows = []
        for s in facts.sides:
            committed = ", ".join(f"{facts.name(lid)} {n}" for lid, n in sorted(v["committed"][s].items())) or "none"
            track = ", ".join(f"{h}: {n}" for h, n in v["track"][s].items()) or "none"
            rows.append([side_name(s), str(v["morale"][s]), str(v["uncommitted"][s]), committed, track,
                         "yes" if v["demoralised"].get(s) else "no"])
        doc.add(Heading(2, "Morale discs"),
                Table(["Army", "Morale", "Uncommitted", "Committed", "Still on the time track", "Demoralised"], rows),
                Para(f"{v['orders_spent']} of {ORDERS} orders were spent in the turn just played (000 §6)."))

    def waiting(self, doc: Document, facts: Facts) -> None:
        items = []
        for s in facts.sides:
            for cell in facts.view["waiting"][s]:
                shown = "".join(f"; face up: {b['type']} {b['strength']}" for b in cell["face_up"])
                items.append(f"{side_name(s)}, {cell['cell']} (from {cell['hour']}): {cell['count']} block"
                             f"{'s' if cell['count'] != 1 else ''}{shown}")
        doc.add(Heading(2, "Waiting cells"), Bullets(items or ["All reinforcements have entered."]))

    def blocks(self, doc: Document, facts: Facts, side: str) -> None:
        mine = [b for b in facts.view["blocks"] if b["side"] == side]
        doc.add(Heading(2, "Your blocks" if side == facts.reader else f"{SIDE_ADJ[side]} blocks"))
        rows = []
        on_map = facts.sort_blocks([b for b in mine if b["status"] == "map"])
        waiting = sorted((b for b in mine if b["status"] == "waiting"), key=lambda b: natural(b["id"]))
        for b in on_map + waiting:
            where = facts.place(b["locale"], b["facing"]) if b["status"] == "map" else f"waiting ({b['cell']})"
            notes = ", ".join(x for x in ("disorganised" if b["disorganised"] else "",
                                           f"bombardment into {facts.name(b['bombard'])}" if b["bombard"] else "")
                              if x)
            rows.append([b["id"], b["name"], b["type"], str(b["strength"]), where, notes or "-"])
        doc.add(Table(["Id", "Name", "Type", "Strength", "Where", "Notes"], rows) if rows else Para("No blocks."))
        gone = sorted((b for b in mine if b["status"] == "eliminated"), key=lambda b: natural(b["id"]))
        if gone:
            doc.add(Para(", ".join(f"{b['id']} {b['name']} ({b['type']})" for b in gone) + ".",
                         strong="Eliminated:"))

    def enemy(self, doc: Document, facts: Facts) -> None:
        """The enemy blocks in sight: counts per place, disorganised, and what stands revealed and why."""
        groups: dict[tuple, list[dict]] = {}
        for e in facts.view["enemy"]:
            groups.setdefault((e["locale"], e["facing"]), []).append(e)
        doc.add(Heading(2, "Enemy blocks in sight"))
        if not groups:
            doc.add(Para("None on the map."))
            return
        order = facts.locale_order()
        rows = []
        for (lid, facing), seen in sorted(groups.items(), key=lambda kv: (order.get(kv[0][0], 10**6),
                                                                          kv[0][1] is not None,
                                                                          order.get(kv[0][1], -1))):
            shown = [f"{r['type']} {r['strength']} ({r['why']})" for r in (e["revealed"] for e in seen) if r]
            disorganised = sum(1 for e in seen if e["disorganised"])
            rows.append([facts.place(lid, facing), str(len(seen)), str(disorganised) if disorganised else "-",
                         "; ".join(shown) or "-"])
        doc.add(Table(["Where", "Blocks", "Disorganised", "Revealed"], rows))

    def commands(self, doc: Document, facts: Facts) -> None:
        doc.add(Para("Commands:"), Bullets([
            f"Orders: {ORDERS} a turn (000 §6); each action but a defensive march, a march all along main roads, "
            "the pontoon and a bombardment costs one; actions are carried out in the order written.",
            "A block takes part in one action a turn (REORGANISE aside), at most three blocks an action.",
            "Road steps: a road march is three steps; one block a step crosses a crossing, each later than the "
            "one before, all in the same direction (000 §8).",
        ]))

    def group_events(self, events: list[dict], facts: Facts | None = None) -> list[tuple[str, list[str]]]:
        """The start of the turn, its actions in the order written, the end of the game."""
        groups: list[tuple[str, list[str]]] = []
        phase = -1
        for e in events:
            kind = e["kind"]
            p = 2 if kind in END_KINDS else 0 if (kind in START_KINDS and phase <= 0) else 1
            if p > phase:
                phase = p
                groups.append((["Start of the turn", "Actions", "End of the game"][p], []))
            groups[-1][1].append(e["text"])
        return groups

    def template(self, facts: Facts) -> str:
        label = facts.game_id or facts.game_label or "<game>"
        return template(self.scenario, facts.view, game=label, deadline=facts.deadline)


def build_report(game, day: int, side: str | None, deadline: str | None = None, game_label: str = "",
                 spectator: bool = False, game_id: str = "", lang: str = "en") -> Report:
    """The report of turn ``day`` (0-based, as in ``game.days``) for ``side`` (None: the moderator).
    ``lang``: the family's frame is in the reader's language; Triomphe's own sections are still English."""
    return TriompheReport(game.scenario).compose(facts_of(game, day, side, deadline, game_label, spectator, game_id,
                                                          tongue(lang)))


def opening_template(game, side: str, deadline: str | None, game_label: str = "", game_id: str = "",
                     lang: str = "en") -> str:
    """The orders form of a side before any turn has been resolved (its welcome mail; English yet)."""
    return TriompheReport(game.scenario).template(opening_facts(game, side, deadline, game_label, game_id))


__all__ = ["TriompheReport", "build_report", "opening_template"]
