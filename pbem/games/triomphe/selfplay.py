"""Bot against bot, with every invariant checked after every turn.

The invariants are the family's (pbem.games.simmons.invariants) and Triomphe's
own. The loop is Triomphe's own harness (``python -m pbem.games.triomphe.selfplay``,
and the pinned games of tests/test_triomphe_selfplay.py): its random bots keep
their seeds for the whole game, which pbem.tools.selfplay's players (a bot
made afresh for each turn from the ruleset's ``bots()``) do not, so the pinned
games would change with that loop.
"""

from __future__ import annotations

from pbem.core.game import Game
from pbem.games.simmons import invariants as family

from . import bot as bots
from .scenario import SIDES, Scenario
from .state import State
from .view import view

ORDERS = 3


def invariants(scenario: Scenario, state: State) -> list[str]:
    """What must hold after every turn; the list of what does not: the family's
    (pbem.games.simmons.invariants) and the index of where blocks are, then the discs, the orders, disorganisation,
    bombardments and the 6 AM round."""
    board = scenario.board
    problems = []
    if not state.check_index():  # before the lookups below, which would build it afresh
        problems.append("the index of where blocks are disagrees with the blocks (a move not made by State.put)")
    problems += family.position(board, state)
    for side in SIDES:
        total = state.uncommitted[side] + sum(state.committed[side].values()) + state.lost[side]
        if total != state.received[side]:
            problems.append(f"discs of {side}: {total} held or lost, {state.received[side]} received")
        if state.uncommitted[side] < 0 or any(n <= 0 for n in state.committed[side].values()):
            problems.append(f"discs of {side}: a negative or empty count")
        if state.demoralised[side] and not (state.over and state.winner != side):
            problems.append(f"{side} demoralised but the game goes on")
    if state.spent > ORDERS:
        problems.append(f"{state.spent} orders spent")
    for b in state.blocks.values():
        if b.disorganised and b.side != "france":
            problems.append(f"{b.id}: an Austrian block disorganised")
        if b.bombard is not None and (b.type != "artillery" or b.facing != b.bombard):
            problems.append(f"{b.id}: a bombardment toward {b.bombard} from {b.locale}>{b.facing}")
    if state.day % 2 == 0 and state.day and scenario.hour(state.day - 1) == scenario.first_hour:
        if any(b.side == "france" and b.on_map and b.facing for b in state.blocks.values()):
            problems.append("a French block blocks an approach in the 6 AM round")
    return problems


def play(scenario: Scenario, seed: int, check=True) -> tuple[Game, list[str]]:
    """One game, bot against bot; returns the game and every broken invariant (with the turn)."""
    from .ruleset import RULESET

    game = Game(RULESET, scenario, seed)
    players = {side: bots.RandomBot(scenario, side, seed * 7 + i) for i, side in enumerate(SIDES)}
    broken = []
    while not game.over:
        side = game.turn().seats[0]
        other = SIDES[1 - SIDES.index(side)]
        state = game.state
        # the random bot writes what the parser reads; what the turn's check refuses (a doomed order) it leaves out
        game.submit(side, bots.fit(scenario, state, side, players[side].orders(view(scenario, state, side))))
        standing = players[other].standing()
        if standing:
            game.submit(other, standing)

        def choose(decision):
            return players[decision.side].choose(decision)

        game.advance(choose=choose)
        if check:
            broken += [f"turn {game.day - 1}: {p}" for p in invariants(scenario, game.state)]
    return game, broken


def main(argv=None) -> int:
    """``python -m pbem.games.triomphe.selfplay [GAMES] [SEED]``: random bots, invariants checked every turn."""
    import sys
    from collections import Counter
    from pbem.paths import MAPS

    from .scenario import load_scenario

    args = list(sys.argv[1:] if argv is None else argv)
    games = int(args[0]) if args else 10
    first = int(args[1]) if len(args) > 1 else 1
    scenario = load_scenario(MAPS / "triomphe.toml")
    results: Counter = Counter()
    bad = 0
    for seed in range(first, first + games):
        game, broken = play(scenario, seed)
        results[game.state.victory.split(":")[0]] += 1
        for problem in broken:
            print(f"seed {seed}: {problem}")
        bad += bool(broken)
    for how, n in results.most_common():
        print(f"{n:5}  {how}")
    print(f"{games} games, {bad} with a broken invariant")
    return 1 if bad else 0


if __name__ == "__main__":
    raise SystemExit(main())
