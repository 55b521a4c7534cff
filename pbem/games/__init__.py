"""Rulesets, one package per game, each on the engine core (pbem.core)."""

GAMES = {"marengo": "Bonaparte at Marengo"}
