"""docs/dba-orders.md played (issue 30, §4): every ```orders example, word for word, is sent through the server
(a real SQLite store) as one side's orders on turn 3 of the shipped Quatre Bras scenario and accepted; the
game is then resolved with it, and each dispatch it wrote is on the road, or each initiative taken. The
```refused text is refused with the ```answer shown, word for word. (tests/test_dba_orders_docs.py reads the
same page for the grammar; the rule book's own example, ```steps, names its village X, farm Y and bridge, which
no scenario has, and is read there against the stand-in table.)"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from pbem.games import ruleset
from pbem.server.service import Service
from pbem.server.store import Store

RULES = ruleset("dba")
DOC = (Path(__file__).resolve().parent.parent / "docs" / "dba-orders.md").read_text(encoding="utf-8")
BLOCKS = re.findall(r"```(\w+)\n(.*?)```", DOC, re.S)
EXAMPLES = [text for kind, text in BLOCKS if kind == "orders"]
# the side each example is written for: its first head line's writer (FROM, ОТ, DE, ВІД, 自, INITIATIVE)
FRENCH = {"Ney", "Reille"}


def side_of(text: str) -> str:
    writer = text.split()[1]
    return "french" if writer in FRENCH else "allies"


@pytest.fixture
def turn_three(tmp_path):
    """A Quatre Bras game (one seat a side) on the server at turn 3, every seat having sent FINAL on turns 1
    and 2."""
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    game_id, _ = service.create_game("Orders page", {"french": "ney@example.org", "allies": "duke@example.org"},
                                     game="dba", scenario="dba-quatre-bras.toml", seed=3)
    for _ in range(2):
        for seat in service.game(game_id).turn().seats:
            assert service.submit(game_id, seat, "FINAL\n").ok
        service.resolve_next(game_id, ask=False)
    assert service.game(game_id).state.turn == 3
    return service, game_id


def test_the_page_has_its_examples():
    assert len(EXAMPLES) >= 12 and [kind for kind, _ in BLOCKS].count("refused") == 1


@pytest.mark.parametrize("text", EXAMPLES, ids=[t.splitlines()[0][:40] for t in EXAMPLES])
def test_every_example_is_accepted_and_played_on_turn_three(turn_three, text):
    service, game_id = turn_three
    side = side_of(text)
    result = service.submit(game_id, side, text)
    assert result.ok, "\n".join(str(p) for p in result.problems)
    game = service.game(game_id)
    orders = RULES.check_orders(game.scenario, game.state, side, text)
    for seat in game.turn().seats:
        if seat != side:
            assert service.submit(game_id, seat, "FINAL\n").ok
    service.resolve_next(game_id, ask=False)  # the turn played with the example: nothing in it breaks the turn
    game = service.game(game_id)
    assert game.state.turn == 4
    sent = [c for c in game.state.post.couriers if c.sent == 3]
    assert [c.recipient for c in sent] == [o.recipient.id for o in orders.dispatches]
    assert all(c.sender == o.sender.id for c, o in zip(sent, orders.dispatches))
    for o in orders.initiatives:  # the test is taken on the turn: spent, passed or failed
        assert game.state.table(game.scenario).commanders[o.recipient.id].initiative_used


def test_the_refused_example_gets_the_answer_shown(turn_three):
    service, game_id = turn_three
    (refused,) = [text for kind, text in BLOCKS if kind == "refused"]
    (answer,) = [text for kind, text in BLOCKS if kind == "answer"]
    result = service.submit(game_id, "allies", refused)
    assert not result.ok
    assert "\n".join(str(p) for p in result.problems) == answer.strip()
