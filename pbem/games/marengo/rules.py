"""The sequence of play of Bonaparte at Marengo (003 §7), and the end of the game.

A day of one side, in the rule book's order:

0. the start of the day: a morale bonus due (§13); French activation (§6 step 6);
1. the bombardments declared on the side's previous day (§10);
2. its assaults, one at a time in the order written (§11);
3. its movements, group by group in the order written (§8, §9), then the
   blocks left blocking an approach the enemy has left go back to the reserve;
4. its declarations of bombardment for its next day (§10);
5. the end of the day: the demoralisation bonus check (§13), the clock, and
   after the last French day, victory (§14).
"""

from __future__ import annotations

from pbem.core.decisions import Decider
from pbem.lang import say

from . import combat, movement
from pbem.games.simmons.standing import update_standing
from pbem.games.simmons.turn import adjective, is_over, moving_side  # noqa: F401 (the game's names)

from .day import Day, Void, reason
from .orders import Activate, Assault, Enter, Extend, Move, Orders, RoadMove
from .scenario import SIDE_ADJ, SIDE_NAME, Scenario
from pbem.games.simmons.clock import Clock, hour_label
from .state import State, enemy

ACTIVATION_HOUR = 11  # §6 step 6: "il est 11:00 AM ou plus"
MORALE_BONUS = 5  # §13


def resolve_day(scenario: Scenario, state: State, orders: dict[str, Orders], decider: Decider,
                context: dict | None = None):
    """Resolve the day of the side whose day it is; returns (state, events).

    ``orders`` holds each side's orders for the day: the moving side's, and
    the standing orders the other side sent during it. ``context`` (for
    adjudication cases) says what the day has already used: ``commands``,
    ``moved`` blocks, the ``pontoon``, and ``road`` moves as
    ``[(locale, locale, road id, [move numbers])]`` in the direction used.
    """
    side = scenario.side_of_day(state.day)
    day = Day(scenario, state, orders.get(side), decider)
    if context:
        day.commands = int(context.get("commands", 0))
        day.moved.update(context.get("moved", ()))
        day.pontoon_used = bool(context.get("pontoon", False))
        for frm, to, road, moves in context.get("road", ()):
            day.road_use[(frozenset((frm, to)), road)] = {"slots": list(moves), "dir": (frm, to)}
    for other, theirs in orders.items():
        if other != side:
            for standing in theirs.standing:
                update_standing(state, other, standing)
    start_of_day(day)
    combat.resolve_bombardments(day)
    for order in day.orders.of(Assault):
        carry_out(day, order, combat.assault)
    for order in day.orders.orders:
        if isinstance(order, Move):
            carry_out(day, order, movement.move)
        elif isinstance(order, RoadMove):
            carry_out(day, order, movement.road_move)
        elif isinstance(order, Extend):
            carry_out(day, order, movement.extend_order)
        elif isinstance(order, Enter):
            carry_out(day, order, movement.enter)
    movement.forced_returns(day)
    combat.declare_bombardments(day)
    end_of_day(day)
    return day.st, day.events


def carry_out(day: Day, order, action) -> None:
    try:
        action(day, order)
    except Void as why:
        day.void(order, reason(why))


def start_of_day(day: Day) -> None:
    st = day.st
    for side, due in st.bonus_due.items():
        if due:
            st.morale[side] += MORALE_BONUS
            st.bonus_due[side] = False
            day.public("morale", say("The %(side)s army gains %(points)d morale: the enemy was demoralised and "
                                     "it was not (003 §13).", side=adjective(side), points=MORALE_BONUS), side=side)
    for standing in day.orders.standing:
        update_standing(st, day.side, standing)
    if day.side == "france":
        activation(day)
    day.public("day", say("%(whose)s, %(hour)s.", whose=say("Austria's day") if day.side == "austria" else say("France's day"), hour=Clock(day.hour)),
               side=day.side, hour=day.hour)


def hour_text(hour: int) -> str:
    return hour_label(hour)


def activation(day: Day) -> None:
    """§6 step 6: French start blocks move only once activated."""
    st, board = day.st, day.board
    asleep = [b for b in st.side_blocks("france") if not b.activated]
    austrian = st.held_by("austria")
    woken = []
    for b in asleep:
        if any(n in austrian for n in board.adjacent(b.locale)):
            b.activated = True
            woken.append(b)
    if woken:
        day.private("activate", "france", say("Activated by the enemy next to them: %(blocks)s (003 §6 step 6).",
                                              blocks=[day.own(b) for b in woken]))
    allowance = 1 if st.day == 1 else 0
    if any(lid in austrian for lid in st.french_start) or day.hour >= ACTIVATION_HOUR:
        allowance += 2
    for order in day.orders.of(Activate):
        for bid in order.blocks:
            b = st.blocks.get(bid)
            if b is None or b.side != "france" or not b.on_map:
                day.void(order, say("%(block)s is not a French block on the map", block=bid))
            elif b.activated:
                day.private("activate", "france", say("%(block)s is already active.", block=bid))
            elif allowance <= 0:
                day.void(order, say("%(block)s: no activation left this turn (one on the first French turn, two more "
                                    "each turn a French start locale is occupied or from 11 AM, 003 §6 step 6)",
                                    block=bid))
            else:
                allowance -= 1
                b.activated = True
                day.private("activate", "france", say("%(block)s is activated.", block=day.own(b)))


def end_of_day(day: Day) -> None:
    st, sc = day.st, day.sc
    a, f = st.demoralised["austria"], st.demoralised["france"]
    if a != f:  # §13: one army demoralised this turn and the other not
        st.bonus_due["france" if a else "austria"] = True
    st.last_moves = day.moves
    st.day += 1
    if st.day >= sc.days:
        victory(day)


def victory(day: Day) -> None:
    """§14: demoralisation decides; otherwise the objectives."""
    st, board = day.st, day.board
    st.over = True
    a, f = st.demoralised["austria"], st.demoralised["france"]
    if a != f:
        st.winner = "france" if a else "austria"
        loser = "austria" if a else "france"
        said = say("%(side)s wins: the %(loser)s army is demoralised and its own is not.",
                   side=say("Austria") if st.winner == "austria" else say("France"), loser=adjective(loser))
    else:
        held = [lid for lid, loc in board.locales.items() if loc.objective and st.occupied_by(lid, "austria")]
        colours = {board.locales[lid].objective for lid in held}
        names = ", ".join(board.locales[lid].name for lid in held) or "none"
        if len(held) >= 2 and len(colours) >= 2:
            st.winner = "austria"
            said = say("Austria wins on objectives: it holds %(names)s (%(held)d objectives of %(colours)d colours).",
                       names=names, held=len(held), colours=len(colours))
        else:
            st.winner = "france"
            said = say("France wins: Austria holds objectives of fewer than two colours (%(names)s).",
                       names=names if held else say("none"))
    st.victory = str(said)
    day.public("victory", said, winner=st.winner)


__all__ = ["moving_side", "is_over", "resolve_day", "enemy"]
