"""The position of a Napoleonic DBA game between two turns: the forces on the table, the post, each brigade's
state of command, what each side remembers of the enemy, and the outcome.

The static table (terrain, places, grid) stays in the scenario; :meth:`State.table` puts the state's forces on it
(the same objects: the rules in fire.py, melee.py, ... change the state through it). Plain dataclasses, copied
whole for a turn (the driver deep-copies it); the digest hashes its JSON form.
"""

from __future__ import annotations

import hashlib
import json
from dataclasses import asdict, dataclass, field

from .command import BrigadeOrders
from .couriers import Post
from .elements import Brigade, Commander, Element
from .reports import Reports
from .sight import Sighting
from .table import Table


@dataclass
class State:
    turn: int = 1                                                   # the turn to be played next (1-based)
    elements: dict[str, Element] = field(default_factory=dict)
    reserve: dict[str, Element] = field(default_factory=dict)      # elements of brigades still to arrive
    commanders: dict[str, Commander] = field(default_factory=dict)
    brigades: dict[str, Brigade] = field(default_factory=dict)
    post: Post = field(default_factory=Post)
    reports: Reports = field(default_factory=Reports)              # kriegsspiel: reports up the chain (DS6)
    commands: dict[str, BrigadeOrders] = field(default_factory=dict)  # brigade id -> its state of command
    memory: dict[str, dict[str, Sighting]] = field(default_factory=dict)  # side -> enemy element -> last seen
    arrived: list[str] = field(default_factory=list)               # brigades entered from off the table
    fired_at: list[str] = field(default_factory=list)              # brigades fired on in the turn just played
    retreated: list[str] = field(default_factory=list)             # brigades that recoiled or fled in it
    gone: list[str] = field(default_factory=list)                  # elements destroyed, fled or taken
    a: str | None = None                                           # player A of the turn just played
    mode: str = "commanders"
    winner: str | None = None
    victory: str = ""
    over: bool = False

    def table(self, scenario) -> Table:
        t = scenario.table
        return Table(t.width, t.depth, t.terrain, t.grid, t.places, t.aliases, brigades=self.brigades,
                     commanders=self.commanders, elements=self.elements, reserve=self.reserve)

    def to_dict(self) -> dict:
        out = {"turn": self.turn, "elements": {k: asdict(v) for k, v in sorted(self.elements.items())},
                "reserve": sorted(self.reserve),
                "commanders": {k: asdict(v) for k, v in sorted(self.commanders.items())},
                "brigades": {k: asdict(v) for k, v in sorted(self.brigades.items())},
                "post": self.post.to_dict(), "commands": {k: v.to_dict() for k, v in sorted(self.commands.items())},
                "memory": {s: {k: v.to_dict() for k, v in sorted(m.items())} for s, m in sorted(self.memory.items())},
                "arrived": list(self.arrived), "fired_at": list(self.fired_at), "retreated": list(self.retreated),
                "gone": list(self.gone), "a": self.a, "mode": self.mode, "winner": self.winner,
                "victory": self.victory, "over": self.over}
        if self.mode == "kriegsspiel":
            out["reports"] = self.reports.to_dict()
        return out

    def digest(self) -> str:
        text = json.dumps(self.to_dict(), sort_keys=True, ensure_ascii=False)
        return hashlib.sha256(text.encode()).hexdigest()[:16]


def initial_state(scenario, options: dict) -> State:
    import copy

    table = scenario.fresh_table()
    state = State(elements=table.elements, reserve=table.reserve, commanders=table.commanders, brigades=copy.deepcopy(table.brigades),
                  post=Post(speed=scenario.settings.courier_speed), mode=options.get("command", "commanders"))
    state.commands = {bid: BrigadeOrders(bid) for bid in sorted(state.brigades)}
    state.memory = {side: {} for side in scenario.sides}
    return state
