"""The position of a Triomphe à Marengo game: blocks, morale discs, the clock.

A state is plain data (dataclasses of strings, numbers, tuples, lists and
dicts) so it can be copied, compared, hashed and stored as JSON.
"""

from __future__ import annotations

from bisect import insort
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

    def __post_init__(self) -> None:
        # Where the blocks on the map are, by (locale, side), for the lookups below (they run
        # thousands of times a game), as Marengo's state keeps it. Built by copy() or at the first
        # lookup, then kept up to date by put(): once a state is in play (a copy, or looked at), a
        # block's locale, side or status changes only through put(), and no block is added.
        # check_index() says whether that held; self-play and the tests check it.
        self._where: dict[tuple[str, str], list[Block]] | None = None
        self._rank: dict[str, int] = {}  # a block's place in self.blocks (the order a scan gives)
        # and each side's blocks on the map, in the order of self.blocks (side_blocks), kept with _where
        self._on_map: dict[str, list[Block]] = {}
        # each side's waiting cells that still hold a block (T14's closed locales), kept by put() as well
        self._waiting: dict[str, frozenset[str]] | None = None

    def _index(self) -> dict[tuple[str, str], list[Block]]:
        if self._where is None:
            self._where = where_of(self.blocks.values())
            self._on_map = on_map_of(self.blocks.values())
            self._rank = {bid: i for i, bid in enumerate(self.blocks)}
        return self._where

    def check_index(self) -> bool:
        """Whether the lookups' index, the sides' lists and the waiting cells agree with the blocks (a scan
        of them, in their order)."""
        if self._waiting is not None and self._waiting != waiting_of(self.blocks.values()):
            return False
        if self._where is None:
            return True

        def ids(where):
            return {key: [b.id for b in bucket] for key, bucket in where.items() if bucket}

        def own(where):  # the index holds this state's blocks, not equal ones of another state
            return all(self.blocks.get(b.id) is b for bucket in where.values() for b in bucket)

        scan = where_of(self.blocks.values())
        return (self._rank == {bid: i for i, bid in enumerate(self.blocks)}
                and ids(scan) == ids({key: self._in_order(bucket) for key, bucket in self._where.items()})
                and ids(on_map_of(self.blocks.values())) == ids(self._on_map)
                and own(self._where) and own(self._on_map))

    def _in_order(self, blocks) -> list[Block]:
        """Blocks in the order of ``self.blocks`` (as a scan would give them)."""
        if len(blocks) > 1:
            rank = self._rank
            return sorted(blocks, key=lambda b: rank[b.id])
        return list(blocks)

    # -- looking at the position

    def side_blocks(self, side: str, on_map: bool = True) -> list[Block]:
        if not on_map:
            return [b for b in self.blocks.values() if b.side == side]
        if self._where is not None:  # in play: the list kept beside the index (a copy: the caller's own)
            return list(self._on_map.get(side, ()))
        return [b for b in self.blocks.values() if b.side == side and b.status == "map"]

    def in_locale(self, locale: str, side: str | None = None) -> list[Block]:
        where = self._index()
        if side is not None:
            return self._in_order(where.get((locale, side), ()))
        return self._in_order([b for s in SIDES for b in where.get((locale, s), ())])

    def at(self, locale: str, facing: str | None, side: str) -> list[Block]:
        return self._in_order([b for b in self._index().get((locale, side), ()) if b.facing == facing])

    def count_in(self, locale: str, side: str) -> int:
        return len(self._index().get((locale, side), ()))

    def occupied_by(self, locale: str, side: str) -> bool:
        return bool(self._index().get((locale, side)))

    def waiting_cells(self, side: str) -> frozenset[str]:
        """The waiting cells where ``side`` still has a block waiting to enter (T14)."""
        if self._waiting is None:
            self._waiting = waiting_of(self.blocks.values())
        return self._waiting.get(side, frozenset())

    def held_by(self, side: str) -> set[str]:
        return {b.locale for b in self.blocks.values() if b.on_map and b.side == side}

    def morale(self, side: str) -> int:
        """000 §18: uncommitted discs plus the discs committed on the map."""
        return self.uncommitted[side] + sum(self.committed[side].values())

    def put(self, block: Block, locale: str | None, facing: str | None = None, status: str = "map") -> None:
        """Move ``block``; a declared bombardment is cancelled if its artillery leaves its place (§10)."""
        if (block.locale, block.facing, block.status) != (locale, facing, status):
            block.bombard = None
        if self._waiting is not None and "waiting" in (block.status, status):
            self._waiting = None  # a block enters (or waits again): the cells are looked at afresh
        where = self._where
        if where is not None:
            was = block.status == "map"
            if was:
                where[(block.locale, block.side)].remove(block)
            if status == "map":
                bucket = where.get((locale, block.side))
                if bucket is None:
                    where[(locale, block.side)] = [block]
                else:
                    bucket.append(block)
            if was != (status == "map"):  # on or off the map: the side's list too, in the blocks' order
                side = self._on_map.setdefault(block.side, [])
                if was:
                    side.remove(block)
                else:
                    rank = self._rank
                    insort(side, block, key=lambda b: rank[b.id])
        block.status, block.locale, block.facing = status, locale, facing

    # -- copies and digests

    def copy(self) -> "State":
        """A deep copy, much faster than copy.deepcopy's walk over every block (a state is copied every
        turn): a block's fields are strings, numbers, None and tuples, so copying its ``__dict__``
        copies it; the discs' dicts are copied, the moves made (T48) copied down to
        their dicts of locales, the index of where blocks are built on the way. Standing orders and
        the last moves are dicts that are replaced, never changed in place
        (simmons.standing.update_standing, sequence.resolve_day), so their lists are copied and the
        dicts shared, as Marengo's."""
        new = object.__new__
        blocks = {}
        where: dict[tuple[str, str], list[Block]] = {}  # the copy's index, built on the way (as where_of)
        on_map: dict[str, list[Block]] = {side: [] for side in SIDES}  # and its lists (as on_map_of)
        for bid, b in self.blocks.items():
            c = new(type(b))
            c.__dict__ = fields = b.__dict__.copy()
            blocks[bid] = c
            if fields["status"] == "map":
                on_map[fields["side"]].append(c)
                key = (fields["locale"], fields["side"])
                bucket = where.get(key)
                if bucket is None:
                    where[key] = [c]
                else:
                    bucket.append(c)
        copied = new(type(self))  # every field as the dataclass's __init__ would set it, without its cost
        copied.__dict__ = dict(
            day=self.day, blocks=blocks, uncommitted=dict(self.uncommitted),
            committed={s: dict(v) for s, v in self.committed.items()}, received=dict(self.received),
            lost=dict(self.lost), moved={s: {**m, "locales": dict(m["locales"])} for s, m in self.moved.items()}, last_entered=dict(self.last_entered),
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


def where_of(blocks) -> dict[tuple[str, str], list[Block]]:
    """The blocks on the map by (locale, side), in the order given (State's index)."""
    where: dict[tuple[str, str], list[Block]] = {}
    for b in blocks:
        if b.status == "map":
            where.setdefault((b.locale, b.side), []).append(b)
    return where


def on_map_of(blocks) -> dict[str, list[Block]]:
    """Each side's blocks on the map, in the order given (State.side_blocks)."""
    out: dict[str, list[Block]] = {}
    for b in blocks:
        if b.status == "map":
            out.setdefault(b.side, []).append(b)
    return out


def waiting_of(blocks) -> dict[str, frozenset[str]]:
    """Each side's waiting cells that hold a block (State.waiting_cells)."""
    cells: dict[str, set[str]] = {}
    for b in blocks:
        if b.status == "waiting" and b.cell is not None:
            cells.setdefault(b.side, set()).add(b.cell)
    return {side: frozenset(c) for side, c in cells.items()}
