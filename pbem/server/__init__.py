"""The server: every part of it, none of which imports a game.

``service/`` does every operation once; ``store.py`` keeps the SQLite database;
``scheduler.py`` and ``deadlines.py`` run the games' clocks; ``moderation.py``
holds a moderator's rulings; ``inbox.py`` and ``mail/`` take mail in and send
it out; ``web/`` serves the pages and the JSON API; ``serve.py`` runs it all
(``pbem serve``). A game is reached only through its ruleset, found by the
name in the game's row (pbem.games.ruleset).
"""
