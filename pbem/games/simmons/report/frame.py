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

Every word is the reader's language (``facts.tongue``: the family's catalog, the
``simmons`` domain, under pbem/games/simmons/locale); a sentence naming the turn
has one text for a *day* and one for a *turn*, since languages decline the two
differently.
"""

from __future__ import annotations

from pbem.report.document import Bullets, Code, Document, Heading, Para, Report, Table, to_markdown, to_text

from ..lang import colon
from .facts import Facts


class ReportFrame:
    """Composes a report from Facts; a game's report overrides the hooks."""

    TURN = "day"

    def by_turn(self, day: str, turn: str) -> str:
        """The text for this game's turn: ``day`` when it is a day (Marengo), else ``turn``."""
        return day if self.TURN == "day" else turn

    def sources(self, facts: Facts) -> dict[str, str]:
        """Who took a decision, as the report says it."""
        _ = facts.tongue.gettext
        return {"standing": _("your standing orders"), "default": _("the default"),
                "log": _("the answer on record"),
                "orders": self.by_turn(_("the day's orders"), _("the turn's orders"))}

    def sources_bare(self, facts: Facts) -> dict[str, str]:
        """Who took a decision, in the moderator's table."""
        _ = facts.tongue.gettext
        return dict(self.sources(facts), standing=_("standing orders"))

    def whose(self, facts: Facts, side: str | None) -> str:
        """"Austria's day", "France's turn" in the reader's language."""
        _ = facts.tongue.gettext
        words = {("austria", "day"): _("Austria's day"), ("france", "day"): _("France's day"),
                 ("austria", "turn"): _("Austria's turn"), ("france", "turn"): _("France's turn")}
        return words.get((side, self.TURN)) or f"{facts.side(side)}: {self.TURN}"

    # -- the hooks

    def body(self, doc: Document, facts: Facts) -> None:
        """The game's sections, between the heading and what happened."""

    def group_events(self, events: list[dict], facts: Facts) -> list[tuple[str, list[str]]]:
        """[(title, texts)] in the order they happened (one group here)."""
        _ = facts.tongue.gettext
        return [(self.by_turn(_("During the day"), _("During the turn")), [e["text"] for e in events])] \
            if events else []

    def commands(self, doc: Document, facts: Facts) -> None:
        """What the game adds after the standing orders (the limits of a turn)."""

    def template(self, facts: Facts) -> str:
        """The orders form for the reader's next turn."""
        return ""

    def in_words(self, order: str, facts: Facts) -> str:
        """An order (logged in English) in the reader's order words; as logged here."""
        return order

    # -- the report

    def compose(self, facts: Facts) -> Report:
        """The report from ``facts`` alone (see :class:`Facts`)."""
        _ = facts.tongue.gettext
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
            own = next_side == facts.reader
            values = {"hour": facts.clock(facts.view["hour"]), "whose": self.whose(facts, next_side)}
            doc.add(Heading(2, _("Orders for %(hour)s (%(whose)s)", **values) if own
                            else _("Standing orders for %(hour)s (%(whose)s)", **values)),
                    Para(_("Edit the text below and send it back as the body of a mail, header line first. "
                           "Lines starting with # are comments; remove the # in front of an example to use it."))
                    if own else
                    Para(self.by_turn(
                        _("The next day is the enemy's: only STANDING orders can be sent now. They answer, "
                          "in advance, the choices the enemy's day may put to you."),
                        _("The next turn is the enemy's: only STANDING orders can be sent now. They answer, "
                          "in advance, the choices the enemy's turn may put to you."))),
                    Code(template))
        md = to_markdown(doc)
        return Report(side=facts.reader, day=facts.day, subject=self.subject(facts), markdown=md,
                      text=to_text(doc), template=template, spectator=facts.spectator, title=doc.title, source=md)

    def full_name(self, facts: Facts) -> str:
        """The game and scenario in the reader's language (the game's catalog), without saying the game's
        name twice."""
        title, name = facts.tongue.gettext(facts.game_title), facts.tongue.gettext(facts.scenario_name)
        if not title or name.startswith(title):
            return name
        return facts.tongue.say(colon(title, name))

    def title(self, facts: Facts) -> str:
        return facts.tongue.gettext(
            "%(label)s: %(whose)s, %(hour)s (round %(round)d of %(rounds)d)",
            label=facts.game_label or facts.tongue.gettext(facts.scenario_name),
            whose=self.whose(facts, facts.played_side),
            hour=facts.clock(facts.played_hour), round=facts.day // len(facts.sides) + 1, rounds=facts.rounds)

    @staticmethod
    def reader_words(facts: Facts) -> str:
        _ = facts.tongue.gettext
        if facts.spectator:
            return _("spectators")
        if facts.reader is None:
            return _("the moderator")
        return facts.side(facts.reader)

    def subject(self, facts: Facts) -> str:
        _ = facts.tongue.gettext
        v = facts.view
        played = f"{facts.side(facts.played_side)} {facts.clock(facts.played_hour)}"
        tag = f"pbem {facts.game_id}" if facts.game_id else facts.game_label
        prefix = f"[{tag}] " if tag else ""
        if v["over"]:
            tail = (_("game over, %(side)s wins", side=facts.side(v["winner"])) if v.get("winner")
                    else _("game over"))
        elif facts.reader is not None and v["next_side"] == facts.reader:
            tail = _("your orders for %(hour)s", hour=facts.clock(v["hour"]))
        else:
            tail = _("next: %(side)s %(hour)s", side=facts.side(v["next_side"]), hour=facts.clock(v["hour"]))
        return prefix + _("Report for %(reader)s: %(played)s played; %(tail)s", reader=self.reader_words(facts),
                          played=played, tail=tail)

    def heading(self, doc: Document, facts: Facts) -> None:
        _ = facts.tongue.gettext
        v = facts.view
        lines = [
            Para(_("%(game)s. Report for %(reader)s.", game=self.full_name(facts), reader=self.reader_words(facts)),
                 strong=_("Game:")),
            Para(self.by_turn(_("%(whose)s at %(hour)s has been played (day %(n)d of %(total)d).",
                                whose=self.whose(facts, facts.played_side), hour=facts.clock(facts.played_hour),
                                n=facts.day + 1, total=facts.rounds * len(facts.sides)),
                              _("%(whose)s at %(hour)s has been played (turn %(n)d of %(total)d).",
                                whose=self.whose(facts, facts.played_side), hour=facts.clock(facts.played_hour),
                                n=facts.day + 1, total=facts.rounds * len(facts.sides))),
                 strong=_("Played:")),
        ]
        if v["over"]:
            victory = next((e["text"] for e in facts.events if e["kind"] == "victory"), None)  # in the reader's words
            lines.append(Para(victory or v.get("victory") or _("The game is over."), strong=_("The game is over.")))
        else:
            nxt = v["next_side"]
            if nxt == facts.reader:
                whose = self.by_turn(_("your day"), _("your turn"))
            elif facts.reader is not None:
                whose = _("%(whose)s (you may send standing orders)", whose=self.whose(facts, nxt))
            else:
                whose = self.whose(facts, nxt)
            lines.append(Para(_("%(hour)s, %(whose)s. Deadline: %(deadline)s.", hour=facts.clock(v["hour"]),
                                whose=whose, deadline=facts.deadline or facts.no_deadline()),
                              strong=_("Next:")))
        doc.add(*lines)

    def events(self, doc: Document, facts: Facts) -> None:
        _ = facts.tongue.gettext
        title = (_("What happened") if facts.reader is None
                 else _("What happened, as %(side)s saw it", side=facts.side(facts.reader)))
        doc.add(Heading(2, title))
        groups = self.group_events(facts.events, facts)
        if not groups:
            doc.add(Para(_("Nothing was seen.")))
        for name, texts in groups:
            doc.add(Heading(3, name), Bullets(texts, wrap=False))

    def decisions(self, doc: Document, facts: Facts) -> None:
        _ = facts.tongue.gettext
        if facts.reader is None:
            sources = self.sources_bare(facts)
            doc.add(Heading(2, _("Decisions")))
            if not facts.decisions:
                doc.add(Para(_("No decision was put to either side.")))
                return
            rows = [[str(r.index), facts.side(r.decision.side), r.decision.question_in(facts.tongue), answer(r, facts),
                     sources.get(r.source, r.source)] for r in facts.decisions]
            doc.add(Table(["#", _("Side"), _("Question"), _("Answer"), _("Taken by")], rows))
            return
        sources = self.sources(facts)
        doc.add(Heading(2, _("Decisions taken on your behalf")))
        if not facts.decisions:
            doc.add(Para(_("None: no choice was put to you that your orders did not answer.")))
            return
        rows = [[str(r.index), r.decision.question_in(facts.tongue), answer(r, facts), sources.get(r.source, r.source)]
                for r in facts.decisions]
        doc.add(Table(["#", _("Question"), _("Answer"), _("Taken by")], rows))
        doc.add(Para(self.by_turn(
            _("The number is the decision's place in the day; the moderator can change an answer by it."),
            _("The number is the decision's place in the turn; the moderator can change an answer by it."))))

    def standing(self, doc: Document, facts: Facts) -> None:
        _ = facts.tongue.gettext
        standing = facts.view.get("standing", {})
        doc.add(Heading(2, _("Standing orders and commands")))
        for s in facts.sides:
            if facts.reader is not None and s != facts.reader:
                continue
            texts = standing.get(s, [])
            mine = s == facts.reader
            if texts:
                doc.add(Para(_("Your standing orders in force:") if mine
                             else _("%(side)s's standing orders in force:", side=facts.side(s))),
                        Bullets([self.in_words(text, facts) for text in texts], wrap=False))
            elif mine:
                doc.add(Para(self.by_turn(
                    _("Your standing orders: none; every choice the enemy's day puts to you is answered by "
                      "its default."),
                    _("Your standing orders: none; every choice the enemy's turn puts to you is answered by "
                      "its default."))))
            else:
                doc.add(Para(self.by_turn(
                    _("%(side)s's standing orders: none; every choice the enemy's day puts to it is answered "
                      "by its default.", side=facts.side(s)),
                    _("%(side)s's standing orders: none; every choice the enemy's turn puts to it is answered "
                      "by its default.", side=facts.side(s)))))
        self.commands(doc, facts)

    def orders_sent(self, doc: Document, facts: Facts) -> None:
        _ = facts.tongue.gettext
        doc.add(Heading(2, self.by_turn(_("Orders received for the day"), _("Orders received for the turn"))))
        for s in facts.sides:
            text = facts.orders.get(s, "")
            if text.strip():
                doc.add(Heading(3, facts.side(s)), Code(text))
            else:
                doc.add(Para(_("%(side)s: no orders.", side=facts.side(s))))


def answer(record, facts: Facts | None = None) -> str:
    """A decision's answer as its labels."""
    if facts is None:
        return ", ".join(record.decision.label(k) for k in record.answer) or "none"
    return facts.tongue.listed([record.decision.label_in(k, facts.tongue) for k in record.answer]) or \
        facts.tongue.gettext("none")
