"""Every Napoleonic DBA table case holds (tests/cases/dba/), run by the game's case runner
(pbem/games/dba/cases.py); and the runner notices a wrong expectation."""

import tomllib
from pathlib import Path

import pytest

from pbem.games.dba.cases import CaseError, run_case

ROOT = Path(__file__).parent / "cases" / "dba"
CASES = sorted(ROOT.glob("*.toml"))


def test_there_are_cases():
    assert len(CASES) >= 80


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    outcome = run_case(path)
    assert outcome.ok, "\n".join(outcome.failures) + "\n\n" + "\n".join(outcome.lines)


def test_every_case_names_its_section_and_quotes_it():
    for path in CASES:
        meta = tomllib.loads(path.read_text(encoding="utf-8"))["case"]
        assert meta.get("rule", "").startswith("004 «") or meta.get("rule", "").startswith("D"), path.name
        assert meta.get("note"), path.name


def test_a_wrong_expectation_fails(tmp_path):
    source = (ROOT / "fire-rulebook-example-volley.toml").read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(source.replace('result = "D, -1"', 'result = "D"', 1), encoding="utf-8")
    assert not run_case(wrong).ok


def test_an_expectation_the_action_does_not_give_is_refused(tmp_path):
    source = (ROOT / "fire-rulebook-example-volley.toml").read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(source.replace("[expect]", "[expect]\npips = 3", 1), encoding="utf-8")
    with pytest.raises(CaseError):
        run_case(wrong)
