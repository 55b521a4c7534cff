"""Every adjudication case under tests/cases/ holds (docs/cases.md)."""

from pathlib import Path

import pytest

from pbem.games.marengo.cases import run_case, show

CASES = sorted((Path(__file__).parent / "cases").rglob("*.toml"))


def test_there_are_cases():
    assert len(CASES) >= 1


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    outcome = run_case(path)
    assert outcome.ok, "\n".join(outcome.failures) + "\n\n" + show(outcome)


def test_a_case_with_a_wrong_expectation_fails(tmp_path):
    source = (Path(__file__).parent / "cases" / "marengo" / "assault-rulebook-example.toml").read_text()
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(source.replace('morale = { austria = 6, france = 8 }', 'morale = { austria = 7, france = 8 }'))
    outcome = run_case(wrong)
    assert not outcome.ok
    assert any("morale of austria: expected 7, is 6" in f for f in outcome.failures)
