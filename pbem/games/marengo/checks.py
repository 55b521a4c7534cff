"""Orders checked as the day will play them (issue 13 §2).

The parser (parse.py) reads each order against the position at the start of
the day. This module then walks the moving side's whole day in the order the
rules carry it out (003 §7: activation, the bombardments declared last day,
the assaults, the movements, the new bombardments) on a copy of the position,
with the rules engine's own functions, and sorts each order into one of three:

- **certain to fail**: nothing the enemy can do changes it (a block not
  activated, a fourth command, two leads on a narrow approach, a move across
  an approach the enemy blocks, a full locale...). It is a problem: the orders
  are refused, with the engine's own reason.
- **certain to be carried out**: it is played on the copy, and the orders
  after it are checked against the position it leaves.
- **conditional**: it depends on what the enemy decides during the day: how
  an assault or an attack maneuver ends (the locales involved, their
  neighbours where beaten blocks retreat, the army's morale), which block a
  bombardment hits. It is accepted, and a warning says on what it depends.

Only what the side may see is used: its own blocks, where enemy blocks stand
(not their type or strength), the map and the clock. Every enemy decision is
an unknown, never read from the enemy's standing orders (which may change
before the day is played). A decision of the moving side's own that its orders
leave open (say, which blocks lead an assault written without LEAD) is also
an unknown: the player may be asked it. One is not: a bombardment declared
last day fires when it has a target unless the orders say HOLD FIRE (the
documented default, not a question put by mail).

The bots and the orders template use the check too, from a side's view:
sendable.py.
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.decisions import Decider
from pbem.core.orders import Problem
from pbem.lang import Text, say, say_plural

from . import combat, movement, rules
from .day import COMMAND_LIMIT, Day, Void, reason
from .orders import Activate, Assault, Bombard, Enter, Extend, Fire, Move, Order, Orders, RoadMove
from .scenario import Scenario
from .state import Block, State

MORALE = "*morale*"  # a pseudo-locale: the army's morale, unsettled by any assault of the day
MAX_WARNINGS = 20


class Unsure(Exception):
    """The forecast reached a point where the enemy (or an open decision) decides."""


class _Forecast(Day):
    """A Day that stops where the outcome is no longer the side's to decide: an assault,
    an attack maneuver the enemy may block, or any decision. An attack maneuver the enemy
    cannot block (no reserve in the locale, or made from the approach, 003 §9) is played
    on: the enemy retreats for certain, only where to is unknown (``retreats``)."""

    order = None  # the order being tried
    untold = frozenset({"move", "extend", "entry"})  # what no check reads (it reads voids, road moves, attacks)
    sure_entry = False  # inside an attack maneuver that cannot be blocked
    blockable = None  # the locale of an attack maneuver the enemy may block (the order stopped there)

    def private(self, kind, owner, text, seen=None, seen_data=None, **data):
        if kind == "assault":
            raise Unsure(kind)
        if kind == "attack":
            target = (seen_data or {}).get("to")
            from_approach = isinstance(self.order, Move) and self.order.frm[1] == target
            if self.st.at(target, None, self.foe) and not from_approach:
                self.blockable = target
                raise Unsure(kind)
            self.sure_entry = True
            self.retreats.append(target)
        super().private(kind, owner, text, seen, seen_data, **data)

    def decide(self, side, kind, question, options, default, *args, **kwargs):
        if self.sure_entry and kind in ("retreat", "take_loss"):
            return tuple(default)  # the enemy's retreat: some legal answer; where it goes stays unknown
        raise Unsure("decision")

    # -- trying an order, and taking it back: on the same position, not on a copy of it

    def watch(self) -> None:
        """From now on every change of a block of the position is written down first (``journal``): the
        check's own position (a copy, or a spare one), whose blocks become :class:`_Watched`. What a day's
        rules change besides a block's fields is the morale (Day.morale_loss), kept by :meth:`fork`; a rule
        that came to change another part of the position during the day would have to be kept there too
        (tests/test_bot_checks.py takes every trial of self-play games back and compares)."""
        self.journal: list[tuple[Block, dict]] = []
        for b in self.st.blocks.values():
            b.__dict__["_journal"] = self.journal
            b.__class__ = _Watched

    def fork(self) -> "_Forecast":
        """The day as it stands, to try an order on: its counters copied, the position shared; what the
        fork changes in it is taken back by :meth:`take_back`, or kept when the check goes on from the
        order's outcome (the fork becomes the check's day)."""
        other = object.__new__(type(self))  # what copy.copy makes of it (no slots, no __copy__), without its detour
        other.__dict__.update(self.__dict__)
        other.mark = len(self.journal)
        other.morale_was = (dict(self.st.morale), dict(self.st.demoralised))
        other.events = []
        other.moves = []
        other.retreats = []
        other.sure_entry = False
        other.blockable = None
        other.moved = set(self.moved)
        other.assault_from = set(self.assault_from)
        other.closed = set(self.closed)
        other.captured = {k: set(v) for k, v in self.captured.items()}
        other.road_use = {k: {"slots": list(v["slots"]), "dir": v["dir"]} for k, v in self.road_use.items()}
        other.fired = set(self.fired)
        return other

    def take_back(self) -> None:
        """The position as it was when this fork was made."""
        st, journal = self.st, self.journal
        if len(journal) == self.mark and (st.morale, st.demoralised) == self.morale_was:  # it changed nothing
            return
        while len(journal) > self.mark:
            block, fields = journal.pop()
            self._restore(block, fields)
        st.morale.update(self.morale_was[0])
        st.demoralised.update(self.morale_was[1])

    def _restore(self, block: Block, fields: dict) -> None:
        """``block``'s fields set back to ``fields``, the position's index told when its place changes."""
        if (fields["status"], fields["locale"]) != (block.status, block.locale):
            self.st.placed(block, fields["locale"], fields["status"])
        block.__dict__.update(fields)


class _Watched(Block):
    """A block of the check's position (_Forecast.watch): before a field changes, the block's fields as they
    were go to the forecast's journal, so an order tried and not kept is taken back."""

    def __setattr__(self, name, value):
        fields = self.__dict__
        fields["_journal"].append((self, fields.copy()))
        object.__setattr__(self, name, value)


@dataclass
class _Trial:
    """One order tried on a fork of the forecast."""

    day: _Forecast
    void: list[str]  # why it (or a part of it) would not be carried out
    unsure: bool  # it reached an assault, an attack maneuver or a decision
    spent: int  # commands spent before that point
    retreats: list[str]  # enemy locales it takes for certain (the enemy retreats, to places unknown)
    stops: list[str]  # blocks that entered and went no further along the road


def check_day(scenario: Scenario, state: State, orders: Orders, *, spare: bool = False) -> list[Problem]:
    """The problems the start of the day already decides; warnings go to ``orders.warnings``.

    The same orders are checked again against the same position when they are
    resolved (and a game's replay checks every day's): the last answers are kept,
    by the position's content, not the object (``_MEMO``). With ``spare``, ``state`` is the
    caller's to spoil (a position a bot rebuilt from its view, used once): the check plays the
    day on it instead of on a copy."""
    shown = [(type(o).__name__, o.text, o.line, o.column) for o in orders.orders]  # before the check edits any
    seen = _fingerprint(state, orders.side)
    key = (id(scenario), seen, orders.side, tuple(shown))
    hit = _MEMO.get(key)
    if hit is not None and hit[0] is scenario:
        _, problems, warnings, texts, said = hit
        for order, (text, blocks) in zip(orders.of(Assault), texts):
            order.text, order.blocks = text, blocks
        orders.warnings[:] = warnings
        orders.warnings_said[:] = said
        return list(problems)
    problems = _Checker(scenario, state if spare else state.copy(), orders).run()
    _remember(key, scenario, problems, orders)
    kept = _without_refused(orders, problems)
    if kept is not None:  # the same orders with each refused line left out check clean (see _without_refused)
        _remember((id(scenario), seen, orders.side, tuple(s for o, s in zip(orders.orders, shown) if o in kept)),
                  scenario, [], Orders(orders.side, orders=kept, warnings=orders.warnings,
                                       warnings_said=orders.warnings_said))
    return problems


MEMO_SIZE = 16
_MEMO: dict = {}
# orders whose refusal changes nothing the rest of the day's check reads (see _without_refused)
_REFUSED_ALONE = (Assault, Move, RoadMove, Extend, Enter)


def _remember(key, scenario: Scenario, problems: list[Problem], orders: Orders) -> None:
    if len(_MEMO) >= MEMO_SIZE:
        _MEMO.pop(next(iter(_MEMO)))
    _MEMO[key] = (scenario, list(problems), list(orders.warnings),
                  [(o.text, o.blocks) for o in orders.of(Assault)], list(orders.warnings_said))


def accepted_without(orders: Orders, problems: list[Problem]) -> bool:
    """Whether ``orders``, refused for ``problems`` (check_day's answer), are accepted with each line a
    problem names left out, the check can tell without running again (and remembers it: _without_refused)."""
    return _without_refused(orders, problems) is not None


def _without_refused(orders: Orders, problems: list[Problem]) -> list[Order] | None:
    """The orders left when every line with a problem is left out, when the check can tell
    without running again that they are accepted, with the warnings it gave (else None).

    A refused assault or movement order is never played on the forecast (check_assault and
    check_move return before the day goes on from it), and nothing after it reads it: the
    orders after it are checked against the same position, the same commands spent, the
    same uncertain places. So without it the others check as they did, warnings and all.
    An activation (rules.activation plays them all together), a bombardment declared or
    fired (an assault without WITH reads them) are not so; nor is a line holding an
    order that was not refused, nor a move of a block a declaration names (declarations
    reads it). This is what a bot does with a refused order
    (sendable.keep_accepted: the line becomes a comment), so its orders are checked once."""
    if not problems:
        return None
    refused = {p.line for p in problems}
    kept, left_out = [], set()
    for order in orders.orders:
        if order.line not in refused:
            kept.append(order)
        elif not isinstance(order, _REFUSED_ALONE) or not any(
                p.line == order.line and p.column == order.column for p in problems):
            return None
        elif isinstance(order, Move):
            left_out.update(order.blocks)
    if any(o.block in left_out for o in orders.of(Bombard)):  # a declaration reads its block's move (_moves_of)
        return None
    return kept


def _fingerprint(state: State, side: str) -> tuple:
    """What of a position the check reads, as a value: the side's blocks in full, where the
    enemy's stand (all the check knows of them), so the position a bot rebuilds from its
    view (sendable.py) and the server's give the same key."""
    own = tuple((b.id, b.type, b.locale, b.facing, b.status, b.strength, b.activated, b.bombard, b.arrives,
                 b.entries) for b in state.blocks.values() if b.side == side)
    foe = tuple(sorted((b.locale, b.facing or "") for b in state.blocks.values() if b.side != side and b.on_map))
    return (state.day, tuple(sorted(state.demoralised.items())), tuple(state.french_start), own, foe)


class _Checker:
    def __init__(self, scenario: Scenario, state: State, orders: Orders):
        """``state``: a position the check may change (check_day gives it a copy, or one that is spare)."""
        self.sc, self.orders = scenario, orders
        self.board = scenario.board
        self.day = _Forecast(scenario, state, Orders(orders.side), Decider())
        self.day.watch()
        self.day.st.standing = {s: [] for s in self.day.st.standing}  # never the enemy's (hidden, and may change)
        self.side = self.day.side
        self.problems: list[Problem] = []
        self.said_of: dict[str, Text] = {}  # a void reason (English, as the checks compare it) -> its Text
        self.written: dict[str, str] = {}  # the same -> its Text's English (the reason, perhaps with its full stop)
        self.warnings: list[str] = []
        self.warnings_said: list[Text] = []  # the same, as Texts (read in the seat's language)
        # what earlier orders make uncertain, place by place, with what does it:
        self.own_unsure: dict[str, str] = {}  # the side's own blocks there (and MORALE, its army's)
        self.foe_unsure: dict[str, str] = {}  # the enemy's blocks there
        self.may_leave: dict[str, set[str]] = {}  # own blocks an uncertain order may take out of a locale
        self.crossing: dict[tuple[str, str], int] = {}  # (from, into) of an assault carried out -> its line
        self.maybe = 0  # commands the conditional orders may spend
        self.maybe_by: list[Text] = []  # "line N" of the orders that may use a command

    # -- reporting ---------------------------------------------------------------

    def refuse(self, order: Order, why: str | Text, expected: str | Text = "") -> None:
        """Refuse ``order`` for ``why`` (the engine's English reason, or a Text of the checks')."""
        if isinstance(why, Text):
            written = str(why)
            self.remember(written, why, written)
            why = written
        why = why.rstrip(".")
        said = self.said_of.get(why)  # the reason as the engine wrote it, to be read in the seat's language
        message = say("%(why)s: this order would not be carried out", why=said if said is not None else why)
        expected = say(expected or _expected(why))
        # what problem() makes of them, the message's English from the reason's, written already (remember)
        self.problems.append(Problem(order.line, order.column,
                                     message.message % {"why": self.written[why] if said is not None else why},
                                     order.text, _english(expected), said=message, expected_said=expected))

    def remember(self, english: str, said, written: str | None = None) -> None:
        """Keep the Text of a void reason the checks hold as English (``english``): the first one kept
        stays (a reason met again is not written out again to be compared). ``written``: ``str(said)``,
        when the caller has it."""
        english = english.rstrip(".")
        if english not in self.said_of and isinstance(said, Text):
            written = str(said) if written is None else written
            if written.rstrip(".") == english:
                self.said_of[english] = said
                self.written[english] = written

    def warn(self, order: Order, text: str | Text) -> None:
        """Warn that ``order`` depends on the enemy; ``text`` a Text (or English) saying on what."""
        if len(self.warnings) < MAX_WARNINGS:
            self.warnings.append(f"line {order.line}: {order.text} — {text}")
            self.warnings_said.append(say("line %(line)d: %(order)s — %(why)s", line=order.line, order=order.text,
                                          why=text))

    def unsettle(self, locales, why: str | Text, own: bool = True, foe: bool = True) -> None:
        for lid in locales:
            if lid is not None:
                if own:
                    self.own_unsure.setdefault(lid, why)
                if foe:
                    self.foe_unsure.setdefault(lid, why)

    def retreat_room(self, locale: str) -> list[str]:
        """The locales next to ``locale`` an enemy beaten there may retreat into (not the side's own)."""
        mine = self.day.st.held_by(self.side)
        return [n for n in self.board.adjacent(locale) if n not in mine]

    def depends(self, locales, why: str = "", blocks=()) -> list[Text]:
        """What makes uncertain the facts an order (voided for ``why``) depends on, each reason once."""
        capacity = bool(why) and any(k in why for k in CAPACITY)  # (no reason: neither, without asking)
        enemy = bool(why) and any(k in why for k in ENEMY)
        out: list[Text] = []
        for lid in locales:
            for table, used in ((self.own_unsure, not enemy), (self.foe_unsure, not capacity)):
                reason = table.get(lid) if used else None
                if reason and reason not in out:
                    out.append(reason)
        return out

    # -- the day -------------------------------------------------------------------

    def run(self) -> list[Problem]:
        self.activation()
        self.bombardments()
        self.assault_without_with()
        for order in self.orders.of(Assault):
            self.check_assault(order)
        for order in self.orders.orders:
            if isinstance(order, (Move, RoadMove, Extend, Enter)):
                self.check_move(order)
        self.declarations()
        self.orders.warnings[:] = self.warnings
        self.orders.warnings_said[:] = self.warnings_said
        return self.problems

    def assault_without_with(self) -> None:
        """An assault written without WITH takes the blocks of the approach that may assault
        (rules-notes C8): not artillery bombarding this day, not blocks still asleep."""
        bombard = {o.block for o in self.orders.of(Bombard)}
        st, fired = self.day.st, self.day.fired
        for order in self.orders.of(Assault):
            if order.named:
                continue
            keep = [bid for bid in order.blocks if st.blocks[bid].activated
                    and not (st.blocks[bid].type == "artillery" and (bid in bombard or bid in fired))]
            if keep != list(order.blocks) and keep:
                order.text = order.text.replace(" WITH " + " ".join(order.blocks), " WITH " + " ".join(keep), 1)
                order.blocks = tuple(keep)

    def activation(self) -> None:
        """§6 step 6, played as the day will play it; blocks that wake by themselves are told."""
        if self.side != "france":
            return
        day = self.day
        day.orders = Orders(self.side, orders=list(self.orders.of(Activate)))
        before = len(day.events)
        rules.activation(day)
        day.orders = Orders(self.side)
        for event in day.events[before:]:
            if event.kind == "void":
                text = event.text
                order = self._activate_naming(text)
                if event.said is not None:
                    self.remember(text.split(" — ", 1)[-1], event.said.values.get("why"))
                self.refuse(order, text.split(" — ", 1)[-1],
                            "no more blocks than the day allows (blocks next to the enemy wake by themselves)")
            elif _already_active(event):
                bid = (str(event.said.values["block"]) if event.said is not None else event.text).split()[0]
                self.warn(self._activate_naming(bid + " "), say("%(block)s wakes by itself at the start of the day "
                                                                "(an enemy block is next to it); naming it uses no "
                                                                "activation", block=bid))

    def _activate_naming(self, text: str) -> Order:
        """The ACTIVATE order an event of the activation is about."""
        activates = self.orders.of(Activate)
        for order in activates:
            if order.text and order.text in text:
                return order
        for order in activates:
            if any(bid in text.replace(".", " ").split() for bid in order.blocks):
                return order
        return activates[0]

    def bombardments(self) -> None:
        """§10: the bombardments declared last day fire first, against targets the start of the day shows."""
        day = self.day
        fire = {o.block: o for o in self.orders.of(Fire)}
        for art in [b for b in day.st.side_blocks(self.side) if b.bombard is not None]:
            order = fire.get(art.id)
            targets = combat.bombard_targets(day, art) if art.facing == art.bombard else {}
            there = art.bombard
            if order is not None and not order.hold:
                if not targets:
                    self.refuse(order, say("%(block)s has nothing to fire at: no enemy block stands in %(place)s "
                                           "(003 §10 step 1)", block=art.id, place=day.name(there)),
                                say("HOLD FIRE %(block)s, or no order", block=art.id))
                elif order.target is not None and order.target not in targets:
                    shown = ", ".join(str(day.place(there, k)) for k in targets)
                    self.refuse(order, say("the target is not yours to choose: %(block)s fires at %(targets)s "
                                           "(003 §10 step 1: another approach only when neither the opposite "
                                           "approach nor the reserve holds enemy blocks)", block=art.id,
                                           targets=shown), f"FIRE {art.id}")
            art.bombard = None
            if not targets or (order is not None and order.hold):
                continue
            day.fired.add(art.id)  # without HOLD FIRE it fires (docs/orders.md; not a question asked by mail)
            self.unsettle([there], say("%(block)s's bombardment of %(place)s", block=art.id, place=day.name(there)),
                          own=False)

    # -- assaults --------------------------------------------------------------------

    def check_assault(self, order: Assault) -> None:
        day = self.day
        here, there = order.locale, order.toward
        lead_problem = self.lead_problem(order)
        if lead_problem:
            self.refuse(order, lead_problem)
            return
        trial = self.trial(order, combat.assault)
        deps = self.depends([here, there, MORALE], trial.void[0] if trial.void else "", order.blocks)
        certain_void = trial.void and (not deps or self._always_void(trial.void[0]))
        if certain_void or (trial.void and "command limit" in trial.void[0]):
            self.refuse(order, trial.void[0])
            return
        near_limit = bool(self.maybe) and day.commands + self.maybe >= COMMAND_LIMIT
        if trial.void or deps or near_limit:
            self.conditional(order, trial, deps, [here, there, MORALE], near_limit)
            self.unsettle(self.retreat_room(there), say("how the assault in line %(line)d ends", line=order.line),
                          own=False)
            return
        # carried out: it spends its command, then the enemy's answers decide the rest
        day.commands += 1
        day.assault_from.add((here, there))
        day.moved.update(order.blocks)
        why = say("how the assault in line %(line)d ends", line=order.line)
        self.leaving(order)
        self.crossing[(here, there)] = order.line
        self.unsettle([here, there, MORALE], why)
        self.unsettle(self.retreat_room(there), why, own=False)

    @staticmethod
    def _always_void(why: str) -> bool:
        """Reasons that hold whatever happens earlier in the day. No enemy block comes onto an
        approach during one's own assaults (a beaten defender retreats into a reserve, 003 §12),
        so an approach no enemy blocks stays so."""
        return any(k in why for k in ("has not been activated", "may not assault on a day",
                                      "no block can lead", "may take at most", "fired a bombardment today",
                                      "only one assault a turn", "an assault crosses a blocked approach"))

    def lead_problem(self, order: Assault) -> Text | None:
        """003 §5: cavalry named in WITH across a cavalry obstacle (the map decides it: the engine
        would leave it out); 003 §11 step 1: the leads named must be a legal choice."""
        st, board = self.day.st, self.board
        approach = board.approach(order.toward, order.locale)  # the one the defenders hold
        if order.named and approach.cavalry_obstacle:
            cavalry = [bid for bid in order.blocks if bid in st.blocks and st.blocks[bid].type == "cavalry"]
            if cavalry:
                return say_plural("%(blocks)s is cavalry, and %(approach)s is a cavalry obstacle: cavalry takes no "
                                  "part in an assault across it (003 §5); leave %(blocks)s out of WITH",
                                  "%(blocks)s are cavalry, and %(approach)s is a cavalry obstacle: cavalry takes "
                                  "no part in an assault across it (003 §5); leave %(blocks)s out of WITH",
                                  len(cavalry), blocks=" ".join(cavalry),
                                  approach=day_place(board, order.toward, order.locale))
        if not order.leads:
            return None
        width = approach.width
        if len(order.leads) > width:
            if width == 1:
                return say("%(leads)d lead blocks on a narrow approach: at most %(width)d (003 §11 step 1)",
                           leads=len(order.leads), width=width)
            return say("%(leads)d lead blocks on a wide approach: at most %(width)d (003 §11 step 1)",
                       leads=len(order.leads), width=width)
        types = {st.blocks[b].type for b in order.leads}
        if len(types) > 1:
            return say("the lead blocks must be all infantry or all cavalry (003 §11 step 1)")
        for bid in order.leads:
            b = st.blocks[bid]
            if b.type == "artillery":
                return say("%(block)s is artillery; only infantry or cavalry leads an assault (003 §11 step 1)",
                           block=bid)
            if b.type == "cavalry" and approach.cavalry_obstacle:
                return say("%(block)s is cavalry, and %(approach)s is a cavalry obstacle: cavalry takes no part "
                           "there (003 §5, §11)", block=bid, approach=day_place(board, order.toward, order.locale))
            if b.strength < 2 or b.strength <= approach.penalty(b.type):
                return say("%(block)s (%(type)s %(strength)d) cannot lead: a lead has strength 2 or more and "
                           "above the approach's penalty for its type (%(penalty)d) (003 §11 step 1)", block=bid,
                           type=say(b.type), strength=b.strength, penalty=approach.penalty(b.type))
        return None

    # -- movement ----------------------------------------------------------------------

    def places(self, order) -> list[str]:
        """The locales an order's fate depends on."""
        if isinstance(order, Move):
            out = [order.frm[0], order.frm[1], order.to[0], order.to[1]]
        elif isinstance(order, RoadMove):
            out = list(order.path)
        elif isinstance(order, Extend):
            out = [order.locale, order.toward]
        else:
            out = list(order.path)
            kind = "pontoon" if order.by == "pontoon" else "road"
            out += [e.locale for e in self.board.entries.values()
                    if e.side == self.side and e.kind == kind and (order.entry is None or e.id == order.entry)]
        if getattr(order, "extend", None):
            out.append(order.extend)
        return [x for x in out if x is not None]

    def check_move(self, order) -> None:
        day = self.day
        places = self.places(order)
        trial = self.trial(order, ACTIONS[type(order)], keep=True)
        why = trial.void[0] if trial.void else ""
        deps = self.depends(places, why, self.blocks_of(order))
        near_limit = bool(self.maybe) and trial.spent > 0 and day.commands + self.maybe >= COMMAND_LIMIT
        if (trial.void or deps or trial.unsure or near_limit
                or self.crossing.get(first_step(order)) is not None):  # not carried out for certain
            trial.day.take_back()  # the day's position as it was when the order was tried
        else:
            self.carried_out(order, trial)
            return
        if why and deps and any(k in why for k in CAPACITY) and not self._always_void(why):
            sure = self.still_void(order, ACTIONS[type(order)], trial.void)
            if sure:  # full whatever the uncertain orders before it do
                for reason in sure if isinstance(order, Enter) else sure[:1]:  # each block that cannot enter
                    self.refuse(order, reason)
                return
        if why and (not deps or self._always_void(why) or ("command limit" in why and always_counted(order))):
            for reason in trial.void if isinstance(order, Enter) else trial.void[:1]:
                self.refuse(order, reason)
            return
        line = self.crossing.get(first_step(order))
        if line is not None:
            a, b = first_step(order)
            self.refuse(order, say("the assault in line %(line)d crosses %(approach)s: if it fails, that approach "
                                   "is closed to you for the day; if it wins, only its blocks may enter %(place)s "
                                   "(003 §11)", line=line, approach=self.board.approach_name(b, a),
                                   place=self.board.locales[b].name))
            return
        self.conditional(order, trial, deps, places, near_limit)
        if trial.unsure:  # an attack maneuver the enemy may block: where it ends is his to decide
            for lid in places:
                if day.st.occupied_by(lid, day.foe):
                    self.unsettle(self.retreat_room(lid), say("how the attack maneuver in line %(line)d ends",
                                                              line=order.line), own=False)

    def carried_out(self, order, trial: _Trial) -> None:
        """``order`` is carried out for certain: the rest of the day starts from what it did (its trial
        was not taken back), and what the enemy does about it unsettles the places it touches."""
        day = self.day
        self.day = trial.day
        for lid in trial.retreats:
            self.unsettle(self.retreat_room(lid), say("where the enemy retreats from %(place)s (line %(line)d)",
                                                      place=day.name(lid), line=order.line), own=False)
        for text, said in trial.stops:
            english = "as the position stands " + text.rstrip(".").replace("did not move", "will not move")
            self.warn(order, _same(english, said and say("as the position stands %(block)s will not move along the "
                                                         "road: %(why)s", **said.values)))
        for event in trial.day.events:
            if event.kind == "road" and _stopped_there(event):  # only a road move stops short (road_move)
                english = "as the position stands it stops short: " \
                    + event.text.split("(stopped there:", 1)[1].strip().removesuffix(".").removesuffix(")")
                extra = event.said.values.get("extra") if event.said is not None else None
                why = extra.values.get("why") if isinstance(extra, Text) else None
                self.warn(order, _same(english, why is not None and say("as the position stands it stops short: %(why)s",
                                                                        why=why)))

    @staticmethod
    def blocks_of(order) -> tuple[str, ...]:
        return tuple(getattr(order, "blocks", ()) or (getattr(order, "block", ""),))

    def leaving(self, order) -> None:
        """Note the blocks an uncertain order may take out of where they stand."""
        if isinstance(order, (Move, Assault)):
            frm = order.frm[0] if isinstance(order, Move) else order.locale
            self.may_leave.setdefault(frm, set()).update(order.blocks)
        elif isinstance(order, RoadMove):
            self.may_leave.setdefault(order.path[0], set()).add(order.block)

    def still_void(self, order, action, void: list[str]) -> list[str]:
        """The capacity problems that remain even if every block that may leave has left."""
        fork = self.day.fork()
        for ids in self.may_leave.values():
            for bid in ids:
                b = fork.st.blocks[bid]
                if b.on_map:
                    fork.st.put(b, None, None, status="eliminated")
        best = self.trial(order, action, fork)
        return [why for why in best.void if why in void]

    def conditional(self, order, trial: _Trial, deps: list[str], places, near_limit: bool) -> None:
        """Accepted, with a warning naming what it depends on; what it touches is unsettled after it.

        An assault or attack maneuver that nothing earlier can stop is carried out for
        certain (its command is spent): no warning, but its outcome unsettles the places
        it touches for the orders after it."""
        reasons = list(deps)
        if near_limit:
            reasons.append(say("the command limit (%(lines)s may use commands)", lines=list(self.maybe_by)))
        self.leaving(order)
        if trial.unsure and not reasons and not trial.void:
            self.unsettle(places, say("how the assault in line %(line)d ends", line=order.line)
                          if isinstance(order, Assault) else
                          say("how the attack maneuver in line %(line)d ends", line=order.line))
            self.day.commands += trial.spent
            if extra_command_possible(order):
                self.maybe += 1
                self.maybe_by.append(say("line %(line)d", line=order.line))
            if trial.day.blockable:  # whether it is carried out at all is the enemy's choice
                self.warn(order, blockable_warning(self.day, order, trial.day.blockable))
            return
        what = _joined(reasons) if reasons else say("the enemy")
        if trial.void:
            why = trial.void[0].rstrip(".")
            self.warn(order, say("as the position stands it would not be carried out (%(why)s); it depends on "
                                 "%(what)s", why=self.said_of.get(why, why), what=what))
        else:
            self.warn(order, say("depends on %(what)s", what=what))
        self.unsettle(places, say("line %(line)d, which depends on %(what)s", line=order.line,
                                  what=reasons[0] if reasons else say("the enemy")))
        if trial.spent or trial.void or trial.unsure:
            self.maybe += 1
            self.maybe_by.append(say("line %(line)d", line=order.line))

    def trial(self, order, action, fork: _Forecast | None = None, keep: bool = False) -> _Trial:
        """``order`` tried on a fork of the day (or on ``fork``), taken back after; with ``keep``, left as
        it is, for the caller to take back (``trial.day.take_back()``) or to go on from."""
        fork = fork or self.day.fork()
        fork.order = order
        before = fork.commands
        unsure = False
        void: list[str] = []
        try:
            action(fork, order)
        except Void as why:
            void.append(str(why))
            self.remember(void[-1], reason(why), void[-1])  # a Void's English is its Text's
        except Unsure:
            unsure = True
        stops: list[tuple[str, Text | None]] = []  # (English, the engine's Text)
        for event in fork.events:
            if event.kind != "void":
                continue
            if isinstance(order, Enter) and "did not move along the road" in event.text:
                stops.append((event.text, event.said))  # it entered, and went no further (rules-notes M4)
            else:
                void.append(event.text.split(" — ", 1)[-1] if " — " in event.text else
                            event.text.split(": ", 1)[-1])
                if event.said is not None:
                    self.remember(void[-1], event.said.values.get("why"))
        if not keep:
            fork.take_back()  # the day's position as it was
        return _Trial(fork, void, unsure, fork.commands - before, fork.retreats, stops)

    def declarations(self) -> None:
        """§10: at the end of the day each BOMBARD's artillery must block its approach and not have fired."""
        bombards = self.orders.of(Bombard)
        if not bombards:
            return
        day = self.day.fork()
        try:
            movement.forced_returns(day)
        except Unsure:  # pragma: no cover - forced returns ask nothing
            pass
        for order in bombards:
            deps = self.depends([order.locale, order.toward] + self._moves_of(order.block), "", (order.block,))
            day.events = []
            day.orders = Orders(self.side, orders=[order])
            combat.declare_bombardments(day)
            voids = [e.text.split(" — ", 1)[-1] for e in day.events if e.kind == "void"]
            for event, why in zip([e for e in day.events if e.kind == "void"], voids):
                if event.said is not None:
                    self.remember(why, event.said.values.get("why"))
            if voids and not deps:
                self.refuse(order, voids[0])
            elif deps:
                self.warn(order, say("depends on %(what)s", what=_joined(deps)))

    def _moves_of(self, bid: str) -> list[str]:
        for order in self.orders.orders:
            if isinstance(order, Move) and bid in order.blocks:
                return self.places(order)
        return []


ALREADY_ACTIVE = "%(block)s is already active."  # rules.activation's sentence for a block named that is awake


def _already_active(event) -> bool:
    """Whether an event of the activation says a block named is already active: read from its Text, without
    writing the English of every activation event (a block's name in the others is never read)."""
    if event.said is None:
        return event.text.endswith("is already active.")
    return event.said.message == ALREADY_ACTIVE


STOPPED = " (stopped there: %(why)s)"  # the ending of a road move stopped short (movement.road_move)


def _stopped_there(event) -> bool:
    """Whether a move event (movement.describe_move's: every "move" and "road" event) says it stopped short,
    ``(stopped there: ...)``: read from its sentence's ending, without writing the English of the whole."""
    extra = event.said.values.get("extra")
    return isinstance(extra, Text) and extra.message == STOPPED


CAPACITY = ("holds at most", "is full", "no room further along", "taken by assault", "may take at most")
ENEMY = ("blocked by the enemy", "occupied by the enemy", "is not occupied", "no enemy blocks", "cavalry obstacle",
         "only cavalry attacks along a road")


def first_step(order) -> tuple[str, str] | None:
    """(from, into) of the first border a movement order crosses, if it crosses one."""
    if isinstance(order, Move):
        (a, fa), (b, fb) = order.frm, order.to
        if fa is None and fb is None and a != b:
            return (a, b)
        if fa is not None and fb is None and b == fa:
            return (a, b)
        return None
    if isinstance(order, RoadMove) and len(order.path) > 1:
        return (order.path[0], order.path[1])
    return None


def _english(text: Text) -> str:
    """``str(text)``: a catalog entry without values is its own English, without reading it."""
    if type(text) is Text and not text.values and text.plural is None:
        return text.message
    return str(text)


def _joined(reasons: list) -> Text:
    """Reasons (Texts) one after the other, as ``"; ".join`` writes them in English."""
    out = reasons[0]
    for reason in reasons[1:]:
        out = say("%(first)s; %(next)s", first=out, next=reason)
    return out


def _same(english: str, said) -> str | Text:
    """``said`` when it is a Text reading as ``english``, else ``english`` (the check's English is kept)."""
    return said if isinstance(said, Text) and str(said) == english else english


def blockable_warning(day, order, target: str) -> Text:
    """What an attack maneuver into ``target`` depends on: whether the enemy blocks it from his
    reserve there (003 §9), and what the order does then."""
    if isinstance(order, Move):
        then = {"stay": say("they stay where they are"),
                None: say("they advance to the approach opposite the blockers")}.get(
            order.if_blocked, say("they do as IF BLOCKED says"))
    else:
        then = say("the block leading it stops where it is, and the blocks behind it on the road do not move "
                   "(IF BLOCKED decides whether it advances to the approach)")
    return say("depends on whether the enemy blocks the attack maneuver into %(place)s with blocks of his reserve "
               "there (003 §9): if he does, %(then)s", place=day.name(target), then=then)


def always_counted(order) -> bool:
    """An order that counts against the command limit however the day goes."""
    if isinstance(order, Move):
        (_, facing), (_, to_facing) = order.frm, order.to
        return not (facing is not None and to_facing is None and order.to[0] == order.frm[0])
    return isinstance(order, Enter) and order.by == "pontoon"


def extra_command_possible(order) -> bool:
    """Whether a blocked attack maneuver may cost one more command (a split, or a free road march that stays)."""
    if isinstance(order, Move):
        return order.if_blocked is None or (order.if_blocked == "advance" and bool(order.advance)
                                            and len(order.advance) < len(order.blocks))
    return isinstance(order, (RoadMove, Enter)) and order.if_blocked != "advance"


_EXPECTED = (
    ("has not been activated", "a block already active, or one activated by ACTIVATE in these orders"),
    ("no activation left", "no more activations than the day allows"),
    ("command limit", "at most 3 group moves and assaults (main-road marches and entries are free)"),
    ("blocked by the enemy", "an assault across it, or another way"),
    ("holds at most", "no more blocks than the locale holds"),
    ("is full,", "a road move that stops where it has room"),
    ("is full", "an entry when the entry locale has room"),
    ("not occupied", "an approach facing a locale the enemy occupies"),
    ("no enemy blocks", "an assault across an approach the enemy blocks"),
    ("fired a bombardment today", "HOLD FIRE for it, or no move for it"),
    ("cavalry obstacle", "the assault WITH the blocks that may take part (no cavalry across a cavalry obstacle)"),
)


def _expected(why: str) -> str:
    for key, text in _EXPECTED:
        if key in why:
            return text
    return "an order the position allows (or leave it out)"


def day_place(board, locale: str, toward: str) -> str:
    return board.approach_name(locale, toward)


ACTIONS = {Move: movement.move, RoadMove: movement.road_move, Extend: movement.extend_order,
           Enter: movement.enter}

