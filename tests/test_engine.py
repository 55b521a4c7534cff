"""The engine core (pbem/core/game.py) driving Bonaparte at Marengo.

Whole games are played by the bot (pbem.games.marengo.bot) on the small test
scenario, through the Game driver: a game is a scenario, a seed and a log, and
everything else must follow from them alone.
"""

from __future__ import annotations

from pbem.core.chance import Chance

import re
from pathlib import Path

import pytest

from pbem.core.decisions import Decider, Pending
from pbem.core.game import Game
from pbem.games import rulesets
from pbem.games.marengo.bot import bot_orders
from pbem.games.marengo.cases import case_board, case_position, load_case
from pbem.games.marengo.parse import parse_orders
from pbem.games.marengo.rules import resolve_day

ROOT = Path(__file__).resolve().parent.parent
SCENARIO = Path(__file__).parent / "fixtures" / "small.toml"
SEEDS = (1, 2, 3)


@pytest.fixture(scope="module")
def ruleset():
    return rulesets()["marengo"]


@pytest.fixture(scope="module")
def scenario(ruleset):
    return ruleset.load_scenario(SCENARIO)


def new_game(ruleset, scenario, seed, log=None) -> Game:
    return Game(ruleset, scenario, seed, log=log)


def play_day(game: Game, seed: int, ask=None):
    """The bot writes the moving side's orders; the day is resolved and logged."""
    side = game.turn().seats[0]
    game.submit(side, bot_orders(game.scenario, game.view(side), seed))
    return game.advance(ask) if ask else game.advance()


def play_out(game: Game, seed: int) -> Game:
    while not game.over:
        play_day(game, seed)
    return game


def digests(game: Game) -> list[str]:
    return [d.after.digest() for d in game.days]


def start_positions(state) -> dict[str, str]:
    return {b.id: b.locale for b in state.blocks.values() if b.side == "france" and b.locale}


# -- replaying the log --------------------------------------------------------------


@pytest.mark.parametrize("seed", SEEDS)
def test_replaying_the_log_rebuilds_every_day(ruleset, scenario, seed):
    game = play_out(new_game(ruleset, scenario, seed), seed)
    assert game.over and game.state.winner in ("austria", "france")
    assert len(game.days) == scenario.days

    again = new_game(ruleset, scenario, seed, log=game.log)
    assert len(again.days) == len(game.days)
    assert digests(again) == digests(game)
    assert [d.before.digest() for d in again.days] == [d.before.digest() for d in game.days]
    assert again.state.winner == game.state.winner
    # the events of each day, as each side saw them, are rebuilt too
    for old, new in zip(game.days, again.days):
        assert [e.to_dict() for e in old.events] == [e.to_dict() for e in new.events]


def test_replay_does_not_depend_on_the_first_game_object(ruleset, scenario):
    """A replay starts from the scenario and the seed, not from a cached state."""
    game = play_out(new_game(ruleset, scenario, 5), 5)
    first = digests(game)
    game.replay()
    assert digests(game) == first


# -- the seed -------------------------------------------------------------------------


def test_same_seed_and_orders_give_the_same_game(ruleset, scenario):
    a = play_out(new_game(ruleset, scenario, 7), 7)
    b = new_game(ruleset, scenario, 7)
    for day in a.days:
        b.submit(day.seats[0], a.orders_text(day.day, day.seats[0]))
        b.advance()
    assert digests(b) == digests(a)
    assert b.initial.digest() == a.initial.digest()


def test_the_seed_draws_the_french_start_positions(ruleset, scenario):
    """003 §6 (4): the French start blocks are drawn at random onto the start locales."""
    same = [start_positions(ruleset.setup(scenario, {}, Chance(11))) for _ in range(2)]
    assert same[0] == same[1]
    draws = {tuple(sorted(start_positions(ruleset.setup(scenario, {}, Chance(seed))).items())) for seed in range(12)}
    assert len(draws) >= 6, "twelve seeds should give several different draws"
    # every draw fills the start locales exactly as the map says
    seats = {lid: loc.french_start for lid, loc in scenario.board.locales.items() if loc.french_start}
    for seed in range(12):
        placed: dict[str, int] = {}
        for locale in start_positions(ruleset.setup(scenario, {}, Chance(seed))).values():
            placed[locale] = placed.get(locale, 0) + 1
        assert placed == seats


def test_different_seeds_give_different_games(ruleset, scenario):
    a = play_out(new_game(ruleset, scenario, 1), 1)
    b = play_out(new_game(ruleset, scenario, 2), 2)
    assert a.initial.digest() != b.initial.digest()
    assert digests(a) != digests(b)


# -- rewinding -----------------------------------------------------------------------------


@pytest.mark.parametrize("back_to", [0, 3, 7])
def test_rewind_then_replay_gives_the_same_states(ruleset, scenario, back_to):
    game = play_out(new_game(ruleset, scenario, 3), 3)
    before = digests(game)
    game.rewind(back_to)
    assert len(game.days) == back_to
    assert digests(game) == before[:back_to]
    while not game.over:  # the orders of the undone days are still in the log
        game.advance()
    assert digests(game) == before


def test_a_game_ended_outside_the_rules_is_over_in_its_log_and_a_rewind_undoes_it(ruleset, scenario):
    game = new_game(ruleset, scenario, 3)
    for _ in range(3):
        play_day(game, 3)
    game.end("austria", "France forfeits.")
    assert game.over and game.ended["winner"] == "austria"
    with pytest.raises(Exception, match="over"):
        game.advance()
    again = new_game(ruleset, scenario, 3, game.log)  # the log alone says it: replay stops there
    assert again.over and len(again.days) == 3 and digests(again) == digests(game)
    view = again.view("france")
    assert view["over"] and view["winner"] == "austria" and view["victory"] == "France forfeits."
    assert not again.view("france", 1)["over"]  # the days before it are shown as they were
    assert again.view("france", 2)["over"]  # the last day played reports the end
    again.rewind(2)  # a moderator's ruling on an earlier day undoes the end
    assert not again.over and again.ended is None
    play_out(again, 3)
    assert again.over and again.ended is None and again.view(None)["winner"] in ("austria", "france")


def flippable(record):
    """A legal answer to a recorded decision other than the one given, or None."""
    decision = record.decision
    if decision.min == 0 and record.answer:
        return ()
    for key in decision.options:
        if (key,) != tuple(record.answer) and decision.problem((key,)) is None:
            return (key,)
    return None


def test_a_moderator_answer_for_a_past_day_changes_it_after_rewind(ruleset, scenario):
    seed = 1
    game = new_game(ruleset, scenario, seed)
    found = None
    while not game.over and found is None:
        result = play_day(game, seed)
        for record in result.decisions:
            alt = flippable(record)
            if alt is None:
                continue
            trial = new_game(ruleset, scenario, seed, log=game.log)
            trial.answer(result.day, record.index, alt, by="moderator", why="test")
            trial.rewind(result.day)  # undoes the day; its orders stay in the log
            trial.advance()
            if trial.days[result.day].after.digest() != result.after.digest():
                found = (result, record, alt)
                break
    assert found is not None, "no decision in the game could be answered otherwise"
    result, record, alt = found
    original = result.after.digest()
    earlier = digests(game)[: result.day]

    game.answer(result.day, record.index, alt, by="moderator", why="a ruling")
    assert game.log[-1]["by"] == "moderator"
    game.rewind(result.day)
    assert len(game.days) == result.day
    game.advance()  # the day again, with its orders and the ruling
    redone = game.days[result.day]
    assert redone.after.digest() != original
    ruled = redone.decisions[record.index]
    assert ruled.source == "log" and tuple(ruled.answer) == tuple(alt)
    # the days before are untouched, and the game goes on from the new position
    assert digests(game)[: result.day] == earlier
    play_out(game, seed)
    assert game.over
    # and the whole log, ruling included, replays to the same game
    assert digests(new_game(ruleset, scenario, seed, log=game.log)) == digests(game)


# -- decisions a side wants to answer itself --------------------------------------------------


def test_a_side_that_asks_to_be_asked_stops_resolution(ruleset, scenario):
    seed = 1

    def ask(decision):
        return decision.side == "france"

    plain = play_out(new_game(ruleset, scenario, seed), seed)
    game = new_game(ruleset, scenario, seed)
    asked = []
    while not game.over:
        side = game.turn().seats[0]
        game.submit(side, bot_orders(game.scenario, game.view(side), seed))
        while True:
            try:
                game.advance(ask)
                break
            except Pending as pending:
                assert pending.decision.side == "france"
                assert pending.decision.kind in str(pending) and f"decision {pending.index}" in str(pending)
                assert game.pending is pending
                day = game.day  # nothing was resolved
                asked.append((day, pending.index, pending.decision.kind))
                game.answer(day, pending.index, pending.decision.default, by="player")
    assert asked, "France was never asked anything: the test game is too quiet"
    # answering every question with its default gives the game played without asking
    assert digests(game) == digests(plain)
    for day, index, kind in asked:
        record = game.days[day].decisions[index]
        assert record.decision.kind == kind and record.source == "log"


def test_pending_names_the_decision_and_changes_nothing(ruleset, scenario):
    seed = 1
    game = new_game(ruleset, scenario, seed)
    while not game.over:
        side = game.turn().seats[0]
        game.submit(side, bot_orders(game.scenario, game.view(side), seed))
        before = game.state.digest()
        try:
            game.advance(lambda d: d.side == "france")
        except Pending as pending:
            assert game.state.digest() == before
            assert game.log[-1]["kind"] == "orders"
            assert pending.decision.question and pending.decision.options is not None
            assert re.search(rf"decision {pending.index} \({pending.decision.kind}\) awaits france", str(pending))
            return
    pytest.fail("France was never asked anything")


# -- the end-of-day morale check (003 §13) ---------------------------------------------------


def test_the_demoralisation_bonus_is_due_after_the_day_and_given_the_next(tmp_path):
    """003 §13: the army not demoralised gets +5 «au début du tour suivant»."""
    case = Path(__file__).parent / "cases" / "marengo" / "morale-demoralised-at-zero.toml"
    data = load_case(case)
    board = case_board(data, case)
    sc, st = case_position(data, board, case)
    orders = {"austria": parse_orders(sc, st, "austria", data["orders"]["austria"])}
    after, _ = resolve_day(sc, st, orders, Decider())
    assert after.demoralised == {"austria": False, "france": True}
    assert after.morale["austria"] == 9 and after.bonus_due["austria"] is True
    nxt, events = resolve_day(sc, after, {}, Decider())
    assert nxt.morale["austria"] == 14
    assert any("gains 5 morale" in e.text for e in events)


# -- no hidden inputs ---------------------------------------------------------------------


FORBIDDEN = [
    (re.compile(r"^\s*(import|from)\s+random\b", re.M), "the global random module"),
    (re.compile(r"\brandom\.(random|randint|choice|shuffle|sample|seed|randrange|uniform)\b"), "the global random module"),
    (re.compile(r"^\s*(import|from)\s+time\b", re.M), "the wall clock"),
    (re.compile(r"\btime\.(time|time_ns|monotonic|perf_counter|localtime|gmtime|strftime|ctime)\b"), "the wall clock"),
    (re.compile(r"\bdatetime\b"), "the wall clock"),
]


@pytest.mark.parametrize("package", ["pbem/core", "pbem/games"])
def test_the_engine_uses_no_clock_and_no_global_random(package):
    sources = sorted((ROOT / package).rglob("*.py"))
    assert sources
    found = []
    for path in sources:
        text = path.read_text(encoding="utf-8")
        for pattern, what in FORBIDDEN:
            for m in pattern.finditer(text):
                line = text.count("\n", 0, m.start()) + 1
                found.append(f"{path.relative_to(ROOT)}:{line}: {m.group(0).strip()} ({what})")
    assert not found, "\n".join(found)


def test_the_forbidden_patterns_do_catch_what_they_should():
    samples = ["import random", "from random import shuffle", "x = random.choice(xs)", "import time",
               "t = time.time()", "from datetime import datetime"]
    for sample in samples:
        assert any(p.search(sample) for p, _ in FORBIDDEN), sample
    assert not any(p.search("the game's seeded generator (pbem.core.rng)") for p, _ in FORBIDDEN)


def test_the_index_of_where_blocks_are_follows_every_move_and_loss(ruleset, scenario):
    """State's lookups use an index kept by State.put; a change made around it is caught."""
    game = play_out(new_game(ruleset, scenario, 4), 4)
    for result in game.days:
        assert result.after.check_index()
    state = game.days[5].after.copy()
    block = next(b for b in state.blocks.values() if b.status == "map")
    assert state.occupied_by(block.locale, block.side)  # builds the index
    state.put(block, None, None, status="eliminated")
    assert state.check_index() and block.id not in {b.id for b in state.side_blocks(block.side)}
    other = next(b for b in state.blocks.values() if b.status == "map")
    other.locale = "nowhere"  # behind the index's back
    assert not state.check_index()
