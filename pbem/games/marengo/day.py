"""One side's day in progress: what the rules need to remember while it lasts.

The sequence of play is in rules.py; movement (§8, §9) in movement.py;
bombardment, assault and retreat (§10–§12) in combat.py. They all work on a
:class:`Day`, which holds the position, the day's counters (the command limit,
road capacity, closed approaches...), and the helpers every rule uses: asking
a decision, telling what happened, taking losses, lowering morale.
"""

from __future__ import annotations

from pbem.core.decisions import Decider
from pbem.games.simmons.turn import SideTurn
from pbem.games.marengo.words import WORDS
from pbem.games.simmons.turn import adjective  # noqa: E402
from pbem.lang import Text, say, say_plural

from .orders import Orders
from .scenario import SIDE_ADJ, Scenario
from .state import Block, State

COMMAND_LIMIT = 3  # 003 §8: "au maximum trois déplacements de groupe et/ou ... trois assauts"
TYPE_WORD = {"infantry": "infantry", "cavalry": "cavalry", "artillery": "artillery"}


class Void(Exception):
    """An order that cannot be carried out now; the message (a string, or a Text) says why."""


def reason(why: Exception):
    """What a Void says: its Text when it was raised with one, else its English."""
    return why.args[0] if why.args else str(why)


class Day(SideTurn):
    """One side's day (pbem.games.simmons.turn.SideTurn: naming, telling, standing orders,
    decisions) with Marengo's counters."""

    WORDS = WORDS
    # kinds of event this day need not tell: none when the day is played; the check's forecast of it
    # (checks._Forecast), whose events are never reported, leaves out those it does not read
    untold: frozenset[str] = frozenset()

    def __init__(self, scenario: Scenario, state: State, orders: Orders | None, decider: Decider):
        super().__init__(scenario, state, orders, decider)
        self.commands = 0
        self.moved: set[str] = set()  # blocks that moved or assaulted today (§8: once a day)
        self.assault_from: set[tuple[str, str]] = set()  # one assault per approach a day (§11)
        self.closed: set[frozenset] = set()  # borders shut by a failed assault (§11)
        self.captured: dict[str, set[str]] = {}  # locale taken by assault -> who may enter (§11)
        self.road_use: dict[tuple, dict] = {}  # (border or entry, road) -> {"slots": [...], "dir": ...}
        self.pontoon_used = False
        self.fired: set[str] = set()  # artillery that resolved a bombardment today (§10)

    @staticmethod
    def article(side: str) -> str:
        """'An' before Austrian, 'A' before French."""
        return "An" if SIDE_ADJ[side][0] in "AEIOU" else "A"

    def count(self, n: int, side: str) -> Text:
        return say_plural("%(num)d %(side)s block", "%(num)d %(side)s blocks", n, side=adjective(side))

    # -- the command limit (§8) ------------------------------------------------

    def spend_command(self, what: str) -> None:
        if self.commands >= COMMAND_LIMIT:
            raise Void(say("the command limit of %(num)d group moves and assaults is used up", num=COMMAND_LIMIT))
        self.commands += 1

    # -- losses and morale (§11, §13) -------------------------------------------

    def lose(self, block: Block, points: int, why: str) -> int:
        """Take up to ``points`` strength from ``block``; returns the points taken."""
        taken = min(points, block.strength)
        block.strength -= taken
        if block.strength == 0:
            self.st.put(block, None, None, status="eliminated")
            block.bombard = None
        self.morale_loss(block.side, taken)
        return taken

    def eliminate(self, block: Block, why: str) -> None:
        self.lose(block, block.strength, why)

    def morale_loss(self, side: str, points: int) -> None:
        """§13: each strength point lost moves the army's morale one box toward zero."""
        if points <= 0:
            return
        self.st.morale[side] = max(0, self.st.morale[side] - points)
        if self.st.morale[side] == 0 and not self.st.demoralised[side]:
            self.st.demoralised[side] = True
            self.public("demoralised", say("The %(side)s army is demoralised (its morale reached zero).",
                                           side=adjective(side)), side=side)

    def losses(self, victims_leads: list[Block], victims_others: list[Block], points: int,
               inflicter: str, why: str) -> None:
        """Apply assault-type losses (§11): lead blocks first, the inflicting side
        choosing among them; then the other taking part, their owner choosing.
        Losses beyond the strength of the blocks taking part are lost."""
        policy = self.standing(inflicter, "inflict")
        strongest = policy is not None and policy.value == "STRONGEST"
        while points > 0:
            leads = [b for b in victims_leads if b.on_map]
            if leads:
                options = [(str(victims_leads.index(b) + 1), say("lead %(n)d: %(block)s", n=victims_leads.index(b) + 1,
                                                                 block=self.shown(b))) for b in leads]
                pick = sorted(leads, key=lambda b: (-b.strength if strongest else b.strength,
                                                    victims_leads.index(b)))[0]
                choice = (str(victims_leads.index(pick) + 1),)
                key = self.decide(inflicter, "inflict_loss",
                                  say("One loss from %(why)s falls on the enemy lead blocks: which one takes it?",
                                      why=say(why)),
                                  options, choice, given=choice if policy else None, source="standing")[0]
                target = victims_leads[int(key) - 1]
            else:
                others = [b for b in victims_others if b.on_map]
                if not others:
                    return
                owner = others[0].side
                target = self.pick_own_loss(owner, others, say("One loss from %(why)s: which of your blocks takes it?",
                                                               why=say(why)))
            self.lose(target, 1, why)
            points -= 1
            self.loss_event(target, 1, why)

    def pick_own_loss(self, owner: str, candidates: list[Block], question: str) -> Block:
        """The owner chooses which of its blocks takes a loss (standing LOSSES, else strongest)."""
        options = [(b.id, self.own(b)) for b in candidates]
        policy = self.standing(owner, "losses")
        given = None
        order = sorted(candidates, key=lambda b: (-b.strength, b.type != "infantry", b.id))
        if policy is not None:
            if policy.blocks:
                named = [b for b in candidates if b.id in policy.blocks]
                if named:
                    given = (sorted(named, key=lambda b: policy.blocks.index(b.id))[0].id,)
            elif policy.value == "WEAKEST":
                given = (sorted(candidates, key=lambda b: (b.strength, b.id))[0].id,)
            elif policy.value == "STRONGEST":
                given = (order[0].id,)
        key = self.decide(owner, "take_loss", question, options, (order[0].id,), given=given,
                          source="standing" if given is not None else None)[0]
        return next(b for b in candidates if b.id == key)

    def loss_event(self, block: Block, points: int, why: str) -> None:
        gone = say(" and is eliminated") if block.status == "eliminated" else ""
        before = block.strength + points
        self.private(
            "loss", block.side,
            say("%(block)s loses %(points)d (%(why)s)%(gone)s.", block=self.own(block, before), points=points,
                why=say(why), gone=gone),
            seen=say("A revealed %(block)s loses %(points)d (%(why)s)%(gone)s.", block=self.shown(block, before),
                     points=points, why=say(why), gone=gone),
            seen_data={"side": block.side, "type": block.type, "strength": before, "loss": points},
            block=block.id, loss=points,
        )
