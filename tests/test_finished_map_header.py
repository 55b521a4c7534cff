"""A finished game's map says how it ended once, and no round past the last (issue 33: "round 17 of 16" and
"France wins (France wins: ...)" on a finished map)."""

from __future__ import annotations

import re

import pytest

from pbem.games import ruleset
from pbem.tools.selfplay import play


@pytest.mark.parametrize("name", ["marengo", "triomphe"])
def test_the_finished_map_header(name):
    rules = ruleset(name)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    game = play(rules, scenario, seed=3)
    assert game.over
    for seat in [None, *[s.id for s in rules.seats(scenario, {})]]:
        svg = rules.render_svg(scenario, game.view(seat), lang="en")
        text = " ".join(re.sub(r"<[^>]+>", " ", svg).split())
        rounds = [(int(a), int(b)) for a, b in re.findall(r"round (\d+) of (\d+)", text)]
        assert all(a <= b for a, b in rounds), rounds
        over = re.search(r"game over: [^·]*", text)
        assert over, text[:300]
        assert len(re.findall(r"\bwins\b", over.group(0))) <= 1, over.group(0)
