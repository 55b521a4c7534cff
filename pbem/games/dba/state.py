"""The position of a Napoleonic DBA game between two turns: the forces on the table, the post, each brigade's
state of command, what each side remembers of the enemy, and the outcome.

The static table (terrain, places, grid) stays in the scenario; :meth:`State.table` puts the state's forces on it
(the same objects: the rules in fire.py, melee.py, ... change the state through it). Plain dataclasses, copied
whole for a turn: the driver deep-copies it, and :meth:`State.__deepcopy__` copies each part the rules change and
shares what never changes (the frozen orders and sightings: docs/performance.md, "dbaspeed"); the digest hashes its
JSON form.
"""

from __future__ import annotations

from dataclasses import asdict, dataclass, field

from pbem.core.digest import digest as digest_of

from .command import BrigadeOrders
from .couriers import Post
from .elements import Brigade, Commander, Element
from .reports import Report, Reports
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
    troops: dict[str, dict[str, Sighting]] = field(default_factory=dict)  # kriegsspiel seat -> own element -> known
    enemy_ids: dict[str, dict[str, str]] = field(default_factory=dict)  # kriegsspiel: side -> enemy element -> its id there (DS8)
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

    def __deepcopy__(self, memo) -> "State":
        """A copy that shares no object the rules change with this one, as ``copy.deepcopy`` would make it, at a
        fraction of its cost: every element, commander, brigade, courier, report and state of command is copied
        field by field (their fields are numbers, strings and lists of them), the lists and dicts are new; the
        orders (frozen Order, Step, Event, Ref), the sightings (frozen Sighting) and a report's lines (a Text's
        data, written when it is sent) are shared, as they are replaced and never changed. tests/test_dba_speed.py walks both states to check that no list, dict or
        unfrozen object is shared."""
        new = _clone(self)
        new.elements = {k: _clone(e) for k, e in self.elements.items()}
        new.reserve = {k: _clone(e) for k, e in self.reserve.items()}
        new.commanders = {k: _clone(c) for k, c in self.commanders.items()}
        new.brigades = {k: _brigade(b) for k, b in self.brigades.items()}
        new.post = _clone(self.post)
        new.post.couriers = [_clone(c) for c in self.post.couriers]
        new.reports = Reports([_report(r) for r in self.reports.reports])
        new.commands = {k: _commands(bo) for k, bo in self.commands.items()}
        new.memory = {side: dict(m) for side, m in self.memory.items()}
        new.troops = {seat: dict(m) for seat, m in self.troops.items()}
        new.enemy_ids = {side: dict(m) for side, m in self.enemy_ids.items()}
        new.arrived, new.fired_at = list(self.arrived), list(self.fired_at)
        new.retreated, new.gone = list(self.retreated), list(self.gone)
        memo[id(self)] = new
        return new

    def to_dict(self, kept: bool = True) -> dict:
        """The state as plain data (its digest's JSON form); with ``kept=False`` the elements, commanders and
        brigades are the state's own objects, for the digest's encoder to write (not data to keep)."""
        plain = asdict if kept else (lambda v: v)
        out = {"turn": self.turn, "elements": {k: plain(v) for k, v in sorted(self.elements.items())},
                "reserve": sorted(self.reserve),
                "commanders": {k: plain(v) for k, v in sorted(self.commanders.items())},
                "brigades": {k: plain(v) for k, v in sorted(self.brigades.items())},
                "post": self.post.to_dict(), "commands": {k: v.to_dict() for k, v in sorted(self.commands.items())},
                "memory": {s: {k: v.to_dict() for k, v in sorted(m.items())} for s, m in sorted(self.memory.items())},
                "arrived": list(self.arrived), "fired_at": list(self.fired_at), "retreated": list(self.retreated),
                "gone": list(self.gone), "a": self.a, "mode": self.mode, "winner": self.winner,
                "victory": self.victory, "over": self.over}
        if self.mode == "kriegsspiel":
            out["reports"] = self.reports.to_dict()
            out["troops"] = {s: {k: v.to_dict() for k, v in sorted(m.items())} for s, m in sorted(self.troops.items())}
            out["enemy_ids"] = {s: dict(sorted(m.items())) for s, m in sorted(self.enemy_ids.items())}
        return out

    def digest(self) -> str:
        """The first 16 hex digits of SHA-256 of :meth:`to_dict` as JSON with sorted keys, the elements,
        commanders and brigades written field by field where they stand (pbem.core.digest) instead of copied by
        ``asdict`` first: the same text, so the same digest."""
        return digest_of(self.to_dict(kept=False), ensure_ascii=False)


def _clone(obj):
    """A new object of ``obj``'s class with the same fields (not copied): for the parts whose fields are numbers,
    strings, None or frozen objects (elements, commanders, couriers, pending orders)."""
    new = object.__new__(type(obj))
    new.__dict__.update(obj.__dict__)
    return new


def _brigade(b: Brigade) -> Brigade:
    new = _clone(b)
    new.elements = list(b.elements)
    return new


def _report(r: Report) -> Report:
    new = _clone(r)
    # its lines (Texts' data) are written when it is sent and only read (Report.news), never changed: shared
    new.sightings, new.lines, new.troops = list(r.sightings), list(r.lines), list(r.troops)
    return new


def _commands(bo: BrigadeOrders) -> BrigadeOrders:
    new = _clone(bo)
    new.current = _clone(bo.current) if bo.current is not None else None
    new.initiative = _clone(bo.initiative) if bo.initiative is not None else None
    new.pending = [_clone(p) for p in bo.pending]
    new.history = list(bo.history)
    return new


def initial_state(scenario, options: dict, chance=None) -> State:
    table = scenario.fresh_table()
    state = State(elements=table.elements, reserve=table.reserve, commanders=table.commanders, brigades=table.brigades,
                  post=Post(speed=scenario.settings.courier_speed), mode=options.get("command", "commanders"))
    state.commands = {bid: BrigadeOrders(bid) for bid in sorted(state.brigades)}
    state.memory = {side: {} for side in scenario.sides}
    if state.mode == "kriegsspiel":  # each commander knows where his troops deployed (DS7)
        from .seats import draw_enemy_ids, know_troops

        know_troops(scenario, state, 0)
        state.enemy_ids = draw_enemy_ids(scenario, chance.stream("fog") if chance is not None else None)
    return state
