"""§5 Movement: group moves, command (joint attacks), reach, road limits, rivers,
forced march and night turns."""

from __future__ import annotations

from collections import Counter, defaultdict

from pbem.core.events import Event
from pbem.core.orders import Problem

from .blocks import ARMY_NAME, ARMY_SIDE, LEADERS, reach
from .scenario import ARMY_SEAT, SEAT_ARMY


def enemy_side(side: str) -> str:
    return "allies" if side == "france" else "france"


def turn_spec(scenario, state):
    return scenario.track[state.turn - 2] if state.turn >= 2 and state.turn - 2 < len(scenario.track) else None


def enemy_towns(state, side: str) -> set[str]:
    return {b.town for b in state.blocks.values() if b.town and ARMY_SIDE[b.army] != side}


def road_limit(scenario, road, attacking: bool) -> int:
    """§5.4 8 blocks a turn on a major road, 6 on a minor; §5.5 half when attacking across a river."""
    full = scenario.road[road.kind]
    return full // 2 if attacking and road.river else full


def check_moves(scenario, state, seat: str, moves) -> list[Problem]:
    """Every rule of §5 one seat's moves break, as problems naming the order's line."""
    army = SEAT_ARMY[seat]
    side = ARMY_SIDE[army]
    board = scenario.board
    spec_turn = turn_spec(scenario, state)
    mine = spec_turn is not None and (spec_turn.side == "F") == (army == "french")
    problems = []

    def bad(move, message, expected=""):
        shown = type(move)(move.blocks, [board.name(t) for t in move.path], move.forced)
        problems.append(Problem(move.line, 1, message, shown.text, expected))

    if moves and not mine:
        bad(moves[0], "it is not your turn to move", "standing orders only (DOCTRINE, RETREAT, SUPPLY)")
        return problems
    enemies = enemy_towns(state, side)
    seen: set[str] = set()
    starts = []
    for move in moves:
        start = move.path[0]
        for bid in move.blocks:
            if bid in seen:
                bad(move, f"{bid} is given two moves", "each block in one MOVE")
            seen.add(bid)
            if state.blocks[bid].town != start:
                bad(move, f"{bid} is not in {board.name(start)} (it is in {board.name(state.blocks[bid].town)})",
                    "the town the block stands in")
        if start not in starts:
            starts.append(start)
        for a, b in zip(move.path, move.path[1:]):
            if board.road(a, b) is None:
                bad(move, f"no road from {board.name(a)} to {board.name(b)}", "towns adjacent by road (§5.1)")
        for town in move.path[1:-1]:
            if town in enemies:
                bad(move, f"{board.name(town)} holds enemy blocks: a move stops there (§5)",
                    "a path through friendly or empty towns")
        if move.path[-1] == start and len(move.path) > 1:
            bad(move, "the move ends where it began", "a move to another town")
        if len(set(move.path)) != len(move.path):
            bad(move, "the path passes a town twice", "a path without loops")
        legs = len(move.path) - 1
        for bid in move.blocks:
            most = reach(scenario.blocks[bid].type, move.forced)
            if legs > most:
                bad(move, f"{bid} ({scenario.blocks[bid].type.replace('_', ' ')}) may move {most} town(s)"
                    + (" by forced march" if move.forced else "") + f", not {legs} (§5.3, §5.6)",
                    f"at most {most} towns")
        if spec_turn is not None and spec_turn.night:
            if move.forced:
                bad(move, "no forced march at night (§5.7)", "a move without FORCED")
            if move.path[-1] in enemies:
                bad(move, "no attacks at night (§5.7)", "a move into a town without enemy blocks")
    if len(starts) > scenario.groups[army]:
        extra = next(m for m in moves if m.path[0] == starts[scenario.groups[army]])
        bad(extra, f"{len(starts)} groups move (from {', '.join(board.name(s) for s in starts)}); your army "
            f"has {scenario.groups[army]} group move(s) a turn (§5.1)",
            f"moves from at most {scenario.groups[army]} town(s)")
    for problem in road_problems(scenario, moves, enemies):
        problems.append(problem)
    for target, froms in attacks(moves, enemies).items():
        why = joint_problem(scenario, target, froms)
        if why:
            bad(next(m for m in moves if m.path[-1] == target), why,
                "one group, or groups that start next to the enemy and are joined by a road (§5.2)")
    return problems


def road_problems(scenario, moves, enemies) -> list[Problem]:
    used: Counter = Counter()
    attacking: Counter = Counter()
    problems = []
    for move in moves:
        for i, (a, b) in enumerate(zip(move.path, move.path[1:])):
            road = scenario.board.road(a, b)
            if road is None:
                continue
            key = frozenset((a, b))
            used[key] += len(move.blocks)
            last = i == len(move.path) - 2 and b in enemies
            if last:
                attacking[key] += len(move.blocks)
            if used[key] > road_limit(scenario, road, False):
                shown = type(move)(move.blocks, [scenario.board.name(t) for t in move.path], move.forced).text
                problems.append(Problem(move.line, 1, f"{used[key]} blocks on the {road.kind} road "
                                        f"{scenario.board.name(a)} - {scenario.board.name(b)}; at most "
                                        f"{road_limit(scenario, road, False)} a turn (§5.4)", shown,
                                        "fewer blocks on this road"))
            elif last and attacking[key] > road_limit(scenario, road, True):
                shown = type(move)(move.blocks, [scenario.board.name(t) for t in move.path], move.forced).text
                problems.append(Problem(move.line, 1, f"{attacking[key]} blocks attack across the river on "
                                        f"{scenario.board.name(a)} - {scenario.board.name(b)}; at most "
                                        f"{road_limit(scenario, road, True)} (§5.5)", shown,
                                        "fewer blocks attacking over the river"))
    return problems


def attacks(moves, enemies) -> dict[str, list[str]]:
    """Enemy town -> the towns the groups attacking it start from."""
    out: dict[str, list[str]] = defaultdict(list)
    for move in moves:
        if move.path[-1] in enemies and move.path[0] not in out[move.path[-1]]:
            out[move.path[-1]].append(move.path[0])
    return out


def joint_problem(scenario, target: str, froms: list[str]) -> str | None:
    """§5.2: two groups attack one town together only if both start next to it and are joined by a road."""
    if len(froms) < 2:
        return None
    board = scenario.board
    for f in froms:
        if board.road(f, target) is None:
            return (f"the groups from {', '.join(board.name(x) for x in froms)} may not attack "
                    f"{board.name(target)} together: {board.name(f)} is not next to it (§5.2)")
    for i, a in enumerate(froms):
        for b in froms[i + 1:]:
            if board.road(a, b) is None:
                return (f"the groups from {board.name(a)} and {board.name(b)} may not attack {board.name(target)} "
                        f"together: no road joins them (§5.2)")
    return None


def carry_out(scenario, state, moving: list, chance, events: list) -> dict[str, set[str]]:
    """Move the blocks of ``moving`` ([(seat, Orders)], in order), then roll the forced marches.

    Returns the towns where battle is joined -> the towns the attackers came from.
    Across the two Allied seats the limits of the side (road limits, joint attacks)
    are kept here: the later seat's blocks stop where a limit would be broken.
    """
    board = scenario.board
    if not moving:
        return {}
    side = ARMY_SIDE[SEAT_ARMY[moving[0][0]]]
    enemies = enemy_towns(state, side)
    used: Counter = Counter()
    attacking: Counter = Counter()
    entries: dict[str, set[str]] = defaultdict(set)
    joint: dict[str, list[str]] = defaultdict(list)
    forced: list[str] = []
    moved = Counter()
    for seat, orders in moving:
        for move in orders.moves:
            target = move.path[-1]
            if target in enemies and move.path[0] not in joint[target]:
                why = joint_problem(scenario, target, joint[target] + [move.path[0]])
                if why:
                    events.append(Event("move", f"Not carried out: {named(board, move)} ({why})", owner=seat))
                    continue
                joint[target].append(move.path[0])
            for bid in move.blocks:
                block = state.blocks[bid]
                if block.town != move.path[0] or block.eliminated:
                    continue
                at = move.path[0]
                for i, nxt in enumerate(move.path[1:]):
                    road = board.road(at, nxt)
                    key = frozenset((at, nxt))
                    last = nxt in enemies
                    if used[key] + 1 > road_limit(scenario, road, False) or (
                            last and attacking[key] + 1 > road_limit(scenario, road, True)):
                        events.append(Event("move", f"{bid} stops at {board.name(at)}: the road to "
                                            f"{board.name(nxt)} is full (§5.4)", owner=seat))
                        break
                    used[key] += 1
                    if last:
                        attacking[key] += 1
                        entries[nxt].add(at)
                    moved[(block.army, at, nxt)] += 1
                    at = nxt
                    if last:
                        break
                block.town = at
                if move.forced and at != move.path[0]:
                    forced.append(bid)
            events.append(Event("move", named(board, move), {"seat": seat}, owner=seat,
                                seen=f"{len(move.blocks)} {side_word(side)} block(s) move from "
                                f"{board.name(move.path[0])}"))
    state.last_moves = [[army, a, b, n] for (army, a, b), n in sorted(moved.items())]
    for bid in forced:
        forced_march(scenario, state, bid, chance, events)
    return {town: entries[town] for town in entries if state.side_at(town, enemy_side(side))
            and state.side_at(town, side)}


def named(board, move) -> str:
    """The move's text with town names."""
    return type(move)(move.blocks, [board.name(t) for t in move.path], move.forced).text


def side_word(side: str) -> str:
    return "French" if side == "france" else "Allied"


def forced_march(scenario, state, bid: str, chance, events: list) -> None:
    """§5.6: a d6 for each block that forced-marched; 1-3 loses a step (1-2 with its leader
    in the same town, §9.1, the leader itself too)."""
    block = state.blocks[bid]
    if block.town is None:
        return
    seat = ARMY_SEAT[block.army]
    leader = state.blocks.get(LEADERS[block.army])
    helped = leader is not None and leader.town == block.town
    roll = chance.roll(f"forced march, block {bid}", seen_by=(seat,))
    fails = roll <= (2 if helped else 3)
    note = " (leader +1)" if helped else ""
    if fails:
        block.strength -= 1
        if block.strength <= 0:
            eliminate(state, bid, None)
            events.append(Event("eliminated", f"{bid} is eliminated: straggling on the forced march (§5.6)",
                                {"block": bid, "army": block.army}, owner=seat,
                                seen=f"A {ARMY_NAME[block.army]} block is lost to straggling"))
    events.append(Event("forced", f"Forced march of {bid}: die {roll}{note}: "
                        + ("loses a step" if fails else "arrives in good order"), owner=seat))


def lose_step(scenario, state, bid: str, events: list, why: str, steps: int = 1) -> None:
    block = state.blocks[bid]
    block.strength -= steps
    if block.strength <= 0:
        eliminate(state, bid, events, why)


def eliminate(state, bid: str, events: list | None = None, why: str = "", count: bool = True) -> None:
    block = state.blocks[bid]
    if block.eliminated:
        return
    block.strength = 0
    block.town = None
    block.eliminated = True
    if count:
        state.lost[block.army] += 1
    if events is not None:
        events.append(Event("eliminated", f"{bid} is eliminated: {why}", {"block": bid, "army": block.army}))
