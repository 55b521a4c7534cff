"""Whole games between two bots, through the engine core (no server)."""

from __future__ import annotations

from pbem.core.game import Game, load_ruleset
from pbem.games.marengo.bot import bot_orders


def play(scenario_path: str, seed: int, on_day=None) -> Game:
    """Play a game to its end; ``on_day(game, result)`` is called after each day."""
    ruleset = load_ruleset("marengo")
    scenario = ruleset.load_scenario(scenario_path)
    game = Game(ruleset, scenario, seed)
    while not game.over:
        side = game.moving_side()
        game.submit(side, bot_orders(scenario, game.view(side), seed))
        result = game.advance()
        if on_day is not None:
            on_day(game, result)
    return game


def play_days(scenario_path: str, seed: int, days: int) -> Game:
    """Play ``days`` days (or to the end) and return the game there."""
    ruleset = load_ruleset("marengo")
    scenario = ruleset.load_scenario(scenario_path)
    game = Game(ruleset, scenario, seed)
    while game.day < days and not game.over:
        side = game.moving_side()
        game.submit(side, bot_orders(scenario, game.view(side), seed))
        game.advance()
    return game
