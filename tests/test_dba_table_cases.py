"""The Napoleonic DBA case runner (pbem/games/dba/cases.py) notices a wrong expectation, and every case names
its section. The cases themselves run with every game's in tests/test_cases.py (through the ruleset's
run_case), since the game has its RULESET."""

import tomllib
from pathlib import Path

import pytest

from pbem.games.dba.cases import CaseError, run_case

ROOT = Path(__file__).parent / "cases" / "dba"
CASES = sorted(ROOT.glob("*.toml"))


def test_there_are_cases():
    assert len(CASES) >= 270


def test_the_common_runner_runs_them():
    from pbem.cli import case_game

    rules = case_game(str(CASES[0]))
    assert rules.name == "dba"
    outcome = rules.run_case(CASES[0])
    assert outcome.ok and rules.show_case(outcome).startswith(f"{outcome.title}: ok")


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


TURNS = ROOT / "orders-at-turn-step-waits.toml"


def test_a_turns_case_fails_on_a_die_it_does_not_give(tmp_path):
    """Every die of a played turn is the case's: one the turn rolls beyond them fails the case (not a seeded die)."""
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(TURNS.read_text(encoding="utf-8").replace(', [3, "PIP"]]', "]"), encoding="utf-8")
    outcome = run_case(wrong)
    assert not outcome.ok and any("is not given by the case" in f for f in outcome.failures)


def test_a_turns_case_fails_on_a_die_given_for_another_purpose(tmp_path):
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(TURNS.read_text(encoding="utf-8").replace('[3, "PIP"]', '[3, "melee"]'), encoding="utf-8")
    outcome = run_case(wrong)
    assert not outcome.ok and any("the case gives it for 'melee'" in f for f in outcome.failures)


def test_a_turns_case_fails_on_a_die_never_rolled(tmp_path):
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(TURNS.read_text(encoding="utf-8").replace('[3, "PIP"]]', '[3, "PIP"], [4]]'), encoding="utf-8")
    outcome = run_case(wrong)
    assert not outcome.ok and any("the case gives 4 dice, 3 were rolled" in f for f in outcome.failures)


def test_a_turns_case_fails_on_a_wrong_place_or_order_line(tmp_path):
    source = TURNS.read_text(encoding="utf-8")
    for old, new in (("at = [9, 24]", "at = [10, 24]"), ('"HOLD, waiting for turn 3"', '"MOVE TO Red edge  (step"')):
        wrong = tmp_path / "wrong.toml"
        wrong.write_text(source.replace(old, new, 1), encoding="utf-8")
        assert not run_case(wrong).ok, old


def test_a_turns_case_with_refused_orders_that_are_accepted_fails(tmp_path):
    source = (ROOT / "orders-word-march-to-refused.toml").read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(source.replace("MARCH TO Red edge", "MOVE TO Red edge"), encoding="utf-8")
    outcome = run_case(wrong)
    assert not outcome.ok and any("expected refused" in f for f in outcome.failures)
