"""Orders checked as the turn will play them (issue 31 §2), as Bonaparte at Marengo's are
(pbem/games/marengo/checks.py).

The parser (parse.py) reads each order against the position at the start of the
turn. This module then plays the moving side's whole turn, in the order the rules
carry it out (000 §5: the morale discs of the hour, approach recovery, the
bombardments declared last turn, then the actions in the written order, T1), on a
copy of the position, with the engine's own functions, and sorts each order into
one of three:

- **certain to fail**: nothing the enemy can do changes it (a fourth order, a
  cavalry-only attack across a cavalry obstacle, a locale the same text's earlier
  lines filled, a reorganisation the locale rule forbids...). It is a problem: the
  orders are refused, with the engine's own reason, at the order's line and column.
- **certain to be carried out**: it is played on the copy, and the orders after it
  are checked against the position it leaves. Where it goes only part of the way as
  the position stands (a road march stopped short, a continuation not made), a
  warning says so.
- **conditional**: it depends on what the enemy decides (his answer to a maneuver
  attack, his vanguard, where his blocks retreat, which block a bombardment hits),
  or on an earlier order that does. It is accepted; the places it touches become
  uncertain for the orders after it, and an order that would fail only because of
  what an uncertain place holds is accepted with a warning naming what it depends on.

Only what the side may see is used: its own blocks, where the enemy's stand, the
map and the clock; every decision of the enemy is an unknown, never read from his
standing orders (they may change before the turn is played).
"""

from __future__ import annotations

from pbem.core.decisions import Decider
from pbem.core.orders import Problem, problem
from pbem.lang import Text, say

from . import bombardment, morale
from .orders import Assault, Attack, Bombard, Enter, Fire, March, Orders, Reorganise, Road
from .scenario import SIDES, Scenario
from .sequence import ACTIONS, recovery, remember
from .state import State
from .turn import Ended, Turn, Void, reason

MAX_WARNINGS = 20
SPENT = ("orders of the turn are spent", "orders are left")  # the English of Turn.pay's reasons
# reasons the enemy never changes: a problem whatever the uncertain places hold
ALWAYS = ("cavalry obstacle", "disorganised", "artillery penalty", "already took part", "acts only once",
          "not next to", "only cavalry continues", "organises one block", "different locales", "may not enter before",
          "no road entry point", "no pontoon entry point", "one block a turn crosses by the pontoon",
          "not one of your", "no bombardment to complete", "has a bombardment declared already")


class Unsure(Exception):
    """The forecast reached a point where the enemy (or an open decision) decides."""


class _Forecast(Turn):
    """A Turn that stops where the outcome is no longer the side's to decide: any decision
    but one the side's own orders answer."""

    def decide(self, side, kind, question, options, default, lo=1, hi=1, given=None, source=None, check=None):
        if side == self.side and given is not None:
            return super().decide(side, kind, question, options, default, lo, hi, given, source, check)
        raise Unsure(kind)

    def fork(self) -> "_Forecast":
        other = object.__new__(type(self))
        other.__dict__.update(self.__dict__)
        other.st = self.st.copy()
        other.events, other.moves, other.revealed = [], [], []
        other.acted = set(self.acted)
        other.maneuvers = self.maneuvers.copy()
        other.closed, other.no_road_into = set(self.closed), set(self.no_road_into)
        other.crossings = {k: {"slots": list(v["slots"]), "dir": v["dir"]} for k, v in self.crossings.items()}
        other.road_attacks = set(self.road_attacks)
        other.organised = {k: set(v) for k, v in self.organised.items()}
        other.start_disorganised = {k: set(v) for k, v in self.start_disorganised.items()}
        return other


def check_turn(scenario: Scenario, state: State, orders: Orders, context: dict | None = None) -> list[Problem]:
    """The problems the start of the turn and the orders' own earlier lines decide; warnings go to
    ``orders.warnings`` (and ``orders.warnings_said``). ``context``: what an adjudication case says the
    turn has already used (sequence.resolve_day's)."""
    return _Checker(scenario, state.copy(), orders, context or {}).run()


class _Checker:
    def __init__(self, scenario: Scenario, state: State, orders: Orders, context: dict):
        self.orders = orders
        self.turn = _Forecast(scenario, state, Orders(orders.side), Decider())
        self.turn.st.standing = {s: [] for s in SIDES}  # never the enemy's (hidden, and may change)
        remember(self.turn, context)
        self.context = context
        self.problems: list[Problem] = []
        self.warnings: list[str] = []
        self.warnings_said: list[Text] = []
        self.unsure: dict[str, Text] = {}  # a locale -> what makes what stands there uncertain
        self.maybe_by: list[Text] = []  # "line N" of the uncertain orders that may spend an order

    # -- telling

    def refuse(self, order, why) -> None:
        self.problems.append(problem(order.line, order.column,
                                     say("%(why)s: this order would not be carried out", why=why), order.text,
                                     say("an order the position allows (or leave it out)")))

    def warn(self, order, why) -> None:
        if len(self.warnings) < MAX_WARNINGS:
            said = say("line %(line)d: %(order)s — %(why)s", line=order.line, order=order.text, why=why)
            self.warnings.append(str(said))
            self.warnings_said.append(said)

    def unsettle(self, locales, why: Text) -> None:
        for lid in locales:
            if lid is not None:
                self.unsure.setdefault(lid, why)

    # -- the turn

    def run(self) -> list[Problem]:
        turn = self.turn
        if self.context.get("start", True):
            morale.receive(turn)
            recovery(turn)
        for b in turn.st.side_blocks(turn.side):
            if b.disorganised:
                turn.start_disorganised.setdefault(b.locale, set()).add(b.id)
        fired = {o.block for o in self.orders.of(Fire)}
        for b in bombardment.due(turn):  # T23: completed before the first action unless FIRE or HOLD FIRE says
            if b.id not in fired:
                self.bombardment_due(b)
        for order in self.orders.orders:
            if type(order) in ACTIONS:
                self.check(order)
        self.orders.warnings[:] = self.warnings
        self.orders.warnings_said[:] = self.warnings_said
        return self.problems

    def bombardment_due(self, b) -> None:
        fork = self.turn.fork()
        target = b.bombard
        try:
            bombardment.complete(fork, fork.st.blocks[b.id])
        except Void:
            return  # not completed: the report says why; no order of the text to refuse
        except (Unsure, Ended):
            self.turn.acted.add(b.id)
            self.unsettle([target], say("which block the bombardment into %(place)s reduces",
                                        place=self.turn.name(target)))
            return
        self.turn = fork

    def check(self, order) -> None:
        fork = self.turn.fork()
        why = None
        unsure = False
        try:
            ACTIONS[type(order)](fork, order)
        except Void as exc:
            why = reason(exc)
        except (Unsure, Ended):
            unsure = True
        deps = self.depends(order)
        if why is not None:
            english = str(why)
            if any(k in english for k in SPENT):
                if self.maybe_by:  # an uncertain order before it may or may not have spent one
                    self.warn(order, say("as the position stands it would not be carried out (%(why)s); it depends "
                                         "on %(what)s", why=why, what=say("the orders spent by %(lines)s",
                                                                          lines=list(self.maybe_by))))
                else:
                    self.refuse(order, why)
            elif deps and not any(k in english for k in ALWAYS):
                self.warn(order, say("as the position stands it would not be carried out (%(why)s); it depends "
                                     "on %(what)s", why=why, what=deps[0]))
                self.unsettle(self.places(order), say("line %(line)d, which depends on %(what)s", line=order.line,
                                                      what=deps[0]))
            else:
                self.refuse(order, why)
            return
        if unsure:
            self.uncertain(order, fork)
            return
        for event in fork.events:  # carried out, but only in part as the position stands
            if event.kind == "void" and event.said is not None:
                self.warn(order, say("as the position stands: %(what)s", what=event.said))
            elif event.kind == "road" and event.said is not None and _stopped(event.said):
                self.warn(order, say("as the position stands it stops short: %(why)s", why=_stopped(event.said)))
        if deps:
            self.warn(order, say("depends on %(what)s", what=deps[0]))
            self.unsettle(self.places(order), say("line %(line)d, which depends on %(what)s", line=order.line,
                                                  what=deps[0]))
        self.turn = fork

    def uncertain(self, order, fork: _Forecast) -> None:
        """An order that reached the enemy's answer: what it did up to there is certain (the orders
        it spent, the blocks that acted, the crossings and approaches used); how it ends is not."""
        turn = self.turn
        turn.spent = fork.spent
        turn.acted = fork.acted
        turn.maneuvers, turn.road_attacks, turn.crossings = fork.maneuvers, fork.road_attacks, fork.crossings
        turn.pontoon = fork.pontoon
        places = self.places(order)
        around = [n for lid in places if turn.st.occupied_by(lid, turn.foe) for n in turn.board.adjacent(lid)]
        self.unsettle(places + around, say("how line %(line)d ends", line=order.line))
        if getattr(order, "then", ()) or isinstance(order, (Road, Enter)):
            self.maybe_by.append(say("line %(line)d", line=order.line))  # a split, or a local crossing after

    def depends(self, order) -> list[Text]:
        out: list[Text] = []
        for lid in self.places(order):
            why = self.unsure.get(lid)
            if why is not None and why not in out:
                out.append(why)
        return out

    def places(self, order) -> list[str]:
        """The locales an order's fate depends on."""
        st = self.turn.st
        if isinstance(order, March):
            out = [order.frm[0], order.frm[1], order.to[0], order.to[1]]
        elif isinstance(order, Road):
            out = list(order.path)
        elif isinstance(order, Enter):
            block = st.blocks.get(order.block)
            entries = [order.entry] if order.entry else list(block.entries if block else ())
            out = [self.turn.board.entries[e].locale for e in entries if e in self.turn.board.entries]
            out += list(order.path)
        elif isinstance(order, Attack):
            out = [order.frm[0], order.target]
        elif isinstance(order, (Assault, Bombard)):
            out = [order.locale, order.toward]
        elif isinstance(order, Fire):
            b = st.blocks.get(order.block)
            out = [b.locale, b.bombard] if b is not None else []
        elif isinstance(order, Reorganise):
            out = [st.blocks[bid].locale for bid in order.blocks if bid in st.blocks]
        else:
            out = []
        out += [c.toward for c in getattr(order, "then", ())]
        return [x for x in out if x is not None]


def _stopped(said: Text):
    """The reason a road march event says it stopped for (march._report's ``end``), or None."""
    end = said.values.get("end") if isinstance(said, Text) else None
    return end.values.get("why") if isinstance(end, Text) else None
