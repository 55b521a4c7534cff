"""The position of a Triomphe à Marengo game: blocks, morale discs, the clock.

A state is plain data (dataclasses of strings, numbers, tuples, lists and
dicts) so it can be copied, compared, hashed and stored as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.simmons.sides import enemy  # noqa: F401 (the game's name)
from pbem.games.simmons.state import Indexed, Piece, Saved

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
class State(Saved, Indexed):
    BLOCK = Block  # its blocks' class (Saved.from_dict)
    SIDES = SIDES  # Indexed's lookups

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

    def __post_init__(self) -> None:
        self.unindexed()  # the index of where the blocks are (simmons.state.Indexed), as Marengo's state keeps it
        # each side's waiting cells that still hold a block (T14's closed locales), kept by put() as well
        self._waiting: dict[str, frozenset[str]] | None = None

    def check_index(self) -> bool:
        """Whether the lookups' index, the sides' lists and the waiting cells agree with the blocks (a scan
        of them, in their order)."""
        if self._waiting is not None and self._waiting != waiting_of(self.blocks.values()):
            return False
        return Indexed.check_index(self)

    # -- looking at the position

    def waiting_cells(self, side: str) -> frozenset[str]:
        """The waiting cells where ``side`` still has a block waiting to enter (T14)."""
        if self._waiting is None:
            self._waiting = waiting_of(self.blocks.values())
        return self._waiting.get(side, frozenset())

    def morale(self, side: str) -> int:
        """000 §18: uncommitted discs plus the discs committed on the map."""
        return self.uncommitted[side] + sum(self.committed[side].values())

    def put(self, block: Block, locale: str | None, facing: str | None = None, status: str = "map") -> None:
        """Move ``block``; a declared bombardment is cancelled if its artillery leaves its place (§10)."""
        if (block.locale, block.facing, block.status) != (locale, facing, status):
            block.bombard = None
        if self._waiting is not None and "waiting" in (block.status, status):
            self._waiting = None  # a block enters (or waits again): the cells are looked at afresh
        self.placed(block, locale, status)
        block.status, block.locale, block.facing = status, locale, facing

    # -- copies and digests

    def copy(self) -> "State":
        """A deep copy, much faster than copy.deepcopy's walk over every block (a state is copied every
        turn): the blocks by ``Indexed.copied_blocks`` (the index of where they are built on the way);
        the discs' dicts copied, the moves made (T48) copied down to their dicts of locales. Standing
        orders and the last moves are dicts that are replaced, never changed in place
        (simmons.standing.update_standing, sequence.resolve_day), so their lists are copied and the
        dicts shared, as Marengo's."""
        new = object.__new__
        blocks, where, on_map = self.copied_blocks()  # the copy's index and lists built on the way
        copied = new(type(self))  # every field as the dataclass's __init__ would set it, without its cost
        copied.__dict__ = dict(
            day=self.day, blocks=blocks, uncommitted=dict(self.uncommitted),
            committed={s: dict(v) for s, v in self.committed.items()}, received=dict(self.received),
            lost=dict(self.lost), moved={s: {**m, "locales": dict(m["locales"])} for s, m in self.moved.items()},
            last_entered=dict(self.last_entered),
            demoralised=dict(self.demoralised), standing={s: list(v) for s, v in self.standing.items()},
            spent=self.spent, winner=self.winner, victory=self.victory, over=self.over,
            last_moves=list(self.last_moves),
            _where=where,  # the copy is in play at once
            _on_map=on_map,
            _waiting=self._waiting,  # frozensets, replaced whole by put()
            _rank=self._rank or {bid: i for i, bid in enumerate(blocks)},  # same blocks, same order
        )
        return copied

    def __deepcopy__(self, memo) -> "State":
        return self.copy()


def waiting_of(blocks) -> dict[str, frozenset[str]]:
    """Each side's waiting cells that hold a block (State.waiting_cells)."""
    cells: dict[str, set[str]] = {}
    for b in blocks:
        if b.status == "waiting" and b.cell is not None:
            cells.setdefault(b.side, set()).add(b.cell)
    return {side: frozenset(c) for side, c in cells.items()}
