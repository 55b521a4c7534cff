"""Every Triomphe à Marengo adjudication case holds (tests/cases/triomphe/*.toml)."""

from pathlib import Path

import pytest

from pbem.games.triomphe.cases import run_case, show

CASES = sorted((Path(__file__).parent / "cases" / "triomphe").glob("*.toml"))


def test_there_are_cases():
    assert len(CASES) >= 10


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    outcome = run_case(path)
    assert outcome.ok, "\n".join(outcome.failures) + "\n\n" + show(outcome)


def test_every_case_names_its_rule_and_game():
    import tomllib

    for path in CASES:
        data = tomllib.loads(path.read_text())
        assert data.get("game") == "triomphe", path
        assert "000 §" in data["case"].get("rule", ""), path


def test_a_case_with_a_wrong_expectation_fails(tmp_path):
    source = (Path(__file__).parent / "cases" / "triomphe" / "s23-austria-first-turn.toml").read_text()
    wrong = tmp_path / "wrong.toml"
    (tmp_path / "maps").mkdir()
    (tmp_path / "maps" / "s23.toml").write_text(
        (Path(__file__).parent / "cases" / "triomphe" / "maps" / "s23.toml").read_text())
    wrong.write_text(source.replace("spent = 0", "spent = 1"))
    outcome = run_case(wrong)
    assert not outcome.ok
    assert any("orders spent: expected 1, spent 0" in f for f in outcome.failures)
