"""An order's formation is judged by the brigade's troops as the order of battle made it, not by the elements
still standing (found by 500 self-play games of the kriegsspiel, issue 30: at Quatre Bras, seed 4, turn 10, Ney's
bot wrote `DEPLOY IN COLUMN` to Guiton's cuirassiers, all of whose elements were gone, and the server refused it:
"no element of Guiton's cuirassiers (Kellermann) can form column"). A general does not know his brigade is gone
until a report tells him; the server refusing his order would tell him, and the game stopped. Cavalry in square
is still refused: no trooper of that brigade ever could."""

from __future__ import annotations

import pytest

from pbem.core.game import Game
from pbem.core.orders import OrdersError
from pbem.games import ruleset

RULES = ruleset("dba")
SCENARIO = RULES.load_scenario(RULES.scenarios()["dba-quatre-bras"])


def without(game: Game, brigade: str, troop: str | None = None) -> None:
    """The brigade's elements (of that troop) taken off the table, as destroyed or fled."""
    for eid in [e.id for e in game.state.elements.values() if e.brigade == brigade
                and (troop is None or e.troop == troop)]:
        del game.state.elements[eid]
        game.state.gone.append(eid)


@pytest.mark.parametrize("options", [{}, {"command": "kriegsspiel"}], ids=["commanders", "kriegsspiel"])
def test_a_formation_its_troops_took_is_accepted_when_they_are_gone(options):
    game = Game(RULES, SCENARIO, 1, options=options)
    seat = "french" if not options else "reille"
    without(game, "husson")
    orders = RULES.check_orders(SCENARIO, game.state, seat, "FROM Reille TO Husson\nDEPLOY IN COLUMN\n")
    assert [o.steps[0].formation for o in orders.dispatches] == ["column"]
    seat = "allies" if not options else "orange"
    without(game, "bijlandt", "light_artillery")  # the battery gone, the battalions standing
    orders = RULES.check_orders(SCENARIO, game.state, seat, "FROM Orange TO Bijlandt\nDEPLOY UNLIMBERED\n")
    assert [o.steps[0].formation for o in orders.dispatches] == ["unlimbered"]


def test_a_formation_none_of_its_troops_ever_took_is_still_refused():
    game = Game(RULES, SCENARIO, 1)
    without(game, "hubert")
    with pytest.raises(OrdersError, match="no element of Hubert's lancers \\(Piré\\) can form square"):
        RULES.check_orders(SCENARIO, game.state, "french", "FROM Ney TO Hubert\nHOLD IN SQUARE\n")
