"""The sequence of play (000 §5–6, §16): one side's turn, and the end of the game.

A turn, in the rule book's order:

1. the regular morale update: the discs of this hour from the time track (§18);
2. approach recovery: the side's blocks on approaches facing no enemy return
   to their reserve (§16, T42);
3. the actions, in the order written, each finished before the next (§6, T1);
   a bombardment declared last turn and not ordered is completed first (T23);
4. the end of the turn: reorganisation all-or-none (T39), the morale update
   (§18), the clock; after the French turn of the last hour, victory (§19).
"""

from __future__ import annotations

from pbem.core.decisions import Decider

from . import assault, bombardment, march, morale, reorganisation, victory
from .orders import Assault, Attack, Bombard, Enter, Fire, March, Orders, Reorganise, Road
from .scenario import SIDE_NAME, Scenario
from pbem.games.simmons.clock import hour_label
from pbem.games.simmons.clock import Clock
from pbem.lang import say, say_plural
from pbem.games.simmons.standing import update_standing
from pbem.games.simmons.turn import is_over, moving_side  # noqa: F401 (the game's names)
from .state import State
from . import maneuver
from .turn import Ended, Turn, Void, reason


def resolve_day(scenario: Scenario, state: State, orders: dict[str, Orders], decider: Decider,
                context: dict | None = None):
    """Resolve the turn of the side whose turn it is; returns (state, events).

    ``orders`` holds the moving side's orders and the other side's (standing
    orders only). ``context`` (adjudication cases) says what the turn has
    already used: ``spent`` orders, ``acted`` blocks, ``start`` = False to
    skip the start of the turn (a case set in the middle of a turn).
    """
    side = scenario.side_of_day(state.day)
    turn = Turn(scenario, state, orders.get(side), decider)
    context = context or {}
    remember(turn, context)
    for other, theirs in orders.items():
        if other != side:
            for standing in theirs.standing:
                update_standing(state, other, standing)
    for standing in turn.orders.standing:
        update_standing(state, side, standing)
    try:
        if context.get("start", True):
            start_of_turn(turn)
        actions(turn)
        end_of_turn(turn)
    except Ended:
        pass
    state.spent = turn.spent
    state.last_moves = turn.moves
    state.day += 1
    return state, turn.events


def remember(turn: Turn, context: dict) -> None:
    """What a case set in the middle of a turn says the turn has already used (docs/cases.md, [turn]):
    orders spent, blocks that acted, road crossings taken, the pontoon, maneuver attacks through an
    approach, approaches closed by a lost assault, locales no road march may enter."""
    turn.spent = int(context.get("spent", 0))
    turn.acted.update(context.get("acted", ()))
    for key, slots, direction in context.get("crossings", ()):
        turn.crossings[key] = {"slots": list(slots), "dir": direction}
    turn.pontoon = bool(context.get("pontoon", False))
    turn.maneuvers.update(context.get("maneuvers", {}))
    turn.closed.update(context.get("closed", ()))
    turn.no_road_into.update(context.get("no_road_into", ()))


def start_of_turn(turn: Turn) -> None:
    turn.public("turn", say("%(whose)s, %(hour)s.", whose=say("Austria's turn") if turn.side == "austria"
                            else say("France's turn"), hour=Clock(turn.hour)), side=turn.side, hour=turn.hour)
    morale.receive(turn)
    recovery(turn)


def recovery(turn: Turn) -> None:
    """§16: forced where the opposite locale holds no enemy, forbidden elsewhere."""
    st = turn.st
    back = [b for b in st.side_blocks(turn.side)
            if b.facing is not None and not st.occupied_by(b.facing, turn.foe)]
    for b in back:
        st.put(b, b.locale, None)
    if back:
        turn.private("recovery", turn.side, say("Back to their reserves (no enemy across): %(blocks)s (000 §16).",
                                                blocks=turn.ids(back)),
                     seen=say_plural("%(num)d %(side)s block(s) leave their approaches for the reserve (000 §16).",
                                     "%(num)d %(side)s block(s) leave their approaches for the reserve (000 §16).",
                                     len(back), side=say("Austria") if turn.side == "austria" else say("France")))


ACTIONS = {
    March: march.march,
    Road: march.road,
    Enter: march.enter,
    Reorganise: reorganisation.reorganise,
    Bombard: bombardment.declare,
    Fire: bombardment.fire,
    Assault: assault.assault,
}


def attack(turn: Turn, order: Attack) -> None:
    """A maneuver attack as an action of its own (§9): one order."""
    blocks = march.own_blocks(turn, order.blocks, order.frm)
    maneuver.check(turn, blocks, order.frm, order.target)
    turn.pay(1)
    for b in blocks:
        turn.acted.add(b.id)
    won = maneuver.attack(turn, blocks, order.frm, order.target, order.if_blocked)
    if won:
        then = tuple(c for c in order.then if c.toward != order.target)
        march.continuation(turn, blocks, order.target, then, road_from=None)
    elif order.frm[1] is None:  # §12: after a blocked attack, only onto the attack approach (T20)
        then = tuple(c for c in order.then if c.toward == order.target)
        march.continuation(turn, blocks, order.frm[0], then, road_from=None)


ACTIONS[Attack] = attack


def actions(turn: Turn) -> None:
    st = turn.st
    turn.start_disorganised = {}
    for b in st.side_blocks(turn.side):
        if b.disorganised:
            turn.start_disorganised.setdefault(b.locale, set()).add(b.id)
    ordered = {o.block for o in turn.orders.of(Fire)}
    for b in bombardment.due(turn):  # T23: a bombardment neither fired nor held is completed first
        if b.id not in ordered:
            try:
                bombardment.complete(turn, b)
            except Void as why:
                turn.private("void", turn.side, say("Bombardment of %(block)s not completed — %(why)s.", block=b.id,
                                                    why=reason(why)))
    for order in turn.orders.orders:
        action = ACTIONS.get(type(order))
        if action is None:
            continue
        try:
            action(turn, order)
        except Void as why:
            turn.void(order, reason(why))


def end_of_turn(turn: Turn) -> None:
    reorganisation.all_or_none(turn)
    for b in bombardment.due(turn):  # a bombardment not completed in the turn after it was declared lapses
        if b.bombard_days and b.bombard_days[-1] < turn.st.day:
            b.bombard = None
    turn.public("orders", say("%(side)s spent %(spent)d of 3 orders.", side=say("Austria") if turn.side == "austria"
                              else say("France"), spent=turn.spent), spent=turn.spent)
    morale.update(turn)
    if turn.st.day + 1 >= turn.sc.days:
        victory.end_of_game(turn)
