"""Napoleon 1815's words in each language: its catalog (pbem/games/napoleon1815/locale, the
``napoleon1815`` domain; docs/glossary-napoleon1815.md holds the terms, the Russian ones the rule
book 002's), and its order words, sides and towns in each language (words.toml), which the orders
read as the English ones: the logged orders stay English, whatever language they were written in.

    t = tongue("ru")
    t.say(say("Battle of %(town)s ...", town=Place("Ligny")))   -> "... Линьи ..."

A sentence the engine writes is a :class:`pbem.lang.Text`; a town in it is a :class:`Place` (its
English name, read in each language's usual spelling), a list of parts a :class:`Join`.
"""

from __future__ import annotations

import re
import tomllib
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from pbem.core.decisions import Decision
from pbem.core.orders import Lexicon, OrdersError, Problem, fold
from pbem.lang import Text, Tongue, catalog, language, say

LOCALE = Path(__file__).parent / "locale"
DOMAIN = "napoleon1815"

with (Path(__file__).parent / "words.toml").open("rb") as _f:
    _DATA = tomllib.load(_f)

WORDS: dict[str, dict[str, list[str]]] = _DATA["words"]
SIDES: dict[str, dict[str, list[str]]] = _DATA["sides"]
NAMES: dict[str, dict[str, list[str]]] = _DATA["names"]

NATIVE = {fold(alias): word for word, by_lang in WORDS.items() for aliases in by_lang.values() for alias in aliases
          if fold(alias) != fold(word)}
"""Every language's order word, folded (lower case, no accents) -> the English word."""
ENGLISH_WORDS = {fold(w): w for w in WORDS}
NAMES_NATIVE = {fold(alias): name for name, by_lang in NAMES.items() for aliases in by_lang.values()
                for alias in aliases}
"""A town as each language spells it, folded -> the map's name."""
SIDES_NATIVE = {fold(alias): seat for seat, by_lang in SIDES.items() for aliases in by_lang.values()
                for alias in aliases}
"""A seat as each language names it, folded -> the seat."""
LEXICON = Lexicon([alias for table in (WORDS, SIDES, NAMES) for by_lang in table.values()
                   for aliases in by_lang.values() for alias in aliases])
"""Every word, seat and town of words.toml, to cut Chinese written without spaces (pbem.core.orders.tokenize)."""

_CYRILLIC = {"а": "a", "б": "b", "в": "v", "г": "g", "д": "d", "е": "e", "ё": "e", "ж": "j", "з": "z", "и": "i",
             "й": "i", "к": "k", "л": "l", "м": "m", "н": "n", "о": "o", "п": "p", "р": "r", "с": "s", "т": "t",
             "у": "ou", "ф": "f", "х": "h", "ц": "ts", "ч": "tch", "ш": "ch", "щ": "ch", "ъ": "", "ы": "y",
             "ь": "", "э": "e", "ю": "u", "я": "ia", "і": "i", "є": "e", "ї": "i", "ґ": "g"}
_WORD = re.compile(r"(?<![\w>-])[A-Z][A-Z-]*[A-Z](?![\w<-])")


def latin(key: str) -> str:
    """A folded Cyrillic name in Latin letters as French spells the sounds (the map's names are
    French and Flemish): Шарлеруа -> charleroi, Намюр -> namur, Динант -> dinant. A name this
    misses is still read in its usual spellings (words.toml)."""
    return "".join(_CYRILLIC.get(c, c) for c in key.replace("уа", "oi"))


def strip_accents(text: str) -> str:
    return "".join(c for c in unicodedata.normalize("NFKD", text) if not unicodedata.combining(c))


@lru_cache(maxsize=1)
def by_language() -> dict[str, frozenset[str]]:
    """Each language's order words ({"en": MOVE, PLACE..., "fr": DÉPLACER, PLACER...}): what tells the language a
    seat's orders are written in (pbem.core.written)."""
    out: dict[str, set[str]] = {"en": set(WORDS)}
    for by_lang in WORDS.values():
        for lang, aliases in by_lang.items():
            out.setdefault(lang, set()).update(aliases)
    return {lang: frozenset(words) for lang, words in out.items()}


def native_words(lang: str) -> dict[str, str]:
    """{English order word: ``lang``'s first word for it} (English: the words themselves)."""
    return {word: (by_lang.get(lang) or [word])[0] for word, by_lang in WORDS.items()}


def native_names(lang: str) -> dict[str, str]:
    """{the map's name: ``lang``'s usual spelling} for the towns that have one."""
    return {name: by_lang[lang][0] for name, by_lang in NAMES.items() if lang in by_lang}


def mail_words(first: frozenset[str] | tuple[str, ...]) -> frozenset[str]:
    """Every language's words for ``first`` (the English words that begin an order) in upper case,
    with and without accents: a mail's orders begin at the first line starting with one."""
    out: set[str] = set(first)
    for word in first:
        for aliases in WORDS.get(word, {}).values():
            for alias in aliases:
                out |= {alias.upper(), strip_accents(alias).upper()}
    return frozenset(out)


def in_words(order: str, lang: str) -> str:
    """An order written in English (as logged) in ``lang``'s order words; ids and towns kept."""
    if language(lang) == "en":
        return order
    words = native_words(language(lang))
    return " ".join(words.get(w, w) if w.isupper() else w for w in order.split(" "))


def words_in(text: str, lang: str) -> str:
    """``text`` with each English order word in it (upper case) in ``lang``'s words."""
    if language(lang) == "en" or not text:
        return text
    words = native_words(language(lang))
    return _WORD.sub(lambda m: words.get(m.group(), m.group()), text)


_TOWNS = re.compile("|".join(re.escape(n) for n in sorted(NAMES, key=len, reverse=True)))


def order_in(text: str, lang: str) -> str:
    """An order as the game writes it (English words, the map's town names: a problem's "found")
    in ``lang``'s words and usual town spellings."""
    code = language(lang)
    if code == "en" or not text:
        return text
    names = native_names(code)
    return _TOWNS.sub(lambda m: names.get(m.group(), m.group()), in_words(text, code))


def find_town(board, text: str) -> str | None:
    """The town ``text`` names: the map's spelling, any language's usual one (words.toml), or a
    Cyrillic name in Latin letters; accents, case and spaces never matter."""
    town = board.find(text)
    if town is not None:
        return town
    key = fold(text)
    if key in NAMES_NATIVE:
        return board.find(NAMES_NATIVE[key])
    if key and not key.isascii():
        return board.find(latin(key))
    return None


def english_word(text: str) -> str | None:
    """The English order word ``text`` is (in any language, accents optional: RÉSERVE is RESERVE,
    ДВИЖЕНИЕ is MOVE), or None."""
    key = fold(text)
    return ENGLISH_WORDS.get(key) or NATIVE.get(key)


# -- sentences in each language


class Place(str):
    """A town's name (the map's, English) in a sentence: each language reads its usual spelling."""

    __slots__ = ()


class Join:
    """Parts of a sentence joined by ``sep`` (each part a Text, a Place or a string), read in each
    reader's language part by part; ``str()`` is the English."""

    __slots__ = ("parts", "sep")

    def __init__(self, parts, sep=", "):
        self.parts, self.sep = list(parts), sep

    def __str__(self) -> str:
        return str(self.sep).join(str(p) for p in self.parts)

    def __bool__(self) -> bool:
        return bool(self.parts)


class GameTongue(Tongue):
    """Napoleon 1815's texts in one language: its catalog, and the towns in their usual spelling."""

    def __init__(self, base: Tongue, names: dict[str, str]):
        super().__init__(base.lang, base.translations)
        self.names = names

    def place(self, name: str) -> str:
        return self.names.get(name, name)

    def say(self, text) -> str:
        if isinstance(text, Place):
            return self.place(text)
        if isinstance(text, Join):
            return self.say(text.sep).join(self.say(p) for p in text.parts)
        if not isinstance(text, Text):
            return text
        values = {k: self.say(v) if isinstance(v, (Text, Place, Join)) else v for k, v in text.values.items()}
        return super().say(Text(text.message, values, text.plural))


@lru_cache(maxsize=16)
def tongue(lang: str | None = "en") -> GameTongue:
    """Napoleon 1815's texts in ``lang`` (en, fr, ru, uk, zh; any other reads as English)."""
    code = language(lang)
    return GameTongue(catalog(code, (LOCALE, DOMAIN)), native_names(code) if code != "en" else {})


def date_said(date: str):
    """A date of the turn track ("15 June") in each language; another month stays as written."""
    day, _, month = date.partition(" ")
    if month == "June" and day.isdigit():
        return say("%(day)s June", day=int(day))
    return date


PART_SAID = {"morning": say("morning"), "afternoon": say("afternoon"), "night": say("night")}


def turn_said(spec):
    """A turn of the track (scenario.TurnSpec: "15 June, morning (French turn)") in each language."""
    values = dict(date=date_said(spec.date), part=PART_SAID.get(spec.part, spec.part))
    night = spec.night and "night" not in spec.part
    if spec.side == "F":
        return (say("%(date)s, %(part)s (French turn, night)", **values) if night else
                say("%(date)s, %(part)s (French turn)", **values))
    return (say("%(date)s, %(part)s (Allied turn, night)", **values) if night else
            say("%(date)s, %(part)s (Allied turn)", **values))


def place(board, town: str | None) -> Place:
    """The town ``town`` (an id) as a :class:`Place`."""
    return Place(board.name(town))


# -- decisions, told in each language


@dataclass(frozen=True)
class Asked(Decision):
    """A :class:`Decision` that also carries its question and its labels as Texts, for the
    report to read in its seat's language (the stored question and labels stay English)."""

    said: Text | None = field(default=None, compare=False)
    said_labels: tuple = field(default=(), compare=False)

    def question_in(self, t: Tongue) -> str:
        return t.say(self.said) if self.said is not None else self.question

    def label_in(self, key: str, t: Tongue) -> str:
        said = dict(self.said_labels).get(key)
        return t.say(said) if said is not None else self.label(key)


def asked(seat, kind, said: Text, options, default, said_labels=(), **more) -> Asked:
    """A decision whose question is ``said`` (its English text the stored question)."""
    return Asked(seat, kind, str(said), tuple(options), tuple(default),
                 tuple((k, str(v)) for k, v in said_labels), said=said, said_labels=tuple(said_labels), **more)


@dataclass(frozen=True)
class SaidProblem(Problem):
    """A :class:`Problem` whose message and expected words are also kept as Texts, to be read in the
    player's language (:func:`error_in_words`); the Problem's own are the English."""

    said: object = field(default=None, compare=False)
    said_expected: object = field(default=None, compare=False)

    @classmethod
    def of(cls, line: int, column: int, message, found: str = "", expected="") -> "SaidProblem":
        def said(x):
            return x if isinstance(x, (Text, Join, Place)) else None

        return cls(line, column, str(message), found, str(expected), said=said(message),
                   said_expected=said(expected))


# The questions a decision asks (battle.py, losses.py, retreat.py, supply.py), to read a stored decision
# (its English question, as the server keeps it) in another language: each template's values are read
# back from the English, then put in the reader's words.
QUESTIONS = ("Where do you place the %(marker)s (battle of %(town)s)?",
             "Retreat from %(town)s: towns, best first",
             "%(where)s: which of your strength-%(top)s blocks takes the hit?",
             "The French hold %(city)s: which %(n)s block(s) leave your army (§10)?",
             "Battle of %(town)s: your strength there is %(strength)s of %(start)s, below your WITHDRAW line. "
             "Withdraw?",
             "Battle of %(town)s", "Skirmish at %(town)s")
_PLACEHOLDER = re.compile(r"%\((\w+)\)s")


def _pattern(message: str) -> re.Pattern:
    """A template's English as a pattern that reads its values back."""
    parts = _PLACEHOLDER.split(message)  # text, name, text, name, ..., text
    return re.compile("^" + "".join(re.escape(p) if k % 2 == 0 else f"(?P<{p}>.+?)"
                                    for k, p in enumerate(parts)) + "$")


_TEMPLATES = [(m, _pattern(m)) for m in QUESTIONS]


def reread(text: str, board):
    """An English question or label of a decision as a Text (or a Place), read back from the
    templates above and the map's town names; ``text`` itself when it is none of them."""
    if board.find(text) is not None and board.name(board.find(text)) == text:
        return Place(text)
    if text in MARKER_SAID:
        return MARKER_SAID[text]
    for message, pattern in _TEMPLATES:
        m = pattern.match(text)
        if m:
            return say(message, **{k: reread(v, board) for k, v in m.groupdict().items()})
    return text


def decision_in(decision: Decision, board, lang: str) -> Decision:
    """``decision`` (as stored: English) with its question and labels in ``lang``; its options,
    default and limits unchanged (an answer names the options by key or by label)."""
    t = tongue(lang)
    if t.lang == "en":
        return decision
    question = t.say(decision.said) if isinstance(decision, Asked) and decision.said is not None else \
        t.say(reread(decision.question, board))
    labels = tuple((key, label(decision, key, t, board)) for key in decision.options)
    return Decision(decision.side, decision.kind, question, decision.options, decision.default, labels,
                    decision.min, decision.max)


def label(decision: Decision, key: str, t: GameTongue, board) -> str:
    if isinstance(decision, Asked) and dict(decision.said_labels).get(key) is not None:
        return decision.label_in(key, t)
    english = decision.label(key)
    said = reread(english, board)
    return t.say(said) if said is not english else t.gettext(english)


def error_in_words(error: OrdersError, lang: str) -> OrdersError:
    """``error`` whose problems read in ``lang``: the message and what was expected translated
    (the parser writes them as Texts when it can), the order words in ``lang``'s."""
    t = tongue(lang)
    if t.lang == "en":
        return OrdersError([Problem(p.line, p.column, p.message, p.found, p.expected) for p in error.problems])
    out = []
    for p in error.problems:
        message = t.say(getattr(p, "said", None) or p.message)
        expected = t.say(getattr(p, "said_expected", None) or p.expected)
        found = order_in(p.found, lang) if p.found.split(" ")[0] in WORDS else p.found  # a normalised order
        out.append(Problem(p.line, p.column, words_in(message, lang), found, words_in(expected, lang)))
    return OrdersError(out)


# -- the game's words, each a Text read in its reader's language

TYPE_SAID = {"leader": say("leader"), "infantry": say("infantry"), "cavalry": say("cavalry"),
             "foot_artillery": say("foot artillery"), "horse_artillery": say("horse artillery")}
ARMY_SAID = {"french": say("French"), "anglo": say("Anglo-Dutch"), "prussian": say("Prussian")}
"""An army's name where it stands alone (Blocks lost: French 3, Anglo-Dutch 1)."""
LOST_TO_STRAGGLING = {"french": say("A French block is lost to straggling"),
                      "anglo": say("An Anglo-Dutch block is lost to straggling"),
                      "prussian": say("A Prussian block is lost to straggling")}
POSITION_SAID = {"left": say("left"), "centre": say("centre"), "right": say("right")}
MARKER_SAID = {"woods": say("woods"), "farm": say("farm"), "stream": say("stream"), "hill": say("hill")}
SEAT_SAID = {"french": say("France (Napoleon)"), "anglo-dutch": say("Anglo-Dutch army (Wellington)"),
             "prussian": say("Prussian army (Blücher)")}
SIDE_ID_SAID = {"france": say("france"), "allies": say("allies")}
"""A side as the view names it (its id); English prints the id itself."""
