"""Napoleonic DBA's texts in each language (issue 17): its catalog (pbem/games/dba/locale, the ``dba`` domain),
whose terms follow the Russian rule book (004) as docs/glossary-dba.md lists them.

The engine writes what happened as :class:`pbem.lang.Text` (``say``); a report reads it in its seat's language.
A word the engine keeps as data (a troop, a formation, an outcome, a side, a place, a brigade's or a commander's
name) is read through :func:`term`: its English is the catalog's key, so English stays exactly as it was.

    tongue("ru").say(say("%(element)s forms %(formation)s", element="B1a", formation=term("line")))
      -> "B1a строится в линию"

The names of the scenarios (places, brigades, commanders, sides) are in the catalog too, each in its usual
spelling in each language; the orders read those spellings as the scenario's names (:func:`native_names`).
"""

from __future__ import annotations

import re
import unicodedata
from functools import lru_cache
from pathlib import Path

from pbem.lang import LANGUAGES, Text, Tongue, catalog, say

LOCALE = Path(__file__).parent / "locale"
DOMAIN = "dba"


def tongue(lang: str | None = "en") -> Tongue:
    """DBA's texts in ``lang`` (en, fr, ru, uk, zh; any other reads as English)."""
    return catalog(lang or "en", (LOCALE, DOMAIN))


def N_(message: str) -> str:
    """A text for the catalog, translated where it is read (``tongue(lang).gettext(message)``)."""
    return message


def term(word: str | None) -> Text | str | None:
    """A word kept as data, read in each language (its English is its catalog key); None and "" as they are."""
    return Text(word) if word else word


SIDE_WORDS = {"blue": N_("Blue"), "red": N_("Red"), "french": N_("French"), "allies": N_("Allies")}
"""A side of the scenarios as a sentence names it (English capitalises it: "Blue chooses", never the id "blue";
each language as it names the side's troops: "les bleus", "синие", "蓝军")."""


def side_term(side: str | None) -> Text | str | None:
    """A side's id as a word of a sentence, read in each language (:data:`SIDE_WORDS`; another side's id
    capitalised)."""
    return term(SIDE_WORDS.get(side, side.capitalize())) if side else side


def terms(words, sep: str = ", ") -> Text | str:
    """Words kept as data, joined; each read in each language."""
    words = list(words)
    if not words:
        return ""
    values = {f"w{n}": term(w) for n, w in enumerate(words)}
    return Text(sep.join(f"%(w{n})s" for n in range(len(words))), values)


def colon(head, rest) -> Text:
    """``head: rest`` as the reader's language writes it ("1re brigade bleue : 9/9 fraîche", "蓝军第1旅：9/9")."""
    return say("%(head)s: %(rest)s", head=head, rest=rest)


def then(*parts) -> Text:
    """Clauses one after another, separated as the reader's language separates them ("a; b", "a ; b", "a；b")."""
    parts = [p for p in parts if p not in (None, "")]
    if len(parts) == 1:
        return parts[0] if isinstance(parts[0], Text) else Text("%(p)s", {"p": parts[0]})
    said = say("%(first)s; %(then)s", first=parts[0], then=parts[1])
    for part in parts[2:]:
        said = say("%(first)s; %(then)s", first=said, then=part)
    return said


def joined(*parts, sep: str = "") -> Text:
    """Texts (or plain strings) one after another, each read in its reader's language; ``sep="; "`` separates
    them as the reader's language does (:func:`then`)."""
    parts = [p for p in parts if p not in (None, "")]
    if sep == "; " and parts:
        return then(*parts)
    return Text("".join(f"%(p{n})s" for n in range(len(parts))) if not sep else
                sep.join(f"%(p{n})s" for n in range(len(parts))), {f"p{n}": p for n, p in enumerate(parts)})


def fold(text: str) -> str:
    """Lower case, accents off, hyphens and spaces as one space, Ё as Е: how a native name is compared."""
    text = "".join(c for c in unicodedata.normalize("NFKD", text.lower()) if not unicodedata.combining(c))
    return " ".join(text.replace("ё", "е").replace("-", " ").replace("_", " ").replace("’", "'").split())


@lru_cache(maxsize=1)
def native_names() -> dict[str, str]:
    """Every language's spelling of a name the catalog holds (places, brigades, commanders), folded -> the
    English name (the scenario's key): "général azur" and "генерал азур" -> "General Azur". A spelling that two
    names share is left out."""
    from babel.messages.mofile import read_mo

    out: dict[str, str] = {}
    clash: set[str] = set()
    for code in LANGUAGES:
        mo = LOCALE / code / "LC_MESSAGES" / f"{DOMAIN}.mo"
        if not mo.exists():
            continue
        with mo.open("rb") as f:
            for message in read_mo(f):
                if not message.id or not isinstance(message.id, str) or not isinstance(message.string, str) \
                        or "%" in message.id:
                    continue
                native = fold(message.string)
                if native:
                    if out.get(native, message.id) != message.id:
                        clash.add(native)
                    out[native] = message.id
    return {k: v for k, v in out.items() if k not in clash}


__all__ = ["DOMAIN", "LOCALE", "N_", "ORDER_WORDS", "Text", "Tongue", "colon", "error_in_words", "fold", "joined",
           "native_names", "say", "term", "terms", "then", "tongue", "words_in"]


ORDER_WORDS = ("MOVE TO", "HOLD", "ATTACK", "DEPLOY", "RETREAT TO", "IN LINE", "IN COLUMN", "IN SQUARE",
               "IN SKIRMISH ORDER", "LIMBERED", "UNLIMBERED", "MOUNTED", "DISMOUNTED", "IF", "AT", "SUPPORTING",
               "BY ROAD", "UNTIL", "UNLESS", "AT TURN", "THEN", "FROM", "TO", "TURN", "INITIATIVE", "ENEMY",
               "FRIENDLY", "REACHES", "WITHIN", "OF", "ATTACKS", "FIRES", "RETREATS", "ENEMY AT", "NEAREST ENEMY",
               "FINAL")
"""The order words as the normalised orders write them (each a catalog entry, its translation the word of each
language's orders)."""

_ORDER_WORD = re.compile(r"(?<![\w<-])(" + "|".join(re.escape(w) for w in sorted(ORDER_WORDS, key=len, reverse=True))
                         + r")(?![\w>-])")


def words_in(text: str, lang: str | None) -> str:
    """``text`` (a problem, what was expected) with each English order word in it written in ``lang``'s words."""
    t = tongue(lang)
    if t.lang == "en" or not text:
        return text
    return _ORDER_WORD.sub(lambda m: t.gettext(m.group()), text)


def error_in_words(error, lang: str | None):
    """An OrdersError whose problems name the order words in ``lang``'s (line, column, found unchanged)."""
    import dataclasses

    from pbem.core.orders import OrdersError

    return OrdersError([dataclasses.replace(p, message=words_in(p.message, lang), expected=words_in(p.expected, lang))
                        for p in error.problems])
