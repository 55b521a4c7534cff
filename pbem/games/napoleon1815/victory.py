"""§11 Victory, with army breaking: an army breaks when 12 (French), 8 (Anglo-Dutch)
or 9 (Prussian) of its blocks are eliminated; its other blocks leave the map."""

from __future__ import annotations

from pbem.core.events import Event
from pbem.lang import say, say_plural

from .movement import eliminate
from .words import Join, Place, date_said

BREAKS = {"french": lambda n, most: say_plural("The French army breaks: %(num)s block lost (§11: %(most)s)",
                                                "The French army breaks: %(num)s blocks lost (§11: %(most)s)", n,
                                                most=most),
          "anglo": lambda n, most: say_plural("The Anglo-Dutch army breaks: %(num)s block lost (§11: %(most)s)",
                                              "The Anglo-Dutch army breaks: %(num)s blocks lost (§11: %(most)s)", n,
                                              most=most),
          "prussian": lambda n, most: say_plural("The Prussian army breaks: %(num)s block lost (§11: %(most)s)",
                                                 "The Prussian army breaks: %(num)s blocks lost (§11: %(most)s)", n,
                                                 most=most)}


def check(scenario, state, events, last_turn: bool) -> None:
    for army in ("french", "anglo", "prussian"):
        if army not in state.broken and state.lost[army] >= scenario.breaks[army]:
            state.broken.append(army)
            events.append(Event("broken", "", {"army": army},
                                said=BREAKS[army](state.lost[army], scenario.breaks[army])))
            for b in state.on_map(army):
                state.fled.append(b.id)
                eliminate(state, b.id, None, count=False)
    broken = set(state.broken)
    if {"anglo", "prussian"} <= broken:
        if "french" in broken:
            return end(state, events, "france", say("both Allied armies are broken (§11.1), as is the French army: "
                                                    "France wins a mutual rout"))
        return end(state, events, "france", say("both Allied armies are broken (§11.1)"))
    if "french" in broken:
        return end(state, events, "allies", say("the French army is broken (§11.2)"))
    spec = scenario.track[state.turn - 2]
    day = [t.date for t in scenario.track].index(spec.date)
    if day >= scenario.city_victory_from:
        held = [c for c in scenario.board.supply_cities() if state.at(c, "french")]
        if len(held) >= 2:
            names = Join((Place(scenario.board.name(c)) for c in sorted(held)), say(" and "))
            return end(state, events, "france", say("the French hold %(towns)s at the end of a turn of %(date)s "
                                                    "(§11.1)", towns=names, date=date_said(spec.date)))
    if last_turn:
        end(state, events, "allies", say("the French have not won by the end of the last turn (§11.2)"))


def end(state, events, winner, why):
    state.over, state.winner, state.victory = True, winner, str(why)
    events.append(Event("victory", "", {"winner": winner},
                        said=say("France wins: %(why)s.", why=why) if winner == "france" else
                        say("The Allies win: %(why)s.", why=why)))
