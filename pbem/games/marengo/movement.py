"""Movement (003 §8) and attack maneuvers (003 §9).

Each function carries out one order on a :class:`~.day.Day`, raising
:class:`~.day.Void` (before anything has changed) when the order cannot be
carried out as the position now stands.
"""

from __future__ import annotations

from pbem.games.simmons.board import Road
from pbem.games.simmons.roads import FULL, OTHER_WAY, free_step, main_first, take_step
from pbem.games.simmons.turn import adjective
from pbem.lang import say
from .day import COMMAND_LIMIT, Day, Void, reason
from .scenario import SIDE_ADJ
from .orders import Enter, Extend, Move, RoadMove
from .retreat import retreat
from .state import Block

ROAD_STEPS = 3  # 003 §8: "sur trois lieux lors d'un seul tour"


# -- who may move -------------------------------------------------------------

def movers(day: Day, ids, frm: tuple[str, str | None]) -> list[Block]:
    """The blocks of an order, checked against §6 step 6, §8 and §10."""
    blocks = []
    for bid in ids:
        b = day.st.blocks.get(bid)
        if b is None or b.side != day.side:
            raise Void(say("no block of yours called %(block)s", block=bid))
        if not b.on_map:
            raise Void(say("%(block)s is not on the map", block=bid))
        if (b.locale, b.facing) != tuple(frm):
            raise Void(say("%(block)s is at %(place)s, not %(other)s", block=bid, place=day.place(b.locale, b.facing),
                           other=day.place(*frm)))
        if bid in day.moved:
            raise Void(say("%(block)s has already moved or assaulted today (003 §8: a block moves once a day)", block=bid))
        if not b.activated:
            raise Void(say("%(block)s has not been activated (003 §6 step 6)", block=bid))
        if bid in day.fired:
            raise Void(say("%(block)s fired a bombardment today and cannot move (003 §10)", block=bid))
        blocks.append(b)
    if not blocks:
        raise Void(say("no blocks named"))
    return blocks


def crossing_problem(day: Day, frm: str, to: str, group: list[Block]) -> str | None:
    """Why ``group`` may not cross from ``frm`` into ``to`` now (None: it may)."""
    board = day.board
    if not board.is_adjacent(frm, to):
        if frozenset((frm, to)) in board.impassable:
            return say("the approach from %(place)s to %(to)s is impassable", place=day.name(frm), to=day.name(to))
        return say("%(to)s is not adjacent to %(place)s", to=day.name(to), place=day.name(frm))
    if frozenset((frm, to)) in day.closed:
        return say("the approach %(place)s>%(to)s is closed for the rest of the day after a failed assault (003 §11)",
                   place=day.name(frm), to=day.name(to))
    if day.st.at(to, frm, day.foe):
        return say("the approach %(to)s>%(place)s is blocked by the enemy; only an assault can cross it (003 §8)",
                   to=day.name(to), place=day.name(frm))
    if to in day.captured and not {b.id for b in group} <= day.captured[to]:
        return (f"{day.name(to)} was taken by assault today; only the blocks of that assault "
                f"may enter it (003 §11)")
    return None


def room(day: Day, locale: str, n: int) -> bool:
    """§8: a side's blocks in a locale may not exceed its capacity."""
    return day.st.count_in(locale, day.side) + n <= day.board.locales[locale].capacity


def describe_move(day: Day, group: list[Block], frm: tuple, to: tuple, kind: str = "move",
                  extra: str = "") -> None:
    if kind not in day.untold:
        day.private(
            kind, day.side,
            say("%(blocks)s moved from %(place)s to %(to)s%(extra)s.", blocks=[day.own(b) for b in group],
                place=day.place(*frm), to=day.place(*to), extra=extra),
            seen=say("%(blocks)s moved from %(place)s to %(to)s%(extra)s.", blocks=day.count(len(group), day.side),
                     place=day.place(*frm), to=day.place(*to), extra=""),
            seen_data={"side": day.side, "from": list(frm), "to": list(to), "count": len(group)},
            blocks=[b.id for b in group], frm=list(frm), to=list(to),
        )
    day.record_move(day.side, frm, to, len(group), kind)


def put(day: Day, group: list[Block], locale: str, facing: str | None) -> None:
    for b in group:
        day.st.put(b, locale, facing)


# -- §9 attack maneuvers -------------------------------------------------------------

def maneuver_problem(day: Day, group: list[Block], frm: str, target: str) -> str | None:
    """Why ``group`` may not make an attack maneuver from ``frm`` into ``target``."""
    if day.board.approach(target, frm).cavalry_obstacle and not any(b.type == "infantry" for b in group):
        return (f"an attack maneuver into {day.name(target)} across a cavalry obstacle needs "
                f"at least one infantry block (003 §9)")
    return None


def attack_maneuver(day: Day, group: list[Block], frm: str, target: str, can_be_blocked: bool,
                    if_blocked: str | None = None, advance: tuple = (), on_road: bool = False,
                    trip: "Trip | None" = None) -> bool:
    """Friendly blocks moving from ``frm`` into enemy-occupied ``target``.

    Returns True when they entered (the enemy retreated), False when the enemy
    blocked the attack (the attackers then stayed or advanced to the approach).
    """
    problem = maneuver_problem(day, group, frm, target)
    if problem:
        raise Void(problem)
    revealed = []
    if day.board.approach(target, frm).cavalry_obstacle:
        revealed.append(next(b for b in group if b.type == "infantry"))
    if on_road:
        revealed.append(group[0])
    for b in revealed:
        day.private("reveal", day.side, say("%(block)s is revealed for the attack maneuver.", block=day.own(b)),
                    seen=say(f"{day.article(b.side)} %(block)s block is revealed in %(place)s (attack maneuver).",
                             block=day.shown(b), place=day.name(frm)),
                    seen_data={"side": b.side, "type": b.type, "strength": b.strength}, block=b.id)
    day.private(
        "attack", day.side,
        say("Attack maneuver: %(blocks)s from %(place)s into %(to)s.", blocks=[b.id for b in group],
            place=day.name(frm), to=day.name(target)),
        seen=say("Attack maneuver: %(blocks)s from %(place)s into %(to)s.", blocks=day.count(len(group), day.side),
                 place=day.name(frm), to=day.name(target)),
        seen_data={"from": frm, "to": target, "count": len(group)},
    )
    reserve = day.st.at(target, None, day.foe)
    if can_be_blocked and reserve:
        blockers = block_response(day, reserve, target, frm)
        if blockers:
            put(day, blockers, target, frm)
            day.private(
                "block", day.foe,
                say("%(blocks)s moved to block %(place)s against the attack maneuver.",
                    blocks=[day.own(b) for b in blockers], place=day.place(target, frm)),
                seen=say("The attack maneuver is blocked: %(blocks)s moved to block %(place)s.",
                         blocks=day.count(len(blockers), day.foe), place=day.place(target, frm)),
                seen_data={"count": len(blockers), "locale": target, "facing": frm},
            )
            day.record_move(day.foe, (target, None), (target, frm), len(blockers), "block")
            blocked_choice(day, group, frm, target, if_blocked, advance, trip)
            return False
    retreat(day, day.foe, target, came_from=frm)
    return True


def block_response(day: Day, reserve: list[Block], target: str, frm: str) -> list[Block]:
    """§9 (1): the defender may move reserve blocks to block the approach."""
    standing = day.standing(day.foe, "block", target)
    given = None
    if standing is not None:
        if standing.value == "NEVER":
            given = ()
        elif standing.value == "ALWAYS":
            given = tuple(b.id for b in reserve)
        elif standing.blocks:
            given = tuple(b.id for b in reserve if b.id in standing.blocks)
    options = [(b.id, day.own(b)) for b in reserve]
    answer = day.decide(
        day.foe, "block",
        say("An enemy attack maneuver comes into %(place)s from %(from)s: which of your reserve blocks there move "
            "to block %(approach)s (none: they retreat)?", place=day.name(target), **{"from": day.name(frm)},
            approach=day.place(target, frm)),
        options, tuple(b.id for b in reserve), lo=0, hi=len(reserve), given=given, source="standing")
    return [b for b in reserve if b.id in answer]


def blocked_choice(day: Day, group: list[Block], frm: str, target: str, if_blocked, advance,
                   trip: "Trip | None" = None) -> None:
    """§9 (1): after a block, the attackers stay, advance to the opposite approach, or split.

    Staying counts against the command limit («on l'impute néanmoins»); only
    advancing keeps main-road cavalry free of it. So a free road move that
    stays now costs a command, and cannot stay when none is left.
    """
    stay_costs = trip is not None and not trip.counted
    given = None
    if if_blocked == "stay":
        given = ()
    elif if_blocked == "advance":
        given = tuple(advance) if advance else tuple(b.id for b in group)

    def check(answer):
        split = 0 < len(answer) < len(group)
        if split and day.commands >= COMMAND_LIMIT:
            return "splitting the group needs a command and none is left"
        if not answer and stay_costs and day.commands >= COMMAND_LIMIT:
            return "staying counts against the command limit, and no command is left"
        return None

    answer = day.decide(
        day.side, "if_blocked",
        say("Your attack maneuver into %(place)s was blocked: which blocks advance to block %(approach)s (the "
            "others stay in %(from)s)?", place=day.name(target), approach=day.place(frm, target),
            **{"from": day.name(frm)}),
        [(b.id, day.own(b)) for b in group], tuple(b.id for b in group), lo=0, hi=len(group),
        given=given, check=check)
    advancing = [b for b in group if b.id in answer]
    if 0 < len(advancing) < len(group):
        day.commands += 1  # §9: "scinder le groupe nécessite un commandement supplémentaire"
    if not advancing and stay_costs:
        day.commands += 1
        trip.counted = True
    if advancing:
        put(day, advancing, frm, target)
        describe_move(day, advancing, (frm, None), (frm, target))


# -- §8 group moves -------------------------------------------------------------------

def move(day: Day, order: Move) -> None:
    group = movers(day, order.blocks, order.frm)
    (here, facing), (there, to_facing) = order.frm, order.to
    extension_barred = False
    if facing is None and to_facing is None:
        if there == here:
            raise Void(say("the blocks are already there"))
        problem = crossing_problem(day, here, there, group)
        if problem:
            raise Void(problem)
        enemy_there = day.st.occupied_by(there, day.foe)
        if not room(day, there, len(group)):
            raise Void(say("%(place)s holds at most %(capacity)d of your blocks", place=day.name(there),
                           capacity=day.board.locales[there].capacity))
        if enemy_there and maneuver_problem(day, group, here, there):
            raise Void(maneuver_problem(day, group, here, there))
        day.spend_command("move")
        day.moved.update(b.id for b in group)
        if enemy_there:
            if not attack_maneuver(day, group, here, there, can_be_blocked=True,
                                   if_blocked=order.if_blocked, advance=order.advance):
                return
        put(day, group, there, None)
        describe_move(day, group, (here, None), (there, None))
    elif facing is None and there == here:
        if (here, to_facing) not in day.board.approaches:
            raise Void(say("%(place)s has no approach toward %(toward)s", place=day.name(here), toward=day.name(to_facing)))
        if not day.st.occupied_by(to_facing, day.foe):
            raise Void(say("a block may block an approach only when the enemy occupies the opposite locale "
                           "(%(place)s is not occupied) (003 §8)", place=day.name(to_facing)))
        day.spend_command("move")
        day.moved.update(b.id for b in group)
        put(day, group, here, to_facing)
        describe_move(day, group, (here, None), (here, to_facing))
    elif facing is not None and there == here and to_facing is None:
        forced = not day.st.occupied_by(facing, day.foe)
        if not forced:
            day.spend_command("move")
        day.moved.update(b.id for b in group)
        put(day, group, here, None)
        describe_move(day, group, (here, facing), (here, None),
                      extra=say(" (no command: nothing faces them any more)") if forced else "")
        extension_barred = True  # §8: no prolongement to another approach of the same locale
    elif facing is not None and there == facing and to_facing is None:
        problem = crossing_problem(day, here, there, group)
        if problem:
            raise Void(problem)
        if not room(day, there, len(group)):
            raise Void(say("%(place)s holds at most %(capacity)d of your blocks", place=day.name(there),
                           capacity=day.board.locales[there].capacity))
        if day.st.occupied_by(there, day.foe) and maneuver_problem(day, group, here, there):
            raise Void(maneuver_problem(day, group, here, there))
        day.spend_command("move")
        day.moved.update(b.id for b in group)
        if day.st.occupied_by(there, day.foe):
            # §9: an attack from blocking the approach cannot be blocked
            attack_maneuver(day, group, here, there, can_be_blocked=False)
        put(day, group, there, None)
        describe_move(day, group, (here, facing), (there, None))
    else:
        raise Void(say("a block may move to the reserve of its locale, to an approach of its locale, "
                       "or to the locale its approach faces (003 §8)"))
    if order.extend:
        cavalry = [b for b in group if b.type == "cavalry" and b.on_map]
        if extension_barred:
            day.void(order, "cavalry that left an approach for the reserve of the same locale may not "
                            "extend to another approach of it (003 §8)")
        elif not cavalry:
            day.void(order, "only cavalry can extend its move (003 §8)")
        else:
            try:
                extend(day, cavalry, there, order.extend, split=len(cavalry) < len(group))
            except Void as why:
                day.void(order, f"the extension: {why}")


def extend(day: Day, cavalry: list[Block], locale: str, toward: str, split: bool, free: bool = False) -> None:
    """§8 prolongement: cavalry ending in reserve blocks an approach facing the enemy."""
    if (locale, toward) not in day.board.approaches:
        raise Void(say("%(place)s has no approach toward %(toward)s", place=day.name(locale), toward=day.name(toward)))
    if not day.st.occupied_by(toward, day.foe):
        raise Void(say("%(place)s is not occupied by the enemy", place=day.name(toward)))
    if any(b.locale != locale or b.facing is not None for b in cavalry):
        raise Void(say("the cavalry is not in the reserve of that locale"))
    if split and not free:
        day.spend_command("extension")  # §8: it becomes a new group
    for b in cavalry:
        day.private("reveal", day.side, f"{day.own(b)} is revealed for its extension.",
                    seen=f"{day.article(b.side)} {day.shown(b)} block is revealed in {day.name(locale)} (cavalry extension).",
                    seen_data={"side": b.side, "type": b.type, "strength": b.strength}, block=b.id)
    put(day, cavalry, locale, toward)
    describe_move(day, cavalry, (locale, None), (locale, toward), kind="extend")


def extend_order(day: Day, order: Extend) -> None:
    """EXTEND: cavalry in reserve on a main road blocks an approach along it (§8 note)."""
    group = movers(day, (order.block,), (order.locale, None))
    b = group[0]
    if b.type != "cavalry":
        raise Void(say("only cavalry can extend (003 §8)"))
    along_main = any(nxt == order.toward and road.main for nxt, road in day.board.road_neighbours(order.locale))
    extend(day, group, order.locale, order.toward, split=False, free=along_main)
    if not along_main:
        day.commands += 1
        day.private("note", day.side, say("%(block)s's extension counts against the command limit: %(place)s is not "
                                          "along a main road.", block=b.id, place=day.place(order.locale, order.toward)))
    day.moved.add(b.id)


# -- §8 road movement -------------------------------------------------------------------

def road_choices(day: Day, path: tuple[str, ...]) -> list[list[Road]]:
    """For each step of ``path``, the roads across that border, main roads first."""
    out = []
    for a, b in zip(path, path[1:]):
        found = main_first(day.board, a, b)
        if not found:
            raise Void(say("no road joins %(place)s and %(toward)s", place=day.name(a), toward=day.name(b)))
        out.append(found)
    return out


def slot_for(day: Day, key: tuple, after: int, direction: tuple) -> tuple[int | None, str]:
    """§8 road capacity: the earliest free move number (1-3) on ``key`` after ``after``.

    The numbers are taken in the order they are crossed, not the order the lines
    are written: «le pion utilisant son premier mouvement doit bouger en premier»,
    so a block on its first move takes number 1 even when a block on its second
    move has already taken 2 there (rules-notes V9; the family's road-step model,
    pbem.games.simmons.roads, without its queue)."""
    slot, why = free_step(day.road_use, key, direction, after, queue=False)
    if why == OTHER_WAY:
        return None, say("the road across that approach is used in the other direction this turn")
    if why == FULL:
        return None, say("the road's capacity across that approach is used up this turn")
    return slot, ""


def take_slot(day: Day, key: tuple, slot: int, direction: tuple) -> None:
    take_step(day.road_use, key, slot, direction)


class Trip:
    """One block's road move (§8): the path, the move number reached, the roads
    taken, and whether the move has been counted against the command limit
    (it is free only while every step is on a main road)."""

    def __init__(self, day: Day, block: Block, path: tuple[str, ...], slot: int = 0, counted: bool = False,
                 roads_used=(), if_blocked=None, extend_to: str | None = None):
        self.day, self.block, self.path = day, block, tuple(path)
        self.choices = road_choices(day, self.path)
        self.slot, self.counted = slot, counted
        self.roads_used = set(roads_used)
        self.if_blocked, self.extend_to = if_blocked, extend_to

    def road_for(self, here: str, nxt: str, choices: list[Road], after: int):
        """(road, move number) for one step, or (None, why): each road across a
        border has its own capacity; a secondary road needs a command."""
        why = ""
        for road in choices:
            slot, why = slot_for(self.day, (frozenset((here, nxt)), road.id), after, (here, nxt))
            if slot is None:
                continue
            if not road.main and not self.counted and self.day.commands >= COMMAND_LIMIT:
                why = "a step on a secondary road needs a command, and none is left"
                continue
            return road, slot
        return None, why

    def plan(self, step: int, cur: str) -> tuple[list, str]:
        """The steps that can be taken from ``cur``, without changing anything."""
        day, block = self.day, self.block
        plan, s, here, reason = [], self.slot, cur, ""
        for i in range(step, len(self.path) - 1):
            nxt = self.path[i + 1]
            road, s2 = self.road_for(here, nxt, self.choices[i], s)
            if road is None:
                reason = s2
                break
            problem = crossing_problem(day, here, nxt, [block])
            enemy_there = day.st.occupied_by(nxt, day.foe)
            if not problem and enemy_there and block.type != "cavalry":
                problem = say("%(place)s is occupied by the enemy (only cavalry attacks along a road, 003 §9)",
                              place=day.name(nxt))
            if not problem and enemy_there:
                problem = maneuver_problem(day, [block], here, nxt)
            if not problem and enemy_there and here != cur and not room(day, here, 1):
                # rules-notes V8: a blocked maneuver would leave it in a full locale
                problem = say("%(place)s is full, and a blocked attack maneuver from it would leave the block there "
                              "(003 §8 capacity)", place=day.name(here))
            if problem:
                reason = problem
                break
            plan.append((i, nxt, road, s2, enemy_there))
            s, here = s2, nxt
            if enemy_there:
                break
        # stop at the furthest planned locale with room (or at an attack maneuver)
        while plan and not plan[-1][4] and not room(day, plan[-1][1], 1):
            plan.pop()
            reason = reason or "no room further along"
        return plan, reason

    def go(self) -> str | None:
        """Move as far as the rules allow; the locale it stopped in, or None if it never moved."""
        day, block = self.day, self.block
        start = cur = self.path[0]
        step, stop_reason = 0, ""
        while step < len(self.path) - 1:
            plan, reason = self.plan(step, cur)
            if not plan:
                stop_reason = reason
                if cur == start:
                    day.private("void", day.side, say("%(block)s did not move along the road: %(why)s.",
                                                      block=block.id, why=reason))
                    return None
                break
            for i, nxt, road, s2, enemy_there in plan:
                if not road.main and not self.counted:
                    day.spend_command("road move")
                    self.counted = True
                take_slot(day, (frozenset((cur, nxt)), road.id), s2, (cur, nxt))
                self.roads_used.add(road.id)
                if enemy_there:
                    entered = attack_maneuver(day, [block], cur, nxt, can_be_blocked=block.facing is None,
                                              if_blocked=self.if_blocked, on_road=True, trip=self)
                    if not entered:
                        if cur != start:
                            describe_road(day, block, start, cur)
                        return cur
                day.st.put(block, nxt, None)
                cur, self.slot, step = nxt, s2, i + 1
            if reason:
                stop_reason = reason
                break
        describe_road(day, block, start, cur, stop_reason if cur != self.path[-1] else "")
        if self.extend_to:
            self.extend(cur)
        return cur

    def extend(self, cur: str) -> None:
        """§8: cavalry may extend after a road move, only along the road it moved on."""
        day, block = self.day, self.block
        along = [road for nxt, road in day.board.road_neighbours(cur)
                 if nxt == self.extend_to and road.id in self.roads_used]
        try:
            if not along:
                raise Void(say("%(place)s is not along the road it moved on (003 §8)", place=day.place(cur, self.extend_to)))
            if not any(r.main for r in along) and not self.counted:
                day.spend_command("extension")  # the whole move is no longer on a main road
                self.counted = True
            extend(day, [block], cur, self.extend_to, split=False, free=True)
        except Void as why:
            day.private("void", day.side, say("%(block)s did not extend: %(why)s.", block=block.id, why=reason(why)))


def describe_road(day: Day, block: Block, start: str, end: str, why: str = "") -> None:
    if end == start:
        day.private("void", day.side, say("%(block)s did not move along the road: %(why)s.", block=block.id, why=why))
        return
    extra = say(" (stopped there: %(why)s)", why=why) if why else ""
    describe_move(day, [block], (start, None), (end, None), kind="road", extra=extra)


def road_move(day: Day, order: RoadMove) -> None:
    group = movers(day, (order.block,), (order.path[0], None))
    block = group[0]
    if len(order.path) - 1 > ROAD_STEPS:
        raise Void(say("a road move goes at most %(num)d locales (003 §8)", num=ROAD_STEPS))
    if not day.board.roads_through(order.path[0]):
        raise Void(say("no road passes through %(place)s", place=day.name(order.path[0])))
    trip = Trip(day, block, order.path, if_blocked=order.if_blocked, extend_to=order.extend)
    commands = day.commands
    day.moved.add(block.id)
    if trip.go() is None:  # it could not take a step: nothing was done, nothing spent
        day.moved.discard(block.id)
        day.commands = commands


# -- §8 reinforcements ----------------------------------------------------------------------

def entry_point(day: Day, block: Block, order: Enter):
    kind = "pontoon" if order.by == "pontoon" else "road"
    candidates = [e for e in day.board.entries.values() if e.side == day.side and e.kind == kind]
    if order.entry:
        candidates = [e for e in candidates if e.id == order.entry]
    if block.entries:
        candidates = [e for e in candidates if e.id in block.entries]
    if not candidates:
        raise Void(say("%(block)s has no road entry point it may use", block=block.id) if kind == "road" else
                   say("%(block)s has no pontoon entry point it may use", block=block.id))
    return candidates[0]


def reinforcement(day: Day, bid: str) -> Block:
    b = day.st.blocks.get(bid)
    if b is None or b.side != day.side:
        raise Void(say("no block of yours called %(block)s", block=bid))
    if b.status != "waiting":
        raise Void(say("%(block)s is not waiting to enter", block=bid))
    if b.arrives is not None and b.arrives > day.hour:
        raise Void(say("%(block)s may not enter before %(hour)d:00", block=bid, hour=b.arrives))
    return b


def enter(day: Day, order: Enter) -> None:
    for bid in order.blocks:
        try:
            enter_one(day, order, reinforcement(day, bid))
        except Void as why:
            day.void(order, say("%(block)s: %(why)s", block=bid, why=reason(why)))


def enter_one(day: Day, order: Enter, block: Block) -> None:
    entry = entry_point(day, block, order)
    locale = entry.locale
    if day.st.occupied_by(locale, day.foe):
        raise Void(say("%(place)s is occupied by the enemy (003 §8)", place=day.name(locale)))
    if not room(day, locale, 1):
        raise Void(say("%(place)s is full (003 §8)", place=day.name(locale)))
    if order.by == "pontoon":
        if day.pontoon_used:
            raise Void(say("one block a turn may cross by the pontoon (003 §8)"))
        day.spend_command("pontoon")  # §8: "compte comme un groupe distinct"
        day.pontoon_used = True
        day.st.put(block, locale, None)
        day.moved.add(block.id)
        describe_entry(day, block, entry)
        if order.extend:  # §8: cavalry ending in reserve may extend; the crossing was its group's command
            try:
                if block.type != "cavalry":
                    raise Void(say("only cavalry can extend (003 §8)"))
                extend(day, [block], locale, order.extend, split=False, free=True)
            except Void as why:
                day.private("void", day.side, say("%(block)s did not extend: %(why)s.", block=block.id, why=reason(why)))
        return
    road = day.board.roads[entry.road]
    key = (("entry", entry.id), road.id)
    slot, why = slot_for(day, key, 0, ("in",))
    if slot is None:
        raise Void(say("three blocks a turn may enter by an entry point (003 §8)"))
    path = ((locale,) + tuple(order.path))[: ROAD_STEPS - slot + 1]
    trip = Trip(day, block, path, slot=slot, counted=not road.main, roads_used=[road.id],
                if_blocked=order.if_blocked, extend_to=order.extend)
    if not road.main:
        day.spend_command("entry")  # only a main road is free of the command limit (§8)
    take_slot(day, key, slot, ("in",))
    day.st.put(block, locale, None)
    day.moved.add(block.id)
    describe_entry(day, block, entry)
    if len(path) > 1:
        trip.go()
    elif order.extend:
        trip.extend(locale)


def describe_entry(day: Day, block: Block, entry) -> None:
    if "entry" not in day.untold:
        how = say("by the pontoon") if entry.kind == "pontoon" else say("by %(entry)s", entry=entry.name)
        day.private(
            "entry", day.side, say("%(block)s entered the map %(how)s at %(place)s.", block=day.own(block), how=how,
                                   place=day.name(entry.locale)),
            seen=say(f"{day.article(day.side)} %(side)s block entered the map %(how)s at %(place)s.",
                     side=adjective(day.side), how=how, place=day.name(entry.locale)),
            seen_data={"side": day.side, "entry": entry.id, "locale": entry.locale},
            block=block.id,
        )
    day.moves.append({"side": day.side, "from": [entry.locale, None], "to": [entry.locale, None],
                      "count": 1, "kind": "entry", "entry": entry.id})


# -- §8 blocks left facing an empty locale ---------------------------------------------------

def forced_returns(day: Day) -> None:
    """§8: blocks of the moving side blocking an approach whose opposite locale
    the enemy has left go back to the reserve of their locale (free)."""
    groups: dict[tuple, list[Block]] = {}
    held = day.st.held_by(day.foe)
    for b in day.st.side_blocks(day.side):
        if b.facing is not None and b.facing not in held:
            groups.setdefault((b.locale, b.facing), []).append(b)
    for (locale, facing), group in groups.items():
        put(day, group, locale, None)
        for b in group:
            b.bombard = None if b.bombard == facing else b.bombard
        day.private(
            "return", day.side,
            say("%(blocks)s fell back from %(place)s to the reserve: the enemy has left %(from)s (003 §8).",
                blocks=[b.id for b in group], place=day.place(locale, facing), **{"from": day.name(facing)}),
            seen=say("%(blocks)s fell back from %(place)s to the reserve.", blocks=day.count(len(group), day.side),
                     place=day.place(locale, facing)),
            seen_data={"count": len(group), "locale": locale, "facing": facing},
        )
        day.record_move(day.side, (locale, facing), (locale, None), len(group), "return")
