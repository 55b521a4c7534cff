"""The language a seat's orders are written in, from their words: the acknowledgement echoes accepted orders in
the words the player wrote them in (docs/orders.md, "The echo"), whatever language his mails are in.

Each game says its order words by language (``{lang: phrases}``: a word or a phrase, as its words.toml or
words.py list them); :func:`written_in` counts, in each language, the phrases of the text that are among its
words (a phrase two languages share counts for both: DOCTRINE, МАРШ). The language that counts most is the one
the orders are written in; where none does, or two tie, the seat's own language (``lang``) is kept, and so it is
where it ties for first."""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from itertools import groupby


def plain(text: str) -> str:
    """Upper case without accents (DÉPLACER and deplacer read alike; Й as И, as both are folded)."""
    decomposed = unicodedata.normalize("NFKD", text.upper())
    return "".join(c for c in decomposed if not unicodedata.combining(c))


def _is_cjk(phrase: str) -> bool:
    return any("\u3400" <= c <= "\u9fff" for c in phrase)


@lru_cache(maxsize=64)
def _pattern(phrases: frozenset[str]) -> re.Pattern:
    """One language's phrases, longest first; a Chinese phrase anywhere (Chinese needs no spaces between its
    words, 移动A1), any other as whole words."""
    words = sorted({plain(p) for p in phrases if p.strip()}, key=len, reverse=True)
    parts = []
    for cjk, run in groupby(words, key=_is_cjk):  # the same alternatives in the same order, each run of whole
        escaped = "|".join(re.escape(w) for w in run)  # words under one pair of word bounds: tried once a place,
        parts.append(escaped if cjk else rf"(?<!\w)(?:{escaped})(?!\w)")  # not once a word (30 times faster)
    return re.compile("|".join(parts) or r"(?!x)x")


def written_in(text: str, phrases: dict[str, frozenset[str]], lang: str) -> str:
    """The language of ``phrases`` whose words ``text`` uses most; ``lang`` (the seat's) where none does, or
    where it is among those that use most."""
    said = plain(text)
    counts = {code: len(_pattern(frozenset(words)).findall(said)) for code, words in phrases.items()}
    most = max(counts.values(), default=0)
    first = [code for code, count in counts.items() if count == most]
    if most == 0 or lang in first or len(first) > 1:
        return lang
    return first[0]
