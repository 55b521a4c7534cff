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
with the orders so far, so the orders are legal by construction.

Each Allied army (one group move a turn) plays the same way round: by day it strikes a
French stack next to one of its stacks when it has half again its strength there (a
supply city first: the French garrisons are small); else it gathers its biggest stack not
yet there on the rally point, the town before Brussels on the French army's road to it
(Brussels itself while the French are far), where both Allied armies meet.
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
    if view["phase"] == "auction":
        return "BID 0\n" if seat in view["owing"] else ""
    if view["phase"] != "campaign" or seat not in view["owing"]:
        return general_orders(scenario, view, seed)  # deployments by the general's rules, else the doctrine
    return (plan(scenario, view) if SEAT_ARMY[seat] == "french" else allied_plan(scenario, view)) + DOCTRINE


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
            taken = []
            while ids:
                move = Move(ids, [start, nxt])
                if fits(move):
                    moves.append(move)
                    lines.append(f"MOVE {' '.join(ids)} {board.name(start)} -> {board.name(nxt)}")
                    taken = ids
                    break
                ids = ids[:-1]  # a road's limit, or one group too many: fewer blocks
            going = [b for b in going if b["id"] not in taken]
            if not going or not taken or nxt in enemy:
                return  # the rest (a road was full) take the next road toward the goal, if there is one

    keep = GARRISON if army in cities and len(stacks[army]) > GARRISON + 2 else 0
    march(army, goal, keep)
    others = [t for t in order[1:] if not (t in cities and len(stacks[t]) <= GARRISON)]  # not a garrison
    if others:
        second = others[0]
        toward = army if distances(board, second).get(army, 99) > 1 else goal
        keep = GARRISON if second in cities else 0
        march(second, toward, keep)
    return "\n".join(lines) + ("\n" if lines else "")


def allied_plan(scenario, view: dict) -> str:
    """One Allied army's group move: strike where it is stronger, else gather on the rally point."""
    board, seat = scenario.board, view["seat"]
    army = SEAT_ARMY[seat]
    state = position(view)
    stacks: dict[str, list[Block]] = defaultdict(list)
    french: dict[str, int] = defaultdict(int)
    for b in state.blocks.values():
        if b.town is None:
            continue
        if b.army == army:
            stacks[b.town].append(b)
        elif ARMY_SIDE[b.army] == "france":
            french[b.town] += b.strength
    if not stacks:
        return ""
    cities = board.supply_cities()

    def power(blocks) -> int:
        return sum(b.strength for b in blocks)

    def move_line(ids, start, nxt) -> str | None:
        while ids:
            move = Move(ids, [start, nxt], line=1)
            if not check_moves(scenario, state, seat, [move]):
                return f"MOVE {' '.join(ids)} {board.name(start)} -> {board.name(nxt)}\n"
            ids = ids[:-1]
        return None

    if not view["night"]:  # strike: a supply city first, then the weakest French stack in reach
        strikes = sorted(((t not in cities, french[t] / power(stacks[s]), s, t) for s in stacks
                          for t in board.adjacent(s) if t in french
                          and power(stacks[s]) >= SUPERIORITY * french[t] and len(stacks[s]) >= 1))
        for _, _, start, target in strikes:
            ids = [b.id for b in sorted(stacks[start], key=lambda b: (-b.strength, b.id))]
            line = move_line(ids, start, target)
            if line:
                return line
    if "brussels" not in board.towns:
        return ""
    main = max(french, key=lambda t: (french[t], t)) if french else None
    rally = "brussels"
    if main is not None and main != "brussels":
        to_brussels = distances(board, "brussels")
        if to_brussels.get(main, 99) > 1:
            rally = min((t for t in board.adjacent("brussels") if t not in french),
                        key=lambda t: (distances(board, main).get(t, 99), t), default="brussels")
    far = distances(board, rally)
    for start in sorted(stacks, key=lambda t: (-power(stacks[t]), t)):
        if start == rally:
            continue
        strength = power(stacks[start])
        options = [t for t in board.adjacent(start) if far.get(t, 99) < far.get(start, 99) and t not in french
                   and not (view["night"] and any(french.get(u, 0) > strength for u in board.adjacent(t)))]
        for nxt in sorted(options, key=lambda t: (far.get(t, 99), t)):
            keep = 1 if start in cities and cities[start] == army and len(stacks[start]) > 1 else 0
            ids = [b.id for b in sorted(stacks[start], key=lambda b: (-b.strength, b.id))]
            line = move_line(ids[:len(ids) - keep], start, nxt)
            if line:
                return line
    return ""
