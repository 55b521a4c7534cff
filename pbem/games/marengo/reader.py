"""Reading the nouns of Marengo orders: the side's blocks, locales, approaches.

:class:`Reader` knows the position at the start of the day and reads, one
order at a time, what every order is made of: block ids (the side's own, in
play, fit for the order), locale names (case-insensitive, without accents,
by unique prefix), approaches written ``Locale>Locale``, and the header's
SIDE and TURN. Each problem it finds names the line and column, what was
found and what was expected. The orders themselves are read in parse.py.
"""

from __future__ import annotations

import difflib
import re
from functools import cached_property
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


def _few(items: list[str], limit: int = 6) -> str:
    if not items:
        return ""
    shown = ", ".join(items[:limit])
    return shown + (", ..." if len(items) > limit else "")


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
        self.moved: dict[str, int] = {}  # block -> line of its movement order
        self.assaulted: dict[tuple[str, str], int] = {}
        self.artillery: dict[tuple[str, str], int] = {}  # (order word, block) -> line
        self.pontoon = 0
        self.span = ""  # the words of the last locale read
        self.extend_at: Token | None = None  # where the last THEN EXTEND's approach was written

    @cached_property
    def own(self) -> dict[str, Block]:
        """The side's blocks by their ids in upper case (as tokens' words are)."""
        return {b.id.upper(): b for b in self.state.blocks.values() if b.side == self.side}

    def own_block(self, word: str) -> Block | None:
        """The side's block whose id is ``word`` (upper case), or None."""
        block = self.state.blocks.get(word)  # ids are usually written in upper case already
        if block is not None and block.side == self.side:
            return block
        return self.own.get(word)

    # -- the header ----------------------------------------------------------

    def check_header(self, header, tokens: list[Token]) -> None:
        """SIDE must be the side sending, TURN the hour of the day to play."""
        line = header.line
        columns = {t.word: t.column for t in reversed(tokens)}
        if header.side is not None:
            named = self._side_named(header.side)
            if named is None:
                self.note_at(line, columns.get("SIDE", 1), f"{header.side!r} is not a side of this game",
                              header.side, self.side.capitalize())
            elif named != self.side:
                self.note_at(line, columns.get("SIDE", 1), f"these orders are headed for "
                              f"{named.capitalize()} but were sent as {self.side.capitalize()}'s",
                              header.side, self.side.capitalize())
        if header.turn is not None:
            column = columns.get("TURN", 1)
            try:
                hour = parse_hour(header.turn)
            except ValueError:
                self.note_at(line, column, "TURN must be an hour, like 7AM or 1PM", header.turn,
                              f"{hour_label(self.hour)} (the hour of the day to play)")
            else:
                if hour != self.hour:
                    self.note_at(line, column, f"these orders are for {hour_label(hour)}, but the day "
                                  f"to play is {self.day_side.capitalize()}'s day at {hour_label(self.hour)}",
                                  header.turn, hour_label(self.hour))

    @staticmethod
    def _side_named(text: str) -> str | None:
        key = fold(text)
        forms = {"austria": "austria", "austrian": "austria", "austrians": "austria",
                 "france": "france", "french": "france"}
        if key in forms:
            return forms[key]
        found = {side for form, side in forms.items() if key and form.startswith(key)}
        return found.pop() if len(found) == 1 else None

    def name(self, locale: str) -> str:
        return self.board.locales[locale].name

    # -- blocks --------------------------------------------------------------------

    def ids_list(self, blocks) -> str:
        return _few(sorted((b.id for b in blocks), key=natural_order))

    def block(self, token: Token, need: str = "map") -> str | None:
        """The id of the side's block written ``token``, or None (a problem is noted).

        ``need``: "map" (on the map), "enter" (waiting and due), "bombard" (on
        the map or due to enter), "any" (not eliminated).
        """
        block = self.own_block(token.word)
        if block is None:
            if need == "enter":
                choices = [b for b in self.own.values() if b.status == "waiting"]
            elif need == "any":
                choices = [b for b in self.own.values() if b.status != "eliminated"]
            else:
                choices = [b for b in self.own.values() if b.on_map]
            shown = self.ids_list(choices or self.own.values())
            self.note(token, f"no block of yours called {token.text}", None,
                      f"one of your block ids ({shown})" if shown else "one of your block ids")
            return None
        if block.status == "eliminated":
            self.note(token, f"{block.id} has been eliminated", None, "a block still in play")
            return None
        waiting = block.status == "waiting"
        due = waiting and (block.arrives is None or block.arrives <= self.hour)
        if need == "enter":
            if not waiting:
                self.note(token, f"{block.id} is already on the map", None,
                          "a reinforcement waiting to enter (ENTER is for blocks not yet on the map)")
                return None
            if not due:
                self.note(token, f"{block.id} may not enter before {hour_label(block.arrives)} "
                          f"(it is {hour_label(self.hour)})", None, "a reinforcement due by now")
                return None
        elif need in ("map", "bombard") and waiting and not (need == "bombard" and due):
            when = "; it is due now" if due else \
                f"; it may enter at {hour_label(block.arrives)}" if block.arrives is not None else ""
            self.note(token, f"{block.id} is not on the map yet{when}", None,
                      f"a block on the map (to bring it on: ENTER {block.id} BY ROAD)")
            return None
        return block.id

    def blocks(self, stops: tuple[str, ...], need: str = "map") -> list[tuple[Token, str | None]]:
        """(token, id) for the block ids up to a stop word, a sign or the end: at least one."""
        tokens = self.take_words(stops)
        if not tokens:
            self.missing(self._ids_expected(need), stops)
        return self.resolve(tokens, need)

    def resolve(self, tokens: list[Token], need: str = "map") -> list[tuple[Token, str | None]]:
        """(token, id) for each block id written; the id is None (and a problem noted) if it is
        not a block of the side fit for the order, or is named twice."""
        out: list[tuple[Token, str | None]] = []
        seen: set[str] = set()
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
    def known(pairs: list[tuple[Token, str | None]]) -> list[str]:
        return [bid for _token, bid in pairs if bid is not None]

    def _ids_expected(self, need: str) -> str:
        if need == "enter":
            blocks = [b for b in self.own.values() if b.status == "waiting"]
        else:
            blocks = [b for b in self.own.values() if b.on_map]
        shown = self.ids_list(blocks)
        return f"one of your block ids ({shown})" if shown else "one of your block ids"

    def kind(self, bid: str) -> str:
        return self.state.blocks[bid].type

    def need_type(self, token: Token, bid: str | None, btype: str, what: str) -> None:
        if bid is not None and self.kind(bid) != btype:
            self.note(token, f"{bid} is {self.kind(bid)}; {what}", None,
                      f"{'an' if btype[0] in 'aeiou' else 'a'} {btype} block")

    def moving(self, bid: str | None, token: Token) -> None:
        """Record that ``bid`` moves in this order; a block moves once a day."""
        if bid is None:
            return
        if bid in self.moved:
            self.note(token, f"{bid} already moves in line {self.moved[bid]}; a block moves only once a day",
                      None, "each block in one movement order at most")
        else:
            self.moved[bid] = self.line

    def stands(self, token: Token, bid: str | None, locale: str, facing: str | None) -> None:
        """Note a problem unless ``bid`` starts the day at (locale, facing)."""
        if bid is None:
            return
        block = self.state.blocks[bid]
        if (block.locale, block.facing) == (locale, facing):
            return
        self.note(token, f"{bid} is not {self.place_words(locale, facing)}: it is "
                  f"{self.place_words(block.locale, block.facing)}", None,
                  f"a block {self.place_words(locale, facing)}")

    def place_words(self, locale: str | None, facing: str | None) -> str:
        if locale is None:
            return "off the map"
        if facing is None:
            return f"in the reserve of {self.name(locale)}"
        return f"on the approach {self.board.approach_name(locale, facing)}"

    # -- places ----------------------------------------------------------------------

    def match(self, key: str) -> tuple[str | None, tuple[str, ...]]:
        """(id, ()) for a folded name naming one locale; (None, candidates) otherwise."""
        return self.board.name_match(key) if key else (None, ())

    def close_name(self, text: str) -> str:
        """`` (did you mean X?)`` for the locale name closest to ``text``, or ``""``."""
        names = {fold(loc.name): loc.name for loc in self.board.locales.values()}
        close = difflib.get_close_matches(fold(text), list(names), n=1, cutoff=0.6)
        return f" (did you mean {names[close[0]]}?)" if close else ""

    def locale_problem(self, first: Token, text: str, candidates: tuple[str, ...] | list[str]) -> NoReturn:
        if candidates:
            names = ", ".join(self.name(lid) for lid in candidates[:6])
            if len(candidates) > 6:
                names += f" and {len(candidates) - 6} more"
            self.fail(first, f"{text!r} could be any of: {names}", text, "more of the name")
        self.fail(first, f"no locale is called {text!r}{self.close_name(text)}", text,
                  "a locale of the map, by name")

    def locale(self, stops: tuple[str, ...] = (), expected: str = "a locale") -> str:
        """The locale named by the longest run of words from here (exactly, or by unique prefix)."""
        first = self.peek()
        if not self.is_word(first, stops):
            self.missing(expected, stops)
        best, best_len = None, 0
        candidates, cand_len = (), 0
        acc, n, j = "", 0, self.i
        while j < len(self.tokens) and self.is_word(self.tokens[j], stops):
            acc += fold(self.tokens[j].text)
            n += 1
            lid, found = self.match(acc)
            if lid is None and not found:  # no locale's name starts so
                break
            if lid is not None:
                best, best_len = lid, n
            elif found:
                candidates, cand_len = found, n
            j += 1
        if best is None:
            if candidates:
                self.locale_problem(first, " ".join(t.text for t in self.tokens[self.i:self.i + cand_len]),
                                    candidates)
            self.locale_problem(first, first.text, [])
        self.span = " ".join(t.text for t in self.tokens[self.i:self.i + best_len])
        self.i += best_len
        return best

    def locale_before(self, words: list[Token]) -> tuple[int, str]:
        """Split ``words`` into block ids and the locale named by the longest tail.

        Returns (number of words before the locale, locale id).
        """
        candidates: tuple[str, ...] = ()
        cand_k = 0
        first = max(0, len(words) - 8)
        tails = [""]  # tails[j]: the folded words from the j-th last on
        for t in reversed(words[first:]):
            tails.append(fold(t.text) + tails[-1])
        for k in range(first, len(words)):
            lid, found = self.match(tails[len(words) - k])
            if lid is not None:
                return k, lid
            if found and not candidates:
                candidates, cand_k = found, k
        if candidates:
            tail = words[cand_k:]
        else:
            tail = words
            all_ids = {bid.upper() for bid in self.state.blocks}
            while tail and tail[0].word in all_ids:
                tail = tail[1:]
            if not tail:
                after = self.tokens[self.i + len(words)] if self.i + len(words) < len(self.tokens) else None
                self.fail(after or self.end_column(), "the place the blocks start from is missing",
                          after.text if after else "", PLACE)
        self.locale_problem(tail[0], " ".join(t.text for t in tail), candidates)

    def approach(self, stops: tuple[str, ...] = (), locale: str | None = None,
                 first: Token | None = None) -> tuple[str, str]:
        """An approach ``Locale>Locale`` from here (or after ``locale``, already read from ``first``)."""
        first = first or self.peek()
        if locale is None:
            locale = self.locale(stops + (GT,), "an approach (like Marengo>Spinetta)")
        if not self.at_sign(GT):
            self.missing(f"'>' and the locale the approach faces (like "
                         f"{self.name(locale)}>{self._a_neighbour(locale)})")
        self.take()
        toward = self.locale(stops, "the locale the approach faces")
        self.check_approach(first, locale, toward)
        return locale, toward

    def _a_neighbour(self, locale: str) -> str:
        near = self.board.adjacent(locale)
        return self.name(near[0]) if near else "..."

    def check_approach(self, token: Token | int, locale: str, toward: str) -> None:
        if (locale, toward) in self.board.approaches:
            return
        near = ", ".join(self.name(x) for x in self.board.adjacent(locale))
        why = "the border is impassable" if frozenset((locale, toward)) in self.board.impassable else \
            "they are the same locale" if locale == toward else "they are not adjacent"
        self.fail(token, f"{self.name(locale)} has no approach toward {self.name(toward)} ({why})",
                  f"{self.name(locale)}>{self.name(toward)}",
                  f"an approach of {self.name(locale)} toward one of: {near}")

    def ids_then_place(self, order_word: str, need: str = "map") -> tuple[list[tuple[Token, str | None]],
                                                                          tuple[str, str | None]]:
        """``ids place`` before ``->``: the blocks, then (locale, facing)."""
        words = self.words()
        if not words:
            self.missing(f"your block ids after {order_word}, then where they start")
        k, locale = self.locale_before(words)
        if k == 0:
            self.fail(words[0], f"no blocks are named before the place {self.name(locale)}",
                      None, self._ids_expected(need))
        ids = self.resolve(words[:k], need)
        self.i += len(words)
        facing = None
        if self.at_sign(GT):
            _, facing = self.approach((), locale, words[k])
        return ids, (locale, facing)

    def place_text(self, place: tuple[str, str | None]) -> str:
        locale, facing = place
        return self.name(locale) if facing is None else self.board.approach_name(locale, facing)
