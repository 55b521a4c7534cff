"""The platform: the ruleset interface, seats, simultaneous orders, dice anyone can audit,
finished games' exports and ``pbem verify``.

A toy game written here against pbem.core.ruleset (three seats on two sides, every
seat's orders at once, a die a turn) shows the engine core needs nothing of
Bonaparte at Marengo; the real game shows the server and the CLI end to end."""

from __future__ import annotations

import copy
import json
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

import pytest

from pbem.core.chance import Chance, derive
from pbem.core.events import Event
from pbem.core.game import Game
from pbem.core.orders import Header, OrdersError, Problem
from pbem.core.ruleset import Ruleset, Seat, Turn
from pbem.core.verify import export_game, verify
from pbem.games import UnknownGame, ruleset, rulesets

ROOT = Path(__file__).parent.parent


@dataclass
class RaceState:
    turn: int = 0
    track: dict = field(default_factory=lambda: {"red": 0, "blue": 0, "green": 0})

    def digest(self) -> str:
        return json.dumps([self.turn, sorted(self.track.items())])


@dataclass
class RaceOrders:
    header: Header
    steps: int
    final: bool = False

    def echo(self) -> str:
        return f"RUN {self.steps}"


class Race:
    """Three runners, two teams: each turn every runner orders RUN 1-3, and a die decides
    whether he stumbles (a 1 halves his run). First past 10 wins his team the game."""

    name = "race"
    title = "The race"
    mail_words = frozenset({"RUN"})
    ask_kinds = {}

    def seats(self, scenario, options):
        return (Seat("red", "reds", "Red"), Seat("blue", "blues", "Blue"), Seat("green", "reds", "Green"))

    def setup(self, scenario, options, chance):
        state = RaceState()
        state.track["blue"] = chance.stream("setup").below(2)  # a head start, by the seed
        return state

    def turn(self, scenario, state):
        return Turn(("red", "blue", "green"), f"turn {state.turn + 1}")

    def turn_label(self, scenario, n, *, lang: str = "en"):
        return f"turn {n + 1}"

    def is_over(self, scenario, state):
        return max(state.track.values()) >= 10

    def parse_orders(self, scenario, state, seat, text):
        lines = [line.strip() for line in text.splitlines() if line.strip() and not line.startswith("GAME")]
        final = "FINAL" in lines
        words = " ".join(line for line in lines if line != "FINAL").split()
        if len(words) != 2 or words[0] != "RUN" or words[1] not in ("1", "2", "3"):
            raise OrdersError([Problem(1, 1, "expected RUN 1, RUN 2 or RUN 3", text)])
        return RaceOrders(Header(), int(words[1]), final)

    def check_orders(self, scenario, state, seat, text, *, lang: str = "en"):
        return self.parse_orders(scenario, state, seat, text)

    def resolve(self, scenario, state, orders, decider, chance):
        events = []
        for seat in ("red", "blue", "green"):
            steps = orders[seat].steps if seat in orders else 1
            if chance.roll(f"{seat} stumbles on a 1", seen_by=(seat,)) == 1:
                steps //= 2
            state.track[seat] += steps
            events.append(Event("run", f"{seat} runs {steps}", owner=seat, seen=f"{seat} ran",
                                witnesses=("red", "green") if seat != "blue" else None))
        state.turn += 1
        return state, events

    def view(self, scenario, state, seat):
        return {"over": self.is_over(scenario, state), "winner": None, "victory": "", "track": dict(state.track)}

    def digest(self, state):
        return state.digest()


def race_game(seed: int = 5) -> Game:
    game = Game(Race(), None, seed)
    while not game.over:
        for seat in game.turn().seats:
            game.submit(seat, f"RUN {1 + (game.day + len(seat)) % 3}")
        game.advance()
    return game


def test_every_installed_game_has_every_member_of_the_interface():
    for rules in rulesets().values():
        assert isinstance(rules, Ruleset), rules.name


def test_three_seats_owe_orders_at_once_and_every_die_is_recorded():
    game = race_game()
    assert game.seats() == ("red", "blue", "green")
    first = game.days[0]
    assert first.seats == ("red", "blue", "green")
    assert [r.purpose for r in first.rolls] == ["red stumbles on a 1", "blue stumbles on a 1", "green stumbles on a 1"]
    assert all(1 <= r.value <= 6 for d in game.days for r in d.rolls)
    # each die is an event; a seat's own die is told to that seat only
    rolls = [e for e in first.events if e.kind == "roll"]
    assert [e.text for e in rolls] == [f"Die for {r.purpose}: {r.value}" for r in first.rolls]
    assert rolls[0].for_side("red") is not None and rolls[0].for_side("blue") is None


def test_events_are_seen_per_seat():
    game = race_game()
    runs = [e for e in game.days[0].events if e.kind == "run"]
    red, blue = runs[0], runs[1]
    assert red.for_side("red")[0].startswith("red runs")
    assert red.for_side("green") == ("red ran", {})  # a witness
    assert red.for_side("blue") is None  # not a witness
    assert blue.for_side("red") == ("blue ran", {})  # no witness list: every other seat


def test_the_dice_are_fixed_by_the_seed_and_replay():
    one, two = race_game(5), race_game(5)
    assert [[r.value for r in d.rolls] for d in one.days] == [[r.value for r in d.rolls] for d in two.days]
    again = Game(Race(), None, 5, one.log)
    assert [d.after.digest() for d in again.days] == [d.after.digest() for d in one.days]
    assert [[r.value for r in d.rolls] for d in race_game(6).days] != [[r.value for r in d.rolls] for d in one.days]


def test_named_streams_are_independent_and_setup_is_the_seed_itself():
    from pbem.core.rng import Rng

    assert Chance(9).stream("setup").next64() == Rng(9).next64()  # games made before streams replay unchanged
    assert Chance(9).stream("a").next64() != Chance(9).stream("b").next64()
    assert Chance(9).for_turn(3).stream("a").next64() != Chance(9).stream("a").next64()
    assert derive(9, "x") == derive(9, "x") != derive(10, "x")


def test_a_case_fixes_its_dice_in_order():
    chance = Chance(3, turn=0, fixed=[1, 6])
    assert [chance.roll("a"), chance.roll("b"), chance.roll("c")][:2] == [1, 6]
    assert [r.purpose for r in chance.rolls] == ["a", "b", "c"]
    with pytest.raises(ValueError, match="die 1 \\(x\\) is fixed at 7, but it has 6 sides"):
        Chance(3, fixed=[7]).roll("x")
    state, _ = Race().resolve(None, RaceState(), {}, None, Chance(3, 0, fixed=[1, 2, 1]))
    assert state.track == {"red": 0, "blue": 1, "green": 0}  # a 1 halves the default run of 1


def exported(game: Game) -> dict:
    return json.loads(json.dumps(export_game(game, scenario="none", scenario_sha256="0" * 64, salt="pepper")))


def test_an_export_verifies_and_each_tampering_is_found_with_its_day():
    game = race_game()
    export = exported(game)
    assert verify(export, Race(), None) == []

    roll = copy.deepcopy(export)
    roll["days"][2]["rolls"][1]["value"] = 7 - roll["days"][2]["rolls"][1]["value"]
    found = verify(roll, Race(), None)
    assert found and found[0].startswith("day 2 (turn 3): roll 2 recorded as")

    order = copy.deepcopy(export)
    entry = next(e for e in order["log"] if e["kind"] == "orders" and e["day"] == 1 and e["side"] == "blue")
    entry["text"] = "RUN 3" if entry["text"] != "RUN 3" else "RUN 1"
    found = verify(order, Race(), None)
    assert any(p.startswith("day 1 (turn 2): the position after the day differs") for p in found)
    assert not any(p.startswith("day 0 ") for p in found)

    result = copy.deepcopy(export)
    result["days"][4]["digest"] = "forged"
    assert verify(result, Race(), None) == ["day 4 (turn 5): the position after the day differs from the record "
                                            f"(recorded forged, replayed {export['days'][4]['digest']})"]

    seed = copy.deepcopy(export)
    seed["seed"] += 1
    assert "the seed and salt do not match the commitment published at the start" in verify(seed, Race(), None)


def test_the_registry_finds_the_games_by_name():
    assert "marengo" in rulesets()
    assert ruleset("marengo").title == "Bonaparte at Marengo"
    with pytest.raises(UnknownGame, match="no game called 'chess'"):
        ruleset("chess")


def run(args, **kw):
    return subprocess.run([sys.executable, "-m", "pbem.cli", *args], capture_output=True, text=True, cwd=ROOT, **kw)


def test_pbem_games_lists_the_games():
    out = run(["games"]).stdout
    assert "marengo: Bonaparte at Marengo" in out
    assert "seats: austria, france" in out and "bots: bot, strategist" in out


def test_an_unknown_game_is_a_clear_error():
    result = run(["selfplay", "--game", "chess"])
    assert result.returncode == 2 and "no game called 'chess'" in result.stderr and "Traceback" not in result.stderr


def finished_game(tmp_path):
    """A game of Bonaparte at Marengo played to its end through the service, on a real database."""
    from pbem.server.service import Service
    from pbem.server.store import Store

    service = Service(Store(tmp_path / "pbem.sqlite3"))
    game_id, _ = service.create_game("Verified", {"austria": "a@x.invalid", "france": "f@x.invalid"}, seed=4)
    bot = ruleset("marengo").bots()["bot"]
    while True:
        game = service.game(game_id)
        if game.over:
            return service, game_id
        seat = game.turn().seats[0]
        assert service.submit(game_id, seat, bot.orders(game.scenario, game.view(seat), 4)).ok
        service.resolve_next(game_id)


def test_the_seed_is_committed_at_the_start_and_revealed_at_the_end(tmp_path):
    from pbem.core.verify import commitment_of
    from pbem.server.service import ServiceError

    service, game_id = finished_game(tmp_path)
    info = service.info(game_id)
    welcome = service.store.mails("WHERE kind = 'welcome'")
    assert welcome and all(service.commitment(game_id) in row["body"] for row in welcome)
    assert all(str(info["seed"]) not in row["body"].split("commitment")[0][-40:] for row in welcome)
    assert service.commitment(game_id) == commitment_of(info["seed"], info["salt"])
    other, _ = service.create_game("Running", {"austria": "a@x.invalid", "france": "f@x.invalid"})
    with pytest.raises(ServiceError, match="seed stays secret"):
        service.export(other)


def test_pbem_verify_checks_a_finished_games_export_and_names_the_tampered_day(tmp_path):
    service, game_id = finished_game(tmp_path)
    export = service.export(game_id)
    assert len(export["days"]) == 32 and export["ruleset"] == "marengo"
    good = tmp_path / "game.json"
    good.write_text(json.dumps(export))
    result = run(["verify", str(good)])
    assert result.returncode == 0 and "verified" in result.stdout, result.stdout + result.stderr

    tampered = copy.deepcopy(export)
    entry = next(e for e in tampered["log"] if e["kind"] == "orders" and e["day"] == 6)
    entry["text"] = "\n".join(line for line in entry["text"].splitlines() if not line.startswith(("MOVE", "ROAD")))
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(tampered))
    result = run(["verify", str(bad)])
    assert result.returncode == 1 and "does NOT verify" in result.stdout
    assert "day 6 (9AM (Austria's day)): the position after the day differs" in result.stdout, result.stdout


def test_the_game_commands_take_the_games_options():
    result = run(["selfplay", "--game", "napoleon1815", "--option", "players=3", "--games", "1"])
    assert result.returncode == 0 and "1 games" in result.stdout, result.stderr
    wrong = run(["selfplay", "--game", "napoleon1815", "--option", "players=4"])
    assert wrong.returncode == 2 and "players=2|3" in wrong.stderr and "Traceback" not in wrong.stderr


def test_selfplay_replay_plays_every_scenario_in_turn_and_replays_each_game():
    result = run(["selfplay", "--game", "triomphe", "--scenario", "all", "--replay", "--games", "2"])
    assert result.returncode == 0, result.stdout + result.stderr
    assert "triomphe seed 1: " in result.stdout and "triomphe seed 2: " in result.stdout
    assert "2 games, " in result.stdout and "0 problem(s)" in result.stdout
