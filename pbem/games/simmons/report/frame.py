"""The frame of a Marengo-family turn report, and compose(), which puts a reader's
report together from its Facts.

Both games' reports hold, in this order: the heading (the turn just played,
whose turn comes next and its deadline); the game's own sections (``body``:
Marengo's morale, reinforcements, blocks and enemy blocks in sight; Triomphe's
discs, orders spent, waiting cells, blocks and enemy blocks); what happened
during the turn as the reader saw it, grouped as the game groups it; every
decision taken on the reader's behalf; the standing orders in force (and what
the game adds, ``commands``); for the moderator, the orders received; and the
orders form for the reader's next turn (``template``).

A game subclasses :class:`ReportFrame`, names its turn (``TURN``: a *day* in
Bonaparte at Marengo, a *turn* in Triomphe) and fills in those hooks. The frame
reads nothing but the Facts, so a report shows only what the reader may know.
"""

from __future__ import annotations

from pbem.report.document import Bullets, Code, Document, Heading, Para, Report, Table, to_markdown, to_text

from .facts import NO_DEADLINE, Facts, hour_label, side_name


class ReportFrame:
    """Composes a report from Facts; a game's report overrides the hooks."""

    TURN = "day"

    @property
    def sources(self) -> dict[str, str]:
        """Who took a decision, as the report says it."""
        return {"standing": "your standing orders", "default": "the default", "log": "the answer on record",
                "orders": f"the {self.TURN}'s orders"}

    # -- the hooks

    def body(self, doc: Document, facts: Facts) -> None:
        """The game's sections, between the heading and what happened."""

    def group_events(self, events: list[dict]) -> list[tuple[str, list[str]]]:
        """[(title, texts)] in the order they happened (one group here)."""
        return [("During the " + self.TURN, [e["text"] for e in events])] if events else []

    def commands(self, doc: Document, facts: Facts) -> None:
        """What the game adds after the standing orders (the limits of a turn)."""

    def template(self, facts: Facts) -> str:
        """The orders form for the reader's next turn."""
        return ""

    # -- the report

    def compose(self, facts: Facts) -> Report:
        """The report from ``facts`` alone (see :class:`Facts`)."""
        doc = Document(title=self.title(facts))
        self.heading(doc, facts)
        self.body(doc, facts)
        self.events(doc, facts)
        self.decisions(doc, facts)
        if not facts.spectator:
            self.standing(doc, facts)
        if facts.reader is None and facts.orders:
            self.orders_sent(doc, facts)
        template = ""
        if facts.reader is not None and not facts.view["over"]:
            template = self.template(facts)
            next_side = facts.view["next_side"]
            what = "Orders" if next_side == facts.reader else "Standing orders"
            doc.add(Heading(2, f"{what} for {hour_label(facts.view['hour'])} ({side_name(next_side)}'s {self.TURN})"),
                    Para("Edit the text below and send it back as the body of a mail, header line first. "
                         "Lines starting with # are comments; remove the # in front of an example to use it.")
                    if next_side == facts.reader else
                    Para(f"The next {self.TURN} is the enemy's: only STANDING orders can be sent now. They answer, "
                         f"in advance, the choices the enemy's {self.TURN} may put to you."),
                    Code(template))
        md = to_markdown(doc)
        return Report(side=facts.reader, day=facts.day, subject=self.subject(facts), markdown=md,
                      text=to_text(doc), template=template, spectator=facts.spectator, title=doc.title, source=md)

    def full_name(self, facts: Facts) -> str:
        """The game and scenario, without saying the game's name twice."""
        if not facts.game_title or facts.scenario_name.startswith(facts.game_title):
            return facts.scenario_name
        return f"{facts.game_title}: {facts.scenario_name}"

    def title(self, facts: Facts) -> str:
        label = facts.game_label or facts.scenario_name
        return (f"{label}: {side_name(facts.played_side)}'s {self.TURN}, {hour_label(facts.played_hour)} "
                f"(round {facts.day // len(facts.sides) + 1} of {facts.rounds})")

    @staticmethod
    def reader_words(facts: Facts) -> str:
        if facts.spectator:
            return "spectators"
        if facts.reader is None:
            return "the moderator"
        return side_name(facts.reader)

    def subject(self, facts: Facts) -> str:
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
        return f"{prefix}Report for {self.reader_words(facts)}: {played} played; {tail}"

    def heading(self, doc: Document, facts: Facts) -> None:
        v, turn = facts.view, self.TURN
        lines = [
            Para(f"{self.full_name(facts)}. "
                 f"Report for {self.reader_words(facts)}.", strong="Game:"),
            Para(f"{side_name(facts.played_side)}'s {turn} at {hour_label(facts.played_hour)} has been played "
                 f"({turn} {facts.day + 1} of {facts.rounds * len(facts.sides)}).", strong="Played:"),
        ]
        if v["over"]:
            lines.append(Para(v.get("victory") or "The game is over.", strong="The game is over."))
        else:
            nxt = v["next_side"]
            whose = f"your {turn}" if nxt == facts.reader else f"{side_name(nxt)}'s {turn}"
            if facts.reader is not None and nxt != facts.reader:
                whose += " (you may send standing orders)"
            lines.append(Para(f"{hour_label(v['hour'])}, {whose}. Deadline: {facts.deadline or NO_DEADLINE}.",
                              strong="Next:"))
        doc.add(*lines)

    def events(self, doc: Document, facts: Facts) -> None:
        title = "What happened" if facts.reader is None else f"What happened, as {side_name(facts.reader)} saw it"
        doc.add(Heading(2, title))
        groups = self.group_events(facts.events)
        if not groups:
            doc.add(Para("Nothing was seen."))
        for name, texts in groups:
            doc.add(Heading(3, name), Bullets(texts, wrap=False))

    def decisions(self, doc: Document, facts: Facts) -> None:
        sources = self.sources
        if facts.reader is None:
            doc.add(Heading(2, "Decisions"))
            if not facts.decisions:
                doc.add(Para("No decision was put to either side."))
                return
            rows = [[str(r.index), side_name(r.decision.side), r.decision.question, answer(r),
                     sources.get(r.source, r.source).replace("your ", "")] for r in facts.decisions]
            doc.add(Table(["#", "Side", "Question", "Answer", "Taken by"], rows))
            return
        doc.add(Heading(2, "Decisions taken on your behalf"))
        if not facts.decisions:
            doc.add(Para("None: no choice was put to you that your orders did not answer."))
            return
        rows = [[str(r.index), r.decision.question, answer(r), sources.get(r.source, r.source)]
                for r in facts.decisions]
        doc.add(Table(["#", "Question", "Answer", "Taken by"], rows))
        doc.add(Para(f"The number is the decision's place in the {self.TURN}; the moderator can change an "
                     f"answer by it."))

    def standing(self, doc: Document, facts: Facts) -> None:
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
                doc.add(Para(f"{who}: none; every choice the enemy's {self.TURN} puts to "
                             f"{'you' if s == facts.reader else 'it'} is answered by its default."))
        self.commands(doc, facts)

    def orders_sent(self, doc: Document, facts: Facts) -> None:
        doc.add(Heading(2, f"Orders received for the {self.TURN}"))
        for s in facts.sides:
            text = facts.orders.get(s, "")
            if text.strip():
                doc.add(Heading(3, side_name(s)), Code(text))
            else:
                doc.add(Para(f"{side_name(s)}: no orders."))


def answer(record) -> str:
    """A decision's answer as its labels."""
    return ", ".join(record.decision.label(k) for k in record.answer) or "none"
