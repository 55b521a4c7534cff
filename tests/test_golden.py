"""Bonaparte at Marengo plays exactly as it did: twenty self-play games (random decisions),
their logs and every day's position, recorded in tests/fixtures/marengo-golden.json
when the game moved onto the ruleset interface (and checked then against 300 games,
their reports and maps, of the code before). A change that alters any game fails here;
if the change is meant, say why in its commit and record the games again."""

import hashlib
import json
from pathlib import Path

from pbem.core.game import Game
from pbem.games import ruleset
from pbem.tools.selfplay import play

GOLDEN = json.loads((Path(__file__).parent / "fixtures" / "marengo-golden.json").read_text())


def test_twenty_games_play_and_replay_exactly_as_recorded():
    rules = ruleset("marengo")
    scenario = rules.load_scenario(rules.scenarios()["marengo"])
    for seed, want in GOLDEN.items():
        game = play(rules, scenario, int(seed), random_decisions=True)
        log = hashlib.sha256(json.dumps(game.log, sort_keys=True).encode()).hexdigest()[:16]
        days = " ".join(d.after.digest() for d in Game(rules, scenario, int(seed), game.log).days)
        assert (log, hashlib.sha256(days.encode()).hexdigest()[:16], game.view(None)["winner"]) == \
            (want["log"], want["days"], want["winner"]), f"seed {seed} plays differently"
