"""Bonaparte at Marengo's words in each language: its catalogs (pbem/games/marengo/locale, the
``marengo`` domain, falling back on the family's) and the glossary they follow
(docs/glossary-marengo.md: each rule term as the rule books name it), and its order words and
place names in each language (words.toml), which the orders read as the English ones."""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from pbem.games.simmons.lang import Tongue, tongue
from pbem.lang import NamedTongue
from pbem.games.simmons.words import OrderWords

LOCALE = Path(__file__).parent / "locale"
WORDS = OrderWords(Path(__file__).parent / "words.toml")

NATIVE, SIDES_NATIVE, NAMES_NATIVE = WORDS.native, WORDS.sides_native, WORDS.names_native
native_words, native_names, mail_words = WORDS.native_words, WORDS.native_names, WORDS.mail_words
in_words, words_in, error_in_words = WORDS.in_words, WORDS.words_in, WORDS.error_in_words


@lru_cache(maxsize=16)
def marengo_tongue(lang: str | None = "en") -> Tongue:
    """Marengo's texts in ``lang`` (en, fr, ru, uk, zh; others read as English), the map's places in
    their usual spelling there (words.toml's names)."""
    base = tongue(lang, "marengo", LOCALE)
    names = WORDS.native_names(base.lang) if base.lang != "en" else {}
    return NamedTongue(base, names) if names else base
