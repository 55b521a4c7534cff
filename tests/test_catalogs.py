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


def translations():
    """scripts/translations, as a module (its catalogs and how each finds its texts)."""
    import importlib.machinery
    import importlib.util

    path = ROOT / "scripts" / "translations"
    loader = importlib.machinery.SourceFileLoader("translations", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("translations", loader))
    sys.modules["translations"] = module  # its dataclasses look their module up
    loader.exec_module(module)
    return module


SCRIPT = translations()


def test_every_catalog_is_one_the_script_knows():
    """One command covers every catalog: none of pbem/ is left out of scripts/translations."""
    on_disk = {po.stem for po in CATALOGS}
    assert on_disk == set(SCRIPT.SOURCES)
    assert {po for source in SCRIPT.SOURCES.values() for po in source.pos()} == set(CATALOGS)


@pytest.mark.parametrize("name", [n for n, s in SCRIPT.SOURCES.items() if s.texts is not None])
def test_every_extracted_catalog_holds_the_texts_its_code_marks_and_no_other(name):
    """A text marked in the code (or a template, or DBA's data words and names) but missing from a catalog would
    show in English; one the code no longer marks is dead weight. Extracted again as scripts/translations does,
    each language's catalog holds exactly the texts found."""
    wanted = SCRIPT.ids(SCRIPT.texts(name))
    for po in SCRIPT.SOURCES[name].pos():
        held = SCRIPT.ids(read_po(po.open("rb")))
        assert wanted - held == set(), f"{po}: scripts/translations update {name}, then translate"
        assert held - wanted == set(), f"{po}: scripts/translations update {name}"


def test_the_check_finds_a_text_the_code_marks_that_a_catalog_lacks(tmp_path, monkeypatch):
    source = SCRIPT.SOURCES["core"]
    folder = tmp_path / "locale"
    for po in source.pos():
        target = folder / po.relative_to(source.folder)
        target.parent.mkdir(parents=True)
        target.write_bytes(po.read_bytes())
        target.with_suffix(".mo").write_bytes(po.with_suffix(".mo").read_bytes())
    monkeypatch.setattr(source, "folder", folder)
    monkeypatch.setattr(source, "texts", lambda: SCRIPT.extracted(ROOT / "pbem" / "core", SCRIPT.GAME_KEYWORDS, "core"))
    assert SCRIPT.problems(["core"]) == []
    template = source.texts()
    template.add("a new sentence of the core")
    monkeypatch.setattr(source, "texts", lambda: template)
    found = SCRIPT.problems(["core"])
    assert len(found) == 4 and all("lacks 'a new sentence of the core'" in line for line in found)
    SCRIPT.merge(source, template)  # update: merged in, untranslated, so the catalog is not complete yet
    assert any("'a new sentence of the core' is not translated" in line for line in SCRIPT.problems(["core"]))


@pytest.mark.parametrize("name", [n for n, s in SCRIPT.SOURCES.items() if s.texts is None])
def test_a_catalog_written_by_hand_holds_every_text_its_code_marks(name):
    """The Marengo family's catalogs are written by hand (their code reads texts from tables too), but a
    text its code marks (say, gettext...) is in the catalog or one it falls back on."""
    assert SCRIPT.missing_by_hand(SCRIPT.SOURCES[name]) == set(), f"add it to {name}'s catalogs by hand"
