"""The bots' orders are checked once (issue 15, self-play >= 50 games a second).

A Marengo bot drafts its orders, has them checked from its own view and makes each
refused line a comment (pbem.games.marengo.sendable.keep_accepted). The check
(pbem.games.marengo.checks) answers the orders with their refused lines left out at
the same time as it refuses them: a refused assault or movement is never played on
the day's forecast, so the others check as they did. Here that answer is compared
with the check run afresh, day after day of self-play games, from each side's view.
"""

from __future__ import annotations

import re

import pytest

from pbem.core.orders import OrdersError
from pbem.games import ruleset
from pbem.games.marengo import checks
from pbem.games.marengo.parse import parse_orders
from pbem.games.marengo.sendable import keep_accepted, state_seen
from pbem.tools.selfplay import play

RULES = ruleset("marengo")
SCENARIO = RULES.load_scenario(RULES.scenarios()["marengo"])


class Runs:
    """Counts the check's full runs (a memo hit is no run)."""

    def __init__(self, monkeypatch):
        self.count = 0
        run = checks._Checker.run

        def counted(checker):
            self.count += 1
            return run(checker)

        monkeypatch.setattr(checks._Checker, "run", counted)


def answer(state, side: str, text: str):
    try:
        orders = parse_orders(SCENARIO, state, side, text)
    except OrdersError as exc:
        return ("refused", [str(p) for p in exc.problems])
    return ("ok", orders.echo(), list(orders.warnings), [str(w) for w in orders.warnings_said])


def without(text: str, problems) -> str:
    """``text`` with each line a problem names made a comment, as keep_accepted does."""
    lines = text.split("\n")
    for n in {p.line for p in problems}:
        lines[n - 1] = "# (refused) " + lines[n - 1]
    return "\n".join(lines)


@pytest.mark.parametrize("seed", [1, 4])
def test_orders_without_their_refused_lines_get_the_answer_a_fresh_check_gives(seed, monkeypatch):
    runs = Runs(monkeypatch)
    game = play(RULES, SCENARIO, seed, random_decisions=True)
    remembered = 0
    for result in game.days:
        side = result.seats[0]
        state = state_seen(SCENARIO, RULES.view(SCENARIO, result.before, side))
        draft = game.orders_text(result.day, side).replace("# (refused) ", "")  # the refused lines put back
        checks._MEMO.clear()
        try:
            parse_orders(SCENARIO, state, side, draft)
            continue
        except OrdersError as exc:
            fixed = without(draft, exc.problems)
        before = runs.count
        told = answer(state, side, fixed)
        if runs.count == before:  # answered from what the refusal left
            remembered += 1
            checks._MEMO.clear()
            assert answer(state, side, fixed) == told, (seed, result.day, fixed)
            assert runs.count == before + 1
    assert remembered >= 5  # the games have such days (a bridgehead full, an assault too large)


def test_a_bots_refused_lines_cost_no_second_check(monkeypatch):
    """A bot's day with refused lines checks its orders once, and the server's check of what it
    sends (the same orders, against the whole position) is answered without a run."""
    game = play(RULES, SCENARIO, 1)
    day = next(r for r in game.days if "# (refused) " in game.orders_text(r.day, r.seats[0])
               and "ENTER" not in game.orders_text(r.day, r.seats[0]).split("# (refused) ", 1)[1].split("\n")[0])
    side = day.seats[0]
    view = RULES.view(SCENARIO, day.before, side)
    draft = game.orders_text(day.day, side).replace("# (refused) ", "")
    checks._MEMO.clear()
    runs = Runs(monkeypatch)
    sent = keep_accepted(SCENARIO, view, draft)
    assert sent == game.orders_text(day.day, side)
    RULES.check_orders(SCENARIO, day.before, side, sent)
    assert runs.count == 1


def test_pbem_bench_says_what_each_part_of_a_self_play_day_takes():
    """The self-play figure counts every day's whole work: the bots' orders written (and checked
    by the bot), the orders checked and logged as a mail's would be, the day resolved. Shares,
    never asserted as times."""
    from collections import Counter

    from pbem.tools.bench import bench

    parts = Counter()
    game = play(RULES, SCENARIO, 2, clock=parts)
    assert set(parts) == {"bots", "submit", "resolve"} and all(v > 0 for v in parts.values())
    assert game.log == play(RULES, SCENARIO, 2).log  # timed or not, the same game
    lines = bench(RULES, SCENARIO, seed=1, games=1, repeat=1, keep=1)
    split = next(line for line in lines if "every day: " in line)
    assert len(re.findall(r"\d+%", split)) == 3


def test_which_refusals_the_check_answers_without_running_again():
    """checks.accepted_without: only when every refused order is an assault or a movement, every
    order of a refused line is refused, and no declared bombardment names a block a refused move
    moves; then the orders left are those of the other lines, in order."""
    from pbem.core.orders import problem
    from pbem.games.marengo.orders import Activate, Assault, Bombard, Enter, Fire, Move, Orders, RoadMove

    move = Move(line=2, text="MOVE A1 X -> Y", blocks=("A1",))
    road = RoadMove(line=3, text="ROAD A2 X -> Y", block="A2")
    enter = Enter(line=4, text="ENTER A3 BY PONTOON", blocks=("A3",), by="pontoon")
    assault = Assault(line=5, text="ASSAULT X>Y WITH A4", blocks=("A4",))
    orders = Orders("austria", orders=[move, road, enter, assault])

    def refused(*refusals) -> list:
        return [problem(o.line, o.column, "why", o.text) for o in refusals]

    assert checks._without_refused(orders, []) is None and not checks.accepted_without(orders, [])
    assert checks._without_refused(orders, refused(road, assault)) == [move, enter]
    assert checks._without_refused(orders, refused(move, road, enter, assault)) == []
    assert checks.accepted_without(orders, refused(enter))
    for other in (Activate(line=6, text="ACTIVATE A5", blocks=("A5",)), Bombard(line=6, text="BOMBARD A6", block="A6"),
                  Fire(line=6, text="FIRE A6", block="A6")):
        with_it = Orders("austria", orders=[move, other])
        assert checks._without_refused(with_it, refused(other)) is None, type(other).__name__
        assert checks._without_refused(with_it, refused(move)) == [other]
    second = Move(line=2, column=20, text="MOVE A7 X -> Z", blocks=("A7",))  # two orders on line 2 (';')
    assert checks._without_refused(Orders("austria", orders=[move, second]), refused(move)) is None
    assert checks._without_refused(Orders("austria", orders=[move, second]), refused(move, second)) == []
    declared = Bombard(line=6, text="BOMBARD A1", block="A1")
    assert checks._without_refused(Orders("austria", orders=[move, declared]), refused(move)) is None
    elsewhere = Bombard(line=6, text="BOMBARD A8", block="A8")
    assert checks._without_refused(Orders("austria", orders=[move, elsewhere]), refused(move)) == [elsewhere]


def test_a_check_remembers_its_answer_and_the_answer_without_the_refused_lines(monkeypatch):
    """After a refused day, _MEMO holds the answer for the orders as given and, when the check can
    tell it, for the same orders without their refused lines, keyed by what the check reads."""
    game = play(RULES, SCENARIO, 1)
    day = next(r for r in game.days if "# (refused) " in game.orders_text(r.day, r.seats[0])
               and "ENTER" not in game.orders_text(r.day, r.seats[0]).split("# (refused) ", 1)[1].split("\n")[0])
    side = day.seats[0]
    draft = game.orders_text(day.day, side).replace("# (refused) ", "")
    checks._MEMO.clear()
    with pytest.raises(OrdersError):
        parse_orders(SCENARIO, day.before, side, draft)
    assert len(checks._MEMO) == 2
    keys = list(checks._MEMO)
    assert keys[0][:3] == keys[1][:3] and len(keys[1][3]) < len(keys[0][3])
    assert all(entry[1] == [] for entry in [checks._MEMO[keys[1]]])  # no problem left
    assert checks._MEMO[keys[0]][1]  # the refusals, as told


def test_the_memo_answers_only_the_same_orders_on_the_same_visible_position(monkeypatch):
    """A check is answered from the memo only for the same orders on a position the same in all the
    check reads (the side's blocks in full); any other runs the check. The memo stays bounded."""
    game = play(RULES, SCENARIO, 3)
    day = next(r for r in game.days[2:] if r.seats[0] == "austria"
               and "# (refused) " not in game.orders_text(r.day, "austria"))
    text = game.orders_text(day.day, "austria")
    checks._MEMO.clear()
    runs = Runs(monkeypatch)
    parse_orders(SCENARIO, day.before, "austria", text)
    parse_orders(SCENARIO, day.before, "austria", text)
    assert runs.count == 1  # the second answered from the memo
    changed = day.before.copy()
    own = next(b for b in changed.blocks.values() if b.side == "austria" and b.on_map and b.strength > 1)
    own.strength -= 1  # a position the same but for one block's strength
    try:
        parse_orders(SCENARIO, changed, "austria", text)
    except OrdersError:
        pass
    assert runs.count == 2
    for result in game.days[:checks.MEMO_SIZE + 4]:
        try:
            parse_orders(SCENARIO, result.before, result.seats[0], game.orders_text(result.day, result.seats[0]))
        except OrdersError:
            pass
    assert len(checks._MEMO) <= checks.MEMO_SIZE


@pytest.mark.parametrize("seed, random_decisions", [(1, False), (2, True), (3, False), (6, True)])
def test_the_orders_a_bot_hands_its_check_are_what_its_text_reads_as(seed, random_decisions, monkeypatch):
    """The simple bot hands the day's check the orders it decided (values), not its text to read back
    (sendable.keep_accepted's ``written``): on every day of self-play games, from its side's view, they
    are what the parser reads in the text it sends (every field, the line and column of each order, the
    standing orders), and the text reads without a problem."""
    from pbem.games.marengo import bot

    compared = []
    kept = bot.keep_accepted

    def compare(scenario, view, text, written=None):
        assert written is not None
        read = parse_orders(scenario, state_seen(scenario, view), view["viewer"], text, checks=False)
        for mine, theirs in ((written.orders, read.orders), (written.standing, read.standing)):
            assert mine == theirs, (view["day"], text)
            assert [(type(o), o.column, getattr(o, "named", None)) for o in mine] == \
                [(type(o), o.column, getattr(o, "named", None)) for o in theirs]
        assert (written.side, written.final) == (read.side, read.final)
        compared.append(len(read.orders) + len(read.standing))
        return kept(scenario, view, text, written=written)

    monkeypatch.setattr(bot, "keep_accepted", compare)
    game = play(RULES, SCENARIO, seed, random_decisions=random_decisions)
    assert len(compared) == len(game.days) and sum(compared) > 3 * len(game.days)


def position(state) -> tuple:
    """Everything of a position a day's rules change, as a value (the blocks' fields, morale), the blocks
    themselves (their identity) and whether its index agrees with them."""
    fields = [(b.id, b.type, b.strength, b.locale, b.facing, b.status, b.activated, b.bombard, b.bombard_days,
               b.arrives, b.entries) for b in state.blocks.values()]
    return (fields, [id(b) for b in state.blocks.values()], dict(state.morale), dict(state.demoralised),
            state.check_index())


@pytest.mark.parametrize("seed, random_decisions", [(2, True), (3, False), (14, True)])
def test_an_order_tried_and_not_kept_is_taken_back_whole(seed, random_decisions, monkeypatch):
    """The day's check tries each order on the day's own position (checks._Forecast: no copy), its
    changes journaled: taken back, the position is as it was when the order was tried, the same blocks,
    the index right; an order carried out for certain is not taken back (the check goes on from what it
    left; the test takes it back as well, and sets it again as it was left). On every trial of self-play
    games, the bots' and the server's checks alike, with random decisions or not."""
    fork, take_back = checks._Forecast.fork, checks._Forecast.take_back
    seen = {"forked": 0, "taken back": 0, "changed": 0, "morale": 0, "kept": 0}

    def forked(day):
        other = fork(day)
        other.tried_on = position(other.st)
        seen["forked"] += 1
        return other

    def taken_back(day):
        day.left = position(day.st)
        take_back(day)
        assert position(day.st) == day.tried_on
        seen["taken back"] += 1
        seen["changed"] += day.left != day.tried_on
        seen["morale"] += day.left[2] != day.tried_on[2]  # an enemy retreating from an attack maneuver lost a block

    carried_out = checks._Checker.carried_out

    def kept(checker, order, trial):  # an order kept is taken back here too, then set as it was left
        day = trial.day
        left, fields = position(day.st), {b.id: b.__dict__.copy() for b in day.st.blocks.values()}
        morale, demoralised = dict(day.st.morale), dict(day.st.demoralised)
        taken_back(day)
        for block in day.st.blocks.values():
            day._restore(block, fields[block.id])
        day.st.morale.update(morale)
        day.st.demoralised.update(demoralised)
        assert position(day.st) == left
        seen["kept"] += 1
        carried_out(checker, order, trial)

    monkeypatch.setattr(checks._Forecast, "fork", forked)
    monkeypatch.setattr(checks._Forecast, "take_back", taken_back)
    monkeypatch.setattr(checks._Checker, "carried_out", kept)
    checks._MEMO.clear()
    play(RULES, SCENARIO, seed, random_decisions=random_decisions)
    assert seen["changed"] > 20 and seen["kept"] > 20 and seen["taken back"] > seen["kept"]
    assert seen["morale"] > 0  # these games have such trials


@pytest.mark.parametrize("seed, random_decisions", [(1, False), (6, True)])
def test_the_events_a_forecast_leaves_untold_change_no_answer_of_the_check(seed, random_decisions, monkeypatch):
    """The check's forecast of a day does not write the events no check reads (checks._Forecast.untold:
    blocks moved, extended, entered; its events are never reported). On every check of self-play games
    (the bots' and the server's), the same orders checked on the same position by a forecast that tells
    every event get the same answer: the same problems, warnings and Texts of the warnings."""
    import copy

    check_day = checks.check_day
    compared = {"checks": 0, "untold": 0}

    def answer_of(scenario, state, orders, untold):
        orders = copy.deepcopy(orders)
        monkeypatch.setattr(checks._Forecast, "untold", untold)
        told = []
        private = checks._Forecast.private
        monkeypatch.setattr(checks._Forecast, "private", lambda day, kind, *a, **k: (told.append(kind),
                                                                                   private(day, kind, *a, **k))[1])
        try:
            problems = checks._Checker(scenario, state.copy(), orders).run()
        finally:
            monkeypatch.setattr(checks._Forecast, "private", private)
            monkeypatch.setattr(checks._Forecast, "untold", UNTOLD)
        return [str(p) for p in problems], list(orders.warnings), [str(w) for w in orders.warnings_said], told

    def compare(scenario, state, orders, *, spare=False):
        *left_out, told_then = answer_of(scenario, state, orders, UNTOLD)
        *all_told, told = answer_of(scenario, state, orders, frozenset())
        assert left_out == all_told, (state.day, orders.echo())
        assert not UNTOLD & set(told_then)
        compared["checks"] += 1
        compared["untold"] += sum(kind in UNTOLD for kind in told)
        return check_day(scenario, state, orders, spare=spare)

    UNTOLD = checks._Forecast.untold
    assert UNTOLD >= {"move", "extend", "entry"}
    monkeypatch.setattr(checks, "check_day", compare)
    from pbem.games.marengo import parse, sendable
    monkeypatch.setattr(sendable, "check_day", compare)
    monkeypatch.setattr(parse, "check_day", compare)
    play(RULES, SCENARIO, seed, random_decisions=random_decisions)
    assert compared["checks"] > 40 and compared["untold"] > 100, compared


@pytest.mark.parametrize("seed, random_decisions", [(1, False), (5, True)])
def test_a_refusal_reads_as_the_problem_of_its_texts(seed, random_decisions, monkeypatch):
    """The check writes a refusal's English from its reason's, written already (checks._Checker.refuse),
    not by reading its Texts again: on every refusal of self-play games (the bots' checks and the
    server's), the problem is the one pbem.core.orders.problem makes of the same Texts."""
    from pbem.core.orders import problem

    refuse = checks._Checker.refuse
    seen = {"refusals": 0, "reasons of the engine": 0}

    def compared(checker, order, why, expected=""):
        refuse(checker, order, why, expected)
        made = checker.problems[-1]
        assert made == problem(made.line, made.column, made.said, made.found, made.expected_said)
        assert str(made) == str(problem(made.line, made.column, made.said, made.found, made.expected_said))
        seen["refusals"] += 1
        seen["reasons of the engine"] += isinstance(made.said.values["why"], checks.Text)

    monkeypatch.setattr(checks._Checker, "refuse", compared)
    checks._MEMO.clear()
    play(RULES, SCENARIO, seed, random_decisions=random_decisions)
    assert seen["refusals"] > 20 and seen["reasons of the engine"] > 10


def test_a_refusal_for_a_reason_with_its_full_stop_or_an_expected_text_with_values_reads_as_its_problem():
    """The two cases self-play does not meet (above): the engine's reason ending with a full stop, which
    the check compares without it (the message is written with it, as the Text reads), and what is
    expected given as a Text with values."""
    from pbem.core.orders import problem
    from pbem.games.marengo.orders import Fire, Move, Orders

    from pbem.core.game import Game

    checker = checks._Checker(SCENARIO, Game(RULES, SCENARIO, 1).state.copy(), Orders("austria"))
    said = checks.say("%(block)s may not move today.", block="A1")
    checker.remember("A1 may not move today.", said)  # as trial() keeps a Void's Text
    order = Move(text="MOVE A1 X -> Y", line=3, column=1)
    checker.refuse(order, "A1 may not move today.")
    checker.refuse(Fire(text="FIRE A2", line=4, column=1, block="A2"), said,
                   checks.say("HOLD FIRE %(block)s, or no order", block="A2"))
    for made in checker.problems:
        assert made == problem(made.line, made.column, made.said, made.found, made.expected_said)
    assert checker.problems[0].message == "A1 may not move today.: this order would not be carried out"
    assert checker.problems[1].expected == "HOLD FIRE A2, or no order"
