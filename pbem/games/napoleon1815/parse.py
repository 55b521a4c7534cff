"""The order language (docs/napoleon1815-orders.md): read one seat's orders and check
them against the position. Every problem names its line, what was found and what
was expected."""

from __future__ import annotations

from pbem.core.orders import (ARROW, Abort, OrderReader, OrdersError, Problem, check_size, parse_header,
                              tokenize)

from . import movement
from .auction import MAX_BID
from .blocks import is_artillery
from .orders import DOCTRINE, SECTIONS, Deploy, Move, Orders, Place
from .scenario import SEAT_ARMY
from .triggers import TRIGGERS

ORDER_WORDS = ("MOVE", "PLACE", "DEPLOY", "DOCTRINE", "RETREAT", "SUPPLY", "ASK", "LEAVE", "SKIRMISH", "HIT",
               "TERRAIN", "BID", "COMMIT", "FINAL")
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
            return ("in the three-player game the French player bids for one Allied army",
                    "BID ANGLO-DUTCH <steps> or BID PRUSSIAN <steps>")
        return word.lower()
    if word in ("ALLIES", seat.upper()):
        return None
    return (f"the {seat} player bids for France or for his own army, not for the other Allied army",
            f"BID FRANCE <steps> or BID {seat.upper()} <steps>")


def phase(state) -> str:
    if getattr(state, "auction", None) is not None:
        return "auction"
    if state.pending:
        return "battle round" if state.pending["stage"] == "round" else "battle deployment"
    return {0: "allied setup", 1: "French setup"}.get(state.turn, "campaign")


class Reader(OrderReader):
    def __init__(self, scenario, state, seat, problems):
        super().__init__(problems)
        self.scenario, self.state, self.seat = scenario, state, seat
        self.army = SEAT_ARMY[seat]

    def town_words(self, words, what: str) -> str:
        text = " ".join(w.text for w in words)
        town = self.scenario.board.find(text)
        if town is None:
            where = words[0] if words else self.here()
            self.fail(where, f"no town called {text!r} on the map", text, what)
        return town

    def own_block(self, token) -> str:
        bid = token.text.upper()
        spec = self.scenario.blocks.get(bid)
        if spec is None:
            self.fail(token, f"no block {token.text!r}", None, "one of your block ids")
        if spec.army != self.army:
            self.fail(token, f"{bid} is not a block of your army", None, "one of your block ids")
        block = self.state.blocks[bid]
        if block.eliminated:
            self.fail(token, f"{bid} has been eliminated", None, "a block on the map")
        return bid

    def blocks_then_town(self, words, what: str) -> tuple[list[str], str]:
        """``ID ID ... Town Name``: the longest ending that names a town is the town."""
        for k in range(len(words) - 1, 0, -1):
            town = self.scenario.board.find(" ".join(w.text for w in words[k:]))
            if town is not None:
                return [self.own_block(w) for w in words[:k]], town
        if not words:
            self.missing(f"block ids, then {what}")
        self.fail(words[-1], "no town at the end of the blocks", None, f"block ids, then {what}")

    # -- the orders

    def move(self) -> Move:
        self.take()
        if phase(self.state) == "battle deployment":
            self.fail(self.tokens[0], "no moves while battles wait for deployment", None,
                      "DEPLOY and standing orders")
        if phase(self.state) == "battle round":
            self.fail(self.tokens[0], "no moves between two rounds of a battle", None,
                      "DOCTRINE, RETREAT TO and ASK orders for the next rounds")
        if phase(self.state) == "auction":
            self.fail(self.tokens[0], "no moves during the auction", None, "BID and the steps you offer")
        if phase(self.state) != "campaign":
            self.fail(self.tokens[0], "no moves during setup", None, "PLACE orders")
        blocks, start = self.blocks_then_town(self.take_words(), "the town they start from")
        path = [start]
        if not self.at_sign(ARROW):
            self.missing("-> and the next town")
        while self.at_sign(ARROW):
            self.take()
            words = self.take_words(("FORCED",))
            if not words:
                self.missing("a town after ->")
            path.append(self.town_words(words, "a town after ->"))
        forced = False
        if self.at("FORCED"):
            forced = True
            self.take()
        self.done("the end of the order")
        return Move(blocks, path, forced, self.line)

    def deploy(self) -> Deploy:
        """DEPLOY <town> LEFT ids CENTRE ids RIGHT ids RESERVE ids (§6.22). Several DEPLOY lines for
        one battle add up (a click a position on the game page writes one each); what holds only
        for them together (a block once, corps unity) is checked by ``check_deploys``."""
        first = self.take()
        pending = self.state.pending
        if not pending or pending["stage"] not in self.roles():
            self.fail(first, "no battle of yours waits for your deployment now", None,
                      "DEPLOY only in a battle deployment sub-turn")
        words = self.take_words(SECTIONS)
        if not words:
            self.missing("the town of the battle, then LEFT, CENTRE, RIGHT or RESERVE and block ids")
        town = self.town_words(words, "the town of the battle")
        battle = next((b for b in pending["battles"] if b["town"] == town), None)
        if battle is None:
            self.fail(words[0], f"no battle waits at {self.scenario.board.name(town)}", None, "a battle's town: "
                      + ", ".join(self.scenario.board.name(b["town"]) for b in pending["battles"]))
        sections: dict[str, list[str]] = {}
        columns: dict[str, int] = {}
        role = pending["stage"]
        while self.peek() is not None:
            key = self.expect(SECTIONS, "LEFT, CENTRE, RIGHT or RESERVE")
            if key.word in sections:
                self.fail(key, f"{key.word} is given twice", key.text, "each position once in a line")
            ids = self.take_words(SECTIONS)
            if not ids:
                self.fail(key.end, f"{key.word} names no block", None, f"block ids after {key.word}")
            sections[key.word] = [self.own_block(t) for t in ids]
            columns[key.word] = key.column
            for t, bid in zip(ids, sections[key.word]):
                columns[bid] = t.column
                if self.state.blocks[bid].town != town:
                    self.fail(t, f"{bid} is not in the battle of {self.scenario.board.name(town)}", t.text,
                              "your blocks in that town")
            if key.word != "RESERVE" and battle["terrain"].get(f"{role}{section_index(role, key.word)}") == "woods":
                guns = [t for t, b in zip(ids, sections[key.word]) if is_artillery(self.scenario.blocks[b].type)]
                if guns:
                    self.fail(guns[0], f"artillery may not stand in the woods on your {key.word.lower()} (§6.21)",
                              guns[0].text, "the artillery in another position or the reserve")
        if not sections:
            self.missing("LEFT, CENTRE, RIGHT or RESERVE and block ids")
        return Deploy(town, sections, self.line, columns)

    def roles(self) -> set[str]:
        """The battle roles ("att", "def") of this seat's army in the pending battles."""
        from .blocks import ARMY_SIDE as SIDE

        mine = SIDE[self.army]
        return {role for b in self.state.pending["battles"] for role, side in b["sides"].items() if side == mine}

    def place(self) -> Place:
        self.take()
        if phase(self.state) == "auction":
            self.fail(self.tokens[0], "PLACE is for the setup, after the auction", None, "BID and the steps you offer")
        if phase(self.state) in ("campaign", "battle deployment", "battle round"):
            self.fail(self.tokens[0], "PLACE is for the setup only", None, "MOVE orders")
        blocks, town = self.blocks_then_town(self.take_words(), "the town")
        return Place(blocks, town, self.line)

    def doctrine(self, orders: Orders) -> None:
        self.take()
        key = self.expect(tuple(DOCTRINE), "one of " + ", ".join(DOCTRINE)).word
        value = self.take() if self.peek() else self.missing("a value")
        word = value.word
        if key == "ATTACK" and word not in ("YES", "NO", "AUTO"):
            self.fail(value, "ATTACK takes YES, NO or AUTO", None, "YES, NO or AUTO")
        if key in ("SQUARE", "SHELTER", "OCCUPY", "REINFORCE", "REGROUP") and word not in YES_NO:
            self.fail(value, f"{key} takes YES or NO", None, "YES or NO")
        if key in ("RESERVE", "COMMIT", "WITHDRAW"):
            limit = 100 if key == "WITHDRAW" else 30
            if not word.isdigit() or int(word) > limit:
                self.fail(value, f"{key} takes a whole number from 0 to {limit}", None, f"0 to {limit}")
            word = str(int(word))
        self.done("the end of the order")
        orders.doctrine[key] = word

    def blocks_list(self, what: str) -> list[str]:
        blocks = [self.own_block(t) for t in self.take_words()]
        if not blocks:
            self.missing(what)
        self.done("the end of the order")
        return list(dict.fromkeys(blocks))

    def terrain(self, orders: Orders) -> None:
        """TERRAIN <marker> LEFT|CENTRE|RIGHT: where a marker you draw goes (§6.21)."""
        self.take()
        marker = self.expect(MARKERS, "a marker: " + ", ".join(MARKERS)).word
        where = self.expect(("LEFT", "CENTRE", "RIGHT"), "LEFT, CENTRE or RIGHT (your own)").word
        self.done("the end of the order")
        orders.terrain[marker.lower()] = where

    def retreat(self, orders: Orders) -> None:
        self.take()
        if self.at("FIRST"):
            self.take()
            orders.retreat_first = self.blocks_list("block ids: the blocks that take the roads first")
            return
        self.expect(("TO", "FIRST"), "TO and the towns, best first (or FIRST and blocks)")
        towns = []
        # the tokenizer reads commas as spaces: the towns are the longest names, one after another
        words = self.tokens[self.i:]
        at = 0
        while at < len(words):
            for end in range(len(words), at, -1):
                town = self.scenario.board.find(" ".join(t.text for t in words[at:end]))
                if town is not None:
                    break
            else:
                self.fail(words[at], f"no town called {words[at].text!r}", words[at].text,
                          "towns separated by commas")
            towns.append(town)
            at = end
        if not towns:
            self.missing("towns separated by commas")
        self.i = len(self.tokens)
        orders.retreat = towns

    def commit(self) -> tuple[list[str], str]:
        """COMMIT <blocks> LEFT|CENTRE|RIGHT: between two rounds, reserve blocks that go into one of
        your own positions in your side's next part of the round (§6.32), before the doctrine moves."""
        first = self.take()
        pending = self.state.pending
        if not pending or pending["stage"] != "round":
            self.fail(first, "COMMIT only between two rounds of a battle (a round sub-turn)", None,
                      "DOCTRINE COMMIT for the battles to come")
        words = self.take_words(("LEFT", "CENTRE", "RIGHT"))
        blocks = [self.own_block(w) for w in words]
        if not blocks:
            self.missing("block ids of your reserve")
        where = self.expect(("LEFT", "CENTRE", "RIGHT"), "LEFT, CENTRE or RIGHT (your own)").word
        self.done("the end of the order")
        reserve = {bid for b in pending["fought"] for bid, blk in b["blocks"].items() if blk["loc"].startswith("res")}
        for w, bid in zip(words, blocks):
            if bid not in reserve:
                self.fail(w, f"{bid} is not in the reserve of a battle waiting for its next round", w.text,
                          "blocks of your reserve (your report lists them)")
        return blocks, where

    def leave(self) -> str:
        """LEAVE <town>: between two rounds, withdraw from the battle there from the next round (§7)."""
        first = self.take()
        pending = self.state.pending
        if not pending or pending["stage"] != "round":
            self.fail(first, "LEAVE only between two rounds of a battle (a round sub-turn)", None,
                      "DOCTRINE WITHDRAW for the battles to come")
        town = self.town_words(self.take_words(), "the town of the battle")
        if not any(b["town"] == town and self.seat in b["witnesses"] for b in pending["fought"]):
            self.fail(first, f"no battle of yours waits at {self.scenario.board.name(town)}", None,
                      "a town where your battle waits: " + ", ".join(
                          self.scenario.board.name(b["town"]) for b in pending["fought"]
                          if self.seat in b["witnesses"]))
        return town

    def ask(self, orders: Orders) -> None:
        """ASK <trigger>... or ASK NONE: when to be asked in a battle of the hybrid mode (triggers.py)."""
        self.take()
        words = self.take_words()
        if not words:
            self.missing("NONE or triggers: " + ", ".join(TRIGGERS))
        asks: list[str] = []
        for token in words:
            if token.word == "NONE" and len(words) == 1:
                continue
            if token.word not in TRIGGERS:
                self.fail(token, f"no trigger {token.text!r}", token.text, "NONE or " + ", ".join(TRIGGERS))
            if token.word not in asks:
                asks.append(token.word)
        self.done("the end of the order")
        orders.asks = asks

    def bid(self) -> tuple[str | None, int]:
        """BID [side] <steps>: a sealed bid in the auction sub-turn (§13, auction.py). The side named
        is the one the bidder plays if he wins (none named: the side he holds); in the three-player
        game the French player names the army he would command (ANGLO-DUTCH or PRUSSIAN)."""
        first = self.take()
        if phase(self.state) != "auction":
            self.fail(first, "BID <steps> only in the auction, the first sub-turn of a game created with "
                      "bid = auction (§13)", None, "BID LOSS at your setup, or no BID")
        target = None
        if self.peek() and not self.peek().text.isdigit() and self.peek().word in BID_TARGETS:
            named = self.take()
            target = bid_target(self.state, self.seat, named.word)
            if isinstance(target, tuple):
                self.fail(named, target[0], named.text, target[1])
        value = self.take() if self.peek() else self.missing(f"the steps you bid, 0 to {MAX_BID}")
        if not value.text.isdigit() or int(value.text) > MAX_BID:
            self.fail(value, f"a bid is a whole number of steps from 0 to {MAX_BID}", value.text,
                      f"0 to {MAX_BID} (the steps removed at the setup of the side you play if you win), "
                      "after FRANCE or ALLIES if you name the side")
        self.done("the end of the order")
        return target, int(value.text)

    def supply(self, orders: Orders) -> None:
        self.take()
        self.expect(("LOSS",), "LOSS and the blocks, first lost first")
        blocks = [self.own_block(t) for t in self.take_words()]
        if not blocks:
            self.missing("block ids")
        orders.supply = blocks


def parse_orders(scenario, state, seat: str, text: str) -> Orders:
    problems: list[Problem] = []
    too_long = check_size(text)
    if too_long:
        raise OrdersError([too_long])
    header, body = parse_header(text, problems)
    orders = Orders(seat, header, names={t: scenario.board.name(t) for t in scenario.board.towns})
    reader = Reader(scenario, state, seat, problems)
    for number, line in body:
        for tokens in tokenize(line):
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
                elif word == "SKIRMISH":
                    reader.take()
                    orders.skirmish = reader.blocks_list("block ids: the blocks to put up first in a skirmish")
                elif word == "HIT":
                    reader.take()
                    reader.expect(("FIRST",), "FIRST and block ids")
                    orders.hit_first = reader.blocks_list("block ids: the blocks hit first among equals")
                elif word == "TERRAIN":
                    reader.terrain(orders)
                elif word == "BID" and (phase(state) == "auction" or len(tokens) > 1 and tokens[1].word != "LOSS"):
                    orders.bid_for, orders.bid = reader.bid()
                elif word == "BID":
                    first = reader.take()
                    reader.expect(("LOSS",), "LOSS and the blocks that pay the bid")
                    if phase(state) not in ("allied setup", "French setup") or not state.bid:
                        reader.fail(first, "BID LOSS only at the setup of a game with a bid (§13)", None,
                                    "PLACE orders")
                    orders.bid_loss = reader.blocks_list("block ids: the blocks that pay the bid, one step each")
                elif word == "FINAL":
                    reader.take()
                    reader.done("nothing after FINAL")
                    orders.final = True
                else:
                    reader.missing("an order: " + ", ".join(ORDER_WORDS), ORDER_WORDS)
            except Abort:
                continue
    if not problems:
        problems += check_deploys(scenario, orders.deploys)
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
                    where = "this line" if placed[bid] is d else f"line {placed[bid].line}"
                    problems.append(Problem(d.line, d.columns.get(bid, 1), f"{bid} is deployed twice (also on "
                                            f"{where})", bid, "each block in one position"))
                placed[bid] = d
        for key in ("LEFT", "CENTRE", "RIGHT"):
            naming = [d for d in lines if key in d.sections]
            ids = [b for d in naming for b in d.sections[key]]
            corps = {scenario.blocks[b].corps for b in ids if scenario.blocks[b].type != "leader"}
            if len(corps) > 1 and not any(scenario.blocks[b].type == "leader" for b in ids):
                last = naming[-1]
                problems.append(Problem(last.line, last.columns.get(key, 1), f"blocks of {len(corps)} corps "
                                        f"({', '.join(sorted(corps))}) on your {key.lower()} without a leader (§6.23)",
                                        key, "one corps a position, or its leader with them"))
    return problems


def section_index(role: str, key: str) -> int:
    """A side's own LEFT/CENTRE/RIGHT as a board position (0-2 from the attacker's left)."""
    i = {"LEFT": 0, "CENTRE": 1, "RIGHT": 2}[key]
    return i if role == "att" else 2 - i


def check_setup(scenario, state, seat, orders) -> list[Problem]:
    from .setup import setup_problems

    return setup_problems(scenario, state, seat, orders.places)

