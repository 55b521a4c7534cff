"""The turn report of one seat, built only from its view and the events it saw."""

from __future__ import annotations

from pbem.core.events import events_for
from pbem.report.document import Bullets, Code, Document, Heading, Para, Report, Table, to_markdown, to_text

from .auction import MAX_BID
from .blocks import ARMY_NAME
from .orders import DOCTRINE
from .scenario import SEAT_TITLE
from .triggers import TRIGGERS


def build_report(game, day, seat, *, deadline=None, game_label="", game_id="", spectator=False) -> Report:
    scenario = game.scenario
    who = None if spectator else seat
    view = game.view(who, day)
    result = game.days[day]
    title = f"Napoleon 1815{' ' + game_label if game_label else ''}: {game.turn_label(day)}"
    doc = Document(title)
    doc.add(Para(SEAT_TITLE.get(seat, "Moderator") if seat else "Moderator", strong="For:"))
    if view["over"]:
        doc.add(Para(f"{view['winner']}: {view['victory']}", strong="The game is over."))
    else:
        doc.add(Para(f"{view['turn_label']}" + (f", orders due {deadline}" if deadline else ""), strong="Next:"))
    doc.add(Heading(2, "What happened"))
    seen = [e for e in events_for(result.events, who)  # the moderator reads a deployment once, in full
            if who is not None or not e["data"].get("partial")]
    doc.add(Bullets([e["text"] for e in seen if e["kind"] != "roll"] or ["Nothing."], wrap=False))
    dice = sum(1 for e in seen if e["kind"] == "roll")
    if dice:
        doc.add(Para(f"{dice} dice you saw rolled this turn, each shown above where it fell; every roll is "
                     "kept in the game's record and can be verified when the game ends.", strong="Dice:"))
    mine = [r for r in result.decisions if seat is None or r.decision.side == seat]
    if mine:
        doc.add(Heading(2, "Choices made for you" if seat else "Choices made"))
        doc.add(Bullets([f"{r.decision.question} {', '.join(r.decision.label(a) for a in r.answer)} "
                         f"({'your standing orders' if r.source in ('standing', 'orders') else r.source})"
                         for r in mine], wrap=False))
    doc.add(Heading(2, "Your blocks" if seat else "The blocks"))
    board = scenario.board
    doc.add(Table(["town", "block", "type", "strength", "fire", "name"],
                  [[board.name(b["town"]), b["id"], b["type"].replace("_", " "), f"{b['strength']}/{b['max']}",
                    b["fire"], b["name"]] for b in view["blocks"]]))
    if view["hidden"]:
        doc.add(Heading(2, "Blocks you cannot see"))
        doc.add(Table(["town", "army", "blocks"], [[board.name(h["town"]), ARMY_NAME[h["army"]], str(h["count"])]
                                                   for h in view["hidden"]]))
    doc.add(Para(", ".join(f"{ARMY_NAME[a]} {n}" for a, n in view["lost"].items()), strong="Blocks lost:"))
    template = ""
    if seat and not view["over"]:
        template = orders_template(game, seat, deadline=deadline, game_label=game_label, game_id=game_id)
        doc.add(Heading(2, "Your next orders"))
        doc.add(Code(template))
    md = to_markdown(doc)
    return Report(seat, day, title, md, to_text(doc), template=template, spectator=spectator, title=title)


def orders_template(game, seat, *, deadline=None, game_label="", game_id="") -> str:
    view = game.view(seat)
    lines = [f"GAME {game_id or game_label or 'GAME'} SIDE {seat}",
             f"# {view['turn_label']}" + (f"; due {deadline}" if deadline else "")]
    if seat in view["to_move"]:
        if view["phase"] == "auction":
            named = ("FRANCE|ALLIES" if view.get("players", 2) == 2 else
                     "ANGLO-DUTCH|PRUSSIAN" if seat == "french" else "FRANCE")
            lines += [f"# BID [{named}] <steps>   (0 to {MAX_BID}: the steps removed at the setup of the side "
                      "you name, or yours, if yours is the highest bid: you then play that side; sealed, §13)",
                      "BID 0"]
        elif view["phase"] == "battle deployment":
            lines.append("# DEPLOY <town> LEFT <blocks> CENTRE <blocks> RIGHT <blocks> RESERVE <blocks>")
            board = game.scenario.board
            side = "france" if seat == "french" else "allies"
            for battle in view["battles"]:
                mine = [b["id"] for b in view["blocks"] if b["town"] == battle["town"]]
                role = next(r for r, sd in battle["sides"].items() if sd == side)
                terrain = ", ".join(f"{marker} on {position(loc, role)}"
                                    for loc, marker in sorted(battle["terrain"].items()))
                lines.append(f"# {board.name(battle['town'])}: your blocks {' '.join(mine) or 'none'}; "
                             f"terrain {terrain or 'none'}")
                if battle["defenders"]:
                    lines.append("# the defenders stand: " + ", ".join(
                        f"{n} on {position(loc, role)}" for loc, n in sorted(battle["defenders"].items())))
        elif view["phase"] == "battle round":
            board = game.scenario.board
            lines += [f"# {q}" for q in view["questions"]]
            for battle in view["battles"]:
                lines.append(f"# LEAVE {board.name(battle['town'])}   (withdraw from this battle from the next round)")
            lines.append("# COMMIT <your reserve blocks> LEFT|CENTRE|RIGHT   (they go in, in your next part)")
            lines.append("# DOCTRINE lines count from the next round on")
        elif view["phase"] == "campaign":
            board = game.scenario.board
            first = view["blocks"][0]["town"] if view["blocks"] else None  # blocks that stand together
            together = [b["id"] for b in view["blocks"] if b["town"] == first][:2]
            lines += ["# MOVE <blocks> <from> -> <to> [-> <to>] [FORCED]   (docs/napoleon1815-orders.md)",
                      "# e.g. MOVE " + (" ".join(together) or "<blocks>") + " "
                      + (board.name(first) if first else "<town>") + " -> <town>"]
        else:
            lines += ["# PLACE <blocks> <town>   (unplaced blocks go to their historical towns)"]
            from .scenario import SEAT_ARMY  # the seat's blocks, by their historical towns

            towns: dict[str, list[str]] = {}
            for spec in game.scenario.army_blocks(SEAT_ARMY[seat]):
                towns.setdefault(spec.setup, []).append(spec.id)
            lines += [f"# {game.scenario.board.name(town)}: {' '.join(ids)}" for town, ids in towns.items()]
    lines += [f"# DOCTRINE {k} {v[0]}   ({v[1]})" for k, v in DOCTRINE.items()]
    lines += ["# RETREAT TO <town>, <town>", "# SUPPLY LOSS <blocks>", "# RETREAT FIRST <blocks>",
              "# SKIRMISH <blocks>", "# HIT FIRST <blocks>", "# TERRAIN <WOODS|FARM|STREAM|HILL> <LEFT|CENTRE|RIGHT>"]
    if view["battle"] == "hybrid":
        lines.append("# ASK NONE   (or triggers to be asked on in battles: " + " ".join(TRIGGERS) + ")")
    return "\n".join(lines) + "\n"


def position(loc: str, role: str) -> str:
    """A battle-board location ("def2", "res-def") as the reader of side ``role`` names it."""
    if loc.startswith("res"):
        return "your reserve" if loc.endswith(role) else "their reserve"
    owner, i = loc[:3], int(loc[3])
    name = {0: "left", 1: "centre", 2: "right"}[i if owner == "att" else 2 - i]
    return f"your {name}" if owner == role else f"their {name}"
