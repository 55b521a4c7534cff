"""The position of a Marengo game: blocks, morale, the clock, standing orders.

A state is plain data (dataclasses of strings, numbers, lists and dicts) so it
can be copied, compared, hashed and stored as JSON.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.games.simmons.sides import enemy  # noqa: F401 (the game's name)
from pbem.games.simmons.state import Indexed, Piece, Saved

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
class State(Saved, Indexed):
    BLOCK = Block  # its blocks' class (Saved.from_dict)
    SIDES = SIDES  # Indexed's lookups

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
        self.unindexed()  # the index of where the blocks are (simmons.state.Indexed)

    def put(self, block: Block, locale: str | None, facing: str | None = None, status: str = "map") -> None:
        """Move ``block`` to ``locale`` (its reserve, or the approach toward ``facing``),
        or off the map (``locale=None`` with the ``status`` it gets)."""
        self.placed(block, locale, status)
        block.status, block.locale, block.facing = status, locale, facing

    def copy(self) -> "State":
        """A deep copy, much faster than copy.deepcopy (states are copied every day).

        The blocks are copied by ``Indexed.copied_blocks``. Standing orders and the last moves are dicts
        that are replaced, never changed in place (simmons.standing.update_standing,
        rules.end_of_day), so their lists are copied and the dicts shared.
        """
        new = object.__new__
        blocks, where, on_map = self.copied_blocks()  # the copy's index and lists built on the way
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
