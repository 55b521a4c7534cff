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
from pbem.lang import LANGUAGES, Text, Tongue, catalog, language, say

__all__ = ["FAMILY_LOCALE", "LANGUAGES", "Tongue", "colon", "language", "then", "tongue"]

FAMILY_LOCALE = Path(__file__).parent / "locale"


def tongue(lang: str | None = "en", domain: str = "simmons", directory: Path | None = None) -> Tongue:
    """The texts of ``lang`` in the catalog ``domain`` under ``directory`` (the family's when None),
    falling back on the family's catalog, then the core's (the frame of an orders problem), then
    on the English source."""
    if directory is None:
        return catalog(lang, (FAMILY_LOCALE, "simmons"), (CORE_LOCALE, "core"))
    directory = directory if isinstance(directory, Path) else Path(directory)  # a Path made once, not a day
    return catalog(lang, (directory, domain), (FAMILY_LOCALE, "simmons"), (CORE_LOCALE, "core"))


def colon(head, rest) -> Text:
    """``head: rest`` as the reader's language writes it ("cavalerie 2 : à partir de 17 h", "骑兵 2：17时起"):
    the family's catalog holds the frame."""
    return say("%(head)s: %(rest)s", head=head, rest=rest)


def then(*parts) -> Text:
    """Clauses one after another, separated as the reader's language separates them ("a; b"; in French "a ; b",
    in Chinese "a；b"); empty parts left out."""
    parts = [p for p in parts if p not in (None, "")]
    said = parts[0] if parts and isinstance(parts[0], Text) else Text("%(p)s", {"p": parts[0] if parts else ""})
    for part in parts[1:]:
        said = say("%(first)s; %(then)s", first=said, then=part)
    return said
