"""The position of a Triomphe à Marengo game: blocks, morale discs, the clock.

A state is plain data (dataclasses of strings, numbers, tuples, lists and
dicts) so it can be copied, compared, hashed and stored as JSON.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field

from pbem.games.simmons.sides import enemy  # noqa: F401 (the game's name)
from pbem.games.simmons.state import Piece, Saved

from .scenario import SIDES


@dataclass
class Block(Piece):
    """A block: the family's fields (pbem.games.simmons.state.Piece), then the game's."""

    cell: str | None = None  # the waiting cell it enters from (000 §15)
    arrives: int | None = None  # hour from which it may enter
    entries: tuple[str, ...] = ()  # the entry points it may use
    disorganised: bool = False  # 000 §14
    bombard: str | None = None  # artillery: the locale a declared bombardment aims at (000 §10)
    bombard_days: tuple[int, ...] = ()  # turns on which it declared or completed one


@dataclass
class State(Saved):
    BLOCK = Block  # its blocks' class (Saved.from_dict)

    day: int = 0  # turns resolved; turn d is SIDES[d % 2]'s turn of hour first_hour + d // 2
    blocks: dict[str, Block] = field(default_factory=dict)
    uncommitted: dict[str, int] = field(default_factory=dict)  # 000 §18
    committed: dict[str, dict[str, int]] = field(default_factory=dict)  # side -> locale -> discs
    received: dict[str, int] = field(default_factory=dict)  # discs ever had (start + track)
    lost: dict[str, int] = field(default_factory=dict)
    moved: dict[str, dict] = field(default_factory=dict)  # side -> {"day": d, "locales": {locale: n}} (T48)
    last_entered: dict[str, str] = field(default_factory=dict)  # locale -> side of the last block in (T47)
    demoralised: dict[str, bool] = field(default_factory=dict)
    standing: dict[str, list[dict]] = field(default_factory=lambda: {s: [] for s in SIDES})
    spent: int = 0  # orders spent in the last turn resolved
    winner: str | None = None
    victory: str = ""
    over: bool = False
    last_moves: list[dict] = field(default_factory=list)

    # -- looking at the position

    def side_blocks(self, side: str, on_map: bool = True) -> list[Block]:
        return [b for b in self.blocks.values() if b.side == side and (b.on_map or not on_map)]

    def in_locale(self, locale: str, side: str | None = None) -> list[Block]:
        return [b for b in self.blocks.values()
                if b.on_map and b.locale == locale and (side is None or b.side == side)]

    def at(self, locale: str, facing: str | None, side: str) -> list[Block]:
        return [b for b in self.blocks.values()
                if b.on_map and b.side == side and b.locale == locale and b.facing == facing]

    def count_in(self, locale: str, side: str) -> int:
        return sum(1 for b in self.blocks.values() if b.on_map and b.side == side and b.locale == locale)

    def occupied_by(self, locale: str, side: str) -> bool:
        return any(b.on_map and b.side == side and b.locale == locale for b in self.blocks.values())

    def held_by(self, side: str) -> set[str]:
        return {b.locale for b in self.blocks.values() if b.on_map and b.side == side}

    def morale(self, side: str) -> int:
        """000 §18: uncommitted discs plus the discs committed on the map."""
        return self.uncommitted[side] + sum(self.committed[side].values())

    def put(self, block: Block, locale: str | None, facing: str | None = None, status: str = "map") -> None:
        """Move ``block``; a declared bombardment is cancelled if its artillery leaves its place (§10)."""
        if (block.locale, block.facing, block.status) != (locale, facing, status):
            block.bombard = None
        block.status, block.locale, block.facing = status, locale, facing

    # -- copies and digests

    def copy(self) -> "State":
        """A deep copy, much faster than copy.deepcopy's walk over every block (a state is copied every
        turn): a block's fields are strings, numbers, None and tuples, so copying its ``__dict__``
        copies it; the discs' dicts are copied, the moves made (T48) deep-copied. Standing orders and
        the last moves are dicts that are replaced, never changed in place
        (simmons.standing.update_standing, sequence.resolve_day), so their lists are copied and the
        dicts shared, as Marengo's."""
        new = object.__new__
        blocks = {}
        for bid, b in self.blocks.items():
            c = new(type(b))
            c.__dict__ = b.__dict__.copy()
            blocks[bid] = c
        copied = new(type(self))  # every field as the dataclass's __init__ would set it, without its cost
        copied.__dict__ = dict(
            day=self.day, blocks=blocks, uncommitted=dict(self.uncommitted),
            committed={s: dict(v) for s, v in self.committed.items()}, received=dict(self.received),
            lost=dict(self.lost), moved=copy.deepcopy(self.moved), last_entered=dict(self.last_entered),
            demoralised=dict(self.demoralised), standing={s: list(v) for s, v in self.standing.items()},
            spent=self.spent, winner=self.winner, victory=self.victory, over=self.over,
            last_moves=list(self.last_moves),
        )
        return copied

    def __deepcopy__(self, memo) -> "State":
        return self.copy()
