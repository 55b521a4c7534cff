"""Napoleon 1815's state copy (issue 15: the driver copies the position every turn): the flat fields copied as
dicts and lists, the nested ones (a pending battle, the bid, the auction) deep-copied; every position of games
with live battles and with the auction copies to an equal state sharing nothing mutable."""

from __future__ import annotations

import copy

import pytest

from pbem.games import ruleset
from pbem.tools.selfplay import play
from test_replay_speed import mutable_ids


@pytest.mark.parametrize("options", [{"battle": "live"}, {"bid": "auction", "players": "3"}])
def test_every_position_copies_to_an_equal_state_sharing_nothing(options):
    rules = ruleset("napoleon1815")
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    game = play(rules, scenario, 4, random_decisions=True, options=options)
    states = [game.initial] + [day.after for day in game.days]
    assert any(s.pending or s.auction is not None for s in states)  # the nested fields are there too
    assert any(s.broken or s.last_moves for s in states)
    for state in states:
        copied = copy.deepcopy(state)
        assert copied == state and copied.digest() == state.digest() and set(vars(copied)) == set(vars(state))
        assert not mutable_ids(copied) & mutable_ids(state)
