"""Napoleonic DBA as the server sees it: the ruleset interface (pbem.core.ruleset). Each member hands over to
the module that does the work. The package exports :data:`DBA_RULESET` as its ``RULESET``."""

from __future__ import annotations

from pathlib import Path

from pbem.core.chance import Chance
from pbem.core.orders import OrdersError
from pbem.core.ruleset import SPECTATOR, Bot, Option, Seat, Turn
from pbem.paths import MAPS

from . import invariants, seats, turn, view
from . import bot as bots_
from .lang import N_, colon, term, tongue
from .names import Names
from .parse import Clock, parse_orders
from .problems import error_in_language
from .scenario import ScenarioError, load_scenario
from .state import initial_state
from .words import MAIL_HEAD_WORDS
from .words import by_language as words_by_language
from pbem.core.written import written_in


class NapoleonicDBA:
    name = "dba"
    standing_words = frozenset()  # no standing orders: a choice the rules give is asked or takes its default
    title = N_("Napoleonic DBA with written orders (after David Manley)")
    mail_words = MAIL_HEAD_WORDS | {"GAME", "SIDE", "TURN", "KEY"}
    ask_kinds = {  # the catalog's texts: the new-game form reads them in the reader's language
        "fire target": N_("which enemy a brigade's volley aims at"),
        "unit moves": N_("whether a unit of a brigade spends its PIPs to move"),
        "path": N_("an element's move along the path the executor found"),
        "fire losses": N_("which enemy elements a D -1 or D -2 destroys"),
        "disorganised": N_("which of your elements a 1/2 D disorganises"),
        "fire retreat": N_("which of your disorganised elements fall back after fire (at least half; by default all)"),
        "hold or recoil": N_("whether a beaten square or element in field works stays or recoils"),
        "initiative": N_("whether to be player A or B when you win the initiative"),
        "rally": N_("whether a brigade's commander rides to rally a fleeing element"),
        "evade": N_("which way a commander reached by the enemy rides off (up to 6\")"),
        "break contact": N_("which way a disorganised element steps clear of its brigade's others"),
        "battery": N_("whether a battery with the attacked enemy in reach stays unlimbered or limbers to follow"),
    }

    def scenarios(self) -> dict[str, Path]:
        return {"dba-meeting": MAPS / "dba-meeting.toml", "dba-advance-guards": MAPS / "dba-advance-guards.toml",
                "dba-quatre-bras": MAPS / "dba-quatre-bras.toml"}

    def options(self) -> tuple[Option, ...]:
        return (Option("command", N_("Command"), (seats.COMMANDERS, seats.KRIEGSSPIEL), seats.COMMANDERS,
                       N_("commanders: two players, each the commander-in-chief of a side, writing every dispatch "
                          "of his side; kriegsspiel: one seat per commander the scenario names, each writing only "
                          "as himself to the commanders under him, seeing only what his own troops see and reading "
                          "the dispatches couriers bring him"),
                       labels=((seats.COMMANDERS, N_("commanders")), (seats.KRIEGSSPIEL, N_("kriegsspiel")))),)

    def load_scenario(self, path):
        return load_scenario(path)

    def check_map(self, path) -> list[str]:
        try:
            load_scenario(path)
        except ScenarioError as exc:
            return [str(exc)]
        return []

    def seats(self, scenario, options: dict) -> tuple[Seat, ...]:
        if seats.kriegsspiel(options):
            return tuple(Seat(c.id, c.side, seats.seat_title(scenario, c), said=seats.seat_said(scenario, c))
                         for c in seats.commanders_of(scenario))
        return tuple(Seat(side, side, title) for side, title in scenario.sides.items())

    def setup(self, scenario, options: dict, chance: Chance):
        return initial_state(scenario, options, chance)

    def turn(self, scenario, state) -> Turn:
        said = view.turn_said(scenario, state.turn)  # the turn's name, read in each reader's language
        if seats.kriegsspiel(state):
            return Turn(seats.owing(scenario, state), str(said), others=seats.not_owing(scenario, state), said=said)
        return Turn(tuple(scenario.sides) if not state.over else (), str(said), said=said)

    def turn_label(self, scenario, n: int, *, lang: str = "en") -> str:
        return tongue(lang).say(view.turn_said(scenario, n + 1))

    def is_over(self, scenario, state) -> bool:
        return state.over

    def parse_orders(self, scenario, state, seat, text):
        table = state.table(scenario)
        side = seats.side_of(scenario, seat)
        if seats.kriegsspiel(state):
            writers = {seat}  # a kriegsspiel seat writes as its own commander only (seats.py)
        else:
            writers = {c.id for c in table.commanders.values() if c.side == seat and c.alive}
        clock = Clock(scenario.settings.start, scenario.settings.minutes)
        names = Names.of(table)
        names.troops = {e.id: e.troop for e in [*scenario.table.elements.values(), *scenario.waiting.values()]}
        return parse_orders(text, names, side, state.turn, writers, clock, seats.enemy_known(scenario, state, seat))

    def orders_language(self, text: str, lang: str = "en") -> str:
        """The language ``text``'s order words are written in (the seat's, ``lang``, where they do not say): the
        echo of accepted orders is in it (pbem.core.written)."""
        return written_in(text, words_by_language(), lang)

    def check_orders(self, scenario, state, seat, text, *, lang: str = "en"):
        """The orders read (in any language's words, mixed); the problems and the echo in ``lang``'s words."""
        try:
            orders = self.parse_orders(scenario, state, seat, text)
        except OrdersError as error:
            if tongue(lang).lang == "en":
                raise
            raise error_in_language(error, lang) from None
        if tongue(lang).lang != "en":
            orders.tongue = tongue(lang)
        return orders

    def resolve(self, scenario, state, orders, decider, chance):
        if not seats.kriegsspiel(state):
            return turn.resolve(scenario, state, orders, decider, chance)
        played = state.turn
        delivered = seats.ride_reports(scenario, state, chance)  # reports up the chain ride first (DS6)
        state, events = turn.resolve(scenario, state, seats.merged(scenario, orders),
                                     seats.SeatDecider(decider, scenario, state), chance)
        seats.look(scenario, state, delivered, played)
        told = seats.for_seats(scenario, state, events) + seats.report_events(scenario, state, delivered)
        for r in delivered:  # read: its news is in the recipient's memory and report, not kept twice
            r.sightings, r.lines, r.troops = [], [], []
        seats.send_reports(scenario, state, told, played)
        return state, told

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

    # the decisions whose question or answers name enemy elements, brigades or the enemy's place in a move: in the
    # kriegsspiel they are never asked (DS9, docs/rules-notes.md), the default answers for the seat
    NAMING_THE_ENEMY = frozenset({"fire target", "fire losses", "break contact", "path"})

    def ask_kinds_in(self, options: dict) -> dict:
        """The decisions a seat may be asked by mail in a game of ``options``: in the kriegsspiel, none that names
        the enemy (its answers would be the enemy's real ids, which no seat reads there)."""
        if options.get("command") != "kriegsspiel":
            return dict(self.ask_kinds)
        return {kind: text for kind, text in self.ask_kinds.items() if kind not in self.NAMING_THE_ENEMY}

    def decision_in(self, scenario, decision, *, lang: str = "en"):
        """An "ask me" decision with its question and its choices' labels in ``lang``
        (pbem.core.ruleset.decision_in), read as the report reads them."""
        from dataclasses import replace

        from .report import answer_said, question_said

        t = tongue(lang)
        return replace(decision, question=t.say(question_said(decision)),
                       labels=tuple((key, t.say(answer_said(decision, key))) for key in decision.options))

    def tongue(self, lang: str = "en"):
        """The game's texts in ``lang`` (its own catalog): the server reads the seats' titles through it."""
        return tongue(lang)

    def status_lines(self, game, seat, *, lang: str = "en") -> list[str]:
        v = game.view(seat)
        t = tongue(lang)
        return [t.say(colon(term(b["name"]), f"{b['bef']}/{b['bef_start']} {t.say(term(b['rating']))}"))
                for b in v["brigades"]]

    def render_svg(self, scenario, view: dict, title: str | None = None, *, lang: str = "en") -> str:
        """The table drawn by render.py from the seat's view alone (own elements, the enemy seen now and as
        last seen)."""
        from .elements import Element
        from .render import render_svg
        from .sight import Sighting, element_dict, sighting_dict

        own = [element_dict(Element(e["id"], e["side"], e["brigade"], e["troop"], e["x"], e["y"], e["facing"],
                                    e["formation"])) | {"disorganised": e["disorganised"], "shaken": e["shaken"],
                                                        "fleeing": e["fleeing"]} for e in view["elements"]]
        turn = view["turn"]
        enemy = [sighting_dict(Sighting(e["id"], e["brigade"], e["troop"], e["formation"], e["x"], e["y"],
                                        e["facing"], turn), None, turn) for e in view["enemy"]]
        enemy += [sighting_dict(Sighting(**s), None, turn) for s in view["last_known"]]
        drawn = {"side": view["side"], "turn": turn, "elements": own, "enemy": enemy,
                 "commanders": [c for c in view["commanders"] if c["alive"] and c.get("present", True)],
                 "brigades": [{"id": b["id"], "name": b["name"]} for b in view["brigades"]]}
        return render_svg(scenario, drawn, title, lang=lang)

    def victory_said(self, scenario, view: dict):
        """How the game was won (the state keeps it in English; DBA writes no victory event), as the Text the rules
        wrote (pbem.core.ruleset.victory_said), read in each language by the replay."""
        return turn.victory_said(scenario, view.get("victory"))

    def map_clicks(self, scenario, view: dict | None = None, *, lang: str = "en") -> dict:
        """No orders by clicking, on purpose: a DBA order is a dispatch from one commander to another, with steps,
        formations and conditions (IF, UNTIL, UNLESS, AT TURN), not "these blocks, to that place"; the page's
        click grammar cannot write it, so the orders form alone takes orders (docs/dba.md, "How to play")."""
        return {}

    def bots(self) -> dict[str, Bot]:
        return {name: Bot(b.name, b.title, seats.bot(b.orders)) for name, b in bots_.bots().items()}

    def check_turn(self, scenario, result) -> list[str]:
        return invariants.check_turn(scenario, result)

    def summary(self, scenario, state) -> dict:
        return invariants.summary(scenario, state)

    def run_case(self, path):
        from .cases import run_case

        return run_case(path)

    def show_case(self, outcome) -> str:
        """The case's title and verdict, what did not hold, then what happened (the rules' lines, the dice)."""
        return "\n".join([f"{outcome.title}: {'ok' if outcome.ok else 'FAILED'}"] + list(outcome.failures)
                         + [f"  {line}" for line in outcome.lines]
                         + [f"  die: {roll}" for roll in outcome.rolls])


DBA_RULESET = NapoleonicDBA()
