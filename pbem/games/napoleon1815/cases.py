"""Adjudication cases (docs/cases.md's idea for this game): a position on the real map,
the orders of the seats, the dice in order, and what must hold afterwards.

    dice = [4, 2]                        # the turn's rolls, in order
    [case]
    title = "..."; rule = "002 §5.6"; turn = 2   # index: 0 Allied setup, 1 French setup, 2 the first turn
    bid = "auction"                          # with turn = 0: the case begins with the auction sub-turn
    players = 2
    [[block]]  id = "OG"; at = "Charleroi"; strength = 3   # only listed blocks are on the map
    [position] lost = { anglo = 7 }          # blocks already lost by each army
    [orders]   french = "MOVE OG Beaumont -> Thuin"
    [[then]]   waits = "round"; asked = ["prussian"]; orders = { prussian = "DOCTRINE WITHDRAW 100" }
               # a sub-turn after the turn (hybrid and live battles): what must wait, then its orders;
               # waits = "turn": the next whole turn (the setup after the auction)
    [expect]   events = ["..."]; no_events = ["..."]; refused = "..."; winner = "france"
               order = ["...", "..."]     # events containing these, in this order
               lost = { french = 1 }; broken = ["anglo"]
    [expect.seen]   prussian = ["..."]       # events a seat is told (as its report tells them)
    [expect.unseen] anglo-dutch = ["..."]    # texts no event told to that seat may contain
    [[expect.block]]  id = "OG"; at = "Thuin"; strength = 3    # at = "eliminated" for a lost block
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from pbem.core.chance import Chance
from pbem.core.decisions import Decider
from pbem.core.events import events_for
from pbem.core.orders import OrdersError
from pbem.paths import MAPS

from .parse import parse_orders
from .scenario import load_scenario
from .setup import initial_state
from .turn import resolve


class CaseError(ValueError):
    """A case file that cannot be run."""


@dataclass
class Outcome:
    path: str
    title: str
    failures: list[str] = field(default_factory=list)
    events: list = field(default_factory=list)
    raw: list = field(default_factory=list)  # the Event objects, to read them as a seat saw them
    rolls: list = field(default_factory=list)
    state: object = None

    @property
    def ok(self) -> bool:
        return not self.failures


_SCENARIO = {}


def scenario():
    if "s" not in _SCENARIO:
        _SCENARIO["s"] = load_scenario(MAPS / "napoleon1815.toml")
    return _SCENARIO["s"]


def run_case(path, ask=None) -> Outcome:
    """Run one case; ``ask(decision)`` (optional) says which decisions a player asked to be asked."""
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, OSError) as exc:
        raise CaseError(f"{path}: {exc}") from None
    meta = data.get("case", {})
    sc = scenario()
    state = initial_state(sc, {"players": meta.get("players", 2), "battle": meta.get("battle", "doctrine"),
                               "bid": meta.get("bid", "none")})
    state.turn = int(meta.get("turn", 2))
    for spec in data.get("block", []):
        bid = spec["id"]
        if bid not in state.blocks:
            raise CaseError(f"{path}: no block {bid}")
        town = sc.board.find(spec["at"])
        if town is None:
            raise CaseError(f"{path}: no town {spec['at']}")
        state.blocks[bid].town = town
        state.blocks[bid].strength = int(spec.get("strength", sc.blocks[bid].strength))
    for army, n in data.get("position", {}).get("lost", {}).items():
        state.lost[army] = n
    outcome = Outcome(str(path), meta.get("title", path.stem))
    expect = data.get("expect", {})
    orders = {}
    for seat, text in data.get("orders", {}).items():
        try:
            orders[seat] = parse_orders(sc, state, seat, text)
        except OrdersError as exc:
            if "refused" in expect and expect["refused"] in str(exc):
                return outcome
            outcome.failures.append(f"orders of {seat} refused: {exc}")
            return outcome
    if "refused" in expect:
        outcome.failures.append(f"expected the orders to be refused with {expect['refused']!r}")
        return outcome
    chance = Chance(0, state.turn, fixed=list(data.get("dice", [])))
    decider = Decider(answers={int(k): tuple(v) for k, v in data.get("answers", {}).items()},
                      **({"ask": ask} if ask else {}))
    after, events = resolve(sc, state, orders, decider, chance)
    for step in data.get("then", []):  # the sub-turns that follow (battle modes hybrid and live)
        stage = "auction" if after.auction is not None else after.pending["stage"] if after.pending else "turn"
        if stage == "turn" and step.get("waits") != "turn":  # waits = "turn": the next whole turn, on purpose
            outcome.failures.append("a [[then]] step, but no sub-turn waits")
            break
        if "waits" in step and stage != step["waits"]:
            outcome.failures.append(f"the sub-turn waiting is {stage!r}, not {step['waits']!r}")
        if "asked" in step and sorted((after.pending or {}).get("asked", {})) != sorted(step["asked"]):
            outcome.failures.append(f"seats asked: expected {step['asked']}, were {sorted((after.pending or {}).get('asked', {}))}")
        try:
            given = {seat: parse_orders(sc, after, seat, text) for seat, text in step.get("orders", {}).items()}
        except OrdersError as exc:
            outcome.failures.append(f"sub-turn orders refused: {exc}")
            break
        after, more = resolve(sc, after, given, decider, chance)
        events += more
    outcome.state, outcome.rolls, outcome.raw = after, chance.rolls, events
    outcome.events = [e["text"] for e in events_for(events, None)]
    for text in expect.get("events", []):
        if not any(text in e for e in outcome.events):
            outcome.failures.append(f"no event contains {text!r}")
    at = 0
    for text in expect.get("order", []):  # events that must come in this order
        found = next((i for i in range(at, len(outcome.events)) if text in outcome.events[i]), None)
        if found is None:
            outcome.failures.append(f"no event containing {text!r} after event {at}")
            break
        at = found + 1
    for text in expect.get("no_events", []):
        if any(text in e for e in outcome.events):
            outcome.failures.append(f"an event contains {text!r}")
    for seat, texts in expect.get("seen", {}).items():  # what a seat's report tells it
        told = [e["text"] for e in events_for(events, seat)]
        for text in texts:
            if not any(text in e for e in told):
                outcome.failures.append(f"{seat} is not told {text!r}")
    for seat, texts in expect.get("unseen", {}).items():  # what a seat may not read
        told = [e["text"] for e in events_for(events, seat)]
        for text in texts:
            if any(text in e for e in told):
                outcome.failures.append(f"{seat} is told {text!r}")
    for spec in expect.get("block", []):
        b = after.blocks[spec["id"]]
        if "at" in spec:
            want = "eliminated" if spec["at"] == "eliminated" else sc.board.find(spec["at"])
            have = "eliminated" if b.eliminated else b.town
            if want != have:
                outcome.failures.append(f"{b.id}: expected at {spec['at']}, is at {have}")
        if "strength" in spec and b.strength != spec["strength"]:
            outcome.failures.append(f"{b.id}: expected strength {spec['strength']}, is {b.strength}")
    for army, n in expect.get("lost", {}).items():
        if after.lost[army] != n:
            outcome.failures.append(f"{army} lost: expected {n}, is {after.lost[army]}")
    if "broken" in expect and sorted(after.broken) != sorted(expect["broken"]):
        outcome.failures.append(f"broken armies: expected {expect['broken']}, are {after.broken}")
    if "winner" in expect and after.winner != (expect["winner"] or None):
        outcome.failures.append(f"winner: expected {expect['winner']}, is {after.winner}")
    if "dice_used" in expect and len(chance.rolls) != expect["dice_used"]:
        outcome.failures.append(f"dice rolled: expected {expect['dice_used']}, were {len(chance.rolls)}")
    return outcome


def show_case(outcome) -> str:
    lines = [outcome.title, "OK" if outcome.ok else "FAILED"]
    lines += [f"  failure: {f}" for f in outcome.failures]
    lines += [f"  event: {e}" for e in outcome.events]
    lines += [f"  die {r.n + 1} ({r.purpose}): {r.value}" for r in outcome.rolls]
    return "\n".join(lines)
