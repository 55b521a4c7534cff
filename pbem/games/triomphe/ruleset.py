"""Triomphe à Marengo as the server sees it: the ruleset interface (pbem.core.ruleset).

Each member hands over to the module of the package that does the work; this
file only says which.
"""

from __future__ import annotations

import dataclasses

from pathlib import Path

from pbem.core.chance import Chance
from pbem.core.orders import OrdersError
from pbem.core.parsed import Codec
from pbem.core.written import written_in
from pbem.core.ruleset import Bot
from pbem.games.simmons.ruleset import FAMILY_ORDER_CLASSES, FAMILY_PARSER_FILES, PARSER_ONLY, FamilyRuleset
from pbem.paths import MAPS

from . import orders, parse, sequence
from .bot import RandomBot
from .scenario import SIDES, load_map, load_scenario
from .setup import deal
from .forward import Forward
from .strategist import Strategist
from .view import view as see  # (the package's name `view` is the function, not the module)
from .words import WORDS, triomphe_tongue

DECISION_KINDS = {
    "respond": "answer a maneuver attack from the reserve (§9)",
    "if_blocked": "after your blocked maneuver attack: advance or stay (§9)",
    "defence_vanguard": "your vanguard in defence (§11 step 2)",
    "assault_blocks": "your assault blocks (WITH BEST), after seeing the defender's vanguard (§11 step 3)",
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
    """The random bot's orders: only lines it knows the parser accepts from its own view, less those the turn's
    check refuses (read against the position as the side knows it)."""
    from .bot import fit

    side = view_["viewer"]
    known = Strategist(scenario, side, seed).imagine(view_)
    return _lines(fit(scenario, known, side, RandomBot(scenario, side, seed * 7919 + view_["day"]).orders(view_)))


def _bot_standing(scenario, view_: dict, seed: int) -> str:
    return _lines(RandomBot(scenario, view_["viewer"], seed * 7919 + view_["day"]).standing())


def _bot_chooser(scenario, view_: dict, seed: int):
    return RandomBot(scenario, view_["viewer"], seed * 104729 + view_["day"]).choose


def _strategist_orders(scenario, view_: dict, seed: int) -> str:
    return _lines(Strategist(scenario, view_["viewer"], seed * 7919 + view_["day"]).orders(view_))


def _strategist_standing(scenario, view_: dict, seed: int) -> str:
    return Strategist(scenario, view_["viewer"], seed).standing()


def _strategist_chooser(scenario, view_: dict, seed: int):
    return Strategist(scenario, view_["viewer"], seed).chooser(view_)


def _forward_orders(scenario, view_: dict, seed: int) -> str:
    """The forward player's orders, less the lines the parser refuses (it can leave a reorganisation
    incomplete, T39); read against the position as the side knows it."""
    from .strategist import accepted

    side = view_["viewer"]
    known = Strategist(scenario, side, seed).imagine(view_)
    return _lines(accepted(scenario, known, side, Forward(scenario, side, seed).orders(view_)))


class Triomphe(FamilyRuleset):
    TURN = "turn"
    name = "triomphe"
    title = "Triomphe à Marengo"
    mail_words = frozenset(parse.ORDER_WORDS) | {"GAME", "SIDE", "TURN", "KEY"} | WORDS.mail_words(parse.ORDER_WORDS)
    standing_words = frozenset({"STANDING"}) | WORDS.mail_words(("STANDING",))  # PERMANENT, ПОСТОЯННО, 常备...
    standing_example = "STANDING COUNTERATTACK TURN"
    ask_kinds = DECISION_KINDS
    PARSER_FILES = tuple(Path(__file__).parent / name for name in (
        "parse.py", "checks.py", "reader.py", "orders.py", "standing.py", "words.py", "words.toml", "scenario.py", "state.py",
        "ruleset.py"))
    CODEC = Codec(*FAMILY_ORDER_CLASSES, orders.Orders, orders.Standing, orders.Bombard, orders.Continue,
                  orders.Reorganise, orders.March, orders.Road, orders.Enter, orders.Attack, orders.Assault,
                  orders.Fire, orders.Return, files=PARSER_FILES + FAMILY_PARSER_FILES, left_out=PARSER_ONLY)

    def scenarios(self):
        return {"triomphe": MAPS / "triomphe.toml"}

    def load_scenario(self, path):
        return load_scenario(path)

    def check_map(self, path) -> list[str]:
        from pbem.games.simmons.board import MapError

        try:
            load_map(path)
        except MapError as exc:
            return exc.problems
        return []

    def setup(self, scenario, options: dict, chance: Chance):
        return deal(scenario, chance.stream("setup"))

    def is_over(self, scenario, state) -> bool:
        return sequence.is_over(scenario, state)

    def parse_orders(self, scenario, state, seat: str, text: str):
        """The orders as the turn reads them (a replay, a stored parse): without the turn's check, which
        check_orders made when they arrived (as Bonaparte at Marengo's)."""
        return parse.parse_orders(scenario, state, seat, text, checks=False)

    def orders_language(self, text: str, lang: str = "en") -> str:
        """The language ``text``'s order words are written in (the seat's, ``lang``, where they do not say): the
        echo of accepted orders is in it (pbem.core.written)."""
        return written_in(text, WORDS.by_language(), lang)

    def check_orders(self, scenario, state, seat: str, text: str, *, lang: str = "en"):
        try:
            orders = parse.parse_orders(scenario, state, seat, text)  # the parser's, then the turn's (checks.py)
        except OrdersError as error:
            if lang == "en":
                raise
            raise WORDS.error_in_words(error, lang, triomphe_tongue(lang)) from None
        if lang != "en":
            tongue = triomphe_tongue(lang)
            orders.warnings[:] = [WORDS.words_in(tongue.say(w), lang) for w in orders.warnings_said]
            places = tuple(loc.name for loc in scenario.board.locales.values())
            orders.in_words = lambda order: WORDS.echo_in(order, lang, places)
        return orders

    def day_orders(self, checked):
        """What the day reads from the text ``check_orders`` (in English) answered ``checked`` for, against the
        same position: the same orders without the check's warnings (the turn's check changes no order, it only
        warns; the day's reading, ``parse_orders``, has none), for Game.submit to hand on and store."""
        return dataclasses.replace(checked, warnings=[], warnings_said=[], in_words=None)

    def resolve(self, scenario, state, orders, decider, chance):
        return sequence.resolve_day(scenario, state, orders, decider)  # combat is deterministic: no dice

    def game_view(self, scenario, state, seat):
        return see(scenario, state, seat)

    def report_module(self):
        from . import report

        return report

    def status_lines(self, game, seat, *, lang: str = "en") -> list[str]:
        t = triomphe_tongue(lang)
        seen = game.view(seat)
        sides = [t.gettext("%(side)s %(morale)s (%(uncommitted)s uncommitted)", side=self.side_word(s, t),
                           morale=seen["morale"][s], uncommitted=seen["uncommitted"][s]) for s in SIDES]
        return [t.gettext("Morale: %(sides)s", sides=t.listed(sides))]

    def tongue(self, lang: str = "en"):
        return triomphe_tongue(lang)

    def render_svg(self, scenario, view_: dict, title: str | None = None, *, lang: str = "en") -> str:
        from .render import render_svg

        return render_svg(scenario, view_, title=title, lang=lang)

    def map_clicks(self, scenario, view: dict | None = None, *, lang: str = "en") -> dict:
        from .clicks import map_clicks

        return map_clicks(scenario, view, lang)

    def bots(self) -> dict[str, Bot]:
        return {
            "bot": Bot("bot", "the random bot", _bot_orders, _bot_standing, _bot_chooser),
            "forward": Bot("forward", "the forward player (the first strategist)", _forward_orders),
            "strategist": Bot("strategist", "the player that tries each action with the rules before it writes it",
                              _strategist_orders, _strategist_standing, _strategist_chooser),
        }

    def check_turn(self, scenario, result) -> list[str]:
        from .selfplay import invariants

        from pbem.games.simmons.invariants import clock

        return clock(result.before, result.after, "turn") + invariants(scenario, result.after)

    def summary(self, scenario, state) -> dict:
        from .victory import east_of_line

        if any(state.demoralised.values()):
            how = "demoralisation"
        else:  # 9 PM (000 §19): Austria's three blocks east of the line, or France holding it to the end
            how = "the objective line" if state.winner == "austria" else "time (the line held)"
        return {"winner": state.winner, "how": how,
                "means": {f"{s} morale": state.morale(s) for s in SIDES} |
                         {"Austrian blocks east of the line": east_of_line(state, scenario),
                          "turns played": state.day},
                "counts": {}}

    def run_case(self, path):
        from .cases import run_case

        return run_case(path)

    def show_case(self, outcome) -> str:
        from .cases import show

        return show(outcome)


RULESET = Triomphe()

__all__ = ["RULESET", "DECISION_KINDS"]
