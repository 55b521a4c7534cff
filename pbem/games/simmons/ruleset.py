"""The members of the ruleset interface (pbem.core.ruleset) that both Marengo-family
games answer alike: two seats, Austria and France; one side's turn after the
other's, named by its hour; the view of a seat (onlookers of a finished game see
the moderator's); the state's digest; the report and the orders form, from the
game's report module. Each game's ruleset.py subclasses :class:`FamilyRuleset`
and says the rest (its scenario, setup, orders, rules, bots, cases)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

from pbem.core.orders import Header, Token
from pbem.core.parsed import Codec, OrdersForm, form_of
from pbem.core.ruleset import SPECTATOR, Option, Seat, Turn

from pbem.lang import Text, say

from .clock import Clock
from .lang import Tongue, tongue
from .sides import SIDE_NAME, SIDES


FAMILY = Path(__file__).parent
FAMILY_PARSER_FILES = tuple(FAMILY / name for name in (
    "reader.py", "orders.py", "board.py", "scenario.py", "state.py", "words.py", "clock.py", "sides.py", "ruleset.py"))
"""The family's files an orders text is read by (the reader, the orders' values, names and hours)."""

FAMILY_ORDER_CLASSES = (Header, Token)
"""What every orders value of the family holds besides the game's own classes."""

PARSER_ONLY = {Header: ("tokens",)}
"""What only the parser reads of an orders value (the header line's tokens, for its check): not stored."""


_TURNS: dict[tuple, Turn] = {}  # (game, TURN, side, hour, past the end) -> the Turn (FamilyRuleset.turn)


class FamilyRuleset:
    TURN = "day"  # what the rule book calls one side's turn
    PARSER_FILES: tuple[Path, ...] = ()  # the game's files its orders are read by (the stored parse's version)
    CODEC: Codec | None = None  # the game's orders as JSON, made with PARSER_FILES + FAMILY_PARSER_FILES; None: none

    def orders_form(self, scenario) -> OrdersForm | None:
        """The game's orders as JSON for ``scenario`` and its parser's version (pbem.core.parsed):
        an orders entry keeps what its text was read into, and a replay reads it back."""
        if self.CODEC is None:
            return None
        return form_of(scenario, self.CODEC)

    def options(self) -> tuple[Option, ...]:
        return ()

    def seats(self, scenario, options: dict) -> tuple[Seat, ...]:
        return tuple(Seat(side, side, SIDE_NAME[side]) for side in SIDES)

    def turn(self, scenario, state) -> Turn:
        """The side whose day comes (a Turn is frozen: one is made for each name of a day, and kept,
        since a replay asks every day and the name is written in English each time it is made)."""
        day = state.day
        side, hour, end = scenario.side_of_day(day), scenario.hour(day), day >= scenario.days
        key = (type(self), self.TURN, side, hour, end)  # the game, and what label_text reads of the day
        turn = _TURNS.get(key)
        if turn is None:
            said = self.label_text(scenario, day)
            turn = _TURNS[key] = Turn((side,), str(said), others=tuple(s for s in SIDES if s != side), said=said)
        return turn

    def tongue(self, lang: str = "en") -> Tongue:
        """The game's texts in ``lang`` (its catalog over the family's); the family's alone here."""
        return tongue(lang)

    def decision_in(self, scenario, decision, *, lang: str = "en"):
        """An "ask me" decision with its question and its choices' labels in ``lang``
        (pbem.core.ruleset.decision_in): as the rules wrote them (``Decision.said``)."""
        t = self.tongue(lang)
        return replace(decision, question=decision.question_in(t),
                       labels=tuple((key, decision.label_in(key, t)) for key in decision.options))

    @staticmethod
    def side_word(side: str, t: Tongue) -> str:
        """A side's name in ``t``'s language."""
        return {"austria": t.gettext("Austria"), "france": t.gettext("France")}.get(side) or SIDE_NAME[side]

    def turn_label(self, scenario, day: int, *, lang: str = "en") -> str:
        return self.tongue(lang).say(self.label_text(scenario, day))

    def label_text(self, scenario, day: int) -> Text:
        """The name of day ``day`` as a Text ("7AM (France's day)"; "7:00 (tour de la France)")."""
        if day >= scenario.days:
            return say("the end of the game")
        side, hour = scenario.side_of_day(day), scenario.hour(day)
        whose = {("austria", "day"): say("Austria's day"), ("france", "day"): say("France's day"),
                 ("austria", "turn"): say("Austria's turn"), ("france", "turn"): say("France's turn")}[side, self.TURN]
        return say("%(hour)s (%(whose)s)", hour=Clock(hour), whose=whose)

    def game_view(self, scenario, state, seat):
        """The game's view function (its view.py's ``view``)."""
        raise NotImplementedError

    def view(self, scenario, state, seat):
        if seat == SPECTATOR and not state.over:
            return dict(self.public_view(scenario, state), spectator=True)
        if seat == SPECTATOR:  # the game over: everything, as the moderator sees it, but the onlookers' (its caption)
            return dict(self.game_view(scenario, state, None), spectator=True)
        return self.game_view(scenario, state, seat)

    def public_view(self, scenario, state) -> dict:
        """What both sides see of a game being played (its onlookers' view): each side's blocks
        as the enemy sees them, waiting blocks as counts, no standing orders."""
        first, second = (self.game_view(scenario, state, side) for side in SIDES)
        out = dict(first, viewer=None, blocks=[], standing={}, enemy=second["enemy"] + first["enemy"])
        for key in ("reinforcements", "waiting"):
            if key in out:
                out[key] = {SIDES[0]: second[key].get(SIDES[0]), SIDES[1]: first[key].get(SIDES[1])}
        return out

    def digest(self, state) -> str:
        return state.digest()

    def report_module(self):
        """The game's report module: ``build_report`` and ``opening_template``."""
        raise NotImplementedError

    def report(self, game, day, seat, *, deadline=None, game_label="", game_id="", spectator=False, lang="en"):
        return self.report_module().build_report(game, day, seat, deadline=deadline, game_label=game_label,
                                                 game_id=game_id, spectator=spectator, lang=lang)

    def orders_template(self, game, seat, *, deadline, game_label, game_id, lang="en") -> str:
        return self.report_module().opening_template(game, seat, deadline=deadline, game_label=game_label,
                                                     game_id=game_id, lang=lang)
