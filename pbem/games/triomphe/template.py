"""The orders form for a side's next Triomphe turn: its header, what the turn
allows, and example orders for its own blocks, written the way the parser
reads them (each a comment until its ``#`` is removed). The report's frame puts
it under its heading (report.py, pbem.games.simmons.report); the examples are
Triomphe's own, as Marengo's are its own (marengo/report/template.py).
"""

from __future__ import annotations

from .reader import natural_order
from .scenario import SIDE_NAME, Scenario
from pbem.games.simmons.clock import hour_label

RETURN_BEFORE = 16


def template(scenario: Scenario, view: dict, game: str = "<game>", deadline: str | None = None) -> str:
    board = scenario.board
    side = view["viewer"]
    hour = view["hour"]
    own_turn = view["next_side"] == side

    def name(lid):
        return board.locales[lid].name

    def place(lid, facing):
        return name(lid) if facing is None else f"{name(lid)}>{name(facing)}"

    lines = [f"GAME {game} SIDE {SIDE_NAME[side]} TURN {hour_label(hour)} KEY <your-key>"]
    if view["over"]:
        return "\n".join(lines + [f"# The game is over: {view['victory'] or view['winner']}. No more orders."]) + "\n"
    when = f"# Deadline: {deadline}." if deadline else "# Deadline: set by the server."
    if not own_turn:
        lines += [f"# It is {SIDE_NAME[view['next_side']]}'s turn at {hour_label(hour)}: STANDING orders only.",
                  when, "# Remove the # to use one; each stays in force until replaced or cleared."]
        return "\n".join(lines + _standing_examples()) + "\n"
    lines += [f"# Your turn, {hour_label(hour)} (round {view['round']} of {view['rounds']}). {when[2:]}",
              "# One action a line, carried out in the order written; a block acts once a turn",
              "# (REORGANISE aside). 3 orders: REORGANISE, MARCH, ATTACK, ASSAULT and ROAD/ENTER off the",
              "# main road cost 1; defensive marches, main-road marches, the pontoon and bombardments are free.",
              "# The examples are suggestions: remove the # to use one."]
    mine = [b for b in view["blocks"] if b["side"] == side]
    enemy_at: dict[str, int] = {}
    enemy_on: dict[tuple, int] = {}
    for e in view["enemy"]:
        enemy_at[e["locale"]] = enemy_at.get(e["locale"], 0) + 1
        if e["facing"]:
            enemy_on[(e["locale"], e["facing"])] = enemy_on.get((e["locale"], e["facing"]), 0) + 1
    disorganised: dict[str, list[str]] = {}
    groups: dict[tuple, list[dict]] = {}
    for b in sorted(mine, key=lambda b: natural_order(b["id"])):
        if b["status"] != "map":
            continue
        where = (b["locale"], b["facing"] if b["facing"] and enemy_at.get(b["facing"]) else None)
        groups.setdefault(where, []).append(b)
        if b["disorganised"]:
            disorganised.setdefault(b["locale"], []).append(b["id"])
    if disorganised:
        lines.append("# == Reorganise (all the blocks of a locale in the same turn) ==")
        for lid, ids in disorganised.items():
            lines.append("# " + " ; ".join(f"REORGANISE {bid}" for bid in ids) + f"    # {name(lid)}")
    due = [b for b in mine if b["status"] == "waiting" and (b["arrives"] or 0) <= hour]
    if due:
        lines.append("# == Enter ==")
        for b in sorted(due, key=lambda b: natural_order(b["id"])):
            kinds = {board.entries[e].kind for e in scenario.cells[b["cell"]].entries} if b["cell"] in \
                scenario.cells else set()
            lines.append(f"# ENTER {b['id']}" + ("    # or BY PONTOON" if "pontoon" in kinds else ""))
    lines.append("# == Your blocks ==")
    for (lid, facing), group in groups.items():
        ids = " ".join([b["id"] for b in group if not b["disorganised"]][:3])  # §6: three blocks an action
        names = ", ".join(f"{b['id']} {b['type']} {b['strength']}" + (" (disorganised)" if b["disorganised"] else "")
                          for b in group)
        lines.append(f"# {place(lid, facing)}: {names}")
        if not ids:
            continue
        first = ids.split()[0]
        if facing is None:
            for n in board.adjacent(lid):
                if enemy_at.get(n):
                    if not (side == "france" and hour == scenario.first_hour):
                        lines.append(f"# MARCH {first} {name(lid)} -> {name(lid)}>{name(n)}    # free if it "
                                     f"does not overfill the approach")
                    if enemy_on.get((n, lid), 0) < board.approach(n, lid).width:
                        lines.append(f"# ATTACK {ids} {name(lid)} -> {name(n)}")
                else:
                    lines.append(f"# MARCH {ids} {name(lid)} -> {name(n)}")
                    break
            roads = [n for n, r in board.road_neighbours(lid) if not enemy_at.get(n)]
            if roads:
                lines.append(f"# ROAD {first} {name(lid)} -> {name(roads[0])}")
        else:
            lines.append(f"# MARCH {ids} {place(lid, facing)} -> {name(lid)}")
            if enemy_on.get((facing, lid)):
                lines.append(f"# ASSAULT {place(lid, facing)} WITH {ids} LEAD BEST")
            elif enemy_at.get(facing):
                lines.append(f"# ATTACK {ids} {place(lid, facing)} -> {name(facing)}")
            guns = [b for b in group if b["type"] == "artillery" and not b["bombard"]]
            if guns and not board.approach(facing, lid).artillery:
                lines.append(f"# BOMBARD {guns[0]['id']} FROM {place(lid, facing)}")
    if side == "france" and hour < RETURN_BEFORE and view["committed"]["france"]:
        lines.append(f"# RETURN {name(next(iter(view['committed']['france'])))}    # or RETURN NONE")
    return "\n".join(lines + _standing_examples()) + "\n"


def _standing_examples() -> list[str]:
    return ["# == Standing orders (for the enemy's turn) ==",
            "# STANDING RESPOND ALL BLOCKING",
            "# STANDING VANGUARD ALL BEST",
            "# STANDING BARRAGE ALWAYS",
            "# STANDING COUNTERATTACK TURN",
            "# STANDING COVER ALWAYS",
            "# STANDING LOSSES STRONGEST"]
