"""Napoleonic DBA with written orders (rule book 004, after David Manley; Russian text authoritative).

Work in progress (issue 12): the package has no ``RULESET`` yet, so the server and the tools do not offer the game.
It will be added when a game can be played to its end. Modules are named after the rule book's sections:

- the table: coordinates in tenths of an inch, elements as oriented rectangles, terrain polygons (shapely);
- orders (Приказы): the dispatch grammar, couriers and the delay by commander, the initiative test;
- the turn: fire, PIPs and movement, melee, brigade effectiveness; what each commander sees.
"""
