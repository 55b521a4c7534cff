"""DBA's turns cases with a seat per commander (``[action] command = "kriegsspiel"``, pbem/games/dba/turn_cases.py,
docs/cases.md): the runner plays the kriegsspiel's turn, each seat writing as its own commander, and notices a
wrong ``seen`` or ``unseen`` (what one seat reads), a seat that is not a commander, and a seat's orders that the
game refuses (a colonel writing as another)."""

from pathlib import Path

import pytest

from pbem.games.dba.cases import CaseError, run_case

ROOT = Path(__file__).parent / "cases" / "dba"
COURIER = ROOT / "kriegsspiel-an-order-comes-from-the-superior-by-courier.toml"
SEATS = sorted(ROOT.glob("kriegsspiel-*.toml"))


@pytest.mark.parametrize("path", SEATS, ids=[p.stem for p in SEATS])
def test_the_seat_per_commander_cases_pass(path):
    outcome = run_case(path)
    assert outcome.ok, outcome.failures


def test_there_are_cases_with_more_than_two_seats_writing():
    import tomllib

    writers = set()
    for path in SEATS:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        assert data["action"]["command"] == "kriegsspiel" and data["case"]["rule"].startswith("004 «")
        writers |= {seat for t in data["turn"] for seat in t.get("orders", {})}
    assert {"blue-general", "blue-1", "blue-3", "red-general"} <= writers


def test_a_wrong_seen_or_unseen_fails(tmp_path):
    source = COURIER.read_text(encoding="utf-8")
    for old, new, said in (
            ('seen = { blue-general = ["courier 1 sets out', 'seen = { blue-2 = ["courier 1 sets out',
             "blue-2 reads no line containing 'courier 1 sets out"),
            ('unseen = { blue-2 = ["courier 1"], red-general', 'unseen = { blue-general = ["courier 1"], red-general',
             "blue-general reads a line containing 'courier 1'")):
        wrong = tmp_path / "wrong.toml"
        wrong.write_text(source.replace(old, new, 1), encoding="utf-8")
        outcome = run_case(wrong)
        assert not outcome.ok and any(said in f for f in outcome.failures), (old, outcome.failures)


def test_a_seat_writing_as_another_commander_is_refused_and_a_seat_not_at_the_table_is_an_error(tmp_path):
    source = COURIER.read_text(encoding="utf-8")
    wrong = tmp_path / "wrong.toml"
    wrong.write_text(source.replace('orders.blue-general = """FROM General Azur', 'orders.blue-2 = """FROM General Azur'),
                     encoding="utf-8")
    outcome = run_case(wrong)
    assert not outcome.ok and any("you do not write for General Azur" in f for f in outcome.failures)
    wrong.write_text(source.replace("orders.blue-1 =", "orders.blue =", 1), encoding="utf-8")
    with pytest.raises(CaseError, match="no seat 'blue'"):
        run_case(wrong)
    wrong.write_text(source.replace('command = "kriegsspiel"', 'command = "generals"'), encoding="utf-8")
    with pytest.raises(CaseError, match="command 'generals'"):
        run_case(wrong)
