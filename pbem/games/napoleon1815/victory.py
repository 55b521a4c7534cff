"""§11 Victory, with army breaking: an army breaks when 12 (French), 8 (Anglo-Dutch)
or 9 (Prussian) of its blocks are eliminated; its other blocks leave the map."""

from __future__ import annotations

from pbem.core.events import Event

from .movement import eliminate
from .supply import army_name


def check(scenario, state, events, last_turn: bool) -> None:
    for army in ("french", "anglo", "prussian"):
        if army not in state.broken and state.lost[army] >= scenario.breaks[army]:
            state.broken.append(army)
            events.append(Event("broken", f"The {army_name(army)} army breaks: {state.lost[army]} blocks lost "
                                f"(§11: {scenario.breaks[army]})", {"army": army}))
            for b in state.on_map(army):
                state.fled.append(b.id)
                eliminate(state, b.id, None, count=False)
    broken = set(state.broken)
    if {"anglo", "prussian"} <= broken:
        return end(state, events, "france", "both Allied armies are broken (§11.1)"
                   + (", as is the French army: France wins a mutual rout" if "french" in broken else ""))
    if "french" in broken:
        return end(state, events, "allies", "the French army is broken (§11.2)")
    spec = scenario.track[state.turn - 2]
    day = [t.date for t in scenario.track].index(spec.date)
    if day >= scenario.city_victory_from:
        held = [c for c in scenario.board.supply_cities() if state.at(c, "french")]
        if len(held) >= 2:
            names = " and ".join(scenario.board.name(c) for c in sorted(held))
            return end(state, events, "france", f"the French hold {names} at the end of a turn of "
                       f"{spec.date} (§11.1)")
    if last_turn:
        end(state, events, "allies", "the French have not won by the end of the last turn (§11.2)")


def end(state, events, winner, why):
    state.over, state.winner, state.victory = True, winner, why
    events.append(Event("victory", f"{'France wins' if winner == 'france' else 'The Allies win'}: {why}.",
                        {"winner": winner}))
