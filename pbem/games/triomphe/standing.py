"""Standing orders: the answers a side gives in advance to the enemy's turn.

``STANDING RESPOND|VANGUARD|BARRAGE|COUNTERATTACK|RETREAT|LOSSES|COVER|CLEAR ...``
(docs/triomphe-orders.md, "Standing orders"); each stays in force until
replaced by one of the same kind and place, or cleared (T4). RETREAT and CLEAR
are read as in every Marengo-family game (pbem.games.simmons.reader).
"""

from __future__ import annotations

from .orders import STANDING_KINDS, Standing
from .reader import Reader

STANDING_WORDS = tuple(k.upper() for k in STANDING_KINDS)


class StandingReader(Reader):
    """Reads the STANDING orders (the parser's base: it reads the actions too)."""

    STANDING_WORDS = STANDING_WORDS

    def standing_respond(self) -> Standing:
        locale = self._locale_or_all(("ALWAYS", "NEVER", "BLOCKING"))
        value = self._value(("ALWAYS", "NEVER", "BLOCKING"))
        return Standing(text=f"STANDING RESPOND {self._where(locale)} {value}", kind="respond", locale=locale,
                        value=value)

    def standing_vanguard(self) -> Standing:
        if self.at("ALL"):
            self.take()
            locale = toward = None
        else:
            locale, toward = self.approach(("BEST", "NONE"))
        where = "ALL" if locale is None else f"{self.name(locale)}>{self.name(toward)}"
        if self.at("BEST", "NONE"):
            value = self.take().word
            return Standing(text=f"STANDING VANGUARD {where} {value}", kind="vanguard", locale=locale,
                            toward=toward, value=value)
        blocks = self._standing_blocks()
        return Standing(text=f"STANDING VANGUARD {where} {' '.join(blocks)}", kind="vanguard", locale=locale,
                        toward=toward, value="WITH", blocks=tuple(blocks))

    def standing_barrage(self) -> Standing:
        return self.standing_value("barrage", ("ALWAYS", "NEVER"))

    def standing_counterattack(self) -> Standing:
        return self.standing_value("counterattack", ("NEVER", "TURN", "ALWAYS"))

    def standing_losses(self) -> Standing:
        return self.standing_value("losses", ("STRONGEST", "WEAKEST"))

    def standing_cover(self) -> Standing:
        return self.standing_value("cover", ("ALWAYS", "NEVER"))
