"""The orders template: the form for a side's next day, with its blocks, its
reinforcements, its standing orders and example orders written the way the parser reads them."""

from __future__ import annotations

from pbem.games.marengo.bot import activation_allowance
from pbem.games.marengo.sendable import useful_order
from pbem.games.marengo.scenario import Scenario
from pbem.games.marengo.report.facts import COMMAND_LIMIT, NO_DEADLINE, ROAD_ENTRIES, Facts, hour_label, natural, side_name


def order_template(facts: Facts) -> str:
    """The orders form for the reader's next day (standing orders only on the enemy's day).

    The header and every example order are written the way the parser reads
    them (locale names, ``Locale>Toward`` approaches, the scenario's ids); the
    examples are comments until their ``#`` is removed.
    """
    v = facts.view
    side = facts.reader
    board = facts.board
    hour = v["hour"]
    own_day = v["next_side"] == side
    label = facts.game_id or facts.game_label or "<game>"
    lines = [f"GAME {label} SIDE {side_name(side)} TURN {hour_label(hour)} KEY <your-key>"]
    if own_day:
        lines += [f"# Your orders for {side_name(side)}'s day at {hour_label(hour)} "
                  f"(round {v['round']} of {v['rounds']}).",
                  f"# Deadline: {facts.deadline or NO_DEADLINE}.",
                  "# One order per line under the header; a line starting with # is ignored.",
                  f"# At most {COMMAND_LIMIT} group moves and assaults. Assaults are carried out first,",
                  "# then the moves, each in the order written.",
                  "# The examples below are suggestions, not advice: remove the # to use one."]
    else:
        lines += [f"# It is {side_name(v['next_side'])}'s day at {hour_label(hour)}: you may send "
                  f"STANDING orders only.",
                  f"# Deadline: {facts.deadline or NO_DEADLINE}.",
                  "# They answer in advance what the enemy's day may ask of you; each stays in force until",
                  "# replaced by one of the same kind and place, or cleared. Remove the # to use one."]
    mine = [b for b in v["blocks"] if b["side"] == side]
    on_map = facts.sort_blocks([b for b in mine if b["status"] == "map"])
    enemy_at: dict[str, int] = {}
    enemy_facing: dict[tuple, int] = {}
    for e in v["enemy"]:
        enemy_at[e["locale"]] = enemy_at.get(e["locale"], 0) + 1
        enemy_facing[(e["locale"], e["facing"])] = enemy_facing.get((e["locale"], e["facing"]), 0) + 1
    mine_at: dict[str, int] = {}
    for b in on_map:
        mine_at[b["locale"]] = mine_at.get(b["locale"], 0) + 1
    groups: dict[tuple, list[dict]] = {}
    for b in on_map:
        groups.setdefault((b["locale"], b["facing"]), []).append(b)

    lines += ["#", "# == Your blocks on the map =="]
    if not on_map:
        lines.append("# (none)")
    road_example = False
    for (locale, facing), group in groups.items():
        where = (f"reserve of {facts.name(locale)}" if facing is None
                 else f"approach {facts.place(locale, facing)}")
        near = [n for n in facts.adjacent(locale) if enemy_at.get(n)]
        note = f"; {mine_at[locale]} of yours here, capacity {board.locales[locale].capacity}"
        if enemy_at.get(locale):
            note += f"; {enemy_at[locale]} enemy here"
        if near and facing is None:
            note += "; enemy next door in " + ", ".join(facts.name(n) for n in near)
        lines.append(f"# -- {where}{note}")
        for b in group:
            extra = []
            if not b["activated"]:
                extra.append("not activated; it wakes at the start of your day: an enemy is next to it"
                             if own_day and _wakes(facts, b, enemy_at) else "not activated")
            if b.get("bombard"):
                extra.append(f"bombardment declared toward {facts.name(b['bombard'])}")
            lines.append(f"#    {b['id']} {b['name']}, {b['type']} {b['strength']}"
                         + (f" ({'; '.join(extra)})" if extra else ""))
        if own_day:
            examples, road_example = _place_examples(facts, locale, facing, group, enemy_at, enemy_facing,
                                                     mine_at, road_example)
            lines += [f"# {x}" for x in _useful(facts, examples)]
    if own_day:
        asleep = [b["id"] for b in on_map if not b["activated"] and not any(enemy_at.get(n) for n in
                                                                            facts.adjacent(b["locale"]))]
        allowance = activation_allowance(board, v) if side == "france" else 0
        if asleep and allowance:
            lines += ["#", "# Activation (one on the first French day; two more each day a French start "
                      "locale is occupied by the enemy, or from 11AM; blocks next to the enemy wake by "
                      "themselves):", f"# ACTIVATE {' '.join(asleep[:allowance])}"]
    waiting = sorted((b for b in mine if b["status"] == "waiting"),
                     key=lambda b: ((b.get("arrives") or 0), natural(b["id"])))
    if waiting:
        lines += ["#", "# == Reinforcements =="]
        for b in waiting:
            when = "due now" if (b.get("arrives") or 0) <= hour else f"from {hour_label(b['arrives'])}"
            if not own_day:
                when = f"from {hour_label(b['arrives'])}" if b.get("arrives") is not None else "any time"
            lines.append(f"#    {b['id']} {b['name']}, {b['type']} {b['strength']}: {when}")
        if own_day:
            lines += [f"# {x}" for x in _useful(facts, _entry_examples(facts, [b for b in waiting
                                                                               if (b.get("arrives") or 0) <= hour]))]
    lines += ["#", "# == Standing orders =="]
    in_force = v.get("standing", {}).get(side, [])
    if in_force:
        lines.append("# In force now:")
        lines += [f"#    {t}" for t in in_force]
    else:
        lines.append("# In force now: none (the defaults apply).")
    lines += [f"# {x}" for x in _standing_examples(facts, groups) if x not in in_force]
    if own_day:
        lines += ["#", "# To have the day resolved as soon as the deadline allows, end with:", "# FINAL"]
    return "\n".join(lines) + "\n"


def _wakes(facts: Facts, block: dict, enemy_at: dict) -> bool:
    """A French start block activated by the enemy next to it at the start of its day (003 §6 step 6)."""
    return (not block["activated"] and facts.view["next_side"] == "france"
            and any(enemy_at.get(n) for n in facts.adjacent(block["locale"])))


def _useful(facts: Facts, examples: list[str]) -> list[str]:
    """The examples the day's check accepts without a warning (an ENTER trimmed to the blocks
    that can enter): the template suggests nothing that would be refused or do nothing."""
    scenario = Scenario(name=facts.scenario_name, board=facts.board, blocks=(), morale={},
                        rounds=facts.rounds, first_hour=facts.first_hour)
    out = []
    for line in examples:
        kept = useful_order(scenario, facts.view, line)
        if kept is not None:
            out.append(kept)
    return out


def _place_examples(facts: Facts, locale: str, facing: str | None, group: list[dict], enemy_at: dict,
                    enemy_facing: dict, mine_at: dict, road_example: bool) -> tuple[list[str], bool]:
    board = facts.board
    name, place = facts.name, facts.place
    out: list[str] = []
    movers = [b for b in group if b["activated"] or _wakes(facts, b, enemy_at)]
    ids = " ".join(b["id"] for b in movers)
    if facing is None:
        if movers:
            threats = [n for n in facts.adjacent(locale) if enemy_at.get(n)]
            if threats:
                out.append(f"MOVE {ids} {name(locale)} -> {place(locale, threats[0])}")
            room = {n: board.locales[n].capacity - mine_at.get(n, 0) for n in facts.adjacent(locale)
                    if not enemy_at.get(n)}
            free = sorted((n for n in room if room[n] > 0), key=lambda n: -min(room[n], len(movers)))
            if free:
                fit = " ".join(b["id"] for b in movers[:room[free[0]]])
                out.append(f"MOVE {fit} {name(locale)} -> {name(free[0])}")
            if not road_example:
                path = _road_path(board, locale, enemy_at)
                if len(path) > 1:
                    out.append(f"ROAD {movers[0]['id']} " + " -> ".join(name(p) for p in path))
                    road_example = True
    else:
        if movers and enemy_at.get(facing):
            target = board.approaches.get((facing, locale))
            obstacle = target is not None and target.cavalry_obstacle
            takers = [b for b in movers if not (obstacle and b["type"] == "cavalry")]
            leads = [b for b in takers if b["type"] in ("infantry", "cavalry")]
            if leads:
                pen = (lambda t: target.penalty(t)) if target is not None else (lambda t: 0)
                lead = max(leads, key=lambda b: (b["strength"] - pen(b["type"]), b["type"] == "infantry"))
                out.append(f"ASSAULT {place(locale, facing)} WITH {' '.join(b['id'] for b in takers)} "
                           f"LEAD {lead['id']}")
        if movers:
            out.append(f"MOVE {ids} {place(locale, facing)} -> {name(locale)}")
        for b in group:
            if b["type"] == "artillery" and not b.get("bombard"):
                out.append(f"BOMBARD {b['id']} FROM {place(locale, facing)}")
    for b in group:
        if b["type"] == "artillery" and b.get("bombard"):
            out.append(f"FIRE {b['id']}")
            out.append(f"HOLD FIRE {b['id']}")
    return out, road_example


def _road_path(board, start: str, enemy_at: dict) -> list[str]:
    """Up to two steps along a road from ``start``, avoiding the enemy."""
    path = [start]
    for _ in range(2):
        options = [n for n, _road in board.road_neighbours(path[-1]) if n not in path and not enemy_at.get(n)]
        if not options:
            break
        path.append(options[0])
    return path


def _entry_examples(facts: Facts, due: list[dict]) -> list[str]:
    board = facts.board
    side = facts.reader
    out = []
    taken: set[str] = set()
    for entry in board.entries.values():
        if entry.side != side:
            continue
        allowed = [b for b in due if b["id"] not in taken and (not b.get("entries") or entry.id in b["entries"])]
        if not allowed:
            continue
        if entry.kind == "pontoon":
            pick = allowed[:1]
            out.append(f"ENTER {pick[0]['id']} BY PONTOON")
        else:
            pick = allowed[:ROAD_ENTRIES]
            out.append(f"ENTER {' '.join(b['id'] for b in pick)} BY ROAD AT {entry.name}")
        taken.update(b["id"] for b in pick)
    return out


def _standing_examples(facts: Facts, groups: dict) -> list[str]:
    board = facts.board
    out = ["STANDING ARTILLERY DEFEND", "STANDING PURSUE STRONG", "STANDING LOSSES WEAKEST",
           "STANDING INFLICT STRONGEST", "STANDING BLOCK ALL ALWAYS"]
    goal = (facts.retreat_toward or {}).get(facts.reader)
    for (locale, facing), group in groups.items():
        if facing is not None:
            leads = [b for b in group if b["type"] in ("infantry", "cavalry")]
            if leads:
                out.append(f"STANDING LEAD {facts.place(locale, facing)} {leads[0]['id']}")
                break
    for (locale, facing), _group in groups.items():
        near = facts.adjacent(locale)
        if facing is None and near:
            if goal in board.locales:
                near = sorted(near, key=lambda n: facts.distance(n, goal))
            out.append(f"STANDING RETREAT {facts.name(locale)} TO {facts.name(near[0])}")
            break
    return out
