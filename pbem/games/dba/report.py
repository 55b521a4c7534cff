"""The turn report of one seat, built only from its view and the events it saw; the orders template."""

from __future__ import annotations

from pbem.core.orders import header_words
from pbem.core.ruleset import form_header
from pbem.report.document import Bullets, Code, Document, Heading, Para, Report, Table, to_markdown, to_text

from . import seats
from .elements import in_inches
from .lang import N_, Text, Tongue, colon, say, term, tongue
from .turn import victory_said
from .view import turn_said

# the orders form's reminder of the order words (docs/dba-orders.md), a line each
TEMPLATE_HELP = (
    N_("FROM <commander> TO <commander>, then steps: MOVE TO <place> [IN LINE|IN COLUMN] [BY ROAD],"),
    N_("  HOLD [<place>], ATTACK <enemy brigade>|ENEMY AT <place>|NEAREST ENEMY, DEPLOY IN <formation>,"),
    N_("  RETREAT TO <place>; THEN, IF/UNTIL/UNLESS <event>, AT TURN <n>   (docs/dba-orders.md)"),
)


def seat_name(game, seat, t: Tongue | None = None) -> str:
    """Who the report is for: the side's title, a kriegsspiel commander's name and command, or the moderator."""
    t = t or tongue()
    scenario = game.scenario
    if not seat:
        return t.gettext("Moderator")
    if seat in scenario.sides:
        return t.say(term(scenario.sides[seat]))
    c = scenario.table.commanders.get(seat)
    return t.say(seats.seat_said(scenario, c)) if c is not None else seat


def _at(x, y, t: Tongue) -> str:
    """A point of the table in inches, ``(9.9", 26.4")``, each number with the reader's decimal sign."""
    return t.say(say('(%(x)s", %(y)s")', x=in_inches(x), y=in_inches(y)))


def build_report(game, day, seat, *, deadline=None, game_label="", game_id="", spectator=False,
                 lang="en") -> Report:
    t = tongue(lang)
    scenario = game.scenario
    who = None if spectator else seat
    view = game.view(who, day)
    result = game.days[day]
    turn = t.say(turn_said(scenario, game.state_before(day).turn))
    if "napoleonic dba" in game_label.casefold():  # a title naming the game ("Demo: Napoleonic DBA"): not twice
        title = t.say(colon(game_label, turn))
    else:
        title = t.gettext("Napoleonic DBA%(label)s: %(turn)s", label=" " + game_label if game_label else "", turn=turn)
    doc = Document(title)
    doc.add(Para(seat_name(game, seat, t), strong=t.gettext("For:")))
    if view["over"]:
        why = victory_said(scenario, view["victory"])
        doc.add(Para(t.say(say("%(winner)s: %(why)s", winner=term(view["winner"]), why=why) if view["winner"] else
                           say("nobody: %(why)s", why=why)),
                     strong=t.gettext("The game is over.")))
    else:
        doc.add(Para(t.say(turn_said(scenario, view["turn"]))
                     + (t.gettext(", orders due %(deadline)s", deadline=deadline) if deadline else ""),
                     strong=t.gettext("Next:")))
    doc.add(Heading(2, t.gettext("What happened")))
    told = [e for e in result.events if e.kind != "roll"]
    if who is None:  # the moderator reads each event once, whole, not the kriegsspiel seats' copies of it
        told = [e for e in told if not e.data.get(seats.COPY)]
    seen = [text for e in told for text in [e.text_for(who, t)] if text is not None]
    doc.add(Bullets(seen or [t.gettext("Nothing.")], wrap=False))
    def fog(text):  # kriegsspiel: the choices put to his seat (DS5), as he knows the enemy (DS8)
        return seats.redact(text, scenario, result.after, view["commander"]) if view.get("commander") else text

    choices = [t.gettext("%(question)s → %(answer)s (%(how)s)", question=t.say(fog(question_said(r.decision))),
                         answer=t.listed([t.say(fog(answer_said(r.decision, a))) for a in r.answer]),
                         how=t.say(term(r.source)))
               for r in result.decisions if seat is None or r.decision.side == seat]
    if choices:
        doc.add(Heading(2, t.gettext("Choices the executor made for you") if seat else t.gettext("Choices made")))
        doc.add(Bullets(choices, wrap=False))
    doc.add(Heading(2, t.gettext("Your brigades") if seat else t.gettext("The brigades")))
    hold = t.say(term("HOLD"))
    doc.add(Table([t.gettext("brigade"), t.gettext("effectiveness"), t.gettext("elements"), t.gettext("order in force")],
                  [[t.say(term(b["name"])), f"{b['bef']}/{b['bef_start']} {t.say(term(b['rating']))}",
                    " ".join(b["elements"]) or t.gettext("none"), _order_in_force(game, day, b, t) if b["order"] else hold]
                   for b in view["brigades"]]))
    doc.add(Table([t.gettext("element"), t.gettext("troop"), t.gettext("formation"), t.gettext("at"),
                   t.gettext("state")],
                  [[e["id"], _troop(e["troop"], t), t.say(term(e["formation"])), _at(e["x"], e["y"], t),
                    t.gettext("as reported on turn %(turn)s", turn=e["reported"]) if e.get("reported") is not None
                    else ", ".join(t.say(term(k)) for k in ("disorganised", "shaken", "fleeing") if e[k])
                    or t.gettext("good")]
                   for e in view["elements"]]))
    if view["enemy"] or view["last_known"]:
        doc.add(Heading(2, t.gettext("The enemy")))
        rows = ([[e["id"], e["brigade"], _troop(e["troop"], t), _at(e["x"], e["y"], t), t.gettext("now")]
                 for e in view["enemy"]]
                + [[s["element"], s["brigade"], _troop(s["troop"], t), _at(s["x"], s["y"], t),
                    t.gettext("turn %(turn)s", turn=s["turn"])] for s in view["last_known"]])
        head = [t.gettext("element"), t.gettext("brigade"), t.gettext("troop"), t.gettext("at"), t.gettext("seen")]
        if view.get("commander"):  # kriegsspiel: an enemy element's brigade is not seen (DS8)
            head, rows = head[:1] + head[2:], [r[:1] + r[2:] for r in rows]
        doc.add(Table(head, rows))
    if view["couriers"]:
        doc.add(Heading(2, t.gettext("Couriers")))
        doc.add(Bullets([t.say(c) for c in _couriers(game, who, day, view)], wrap=False))
    if view.get("dispatches"):
        doc.add(Heading(2, t.gettext("Dispatches brought to you")))
        for text in _dispatches(game, who, day, view):
            doc.add(Code(t.say(text)))
    template = ""
    if seat and not view["over"] and day == len(game.days) - 1:  # a past day's report offers no form
        template = orders_template(game, seat, deadline=deadline, game_label=game_label, game_id=game_id, lang=lang)
        doc.add(Heading(2, t.gettext("Your next orders")))
        doc.add(Code(template))
    return Report(seat, day, title, to_markdown(doc), to_text(doc), template=template, spectator=spectator,
                  title=title)


def _order_in_force(game, day, b: dict, t: Tongue) -> str:
    """The brigade's first step in force (its order's first step line), in the reader's order words."""
    line = (b["order"].splitlines()[1:] or ["HOLD"])[0]
    if t.lang == "en":
        return line
    after = game.days[day].after
    bo = after.commands.get(b["id"])
    order = bo.current.order if bo is not None and bo.current is not None else None
    if order is None or order.text != b["order"]:  # a kriegsspiel general's: the dispatch he last wrote (DS7)
        order = next((c.order for c in reversed(after.post.couriers) if c.order.text == b["order"]), None)
    if order is None or order.text != b["order"] or not order.steps:
        return line
    return t.say(order.steps[0].said)


ANSWERS = {"yes": N_("yes"), "no": N_("no"), "go": N_("go"), "stay": N_("stay"), "recoil": N_("recoil")}
"""The answers of DBA's decisions that are words (the others are element ids and brigade/arm keys)."""


def question_said(decision):
    """A decision's question, read in each language when the rules wrote it as a Text."""
    return decision.said if decision.said is not None else decision.question


def answer_said(decision, key: str):
    """An answer of a decision, read in each language: its label's Text when the rules gave one."""
    said = dict(decision.said_labels).get(key)
    if said is not None:
        return said
    label = decision.label(key)
    if "/" in label:  # a fire target: brigade/arm
        brigade, arm = label.split("/", 1)
        return Text("%(brigade)s/%(arm)s", {"brigade": brigade, "arm": term(arm)})
    return term(label) if label in ANSWERS else label


def _troop(troop: str, t: Tongue) -> str:
    """A troop's key (``light_infantry``) as a reader of ``t``'s language reads it (English: its words, "light
    infantry", never the key)."""
    return t.say(term(troop.replace("_", " ")))


def _known_orders(game, day) -> list:
    state = game.days[day].after
    return [c.order for c in state.post.couriers]


def _couriers(game, who, day, view) -> list:
    """The couriers of the view as Texts (each found by its English line among the state's couriers and reports)."""
    state = game.days[day].after
    post = {c.text: c.said for c in state.post.couriers}
    names = {c.id: c.name for c in state.commanders.values()}
    post |= {r.text(names): r.said(names) for r in state.reports.reports}
    return [post.get(text, text) for text in view["couriers"]]


def _dispatches(game, who, day, view) -> list:
    orders = {o.text: o.said for o in _known_orders(game, day)}
    return [orders.get(text, text) for text in view["dispatches"]]


def orders_template(game, seat, *, deadline=None, game_label="", game_id="", lang="en") -> str:
    t = tongue(lang)
    view = game.view(seat)
    head = f"# {t.say(turn_said(game.scenario, view['turn']))}" + (
        t.gettext("; due %(deadline)s", deadline=deadline) if deadline else "")
    if t.lang == "en":
        head = f"# {view['turn_label']}" + (f"; due {deadline}" if deadline else "")
    key = header_words(t.lang)["KEY"]  # the seat's key, as Bonaparte at Marengo's form carries it
    lines = [f"{form_header(game, seat, game_id or game_label, lang)} {key} " + t.gettext("<your-key>"), head] + [
        "# " + t.gettext(line) for line in TEMPLATE_HELP]
    from .bot import superior_of

    def word(key: str) -> str:
        return t.say(term(key))

    alive = [c for c in view["commanders"] if c["alive"]]
    officer = view.get("commander")
    for b in view["brigades"]:
        c = next((c for c in alive if c["id"] == b["commander"]), None)
        up = superior_of(view, c) if c is not None else None
        if officer and c is not None and c["id"] == officer and not c["initiative_used"]:
            lines.append("# " + t.gettext("%(initiative)s %(commander)s   (once a game: your own order for %(brigade)s)",
                                          initiative=word("INITIATIVE"), commander=t.say(term(c["name"])),
                                          brigade=t.say(term(b["name"]))))
        if up is None or officer and up["id"] != officer:
            continue
        lines.append(f"# {word('FROM')} {t.say(term(up['name']))} {word('TO')} {t.say(term(c['name']))}   "
                     f"({t.say(colon(term(b['name']), term(b['rating'])))})")
        lines.append(f"# {word('HOLD')}")
    lines.append("# " + t.gettext("places: %(places)s", places=", ".join(t.say(term(p)) for p in view["places"])))
    return "\n".join(lines) + "\n"


