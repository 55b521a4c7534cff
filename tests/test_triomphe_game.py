"""Triomphe à Marengo through the engine core's driver: orders, "ask me" decisions, replay."""

from pathlib import Path

import pytest

import pbem.games.triomphe as triomphe
from pbem.core.decisions import Pending
from pbem.core.game import Game
from pbem.games.triomphe.scenario import load_scenario

SCENARIO = Path(__file__).parent.parent / "maps" / "triomphe.toml"


@pytest.fixture()
def game():
    return Game(triomphe, load_scenario(SCENARIO), 1)


def test_the_interface(game):
    assert triomphe.NAME == "triomphe" and triomphe.TITLE == "Triomphe à Marengo"
    assert triomphe.SIDES == ("austria", "france")
    assert game.moving_side() == "austria"
    view = game.view("france")
    assert {"over", "winner", "victory"} <= set(view)
    assert view["uncommitted"] == {"austria": 0, "france": 3}


def test_a_decision_asked_waits_for_its_answer(game):
    """A cavalry road attack on Pedrabona at 6 AM: France cannot respond then (000 §14), so the
    first decision France is asked is where its blocks retreat; asked, the turn waits."""
    start = game.state
    french = [b.id for b in start.blocks.values() if b.side == "france" and b.locale == "pedrabona"]
    assert french
    game.submit("austria", "ENTER A1 -> Pedrabona")
    with pytest.raises(Pending) as pending:
        game.advance(ask=lambda d: d.side == "france")
    decision = pending.value.decision
    assert decision.kind in ("retreat", "retreat_loss")
    game.answer(0, pending.value.index, (decision.options[-1],), by="player")
    result = game.advance(ask=lambda d: False)
    assert any(r.source == "log" for r in result.decisions)
    again = Game(triomphe, game.scenario, 1, game.log)
    assert again.state.digest() == game.state.digest()
