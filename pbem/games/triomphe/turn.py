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

from pbem.core.decisions import Decider
from pbem.games.simmons.turn import SideTurn
from .words import WORDS
from pbem.games.simmons.turn import adjective
from pbem.lang import Text, say, say_plural

from .orders import Orders
from .scenario import SIDE_ADJ, SIDES, Scenario
from .state import Block, State

ORDERS = 3  # 000 §6: «Гравець має загалом три (3) накази на хід»
GROUP = 3  # 000 §6: at most three blocks take part in an action
STRENGTH_ORDER = {"infantry": 0, "cavalry": 1, "artillery": 2}


def reason(why: Exception):
    """What a Void says: its Text when it was raised with one, else its English."""
    return why.args[0] if why.args else str(why)


class Void(Exception):
    """An action that cannot be carried out now; the message says why (T1)."""


class Ended(Exception):
    """An army is demoralised: the game ends at once (000 §18, §19)."""


class Turn(SideTurn):
    """One side's turn (pbem.games.simmons.turn.SideTurn: naming, telling, standing orders,
    decisions) with Triomphe's counters."""

    WORDS = WORDS

    tag_decisions = True

    def __init__(self, scenario: Scenario, state: State, orders: Orders | None, decider: Decider):
        super().__init__(scenario, state, orders, decider)
        self.terrain = scenario.terrain
        self.spent = 0  # orders spent (000 §6)
        self.acted: set[str] = set()  # blocks that took part in an action (reorganisation aside)
        self.maneuvers: Counter = Counter()  # defence approach -> maneuver attacks through it (§9)
        self.closed: set[tuple[str, str]] = set()  # attack approaches after a lost assault (§11)
        self.no_road_into: set[str] = set()  # defence locales taken by assault (§11)
        self.crossings: dict[tuple, dict] = {}  # crossing -> {"slots": steps, "dir": (from, to)} (§8, simmons.roads)
        self.road_attacks: set[tuple] = set()  # crossings used for a road maneuver attack (§8)
        self.pontoon = False
        self.organised: dict[str, set[str]] = {}  # locale -> blocks organised this turn (§14, T39)
        self.start_disorganised: dict[str, set[str]] = {}
        self.revealed: list[str] = []

    # -- what the turn is

    @property
    def french_cannot_block(self) -> bool:
        """000 §14: «Лише під час раунду о 6:00 ранку французькі фігури не можуть ... блокувати»."""
        return self.hour == self.sc.first_hour

    def may_block(self, side: str) -> bool:
        return not (side == "france" and self.french_cannot_block)

    def approach_name(self, locale: str, toward: str) -> str:
        return f"{self.name(locale)}>{self.name(toward)}"

    def a_block(self, side: str | None = None) -> Text:
        """'An Austrian block' / 'A French block'."""
        side = side or self.side
        return say("An %(side)s block", side=adjective(side)) if SIDE_ADJ[side][0] in "AEIOU" \
            else say("A %(side)s block", side=adjective(side))

    def count(self, n: int, side: str | None = None) -> Text:
        return say_plural("%(num)d %(side)s block", "%(num)d %(side)s blocks", n, side=adjective(side or self.side))

    def ids(self, blocks) -> list[Text]:
        """The blocks as their owner knows them, a list (read "A1 ... (infantry 2), A2 ...")."""
        return [self.own(b) for b in blocks]

    # -- orders (000 §6)

    def pay(self, n: int) -> None:
        """Spend ``n`` orders, or raise Void if the turn has not that many left (T2)."""
        if self.spent + n > ORDERS:
            raise Void(say("the %(orders)d orders of the turn are spent", orders=ORDERS) if self.spent >= ORDERS else
                       say("it needs %(n)d orders and only %(left)d are left", n=n, left=ORDERS - self.spent))
        self.spent += n

    def fresh(self, blocks: list[Block]) -> None:
        """Raise Void unless none of ``blocks`` has taken part in an action this turn (§6), and each block
        organised this turn is of a locale whose blocks are all organised by now (§14, T60)."""
        done = [b.id for b in blocks if b.id in self.acted]
        if done:
            raise Void(say("%(blocks)s already took part in an action this turn (000 §6)", blocks=done))
        for b in blocks:
            waiting = self.not_yet_organised(b)
            if waiting:
                raise Void(say("%(block)s acts only once the other blocks of %(place)s are reorganised too: %(blocks)s "
                               "(000 §14: a locale is reorganised all in one turn or none)", block=b.id,
                               place=self.name(b.locale), blocks=", ".join(waiting)))

    def not_yet_organised(self, block: Block) -> list[str]:
        """T60: for a block organised this turn, the blocks of the locale where it was organised that are
        still disorganised there (the locale is not yet wholly reorganised); else []."""
        for locale, done in self.organised.items():
            if block.id in done:
                rest = self.start_disorganised.get(locale, set()) - done
                return sorted(bid for bid in rest if self.st.blocks[bid].on_map and self.st.blocks[bid].disorganised
                              and self.st.blocks[bid].locale == locale)
        return []

    # -- the map and its occupants

    def capacity_left(self, locale: str, side: str) -> int:
        return self.board.locales[locale].capacity - self.st.count_in(locale, side)

    def closed_to(self, locale: str, side: str) -> bool:
        """T14: the first locale of an enemy waiting cell with blocks still in it."""
        for other in SIDES:
            if other == side:
                continue
            for cell_id in self.st.waiting_cells(other):
                cell = self.sc.cells.get(cell_id)
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
                         say("Disorganised by contact in %(place)s: %(blocks)s (000 §14).", place=self.name(locale),
                             blocks=self.ids(caught)),
                         seen=say_plural("%(num)d French block(s) in %(place)s become disorganised (000 §14).",
                                         "%(num)d French block(s) in %(place)s become disorganised (000 §14).",
                                         len(caught), place=self.name(locale)), locale=locale)
            return True
        return False

    def organised_count(self) -> int:
        return sum(1 for b in self.st.side_blocks("france") if not b.disorganised)

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
            gone = say(" and is eliminated")
        self.private("loss", block.side, say("%(block)s loses %(points)d (%(why)s)%(gone)s.",
                                             block=self.own(block, before), points=taken, why=say(why), gone=gone),
                     seen=say("A revealed %(block)s loses %(points)d (%(why)s)%(gone)s.",
                              block=self.shown(block, before), points=taken, why=say(why), gone=gone),
                     seen_data={"side": block.side, "type": block.type, "strength": before, "loss": taken},
                     block=block.id, loss=taken)
        return taken

    def reveal(self, blocks: list[Block], why: str) -> None:
        if not blocks:
            return
        side = blocks[0].side
        self.private("reveal", side, say("Revealed (%(why)s): %(blocks)s.", why=say(why), blocks=self.ids(blocks)),
                     seen=say("Revealed (%(why)s): %(blocks)s.", why=say(why), blocks=[self.shown(b) for b in blocks]),
                     seen_data={"blocks": [{"type": b.type, "strength": b.strength} for b in blocks]})
