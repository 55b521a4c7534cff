"""Bonaparte at Marengo's words in each language: its catalogs (pbem/games/marengo/locale, the
``marengo`` domain, falling back on the family's) and the glossary they follow
(docs/glossary-marengo.md: each rule term as the rule books name it), and its order words and
place names in each language (words.toml), which the orders read as the English ones."""

from __future__ import annotations

import dataclasses
import re
import tomllib
import unicodedata
from pathlib import Path

from pbem.core.orders import OrdersError, fold
from pbem.games.simmons.lang import Tongue, tongue

LOCALE = Path(__file__).parent / "locale"


def marengo_tongue(lang: str | None = "en") -> Tongue:
    """Marengo's texts in ``lang`` (en, fr, ru, uk, zh; others read as English)."""
    return tongue(lang, "marengo", LOCALE)


def _load(path: Path = LOCALE.parent / "words.toml") -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


_WORDS = _load()

NATIVE: dict[str, str] = {fold(alias): word for word, by_lang in _WORDS["words"].items()
                          for aliases in by_lang.values() for alias in aliases}
"""Every language's order word, folded (lower case, no accents) -> the English word it reads as."""

SIDES_NATIVE: dict[str, str] = {fold(alias): side for side, by_lang in _WORDS["sides"].items()
                                for aliases in by_lang.values() for alias in aliases}
"""A side as each language names it, folded -> the side."""

NAMES_NATIVE: dict[str, str] = {fold(alias): fold(name) for name, by_lang in _WORDS["names"].items()
                                for aliases in by_lang.values() for alias in aliases}
"""A place as each language spells it, folded -> the map's name, folded."""


def native_words(lang: str) -> dict[str, str]:
    """{English order word: the first word of ``lang`` for it} (``en``: the words themselves)."""
    return {word: (by_lang.get(lang) or [word])[0] for word, by_lang in _WORDS["words"].items()}


def native_names(lang: str) -> dict[str, str]:
    """{the map's name: ``lang``'s usual spelling} for the places that have one."""
    return {name: by_lang[lang][0] for name, by_lang in _WORDS["names"].items() if lang in by_lang}


def mail_words() -> frozenset[str]:
    """Every language's order words in upper case, with and without accents (a mail's orders begin at
    the first line starting with an order word)."""
    out = set()
    for by_lang in _WORDS["words"].values():
        for aliases in by_lang.values():
            for alias in aliases:
                out |= {alias.upper(), strip_accents(alias).upper()}
    return frozenset(out)


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


def in_words(order: str, lang: str) -> str:
    """An order written in English (as logged) in ``lang``'s order words: each English word of the
    order language becomes ``lang``'s first word for it; ids, places and signs stay as they are."""
    if lang == "en" or not lang:
        return order
    words = native_words(lang)
    return " ".join(words.get(w, w) if w.isupper() else w for w in order.split(" "))


_WORD = re.compile(r"(?<![\w>-])[A-Z]{2,}(?![\w<-])")


def words_in(text: str, lang: str) -> str:
    """``text`` (a problem or a warning) with each English order word in it in ``lang``'s words."""
    if lang == "en" or not text:
        return text
    words = native_words(lang)
    return _WORD.sub(lambda m: words.get(m.group(), m.group()), text)


def error_in_words(error: OrdersError, lang: str) -> OrdersError:
    """``error`` whose problems name the order words (found, expected, in the message) in ``lang``'s.
    The sentences around them are English yet (docs/glossary-marengo.md)."""
    return OrdersError([dataclasses.replace(p, message=words_in(p.message, lang),
                                            expected=words_in(p.expected, lang)) for p in error.problems])
