"""Bonaparte at Marengo as the server sees it: the ruleset interface (pbem.core.ruleset).

Each member hands over to the module of the package that does the work; this
file only says which.
"""

from __future__ import annotations

from pathlib import Path

from pbem.core.chance import Chance
from pbem.core.orders import OrdersError
from pbem.core.parsed import Codec
from pbem.core.written import written_in
from pbem.core.ruleset import Bot
from pbem.games.simmons.ruleset import FAMILY_ORDER_CLASSES, FAMILY_PARSER_FILES, PARSER_ONLY, FamilyRuleset
from pbem.paths import MAPS

from . import cases, clicks, invariants, orders, parse, rules, view
from .bot import bot_orders
from .scenario import SIDES, load_scenario
from . import words
from .words import marengo_tongue
from .setup import setup
from .strategist import strategist_chooser, strategist_orders, strategist_standing


class Marengo(FamilyRuleset):
    name = "marengo"
    title = "Bonaparte at Marengo"
    mail_words = frozenset(parse.ORDER_WORDS) | {"GAME", "SIDE", "TURN", "KEY"} | words.mail_words(parse.ORDER_WORDS)
    standing_words = frozenset({"STANDING"}) | words.mail_words(("STANDING",))  # PERMANENT, ПОСТОЯННО, 常备...
    standing_example = "STANDING PURSUE STRONG"
    ask_kinds = {  # the decisions a player may ask to be asked by mail (docs/orders.md)
        "block": "block an attack maneuver into your locale",
        "attack_leads": "your attack's lead blocks",
        "defence_leads": "your defence's lead blocks",
        "artillery_defence": "artillery defence fire",
        "bombard_target": "bombardment target",
        "pursuit": "pursuit",
        "retreat": "retreat destination",
        "take_loss": "which block takes a loss",
        "inflict_loss": "which enemy lead block takes your hits",
        "if_blocked": "your attack maneuver, when blocked",
    }

    PARSER_FILES = tuple(Path(__file__).parent / name for name in (
        "parse.py", "reader.py", "orders.py", "words.py", "words.toml", "scenario.py", "state.py", "ruleset.py"))
    CODEC = Codec(*FAMILY_ORDER_CLASSES, orders.Orders, orders.Standing, orders.Bombard, orders.Activate,
                  orders.Assault, orders.Move, orders.RoadMove, orders.Extend, orders.Enter, orders.Fire,
                  files=PARSER_FILES + FAMILY_PARSER_FILES, left_out=PARSER_ONLY)

    def scenarios(self) -> dict[str, Path]:
        return {"marengo": MAPS / "marengo.toml"}

    def load_scenario(self, path):
        return load_scenario(path)

    def check_map(self, path) -> list[str]:
        from pbem.games.simmons.board import check_board

        return check_board(path)

    def setup(self, scenario, options: dict, chance: Chance):
        return setup(scenario, chance)

    def is_over(self, scenario, state) -> bool:
        return rules.is_over(scenario, state)

    def parse_orders(self, scenario, state, seat: str, text: str):
        return parse.parse_orders(scenario, state, seat, text, checks=False)

    def tongue(self, lang: str = "en"):
        return marengo_tongue(lang)

    def orders_language(self, text: str, lang: str = "en") -> str:
        """The language ``text``'s order words are written in (the seat's, ``lang``, where they do not say): the
        echo of accepted orders is in it (pbem.core.written)."""
        return written_in(text, words.WORDS.by_language(), lang)

    def check_orders(self, scenario, state, seat: str, text: str, *, lang: str = "en"):
        try:
            orders = parse.parse_orders(scenario, state, seat, text, checks=True)  # the day as it will play
        except OrdersError as error:
            if lang == "en":
                raise
            raise words.error_in_words(error, lang, marengo_tongue(lang)) from None
        if lang != "en" and len(orders.warnings_said) == len(orders.warnings):  # each written as a Text
            tongue = marengo_tongue(lang)
            orders.warnings[:] = [words.words_in(tongue.say(w), lang) for w in orders.warnings_said]
        else:
            orders.warnings[:] = [words.words_in(w, lang) for w in orders.warnings]
        if lang != "en":
            places = tuple(loc.name for loc in scenario.board.locales.values())
            orders.in_words = lambda order: words.WORDS.echo_in(order, lang, places)
        return orders

    def day_orders(self, checked):
        """What the day reads from the text ``check_orders`` (in English) answered ``checked`` for, against the
        same position: the reading before the check's edits (parse._as_read), for Game.submit to hand on."""
        return getattr(checked, "as_read", checked)

    def resolve(self, scenario, state, orders, decider, chance):
        return rules.resolve_day(scenario, state, orders, decider)  # no dice in this game

    def game_view(self, scenario, state, seat):
        return view.view(scenario, state, seat)

    def report_module(self):
        from . import report

        return report

    def status_lines(self, game, seat, *, lang: str = "en") -> list[str]:
        t = marengo_tongue(lang)
        morale = game.view(seat)["morale"]
        return [t.gettext("Morale: %(sides)s", sides=t.listed([f"{self.side_word(s, t)} {morale[s]}" for s in SIDES]))]

    def render_svg(self, scenario, view: dict, title: str | None = None, *, lang: str = "en") -> str:
        from .render import render_svg

        return render_svg(scenario.board, view, title=title, lang=lang)

    def map_clicks(self, scenario, view: dict | None = None, *, lang: str = "en") -> dict:
        return clicks.map_clicks(scenario, view, lang)

    def bots(self) -> dict[str, Bot]:
        return {
            "bot": Bot("bot", "the simple bot", bot_orders),
            "strategist": Bot("strategist", "the strategist", strategist_orders, strategist_standing,
                              strategist_chooser),
        }

    def check_turn(self, scenario, result) -> list[str]:
        return invariants.check_day(scenario, result)

    def summary(self, scenario, state) -> dict:
        return invariants.summary(scenario, state)

    def run_case(self, path):
        return cases.run_case(path)

    def show_case(self, outcome) -> str:
        return cases.show(outcome)


RULESET = Marengo()
