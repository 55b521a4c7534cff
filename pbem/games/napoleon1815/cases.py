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
                      disorganised = true; loc = "att1"; square = true   # loc, square: in a waiting battle
    [expect]   count = { "forms square" = 1 }            # how many events contain each text
               kinds = { "retreat" = 2 }                 # how many events of each kind (Event.kind)
    [[expect.press]]  from = "anglo-dutch"; to = ["prussian"]; allowed = false   # §12, before the turn

Saying more of the position (docs/cases.md, "Napoleon 1815's cases"):

    dice_after = 6                       # every roll after the listed ones
    [case]     night = true              # the case's turn is a night turn, whatever the track says
    [position] broken = ["anglo"]        # armies already broken (§11)
    [[block]]  disorganised = true       # the block retreated earlier this turn (§7.3)
    [map]      an inline map instead of the shipped one: [[map.town]] id, supply ("anglo"/"prussian"),
               country, zone; [[map.road]] a, b, kind ("major"/"minor"), river
    [battle]   a battle already under way: town, attacker ("france"/"allies"), entries (towns the
               attacker came from), rounds (rounds each side has fought; next = "def" when the
               attacker has fought one more), idle (the attacker's idle rounds, §6.7), terrain
               ({ "att1" = "woods" }); each of its [[block]]s has loc ("att0".."att2", "def0".."def2",
               "res-att", "res-def": positions counted from the attacker's left, so the defender's
               left is "def2"), and may have square, shelter, moved, fired, fresh; the case's orders
               are the round sub-turn's; with battle = "live" the battle stops after one round.
               [[battle]] for several battles under way at once, each with the blocks in its town.
    [[then]]   refused = "..."            # that sub-turn's orders must be refused with this text
"""

from __future__ import annotations

import tomllib
from collections import Counter
from dataclasses import dataclass, field, replace
from pathlib import Path

from pbem.core.chance import Chance
from pbem.core.decisions import Decider
from pbem.core.events import events_for
from pbem.core.orders import OrdersError
from pbem.paths import MAPS

from .battle import BB, Battle
from .blocks import ARMY_SIDE
from .board import board_from_dict
from .parse import parse_orders
from .scenario import TurnSpec
from .sight import seats_seeing
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
    sc = case_scenario(path, data, meta)
    state = case_position(path, sc, data, meta)
    outcome = Outcome(str(path), meta.get("title", path.stem))
    expect = data.get("expect", {})
    for spec in expect.get("press", []):  # §12: what the Allied seats may say to each other this turn
        from .ruleset import Napoleon1815

        refusal = Napoleon1815().press_rule(sc, state, spec["from"], tuple(spec["to"]))
        if (refusal is None) != spec.get("allowed", True):
            outcome.failures.append(f"a message from {spec['from']} to {spec['to']}: "
                                    f"{'refused: ' + refusal if refusal else 'allowed'}")
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
    dice = list(data.get("dice", [])) + ([int(data["dice_after"])] * 2000 if "dice_after" in data else [])
    chance = Chance(0, state.turn, fixed=dice)
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
            if "refused" not in step or step["refused"] not in str(exc):
                outcome.failures.append(f"sub-turn orders refused: {exc}")
            break
        if "refused" in step:
            outcome.failures.append(f"expected the sub-turn's orders to be refused with {step['refused']!r}")
            break
        after, more = resolve(sc, after, given, decider, chance)
        events += more
    outcome.state, outcome.rolls, outcome.raw = after, chance.rolls, events
    outcome.events = [e["text"] for e in events_for(events, None)]
    outcome.failures += event_failures(expect, outcome.events, events)
    outcome.failures += block_failures(sc, expect, after)
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


def block_failures(sc, expect: dict, after) -> list[str]:
    """What the case's [[expect.block]] find wrong: a block's town, strength, disorganisation, and
    its place on the board of a battle that waits for its next round."""
    failures: list[str] = []
    waiting = {bid: blk for d in ((after.pending or {}).get("fought") or []) for bid, blk in d["blocks"].items()}
    for spec in expect.get("block", []):
        b = after.blocks[spec["id"]]
        if "disorganised" in spec and b.disorganized != spec["disorganised"]:
            failures.append(f"{b.id}: expected disorganised {spec['disorganised']}, is {b.disorganized}")
        for key in ("loc", "square"):
            if key in spec and (waiting.get(b.id) or {}).get(key) != spec[key]:
                failures.append(f"{b.id}: expected {key} {spec[key]!r} in the waiting battle, is "
                                f"{(waiting.get(b.id) or {}).get(key)!r}")
        if "at" in spec:
            want = "eliminated" if spec["at"] == "eliminated" else sc.board.find(spec["at"])
            have = "eliminated" if b.eliminated else b.town
            if want != have:
                failures.append(f"{b.id}: expected at {spec['at']}, is at {have}")
        if "strength" in spec and b.strength != spec["strength"]:
            failures.append(f"{b.id}: expected strength {spec['strength']}, is {b.strength}")
    return failures


def case_position(path, sc, data: dict, meta: dict):
    """The case's position: its turn, the listed blocks, the losses and broken armies, any battle under way."""
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
        state.blocks[bid].disorganized = bool(spec.get("disorganised", False))
    for army, n in data.get("position", {}).get("lost", {}).items():
        state.lost[army] = n
    state.broken = list(data.get("position", {}).get("broken", []))
    if "battle" in data:
        specs = data["battle"] if isinstance(data["battle"], list) else [data["battle"]]  # [[battle]]: several
        fought = [battle_under_way(path, sc, state, spec, data.get("block", [])) for spec in specs]
        state.pending = {"stage": "round", "standing": {}, "asked": {}, "battles": [], "fought": fought}
    return state


def event_failures(expect: dict, said: list[str], events: list) -> list[str]:
    """What the case's expectations of the events (as the moderator and each seat read them) find wrong."""
    failures: list[str] = []
    for text in expect.get("events", []):
        if not any(text in e for e in said):
            failures.append(f"no event contains {text!r}")
    at = 0
    for text in expect.get("order", []):  # events that must come in this order
        found = next((i for i in range(at, len(said)) if text in said[i]), None)
        if found is None:
            failures.append(f"no event containing {text!r} after event {at}")
            break
        at = found + 1
    for text in expect.get("no_events", []):
        if any(text in e for e in said):
            failures.append(f"an event contains {text!r}")
    for seat, texts in expect.get("seen", {}).items():  # what a seat's report tells it
        told = [e["text"] for e in events_for(events, seat)]
        for text in texts:
            if not any(text in e for e in told):
                failures.append(f"{seat} is not told {text!r}")
    for seat, texts in expect.get("unseen", {}).items():  # what a seat may not read
        told = [e["text"] for e in events_for(events, seat)]
        for text in texts:
            if any(text in e for e in told):
                failures.append(f"{seat} is told {text!r}")
    for text, n in expect.get("count", {}).items():
        have = sum(1 for e in said if text in e)
        if have != n:
            failures.append(f"events containing {text!r}: expected {n}, were {have}")
    for kind, n in expect.get("kinds", {}).items():  # events of a kind (Event.kind: "retreat", "reinforce", ...)
        have = sum(1 for e in events if e.kind == kind)
        if have != n:
            failures.append(f"events of kind {kind!r}: expected {n}, were {have}")
    return failures


def case_scenario(path, data: dict, meta: dict):
    """The shipped scenario, or a copy of it on the case's own map and with its night turn."""
    sc = scenario()
    if "map" in data:
        towns = [{"at": [0, 0], "country": "netherlands", "zone": "west", **t} for t in data["map"].get("town", [])]
        try:
            board = board_from_dict({"town": towns, "road": data["map"].get("road", [])}, f"{path} [map]")
        except ValueError as exc:
            raise CaseError(str(exc)) from None
        sc = replace(sc, board=board, supply_loss={c: n for c, n in sc.supply_loss.items() if c in board.towns})
    if meta.get("night"):
        n = int(meta.get("turn", 2)) - 2
        spec = sc.track[n]
        sc = replace(sc, track=[*sc.track[:n], TurnSpec(spec.date, spec.part, spec.side, True), *sc.track[n + 1:]])
    return sc


LOCS = {"att0", "att1", "att2", "def0", "def1", "def2", "res-att", "res-def"}


def battle_under_way(path, sc, state, spec: dict, blocks: list) -> dict:
    """A battle already under way ([battle]), as the position's round sub-turn keeps it; its blocks
    are the [[block]]s with a ``loc`` standing in its town."""
    town = sc.board.find(spec["town"])
    if town is None:
        raise CaseError(f"{path}: no town {spec['town']}")
    att = spec.get("attacker", "france")
    sides = {"att": att, "def": "allies" if att == "france" else "france"}
    entries = set()
    for name in spec.get("entries", []):
        if sc.board.find(name) is None:
            raise CaseError(f"{path}: no town {name}")
        entries.add(sc.board.find(name))
    battle = Battle(town, sides, entries, terrain=dict(spec.get("terrain", {})))
    for b in blocks:
        if "loc" not in b or sc.board.find(b["at"]) != town:
            continue
        if b["loc"] not in LOCS:
            raise CaseError(f"{path}: {b['id']}: loc {b['loc']!r}, expected one of {', '.join(sorted(LOCS))}")
        role = "att" if ARMY_SIDE[state.blocks[b["id"]].army] == att else "def"
        if b["loc"].startswith("res") and not b["loc"].endswith(role):
            raise CaseError(f"{path}: {b['id']}: loc {b['loc']!r}: not its own side's reserve")
        battle.blocks[b["id"]] = BB(b["id"], role, state.blocks[b["id"]].army, sc.blocks[b["id"]].type, b["loc"],
                                    **{k: b[k] for k in ("square", "shelter", "moved", "fired", "fresh") if k in b})
    n = int(spec.get("rounds", 0))
    battle.rounds = Counter({"att": n + (spec.get("next") == "def"), "def": n})
    battle.idle = int(spec.get("idle", 0))
    for role in ("att", "def"):
        battle.start[role] = int(spec.get("start", {}).get(role, sum(
            state.blocks[b.id].strength for b in battle.blocks.values() if b.role == role)))
    for loc, marker in battle.terrain.items():
        if marker in ("farm", "hill"):
            battle.occupant[loc] = spec.get("occupant", {}).get(loc)
    battle.witnesses = set(seats_seeing(state.players, {b.army for b in battle.blocks.values()}))
    for role in ("att", "def"):  # the live mode fights this one round, then waits for the next
        k = battle.rounds[role] + 1
        battle.asked |= {f"{seat}:round{k}{role}" for seat in ("french", "anglo-dutch", "prussian")}
    return battle.to_dict()


def show_case(outcome) -> str:
    lines = [outcome.title, "OK" if outcome.ok else "FAILED"]
    lines += [f"  failure: {f}" for f in outcome.failures]
    lines += [f"  event: {e}" for e in outcome.events]
    lines += [f"  die {r.n + 1} ({r.purpose}): {r.value}" for r in outcome.rolls]
    return "\n".join(lines)
