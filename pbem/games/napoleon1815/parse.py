"""The order language (docs/napoleon1815-orders.md): read one seat's orders and check
them against the position. Every problem names its line, what was found and what
was expected."""

from __future__ import annotations

from pbem.core.orders import (ARROW, Abort, OrderReader, OrdersError, Problem, Token, check_size, parse_header,
                              suggest, tokenize)
from pbem.lang import say

from . import movement
from .auction import MAX_BID
from .blocks import is_artillery
from .orders import DOCTRINE, SECTIONS, Deploy, Move, Orders, Place
from .round_orders import VERBS as ROUND_VERBS
from .round_orders import RoundReader, check_plays
from .scenario import SEAT_ARMY
from .triggers import TRIGGERS
from .words import LEXICON, Join, SaidProblem, english_word, find_town
from .words import Place as Name

ORDER_WORDS = ("MOVE", "PLACE", "DEPLOY", "DOCTRINE", "RETREAT", "SUPPLY", "ASK", "LEAVE", "SKIRMISH", "HIT",
               "TERRAIN", "BID", "COMMIT", "FINAL") + ROUND_VERBS
MARKERS = ("WOODS", "FARM", "STREAM", "HILL")
YES_NO = ("YES", "NO")


BID_TARGETS = ("FRANCE", "FRENCH", "ALLIES", "ANGLO-DUTCH", "PRUSSIAN", "PRUSSIANS")


def bid_target(state, seat: str, word: str) -> str | None | tuple[str, str]:
    """What ``BID <word> n`` from ``seat`` asks for: None (the side the seat holds), "france",
    "allies" (the two-player game's Allied seats), or an Allied seat (the three-player game); a
    (problem, expected) pair when the word cannot be bid from this seat."""
    word = {"FRENCH": "FRANCE", "PRUSSIANS": "PRUSSIAN"}.get(word, word)
    if state.players == 2 or word == "FRANCE":
        target = "france" if word == "FRANCE" else "allies"
        return None if (seat == "french") == (target == "france") else target
    if seat == "french":
        if word == "ALLIES":
            return (say("in the three-player game the French player bids for one Allied army"),
                    say("BID ANGLO-DUTCH <steps> or BID PRUSSIAN <steps>"))
        return word.lower()
    if word in ("ALLIES", seat.upper()):
        return None
    if seat == "anglo-dutch":
        return (say("the anglo-dutch player bids for France or for his own army, not for the other Allied army"),
                say("BID FRANCE <steps> or BID ANGLO-DUTCH <steps>"))
    return (say("the prussian player bids for France or for his own army, not for the other Allied army"),
            say("BID FRANCE <steps> or BID PRUSSIAN <steps>"))


def phase(state) -> str:
    if getattr(state, "auction", None) is not None:
        return "auction"
    if state.pending:
        return "battle round" if state.pending["stage"] == "round" else "battle deployment"
    return {0: "allied setup", 1: "French setup"}.get(state.turn, "campaign")


class Reader(RoundReader, OrderReader):
    def __init__(self, scenario, state, seat, problems):
        super().__init__(problems)
        self.scenario, self.state, self.seat = scenario, state, seat
        self.army = SEAT_ARMY[seat]

    # -- problems: each message and what is expected also kept as a Text (words.SaidProblem), for the
    # player's language; the English is the problem's own

    def note_at(self, line: int, column: int, message, found: str = "", expected="") -> None:
        self.problems.append(SaidProblem.of(line, column, message, found, expected))

    def missing(self, expected, words: tuple[str, ...] = ()):
        """Fail: the next token (or the end of the order) is not what was expected."""
        token = self.peek()
        if token is None:
            self.fail(self.end_column(), say("the order ends too soon"), "", expected)
        close = suggest(token.text, words) if words else ""
        if close:
            self.fail(token, say("unexpected %(found)s (did you mean %(word)s?)", found=repr(token.text),
                                 word=close[len(" (did you mean "):-2]), None, expected)
        self.fail(token, say("unexpected %(found)s", found=repr(token.text)), None, expected)

    def done(self, expected) -> None:
        """Fail unless the order has been read to its end."""
        token = self.peek()
        if token is not None:
            self.fail(token, say("unexpected %(found)s after the end of the order", found=repr(token.text)), None,
                      expected)

    def town_words(self, words, what) -> str:
        text = " ".join(w.text for w in words)
        town = find_town(self.scenario.board, text)
        if town is None:
            where = words[0] if words else self.here()
            self.fail(where, say("no town called %(name)s on the map", name=repr(text)), text, what)
        return town

    def own_block(self, token) -> str:
        bid = token.text.upper()
        spec = self.scenario.blocks.get(bid)
        if spec is None:
            self.fail(token, say("no block %(id)s", id=repr(token.text)), None, say("one of your block ids"))
        if spec.army != self.army:
            self.fail(token, say("%(block)s is not a block of your army", block=bid), None,
                      say("one of your block ids"))
        block = self.state.blocks[bid]
        if block.eliminated:
            self.fail(token, say("%(block)s has been eliminated", block=bid), None, say("a block on the map"))
        return bid

    def blocks_then_town(self, words, what) -> tuple[list[str], str]:
        """``ID ID ... Town Name``: the longest ending that names a town is the town."""
        for k in range(len(words) - 1, 0, -1):
            town = find_town(self.scenario.board, " ".join(w.text for w in words[k:]))
            if town is not None:
                return [self.own_block(w) for w in words[:k]], town
        if not words:
            self.missing(say("block ids, then %(what)s", what=what))
        self.fail(words[-1], say("no town at the end of the blocks"), None, say("block ids, then %(what)s", what=what))

    # -- the orders

    def move(self) -> Move:
        self.take()
        if phase(self.state) == "battle deployment":
            self.fail(self.tokens[0], say("no moves while battles wait for deployment"), None,
                      say("DEPLOY and standing orders"))
        if phase(self.state) == "battle round":
            self.fail(self.tokens[0], say("no moves between two rounds of a battle"), None,
                      say("DOCTRINE, RETREAT TO and ASK orders for the next rounds"))
        if phase(self.state) == "auction":
            self.fail(self.tokens[0], say("no moves during the auction"), None, say("BID and the steps you offer"))
        if phase(self.state) != "campaign":
            self.fail(self.tokens[0], say("no moves during setup"), None, say("PLACE orders"))
        blocks, start = self.blocks_then_town(self.take_words(), say("the town they start from"))
        path = [start]
        if not self.at_sign(ARROW):
            self.missing(say("-> and the next town"))
        while self.at_sign(ARROW):
            self.take()
            words = self.take_words(("FORCED",))
            if not words:
                self.missing(say("a town after ->"))
            path.append(self.town_words(words, say("a town after ->")))
        forced = False
        if self.at("FORCED"):
            forced = True
            self.take()
        self.done(END)
        return Move(blocks, path, forced, self.line)

    def deploy(self) -> Deploy:
        """DEPLOY <town> LEFT ids CENTRE ids RIGHT ids RESERVE ids (§6.22). Several DEPLOY lines for
        one battle add up (a click a position on the game page writes one each); what holds only
        for them together (a block once, corps unity) is checked by ``check_deploys``."""
        first = self.take()
        pending = self.state.pending
        if not pending or pending["stage"] not in self.roles():
            self.fail(first, say("no battle of yours waits for your deployment now"), None,
                      say("DEPLOY only in a battle deployment sub-turn"))
        words = self.take_words(SECTIONS)
        if not words:
            self.missing(say("the town of the battle, then LEFT, CENTRE, RIGHT or RESERVE and block ids"))
        town = self.town_words(words, say("the town of the battle"))
        battle = next((b for b in pending["battles"] if b["town"] == town), None)
        if battle is None:
            self.fail(words[0], say("no battle waits at %(town)s", town=Name(self.scenario.board.name(town))), None,
                      say("a battle's town: %(towns)s", towns=Join(Name(self.scenario.board.name(b["town"]))
                                                                   for b in pending["battles"])))
        sections: dict[str, list[str]] = {}
        columns: dict[str, int] = {}
        role = pending["stage"]
        while self.peek() is not None:
            key = self.expect(SECTIONS, say("LEFT, CENTRE, RIGHT or RESERVE"))
            if key.word in sections:
                self.fail(key, say("%(word)s is given twice", word=key.word), key.text,
                          say("each position once in a line"))
            ids = self.take_words(SECTIONS)
            if not ids:
                self.fail(key.end, say("%(word)s names no block", word=key.word), None,
                          say("block ids after %(word)s", word=key.word))
            sections[key.word] = [self.own_block(t) for t in ids]
            columns[key.word] = key.column
            for t, bid in zip(ids, sections[key.word]):
                columns[bid] = t.column
                if self.state.blocks[bid].town != town:
                    self.fail(t, say("%(block)s is not in the battle of %(town)s", block=bid,
                                     town=Name(self.scenario.board.name(town))), t.text,
                              say("your blocks in that town"))
            if key.word != "RESERVE" and battle["terrain"].get(f"{role}{section_index(role, key.word)}") == "woods":
                guns = [t for t, b in zip(ids, sections[key.word]) if is_artillery(self.scenario.blocks[b].type)]
                if guns:
                    self.fail(guns[0], WOODS_SAID[key.word], guns[0].text,
                              say("the artillery in another position or the reserve"))
        if not sections:
            self.missing(say("LEFT, CENTRE, RIGHT or RESERVE and block ids"))
        return Deploy(town, sections, self.line, columns)

    def roles(self) -> set[str]:
        """The battle roles ("att", "def") of this seat's army in the pending battles."""
        from .blocks import ARMY_SIDE as SIDE

        mine = SIDE[self.army]
        return {role for b in self.state.pending["battles"] for role, side in b["sides"].items() if side == mine}

    def place(self) -> Place:
        self.take()
        if phase(self.state) == "auction":
            self.fail(self.tokens[0], say("PLACE is for the setup, after the auction"), None,
                      say("BID and the steps you offer"))
        if phase(self.state) in ("campaign", "battle deployment", "battle round"):
            self.fail(self.tokens[0], say("PLACE is for the setup only"), None, say("MOVE orders"))
        blocks, town = self.blocks_then_town(self.take_words(), say("the town"))
        return Place(blocks, town, self.line)

    def doctrine(self, orders: Orders) -> None:
        self.take()
        key = self.expect(tuple(DOCTRINE), say("one of %(words)s", words=", ".join(DOCTRINE))).word
        value = self.take() if self.peek() else self.missing(say("a value"))
        word = value.word
        if key == "ATTACK" and word not in ("YES", "NO", "AUTO"):
            self.fail(value, say("ATTACK takes YES, NO or AUTO"), None, say("YES, NO or AUTO"))
        if key in ("SQUARE", "SHELTER", "OCCUPY", "REINFORCE", "REGROUP", "KEEP", "SHOW") and word not in YES_NO:
            self.fail(value, say("%(word)s takes YES or NO", word=key), None, say("YES or NO"))
        if key in ("RESERVE", "COMMIT", "WITHDRAW"):
            limit = 100 if key == "WITHDRAW" else 30
            if not word.isdigit() or int(word) > limit:
                self.fail(value, say("%(word)s takes a whole number from 0 to %(most)s", word=key, most=limit), None,
                          say("0 to %(most)s", most=limit))
            word = str(int(word))
        self.done(END)
        orders.doctrine[key] = word

    def blocks_list(self, what) -> list[str]:
        blocks = [self.own_block(t) for t in self.take_words()]
        if not blocks:
            self.missing(what)
        self.done(END)
        return list(dict.fromkeys(blocks))

    def terrain(self, orders: Orders) -> None:
        """TERRAIN <marker> LEFT|CENTRE|RIGHT: where a marker you draw goes (§6.21)."""
        self.take()
        marker = self.expect(MARKERS, say("a marker: %(markers)s", markers=", ".join(MARKERS))).word
        where = self.expect(("LEFT", "CENTRE", "RIGHT"), say("LEFT, CENTRE or RIGHT (your own)")).word
        self.done(END)
        orders.terrain[marker.lower()] = where

    def retreat(self, orders: Orders) -> None:
        self.take()
        if self.at("FIRST"):
            self.take()
            orders.retreat_first = self.blocks_list(say("block ids: the blocks that take the roads first"))
            return
        self.expect(("TO", "FIRST"), say("TO and the towns, best first (or FIRST and blocks)"))
        towns = []
        # the tokenizer reads commas as spaces: the towns are the longest names, one after another
        words = self.tokens[self.i:]
        at = 0
        while at < len(words):
            for end in range(len(words), at, -1):
                town = find_town(self.scenario.board, " ".join(t.text for t in words[at:end]))
                if town is not None:
                    break
            else:
                self.fail(words[at], say("no town called %(name)s", name=repr(words[at].text)), words[at].text,
                          say("towns separated by commas"))
            towns.append(town)
            at = end
        if not towns:
            self.missing(say("towns separated by commas"))
        self.i = len(self.tokens)
        orders.retreat = towns

    def commit(self) -> tuple[list[str], str]:
        """COMMIT <blocks> LEFT|CENTRE|RIGHT: between two rounds, reserve blocks that go into one of
        your own positions in your side's next part of the round (§6.32), before the doctrine moves."""
        first = self.take()
        pending = self.state.pending
        if not pending or pending["stage"] != "round":
            self.fail(first, say("COMMIT only between two rounds of a battle (a round sub-turn)"), None,
                      say("DOCTRINE COMMIT for the battles to come"))
        words = self.take_words(("LEFT", "CENTRE", "RIGHT"))
        blocks = [self.own_block(w) for w in words]
        if not blocks:
            self.missing(say("block ids of your reserve"))
        where = self.expect(("LEFT", "CENTRE", "RIGHT"), say("LEFT, CENTRE or RIGHT (your own)")).word
        self.done(END)
        reserve = {bid for b in pending["fought"] for bid, blk in b["blocks"].items() if blk["loc"].startswith("res")}
        for w, bid in zip(words, blocks):
            if bid not in reserve:
                self.fail(w, say("%(block)s is not in the reserve of a battle waiting for its next round", block=bid),
                          w.text, say("blocks of your reserve (your report lists them)"))
        return blocks, where

    def leave(self) -> str:
        """LEAVE <town>: between two rounds, withdraw from the battle there from the next round (§7)."""
        first = self.take()
        pending = self.state.pending
        if not pending or pending["stage"] != "round":
            self.fail(first, say("LEAVE only between two rounds of a battle (a round sub-turn)"), None,
                      say("DOCTRINE WITHDRAW for the battles to come"))
        town = self.town_words(self.take_words(), say("the town of the battle"))
        if not any(b["town"] == town and self.seat in b["witnesses"] for b in pending["fought"]):
            self.fail(first, say("no battle of yours waits at %(town)s", town=Name(self.scenario.board.name(town))),
                      None, say("a town where your battle waits: %(towns)s", towns=Join(
                          Name(self.scenario.board.name(b["town"])) for b in pending["fought"]
                          if self.seat in b["witnesses"])))
        return town

    def ask(self, orders: Orders) -> None:
        """ASK <trigger>... or ASK NONE: when to be asked in a battle of the hybrid mode (triggers.py);
        refused in the other modes, where it would do nothing."""
        first = self.take()
        if self.state.battle_mode != "hybrid":
            self.fail(first, ASK_REFUSED[self.state.battle_mode], None, ASK_INSTEAD[self.state.battle_mode])
        words = self.take_words()
        if not words:
            self.missing(say("NONE or triggers: %(triggers)s", triggers=", ".join(TRIGGERS)))
        asks: list[str] = []
        for token in words:
            if token.word == "NONE" and len(words) == 1:
                continue
            if token.word not in TRIGGERS:
                self.fail(token, say("no trigger %(found)s", found=repr(token.text)), token.text,
                          say("NONE or %(triggers)s", triggers=", ".join(TRIGGERS)))
            if token.word not in asks:
                asks.append(token.word)
        self.done(END)
        orders.asks = asks

    def bid(self) -> tuple[str | None, int]:
        """BID [side] <steps>: a sealed bid in the auction sub-turn (§13, auction.py). The side named
        is the one the bidder plays if he wins (none named: the side he holds); in the three-player
        game the French player names the army he would command (ANGLO-DUTCH or PRUSSIAN)."""
        first = self.take()
        if phase(self.state) != "auction":
            self.fail(first, say("BID <steps> only in the auction, the first sub-turn of a game created with "
                                 "bid = auction (§13)"), None, say("BID LOSS at your setup, or no BID"))
        target = None
        if self.peek() and not self.peek().text.isdigit() and self.peek().word in BID_TARGETS:
            named = self.take()
            target = bid_target(self.state, self.seat, named.word)
            if isinstance(target, tuple):
                self.fail(named, target[0], named.text, target[1])
        value = self.take() if self.peek() else self.missing(say("the steps you bid, 0 to %(most)s", most=MAX_BID))
        if not value.text.isdigit() or int(value.text) > MAX_BID:
            self.fail(value, say("a bid is a whole number of steps from 0 to %(most)s", most=MAX_BID), value.text,
                      say("0 to %(most)s (the steps removed at the setup of the side you play if you win), "
                          "after FRANCE or ALLIES if you name the side", most=MAX_BID))
        self.done(END)
        return target, int(value.text)

    def supply(self, orders: Orders) -> None:
        self.take()
        self.expect(("LOSS",), say("LOSS and the blocks, first lost first"))
        blocks = [self.own_block(t) for t in self.take_words()]
        if not blocks:
            self.missing(say("block ids"))
        orders.supply = blocks


def parse_orders(scenario, state, seat: str, text: str) -> Orders:
    problems: list[Problem] = []
    too_long = check_size(text)
    if too_long:
        raise OrdersError([too_long])
    header, body = parse_header(text, problems, lexicon=LEXICON)
    orders = Orders(seat, header, names=town_names(scenario))
    reader = Reader(scenario, state, seat, problems)
    for number, line in body:
        for tokens in tokenize(line, LEXICON):
            tokens = in_english(tokens)
            reader.start(number, tokens)
            word = tokens[0].word
            try:
                if word == "MOVE":
                    orders.moves.append(reader.move())
                elif word == "PLACE":
                    orders.places.append(reader.place())
                elif word == "DEPLOY":
                    orders.deploys.append(reader.deploy())
                elif word == "DOCTRINE":
                    reader.doctrine(orders)
                elif word == "RETREAT":
                    reader.retreat(orders)
                elif word == "SUPPLY":
                    reader.supply(orders)
                elif word == "ASK":
                    reader.ask(orders)
                elif word == "LEAVE":
                    orders.leave.append(reader.leave())
                elif word == "COMMIT":
                    orders.commits.append(reader.commit())
                elif word in ROUND_VERBS:
                    orders.plays.append(reader.play())
                elif word == "SKIRMISH":
                    reader.take()
                    orders.skirmish = reader.blocks_list(say("block ids: the blocks to put up first in a skirmish"))
                elif word == "HIT":
                    reader.take()
                    reader.expect(("FIRST",), say("FIRST and block ids"))
                    orders.hit_first = reader.blocks_list(say("block ids: the blocks hit first among equals"))
                elif word == "TERRAIN":
                    reader.terrain(orders)
                elif word == "BID" and (phase(state) == "auction" or len(tokens) > 1 and tokens[1].word != "LOSS"):
                    orders.bid_for, orders.bid = reader.bid()
                elif word == "BID":
                    first = reader.take()
                    reader.expect(("LOSS",), say("LOSS and the blocks that pay the bid"))
                    if phase(state) not in ("allied setup", "French setup") or not state.bid:
                        reader.fail(first, say("BID LOSS only at the setup of a game with a bid (§13)"), None,
                                    say("PLACE orders"))
                    orders.bid_loss = reader.blocks_list(say("block ids: the blocks that pay the bid, one step each"))
                elif word == "FINAL":
                    reader.take()
                    reader.done(say("nothing after FINAL"))
                    orders.final = True
                else:
                    reader.missing(say("an order: %(words)s", words=", ".join(ORDER_WORDS)), ORDER_WORDS)
            except Abort:
                continue
    if not problems:
        problems += check_deploys(scenario, orders.deploys) + check_plays(orders.plays)
    if not problems:
        problems += check_orders(scenario, state, seat, orders)
    if problems:
        raise OrdersError(problems)
    return orders


def check_orders(scenario, state, seat: str, orders: Orders) -> list[Problem]:
    """The orders' legality as a whole: setup limits (§4), moves (§5)."""
    if phase(state) in ("battle deployment", "battle round", "auction"):
        return []
    if phase(state) != "campaign":
        return check_setup(scenario, state, seat, orders)
    return movement.check_moves(scenario, state, seat, orders.moves)


def check_deploys(scenario, deploys) -> list[Problem]:
    """What the DEPLOY lines of one battle must keep together: a block in one position only, and
    one corps a position unless its leader is there (§6.23); each problem at the line and column
    of the word that breaks it."""
    problems = []
    for town in dict.fromkeys(d.town for d in deploys):
        lines = [d for d in deploys if d.town == town]
        placed: dict[str, Deploy] = {}
        for d in lines:
            for bid in (b for ids in d.sections.values() for b in ids):
                if bid in placed:
                    message = (say("%(block)s is deployed twice (also on this line)", block=bid) if placed[bid] is d
                               else say("%(block)s is deployed twice (also on line %(line)s)", block=bid,
                                        line=placed[bid].line))
                    problems.append(SaidProblem.of(d.line, d.columns.get(bid, 1), message, bid,
                                                   say("each block in one position")))
                placed[bid] = d
        for key in ("LEFT", "CENTRE", "RIGHT"):
            naming = [d for d in lines if key in d.sections]
            ids = [b for d in naming for b in d.sections[key]]
            corps = {scenario.blocks[b].corps for b in ids if scenario.blocks[b].type != "leader"}
            if len(corps) > 1 and not any(scenario.blocks[b].type == "leader" for b in ids):
                last = naming[-1]
                problems.append(SaidProblem.of(last.line, last.columns.get(key, 1), CORPS_SAID[key](
                    len(corps), ", ".join(sorted(corps))), key, say("one corps a position, or its leader with them")))
    return problems


END = say("the end of the order")
ASK_REFUSED = {"doctrine": say("ASK does nothing in this game: its battles are fought by the doctrine from the first "
                               "round to the last (battle = doctrine)"),
               "live": say("ASK does nothing in this game: every round of its battles is already a sub-turn "
                           "(battle = live)")}
ASK_INSTEAD = {"doctrine": say("DOCTRINE lines, which play your side of its battles"),
               "live": say("your orders in each round sub-turn")}
WOODS_SAID = {"LEFT": say("artillery may not stand in the woods on your left (§6.21)"),
              "CENTRE": say("artillery may not stand in the woods on your centre (§6.21)"),
              "RIGHT": say("artillery may not stand in the woods on your right (§6.21)")}
CORPS_SAID = {
    "LEFT": lambda n, corps: say("blocks of %(n)s corps (%(corps)s) on your left without a leader (§6.23)", n=n,
                                 corps=corps),
    "CENTRE": lambda n, corps: say("blocks of %(n)s corps (%(corps)s) on your centre without a leader (§6.23)", n=n,
                                   corps=corps),
    "RIGHT": lambda n, corps: say("blocks of %(n)s corps (%(corps)s) on your right without a leader (§6.23)", n=n,
                                  corps=corps)}


def in_english(tokens: list[Token]) -> list[Token]:
    """``tokens`` with each order word of another language read as its English word (its text kept,
    for the columns, the ids and the towns): the order is then read, and logged, as if in English."""
    out = []
    for t in tokens:
        word = english_word(t.text) if t.text not in ("->", ">") else None
        out.append(t._replace(word=word) if word else t)
    return out


def section_index(role: str, key: str) -> int:
    """A side's own LEFT/CENTRE/RIGHT as a board position (0-2 from the attacker's left)."""
    i = {"LEFT": 0, "CENTRE": 1, "RIGHT": 2}[key]
    return i if role == "att" else 2 - i


def check_setup(scenario, state, seat, orders) -> list[Problem]:
    from .setup import setup_problems

    return setup_problems(scenario, state, seat, orders.places)


def town_names(scenario) -> dict[str, str]:
    """Every town's name by its id (what an Orders holds to echo itself)."""
    return {t: scenario.board.name(t) for t in scenario.board.towns}
