"""Is the map fair? Whole games between computer players (any of the ruleset's
bots, a seat each), through the engine core, with every invariant checked after
every day, and a tally of who won, how, and what the game's summary counts.

``pbem balance --game NAME --games N --seed S [--seat SEAT=BOT ...]`` prints the
tally (docs/maps.md, "Balance").
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from pbem.core.game import Game
from pbem.tools.selfplay import games_played, play_game


def play_match(ruleset, scenario, seed: int, players: dict[str, str] | None = None, check: bool = True,
               on_day=None) -> Game:
    """One game to its end between the named bots (seat -> bot name; by default each
    seat's strongest, the last the ruleset lists). Open decisions are answered by each
    bot's chooser from its own view, or take their defaults. With ``check``, every day's
    invariants are checked and InvariantError raised on the first broken one."""
    players = {**default_players(ruleset, scenario), **(players or {})}
    bots = ruleset.bots()
    chosen = {seat: bots[name] for seat, name in players.items()}
    return play_game(ruleset, scenario, seed, chosen,
                     choose=lambda game: chooser(scenario, game, chosen, seed), check=check, on_day=on_day)


def default_players(ruleset, scenario) -> dict[str, str]:
    strongest = list(ruleset.bots())[-1]
    return {seat.id: strongest for seat in ruleset.seats(scenario, {})}


def chooser(scenario, game: Game, bots: dict, seed: int):
    """One choose function for the day: each seat's bot answers its own decisions
    from its own view; a bot without a chooser takes the documented defaults."""
    by_seat = {seat: bot.chooser(scenario, game.view(seat), seed)
               for seat, bot in bots.items() if bot.chooser is not None}

    def choose(decision):
        own = by_seat.get(decision.side)
        return own(decision) if own else tuple(decision.default)

    return choose


@dataclass
class Balance:
    players: dict[str, str]
    games: int = 0
    winners: Counter = field(default_factory=Counter)
    how: Counter = field(default_factory=Counter)  # (winner, how)
    means: Counter = field(default_factory=Counter)  # summed figures of the summaries
    counts: dict[str, Counter] = field(default_factory=dict)  # name -> what -> games
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)
    sides: list[str] = field(default_factory=list)  # the sides that may win (default: one a seat)

    def add(self, summary: dict) -> None:
        self.games += 1
        self.winners[summary["winner"]] += 1
        self.how[(summary["winner"], summary["how"])] += 1
        for name, value in summary.get("means", {}).items():
            self.means[name] += value
        for name, items in summary.get("counts", {}).items():
            self.counts.setdefault(name, Counter()).update(items)

    def share(self, side: str) -> float:
        return self.winners[side] / self.games if self.games else 0.0

    def lines(self) -> list[str]:
        n = self.games or 1
        out = [" ".join(f"{seat}={bot}" for seat, bot in self.players.items())
               + f": {self.games} games in {self.seconds:.1f} s"]
        for side in self.sides or self.players:
            ways = ", ".join(f"{how} {c}" for (w, how), c in sorted(self.how.items(), key=str) if w == side) or "-"
            out.append(f"{side} wins {self.winners[side]} ({100 * self.share(side):.1f}%): {ways}")
        if self.winners[None]:
            out.append(f"no winner {self.winners[None]}")
        if self.means:
            out.append("mean at the end: " + ", ".join(f"{name} {total / n:.1f}" for name, total in self.means.items()))
        for name, counter in self.counts.items():
            items = [f"{what} {c}" for what, c in sorted(counter.items(), key=lambda kv: (-kv[1], kv[0]))]
            out.append(f"{name} (games): " + (", ".join(items) or "none"))
        out += [f"BROKEN: {p}" for p in self.problems]
        return out


def balance(ruleset, scenario, seed: int, games: int, players: dict[str, str] | None = None) -> Balance:
    """Play ``games`` games from ``seed`` on; returns the tally."""
    players = {**default_players(ruleset, scenario), **(players or {})}
    tally = Balance(players, sides=list(dict.fromkeys(seat.side for seat in ruleset.seats(scenario, {}))))
    started = time.perf_counter()
    for game in games_played(seed, games, lambda s: play_match(ruleset, scenario, s, players), tally.problems):
        tally.add(ruleset.summary(scenario, game.state))
    tally.seconds = time.perf_counter() - started
    return tally
