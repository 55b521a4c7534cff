"""Orders by clicking on the map (pbem.core.ruleset.Ruleset.map_clicks): Triomphe à Marengo's click
grammar. Its map (render.py, on the family's drawing) marks the seat's own blocks (with
``data-disorganised``) and the places, as Marengo's does; the grammar adds the reinforcements whose
hour has come, off the map, for ENTER. Nothing of the enemy is given.

The titles and labels are entries of the game's catalogs (``N_``), read in the page's language by
pbem.core.clicks.grammar_in, which writes the lines in the seat's order words (words.toml: the
parser reads them back); the grammar here is English."""

from __future__ import annotations

from pbem.core.clicks import grammar_in
from pbem.lang import N_

from .words import WORDS, triomphe_tongue

IF_BLOCKED = {"name": "blocked", "title": N_("If blocked"), "choices": [
    ["", N_("advance onto the approach (default)")], [" IF BLOCKED STAY", N_("stay")]]}

VERBS = [
    {"name": "reorganise", "title": N_("Reorganise"), "from": ["locale"], "where": {"disorganised": "true"},
     "min": 0, "max": 0, "line": "REORGANISE {blocks}"},
    {"name": "march", "title": N_("March"), "from": ["locale", "approach"], "blocks": 3,
     "targets": ["locale", "approach"], "min": 1, "max": 1, "line": "MARCH {blocks} {from} -> {targets}"},
    {"name": "road", "title": N_("March by road"), "from": ["locale"], "blocks": 1,
     "targets": ["locale"], "min": 1, "max": 3, "options": [IF_BLOCKED],
     "line": "ROAD {blocks} {from} -> {targets}{blocked}"},
    {"name": "attack", "title": N_("Maneuver attack"), "from": ["locale", "approach"], "blocks": 3,
     "targets": ["locale"], "min": 1, "max": 1, "options": [IF_BLOCKED],
     "line": "ATTACK {blocks} {from} -> {targets}{blocked}"},
    {"name": "assault", "title": N_("Assault"), "from": ["approach"], "blocks": 3, "min": 0, "max": 0,
     "options": [{"name": "lead", "title": N_("Vanguard"), "blocks": " LEAD {}"}],
     "line": "ASSAULT {from} WITH {blocks}{lead}"},
    {"name": "bombard", "title": N_("Bombard"), "from": ["approach"], "where": {"type": "artillery", "bombard": ""},
     "blocks": 1, "min": 0, "max": 0, "line": "BOMBARD {blocks} FROM {from}"},
    {"name": "fire", "title": N_("Fire"), "where": {"bombard": "true"}, "blocks": 1, "min": 0, "max": 0,
     "line": "FIRE {blocks}"},
    {"name": "hold", "title": N_("Hold fire"), "where": {"bombard": "true"}, "blocks": 1, "min": 0, "max": 0,
     "line": "HOLD FIRE {blocks}"},
]
JOIN = {"blocks": " ", "targets": " -> "}


def entering(scenario, view: dict) -> list[dict]:
    """The seat's reinforcements whose cell is open and whose hour has come (ENTER)."""
    hour, out = view["hour"], []
    for b in view["blocks"]:
        cell = scenario.cells.get(b.get("cell") or "")
        if b["status"] == "waiting" and (cell is None or cell.hour <= hour) and (
                b.get("arrives") is None or b["arrives"] <= hour):
            out.append({"id": b["id"], "at": N_("reinforcements"), "kind": "offmap",
                        "data": {"type": b["type"], "disorganised": ""}, "box": None})
    return out


def map_clicks(scenario, view: dict | None, lang: str = "en") -> dict:
    """The grammar for the seat of ``view`` in ``lang`` (pbem.core.clicks.grammar_in)."""
    return grammar_in(english_clicks(scenario, view, lang), triomphe_tongue(lang),
                      lambda text: WORDS.in_words(text, lang), WORDS.native_names(lang) if lang != "en" else None)


def english_clicks(scenario, view: dict | None, lang: str = "en") -> dict:
    """The grammar for the seat of ``view`` (that seat's blocks only; the board is public), the entry
    points named in ``lang``'s usual spelling."""
    if not view or not view.get("viewer"):
        return {"verbs": VERBS, "join": JOIN}
    board, side = scenario.board, view["viewer"]
    verbs = list(VERBS)
    offmap = entering(scenario, view)
    if offmap:
        names = WORDS.native_names(lang) if lang != "en" else {}
        at = [["", N_("the block's own (default)")]] + [
            [f" AT {e.name}", names.get(e.name, e.name)] for e in board.entries.values()
            if e.side == side and e.kind == "road"]
        verbs.append({"name": "enter", "title": N_("Enter"), "from": ["offmap"], "blocks": 1, "targets": ["locale"],
                      "min": 0, "max": 2, "to": " -> ", "options": [
                          {"name": "by", "title": N_("By"), "choices": [["", N_("road")], [" BY PONTOON", N_("pontoon")]]},
                          {"name": "at", "title": N_("At"), "choices": at}],
                      "line": "ENTER {blocks}{by}{at}{targets}"})
    return {"verbs": verbs, "join": JOIN, "offmap": offmap}  # the map marks its blocks and places (simmons/render)
