"""The order language of Triomphe à Marengo: text in, Orders out.

``parse_orders(scenario, state, side, text)`` reads a side's orders for its
next turn and returns :class:`~pbem.games.triomphe.orders.Orders`, or raises
:class:`~pbem.core.orders.OrdersError` listing every problem, each with its
line, column, what was found and what was expected. docs/triomphe-orders.md
teaches the language.

The checks here are the static ones, against the position at the start of
the turn after approach recovery (T8): the blocks are the side's own and
stand where the orders say, places exist and touch, roads run, a block takes
part in one action, the turn is the side's. What depends on the turn as it
unfolds is then checked by playing the turn on a copy (checks.py): what the
start and the earlier lines decide (orders left, capacity, a cavalry obstacle)
is refused, what the enemy's answers decide is warned of.
Every accepted order carries its normalised text; parsing the echo gives the
same orders back.
"""

from __future__ import annotations

from pbem.core.orders import ARROW, Token
from pbem.games.simmons.reader import read_orders

from pbem.games.simmons.board import fold
from pbem.lang import say
from .orders import (
    Assault, Attack, Bombard, Continue, Enter, Fire, March, Orders, Reorganise, Return, Road,
)
from .checks import check_turn
from .standing import StandingReader
from .scenario import Scenario
from .state import State
from .words import WORDS

ORDER_WORDS = ("REORGANISE", "REORGANIZE", "MARCH", "ROAD", "ENTER", "ATTACK", "ASSAULT", "BOMBARD", "FIRE",
               "HOLD", "RETURN", "STANDING", "FINAL")
ROAD_STEPS = 3  # 000 §8: up to three crossings
ENTRY_STEPS = 2  # §15: the entry is the first crossing of three
GROUP = 3


def parse_orders(scenario: Scenario, state: State, side: str, text: str, checks: bool = True,
                 context: dict | None = None) -> Orders:
    """``side``'s orders for the turn after ``state``; raises OrdersError listing every problem.

    With ``checks`` (always, but in adjudication cases that test the engine behind them), the turn is
    also checked as it will play (checks.py): an order the start of the turn and the earlier lines
    already doom is a problem, one that depends on the enemy a warning. ``context``: what a case says
    the turn has already used (sequence.resolve_day's)."""

    def the_turn(parser, orders, problems):
        parser.check_reorganisation(orders)
        if checks and not problems and parser.side == parser.day_side:
            problems.extend(check_turn(scenario, state, orders, context))

    return read_orders(_Parser, scenario, state, side, text, the_turn)


class _Parser(StandingReader):
    ORDER_WORDS = ORDER_WORDS
    ALIASES = {"REORGANIZE": "REORGANISE"}
    NATIVE, SIDES_NATIVE, NAMES_NATIVE = WORDS.native, WORDS.sides_native, WORDS.names_native  # words.toml
    LEXICON = WORDS.lexicon  # the same, to cut Chinese written without spaces
    AFTER_ROAD = say("IF BLOCKED, THEN CONTINUE or the end of the order")

    def __init__(self, *args):
        super().__init__(*args)
        self.acting: dict[str, int] = {}  # block -> line of its action
        self.pontoon = 0
        self.returned = 0
        self.organising: dict[str, tuple[int, int]] = {}  # block -> (line, column)

    # -- shared clauses

    def acts(self, bid: str | None, token: Token) -> None:
        """A block takes part in one action a turn (000 §6; reorganisation aside)."""
        if bid is None:
            return
        if bid in self.acting:
            self.note(token, say("%(block)s already acts in line %(line)d; a block takes part in one action a turn",
                                 block=bid, line=self.acting[bid]), None,
                      say("each block in one action (REORGANISE aside)"))
        else:
            self.acting[bid] = self.line

    def group(self, pairs) -> None:
        if len(pairs) > GROUP:
            self.note(pairs[GROUP][0], say("at most %(num)d blocks take part in an action (000 §6)", num=GROUP), None,
                      say("at most %(num)d block ids", num=GROUP))

    def if_blocked(self) -> tuple[str | None, str]:
        if not self.at("IF"):
            return None, ""
        self.take()
        self.expect(("BLOCKED",), say("BLOCKED (IF BLOCKED ADVANCE or IF BLOCKED STAY)"))
        choice = self.expect(("ADVANCE", "STAY"), say("ADVANCE or STAY")).word
        return choice.lower(), f" IF BLOCKED {choice}"

    def then_continue(self, group: list[str], where: str | None, token: Token | int,
                      also: tuple[str, str] | None = None) -> tuple[tuple[Continue, ...], str]:
        """``THEN CONTINUE [ids] Locale>Locale`` (repeatable): cavalry continuation (000 §12)
        onto an approach of ``where``, the locale where the action ends (None: unknown), or
        onto the approach ``also`` (a maneuver attack's own approach, should it be blocked)."""
        out, text = [], ""
        while self.at("THEN"):
            self.take()
            self.expect(("CONTINUE",), say("CONTINUE (THEN CONTINUE Locale>Locale)"))
            ids = []
            while self.peek() is not None and self.peek().word in self.own and \
                    self.board.name_match(fold(self.peek().text))[0] is None:
                at = self.take()
                bid = self.own[at.word].id
                if bid not in group:
                    self.note(at, say("%(block)s is not one of the blocks of this action", block=bid), None,
                              say("cavalry of this action"))
                elif self.kind(bid) != "cavalry":
                    self.note(at, say("%(block)s is %(kind)s; only cavalry continues (000 §12)", block=bid,
                                      kind=say(self.kind(bid))), None, say("a cavalry block"))
                else:
                    ids.append(bid)
            first = self.peek()
            locale, toward = self.approach(("THEN", "IF"))
            if where is not None and locale != where and (locale, toward) != also:
                self.note(first or token, say("the continuation must block an approach of %(place)s, where the action "
                                              "ends", place=self.name(where)), None,
                          f"THEN CONTINUE {self.name(where)}>...")
            known = [b for b in group if b]
            if known and not ids and not any(self.kind(b) == "cavalry" for b in known):
                self.note(first or token, say("only cavalry continues, and none of these blocks is cavalry"), None,
                          say("an action with a cavalry block"))
            out.append(Continue(tuple(ids), toward))
            text += " THEN CONTINUE " + "".join(f"{b} " for b in ids) + f"{self.name(locale)}>{self.name(toward)}"
        return tuple(out), text

    # -- the orders

    def order_reorganise(self) -> Reorganise:
        first = self.tokens[0]
        if self.side != "france":
            self.fail(first, say("only the French reorganise (000 §14)"), None, say("another order"))
        pairs = self.blocks(())
        ids = []
        for token, bid in pairs:
            if bid is None:
                continue
            if not self.state.blocks[bid].disorganised:
                self.note(token, say("%(block)s is not disorganised", block=bid), None, say("a disorganised French block"))
            elif bid in self.organising:
                self.note(token, say("%(block)s is already reorganised in line %(line)d", block=bid,
                                     line=self.organising[bid][0]), None, say("each block once"))
            else:
                self.organising[bid] = (self.line, token.column)
                ids.append(bid)
        if len(pairs) > 2:
            self.note(pairs[2][0], say("a reorganisation organises one or two blocks (000 §14)"), None,
                      say("one or two block ids"))
        elif len(ids) == 2 and self.state.blocks[ids[0]].locale == self.state.blocks[ids[1]].locale:
            self.note(pairs[1][0], say("two blocks reorganised together must be in different locales (000 §14)"), None,
                      say("blocks of two locales, or one REORGANISE for each"))
        self.done(say("block ids only"))
        return Reorganise(text="REORGANISE " + " ".join(ids), blocks=tuple(ids))

    def check_reorganisation(self, orders: Orders) -> None:
        """T39: the turn's REORGANISE orders name every disorganised block of each locale they touch."""
        locales: dict[str, list[str]] = {}
        for bid in self.organising:
            locales.setdefault(self.state.blocks[bid].locale, []).append(bid)
        for locale, named in locales.items():
            rest = [b.id for b in self.state.in_locale(locale, "france") if b.disorganised and b.id not in named]
            if rest:
                line, column = self.organising[named[0]]
                self.note_at(line, column, say("the blocks of a locale are reorganised all in one turn or none (000 §14): "
                                             "%(blocks)s in %(place)s would stay disorganised",
                                             blocks=", ".join(rest), place=self.name(locale)),
                             named[0], say("REORGANISE orders for %(blocks)s too", blocks=", ".join(rest)))

    def order_march(self) -> March:
        pairs, frm = self.ids_then_place("MARCH")
        self.group(pairs)
        for token, bid in pairs:
            self.stands(token, bid, *frm)
            self.acts(bid, token)
        self.expect_sign(ARROW, say("'->' and where the blocks go"))
        to_token = self.peek()
        to = self.place(("THEN",))
        self.check_step(to_token, frm, to)
        ids = self.known(pairs)
        then, then_text = self.then_continue(ids, to[0], to_token)
        if then and to[1] is not None:
            self.note(to_token, say("THEN CONTINUE is for a march that ends in a reserve"), None, say("a reserve"))
        self.done(say("THEN CONTINUE or the end of the order"))
        return March(text=f"MARCH {' '.join(ids)} {self.place_text(frm)} -> {self.place_text(to)}{then_text}",
                     blocks=tuple(ids), frm=frm, to=to, then=then)

    def order_road(self) -> Road:
        pairs, frm = self.ids_then_place("ROAD")
        token, bid = pairs[0]
        if len(pairs) > 1:
            self.note(pairs[1][0], say("a road march moves one block (000 §8): write one ROAD line for each"), None,
                      say("one block id"))
        if frm[1] is not None:
            self.fail(token, say("a road march starts in a reserve (000 §8)"), self.place_text(frm),
                      say("a locale (ROAD %(block)s %(place)s -> ...)", block=token.text, place=self.name(frm[0])))
        self.stands(token, bid, *frm)
        self.acts(bid, token)
        path = [frm[0]] + self.road_steps(frm[0], ROAD_STEPS, say("a road march crosses at most %(num)d times (000 §8)",
                                                                   num=ROAD_STEPS))
        choice, blocked_text = self.if_blocked()
        then, then_text = self.then_continue([bid] if bid else [], path[-1], token)
        if len(path) == 1 and not then:
            self.missing(say("'->' and the next locale along the road"))
        self.done(say("'->' and a locale, IF BLOCKED, THEN CONTINUE or the end of the order"))
        text = f"ROAD {bid} " + " -> ".join(self.name(p) for p in path) + blocked_text + then_text
        return Road(text=text, block=bid or "", path=tuple(path), if_blocked=choice, then=then)

    def order_enter(self) -> Enter:
        pairs = self.blocks(("BY", "AT", "IF", "THEN"), "waiting")
        token, bid = pairs[0]
        if len(pairs) > 1:
            self.note(pairs[1][0], say("a block enters by its own road march (000 §15): one ENTER line for each"),
                      None, say("one block id"))
        self.acts(bid, token)
        by = "road"
        if self.at("BY"):
            self.take()
            by = self.expect(("ROAD", "PONTOON"), say("ROAD or PONTOON")).word.lower()
        block = self.state.blocks[bid] if bid else None
        choices = [e for e in (block.entries if block else ()) if self.board.entries[e].kind == by]
        entry = None
        if self.at("AT"):
            self.take()
            at = self.peek()
            words = self.take_words(("IF", "THEN"))
            key = fold(" ".join(t.text for t in words))
            found = [e for e in choices if key in (fold(e), fold(self.board.entries[e].name))]
            if len(found) != 1:
                names = ", ".join(self.board.entries[e].name for e in choices) or "none"
                self.fail(at or self.end_column(),
                          say("%(name)s is not an entry point of %(block)s by road", name=repr(" ".join(t.text for t in words)),
                              block=bid) if by == "road" else
                          say("%(name)s is not an entry point of %(block)s by pontoon",
                              name=repr(" ".join(t.text for t in words)), block=bid),
                          None, say("one of: %(names)s", names=names))
            entry = found[0]
        if block is not None and not choices:
            self.fail(token, say("%(block)s has no road entry point", block=bid) if by == "road" else
                      say("%(block)s has no pontoon entry point", block=bid), None,
                      "BY ROAD" if by == "pontoon" else say("another way in"))
        where = self.board.entries[entry or choices[0]].locale if block is not None else None
        path: list[str] = []
        if by == "pontoon":
            self.pontoon += 1
            if self.pontoon > 1:
                self.note(token, say("one block a turn crosses by the pontoon (000 §15)"), None,
                          say("one ENTER ... BY PONTOON"))
            if self.at_sign(ARROW):
                self.fail(self.peek(), say("a block crossing by the pontoon stops in the entry locale (000 §15)"), None,
                          say("THEN CONTINUE or the end of the order"))
        elif where is not None:
            path = self.road_steps(where, ENTRY_STEPS, say("an entering block crosses at most %(num)d times after the entry "
                                                           "(000 §15: the entry is the first crossing)", num=ENTRY_STEPS))
        choice, blocked_text = self.if_blocked()
        then, then_text = self.then_continue([bid] if bid else [], (path[-1] if path else where), token)
        self.done(say("'->' and a locale, IF BLOCKED, THEN CONTINUE or the end of the order"))
        text = f"ENTER {bid}" + (" BY PONTOON" if by == "pontoon" else "")
        if entry is not None:
            text += f" AT {self.board.entries[entry].name}"
        text += "".join(f" -> {self.name(p)}" for p in path) + blocked_text + then_text
        return Enter(text=text, block=bid or "", by=by, entry=entry, path=tuple(path), if_blocked=choice, then=then)

    def order_attack(self) -> Attack:
        pairs, frm = self.ids_then_place("ATTACK")
        self.group(pairs)
        for token, bid in pairs:
            self.stands(token, bid, *frm)
            self.acts(bid, token)
        self.expect_sign(ARROW, say("'->' and the locale attacked"))
        to_token = self.peek()
        target = self.locale(("IF", "THEN"), say("the locale attacked"))
        a, fa = frm
        if fa is not None and target != fa:
            self.fail(to_token, say("from the approach %(approach)s an attack goes into %(place)s (000 §9)",
                                   approach=f"{self.name(a)}>{self.name(fa)}", place=self.name(fa)),
                      self.name(target), self.name(fa))
        if not self.board.is_adjacent(a, target):
            near = ", ".join(self.name(x) for x in self.board.adjacent(a))
            self.fail(to_token, say("%(place)s is not next to %(toward)s", place=self.name(target), toward=self.name(a)),
                      self.name(target), say("a locale next to it: %(near)s", near=near))
        choice, blocked_text = self.if_blocked()
        if choice is not None and fa is not None:
            self.note(to_token, say("IF BLOCKED is for an attack from a reserve (from an approach the blocks stay)"),
                      None, say("the end of the order"))
        ids = self.known(pairs)
        then, then_text = self.then_continue(ids, target, to_token, also=(a, target) if fa is None else None)
        self.done(say("IF BLOCKED, THEN CONTINUE or the end of the order"))
        return Attack(text=f"ATTACK {' '.join(ids)} {self.place_text(frm)} -> {self.name(target)}{blocked_text}"
                           f"{then_text}", blocks=tuple(ids), frm=frm, target=target, if_blocked=choice, then=then)

    def order_assault(self) -> Assault:
        first = self.peek()
        locale, toward = self.approach(("WITH", "LEAD", "THEN"))
        ids: list[str] = []
        best = False
        if self.at("WITH") and (self.peek(1) is not None and self.peek(1).word == "BEST"):  # T55: chosen at step 3, after the defender's vanguard
            self.take()
            self.take()
            best = True
            if not any(b.on_map and self.where(b) == (locale, toward) for b in self.own.values()):
                self.fail(first, say("none of your blocks stand on %(approach)s",
                                     approach=f"{self.name(locale)}>{self.name(toward)}"), None,
                          say("an approach your blocks hold"))
        elif self.at("WITH"):
            self.take()
            pairs = self.blocks(("LEAD", "THEN"))
            self.group(pairs)
            for token, bid in pairs:
                self.stands(token, bid, locale, toward)
                self.acts(bid, token)
            ids = self.known(pairs)
        else:
            here = [b for b in self.own.values() if b.on_map and self.where(b) == (locale, toward)]
            if not here:
                self.fail(first, say("none of your blocks stand on %(approach)s",
                                     approach=f"{self.name(locale)}>{self.name(toward)}"), None,
                          say("an approach your blocks hold"))
            if len(here) > GROUP:
                self.fail(first, say("%(count)d of your blocks stand there; name at most %(num)d with WITH", count=len(here),
                                     num=GROUP), None, say("WITH and the block ids"))
            for b in here:
                self.acts(b.id, first)
        lead = None
        lead_text = ""
        if self.at("LEAD"):
            self.take()
            if self.at("BEST"):
                self.take()
                lead_text = " LEAD BEST"
            else:
                lead_pairs = self.blocks(("THEN",))
                lead = []
                for token, bid in lead_pairs:
                    if bid is None:
                        continue
                    if best:
                        self.stands(token, bid, locale, toward)
                    if ids and bid not in ids:
                        self.note(token, say("%(block)s is not one of the blocks of this assault", block=bid), None,
                                  say("one of %(words)s", words=", ".join(ids)))
                    else:
                        lead.append(bid)
                if len(lead) > 2:
                    self.note(lead_pairs[2][0], say("a vanguard is one or two blocks (000 §11)"), None, say("one or two ids"))
                lead = tuple(lead)
                lead_text = " LEAD " + " ".join(lead)
        group = ids or [b.id for b in self.own.values() if b.on_map and self.where(b) == (locale, toward)]
        then, then_text = self.then_continue(group, toward, first)
        self.done(say("LEAD, THEN CONTINUE or the end of the order"))
        text = f"ASSAULT {self.name(locale)}>{self.name(toward)}" + (f" WITH {' '.join(ids)}" if ids else "") \
            + (" WITH BEST" if best else "") + lead_text + then_text
        return Assault(text=text, locale=locale, toward=toward, blocks=tuple(ids), lead=lead, then=then, best=best)

    def order_bombard(self) -> Bombard:
        token = self.peek()
        if not self.is_word(token, ("FROM",)):
            self.missing(say("the id of your artillery block"))
        self.take()
        bid = self.block(token)
        if bid is not None and self.kind(bid) != "artillery":
            self.note(token, say("%(block)s is %(kind)s; only artillery bombards (000 §10)", block=bid,
                                 kind=say(self.kind(bid))), None, say("an artillery block"))
        self.acts(bid, token)
        self.expect(("FROM",), say("FROM and the approach it fires from (FROM Marengo>Spinetta)"))
        locale, toward = self.approach()
        self.stands(token, bid, locale, toward)
        self.done(say("the end of the order"))
        return Bombard(text=f"BOMBARD {bid} FROM {self.name(locale)}>{self.name(toward)}", block=bid or "",
                       locale=locale, toward=toward)

    def order_hold(self) -> Fire:
        self.expect(("FIRE",), say("FIRE (HOLD FIRE and your artillery block's id)"))
        return self.order_fire(hold=True)

    def order_fire(self, hold: bool = False) -> Fire:
        token = self.peek()
        if token is None:
            self.missing(say("the id of your artillery block"))
        self.take()
        bid = self.block(token)
        if bid is not None and self.state.blocks[bid].bombard is None:
            self.note(token, say("%(block)s has no bombardment declared", block=bid), None,
                      say("an artillery block that declared one last turn"))
        if not hold:
            self.acts(bid, token)
        self.done(say("the end of the order"))
        return Fire(text=("HOLD FIRE " if hold else "FIRE ") + (bid or token.text), block=bid or "", hold=hold)

    def order_return(self) -> Return:
        first = self.tokens[0]
        if self.side != "france":
            self.fail(first, say("only France returns a committed disc (000 §18 step 3)"), None, say("another order"))
        self.returned += 1
        if self.returned > 1:
            self.note(first, say("one RETURN a turn"), None, say("a single RETURN"))
        if self.at("NONE"):
            self.take()
            self.done(say("the end of the order"))
            return Return(text="RETURN NONE", locale=None)
        token = self.peek()
        locale = self.locale((), say("a locale holding your committed discs, or NONE"))
        if not self.state.committed.get("france", {}).get(locale):
            self.note(token, say("France has no disc committed to %(place)s", place=self.name(locale)), self.name(locale),
                      say("a locale holding French discs, or NONE"))
        self.done(say("the end of the order"))
        return Return(text=f"RETURN {self.name(locale)}", locale=locale)

__all__ = ["parse_orders"]
