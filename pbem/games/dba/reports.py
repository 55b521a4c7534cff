"""Reports up the chain of command in the game with a seat per commander (reading DS6).

The text carries orders down by courier («Затем приказ доставляется курьером в штаб подразделения (лично в руки
командиру подразделения)») and has no other way for news to travel between commanders; it has no rule for
reports up. A commander therefore learns what his subordinates' troops see the way he would at a table with an
umpire: a courier of theirs brings it. At the end of every turn each commander on the table with a living
superior sends him a report — every enemy element he knows of (as last seen, with the turn) and the lines of the
turn he read, with the reports brought to him that turn (so news climbs the chain, one courier after another).
A report rides like a dispatch (couriers.py: the post's speed, towards where the superior is, at least one turn
on the road, the post's chance of loss) and is read when it arrives.

    reports = Reports()
    reports.send("blue-1", "blue-general", 3, (200, 100), sightings, lines)
    reports.ride(4, where, speed, loss, chance)   # those delivered on turn 4
"""

from __future__ import annotations

from dataclasses import dataclass, field

from .couriers import DELIVERED, LOST, RIDING, end, ride_one
from .lang import Text, joined, term
from .lang import say as T  # a Text: read in each seat's language
from .sight import Sighting


@dataclass
class Report:
    """One report on its way: what its sender knew when he sent it (emptied once read: the news is then in the
    recipient's memory and in his report of that turn). Its ``lines`` are the lines the sender read, each kept as
    data (:meth:`pbem.lang.Text.to_dict`; a line written as a plain string stays one) so that the recipient reads
    them in his own language (:meth:`news`)."""

    seq: int
    sender: str
    recipient: str
    sent: int
    x: int
    y: int
    sightings: list[Sighting] = field(default_factory=list)
    lines: list[dict | str] = field(default_factory=list)
    status: str = RIDING
    delivered: int | None = None
    ridden: int = 0
    troops: list[Sighting] = field(default_factory=list)  # his own side's elements as he knew them (issue 30)

    def text(self, names: dict[str, str]) -> str:
        """One line for a report's list of couriers (``names``: commander id -> name)."""
        return str(self.said(names))

    def said(self, names: dict[str, str]) -> Text:
        """:meth:`text` read in each language."""
        head = T("report %(seq)s, %(sender)s to %(recipient)s, sent turn %(sent)s", seq=self.seq,
                 sender=term(names.get(self.sender, self.sender)), recipient=term(names.get(self.recipient,
                                                                                           self.recipient)),
                 sent=self.sent)
        if self.status == RIDING:
            return T("%(head)s: on the road (%(inches)s\" ridden)", head=head, inches=f"{self.ridden / 10:g}")
        if self.status == DELIVERED:  # its own words: a report is not a dispatch (the translations agree with it)
            return T("%(head)s: delivered on turn %(turn)s", head=head, turn=self.delivered)
        return T("%(head)s: lost on turn %(turn)s", head=head, turn=self.delivered)

    def news(self) -> Text:
        """What the report brings: the lines its sender read, one after another ("nothing new" without any)."""
        if not self.lines:
            return T("nothing new")
        return joined(*[Text.from_dict(line) if isinstance(line, dict) else line for line in self.lines], sep="; ")

    def to_dict(self) -> dict:
        return {"seq": self.seq, "sender": self.sender, "recipient": self.recipient, "sent": self.sent,
                "x": self.x, "y": self.y, "sightings": [s.to_dict() for s in self.sightings],
                "lines": list(self.lines), "status": self.status, "delivered": self.delivered,
                "ridden": self.ridden, "troops": [s.to_dict() for s in self.troops]}


@dataclass
class Reports:
    """Every report of a game (both sides), saved with the state."""

    reports: list[Report] = field(default_factory=list)

    def send(self, sender: str, recipient: str, turn: int, start: tuple[int, int], sightings, lines,
             troops=()) -> Report:
        """A report sets out; ``lines``: Texts (kept as their data) or plain strings; ``troops``: the sender's own
        side's elements as he knows them (his own seen, his subordinates' as reported), for his superior."""
        report = Report(len(self.reports) + 1, sender, recipient, turn, int(start[0]), int(start[1]),
                        sorted(sightings, key=lambda s: s.element),
                        [line.to_dict() if isinstance(line, Text) else line for line in lines],
                        troops=sorted(troops, key=lambda s: s.element))
        self.reports.append(report)
        return report

    def ride(self, turn: int, where, speed: int, loss: int, chance) -> list[Report]:
        """Every report sent before ``turn`` rides one turn towards its recipient (``where(id)``: his position,
        or None when he is gone: the report is lost); those that reach him are delivered, once, in order."""
        delivered = []
        for r in self.reports:
            if r.status != RIDING or r.sent >= turn:
                continue
            status = ride_one(r, where(r.recipient), speed, loss, chance, f"report {r.seq} ({r.sender} to {r.recipient})")
            if status is not None:
                end(r, status, turn)
            if status == DELIVERED:
                delivered.append(r)
        return delivered

    def seen_by(self, commander: str) -> list[Report]:
        """The reports ``commander`` sent, and those delivered to him."""
        return [r for r in self.reports if r.sender == commander
                or (r.recipient == commander and r.status == DELIVERED)]

    def check(self) -> list[str]:
        """Self-play's invariant: each report delivered at most once, never before it set out."""
        wrong = []
        for r in self.reports:
            if (r.status == RIDING) != (r.delivered is None):
                wrong.append(f"report {r.seq} is {r.status} with delivery turn {r.delivered}")
            if r.delivered is not None and r.delivered <= r.sent:
                wrong.append(f"report {r.seq} sent on turn {r.sent} ended on turn {r.delivered}")
            if r.status not in (RIDING, DELIVERED, LOST):
                wrong.append(f"report {r.seq} is {r.status!r}")
        return wrong

    def to_dict(self) -> list:
        return [r.to_dict() for r in self.reports]


def merge(memory: dict[str, Sighting], sightings) -> dict[str, Sighting]:
    """``memory`` with a report's sightings: each enemy element at its newest sighting."""
    out = dict(memory)
    for s in sightings:
        if s.element not in out or out[s.element].turn < s.turn:
            out[s.element] = s
    return out
