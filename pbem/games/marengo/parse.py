"""The order language of Bonaparte at Marengo: text in, Orders out.

``parse_orders(scenario, state, side, text)`` reads a side's orders for the
next day and returns :class:`~pbem.games.marengo.orders.Orders`, or raises
:class:`~pbem.core.orders.OrdersError` listing every problem found, each with
its line, column, what was found and what was expected. docs/orders.md
teaches the language to players.

The checks here are the static ones, against the position at the start of
the day: the blocks are the side's own and stand where the orders say, the
places exist and touch, the roads run, the day is the side's. Whether a move
is legal once the day is under way (the command limit, blocked approaches,
capacity) is the rules engine's question.

The words every order is made of (block ids, locale names, approaches) are
read by :class:`~pbem.games.marengo.reader.Reader`; here is one method per
order (``order_move`` for MOVE...) and per standing order (``standing_block``
for STANDING BLOCK...).

Every accepted order carries its normalised text: keywords in upper case,
locale names as on the map, approaches as ``Name>Name``, block ids as in the
scenario. Parsing :meth:`Orders.echo` gives the same orders back.
"""

from __future__ import annotations

import copy

from pbem.core.orders import ARROW, GT, Token
from pbem.lang import Text, say
from pbem.games.simmons.reader import read_orders

from pbem.games.simmons.board import fold
from .checks import check_day
from .orders import (
    Activate, Assault, Bombard, Enter, Extend, Fire, Move, Orders, RoadMove, Standing,
    STANDING_KINDS,
)
from .reader import Reader, natural_order
from .scenario import Scenario
from .state import State
from .words import NAMES_NATIVE, NATIVE, SIDES_NATIVE, WORDS

ORDER_WORDS = ("ACTIVATE", "ASSAULT", "MOVE", "ROAD", "EXTEND", "ENTER", "BOMBARD", "FIRE", "HOLD",
               "STANDING", "FINAL")
STANDING_WORDS = tuple(k.upper() for k in STANDING_KINDS)
ROAD_STEPS = 3  # locales a road move passes after its start (003 §8)
ENTRY_STEPS = 3  # locales after the entry locale (the engine's reading of 003 §8)
ROAD_ENTRIES = 3  # blocks that may enter by one road entry point in a day


def parse_orders(scenario: Scenario, state: State, side: str, text: str, checks: bool = True) -> Orders:
    """``side``'s orders for the day after ``state``; raises OrdersError listing every problem.

    With ``checks`` (always, but in adjudication cases that test the engine behind
    them), the day is also checked as it will play (checks.py): an order the start
    of the day already dooms is a problem, one that depends on the enemy a warning."""

    def the_day(parser, orders, problems):
        if checks and not problems and parser.side == parser.day_side:
            orders.as_read = _as_read(orders)  # the check edits assaults written without WITH: the day reads them so
            problems.extend(check_day(scenario, state, orders))  # the day as it will play (checks.py)

    return read_orders(_Parser, scenario, state, side, text, the_day)


def _as_read(orders: Orders) -> Orders:
    """``orders`` as read, before the day's check edits them (check_day changes only an assault's text
    and blocks and the warnings): what ``parse_orders(..., checks=False)`` returns for the same text and
    position, kept beside the checked orders for the day to resolve (Marengo.day_orders)."""
    return Orders(orders.side, header=orders.header, standing=orders.standing, final=orders.final,
                  orders=[copy.copy(o) if isinstance(o, Assault) else o for o in orders.orders],
                  warnings=list(orders.warnings), warnings_said=list(orders.warnings_said))


class _Parser(Reader):
    """Reads each order of a side's day (and its standing orders) into an Orders."""

    ORDER_WORDS = ORDER_WORDS
    STANDING_WORDS = STANDING_WORDS
    NATIVE, SIDES_NATIVE, NAMES_NATIVE = NATIVE, SIDES_NATIVE, NAMES_NATIVE  # every language's words (words.toml)
    LEXICON = WORDS.lexicon  # the same, to cut Chinese written without spaces

    # -- IF BLOCKED, THEN EXTEND ---------------------------------------------------

    def if_blocked(self, ids: list[str] | None = None) -> tuple[str | None, tuple[str, ...], str]:
        """``IF BLOCKED STAY|ADVANCE [ids]``; ids only when ``ids`` (the group) is given."""
        if not self.at("IF"):
            return None, (), ""
        self.take()
        self.expect(("BLOCKED",), say("BLOCKED (IF BLOCKED STAY or IF BLOCKED ADVANCE)"))
        choice = self.expect(("STAY", "ADVANCE"), say("STAY or ADVANCE")).word
        advance: list[str] = []
        if choice == "ADVANCE" and ids is not None:
            for token, bid in self.resolve(self.take_words(("THEN",))):
                if bid is not None and bid not in ids:
                    self.note(token, say("%(block)s is not one of the blocks of this move", block=bid), None,
                              say("one of %(words)s", words=", ".join(x for x in ids if x)))
                elif bid is not None:
                    advance.append(bid)
        text = f" IF BLOCKED {choice}" + "".join(f" {b}" for b in advance)
        return choice.lower(), tuple(advance), text

    def then_extend(self, where: str, ids: list[str | None]) -> tuple[str | None, str]:
        """``THEN EXTEND Locale>Locale`` for a group ending in the reserve of ``where``."""
        if not self.at("THEN"):
            return None, ""
        self.take()
        self.expect(("EXTEND",), say("EXTEND (THEN EXTEND Locale>Locale)"))
        token = self.extend_at = self.peek()
        locale, toward = self.approach()
        if locale != where:
            self.note(token, say("the extension must block an approach of %(place)s, where the move ends",
                                 place=self.name(where)), self.board.approach_name(locale, toward),
                      say("an approach %(place)s>...", place=self.name(where)))
        known = [bid for bid in ids if bid is not None]
        if known and not any(self.kind(bid) == "cavalry" for bid in known):
            self.note(token, say("only cavalry extends its move, and none of these blocks is cavalry"),
                      self.name(locale) + ">" + self.name(toward), say("a move with at least one cavalry block"))
        return toward, f" THEN EXTEND {self.board.approach_name(locale, toward)}"

    # -- the orders ------------------------------------------------------------------

    def order_activate(self) -> Activate:
        first = self.tokens[0]
        if self.side != "france":
            self.fail(first, say("only the French activate blocks"), None, say("another order"))
        tokens = self.take_words()
        if not tokens:
            self.missing(self._inactive_expected())
        ids = []
        for token, bid in self.resolve(tokens):
            if bid is not None and self.state.blocks[bid].activated:
                self.note(token, say("%(block)s is already active", block=bid), None,
                          say("a French start block not yet activated"))
            elif bid is not None:
                ids.append(bid)
        self.done(say("block ids only"))
        return Activate(text="ACTIVATE " + " ".join(ids), blocks=tuple(ids))

    def _inactive_expected(self) -> Text:
        shown = self.ids_list([b for b in self.own.values() if b.on_map and not b.activated])
        return say("the ids of blocks to activate (%(ids)s)", ids=shown) if shown else \
            say("the ids of blocks to activate")

    def order_move(self) -> Move:
        ids, frm = self.ids_then_place("MOVE")
        blocks = [bid for _t, bid in ids]
        for token, bid in ids:
            self.stands(token, bid, *frm)
            self.moving(bid, token)
        self.expect_sign(ARROW, say("'->' and where the blocks go"))
        to_token = self.peek()
        locale = self.locale(("IF", "THEN"), say("where the blocks go: %(place)s",
                                                 place=say("a locale (by name) or an approach (like Marengo>Spinetta)")))
        facing = None
        if self.at_sign(GT):
            _, facing = self.approach(("IF", "THEN"), locale, to_token)
        to = (locale, facing)
        if self.at_sign(ARROW):
            self.fail(self.peek(), say("a MOVE goes one step (into the next locale, or to or from an approach)"),
                      None, say("IF BLOCKED, THEN EXTEND or the end of the order (for a longer march: ROAD)"))
        self.check_step(to_token, frm, to)
        choice, advance, blocked_text = self.if_blocked(blocks)
        if choice is not None and (to[1] is not None or to[0] == frm[0]):
            self.note(to_token, say("IF BLOCKED is for a move into the next locale"), None,
                      say("a move into an adjacent locale's reserve"))
        extend, extend_text = self.then_extend(to[0], blocks)
        if extend is not None and to[1] is not None:
            self.note(to_token, say("THEN EXTEND is for a move that ends in a reserve"), None,
                      say("a move into a locale's reserve"))
        self.done(say("IF BLOCKED STAY|ADVANCE, THEN EXTEND Locale>Locale or the end of the order"))
        ok = [b for b in blocks if b]
        text = (f"MOVE {' '.join(ok)} {self.place_text(frm)} -> {self.place_text(to)}"
                f"{blocked_text}{extend_text}")
        return Move(text=text, blocks=tuple(ok), frm=frm, to=to, if_blocked=choice, advance=advance,
                    extend=extend)

    def order_road(self) -> RoadMove:
        ids, frm = self.ids_then_place("ROAD")
        token, bid = ids[0]
        if len(ids) > 1:
            self.note(ids[1][0], say("a road move is one block: write one ROAD line for each"), None,
                      say("'->' after ROAD %(block)s %(place)s", block=token.text, place=self.name(frm[0])))
        if frm[1] is not None:
            self.fail(token, say("a road move starts in a reserve"), self.place_text(frm),
                      say("a locale (ROAD %(block)s %(place)s -> ...)", block=token.text, place=self.name(frm[0])))
        self.stands(token, bid, *frm)
        self.moving(bid, token)
        if not self.at_sign(ARROW):
            self.missing(say("'->' and the next locale along the road"))
        path = [frm[0]] + self.road_steps(frm[0], ROAD_STEPS,
                                          say("a road move passes at most %(num)d locales after its start", num=ROAD_STEPS))
        choice, _adv, blocked_text = self.if_blocked()
        extend, extend_text = self.then_extend(path[-1], [bid])
        if extend is not None and not self.board.roads_across(path[-1], extend):
            self.note(self.extend_at, say("no road crosses %(approach)s; after a road move a block extends only along a road",
                                          approach=self.board.approach_name(path[-1], extend)),
                      self.board.approach_name(path[-1], extend), say("an approach crossed by a road"))
        self.done(say("'->' and the next locale, IF BLOCKED, THEN EXTEND or the end of the order"))
        text = f"ROAD {bid or token.text} " + " -> ".join(self.name(p) for p in path) + blocked_text \
            + extend_text
        return RoadMove(text=text, block=bid or "", path=tuple(path), if_blocked=choice, extend=extend)

    def order_extend(self) -> Extend:
        token = self.peek()
        if not self.is_word(token):
            self.missing(self._ids_expected("map"))
        self.take()
        bid = self.block(token)
        self.need_type(token, bid, "cavalry", say("only cavalry extends"))
        at = self.peek()
        locale, toward = self.approach()
        self.stands(token, bid, locale, None)
        self.moving(bid, token)
        if not any(road.main for road in self.board.roads_across(locale, toward)):
            self.note(at, say("no main road crosses %(approach)s; EXTEND alone is along a main road "
                              "(elsewhere: MOVE %(block)s %(place)s -> %(approach)s)",
                              approach=self.board.approach_name(locale, toward), block=token.text,
                              place=self.name(locale)), self.board.approach_name(locale, toward),
                      say("an approach crossed by a main road"))
        self.done(say("the end of the order"))
        return Extend(text=f"EXTEND {bid} {self.board.approach_name(locale, toward)}", block=bid or "",
                      locale=locale, toward=toward)

    def order_assault(self) -> Assault:
        first = self.peek()
        locale, toward = self.approach(("WITH",))
        clauses = ("WITH", "LEAD", "PURSUE", "NO", "THEN")
        named = self.at("WITH")
        if named:
            self.take()
            pairs = self.blocks(clauses)
            for token, bid in pairs:
                self.stands(token, bid, locale, toward)
                self.moving(bid, token)
            blocks = self.known(pairs)
        else:
            here = self.state.at(locale, toward, self.side)
            blocks = sorted((b.id for b in here), key=natural_order)
            if not blocks:
                self.fail(first, say("none of your blocks stand on %(approach)s",
                                     approach=self.board.approach_name(locale, toward)),
                          None, say("an approach your blocks hold (or WITH and the ids)"))
            for bid in blocks:
                self.moving(bid, first)
        key = (locale, toward)
        if key in self.assaulted:
            self.note(first, say("an assault across %(approach)s is already ordered in line %(line)d; one assault "
                                 "per approach a day", approach=self.board.approach_name(locale, toward),
                                 line=self.assaulted[key]), None, say("one ASSAULT for each approach"))
        self.assaulted.setdefault(key, self.line)
        group = blocks
        leads: list[str] = []
        pursue: list[str] | None = None
        extend: list[tuple[str, str]] = []
        seen: set[str] = set()
        while self.peek() is not None:
            token = self.peek()
            word = token.word
            if word in seen and word != "THEN":
                self.fail(token, say("%(word)s is given twice", word=word), None, say("each of LEAD, PURSUE at most once"))
            if word == "LEAD":
                self.take()
                leads = self._members(clauses, group, "lead")
            elif word == "PURSUE":
                if "NO" in seen:
                    self.fail(token, say("PURSUE after NO PURSUIT"), None, say("one of PURSUE ids or NO PURSUIT"))
                self.take()
                pursue = self._members(clauses, group, "pursue")
            elif word == "NO":
                if "PURSUE" in seen:
                    self.fail(token, say("NO PURSUIT after PURSUE"), None, say("one of PURSUE ids or NO PURSUIT"))
                self.take()
                self.expect(("PURSUIT", "PURSUE"), say("PURSUIT (NO PURSUIT)"))  # 追击: both, in Chinese
                pursue = []
            elif word == "THEN":
                self.take()
                self.expect(("EXTEND",), say("EXTEND (THEN EXTEND id Locale>Locale)"))
                extend.extend(self._assault_extensions(group, toward))
            else:
                self.missing(say("LEAD, PURSUE, NO PURSUIT, THEN EXTEND or the end of the order"),
                             ("LEAD", "PURSUE", "NO", "THEN"))
            seen.add(word)
        for bid in leads:
            if pursue and bid in pursue:
                self.note(first, say("%(block)s leads the assault, so it cannot pursue", block=bid), bid,
                          say("pursuing cavalry that is not a lead block"))
        text = f"ASSAULT {self.board.approach_name(locale, toward)} WITH {' '.join(group)}"
        if leads:
            text += " LEAD " + " ".join(leads)
        if pursue is not None:
            text += (" PURSUE " + " ".join(pursue)) if pursue else " NO PURSUIT"
        for bid, there in extend:
            text += f" THEN EXTEND {bid} {self.board.approach_name(toward, there)}"
        return Assault(text=text, locale=locale, toward=toward, blocks=tuple(group), named=named,
                       leads=tuple(leads),
                       pursue=None if pursue is None else tuple(pursue), extend=tuple(extend))

    def _members(self, stops: tuple[str, ...], group: list[str], role: str) -> list[str]:
        """The blocks named for a role in an assault (lead, pursue): some of its blocks."""
        out = []
        for token, bid in self.blocks(stops):
            if bid is None:
                continue
            if bid not in group:
                self.note(token, (say("%(block)s is not one of the blocks of this assault, so it cannot lead", block=bid)
                                  if role == "lead" else
                                  say("%(block)s is not one of the blocks of this assault, so it cannot pursue",
                                      block=bid)), None,
                          say("one of %(words)s", words=", ".join(group)) if group else
                          say("a block named after WITH"))
            elif role == "pursue" and self.kind(bid) != "cavalry":
                self.note(token, say("%(block)s is %(kind)s; only cavalry pursues", block=bid, kind=say(self.kind(bid))),
                          None, say("a cavalry block"))
            else:
                out.append(bid)
        return out

    def _assault_extensions(self, group: list[str], captured: str) -> list[tuple[str, str]]:
        """``THEN EXTEND <block> <approach> ...``: cavalry of the assault, approaches of the locale taken."""
        out = []
        if not self.is_word(self.peek(), ("THEN", "LEAD", "PURSUE", "NO")):
            self.missing(say("a cavalry block of the assault and an approach of %(place)s (like %(place)s>%(next)s)",
                             place=self.name(captured), next=self._a_neighbour(captured)))
        while self.is_word(self.peek(), ("THEN", "LEAD", "PURSUE", "NO")):
            token = self.take()
            bid = self.block(token)
            if bid is not None and bid not in group:
                self.note(token, say("%(block)s is not one of the blocks of this assault", block=bid), None,
                          say("cavalry named after WITH"))
                bid = None
            self.need_type(token, bid, "cavalry", say("only cavalry extends"))
            at = self.peek()
            locale, toward = self.approach(("THEN", "LEAD", "PURSUE", "NO"))
            if locale != captured:
                self.note(at, say("after the assault the cavalry extends from %(place)s, the locale taken",
                                  place=self.name(captured)), self.board.approach_name(locale, toward),
                          say("an approach %(place)s>...", place=self.name(captured)))
            if bid is not None and any(b == bid for b, _t in out):
                self.note(token, say("%(block)s is named twice", block=bid), None, say("each block once"))
            elif bid is not None:
                out.append((bid, toward))
        return out

    def order_enter(self) -> Enter:
        pairs = self.blocks(("BY", "AT", "IF", "THEN"), "enter")
        first = pairs[0][0]
        by = "road"
        if self.at("BY"):
            self.take()
            by = self.expect(("ROAD", "PONTOON"), say("ROAD or PONTOON")).word.lower()
        entry_token = self.peek()
        entry = None
        if self.at("AT"):
            self.take()
            entry_token = self.peek()
            entry = self.entry(by)
        ok = self.known(pairs)
        if entry is not None:
            where = entry
        else:
            where, entry = self.entry_point(by, ok, entry_token or first)
        for token, bid in pairs:
            self.moving(bid, token)
            allowed = self.state.blocks[bid].entries if bid else []
            if bid and allowed and where not in allowed:
                names = ", ".join(self.board.entries[e].name for e in allowed if e in self.board.entries)
                self.note(token, say("%(block)s may not enter at %(entry)s", block=bid, entry=self.board.entries[where].name),
                          None, say("its entry point: %(names)s", names=names))
        path: list[str] = []
        if by == "pontoon":
            if len(pairs) > 1:
                self.note(pairs[1][0], say("one block a day crosses by the pontoon"), None, say("a single block id"))
            self.pontoon += len(pairs)
            if len(pairs) == 1 and self.pontoon > 1:
                self.note(first, say("one block a day crosses by the pontoon"), None, say("a single ENTER ... BY PONTOON"))
            if self.at_sign(ARROW):
                self.fail(self.peek(), say("a block crossing by the pontoon stops in the entry locale"), None,
                          say("THEN EXTEND or the end of the order"))
        else:
            if len(pairs) > ROAD_ENTRIES:
                self.note(pairs[ROAD_ENTRIES][0], say("at most %(num)d blocks a day enter by one road entry point",
                                                     num=ROAD_ENTRIES), None,
                          say("at most %(num)d block ids", num=ROAD_ENTRIES))
            start = self.board.entries[where].locale
            path = self.road_steps(start, ENTRY_STEPS, say("a block entering passes at most %(num)d locales after "
                                                       "the entry locale %(place)s", num=ENTRY_STEPS,
                                                       place=self.name(start)))
        choice, _adv, blocked_text = self.if_blocked()
        if choice is not None and by == "pontoon":
            self.note(first, say("IF BLOCKED has no use for a block crossing by the pontoon"), None,
                      say("THEN EXTEND or the end of the order"))
        extend, extend_text = self.then_extend(path[-1] if path else self.board.entries[where].locale, ok)
        self.done(say("'->' and a locale, IF BLOCKED, THEN EXTEND or the end of the order"))
        text = f"ENTER {' '.join(ok)} BY {by.upper()}"
        if entry is not None:
            text += f" AT {self.board.entries[entry].name}"
        text += "".join(f" -> {self.name(p)}" for p in path) + blocked_text + extend_text
        return Enter(text=text, blocks=tuple(ok), by=by, entry=entry, path=tuple(path), if_blocked=choice,
                     extend=extend)

    def entries_of(self, by: str) -> list[str]:
        return [e.id for e in self.board.entries.values() if e.side == self.side and e.kind == by]

    def entry(self, by: str) -> str:
        words = self.take_words(("IF", "THEN"))
        choices = self.entries_of(by)
        names = ", ".join(self.board.entries[e].name for e in choices) or "none"
        if not words:
            self.missing(say("the name of one of your road entry points (%(names)s)", names=names) if by == "road"
                         else say("the name of one of your pontoon entry points (%(names)s)", names=names))
        key = fold(" ".join(t.text for t in words))
        found = [e for e in choices if key in (fold(e), fold(self.board.entries[e].name))]
        if not found:
            found = [e for e in choices if fold(e).startswith(key) or fold(self.board.entries[e].name).startswith(key)]
        if len(found) != 1:
            text = " ".join(t.text for t in words)
            self.fail(words[0], say("%(name)s names no single road entry point of yours", name=repr(text)) if by == "road"
                      else say("%(name)s names no single pontoon entry point of yours", name=repr(text)), text,
                      say("one of: %(names)s", names=names))
        return found[0]

    def entry_point(self, by: str, blocks: list[str], token: Token | int) -> tuple[str, str | None]:
        """(the entry point used, the ``entry`` to record) when no AT is written.

        The side's only entry point of that kind (recorded as None); else the
        only one the blocks may all use (recorded, so the echo names it).
        """
        choices = self.entries_of(by)
        if len(choices) == 1:
            return choices[0], None
        if not choices:
            self.fail(token, say("%(side)s has no road entry point", side=say(self.side.capitalize())) if by == "road"
                      else say("%(side)s has no pontoon entry point", side=say(self.side.capitalize())), None,
                      "BY ROAD" if by == "pontoon" else say("another way in"))
        usable = [e for e in choices if all(not self.state.blocks[b].entries or e in self.state.blocks[b].entries
                                            for b in blocks)]
        if len(usable) == 1:
            return usable[0], usable[0]
        names = ", ".join(self.board.entries[e].name for e in (usable or choices))
        self.fail(token, say("%(side)s has %(num)d road entry points; say which with AT", side=say(self.side.capitalize()),
                              num=len(choices)) if by == "road" else
                  say("%(side)s has %(num)d pontoon entry points; say which with AT", side=say(self.side.capitalize()),
                      num=len(choices)), None, say("AT and one of: %(names)s", names=names))

    def order_bombard(self) -> Bombard:
        token = self.peek()
        if not self.is_word(token, ("FROM",)):
            self.missing(say("the id of your artillery block"))
        self.take()
        bid = self.block(token, "bombard")
        self.need_type(token, bid, "artillery", say("only artillery bombards"))
        self._once("BOMBARD", bid, token)
        self.expect(("FROM",), say("FROM and the approach it fires from (FROM Marengo>Spinetta)"))
        locale, toward = self.approach()
        self.done(say("the end of the order"))
        return Bombard(text=f"BOMBARD {bid} FROM {self.board.approach_name(locale, toward)}", block=bid or "",
                       locale=locale, toward=toward)

    def _once(self, word: str, bid: str | None, token: Token) -> None:
        if bid is None:
            return
        if (word, bid) in self.artillery:
            self.note(token, say("%(block)s already has a %(word)s order in line %(line)d", block=bid, word=word,
                                 line=self.artillery[(word, bid)]),
                      None, say("one %(word)s order for each block", word=word))
        self.artillery.setdefault((word, bid), self.line)

    def order_hold(self) -> Fire:
        self.expect(("FIRE",), say("FIRE (HOLD FIRE and your artillery block's id)"))
        return self.order_fire(hold=True)

    def order_fire(self, hold: bool = False) -> Fire:
        token = self.peek()
        if not self.is_word(token, ("AT",)):
            self.missing(say("the id of your artillery block"))
        self.take()
        bid = self.block(token)
        self.need_type(token, bid, "artillery", say("only artillery fires"))
        self._once("FIRE", bid, token)
        declared = self.state.blocks[bid].bombard if bid else None
        if bid is not None and self.kind(bid) == "artillery" and declared is None:
            self.note(token, say("%(block)s declared no bombardment last day", block=bid), None,
                      say("an artillery block with a bombardment declared (BOMBARD ... FROM ...)"))
        target = None
        if not hold and self.at("AT"):
            self.take()
            at = self.peek()
            locale, target = self.approach()
            if declared is not None and locale != declared:
                self.note(at, say("%(block)s fires into %(place)s; the target is an approach of it", block=bid,
                                  place=self.name(declared)),
                          self.board.approach_name(locale, target), say("an approach %(place)s>...", place=self.name(declared)))
        self.done(say("AT and the target approach, or the end of the order") if not hold and target is None
                  else say("the end of the order"))
        if hold:
            return Fire(text=f"HOLD FIRE {bid}", block=bid or "", hold=True)
        text = f"FIRE {bid}" + (f" AT {self.board.approach_name(declared or locale, target)}" if target else "")
        return Fire(text=text, block=bid or "", target=target)

    # -- standing orders ----------------------------------------------------------

    def standing_block(self) -> Standing:
        locale = self._locale_or_all(("ALWAYS", "NEVER", "WITH"))
        value = self._value(("ALWAYS", "NEVER", "WITH"))
        blocks = self._standing_blocks() if value == "WITH" else []
        text = f"STANDING BLOCK {self._where(locale)} {value}" + "".join(f" {b}" for b in blocks)
        return Standing(text=text, kind="block", locale=locale, value=value, blocks=tuple(blocks))

    def standing_lead(self) -> Standing:
        locale, toward = self.approach()
        tokens = self.words(())
        blocks = self._standing_blocks()
        for token in tokens:
            bid = self.own_block(token.word)
            if bid is not None and bid.type == "artillery":
                self.note(token, say("%(block)s is artillery; artillery never leads a defence", block=bid.id), None,
                          say("infantry or cavalry"))
        text = f"STANDING LEAD {self.board.approach_name(locale, toward)} " + " ".join(blocks)
        return Standing(text=text, kind="lead", locale=locale, toward=toward, blocks=tuple(blocks))

    def standing_artillery(self) -> Standing:
        return self.standing_value("artillery", ("DEFEND", "HOLD"))

    def standing_pursue(self) -> Standing:
        return self.standing_value("pursue", ("ALWAYS", "NEVER", "STRONG"))

    def standing_losses(self) -> Standing:
        if self.at("STRONGEST", "WEAKEST"):
            value = self.take().word
            return Standing(text=f"STANDING LOSSES {value}", kind="losses", value=value)
        token = self.peek()
        if token is None:
            self.missing(say("STRONGEST, WEAKEST or your block ids, first to take losses first"))
        blocks = self._standing_blocks()
        return Standing(text="STANDING LOSSES " + " ".join(blocks), kind="losses", blocks=tuple(blocks))

    def standing_inflict(self) -> Standing:
        return self.standing_value("inflict", ("STRONGEST", "WEAKEST"))
