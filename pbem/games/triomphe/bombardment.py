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
from pbem.lang import say
from .orders import Bombard, Fire
from .turn import Turn, Void


def declare(turn: Turn, order: Bombard) -> None:
    st, board = turn.st, turn.board
    b = st.blocks.get(order.block)
    if b is None or b.side != turn.side or not b.on_map or b.type != "artillery":
        raise Void(say("%(block)s is not one of your artillery blocks on the map", block=order.block))
    if b.where() != (order.locale, order.toward):
        raise Void(say("%(block)s is not on %(approach)s (a bombardment is made from an approach, 000 §10)", block=b.id,
                       approach=turn.approach_name(order.locale, order.toward)))
    turn.fresh([b])
    if b.disorganised:
        raise Void(say("disorganised blocks cannot attack (000 §14)"))
    if b.bombard is not None:
        raise Void(say("%(block)s has a bombardment declared already", block=b.id))
    if (order.locale, order.toward) in turn.closed:
        raise Void(say("an assault from %(approach)s was lost this turn: no attack through it (000 §11)",
                       approach=turn.approach_name(order.locale, order.toward)))
    if board.approach(order.toward, order.locale).artillery:
        raise Void(say("the approach %(approach)s has an artillery penalty: no bombardment across it (000 §10)",
                       approach=turn.approach_name(order.toward, order.locale)))
    turn.acted.add(b.id)
    b.bombard = order.toward
    b.bombard_days = b.bombard_days + (st.day,)
    turn.private("bombard", turn.side, say("%(block)s declares a bombardment from %(approach)s into %(place)s.",
                                           block=turn.own(b), approach=turn.approach_name(order.locale, order.toward),
                                           place=turn.name(order.toward)),
                 seen=say("%(block)s declares a bombardment from %(approach)s into %(place)s.",
                          block=say("%(block)s (revealed: %(shown)s)", block=turn.a_block(), shown=Turn.shown(b)),
                          approach=turn.approach_name(order.locale, order.toward), place=turn.name(order.toward)),
                 block=b.id)


def due(turn: Turn) -> list:
    """The side's artillery with a bombardment declared in an earlier turn."""
    return [b for b in turn.st.side_blocks(turn.side)
            if b.bombard is not None and b.bombard_days and b.bombard_days[-1] < turn.st.day]


def fire(turn: Turn, order: Fire) -> None:
    st = turn.st
    b = st.blocks.get(order.block)
    if b is None or b.side != turn.side or b not in due(turn):
        raise Void(say("%(block)s has no bombardment to complete or cancel", block=order.block))
    if order.hold:
        b.bombard = None
        turn.public("bombard", say("A bombardment into %(place)s is cancelled.",
                                   place=turn.name(b.locale if b.facing is None else b.facing)))
        return
    complete(turn, b)


def complete(turn: Turn, b) -> None:
    """§10 step 2: the defender chooses one of its blocks in the target locale and reduces it."""
    st = turn.st
    turn.fresh([b])
    if b.disorganised:  # §10 «Бомбардування є різновидом атаки», §14 «Дезорганізована фігура не може атакувати»
        raise Void(say("disorganised blocks cannot attack (000 §14)"))
    if (b.locale, b.bombard) in turn.closed:
        raise Void(say("an assault from %(approach)s was lost this turn: no attack through it (000 §11)",
                       approach=turn.approach_name(b.locale, b.bombard)))
    target = b.bombard
    turn.acted.add(b.id)
    b.bombard = None
    b.bombard_days = b.bombard_days + (st.day,)
    foe = turn.foe
    pool = st.at(target, b.locale, foe) or st.at(target, None, foe) or st.in_locale(target, foe)
    if not pool:
        turn.public("bombard", say("The bombardment into %(place)s finds no enemy there.", place=turn.name(target)))
        return
    victim = turn.pick_own(foe, pool, "bombard_loss",
                           say("A bombardment from %(approach)s strikes %(place)s: which block is reduced?",
                               approach=turn.approach_name(b.locale, target), place=turn.name(target)))
    turn.public("bombard", say("Bombardment from %(approach)s into %(place)s.",
                               approach=turn.approach_name(b.locale, target), place=turn.name(target)))
    lost = turn.reduce(victim, 1, "bombardment")
    morale.lose(turn, foe, lost, "bombardment")
