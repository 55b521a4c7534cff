"""Adjudication cases: a position, orders, answers and the expected result.

The format is documented in docs/cases.md. A case is one day of one side:
the position before it, the moving side's orders, the other side's standing
orders, any answers to decisions, and what must hold afterwards. Like the
DATC for Diplomacy, a case file is read by people as much as by the program.
"""

from __future__ import annotations

import re
from pathlib import Path

from pbem.core.decisions import Decider
from pbem.core.orders import OrdersError

from pbem.games.simmons.cases import CaseError, Outcome, load_case, place, where
from pbem.games.simmons.cases import check as shared_check
from pbem.games.simmons.board import Board, MapError, board_from_dict, load_board
from .parse import parse_orders
from .rules import resolve_day
from .scenario import SIDES, BlockSpec, Scenario
from pbem.games.simmons.clock import parse_hour
from .state import Block, State


def case_board(data: dict, path: Path) -> Board:
    meta = data.get("case", {})
    if "locale" in data:
        return board_from_dict(data, f"{path} (inline map)")
    if "map" not in meta:
        raise CaseError(f"{path}: give an inline map ([[locale]] and [[border]] tables) or case.map = FILE")
    return load_board(path.parent / meta["map"])


def case_position(data: dict, board: Board, path: Path) -> tuple[Scenario, State]:
    meta = data.get("case", {})
    specs, blocks = [], {}
    for i, spec in enumerate(data.get("block", []), 1):
        try:
            bid, side, btype = spec["id"], spec["side"], spec["type"]
            strength = int(spec.get("strength", 1))
        except KeyError as exc:
            raise CaseError(f"{path}: block #{i} needs {exc.args[0]}") from None
        if side not in SIDES:
            raise CaseError(f"{path}: block {bid}: side must be one of {', '.join(SIDES)}")
        arrives = parse_hour(str(spec["arrives"])) if "arrives" in spec else None
        specs.append(BlockSpec(bid, side, spec.get("name", bid), btype, strength, arrives=arrives,
                               entries=tuple(spec.get("entries", ()))))
        b = Block(bid, side, spec.get("name", bid), btype, strength, arrives=arrives,
                  entries=tuple(spec.get("entries", ())), activated=spec.get("activated", True))
        if "at" in spec:
            try:
                b.locale, b.facing = place(board, spec["at"])
            except ValueError as exc:
                raise CaseError(f"{path}: block {bid}: {exc}") from None
        else:
            b.status = spec.get("status", "waiting")
        if "bombard" in spec:
            b.bombard = board.find_locale(spec["bombard"])
        b.bombard_days = tuple(spec.get("bombard_days", ()))
        blocks[bid] = b
    morale = data.get("morale", {})
    scenario = Scenario(
        name=meta.get("title", str(path)),
        board=board,
        blocks=tuple(specs),
        morale={s: int(morale.get(s, 10)) for s in SIDES},
        rounds=int(meta.get("rounds", 16)),
        first_hour=parse_hour(str(meta.get("first_hour", "6AM"))),
        retreat_toward={k: board.find_locale(v) for k, v in data.get("retreat_toward", {}).items()} or None,
        path=str(path),
    )
    side = meta.get("side", "austria")
    if side not in SIDES:
        raise CaseError(f"{path}: case.side must be one of {', '.join(SIDES)}")
    hour = parse_hour(str(meta.get("turn", scenario_hour_label(scenario))))
    day = (hour - scenario.first_hour) * len(SIDES) + SIDES.index(side)
    state = State(day=day, blocks=blocks)
    state.morale = dict(scenario.morale)
    state.demoralised = {s: bool(data.get("demoralised", {}).get(s, state.morale[s] == 0)) for s in SIDES}
    state.bonus_due = {s: bool(data.get("bonus_due", {}).get(s, False)) for s in SIDES}
    state.standing = {s: [] for s in SIDES}
    state.french_start = [board.find_locale(x) for x in data.get("french_start", [])]
    return scenario, state


def scenario_hour_label(scenario: Scenario) -> str:
    return f"{scenario.first_hour}"


def run_case(path: str | Path) -> Outcome:
    path = Path(path)
    data = load_case(path)
    meta = data.get("case", {})
    outcome = Outcome(str(path), meta.get("title", path.stem))
    if data.get("game", "marengo") != "marengo":
        raise CaseError(f"{path}: a case of {data['game']!r}, not of Bonaparte at Marengo")
    if data.get("dice"):
        raise CaseError(f"{path}: Bonaparte at Marengo rolls no dice; leave out dice = [...]")
    try:
        board = case_board(data, path)
        scenario, state = case_position(data, board, path)
    except (MapError, ValueError) as exc:
        raise CaseError(f"{path}: {exc}") from None
    outcome.scenario = scenario
    side = scenario.side_of_day(state.day)
    other = SIDES[1 - SIDES.index(side)]
    try:
        texts = data.get("orders", {})
        if not isinstance(texts, dict):
            raise CaseError(f"{path}: write the orders as an [orders] table with one text per side")
        orders = {s: parse_orders(scenario, state, s, texts[s]) for s in (side, other) if texts.get(s)}
    except OrdersError as exc:
        outcome.refused = str(exc)
        expected = data.get("expect", {}).get("orders_error")
        if not (expected and re.search(expected, str(exc))):
            outcome.failures.append(f"orders were refused: {exc}")
            return outcome
        try:  # refused by the day's check: were they played anyway, the engine must not carry them out either
            orders = {s: parse_orders(scenario, state, s, texts[s], checks=False)
                      for s in (side, other) if texts.get(s)}
        except OrdersError:
            return outcome
        if set(data.get("expect", {})) <= {"orders_error"}:
            return outcome
    else:
        if data.get("expect", {}).get("orders_error"):
            outcome.failures.append("the orders were expected to be refused, but were accepted")
    answers = {int(k): tuple(v) for k, v in data.get("answers", {}).items()}
    decider = Decider(answers=answers)
    try:
        context = day_context(data.get("day", {}), board)
    except (KeyError, ValueError) as exc:
        raise CaseError(f"{path}: [day]: {exc}") from None
    after, events = resolve_day(scenario, state, orders, decider, context)
    outcome.state, outcome.events, outcome.decisions = after, events, decider.records
    check(outcome, data.get("expect", {}), board)
    return outcome


def day_context(spec: dict, board: Board) -> dict:
    """What the day has already used before the case's orders (docs/cases.md, [day])."""
    road = []
    for r in spec.get("road", []):
        frm, to = board.find_locale(r["from"]), board.find_locale(r["to"])
        if r["road"] not in board.roads:
            raise ValueError(f"unknown road {r['road']!r}")
        road.append((frm, to, r["road"], [int(m) for m in r.get("moves", [])]))
    return {"commands": int(spec.get("commands", 0)), "moved": list(spec.get("moved", [])),
            "pontoon": bool(spec.get("pontoon", False)), "road": road}


def check(outcome: Outcome, expect: dict, board: Board) -> None:
    """The shared expectations (pbem.games.simmons.cases.check), with Marengo's own: a block's
    activation, and each side's morale."""
    def activated(spec, b, fail):
        if "activated" in spec and b.activated != spec["activated"]:
            fail.append(f"{b.id}: expected activated = {spec['activated']}")

    shared_check(outcome, expect, board, activated)
    for side, value in expect.get("morale", {}).items():
        if outcome.state.morale[side] != value:
            outcome.failures.append(f"morale of {side}: expected {value}, is {outcome.state.morale[side]}")


def show(outcome: Outcome) -> str:
    """The position after the case, as text: blocks, morale, events, decisions."""
    st = outcome.state
    if st is None:
        if outcome.refused:
            return f"# {outcome.title}\n\n(not resolved: the orders were refused)\n{outcome.refused}"
        return "(not resolved)"
    board = outcome.scenario.board
    lines = [f"# {outcome.title}", "", "morale: " + ", ".join(f"{s} {st.morale[s]}" +
                                                               (" (demoralised)" if st.demoralised[s] else "")
                                                               for s in SIDES)]
    for b in sorted(st.blocks.values(), key=lambda b: b.id):
        lines.append(f"{b.id:6} {b.side:8} {b.type:9} {b.strength}  {where(board, b)}")
    lines.append("")
    lines.append("events:")
    lines += [f"  - {e.text}" for e in outcome.events]
    lines.append("decisions:")
    lines += [f"  {r.index}: {r.decision.side} {r.decision.kind} -> {' '.join(r.answer) or 'none'} ({r.source})"
              for r in outcome.decisions]
    if st.winner:
        lines.append(f"winner: {st.winner}")
    return "\n".join(lines)
