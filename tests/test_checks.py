"""Orders checked as the day will play them (pbem/games/marengo/checks.py, issue 13 §2).

What the start of the day already decides is refused when the orders are sent,
with the line, the order and the reason; what depends on the enemy is accepted
with a warning; and, played out, no accepted order is refused for a reason the
start of the day decided."""

from __future__ import annotations

from pathlib import Path

import pytest

from pbem.core.orders import OrdersError
from pbem.games import rulesets
from pbem.games.marengo.cases import case_board, case_position, load_case
from pbem.games.marengo.parse import parse_orders
from pbem.tools.balance import play_match
from pbem.tools.selfplay import play

ROOT = Path(__file__).parent.parent
RULES = rulesets()["marengo"]
SCENARIO = RULES.load_scenario(str(ROOT / "maps" / "marengo.toml"))
CASES = ROOT / "tests" / "cases" / "marengo"


def position(case: str):
    """The scenario and state of a case file (its orders are not used)."""
    path = CASES / f"{case}.toml"
    data = load_case(path)
    return case_position(data, case_board(data, path), path)


def check(case: str, text: str, side: str | None = None):
    scenario, state = position(case)
    return parse_orders(scenario, state, side or scenario.side_of_day(state.day), text)


def refused(case: str, text: str, side: str | None = None) -> str:
    with pytest.raises(OrdersError) as info:
        check(case, text, side)
    return str(info.value)


# -- refused: what the start of the day decides ------------------------------------------


def test_two_leads_on_a_narrow_approach_are_refused_with_line_and_column():
    text = refused("assault-narrow-one-lead", "# one assault\nASSAULT West>Mid WITH A1 A2 LEAD A1 A2")
    assert text.startswith("line 2, column 1: 2 lead blocks on a narrow approach: at most 1")
    assert "found 'ASSAULT West>Mid WITH A1 A2 LEAD A1 A2'" in text


def test_a_move_of_a_block_not_activated_is_refused_unless_activated_the_same_day():
    assert "F1 has not been activated" in refused("activation-unactivated-cannot-move",
                                                  "MOVE F1 Marengo -> Spinetta")


def test_an_assault_across_an_approach_with_no_enemy_is_refused():
    scenario, state = position("assault-narrow-one-lead")
    for b in state.blocks.values():
        if b.side == "france":
            b.facing = None  # the defender leaves the approach: nothing blocks it
    with pytest.raises(OrdersError, match="no enemy blocks Mid>West"):
        parse_orders(scenario, state, "austria", "ASSAULT West>Mid WITH A1 LEAD A1")


def test_an_assault_with_no_enemy_before_it_is_refused_even_after_another_assault():
    """Enemy blocks never come onto an approach during one's own day: the assaults come first
    (003 §7), and a beaten defender retreats into a reserve (§12). So an assault across an
    approach that no enemy blocks at the start of the day fails whatever an earlier assault
    does, and is refused when sent (found by the second newcomer trial: it was accepted as
    "depends on how the assault in line 1 ends" and failed when the day was played)."""
    scenario, state = position("assault-narrow-one-lead")
    a2 = state.blocks["A2"]
    a2.locale, a2.facing = "east", "mid"  # A2 faces Mid from the east, where no French block stands
    with pytest.raises(OrdersError) as info:
        parse_orders(scenario, state, "austria", "ASSAULT West>Mid WITH A1 LEAD A1\nASSAULT East>Mid WITH A2")
    assert str(info.value).startswith("line 2, column 1: no enemy blocks Mid>East: an assault crosses a blocked "
                                      "approach (003 §11): this order would not be carried out")


def test_a_fourth_command_is_refused_and_the_third_accepted():
    text = refused("command-limit-fourth-move", "MOVE A1 West -> Mid\nMOVE A2 West -> Mid\n"
                                                "MOVE A3 West -> Mid\nMOVE A4 West -> Mid")
    assert "line 4, column 1: the command limit of 3 group moves and assaults is used up" in text
    assert "line 3" not in text


def test_activations_over_the_days_allowance_are_refused():
    assert "no activation left" in refused("activation-first-day-one", "ACTIVATE F1 F2")


def test_several_orders_on_one_line_are_told_apart_by_column():
    text = refused("command-limit-fourth-move", "MOVE A1 West -> Mid ; MOVE A2 West -> Mid ; "
                                                "MOVE A3 West -> Mid ; MOVE A4 West -> Mid")
    assert "line 1, column 67: the command limit" in text


# -- accepted with a warning: what the enemy decides ----------------------------------------


def test_an_order_that_depends_on_an_assault_is_accepted_with_a_warning():
    scenario, state = position("assault-narrow-one-lead")
    orders = parse_orders(scenario, state, "austria", "ASSAULT West>Mid WITH A1 LEAD A1\nMOVE A2 West>Mid -> West")
    assert len(orders.warnings) == 1
    assert orders.warnings[0].startswith("line 2: MOVE A2 West>Mid -> West — depends on how the assault in line 1 ends")


def test_orders_the_start_decides_get_no_warning():
    scenario, state = position("command-limit-fourth-move")
    orders = parse_orders(scenario, state, "austria", "MOVE A1 West -> Mid\nMOVE A2 West -> Mid")
    assert orders.warnings == []


def test_standing_orders_on_the_enemys_day_are_not_checked_as_a_day():
    scenario, state = position("command-limit-fourth-move")
    assert parse_orders(scenario, state, "france", "STANDING PURSUE NEVER").warnings == []


# -- played out: nothing accepted is refused for a reason the start decided -----------------


def voids(events) -> set[str]:
    """The orders (or parts of orders) not carried out; a block that entered and went no further
    along the road is not one (rules-notes M4: it went as far as it could)."""
    entered = {e.data.get("block") for e in events if e.kind == "entry"}
    return {e.text for e in events if e.kind == "void" and not e.text.startswith("Not used")
            and not (e.text.split()[0] in entered and "did not move along the road" in e.text)}


def unwarned_failures(game) -> list[str]:
    """Orders accepted without a warning that the day did not carry out.

    The check warns of every order whose fate depends on the enemy (or on the hidden
    strength of his blocks, which only the day shows), so an order accepted without a
    warning must be carried out; one that is not was refused for a reason the start
    of the day decided, and the check should have refused it."""
    out = []
    for result in game.days:
        side = result.seats[0]
        orders = parse_orders(game.scenario, result.before, side, game.orders_text(result.day, side))
        warned = " | ".join(orders.warnings)
        for text in sorted(voids(result.events)):
            about = text.split("Order not carried out: ", 1)[-1].split(" — ", 1)[0]
            if about.startswith(("A", "F")) and " did not " in about:  # a road move's or extension's block
                bid = about.split()[0]
                named = any(f" {bid} " in f" {w.split(' — ', 1)[0]} " for w in orders.warnings)
            else:
                named = f": {about} — " in warned or warned.startswith(about)
            if not named:
                out.append(f"day {result.day}: {text}")
    return out


@pytest.mark.parametrize("seed", range(1, 9))
def test_self_play_no_accepted_order_fails_for_a_reason_the_start_decided(seed):
    game = play(RULES, SCENARIO, seed, random_decisions=True)
    assert unwarned_failures(game) == []


@pytest.mark.parametrize("seed", [1, 2])
def test_strategist_games_no_accepted_order_fails_for_a_reason_the_start_decided(seed):
    game = play_match(RULES, SCENARIO, seed, {"austria": "strategist", "france": "strategist"})
    assert unwarned_failures(game) == []


# -- the orders template suggests only what the check accepts, without a warning -------------


def test_the_template_on_frances_first_day_suggests_one_activation_of_a_sleeping_block():
    from pbem.games.marengo.report import build_report
    from pbem.tools.selfplay import play_days

    game = play_days(RULES, SCENARIO, 3, 1)
    template = build_report(game, 0, "france").template
    state = game.state
    activate = [line[2:] for line in template.splitlines() if line.startswith("# ACTIVATE")]
    assert len(activate) == 1 and len(activate[0].split()) == 2  # the first French day allows one
    named = state.blocks[activate[0].split()[1]]
    austrian = {b.locale for b in state.blocks.values() if b.side == "austria" and b.on_map}
    assert not named.activated and not set(SCENARIO.board.adjacent(named.locale)) & austrian
    header = template.splitlines()[0]
    examples = [line[2:] for line in template.splitlines()
                if line.startswith("# ") and line[2:].split(" ", 1)[0] in ("ACTIVATE", "MOVE", "ROAD", "ENTER",
                                                                         "ASSAULT", "BOMBARD", "EXTEND")]
    assert examples
    for line in examples:
        assert parse_orders(SCENARIO, state, "france", f"{header}\n{line}\n").warnings == [], line


def test_the_acknowledgement_lists_the_warnings():
    from pbem.server.service.orders import Submission

    scenario, state = position("assault-narrow-one-lead")
    orders = parse_orders(scenario, state, "austria", "ASSAULT West>Mid WITH A1 LEAD A1\nMOVE A2 West>Mid -> West")
    reply = Submission(True, 7, "austria", turn="6AM", echo=orders.echo(), warnings=orders.warnings).message()
    assert "unless the enemy's actions prevent it" in reply
    assert "  - line 2: MOVE A2 West>Mid -> West — depends on how the assault in line 1 ends" in reply
    assert "depend" not in Submission(True, 7, "austria", echo="MOVE A1 West -> Mid").message()


def test_the_engine_itself_leaves_out_of_an_assault_without_with_the_artillery_that_fires():
    """rules-notes C8, in the engine as well as in the echo: orders read without the day's
    check (an old log replayed) still make the assault, without the artillery."""
    from pbem.core.decisions import Decider
    from pbem.games.marengo.rules import resolve_day

    scenario, state = position("assault-without-with-leaves-out-artillery")
    orders = parse_orders(scenario, state, "austria", "ASSAULT Mid>East LEAD A1", checks=False)
    assert orders.orders[0].blocks == ("A1", "G1") and not orders.orders[0].named
    after, events = resolve_day(scenario, state, {"austria": orders}, Decider())
    texts = [e.text for e in events]
    assert any(t.startswith("G1 take no part in the assault") for t in texts)
    assert after.blocks["A1"].locale == "east" and not any("not carried out" in t for t in texts)
    checked = check("assault-without-with-leaves-out-artillery", "ASSAULT Mid>East LEAD A1")
    assert checked.echo() == "ASSAULT Mid>East WITH A1 LEAD A1"


def test_the_morale_bonus_comes_every_day_while_only_the_enemy_is_demoralised():
    """rules-notes D1: 003's «tour» is a day, either side's; the +5 comes at the start of each."""
    from pbem.core.decisions import Decider
    from pbem.games.marengo.rules import resolve_day

    scenario, state = position("morale-bonus")  # Austria's 8AM day, the bonus due to Austria, France at 0
    gained = []
    for _ in range(3):  # Austria's day, France's day, Austria's next day
        before = state.morale["austria"]
        state, _events = resolve_day(scenario, state, {}, Decider())
        gained.append(state.morale["austria"] - before)
    assert gained == [5, 5, 5] and state.demoralised["france"]


def test_the_check_reads_only_what_the_side_sees():
    """Checked against the server's position or against one rebuilt from the side's view
    (its blocks, and bars where the enemy stands), orders get the same answer: the check
    never tells a player anything about the enemy his report does not."""
    from pbem.games.marengo import checks
    from pbem.games.marengo.sendable import state_seen

    game = play(RULES, SCENARIO, 5, random_decisions=True)
    compared = 0
    for result in game.days:
        side = result.seats[0]
        text = game.orders_text(result.day, side)
        # the bot's own orders, and the same with every line its check refused put back
        for candidate in (text, text.replace("# (refused) ", "")):
            answers = []
            for state in (result.before, state_seen(SCENARIO, RULES.view(SCENARIO, result.before, side))):
                checks._MEMO.clear()
                try:
                    answers.append(("ok", parse_orders(SCENARIO, state, side, candidate).warnings))
                except OrdersError as exc:
                    answers.append(("refused", [str(p) for p in exc.problems]))
            assert answers[0] == answers[1], (result.day, candidate)
            compared += 1
    assert compared == 2 * len(game.days)


def test_orders_logged_before_the_checks_replay_as_they_played():
    """The checks refuse orders when they are sent (ruleset.check_orders); a replay reads the
    log with the parser alone (ruleset.parse_orders), so a game played before a stricter check
    replays exactly as it was played."""
    scenario, state = position("activation-unactivated-cannot-move")
    doomed = "MOVE F1 Marengo -> Spinetta"  # refused by the check: F1 is not activated
    with pytest.raises(OrdersError, match="F1 has not been activated"):
        RULES.check_orders(scenario, state, "france", doomed)
    assert RULES.parse_orders(scenario, state, "france", doomed).orders
