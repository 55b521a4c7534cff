"""One seat's orders as values: each order parses from a line and prints itself back."""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.orders import Header
from pbem.lang import say

# The standing battle doctrine (docs/napoleon1815-orders.md), key -> (default, what it is: a Text).
DOCTRINE = {
    "ATTACK": ("AUTO", say("engage the enemy: YES, NO, or AUTO (yes when attacking, no when defending)")),
    "RESERVE": ("1", say("blocks kept in reserve when deploying")),
    "COMMIT": ("2", say("the battle round from which the reserve goes in")),
    "WITHDRAW": ("40", say("withdraw when your strength in a battle falls below this percent of its start")),
    "SQUARE": ("YES", say("infantry forms square when enemy cavalry engages it")),
    "SHELTER": ("YES", say("a leader or artillery block shelters in a square formed in its position, one a square")),
    "OCCUPY": ("YES", say("an infantry (farm) or artillery (hill) block takes an empty farm or hill in its position")),
    "REINFORCE": ("YES", say("bring reinforcements from adjacent towns")),
    "REGROUP": ("NO", say("after winning a battle, draw blocks from adjacent towns into it")),
    # §6.34 and §7.5 set no such condition: keeping a block behind is the player's choice, not the rule's
    # §5.6, §9.1: the leader's +1 to forced marches in his town is had by showing him to the enemy
    "SHOW": ("YES", say("show your leader to the enemy before the forced-march rolls in his town, for their +1")),
    "KEEP": ("NO", say("reinforcements and regroup leave one block in each town they draw from")),
}


@dataclass
class Move:
    blocks: list[str]
    path: list[str]  # towns, the first is where the blocks start
    forced: bool = False
    line: int = 0

    @property
    def text(self) -> str:
        return f"MOVE {' '.join(self.blocks)} {' -> '.join(self.path)}" + (" FORCED" if self.forced else "")


@dataclass
class Place:
    blocks: list[str]
    town: str
    line: int = 0

    @property
    def text(self) -> str:
        return f"PLACE {' '.join(self.blocks)} {self.town}"


SECTIONS = ("LEFT", "CENTRE", "RIGHT", "RESERVE")


@dataclass
class Deploy:
    """DEPLOY <town> LEFT ids CENTRE ids RIGHT ids RESERVE ids: one's own left, centre, right."""

    town: str
    sections: dict[str, list[str]]  # LEFT/CENTRE/RIGHT/RESERVE -> block ids
    line: int = 0
    columns: dict[str, int] = field(default_factory=dict, repr=False, compare=False)  # word -> its column

    def text(self, name: str) -> str:
        parts = [f"{k} {' '.join(v)}" for k, v in self.sections.items() if v]
        return f"DEPLOY {name} " + " ".join(parts)


@dataclass
class Orders:
    seat: str
    header: Header = field(default_factory=Header)
    moves: list[Move] = field(default_factory=list)
    places: list[Place] = field(default_factory=list)
    deploys: list[Deploy] = field(default_factory=list)
    doctrine: dict[str, str] = field(default_factory=dict)
    retreat: list[str] = field(default_factory=list)  # preferred retreat towns, in order
    supply: list[str] = field(default_factory=list)  # blocks supply losses remove first
    skirmish: list[str] = field(default_factory=list)  # SKIRMISH: blocks put up first in a skirmish (§6.6)
    hit_first: list[str] = field(default_factory=list)  # HIT FIRST: among equally strong blocks, hit first (§6.4)
    retreat_first: list[str] = field(default_factory=list)  # RETREAT FIRST: take the roads first (§7.2, §7.4)
    terrain: dict[str, str] = field(default_factory=dict)  # TERRAIN <marker> <position>: where it goes (§6.21)
    bid: int | None = None  # BID <steps>: the sealed bid in the auction sub-turn (§13)
    bid_for: str | None = None  # BID FRANCE|ALLIES|ANGLO-DUTCH|PRUSSIAN <steps>: the side bid for (None: one's own)
    bid_loss: list[str] = field(default_factory=list)  # BID LOSS: the blocks that pay the bid at setup (§13)
    commits: list[tuple[list[str], str]] = field(default_factory=list)  # COMMIT <blocks> LEFT|CENTRE|RIGHT
    leave: list[str] = field(default_factory=list)  # LEAVE <town>: battles to withdraw from now (round sub-turns)
    plays: list = field(default_factory=list)  # a round's orders block by block (round_orders.Play)
    asks: list[str] | None = None  # ASK: the triggers to be asked on in the hybrid mode ([]: NONE; None: not said)
    names: dict[str, str] = field(default_factory=dict, repr=False)  # town id -> name, for echo
    lang: str = field(default="en", compare=False, repr=False)  # the words the echo is written in (check_orders)
    final: bool = False

    def doctrine_of(self, key: str) -> str:
        return self.doctrine.get(key, DOCTRINE[key][0])

    def echo(self) -> str:
        def name(t):
            return self.names.get(t, t)

        lines = [Place(p.blocks, name(p.town)).text for p in self.places]
        lines += [Move(m.blocks, [name(t) for t in m.path], m.forced).text for m in self.moves]
        lines += [d.text(name(d.town)) for d in self.deploys]
        lines += [f"DOCTRINE {k} {v}" for k, v in self.doctrine.items()]
        if self.retreat:
            lines.append("RETREAT TO " + ", ".join(name(t) for t in self.retreat))
        if self.supply:
            lines.append("SUPPLY LOSS " + " ".join(self.supply))
        lines += [f"COMMIT {' '.join(ids)} {where}" for ids, where in self.commits]
        lines += [f"LEAVE {name(t)}" for t in self.leave]
        lines += [p.text(name) for p in self.plays]
        if self.bid is not None:
            lines.append(f"BID {self.bid_for.upper()} {self.bid}" if self.bid_for else f"BID {self.bid}")
        if self.bid_loss:
            lines.append("BID LOSS " + " ".join(self.bid_loss))
        lines += [f"TERRAIN {m.upper()} {p}" for m, p in self.terrain.items()]
        for word, ids in (("SKIRMISH", self.skirmish), ("HIT FIRST", self.hit_first),
                          ("RETREAT FIRST", self.retreat_first)):
            if ids:
                lines.append(f"{word} {' '.join(ids)}")
        if self.asks is not None:
            lines.append("ASK " + (" ".join(self.asks) or "NONE"))
        if self.final:
            lines.append("FINAL")
        if self.lang != "en":  # in that language's order words and towns' spellings, which read back the same
            from .words import order_in

            lines = [order_in(line, self.lang) for line in lines]
        return "\n".join(lines)
