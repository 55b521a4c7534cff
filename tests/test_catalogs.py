"""The gettext catalogs of pbem (the server's, pbem/locale, and every game's, pbem/games/*/locale):
each complete, each committed .mo what its .po compiles to, placeholders kept, plural forms as
Babel's locale data says; the server's catalog holding every text the code and templates mark."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pbem.server import i18n

ROOT = Path(__file__).resolve().parent.parent
CATALOGS = sorted((ROOT / "pbem").glob("**/locale/*/LC_MESSAGES/*.po"))


def test_the_server_has_a_catalog_for_every_language_but_english():
    codes = {po.parent.parent.name for po in (ROOT / "pbem" / "locale").glob("*/LC_MESSAGES/pbem.po")}
    assert codes == set(i18n.LANGUAGES) - {"en"}


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_catalog_is_complete_with_its_placeholders(po):
    assert i18n.catalog_problems(po) == []


@pytest.mark.parametrize("po", CATALOGS, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_committed_mo_is_its_po_compiled(po):
    mo = po.with_suffix(".mo")
    assert mo.exists(), f"{mo} is missing: scripts/translations compile"
    assert mo.read_bytes() == i18n.compile_po(po), f"{mo} differs from its .po: scripts/translations compile"


@pytest.mark.parametrize("code, forms", [("fr", 2), ("ru", 3), ("uk", 3), ("zh", 1)])
def test_plural_forms_come_from_babel(code, forms):
    catalog = i18n.read_catalog(ROOT / "pbem" / "locale" / code / "LC_MESSAGES" / "pbem.po")
    assert catalog.num_plurals == forms
    assert [i18n.translate_plural(code, "%(num)d day", "%(num)d days", n) for n in (1, 3, 5)] == {
        "fr": ["1 jour", "3 jours", "5 jours"], "ru": ["1 день", "3 дня", "5 дней"],
        "uk": ["1 день", "3 дні", "5 днів"], "zh": ["1 天", "3 天", "5 天"]}[code]


def test_the_checks_catch_an_untranslated_a_fuzzy_and_a_broken_entry(tmp_path):
    po = tmp_path / "x.po"
    po.write_text('msgid ""\nmsgstr ""\n"Language: fr\\n"\n"Plural-Forms: nplurals=2; plural=(n > 1);\\n"\n\n'
                  'msgid "Day %(day)s"\nmsgstr "Tour %(jour)s"\n\n'
                  'msgid "Hello"\nmsgstr ""\n\n'
                  '#, fuzzy\nmsgid "Bye"\nmsgstr "Au revoir"\n\n'
                  'msgid "%(num)d day"\nmsgid_plural "%(num)d days"\nmsgstr[0] "%(num)d jour"\nmsgstr[1] "jours"\n',
                  encoding="utf-8")
    problems = "\n".join(i18n.catalog_problems(po))
    assert "'Day %(day)s': placeholders" in problems
    assert "'Hello' is not translated" in problems
    assert "'Bye' is fuzzy" in problems
    assert "'%(num)d day': placeholders" in problems


def test_the_server_catalog_holds_every_text_the_code_marks(tmp_path):
    """A text marked in the code or a template but missing from the catalogs would show in English:
    extracted again here as scripts/translations does, the catalog's texts must be the same."""
    pot = tmp_path / "pbem.pot"
    subprocess.run([str(Path(sys.executable).parent / "pybabel"), "-q", "extract", "-F", "babel.cfg", "-k", "N_",
                    "-k", "ngettext:1,2", "-k", "translate:2", "-k", "translate_plural:2,3", "--no-wrap",
                    "-o", str(pot), "."], cwd=ROOT, check=True)
    wanted = {m.id if isinstance(m.id, str) else tuple(m.id) for m in read_po(pot.open("rb")) if m.id}
    for code in set(i18n.LANGUAGES) - {"en"}:
        catalog = i18n.read_catalog(ROOT / "pbem" / "locale" / code / "LC_MESSAGES" / "pbem.po")
        held = {m.id if isinstance(m.id, str) else tuple(m.id) for m in catalog if m.id}
        assert wanted - held == set(), f"{code}: run scripts/translations update, then translate"
