"""Napoleon 1815 as the server sees it: the ruleset interface (pbem.core.ruleset).
Each member hands over to the module of the package that does the work."""

from __future__ import annotations

from pathlib import Path

from pbem.core.chance import Chance
from pbem.core.orders import Header, OrdersError, Token
from pbem.core.parsed import Codec, OrdersForm, form_of
from pbem.core.ruleset import SPECTATOR, Bot, Option, Seat, Turn
from pbem.lang import N_, language, say
from pbem.paths import MAPS

from . import cases, invariants, orders, parse, round_orders, turn, view
from .board import check_board
from .bot import bot_orders
from .general import general_orders
from .marshal import marshal_orders
from .scenario import SEAT_TITLE, SEATS, load_scenario
from .labels import label_said, number_said
from .setup import initial_state
from .words import ARMY_SAID, SIDES, decision_in, error_in_words, tongue
from .words import mail_words as every_mail_word
from .words import by_language as words_by_language
from pbem.core.written import written_in


BID_LABELS = tuple((f"france-{n}", say("france-%(steps)s", steps=n)) for n in range(11)) + \
    tuple((f"allies-{n}", say("allies-%(steps)s", steps=n)) for n in range(11))
"""The words of the bid option's "france-N" and "allies-N" (the side's name in the reader's language)."""


SCENARIO_NAMES = (N_("Napoleon 1815: the Waterloo campaign, 15-22 June"),)
"""The scenarios' names (maps/napoleon1815.toml), for the catalog: the new-game form reads them in each language."""


class Napoleon1815:
    name = "napoleon1815"
    standing_words = every_mail_word(("DOCTRINE",))  # its standing orders are DOCTRINE lines (ДОКТРИНА, 方针...)
    standing_example = "DOCTRINE WITHDRAW 40"
    title = N_("Napoleon 1815 (Columbia Games, 4th edition)")
    mail_words = every_mail_word(parse.ORDER_WORDS) | {"GAME", "SIDE", "TURN", "KEY"}
    ask_kinds = {  # the game's catalog's texts: the new-game form reads them in the reader's language
        "terrain": N_("where your battle terrain markers go"),
        "hit": N_("which of your equally strong blocks takes a hit"),
        "retreat": N_("the towns your blocks retreat to"),
        "supply": N_("which blocks supply losses remove"),
        "withdraw": N_("whether to withdraw from a battle when your WITHDRAW line is crossed"),
    }

    PARSER_FILES = tuple(Path(__file__).parent / name for name in (
        "parse.py", "orders.py", "words.py", "words.toml", "movement.py", "blocks.py", "board.py", "auction.py",
        "triggers.py", "setup.py", "scenario.py", "ruleset.py", "round_orders.py", "retreat.py"))
    """The files an orders text is read by (the stored parse's version, pbem.core.parsed)."""
    CODEC = Codec(Header, Token, orders.Orders, orders.Move, orders.Place, orders.Deploy, round_orders.Play,
                  # not stored: the header's tokens (the parser's alone) and the words the check's echo is
                  # written in (a replay's reading is the same orders, whatever the language they came in)
                  files=PARSER_FILES, left_out={Header: ("tokens",), orders.Orders: ("lang",)})

    def scenarios(self) -> dict[str, Path]:
        return {"napoleon1815": MAPS / "napoleon1815.toml"}

    def orders_form(self, scenario) -> OrdersForm:
        """The orders as JSON for ``scenario`` and the parser's version (pbem.core.parsed): an orders
        entry keeps what its text was read into, and a replay reads it back."""
        return form_of(scenario, self.CODEC, shared=lambda sc: {"names": parse.town_names(sc)})

    def options(self) -> tuple[Option, ...]:
        return (Option("players", N_("Players"), ("2", "3"), "2",
                       N_("2: one player commands both Allied armies; 3: one each, who may not see each "
                          "other's blocks (§12)")),
                Option("battle", N_("Battles"), ("doctrine", "hybrid", "live"), "doctrine",
                       N_("doctrine: each seat's standing DOCTRINE orders fight the whole battle at once; "
                          "hybrid: the defenders, then the attackers, deploy in short sub-turns, then the "
                          "doctrine fights the rounds, stopping for a seat only when a trigger it chose (ASK) "
                          "fires; live: as hybrid, and every round is a short sub-turn for the seats in the "
                          "battle"),
                       labels=(("doctrine", N_("doctrine")), ("hybrid", N_("hybrid")), ("live", N_("live")))),
                Option("bid", N_("Bid (§13)"), ("none", "auction") + tuple(
                    f"{side}-{n}" for side in ("france", "allies") for n in range(11)), "none",
                       N_("auction: the game begins with the auction, every seat's sealed BID in a sub-turn, "
                          "the side of the higher bid removes that many steps at its setup; france-N or "
                          "allies-N: the result of an auction held before (a tournament's), that side removes "
                          "N steps at its setup; one a block at most (BID LOSS names them)"),
                       labels=(("none", N_("none")), ("auction", N_("auction"))) + BID_LABELS))

    def load_scenario(self, path):
        return load_scenario(path)

    def check_map(self, path) -> list[str]:
        return check_board(path)

    def seats(self, scenario, options: dict) -> tuple[Seat, ...]:
        sides = {"french": "france", "anglo-dutch": "allies", "prussian": "allies"}
        return tuple(Seat(s, sides[s], SEAT_TITLE[s]) for s in SEATS)

    def setup(self, scenario, options: dict, chance: Chance):
        return initial_state(scenario, options)

    def turn(self, scenario, state) -> Turn:
        owing = turn.owing(scenario, state)
        others = tuple(s for s in SEATS if s not in owing)
        said = label_said(scenario, state)  # read in each reader's language (pbem.core.game.Game.turn_label)
        label = str(said)  # the English name: the server's and the log's
        if state.pending or state.auction is not None:
            return Turn(owing, label, others, kind="subturn", said=said)
        return Turn(owing, label, others=others, said=said)

    def turn_label(self, scenario, n: int, *, lang: str = "en") -> str:
        """The name of campaign turn ``n`` (``state.turn``, the position's turn track). The driver
        names its days from their positions (``turn``), so the sub-turns of battles never shift
        the names; this is only its fallback for days not played yet."""
        return tongue(lang).say(number_said(scenario, n))

    def seat_moves(self, scenario, before, after) -> dict[str, str]:
        """§13: the auction's winner plays the side he bid for (auction.py); the server moves the
        players between the seats before the setup. Only the turn that settles the auction moves anyone."""
        if before.auction is None or after.auction is not None or not after.bid:
            return {}
        return dict(after.bid.get("moves") or {})

    def press_rule(self, scenario, state, sender: str, to: tuple[str, ...]) -> str | None:
        """§12 (three players): the Allied players may talk to each other only during the setup
        and on Allied night turns (docs/rules-notes.md, "Napoleon 1815: press")."""
        allies = {"anglo-dutch", "prussian"}
        if sender not in allies or not (set(to) & allies) - {sender} or state.turn in (0, 1):
            return None
        spec = scenario.track[state.turn - 2] if state.turn - 2 < len(scenario.track) else None
        if spec is not None and spec.side == "A" and spec.night:
            return None
        return "the Allied players may talk to each other only during the setup and on Allied night turns (§12)"

    def is_over(self, scenario, state) -> bool:
        return state.over

    def parse_orders(self, scenario, state, seat, text):
        return parse.parse_orders(scenario, state, seat, text)

    def orders_language(self, text: str, lang: str = "en") -> str:
        """The language ``text``'s order words are written in (the seat's, ``lang``, where they do not say): the
        echo of accepted orders is in it (pbem.core.written)."""
        return written_in(text, words_by_language(), lang)

    def check_orders(self, scenario, state, seat, text, *, lang: str = "en"):
        try:  # the parser's checks are all the start decides
            orders = self.parse_orders(scenario, state, seat, text)
        except OrdersError as error:
            if language(lang) == "en":
                raise
            raise error_in_words(error, lang) from None
        orders.lang = language(lang)  # the echo in the seat's words
        return orders

    def day_orders(self, checked):
        """What the day reads from the text ``check_orders`` (in English) answered ``checked`` for, against the
        same position: the same orders (the check is the parser's), for Game.submit to hand on."""
        return checked

    def resolve(self, scenario, state, orders, decider, chance):
        return turn.resolve(scenario, state, orders, decider, chance)

    def view(self, scenario, state, seat):
        if seat == SPECTATOR and not state.over:
            return view.public(scenario, state)
        return view.view(scenario, state, None if seat == SPECTATOR else seat)

    def digest(self, state) -> str:
        return state.digest()

    def report(self, game, day, seat, *, deadline=None, game_label="", game_id="", spectator=False, lang="en"):
        from .report import build_report

        return build_report(game, day, seat, deadline=deadline, game_label=game_label, game_id=game_id,
                            spectator=spectator, lang=lang)

    def orders_template(self, game, seat, *, deadline, game_label, game_id, lang="en") -> str:
        from .report import orders_template

        return orders_template(game, seat, deadline=deadline, game_label=game_label, game_id=game_id, lang=lang)

    def tongue(self, lang: str = "en"):
        """The game's texts in ``lang`` (its own catalog): the server reads the seats' titles through it."""
        return tongue(lang)

    def status_lines(self, game, seat, *, lang: str = "en") -> list[str]:
        v = game.view(seat)
        t = tongue(lang)
        return [t.gettext("Blocks lost: %(lost)s", lost=t.listed([f"{t.say(ARMY_SAID[a])} {n}"
                                                                  for a, n in v["lost"].items()]))]

    def render_svg(self, scenario, view: dict, title: str | None = None, *, lang: str = "en") -> str:
        from .render import render_svg

        return render_svg(scenario, view, title, lang=lang)

    def decision_in(self, scenario, decision, *, lang: str = "en"):
        """An "ask me" decision (as the server keeps it: its question and labels in English) with its
        question and labels in the reader's language; its options, default and limits unchanged.
        (Not yet in the ruleset protocol: the server may call it where a game has it.)"""
        return decision_in(decision, scenario.board, lang)

    def seat_aliases(self) -> dict[str, tuple[str, ...]]:
        """Each seat as the other languages name it (words.toml, ``[sides]``: Франция, 普军 ...), for a
        header's SIDE. (Not yet in the ruleset protocol: the server matches SIDE on ids and titles.)"""
        return {seat: tuple(a for aliases in by_lang.values() for a in aliases) for seat, by_lang in SIDES.items()}

    def map_clicks(self, scenario, view: dict | None = None, *, lang: str = "en") -> dict:
        from .clicks import map_clicks

        return map_clicks(scenario, view, lang)

    def bots(self) -> dict[str, Bot]:
        return {"bot": Bot("bot", N_("the random legal bot"), bot_orders),
                "general": Bot("general", N_("the general: marches on the supply cities, attacks when stronger"),
                               general_orders),
                "marshal": Bot("marshal", N_("the marshal: the French concentrate, march on Brussels, then "
                                             "Ghent or Liège, attack only when stronger, keep garrisons "
                                             "(the Allies as the general)"), marshal_orders)}

    def check_turn(self, scenario, result) -> list[str]:
        return invariants.check_turn(scenario, result)

    def summary(self, scenario, state) -> dict:
        return invariants.summary(scenario, state)

    def run_case(self, path):
        return cases.run_case(path)

    def show_case(self, outcome) -> str:
        return cases.show_case(outcome)


RULESET = Napoleon1815()
