"""The coverage tables of docs/rules-coverage/: current, and honest about what no case pins yet."""

import re
import shutil

import pytest

from pbem.cli import main
from pbem.tools import coverage
from pbem.tools.coverage import named_sections


@pytest.mark.parametrize("game", coverage.GAMES)
def test_the_table_is_what_the_cases_give(game):
    assert coverage.stale([game]) == [], f"run: pbem coverage {game}"


@pytest.mark.parametrize("game", coverage.GAMES)
def test_every_section_a_case_names_is_in_the_book(game):
    assert coverage.coverage(game).unknown == []


@pytest.mark.parametrize("game", coverage.GAMES)
def test_every_section_with_a_rule_has_a_case_or_says_what_is_missing(game):
    cov = coverage.coverage(game)
    gaps = {s.id for s in cov.gaps}
    said = {s.id for s in cov.sections if s.todo}
    assert gaps - said == set(), "sections with a rule and no case: write one, from the text first"
    assert said - gaps == set(), "these sections have a case now: remove their todo from the sections file"


@pytest.mark.parametrize("game", coverage.GAMES)
def test_a_case_that_names_no_section_names_a_reading(game):
    """A case may pin a reading of the project's own (docs/rules-notes.md) rather than a passage of the book;
    then its rule field names the reading (D13, V10, T39 ...)."""
    for name in coverage.coverage(game).unnamed:
        rule = (coverage.CASES / game / name).read_text(encoding="utf-8")
        field = re.search(r'^rule = "(.*)"', rule, re.M)
        assert field and re.search(r"\b[A-Z]{1,2}\d+\b", field.group(1)), name


def test_sections_named_in_a_rule_field():
    assert named_sections("002 §5, §5.3", "002") == ["5", "5.3"]
    assert named_sections("002 §6.3; rules notes: battles by mail", "002") == ["6.3"]
    assert named_sections("003 §13 last paragraph; 003 §11 steps 2-7, 11; §12", "003") == ["13", "11", "12"]
    assert named_sections("000 §11 steps 4, 6, 7; §18", "000") == ["11", "18"]
    assert named_sections("002 §10.0", "002") == ["10"]
    assert named_sections("004 «Стрельба», «Пример сражения» 1", "004") == ["Стрельба", "Пример сражения"]
    # another book's sections are not this one's
    assert named_sections("003 §8; 000 §9", "000") == ["9"]
    assert named_sections("003 §8; 000 §9", "003") == ["8"]
    assert named_sections("D13", "004") == []


def test_a_new_case_changes_the_table(tmp_path):
    cases, docs = tmp_path / "cases", tmp_path / "docs"
    shutil.copytree(coverage.CASES / "marengo", cases / "marengo")
    docs.mkdir()
    shutil.copy(coverage.DOCS / "marengo.sections.toml", docs)
    coverage.write(["marengo"], cases, docs)
    assert coverage.stale(["marengo"], cases, docs) == []
    gaps = [s.id for s in coverage.coverage("marengo", cases, docs).gaps]
    (cases / "marengo" / "new.toml").write_text('[case]\ntitle = "x"\nrule = "003 §7"\n', encoding="utf-8")
    assert coverage.stale(["marengo"], cases, docs) == ["marengo"]
    after = coverage.coverage("marengo", cases, docs)
    assert "new.toml" in after.section("7").cases
    assert [s.id for s in after.gaps] == [g for g in gaps if g != "7"]


def test_the_command_checks(capsys):
    assert main(["coverage", "--check"]) == 0
