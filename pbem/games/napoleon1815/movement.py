"""§5 Movement: group moves, command (joint attacks), reach, road limits, rivers,
forced march and night turns."""

from __future__ import annotations

from collections import Counter, defaultdict

from pbem.core.events import Event
from pbem.core.orders import Problem
from pbem.lang import say, say_plural

from .blocks import ARMY_SIDE, LEADERS, reach
from .scenario import ARMY_SEAT, SEAT_ARMY
from .words import LOST_TO_STRAGGLING, TYPE_SAID, Join, Place, SaidProblem


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
        problems.append(SaidProblem.of(move.line, 1, message, shown.text, expected))

    def name(town):
        return Place(board.name(town))

    if moves and not mine:
        bad(moves[0], say("it is not your turn to move"), say("standing orders only (DOCTRINE, RETREAT, SUPPLY)"))
        return problems
    enemies = enemy_towns(state, side)
    seen: set[str] = set()
    starts = []
    for move in moves:
        start = move.path[0]
        for bid in move.blocks:
            if bid in seen:
                bad(move, say("%(block)s is given two moves", block=bid), say("each block in one MOVE"))
            seen.add(bid)
            if state.blocks[bid].town != start:
                bad(move, say("%(block)s is not in %(town)s (it is in %(there)s)", block=bid, town=name(start),
                              there=name(state.blocks[bid].town)), say("the town the block stands in"))
        if start not in starts:
            starts.append(start)
        for a, b in zip(move.path, move.path[1:]):
            if board.road(a, b) is None:
                bad(move, say("no road from %(a)s to %(b)s", a=name(a), b=name(b)),
                    say("towns adjacent by road (§5.1)"))
        for town in move.path[1:-1]:
            if town in enemies:
                bad(move, say("%(town)s holds enemy blocks: a move stops there (§5)", town=name(town)),
                    say("a path through friendly or empty towns"))
        if move.path[-1] == start and len(move.path) > 1:
            bad(move, say("the move ends where it began"), say("a move to another town"))
        if len(set(move.path)) != len(move.path):
            bad(move, say("the path passes a town twice"), say("a path without loops"))
        legs = len(move.path) - 1
        for bid in move.blocks:
            most = reach(scenario.blocks[bid].type, move.forced)
            if legs > most:
                kind = TYPE_SAID[scenario.blocks[bid].type]
                bad(move, say("%(block)s (%(type)s) may move %(most)s town(s) by forced march, not %(legs)s "
                              "(§5.3, §5.6)", block=bid, type=kind, most=most, legs=legs) if move.forced else
                    say("%(block)s (%(type)s) may move %(most)s town(s), not %(legs)s (§5.3, §5.6)", block=bid,
                        type=kind, most=most, legs=legs), say("at most %(most)s towns", most=most))
        if spec_turn is not None and spec_turn.night:
            if move.forced:
                bad(move, say("no forced march at night (§5.7)"), say("a move without FORCED"))
            if move.path[-1] in enemies:
                bad(move, say("no attacks at night (§5.7)"), say("a move into a town without enemy blocks"))
    if len(starts) > scenario.groups[army]:
        extra = next(m for m in moves if m.path[0] == starts[scenario.groups[army]])
        bad(extra, say("%(n)s groups move (from %(towns)s); your army has %(most)s group move(s) a turn (§5.1)",
                       n=len(starts), towns=Join(name(s) for s in starts), most=scenario.groups[army]),
            say("moves from at most %(most)s town(s)", most=scenario.groups[army]))
    for problem in road_problems(scenario, moves, enemies):
        problems.append(problem)
    for target, froms in attacks(moves, enemies).items():
        why = joint_problem(scenario, target, froms)
        if why:
            bad(next(m for m in moves if m.path[-1] == target), why,
                say("one group, or groups that start next to the enemy and are joined by a road (§5.2)"))
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
                values = dict(a=Place(scenario.board.name(a)), b=Place(scenario.board.name(b)),
                              most=road_limit(scenario, road, False))
                message = (say_plural("%(num)s block on the major road %(a)s - %(b)s; at most %(most)s a turn (§5.4)",
                                      "%(num)s blocks on the major road %(a)s - %(b)s; at most %(most)s a turn (§5.4)",
                                      used[key], **values) if road.kind == "major" else
                           say_plural("%(num)s block on the minor road %(a)s - %(b)s; at most %(most)s a turn (§5.4)",
                                      "%(num)s blocks on the minor road %(a)s - %(b)s; at most %(most)s a turn (§5.4)",
                                      used[key], **values))
                problems.append(SaidProblem.of(move.line, 1, message, shown, say("fewer blocks on this road")))
            elif last and attacking[key] > road_limit(scenario, road, True):
                shown = type(move)(move.blocks, [scenario.board.name(t) for t in move.path], move.forced).text
                problems.append(SaidProblem.of(move.line, 1, say_plural(
                    "%(num)s block attacks across the river on %(a)s - %(b)s; at most %(most)s (§5.5)",
                    "%(num)s blocks attack across the river on %(a)s - %(b)s; at most %(most)s (§5.5)",
                    attacking[key], a=Place(scenario.board.name(a)), b=Place(scenario.board.name(b)),
                    most=road_limit(scenario, road, True)), shown, say("fewer blocks attacking over the river")))
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
            return say("the groups from %(towns)s may not attack %(target)s together: %(town)s is not next "
                       "to it (§5.2)", towns=Join(Place(board.name(x)) for x in froms),
                       target=Place(board.name(target)), town=Place(board.name(f)))
    for i, a in enumerate(froms):
        for b in froms[i + 1:]:
            if board.road(a, b) is None:
                return say("the groups from %(a)s and %(b)s may not attack %(target)s together: no road joins "
                           "them (§5.2)", a=Place(board.name(a)), b=Place(board.name(b)),
                           target=Place(board.name(target)))
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
                    events.append(Event("move", said=say("Not carried out: %(move)s (%(why)s)",
                                                         move=named(board, move), why=why), owner=seat))
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
                        events.append(Event("move", said=say("%(block)s stops at %(town)s: the road to %(next)s "
                                                             "is full (§5.4)", block=bid, town=Place(board.name(at)),
                                                             next=Place(board.name(nxt))), owner=seat))
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
            events.append(Event("move", "", {"seat": seat}, owner=seat,
                                said=named(board, move),
                                seen_said=moving_seen(side, len(move.blocks), Place(board.name(move.path[0])))))
    state.last_moves = [[army, a, b, n] for (army, a, b), n in sorted(moved.items())]
    showing = {seat: orders.doctrine_of("SHOW") == "YES" for seat, orders in moving}
    shown: set[str] = set()
    for bid in forced:
        forced_march(scenario, state, bid, chance, events, showing, shown)
    return {town: entries[town] for town in entries if state.side_at(town, enemy_side(side))
            and state.side_at(town, side)}


def named(board, move):
    """The move's text with town names (each town in the reader's spelling; the words stay the
    order's own, as the player wrote them in the log)."""
    parts = [say("MOVE %(blocks)s %(path)s", blocks=" ".join(move.blocks),
                 path=Join((Place(board.name(t)) for t in move.path), " -> "))]
    return Join(parts + ([say("FORCED")] if move.forced else []), " ")


def moving_seen(side: str, n: int, town: Place):
    """What the other seats see of a move: how many blocks of which side leave which town."""
    if side == "france":
        return say_plural("%(num)s French block moves from %(town)s", "%(num)s French blocks move from %(town)s",
                          n, town=town)
    return say_plural("%(num)s Allied block moves from %(town)s", "%(num)s Allied blocks move from %(town)s",
                      n, town=town)


def forced_march(scenario, state, bid: str, chance, events: list, showing: dict | None = None,
                 shown: set | None = None) -> None:
    """§5.6: a d6 for each block that forced-marched; 1-3 loses a step (1-2 with its leader
    in the same town, §9.1, the leader itself too). The +1 is had by showing the leader to the
    enemy before the roll («покажите оппоненту лидера перед броском»): the seat's DOCTRINE SHOW
    (default YES) shows him, once a turn, and every seat reads where he is; with SHOW NO he
    stays hidden and gives nothing."""
    block = state.blocks[bid]
    if block.town is None:
        return
    seat = ARMY_SEAT[block.army]
    leader = state.blocks.get(LEADERS[block.army])
    helped = leader is not None and leader.town == block.town and (showing or {}).get(seat, True)
    if helped and shown is not None and leader.id not in shown:
        shown.add(leader.id)
        events.append(Event("forced", "", {"leader": leader.id, "town": leader.town},
                            said=say("%(leader)s is shown in %(town)s before the forced-march rolls (§5.6, §9.1)",
                                     leader=leader.id, town=Place(scenario.board.name(leader.town)))))
    roll = chance.roll(f"forced march, block {bid}", seen_by=(seat,))
    fails = roll <= (2 if helped else 3)
    if fails:
        block.strength -= 1
        if block.strength <= 0:
            eliminate(state, bid, None)
            events.append(Event("eliminated", "", {"block": bid, "army": block.army}, owner=seat,
                                said=say("%(block)s is eliminated: straggling on the forced march (§5.6)", block=bid),
                                seen_said=LOST_TO_STRAGGLING[block.army]))
    if fails:
        said = (say("Forced march of %(block)s: die %(roll)s (leader +1): loses a step", block=bid, roll=roll)
                if helped else say("Forced march of %(block)s: die %(roll)s: loses a step", block=bid, roll=roll))
    else:
        said = (say("Forced march of %(block)s: die %(roll)s (leader +1): arrives in good order", block=bid, roll=roll)
                if helped else say("Forced march of %(block)s: die %(roll)s: arrives in good order", block=bid, roll=roll))
    events.append(Event("forced", said=said, owner=seat))


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
        events.append(Event("eliminated", "", {"block": bid, "army": block.army},
                            said=say("%(block)s is eliminated: %(why)s", block=bid, why=why)))
