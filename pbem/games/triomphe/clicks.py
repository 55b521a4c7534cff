"""Orders by clicking on the map (pbem.core.ruleset.Ruleset.map_clicks): Triomphe à Marengo's click
grammar, with the regions of its map.

Its map (render.py) marks nothing, so the grammar says where the seat's own blocks and the places
are, in the map's coordinates, drawn as render.py draws them: a locale is its circle, an approach the
spot 0.3 of the way to the locale it faces, where its blocks stand; an own block its bar (own blocks
are stacked first, before the enemy's, so their places come from the seat's view alone). Nothing of
the enemy is given. Reinforcements whose hour has come are offered off the map, for ENTER."""

from __future__ import annotations

import math

LOCALE_R = 26  # render.py's circle
SPOT = 0.3  # where an approach's blocks stand, from the locale towards the faced one
BAR_W, BAR_H, BAR_STEP, BAR_TOP = 32, 8, 9, -14  # render.py's block bars, stacked down from BAR_TOP

IF_BLOCKED = {"name": "blocked", "title": "If blocked", "choices": [
    ["", "advance onto the approach (default)"], [" IF BLOCKED STAY", "stay"]]}

VERBS = [
    {"name": "reorganise", "title": "Reorganise", "from": ["locale"], "where": {"disorganised": "true"},
     "min": 0, "max": 0, "line": "REORGANISE {blocks}"},
    {"name": "march", "title": "March", "from": ["locale", "approach"], "blocks": 3,
     "targets": ["locale", "approach"], "min": 1, "max": 1, "line": "MARCH {blocks} {from} -> {targets}"},
    {"name": "road", "title": "March by road", "from": ["locale"], "blocks": 1,
     "targets": ["locale"], "min": 1, "max": 3, "options": [IF_BLOCKED],
     "line": "ROAD {blocks} {from} -> {targets}{blocked}"},
    {"name": "attack", "title": "Maneuver attack", "from": ["locale", "approach"], "blocks": 3,
     "targets": ["locale"], "min": 1, "max": 1, "options": [IF_BLOCKED],
     "line": "ATTACK {blocks} {from} -> {targets}{blocked}"},
    {"name": "assault", "title": "Assault", "from": ["approach"], "blocks": 3, "min": 0, "max": 0,
     "options": [{"name": "lead", "title": "Vanguard", "blocks": " LEAD {}"}],
     "line": "ASSAULT {from} WITH {blocks}{lead}"},
    {"name": "bombard", "title": "Bombard", "from": ["approach"], "where": {"type": "artillery", "bombard": ""},
     "blocks": 1, "min": 0, "max": 0, "line": "BOMBARD {blocks} FROM {from}"},
    {"name": "fire", "title": "Fire", "where": {"bombard": "true"}, "blocks": 1, "min": 0, "max": 0,
     "line": "FIRE {blocks}"},
    {"name": "hold", "title": "Hold fire", "where": {"bombard": "true"}, "blocks": 1, "min": 0, "max": 0,
     "line": "HOLD FIRE {blocks}"},
]
JOIN = {"blocks": " ", "targets": " -> "}


def spot(board, locale: str, facing: str | None) -> tuple[float, float]:
    loc = board.locales[locale]
    if facing is None:
        return loc.x, loc.y
    other = board.locales[facing]
    return loc.x + (other.x - loc.x) * SPOT, loc.y + (other.y - loc.y) * SPOT


def place_name(board, locale: str, facing: str | None) -> str:
    """A place as orders write it: a locale's name, or ``Locale>Faced``."""
    name = board.locales[locale].name
    return name if facing is None else f"{name}>{board.locales[facing].name}"


def circle(x: float, y: float, r: float) -> list[list[int]]:
    return [[round(x + r * math.cos(i * math.pi / 8)), round(y + r * math.sin(i * math.pi / 8))] for i in range(16)]


def places(board) -> list[dict]:
    out = [{"name": place_name(board, a, b), "kind": "approach",
            "points": [[round(x + dx), round(y + dy)] for dx, dy in ((-BAR_W / 2 - 2, BAR_TOP - 2),
                       (BAR_W / 2 + 2, BAR_TOP - 2), (BAR_W / 2 + 2, BAR_TOP + 3 * BAR_STEP + 2),
                       (-BAR_W / 2 - 2, BAR_TOP + 3 * BAR_STEP + 2))]}
           for (a, b) in board.approaches for x, y in [spot(board, a, b)]]
    out += [{"name": loc.name, "kind": "locale", "points": circle(loc.x, loc.y, LOCALE_R + 4)}
            for loc in board.locales.values()]
    return out


def block_regions(board, view: dict) -> list[dict]:
    """The seat's blocks on the map, where render.py draws them (own blocks come first in its stacks)."""
    placed: dict[tuple, int] = {}
    out = []
    for b in view["blocks"]:
        if b["status"] != "map":
            continue
        key = (b["locale"], b["facing"])
        k = placed[key] = placed.get(key, -1) + 1
        x, y = spot(board, *key)
        out.append({"id": b["id"], "at": place_name(board, *key), "data": {
            "type": b["type"], "disorganised": "true" if b["disorganised"] else "",
            "bombard": "true" if b.get("bombard") else ""},
            "box": [x, round(y + BAR_TOP + BAR_STEP * k + BAR_H / 2, 1), BAR_W, BAR_H, 0]})
    return out


def entering(scenario, view: dict) -> list[dict]:
    """The seat's reinforcements whose cell is open and whose hour has come (ENTER)."""
    hour, out = view["hour"], []
    for b in view["blocks"]:
        cell = scenario.cells.get(b.get("cell") or "")
        if b["status"] == "waiting" and (cell is None or cell.hour <= hour) and (
                b.get("arrives") is None or b["arrives"] <= hour):
            out.append({"id": b["id"], "at": "reinforcements", "kind": "offmap",
                        "data": {"type": b["type"], "disorganised": ""}, "box": None})
    return out


def map_clicks(scenario, view: dict | None) -> dict:
    """The grammar for the seat of ``view`` (that seat's blocks only; the board is public)."""
    if not view or not view.get("viewer"):
        return {"verbs": VERBS, "join": JOIN}
    board, side = scenario.board, view["viewer"]
    verbs = list(VERBS)
    offmap = entering(scenario, view)
    if offmap:
        at = [["", "the block's own (default)"]] + [
            [f" AT {e.name}", e.name] for e in board.entries.values() if e.side == side and e.kind == "road"]
        verbs.append({"name": "enter", "title": "Enter", "from": ["offmap"], "blocks": 1, "targets": ["locale"],
                      "min": 0, "max": 2, "to": " -> ", "options": [
                          {"name": "by", "title": "By", "choices": [["", "road"], [" BY PONTOON", "pontoon"]]},
                          {"name": "at", "title": "At", "choices": at}],
                      "line": "ENTER {blocks}{by}{at}{targets}"})
    return {"verbs": verbs, "join": JOIN, "offmap": offmap,
            "regions": {"viewbox": [0, -40, board.width, board.height + 40], "blocks": block_regions(board, view),
                        "places": places(board)}}
