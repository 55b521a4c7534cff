"""The frame of a Marengo-family adjudication case (docs/cases.md): reading the file,
naming places, and the expectations both games share. Each game's case runner
(``pbem/games/<game>/cases.py``) builds its position, plays its turn and adds the
expectations of its own rules (``check`` takes them as ``block_extra`` and runs
them after the shared ones)."""

from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pbem.core.events import events_for


class CaseError(ValueError):
    """A case file that cannot be run; the message says what is wrong in it."""


@dataclass
class Outcome:
    path: str
    title: str
    failures: list[str] = field(default_factory=list)
    state: object = None
    events: list = field(default_factory=list)
    decisions: list = field(default_factory=list)
    scenario: object = None
    refused: str = ""  # the orders' problems, when they were refused

    @property
    def ok(self) -> bool:
        return not self.failures


def load_case(path: str | Path) -> dict:
    path = Path(path)
    try:
        return tomllib.loads(path.read_text(encoding="utf-8"))
    except tomllib.TOMLDecodeError as exc:
        raise CaseError(f"{path}: not valid TOML: {exc}") from None
    except OSError as exc:
        raise CaseError(f"{path}: cannot read: {exc.strerror}") from None


def place(board, text: str) -> tuple[str, str | None]:
    """'Marengo' -> (marengo, None); 'Marengo>Spinetta' -> (marengo, spinetta)."""
    if ">" in text:
        a, b = text.split(">", 1)
        return board.find_locale(a.strip()), board.find_locale(b.strip())
    return board.find_locale(text.strip()), None


def where(board, block) -> str:
    """Where a block is, by the map's names (as a case's ``at`` is written), or its status off the map."""
    if block.status != "map":
        return block.status
    name = board.locales[block.locale].name
    return name + (f">{board.locales[block.facing].name}" if block.facing else "")


def check(outcome: Outcome, expect: dict, board, block_extra=None) -> None:
    """The expectations both games share, appended to ``outcome.failures``: blocks (where,
    strength, bombardment; ``block_extra(spec, block, failures)`` for a game's own keys),
    eliminated blocks, demoralisation, the winner, events as everyone and as each side saw
    them, and decisions."""
    st, fail = outcome.state, outcome.failures
    if not expect:
        fail.append("the case expects nothing: add an [expect] table")
    for spec in expect.get("block", []):
        bid = spec["id"]
        b = st.blocks.get(bid)
        if b is None:
            fail.append(f"expected block {bid}, which the case does not have")
            continue
        if "at" in spec:
            want = spec["at"]
            if want in ("eliminated", "waiting"):
                if b.status != want:
                    fail.append(f"{bid}: expected {want}, is at {where(board, b)}")
            else:
                got = (b.locale, b.facing) if b.on_map else None
                if got != place(board, want):
                    fail.append(f"{bid}: expected at {want}, is at {where(board, b)}")
        if "strength" in spec and b.strength != spec["strength"]:
            fail.append(f"{bid}: expected strength {spec['strength']}, has {b.strength}")
        if block_extra is not None:
            block_extra(spec, b, fail)
        if "bombard" in spec:
            want = board.find_locale(spec["bombard"]) if spec["bombard"] else None
            if b.bombard != want:
                fail.append(f"{bid}: expected a bombardment toward {spec['bombard'] or 'nothing'}, has {b.bombard}")
    for bid in expect.get("eliminated", []):
        if st.blocks[bid].status != "eliminated":
            fail.append(f"{bid}: expected eliminated, is at {where(board, st.blocks[bid])}")
    for side, value in expect.get("demoralised", {}).items():
        if st.demoralised[side] != value:
            fail.append(f"{side} demoralised: expected {value}")
    if "winner" in expect and st.winner != expect["winner"]:
        fail.append(f"winner: expected {expect['winner']}, got {st.winner}")
    texts = [e.text for e in outcome.events]
    for pattern in expect.get("events", []):
        if not any(re.search(pattern, t) for t in texts):
            fail.append(f"no event matches {pattern!r}")
    at = 0
    for pattern in expect.get("events_in_order", []):  # each after the one before it
        found = next((i for i in range(at, len(texts)) if re.search(pattern, texts[i])), None)
        if found is None:
            fail.append(f"no event matches {pattern!r} after the events matched before it")
            break
        at = found + 1
    for pattern in expect.get("no_events", []):
        for t in texts:
            if re.search(pattern, t):
                fail.append(f"an event matches {pattern!r} but should not: {t}")
    for side, patterns in expect.get("seen", {}).items():
        seen = [e["text"] for e in events_for(outcome.events, side)]
        for pattern in patterns:
            if not any(re.search(pattern, t) for t in seen):
                fail.append(f"{side} did not see an event matching {pattern!r}")
    for side, patterns in expect.get("unseen", {}).items():
        seen = [e["text"] for e in events_for(outcome.events, side)]
        for pattern in patterns:
            for t in seen:
                if re.search(pattern, t):
                    fail.append(f"{side} saw {pattern!r}, which it should not: {t}")
    for spec in expect.get("decision", []):
        matches = [r for r in outcome.decisions if r.decision.kind == spec["kind"]
                   and ("side" not in spec or r.decision.side == spec["side"])]
        if not matches:
            fail.append(f"no {spec['kind']} decision was asked")
            continue
        nth = spec.get("nth", 0)
        record = matches[nth] if nth < len(matches) else matches[-1]
        if "answer" in spec and list(record.answer) != list(spec["answer"]):
            fail.append(f"{spec['kind']} decision: expected {spec['answer']}, answered {list(record.answer)}")
        if "source" in spec and record.source != spec["source"]:
            fail.append(f"{spec['kind']} decision: expected from {spec['source']}, came from {record.source}")
    for kind in expect.get("no_decision", []):
        if any(r.decision.kind == kind for r in outcome.decisions):
            fail.append(f"a {kind} decision was asked, but none should be")
