"""Napoleonic DBA with written orders (rule book 004, after David Manley; Russian text authoritative).

Modules are named after the rule book's sections:

- the table: coordinates in tenths of an inch, elements as oriented rectangles, terrain polygons (shapely);
- orders (Приказы): the dispatch grammar, couriers and the delay by commander, the initiative test;
- the turn: fire, PIPs and movement, melee, brigade effectiveness; what each commander sees.

``RULESET`` is the game as the server sees it (ruleset.py).
"""

from .ruleset import DBA_RULESET as RULESET

__all__ = ["RULESET"]
