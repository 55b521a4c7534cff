"""The maneuver attack (000 §9): into an adjacent enemy locale across an
approach not fully blocked.

1. The attacker names up to three blocks in one place and the direction;
2. if they attack from a reserve, the defender may answer by moving as many
   reserve blocks as attack (not more) onto the defence approach (T18);
3. the attack is blocked if the defence approach is fully blocked, or partly
   blocked against a single attacker in the first maneuver attack through it
   this turn (T16);
4. won: the defender retreats (§13), the attackers advance into the reserve;
   blocked: the defender commits 1 disc to its locale (2 if the approach is
   wide, several attacked, and it was the first attack through it), and
   attackers from a reserve may advance, all or none, to the attack approach.
"""

from __future__ import annotations

from . import morale
from pbem.lang import say, say_plural
from .retreat import retreat
from .state import Block
from .turn import STRENGTH_ORDER, Turn, Void


def check(turn: Turn, blocks: list[Block], frm: tuple[str, str | None], target: str) -> None:
    """Raise Void unless ``blocks`` at ``frm`` may make a maneuver attack on ``target`` now."""
    st, board = turn.st, turn.board
    locale, facing = frm
    if facing is not None and facing != target:
        raise Void(say("from the approach %(approach)s an attack goes into %(place)s only (000 §9)",
                       approach=turn.approach_name(locale, facing), place=turn.name(facing)))
    if not board.is_adjacent(locale, target):
        raise Void(say("%(place)s is not next to %(toward)s", place=turn.name(target), toward=turn.name(locale)))
    if not st.occupied_by(target, turn.foe):
        raise Void(say("there is no enemy in %(place)s to attack", place=turn.name(target)))
    if any(b.disorganised for b in blocks):
        raise Void(say("disorganised blocks cannot attack (000 §14)"))
    if (locale, target) in turn.closed:
        raise Void(say("an assault from %(approach)s was lost this turn (000 §11)",
                       approach=turn.approach_name(locale, target)))
    if turn.closed_to(target, turn.side):
        raise Void(say("%(place)s is where enemy reinforcements enter while they wait (000 §15)",
                        place=turn.name(target)))
    approach = board.approach(target, locale)
    if len(st.at(target, locale, turn.foe)) >= approach.width:
        raise Void(say("the approach %(approach)s is fully blocked: only an assault crosses it (000 §9)",
                       approach=turn.approach_name(target, locale)))
    if approach.cavalry_obstacle and not any(b.type == "infantry" for b in blocks):
        raise Void(say("the approach %(approach)s is a cavalry obstacle: the attack needs infantry (000 §9)",
                       approach=turn.approach_name(target, locale)))
    if turn.capacity_left(target, turn.side) < len(blocks):
        raise Void(say_plural("%(place)s has no room for %(num)d more block(s) (capacity %(capacity)d)",
                              "%(place)s has no room for %(num)d more block(s) (capacity %(capacity)d)", len(blocks),
                              place=turn.name(target), capacity=board.locales[target].capacity))


def attack(turn: Turn, blocks: list[Block], frm: tuple[str, str | None], target: str,
           if_blocked: str | None = None, road: bool = False) -> bool:
    """Carry out the attack (``check`` first); True if the attacker won."""
    st, board = turn.st, turn.board
    locale, facing = frm
    foe = turn.foe
    approach = board.approach(target, locale)
    n = len(blocks)
    turn.public("maneuver", say("Maneuver attack: %(blocks)s from %(place)s into %(to)s across %(approach)s%(road)s.",
                                blocks=turn.count(n), place=turn.place(locale, facing), to=turn.name(target),
                                approach=turn.approach_name(target, locale),
                                road=say(" (on a road march)") if road else ""),
                locale=locale, target=target, count=n)
    if facing is None:
        respond(turn, target, locale, n)
    first = turn.maneuvers[(target, locale)] == 0
    turn.maneuvers[(target, locale)] += 1
    blocking = len(st.at(target, locale, foe))
    blocked = blocking >= approach.width or (blocking >= 1 and n == 1 and first)
    if approach.cavalry_obstacle:
        infantry = [b for b in blocks if b.type == "infantry"][:1]
        turn.reveal(infantry, "infantry crossing a cavalry obstacle")
    if not blocked:
        turn.public("maneuver", say("The attack on %(place)s succeeds: the defenders must retreat.",
                                    place=turn.name(target)),
                    target=target, won=True)
        retreat(turn, target, locale, board.approach(locale, target).wide, n, "maneuver attack")
        for b in blocks:
            turn.enter(b, target)
        turn.record_move(turn.side, frm, (target, None), n, "attack")
        return True
    why = "fully blocked" if blocking >= approach.width else "partly blocked against a single attacker in the " \
                                                            "first attack through it this turn"
    turn.public("maneuver", say("The attack on %(place)s is blocked: %(approach)s is %(why)s.", place=turn.name(target),
                                approach=turn.approach_name(target, locale), why=say(why)), target=target, won=False)
    discs = 2 if approach.wide and n > 1 and first else 1
    morale.commit(turn, foe, target, discs, "a maneuver attack blocked")
    if facing is None:
        after_blocked(turn, blocks, locale, target, if_blocked)
    return False


def respond(turn: Turn, target: str, locale: str, attackers: int) -> None:
    """§9 step 2: the defender may move reserve blocks onto the defence approach."""
    st, board = turn.st, turn.board
    foe = turn.foe
    if not turn.may_block(foe):
        return
    reserve = st.at(target, None, foe)
    if not reserve:
        return
    approach = board.approach(target, locale)
    already = len(st.at(target, locale, foe))
    limit = min(attackers, len(reserve))
    ranked = sorted(reserve, key=lambda b: (STRENGTH_ORDER[b.type], -b.strength, b.id))
    # the fewest blocks that block: full blocking, or one on the approach against a
    # single attacker in the first attack through it this turn
    first = turn.maneuvers[(target, locale)] == 0
    if attackers == 1 and first:
        need = 0 if already >= 1 else 1
    else:
        need = max(0, approach.width - already)
    useful = ranked[:need] if 0 < need <= limit else []
    policy = turn.standing(foe, "respond", target)
    given = None
    if policy is not None:
        if policy.value == "NEVER":
            given = ()
        elif policy.value == "ALWAYS":
            given = tuple(b.id for b in ranked[:limit])
        else:
            given = tuple(b.id for b in useful)
    options = [(b.id, turn.own(b)) for b in reserve]
    answer = turn.decide(foe, "respond",
                         say_plural("%(num)d enemy block(s) attack %(place)s across %(approach)s: which reserve blocks "
                                    "move onto it (at most %(limit)d)?", "%(num)d enemy block(s) attack %(place)s "
                                    "across %(approach)s: which reserve blocks move onto it (at most %(limit)d)?",
                                    attackers, place=turn.name(target), approach=turn.approach_name(target, locale),
                                    limit=limit), options, tuple(b.id for b in useful), lo=0, hi=limit,
                         given=given, source="standing" if given is not None else None)
    chosen = [b for b in reserve if b.id in answer]
    for b in chosen:
        st.put(b, target, locale)
    if chosen:
        turn.private("respond", foe, say_plural("%(blocks)s moves onto %(place)s to meet the attack.",
                                                "%(blocks)s move onto %(place)s to meet the attack.", len(chosen),
                                                blocks=turn.ids(chosen), place=turn.approach_name(target, locale)),
                     seen=say_plural("%(blocks)s moves onto %(place)s to meet the attack.",
                                     "%(blocks)s move onto %(place)s to meet the attack.", len(chosen),
                                     blocks=turn.count(len(chosen), foe), place=turn.approach_name(target, locale)),
                     count=len(chosen))


def after_blocked(turn: Turn, blocks: list[Block], locale: str, target: str, choice: str | None) -> None:
    """§9 step 4: attackers from a reserve advance (all or none) to the attack approach."""
    if not turn.may_block(turn.side) or not turn.st.occupied_by(target, turn.foe):
        return
    given = None if choice is None else (choice,)
    key = turn.decide(turn.side, "if_blocked",
                      say("The attack on %(place)s was blocked: advance to %(approach)s?", place=turn.name(target),
                          approach=turn.approach_name(locale, target)),
                      [("advance", say("advance to the attack approach")), ("stay", say("stay in the reserve"))],
                      ("advance",), given=given)[0]
    if key == "advance":
        for b in blocks:
            turn.st.put(b, locale, target)
        turn.record_move(turn.side, (locale, None), (locale, target), len(blocks), "march")
        turn.public("march", say_plural("%(num)d block(s) advance to %(place)s.", "%(num)d block(s) advance to %(place)s.",
                                        len(blocks), place=turn.approach_name(locale, target)))
