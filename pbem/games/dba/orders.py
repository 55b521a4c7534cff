"""The order values of Napoleonic DBA («Написание приказов»): each prints itself in the normalised English
form, which parse.py reads back to the same value (docs/dba-orders.md).

    Order    a dispatch: sender, recipient, the sender's position, time sent, and its steps; or an initiative
             order of one commander (no courier);
    Step     one verb (MOVE TO, HOLD, ATTACK, DEPLOY, RETREAT TO) with its object, formation and conditions
             (IF, UNTIL, UNLESS an Event; AT a turn);
    Event    what a brigade can see happen: the enemy reaches a place or comes within a distance, attacks or
             fires on the brigade; a friendly brigade reaches a place, attacks or retreats; a turn comes;
    Target   the ENEMY UNIT an ATTACK names: an enemy brigade, the enemy at a place, or the nearest enemy.

Places are kept by the name :class:`~pbem.games.dba.names.Names` gives them (``Names.location(name)`` finds
them again), brigades and commanders as a :class:`Ref` (id and name). Distances are tenths of an inch; times
are turns. Every value is plain data (``to_dict``/``from_dict``) so a game's state can hold it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.orders import Header

from .elements import as_inches
from .lang import Text, joined, term

VERBS = ("MOVE", "HOLD", "ATTACK", "DEPLOY", "RETREAT")
VERB_TEXT = {"MOVE": "MOVE TO", "HOLD": "HOLD", "ATTACK": "ATTACK", "DEPLOY": "DEPLOY", "RETREAT": "RETREAT TO"}
FORMATION_TEXT = {"line": "IN LINE", "column": "IN COLUMN", "square": "IN SQUARE", "skirmish": "IN SKIRMISH ORDER",
                  "limbered": "LIMBERED", "unlimbered": "UNLIMBERED", "mounted": "MOUNTED",
                  "dismounted": "DISMOUNTED"}

# the events of a condition: kind -> what it means (docs/dba-orders.md, "Events"; DO6)
EVENTS = {
    "ENEMY REACHES": "an enemy element this brigade sees stands in the place (in its area, or within 1\" of a "
                     "point place)",
    "ENEMY WITHIN": "an enemy element this brigade sees is within the distance of the place (or, with no place, "
                    "of one of this brigade's elements)",
    "ENEMY ATTACKS": "an enemy element is in contact with an element of this brigade",
    "ENEMY FIRES": "enemy fire was aimed at this brigade this turn",
    "FRIENDLY REACHES": "an element of the friendly brigade, seen by this brigade or reported by courier, stands "
                        "in the place",
    "FRIENDLY ATTACKS": "an element of the friendly brigade this brigade sees is in contact with the enemy",
    "FRIENDLY RETREATS": "an element of the friendly brigade this brigade sees retreats or flees",
    "TURN": "the turn has come (the game's turn number is at least this)",
}


@dataclass(frozen=True)
class Ref:
    """A brigade or a commander an order names: its id, and the name it is printed with."""

    id: str
    name: str

    def __str__(self) -> str:
        return self.name

    def to_dict(self) -> list:
        return [self.id, self.name]

    @classmethod
    def from_dict(cls, data) -> "Ref | None":
        return None if data is None else cls(data[0], data[1])


def _ref(ref: Ref | None):
    return None if ref is None else ref.to_dict()


def _words(*words) -> Text:
    """Order words and names, a space between each, read in each language (the echo in a seat's words)."""
    return joined(*words, sep=" ")


@dataclass(frozen=True)
class Event:
    """Something a brigade can see happen (:data:`EVENTS`). ``brigade``: the friendly brigade (FRIENDLY ...) or
    the enemy brigade named (ENEMY <brigade> ...; None: any enemy); ``place``: a place name; ``distance``:
    tenths of an inch (WITHIN); ``turn``: TURN."""

    kind: str
    brigade: Ref | None = None
    place: str | None = None
    distance: int | None = None
    turn: int | None = None

    def __post_init__(self):
        if self.kind not in EVENTS:
            raise ValueError(f"no event {self.kind!r}; expected one of {', '.join(EVENTS)}")

    @property
    def text(self) -> str:
        if self.kind == "TURN":
            return f"TURN {self.turn}"
        side, verb = self.kind.split()
        who = side if self.brigade is None else f"{side} {self.brigade.name}"
        if verb == "WITHIN":
            return f"{who} WITHIN {as_inches(self.distance)}" + (f" OF {self.place}" if self.place else "")
        if verb == "REACHES":
            return f"{who} REACHES {self.place}"
        return f"{who} {verb}"

    @property
    def said(self) -> Text:
        """:attr:`text` read in each language (its words as the seat's order words, its names as spelt there)."""
        if self.kind == "TURN":
            return _words(term("TURN"), self.turn)
        side, verb = self.kind.split()
        who = (term(side),) if self.brigade is None else (term(side), term(self.brigade.name))
        if verb == "WITHIN":
            return _words(*who, term("WITHIN"), as_inches(self.distance),
                          *((term("OF"), term(self.place)) if self.place else ()))
        if verb == "REACHES":
            return _words(*who, term("REACHES"), term(self.place))
        return _words(*who, term(verb))

    def to_dict(self) -> dict:
        return {"kind": self.kind, "brigade": _ref(self.brigade), "place": self.place, "distance": self.distance,
                "turn": self.turn}

    @classmethod
    def from_dict(cls, data: dict | None) -> "Event | None":
        if data is None:
            return None
        return cls(data["kind"], Ref.from_dict(data["brigade"]), data["place"], data["distance"], data["turn"])


@dataclass(frozen=True)
class Target:
    """The ENEMY UNIT of an ATTACK: ``brigade`` (an enemy brigade named), ``place`` (the enemy at or nearest
    the place), or neither (the nearest enemy the brigade sees)."""

    brigade: Ref | None = None
    place: str | None = None

    @property
    def text(self) -> str:
        if self.brigade is not None:
            return self.brigade.name
        if self.place is not None:
            return f"ENEMY AT {self.place}"
        return "NEAREST ENEMY"

    @property
    def said(self) -> Text:
        if self.brigade is not None:
            return _words(term(self.brigade.name))
        if self.place is not None:
            return _words(term("ENEMY AT"), term(self.place))
        return _words(term("NEAREST ENEMY"))

    def to_dict(self) -> dict:
        return {"brigade": _ref(self.brigade), "place": self.place}

    @classmethod
    def from_dict(cls, data: dict | None) -> "Target | None":
        return None if data is None else cls(Ref.from_dict(data["brigade"]), data["place"])


@dataclass(frozen=True)
class Step:
    """One step of an order. ``when`` is the IF event (the step waits for it), ``until`` ends the step and goes
    on to the next, ``unless`` drops the rest of the order; ``at`` is the turn the step begins (DO7, DO8)."""

    verb: str
    place: str | None = None  # MOVE TO, RETREAT TO (required); HOLD, DEPLOY AT (may be absent)
    target: Target | None = None  # ATTACK
    supporting: Ref | None = None  # DEPLOY SUPPORTING a friendly brigade
    formation: str | None = None
    road: bool = False  # MOVE TO / RETREAT TO ... BY ROAD
    when: Event | None = None
    until: Event | None = None
    unless: Event | None = None
    at: int | None = None

    def __post_init__(self):
        if self.verb not in VERBS:
            raise ValueError(f"no verb {self.verb!r}; expected one of {', '.join(VERBS)}")
        if self.verb in ("MOVE", "RETREAT") and self.place is None:
            raise ValueError(f"{VERB_TEXT[self.verb]} needs a place")
        if self.verb == "ATTACK" and self.target is None:
            raise ValueError("ATTACK needs an enemy unit")

    @property
    def text(self) -> str:
        words = [f"IF {self.when.text}"] if self.when else []
        words.append(VERB_TEXT[self.verb])
        if self.verb == "ATTACK":
            words.append(self.target.text)
        elif self.verb == "DEPLOY":
            if self.formation:
                words.append(FORMATION_TEXT[self.formation])
            if self.place:
                words.append(f"AT {self.place}")
            if self.supporting:
                words.append(f"SUPPORTING {self.supporting.name}")
        elif self.place:
            words.append(self.place)
        if self.formation and self.verb != "DEPLOY":
            words.append(FORMATION_TEXT[self.formation])
        if self.road:
            words.append("BY ROAD")
        if self.until:
            words.append(f"UNTIL {self.until.text}")
        if self.unless:
            words.append(f"UNLESS {self.unless.text}")
        if self.at is not None:
            words.append(f"AT TURN {self.at}")
        return " ".join(words)

    @property
    def said(self) -> Text:
        """:attr:`text` read in each language: the same step in the seat's order words."""
        words = [term("IF"), self.when.said] if self.when else []
        words.append(term(VERB_TEXT[self.verb]))
        if self.verb == "ATTACK":
            words.append(self.target.said)
        elif self.verb == "DEPLOY":
            if self.formation:
                words.append(term(FORMATION_TEXT[self.formation]))
            if self.place:
                words += [term("AT"), term(self.place)]
            if self.supporting:
                words += [term("SUPPORTING"), term(self.supporting.name)]
        elif self.place:
            words.append(term(self.place))
        if self.formation and self.verb != "DEPLOY":
            words.append(term(FORMATION_TEXT[self.formation]))
        if self.road:
            words.append(term("BY ROAD"))
        if self.until:
            words += [term("UNTIL"), self.until.said]
        if self.unless:
            words += [term("UNLESS"), self.unless.said]
        if self.at is not None:
            words += [term("AT TURN"), self.at]
        return _words(*words)

    def to_dict(self) -> dict:
        return {"verb": self.verb, "place": self.place,
                "target": self.target.to_dict() if self.target else None, "supporting": _ref(self.supporting),
                "formation": self.formation, "road": self.road,
                "when": self.when.to_dict() if self.when else None,
                "until": self.until.to_dict() if self.until else None,
                "unless": self.unless.to_dict() if self.unless else None, "at": self.at}

    @classmethod
    def from_dict(cls, data: dict) -> "Step":
        return cls(data["verb"], data["place"], Target.from_dict(data["target"]), Ref.from_dict(data["supporting"]),
                   data["formation"], data["road"], Event.from_dict(data["when"]), Event.from_dict(data["until"]),
                   Event.from_dict(data["unless"]), data["at"])


HOLD = Step("HOLD")  # the default: «Действие по умолчанию ... есть СТОЯТЬ и УДЕРЖИВАТЬ (HOLD)»


@dataclass(frozen=True)
class Order:
    """A written order: a dispatch FROM ``sender`` TO ``recipient`` (``position``: where the sender says he
    writes it; ``sent``: the turn he dates it), or, with ``initiative``, a commander's own order after a passed
    initiative test (``sender`` and ``recipient`` are he)."""

    sender: Ref
    recipient: Ref
    steps: tuple[Step, ...]
    sent: int | None = None
    position: str | None = None
    initiative: bool = False
    line: int = field(default=0, compare=False)  # the line of its head in the text it was read from

    @property
    def head(self) -> str:
        if self.initiative:
            return f"INITIATIVE {self.sender.name}" + (f" TURN {self.sent}" if self.sent is not None else "")
        words = [f"FROM {self.sender.name}"]
        if self.position:
            words.append(f"AT {self.position}")
        words.append(f"TO {self.recipient.name}")
        if self.sent is not None:
            words.append(f"TURN {self.sent}")
        return " ".join(words)

    @property
    def head_said(self) -> Text:
        if self.initiative:
            return _words(term("INITIATIVE"), term(self.sender.name),
                          *((term("TURN"), self.sent) if self.sent is not None else ()))
        words = [term("FROM"), term(self.sender.name)]
        if self.position:
            words += [term("AT"), term(self.position)]
        words += [term("TO"), term(self.recipient.name)]
        if self.sent is not None:
            words += [term("TURN"), self.sent]
        return _words(*words)

    @property
    def said(self) -> Text:
        """:attr:`text` read in each language (a seat's echo in its own order words)."""
        lines = [self.head_said] + [_words(term("THEN"), step.said) if i else step.said
                                    for i, step in enumerate(self.steps)]
        return joined(*lines, sep="\n")

    @property
    def text(self) -> str:
        """The order in its normalised form: the head, then a step a line (THEN before each but the first)."""
        lines = [self.head]
        lines += [("THEN " if i else "") + step.text for i, step in enumerate(self.steps)]
        return "\n".join(lines)

    def to_dict(self) -> dict:
        return {"sender": self.sender.to_dict(), "recipient": self.recipient.to_dict(),
                "steps": [s.to_dict() for s in self.steps], "sent": self.sent, "position": self.position,
                "initiative": self.initiative, "line": self.line}

    @classmethod
    def from_dict(cls, data: dict) -> "Order":
        return cls(Ref.from_dict(data["sender"]), Ref.from_dict(data["recipient"]),
                   tuple(Step.from_dict(s) for s in data["steps"]), data["sent"], data["position"],
                   data["initiative"], data["line"])


@dataclass
class Orders:
    """One seat's orders text, read: its dispatches and initiative orders, in the order written."""

    header: Header = field(default_factory=Header)
    dispatches: list[Order] = field(default_factory=list)
    initiatives: list[Order] = field(default_factory=list)
    final: bool = False
    tongue: object = None  # the seat's language (pbem.lang.Tongue) the echo is written in; None: English

    def echo(self) -> str:
        """The orders as read, normalised: what the acknowledgement shows, in the seat's order words (the logged
        orders are the text as written, which reads the same in every language)."""
        if self.tongue is not None:
            parts = [self.tongue.say(o.said) for o in self.dispatches + self.initiatives]
            return "\n\n".join(parts + ([self.tongue.say(term("FINAL"))] if self.final else []))
        parts = [o.text for o in self.dispatches] + [o.text for o in self.initiatives]
        if self.final:
            parts.append("FINAL")
        return "\n\n".join(parts)
