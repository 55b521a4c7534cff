"""Reading a Marengo-family order text: its frame, and the nouns every order is made of.

Both games write orders the same way (docs/orders.md, docs/triomphe-orders.md):
a header (GAME, SIDE, TURN, KEY), then one order a line (``;`` separates more),
each starting with its word. The nouns are the family's: block ids (the side's
own, in play, fit for the order), locale names (case-insensitive, without
accents, by unique prefix), approaches written ``Locale>Locale``, a place (a
locale's reserve or an approach), and the standing orders' common forms
(``ALL`` or a locale, ``TO`` and locales to retreat into, ``CLEAR [kind]``).

:func:`read_orders` is the frame of a game's ``parse_orders``; :class:`Reader`
reads one order at a time and records every problem, each naming the line and
column, what was found and what was expected. A game's parser subclasses it
with an ``order_<word>`` method for each of its order words and a
``standing_<kind>`` for each kind of standing order, and sets the few words
that differ between the rule books (a *day* in one, a *turn* in the other).
"""

from __future__ import annotations

import difflib
import re
from functools import cached_property
from typing import NoReturn

from pbem.core.orders import (
    ARROW, GT, HEADER_ALIASES, HEADER_KEYS, Abort, Lexicon, OrderReader, OrdersError, Problem, Token, check_size,
    parse_header, problem, suggestion, tokenize,
)
from pbem.lang import Text, say, say_plural

from .board import fold
from .clock import Clock, hour_label, parse_hour
from .orders import Orders, Standing
from .sides import SIDES

PLACE = "a locale (by name) or an approach (like Marengo>Spinetta)"
MAX_PROBLEMS = 100  # a reply listing more helps nobody


_CYRILLIC = dict(zip("абвгдеёжзийклмнопрстуфхцчшщъыьэюяіїєґ",
                     ["a", "b", "v", "g", "d", "e", "e", "zh", "z", "i", "i", "c", "l", "m", "n", "o", "p", "r",
                      "s", "t", "u", "f", "h", "z", "c", "sc", "sc", "", "i", "", "e", "iu", "ia", "i", "i", "ie",
                      "g"]))


def latin(key: str) -> str:
    """A folded Cyrillic name in the Latin letters of an Italian name (Спинетта -> spinetta)."""
    return "".join(_CYRILLIC.get(c, c) for c in key.replace("дж", "g"))


def natural_order(block_id: str):
    """A sort key putting A2 before A10."""
    return [int(p) if p.isdigit() else p for p in re.split(r"(\d+)", block_id)]


def few(items: list[str], limit: int = 6) -> str:
    """The first ``limit`` items, with ``...`` when there are more."""
    if not items:
        return ""
    shown = ", ".join(items[:limit])
    return shown + (", ..." if len(items) > limit else "")


def read_orders(parser_class, scenario, state, side: str, text: str, finish=None) -> Orders:
    """``side``'s orders for the turn after ``state``, read by ``parser_class`` (a :class:`Reader`);
    ``finish(parser, orders, problems)`` may add what only the whole text shows. Raises
    OrdersError listing every problem (sorted, at most MAX_PROBLEMS)."""
    side = str(side).lower()
    text = text if isinstance(text, str) else str(text)
    too_long = check_size(text)
    if too_long:
        raise OrdersError([too_long])
    if side not in SIDES:
        raise OrdersError([problem(1, 1, say("there is no side called %(side)s in this game", side=repr(side)),
                                   side, " or ".join(SIDES))])
    problems: list[Problem] = []
    tokenized: dict[int, list[list[Token]]] = {}
    lexicon = parser_class.LEXICON
    header, body = parse_header(text, problems, tokenized, lexicon)
    parser = parser_class(scenario, state, side, problems)
    if header.line:
        parser.check_header(header, header.tokens)
    orders = Orders(side=side, header=header)
    for number, line in body:
        for tokens in (tokenized[number] if number in tokenized else tokenize(line, lexicon)):
            parser.read(number, tokens, orders)
    if finish is not None:
        finish(parser, orders, problems)
    if problems:
        problems.sort(key=lambda p: (p.line, p.column))
        if len(problems) > MAX_PROBLEMS:
            rest = len(problems) - MAX_PROBLEMS
            problems[:] = problems[:MAX_PROBLEMS] + [problem(
                problems[MAX_PROBLEMS].line, problems[MAX_PROBLEMS].column,
                say_plural("%(num)d more problem not listed", "%(num)d more problems not listed", rest))]
        raise OrdersError(problems)
    return orders


class Reader(OrderReader):
    """Reads the orders of one side, one at a time, recording every problem."""

    ORDER_WORDS: tuple[str, ...] = ()  # the game's order words (STANDING and FINAL among them)
    ALIASES: dict[str, str] = {}  # another spelling -> the order word (REORGANIZE -> REORGANISE)
    NATIVE: dict[str, str] = {}  # a word of another language, folded -> the English word (DÉPLACER -> MOVE)
    SIDES_NATIVE: dict[str, str] = {}  # a side as another language names it, folded -> the side
    NAMES_NATIVE: dict[str, str] = {}  # a place as another language spells it, folded -> the map's, folded
    LEXICON: Lexicon | None = None  # every language's words and names, to cut Chinese written without spaces
    STANDING_WORDS: tuple[str, ...] = ()  # the game's kinds of standing order, in upper case
    TURN = "day"  # what the rule book calls one side's turn
    WHOSE = "{side}'s {turn} at {hour}"  # the turn to play, as a wrong TURN in the header is told
    IDS_SHOWN = 6  # block ids listed at most in what a problem expects
    ONE_STEP = say("a MOVE goes one step (for a march along a road: ROAD)")  # why a step is not to a neighbour
    STEPS = say("a block may go")  # who goes in one step, as the problems say it
    AFTER_ROAD = say("IF BLOCKED, THEN EXTEND or the end of the order")  # what may follow a road march's path

    def __init__(self, scenario, state, side: str, problems: list[Problem]):
        super().__init__(problems)
        self.scenario = scenario
        self.board = scenario.board
        self.state = state
        self.side = side
        self.hour = scenario.hour(state.day)
        self.day_side = scenario.side_of_day(state.day)
        self.span = ""  # the words of the last locale read

    @cached_property
    def own(self) -> dict:
        """The side's blocks by their ids in upper case (as tokens' words are)."""
        return {b.id.upper(): b for b in self.state.blocks.values() if b.side == self.side}

    def own_block(self, word: str):
        """The side's block whose id is ``word`` (upper case), or None."""
        block = self.state.blocks.get(word)  # ids are usually written in upper case already
        if block is not None and block.side == self.side:
            return block
        return self.own.get(word)

    # -- one order

    def read(self, line: int, tokens: list[Token], orders: Orders) -> None:
        """Read the order in ``tokens`` (line ``line``) into ``orders``, or note its problems."""
        if self.NATIVE:
            tokens = self.in_english(tokens)
        self.start(line, tokens)
        first = tokens[0]
        word = first.word
        try:
            if word in HEADER_ALIASES:
                self.fail(first, say("the header (%(keys)s) must be the first line", keys=" ".join(HEADER_KEYS)),
                          None, say("an order"))
            if word not in self.ORDER_WORDS:
                self.fail(first, say("%(word)s is not an order%(hint)s", word=repr(first.text),
                                     hint=suggestion(word, self.ORDER_WORDS)), None,
                          say("one of %(words)s", words=", ".join(w for w in self.ORDER_WORDS if w not in self.ALIASES)))
            if word != "STANDING" and self.side != self.day_side:
                self.fail(first, say("it is %(whose)s (%(hour)s): only STANDING orders can be given now",
                                     whose=self.whose_turn(), hour=Clock(self.hour)), None, say("STANDING ..."))
            self.take()
            if word == "FINAL":
                self.done("nothing after FINAL")
                orders.final = True
                return
            if word == "STANDING":
                order = self.standing()
                order.line, order.column = line, first.column
                orders.standing.append(order)
                return
            before = len(self.problems)
            order = getattr(self, "order_" + self.ALIASES.get(word, word).lower())()
            if len(self.problems) == before:
                order.line, order.column = line, first.column
                orders.orders.append(order)
        except Abort:
            return

    def in_english(self, tokens: list[Token]) -> list[Token]:
        """``tokens`` with each word of another language read as its English word (its text kept, for
        the columns and the names); the order is then read, and logged, as if written in English."""
        out = []
        for t in tokens:
            word = self.NATIVE.get(fold(t.text)) if t.word not in self.english_words else None
            out.append(t._replace(word=word) if word else t)
        return out

    @cached_property
    def english_words(self) -> frozenset[str]:
        """The English words, which are never read as another language's."""
        return frozenset(self.NATIVE.values())

    # -- the header

    def check_header(self, header, tokens: list[Token]) -> None:
        """SIDE must be the side sending, TURN the hour of the turn to play."""
        line = header.line
        columns = {HEADER_ALIASES.get(t.word, t.word): t.column for t in reversed(tokens)}
        if header.side is not None:
            named = self._side_named(header.side)
            if named is None:
                self.note_at(line, columns.get("SIDE", 1), say("%(side)s is not a side of this game",
                                                               side=repr(header.side)),
                             header.side, say(self.side.capitalize()))
            elif named != self.side:
                self.note_at(line, columns.get("SIDE", 1),
                             say("these orders are headed for %(named)s but were sent as %(side)s's",
                                 named=say(named.capitalize()), side=say(self.side.capitalize())),
                             header.side, say(self.side.capitalize()))
        if header.turn is not None:
            column = columns.get("TURN", 1)
            try:
                hour = parse_hour(header.turn)
            except ValueError:
                self.note_at(line, column, say("TURN must be an hour, like 7AM or 1PM"), header.turn,
                             say("%(hour)s (the hour of the day to play)", hour=Clock(self.hour))
                             if self.TURN == "day" else
                             say("%(hour)s (the hour of the turn to play)", hour=Clock(self.hour)))
            else:
                if hour != self.hour:
                    whose = self.WHOSE.format(side=self.day_side.capitalize(), turn=self.TURN,
                                              hour=hour_label(self.hour))
                    english = f"these orders are for {hour_label(hour)}, but the {self.TURN} to play is {whose}"
                    said = say("these orders are for %(hour)s, but the one to play is %(whose)s at %(at)s",
                               hour=Clock(hour), whose=self.whose_turn(), at=Clock(self.hour))
                    self.problems.append(Problem(line, column, english, header.turn, hour_label(self.hour), said=said,
                                                 expected_said=Clock(self.hour)))

    @classmethod
    def _side_named(cls, text: str) -> str | None:
        key = fold(text)
        forms = {"austria": "austria", "austrian": "austria", "austrians": "austria",
                 "france": "france", "french": "france"}
        forms.update(cls.SIDES_NATIVE)
        if key in forms:
            return forms[key]
        found = {side for form, side in forms.items() if key and form.startswith(key)}
        return found.pop() if len(found) == 1 else None

    def name(self, locale: str) -> str:
        return self.board.locales[locale].name

    def whose_turn(self):
        """"Austria's day", "France's turn": the side to play, as the family's catalog says it."""
        return {("austria", "day"): say("Austria's day"), ("france", "day"): say("France's day"),
                ("austria", "turn"): say("Austria's turn"), ("france", "turn"): say("France's turn")}[self.day_side,
                                                                                                    self.TURN]

    # -- blocks

    def ids_list(self, blocks) -> str:
        return few(sorted((b.id for b in blocks), key=natural_order), self.IDS_SHOWN)

    def waiting(self, need: str) -> bool:
        """Does ``need`` ask for a block still off the map?"""
        return need in ("enter", "waiting")

    def block(self, token: Token, need: str = "map") -> str | None:
        """The id of the side's block written ``token``, or None (a problem is noted).

        ``need``: "map" (on the map), "enter" or "waiting" (off the map), "any" (not
        eliminated), or what a game adds; :meth:`fits` checks the block against it.
        """
        block = self.own_block(token.word)
        if block is None:
            if self.waiting(need):
                choices = [b for b in self.own.values() if b.status == "waiting"]
            elif need == "any":
                choices = [b for b in self.own.values() if b.status != "eliminated"]
            else:
                choices = [b for b in self.own.values() if b.on_map]
            shown = self.ids_list(choices or self.own.values())
            self.note(token, say("no block of yours called %(block)s", block=token.text), None,
                      say("one of your block ids (%(ids)s)", ids=shown) if shown else say("one of your block ids"))
            return None
        if block.status == "eliminated":
            self.note(token, say("%(block)s has been eliminated", block=block.id), None, say("a block still in play"))
            return None
        return block.id if self.fits(token, block, need) else None

    def fits(self, token: Token, block, need: str) -> bool:
        """Is ``block`` (in play) fit for ``need``? If not, note why (the game's words)."""
        return True

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
                self.note(token, say("%(block)s is named twice", block=bid), None, say("each block once"))
                bid = None
            elif bid is not None:
                seen.add(bid)
            out.append((token, bid))
        return out

    @staticmethod
    def known(pairs: list[tuple[Token, str | None]]) -> list[str]:
        return [bid for _token, bid in pairs if bid is not None]

    def _ids_expected(self, need: str) -> str:
        if self.waiting(need):
            blocks = [b for b in self.own.values() if b.status == "waiting"]
        else:
            blocks = [b for b in self.own.values() if b.on_map]
        shown = self.ids_list(blocks)
        return say("one of your block ids (%(ids)s)", ids=shown) if shown else say("one of your block ids")

    def kind(self, bid: str) -> str:
        return self.state.blocks[bid].type

    def need_type(self, token: Token, bid: str | None, btype: str, what: str | Text) -> None:
        if bid is not None and self.kind(bid) != btype:
            self.note(token, say("%(block)s is %(kind)s; %(what)s", block=bid, kind=say(self.kind(bid)), what=what),
                      None, {"artillery": say("an artillery block"), "cavalry": say("a cavalry block"),
                             "infantry": say("an infantry block")}.get(btype, f"a {btype} block"))

    def where(self, block) -> tuple[str | None, str | None]:
        """Where ``block`` stands when the orders start to be carried out."""
        return (block.locale, block.facing)

    def stands(self, token: Token, bid: str | None, locale: str, facing: str | None) -> None:
        """Note a problem unless ``bid`` stands at (locale, facing) when the orders start."""
        if bid is None:
            return
        here = self.where(self.state.blocks[bid])
        if here == (locale, facing):
            return
        self.note(token, say("%(block)s is not %(place)s: it is %(here)s", block=bid,
                             place=self.place_words(locale, facing), here=self.place_words(*here)),
                  None, say("a block %(place)s", place=self.place_words(locale, facing)))

    def place_words(self, locale: str | None, facing: str | None) -> Text:
        if locale is None:
            return say("off the map")
        if facing is None:
            return say("in the reserve of %(place)s", place=self.name(locale))
        return say("on the approach %(approach)s", approach=self.board.approach_name(locale, facing))

    # -- places

    def match(self, key: str) -> tuple[str | None, tuple[str, ...]]:
        """(id, ()) for a folded name naming one locale; (None, candidates) otherwise. A name in
        another language's spelling (Маренго, 马伦哥) reads as the map's; other Cyrillic names are
        read in Latin transliteration (Спинетта as Spinetta)."""
        if not key:
            return None, ()
        if key.isascii() or not self.NAMES_NATIVE:
            return self.board.name_match(key)
        if key in self.NAMES_NATIVE:
            return self.board.name_match(self.NAMES_NATIVE[key])
        starting = {self.NAMES_NATIVE[alias] for alias in self.NAMES_NATIVE if alias.startswith(key)}
        found: list[str] = []
        for name in sorted(starting):
            lid, candidates = self.board.name_match(name)
            found += [lid] if lid else list(candidates)
        if found:
            return None, tuple(dict.fromkeys(found))
        return self.board.name_match(latin(key))

    def close_name(self, text: str) -> str:
        """`` (did you mean X?)`` for the locale name closest to ``text``, or ``""``."""
        names = {fold(loc.name): loc.name for loc in self.board.locales.values()}
        close = difflib.get_close_matches(fold(text), list(names), n=1, cutoff=0.6)
        return say(" (did you mean %(word)s?)", word=names[close[0]]) if close else ""

    def locale_problem(self, first: Token, text: str, candidates: tuple[str, ...] | list[str]) -> NoReturn:
        if candidates:
            names = ", ".join(self.name(lid) for lid in candidates[:6])
            if len(candidates) > 6:
                names = say("%(names)s and %(num)d more", names=names, num=len(candidates) - 6)
            self.fail(first, say("%(name)s could be any of: %(names)s", name=repr(text), names=names), text,
                      say("more of the name"))
        self.fail(first, say("no locale is called %(name)s%(hint)s", name=repr(text), hint=self.close_name(text)), text,
                  say("a locale of the map, by name"))

    def locale(self, stops: tuple[str, ...] = (), expected: str | Text = "a locale") -> str:
        """The locale named by the longest run of words from here (exactly, or by unique prefix);
        ``expected`` an English text of the catalog, or a Text."""
        first = self.peek()
        if not self.is_word(first, stops):
            self.missing(expected if isinstance(expected, Text) else say(expected), stops)
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
                self.fail(after or self.end_column(), say("the place the blocks start from is missing"),
                          after.text if after else "", say(PLACE))
        self.locale_problem(tail[0], " ".join(t.text for t in tail), candidates)

    def approach(self, stops: tuple[str, ...] = (), locale: str | None = None,
                 first: Token | None = None) -> tuple[str, str]:
        """An approach ``Locale>Locale`` from here (or after ``locale``, already read from ``first``)."""
        first = first or self.peek()
        if locale is None:
            locale = self.locale(stops + (GT,), "an approach (like Marengo>Spinetta)")
        if not self.at_sign(GT):
            self.missing(say("'>' and the locale the approach faces (like %(place)s>%(next)s)",
                             place=self.name(locale), next=self._a_neighbour(locale)))
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
        why = say("the border is impassable") if frozenset((locale, toward)) in self.board.impassable else \
            say("they are the same locale") if locale == toward else say("they are not adjacent")
        self.fail(token, say("%(place)s has no approach toward %(toward)s (%(why)s)", place=self.name(locale),
                             toward=self.name(toward), why=why),
                  f"{self.name(locale)}>{self.name(toward)}",
                  say("an approach of %(place)s toward one of: %(near)s", place=self.name(locale), near=near))

    def place(self, stops: tuple[str, ...] = (), expected: str = PLACE) -> tuple[str, str | None]:
        """A place from here: a locale (its reserve), or an approach ``Locale>Locale``."""
        first = self.peek()
        locale = self.locale(stops, expected)
        if self.at_sign(GT):
            _, facing = self.approach(stops, locale, first)
            return locale, facing
        return locale, None

    def ids_then_place(self, order_word: str, need: str = "map") -> tuple[list[tuple[Token, str | None]],
                                                                          tuple[str, str | None]]:
        """``ids place`` before ``->``: the blocks, then (locale, facing)."""
        words = self.words()
        if not words:
            self.missing(say("your block ids after %(word)s, then where they start", word=order_word))
        k, locale = self.locale_before(words)
        if k == 0:
            self.fail(words[0], say("no blocks are named before the place %(place)s", place=self.name(locale)),
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

    def check_step(self, token: Token, frm: tuple[str, str | None], to: tuple[str, str | None]) -> None:
        """One step (003 §8, 000 §7): from a reserve into an adjacent locale or onto one of its own
        approaches; from an approach back to its reserve or into the locale it faces."""
        (a, fa), (b, fb) = frm, to
        name = self.name
        if fa is None:
            if fb is None and b != a and self.board.is_adjacent(a, b):
                return
            if fb is not None and b == a:
                return
            if fb is None and b == a:
                self.fail(token, say("the blocks are already in the reserve of %(place)s", place=name(a)), None,
                          say("an adjacent locale or an approach of %(place)s", place=name(a)))
            if fb is None:
                near = ", ".join(name(x) for x in self.board.adjacent(a))
                why = say("the border between them is impassable") if frozenset((a, b)) in self.board.impassable \
                    else self.ONE_STEP
                self.fail(token, say("%(place)s is not next to %(from)s: %(why)s", place=name(b), why=why,
                                     **{"from": name(a)}), None,
                          say("a locale next to %(place)s (%(near)s) or an approach %(place)s>...", place=name(a),
                              near=near))
            self.fail(token, say("from the reserve of %(place)s %(steps)s to an adjacent locale or to an approach "
                                 "of %(place)s", place=name(a), steps=self.STEPS), self.place_text(to),
                      say("an adjacent locale or an approach %(place)s>...", place=name(a)))
        if fb is None and b in (a, fa):
            return
        self.fail(token, say("from the approach %(approach)s %(steps)s to the reserve of %(place)s or into %(toward)s",
                             approach=self.board.approach_name(a, fa), steps=self.STEPS, place=name(a),
                             toward=name(fa)),
                  self.place_text(to), say("%(place)s or %(toward)s", place=name(a), toward=name(fa)))

    def road_steps(self, start: str, limit: int, too_far: str | Text) -> list[str]:
        """The locales of ``-> locale -> ...`` from ``start``, each joined by road to the one before,
        at most ``limit`` of them (else ``too_far``)."""
        path = [start]
        while self.at_sign(ARROW):
            self.take()
            step = self.peek()
            here = self.locale(("IF", "THEN"), "the next locale along the road")
            near = [n for n, _road in self.board.road_neighbours(path[-1])]
            if here not in near:
                names = ", ".join(sorted({self.name(n) for n in near})) or "none"
                self.fail(step, say("no road runs from %(place)s to %(toward)s", place=self.name(path[-1]),
                                    toward=self.name(here)), self.span,
                          say("a locale joined to it by road (%(names)s)", names=names))
            path.append(here)
            if len(path) - 1 > limit:
                self.fail(step, too_far, self.span, self.AFTER_ROAD)
        return path[1:]

    # -- standing orders: STANDING <kind> ...

    def standing(self) -> Standing:
        token = self.peek()
        if token is None or token.word not in self.STANDING_WORDS:
            self.missing(say("one of %(words)s", words=", ".join(self.STANDING_WORDS)), self.STANDING_WORDS)
        self.take()
        before = len(self.problems)
        order = getattr(self, "standing_" + token.word.lower())()
        if len(self.problems) != before:
            raise Abort
        self.done(say("the end of the order"))
        return order

    def _value(self, words: tuple[str, ...]) -> str:
        return self.expect(words, say("%(words)s or %(last)s", words=", ".join(words[:-1]), last=words[-1])).word

    def _standing_blocks(self, stops: tuple[str, ...] = ()) -> list[str]:
        return self.known(self.blocks(stops, "any"))

    def _locale_or_all(self, stops: tuple[str, ...]) -> str | None:
        if self.at("ALL"):
            self.take()
            return None
        return self.locale(stops, "a locale or ALL")

    def _where(self, locale: str | None) -> str:
        return "ALL" if locale is None else self.name(locale)

    def standing_value(self, kind: str, words: tuple[str, ...]) -> Standing:
        """``STANDING <KIND> <one of words>``."""
        value = self._value(words)
        return Standing(text=f"STANDING {kind.upper()} {value}", kind=kind, value=value)

    def standing_retreat(self) -> Standing:
        """``STANDING RETREAT <locale>|ALL TO <locale>...``: where to retreat, best first."""
        locale = self._locale_or_all(("TO",))
        self.expect(("TO",), say("TO and the locales to retreat into, best first"))
        places: list[str] = []
        if self.peek() is None:
            self.missing(say("a locale to retreat into"))
        while self.peek() is not None:
            token = self.peek()
            place = self.locale((), "a locale to retreat into")
            if place in places:
                self.note(token, say("%(place)s is named twice", place=self.name(place)), self.span,
                          say("each locale once"))
            elif locale is not None and not self.board.is_adjacent(locale, place):
                near = ", ".join(self.name(x) for x in self.board.adjacent(locale))
                self.note(token, say("%(place)s does not border %(toward)s", place=self.name(place),
                                     toward=self.name(locale)), self.span,
                          say("a locale next to it: %(near)s", near=near))
            else:
                places.append(place)
        text = f"STANDING RETREAT {self._where(locale)} TO " + " ".join(self.name(p) for p in places)
        return Standing(text=text, kind="retreat", locale=locale, places=tuple(places))

    def standing_clear(self) -> Standing:
        """``STANDING CLEAR [kind]``: forget every standing order, or those of one kind."""
        kinds = tuple(w for w in self.STANDING_WORDS if w != "CLEAR")
        if self.peek() is None:
            return Standing(text="STANDING CLEAR", kind="clear")
        value = self._value(kinds)
        return Standing(text=f"STANDING CLEAR {value}", kind="clear", value=value.lower())
