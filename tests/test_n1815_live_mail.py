"""Napoleon 1815's live battle mode by mail, played to its end with every battle choice a player's (issue 29,
§2): a two- and a three-player game (``pbem demo``'s bots answer each mail by SMTP), in which each round
sub-turn's orders give every block of the seat's army on a battle board its order. Both finish, and the
finished game's export verifies. (Apart from tests/test_n1815_server.py so that the suite's two workers, each
taking a file whole, share these long games.)

The suite plays the three-player game, whose every seat is mailed round sub-turns; the two-player one is the
longer run (``PBEM_LONG=1``, or ``pbem demo --game napoleon1815 --option players=2 --option battle=live``).
The maps are not these tests' matter (tests/test_demo.py and tests/test_storage.py mail drawn maps): each
report carries a one-pixel PNG in their place (``run_demo(draw_maps=False)``), the mails and the game the same."""

from __future__ import annotations

import os

import pytest

from pbem.core.verify import verify
from pbem.games import ruleset
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.demo import run_demo

LONG = os.environ.get("PBEM_LONG") == "1"

RULES = ruleset("napoleon1815")


@pytest.mark.parametrize("players, seed", [("2", 3), ("3", 1)] if LONG else [("3", 1)])
def test_a_live_game_by_mail_to_its_end_with_every_block_ordered_each_round(tmp_path, players, seed):
    """The live mode by mail (issue 29, §2): every round a sub-turn mailed to the seats with blocks in it,
    each answering with an order for every block of its army on the battle board (the bot's round orders)."""
    out = tmp_path / "demo"
    summary = run_demo(out, seed=seed, game="napoleon1815", options={"players": players, "battle": "live"},
                       day_seconds=120, timeout=1500, draw_maps=False)
    assert not summary.problems, summary.problems
    service = Service(Store(out / "instance" / "pbem.sqlite3"))
    assert service.info(summary.game_id)["status"] == "finished"
    game = service.game(summary.game_id)
    played = [r for d in game.days for r in d.decisions if r.decision.kind == "round"]
    assert played and {r.source for r in played} == {"orders"}
    assert players == "2" or {r.decision.side for r in played} == {"french", "anglo-dutch", "prussian"}
    assert verify(service.export(summary.game_id), RULES, game.scenario) == []
