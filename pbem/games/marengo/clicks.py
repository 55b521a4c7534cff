"""Orders by clicking on the map (pbem.core.ruleset.Ruleset.map_clicks): Bonaparte at Marengo's
click grammar. The map marks own blocks with ``data-at``, ``data-type`` and ``data-activated``
(render/blocks.py), locales and approaches with their names (render/board.py); the reinforcements
whose hour has come are offered off the map, for ENTER, with the side's entry points.

The titles and labels are entries of the game's catalogs (``N_``), read in the page's language by
pbem.core.clicks.grammar_in, which writes the lines in the seat's order words (words.toml: the
parser reads them back); the grammar here is English."""

from __future__ import annotations

from pbem.core.clicks import grammar_in
from pbem.lang import N_

from .words import in_words, marengo_tongue, native_names

IF_BLOCKED = {"name": "blocked", "title": N_("If blocked"), "choices": [
    ["", N_("the standing order (default)")], [" IF BLOCKED STAY", N_("stay")], [" IF BLOCKED ADVANCE", N_("advance")]]}

VERBS = [
    {"name": "move", "title": N_("Move"), "from": ["locale", "approach"], "targets": ["locale", "approach"],
     "min": 1, "max": 1, "options": [IF_BLOCKED], "line": "MOVE {blocks} {from} -> {targets}{blocked}"},
    {"name": "road", "title": N_("March by road"), "from": ["locale"], "blocks": 1, "targets": ["locale"],
     "min": 1, "max": 3, "options": [IF_BLOCKED], "line": "ROAD {blocks} {from} -> {targets}{blocked}"},
    {"name": "assault", "title": N_("Assault"), "from": ["approach"], "min": 0, "max": 0,
     "options": [{"name": "lead", "title": N_("Lead"), "blocks": " LEAD {}"},
                 {"name": "pursuit", "title": N_("Pursuit"), "choices": [
                     ["", N_("the standing order (default)")], [" NO PURSUIT", N_("no pursuit")]]},
                 {"name": "pursue", "title": N_("Pursue with"), "blocks": " PURSUE {}"}],
     "line": "ASSAULT {from} WITH {blocks}{lead}{pursuit}{pursue}"},
    {"name": "bombard", "title": N_("Bombard"), "from": ["approach"], "where": {"type": "artillery"}, "blocks": 1,
     "min": 0, "max": 0, "line": "BOMBARD {blocks} FROM {from}"},
    {"name": "activate", "title": N_("Activate"), "where": {"activated": "false"}, "min": 0, "max": 0,
     "line": "ACTIVATE {blocks}"},
]
JOIN = {"blocks": " ", "targets": " -> "}

MAP_CLICKS = {"verbs": VERBS, "join": JOIN}
"""The grammar without a view (no reinforcements to enter)."""


def map_clicks(scenario, view: dict | None, lang: str = "en") -> dict:
    """The grammar for the seat of ``view`` in ``lang`` (pbem.core.clicks.grammar_in)."""
    return grammar_in(english_clicks(scenario, view, lang), marengo_tongue(lang),
                      lambda text: in_words(text, lang), native_names(lang) if lang != "en" else None)


def english_clicks(scenario, view: dict | None, lang: str = "en") -> dict:
    """The grammar for the seat of ``view``: the verbs, and ENTER for its reinforcements whose hour
    has come (its own blocks only, with the entry points of its side, which the map shows to all;
    each named in ``lang``'s usual spelling of it)."""
    if not view or not view.get("viewer"):
        return MAP_CLICKS
    side, hour = view["viewer"], view.get("hour")
    waiting = [b for b in view.get("blocks", []) if b.get("side") == side and b.get("status") == "waiting"
               and (b.get("arrives") is None or hour is None or b["arrives"] <= hour)]
    if not waiting:
        return MAP_CLICKS
    entries = [e for e in scenario.board.entries.values() if e.side == side]
    names = native_names(lang) if lang != "en" else {}
    at = [["", N_("the block's own (default)")]] + [[f" AT {e.name}", names.get(e.name, e.name)]
                                                    for e in entries if e.kind == "road"]
    enter = {"name": "enter", "title": N_("Enter"), "from": ["offmap"], "targets": ["locale"], "min": 0, "max": 2,
             "to": " -> ", "options": [
                 {"name": "by", "title": N_("By"), "choices": [["", N_("road")], [" BY PONTOON", N_("pontoon (one block)")]]},
                 {"name": "at", "title": N_("At"), "choices": at}, IF_BLOCKED],
             "line": "ENTER {blocks}{by}{at}{targets}{blocked}"}
    offmap = [{"id": b["id"], "at": N_("reinforcements"), "kind": "offmap",
               "data": {"type": b.get("type", "")}, "box": None} for b in waiting]
    return {"verbs": VERBS + [enter], "join": JOIN, "offmap": offmap}
