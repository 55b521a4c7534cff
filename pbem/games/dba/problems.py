"""A refused order's problems in the seat's language: each sentence the orders' reader writes (parse.py, names.py,
pbem.core.orders) is a catalog entry here, its values in ``%(name)s`` placeholders; :func:`in_language` finds the
entry an English problem was written from and reads it in the seat's language, with the values as they were (the
words the player wrote, the names). The order words a sentence names (MOVE TO, HOLD, ...) are then written in the
seat's words (``lang.words_in``), so the catalog's translations keep them in English.

The reader itself writes English (the logs, the tests, and an English seat read exactly that); a sentence not
listed here is left in English, its order words still in the seat's words.
"""

from __future__ import annotations

import dataclasses
import re
from functools import lru_cache

from pbem.core.orders import OrdersError, Problem

from .lang import N_, Text, Tongue, term, tongue, words_in

MESSAGES = (
    N_("unexpected %(word)s after the place %(place)s"),
    N_("%(brigade)s is an enemy brigade"),
    N_("%(element)s is no enemy element your troops have seen or been told of"),
    N_("%(brigade)s is a brigade of your own side"),
    N_("%(commander)s is an enemy commander"),
    N_("this game counts turns, not clock times"),
    N_("%(time)s is before the battle begins (%(start)s)"),
    N_("unexpected %(word)s: an event starts with ENEMY, FRIENDLY or TURN"),
    N_("unexpected %(word)s"),
    N_("UNLESS with НЕ: the event is negated twice"),
    N_("%(word)s is not a verb of an order"),
    N_("%(word)s is not a word of the rule book's orders"),
    N_("a second formation in one step"),
    N_("a second IF in one step"),
    N_("a second UNLESS in one step"),
    N_("a second UNTIL in one step"),
    N_("a second AT in one step"),
    N_("%(word)s names no place: no step before this one names one"),
    N_("%(field)s is given twice in the head line"),
    N_("%(field)s has no value"),
    N_("you do not write for %(commander)s"),
    N_("%(commander)s commands no brigade: the initiative test is a brigade commander's"),
    N_("%(commander)s is timid (%(russian)s): the table gives him no initiative test (n/a)"),
    N_("%(commander)s has taken his one initiative test of the game"),
    N_("%(commander)s is dead or taken"),
    N_("a dispatch names who sends it"),
    N_("a dispatch names who receives it"),
    N_("%(commander)s has been killed or taken"),
    N_("%(commander)s cannot send a dispatch to himself"),
    N_("%(recipient)s is not under %(sender)s's command: an order is written by a superior officer (%(quote)s)"),
    N_("%(word)s is not a turn"),
    N_("the dispatch is dated turn %(sent)s, but this is turn %(turn)s"),
    N_("the order has no step"),
    N_("%(condition)s %(turn)s has passed: this is turn %(now)s"),
    N_("AT TURN %(at)s comes after a step AT TURN %(last)s"),
    N_("no element of %(brigade)s can form %(formation)s"),
    N_("no %(kind)s %(word)s"),
    N_("%(brigade)s cannot support itself"),
    N_("a step before any dispatch's head line"),
    N_("the order ends too soon"),
)
"""Every sentence of a problem, as the reader writes it."""

EXPECTED = (
    N_("a turn, like AT TURN 6"),
    N_("a time from %(start)s"),
    N_('a distance in inches, like 6"'),
    N_("an event: ENEMY ..., FRIENDLY <brigade> ..., or TURN <n>"),
    N_("ENEMY ..., FRIENDLY <brigade> ..., or TURN <n>"),
    N_("what the enemy does: %(verbs)s"),
    N_("what the friendly does: %(verbs)s"),
    N_("REACHES, WITHIN, ATTACKS, FIRES or RETREATS"),
    N_("ЕСЛИ НЕ or UNLESS once"),
    N_("a verb: MOVE TO, HOLD, ATTACK, DEPLOY or RETREAT TO"),
    N_("the book's word %(word)s"),
    N_("a step on the next lines: a verb: MOVE TO, HOLD, ATTACK, DEPLOY or RETREAT TO"),
    N_("one formation a step"),
    N_("one IF a step"),
    N_("one UNLESS a step"),
    N_("one UNTIL a step"),
    N_("one AT TURN a step"),
    N_("THEN, a formation (IN LINE, IN COLUMN, ...), IF, UNTIL, UNLESS or AT TURN <n>"),
    N_("THEN, a formation (IN LINE, IN COLUMN, ...), BY ROAD, IF, UNTIL, UNLESS or AT TURN <n>"),
    N_("THEN, a formation (IN LINE, IN COLUMN, ...), AT <place>, SUPPORTING <brigade>, IF, UNTIL, UNLESS or "
       "AT TURN <n>"),
    N_("THEN, a formation (IN LINE, ...), BY ROAD, IF, UNTIL, UNLESS or AT TURN <n>"),
    N_("a place or grid square"),
    N_("a place or grid square (a named place, or like D4)"),
    N_("an enemy unit: NEAREST ENEMY, ENEMY AT <place>, an enemy brigade, or a place"),
    N_("an enemy unit"),
    N_("each field once"),
    N_("FROM <commander>"),
    N_("a value after %(field)s"),
    N_("the commander of your own seat"),
    N_("a brigade's commander"),
    N_("a commander who has not taken his test"),
    N_("FROM <commander> ... TO <commander>"),
    N_("TO <commander>"),
    N_("a commander still on the table"),
    N_("another commander of your side"),
    N_("a commander under %(commander)s"),
    N_("the end of the head line"),
    N_("a turn number"),
    N_("a turn number (or a time, like 14:20)"),
    N_("TURN %(turn)s (or no date: the server dates it)"),
    N_("a turn from %(turn)s on"),
    N_("steps in the order of their times"),
    N_("a formation its troops take"),
    N_("another brigade"),
    N_("nothing after FINAL"),
    N_("FROM <commander> [AT <place>] TO <commander> [TURN <n>], or INITIATIVE <commander>, on the line before "
       "the steps"),
    N_("the commander taking the initiative"),
    N_("the commander sending the dispatch"),
    N_("the commander it is for"),
    N_("where the sender writes it"),
    N_("the place reached"),
    N_("a place after OF"),
    N_("an enemy brigade, or REACHES, WITHIN, ATTACKS, FIRES"),
    N_("a friendly brigade"),
    N_("ENEMY, FRIENDLY <brigade>, a brigade, or TURN <n>"),
    N_("the place the enemy holds"),
    N_("a friendly brigade to support"),
    N_("AT <place>, SUPPORTING <brigade> or a formation"),
    N_("an enemy brigade or a place the enemy holds"),
)
"""Every description of what was expected, as the reader writes it."""

OR = N_(" or ")  # between the names a "did you mean" offers
KINDS = {"place or grid square": N_("place or grid square"), "brigade": N_("brigade"),
         "commander": N_("commander")}
HINTS = ((re.compile(r" \(did you mean (?P<word>.+)\?\)$"), N_(" (did you mean %(word)s?)")),
         (re.compile(r"; did you mean (?P<names>.+)\?$"), N_("; did you mean %(names)s?")))


@lru_cache(maxsize=None)
def _pattern(message: str) -> re.Pattern:
    """The English sentence ``message`` as a regular expression, each placeholder a named group."""
    parts = re.split(r"%\((\w+)\)s", message.replace("%%", "%"))
    out = ""
    for n, part in enumerate(parts):
        if n % 2:
            out += f"(?P<kind>{'|'.join(map(re.escape, KINDS))})" if part == "kind" else f"(?P<{part}>.+?)"
        else:
            out += re.escape(part)
    return re.compile(out + "$", re.S)


def said(text: str, catalog: tuple[str, ...]) -> Text | None:
    """The Text ``text`` was written from (a sentence of ``catalog``, its values found again), or None."""
    if not text:
        return None
    hint = None
    for pattern, message in HINTS:
        m = pattern.search(text)
        if m:
            hint, text = Text(message, m.groupdict()), text[:m.start()]
            break
    for message in catalog:
        m = _pattern(message).match(text)
        if m is not None:
            values = dict(m.groupdict())
            kind = values.get("kind")
            if kind in KINDS:
                values["kind"] = term(kind)
            found = Text(message, values)
            return found if hint is None else Text("%(text)s%(hint)s", {"text": found, "hint": hint})
    return None


def _say(found: Text, t: Tongue) -> str:
    """``found`` in ``t``'s language, the order words of each sentence in ``t``'s words (not those of its values:
    a word the player wrote is quoted as he wrote it)."""
    values = {k: _say(v, t) if isinstance(v, Text) else words_in(v, t.lang) if k == "verbs" else v
              for k, v in found.values.items()}
    if "names" in values:  # the names a "did you mean" offers: A or B or C
        values["names"] = t.gettext(OR).join(values["names"].split(" or "))
    template = words_in(t.translations.gettext(found.message), t.lang)
    return template % values if values else template


def _read(text: str, catalog: tuple[str, ...], t: Tongue) -> str:
    found = said(text, catalog)
    return _say(found, t) if found is not None else words_in(text, t.lang)


def in_language(problem: Problem, lang: str | None) -> Problem:
    """``problem`` in ``lang``: its sentence and what was expected (line, column and what was found unchanged)."""
    t = tongue(lang)
    if t.lang == "en":
        return problem
    message = t.say(problem.said) if problem.said is not None else _read(problem.message, MESSAGES, t)
    return dataclasses.replace(problem, message=message,
                               expected=_read(problem.expected, EXPECTED, t))


def error_in_language(error: OrdersError, lang: str | None) -> OrdersError:
    return OrdersError([in_language(p, lang) for p in error.problems])
