"""Survivors of scripts/mutation's marengo sample killed where a case cannot reach (docs/testing.md).

The adjudication cases check a day's position and events; the order check's warnings
(pbem/games/marengo/checks.py) are read here, word for word.
"""

from __future__ import annotations

from pathlib import Path

from test_checks import check, position

from conftest import run_case_text

from pbem.core.decisions import Decider
from pbem.core.events import events_for
from pbem.games.marengo.cases import run_case
from pbem.games.marengo.orders import Assault, Move, Orders
from pbem.games.marengo.rules import resolve_day


def test_a_road_move_stopping_short_is_warned_with_the_whole_reason():
    # checks.x_Checker_check_move__mutmut_147 (the warning's text dropped) survived every test; its
    # look showed the reason's closing parenthesis cut off (rstrip(").") took both of "§9))."), now fixed
    warned = check("outsider-road-stop-short", "ROAD A1 Aville -> Bville -> Cville -> Dville").warnings
    assert warned == ["line 1: ROAD A1 Aville -> Bville -> Cville -> Dville — as the position stands it stops "
                      "short: Dville is occupied by the enemy (only cavalry attacks along a road, 003 §9)"]


# -- the day's own refusals, with orders no parser would write -------------------------------
# The parser refuses these orders first (test_checks.py, the cases' orders_error); the day refuses
# them again on its own, so that orders reaching it by another road (a log written by an older
# parser, a bot's values) cannot do what the rules forbid. Built as values here, past the parser.


CASES = Path(__file__).parent / "cases" / "marengo"


def play(case: str, *orders, context: dict | None = None):
    """The case's position played with ``orders`` (values) as the day's side's orders."""
    scenario, state = position(case)
    side = scenario.side_of_day(state.day)
    return resolve_day(scenario, state, {side: Orders(side, orders=list(orders))}, Decider(), context)


def voids(events) -> list[tuple[str, str]]:
    return [(e.owner, e.text) for e in events if e.kind == "void"]


def test_the_day_refuses_a_move_across_an_impassable_border_naming_both_ends():
    # movement.x_crossing_problem__mutmut_9 (the border's first locale unnamed) survived
    after, events = play("impassable-border", Move(text="MOVE A1 West -> North", blocks=("A1",),
                                                   frm=("west", None), to=("north", None)))
    assert voids(events) == [("austria", "Order not carried out: MOVE A1 West -> North — the approach from "
                                         "West to North is impassable.")]
    assert after.blocks["A1"].locale == "west"


def test_the_day_refuses_a_move_to_where_the_blocks_already_are():
    # movement.x_move__mutmut_15 (the reason dropped) survived
    after, events = play("impassable-border", Move(text="MOVE A1 West -> West", blocks=("A1",),
                                                   frm=("west", None), to=("west", None)))
    assert voids(events) == [("austria", "Order not carried out: MOVE A1 West -> West — the blocks are "
                                         "already there.")]


def test_the_day_refuses_a_second_assault_across_one_approach():
    # combat.x_assault__mutmut_13 (the reason in capitals) survived
    first = Assault(text="ASSAULT West>Mid WITH A1", locale="west", toward="mid", blocks=("A1",))
    second = Assault(text="ASSAULT West>Mid WITH A2", locale="west", toward="mid", blocks=("A2",))
    after, events = play("assault-one-per-approach", first, second)
    assert ("austria", "Order not carried out: ASSAULT West>Mid WITH A2 — only one assault a turn may cross "
                       "an approach (003 §11).") in voids(events)


def test_a_context_may_leave_out_the_road_crossings():
    # rules.x_resolve_day__mutmut_39: resolve_day's context (cases: what the day has used) with no "road"
    move = Move(text="MOVE A1 West -> Mid", blocks=("A1",), frm=("west", None), to=("mid", None))
    after, events = play("impassable-border", move, context={"commands": 3})
    assert voids(events) == [("austria", "Order not carried out: MOVE A1 West -> Mid — the command limit of 3 "
                                         "group moves and assaults is used up.")]


# -- what the events record beside their words --------------------------------------------------


def test_an_army_demoralised_alone_gives_the_other_army_its_bonus():
    # rules.x_end_of_day__mutmut_9 (the bonus always Austria's) survived: the case with France demoralised
    # exists, none with Austria demoralised (003 §13: the other army gains 5 at the start of its next turn)
    source = (CASES / "morale-demoralised-at-zero.toml").read_text()
    assert "austria = 10\nfrance = 2" in source
    source = source.replace("austria = 10\nfrance = 2", "austria = 1\nfrance = 10")
    outcome = run_case_text(run_case, source[:source.index("[expect]")] + '[expect]\nmorale = { austria = 0, france = 8 }\n'
                            'events = ["The Austrian army is demoralised"]\n')
    assert outcome.ok, outcome.failures
    assert outcome.state.demoralised == {"austria": True, "france": False}
    assert outcome.state.bonus_due == {"austria": False, "france": True}



def test_an_entry_is_kept_among_the_days_moves_with_its_entry():
    # movement.x_describe_entry__mutmut_47 (the entry's key misspelt in the day's moves) survived; the map
    # draws the last day's moves (st.last_moves)
    outcome = run_case(CASES / "reinforcements-road-entry.toml")
    assert outcome.ok
    entries = [m for m in outcome.state.last_moves if m["kind"] == "entry"]
    assert entries and all(set(m) == {"side", "from", "to", "count", "kind", "entry"} for m in entries)
    assert all(m["entry"] in outcome.scenario.board.entries for m in entries)


def test_a_cavalry_extension_reveals_the_block_by_its_id():
    # movement.x_extend__mutmut_30 (the reveal event's block dropped) survived
    outcome = run_case(CASES / "extension-after-move.toml")
    reveals = [e for e in outcome.events if e.kind == "reveal"]
    assert [(e.data, e.seen_data) for e in reveals] == [
        ({"block": "C1"}, {"side": "austria", "type": "cavalry", "strength": 2})]


def test_a_retreat_records_where_from_where_to_and_the_question_asked():
    # retreat.x_retreat__mutmut_195 (the question dropped), _264 ("to" misspelt in what the enemy saw),
    # retreat.x_reveal__mutmut_10 (what the enemy saw of a revealed block dropped) survived
    outcome = run_case(CASES / "retreat-standing-order.toml")
    assert outcome.ok
    retreats = [e for e in outcome.events if e.kind == "retreat"]
    assert [(e.owner, e.text, e.seen, e.seen_data) for e in retreats] == [
        ("france", "F1 retreat from Mid to South.", "1 French block retreat from Mid to South.",
         {"from": "mid", "to": "south", "count": 1})]
    reveals = [e for e in outcome.events if e.kind == "reveal"]
    assert [(e.owner, e.seen_data) for e in reveals] == [
        ("france", {"side": "france", "type": "cavalry", "strength": 2})]
    asked = [r.decision.question for r in outcome.decisions if r.decision.kind == "retreat"]
    assert asked == ["F1 (cavalry 2) retreats from Mid: where to?"]
    assert "F1 (cavalry 2) retreats from Mid: where to? Chosen by your standing orders: South." in [
        text for text in (e["text"] for e in events_for(outcome.events, "france"))]


def test_the_defence_leads_named_by_a_standing_order_are_recorded_as_such():
    # combat.x_assault__mutmut_379 (the standing order's source misspelt) survived
    outcome = run_case(CASES / "assault-rulebook-example.toml")
    leads = [r for r in outcome.decisions if r.decision.kind == "defence_leads"]
    assert [(r.answer, r.source) for r in leads] == [(("F2",), "standing")]


def test_a_bombardment_is_an_event_of_its_own_kind():
    # combat.x_resolve_bombardment__mutmut_162 (the event's kind misspelt) survived: the API's and
    # view.json's event lists carry the kind
    outcome = run_case(CASES / "bombard-other-approach.toml")
    fired = [e for e in outcome.events if "bombards from" in e.text]
    assert [(e.kind, e.owner) for e in fired] == [("bombard", None)]


def test_naming_a_block_that_wakes_by_itself_is_warned_with_its_id():
    # checks.x_Checker_activation__mutmut_43 (the second word of the event taken for the block) survived
    warned = check("activation-adjacent-enemy", "ACTIVATE F1\nMOVE F1 Marengo -> Spinetta").warnings
    assert warned == ["line 1: ACTIVATE F1 — F1 wakes by itself at the start of the day (an enemy block is next "
                      "to it); naming it uses no activation"]
