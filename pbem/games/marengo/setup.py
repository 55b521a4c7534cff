"""Setting up a game (003 §6)."""

from __future__ import annotations

from pbem.core.chance import Chance

from .scenario import SIDES, Scenario
from .state import Block, State


def setup(scenario: Scenario, chance: Chance) -> State:
    """The position at 6:00 AM before the Austrian day.

    §6 step 4: the French "at start" blocks are shuffled (the game's "setup"
    stream stands for the Austrian player's box) and drawn onto the start
    locales in map order, as many as each locale's start symbols. They begin
    unactivated (step 6). §6 step 5: reinforcements wait off the map.
    """
    state = State()
    state.morale = dict(scenario.morale)
    state.demoralised = {s: False for s in SIDES}
    state.bonus_due = {s: False for s in SIDES}
    state.standing = {s: [] for s in SIDES}
    for spec in scenario.blocks:
        block = Block(spec.id, spec.side, spec.name, spec.type, spec.strength,
                      arrives=spec.arrives, entries=tuple(spec.entries))
        if spec.start:
            block.activated = False
        else:
            block.status = "waiting"
        state.blocks[spec.id] = block
    drawn = [spec.id for spec in scenario.blocks if spec.start]
    chance.stream("setup").shuffle(drawn)
    for locale in scenario.board.locales.values():
        for _ in range(locale.french_start):
            state.blocks[drawn.pop()].locale = locale.id
        if locale.french_start:
            state.french_start.append(locale.id)
    return state
