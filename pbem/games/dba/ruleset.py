"""Napoleonic DBA as the server sees it: the ruleset interface (pbem.core.ruleset). Each member hands over to
the module that does the work. Not exported as ``RULESET`` from the package yet (see pbem/games/dba/__init__.py):
the object is :data:`DBA_RULESET`."""

from __future__ import annotations

from pathlib import Path

from pbem.core.chance import Chance
from pbem.core.ruleset import SPECTATOR, Bot, Option, Seat, Turn
from pbem.paths import MAPS

from . import invariants, turn, view
from .bot import bot_orders
from .names import Names
from .parse import Clock, parse_orders
from .scenario import ScenarioError, load_scenario
from .state import initial_state
from .words import HEAD_WORDS


class NapoleonicDBA:
    name = "dba"
    title = "Napoleonic DBA with written orders (after David Manley)"
    mail_words = frozenset(HEAD_WORDS) | {"GAME", "SIDE", "TURN", "KEY"}
    ask_kinds = {
        "fire target": "which enemy a brigade's volley aims at",
        "unit moves": "whether a unit of a brigade spends its PIPs to move",
        "path": "an element's move along the path the executor found",
        "fire losses": "which enemy elements a D -1 or D -2 destroys",
        "disorganised": "which of your elements a 1/2 D disorganises",
        "hold or recoil": "whether a beaten square or element in field works stays or recoils",
        "initiative": "whether to be player A or B when you win the initiative",
        "rally": "whether a brigade's commander rides to rally a fleeing element",
    }

    def scenarios(self) -> dict[str, Path]:
        return {"dba-meeting": MAPS / "dba-meeting.toml", "dba-quatre-bras": MAPS / "dba-quatre-bras.toml"}

    def options(self) -> tuple[Option, ...]:
        return (Option("command", "Command", ("commanders",), "commanders",
                       "commanders: two players, each the commander-in-chief of a side, writing every dispatch "
                       "of his side (one seat per commander, kriegsspiel style, is not played yet)"),)

    def load_scenario(self, path):
        return load_scenario(path)

    def check_map(self, path) -> list[str]:
        try:
            load_scenario(path)
        except ScenarioError as exc:
            return [str(exc)]
        return []

    def seats(self, scenario, options: dict) -> tuple[Seat, ...]:
        return tuple(Seat(side, side, title) for side, title in scenario.sides.items())

    def setup(self, scenario, options: dict, chance: Chance):
        return initial_state(scenario, options)

    def turn(self, scenario, state) -> Turn:
        return Turn(tuple(scenario.sides) if not state.over else (), view.turn_label(scenario, state.turn))

    def turn_label(self, scenario, n: int, *, lang: str = "en") -> str:
        return view.turn_label(scenario, n + 1)

    def is_over(self, scenario, state) -> bool:
        return state.over

    def parse_orders(self, scenario, state, seat, text):
        table = state.table(scenario)
        writers = {c.id for c in table.commanders.values() if c.side == seat and c.alive}
        clock = Clock(scenario.settings.start, scenario.settings.minutes)
        return parse_orders(text, Names.of(table), seat, state.turn, writers, clock)

    def check_orders(self, scenario, state, seat, text, *, lang: str = "en"):
        return self.parse_orders(scenario, state, seat, text)

    def resolve(self, scenario, state, orders, decider, chance):
        return turn.resolve(scenario, state, orders, decider, chance)

    def view(self, scenario, state, seat):
        if seat == SPECTATOR and not state.over:
            return view.public(scenario, state)
        return view.view(scenario, state, None if seat == SPECTATOR else seat)

    def digest(self, state) -> str:
        return state.digest()

    def report(self, game, day, seat, *, deadline=None, game_label="", game_id="", spectator=False, lang: str = "en"):
        from .report import build_report

        return build_report(game, day, seat, deadline=deadline, game_label=game_label, game_id=game_id,
                            spectator=spectator)

    def orders_template(self, game, seat, *, deadline, game_label, game_id, lang: str = "en") -> str:
        from .report import orders_template

        return orders_template(game, seat, deadline=deadline, game_label=game_label, game_id=game_id)

    def status_lines(self, game, seat, *, lang: str = "en") -> list[str]:
        v = game.view(seat)
        return [f"{b['name']}: {b['bef']}/{b['bef_start']} {b['rating']}" for b in v["brigades"]]

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
                 "commanders": [c for c in view["commanders"] if c["alive"] and c.get("present", True)]}
        return render_svg(scenario, drawn, title)

    def map_clicks(self, scenario, view: dict | None = None) -> dict:
        return {}

    def bots(self) -> dict[str, Bot]:
        return {"bot": Bot("bot", "the random legal bot", bot_orders)}

    def check_turn(self, scenario, result) -> list[str]:
        return invariants.check_turn(scenario, result)

    def summary(self, scenario, state) -> dict:
        return invariants.summary(scenario, state)

    def run_case(self, path):
        from .cases import run_case

        return run_case(path)

    def show_case(self, outcome) -> str:
        return "\n".join([f"{outcome.title}: {'ok' if outcome.ok else 'FAILED'}"] + list(outcome.failures))


DBA_RULESET = NapoleonicDBA()
