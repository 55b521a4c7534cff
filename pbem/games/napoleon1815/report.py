"""The turn report of one seat, built only from its view and the events it saw."""

from __future__ import annotations

from pbem.core.orders import header_words
from pbem.core.ruleset import form_header
from pbem.lang import say
from pbem.report.document import Bullets, Code, Document, Heading, Para, Report, Table, to_markdown, to_text

from .auction import MAX_BID
from .labels import label_said
from .orders import DOCTRINE
from .triggers import TRIGGERS
from .words import ARMY_SAID, MARKER_SAID, SEAT_SAID, SIDE_ID_SAID, TYPE_SAID, Asked, GameTongue, tongue, words_in

SOURCE_SAID = {"default": say("default"), "log": say("log"), "chosen": say("chosen")}
"""Where an answer came from (DecisionRecord.source), as the report names it."""


def build_report(game, day, seat, *, deadline=None, game_label="", game_id="", spectator=False,
                 lang: str = "en") -> Report:
    t = tongue(lang)
    scenario = game.scenario
    who = None if spectator else seat
    view = game.view(who, day)
    result = game.days[day]
    if "napoleon 1815" in game_label.casefold():  # a title naming the game ("Demo: Napoleon 1815"): not twice
        title = t.gettext("%(label)s: %(turn)s", label=game_label, turn=day_label(game, day, t))
    else:
        title = t.gettext("Napoleon 1815%(label)s: %(turn)s", label=" " + game_label if game_label else "",
                          turn=day_label(game, day, t))
    doc = Document(title)
    moderator = t.gettext("Moderator")
    doc.add(Para(t.say(SEAT_SAID[seat]) if seat in SEAT_SAID else moderator if seat else moderator,
                 strong=t.gettext("For:")))
    if view["over"]:
        ended = say("%(winner)s: %(why)s", winner=winner_said(view["winner"]), why=victory_text(game, view, t))
        doc.add(Para(t.say(ended),
                     strong=t.gettext("The game is over.")))
    else:
        after = t.say(label_said(scenario, game.days[day].after))
        doc.add(Para(after + (t.gettext(", orders due %(deadline)s", deadline=deadline) if deadline else ""),
                     strong=t.gettext("Next:")))
    doc.add(Heading(2, t.gettext("What happened")))
    seen = [(e, e.text_for(who, t)) for e in result.events if e.for_side(who) is not None
            and (who is not None or not e.data.get("partial"))]  # the moderator reads a deployment once, in full
    doc.add(Bullets([text for e, text in seen if e.kind != "roll"] or [t.gettext("Nothing.")], wrap=False))
    dice = sum(1 for e, _ in seen if e.kind == "roll")
    if dice:
        doc.add(Para(t.ngettext("%(num)d dice you saw rolled this turn, each shown above where it fell; every roll "
                                "is kept in the game's record and can be verified when the game ends.",
                                "%(num)d dice you saw rolled this turn, each shown above where it fell; every roll "
                                "is kept in the game's record and can be verified when the game ends.", dice),
                     strong=t.gettext("Dice:")))
    mine = [r for r in result.decisions if seat is None or r.decision.side == seat]
    if mine:
        doc.add(Heading(2, t.gettext("Choices made for you") if seat else t.gettext("Choices made")))
        standing, given = t.gettext("your standing orders"), t.gettext("your orders for the round")

        def whose(r) -> str:
            if r.decision.kind == "round":
                return given
            return standing if r.source in ("standing", "orders") else source(r.source, t)

        doc.add(Bullets([f"{question(r.decision, t)} {', '.join(label(r.decision, a, t) for a in r.answer)} "
                         f"({whose(r)})" for r in mine], wrap=False))
    doc.add(Heading(2, t.gettext("Your blocks") if seat else t.gettext("The blocks")))
    board = scenario.board
    doc.add(Table([t.gettext("town"), t.gettext("block"), t.gettext("type"), t.gettext("strength"),
                   t.gettext("fire"), t.gettext("name")],
                  [[t.place(board.name(b["town"])), b["id"], t.say(TYPE_SAID[b["type"]]),
                    f"{b['strength']}/{b['max']}", b["fire"], b["name"]] for b in view["blocks"]]))
    if view["hidden"]:
        doc.add(Heading(2, t.gettext("Blocks you cannot see")))
        doc.add(Table([t.gettext("town"), t.gettext("army"), t.gettext("blocks")],
                      [[t.place(board.name(h["town"])), t.say(ARMY_SAID[h["army"]]), str(h["count"])]
                       for h in view["hidden"]]))
    doc.add(Para(", ".join(f"{t.say(ARMY_SAID[a])} {n}" for a, n in view["lost"].items()),
                 strong=t.gettext("Blocks lost:")))
    template = ""
    if seat and not view["over"]:
        template = orders_template(game, seat, deadline=deadline, game_label=game_label, game_id=game_id, lang=lang)
        doc.add(Heading(2, t.gettext("Your next orders")))
        doc.add(Code(template))
    md = to_markdown(doc)
    subject = t.gettext("%(title)s — %(army)s", title=title, army=t.say(SEAT_SAID[seat])) if seat in SEAT_SAID else title
    return Report(seat, day, subject, md, to_text(doc), template=template, spectator=spectator, title=title)


def orders_template(game, seat, *, deadline=None, game_label="", game_id="", lang: str = "en") -> str:
    """The orders form of ``seat``: its header, and comments naming the orders it may give now, in
    its reader's language (the order words too: each language's words are read as the English)."""
    t = tongue(lang)
    view = game.view(seat)
    board = game.scenario.board
    label = t.say(label_said(game.scenario, game.state))
    key = header_words(t.lang)["KEY"]  # the seat's key, as Bonaparte at Marengo's form carries it
    lines = [f"{form_header(game, seat, game_id or game_label, lang)} {key} " + t.gettext("<your-key>"),
             f"# {label}" + (t.gettext("; due %(deadline)s", deadline=deadline) if deadline else "")]
    if seat in view["to_move"]:
        if view["phase"] == "auction":
            named = ("FRANCE|ALLIES" if view.get("players", 2) == 2 else
                     "ANGLO-DUTCH|PRUSSIAN" if seat == "french" else "FRANCE")
            lines += ["# " + t.gettext("BID [%(named)s] <steps>   (0 to %(most)s: the steps removed at the setup of "
                                       "the side you name, or yours, if yours is the highest bid: you then play that "
                                       "side; sealed, §13)", named=named, most=MAX_BID),
                      "BID 0"]
        elif view["phase"] == "battle deployment":
            lines.append("# " + t.gettext("DEPLOY <town> LEFT <blocks> CENTRE <blocks> RIGHT <blocks> RESERVE <blocks>"))
            side = "france" if seat == "french" else "allies"
            for battle in view["battles"]:
                mine = [b["id"] for b in view["blocks"] if b["town"] == battle["town"]]
                role = next(r for r, sd in battle["sides"].items() if sd == side)
                terrain = ", ".join(t.gettext("%(marker)s on %(position)s", marker=t.say(MARKER_SAID.get(marker, marker)),
                                              position=position(loc, role, t))
                                    for loc, marker in sorted(battle["terrain"].items()))
                lines.append("# " + t.gettext("%(town)s: your blocks %(blocks)s; terrain %(terrain)s",
                                              town=t.place(board.name(battle["town"])),
                                              blocks=" ".join(mine) or t.gettext("none"),
                                              terrain=terrain or t.gettext("none")))
                if battle["defenders"]:
                    lines.append("# " + t.gettext("the defenders stand: %(where)s", where=", ".join(
                        t.gettext("%(n)s on %(position)s", n=n, position=position(loc, role, t))
                        for loc, n in sorted(battle["defenders"].items()))))
        elif view["phase"] == "battle round":
            lines += [f"# {q}" for q in questions(game, seat, view, t)]
            for battle in view["battles"]:
                lines.append("# " + t.gettext("LEAVE %(town)s   (withdraw from this battle from the next round)",
                                              town=t.place(board.name(battle["town"]))))
            lines.append("# " + t.gettext("COMMIT <your reserve blocks> LEFT|CENTRE|RIGHT   (they go in, in your "
                                          "next part)"))
            lines += round_lines(view, seat, board, t)
            lines.append("# " + t.gettext("DOCTRINE lines count from the next round on"))
        elif view["phase"] == "campaign":
            first = view["blocks"][0]["town"] if view["blocks"] else None  # blocks that stand together
            together = [b["id"] for b in view["blocks"] if b["town"] == first][:2]
            lines += ["# " + t.gettext("MOVE <blocks> <from> -> <to> [-> <to>] [FORCED]   "
                                       "(docs/napoleon1815-orders.md)"),
                      "# " + t.gettext("e.g. MOVE %(blocks)s %(town)s -> <town>",
                                       blocks=" ".join(together) or t.gettext("<blocks>"),
                                       town=t.place(board.name(first)) if first else t.gettext("<town>"))]
        else:
            lines += ["# " + t.gettext("PLACE <blocks> <town>   (unplaced blocks go to their historical towns)")]
            from .scenario import SEAT_ARMY  # the seat's blocks, by their historical towns

            towns: dict[str, list[str]] = {}
            for spec in game.scenario.army_blocks(SEAT_ARMY[seat]):
                towns.setdefault(spec.setup, []).append(spec.id)
            lines += ["# " + t.say(say("%(where)s: %(blocks)s", where=t.place(board.name(town)), blocks=" ".join(ids)))
                      for town, ids in towns.items()]
    lines += [f"# DOCTRINE {k} {v[0]}   ({t.say(v[1])})" for k, v in DOCTRINE.items()]
    lines += ["# " + t.gettext("RETREAT TO <town>, <town>"), "# " + t.gettext("SUPPLY LOSS <blocks>"),
              "# " + t.gettext("RETREAT FIRST <blocks>"), "# " + t.gettext("SKIRMISH <blocks>"),
              "# " + t.gettext("HIT FIRST <blocks>"), "# TERRAIN <WOODS|FARM|STREAM|HILL> <LEFT|CENTRE|RIGHT>"]
    if view["battle"] == "hybrid":
        lines.append("# " + t.gettext("ASK NONE   (or triggers to be asked on in battles: %(triggers)s)",
                                      triggers=" ".join(TRIGGERS)))
    lines = [lines[0]] + [words_in(line, t.lang) for line in lines[1:]]
    return "\n".join(lines) + "\n"


def round_lines(view, seat, names, t) -> list[str]:
    """A round sub-turn's form: where the seat's blocks stand on each board (with the enemy's count
    there), and the round's orders block by block (round_orders.py; the doctrine plays the rest)."""
    side = "france" if seat == "french" else "allies"
    lines = []
    for battle in view["battles"]:
        role = next(r for r, sd in battle["sides"].items() if sd == side)
        board = battle.get("board") or {}
        where = [t.ngettext("%(position)s %(blocks)s (%(num)d enemy block there)",
                            "%(position)s %(blocks)s (%(num)d enemy blocks there)", place.get("enemies", 0),
                            position=position(loc, role, t), blocks=" ".join(place["own"]))
                 for loc, place in sorted(board.items()) if place["own"]]
        if where:
            lines.append("# " + t.gettext("%(town)s: %(where)s", town=t.place(names.name(battle["town"])),
                                          where="; ".join(where)))
    lines += ["# " + t.gettext("Each block, once a round (the doctrine plays the blocks you leave unsaid):"),
              "# " + t.gettext("ENGAGE <blocks>   (into the enemy's position opposite)"),
              "# " + t.gettext("DISENGAGE <blocks>   (out of the fight, back towards your side)"),
              "# " + t.gettext("SHIFT <blocks> LEFT|CENTRE|RIGHT|RESERVE   (within your side; cavalry, horse artillery "
                               "and leaders from one position to another)"),
              "# " + t.gettext("FIRE <blocks> [SQUARE|LINE]   (first, in this order; at the squares or the line)"),
              "# " + t.gettext("HOLD <blocks>   (they stand: no fire, no move)"),
              "# " + t.gettext("FORM SQUARE <infantry>   BREAK SQUARE <blocks>"),
              "# " + t.gettext("WITHDRAW <blocks> TO <town>   REINFORCE <blocks of the towns next to it>")]
    return lines


def questions(game, seat, view, t) -> list[str]:
    """The questions a round sub-turn puts to ``seat`` (the position keeps them in English; the
    event that put them has them as Texts, read here in the seat's language)."""
    if t.lang != "en" and game.days:
        for event in reversed(game.days[-1].events):
            parts = getattr(event.said, "parts", None)
            if event.kind == "battle" and event.owner == seat and parts and len(parts) - 1 == len(view["questions"]):
                return [t.say(p) for p in parts[:-1]]
    return list(view["questions"])


POSITION_FOR_SAID = {("your", "left"): say("your left"), ("your", "centre"): say("your centre"),
                     ("your", "right"): say("your right"), ("their", "left"): say("their left"),
                     ("their", "centre"): say("their centre"), ("their", "right"): say("their right"),
                     ("your", "reserve"): say("your reserve"), ("their", "reserve"): say("their reserve")}


def position(loc: str, role: str, t=None) -> str:
    """A battle-board location ("def2", "res-def") as the reader of side ``role`` names it."""
    t = t or tongue("en")
    if loc.startswith("res"):
        return t.say(POSITION_FOR_SAID[("your" if loc.endswith(role) else "their", "reserve")])
    owner, i = loc[:3], int(loc[3])
    name = {0: "left", 1: "centre", 2: "right"}[i if owner == "att" else 2 - i]
    return t.say(POSITION_FOR_SAID[("your" if owner == role else "their", name)])


def winner_said(winner):
    return SIDE_ID_SAID.get(winner, winner)


def victory_text(game, view, t: GameTongue) -> str:
    """Why the game ended, in the reader's language: the victory event's reason (the position and
    the server keep it in English), else what the view says."""
    if t.lang != "en":
        for day in reversed(game.days):
            for event in day.events:
                why = event.said.values.get("why") if event.kind == "victory" and event.said is not None else None
                if why is not None:
                    return t.say(why)
    return view["victory"]


def day_label(game, day: int, t: GameTongue) -> str:
    """The name of day ``day`` (as Game.turn_label names it) in the reader's language."""
    from .labels import number_said

    if 0 <= day <= game.day:
        return t.say(label_said(game.scenario, game.state_before(day)))
    return t.say(number_said(game.scenario, day))


def question(decision, t) -> str:
    return decision.question_in(t) if isinstance(decision, Asked) else decision.question


def label(decision, key, t) -> str:
    return decision.label_in(key, t) if isinstance(decision, Asked) else decision.label(key)


def source(name: str, t) -> str:
    return t.say(SOURCE_SAID[name]) if name in SOURCE_SAID else name


