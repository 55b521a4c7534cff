"""The position of a Marengo game: blocks, morale, the clock, standing orders.

A state is plain data (dataclasses of strings, numbers, lists and dicts) so it
can be copied, compared, hashed and stored as JSON.
"""

from __future__ import annotations

from bisect import insort
from dataclasses import dataclass, field

from pbem.games.simmons.sides import enemy  # noqa: F401 (the game's name)
from pbem.games.simmons.state import Piece, Saved

from .scenario import SIDES

RESERVE = None  # a block's ``facing`` when it is in the reserve of its locale


@dataclass
class Block(Piece):
    """A block: the family's fields (pbem.games.simmons.state.Piece), then the game's."""

    arrives: int | None = None  # hour a waiting reinforcement may enter
    entries: tuple[str, ...] = ()  # entry points it may use (empty: any); never changes
    activated: bool = True  # French start blocks begin False (003 §6 step 6)
    bombard: str | None = None  # artillery: the locale it declared a bombardment toward
    bombard_days: tuple[int, ...] = ()  # days it declared or resolved one (a new tuple each time)


@dataclass
class State(Saved):
    BLOCK = Block  # its blocks' class (Saved.from_dict)

    day: int = 0  # days resolved so far; day d is the (d // 2)-th round, SIDES[d % 2]'s day
    blocks: dict[str, Block] = field(default_factory=dict)
    morale: dict[str, int] = field(default_factory=dict)
    demoralised: dict[str, bool] = field(default_factory=dict)
    bonus_due: dict[str, bool] = field(default_factory=dict)  # +5 morale at the start of the next day (003 §13)
    standing: dict[str, list[dict]] = field(default_factory=lambda: {s: [] for s in SIDES})
    french_start: list[str] = field(default_factory=list)  # locales French at the start (003 §6 step 6)
    winner: str | None = None
    victory: str = ""
    over: bool = False
    # per-day facts that outlive the day: what the last day did, for reports and arrows
    last_moves: list[dict] = field(default_factory=list)

    def __post_init__(self) -> None:
        # Where the blocks on the map are, by (locale, side), for the lookups below
        # (they run thousands of times a game). Built by copy() or at the first
        # lookup, then kept up to date by put(): once a state is in play (a copy, or
        # looked at), a block's locale or status changes only through put().
        # check_index() says whether that held; self-play checks it every day.
        self._where: dict[tuple[str, str], list[Block]] | None = None
        self._rank: dict[str, int] = {}
        # and each side's blocks on the map, in the order of self.blocks (side_blocks), kept with _where
        self._on_map: dict[str, list[Block]] = {}

    def _index(self) -> dict[tuple[str, str], list[Block]]:
        if self._where is None:
            self._where = where_of(self.blocks.values())
            self._on_map = on_map_of(self.blocks.values())
            if not self._rank:
                self._rank = {bid: i for i, bid in enumerate(self.blocks)}
        return self._where

    def put(self, block: Block, locale: str | None, facing: str | None = None, status: str = "map") -> None:
        """Move ``block`` to ``locale`` (its reserve, or the approach toward ``facing``),
        or off the map (``locale=None`` with the ``status`` it gets)."""
        where = self._where
        if where is not None:
            was = block.status == "map"
            if was:
                where[(block.locale, block.side)].remove(block)
            if status == "map":
                where.setdefault((locale, block.side), []).append(block)
            if was != (status == "map"):  # on or off the map: the side's list too, in the blocks' order
                side = self._on_map.setdefault(block.side, [])
                if was:
                    side.remove(block)
                else:
                    rank = self._rank
                    insort(side, block, key=lambda b: rank[b.id])
        block.status, block.locale, block.facing = status, locale, facing

    def check_index(self) -> bool:
        """Whether the lookups' index agrees with the blocks (for the self-play invariants)."""
        if self._where is None:
            return True
        def ids(where):
            return {key: {b.id for b in bucket} for key, bucket in where.items() if bucket}

        def in_order(on_map):
            return {side: [b.id for b in bucket] for side, bucket in on_map.items() if bucket}

        return (ids(where_of(self.blocks.values())) == ids(self._where)
                and in_order(on_map_of(self.blocks.values())) == in_order(self._on_map))

    def _in_order(self, blocks: list[Block]) -> list[Block]:
        """Blocks in the order of ``self.blocks`` (as a scan would give them)."""
        if len(blocks) > 1:
            return sorted(blocks, key=lambda b: self._rank[b.id])
        return list(blocks)

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
        """How many of ``side``'s blocks are in ``locale`` (reserve and approaches)."""
        return len(self._index().get((locale, side), ()))

    def held_by(self, side: str) -> set[str]:
        """Every locale where ``side`` has a block on the map."""
        return {locale for (locale, s), bucket in self._index().items() if s == side and bucket}

    def occupied_by(self, locale: str, side: str) -> bool:
        return bool(self._index().get((locale, side)))

    def copy(self) -> "State":
        """A deep copy, much faster than copy.deepcopy (states are copied every day).

        A block's fields are strings, numbers and tuples, so copying its
        ``__dict__`` copies it. Standing orders and the last moves are dicts
        that are replaced, never changed in place (simmons.standing.update_standing,
        rules.end_of_day), so their lists are copied and the dicts shared.
        """
        blocks = {}
        where: dict[tuple[str, str], list[Block]] = {}  # the copy's index, built on the way (as where_of)
        on_map: dict[str, list[Block]] = {side: [] for side in SIDES}  # and its lists (as on_map_of)
        new = object.__new__
        for bid, b in self.blocks.items():
            c = new(Block)
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
        copied = new(State)  # every field as the dataclass's __init__ would set it, without its cost
        copied.__dict__ = dict(
            day=self.day, blocks=blocks, morale=dict(self.morale), demoralised=dict(self.demoralised),
            bonus_due=dict(self.bonus_due), standing={s: list(v) for s, v in self.standing.items()},
            french_start=list(self.french_start), winner=self.winner, victory=self.victory, over=self.over,
            last_moves=list(self.last_moves),
            _where=where,  # the copy is in play at once
            _on_map=on_map,
            _rank=self._rank or {bid: i for i, bid in enumerate(blocks)},  # same blocks, same order
        )
        return copied

    def __deepcopy__(self, memo) -> "State":
        return self.copy()



def on_map_of(blocks) -> dict[str, list[Block]]:
    """Each side's blocks on the map, in the order given (State.side_blocks)."""
    out: dict[str, list[Block]] = {}
    for b in blocks:
        if b.status == "map":
            out.setdefault(b.side, []).append(b)
    return out


def where_of(blocks) -> dict[tuple[str, str], list[Block]]:
    """The blocks on the map by (locale, side), in the order given (State's index)."""
    where: dict[tuple[str, str], list[Block]] = {}
    for b in blocks:
        if b.status == "map":
            where.setdefault((b.locale, b.side), []).append(b)
    return where
