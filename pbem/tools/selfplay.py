"""Whole games between computer players, through the engine core (no server), with
the game's invariants (its ruleset's ``check_turn``) checked after every day.

The players are the ruleset's bots (``ruleset.bots()``); each writes its orders
from its own seat's view and, with ``random_decisions``, every decision its
orders leave open gets a random legal answer; those answers go into the game's
log, so every game replays exactly.
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from pbem.core.game import Game
from pbem.core.rng import Rng


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
                 "winners: " + ", ".join(f"{s or 'none (a draw)'} {n}"  # a draw's winner is None: sorted as ""
                                         for s, n in sorted(self.winners.items(), key=lambda kv: kv[0] or "")),
                 "decisions: " + ", ".join(f"{k} {n}" for k, n in sorted(self.decisions.items()))]
        lines += [f"BROKEN: {p}" for p in self.problems]
        return "\n".join(lines)


def play_game(ruleset, scenario, seed: int, players: dict, choose=None, check: bool = False,
              on_day=None, days: int | None = None, options: dict | None = None,
              clock: Counter | None = None) -> Game:
    """Play a game to its end (or for ``days`` days) between computer players.

    ``players[seat]`` is the seat's pbem.core.ruleset.Bot: its ``orders`` for the
    seat's turns and, if it has them, its ``standing`` orders on the others'.
    ``choose(game)`` gives the day's choose function for the decisions the orders
    leave open (None: their defaults). With ``check``, every day's invariants are
    checked and InvariantError raised on the first broken one; ``on_day(game,
    result)`` is called after each day. ``clock`` (a Counter) adds up the seconds of
    each part of a day: ``bots`` (each seat's view made and its bot's orders written,
    with whatever the bot checks), ``submit`` (the orders checked against the position
    and logged, Game.submit) and ``resolve`` (the day resolved, Game.advance).
    """
    game = Game(ruleset, scenario, seed, options=options)
    now = time.perf_counter
    while not game.over and (days is None or game.day < days):
        turn = game.turn()
        sent = []
        started = now()
        for seat in turn.seats:
            sent.append((seat, players[seat].orders(scenario, game.view(seat), seed)))
        for seat in turn.others:
            if players[seat].standing is not None:
                sent.append((seat, players[seat].standing(scenario, game.view(seat), seed)))
        written = now()
        for seat, text in sent:  # the seats' orders, then the others' standing orders, as they were written
            game.submit(seat, text)
        submitted = now()
        result = game.advance(choose=choose(game) if choose else None)
        if clock is not None:
            clock["bots"] += written - started
            clock["submit"] += submitted - written
            clock["resolve"] += now() - submitted
        if check:
            broken = ruleset.check_turn(scenario, result)
            if broken:
                raise InvariantError(f"seed {seed}, day {result.day}: " + "; ".join(broken))
        if on_day is not None:
            on_day(game, result)
    return game


def simple_players(ruleset, scenario, options: dict | None = None) -> dict:
    """Every seat played by the ruleset's simple bot (without its standing orders, as self-play has it)."""
    bot = ruleset.bots()["bot"]
    return {seat.id: bot for seat in ruleset.seats(scenario, options or {})}


def play(ruleset, scenario, seed: int, on_day=None, random_decisions: bool = False, check: bool = False,
         options: dict | None = None, clock: Counter | None = None) -> Game:
    """Play a bot-against-bot game to its end (play_game); with ``random_decisions``, open
    decisions are answered at random (and logged), else by their defaults."""
    game = play_game(ruleset, scenario, seed, simple_players(ruleset, scenario, options),
                     choose=(lambda g: chooser(seed, g.day)) if random_decisions else None,
                     check=check, on_day=on_day, options=options, clock=clock)
    if check and not game.over:
        raise InvariantError(f"seed {seed}: the game stopped after {game.day} days without ending")
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


def play_many(ruleset, scenario, seed: int, games: int, random_decisions: bool = True,
              options: dict | None = None) -> Tally:
    """Play ``games`` games from ``seed`` on, checking every invariant; a crash or a
    broken invariant is recorded (with its seed), not raised."""
    tally = Tally()
    started = time.perf_counter()
    def play_one(s: int) -> Game:
        return play(ruleset, scenario, s, random_decisions=random_decisions, check=True, options=options)

    for game in games_played(seed, games, play_one, tally.problems):
        tally.games += 1
        tally.days += len(game.days)
        tally.winners[game.view(None)["winner"]] += 1
        for result in game.days:
            for record in result.decisions:
                tally.decisions[record.decision.kind] += 1
    tally.seconds = time.perf_counter() - started
    return tally


def play_days(ruleset, scenario, seed: int, days: int, options: dict | None = None) -> Game:
    """Play ``days`` days (or to the end) and return the game there."""
    return play_game(ruleset, scenario, seed, simple_players(ruleset, scenario, options), days=days,
                     options=options)


@dataclass
class Volume:
    """Self-play at volume: per scenario, games, days and seconds; every problem found, with its seed."""

    games: Counter = field(default_factory=Counter)
    days: Counter = field(default_factory=Counter)
    seconds: Counter = field(default_factory=Counter)
    winners: dict[str, Counter] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)

    def lines(self) -> list[str]:
        out = []
        for name in self.games:
            n = self.games[name]
            out.append(f"{name}: {n} games, {self.days[name]} turns, {self.seconds[name] / max(n, 1):.1f} s a game; "
                       "winners " + ", ".join(f"{w} {c}" for w, c in sorted(self.winners[name].items(), key=str)))
        total = sum(self.games.values())
        out.append(f"{total} games, {sum(self.days.values())} turns, {sum(self.seconds.values()):.0f} s, "
                   f"{len(self.problems)} problem(s)")
        return out + [f"BROKEN: {p}" for p in self.problems]


def play_volume(ruleset, scenarios: dict, seed: int, games: int, replay: bool = True,
                random_decisions: bool = True, options: dict | None = None, on_game=None) -> Volume:
    """Play ``games`` games from ``seed`` on, the scenarios (name -> loaded scenario) in turn, checking every
    invariant after every day (play) and, with ``replay``, replaying each finished game from its log to the same
    digest every day. A crash, a broken invariant or a replay that differs is recorded with its seed and
    scenario, not raised. ``on_game(name, seed, game_or_None, volume)`` is called after each game."""
    volume = Volume()
    names = list(scenarios)
    for n in range(games):
        s, name = seed + n, names[n % len(names)]
        scenario = scenarios[name]
        started = time.perf_counter()
        game = None
        try:
            game = play(ruleset, scenario, s, random_decisions=random_decisions, check=True, options=options)
            if replay:
                digests = [ruleset.digest(d.after) for d in game.days]
                game.replay()
                again = [ruleset.digest(d.after) for d in game.days]
                if again != digests:
                    day = next((i for i, (a, b) in enumerate(zip(digests, again)) if a != b), min(len(digests),
                                                                                               len(again)))
                    volume.problems.append(f"{name} seed {s}: the replay differs from day {day + 1}")
        except InvariantError as exc:
            volume.problems.append(f"{name} {exc}")
        except Exception as exc:  # a crash is a finding, with the seed to replay it
            volume.problems.append(f"{name} seed {s}: crash: {type(exc).__name__}: {exc}")
        volume.seconds[name] += time.perf_counter() - started
        volume.games[name] += 1
        if game is not None:
            volume.days[name] += len(game.days)
            volume.winners.setdefault(name, Counter())[game.view(None)["winner"]] += 1
        else:
            volume.winners.setdefault(name, Counter())
        if on_game is not None:
            on_game(name, s, game, volume)
    return volume
