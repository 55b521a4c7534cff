"""Orders by clicking on the map (pbem.core.ruleset.Ruleset.map_clicks): Napoleon 1815's click
grammar, with the regions of its map.

Its map (render.py) marks nothing, so the grammar says where the seat's own blocks and the towns are,
in the map's coordinates, placed as render.py places them (layout.py): a town is a disc around its dot,
a block its bar in the town's stack, every block of the stack (beside its town, or in the inset under
the map that a big stack is drawn in). Only the blocks of the seat's own army are given: the partner army's, seen in
the two-player game, are ordered from the other Allied seat. Orders: MOVE along roads (a move into
a town the enemy holds is the attack), PLACE in the setup turns, DEPLOY in a battle's deployment
sub-turn (blocks of the battle's town, then the position: a line a click, the lines of one battle add
up); BID in the auction is typed.

The titles and labels are entries of the game's catalog (``N_``), read in the page's language by
pbem.core.clicks.grammar_in, which writes the lines in the seat's order words (words.toml: the
parser reads them back); the grammar here is English."""

from __future__ import annotations

import math

from pbem.core.clicks import grammar_in
from pbem.lang import N_, language

from .layout import BAR_H, BAR_W, W, board_cell, board_top, cell_bar, layout, map_height, stacks
from .layout import town_positions as town_positions  # noqa: F401  (where render.py draws each town)
from .scenario import SEAT_ARMY
from .words import in_words, native_names, tongue

TOWN_R = 14  # the clickable disc around a town's dot (render.py's dot is 6 or 9)

JOIN = {"blocks": " ", "targets": " -> "}
MOVE = {"name": "move", "title": N_("Move (into the enemy: attack)"), "from": ["locale"], "targets": ["locale"],
        "min": 1, "max": 3, "options": [{"name": "forced", "title": N_("Forced march"), "choices": [
            ["", N_("no")], [" FORCED", N_("yes: one town more, a die each")]]}],
        "line": "MOVE {blocks} {from} -> {targets}{forced}"}
DEPLOY = [{"name": f"deploy-{key.lower()}", "title": title, "from": ["locale"], "where": {"battle": "yes"},
           "targets": [], "min": 0, "max": 0, "line": f"DEPLOY {{from}} {key} {{blocks}}"}
          for key, title in (("LEFT", N_("Deploy on your left")), ("CENTRE", N_("Deploy in your centre")),
                             ("RIGHT", N_("Deploy on your right")), ("RESERVE", N_("Keep in your reserve")))]
ROUND = [{"name": name, "title": title, "from": ["locale"], "where": {"board": "yes"}, "targets": [], "min": 0,
          "max": 0, "line": line} for name, title, line in (
    ("engage", N_("Engage the enemy opposite"), "ENGAGE {blocks}"),
    ("disengage", N_("Leave the fight"), "DISENGAGE {blocks}"),
    ("fire", N_("Fire first"), "FIRE {blocks}"),
    ("fire-square", N_("Fire at the squares"), "FIRE {blocks} SQUARE"),
    ("fire-line", N_("Fire at the line"), "FIRE {blocks} LINE"),
    ("hold", N_("Stand: no fire, no move"), "HOLD {blocks}"),
    ("form-square", N_("Form square"), "FORM SQUARE {blocks}"),
    ("break-square", N_("Leave the square"), "BREAK SQUARE {blocks}"),
    ("shift-left", N_("Move to your left"), "SHIFT {blocks} LEFT"),
    ("shift-centre", N_("Move to your centre"), "SHIFT {blocks} CENTRE"),
    ("shift-right", N_("Move to your right"), "SHIFT {blocks} RIGHT"),
    ("shift-reserve", N_("Move to your reserve"), "SHIFT {blocks} RESERVE"))] + [
    {"name": "withdraw", "title": N_("Withdraw from the battle to"), "from": ["locale"], "where": {"board": "yes"},
     "targets": ["locale"], "min": 1, "max": 1, "line": "WITHDRAW {blocks} TO {targets}"},
    {"name": "reinforce", "title": N_("Join the battle next to it first"), "from": ["locale"],
     "where": {"board": "no"}, "targets": [], "min": 0, "max": 0, "line": "REINFORCE {blocks}"}]
"""A round sub-turn's orders block by block (round_orders.py): the blocks of the battle boards, and for
REINFORCE the blocks on the map."""
PLACE = {"name": "place", "title": N_("Place"), "from": ["locale", "offmap"], "targets": ["locale"], "min": 1, "max": 1,
         "line": "PLACE {blocks} {targets}"}


def map_clicks(scenario, view: dict | None, lang: str = "en") -> dict:
    """The grammar for the seat of ``view`` in ``lang`` (pbem.core.clicks.grammar_in)."""
    return grammar_in(english_clicks(scenario, view), tongue(lang), lambda text: in_words(text, lang),
                      native_names(language(lang)) if language(lang) != "en" else None)


def english_clicks(scenario, view: dict | None) -> dict:
    """The grammar for the seat of ``view``: its army's blocks, the towns (public)."""
    if not view or view.get("seat") not in SEAT_ARMY:
        return {"verbs": [MOVE], "join": JOIN}
    if view.get("phase") == "auction":
        return {}  # BID is typed
    board, army = scenario.board, SEAT_ARMY[view["seat"]]
    deploying = view.get("phase") == "battle deployment"
    side = "france" if army == "french" else "allies"
    battles = {b["town"] for b in view.get("battles", []) if deploying and b["sides"].get(b["stage"]) == side}
    at = town_positions(board)
    stacked = stacks(view, str)
    lay = layout(board, {town: len(items) for town, items in stacked.items()})
    kind = {b["id"]: b for b in view["blocks"]}
    rounds = view.get("phase") == "battle round"
    on_boards = board_blocks(view, lay, kind, army, board) if rounds else []
    fought = {b["id"] for b in on_boards}
    blocks = []
    for town, items in stacked.items():
        for k, item in enumerate(items):
            b = kind.get(item.id)
            if b is None or b["army"] != army or (deploying and town not in battles) or b["id"] in fought:
                continue
            bx, by = lay.bars[(town, k)]
            data = {"type": b.get("type", "")} | ({"battle": "yes"} if deploying else {}) | (
                {"board": "no"} if rounds else {})
            blocks.append({"id": b["id"], "at": board.towns[town].name, "data": data,
                           "box": [round(bx + BAR_W / 2, 1), round(by + BAR_H / 2, 1), BAR_W, BAR_H, 0]})
    blocks += on_boards
    places = [{"name": town.name, "kind": "locale", "points": [
        [round(at[tid][0] + TOWN_R * math.cos(i * math.pi / 8)), round(at[tid][1] + TOWN_R * math.sin(i * math.pi / 8))]
        for i in range(16)]} for tid, town in board.towns.items()]
    setup = view.get("phase") in ("allied setup", "French setup")
    # in the setup, the army's blocks not yet on the map (the order of battle is the scenario's)
    offmap = [{"id": spec.id, "at": N_("to place"), "kind": "offmap", "data": {"type": spec.type}, "box": None}
              for spec in scenario.blocks.values() if setup and spec.army == army
              and spec.id not in {b["id"] for b in view["blocks"]}]
    verbs = DEPLOY if deploying else ROUND if rounds else [PLACE if setup else MOVE]
    return {"verbs": verbs, "join": JOIN, "offmap": offmap,
            "regions": {"viewbox": [0, 0, W, map_height(lay, len(view.get("battles", [])))], "blocks": blocks,
                        "places": places}}


def board_blocks(view: dict, lay, kind: dict, army: str, names) -> list[dict]:
    """The seat's blocks on the battle boards of a round sub-turn, each on its bar (render.battle_board)."""
    out = []
    for k, battle in enumerate(view.get("battles", [])):
        top = board_top(lay, k)
        for loc, place in (battle.get("board") or {}).items():
            x, y = board_cell(loc, top)
            for i, bid in enumerate(place["own"]):
                b = kind.get(bid)
                if b is None or b["army"] != army:
                    continue
                bx, by = cell_bar(x, y, i)
                out.append({"id": bid, "at": names.name(battle["town"]),
                            "data": {"type": b.get("type", ""), "board": "yes"},
                            "box": [round(bx + BAR_W / 2, 1), round(by + BAR_H / 2, 1), BAR_W, BAR_H, 0]})
    return out
