"""What a Triomphe player's report shows, as a document (pbem.report.document).

Built from the side's view (view.py), its events and its decisions only, so
it cannot show what the side may not know. Beside what every Marengo-family
report shows (blocks, enemy blocks seen, events, decisions, standing orders)
it holds what Triomphe adds (issue 10 §4): both armies' morale discs,
uncommitted and committed by locale, and the discs still to come on the time
track; the orders spent; disorganised blocks; the waiting cells with their
counts (and the face-up Austrian artillery); the blocks revealed and why.

# family: the report's frame (heading, events, decisions, the orders form) is
# marengo/report's; this module only lays out Triomphe's sections, to be folded
# into a shared report when the family package has one.
"""

from __future__ import annotations

from pbem.report.document import Bullets, Document, Heading, Para, Table, to_markdown

from .reader import natural_order
from .scenario import SIDE_NAME, SIDES, Scenario

SOURCES = {"standing": "your standing orders", "default": "the default", "log": "the answer on record",
           "orders": "your orders"}


def compose(scenario: Scenario, view: dict, events: list[dict], decisions: list = (), title: str = "",
            deadline: str | None = None) -> Document:
    """The report of ``view``'s reader (None: the moderator) after a turn."""
    board = scenario.board
    reader = view["viewer"]

    def name(lid):
        return board.locales[lid].name if lid in board.locales else str(lid)

    def place(lid, facing):
        return name(lid) if facing is None else f"{name(lid)}>{name(facing)}"

    doc = Document(title=title or f"{scenario.name}: {SIDE_NAME.get(reader, 'Moderator')}")
    if view["over"]:
        doc.add(Para(view["victory"], strong="The game is over."))
    else:
        doc.add(Para(f"{SIDE_NAME[view['next_side']]}'s turn, {view['hour_label']} (round {view['round']} of "
                     f"{view['rounds']})." + (f" Deadline: {deadline}." if deadline else ""), strong="Next:"))
    doc.add(Heading(2, "Morale discs"))
    rows = []
    for s in SIDES:
        committed = ", ".join(f"{name(l)} {n}" for l, n in sorted(view["committed"][s].items())) or "none"
        track = ", ".join(f"{h}: {n}" for h, n in view["track"][s].items()) or "none"
        rows.append([SIDE_NAME[s], str(view["morale"][s]), str(view["uncommitted"][s]), committed, track])
    doc.add(Table(["army", "morale", "uncommitted", "committed", "still on the time track"], rows))
    doc.add(Para(f"{view['orders_spent']} of 3 orders were spent in the turn just played."))
    doc.add(Heading(2, "Waiting cells"))
    items = []
    for s in SIDES:
        for cell in view["waiting"][s]:
            shown = "".join(f"; face up: {b['type']} {b['strength']}" for b in cell["face_up"])
            items.append(f"{SIDE_NAME[s]}, {cell['cell']} (from {cell['hour']}): {cell['count']} block(s){shown}")
    doc.add(Bullets(items or ["all reinforcements have entered"]))
    for s in ([reader] if reader else SIDES):
        own = [b for b in view["blocks"] if b["side"] == s]
        doc.add(Heading(2, f"{SIDE_NAME[s]}'s blocks" if reader is None else "Your blocks"))
        rows = []
        for b in sorted(own, key=lambda b: (b["status"] != "map", b["locale"] or "", natural_order(b["id"]))):
            where = place(b["locale"], b["facing"]) if b["status"] == "map" else \
                f"waiting ({b['cell']})" if b["status"] == "waiting" else "eliminated"
            notes = ", ".join(x for x in ("disorganised" if b["disorganised"] else "",
                                           f"bombardment into {name(b['bombard'])}" if b["bombard"] else "") if x)
            rows.append([b["id"], b["name"], f"{b['type']} {b['strength']}", where, notes])
        doc.add(Table(["id", "name", "block", "where", "notes"], rows))
    if reader is not None:
        doc.add(Heading(2, "Enemy blocks in sight"))
        groups: dict[tuple, list[dict]] = {}
        for e in view["enemy"]:
            groups.setdefault((e["locale"], e["facing"]), []).append(e)
        rows = []
        for (lid, facing), seen in groups.items():
            shown = [f"{r['type']} {r['strength']} ({r['why']})" for r in (e["revealed"] for e in seen) if r]
            disorganised = sum(1 for e in seen if e["disorganised"])
            rows.append([place(lid, facing), str(len(seen)), str(disorganised) if disorganised else "",
                         "; ".join(shown)])
        doc.add(Table(["where", "blocks", "disorganised", "revealed"], rows) if rows else Para("None."))
    doc.add(Heading(2, "What happened"))
    doc.add(Bullets([e["text"] for e in events] or ["Nothing."], wrap=False))
    mine = [r for r in decisions if reader is None or r.decision.side == reader]
    if mine:
        doc.add(Heading(2, "Decisions taken"))
        doc.add(Bullets([f"{r.decision.question} — {', '.join(r.decision.label(k) for k in r.answer) or 'none'} "
                         f"({SOURCES.get(r.source, r.source)})" for r in mine]))
    if reader is not None:
        doc.add(Heading(2, "Your standing orders"))
        doc.add(Bullets(view["standing"].get(reader) or ["none (the defaults apply)"]))
    return doc


def markdown(scenario: Scenario, view: dict, events: list[dict], decisions: list = (), title: str = "") -> str:
    return to_markdown(compose(scenario, view, events, decisions, title))


__all__ = ["compose", "markdown"]
