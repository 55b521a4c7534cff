"""What a side of a Marengo-family game sees of the enemy: blocks of the enemy's colour
standing in a locale's reserve or along an approach, never their ids or names.

Each game says what one enemy block shows (``seen_as``: at least ``locale`` and
``facing``, and what else its rules reveal); the list is sorted by place and by
what it shows, so that its order says nothing of the blocks' ids.
:func:`own_and_seen` fills the parts of a view both games build alike: the
reader's own blocks, the enemy as seen, the standing orders in force.
"""

from __future__ import annotations

from operator import itemgetter

from .sides import SIDES, enemy


def enemy_as_seen(board, blocks, foe: str, seen_as) -> list[dict]:
    """The on-map blocks of ``foe`` among ``blocks`` as ``seen_as(block)`` shows each, in board order (then
    facing, then what each shows: each entry's key written in one pass, the sort stable)."""
    order = board.rank
    seen = [seen_as(block) for block in blocks if block.side == foe and block.on_map]
    keyed = [((order.get(e["locale"], 0), e["facing"] or "", tuple([str(e[k]) for k in _shown(tuple(e))])), e)
             for e in seen]
    keyed.sort(key=itemgetter(0))
    return [e for _, e in keyed]


_SHOWN: dict[tuple, tuple] = {}  # an entry's keys -> what it shows besides its place, the keys sorted


def _shown(keys: tuple) -> tuple:
    """The keys of an enemy entry (with ``keys``) that its sort reads after its place, sorted: a game's
    entries all have the same few, so they are sorted once."""
    shown = _SHOWN.get(keys)
    if shown is None:
        shown = _SHOWN[keys] = tuple(sorted(k for k in keys if k not in ("side", "locale", "facing")))  # pragma: no mutate (one side; facing is keyed already)
    return shown


def own_and_seen(out: dict, board, state, side: str | None, block_dict, seen_as) -> None:
    """Fill a view's ``blocks`` (the reader's own as ``block_dict`` gives them; every block for
    the moderator, ``side=None``), ``enemy`` (as :func:`enemy_as_seen`) and ``standing`` (the
    texts of the reader's standing orders; every side's for the moderator)."""
    for block in state.blocks.values():
        if side is None or block.side == side:
            out["blocks"].append(block_dict(block))
    if side is not None:
        out["enemy"] = enemy_as_seen(board, state.blocks.values(), enemy(side), seen_as)
    for s in SIDES:
        if side is None or s == side:
            out["standing"][s] = [d.get("text", "") for d in state.standing.get(s, [])]
