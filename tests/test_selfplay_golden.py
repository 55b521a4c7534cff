"""Self-play plays exactly as it did: a few games of each Marengo-family game and Napoleon 1815
between the simple bots (seeds 1 and 2 as ``pbem bench`` plays them, decisions left to their
defaults; seed 3 with random decisions, as ``pbem selfplay``), their logs, every day's position
and the winner, recorded in tests/fixtures/selfplay-golden.json from the code before the bots'
checks were made cheaper (issue 15). A change in what a bot orders, or in how a day is
resolved, fails here; if it is meant, say why in its commit and record again:
``python tests/test_selfplay_golden.py --record``. (Marengo's twenty games with random
decisions: tests/test_golden.py.)"""

import hashlib
import json
import sys
from pathlib import Path

import pytest

from pbem.games import ruleset
from pbem.tools.selfplay import play

FIXTURE = Path(__file__).parent / "fixtures" / "selfplay-golden.json"
GAMES = ("marengo", "triomphe", "napoleon1815")
SEEDS = ((1, False), (2, False), (3, True))  # (seed, random decisions)


def fingerprint(name: str, seed: int, random_decisions: bool) -> dict:
    rules = ruleset(name)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    game = play(rules, scenario, seed, random_decisions=random_decisions)
    log = hashlib.sha256(json.dumps(game.log, sort_keys=True).encode()).hexdigest()[:16]
    days = hashlib.sha256(" ".join(rules.digest(d.after) for d in game.days).encode()).hexdigest()[:16]
    return {"log": log, "days": days, "winner": game.view(None)["winner"], "length": len(game.days)}


@pytest.mark.parametrize("name", GAMES)
def test_the_bots_play_as_recorded(name):
    want = json.loads(FIXTURE.read_text())[name]
    for seed, random_decisions in SEEDS:
        key = f"{seed}{' random' if random_decisions else ''}"
        assert fingerprint(name, seed, random_decisions) == want[key], f"{name} seed {key} plays differently"


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:
    FIXTURE.write_text(json.dumps({name: {f"{seed}{' random' if r else ''}": fingerprint(name, seed, r)
                                          for seed, r in SEEDS} for name in GAMES}, indent=1) + "\n")
    print(f"recorded {FIXTURE}")
