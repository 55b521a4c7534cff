"""Triomphe à Marengo's order words in each language (words.toml), which the orders read as the
English ones (pbem.games.simmons.words), and its report's texts (locale/, the ``triomphe`` domain)."""

from __future__ import annotations

from pathlib import Path

from pbem.games.simmons.lang import Tongue, tongue
from pbem.games.simmons.words import OrderWords

WORDS = OrderWords(Path(__file__).parent / "words.toml")
LOCALE = Path(__file__).parent / "locale"


def triomphe_tongue(lang: str | None = "en") -> Tongue:
    """Triomphe's texts in ``lang`` (its catalog, the ``triomphe`` domain, over the family's)."""
    return tongue(lang, "triomphe", LOCALE)
