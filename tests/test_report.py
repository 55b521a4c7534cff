"""The turn report (pbem.report): its sections, its orders template, its three forms."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pbem.core.events import Event, events_for
from pbem.core.game import Game
from pbem.games import rulesets
from pbem.core.orders import parse_header
from pbem.games.marengo import parse_orders
from pbem.games.marengo.bot import bot_orders
from pbem.games.marengo.report import (
    NO_DEADLINE, ORDER_WORDS, all_reports, build_report, group_events, report_for_day,
)

ROOT = Path(__file__).resolve().parent.parent
SMALL = ROOT / "tests" / "fixtures" / "small.toml"
REAL = ROOT / "maps" / "marengo.toml"
SIDES = ("austria", "france")
HTML_TAGS = re.compile(r"</?(html|head|body|div|p|h[1-6]|table|thead|tbody|tr|td|th|ul|ol|li|pre|code|em|strong|"
                       r"style|span|br|a)\b[^>]*>", re.I)
EXAMPLE = re.compile(r"^# ([A-Z]+)\b")


def new_game(path=SMALL, seed=1) -> Game:
    ruleset = rulesets()["marengo"]
    return Game(ruleset, ruleset.load_scenario(path), seed)


def play_days(game: Game, days: int, seed: int = 1) -> Game:
    for _ in range(days):
        if game.over:
            break
        side = game.turn().seats[0]
        game.submit(side, bot_orders(game.scenario, game.view(side), seed))
        game.advance()
    return game


@pytest.fixture(scope="module")
def game() -> Game:
    return play_days(new_game(), 5)


def examples(template: str) -> list[str]:
    """The commented example orders of a template, uncommented."""
    out = []
    for line in template.splitlines():
        m = EXAMPLE.match(line)
        if m and m.group(1) in ORDER_WORDS:
            out.append(line[2:])
    return out


# -- the sections ------------------------------------------------------------------


def test_a_side_report_has_every_section_in_order(game):
    report = build_report(game, 4, "france", game_label="g7")
    md = report.markdown
    sections = ["# g7: Austria's day, 8AM (round 3 of 6)", "**Next:**", "## Morale",
                "## Reinforcements still due", "## Your blocks", "## Enemy blocks in sight",
                "## What happened, as France saw it", "## Decisions taken on your behalf",
                "## Standing orders and commands", "## Orders for 8AM (France's day)", "```text"]
    where = [md.find(s) for s in sections]
    assert -1 not in where, [s for s, i in zip(sections, where) if i < 0]
    assert where == sorted(where)
    assert "Command limit: at most 3" in md and "Road capacity" in md


def test_own_blocks_are_listed_with_their_position(game):
    report = build_report(game, 4, "france")
    view = game.view("france", 4)
    for b in view["blocks"]:
        assert re.search(rf"\b{b['id']}\b", report.markdown)
        if b["status"] == "map":
            row = next(line for line in report.markdown.splitlines() if line.startswith(f"| {b['id']} |"))
            name = game.scenario.board.locales[b["locale"]].name
            assert name in row
            if b["facing"]:
                assert f"{name}>{game.scenario.board.locales[b['facing']].name}" in row
            assert ("| yes |" if b["activated"] else "| no |") in row


def test_no_enemy_id_in_a_side_report(game):
    for side in SIDES:
        report = build_report(game, 4, side)
        for b in game.scenario.blocks:
            if b.side != side:
                for text in (report.markdown, report.text, report.html, report.subject):
                    assert not re.search(rf"\b{b.id}\b", text), (side, b.id)


def test_enemy_reinforcements_are_counts_per_hour(game):
    report = build_report(game, 4, "austria")
    assert "France (enemy): 1 block still to come: 1 block from 11AM." in report.markdown


def test_the_events_are_those_the_side_saw_in_order(game):
    for side in SIDES:
        for day in range(game.day):
            report = build_report(game, day, side)
            pos = 0
            for event in events_for(game.days[day].events, side):
                found = report.text.find(event["text"], pos)
                assert found >= 0, (side, day, event["text"])
                pos = found


def test_events_are_grouped_by_step_and_assault():
    kinds = ["day", "bombard", "assault", "decision", "assault_result", "loss", "assault", "recoil",
             "move", "void", "declare", "victory"]
    events = [{"kind": k, "text": f"{i} {k}"} for i, k in enumerate(kinds)]
    events[9]["text"] = "Order not carried out: BOMBARD A6 FROM X>Y — not artillery."
    groups = group_events(events)
    assert [title for title, _ in groups] == ["Start of the day", "Bombardments", "Assault 1", "Assault 2",
                                              "Movement", "Bombardments declared", "End of the game"]
    assert [t for _, texts in groups for t in texts] == [e["text"] for e in events]


def test_the_deadline_and_its_placeholder(game):
    assert NO_DEADLINE in build_report(game, 4, "france").markdown
    report = build_report(game, 4, "france", deadline="Thu 12 June 18:00 UTC", game_label="g7")
    assert "Thu 12 June 18:00 UTC" in report.markdown and NO_DEADLINE not in report.markdown
    assert report.subject == "[g7] Report for France: Austria 8AM played; your orders for 8AM"
    assert "\n" not in report.subject


def test_the_moderator_sees_everything(game):
    report = build_report(game, 4, None, game_label="g7")
    for b in game.scenario.blocks:
        assert re.search(rf"\b{b.id}\b", report.markdown), b.id
    assert "## Austrian blocks" in report.markdown and "## French blocks" in report.markdown
    assert "## Orders received for the day" in report.markdown
    assert report.template == ""
    for e in game.days[4].events:
        assert e.text in report.text


def test_all_reports_and_report_for_day(game):
    reports = all_reports(game, 3, game_label="g7")
    assert set(reports) == {"austria", "france", None}
    assert reports["france"].side == "france" and reports[None].side is None
    last = report_for_day(game, side="austria")
    assert last.day == game.day - 1
    with pytest.raises(ValueError):
        build_report(game, game.day, "austria")
    with pytest.raises(ValueError):
        build_report(game, 0, "prussia")


def test_spectators_only_once_the_game_is_over(game):
    with pytest.raises(ValueError):
        build_report(game, 2, None, spectator=True)
    finished = play_days(new_game(seed=2), 100, seed=2)
    assert finished.over
    last = finished.day - 1
    report = build_report(finished, last, "france", spectator=True)
    assert report.side is None and report.spectator and report.template == ""
    assert "Standing orders" not in report.markdown and "STANDING" not in report.markdown
    assert "The game is over." in report.markdown
    assert "game over" in report.subject
    for side in SIDES:  # a finished game: no orders template either
        assert build_report(finished, last, side).template == ""


# -- decisions ----------------------------------------------------------------------------


def _day_with_decisions(path, seeds=range(12)):
    for seed in seeds:
        game = new_game(path, seed)
        while not game.over:
            play_days(game, 1, seed)
            result = game.days[-1]
            if any(r.source in ("standing", "default") for r in result.decisions):
                return game, result
    raise AssertionError("no decision taken by standing orders or default in these games")


def test_decisions_taken_on_a_sides_behalf():
    game, result = _day_with_decisions(REAL if REAL.exists() else SMALL)
    for side in SIDES:
        report = build_report(game, result.day, side)
        text = report.text
        section = text[text.index("Decisions taken on your behalf"):text.index("Standing orders and commands")]
        mine = [r for r in result.decisions if r.decision.side == side and r.source in ("standing", "default", "log")]
        for r in mine:
            assert r.decision.question in section
            for key in r.answer:
                assert r.decision.label(key) in section
            assert {"standing": "your standing orders", "default": "the default", "log": "the answer on record"}[
                r.source] in section
        if not mine:
            assert "None:" in section
        for r in result.decisions:
            if r.decision.side != side:
                assert r.decision.question not in section or any(
                    m.decision.question == r.decision.question for m in mine)


def test_an_answer_on_record_is_reported_as_such():
    game, result = _day_with_decisions(REAL if REAL.exists() else SMALL)
    record = next(r for r in result.decisions if r.source in ("standing", "default"))
    d = record.decision
    record = next(r for r in result.decisions if r.source in ("standing", "default")
                  and r.decision.min <= 1 and any((k,) != tuple(r.answer) for k in r.decision.options))
    d = record.decision
    other = next(k for k in d.options if (k,) != tuple(record.answer))
    game.answer(result.day, record.index, [other], by="moderator", why="test")
    game.replay()
    report = build_report(game, result.day, d.side)
    assert "the answer on record" in report.markdown
    assert d.label(other) in report.text


# -- the orders template -------------------------------------------------------------------


def test_template_header_names_the_side_and_the_next_hour(game):
    for day in range(game.day):
        for side in SIDES:
            report = build_report(game, day, side, game_label="g7")
            header, _ = parse_header(report.template)
            view = game.view(side, day)
            assert header.game == "g7"
            assert header.side == side.capitalize()
            assert header.turn == view["hour_label"]
            assert header.key is not None


def test_template_parses_as_it_is_and_each_example_uncommented(game):
    checked = 0
    for day in range(game.day):
        state = game.days[day].after
        for side in SIDES:
            template = build_report(game, day, side, game_label="g7").template
            parse_orders(game.scenario, state, side, template)
            header = template.splitlines()[0]
            own_day = game.scenario.side_of_day(state.day) == side
            for line in examples(template):
                if not own_day:
                    assert line.startswith("STANDING"), line
                orders = parse_orders(game.scenario, state, side, f"{header}\n{line}\n")
                assert orders.orders or orders.standing or orders.final, line
                checked += 1
    assert checked > 20


def test_template_lists_every_own_block_on_the_map(game):
    view = game.view("austria", 4)
    template = build_report(game, 4, "austria").template
    board = game.scenario.board
    for b in view["blocks"]:
        if b["status"] == "map":
            assert re.search(rf"^#\s+{b['id']} .*{b['type']} {b['strength']}", template, re.M), b["id"]
            where = board.locales[b["locale"]].name
            assert where in template
    assert examples(template), "the template gives example orders"


def test_template_examples_on_the_real_map():
    game = play_days(new_game(REAL, 3), 12, seed=3)
    words = set()
    for day in range(game.day):
        state = game.days[day].after
        for side in SIDES:
            template = build_report(game, day, side).template
            parse_orders(game.scenario, state, side, template)
            header = template.splitlines()[0]
            for line in examples(template):
                parse_orders(game.scenario, state, side, f"{header}\n{line}\n")
                words.add(line.split()[0])
    assert {"MOVE", "ENTER", "STANDING", "FINAL"} <= words


def test_standing_orders_only_when_the_next_day_is_the_enemys(game):
    # day 4 is Austria's: next is France's day, so Austria may send standing orders only
    report = build_report(game, 4, "austria")
    assert "## Standing orders for 8AM (France's day)" in report.markdown
    assert examples(report.template) and all(x.startswith("STANDING") for x in examples(report.template))
    assert "FINAL" not in report.template


# -- the three forms ----------------------------------------------------------------------


class _Balance(HTMLParser):
    VOID = {"meta", "br", "hr", "img", "input", "link"}

    def __init__(self):
        super().__init__()
        self.stack: list[str] = []
        self.problems: list[str] = []

    def handle_starttag(self, tag, attrs):
        if tag not in self.VOID:
            self.stack.append(tag)

    def handle_endtag(self, tag):
        if not self.stack or self.stack[-1] != tag:
            self.problems.append(f"</{tag}> closes {self.stack[-1:] or 'nothing'}")
        else:
            self.stack.pop()


def test_html_is_well_formed_and_rendered(game):
    for side in (*SIDES, None):
        report = build_report(game, 4, side)
        page = report.html
        assert page.startswith("<!DOCTYPE html>") and "<table" in page and "<style>" in page
        assert 'style="border-collapse:collapse' in page  # inline styles for mail clients
        balance = _Balance()
        balance.feed(page)
        balance.close()
        assert not balance.problems and not balance.stack, (balance.problems, balance.stack)
        body = re.sub(r"<pre.*?</pre>", "", page[page.index("<body>"):], flags=re.S)  # the template is verbatim
        for marker in ("**", "|---", "```", "\n## ", "\n# ", "\\_", "\\*"):
            assert marker not in body, marker


def test_text_has_no_html_and_no_markdown(game):
    for side in (*SIDES, None):
        text = build_report(game, 4, side).text
        assert not HTML_TAGS.search(text), HTML_TAGS.search(text)
        for marker in ("**", "|---", "```", "&lt;", "&amp;", "\\_"):
            assert marker not in text, marker
        assert "-------- cut here --------" in text or side is None


def test_markdown_escapes_what_it_must():
    from pbem.games.marengo.report import md_cell, md_escape

    assert md_escape("a_b *c* [d] <e> & f") == "a\\_b \\*c\\* \\[d\\] &lt;e> &amp; f"
    assert md_cell("x|y") == "x\\|y"
    assert md_cell("") == " "


def test_a_public_event_reaches_both_sides():
    events = [Event("day", "Austria's day, 6AM."), Event("move", "A1 moved.", owner="austria", seen="1 moved.")]
    assert [e["text"] for e in events_for(events, "france")] == ["Austria's day, 6AM.", "1 moved."]
