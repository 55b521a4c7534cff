"""Bombardment (000 §10): declared in one turn, completed in the next.

Only artillery on an approach bombards, into the opposite locale, and not if
the approach opposite it (the defence side's) carries an artillery penalty
(T22). Declaring turns the block face up; completing reduces one enemy block
in the target locale, the defender choosing among the first non-empty of: the
approach facing the artillery, the reserve, anywhere (T23). Neither costs an
order; each is an action of the artillery block.
"""

from __future__ import annotations

from . import morale
from .orders import Bombard, Fire
from .turn import Turn, Void


def declare(turn: Turn, order: Bombard) -> None:
    st, board = turn.st, turn.board
    b = st.blocks.get(order.block)
    if b is None or b.side != turn.side or not b.on_map or b.type != "artillery":
        raise Void(f"{order.block} is not one of your artillery blocks on the map")
    if b.where() != (order.locale, order.toward):
        raise Void(f"{b.id} is not on {turn.approach_name(order.locale, order.toward)} (a bombardment is made "
                   f"from an approach, 000 §10)")
    turn.fresh([b])
    if b.disorganised:
        raise Void("disorganised blocks cannot attack (000 §14)")
    if b.bombard is not None:
        raise Void(f"{b.id} has a bombardment declared already")
    if (order.locale, order.toward) in turn.closed:
        raise Void(f"an assault from {turn.approach_name(order.locale, order.toward)} was lost this turn: no "
                   f"attack through it (000 §11)")
    if board.approach(order.toward, order.locale).artillery:
        raise Void(f"the approach {turn.approach_name(order.toward, order.locale)} has an artillery penalty: "
                   f"no bombardment across it (000 §10)")
    turn.acted.add(b.id)
    b.bombard = order.toward
    b.bombard_days = b.bombard_days + (st.day,)
    turn.private("bombard", turn.side, f"{turn.own(b)} declares a bombardment from "
                                       f"{turn.approach_name(order.locale, order.toward)} into "
                                       f"{turn.name(order.toward)}.",
                 seen=f"{turn.a_block()} (revealed: {Turn.shown(b)}) declares a "
                      f"bombardment from {turn.approach_name(order.locale, order.toward)} into "
                      f"{turn.name(order.toward)}.", block=b.id)


def due(turn: Turn) -> list:
    """The side's artillery with a bombardment declared in an earlier turn."""
    return [b for b in turn.st.side_blocks(turn.side)
            if b.bombard is not None and b.bombard_days and b.bombard_days[-1] < turn.st.day]


def fire(turn: Turn, order: Fire) -> None:
    st = turn.st
    b = st.blocks.get(order.block)
    if b is None or b.side != turn.side or b not in due(turn):
        raise Void(f"{order.block} has no bombardment to complete or cancel")
    if order.hold:
        b.bombard = None
        turn.public("bombard", f"A bombardment into {turn.name(b.locale if b.facing is None else b.facing)} "
                               f"is cancelled.")
        return
    complete(turn, b)


def complete(turn: Turn, b) -> None:
    """§10 step 2: the defender chooses one of its blocks in the target locale and reduces it."""
    st = turn.st
    turn.fresh([b])
    if (b.locale, b.bombard) in turn.closed:
        raise Void(f"an assault from {turn.approach_name(b.locale, b.bombard)} was lost this turn: no attack "
                   f"through it (000 §11)")
    target = b.bombard
    turn.acted.add(b.id)
    b.bombard = None
    b.bombard_days = b.bombard_days + (st.day,)
    foe = turn.foe
    pool = st.at(target, b.locale, foe) or st.at(target, None, foe) or st.in_locale(target, foe)
    if not pool:
        turn.public("bombard", f"The bombardment into {turn.name(target)} finds no enemy there.")
        return
    victim = turn.pick_own(foe, pool, "bombard_loss",
                           f"A bombardment from {turn.approach_name(b.locale, target)} strikes "
                           f"{turn.name(target)}: which block is reduced?")
    turn.public("bombard", f"Bombardment from {turn.approach_name(b.locale, target)} into {turn.name(target)}.")
    lost = turn.reduce(victim, 1, "bombardment")
    morale.lose(turn, foe, lost, "bombardment")
