"""What a side of a Marengo-family game sees of the enemy: blocks of the enemy's colour
standing in a locale's reserve or along an approach, never their ids or names.

Each game says what one enemy block shows (``seen_as``: at least ``locale`` and
``facing``, and what else its rules reveal); the list is sorted by place and by
what it shows, so that its order says nothing of the blocks' ids.
"""

from __future__ import annotations


def enemy_as_seen(board, blocks, foe: str, seen_as) -> list[dict]:
    """The on-map blocks of ``foe`` among ``blocks`` as ``seen_as(block)`` shows each, in board order."""
    order = {lid: i for i, lid in enumerate(board.locales)}
    seen = [seen_as(block) for block in blocks if block.side == foe and block.on_map]

    def key(entry: dict):
        shown = tuple(str(entry[k]) for k in sorted(entry) if k not in ("side", "locale", "facing"))  # pragma: no mutate (one side; facing is keyed already)
        return (order.get(entry["locale"], 0), entry["facing"] or "", shown)

    return sorted(seen, key=key)
