"""Standing orders: the answers a side gives in advance to the enemy's turn.

``STANDING RESPOND|VANGUARD|BARRAGE|COUNTERATTACK|RETREAT|LOSSES|COVER|CLEAR ...``
(docs/triomphe-orders.md, "Standing orders"); each stays in force until
replaced by one of the same kind and place, or cleared (T4).
"""

from __future__ import annotations

from pbem.core.orders import Abort

from .orders import STANDING_KINDS, Standing
from .reader import Reader

STANDING_WORDS = tuple(k.upper() for k in STANDING_KINDS)


class StandingReader(Reader):
    """Reads the STANDING orders (the parser's base: it reads the actions too)."""

    def standing(self) -> Standing:
        token = self.peek()
        if token is None or token.word not in STANDING_WORDS:
            self.missing(f"one of {', '.join(STANDING_WORDS)}", STANDING_WORDS)
        self.take()
        before = len(self.problems)
        order = getattr(self, "standing_" + token.word.lower())()
        if len(self.problems) != before:
            raise Abort
        self.done("the end of the order")
        return order

    def _value(self, words: tuple[str, ...]) -> str:
        return self.expect(words, ", ".join(words[:-1]) + " or " + words[-1]).word

    def _locale_or_all(self, stops) -> str | None:
        if self.at("ALL"):
            self.take()
            return None
        return self.locale(stops, "a locale or ALL")

    def _all(self, locale: str | None) -> str:
        return "ALL" if locale is None else self.name(locale)

    def standing_respond(self) -> Standing:
        locale = self._locale_or_all(("ALWAYS", "NEVER", "BLOCKING"))
        value = self._value(("ALWAYS", "NEVER", "BLOCKING"))
        return Standing(text=f"STANDING RESPOND {self._all(locale)} {value}", kind="respond", locale=locale,
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
        blocks = self.known(self.blocks((), "any"))
        return Standing(text=f"STANDING VANGUARD {where} {' '.join(blocks)}", kind="vanguard", locale=locale,
                        toward=toward, value="WITH", blocks=tuple(blocks))

    def standing_barrage(self) -> Standing:
        value = self._value(("ALWAYS", "NEVER"))
        return Standing(text=f"STANDING BARRAGE {value}", kind="barrage", value=value)

    def standing_counterattack(self) -> Standing:
        value = self._value(("NEVER", "TURN", "ALWAYS"))
        return Standing(text=f"STANDING COUNTERATTACK {value}", kind="counterattack", value=value)

    def standing_retreat(self) -> Standing:
        locale = self._locale_or_all(("TO",))
        self.expect(("TO",), "TO and the locales to retreat into, best first")
        if self.peek() is None:
            self.missing("a locale to retreat into")
        places: list[str] = []
        while self.peek() is not None:
            token = self.peek()
            place = self.locale((), "a locale to retreat into")
            if place in places:
                self.note(token, f"{self.name(place)} is named twice", None, "each locale once")
            elif locale is not None and not self.board.is_adjacent(locale, place):
                near = ", ".join(self.name(x) for x in self.board.adjacent(locale))
                self.note(token, f"{self.name(place)} does not border {self.name(locale)}", None,
                          f"a locale next to it: {near}")
            else:
                places.append(place)
        return Standing(text=f"STANDING RETREAT {self._all(locale)} TO " + " ".join(self.name(p) for p in places),
                        kind="retreat", locale=locale, places=tuple(places))

    def standing_losses(self) -> Standing:
        value = self._value(("STRONGEST", "WEAKEST"))
        return Standing(text=f"STANDING LOSSES {value}", kind="losses", value=value)

    def standing_cover(self) -> Standing:
        value = self._value(("ALWAYS", "NEVER"))
        return Standing(text=f"STANDING COVER {value}", kind="cover", value=value)

    def standing_clear(self) -> Standing:
        if self.peek() is None:
            return Standing(text="STANDING CLEAR", kind="clear")
        value = self._value(tuple(w for w in STANDING_WORDS if w != "CLEAR"))
        return Standing(text=f"STANDING CLEAR {value}", kind="clear", value=value.lower())
