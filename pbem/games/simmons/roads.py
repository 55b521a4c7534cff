"""The road-step model of the Marengo family: which road a step takes across a
border, and the ledger of the crossings used in one side's turn.

Both rule books (003 §8, 000 §8) count a road march in three steps and let
three blocks a turn use one crossing (a border crossed by a road, or an entry
point), one at each step, all in one direction. Where they differ is which step
a block takes there, and each game says which it follows (``queue``):

- Bonaparte at Marengo (003 §8, rules-notes V3 and V9): «un seul peut en être à
  son premier mouvement du tour, un seul à son second ... Les mouvements doivent
  être faits dans l'ordre»: a block takes the lowest step still free above its
  own last one (``queue=False``);
- Triomphe à Marengo (000 §8, rules-notes T12): «кожна робить свій відповідний
  перетин у подальшому кроці, ніж попередня фігура»: a block crosses at a later
  step than every block before it there (``queue=True``).
"""

from __future__ import annotations

STEPS = 3  # 003 §8 and 000 §8: a road march is three steps; three blocks a turn on one crossing

OTHER_WAY = "direction"  # why no step is free: the crossing was used the other way this turn
FULL = "full"  # ... or its steps are used up


def main_first(board, a: str, b: str) -> list:
    """The roads across the border between ``a`` and ``b``: main roads first, then by id."""
    return sorted(board.roads_across(a, b), key=lambda r: (not r.main, r.id))


def free_step(used: dict, key: tuple, direction: tuple, after: int, queue: bool) -> tuple[int | None, str]:
    """The step at which a block whose last step was ``after`` crosses ``key`` going
    ``direction``, as (step, ""), or (None, OTHER_WAY or FULL). ``used`` is the turn's
    ledger, {key: {"slots": [steps], "dir": direction}} (:func:`take_step`)."""
    use = used.get(key)
    if use and use["dir"] != direction:
        return None, OTHER_WAY
    taken = use["slots"] if use else []
    if queue:
        step = max([after] + taken) + 1
        return (step, "") if step <= STEPS else (None, FULL)
    step = next((n for n in range(after + 1, STEPS + 1) if n not in taken), None)
    return (step, "") if step is not None else (None, FULL)


def take_step(used: dict, key: tuple, step: int, direction: tuple) -> None:
    """Record that a block crossed ``key`` at ``step`` going ``direction``."""
    use = used.setdefault(key, {"slots": [], "dir": direction})
    use["slots"].append(step)
