"""Reading the nouns of Marengo orders: the side's blocks, locales, approaches.

:class:`Reader` is the family's reader (pbem.games.simmons.reader: block ids,
locale names, approaches, the header's SIDE and TURN, the standing orders'
common forms) with what Marengo adds: which blocks an order may name (on the
map, due to enter, able to bombard) and a block's one movement a day. The
orders themselves are read in parse.py.
"""

from __future__ import annotations

from pbem.core.orders import Problem, Token
from pbem.games.simmons.clock import Clock
from pbem.lang import say
from pbem.games.simmons.reader import PLACE, Reader as FamilyReader, natural_order  # noqa: F401 (parse.py's)

from .scenario import Scenario
from .state import State


class Reader(FamilyReader):
    """Reads the blocks and places of one order at a time, recording every problem."""

    def __init__(self, scenario: Scenario, state: State, side: str, problems: list[Problem]):
        super().__init__(scenario, state, side, problems)
        self.moved: dict[str, int] = {}  # block -> line of its movement order
        self.assaulted: dict[tuple[str, str], int] = {}
        self.artillery: dict[tuple[str, str], int] = {}  # (order word, block) -> line
        self.pontoon = 0
        self.extend_at: Token | None = None  # where the last THEN EXTEND's approach was written

    def fits(self, token: Token, block, need: str) -> bool:
        """``need``: "map" (on the map), "enter" (waiting and due), "bombard" (on the map or
        due to enter), "any" (not eliminated)."""
        waiting = block.status == "waiting"
        due = waiting and (block.arrives is None or block.arrives <= self.hour)
        if need == "enter":
            if not waiting:
                self.note(token, say("%(block)s is already on the map", block=block.id), None,
                          say("a reinforcement waiting to enter (ENTER is for blocks not yet on the map)"))
                return False
            if not due:
                self.note(token, say("%(block)s may not enter before %(hour)s (it is %(now)s)", block=block.id,
                                     hour=Clock(block.arrives), now=Clock(self.hour)),
                          None, say("a reinforcement due by now"))
                return False
        elif need in ("map", "bombard") and waiting and not (need == "bombard" and due):
            said = say("%(block)s is not on the map yet; it is due now", block=block.id) if due else \
                say("%(block)s is not on the map yet; it may enter at %(hour)s", block=block.id,
                    hour=Clock(block.arrives)) if block.arrives is not None else \
                say("%(block)s is not on the map yet", block=block.id)
            self.note(token, said, None, say("a block on the map (to bring it on: ENTER %(block)s BY ROAD)",
                                             block=block.id))
            return False
        return True

    def moving(self, bid: str | None, token: Token) -> None:
        """Record that ``bid`` moves in this order; a block moves once a day."""
        if bid is None:
            return
        if bid in self.moved:
            self.note(token, say("%(block)s already moves in line %(line)d; a block moves only once a day",
                                 block=bid, line=self.moved[bid]),
                      None, say("each block in one movement order at most"))
        else:
            self.moved[bid] = self.line
