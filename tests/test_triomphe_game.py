"""Triomphe à Marengo through the engine core's driver: orders, "ask me" decisions, replay."""

from pathlib import Path

import pytest

import pbem.games.triomphe as triomphe
from pbem.core.decisions import Pending
from pbem.core.game import Game
from pbem.games.triomphe.scenario import load_scenario

SCENARIO = Path(__file__).parent.parent / "maps" / "triomphe.toml"


@pytest.fixture()
def game():
    return Game(triomphe.RULESET, load_scenario(SCENARIO), 1)


def test_the_interface(game):
    assert triomphe.NAME == "triomphe" and triomphe.TITLE == "Triomphe à Marengo"
    assert triomphe.SIDES == ("austria", "france")
    assert game.turn().seats[0] == "austria"
    view = game.view("france")
    assert {"over", "winner", "victory"} <= set(view)
    assert view["uncommitted"] == {"austria": 0, "france": 3}


def test_a_decision_asked_waits_for_its_answer(game):
    """A cavalry road attack on Pedrabona at 6 AM: France cannot respond then (000 §14), so the
    first decision France is asked is where its blocks retreat; asked, the turn waits."""
    start = game.state
    french = [b.id for b in start.blocks.values() if b.side == "france" and b.locale == "pedrabona"]
    assert french
    game.submit("austria", "ENTER A1 -> Pedrabona")
    with pytest.raises(Pending) as pending:
        game.advance(ask=lambda d: d.side == "france")
    decision = pending.value.decision
    assert decision.kind in ("retreat", "retreat_loss")
    game.answer(0, pending.value.index, (decision.options[-1],), by="player")
    result = game.advance(ask=lambda d: False)
    assert any(r.source == "log" for r in result.decisions)
    again = Game(triomphe.RULESET, game.scenario, 1, game.log)
    assert again.state.digest() == game.state.digest()


def test_a_scenario_s_problems_are_listed(tmp_path):
    from pbem.games.simmons.board import MapError

    source = SCENARIO.read_text().replace('count = 4', 'count = 5').replace('hour = "5PM"', 'hour = "5 o\'clock"')
    (tmp_path / "triomphe-map.toml").write_text((SCENARIO.parent / "triomphe-map.toml").read_text())
    bad = tmp_path / "bad.toml"
    bad.write_text(source)
    with pytest.raises(MapError) as err:
        load_scenario(bad)
    text = str(err.value)
    assert "waiting #4 (5PM)" in text and "is not an hour" in text


def test_the_map_s_triomphe_table_is_checked(tmp_path):
    from pbem.games.simmons.board import MapError
    from pbem.games.triomphe.scenario import load_map

    source = (SCENARIO.parent / "triomphe-map.toml").read_text()
    bad = tmp_path / "map.toml"
    bad.write_text(source + '\n[[triomphe.arrow]]\nwest = "marengo"\neast = "villanova"\n')
    with pytest.raises(MapError, match="marengo and villanova have no passable border"):
        load_map(bad)


def test_every_decision_kind_is_documented():
    """Every kind of decision the engine asks is in DECISION_KINDS (the "ask me" settings) and the notes."""
    import re

    source = "".join(p.read_text() for p in Path(triomphe.__file__).parent.glob("*.py"))
    asked = set(re.findall(r'decide\([^,]+,\s*"(\w+)"', source)) | set(
        re.findall(r'pick_own\([^)]*?"(\w+)"', source, re.S))
    assert asked == set(triomphe.DECISION_KINDS)
    notes = (Path(__file__).parent.parent / "docs" / "rules-notes.md").read_text()
    for kind in triomphe.DECISION_KINDS:
        assert f"`{kind}`" in notes, kind


def test_the_notes_cite_cases_that_exist():
    import re

    notes = (Path(__file__).parent.parent / "docs" / "rules-notes.md").read_text().split("## Triomphe à Marengo")[1].split("\n## ")[0]
    cited = set(re.findall(r"`([a-z0-9]+(?:-[a-z0-9]+)+)`", notes))
    cases = {p.stem for p in (Path(__file__).parent / "cases" / "triomphe").glob("*.toml")}
    assert cited <= cases, cited - cases


def test_a_disc_moved_by_the_enemy_is_not_returned_next_turn():
    """§18 step 3 across two turns: Austria covers France's shortfall with a disc from Back (its
    turn); in the French turn after, that disc may not be chosen for the extra return (T48)."""
    from pbem.core.decisions import Decider
    from pbem.games.triomphe.cases import case_map, case_position, load_case
    from pbem.games.triomphe.parse import parse_orders
    from pbem.games.triomphe.sequence import resolve_day

    path = Path(__file__).parent / "cases" / "triomphe" / "discs-commit-shortfall-covered.toml"
    data = load_case(path)
    board, terrain = case_map(data, path)
    scenario, state = case_position(data, board, terrain, path)
    orders = {"austria": parse_orders(scenario, state, "austria", data["orders"]["austria"])}
    state, _ = resolve_day(scenario, state, orders, Decider())
    assert state.committed["france"] == {"back": 1, "east": 1}
    decider = Decider()
    state, _ = resolve_day(scenario, state, {}, decider)
    returns = [r for r in decider.records if r.decision.kind == "disc_return"]
    assert returns and "east" not in returns[0].decision.options
    assert state.committed["france"] == {"east": 1}


def test_the_first_turns_in_the_docs_play_as_written():
    """docs/triomphe-orders.md's first turns, on the draw of seed 1 (San Giuliano Nuovo holds F7 and F8)."""
    import re

    docs = (Path(__file__).parent.parent / "docs" / "triomphe-orders.md").read_text()
    austria, france = re.findall(r"### (?:Austria|France), 6 AM\n.*?```orders\n(.*?)```", docs, re.S)
    game = Game(triomphe.RULESET, load_scenario(SCENARIO), 1)
    assert {b.id for b in game.state.blocks.values() if b.locale == "san_giuliano_nuovo"} == {"F7", "F8"}
    game.submit("austria", austria)
    first = game.advance()
    assert first.after.spent == 0
    assert any("The attack on Pedrabona succeeds" in e.text for e in first.events)
    game.submit("france", france)
    second = game.advance()
    assert second.after.spent == 3
    moved = [b for b in second.after.blocks.values() if b.id in ("F7", "F8")]
    assert all(b.locale == "li_poggi" and not b.disorganised for b in moved)
    assert not any(e.kind == "void" for e in second.events)


def test_a_report_shows_triomphe_s_facts_and_hides_the_enemy():
    """The report is the family's frame (pbem.games.simmons.report) with Triomphe's sections."""
    from pbem.games.triomphe.selfplay import play

    scenario = load_scenario(SCENARIO)
    game, _ = play(scenario, 2, check=False)
    report = triomphe.RULESET.report(game, 9, "austria", deadline="Tuesday 18:00", game_id="12")  # France's 10 AM
    text = report.markdown
    for heading in ("Morale discs", "Waiting cells", "Your blocks", "Enemy blocks in sight", "What happened",
                    "Decisions taken on your behalf", "Standing orders and commands"):
        assert f"## {heading}" in text
    assert "of 3 orders were spent" in text and "France's turn at 10AM has been played" in text
    assert "Deadline: Tuesday 18:00" in text and report.template.startswith("GAME 12 SIDE Austria TURN 11AM")
    assert report.subject.startswith("[pbem 12] Report for Austria: France 10AM played")
    assert not any(f"| F{i} |" in text or f" F{i} " in text for i in range(1, 21))
    moderator = triomphe.RULESET.report(game, 9, None).markdown
    assert "## French blocks" in moderator and "## Austrian blocks" in moderator
    assert "## Orders received for the turn" in moderator


@pytest.mark.parametrize("day", [0, 1, 6, 11, 20, 25])
def test_every_example_of_the_orders_form_is_read(day):
    """Each example line of the form, uncommented alone under the header, is accepted."""
    from pbem.games.triomphe.selfplay import play
    from pbem.games.triomphe.template import template

    scenario = load_scenario(SCENARIO)
    game, _ = play(scenario, 3, check=False)
    state = game.days[day].before
    for side in triomphe.SIDES:
        form = template(scenario, triomphe.view(scenario, state, side), game="g1")
        header, *rest = form.splitlines()
        triomphe.parse_orders(scenario, state, side, form)
        examples = [line[2:].split("    #")[0] for line in rest
                    if line.startswith("# ") and line[2:].split()[0] in ("REORGANISE", "ENTER", "MARCH", "ROAD",
                                                                           "ATTACK", "ASSAULT", "BOMBARD", "RETURN",
                                                                           "STANDING")]
        assert examples
        for example in examples:
            triomphe.parse_orders(scenario, state, side, header + "\n" + example)


def test_the_bots_texts_end_with_a_newline():
    """A mailer appends FINAL after a bot's orders (pbem/tools/demo.py): no line may run into it."""
    scenario = load_scenario(SCENARIO)
    state = triomphe.setup(scenario, 2)
    for name, bot in triomphe.RULESET.bots().items():
        for side in triomphe.SIDES:
            for seed in range(5):
                text = bot.orders(scenario, triomphe.view(scenario, state, side), seed)
                assert not text or text.endswith("\n"), (name, side, seed)
                triomphe.parse_orders(scenario, state, side, text + "FINAL\n") if side == "austria" else None


def test_only_the_austrian_artillery_waits_face_up():
    scenario = load_scenario(SCENARIO)
    state = triomphe.setup(scenario, 2)
    seen = triomphe.view(scenario, state, "france")["waiting"]
    assert [c["face_up"] for c in seen["austria"]] == [[{"type": "artillery", "strength": 1}]]
    assert all(not c["face_up"] for c in seen["france"])
