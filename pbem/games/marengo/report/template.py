"""The orders template: the form for a side's next day, with its blocks, its
reinforcements, its standing orders and example orders written the way the parser reads them."""

from __future__ import annotations

from pbem.core.orders import header_words
from pbem.games.marengo.bot import activation_allowance
from pbem.games.marengo.sendable import useful_order
from pbem.games.marengo.scenario import Scenario
from pbem.games.marengo.words import in_words
from pbem.games.simmons.lang import colon, then
from pbem.games.marengo.report.facts import COMMAND_LIMIT, ROAD_ENTRIES, Facts, hour_label, natural, side_name


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
    t = facts.tongue
    _ = t.gettext
    label = facts.game_id or facts.game_label or "<game>"

    def say(order: str) -> str:  # an order in the reader's words (every language's are read)
        return in_words(order, t.lang)

    # the header in the reader's words (PARTIE, ИГРА, 对局...: every language's are read), the side
    # as he names it, the hour as he writes it, in a form the header reads (13:00 is 1PM)
    turn = hour_label(hour) if t.lang == "en" else f"{hour}:00"
    key = header_words(t.lang)
    lines = [f"{key['GAME']} {label} {key['SIDE']} {facts.side(side)} {key['TURN']} {turn} {key['KEY']} "
             + _("<your-key>")]
    whose = {"austria": _("Austria's day"), "france": _("France's day")}
    deadline = facts.deadline or facts.no_deadline()
    if own_day:
        lines += ["# " + _("Your orders for %(whose)s at %(hour)s (round %(round)d of %(rounds)d).",
                           whose=whose[side], hour=facts.clock(hour), round=v["round"], rounds=v["rounds"]),
                  "# " + _("Deadline: %(deadline)s.", deadline=deadline),
                  "# " + _("One order per line under the header; a line starting with # is ignored."),
                  "# " + _("At most %(limit)d group moves and assaults. Assaults are carried out first,",
                           limit=COMMAND_LIMIT),
                  "# " + _("then the moves, each in the order written."),
                  "# " + _("The examples below are suggestions, not advice: remove the # to use one.")]
    else:
        lines += ["# " + _("It is %(whose)s at %(hour)s: you may send STANDING orders only.",
                           whose=whose.get(v["next_side"], ""), hour=facts.clock(hour)),
                  "# " + _("Deadline: %(deadline)s.", deadline=deadline),
                  "# " + _("They answer in advance what the enemy's day may ask of you; each stays in force until"),
                  "# " + _("replaced by one of the same kind and place, or cleared. Remove the # to use one.")]
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

    lines += ["#", "# == " + _("Your blocks on the map") + " =="]
    if not on_map:
        lines.append("# " + _("(none)"))
    road_example = False
    for (locale, facing), group in groups.items():
        where = (_("reserve of %(locale)s", locale=facts.name(locale)) if facing is None
                 else _("approach %(approach)s", approach=facts.place(locale, facing)))
        near = [n for n in facts.adjacent(locale) if enemy_at.get(n)]
        notes = [where, _("%(mine)d of yours here, capacity %(capacity)d", mine=mine_at[locale],
                          capacity=board.locales[locale].capacity)]
        if enemy_at.get(locale):
            notes.append(_("%(num)d enemy here", num=enemy_at[locale]))
        if near and facing is None:
            notes.append(_("enemy next door in %(locales)s", locales=t.listed([facts.name(n) for n in near])))
        lines.append(f"# -- {t.say(then(*notes))}")
        for b in group:
            extra = []
            if not b["activated"]:
                extra.append(_("not activated; it wakes at the start of your day: an enemy is next to it")
                             if own_day and _wakes(facts, b, enemy_at) else _("not activated"))
            if b.get("bombard"):
                extra.append(_("bombardment declared toward %(locale)s", locale=facts.name(b["bombard"])))
            lines.append(f"#    {b['id']} {b['name']}, {facts.kind(b['type'])} {b['strength']}"
                         + (f" ({t.say(then(*extra))})" if extra else ""))
        if own_day:
            examples, road_example = _place_examples(facts, locale, facing, group, enemy_at, enemy_facing,
                                                     mine_at, road_example)
            lines += [f"# {say(x)}" for x in _useful(facts, examples)]
    if own_day:
        asleep = [b["id"] for b in on_map if not b["activated"] and not any(enemy_at.get(n) for n in
                                                                            facts.adjacent(b["locale"]))]
        allowance = activation_allowance(board, v) if side == "france" else 0
        if asleep and allowance:
            lines += ["#", "# " + _("Activation (one on the first French day; two more each day a French start "
                                    "locale is occupied by the enemy, or from %(hour)s; blocks next to the enemy "
                                    "wake by themselves):", hour=facts.clock(11)),
                      f"# {say('ACTIVATE')} {' '.join(asleep[:allowance])}"]
    waiting = sorted((b for b in mine if b["status"] == "waiting"),
                     key=lambda b: ((b.get("arrives") or 0), natural(b["id"])))
    if waiting:
        lines += ["#", "# == " + _("Reinforcements") + " =="]
        for b in waiting:
            arrives = _("from %(hour)s", hour=facts.clock(b["arrives"])) if b.get("arrives") is not None else ""
            when = _("due now") if (b.get("arrives") or 0) <= hour else arrives
            if not own_day:
                when = arrives or _("any time")
            block = f"{b['id']} {b['name']}, {facts.kind(b['type'])} {b['strength']}"
            lines.append("#    " + t.say(colon(block, when)))
        if own_day:
            lines += [f"# {say(x)}" for x in _useful(facts, _entry_examples(facts, [b for b in waiting
                                                                               if (b.get("arrives") or 0) <= hour]))]
    lines += ["#", "# == " + _("Standing orders") + " =="]
    in_force = v.get("standing", {}).get(side, [])
    if in_force:
        lines.append("# " + _("In force now:"))
        lines += [f"#    {say(text)}" for text in in_force]
    else:
        lines.append("# " + _("In force now: none (the defaults apply)."))
    lines += [f"# {say(x)}" for x in _standing_examples(facts, groups) if x not in in_force]
    if own_day:
        lines += ["#", "# " + _("To have the day resolved as soon as the deadline allows, end with:"),
                  "# " + say("FINAL")]
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
