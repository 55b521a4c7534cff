"""The turn report of one seat, built only from its view and the events it saw; the orders template."""

from __future__ import annotations

from pbem.core.events import events_for
from pbem.report.document import Bullets, Code, Document, Heading, Para, Report, Table, to_markdown, to_text

from . import seats
from .elements import as_inches


def seat_name(game, seat) -> str:
    """Who the report is for: the side's title, a kriegsspiel commander's name and command, or the moderator."""
    scenario = game.scenario
    if not seat:
        return "Moderator"
    if seat in scenario.sides:
        return scenario.sides[seat]
    c = scenario.table.commanders.get(seat)
    return seats.seat_title(scenario, c) if c is not None else seat


def _at(x, y) -> str:
    return f"({as_inches(x)}, {as_inches(y)})"


def build_report(game, day, seat, *, deadline=None, game_label="", game_id="", spectator=False) -> Report:
    scenario = game.scenario
    who = None if spectator else seat
    view = game.view(who, day)
    result = game.days[day]
    title = f"Napoleonic DBA{' ' + game_label if game_label else ''}: {game.turn_label(day)}"
    doc = Document(title)
    doc.add(Para(seat_name(game, seat), strong="For:"))
    if view["over"]:
        doc.add(Para(f"{view['winner'] or 'nobody'}: {view['victory']}", strong="The game is over."))
    else:
        doc.add(Para(view["turn_label"] + (f", orders due {deadline}" if deadline else ""), strong="Next:"))
    doc.add(Heading(2, "What happened"))
    seen = events_for(result.events, who)
    if who is None:  # the moderator reads each event once, whole, not the kriegsspiel seats' copies of it
        seen = [e for e in seen if not e["data"].get(seats.COPY)]
    doc.add(Bullets([e["text"] for e in seen if e["kind"] != "roll"] or ["Nothing."], wrap=False))
    choices = [f"{r.decision.question} {', '.join(r.decision.label(a) for a in r.answer)} ({r.source})"
               for r in result.decisions if seat is None or r.decision.side == seat]
    if view.get("commander") and choices:  # kriegsspiel: the choices put to his seat (DS5), as he knows the enemy
        choices = [seats.redact(c, scenario, result.after, view["commander"]) for c in choices]
    if choices:
        doc.add(Heading(2, "Choices the executor made for you" if seat else "Choices made"))
        doc.add(Bullets(choices, wrap=False))
    doc.add(Heading(2, "Your brigades" if seat else "The brigades"))
    doc.add(Table(["brigade", "effectiveness", "elements", "order in force"],
                  [[b["name"], f"{b['bef']}/{b['bef_start']} {b['rating']}", " ".join(b["elements"]) or "none",
                    (b["order"].splitlines()[1:] or ["HOLD"])[0] if b["order"] else "HOLD"]
                   for b in view["brigades"]]))
    doc.add(Table(["element", "troop", "formation", "at", "state"],
                  [[e["id"], e["troop"], e["formation"], _at(e["x"], e["y"]),
                    ", ".join(k for k in ("disorganised", "shaken", "fleeing") if e[k]) or "good"]
                   for e in view["elements"]]))
    if view["enemy"] or view["last_known"]:
        doc.add(Heading(2, "The enemy"))
        doc.add(Table(["element", "brigade", "troop", "at", "seen"],
                      [[e["id"], e["brigade"], e["troop"], _at(e["x"], e["y"]), "now"] for e in view["enemy"]]
                      + [[s["element"], s["brigade"], s["troop"], _at(s["x"], s["y"]), f"turn {s['turn']}"]
                         for s in view["last_known"]]))
    if view["couriers"]:
        doc.add(Heading(2, "Couriers"))
        doc.add(Bullets(view["couriers"], wrap=False))
    if view.get("dispatches"):
        doc.add(Heading(2, "Dispatches brought to you"))
        for text in view["dispatches"]:
            doc.add(Code(text))
    template = ""
    if seat and not view["over"] and day == len(game.days) - 1:  # a past day's report offers no form
        template = orders_template(game, seat, deadline=deadline, game_label=game_label, game_id=game_id)
        doc.add(Heading(2, "Your next orders"))
        doc.add(Code(template))
    return Report(seat, day, title, to_markdown(doc), to_text(doc), template=template, spectator=spectator,
                  title=title)


def orders_template(game, seat, *, deadline=None, game_label="", game_id="") -> str:
    view = game.view(seat)
    lines = [f"GAME {game_id or game_label or 'GAME'} SIDE {seat}",
             f"# {view['turn_label']}" + (f"; due {deadline}" if deadline else ""),
             "# FROM <commander> TO <commander>, then steps: MOVE TO <place> [IN LINE|IN COLUMN] [BY ROAD],",
             "#   HOLD [<place>], ATTACK <enemy brigade>|ENEMY AT <place>|NEAREST ENEMY, DEPLOY IN <formation>,",
             "#   RETREAT TO <place>; THEN, IF/UNTIL/UNLESS <event>, AT TURN <n>   (docs/dba-orders.md)"]
    from .bot import superior_of

    alive = [c for c in view["commanders"] if c["alive"]]
    officer = view.get("commander")
    for b in view["brigades"]:
        c = next((c for c in alive if c["id"] == b["commander"]), None)
        up = superior_of(view, c) if c is not None else None
        if officer and c is not None and c["id"] == officer and not c["initiative_used"]:
            lines.append(f"# INITIATIVE {c['name']}   (once a game: your own order for {b['name']})")
        if up is None or officer and up["id"] != officer:
            continue
        lines.append(f"# FROM {up['name']} TO {c['name']}   ({b['name']}: {b['rating']})")
        lines.append("# HOLD")
    lines.append("# places: " + ", ".join(view["places"]))
    return "\n".join(lines) + "\n"
