"""How to win (000 §19).

A demoralised army loses at once: the other wins a decisive victory
(morale.demoralise). Otherwise, after the French turn of the last hour,
Austria wins a minor victory with at least three blocks east of the
objective line (T49), France otherwise.
"""

from __future__ import annotations

from .turn import Turn
from pbem.lang import say, say_plural

EAST_BLOCKS = 3  # «принаймні 3 фігури на схід від цільової межі»


def east_of_line(turn_or_state, scenario) -> int:
    st = getattr(turn_or_state, "st", turn_or_state)
    return sum(1 for b in st.side_blocks("austria") if b.locale in scenario.terrain.east_of_line)


def end_of_game(turn: Turn) -> None:
    st = turn.st
    st.over = True
    n = east_of_line(st, turn.sc)
    if n >= EAST_BLOCKS:
        st.winner = "austria"
        said = say_plural("Austria wins a minor victory: %(num)d Austrian block stands east of the objective line at 9 PM.",
                          "Austria wins a minor victory: %(num)d Austrian blocks stand east of the objective line at 9 PM.",
                          n)
    else:
        st.winner = "france"
        said = say_plural("France wins a minor victory: only %(num)d Austrian block(s) stand east of the objective "
                          "line at 9 PM (Austria needs %(need)d).", "France wins a minor victory: only %(num)d "
                          "Austrian block(s) stand east of the objective line at 9 PM (Austria needs %(need)d).", n,
                          need=EAST_BLOCKS)
    st.victory = str(said)
    turn.public("victory", said, winner=st.winner)
