"""One side's turn in progress (000 §5–6): what the rules remember while it lasts.

The sequence of play is in sequence.py; each kind of action in the module
named after its section (march.py, maneuver.py, bombardment.py, assault.py,
reorganisation.py), retreats in retreat.py and morale discs in morale.py.
They all work on a :class:`Turn`: the position, the orders spent, the blocks
that have acted, what the turn has closed, and the helpers every rule uses:
asking a decision, telling what happened, reducing a block.
"""

from __future__ import annotations

from collections import Counter

from pbem.core.decisions import Decider, Decision
from pbem.core.events import Event

from .orders import Orders, Standing
from .scenario import SIDE_ADJ, Scenario
from .state import Block, State, enemy

ORDERS = 3  # 000 §6: «Гравець має загалом три (3) накази на хід»
GROUP = 3  # 000 §6: at most three blocks take part in an action
STRENGTH_ORDER = {"infantry": 0, "cavalry": 1, "artillery": 2}


class Void(Exception):
    """An action that cannot be carried out now; the message says why (T1)."""


class Ended(Exception):
    """An army is demoralised: the game ends at once (000 §18, §19)."""


class Turn:
    def __init__(self, scenario: Scenario, state: State, orders: Orders | None, decider: Decider):
        self.sc = scenario
        self.board = scenario.board
        self.terrain = scenario.terrain
        self.st = state
        self.side = scenario.side_of_day(state.day)
        self.foe = enemy(self.side)
        self.orders = orders or Orders(self.side)
        self.decider = decider
        self.events: list[Event] = []
        self.spent = 0  # orders spent (000 §6)
        self.acted: set[str] = set()  # blocks that took part in an action (reorganisation aside)
        self.maneuvers: Counter = Counter()  # defence approach -> maneuver attacks through it (§9)
        self.closed: set[tuple[str, str]] = set()  # attack approaches after a lost assault (§11)
        self.no_road_into: set[str] = set()  # defence locales taken by assault (§11)
        self.crossings: dict[tuple, dict] = {}  # crossing -> {"last": step, "dir": (from, to)} (§8)
        self.road_attacks: set[tuple] = set()  # crossings used for a road maneuver attack (§8)
        self.pontoon = False
        self.organised: dict[str, set[str]] = {}  # locale -> blocks organised this turn (§14, T39)
        self.start_disorganised: dict[str, set[str]] = {}
        self.moves: list[dict] = []
        self.revealed: list[str] = []

    # -- what the turn is

    @property
    def hour(self) -> int:
        return self.sc.hour(self.st.day)

    @property
    def french_cannot_block(self) -> bool:
        """000 §14: «Лише під час раунду о 6:00 ранку французькі фігури не можуть ... блокувати»."""
        return self.hour == self.sc.first_hour

    def may_block(self, side: str) -> bool:
        return not (side == "france" and self.french_cannot_block)

    def name(self, locale: str | None) -> str:
        return self.board.locales[locale].name if locale else "?"

    def place(self, locale: str, facing: str | None) -> str:
        if facing is None:
            return f"{self.name(locale)} (reserve)"
        return f"{self.name(locale)}>{self.name(facing)}"

    def approach_name(self, locale: str, toward: str) -> str:
        return f"{self.name(locale)}>{self.name(toward)}"

    def own(self, block: Block, strength: int | None = None) -> str:
        name = f" {block.name}" if block.name and block.name != block.id else ""
        return f"{block.id}{name} ({block.type} {block.strength if strength is None else strength})"

    @staticmethod
    def shown(block: Block, strength: int | None = None) -> str:
        """A revealed block as the enemy sees it: side, type and strength only."""
        return f"{SIDE_ADJ[block.side]} {block.type} {block.strength if strength is None else strength}"

    def a_block(self, side: str | None = None) -> str:
        """'An Austrian block' / 'A French block'."""
        adj = SIDE_ADJ[side or self.side]
        return f"{'An' if adj[0] in 'AEIOU' else 'A'} {adj} block"

    def count(self, n: int, side: str | None = None) -> str:
        return f"{n} {SIDE_ADJ[side or self.side]} block" + ("s" if n != 1 else "")

    def ids(self, blocks) -> str:
        return ", ".join(self.own(b) for b in blocks)

    # -- telling what happened

    def public(self, kind: str, text: str, **data) -> None:
        self.events.append(Event(kind, text, data))

    def private(self, kind: str, owner: str, text: str, seen: str | None = None,
                seen_data: dict | None = None, **data) -> None:
        self.events.append(Event(kind, text, data, owner=owner, seen=seen, seen_data=seen_data))

    def void(self, order, why: str) -> None:
        self.private("void", self.side, f"Order not carried out: {order.text or order} — {why}.")

    def record_move(self, side: str, frm: tuple, to: tuple, count: int, kind: str) -> None:
        self.moves.append({"side": side, "from": list(frm), "to": list(to), "count": count, "kind": kind})

    # -- orders (000 §6)

    def pay(self, n: int) -> None:
        """Spend ``n`` orders, or raise Void if the turn has not that many left (T2)."""
        if self.spent + n > ORDERS:
            raise Void(f"the {ORDERS} orders of the turn are spent" if self.spent >= ORDERS else
                       f"it needs {n} orders and only {ORDERS - self.spent} are left")
        self.spent += n

    def fresh(self, blocks: list[Block]) -> None:
        """Raise Void unless none of ``blocks`` has taken part in an action this turn (§6)."""
        done = [b.id for b in blocks if b.id in self.acted]
        if done:
            raise Void(f"{', '.join(done)} already took part in an action this turn (000 §6)")

    # -- the map and its occupants

    def capacity_left(self, locale: str, side: str) -> int:
        return self.board.locales[locale].capacity - self.st.count_in(locale, side)

    def closed_to(self, locale: str, side: str) -> bool:
        """T14: the first locale of an enemy waiting cell with blocks still in it."""
        for b in self.st.blocks.values():
            if b.side != side and b.status == "waiting" and b.cell is not None:
                cell = self.sc.cells.get(b.cell)
                if cell and any(self.board.entries[e].locale == locale for e in cell.entries):
                    return True
        return False

    def enter(self, block: Block, locale: str, facing: str | None = None) -> None:
        """``block`` moves into ``locale``; the locale remembers who entered last (T47)."""
        if block.locale != locale or not block.on_map:
            self.st.last_entered[locale] = block.side
        self.st.put(block, locale, facing)

    def contagion(self, locale: str) -> bool:
        """000 §14: organised and disorganised French blocks in one locale after a
        march or retreat all become disorganised. True if it happened."""
        french = self.st.in_locale(locale, "france")
        if any(b.disorganised for b in french) and any(not b.disorganised for b in french):
            caught = [b for b in french if not b.disorganised]
            for b in caught:
                b.disorganised = True
            self.private("disorganised", "france",
                         f"Disorganised by contact in {self.name(locale)}: {self.ids(caught)} (000 §14).",
                         seen=f"{len(caught)} French block(s) in {self.name(locale)} become disorganised "
                              f"(000 §14).", locale=locale)
            return True
        return False

    def organised_count(self) -> int:
        return sum(1 for b in self.st.side_blocks("france") if not b.disorganised)

    # -- standing orders
    # family: shared with marengo/day.py (Day.standing, Day.decide), to move to simmons

    def standing(self, side: str, kind: str, locale: str | None = None, toward: str | None = None
                 ) -> Standing | None:
        """The most specific standing order of ``side`` for this kind and place."""
        best = None
        for d in self.st.standing.get(side, []):
            if d["kind"] != kind:
                continue
            if d.get("locale") not in (None, locale) or d.get("toward") not in (None, toward):
                continue
            score = (d.get("locale") is not None) + (d.get("toward") is not None)
            if best is None or score >= best[0]:
                best = (score, d)
        return Standing.from_dict(best[1]) if best else None

    def source_for(self, side: str) -> str:
        return "orders" if side == self.side else "standing"

    # -- decisions

    def decide(self, side: str, kind: str, question: str, options: list[tuple[str, str]],
               default: tuple[str, ...], lo: int = 1, hi: int = 1, given=None, source: str | None = None,
               check=None) -> tuple[str, ...]:
        decision = Decision(side=side, kind=kind, question=question,
                            options=tuple(k for k, _ in options), default=tuple(default),
                            labels=tuple(options), min=lo, max=hi)
        answer = self.decider.decide(decision, given=given, source=source or self.source_for(side), check=check)
        record = self.decider.records[-1]
        if record.source in ("default", "standing", "log"):
            how = {"default": "by default", "standing": "by your standing orders",
                   "log": "by the answer on record"}[record.source]
            chosen = ", ".join(decision.label(k) for k in answer) or "none"
            note = f" ({record.note})" if record.note else ""
            self.private("decision", side, f"{question} Chosen {how}: {chosen}.{note}", decision=kind)
        elif record.note:
            self.private("decision", side, f"{question} {record.note}.", decision=kind)
        return answer

    def pick_own(self, owner: str, candidates: list[Block], kind: str, question: str) -> Block:
        """The owner picks one of its blocks (to take a reduction): standing LOSSES, else the strongest."""
        policy = self.standing(owner, "losses")
        strongest = sorted(candidates, key=lambda b: (-b.strength, STRENGTH_ORDER[b.type], b.id))
        weakest = sorted(candidates, key=lambda b: (b.strength, STRENGTH_ORDER[b.type], b.id))
        given = None
        if policy is not None:
            given = ((weakest if policy.value == "WEAKEST" else strongest)[0].id,)
        options = [(b.id, self.own(b)) for b in candidates]
        key = self.decide(owner, kind, question, options, (strongest[0].id,), given=given,
                          source="standing" if given is not None else None)[0]
        return next(b for b in candidates if b.id == key)

    # -- reductions (000 §2)

    def reduce(self, block: Block, points: int, why: str) -> int:
        """Take up to ``points`` strength from ``block`` (eliminated at 0); the points taken.
        Morale discs are the caller's (they may be deferred, §18)."""
        taken = min(points, block.strength)
        if taken <= 0:
            return 0
        before = block.strength
        block.strength -= taken
        gone = ""
        if block.strength == 0:
            self.st.put(block, None, None, status="eliminated")
            gone = " and is eliminated"
        self.private("loss", block.side, f"{self.own(block, before)} loses {taken} ({why}){gone}.",
                     seen=f"A revealed {SIDE_ADJ[block.side]} {block.type} {before} loses {taken} ({why}){gone}.",
                     seen_data={"side": block.side, "type": block.type, "strength": before, "loss": taken},
                     block=block.id, loss=taken)
        return taken

    def reveal(self, blocks: list[Block], why: str) -> None:
        if not blocks:
            return
        side = blocks[0].side
        self.private("reveal", side, f"Revealed ({why}): {self.ids(blocks)}.",
                     seen=f"Revealed ({why}): {', '.join(self.shown(b) for b in blocks)}.",
                     seen_data={"blocks": [{"type": b.type, "strength": b.strength} for b in blocks]})
