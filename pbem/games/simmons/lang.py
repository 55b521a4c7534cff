"""The family's catalogs: the texts Bonaparte at Marengo and Triomphe à Marengo share (the report's
frame, the turn's names) are the ``simmons`` domain here; a game's own texts its own domain, which
falls back on the family's. The loader and the languages are pbem.lang's, shared by every game
and the server.

    t = tongue("fr", "marengo", MARENGO_LOCALE)
    t.gettext("Morale")                                   -> "Moral"

Extract and update with ``scripts/translations`` (docs/translating.md says how).
"""

from __future__ import annotations

from pathlib import Path

from pbem.core.orders import CORE_LOCALE
from pbem.lang import LANGUAGES, Tongue, catalog, language

__all__ = ["FAMILY_LOCALE", "LANGUAGES", "Tongue", "language", "tongue"]

FAMILY_LOCALE = Path(__file__).parent / "locale"


def tongue(lang: str | None = "en", domain: str = "simmons", directory: Path | None = None) -> Tongue:
    """The texts of ``lang`` in the catalog ``domain`` under ``directory`` (the family's when None),
    falling back on the family's catalog, then the core's (the frame of an orders problem), then
    on the English source."""
    if directory is None:
        return catalog(lang, (FAMILY_LOCALE, "simmons"), (CORE_LOCALE, "core"))
    directory = directory if isinstance(directory, Path) else Path(directory)  # a Path made once, not a day
    return catalog(lang, (directory, domain), (FAMILY_LOCALE, "simmons"), (CORE_LOCALE, "core"))
