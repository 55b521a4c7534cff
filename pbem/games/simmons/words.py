"""A Marengo-family game's order words in each language (its ``words.toml``), read as the English ones.

A game's words.toml lists, for each English word of its order language, the words a player of each
language writes for it; for each side its names; for the map's places their usual spellings. The
orders read every language's words at all times (mixed, accents optional) as the English word, so
the logged orders stay English (pbem.games.simmons.reader: ``NATIVE``, ``SIDES_NATIVE``,
``NAMES_NATIVE``); what a player reads names the words in his language (:meth:`OrderWords.in_words`,
:meth:`OrderWords.error_in_words`)."""

from __future__ import annotations

import dataclasses
import re
import tomllib
import unicodedata
from pathlib import Path

from pbem.core.orders import Lexicon, OrdersError, fold
from pbem.lang import Text

_WORD = re.compile(r"(?<![\w>-])[A-Z]{2,}(?![\w<-])")


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


class InWords(Text):
    """An order as logged (English), read in its reader's order words (:meth:`OrderWords.in_words`):
    the order a void event names. ``str()`` is the order as logged."""

    def __init__(self, order: str, words: "OrderWords"):
        super().__init__("%(order)s", {"order": order})
        self.words = words

    def read_in(self, tongue) -> str:
        return self.words.in_words(self.values["order"], tongue.lang)


class OrderWords:
    """The words of one game's words.toml."""

    def __init__(self, path: Path):
        with path.open("rb") as f:
            data = tomllib.load(f)
        self.words: dict[str, dict[str, list[str]]] = data["words"]
        self.sides: dict[str, dict[str, list[str]]] = data.get("sides", {})
        self.names: dict[str, dict[str, list[str]]] = data.get("names", {})
        self.native = {fold(alias): word for word, by_lang in self.words.items()
                       for aliases in by_lang.values() for alias in aliases}
        """Every language's order word, folded (lower case, no accents) -> the English word."""
        self.sides_native = {fold(alias): side for side, by_lang in self.sides.items()
                             for aliases in by_lang.values() for alias in aliases}
        """A side as each language names it, folded -> the side."""
        self.names_native = {fold(alias): fold(name) for name, by_lang in self.names.items()
                             for aliases in by_lang.values() for alias in aliases}
        """A place as each language spells it, folded -> the map's name, folded."""
        self.lexicon = Lexicon([alias for table in (self.words, self.sides, self.names)
                                for by_lang in table.values() for aliases in by_lang.values() for alias in aliases])
        """Every word and name of the file, to cut Chinese written without spaces (pbem.core.orders.tokenize)."""
        self._by_language: dict[str, frozenset[str]] | None = None  # by_language(), made when first asked

    def by_language(self) -> dict[str, frozenset[str]]:
        """Each language's order words ({"en": MOVE, ROAD..., "fr": DÉPLACER, ROUTE...}): what tells the language a
        seat's orders are written in (pbem.core.written). Made once (read for every orders mail)."""
        if self._by_language is None:
            out: dict[str, set[str]] = {"en": set(self.words)}
            for word, by_lang in self.words.items():
                for lang, aliases in by_lang.items():
                    out.setdefault(lang, set()).update(aliases)
            self._by_language = {lang: frozenset(words) for lang, words in out.items()}
        return dict(self._by_language)

    def native_words(self, lang: str) -> dict[str, str]:
        """{English order word: the first word of ``lang`` for it} (``en``: the words themselves)."""
        return {word: (by_lang.get(lang) or [word])[0] for word, by_lang in self.words.items()}

    def native_names(self, lang: str) -> dict[str, str]:
        """{the map's name: ``lang``'s usual spelling} for the places that have one."""
        return {name: by_lang[lang][0] for name, by_lang in self.names.items() if lang in by_lang}

    def mail_words(self, first: tuple[str, ...]) -> frozenset[str]:
        """Every language's words for ``first`` (the English words that begin an order) in upper case,
        with and without accents: a mail's orders begin at the first line starting with one, so the
        words that only come inside an order (SI, PAR, НА) are not among them."""
        out: set[str] = set()
        for word, by_lang in self.words.items():
            if word not in first:
                continue
            for aliases in by_lang.values():
                for alias in aliases:
                    out |= {alias.upper(), strip_accents(alias).upper()}
        return frozenset(out)

    def in_words(self, order: str, lang: str) -> str:
        """An order written in English (as logged) in ``lang``'s order words: each English word
        becomes ``lang``'s first word for it; ids, places and signs stay as they are."""
        if lang == "en" or not lang:
            return order
        words = self.native_words(lang)
        return " ".join(words.get(w, w) if w.isupper() else w for w in order.split(" "))

    def echo_in(self, order: str, lang: str, places=()) -> str:
        """An order as logged (English) as its seat reads it back: ``lang``'s order words
        (:meth:`in_words`) and each place in its usual spelling there (Маренго, 马伦哥). ``places`` are
        every name of the map, so that a name inside a longer one (Castel Ceriolo in Piana di Castel
        Ceriolo) is left as it is; the echo reads back as the same order."""
        if lang == "en" or not lang:
            return order
        text = self.in_words(order, lang)
        names = self.native_names(lang)
        if not names:
            return text
        pattern = self._names_pattern(lang, tuple(places))
        return pattern.sub(lambda m: names.get(m.group(), m.group()), text)

    def _names_pattern(self, lang: str, places: tuple[str, ...]):
        cache = self.__dict__.setdefault("_patterns", {})
        if (lang, places) not in cache:
            names = sorted(set(self.native_names(lang)) | set(places), key=len, reverse=True)
            cache[lang, places] = re.compile(r"(?<![\w'])(?:" + "|".join(re.escape(n) for n in names) + r")(?![\w'])")
        return cache[lang, places]

    def words_in(self, text: str, lang: str) -> str:
        """``text`` (a problem or a warning) with each English order word in it in ``lang``'s words."""
        if lang == "en" or not text:
            return text
        words = self.native_words(lang)
        return _WORD.sub(lambda m: words.get(m.group(), m.group()), text)

    def error_in_words(self, error: OrdersError, lang: str, tongue=None) -> OrdersError:
        """``error`` in ``lang``: each problem's sentences read by ``tongue`` (the game's catalogs,
        over the family's and the core's) where the parser wrote them as Texts, the order words in
        them (in what is expected and in the message) in ``lang``'s, and its frame in ``lang``
        (``str()``); line, column and what was found unchanged."""
        if tongue is not None:
            return error.read_in(tongue, lambda text: self.words_in(text, lang))
        return OrdersError([dataclasses.replace(p, message=self.words_in(p.message, lang),
                                                expected=self.words_in(p.expected, lang), lang=lang)
                            for p in error.problems])
