"""Whole games between two bots, through the engine core (no server), with
the invariants of the game checked after every day.

The bots write their orders from their own side's view (pbem.games.marengo.bot)
and, with ``random_decisions``, answer every decision their orders leave open
with a random legal choice; those answers go into the game's log, so every
game replays exactly.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from pbem.core.game import Game, load_ruleset
from pbem.core.rng import Rng
from pbem.games.marengo.bot import bot_orders
from pbem.games.marengo.scenario import MAX_STRENGTH, SIDES

MORALE_BONUS = 5


class InvariantError(AssertionError):
    """A position the rules can never produce."""


def chooser(seed: int, day: int):
    """Random legal-looking answers: a count between min and max, then that many options."""
    rng = Rng(seed * 6151 + day * 193 + 11)

    def choose(decision):
        options = list(decision.options)
        n = decision.min + rng.below(decision.max - decision.min + 1)
        rng.shuffle(options)
        return tuple(options[:n])

    return choose


def check_day(scenario, result) -> list[str]:
    """Everything that must hold after a day (returns the broken invariants)."""
    board, before, after = scenario.board, result.before, result.after
    problems = []
    if after.day != before.day + 1:
        problems.append(f"the clock went from day {before.day} to {after.day}")
    if not after.check_index():  # before the lookups below, which would build it afresh
        problems.append("the index of where blocks are disagrees with the blocks (a move not made by State.put)")
    for side in SIDES:
        counts = Counter(b.locale for b in after.blocks.values() if b.side == side and b.on_map)
        for lid, n in counts.items():
            if n > board.locales[lid].capacity:
                problems.append(f"{n} {side} blocks in {lid}, capacity {board.locales[lid].capacity}")
    for lid in board.locales:
        if after.occupied_by(lid, "austria") and after.occupied_by(lid, "france"):
            problems.append(f"both armies in {lid}")
    for b in after.blocks.values():
        if b.status == "map":
            if b.locale not in board.locales:
                problems.append(f"{b.id} on the map at an unknown place {b.locale}")
            elif b.facing is not None and (b.locale, b.facing) not in board.approaches:
                problems.append(f"{b.id} blocks a missing approach {b.locale}>{b.facing}")
            if not 1 <= b.strength <= MAX_STRENGTH[b.type]:
                problems.append(f"{b.id} has strength {b.strength}")
        elif b.status == "eliminated":
            if b.strength != 0 or b.locale is not None:
                problems.append(f"eliminated {b.id} still has strength {b.strength} or a place")
        elif b.status == "waiting":
            if b.locale is not None or b.strength != before.blocks[b.id].strength:
                problems.append(f"waiting {b.id} is on the map or changed strength")
        else:
            problems.append(f"{b.id} has status {b.status}")
    for side in SIDES:
        lost = sum(before.blocks[bid].strength - b.strength for bid, b in after.blocks.items() if b.side == side)
        if lost < 0:
            problems.append(f"{side} gained strength")
        bonus = MORALE_BONUS if before.bonus_due.get(side) else 0
        expected = max(0, before.morale[side] + bonus - lost)
        if after.morale[side] != expected:
            problems.append(f"{side} morale {after.morale[side]}, expected {expected} "
                            f"(before {before.morale[side]}, bonus {bonus}, lost {lost})")
        if after.demoralised[side] != (before.demoralised[side] or after.morale[side] == 0):
            problems.append(f"{side} demoralised is {after.demoralised[side]} with morale {after.morale[side]}")
    return problems


@dataclass
class Tally:
    games: int = 0
    days: int = 0
    winners: Counter = field(default_factory=Counter)
    decisions: Counter = field(default_factory=Counter)
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def __str__(self) -> str:
        rate = self.games / self.seconds if self.seconds else 0.0
        lines = [f"{self.games} games, {self.days} days in {self.seconds:.1f} s ({rate:.1f} games/s)",
                 "winners: " + ", ".join(f"{s} {n}" for s, n in sorted(self.winners.items())),
                 "decisions: " + ", ".join(f"{k} {n}" for k, n in sorted(self.decisions.items()))]
        lines += [f"BROKEN: {p}" for p in self.problems]
        return "\n".join(lines)


def play_game(scenario, seed: int, orders: dict, standing: dict | None = None, choose=None,
              check: bool = False, on_day=None, days: int | None = None) -> Game:
    """Play a game to its end (or for ``days`` days) between players.

    ``orders[side](scenario, view, seed)`` writes a side's orders for its day,
    ``standing[side]`` (if given) its standing orders on the enemy's day;
    ``choose(game)`` gives the day's choose function for the decisions the
    orders leave open (None: their defaults). With ``check``, every day's
    invariants are checked and InvariantError raised on the first broken one;
    ``on_day(game, result)`` is called after each day.
    """
    game = Game(load_ruleset("marengo"), scenario, seed)
    while not game.over and (days is None or game.day < days):
        side = game.moving_side()
        other = SIDES[1 - SIDES.index(side)]
        game.submit(side, orders[side](scenario, game.view(side), seed))
        if standing and other in standing:
            game.submit(other, standing[other](scenario, game.view(other), seed))
        result = game.advance(choose=choose(game) if choose else None)
        if check:
            broken = check_day(scenario, result)
            if broken:
                raise InvariantError(f"seed {seed}, day {result.day}: " + "; ".join(broken))
        if on_day is not None:
            on_day(game, result)
    return game


BOTS = {side: bot_orders for side in SIDES}


def play(scenario_path: str, seed: int, on_day=None, random_decisions: bool = False, check: bool = False) -> Game:
    """Play a bot-against-bot game to its end (play_game); with ``random_decisions``, open
    decisions are answered at random (and logged), else by their defaults."""
    scenario = load_ruleset("marengo").load_scenario(scenario_path)
    game = play_game(scenario, seed, BOTS, choose=(lambda g: chooser(seed, g.day)) if random_decisions else None,
                     check=check, on_day=on_day)
    if check and game.day != scenario.days:
        raise InvariantError(f"seed {seed}: the game ended after {game.day} days, not {scenario.days}")
    return game


def games_played(seed: int, games: int, play_one, problems: list[str]):
    """The games ``play_one(seed)`` plays for ``games`` seeds from ``seed`` on; a crash or
    a broken invariant is appended to ``problems`` (with its seed), not raised."""
    for s in range(seed, seed + games):
        try:
            yield play_one(s)
        except InvariantError as exc:
            problems.append(str(exc))
        except Exception as exc:  # a crash is a finding, with the seed to replay it
            problems.append(f"seed {s}: crash: {type(exc).__name__}: {exc}")


def play_many(scenario_path: str, seed: int, games: int, random_decisions: bool = True) -> Tally:
    """Play ``games`` games from ``seed`` on, checking every invariant; a crash or a
    broken invariant is recorded (with its seed), not raised."""
    tally = Tally()
    started = time.perf_counter()
    def play_one(s: int) -> Game:
        return play(scenario_path, s, random_decisions=random_decisions, check=True)

    for game in games_played(seed, games, play_one, tally.problems):
        tally.games += 1
        tally.days += len(game.days)
        tally.winners[game.state.winner] += 1
        for result in game.days:
            for record in result.decisions:
                tally.decisions[record.decision.kind] += 1
    tally.seconds = time.perf_counter() - started
    return tally


def play_days(scenario_path: str, seed: int, days: int) -> Game:
    """Play ``days`` days (or to the end) and return the game there."""
    return play_game(load_ruleset("marengo").load_scenario(scenario_path), seed, BOTS, days=days)
