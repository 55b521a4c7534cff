"""The games, one package each under pbem/games/, found by their ``RULESET``.

    from pbem.games import ruleset, rulesets
    marengo = ruleset("marengo")        # the object of pbem.core.ruleset.Ruleset
    for name, r in rulesets().items(): ...
    name, rules = default()             # the game offered first: Bonaparte at Marengo

A new game plugs in by adding its package here with a ``RULESET`` attribute,
and nothing else: the server and the tools find it by name. Packages without
one (the family packages, such as ``simmons``, which games build on) are not
games. This module is the only place outside a game's package that imports
it, and it does so by name only.
"""

from __future__ import annotations

import importlib
import pkgutil
from functools import cache


DEFAULT = "marengo"
"""The game a server offers first (its demo game, the new-game form's choice): Bonaparte at Marengo, chosen
by name, not by the order of the names."""


class UnknownGame(LookupError):
    """No installed game has this name."""


@cache
def rulesets() -> dict:
    """Every installed game's ruleset, by name, in name order."""
    found = {}
    for info in sorted(pkgutil.iter_modules(__path__), key=lambda m: m.name):
        if not info.ispkg:
            continue
        module = importlib.import_module(f"{__name__}.{info.name}")
        ruleset = getattr(module, "RULESET", None)
        if ruleset is not None:
            found[ruleset.name] = ruleset
    return found


def ruleset(name: str):
    """The ruleset of the game called ``name`` (the name kept in a game's row)."""
    try:
        return rulesets()[name]
    except KeyError:
        raise UnknownGame(f"no game called {name!r} (installed: {', '.join(rulesets()) or 'none'})") from None


def default():
    """The name and ruleset of the game offered first (:data:`DEFAULT`; the first installed one if it is
    not installed)."""
    found = rulesets()
    name = DEFAULT if DEFAULT in found else next(iter(found))
    return name, found[name]
