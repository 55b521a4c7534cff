"""Marches (000 §7, §8), entry (§15) and the cavalry's continuation (§12).

An off-road march moves up to three blocks together one step: between the
reserve and an approach of their locale, or into the reserve of an adjacent
locale. A road march moves one block up to three crossings along roads, in
three steps, each crossing taking at most one block a step (T12); cavalry on
a road march may make maneuver attacks. An entering reinforcement makes a
road march whose first crossing is the entry point (T13). Costs: one order,
none for a defensive march (T11) or a road march wholly on main roads.
"""

from __future__ import annotations

from pbem.games.simmons.roads import FULL, OTHER_WAY, free_step, main_first, take_step
from pbem.games.simmons.turn import adjective
from pbem.lang import say, say_plural

from . import maneuver
from .orders import Continue, Enter, March, Road
from .state import Block
from .turn import GROUP, Turn, Void, reason


def own_blocks(turn: Turn, ids, place) -> list[Block]:
    """The side's blocks ``ids`` at ``place``, 1 to 3 of them, none of which has acted (§6); else Void."""
    blocks = []
    for bid in ids:
        b = turn.st.blocks.get(bid)
        if b is None or b.side != turn.side or not b.on_map:
            raise Void(say("%(block)s is not one of your blocks on the map", block=bid))
        if place is not None and b.where() != tuple(place):
            raise Void(say("%(block)s is not at %(place)s: it is at %(here)s", block=bid, place=turn.place(*place),
                                here=turn.place(*b.where())))
        blocks.append(b)
    if not 1 <= len(blocks) <= GROUP:
        raise Void(say("an action moves 1 to %(most)d blocks (000 §6)", most=GROUP))
    turn.fresh(blocks)
    return blocks


def march(turn: Turn, order: March) -> None:
    """An off-road march (§7)."""
    st, board = turn.st, turn.board
    blocks = own_blocks(turn, order.blocks, order.frm)
    (a, fa), (b, fb) = order.frm, order.to
    cost = 1
    if fa is None and fb is not None:  # reserve -> an approach of the same locale
        if b != a:
            raise Void(say("from a reserve a block goes to an approach of its own locale or into the next locale"))
        if not st.occupied_by(fb, turn.foe):
            raise Void(say("%(place)s holds no enemy: a block blocks an approach only facing the enemy (000 §7)",
                            place=turn.name(fb)))
        if not turn.may_block(turn.side):
            raise Void(say("French blocks cannot block approaches in the 6 AM round (000 §14)"))
        width = board.approach(a, fb).width
        if len(st.at(a, fb, turn.side)) + len(blocks) <= width:
            cost = 0  # T11: a defensive march
    elif fa is None:  # reserve -> the reserve of an adjacent locale
        _into(turn, blocks, a, b)
    elif fb is None and b == a:  # approach -> own reserve
        pass
    elif fb is None and b == fa:  # approach -> the opposite locale's reserve
        _into(turn, blocks, a, b)
    else:
        raise Void(say("a march goes one step: %(place)s cannot reach %(toward)s", place=turn.place(a, fa),
                    toward=turn.place(b, fb)))
    turn.pay(cost)
    for blk in blocks:
        turn.enter(blk, b, fb)
        turn.acted.add(blk.id)
    turn.record_move(turn.side, order.frm, order.to, len(blocks), "march")
    turn.public("march", say_plural("%(num)d %(side)s block marches from %(place)s to %(to)s%(free)s.",
                                    "%(num)d %(side)s blocks march from %(place)s to %(to)s%(free)s.", len(blocks),
                                    side=adjective(turn.side), place=turn.place(a, fa), to=turn.place(b, fb),
                                    free=say(" (a defensive march, free)") if cost == 0 else ""),
                count=len(blocks))
    turn.private("march", turn.side, say("Marched: %(blocks)s.", blocks=turn.ids(blocks)))
    stopped = b != a and turn.side == "france" and turn.contagion(b)
    if fb is None and not stopped:
        continuation(turn, blocks, b, order.then, road_from=None)


def _into(turn: Turn, blocks: list[Block], a: str, b: str) -> None:
    st, board = turn.st, turn.board
    if not board.is_adjacent(a, b):
        raise Void(say("%(place)s is not next to %(toward)s", place=turn.name(b), toward=turn.name(a)))
    if any(blk.disorganised for blk in blocks):
        raise Void(say("disorganised blocks cannot leave their locale (000 §14)"))
    if st.occupied_by(b, turn.foe):
        raise Void(say("the enemy holds %(place)s: entering it is a maneuver attack (ATTACK), not a march",
                        place=turn.name(b)))
    if (a, b) in turn.closed:
        raise Void(say("an assault from %(approach)s was lost this turn (000 §11)", approach=turn.approach_name(a, b)))
    if turn.closed_to(b, turn.side):
        raise Void(say("%(place)s is where enemy reinforcements enter while they wait (000 §15)", place=turn.name(b)))
    if turn.capacity_left(b, turn.side) < len(blocks):
        raise Void(say_plural("%(place)s has no room for %(num)d more block(s) (capacity %(capacity)d)",
                              "%(place)s has no room for %(num)d more block(s) (capacity %(capacity)d)", len(blocks),
                              place=turn.name(b), capacity=board.locales[b].capacity))


# -- continuation (§12)

def continuation(turn: Turn, blocks: list[Block], where: str, then: tuple[Continue, ...],
                 road_from: str | None) -> None:
    """§12: cavalry ending in a reserve blocks an approach whose opposite the enemy holds.
    A continuation that adds a destination to the action's blocks costs an order (T32)."""
    st, board = turn.st, turn.board
    for c in then:
        movers = [b for b in blocks if b.on_map and b.locale == where and b.facing is None
                  and b.type == "cavalry" and (not c.blocks or b.id in c.blocks)]
        if not movers:
            continue
        why = None
        if not board.is_adjacent(where, c.toward):
            why = say("%(place)s is not next to %(here)s", place=turn.name(c.toward), here=turn.name(where))
        elif not st.occupied_by(c.toward, turn.foe):
            why = say("the enemy does not hold %(place)s (000 §12)", place=turn.name(c.toward))
        elif not turn.may_block(turn.side):
            why = say("French blocks cannot block approaches in the 6 AM round (000 §14)")
        elif road_from is not None and not any(where in r.path for r in board.roads_across(where, c.toward)):
            why = say("no road crosses %(approach)s (000 §12: after a road march, along a road)",
                      approach=turn.approach_name(where, c.toward))
        if why is None:
            before = {b.where() for b in blocks if b.on_map}
            after = {b.where() for b in blocks if b.on_map and b not in movers} | {(where, c.toward)}
            try:
                turn.pay(max(0, len(after) - len(before)))
            except Void as exc:
                why = say("it splits the action's blocks and %(why)s (000 §12)", why=reason(exc))
        if why:
            turn.private("void", turn.side, say("Continuation to %(place)s not carried out — %(why)s.",
                                                place=turn.approach_name(where, c.toward), why=why))
            continue
        for b in movers:
            st.put(b, where, c.toward)
        turn.reveal(movers, "cavalry continuing its move")
        turn.record_move(turn.side, (where, None), (where, c.toward), len(movers), "continue")
        turn.public("march", say_plural("%(num)d cavalry block(s) continue to %(place)s.",
                                        "%(num)d cavalry block(s) continue to %(place)s.", len(movers),
                                        place=turn.approach_name(where, c.toward)))


# -- road marches (§8) and entry (§15)

def crossing_key(a: str, b: str, road: str) -> tuple:
    return ("border", frozenset((a, b)), road)


def road(turn: Turn, order: Road) -> None:
    blocks = own_blocks(turn, [order.block], (order.path[0], None))
    block = blocks[0]
    if block.disorganised and len(order.path) > 1:
        raise Void(say("disorganised blocks cannot leave their locale (000 §14)"))
    legs = _legs(turn, order.path)
    if not legs and order.then:
        free = all(any(r.main for r in turn.board.roads_across(order.path[0], c.toward)) for c in order.then)
        if not free:
            raise Void(say("a cavalry block stays put on a road march only to continue along a main road (000 §12)"))
    _first_step(turn, block, legs, start_step=0)
    local_first = bool(legs) and not legs[0][2].main
    turn.pay(1 if local_first else 0)  # a later local crossing pays when the block takes it (_walk, T61)
    turn.acted.add(block.id)
    _walk(turn, block, order.path[0], legs, 0, order.if_blocked, order.then, paid=local_first)


def _legs(turn: Turn, path) -> list[tuple]:
    """(from, to, road) for each crossing of ``path``: the main road where one crosses."""
    out = []
    for a, b in zip(path, path[1:]):
        roads = main_first(turn.board, a, b)
        if not roads:
            raise Void(say("no road runs from %(place)s to %(toward)s", place=turn.name(a), toward=turn.name(b)))
        out.append((a, b, roads[0]))
    return out


def _step_at(turn: Turn, key: tuple, frm: str, to: str, after: int) -> tuple[int | None, str]:
    """The step at which a block that last moved at step ``after`` crosses ``key`` (None: it cannot):
    the family's road-step model (pbem.games.simmons.roads) with 000 §8's queue (T12), where
    Bonaparte at Marengo lets a block take a lower step still free (003 §8, V9)."""
    step, why = free_step(turn.crossings, key, (frm, to), after, queue=True)
    if why == OTHER_WAY:
        return None, say("the crossing was used in the other direction this turn (000 §8)")
    if why == FULL:
        return None, say("the crossing is full: no step is left to cross it (000 §8)")
    return step, ""


def _first_step(turn: Turn, block: Block, legs, start_step: int) -> None:
    if not legs:
        return
    a, b, r = legs[0]
    step, why = _step_at(turn, crossing_key(a, b, r.id), a, b, start_step)
    if step is None:
        raise Void(say("%(block)s cannot cross from %(place)s to %(toward)s: %(why)s",
                        block=block.id, place=turn.name(a),
                        toward=turn.name(b), why=why))
    problem = _cannot_enter(turn, block, a, b, crossing_key(a, b, r.id))
    if problem:
        raise Void(problem)


def _cannot_enter(turn: Turn, block: Block, a: str, b: str, key: tuple) -> str:
    st = turn.st
    if (a, b) in turn.closed:
        return say("an assault from %(approach)s was lost this turn (000 §11)", approach=turn.approach_name(a, b))
    if b in turn.no_road_into:
        return say("%(place)s was taken by assault this turn: no road march may enter it (000 §11)", place=turn.name(b))
    if turn.closed_to(b, turn.side):
        return say("%(place)s is where enemy reinforcements enter while they wait (000 §15)", place=turn.name(b))
    if st.occupied_by(b, turn.foe):
        if block.type != "cavalry":
            return say("the enemy holds %(place)s; only cavalry attacks on a road march (000 §8)", place=turn.name(b))
        if key in turn.road_attacks:
            return say("this road crossing was already used for a maneuver attack this turn (000 §8)")
        return ""
    if turn.capacity_left(b, turn.side) < 1:
        return say("%(place)s is full (capacity %(capacity)d)", place=turn.name(b),
                   capacity=turn.board.locales[b].capacity)
    return ""


def _walk(turn: Turn, block: Block, start: str, legs, step: int, if_blocked, then, paid: bool) -> None:
    """Carry the block along ``legs`` from the reserve of ``start`` after step ``step``. The march costs
    its order when it first crosses along a local road, unless ``paid`` already (§8: only a march wholly
    along main roads, judged by the road travelled, is free, T61)."""
    st = turn.st
    here = start
    passed = [start]
    stop = ""
    attacked = caught = False
    for a, b, r in legs:
        key = crossing_key(a, b, r.id)
        nxt, why = _step_at(turn, key, a, b, step)
        if nxt is None:
            stop = why
            break
        problem = _cannot_enter(turn, block, a, b, key)
        if problem:
            stop = problem
            break
        if not r.main and not paid:
            try:
                turn.pay(1)
            except Void as exc:
                stop = say("going on along a local road needs an order and %(why)s (000 §8)", why=reason(exc))
                break
            paid = True
        if st.occupied_by(b, turn.foe):
            try:
                maneuver.check(turn, [block], (a, None), b)
            except Void as exc:
                stop = reason(exc)
                break
            turn.road_attacks.add(key)
            attacked = True
        take_step(turn.crossings, key, nxt, (a, b))  # §8: the crossing counts as used, won or not
        step = nxt
        if st.occupied_by(b, turn.foe):
            if not maneuver.attack(turn, [block], (a, None), b, if_blocked, road=True):
                _report(turn, block, passed, say("the maneuver attack was blocked"))
                turn.reveal([block], "cavalry attacking on a road march")  # §8: shown at the end of the march
                return
            here = b
            passed.append(b)
            continue
        turn.enter(block, b)
        here = b
        passed.append(b)
        if block.side == "france" and turn.contagion(b):
            stop, caught = say("it met disorganised French blocks (000 §14)"), True
            break
    _report(turn, block, passed, stop)
    if not caught:
        continuation(turn, [block], here, then, road_from=start)
    if attacked:
        turn.reveal([block], "cavalry attacking on a road march")  # §8: shown at the end of the march


def _report(turn: Turn, block: Block, passed: list[str], stop: str) -> None:
    route = " -> ".join(turn.name(p) for p in passed)
    end = say(" (stopped there: %(why)s)", why=stop) if stop else ""
    turn.private("road", turn.side, say("%(block)s marched by road: %(route)s%(end)s.", block=turn.own(block),
                                        route=route, end=end),
                 seen=say("%(block)s marched by road: %(route)s%(end)s.", block=turn.a_block(), route=route, end=""),
                 path=passed)
    if len(passed) > 1:
        turn.record_move(turn.side, (passed[0], None), (passed[-1], None), 1, "road")


def enter(turn: Turn, order: Enter) -> None:
    """A reinforcement comes onto the map (§15)."""
    st, board = turn.st, turn.board
    block = st.blocks.get(order.block)
    if block is None or block.side != turn.side or block.status != "waiting":
        raise Void(say("%(block)s is not one of your blocks waiting to enter", block=order.block))
    turn.fresh([block])
    if block.arrives is not None and turn.hour < block.arrives:
        raise Void(say("%(block)s may not enter before %(hour)d:00", block=block.id, hour=block.arrives))
    kinds = [e for e in block.entries if board.entries[e].kind == order.by]
    entry = order.entry or (kinds[0] if kinds else None)
    if entry is None or entry not in block.entries:
        raise Void(say("%(block)s has no pontoon entry point", block=block.id) if order.by == "pontoon" else
                   say("%(block)s has no road entry point", block=block.id))
    point = board.entries[entry]
    first = point.locale
    if block.disorganised:
        raise Void(say("disorganised blocks cannot march"))
    if turn.closed_to(first, turn.side):
        raise Void(say("%(place)s is where enemy reinforcements enter while they wait (000 §15)",
                        place=turn.name(first)))
    if st.occupied_by(first, turn.foe):
        raise Void(say("the enemy holds %(place)s, the entry locale", place=turn.name(first)))
    if turn.capacity_left(first, turn.side) < 1:
        raise Void(say("%(place)s is full (capacity %(capacity)d)", place=turn.name(first),
                       capacity=board.locales[first].capacity))
    if order.by == "pontoon":
        if turn.pontoon:
            raise Void(say("one block a turn crosses by the pontoon (000 §15)"))
        turn.pontoon = True
        turn.acted.add(block.id)
        turn.enter(block, first)
        turn.public("enter", say("%(block)s enters by the pontoon into %(place)s.", block=turn.a_block(),
                                 place=turn.name(first)))
        turn.private("enter", turn.side, say("%(block)s entered by the pontoon.", block=turn.own(block)))
        turn.record_move(turn.side, (first, None), (first, None), 1, "enter")
        if turn.side == "france":
            turn.contagion(first)
        continuation(turn, [block], first, order.then, road_from=first)
        return
    key = ("entry", entry)
    step, why = _step_at(turn, key, "", first, 0)
    if step is None:
        raise Void(say("%(block)s waits: %(why)s (000 §15)", block=block.id, why=why))
    legs = _legs(turn, (first,) + tuple(order.path))
    road = board.roads.get(point.road) if point.road else None
    local_entry = not (road is not None and road.main)
    turn.pay(1 if local_entry else 0)  # onward local crossings pay when taken (_walk, T61)
    take_step(turn.crossings, key, step, ("", first))
    turn.acted.add(block.id)
    turn.enter(block, first)
    turn.public("enter", say("%(block)s enters at %(entry)s into %(place)s.", block=turn.a_block(), entry=point.name,
                             place=turn.name(first)))
    if turn.side == "france" and turn.contagion(first):
        _report(turn, block, [first], "it met disorganised French blocks (000 §14)")
        return
    _walk(turn, block, first, legs, step, order.if_blocked, order.then, paid=local_entry)
