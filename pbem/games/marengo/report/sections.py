"""The report's sections (heading, morale, reinforcements, blocks, enemy, events,
decisions, standing orders, orders received) and compose(), which puts a
reader's report together from its Facts."""

from __future__ import annotations

import re

from pbem.games.marengo.scenario import SIDE_ADJ
from pbem.report.document import Bullets, Code, Document, Heading, Para, Report, Table, to_markdown, to_text
from pbem.games.marengo.report.facts import (
    COMMAND_LIMIT, NO_DEADLINE, ROAD_CAPACITY, ROAD_ENTRIES, Facts, hour_label, natural, side_name,
)
from pbem.games.marengo.report.template import order_template

SOURCES = {
    "standing": "your standing orders",
    "default": "the default",
    "log": "the answer on record",
    "orders": "the day's orders",
}


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


def _blocks(doc: Document, facts: Facts, side: str) -> None:
    mine = [b for b in facts.view["blocks"] if b["side"] == side]
    on_map = facts.sort_blocks([b for b in mine if b["status"] == "map"])
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
    order = facts.locale_order()
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

