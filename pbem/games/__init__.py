"""The games, one package each under pbem/games/, found by their ``RULESET``.

    from pbem.games import ruleset, rulesets
    marengo = ruleset("marengo")        # the object of pbem.core.ruleset.Ruleset
    for name, r in rulesets().items(): ...

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
