"""The marshal: a French player with a plan, from its seat's view alone.

The French win by holding two of the three supply cities at the end of a turn of 22 June,
or by breaking both Allied armies (§11.1). The marshal plays for the cities, Brussels
first, as one army:

- **concentrate**: the biggest stack is the army; the second group move of each turn
  brings the largest stack elsewhere toward the army (or, once the army stands on the
  road, toward the army's objective), so the corps meet before the Allies do;
- **march on Brussels**, then on the nearer of Ghent and Liège, by the shortest roads,
  the whole army at once (a road's limit caps a move, §5.4; the rest follow);
- **fight with superiority**: a town held by the enemy is attacked only by day and only
  with at least half again the strength the marshal reckons is there (the enemy it cannot
  see counted at the Allies' mean block strength); else the army waits for the others;
- **keep what it took**: a supply city it holds keeps a garrison of two blocks when the
  army marches on;
- **avoid night losses**: no attack at night (§5.7 forbids it anyway) and, at night, no
  march next to an enemy stronger than the stack that would arrive.

Battles are fought by a doctrine for the attacker (a reserve of one, withdrawing below a
quarter of the strength it began with). Each candidate MOVE is kept only if the engine's
own check (movement.check_moves, on a position rebuilt from the view) finds nothing wrong
with the orders so far, so the orders are legal by construction. The Allied seats play as
the general (general.py).
"""

from __future__ import annotations

from collections import defaultdict

from .blocks import ARMY_SIDE
from .general import distances, general_orders
from .movement import check_moves
from .orders import Move
from .scenario import SEAT_ARMY
from .state import Block, State

ENEMY_STRENGTH = 3  # a block of the enemy's that the view does not show, reckoned at about the Allies' mean
SUPERIORITY = 1.5  # attack only with half again the enemy's reckoned strength
GARRISON = 2  # blocks left in a supply city the army marches out of
DOCTRINE = "DOCTRINE RESERVE 1\nDOCTRINE WITHDRAW 25\nDOCTRINE REINFORCE YES\n"


def marshal_orders(scenario, view: dict, seed: int) -> str:
    seat = view["seat"]
    if SEAT_ARMY.get(seat) != "french":
        return general_orders(scenario, view, seed)
    if view["phase"] == "auction":
        return "BID 0\n" if seat in view["owing"] else ""
    if view["phase"] != "campaign" or seat not in view["owing"]:
        return general_orders(scenario, view, seed)  # deployments by the general's rules, else the doctrine
    return plan(scenario, view) + DOCTRINE


def position(view: dict) -> State:
    """A position with the view's blocks: its own in full, the enemy it cannot see as stand-ins."""
    state = State(turn=view["turn"], players=view["players"])
    for b in view["blocks"]:
        state.blocks[b["id"]] = Block(b["id"], b["army"], b["town"], b["strength"])
    for n, h in enumerate(view["hidden"]):
        for k in range(h["count"]):
            key = f"?{n}-{k}"
            state.blocks[key] = Block(key, h["army"], h["town"], ENEMY_STRENGTH)
    return state


def plan(scenario, view: dict) -> str:
    board = scenario.board
    state = position(view)
    stacks: dict[str, list[dict]] = defaultdict(list)
    for b in view["blocks"]:
        if b["army"] == "french":
            stacks[b["town"]].append(b)
    enemy: dict[str, int] = defaultdict(int)
    for b in state.blocks.values():
        if b.town and ARMY_SIDE[b.army] != "france":
            enemy[b.town] += b.strength
    if not stacks:
        return ""

    def power(blocks) -> int:
        return sum(b["strength"] for b in blocks)

    order = sorted(stacks, key=lambda t: (-power(stacks[t]), t))
    army = order[0]
    cities = list(board.supply_cities())
    held = [c for c in cities if c in stacks]
    goal = "brussels" if "brussels" in cities and "brussels" not in held else None
    if goal is None:
        rest = [c for c in cities if c not in held]
        goal = min(rest, key=lambda c: (distances(board, army).get(c, 99), c)) if rest else army
    moves: list[Move] = []
    lines: list[str] = []

    def fits(move: Move) -> bool:
        move.line = len(moves) + 1
        return not check_moves(scenario, state, view["seat"], moves + [move])

    def march(start: str, toward: str, keep: int) -> None:
        """The stack at ``start`` one town toward ``toward``: every block that may, a garrison kept."""
        if start == toward:
            return
        far = distances(board, toward)
        options = sorted(board.adjacent(start), key=lambda t: (far.get(t, 99), enemy.get(t, 0), t))
        blocks = sorted(stacks[start], key=lambda b: (b["strength"], b["type"] != "leader", b["id"]))
        going = [b for b in blocks[keep:]]
        if not going:
            return
        for nxt in options[:2]:
            if far.get(nxt, 99) >= far.get(start, 99):
                break
            ids = [b["id"] for b in sorted(going, key=lambda b: (-b["strength"], b["id"]))]
            strength = power(going)
            if nxt in enemy:
                if view["night"] or strength < SUPERIORITY * enemy[nxt]:
                    continue  # not strong enough there: try the other road, else wait for the others
            elif view["night"] and any(enemy.get(t, 0) > strength for t in board.adjacent(nxt)):
                continue
            while ids:
                move = Move(ids, [start, nxt])
                if fits(move):
                    moves.append(move)
                    lines.append(f"MOVE {' '.join(ids)} {board.name(start)} -> {board.name(nxt)}")
                    return
                ids = ids[:-1]  # a road's limit, or one group too many: fewer blocks
            return

    keep = GARRISON if army in cities and len(stacks[army]) > GARRISON + 2 else 0
    march(army, goal, keep)
    others = [t for t in order[1:] if not (t in cities and len(stacks[t]) <= GARRISON)]  # not a garrison
    if others:
        second = others[0]
        toward = army if distances(board, second).get(army, 99) > 1 else goal
        keep = GARRISON if second in cities else 0
        march(second, toward, keep)
    return "\n".join(lines) + ("\n" if lines else "")
