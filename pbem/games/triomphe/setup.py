"""Setting up a game (000 §4)."""

from __future__ import annotations

from pbem.core.rng import Rng

from .scenario import SIDES, Scenario
from .state import Block, State


def setup(scenario: Scenario, seed: int) -> State:
    """The position at 6 AM before the Austrian turn, drawn from ``Rng(seed)`` (see deal)."""
    return deal(scenario, Rng(seed))


def deal(scenario: Scenario, rng: Rng) -> State:
    """The position at 6 AM before the Austrian turn.

    Step 1-2: the discs on the time track (the scenario's ``track``) and the
    starting uncommitted discs. Step 4: the French start blocks are shuffled
    and dealt onto the start locales, in map order, as many as each locale's
    symbols, in the reserve and disorganised (§14). Step 5: the French
    reinforcements are shuffled and dealt into the French waiting cells, in
    the file's order, as many as each cell's count. Step 6: the Austrians wait
    in their cell. All randomness comes from one generator seeded by ``seed``
    (T6): first the start draw, then the reinforcement draw. (The ruleset
    passes the game's "setup" stream, which is ``Rng(seed)`` itself.)
    """
    state = State()
    state.uncommitted = dict(scenario.discs_start)
    state.received = dict(scenario.discs_start)
    state.lost = {s: 0 for s in SIDES}
    state.committed = {s: {} for s in SIDES}
    state.moved = {s: {"day": -1, "locales": {}} for s in SIDES}
    state.demoralised = {s: False for s in SIDES}
    state.standing = {s: [] for s in SIDES}
    for spec in scenario.blocks:
        block = Block(spec.id, spec.side, spec.name, spec.type, spec.strength)
        if spec.start:
            block.disorganised = True
        else:
            block.status = "waiting"
            if spec.waiting is not None:
                place(block, scenario, spec.waiting, spec.arrives)
        state.blocks[spec.id] = block
    drawn = [spec.id for spec in scenario.blocks if spec.start]
    rng.shuffle(drawn)
    for locale, count in scenario.french_start:
        for _ in range(count):
            state.blocks[drawn.pop()].locale = locale
    reinforcements = [spec.id for spec in scenario.blocks if spec.reinforcement]
    rng.shuffle(reinforcements)
    for cell in scenario.cells.values():
        if cell.side != "france":
            continue
        for _ in range(cell.count):
            place(state.blocks[reinforcements.pop()], scenario, cell.id)
    return state


def place(block: Block, scenario: Scenario, cell_id: str, arrives: int | None = None) -> None:
    cell = scenario.cells[cell_id]
    block.cell = cell.id
    block.arrives = max(cell.hour, arrives or 0)
    block.entries = cell.entries
