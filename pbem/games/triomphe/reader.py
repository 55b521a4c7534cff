"""Reading the nouns of Triomphe orders: the side's blocks, locales, approaches.

:class:`Reader` is the family's reader (pbem.games.simmons.reader: block ids,
locale names matched without case or accents by unique prefix, approaches
``Locale>Locale``, places, one step, the header's SIDE and TURN, the standing
orders' common forms) in Triomphe's words (a *turn*, a *march*), with what
Triomphe adds: which blocks an order may name (on the map, in a waiting cell
and due) and where a block stands once the turn's actions start (after
approach recovery, T8).
"""

from __future__ import annotations

import re

from pbem.core.orders import Token
from pbem.games.simmons.board import fold
from pbem.lang import say
from pbem.games.simmons.clock import Clock
from pbem.games.simmons.reader import PLACE, Reader as FamilyReader, natural_order  # noqa: F401 (the game's names)

from .state import Block


class Reader(FamilyReader):
    """Reads the blocks and places of one order at a time, recording every problem."""

    TURN = "turn"
    WHOSE = "{side}'s at {hour}"
    IDS_SHOWN = 8
    ONE_STEP = say("a march goes one step (along roads: ROAD)")
    STEPS = say("a march goes")

    def fits(self, token: Token, block: Block, need: str) -> bool:
        """``need``: "map" (on the map), "waiting" (in a waiting cell and due), "any"."""
        if need == "waiting" and block.status != "waiting":
            self.note(token, say("%(block)s is already on the map", block=block.id), None, say("a block in a waiting cell"))
            return False
        if need == "waiting" and block.arrives is not None and block.arrives > self.hour:
            self.note(token, say("%(block)s may not enter before %(hour)s (it is %(now)s)", block=block.id,
                                 hour=Clock(block.arrives), now=Clock(self.hour)),
                      None, say("a reinforcement due by now"))
            return False
        if need == "map" and block.status == "waiting":
            self.note(token, say("%(block)s is not on the map yet", block=block.id), None,
                      say("a block on the map (to bring it on: ENTER %(block)s)", block=block.id))
            return False
        return True

    def ids_then_place(self, order_word: str, need: str = "map"):
        """``ids place``: the block ids (words that are ids of the side, or look like ids), then a
        place. Unlike Marengo's (which reads up to ``->``), words may follow the place (``ROAD A1
        West THEN CONTINUE ...``, a march of no crossing), so the ids end where a place begins."""
        pairs = []
        while self.peek() is not None and self.peek().text not in ("->", ">"):
            token = self.peek()
            if token.word in self.own or (re.fullmatch(r"[A-Za-z]\d+", token.text) and
                                          not self.board.name_match(fold(token.text))[1]
                                          and self.board.name_match(fold(token.text))[0] is None):
                self.take()
                pairs.append(token)
            else:
                break
        if not pairs:
            self.missing(say("your block ids after %(word)s, then where they start", word=order_word))
        ids = self.resolve(pairs, need)
        if self.peek() is None or self.peek().text == "->":
            self.missing(say("where the blocks start: %(place)s",
                             place=say("a locale (by name) or an approach (like Marengo>Spinetta)")))
        return ids, self.place()

    def where(self, block: Block) -> tuple[str | None, str | None]:
        """Where ``block`` will be when the turn's actions start: after approach recovery (T8)."""
        if block.facing is not None and self.side == self.day_side:
            foe = "france" if self.side == "austria" else "austria"
            if not self.state.occupied_by(block.facing, foe):
                return (block.locale, None)
        return (block.locale, block.facing)
