"""The languages a game's texts are written in, through gettext catalogs (Babel).

A game keeps its catalogs beside its code, ``<package>/locale/<code>/LC_MESSAGES/<domain>.po``
with the compiled ``.mo`` committed next to it (no compile step at install time). The
family's shared texts (the report's frame, the turn's names) are the ``simmons`` domain
here; a game's own texts its own domain, which falls back on the family's.

    t = tongue("fr", "marengo", MARENGO_LOCALE)
    t.gettext("Morale")                                   -> "Moral"
    t.ngettext("%(num)d block", "%(num)d blocks", 3)      -> "3 blocs"
    t.gettext("%(side)s's day", side=...)                 -> formatted after translation

English is the source: ``en`` (and any code not in :data:`LANGUAGES`) reads the msgids.
Extract and update with ``pybabel`` (docs/glossary-marengo.md says how).
"""

from __future__ import annotations

from functools import lru_cache
from pathlib import Path

from babel.support import NullTranslations, Translations

LANGUAGES = ("en", "fr", "ru", "uk", "zh")
"""The languages every game text is written in: English (the source), French, Russian,
Ukrainian, Chinese (simplified)."""

FAMILY_LOCALE = Path(__file__).parent / "locale"


def language(lang: str | None) -> str:
    """``lang`` as one of :data:`LANGUAGES` (``fr_FR``, ``zh-Hans`` read as ``fr``, ``zh``; others: en)."""
    code = (lang or "en").replace("-", "_").split("_")[0].lower()
    return code if code in LANGUAGES else "en"


class Tongue:
    """The texts of one language: gettext/ngettext that also fill in their ``%(name)s`` placeholders."""

    def __init__(self, lang: str, translations: NullTranslations):
        self.lang = lang
        self.translations = translations

    def gettext(self, message: str, **values) -> str:
        text = self.translations.gettext(message)
        return text % values if values else text

    def ngettext(self, singular: str, plural: str, num: int, **values) -> str:
        """The form of ``num`` (Russian and Ukrainian have three); ``%(num)d`` in the text is ``num``."""
        return self.translations.ngettext(singular, plural, num) % dict(values, num=num)

    def __repr__(self) -> str:
        return f"Tongue({self.lang!r})"


@lru_cache(maxsize=64)
def tongue(lang: str | None = "en", domain: str = "simmons", directory: Path | None = None) -> Tongue:
    """The texts of ``lang`` in the catalog ``domain`` under ``directory`` (the family's when None),
    falling back on the family's catalog, then on the English source."""
    code = language(lang)
    if code == "en":
        return Tongue("en", NullTranslations())
    family = Translations.load(str(FAMILY_LOCALE), [code], "simmons")
    if domain == "simmons" and directory is None:
        return Tongue(code, family)
    own = Translations.load(str(directory), [code], domain)
    if isinstance(own, Translations):
        own.add_fallback(family)
        return Tongue(code, own)
    return Tongue(code, family)
