"""Triomphe à Marengo's order words in each language (words.toml), which the orders read as the
English ones (pbem.games.simmons.words), and its report's texts (locale/, the ``triomphe`` domain)."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pbem.games.simmons.lang import Tongue, tongue
from pbem.lang import NamedTongue
from pbem.games.simmons.words import OrderWords

WORDS = OrderWords(Path(__file__).parent / "words.toml")
LOCALE = Path(__file__).parent / "locale"


@lru_cache(maxsize=16)
def triomphe_tongue(lang: str | None = "en") -> Tongue:
    """Triomphe's texts in ``lang`` (its catalog, the ``triomphe`` domain, over the family's), the map's
    places in their usual spelling there (words.toml's names)."""
    base = tongue(lang, "triomphe", LOCALE)
    names = WORDS.native_names(base.lang) if base.lang != "en" else {}
    return NamedTongue(base, names) if names else base
