"""Events: what happened during a turn, and which seats saw it.

An event has a full description (what its owners and a moderator know) and,
separately, what other seats saw, written without anything they may not
know. ``owner`` is the seat (or a tuple of seats) that knows the full
description; ``owner=None`` makes it public. ``witnesses``, when given, are
the only seats besides the owners that see the ``seen`` description (in a game
of fog of war, the seats whose units saw it); by default every other seat does.

``said`` and ``seen_said``, when given, are the same two descriptions as :class:`pbem.lang.Text`
(a catalog entry and its values), so that a report reads them in its seat's language
(``text_for``); ``text`` and ``seen`` stay the English sentences (logs, cases, exports). Given only
as a Text, the English sentence is written when first read, not when the event is made: a game
replayed from its log (issue 15) makes thousands of events that nobody reads.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.lang import Tongue, Text

_NO_DATA: dict = {}  # the mark of ``data`` left out (never stored: each event gets its own dict)


@dataclass(init=False)
class Event:
    kind: str
    text: str = ""
    data: dict = field(default_factory=dict)
    owner: str | tuple[str, ...] | None = None
    seen: str | None = None
    seen_data: dict | None = None
    witnesses: tuple[str, ...] | None = None
    said: Text | None = None
    seen_said: Text | None = None

    def __init__(self, kind: str, text: str = "", data: dict | None = _NO_DATA, owner=None, seen: str | None = None,
                 seen_data: dict | None = None, witnesses: tuple[str, ...] | None = None, said: Text | None = None,
                 seen_said: Text | None = None):
        """The dataclass's own __init__, written out: every field in the instance's dict at once (the
        texts under the names their properties read, below), without a call for each -- a replay makes
        thousands of events (issue 15). ``data`` left out is a new empty dict."""
        self.__dict__.update(kind=kind, _text=text, data={} if data is _NO_DATA else data, owner=owner, _seen=seen,
                             seen_data=seen_data, witnesses=witnesses, said=said, seen_said=seen_said)

    def owners(self) -> tuple[str, ...]:
        """The seats that know the full description (empty: everyone does)."""
        if self.owner is None:
            return ()
        return (self.owner,) if isinstance(self.owner, str) else tuple(self.owner)

    def for_side(self, side: str | None) -> tuple[str, dict] | None:
        """(text, data) as seat ``side`` knows it; None if that seat saw nothing.

        ``side=None`` is the moderator, who sees everything.
        """
        if side is None or self.owner is None or side in self.owners():
            return self.text, self.data
        if self.seen is None or (self.witnesses is not None and side not in self.witnesses):
            return None
        return self.seen, self.seen_data or {}

    def text_for(self, side: str | None, tongue: Tongue) -> str | None:
        """The description seat ``side`` knows, in ``tongue``'s language; None if it saw nothing."""
        known = self.for_side(side)
        if known is None:
            return None
        full = side is None or self.owner is None or side in self.owners()
        said = self.said if full else self.seen_said
        return tongue.say(said) if said is not None else known[0]

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "text": self.text,
            "data": self.data,
            "owner": self.owner,
            "seen": self.seen,
            "seen_data": self.seen_data,
            **({"witnesses": list(self.witnesses)} if self.witnesses is not None else {}),
        }


def _english(event: Event, written: str, said: str):
    """The field ``written`` of ``event`` as given, else (``""`` for the text, None for the seen
    text) the English sentence of its Text ``said``, written when first read and kept."""
    empty = "" if written == "_text" else None
    value = event.__dict__[written]  # always there: Event.__init__ gives every field
    if value == empty and (text := event.__dict__.get(said)) is not None:
        value = event.__dict__[written] = str(text)
    return value


def _keep(event: Event, written: str, value) -> None:
    event.__dict__[written] = value


# After the dataclass is made: its __eq__, __repr__ and to_dict go through these properties (its __init__ writes
# the dict itself). They are made here, at import, and ask _english at each reading (so a mutation test can
# change what it does).
Event.text = property(lambda event: _english(event, "_text", "said"),
                      lambda event, value: _keep(event, "_text", value))
Event.seen = property(lambda event: _english(event, "_seen", "seen_said"),
                      lambda event, value: _keep(event, "_seen", value))


def events_for(events: list[Event], side: str | None) -> list[dict]:
    """The events of a day as ``side`` knows them, in order."""
    out = []
    for event in events:
        known = event.for_side(side)
        if known is not None:
            text, data = known
            out.append({"kind": event.kind, "text": text, "data": data})
    return out
