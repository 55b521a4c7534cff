"""What a seat may see (§3.2 fog of war): its own army's blocks in full; in the
two-player game the partner army's too (one player commands both); every other
block only as a plain block of its army's colour, counted by town."""

from __future__ import annotations

from collections import Counter

from .blocks import ARMY_SIDE
from .scenario import SEAT_SIDE, SEATS
from .sight import seats_seeing, visible_armies
from .turn import owing


def view(scenario, state, seat: str | None) -> dict:
    seen = visible_armies(state.players, seat)
    blocks, hidden = [], Counter()
    for b in sorted(state.blocks.values(), key=lambda b: b.id):
        if b.town is None:
            continue
        if b.army in seen:
            spec = scenario.blocks[b.id]
            blocks.append({"id": b.id, "army": b.army, "town": b.town, "strength": b.strength,
                           "max": spec.strength, "type": spec.type, "fire": spec.fire, "name": spec.name,
                           "corps": spec.corps, "disorganized": b.disorganized})
        else:
            hidden[(b.town, b.army)] += 1
    spec = scenario.track[state.turn - 2] if 2 <= state.turn < len(scenario.track) + 2 else None
    return {
        "seat": seat, "players": state.players, "battle": state.battle_mode,
        "turn": state.turn, "night": bool(spec and spec.night), "phase": "auction" if state.auction is not None else (
            ("battle round" if state.pending["stage"] == "round" else "battle deployment") if state.pending else
            "allied setup" if state.turn == 0 else "French setup" if state.turn == 1 else "campaign"),
        "battles": battles(state, seat) + fought(state, seat),
        "questions": list((state.pending or {}).get("asked", {}).get(seat, [])),
        "mover": spec.side if spec else ("A" if state.turn == 0 else "F"),
        "owing": list(owing(scenario, state)),
        "blocks": blocks,
        "hidden": [{"town": t, "army": a, "count": n} for (t, a), n in sorted(hidden.items())],
        "lost": dict(state.lost), "broken": list(state.broken), "bid": state.bid,
        "last_moves": [list(m) for m in state.last_moves],  # blocks moving on the board are seen by all
        "last_battles": list(state.last_battles),
        "over": state.over, "winner": state.winner, "victory": state.victory,
        "sides": {a: ARMY_SIDE[a] for a in ("french", "anglo", "prussian")},
    }


def public(scenario, state) -> dict:
    """What every seat sees of a campaign being played (its onlookers' view): every block as a
    plain block of its army's colour, counted by town; no battle's deployment or narrative."""
    out = view(scenario, state, None)  # seat None, and no questions (they are asked of seats by name)
    hidden = Counter((b["town"], b["army"]) for b in out["blocks"])
    out.update(blocks=[], battles=[],
               hidden=[{"town": t, "army": a, "count": n} for (t, a), n in sorted(hidden.items())])
    return out


def battles(state, seat: str | None = None) -> list[dict]:
    """The battles waiting for deployment that ``seat`` takes part in (None: all): town, the
    sides, the terrain (§6.21, seen by both sides), whose deployment is due, and how many
    blocks the defenders put in each position (not which)."""
    if not state.pending:
        return []
    out = []
    for b in state.pending["battles"]:  # every pending sub-turn has its list (turn.py), empty between rounds
        there = {blk.army for blk in state.at(b["town"])}
        if seat in SEATS and seat not in seats_seeing(state.players, there):
            continue
        placed = state.pending["deploy"]["def"].get(b["town"], {})
        counts = Counter(f"def{i}" if i is not None else "res-def" for i in placed.values())
        out.append({"town": b["town"], "sides": dict(b["sides"]), "terrain": dict(b["terrain"]),
                    "stage": state.pending["stage"],
                    "defenders": dict(counts) if state.pending["stage"] == "att" else {}})
    return out


LOCATIONS = ("att0", "att1", "att2", "def0", "def1", "def2", "res-att", "res-def")


def fought(state, seat: str | None = None) -> list[dict]:
    """The battles stopped between two rounds (a round sub-turn) that ``seat`` witnesses (sight.py):
    town, sides, terrain, the round to come, and the board as the seat sees it: for each location
    its own blocks by id (§6.24: its partner's, in the three-player game, as a count) and how many
    others stand there."""
    if not state.pending or state.pending["stage"] != "round":
        return []
    mine = visible_armies(state.players, seat)
    out = []
    for b in state.pending["fought"]:
        if seat in SEATS and seat not in b["witnesses"]:
            continue
        board = {loc: {"own": [], "others": 0, "enemies": 0, "square": []} for loc in LOCATIONS}
        for bid, blk in sorted(b["blocks"].items()):
            place = board[blk["loc"]]
            if blk["army"] in mine:
                place["own"].append(bid)
                if blk.get("square"):
                    place["square"].append(bid)  # a seat's own squares (its round orders: BREAK SQUARE)
            else:
                place["others"] += 1
            if seat in SEATS and ARMY_SIDE[blk["army"]] != SEAT_SIDE[seat]:
                place["enemies"] += 1  # the enemy's blocks on the board are seen (§6.24), if not who they are
        out.append({"town": b["town"], "sides": dict(b["sides"]), "terrain": dict(b["terrain"]),
                    "stage": "round", "round": b["rounds"].get("def", 0) + 1, "board": board})
    return out
