"""The orders form for a side's next Triomphe turn: its header, what the turn
allows, and example orders for its own blocks, written the way the parser
reads them (each a comment until its ``#`` is removed). The report's frame puts
it under its heading (report.py, pbem.games.simmons.report); the examples are
Triomphe's own, as Marengo's are its own (marengo/report/template.py).
"""

from __future__ import annotations

from pbem.core.orders import header_words
from pbem.games.simmons.clock import hour_label
from pbem.games.simmons.lang import Tongue, colon

from .reader import natural_order
from .scenario import Scenario
from .words import WORDS, triomphe_tongue

RETURN_BEFORE = 16


def template(scenario: Scenario, view: dict, game: str = "<game>", deadline: str | None = None,
             tongue: Tongue | None = None) -> str:
    """The form in ``tongue``'s language (English when None): its comments from the catalogs, its
    header and example orders in the reader's words (every language's are read)."""
    t = tongue or triomphe_tongue("en")
    _ = t.gettext
    board = scenario.board
    side = view["viewer"]
    hour = view["hour"]
    own_turn = view["next_side"] == side

    def say(order: str) -> str:  # an example order in the reader's words
        return WORDS.in_words(order, t.lang)

    def words(text: str) -> str:  # a sentence naming order words (STANDING) in the reader's
        return WORDS.words_in(text, t.lang)

    def side_word(s: str) -> str:
        return {"austria": _("Austria"), "france": _("France")}[s]

    clock = hour_label(hour) if t.lang == "en" else _("%(hour)d:00", hour=hour)

    def name(lid):
        return board.locales[lid].name

    def place(lid, facing):
        return name(lid) if facing is None else f"{name(lid)}>{name(facing)}"

    def kind(type_: str) -> str:
        return {"infantry": _("infantry"), "cavalry": _("cavalry"), "artillery": _("artillery")}.get(type_, type_)

    key = header_words(t.lang)  # the header in the reader's words; the hour as he writes it (13:00 is 1PM)
    turn = hour_label(hour) if t.lang == "en" else f"{hour}:00"
    lines = [f"{key['GAME']} {game} {key['SIDE']} {side_word(side)} {key['TURN']} {turn} {key['KEY']} "
             + _("<your-key>")]
    if view["over"]:
        why = view["victory"] if t.lang == "en" else ""  # the state's reason is English: the report tells it
        return "\n".join(lines + ["# " + (_("The game is over: %(why)s. No more orders.",
                                             why=why or side_word(view["winner"])) if why or view["winner"]
                                           else _("The game is over. No more orders."))]) + "\n"
    when = _("Deadline: %(deadline)s.", deadline=deadline) if deadline else _("Deadline: set by the server.")
    if not own_turn:
        whose = {"austria": _("Austria's turn"), "france": _("France's turn")}[view["next_side"]]
        lines += ["# " + words(_("It is %(whose)s at %(hour)s: STANDING orders only.", whose=whose, hour=clock)),
                  "# " + when, "# " + _("Remove the # to use one; each stays in force until replaced or cleared.")]
        return "\n".join(lines + _standing_examples(t)) + "\n"
    lines += ["# " + _("Your turn, %(hour)s (round %(round)d of %(rounds)d). %(deadline)s", hour=clock,
                       round=view["round"], rounds=view["rounds"], deadline=when),
              "# " + _("One action a line, carried out in the order written; a block acts once a turn"),
              "# " + words(_("(REORGANISE aside). 3 orders: REORGANISE, MARCH, ATTACK, ASSAULT and ROAD/ENTER off the")),
              "# " + words(_("main road cost 1; defensive marches, main-road marches, the pontoon and bombardments "
                             "are free.")),
              "# " + _("The examples are suggestions: remove the # to use one.")]
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
        lines.append("# == " + _("Reorganise (all the blocks of a locale in the same turn)") + " ==")
        for lid, ids in disorganised.items():
            lines.append("# " + " ; ".join(say(f"REORGANISE {bid}") for bid in ids) + f"    # {name(lid)}")
    due = [b for b in mine if b["status"] == "waiting" and (b["arrives"] or 0) <= hour]
    if due:
        lines.append("# == " + _("Enter") + " ==")
        for b in sorted(due, key=lambda b: natural_order(b["id"])):
            kinds = {board.entries[e].kind for e in scenario.cells[b["cell"]].entries} if b["cell"] in \
                scenario.cells else set()
            lines.append("# " + say(f"ENTER {b['id']}") + ("    # " + _("or %(words)s", words=say("BY PONTOON"))
                                                            if "pontoon" in kinds else ""))
    lines.append("# == " + _("Your blocks") + " ==")
    for (lid, facing), group in groups.items():
        ids = " ".join([b["id"] for b in group if not b["disorganised"]][:3])  # §6: three blocks an action
        names = t.listed([f"{b['id']} {kind(b['type'])} {b['strength']}"
                          + (" (" + _("disorganised") + ")" if b["disorganised"] else "") for b in group])
        lines.append("# " + t.say(colon(place(lid, facing), names)))
        if not ids:
            continue
        first = ids.split()[0]
        if facing is None:
            for n in board.adjacent(lid):
                if enemy_at.get(n):
                    if not (side == "france" and hour == scenario.first_hour):
                        lines.append("# " + say(f"MARCH {first} {name(lid)} -> {name(lid)}>{name(n)}") + "    # "
                                     + _("free if it does not overfill the approach"))
                    if enemy_on.get((n, lid), 0) < board.approach(n, lid).width:
                        lines.append("# " + say(f"ATTACK {ids} {name(lid)} -> {name(n)}"))
                else:
                    lines.append("# " + say(f"MARCH {ids} {name(lid)} -> {name(n)}"))
                    break
            roads = [n for n, r in board.road_neighbours(lid) if not enemy_at.get(n)]
            if roads:
                lines.append("# " + say(f"ROAD {first} {name(lid)} -> {name(roads[0])}"))
        else:
            lines.append("# " + say(f"MARCH {ids} {place(lid, facing)} -> {name(lid)}"))
            if enemy_on.get((facing, lid)):
                lines.append("# " + say(f"ASSAULT {place(lid, facing)} WITH {ids} LEAD BEST"))
            elif enemy_at.get(facing):
                lines.append("# " + say(f"ATTACK {ids} {place(lid, facing)} -> {name(facing)}"))
            guns = [b for b in group if b["type"] == "artillery" and not b["bombard"]]
            if guns and not board.approach(facing, lid).artillery:
                lines.append("# " + say(f"BOMBARD {guns[0]['id']} FROM {place(lid, facing)}"))
    if side == "france" and hour < RETURN_BEFORE and view["committed"]["france"]:
        lines.append("# " + say(f"RETURN {name(next(iter(view['committed']['france'])))}") + "    # "
                     + _("or %(words)s", words=say("RETURN NONE")))
    if own_turn:
        lines = _not_doomed(scenario, view, lines)
    return "\n".join(lines + _standing_examples(t)) + "\n"


def _not_doomed(scenario: Scenario, view: dict, lines: list[str]) -> list[str]:
    """The form's lines less the examples the turn's check refuses, read alone against the position as
    the side knows it (an entry into a full locale, an attack across a cavalry obstacle...): the form
    offers no order it would then refuse."""
    from pbem.core.orders import OrdersError

    from .parse import parse_orders
    from .strategist import Strategist

    side = view["viewer"]
    known = Strategist(scenario, side).imagine(view)
    kept = []
    for line in lines:
        example = line[2:].split("    #")[0] if line.startswith("# ") and not line.startswith("# ==") else ""
        if example:
            try:
                parse_orders(scenario, known, side, example, checks=False)
            except OrdersError:
                kept.append(line)  # not an order: a sentence of the form
                continue
            try:
                parse_orders(scenario, known, side, example)
            except OrdersError:
                continue
        kept.append(line)
    return kept


def _standing_examples(t: Tongue) -> list[str]:
    def say(order: str) -> str:
        return WORDS.in_words(order, t.lang)

    return ["# == " + t.gettext("Standing orders (for the enemy's turn)") + " ==",
            "# " + say("STANDING RESPOND ALL BLOCKING"),
            "# " + say("STANDING VANGUARD ALL BEST"),
            "# " + say("STANDING BARRAGE ALWAYS"),
            "# " + say("STANDING COUNTERATTACK TURN"),
            "# " + say("STANDING COVER ALWAYS"),
            "# " + say("STANDING LOSSES STRONGEST")]
