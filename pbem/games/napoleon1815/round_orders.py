"""A battle round's orders, block by block (docs/napoleon1815-orders.md, "A round block by block"):
what a seat may say between two rounds of a battle (a round sub-turn: the live mode before every
round, the hybrid mode when asked), read and checked against the board here, carried out by
played.py in the seat's side's next part of the round, before the doctrine plays the rest.

    ENGAGE <blocks>                          into the enemy's position opposite (§6.32 "Вступление в бой")
    DISENGAGE <blocks>                       out of the enemy, back towards your own side (§6.32 "Выход из боя")
    SHIFT <blocks> LEFT|CENTRE|RIGHT|RESERVE  within your own side (§6.32 "Передислокация")
    FIRE <blocks> [SQUARE|LINE]              fire first, in this order, at the squares or the line (§6.33, §6.51)
    HOLD <blocks>                            stand this round: neither fire nor move (a reserve block stays there)
    FORM SQUARE <blocks> / BREAK SQUARE <blocks>   (§6.5)
    WITHDRAW <blocks> TO <town>              these blocks leave the battle this round, to that town (§7, §7.1)
    REINFORCE <blocks>                       the blocks of adjacent towns that join first, in this order (§6.34)

Each block's problem is told at its line and column; a block may be given one action a round
(§6.3: "каждая часть может в раунд или осуществить движение, или атаковать, или отступить")."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.lang import say

from .blocks import ARMY_SIDE, is_artillery, is_mounted
from .retreat import retreat_towns
from .words import Join
from .words import Place as Name

VERBS = ("ENGAGE", "DISENGAGE", "SHIFT", "FIRE", "HOLD", "FORM", "BREAK", "WITHDRAW", "REINFORCE")
TO_PLACES = ("LEFT", "CENTRE", "RIGHT", "RESERVE")
AIMS = ("SQUARE", "LINE")


@dataclass
class Play:
    """One line of a round's orders: a verb, its blocks (in the order written), and where or at what."""

    verb: str
    blocks: list[str]
    where: str = ""  # SHIFT's position, FIRE's aim, WITHDRAW's town
    line: int = 0
    columns: dict[str, int] = field(default_factory=dict, repr=False, compare=False)  # block -> its column

    def text(self, name=lambda town: town) -> str:
        ids = " ".join(self.blocks)
        if self.verb in ("FORM", "BREAK"):
            return f"{self.verb} SQUARE {ids}"
        if self.verb == "WITHDRAW":
            return f"WITHDRAW {ids} TO {name(self.where)}"
        return f"{self.verb} {ids}" + (f" {self.where}" if self.where else "")


def own_loc(role: str, key: str) -> str:
    """A side's own LEFT/CENTRE/RIGHT/RESERVE as a board location."""
    if key == "RESERVE":
        return f"res-{role}"
    i = {"LEFT": 0, "CENTRE": 1, "RIGHT": 2}[key]
    return f"{role}{i if role == 'att' else 2 - i}"


def engaged(battle: dict, bid: str) -> bool:
    blk = battle["blocks"][bid]
    return not blk["loc"].startswith("res") and any(
        o["loc"] == blk["loc"] and o["role"] != blk["role"] for o in battle["blocks"].values())


class RoundReader:
    """The round orders' half of parse.Reader (a mixin: it uses the reader's tokens, ``own_block``,
    ``fail`` and ``state``)."""

    def play(self) -> Play:
        first = self.take()
        verb = first.word
        pending = self.state.pending
        if not pending or pending["stage"] != "round":
            self.fail(first, say("%(word)s only between two rounds of a battle (a round sub-turn)", word=verb), None,
                      say("DOCTRINE lines for the battles to come"))
        if verb in ("FORM", "BREAK"):
            self.expect(("SQUARE",), say("SQUARE and infantry block ids"))
        stops = {"SHIFT": TO_PLACES, "FIRE": AIMS, "WITHDRAW": ("TO",)}.get(verb, ())
        words = self.take_words(stops)
        if not words:
            self.missing(say("block ids"))
        blocks = [self.own_block(w) for w in words]
        play = Play(verb, blocks, line=self.line, columns={b: w.column for w, b in zip(words, blocks)})
        if verb == "SHIFT":
            play.where = self.expect(TO_PLACES, say("LEFT, CENTRE, RIGHT or RESERVE (your own)")).word
        elif verb == "FIRE" and self.peek() is not None:
            play.where = self.expect(AIMS, say("SQUARE or LINE: the enemy group to fire at (§6.51)")).word
        elif verb == "WITHDRAW":
            self.expect(("TO",), say("TO and the town the blocks withdraw to"))
            rest = self.take_words()
            if not rest:
                self.missing(say("the town the blocks withdraw to"))
            play.where = self.town_words(rest, say("a town next to the battle"))
            self.check_withdraw(play, rest[0])
        self.done(say("the end of the order"))
        for w, bid in zip(words, blocks):
            if verb == "REINFORCE":
                self.check_reinforce(bid, w)
            else:
                self.check_on_board(play, bid, w)
        return play

    def board_of(self, bid: str) -> dict | None:
        return next((b for b in self.state.pending["fought"] if bid in b["blocks"]), None)

    def check_on_board(self, play: Play, bid: str, token) -> None:
        battle = self.board_of(bid)
        if battle is None:
            self.fail(token, say("%(block)s is not on the board of a battle waiting for its next round", block=bid),
                      token.text, say("your blocks on a battle board (your report lists them)"))
        blk = battle["blocks"][bid]
        role, loc, kind = blk["role"], blk["loc"], blk["type"]
        reserve, fighting = loc.startswith("res"), engaged(battle, bid)
        problem = None
        if blk["square"] and play.verb in ("ENGAGE", "DISENGAGE", "SHIFT", "WITHDRAW"):
            problem = say("%(block)s is in square: a square neither moves nor leaves the fight (§6.5)", block=bid)
        elif play.verb == "ENGAGE":
            if reserve:
                problem = say("%(block)s is in your reserve: it goes into one of your positions first (SHIFT, "
                              "§6.32)", block=bid)
            elif kind == "foot_artillery":
                problem = say("%(block)s is foot artillery, which does not engage (§6.32)", block=bid)
            elif fighting or not loc.startswith(role):
                problem = say("%(block)s is engaged already", block=bid)
        elif play.verb == "DISENGAGE" and not fighting:
            problem = say("%(block)s is not engaged", block=bid)
        elif play.verb == "SHIFT":
            to = own_loc(role, play.where)
            if fighting:
                problem = say("%(block)s is engaged: it leaves the fight first (DISENGAGE, §6.32)", block=bid)
            elif not loc.startswith(("res", role)):
                problem = say("%(block)s stands in the enemy's position", block=bid)
            elif to == loc:
                problem = say("%(block)s stands there already", block=bid)
            elif not reserve and not to.startswith("res") and not (is_mounted(kind) or kind == "leader"):
                problem = say("%(block)s moves once a round: from one position to another is two moves, through "
                              "the reserve, which only cavalry, horse artillery and leaders make (§6.32)", block=bid)
            elif is_artillery(kind) and battle["terrain"].get(to) == "woods":
                problem = say("artillery may not stand in the woods (§6.21)")
        elif play.verb == "FIRE" and reserve:
            problem = say("%(block)s is in the reserve, which never fires (§6.33)", block=bid)
        elif play.verb == "FIRE" and not fighting and not is_artillery(kind):
            problem = say("%(block)s is not engaged: only artillery fires at the enemy's position opposite "
                          "(§6.33)", block=bid)
        elif play.verb == "FORM":
            if kind != "infantry":
                problem = say("only infantry forms square (§6.5)")
            elif reserve or not loc.startswith(role):
                problem = say("%(block)s forms square only in one of your own positions (§6.5)", block=bid)
            elif battle["terrain"].get(loc) in ("woods", "farm"):
                problem = say("no square in the woods or on a farm (§6.5)")
            elif blk["square"]:
                problem = say("%(block)s is in square already", block=bid)
        elif play.verb == "BREAK" and not blk["square"]:
            problem = say("%(block)s is not in square", block=bid)
        if problem is not None:
            self.fail(token, problem, token.text, EXPECTED[play.verb])

    def retreats(self, battle: dict, role: str) -> list[str]:
        towns = {b["town"] for b in self.state.pending["fought"]}
        return retreat_towns(self.scenario, self.state, battle["town"], battle["sides"][role], role == "att",
                             set(battle["entries"]), towns)

    def check_withdraw(self, play: Play, token) -> None:
        """WITHDRAW ... TO <town>: a town the blocks' battle may be left to (§7.1)."""
        for bid in play.blocks:
            battle = self.board_of(bid)
            if battle is None:
                continue  # said at the block
            role = battle["blocks"][bid]["role"]
            allowed = self.retreats(battle, role)
            if play.where not in allowed:
                self.fail(token, say("%(to)s is not a town the battle of %(town)s may be left to (§7.1)",
                                     to=Name(self.scenario.board.name(play.where)),
                                     town=Name(self.scenario.board.name(battle["town"]))), token.text,
                          say("one of %(towns)s", towns=Join(Name(self.scenario.board.name(t)) for t in allowed))
                          if allowed else say("no town: every road out is closed (§7.1)"))

    def check_reinforce(self, bid: str, token) -> None:
        """REINFORCE: a block in a town next to a waiting battle of its side, free to come (§6.34)."""
        block = self.state.blocks[bid]
        side = ARMY_SIDE[block.army]
        towns = {b["town"] for b in self.state.pending["fought"]}
        near = [b for b in self.state.pending["fought"] if side in b["sides"].values()
                and block.town in self.scenario.board.adjacent(b["town"])]
        if block.town in towns or not near:
            self.fail(token, say("%(block)s is not in a town next to a battle of yours", block=bid), token.text,
                      say("your blocks in the towns next to a battle waiting for its next round"))
        if block.disorganized:
            self.fail(token, say("%(block)s is disorganised: it joins no battle this turn (§7.3)", block=bid),
                      token.text, say("blocks that have not retreated this turn"))


EXPECTED = {"ENGAGE": say("your blocks in your own positions, not engaged"),
            "DISENGAGE": say("your engaged blocks"),
            "SHIFT": say("your blocks not engaged, and where they may go"),
            "FIRE": say("your blocks in a position"),
            "FORM": say("your infantry in your own positions"),
            "BREAK": say("your blocks in square"),
            "WITHDRAW": say("your blocks in that battle")}


def check_plays(plays: list[Play]):
    """One action a block a round (§6.3): the second order naming a block is refused at its column."""
    from .words import SaidProblem

    problems, seen = [], {}
    for play in plays:
        if play.verb == "REINFORCE":
            continue
        for bid in play.blocks:
            if bid in seen:
                first = seen[bid]
                message = (say("%(block)s is given a second action this round (also %(verb)s on this line; §6.3: "
                               "a block moves, fires or retreats once a round)", block=bid, verb=first.verb)
                           if first is play else
                           say("%(block)s is given a second action this round (also %(verb)s on line %(line)s; "
                               "§6.3: a block moves, fires or retreats once a round)", block=bid, verb=first.verb,
                               line=first.line))
                problems.append(SaidProblem.of(play.line, play.columns.get(bid, 1), message, bid,
                                               say("one action a block a round")))
            else:
                seen[bid] = play
    return problems
