"""Adjudication cases that play whole turns (``[action] kind = "turns"``): written orders, couriers and their
delay dice, the initiative roll and tests, PIPs, fire, movement and melee, several turns in a row, each turn's
every die given by the case (docs/cases.md, "Napoleonic DBA's cases that play turns"). The game is the
two-seat one (a seat a side), or with ``command = "kriegsspiel"`` the game of a seat per commander (a general and
his colonels a side, seats.py): each seat's orders are written as its commander alone and the turn is played
as that game plays it (reports up the chain, each seat told what its troops see, decisions put to the seat).

    [action]
    kind = "turns"
    command = "kriegsspiel"                     # optional: a seat per commander (orders.<commander id>)

    [[turn]]                                    # one table per turn, played in order from turn 1 (or ``first``)
    dice = [[4, "initiative"], [2, "initiative"], [3, "delay"], ...]   # every die of the turn, in order; a
                                                # die may be a bare number, or [value, "words of its purpose"]
    orders.blue = '''FROM General Azur TO Colonel Bleu
    MOVE TO Mill Village'''                     # a seat's orders text, read by the game's own parser
    answers = { 0 = ["red-1-2"] }               # decisions of the turn answered (by index), as a moderator would
    ask = ["red"]                               # sides that asked to be asked ("ask me"): the turn stops there
    [turn.expect]
    lines = ["courier 1 delivered"]             # each in some line of the turn (any seat's)
    absent = ["re-forms"]                       # in no line of the turn
    in_force = { red-1 = "HOLD, waiting" }      # the brigade's order line of the turn contains it
    pending = "disorganised"                    # the turn stopped at a decision of this kind ("ask me")
    refused = "did you mean MOVE TO?"           # a seat's orders refused, the answer containing this
    seen = { blue-2 = ["courier 1 delivered"] } # each in some line that seat reads this turn (its own or public)
    unseen = { blue-2 = ["sets out"] }          # in no line that seat reads this turn
    decisions = [["disorganised", "red", ["red-1-2"]]]   # decisions put (kind, side, answer), in order
    [[turn.expect.element]]                     # as a one-rule case's [[expect.element]]
    [turn.expect.brigade] red-1 = { bef = 5 }   # as a one-rule case's [expect.brigade]
    [[turn.expect.commander]] id = "red-1"; alive = false; at = [x, y]

The position is set up as for the one-rule cases (cases.py: ``[[element]]``, ``[[commander]]``, ``[[feature]]``,
``[bef]``), plus ``[[road]]`` (name, points), ``[[brigade]]`` (a new brigade, or an old one's quality and
commander; its starting BEF counted again from the elements it has on the table) and ``[settings]`` (the
scenario's settings changed: courier_speed, spotting, command_radius, initiative_bonus, turns).
"""

from __future__ import annotations

import copy
import dataclasses

from shapely.geometry import LineString

from pbem.core.chance import Chance
from pbem.core.decisions import Decider, Pending
from pbem.core.orders import OrdersError

from . import effectiveness, seats, turn
from .couriers import Post
from .elements import Brigade, inches
from .names import Names
from .parse import Clock, parse_orders
from .state import State
from .command import BrigadeOrders
from .terrain import Line, Terrain


def setup(data: dict, sc, table, path):
    """The case's scenario (a copy, with its terrain, roads and settings changed) and the state to play."""
    roads = [Line("road", r.get("name", ""), LineString([(inches(x), inches(y)) for x, y in r["points"]]))
             for r in data.get("road", [])]
    terrain = table.terrain
    if roads:
        terrain = Terrain(terrain.features, terrain.roads + roads, terrain.streams)
        table.terrain = terrain
    sc = copy.copy(sc)
    base = sc.table
    sc.table = type(base)(base.width, base.depth, terrain, base.grid, base.places, base.aliases,
                          brigades=table.brigades, commanders=table.commanders, elements=dict(table.elements),
                          reserve=dict(table.reserve))
    if "settings" in data:
        changes = {k: (inches(v) if k in ("courier_speed", "spotting", "command_radius") else v)
                   for k, v in data["settings"].items()}
        sc.settings = dataclasses.replace(sc.settings, **changes)
    state = State(elements=table.elements, reserve=table.reserve, commanders=table.commanders,
                  brigades=table.brigades, post=Post(speed=sc.settings.courier_speed))
    state.commands = {bid: BrigadeOrders(bid) for bid in sorted(state.brigades)}
    state.memory = {side: {} for side in sc.sides}
    return sc, state


def brigade(table, spec: dict, path) -> None:
    from .cases import CaseError

    bid = spec["id"]
    b = table.brigades.get(bid)
    if b is None:
        if "side" not in spec:
            raise CaseError(f"{path}: brigade {bid}: a new brigade needs its side (and name, commander)")
        b = table.brigades[bid] = Brigade(bid, spec.get("name", bid), spec["side"], spec.get("commander"))
    for k in ("name", "commander", "allied"):
        if k in spec:
            setattr(b, k, spec[k])
    if b.commander in table.commanders:
        table.commanders[b.commander].brigade = bid
    standing = [e for e in table.elements.values() if e.brigade == bid]
    b.elements = [e.id for e in standing] + [i for i in b.elements if i not in table.elements
                                             and i in table.reserve]
    if "quality" in spec:
        for e in standing:
            e.quality = spec["quality"]
    b.bef_start = effectiveness.starting_bef(b, standing, table.commanders)


def run_turns(data: dict, sc, table, out, path) -> None:
    """Play the case's turns, comparing each with its expectations (failures into ``out``)."""
    from .cases import CaseError, check_brigades, check_elements

    sc, state = setup(data, sc, table, path)
    state.turn = int(data.get("action", {}).get("first", 1))
    command = data.get("action", {}).get("command", seats.COMMANDERS)
    if command not in (seats.COMMANDERS, seats.KRIEGSSPIEL):
        raise CaseError(f"{path}: command {command!r}: expected {seats.COMMANDERS!r} or {seats.KRIEGSSPIEL!r}")
    if command == seats.KRIEGSSPIEL:
        state.mode = seats.KRIEGSSPIEL
        seats.know_troops(sc, state, 0)  # each commander knows where his troops deployed (DS7), as a game begins
    writers_of = seat_writers(sc, state, path)
    for n, spec in enumerate(data.get("turn", []), start=1):
        t = state.turn
        where = f"turn {t}"
        dice = [d[0] if isinstance(d, list) else d for d in spec.get("dice", [])]
        purposes = [d[1] if isinstance(d, list) and len(d) > 1 else None for d in spec.get("dice", [])]
        chance = Chance(0, t, fixed=dice)
        ask = set(spec.get("ask", []))
        decider = Decider(answers={int(k): tuple(v) for k, v in spec.get("answers", {}).items()},
                          ask=lambda d, ask=ask: d.side in ask)
        orders = {}
        for seat, text in spec.get("orders", {}).items():
            tbl = state.table(sc)
            side, writers = writers_of(seat, n, tbl)
            try:
                orders[seat] = parse_orders(text, Names.of(tbl), side, t, writers,
                                            Clock(sc.settings.start, sc.settings.minutes))
            except OrdersError as exc:
                want = spec.get("expect", {}).get("refused")
                if want is not None and want in str(exc):
                    orders[seat] = None
                    continue
                out.failures.append(f"{where}: {seat}'s orders refused: {exc}")
                return
        expect = spec.get("expect", {})
        if "refused" in expect and not any(o is None for o in orders.values()):
            out.failures.append(f"{where}: orders accepted, expected refused with {expect['refused']!r}")
        pending = None
        try:
            state, events = play(sc, state, {k: v for k, v in orders.items() if v is not None}, decider, chance)
        except Pending as stop:
            pending, events = stop.decision, []
        lines = [f"{where}: {e.text}" for e in events if e.kind != "roll"]
        out.lines += lines
        out.said += [e.said if e.said is not None else e.text for e in events if e.kind != "roll"]  # as written
        out.rolls += [f"{where}: {r.value} ({r.purpose})" for r in chance.rolls]
        out.decisions += list(decider.records)
        _check_dice(out, where, chance, dice, purposes, pending is not None)
        if pending is not None:
            if expect.get("pending") != pending.kind:
                out.failures.append(f"{where}: stopped at a decision ({pending.kind}: {pending.question}), "
                                    f"expected {expect.get('pending')!r}")
            return
        if "pending" in expect:
            out.failures.append(f"{where}: no decision stopped the turn, expected {expect['pending']!r}")
        _check_turn(out, where, expect, events, decider, state, sc)
        tbl = state.table(sc)
        check_elements(out, expect.get("element", []), tbl, where + ": ")
        check_brigades(out, expect.get("brigade", {}), tbl, where + ": ")
        for c in expect.get("commander", []):
            have = tbl.commanders[c["id"]]
            if "alive" in c and have.alive != c["alive"]:
                out.failures.append(f"{where}: {c['id']} alive = {have.alive}, expected {c['alive']}")
            if "at" in c and (abs(have.x - inches(c["at"][0])) > 1 or abs(have.y - inches(c["at"][1])) > 1):
                out.failures.append(f"{where}: {c['id']} at ({have.x / 10}, {have.y / 10}), expected {c['at']}")
        if state.over and n < len(data.get("turn", [])):
            out.failures.append(f"{where}: the game ended ({state.victory}) with turns of the case still to play")
            return


def seat_writers(sc, state, path):
    """``writers(seat, n, table)``: the seat's side and the commanders it writes as. A side's seat writes as any
    of its commanders alive; a kriegsspiel seat (a commander's id) as himself alone (seats.py)."""
    from .cases import CaseError

    kriegsspiel = seats.kriegsspiel(state)
    known = [c.id for c in seats.commanders_of(sc)] if kriegsspiel else list(sc.sides)

    def writers(seat: str, n: int, table):
        if seat not in known:
            raise CaseError(f"{path}: turn {n}: no seat {seat!r} (the seats: {', '.join(known)})")
        if kriegsspiel:
            return seats.side_of(sc, seat), {seat}
        return seat, {c.id for c in table.commanders.values() if c.side == seat and c.alive}

    return writers


def play(sc, state, orders: dict, decider, chance):
    """The turn played as the game plays it: with a seat a side, turn.resolve; with a seat per commander, the
    kriegsspiel's turn (the ruleset's resolve: reports ride, the seats' orders merged by side, decisions put to
    seats, each seat told its own)."""
    if not seats.kriegsspiel(state):
        return turn.resolve(sc, state, orders, decider, chance)
    from .ruleset import DBA_RULESET

    return DBA_RULESET.resolve(sc, state, orders, decider, chance)


def read_by(events, seat: str) -> list[str]:
    """The lines seat ``seat`` reads of the turn's events (its own, and the public ones)."""
    out = []
    for e in events:
        if e.kind == "roll":
            continue
        known = e.for_side(seat)
        if known is not None:
            out.append(known[0])
    return out


def _check_dice(out, where, chance, dice, purposes, stopped) -> None:
    rolled = chance.rolls
    for i, r in enumerate(rolled):
        if i >= len(dice):
            out.failures.append(f"{where}: die {i + 1} ({r.purpose}) is not given by the case")
        elif purposes[i] and purposes[i].lower() not in r.purpose.lower():
            out.failures.append(f"{where}: die {i + 1} was rolled for {r.purpose!r}, the case gives it for "
                                f"{purposes[i]!r}")
    if len(rolled) < len(dice) and not stopped:
        out.failures.append(f"{where}: the case gives {len(dice)} dice, {len(rolled)} were rolled "
                            f"({'; '.join(r.purpose for r in rolled)})")


def _check_turn(out, where, expect, events, decider, state, sc) -> None:
    texts = [e.text for e in events if e.kind != "roll"]
    for text in expect.get("lines", []):
        if not any(text in line for line in texts):
            out.failures.append(f"{where}: no line contains {text!r}")
    for text in expect.get("absent", []):
        hit = [line for line in texts if text in line]
        if hit:
            out.failures.append(f"{where}: a line contains {text!r}: {hit[0]!r}")
    for seat, texts in expect.get("seen", {}).items():
        read = read_by(events, seat)
        for text in texts:
            if not any(text in line for line in read):
                out.failures.append(f"{where}: {seat} reads no line containing {text!r}")
    for seat, texts in expect.get("unseen", {}).items():
        for text in texts:
            hit = [line for line in read_by(events, seat) if text in line]
            if hit:
                out.failures.append(f"{where}: {seat} reads a line containing {text!r}: {hit[0]!r}")
    for bid, want in expect.get("in_force", {}).items():
        name = state.brigades[bid].name
        said = [e.text for e in events if e.kind == "order" and e.text.startswith(f"{name}: ")]
        if not said or want not in said[0]:
            out.failures.append(f"{where}: {bid}'s order line is {said[0] if said else 'missing'!r}, expected it "
                                f"to contain {want!r}")
    if "decisions" in expect:
        have = [[r.decision.kind, r.decision.side, list(r.answer)] for r in decider.records]
        want = [list(w) for w in expect["decisions"]]
        if have != want:
            out.failures.append(f"{where}: decisions {have}, expected {want}")
