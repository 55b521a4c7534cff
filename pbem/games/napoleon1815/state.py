"""The position: where each block stands and its strength, the turn, the armies' losses.

Plain data, copied whole for every turn (the driver deep-copies it); the digest
hashes its JSON form.
"""

from __future__ import annotations

import copy
from dataclasses import asdict, dataclass, field

from pbem.core import digest as digests


@dataclass
class Block:
    id: str
    army: str
    town: str | None  # None: not on the map (eliminated, or not yet set up)
    strength: int
    eliminated: bool = False
    disorganized: bool = False  # §7.3, until the end of the current player's turn


_PLAIN = (int, str, bool)  # a field of these is shared by a copy
_FLAT = frozenset({"lost", "broken", "last_battles", "fled"})  # State's fields holding strings and numbers only


@dataclass
class State:
    turn: int = 0  # 0: Allied setup, 1: French setup, 2...: the track's turns
    blocks: dict[str, Block] = field(default_factory=dict)
    players: int = 2
    battle_mode: str = "doctrine"
    lost: dict[str, int] = field(default_factory=lambda: {"french": 0, "anglo": 0, "prussian": 0})
    broken: list[str] = field(default_factory=list)  # armies broken (§11), in order
    winner: str | None = None  # "france", "allies" or None
    victory: str = ""
    over: bool = False
    last_moves: list[list] = field(default_factory=list)  # [army, from, to, count] of the last turn
    last_battles: list[str] = field(default_factory=list)  # towns fought over last turn
    pending: dict | None = None  # battles waiting for deployment sub-turns (the hybrid mode)
    fled: list[str] = field(default_factory=list)  # blocks of broken armies, removed uncounted (§11)
    bid: dict | None = None  # §13: {"side": "france" or "allies", "steps": n}, the winning bid
    auction: dict | None = None  # §13 held in the game (option bid = auction): {} until its sub-turn is resolved

    def on_map(self, army: str | None = None):
        return [b for b in self.blocks.values() if b.town is not None and (army is None or b.army == army)]

    def at(self, town: str, army: str | None = None) -> list[Block]:
        return [b for b in self.blocks.values() if b.town == town and (army is None or b.army == army)]

    def side_at(self, town: str, side: str) -> list[Block]:
        from .blocks import ARMY_SIDE

        return [b for b in self.blocks.values() if b.town == town and ARMY_SIDE[b.army] == side]

    def __deepcopy__(self, memo) -> "State":
        """A deep copy without copy.deepcopy's walk over every block (the driver copies the state every
        turn): a block's fields are strings, numbers, None and booleans, so copying its ``__dict__``
        copies it; so do the flat fields (the losses, the broken armies, the last turn's moves and battles,
        the fled blocks) with a copy of their dict or lists; the others (a pending battle, the bid, the
        auction) are deep-copied as usual, with the blocks already in the memo (a block referred to
        elsewhere is the copy's block)."""
        new = object.__new__
        blocks = {}
        for bid, b in self.blocks.items():
            c = new(type(b))
            c.__dict__ = b.__dict__.copy()
            blocks[bid] = memo[id(b)] = c
        memo[id(self.blocks)] = blocks
        copied = new(type(self))
        memo[id(self)] = copied
        fields = {}
        for k, v in self.__dict__.items():
            if k == "blocks":
                fields[k] = blocks
            elif v is None or type(v) in _PLAIN:
                fields[k] = v
            elif k in _FLAT:  # a dict or list of strings and numbers
                fields[k] = v.copy()
            elif k == "last_moves":  # lists of strings and numbers
                fields[k] = [list(move) for move in v]
            else:  # pending, bid, auction: nested, rarely there
                fields[k] = copy.deepcopy(v, memo)
        copied.__dict__ = fields
        return copied

    def to_dict(self) -> dict:
        out = asdict(self)
        if out["auction"] is None:  # a game without an auction keeps the digests it always had
            del out["auction"]
        return out

    def digest(self) -> str:
        """SHA-256 of ``to_dict()`` as sorted JSON (its first 16 hex digits), without the copy."""
        out = digests.fields_of(self)
        if out["auction"] is None:  # as to_dict
            del out["auction"]
        return digests.digest(out)
