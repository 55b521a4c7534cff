"""Every adjudication case under tests/cases/<game>/ holds, run by its game's own case
runner (docs/cases.md)."""

from pathlib import Path

import pytest

from pbem.cli import case_game
from pbem.games import rulesets
from pbem.games.marengo.cases import run_case, show

ROOT = Path(__file__).parent / "cases"
# tests/cases/<game>/<case>.toml (a game's maps/ folder holds maps), for every installed game (a game's folder
# whose package has no RULESET yet is left out)
CASES = sorted(p for p in ROOT.glob("*/*.toml") if p.parent.name in rulesets())


def test_there_are_cases_for_every_game_that_has_a_folder():
    assert len(list((ROOT / "marengo").glob("*.toml"))) >= 100  # every rule-book example and more
    for folder in ROOT.iterdir():
        if folder.is_dir() and folder.name in rulesets():
            assert list(folder.glob("*.toml")), f"{folder} holds no case"
            assert case_game(str(next(folder.glob("*.toml")))).name == folder.name


@pytest.mark.parametrize("path", CASES, ids=[f"{p.parent.name}/{p.stem}" for p in CASES])
def test_case(path):
    rules = case_game(str(path))
    outcome = rules.run_case(path)
    assert outcome.ok, "\n".join(outcome.failures) + "\n\n" + rules.show_case(outcome)


def test_a_case_with_a_wrong_expectation_fails(tmp_path):
    source = (Path(__file__).parent / "cases" / "marengo" / "assault-rulebook-example.toml").read_text()
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(source.replace('morale = { austria = 6, france = 8 }', 'morale = { austria = 7, france = 8 }'))
    outcome = run_case(wrong)
    assert not outcome.ok
    assert any("morale of austria: expected 7, is 6" in f for f in outcome.failures)


def test_the_whole_case_in_the_docs_holds(tmp_path):
    """docs/cases.md teaches the format with one whole case: it must run and hold as written."""
    import re

    docs = (Path(__file__).parent.parent / "docs" / "cases.md").read_text()
    example = re.search(r"## A whole case\n\n```toml\n(.*?)```", docs, re.S).group(1)
    path = tmp_path / "example.toml"
    path.write_text(example)
    outcome = run_case(path)
    assert outcome.ok, "\n".join(outcome.failures) + "\n\n" + show(outcome)
    assert "F1" in {b.id for b in outcome.state.blocks.values() if b.status == "eliminated"}


def test_show_prints_why_orders_were_refused(tmp_path):
    source = (Path(__file__).parent / "cases" / "marengo" / "move-once-a-day.toml").read_text()
    path = tmp_path / "refused.toml"
    path.write_text(source)
    text = show(run_case(path))
    assert "the orders were refused" in text and "a block moves only once a day" in text
