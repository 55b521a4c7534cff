"""Bonaparte at Marengo's words in each language: its catalogs (pbem/games/marengo/locale, the
``marengo`` domain, falling back on the family's) and the glossary they follow
(docs/glossary-marengo.md: each rule term as the rule books name it)."""

from __future__ import annotations

from pathlib import Path

from pbem.games.simmons.lang import Tongue, tongue

LOCALE = Path(__file__).parent / "locale"


def marengo_tongue(lang: str | None = "en") -> Tongue:
    """Marengo's texts in ``lang`` (en, fr, ru, uk, zh; others read as English)."""
    return tongue(lang, "marengo", LOCALE)
