"""Triomphe à Marengo as the server sees it: the ruleset interface (pbem.core.ruleset).

Each member hands over to the module of the package that does the work; this
file only says which.
"""

from __future__ import annotations

from pbem.core.chance import Chance
from pbem.core.ruleset import SPECTATOR, Bot, Option, Seat, Turn
from pbem.paths import MAPS

from . import parse, sequence
from .bot import RandomBot
from .scenario import SIDE_NAME, SIDES, load_map, load_scenario
from pbem.games.simmons.clock import hour_label
from .setup import deal
from .strategist import Strategist
from .view import view as see  # (the package's name `view` is the function, not the module)

DECISION_KINDS = {
    "respond": "answer a maneuver attack from the reserve (§9)",
    "if_blocked": "after your blocked maneuver attack: advance or stay (§9)",
    "defence_vanguard": "your vanguard in defence (§11 step 2)",
    "attack_vanguard": "your vanguard in attack, after seeing the defender's (§11 step 3)",
    "barrage": "fire a barrage (§11 step 4)",
    "barrage_loss": "which vanguard block a barrage reduces (§11 step 4)",
    "counterattack": "counterattack, and with which blocks (§11 step 5)",
    "odd_reduction": "which of two blocks takes an odd reduction (§11)",
    "excess_loss": "which assault block takes a reduction beyond the vanguard (§11 step 8)",
    "bombard_loss": "which block a bombardment reduces (§10)",
    "retreat_loss": "which block takes a retreat reduction (§13)",
    "retreat_who": "which blocks retreat when room runs short (§13)",
    "retreat": "where a block retreats (§13)",
    "cover": "cover the enemy's disc shortfall with its discs from other locales (§18)",
    "disc_loss": "which of the enemy's committed discs are lost (§18)",
    "disc_return": "France's extra disc return (§18 step 3)",
}


def _lines(text: str) -> str:
    """An orders text ends with a newline (mailers append FINAL after it)."""
    return text if not text or text.endswith("\n") else text + "\n"


def _bot_orders(scenario, view_: dict, seed: int) -> str:
    """The random bot's orders: only lines it knows the parser accepts from its own view."""
    return _lines(RandomBot(scenario, view_["viewer"], seed * 7919 + view_["day"]).orders(view_))


def _bot_standing(scenario, view_: dict, seed: int) -> str:
    return _lines(RandomBot(scenario, view_["viewer"], seed * 7919 + view_["day"]).standing())


def _bot_chooser(scenario, view_: dict, seed: int):
    return RandomBot(scenario, view_["viewer"], seed * 104729 + view_["day"]).choose


def _strategist_orders(scenario, view_: dict, seed: int) -> str:
    return _lines(Strategist(scenario, view_["viewer"], seed).orders(view_))


class Triomphe:
    name = "triomphe"
    title = "Triomphe à Marengo"
    mail_words = frozenset(parse.ORDER_WORDS) | {"GAME", "SIDE", "TURN", "KEY"}
    ask_kinds = DECISION_KINDS

    def scenarios(self):
        return {"triomphe": MAPS / "triomphe.toml"}

    def options(self) -> tuple[Option, ...]:
        return ()

    def load_scenario(self, path):
        return load_scenario(path)

    def check_map(self, path) -> list[str]:
        from pbem.games.simmons.board import MapError

        try:
            load_map(path)
        except MapError as exc:
            return exc.problems
        return []

    def seats(self, scenario, options: dict) -> tuple[Seat, ...]:
        return tuple(Seat(side, side, SIDE_NAME[side]) for side in SIDES)

    def setup(self, scenario, options: dict, chance: Chance):
        return deal(scenario, chance.stream("setup"))

    def turn(self, scenario, state) -> Turn:
        side = scenario.side_of_day(state.day)
        return Turn((side,), self.turn_label(scenario, state.day), others=tuple(s for s in SIDES if s != side))

    def turn_label(self, scenario, day: int) -> str:
        if day >= scenario.days:
            return "the end of the game"
        return f"{hour_label(scenario.hour(day))} ({SIDE_NAME[scenario.side_of_day(day)]}'s turn)"

    def is_over(self, scenario, state) -> bool:
        return sequence.is_over(scenario, state)

    def parse_orders(self, scenario, state, seat: str, text: str):
        return parse.parse_orders(scenario, state, seat, text)

    def check_orders(self, scenario, state, seat: str, text: str):
        return self.parse_orders(scenario, state, seat, text)  # the parser's checks are all the start decides

    def resolve(self, scenario, state, orders, decider, chance):
        return sequence.resolve_day(scenario, state, orders, decider)  # combat is deterministic: no dice

    def view(self, scenario, state, seat):
        return see(scenario, state, None if seat == SPECTATOR else seat)

    def digest(self, state) -> str:
        return state.digest()

    def report(self, game, day, seat, *, deadline=None, game_label="", game_id="", spectator=False):
        from pbem.core.events import events_for
        from pbem.report.document import Report, to_markdown, to_text

        from .report import compose
        from .template import template

        result = game.days[day]
        reader = None if spectator else seat
        seen = game.view(reader, day)
        events = events_for(result.events, reader)
        decisions = [r for r in result.decisions if reader is None or r.decision.side == reader]
        title = f"{game_label or self.title}: {self.turn_label(game.scenario, day)}"
        doc = compose(game.scenario, seen, events, decisions, title=title)
        form = ""
        if reader is not None and not seen["over"]:
            form = template(game.scenario, seen, game=game_id or game_label or "<game>", deadline=deadline)
            from pbem.report.document import Code, Heading

            doc.add(Heading(2, "Your next orders"), Code(form))
        markdown = to_markdown(doc)
        return Report(side=reader, day=day, subject=title, markdown=markdown, text=to_text(doc), template=form,
                      spectator=spectator, title=title, source=markdown)

    def orders_template(self, game, seat, *, deadline, game_label, game_id) -> str:
        from .template import template

        return template(game.scenario, game.view(seat), game=game_id or game_label or "<game>", deadline=deadline)

    def status_lines(self, game, seat) -> list[str]:
        seen = game.view(seat)
        return ["Morale: " + ", ".join(f"{SIDE_NAME[s]} {seen['morale'][s]} ({seen['uncommitted'][s]} uncommitted)"
                                       for s in SIDES)]

    def render_svg(self, scenario, view_: dict, title: str | None = None) -> str:
        from .render import render_svg

        return render_svg(scenario, view_, title=title)

    def map_clicks(self, scenario, view: dict | None = None) -> dict:
        from .clicks import map_clicks

        return map_clicks(scenario, view)

    def bots(self) -> dict[str, Bot]:
        return {
            "bot": Bot("bot", "the random bot", _bot_orders, _bot_standing, _bot_chooser),
            "strategist": Bot("strategist", "the forward player", _strategist_orders),
        }

    def check_turn(self, scenario, result) -> list[str]:
        from .selfplay import invariants

        problems = invariants(scenario, result.after)
        if result.after.day != result.before.day + 1:
            problems.append(f"the clock went from turn {result.before.day} to {result.after.day}")
        return problems

    def summary(self, scenario, state) -> dict:
        from .victory import east_of_line

        how = "demoralisation" if any(state.demoralised.values()) else "the objective line"
        return {"winner": state.winner, "how": how,
                "means": {f"{s} morale": state.morale(s) for s in SIDES} |
                         {"Austrian blocks east of the line": east_of_line(state, scenario)},
                "counts": {}}

    def run_case(self, path):
        from .cases import run_case

        return run_case(path)

    def show_case(self, outcome) -> str:
        from .cases import show

        return show(outcome)


RULESET = Triomphe()

__all__ = ["RULESET", "DECISION_KINDS"]
