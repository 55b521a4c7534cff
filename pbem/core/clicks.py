"""A map's click grammar (pbem.core.ruleset.Ruleset.map_clicks) in its reader's language.

A game writes its grammar in English: the titles of its verbs and options, the labels of an option's
choices and the place it names for blocks off the map ("reinforcements") are entries of its catalog; the
order lines and the values its choices write ("MOVE {blocks} {from} -> {targets}", " IF BLOCKED STAY")
are its English order words. :func:`grammar_in` reads the first in ``tongue`` and writes the second with
``words`` (the game's "English order -> the seat's order words", which its parser reads back), so that
the page's script shows only what it is handed and writes lines in the words of the orders form.
Names, ids, kinds and the regions' coordinates are left as they are; the places' spellings in the language
are handed beside them (``names``), for the page to show.
"""

from __future__ import annotations

from collections.abc import Callable

from pbem.lang import Tongue


def grammar_in(grammar: dict, tongue: Tongue, words: Callable[[str], str] | None = None,
               names: dict[str, str] | None = None) -> dict:
    """``grammar`` with its texts read in ``tongue`` and its order words written by ``words``
    (None: kept in English); a new dict, the game's own left unchanged. ``names``: the map's names
    that the language spells otherwise (Marengo -> 马伦哥), given to the page as ``names`` to show
    the places so; the lines keep the map's names (the orders read both)."""
    if not grammar:
        return grammar
    words = words or (lambda text: text)
    read = tongue.gettext  # (a name of its own: the extraction takes literals inside a call to gettext)

    def option(o: dict) -> dict:
        out = dict(o, title=read(o["title"]))
        if "choices" in o:
            out["choices"] = [[words(value), read(label)] for value, label in o["choices"]]
        if "blocks" in o:
            out["blocks"] = words(o["blocks"])
        return out

    def verb(v: dict) -> dict:
        out = dict(v, title=read(v["title"]), line=words(v["line"]))
        if v.get("options"):
            out["options"] = [option(o) for o in v["options"]]
        return out

    out = dict(grammar)
    if "verbs" in grammar:
        out["verbs"] = [verb(v) for v in grammar["verbs"]]
    if names:
        out["names"] = dict(names)
    if grammar.get("offmap"):
        out["offmap"] = [dict(b, at=read(b["at"])) for b in grammar["offmap"]]
    return out
