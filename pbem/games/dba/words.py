"""The words of Napoleonic DBA's orders (docs/dba-orders.md): every English keyword with its Russian equivalents,
as «Написание приказов» lists them (Двигаться = MOVE TO, Стоять и удерживать = HOLD, Атаковать = ATTACK,
Поддерживать = DEPLOY, Отступить к = RETREAT TO, Если = IF, Пока = UNTIL or UNLESS, ...) and the common
forms a Russian sentence gives them, and :func:`lex`, which turns a line into words and keywords.

A keyword is found by the longest phrase that matches (``СТОЯТЬ И УДЕРЖИВАТЬ`` before ``И``); ``#`` in a phrase
stands for a number (``6``, ``6-ой``), ``@`` for a clock time (``14:20``). Words are compared in upper case with
Ё read as Е.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from pbem.core.orders import tokenize

_RU_TO = ("", "К", "КО", "НА", "В", "ВО", "ДО")  # the prepositions a Russian verb of motion may take


def _with(verbs: tuple[str, ...], preps: tuple[str, ...] = _RU_TO) -> list[str]:
    return [f"{v} {p}".strip() for v in verbs for p in preps]


# canonical keyword -> its forms (English first). FORM:<formation> keys name elements.FORMATIONS.
PHRASES: dict[str, list[str]] = {
    "MOVE": ["MOVE TO", "MOVE", "ADVANCE TO", "MARCH TO"]
    + _with(("ДВИГАТЬСЯ", "ДВИГАЙТЕСЬ", "ДВИНУТЬСЯ", "ИДТИ", "ИДИТЕ", "ВЫДВИНУТЬСЯ", "ВЫДВИГАТЬСЯ",
             "НАСТУПАТЬ", "ПЕРЕЙТИ")),
    "HOLD": ["HOLD", "STAND AND HOLD", "СТОЯТЬ И УДЕРЖИВАТЬ", "СТОЯТЬ И ДЕРЖАТЬ", "СТОЯТЬ", "УДЕРЖИВАТЬ",
             "УДЕРЖИВАЙТЕ", "ДЕРЖАТЬ", "ОБОРОНЯТЬ", "СТОЯТЬ НА МЕСТЕ"],
    "ATTACK": ["ATTACK", "АТАКОВАТЬ", "АТАКУЙТЕ", "АТАКОВАТЬ И"],
    "DEPLOY": ["DEPLOY", "ПОДДЕРЖИВАТЬ", "ПОДДЕРЖИВАЙТЕ", "РАЗВЕРНУТЬСЯ", "РАЗВЕРНИТЕСЬ", "РАЗВЕРТЫВАТЬСЯ"],
    "RETREAT": ["RETREAT TO", "RETREAT", "FALL BACK TO", "WITHDRAW TO"]
    + _with(("ОТСТУПИТЬ", "ОТСТУПАТЬ", "ОТСТУПАЙТЕ", "ОТОЙТИ", "ОТХОДИТЬ", "ОТХОДИТЕ")),
    "THEN": ["THEN", "AND", "AND THEN", "AFTER THAT", "ЗАТЕМ", "ПОТОМ", "И", "И ЗАТЕМ", "И ПОТОМ", "А ЗАТЕМ",
             "А ПОТОМ", "ПОСЛЕ ЧЕГО", "ПОСЛЕ ЭТОГО", "ДАЛЕЕ", ".", ";"],
    "IF": ["IF", "WHEN", "ЕСЛИ", "КОГДА", "КАК ТОЛЬКО"],
    "UNLESS": ["UNLESS", "ЕСЛИ НЕ"],
    "UNTIL": ["UNTIL", "TILL", "ПОКА", "ПОКА НЕ", "ДО ТЕХ ПОР ПОКА", "ДО ТЕХ ПОР ПОКА НЕ", "ДО ТОГО КАК"],
    "NOT": ["НЕ", "NOT"],
    "ATTURN": ["AT TURN #", "ON TURN #", "AT @", "НА # ХОД", "НА # ХОДУ", "В # ХОД", "К # ХОДУ", "НА ХОД #",
               "НА ХОДУ #", "В ХОД #", "К ХОДУ #", "В @", "К @"],
    "TURN": ["TURN #", "TIME @", "TURN @", "ХОД #", "# ХОД", "ВРЕМЯ @"],
    "ENEMY": ["ENEMY", "THE ENEMY", "ENEMY UNIT", "AN ENEMY UNIT", "THE ENEMY UNIT", "ВРАГ", "ВРАГА",
              "ПРОТИВНИК", "ПРОТИВНИКА", "НЕПРИЯТЕЛЬ", "НЕПРИЯТЕЛЯ", "ВРАЖЕСКОЕ ПОДРАЗДЕЛЕНИЕ",
              "ВРАЖЕСКОГО ПОДРАЗДЕЛЕНИЯ", "ВРАЖЕСКАЯ БРИГАДА", "ВРАЖЕСКУЮ БРИГАДУ"],
    "NEAREST": ["NEAREST ENEMY", "THE NEAREST ENEMY", "NEAREST ENEMY UNIT", "THE NEAREST ENEMY UNIT",
                "БЛИЖАЙШЕГО ПРОТИВНИКА", "БЛИЖАЙШЕГО ВРАГА", "БЛИЖАЙШЕГО НЕПРИЯТЕЛЯ",
                "БЛИЖАЙШЕЕ ВРАЖЕСКОЕ ПОДРАЗДЕЛЕНИЕ"],
    "FRIENDLY": ["FRIENDLY", "OUR", "FRIENDLY BRIGADE", "ДРУЖЕСТВЕННАЯ", "ДРУЖЕСТВЕННАЯ БРИГАДА", "НАША",
                 "НАША БРИГАДА", "БРИГАДА"],
    "REACHES": ["REACHES", "REACH", "GETS TO", "ARRIVES AT", "ENTERS", "ДОСТИГНЕТ", "ДОСТИГАЕТ", "ДОСТИГНУТ",
                "ДОСТИГ", "ДОСТИГЛА", "ДОСТИГЛИ", "ВЫЙДЕТ К", "ВЫЙДУТ К", "ДОЙДЕТ ДО", "ДОЙДУТ ДО",
                "ПОДОЙДЕТ К", "ПОДОЙДУТ К", "ЗАЙМЕТ", "ЗАЙМУТ", "ВОЙДЕТ В", "ВОЙДУТ В"],
    "WITHIN": ["WITHIN", "IS WITHIN", "COMES WITHIN", "COME WITHIN", "GETS WITHIN", "ОКАЖЕТСЯ В ПРЕДЕЛАХ",
               "ОКАЖУТСЯ В ПРЕДЕЛАХ", "В ПРЕДЕЛАХ", "ПОДОЙДЕТ НА", "ПОДОЙДУТ НА", "ПОДОЙДЕТ БЛИЖЕ ЧЕМ НА",
               "ПОДОЙДЕТ БЛИЖЕ", "ПОДОЙДУТ БЛИЖЕ", "ПОДОЙДЕТ БЛИЖЕ ЧЕМ", "ПОДОЙДУТ БЛИЖЕ ЧЕМ",
               "БЛИЖЕ ЧЕМ НА", "БЛИЖЕ ЧЕМ", "БЛИЖЕ"],
    "OF": ["OF", "FROM", "ОТ"],
    "ATTACKS": ["ATTACKS", "ATTACKS US", "ATTACK US", "АТАКУЕТ", "АТАКУЕТ НАС", "АТАКУЮТ", "АТАКУЮТ НАС",
                "НАПАДЕТ", "НАПАДЕТ НА НАС", "НАПАДУТ", "НАПАДУТ НА НАС", "ВСТУПИТ В БОЙ", "ВСТУПЯТ В БОЙ"],
    "FIRES": ["FIRES", "FIRES ON US", "FIRES AT US", "ОТКРОЕТ ОГОНЬ", "ОТКРОЕТ ПО НАМ ОГОНЬ", "ОТКРОЮТ ОГОНЬ",
              "ОБСТРЕЛИВАЕТ НАС", "ОБСТРЕЛЯЕТ НАС", "СТРЕЛЯЕТ", "СТРЕЛЯЕТ ПО НАМ", "ОТКРОЕТ ПО НАМ ОГОНЬ"],
    "RETREATS": ["RETREATS", "FALLS BACK", "FLEES", "ОТСТУПИТ", "ОТСТУПАЕТ", "ОТСТУПИЛА", "ОТОЙДЕТ",
                 "ОТХОДИТ", "БЕЖИТ", "ПОБЕЖИТ"],
    "IT": ["IT", "THERE", "THE PLACE", "ЕЕ", "ЕГО", "ИХ", "ТАМ", "ЭТО МЕСТО"],
    "AT": ["AT", "NEAR"],
    "BYROAD": ["BY ROAD", "BY THE ROAD", "ALONG THE ROAD", "ON THE ROAD", "ПО ДОРОГЕ"],
    "SUPPORTING": ["SUPPORTING", "IN SUPPORT OF", "TO SUPPORT", "В ПОДДЕРЖКУ", "ПОДДЕРЖИВАЯ"],
    "FORM:line": ["IN LINE", "LINE", "В ЛИНИИ", "В ЛИНИЮ", "ЛИНИЕЙ", "В РАЗВЕРНУТОМ СТРОЮ"],
    "FORM:column": ["IN COLUMN", "COLUMN", "В КОЛОННЕ", "В КОЛОННУ", "КОЛОННОЙ", "В КОЛОННАХ"],
    "FORM:square": ["IN SQUARE", "SQUARE", "В КАРЕ", "КАРЕ"],
    "FORM:skirmish": ["IN SKIRMISH ORDER", "IN SKIRMISH", "SKIRMISH ORDER", "AS SKIRMISHERS",
                      "В РАССЫПНОМ СТРОЮ", "РАССЫПНЫМ СТРОЕМ", "В РАССЫПНОЙ СТРОЙ", "ЦЕПЬЮ", "В ЦЕПИ"],
    "FORM:limbered": ["LIMBERED", "НА ПЕРЕДКАХ"],
    "FORM:unlimbered": ["UNLIMBERED", "СНЯТЫМИ С ПЕРЕДКОВ", "С ПЕРЕДКОВ"],
    "FORM:dismounted": ["DISMOUNTED", "СПЕШЕННЫМИ", "СПЕШИВШИСЬ", "В ПЕШЕМ СТРОЮ"],
    "FORM:mounted": ["MOUNTED", "ВЕРХОМ", "В КОННОМ СТРОЮ"],
}

VERB_KEYS = ("MOVE", "HOLD", "ATTACK", "DEPLOY", "RETREAT")
EVENT_VERBS = ("REACHES", "WITHIN", "ATTACKS", "FIRES", "RETREATS")
CONDITIONS = ("IF", "UNTIL", "UNLESS")

# the words that head a line of an orders text, by what they start (compared folded)
HEAD_WORDS = {"FROM": "FROM", "ОТ": "FROM", "TO": "TO", "КОМУ": "TO", "INITIATIVE": "INITIATIVE",
              "ИНИЦИАТИВА": "INITIATIVE", "FINAL": "FINAL"}
# the fields of a dispatch's head line: FROM sender AT position TO recipient TURN n
HEAD_FIELDS = {"FROM": "FROM", "ОТ": "FROM", "AT": "AT", "ИЗ": "AT", "TO": "TO", "КОМУ": "TO", "К": "TO",
               "TURN": "TURN", "ХОД": "TURN", "TIME": "TURN", "ВРЕМЯ": "TURN"}

# inches: 6" 6'' 6 INCHES 6 ДЮЙМОВ 6 ШАГОВ (the text: «12" = шагов»)
UNIT_WORDS = ("\"", "''", "”", "″", "INCH", "INCHES", "ДЮЙМ", "ДЮЙМА", "ДЮЙМОВ", "ШАГ", "ШАГА", "ШАГОВ")
NUMBER = re.compile(r"(\d+)(?:-?(?:ОЙ|ЫЙ|ИЙ|Й|ГО|ОГО|ОМУ|МУ|М|ОМ|ТH|TH|ST|ND|RD))?", re.I)
CLOCK = re.compile(r"(\d{1,2})[:h](\d{2})", re.I)
DISTANCE = re.compile(r"(\d+(?:\.\d)?)(\"|''|”|″)?")


def fold_word(text: str) -> str:
    return text.upper().replace("Ё", "Е")


class Word(NamedTuple):
    """A word of a step line, or a keyword phrase read as one: ``key`` is the canonical keyword (None for a
    plain word), ``value`` a phrase's number or clock time. Columns are 1-based; ``end`` is just after it."""

    text: str
    column: int
    end: int
    word: str  # the key for a keyword, the folded text for a plain word (for OrderReader's comparisons)
    key: str | None = None
    value: object = None


def _split_stops(tokens) -> list[tuple[str, int]]:
    """(text, column) of a line's tokens, with a full stop ending a word split off as its own word."""
    out = []
    for t in tokens:
        text, column = t.text, t.column
        if len(text) > 1 and text.endswith(".") and not DISTANCE.fullmatch(text):
            out.append((text[:-1], column))
            out.append((".", column + len(text) - 1))
        else:
            out.append((text, column))
    return out


def _slot(form: str, text: str):
    """Does ``text`` fill the phrase word ``form``? The value for a slot, True for a plain match, or None."""
    if form == "#":
        m = NUMBER.fullmatch(text)
        return int(m.group(1)) if m else None
    if form == "@":
        m = CLOCK.fullmatch(text)
        return f"{int(m.group(1)):02d}:{m.group(2)}" if m else None
    return True if fold_word(text) == form else None


_INDEX: dict[str, list[tuple[str, list[str]]]] = {}
for _key, _forms in PHRASES.items():
    for _form in _forms:
        _parts = _form.split()
        _INDEX.setdefault(_parts[0], []).append((_key, _parts))
for _entries in _INDEX.values():
    _entries.sort(key=lambda e: -len(e[1]))
_FIRST_SLOTS = [e for first in ("#", "@") for e in _INDEX.get(first, [])]


def lex(line: str) -> list[Word]:
    """The words of one step line: keyword phrases joined, ``;`` and a sentence's full stop as THEN."""
    pieces = []
    for n, segment in enumerate(tokenize(line)):
        if n:
            pieces.append((";", segment[0].column - 1))
        pieces += _split_stops(segment)
    words: list[Word] = []
    i = 0
    while i < len(pieces):
        text, column = pieces[i]
        best = None
        for key, parts in _INDEX.get(fold_word(text), []) + _FIRST_SLOTS:
            if i + len(parts) > len(pieces):
                continue
            value = None
            for form, (t, _c) in zip(parts, pieces[i:i + len(parts)]):
                got = _slot(form, t)
                if got is None:
                    break
                if got is not True:
                    value = got
            else:
                if best is None or len(parts) > len(best[1]):
                    best = (key, parts, value)
        if best is None:
            words.append(Word(text, column, column + len(text), fold_word(text)))
            i += 1
            continue
        key, parts, value = best
        last_text, last_column = pieces[i + len(parts) - 1]
        span = pieces[i:i + len(parts)]
        words.append(Word(" ".join(t for t, _ in span), column, last_column + len(last_text), key, key, value))
        i += len(parts)
    return words
