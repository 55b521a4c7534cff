"""What self-play checks after every turn (check_turn), and a finished game for balance runs."""

from __future__ import annotations

from collections import Counter


def check_turn(scenario, result) -> list[str]:
    before, after = result.before, result.after
    problems = []
    paused = after.pending is not None or before.pending is not None
    if before.auction is not None:  # §13: the auction sub-turn settles the bid and moves nothing
        if after.turn != before.turn or after.auction is not None or not after.bid:
            problems.append(f"the auction left turn {after.turn}, auction {after.auction}, bid {after.bid}")
        elif after.bid["steps"] != max(after.bid["bids"].values()) or not 0 <= after.bid["steps"] <= 10:
            problems.append(f"the auction's bid {after.bid} is not the higher of the bids")
        if any(b.town is not None or b.strength != a.strength for b, a in zip(after.blocks.values(),
                                                                              before.blocks.values())):
            problems.append("a block was set up or lost a step in the auction")
        return problems
    if after.turn != before.turn + 1 and not (after.pending is not None and after.turn == before.turn):
        problems.append(f"the turn went from {before.turn} to {after.turn}")
    towns = Counter()
    for b in after.blocks.values():
        spec = scenario.blocks[b.id]
        if b.eliminated:
            if b.town is not None or b.strength != 0:
                problems.append(f"eliminated {b.id} still stands in {b.town} at strength {b.strength}")
            if not before.blocks[b.id].eliminated and before.blocks[b.id].town is None and before.turn >= 2:
                problems.append(f"{b.id} was eliminated off the map")
        elif b.town is not None:
            if b.town not in scenario.board.towns:
                problems.append(f"{b.id} stands in an unknown town {b.town}")
            if not 1 <= b.strength <= spec.strength:
                problems.append(f"{b.id} has strength {b.strength} (full {spec.strength})")
            towns[(b.town, spec.side)] += 1
        elif after.turn >= 2:
            problems.append(f"{b.id} is neither on the map nor eliminated")
        if before.blocks[b.id].eliminated and not b.eliminated:
            problems.append(f"{b.id} came back from elimination")
    fighting = {b["town"] for b in after.pending["battles"] + after.pending.get("fought", [])} if after.pending else set()
    for (town, side), n in towns.items():
        if side == "france" and towns.get((town, "allies")) and town not in fighting:
            problems.append(f"both sides stand in {town} after the turn")
    for army in ("french", "anglo", "prussian"):
        gone = sum(1 for b in after.blocks.values() if b.army == army and b.eliminated and b.id not in after.fled)
        if scenario.supply_losses_count and after.lost[army] != gone:
            problems.append(f"the {army} army counts {after.lost[army]} blocks lost, but {gone} are eliminated")
        # an army breaks when the turn's battles and supply are done (§11): not between two rounds
        if after.pending is None and (army in after.broken) != (after.lost[army] >= scenario.breaks[army]):
            problems.append(f"the {army} army: {after.lost[army]} lost, broken: {army in after.broken}")
    used = Counter()
    for army, a, b, n in (after.last_moves if not paused or after.pending is not None else []):
        used[(army == "french", frozenset((a, b)))] += n
    for (_, key), n in used.items():
        road = scenario.board.road(*tuple(key))
        if road is None:
            problems.append(f"a move along a missing road {sorted(key)}")
        elif n > scenario.road[road.kind]:
            problems.append(f"{n} blocks on the {road.kind} road {sorted(key)} in one turn")
    return problems


def summary(scenario, state) -> dict:
    return {"winner": state.winner, "how": state.victory,
            "means": {f"{army} blocks lost": state.lost[army] for army in ("french", "anglo", "prussian")}
            | {"turns": state.turn - 2},
            "counts": {"armies broken": list(state.broken)}}
