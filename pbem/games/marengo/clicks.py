"""Orders by clicking on the map (pbem.core.ruleset.Ruleset.map_clicks): Bonaparte at Marengo's
click grammar. The map marks own blocks with ``data-at``, ``data-type`` and ``data-activated``
(render/blocks.py), locales and approaches with their names (render/board.py); the reinforcements
whose hour has come are offered off the map, for ENTER, with the side's entry points."""

from __future__ import annotations

IF_BLOCKED = {"name": "blocked", "title": "If blocked", "choices": [
    ["", "the standing order (default)"], [" IF BLOCKED STAY", "stay"], [" IF BLOCKED ADVANCE", "advance"]]}

VERBS = [
    {"name": "move", "title": "Move", "from": ["locale", "approach"], "targets": ["locale", "approach"],
     "min": 1, "max": 1, "options": [IF_BLOCKED], "line": "MOVE {blocks} {from} -> {targets}{blocked}"},
    {"name": "road", "title": "March by road", "from": ["locale"], "blocks": 1, "targets": ["locale"],
     "min": 1, "max": 3, "options": [IF_BLOCKED], "line": "ROAD {blocks} {from} -> {targets}{blocked}"},
    {"name": "assault", "title": "Assault", "from": ["approach"], "min": 0, "max": 0,
     "options": [{"name": "lead", "title": "Lead", "blocks": " LEAD {}"},
                 {"name": "pursuit", "title": "Pursuit", "choices": [
                     ["", "the standing order (default)"], [" NO PURSUIT", "no pursuit"]]},
                 {"name": "pursue", "title": "Pursue with", "blocks": " PURSUE {}"}],
     "line": "ASSAULT {from} WITH {blocks}{lead}{pursuit}{pursue}"},
    {"name": "bombard", "title": "Bombard", "from": ["approach"], "where": {"type": "artillery"}, "blocks": 1,
     "min": 0, "max": 0, "line": "BOMBARD {blocks} FROM {from}"},
    {"name": "activate", "title": "Activate", "where": {"activated": "false"}, "min": 0, "max": 0,
     "line": "ACTIVATE {blocks}"},
]
JOIN = {"blocks": " ", "targets": " -> "}

MAP_CLICKS = {"verbs": VERBS, "join": JOIN}
"""The grammar without a view (no reinforcements to enter)."""


def map_clicks(scenario, view: dict | None) -> dict:
    """The grammar for the seat of ``view``: the verbs, and ENTER for its reinforcements whose hour
    has come (its own blocks only, with the entry points of its side, which the map shows to all)."""
    if not view or not view.get("viewer"):
        return MAP_CLICKS
    side, hour = view["viewer"], view.get("hour")
    waiting = [b for b in view.get("blocks", []) if b.get("side") == side and b.get("status") == "waiting"
               and (b.get("arrives") is None or hour is None or b["arrives"] <= hour)]
    if not waiting:
        return MAP_CLICKS
    entries = [e for e in scenario.board.entries.values() if e.side == side]
    at = [["", "the block's own (default)"]] + [[f" AT {e.name}", e.name] for e in entries if e.kind == "road"]
    enter = {"name": "enter", "title": "Enter", "from": ["offmap"], "targets": ["locale"], "min": 0, "max": 2,
             "to": " -> ", "options": [
                 {"name": "by", "title": "By", "choices": [["", "road"], [" BY PONTOON", "pontoon (one block)"]]},
                 {"name": "at", "title": "At", "choices": at}, IF_BLOCKED],
             "line": "ENTER {blocks}{by}{at}{targets}{blocked}"}
    offmap = [{"id": b["id"], "at": "reinforcements", "kind": "offmap",
               "data": {"type": b.get("type", "")}, "box": None} for b in waiting]
    return {"verbs": VERBS + [enter], "join": JOIN, "offmap": offmap}
