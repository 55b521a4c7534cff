"""Survivors of scripts/mutation's triomphe sample killed where a case cannot reach (docs/testing.md, "Mutation
testing"): what the events record beside their words, the standing orders as recorded, the day's own refusals
of orders no parser writes, and the turn's context. The rules a case can pin down have cases
(tests/cases/triomphe/)."""

from __future__ import annotations

from pathlib import Path

from conftest import run_case_text

from pbem.core.decisions import Decider
from pbem.games.triomphe import morale, victory
from pbem.games.triomphe.cases import case_map, case_position, load_case, run_case
from pbem.games.triomphe.orders import Assault, March, Orders
from pbem.games.triomphe.parse import parse_orders
from pbem.games.triomphe.sequence import resolve_day
from pbem.games.triomphe.turn import Turn

CASES = Path(__file__).parent / "cases" / "triomphe"


def position(case: str):
    path = CASES / f"{case}.toml"
    data = load_case(path)
    board, terrain = case_map(data, path)
    return case_position(data, board, terrain, path)


def events(case: str, kind: str):
    outcome = run_case(CASES / f"{case}.toml")
    assert outcome.ok, outcome.failures
    return [e for e in outcome.events if e.kind == kind]


def play(case: str, *orders, context=None):
    scenario, state = position(case)
    side = scenario.side_of_day(state.day)
    return resolve_day(scenario, state, {side: Orders(side, orders=list(orders))}, Decider(), context)


def voids(evs) -> list[str]:
    return [e.text for e in evs if e.kind == "void"]


# -- what the events record ------------------------------------------------------------------------


def test_a_retreat_records_where_from_and_where_to():
    # retreat.x_retreat__mutmut_164 (the event's "to" dropped) survived: the map draws the turn's moves from it
    (moved,) = events("retreat-seen-by-the-attacker", "retreat")
    assert (moved.owner, moved.data, moved.seen_data) == ("france", {"block": "F1", "frm": "east", "to": "rear"},
                                                         {"from": "east", "to": "rear"})


def test_blocks_disorganised_again_are_told_to_france_and_seen_by_austria():
    # reorganisation.x_all_or_none__mutmut_25 (what Austria sees dropped), _28 (the owner misspelt) survived
    again = [e for e in events("reorganise-partial-undone", "organise") if e.text.startswith("Disorganised again")]
    assert [(e.owner, e.seen) for e in again] == [("france", "1 French block(s) in East are disorganised again.")]


def test_a_blocked_maneuver_attack_is_recorded_as_not_won():
    # maneuver.x_attack__mutmut_138 (won=None for False) survived
    blocked = [e for e in events("maneuver-if-blocked-stay", "maneuver") if "is blocked" in e.text]
    assert [e.data for e in blocked] == [{"target": "east", "won": False}]


def test_entries_are_events_of_their_own_kind():
    # march.x_enter__mutmut_166 (the kind misspelt) survived
    entered = [e.text for e in events("entry-excess-waits", "enter")]
    assert entered == ["An Austrian block enters at Bridge into Back."] * 3


def test_a_bombardment_is_an_event_of_its_own_kind_naming_its_approach():
    # bombardment.x_complete__mutmut_39, _62 (the kind in capitals), _64 (the approach's far end dropped)
    assert [(e.owner, e.text) for e in events("bombard-complete-opposite-first", "bombard")] == [
        (None, "Bombardment from West>East into East.")]
    declared = events("bombard-declare-free", "bombard")
    # bombardment.x_declare__mutmut_47 (the declaring side's own line dropped) survived
    assert [(e.owner, e.text, e.seen) for e in declared] == [
        ("austria", "A1 (artillery 1) declares a bombardment from West>East into East.",
         "An Austrian block (revealed: Austrian artillery 1) declares a bombardment from West>East into East.")]


def test_a_bombardment_finding_no_enemy_is_a_bombardment_event():
    # bombardment.x_complete__mutmut_39 (the kind in capitals) survived: no case's target was empty. Set in the
    # middle of a turn (no recovery at its start), the gun's target has been left by the enemy.
    source = (CASES / "bombard-complete-opposite-first.toml").read_text()
    source = source[:source.index('[[block]]\nid = "F1"')] + (
        '[orders]\naustria = """\n\n"""\n\n[turn]\nstart = false\n[expect]\nspent = 0\n')
    outcome = run_case_text(run_case, source)
    assert outcome.ok, outcome.failures
    assert [(e.kind, e.text) for e in outcome.events if "finds no enemy" in e.text] == [
        ("bombard", "The bombardment into East finds no enemy there.")]


def test_a_commitment_records_the_committing_side():
    # morale.x_commit__mutmut_127 (the side dropped from the event's data) survived
    assert [e.data for e in events("discs-commit-shortfall-covered", "commit")] == [
        {"side": "france", "locale": "east", "discs": 1}]


def test_a_demoralised_army_ends_the_game():
    # morale.x_demoralise__mutmut_5 (over left False) survived: the case checks the winner's words, not the end
    outcome = run_case(CASES / "demoralised-ends-the-game.toml")
    assert (outcome.state.over, outcome.state.winner) == (True, "austria")


# -- the discs ------------------------------------------------------------------------------------


def test_a_partial_shortfall_moves_only_the_discs_missing():
    # morale.x_commit__mutmut_18 (short = n + own) survived: no case committed more discs than the uncommitted
    # left while some were left
    scenario, state = position("discs-commit-shortfall-covered")
    state.uncommitted["france"] = 1
    state.committed["france"] = {"rear": 3}
    turn = Turn(scenario, state, Orders("austria"), Decider())
    morale.commit(turn, "france", "east", 2, "a test")
    assert (state.uncommitted["france"], state.committed["france"]) == (0, {"east": 2, "rear": 2})
    assert turn.events[-1].text == ("The French army commits 2 discs to East (a test) (1 moved from other locales "
                                    "by Austria).")


# -- the standing orders, as recorded ----------------------------------------------------------------


def test_standing_orders_are_recorded_with_their_text_and_value():
    # standing.x_StandingReader_standing_respond__mutmut_21 (the text dropped: the acknowledgement echoes it) and
    # standing_vanguard__mutmut_51 (the value WITH dropped) survived
    scenario, state = position("assault-defender-wins")
    orders = parse_orders(scenario, state, "france", "STANDING RESPOND East ALWAYS\nSTANDING VANGUARD East>West F1")
    assert [(s.text, s.kind, s.value, s.blocks) for s in orders.standing] == [
        ("STANDING RESPOND East ALWAYS", "respond", "ALWAYS", ()),
        ("STANDING VANGUARD East>West F1", "vanguard", "WITH", ("F1",))]
    assert orders.echo().splitlines() == ["STANDING RESPOND East ALWAYS", "STANDING VANGUARD East>West F1"]


# -- the day's own refusals ---------------------------------------------------------------------------


def test_the_day_refuses_a_march_to_a_locale_not_next_door_or_of_disorganised_blocks():
    # march.x__into__mutmut_9 (the starting locale unnamed) and _12 (the reason's words) survived
    after, evs = play("march-disorganised-stays-in-its-locale",
                      March(text="MARCH F1 West -> Rear", blocks=("F1",), frm=("west", None), to=("rear", None)),
                      March(text="MARCH F2 West -> East", blocks=("F2",), frm=("west", None), to=("east", None)))
    assert voids(evs) == ["Order not carried out: MARCH F1 West -> Rear — Rear is not next to West.",
                          "Order not carried out: MARCH F2 West -> East — disorganised blocks cannot leave their "
                          "locale (000 §14)."]


def test_the_day_refuses_an_assault_naming_blocks_not_on_its_approach():
    # assault.x_assault__mutmut_31 (the missing blocks' names dropped) survived
    after, evs = play("assault-defender-wins", Assault(text="ASSAULT West>East WITH A9", locale="west",
                                                       toward="east", blocks=("A9",)))
    assert voids(evs) == ["Order not carried out: ASSAULT West>East WITH A9 — A9 not on West>East."]


# -- the turn's context and the victory count ---------------------------------------------------------


def test_a_case_set_in_the_middle_of_a_turn_skips_its_start():
    # sequence.x_resolve_day__mutmut_48 (the context's "start" misspelt) survived: no case sets it
    after, evs = play("assault-defender-wins", context={"start": False})
    assert not any(e.kind == "turn" for e in evs)
    after, evs = play("assault-defender-wins", context={"start": True})
    assert [e.kind for e in evs].count("turn") == 1


def test_the_blocks_east_of_the_line_are_counted_from_a_turn_as_from_its_state():
    # victory.x_east_of_line__mutmut_2 (a turn taken for a state) survived: every caller passes the state
    scenario, state = position("victory-austria-east-of-line")
    turn = Turn(scenario, state, Orders("austria"), Decider())
    assert victory.east_of_line(turn, scenario) == victory.east_of_line(state, scenario) > 0


def test_no_bombardment_is_declared_through_an_approach_whose_assault_was_lost():
    # bombardment.x_declare__mutmut_30 (the approach named by one end) survived: no case declared one there
    source = (CASES / "assault-lost-no-bombardment-through.toml").read_text()
    source = source.replace('bombard = "East"\nbombard_days = [4]\n', "")
    source = source.replace("FIRE A9", "BOMBARD A9 FROM West>East")
    source = source[:source.index("[expect]")] + '[expect]\nevents = ["result -1: the defenders win"]\n'
    outcome = run_case_text(run_case, source)
    assert outcome.ok, outcome.failures
    assert voids(outcome.events) == ["Order not carried out: BOMBARD A9 FROM West>East — an assault from West>East "
                                     "was lost this turn: no attack through it (000 §11)."]


def test_the_day_refuses_a_bombardment_declared_by_a_block_that_is_no_artillery():
    # bombardment.x_declare__mutmut_4 (or made and: a block on the map that is no artillery let through) survived
    from pbem.games.triomphe.orders import Bombard

    after, evs = play("maneuver-if-blocked-stay", Bombard(text="BOMBARD A1 FROM West>East", block="A1",
                                                          locale="west", toward="east"))
    assert voids(evs) == ["Order not carried out: BOMBARD A1 FROM West>East — A1 is not one of your artillery "
                          "blocks on the map."]
    assert after.blocks["A1"].bombard is None
