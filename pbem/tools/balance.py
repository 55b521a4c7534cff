"""Is the map fair? Whole games between two players (the simple bot or the
strategist), through the engine core, with every invariant of selfplay checked
after every day, and a tally of who won, how, and where.

``pbem balance --games N --seed S [--austria bot|strategist] [--france bot|strategist]``
prints the tally (docs/maps.md, "Balance").
"""

from __future__ import annotations

import time
from collections import Counter
from dataclasses import dataclass, field

from pbem.core.game import Game, load_ruleset
from pbem.games.marengo.bot import bot_orders
from pbem.games.marengo.strategist import strategist_chooser, strategist_orders, strategist_standing
from pbem.tools.selfplay import games_played, play_game

PLAYERS = {"bot": bot_orders, "strategist": strategist_orders}
STANDING = {"strategist": strategist_standing}  # what a player sends on the enemy's day
CHOOSERS = {"strategist": strategist_chooser}  # a player's answers to the decisions its orders leave open


def play_match(scenario, seed: int, austria: str = "strategist", france: str = "strategist",
               check: bool = True, on_day=None) -> Game:
    """One game to its end between the named players; open decisions take their defaults.

    ``scenario`` is a loaded scenario or its path. With ``check``, every
    day's invariants are checked and InvariantError raised on the first broken one.
    """
    ruleset = load_ruleset("marengo")
    if isinstance(scenario, str):
        scenario = ruleset.load_scenario(scenario)
    players = {"austria": austria, "france": france}
    return play_game(scenario, seed, {side: PLAYERS[p] for side, p in players.items()},
                     standing={side: STANDING[p] for side, p in players.items() if p in STANDING},
                     choose=lambda game: chooser(scenario, game, players, seed), check=check, on_day=on_day)


def chooser(scenario, game: Game, players: dict, seed: int):
    """One choose function for the day: each side's player answers its own decisions
    from its own view; a player without a chooser takes the documented defaults."""
    by_side = {side: CHOOSERS[p](scenario, game.view(side), seed)
               for side, p in players.items() if p in CHOOSERS}

    def choose(decision):
        own = by_side.get(decision.side)
        return own(decision) if own else tuple(decision.default)

    return choose


def how_won(state) -> str:
    """'demoralisation' when one army ended demoralised and the other not, else 'objectives'."""
    return "demoralisation" if state.demoralised["austria"] != state.demoralised["france"] else "objectives"


@dataclass
class Balance:
    austria: str
    france: str
    games: int = 0
    winners: Counter = field(default_factory=Counter)
    how: Counter = field(default_factory=Counter)  # (winner, how)
    morale: Counter = field(default_factory=Counter)  # summed end morale by side
    held: Counter = field(default_factory=Counter)  # objective locale -> games Austria held it at the end
    seconds: float = 0.0
    problems: list[str] = field(default_factory=list)

    def add(self, scenario, game: Game) -> None:
        st = game.state
        self.games += 1
        self.winners[st.winner] += 1
        self.how[(st.winner, how_won(st))] += 1
        for side, m in st.morale.items():
            self.morale[side] += m
        for lid, loc in scenario.board.locales.items():
            if loc.objective and st.occupied_by(lid, "austria"):
                self.held[lid] += 1

    def share(self, side: str) -> float:
        return self.winners[side] / self.games if self.games else 0.0

    def lines(self, scenario) -> list[str]:
        n = self.games or 1
        out = [f"austria={self.austria} france={self.france}: {self.games} games in {self.seconds:.1f} s"]
        for side in ("austria", "france"):
            ways = ", ".join(f"{how} {c}" for (w, how), c in sorted(self.how.items()) if w == side) or "-"
            out.append(f"{side} wins {self.winners[side]} ({100 * self.share(side):.1f}%): {ways}")
        out.append("mean morale at the end: " + ", ".join(
            f"{side} {self.morale[side] / n:.1f}" for side in ("austria", "france")))
        board = scenario.board
        held = [f"{board.locales[lid].name} ({board.locales[lid].objective}) {c}"
                for lid, c in sorted(self.held.items(), key=lambda kv: (-kv[1], kv[0]))]
        out.append("objectives Austria held at the end (games): " + (", ".join(held) or "none"))
        out += [f"BROKEN: {p}" for p in self.problems]
        return out


def balance(scenario_path: str, seed: int, games: int, austria: str = "strategist",
            france: str = "strategist") -> tuple[Balance, object]:
    """Play ``games`` games from ``seed`` on; returns the tally and the scenario."""
    ruleset = load_ruleset("marengo")
    scenario = ruleset.load_scenario(scenario_path)
    tally = Balance(austria, france)
    started = time.perf_counter()
    for game in games_played(seed, games, lambda s: play_match(scenario, s, austria, france), tally.problems):
        tally.add(scenario, game)
    tally.seconds = time.perf_counter() - started
    return tally, scenario
