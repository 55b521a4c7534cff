"""What both Marengo-family positions share: a block's place (on the map, in a locale's
reserve or on an approach), the index of where a state's blocks are, and a state's
plain-data form and digest. Each game's state.py holds its own Block and State
dataclasses (Triomphe's with discs and disorganisation) and mixes these in."""

from __future__ import annotations

from bisect import insort
from dataclasses import asdict, dataclass

from pbem.core import digest as digests


class Placed:
    """Mixed into a Block (fields ``status``, ``locale``, ``facing``)."""

    @property
    def on_map(self) -> bool:
        return self.status == "map"

    def where(self) -> tuple[str | None, str | None]:
        return (self.locale, self.facing)


@dataclass
class Piece(Placed):
    """What every block is: its id, side, name, type and strength, and where it is.
    Each game's Block adds its own fields after these."""

    id: str
    side: str
    name: str
    type: str  # infantry, cavalry, artillery
    strength: int
    locale: str | None = None  # None while off the map (waiting, or eliminated)
    facing: str | None = None  # None: in the reserve; else the locale its approach faces
    status: str = "map"  # "map", "waiting" (not yet entered), "eliminated"


class Saved:
    """Mixed into a State dataclass whose ``blocks`` are ``BLOCK`` dataclasses: the plain data
    the log and the export hold, read back, and the digest that pins a position."""

    BLOCK: type = object  # the game's Block

    def to_dict(self) -> dict:
        return asdict(self)

    @classmethod
    def from_dict(cls, data: dict):
        data = dict(data)
        data["blocks"] = {k: cls.BLOCK(**{**v, "entries": tuple(v.get("entries", ())),
                                          "bombard_days": tuple(v.get("bombard_days", ()))})
                          for k, v in data["blocks"].items()}
        return cls(**data)

    def digest(self) -> str:
        """SHA-256 of ``to_dict()`` as sorted JSON (its first 16 hex digits), without the copy."""
        return digests.digest(self)


class Indexed:
    """Mixed into a State dataclass whose ``blocks`` (id -> block) never gain or lose a block: where
    the blocks on the map are, by (locale, side), for the lookups a day runs thousands of times, and
    each side's blocks on the map in the order of ``blocks`` (the order a scan gives). Built by the
    state's copy (:meth:`copied_blocks`) or at the first lookup, then kept up to date by :meth:`placed`,
    which the state's ``put`` calls: once a state is in play (a copy, or looked at), a block's locale,
    side or status changes only through ``put``. :meth:`check_index` says whether that held (self-play
    and the tests check it). The state's ``__post_init__`` calls :meth:`unindexed`."""

    SIDES: tuple[str, ...] = ()  # the game's sides, in order

    def unindexed(self) -> None:
        self._where: dict[tuple[str, str], list] | None = None
        self._rank: dict[str, int] = {}  # a block's place in self.blocks (the order a scan gives)
        self._on_map: dict[str, list] = {}  # each side's blocks on the map, in that order

    def _index(self) -> dict[tuple[str, str], list]:
        if self._where is None:
            self._where = where_of(self.blocks.values())
            self._on_map = on_map_of(self.blocks.values())
            self._rank = {bid: i for i, bid in enumerate(self.blocks)}
        return self._where

    def placed(self, block, locale: str | None, status: str) -> None:
        """The index told that ``block`` goes to ``locale`` with ``status`` (before its fields change)."""
        where = self._where
        if where is None:
            return
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

    def check_index(self) -> bool:
        """Whether the lookups' index and the sides' lists agree with the blocks (a scan of them, in
        their order) and hold this state's own blocks."""
        if self._where is None:
            return True

        def ids(where):
            return {key: [b.id for b in bucket] for key, bucket in where.items() if bucket}

        def own(where):  # the index holds this state's blocks, not equal ones of another state
            return all(self.blocks.get(b.id) is b for bucket in where.values() for b in bucket)

        return (self._rank == {bid: i for i, bid in enumerate(self.blocks)}
                and ids(where_of(self.blocks.values()))
                == ids({key: self._in_order(bucket) for key, bucket in self._where.items()})
                and ids(on_map_of(self.blocks.values())) == ids(self._on_map)
                and own(self._where) and own(self._on_map))

    def copied_blocks(self) -> tuple[dict, dict, dict]:
        """(the blocks copied, the copy's index, its sides' lists), built on the way: a block's fields
        are strings, numbers, None and tuples, so copying its ``__dict__`` copies it."""
        new = object.__new__
        blocks = {}
        where: dict[tuple[str, str], list] = {}
        on_map: dict[str, list] = {side: [] for side in self.SIDES}
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
        return blocks, where, on_map

    def _in_order(self, blocks) -> list:
        """Blocks in the order of ``self.blocks`` (as a scan would give them)."""
        if len(blocks) > 1:
            rank = self._rank
            return sorted(blocks, key=lambda b: rank[b.id])
        return list(blocks)

    # -- looking at the position

    def side_blocks(self, side: str, on_map: bool = True) -> list:
        if not on_map:
            return [b for b in self.blocks.values() if b.side == side]
        if self._where is not None:  # in play: the list kept beside the index (a copy: the caller's own)
            return list(self._on_map.get(side, ()))
        return [b for b in self.blocks.values() if b.side == side and b.status == "map"]

    def in_locale(self, locale: str, side: str | None = None) -> list:
        where = self._index()
        if side is not None:
            return self._in_order(where.get((locale, side), ()))
        return self._in_order([b for s in self.SIDES for b in where.get((locale, s), ())])

    def at(self, locale: str, facing: str | None, side: str) -> list:
        return self._in_order([b for b in self._index().get((locale, side), ()) if b.facing == facing])

    def count_in(self, locale: str, side: str) -> int:
        """How many of ``side``'s blocks are in ``locale`` (reserve and approaches)."""
        return len(self._index().get((locale, side), ()))

    def held_by(self, side: str) -> set[str]:
        """Every locale where ``side`` has a block on the map."""
        return {locale for (locale, s), bucket in self._index().items() if s == side and bucket}

    def occupied_by(self, locale: str, side: str) -> bool:
        return bool(self._index().get((locale, side)))


def where_of(blocks) -> dict[tuple[str, str], list]:
    """The blocks on the map by (locale, side), in the order given (a state's index)."""
    where: dict[tuple[str, str], list] = {}
    for b in blocks:
        if b.status == "map":
            where.setdefault((b.locale, b.side), []).append(b)
    return where


def on_map_of(blocks) -> dict[str, list]:
    """Each side's blocks on the map, in the order given (a state's side_blocks)."""
    out: dict[str, list] = {}
    for b in blocks:
        if b.status == "map":
            out.setdefault(b.side, []).append(b)
    return out
