"""Adjudication cases for Triomphe à Marengo: a position, orders, answers and
the expected result.

The frame is the Marengo family's (pbem.games.simmons.cases). The format is docs/cases.md's, with what Triomphe adds (docs/triomphe-orders.md,
"Cases"): a top-level ``game = "triomphe"``; ``[discs]`` (uncommitted and committed
discs, the time track); ``[[waiting]]`` cells and blocks in them
(``cell = "id"``); ``disorganised = true`` on a block; ``[turn]`` (orders
already ``spent``, blocks that ``acted``, ``start = false`` to skip the start
of the turn, road ``[[turn.crossing]]`` steps taken, the ``pontoon`` used,
``maneuvers`` per defence approach, ``closed`` approaches, ``no_road_into``
locales); ``[last_entered]``; ``[[then]]`` turns played after it; and the
expectations ``uncommitted``, ``committed``, ``lost``, ``spent``, a block's
``disorganised``, ``warnings``, ``events_in_order`` and ``winner = "none"``.
"""

from __future__ import annotations

import re
from pathlib import Path

from pbem.core.decisions import Decider
from pbem.core.orders import OrdersError
from pbem.games.simmons.board import Board, MapError, board_from_dict
from pbem.games.simmons.cases import CaseError, Outcome, load_case, place, where
from pbem.games.simmons.cases import check as shared_check
from pbem.games.simmons.clock import parse_hour

from .parse import parse_orders
from .scenario import SIDES, BlockSpec, Cell, Scenario, load_map, terrain_from_dict
from .sequence import resolve_day
from .state import Block, State


def case_map(data: dict, path: Path):
    meta = data.get("case", {})
    if "locale" in data:
        board = board_from_dict(data, f"{path} (inline map)")
        problems: list[str] = []
        terrain = terrain_from_dict(data, board, problems)
        if problems:
            raise MapError(problems, str(path))
        return board, terrain
    if "map" not in meta:
        raise CaseError(f"{path}: give an inline map ([[locale]] and [[border]] tables) or case.map = FILE")
    return load_map(path.parent / meta["map"])


def case_position(data: dict, board: Board, terrain, path: Path) -> tuple[Scenario, State]:
    meta = data.get("case", {})
    cells = {}
    for spec in data.get("waiting", []):
        cells[spec["id"]] = Cell(spec["id"], spec["side"], parse_hour(spec.get("hour", "6AM")),
                                 tuple(spec.get("entries", ())), int(spec.get("count", 0)))
    specs, blocks = [], {}
    for i, spec in enumerate(data.get("block", []), 1):
        try:
            bid, side, btype = spec["id"], spec["side"], spec["type"]
        except KeyError as exc:
            raise CaseError(f"{path}: block #{i} needs {exc.args[0]}") from None
        if side not in SIDES:
            raise CaseError(f"{path}: block {bid}: side must be one of {', '.join(SIDES)}")
        strength = int(spec.get("strength", 1))
        specs.append(BlockSpec(bid, side, spec.get("name", bid), btype, strength))
        b = Block(bid, side, spec.get("name", bid), btype, strength, disorganised=bool(spec.get("disorganised")))
        if "at" in spec:
            try:
                b.locale, b.facing = place(board, spec["at"])
            except ValueError as exc:
                raise CaseError(f"{path}: block {bid}: {exc}") from None
        elif "cell" in spec:
            cell = cells.get(spec["cell"])
            if cell is None:
                raise CaseError(f"{path}: block {bid}: unknown waiting cell {spec['cell']!r}")
            b.status, b.cell, b.entries = "waiting", cell.id, cell.entries
            b.arrives = max(cell.hour, parse_hour(spec["arrives"]) if "arrives" in spec else 0)
        else:
            b.status = spec.get("status", "eliminated")
        if "bombard" in spec:
            b.bombard = board.find_locale(spec["bombard"])
        b.bombard_days = tuple(spec.get("bombard_days", ()))
        blocks[bid] = b
    discs = data.get("discs", {})
    track = {s: {parse_hour(h): int(n) for h, n in discs.get("track", {}).get(s, {}).items()} for s in SIDES}
    unc = {s: int(discs.get("uncommitted", {}).get(s, 5)) for s in SIDES}
    committed = {s: {board.find_locale(k): int(v) for k, v in discs.get("committed", {}).get(s, {}).items()}
                 for s in SIDES}
    scenario = Scenario(
        name=meta.get("title", str(path)), board=board, blocks=tuple(specs), cells=cells, terrain=terrain,
        discs_start=unc, track=track, rounds=int(meta.get("rounds", 16)),
        first_hour=parse_hour(meta.get("first_hour", "6AM")),
        retreat_toward={k: board.find_locale(v) for k, v in data.get("retreat_toward", {}).items()} or None,
        path=str(path),
    )
    side = meta.get("side", "austria")
    if side not in SIDES:
        raise CaseError(f"{path}: case.side must be one of {', '.join(SIDES)}")
    hour = parse_hour(meta.get("turn", "6AM"))
    day = (hour - scenario.first_hour) * len(SIDES) + SIDES.index(side)
    state = State(day=day, blocks=blocks)
    state.uncommitted = dict(unc)
    state.committed = committed
    state.lost = {s: 0 for s in SIDES}
    state.received = {s: unc[s] + sum(committed[s].values()) for s in SIDES}
    state.moved = {s: {"day": -1, "locales": {}} for s in SIDES}
    for s, spec in discs.get("moved", {}).items():
        state.moved[s] = {"day": day - 1, "locales": {board.find_locale(k): int(v) for k, v in spec.items()}}
    state.demoralised = {s: False for s in SIDES}
    state.standing = {s: [] for s in SIDES}
    state.last_entered = {board.find_locale(k): v for k, v in data.get("last_entered", {}).items()}
    return scenario, state


def run_case(path: str | Path) -> Outcome:
    path = Path(path)
    data = load_case(path)
    meta = data.get("case", {})
    outcome = Outcome(str(path), meta.get("title", path.stem))
    try:
        board, terrain = case_map(data, path)
        scenario, state = case_position(data, board, terrain, path)
    except (MapError, ValueError, KeyError) as exc:
        raise CaseError(f"{path}: {exc}") from None
    outcome.scenario = scenario
    side = scenario.side_of_day(state.day)
    other = SIDES[1 - SIDES.index(side)]
    expect = data.get("expect", {})
    try:
        context = turn_context(data.get("turn", {}), board)
    except (KeyError, ValueError) as exc:
        raise CaseError(f"{path}: [turn]: {exc}") from None
    texts = data.get("orders", {})
    try:
        orders = {s: parse_orders(scenario, state, s, texts[s], context=context)
                  for s in (side, other) if texts.get(s)}
    except OrdersError as exc:
        outcome.refused = str(exc)
        if not (expect.get("orders_error") and re.search(expect["orders_error"], str(exc))):
            outcome.failures.append(f"orders were refused: {exc}")
            return outcome
        try:  # refused by the turn's check: were they played anyway, the engine must not carry them out either
            orders = {s: parse_orders(scenario, state, s, texts[s], checks=False)
                      for s in (side, other) if texts.get(s)}
        except OrdersError:
            return outcome
        if set(expect) <= {"orders_error"}:
            return outcome
    else:
        if expect.get("orders_error"):
            outcome.failures.append("the orders were expected to be refused, but were accepted")
        warned = orders[side].warnings if side in orders else []
        for pattern in expect.get("warnings", []):
            if not any(re.search(pattern, w) for w in warned):
                outcome.failures.append(f"no warning of the check matches {pattern!r} (warnings: {warned})")
        if "warnings" in expect and not expect["warnings"] and warned:
            outcome.failures.append(f"the check warned, and should not: {warned}")
    answers = {int(k): tuple(v) for k, v in data.get("answers", {}).items()}
    decider = Decider(answers=answers)
    after, events = resolve_day(scenario, state, orders, decider, context)
    records = list(decider.records)
    for i, step in enumerate(data.get("then", []), 1):  # the turns after it, one a [[then]] table
        if after.over:
            outcome.failures.append(f"[[then]] #{i}: the game is over before it")
            break
        side = scenario.side_of_day(after.day)
        texts = step.get("orders", {})
        try:
            orders = {s: parse_orders(scenario, after, s, texts[s]) for s in SIDES if texts.get(s)}
        except OrdersError as exc:
            outcome.failures.append(f"[[then]] #{i} ({side}): orders were refused: {exc}")
            break
        decider = Decider(answers={int(k): tuple(v) for k, v in step.get("answers", {}).items()})
        after, more = resolve_day(scenario, after, orders, decider, {})
        events, records = events + more, records + list(decider.records)
    outcome.state, outcome.events, outcome.decisions = after, events, records
    check(outcome, expect, board)
    return outcome


def turn_context(spec: dict, board: Board) -> dict:
    """What the turn has already used before the case's orders (docs/cases.md, Triomphe's [turn])."""
    crossings = []
    for c in spec.get("crossing", []):
        steps = [int(n) for n in c.get("steps", [])]
        if "entry" in c:
            if c["entry"] not in board.entries:
                raise ValueError(f"unknown entry point {c['entry']!r}")
            crossings.append((("entry", c["entry"]), steps, ("", board.entries[c["entry"]].locale)))
            continue
        frm, to = board.find_locale(c["from"]), board.find_locale(c["to"])
        if c["road"] not in board.roads:
            raise ValueError(f"unknown road {c['road']!r}")
        crossings.append((("border", frozenset((frm, to)), c["road"]), steps, (frm, to)))
    return {"spent": int(spec.get("spent", 0)), "acted": list(spec.get("acted", [])),
            "start": bool(spec.get("start", True)), "crossings": crossings, "pontoon": bool(spec.get("pontoon")),
            "maneuvers": {place(board, k): int(v) for k, v in spec.get("maneuvers", {}).items()},
            "closed": [place(board, k) for k in spec.get("closed", [])],
            "no_road_into": [board.find_locale(k) for k in spec.get("no_road_into", [])]}


def check(outcome: Outcome, expect: dict, board: Board) -> None:
    """The shared expectations (pbem.games.simmons.cases.check), with Triomphe's own: a block's
    disorganisation, morale, the discs (uncommitted, committed, lost, always conserved)
    and the orders spent."""
    def disorganised(spec, b, fail):
        if "disorganised" in spec and b.disorganised != spec["disorganised"]:
            fail.append(f"{b.id}: expected disorganised = {spec['disorganised']}")

    st, fail = outcome.state, outcome.failures
    if expect.get("winner") == "none":  # no winner yet: the game goes on
        if st.winner is not None or st.over:
            fail.append(f"expected no winner yet, the game is over (winner {st.winner})")
        expect = {k: v for k, v in expect.items() if k != "winner"}
    shared_check(outcome, expect, board, disorganised)
    for s, value in expect.get("morale", {}).items():
        if st.morale(s) != value:
            fail.append(f"morale of {s}: expected {value}, is {st.morale(s)}")
    for s, value in expect.get("uncommitted", {}).items():
        if st.uncommitted[s] != value:
            fail.append(f"uncommitted discs of {s}: expected {value}, are {st.uncommitted[s]}")
    for s, value in expect.get("lost", {}).items():
        if st.lost[s] != value:
            fail.append(f"discs lost by {s}: expected {value}, are {st.lost[s]}")
    for s, table in expect.get("committed", {}).items():
        want = {board.find_locale(k): v for k, v in table.items() if v}
        if st.committed[s] != want:
            fail.append(f"committed discs of {s}: expected {want}, are {st.committed[s]}")
    if "spent" in expect and st.spent != expect["spent"]:
        fail.append(f"orders spent: expected {expect['spent']}, spent {st.spent}")
    for s in SIDES:  # always: discs are conserved
        total = st.uncommitted[s] + sum(st.committed[s].values()) + st.lost[s]
        if total != st.received[s]:
            fail.append(f"discs of {s} not conserved: {total} != received {st.received[s]}")


def show(outcome: Outcome) -> str:
    st = outcome.state
    if st is None:
        return f"# {outcome.title}\n\n(not resolved)\n{outcome.refused}"
    board = outcome.scenario.board
    lines = [f"# {outcome.title}", ""]
    for s in SIDES:
        lines.append(f"{s}: morale {st.morale(s)} (uncommitted {st.uncommitted[s]}, committed "
                     f"{st.committed[s]}, lost {st.lost[s]})" + (" demoralised" if st.demoralised[s] else ""))
    lines.append(f"orders spent: {st.spent}")
    for b in sorted(st.blocks.values(), key=lambda b: b.id):
        flag = " disorganised" if b.disorganised else ""
        lines.append(f"{b.id:6} {b.side:8} {b.type:9} {b.strength}  {where(board, b)}{flag}")
    lines += ["", "events:"] + [f"  - {e.text}" for e in outcome.events] + ["decisions:"]
    lines += [f"  {r.index}: {r.decision.side} {r.decision.kind} -> {' '.join(r.answer) or 'none'} ({r.source})"
              for r in outcome.decisions]
    if st.winner:
        lines.append(f"winner: {st.winner}")
    return "\n".join(lines)


def main(argv=None) -> int:
    """``python -m pbem.games.triomphe.cases [--show] FILE...``"""
    import sys
    args = list(sys.argv[1:] if argv is None else argv)
    show_all = "--show" in args
    args = [a for a in args if a != "--show"]
    bad = 0
    for path in args:
        outcome = run_case(path)
        if show_all or not outcome.ok:
            print(show(outcome))
        if not outcome.ok:
            bad += 1
            print("FAILED:", path, *outcome.failures, sep="\n  ")
    print(f"{len(args) - bad} of {len(args)} cases hold")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
