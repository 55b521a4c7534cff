"""Survivors of scripts/mutation's marengo sample killed where a case cannot reach (docs/testing.md).

The adjudication cases check a day's position and events; the order check's warnings
(pbem/games/marengo/checks.py) are read here, word for word.
"""

from __future__ import annotations

from test_checks import check


def test_a_road_move_stopping_short_is_warned_with_the_whole_reason():
    # checks.x_Checker_check_move__mutmut_147 (the warning's text dropped) survived every test; its
    # look showed the reason's closing parenthesis cut off (rstrip(").") took both of "§9))."), now fixed
    warned = check("outsider-road-stop-short", "ROAD A1 Aville -> Bville -> Cville -> Dville").warnings
    assert warned == ["line 1: ROAD A1 Aville -> Bville -> Cville -> Dville — as the position stands it stops "
                      "short: Dville is occupied by the enemy (only cavalry attacks along a road, 003 §9)"]
