"""Reading the nouns of Triomphe orders: the side's blocks, locales, approaches.

# family: shared with marengo/reader.py, to move to simmons
The words are the Marengo family's (block ids, locale names matched without
case or accents by unique prefix, approaches ``Locale>Locale``, the header's
SIDE and TURN); this is a small reader of them for Triomphe until the
family package has one. Each problem names the line and column, what was
found and what was expected.
"""

from __future__ import annotations

import difflib
import re
from typing import NoReturn

from pbem.core.orders import GT, OrderReader, Problem, Token

from pbem.games.simmons.board import fold
from .scenario import Scenario
from pbem.games.simmons.clock import hour_label, parse_hour
from .state import Block, State

PLACE = "a locale (by name) or an approach (like Marengo>Spinetta)"


def natural_order(block_id: str):
    """A sort key putting A2 before A10."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", block_id)]


class Reader(OrderReader):
    """Reads the blocks and places of one order at a time, recording every problem."""

    def __init__(self, scenario: Scenario, state: State, side: str, problems: list[Problem]):
        super().__init__(problems)
        self.scenario = scenario
        self.board = scenario.board
        self.state = state
        self.side = side
        self.hour = scenario.hour(state.day)
        self.day_side = scenario.side_of_day(state.day)
        self.own = {b.id.upper(): b for b in state.blocks.values() if b.side == side}

    # -- the header

    def check_header(self, header) -> None:
        line = header.line
        columns = {t.word: t.column for t in reversed(header.tokens)}
        if header.side is not None:
            named = {"austria": "austria", "austrian": "austria", "france": "france",
                     "french": "france"}.get(fold(header.side))
            if named != self.side:
                self.note_at(line, columns.get("SIDE", 1), f"these orders are headed {header.side!r} but were "
                              f"sent as {self.side.capitalize()}'s", header.side, self.side.capitalize())
        if header.turn is not None:
            column = columns.get("TURN", 1)
            try:
                hour = parse_hour(header.turn)
            except ValueError:
                self.note_at(line, column, "TURN must be an hour, like 7AM or 1PM", header.turn,
                              hour_label(self.hour))
            else:
                if hour != self.hour:
                    self.note_at(line, column, f"these orders are for {hour_label(hour)}, but the turn to play is "
                                  f"{self.day_side.capitalize()}'s at {hour_label(self.hour)}", header.turn,
                                  hour_label(self.hour))

    def name(self, locale: str) -> str:
        return self.board.locales[locale].name

    # -- blocks

    def ids_list(self, blocks) -> str:
        ids = sorted((b.id for b in blocks), key=natural_order)
        return ", ".join(ids[:8]) + (", ..." if len(ids) > 8 else "")

    def block(self, token: Token, need: str = "map") -> str | None:
        """The id of the side's block written ``token``; ``need`` "map", "waiting" or "any"."""
        block = self.own.get(token.word)
        if block is None:
            pool = [b for b in self.own.values() if (b.status == "waiting") == (need == "waiting")]
            shown = self.ids_list(pool or self.own.values())
            self.note(token, f"no block of yours called {token.text}", None, f"one of your block ids ({shown})")
            return None
        if block.status == "eliminated":
            self.note(token, f"{block.id} has been eliminated", None, "a block still in play")
            return None
        if need == "waiting" and block.status != "waiting":
            self.note(token, f"{block.id} is already on the map", None, "a block in a waiting cell")
            return None
        if need == "waiting" and block.arrives is not None and block.arrives > self.hour:
            self.note(token, f"{block.id} may not enter before {hour_label(block.arrives)} "
                      f"(it is {hour_label(self.hour)})", None, "a reinforcement due by now")
            return None
        if need == "map" and block.status == "waiting":
            self.note(token, f"{block.id} is not on the map yet", None,
                      f"a block on the map (to bring it on: ENTER {block.id})")
            return None
        return block.id

    def blocks(self, stops: tuple[str, ...], need: str = "map") -> list[tuple[Token, str | None]]:
        tokens = self.take_words(stops)
        if not tokens:
            self.missing("your block ids", stops)
        return self.resolve(tokens, need)

    def resolve(self, tokens: list[Token], need: str = "map") -> list[tuple[Token, str | None]]:
        out, seen = [], set()
        for token in tokens:
            bid = self.block(token, need)
            if bid is not None and bid in seen:
                self.note(token, f"{bid} is named twice", None, "each block once")
                bid = None
            elif bid is not None:
                seen.add(bid)
            out.append((token, bid))
        return out

    @staticmethod
    def known(pairs) -> list[str]:
        return [bid for _t, bid in pairs if bid is not None]

    def kind(self, bid: str) -> str:
        return self.state.blocks[bid].type

    def where(self, block: Block) -> tuple[str | None, str | None]:
        """Where ``block`` will be when the turn's actions start: after approach recovery (T8)."""
        if block.facing is not None and self.side == self.day_side:
            foe = "france" if self.side == "austria" else "austria"
            if not self.state.occupied_by(block.facing, foe):
                return (block.locale, None)
        return (block.locale, block.facing)

    def stands(self, token: Token, bid: str | None, locale: str, facing: str | None) -> None:
        if bid is None:
            return
        block = self.state.blocks[bid]
        if self.where(block) == (locale, facing):
            return
        self.note(token, f"{bid} is not {self.place_words(locale, facing)}: it is "
                  f"{self.place_words(*self.where(block))}", None, f"a block {self.place_words(locale, facing)}")

    def place_words(self, locale: str | None, facing: str | None) -> str:
        if locale is None:
            return "off the map"
        if facing is None:
            return f"in the reserve of {self.name(locale)}"
        return f"on the approach {self.name(locale)}>{self.name(facing)}"

    # -- places

    def locale_problem(self, first: Token, text: str, candidates) -> NoReturn:
        if candidates:
            names = ", ".join(self.name(lid) for lid in list(candidates)[:6])
            self.fail(first, f"{text!r} could be any of: {names}", text, "more of the name")
        names = {fold(loc.name): loc.name for loc in self.board.locales.values()}
        close = difflib.get_close_matches(fold(text), list(names), n=1, cutoff=0.6)
        hint = f" (did you mean {names[close[0]]}?)" if close else ""
        self.fail(first, f"no locale is called {text!r}{hint}", text, "a locale of the map, by name")

    def locale(self, stops: tuple[str, ...] = (), expected: str = "a locale") -> str:
        """The locale named by the longest run of words from here (exactly, or by unique prefix)."""
        first = self.peek()
        if not self.is_word(first, stops):
            self.missing(expected, stops)
        best, best_len, candidates = None, 0, ()
        acc, n, j = "", 0, self.i
        while j < len(self.tokens) and self.is_word(self.tokens[j], stops):
            acc += fold(self.tokens[j].text)
            n += 1
            lid, found = self.board.name_match(acc)
            if lid is None and not found:
                break
            if lid is not None:
                best, best_len = lid, n
            else:
                candidates = found
            j += 1
        if best is None:
            self.locale_problem(first, " ".join(t.text for t in self.tokens[self.i:j]) or first.text, candidates)
        self.i += best_len
        return best

    def approach(self, stops: tuple[str, ...] = (), locale: str | None = None,
                 first: Token | None = None) -> tuple[str, str]:
        first = first or self.peek()
        if locale is None:
            locale = self.locale(stops, "an approach (like Marengo>Spinetta)")
        if not self.at_sign(GT):
            near = self.board.adjacent(locale)
            self.missing(f"'>' and the locale the approach faces (like {self.name(locale)}>"
                         f"{self.name(near[0]) if near else '...'})")
        self.take()
        toward = self.locale(stops, "the locale the approach faces")
        if (locale, toward) not in self.board.approaches:
            near = ", ".join(self.name(x) for x in self.board.adjacent(locale))
            why = "the border is impassable" if frozenset((locale, toward)) in self.board.impassable else \
                "they are the same locale" if locale == toward else "they are not adjacent"
            self.fail(first, f"{self.name(locale)} has no approach toward {self.name(toward)} ({why})",
                      f"{self.name(locale)}>{self.name(toward)}", f"an approach of {self.name(locale)} toward "
                      f"one of: {near}")
        return locale, toward

    def place(self, stops: tuple[str, ...] = ()) -> tuple[str, str | None]:
        locale = self.locale(stops + ("->",), PLACE)
        if self.at_sign(GT):
            _, facing = self.approach(stops, locale)
            return locale, facing
        return locale, None

    def ids_then_place(self, order_word: str, need: str = "map"):
        """``ids place``: the block ids (words that are ids of the side), then a place."""
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
            self.missing(f"your block ids after {order_word}, then where they start")
        ids = self.resolve(pairs, need)
        if self.peek() is None or self.peek().text == "->":
            self.missing(f"where the blocks start: {PLACE}")
        return ids, self.place()

    def place_text(self, place: tuple[str, str | None]) -> str:
        locale, facing = place
        return self.name(locale) if facing is None else f"{self.name(locale)}>{self.name(facing)}"
