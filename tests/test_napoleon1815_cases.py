"""Every Napoleon 1815 adjudication case holds (tests/cases/napoleon1815/), run by the
game's own case runner; and the runner itself notices a wrong expectation."""

from pathlib import Path

import pytest

from pbem.games import ruleset

ROOT = Path(__file__).parent / "cases" / "napoleon1815"
CASES = sorted(ROOT.glob("*.toml"))
RULES = ruleset("napoleon1815")


def test_there_are_cases():
    assert len(CASES) >= 30


@pytest.mark.parametrize("path", CASES, ids=[p.stem for p in CASES])
def test_case(path):
    outcome = RULES.run_case(path)
    assert outcome.ok, "\n".join(outcome.failures) + "\n\n" + RULES.show_case(outcome)


def test_every_case_names_its_section():
    import tomllib

    for path in CASES:
        meta = tomllib.loads(path.read_text())["case"]
        assert meta.get("rule", "").startswith("002 §"), path.name


def test_a_wrong_expectation_fails(tmp_path):
    source = (ROOT / "forced-march-fails.toml").read_text()
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(source.replace("strength = 2", "strength = 3", 1))
    outcome = RULES.run_case(wrong)
    assert not outcome.ok
