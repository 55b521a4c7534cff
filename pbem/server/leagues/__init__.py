"""Leagues and their tournaments, ratings and reliability records.

- ``tables.py``: the ``league_*`` migrations (the store applies them last);
- ``pairing.py``: who plays whom, and in which seat: round robin (Berger tables), Swiss (the
  FIDE Dutch system, by the py4swiss library), knockout; pure functions;
- ``elimination.py``: a double elimination's bracket (winners', losers', grand final and reset); pure;
  ``brackets.py``: who goes on in a knockout or a double elimination, from a tournament's results;
- ``standings.py``: scores, tie-breaks (Buchholz, Sonneborn-Berger) and the crosstable; pure;
- ``ratings.py``: OpenSkill ratings per game, from the finished games, brought up to date incrementally;
- ``records.py``: each player's reliability across games (missed days, forfeits, excused);
- ``service.py``: the operations (``Leagues(service)``) the web pages, the mail and the CLI call:
  leagues and members there, tournaments in ``tournaments.py``, the organiser's rulings in
  ``console.py``, results read from the games in ``results.py``; ``mail.py``: LEAGUE n JOIN and
  TOURNAMENT n ENTER by mail.

This ``__init__`` imports nothing: the store imports ``tables`` while it loads.
"""
