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


# issue 29 §3: each new kind of expectation fails when it is wrong (a case's edit -> the failure it must give)
WRONG = [
    ("retreat-disorganised-flag.toml", 'kinds = { "retreat" = 2 }', 'kinds = { "retreat" = 3 }', "events of kind 'retreat'"),
    ("battle-stalemate-reserve-move-no-activity.toml", '"stalemate; it must retreat" = 1', '"stalemate; it must retreat" = 2',
     "events containing 'stalemate; it must retreat'"),
    ("retreat-disorganised-flag.toml", 'id = "P-III-1"\nat = "field"\ndisorganised = false',
     'id = "P-III-1"\nat = "field"\ndisorganised = true', "P-III-1: expected disorganised True"),
    ("terrain-woods-cavalry-stops.toml", 'id = "GC"\nloc = "att1"', 'id = "GC"\nloc = "def1"',
     "GC: expected loc 'def1' in the waiting battle"),
    ("terrain-farm-one-unit-square.toml", 'id = "P-I-1"\nsquare = false', 'id = "P-I-1"\nsquare = true',
     "P-I-1: expected square True in the waiting battle"),
    ("press-allies-day-turn-refused.toml", 'to = ["prussian"]\nallowed = false', 'to = ["prussian"]\nallowed = true',
     "a message from anglo-dutch to ['prussian']: refused"),
    ("deploy-two-corps-refused.toml", 'refused = "blocks of 2 corps', 'refused = "blocks of 3 corps',
     "sub-turn orders refused"),
    ("night-flag-no-attack.toml", "night = true\n", "", "expected the orders to be refused"),
    ("victory-second-allied-army-breaks.toml", 'lost = { "anglo" = 8, "prussian" = 8 }\nbroken = ["anglo"]',
     'lost = { "anglo" = 7, "prussian" = 8 }\nbroken = []', "winner: expected france"),
]


@pytest.mark.parametrize("name, old, new, failure", WRONG, ids=[f"{w[0]}-{i}" for i, w in enumerate(WRONG)])
def test_a_wrong_new_expectation_fails(tmp_path, name, old, new, failure):
    source = (ROOT / name).read_text()
    assert old in source
    wrong = tmp_path / name
    wrong.write_text(source.replace(old, new, 1))
    outcome = RULES.run_case(wrong)
    assert any(failure in f for f in outcome.failures), outcome.failures


def test_a_battle_block_in_the_other_sides_reserve_is_refused(tmp_path):
    from pbem.games.napoleon1815.cases import CaseError

    source = (ROOT / "battle-infantry-one-move-a-round.toml").read_text()
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(source.replace('id = "III"\nat = "field"\nloc = "res-att"', 'id = "III"\nat = "field"\nloc = "res-def"'))
    with pytest.raises(CaseError, match="not its own side's reserve"):
        RULES.run_case(wrong)
