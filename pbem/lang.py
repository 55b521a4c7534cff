"""The languages pbem writes in, and the one loader of their gettext catalogs (Babel), shared by the
server and the games.

A package keeps its catalogs beside its code, ``<package>/locale/<code>/LC_MESSAGES/<domain>.po``,
with the compiled ``.mo`` committed next to it (no compile step at install time; docs/translating.md).
English is the source language: its texts are the msgids, so ``en`` (and any code not in
:data:`LANGUAGES`) reads the texts as written.

    t = catalog("fr", (GAME_LOCALE, "marengo"), (FAMILY_LOCALE, "simmons"))
    t.gettext("Morale")                                   -> "Moral"
    t.ngettext("%(num)d block", "%(num)d blocks", 3)      -> "3 blocs"
    t.gettext("%(side)s's day", side=...)                 -> filled in after translation

An engine does not know its reader's language: it writes what happened as a :class:`Text` — the
catalog entry (English) and its values — and the report reads it in each seat's language:

    said = say("%(block)s retreats to %(place)s", block="Lannes", place="Marengo")
    str(said)                                             -> the English sentence (logs, tests)
    catalog("fr", ...).say(said)                          -> the French one

A value may itself be a Text (a side's name, a formation) and is read in the same language; a list
or tuple of values is read as a list (each read, joined by the language's separator: ", " and in
Chinese "、"); a float is written with the language's decimal sign (1.9; in French 1,9).

A text missing from the first catalog is looked for in the next (a game's own catalog falls back
on its family's). Plural forms come from each catalog's header (Russian and Ukrainian have three).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from babel.numbers import format_decimal
from babel.support import NullTranslations, Translations

LANGUAGES = {"en": "English", "fr": "Français", "ru": "Русский", "uk": "Українська", "zh": "中文"}
"""Every language, by code, with its own name (what a chooser shows: a reader finds his language by
its name): English (the source), French, Russian, Ukrainian, Chinese (simplified)."""

DEFAULT = "en"


def normalise(code) -> str | None:
    """The language a code names (``fr``, ``FR``, ``fr-CA``, ``fr_FR``, ``zh_Hans``, ``zh-CN``),
    or None when it names none of :data:`LANGUAGES`."""
    text = str(code or "").strip().replace("_", "-").lower()
    base = text.split("-")[0]
    return base if base in LANGUAGES else None


def language(code) -> str:
    """The language a code names, English when it names none."""
    return normalise(code) or DEFAULT


class Tongue:
    """The texts of one language: gettext/ngettext that also fill in their ``%(name)s`` placeholders."""

    def __init__(self, lang: str, translations: NullTranslations):
        self.lang = lang
        self.translations = translations

    def gettext(self, message: str, /, **values) -> str:
        text = self.translations.gettext(message)
        return text % values if values else text

    def ngettext(self, singular: str, plural: str, num: int, /, **values) -> str:
        """The form of ``num``; ``%(num)d`` in the text is ``num`` unless given."""
        values.setdefault("num", num)
        return self.translations.ngettext(singular, plural, num) % values

    _ = gettext

    def say(self, text: Text | str) -> str:
        """A :class:`Text` in this language (its Text values too, and lists of values); a plain
        string as it is."""
        if isinstance(text, (list, tuple)):
            return self.listed(text)
        if not isinstance(text, Text):
            return text
        return text.read_in(self)

    def decimal(self, value: float) -> str:
        """A number with a fraction written with this language's decimal sign ("1.9" in English, "1,9" in
        French, Russian and Ukrainian), without grouping; English writes it as Python does (``str``)."""
        if self.lang == DEFAULT:
            return str(value)
        return format_decimal(value, format="0.######", locale=self.lang)

    def listed(self, items) -> str:
        """Values read in this language and joined as a list ("A1, A2"; in Chinese "A1、A2")."""
        return LIST_SEPARATOR.get(self.lang, ", ").join(str(self.say(item)) for item in items)

    def __repr__(self) -> str:
        return f"Tongue({self.lang!r})"


class NamedTongue(Tongue):
    """A game's texts in one language with the places of its map in their usual spelling there: a value
    that is exactly a place's name on the map is written as ``names`` spells it (Marengo: Маренго,
    马伦哥). A game whose sentences carry places as plain names (the Marengo family) reads them so."""

    def __init__(self, base: Tongue, names: dict[str, str]):
        super().__init__(base.lang, base.translations)
        self.names = names

    def spelled(self, value):
        return self.names.get(value, value) if isinstance(value, str) else value

    def gettext(self, message: str, /, **values) -> str:
        return super().gettext(message, **{k: self.spelled(v) for k, v in values.items()})

    def ngettext(self, singular: str, plural: str, num: int, /, **values) -> str:
        return super().ngettext(singular, plural, num, **{k: self.spelled(v) for k, v in values.items()})

    _ = gettext

    def say(self, text: Text | str) -> str:
        return self.spelled(text) if isinstance(text, str) else super().say(text)


LIST_SEPARATOR = {"zh": "、"}
"""How a language separates the items of a list in a sentence (", " unless said here)."""


@dataclass
class Text:
    """A sentence to be read in its reader's language: a catalog entry (its English text, with
    ``%(name)s`` placeholders) and the values that fill it. ``plural`` is the English plural of an
    ngettext entry, chosen by ``values["num"]``. ``str()`` is the English sentence."""

    message: str
    values: dict = field(default_factory=dict)
    plural: str | None = None

    def __str__(self) -> str:
        return ENGLISH.say(self)

    def read_in(self, tongue: Tongue) -> str:
        """The sentence in ``tongue``'s language (its values read there too). A kind of Text that
        English writes otherwise than its catalog entry (an hour: 7AM) overrides this."""
        values = {k: tongue.say(v) if isinstance(v, (Text, list, tuple)) else
                  tongue.decimal(v) if isinstance(v, float) else v for k, v in self.values.items()}
        if self.plural is None:
            return tongue.gettext(self.message, **values)
        return tongue.ngettext(self.message, self.plural, values["num"], **values)

    def to_dict(self) -> dict:
        """The Text as plain JSON data, kept where a game keeps what it has said (a report's news in its state):
        ``{"message"[, "values"][, "plural"]}`` (no "values" when it has none), a value that is a Text as its own
        dict, a list or tuple as a list.
        :meth:`from_dict` rebuilds a Text that reads the same in every language. A kind of Text that reads
        itself otherwise (:meth:`read_in` overridden) cannot be rebuilt so: TypeError, rather than a text that
        would read otherwise once rebuilt."""
        if type(self).read_in is not Text.read_in:
            raise TypeError(f"a {type(self).__name__} reads itself otherwise than its catalog entry: it is not kept "
                            f"as a Text's data")
        out = {"message": self.message}
        if self.values:
            out["values"] = {k: _kept(v) for k, v in self.values.items()}
        if self.plural is not None:
            out["plural"] = self.plural
        return out

    @classmethod
    def from_dict(cls, data: dict) -> Text:
        """The Text :meth:`to_dict` kept (its Text values rebuilt too)."""
        return cls(data["message"], {k: _rebuilt(v) for k, v in data.get("values", {}).items()}, data.get("plural"))


def _kept(value):
    """A Text's value as JSON data (see :meth:`Text.to_dict`)."""
    if isinstance(value, Text):
        return value.to_dict()
    if isinstance(value, (list, tuple)):
        return [_kept(v) for v in value]
    if value is None or isinstance(value, (str, int, float)):
        return value
    raise TypeError(f"a Text's value {value!r} ({type(value).__name__}) is not kept as JSON data")


def _rebuilt(value):
    if isinstance(value, dict):
        return Text.from_dict(value)
    if isinstance(value, list):
        return [_rebuilt(v) for v in value]
    return value


def say(message: str | Text, /, **values) -> Text:
    """A sentence for the catalog (extracted by ``say``), read later in its reader's language. A Text
    given without values is returned as it is (``say(why)`` where ``why`` may already be one)."""
    if isinstance(message, Text) and not values:
        return message
    return Text(message, values)


def N_(message: str) -> str:
    """A text for a catalog (extracted by ``N_``), kept as its English and read where it is shown (a game's
    title, an option's help: ``tongue.gettext(message)``)."""
    return message


def say_plural(singular: str, plural: str, num: int, /, **values) -> Text:
    """A sentence whose form follows ``num`` (Russian and Ukrainian have three)."""
    return Text(singular, dict(values, num=num), plural)


ENGLISH = Tongue(DEFAULT, NullTranslations())


@lru_cache(maxsize=128)
def catalog(lang, *sources: tuple[Path, str]) -> Tongue:
    """The texts of ``lang`` from the catalogs ``sources`` — ``(directory, domain)`` pairs, the
    first looked in first — falling back at last on the English source."""
    code = language(lang)
    if code == DEFAULT or not sources:
        return ENGLISH
    found = [t for t in (Translations.load(str(directory), [code], domain) for directory, domain in sources)
             if isinstance(t, Translations)]
    if not found:
        return Tongue(code, NullTranslations())
    first = found[0]
    for later in found[1:]:
        first.add_fallback(later)
    return Tongue(code, first)
