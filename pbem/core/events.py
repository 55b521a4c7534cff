"""Events: what happened during a day, and who saw it.

An event has a full description (what its owner and a moderator know) and,
separately, what the other side saw, written without anything that side may
not know. ``owner=None`` makes the full description public.
"""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Event:
    kind: str
    text: str
    data: dict = field(default_factory=dict)
    owner: str | None = None
    seen: str | None = None
    seen_data: dict | None = None

    def for_side(self, side: str | None) -> tuple[str, dict] | None:
        """(text, data) as ``side`` knows it; None if that side saw nothing.

        ``side=None`` is the moderator, who sees everything.
        """
        if side is None or self.owner is None or self.owner == side:
            return self.text, self.data
        if self.seen is None:
            return None
        return self.seen, self.seen_data or {}

    def to_dict(self) -> dict:
        return {
            "kind": self.kind,
            "text": self.text,
            "data": self.data,
            "owner": self.owner,
            "seen": self.seen,
            "seen_data": self.seen_data,
        }


def events_for(events: list[Event], side: str | None) -> list[dict]:
    """The events of a day as ``side`` knows them, in order."""
    out = []
    for event in events:
        known = event.for_side(side)
        if known is not None:
            text, data = known
            out.append({"kind": event.kind, "text": text, "data": data})
    return out
