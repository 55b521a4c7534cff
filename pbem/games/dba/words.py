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
from functools import lru_cache
from typing import NamedTuple

from pbem.core.orders import Lexicon, tokenize

_RU_TO = ("", "К", "КО", "НА", "В", "ВО", "ДО")  # the prepositions a Russian verb of motion may take


def _with(verbs: tuple[str, ...], preps: tuple[str, ...] = _RU_TO) -> list[str]:
    return [f"{v} {p}".strip() for v in verbs for p in preps]


# English words that 004 does not list («Приказы должны состоять только из следующих слов или фраз»), once read as
# its words: an order using one is refused, naming the book's word (docs/rules-notes.md DR10). They stay in PHRASES
# so that the reader finds them where the book's word would stand and says which it meant.
NOT_THE_BOOKS: dict[str, str] = {"ADVANCE TO": "MOVE TO", "MARCH TO": "MOVE TO", "FALL BACK TO": "RETREAT TO",
                                 "WITHDRAW TO": "RETREAT TO", "STAND AND HOLD": "HOLD", "WHEN": "IF",
                                 "TILL": "UNTIL"}

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
    # «бригада X» alone is not one: a brigade named with its noun reads as that brigade, friendly or enemy
    # (parse.BRIGADE_NOUNS), and a brigade's name may begin with it (бригада Юссона)
    "FRIENDLY": ["FRIENDLY", "OUR", "FRIENDLY BRIGADE", "ДРУЖЕСТВЕННАЯ", "ДРУЖЕСТВЕННАЯ БРИГАДА", "НАША",
                 "НАША БРИГАДА"],
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

# the same words in French, Ukrainian and Chinese (docs/glossary-dba.md), read always, mixed with the others, accents
# optional: the first form of each is the word the echo and the reports write in that language (the dba catalog's
# translation of the English word, which tests/test_lang_dba.py checks reads back as its keyword). A Chinese
# order may leave out the spaces between its words (lexicon(): the core's tokenize cuts them).
NATIVE: dict[str, dict[str, list[str]]] = {
    "fr": {
        "MOVE": ["MARCHER SUR", "MARCHER VERS", "ALLER À", "SE PORTER SUR", "SE PORTER À", "AVANCER SUR",
                 "AVANCER VERS", "SE DÉPLACER VERS", "SE DÉPLACER À"],
        "HOLD": ["TENIR", "TENIR LA POSITION", "TENIR BON", "RESTER", "DÉFENDRE"],
        "ATTACK": ["ATTAQUER", "CHARGER"],
        "DEPLOY": ["DÉPLOYER", "SE DÉPLOYER", "SOUTENIR"],
        "RETREAT": ["SE REPLIER SUR", "SE REPLIER VERS", "SE REPLIER À", "SE RETIRER SUR", "SE RETIRER VERS",
                    "RECULER SUR", "RECULER VERS", "BATTRE EN RETRAITE VERS"],
        "THEN": ["PUIS", "ENSUITE", "ET", "ET PUIS", "ET ENSUITE", "APRÈS QUOI"],
        "IF": ["SI", "QUAND", "LORSQUE", "DÈS QUE"],
        "UNLESS": ["SAUF SI", "À MOINS QUE"],
        "UNTIL": ["JUSQU'À CE QUE", "JUSQU'À", "JUSQU’À CE QUE"],
        "ATTURN": ["AU TOUR #", "AU # TOUR", "À @"],
        "TURN": ["TOUR #", "HEURE @"],
        "ENEMY": ["ENNEMI", "L'ENNEMI", "UNITÉ ENNEMIE", "L'UNITÉ ENNEMIE", "BRIGADE ENNEMIE"],
        "NEAREST": ["ENNEMI LE PLUS PROCHE", "L'ENNEMI LE PLUS PROCHE", "LE PLUS PROCHE ENNEMI"],
        "FRIENDLY": ["AMI", "AMIE", "BRIGADE AMIE"],
        "REACHES": ["ATTEINT", "ATTEIGNENT", "ARRIVE À", "ARRIVENT À", "OCCUPE", "ENTRE DANS"],
        "WITHIN": ["À MOINS DE", "EST À MOINS DE", "ARRIVE À MOINS DE", "VIENT À MOINS DE"],
        "ATTACKS": ["ATTAQUE", "NOUS ATTAQUE", "ATTAQUENT", "NOUS ATTAQUENT", "ENGAGE LE COMBAT"],
        "FIRES": ["TIRE", "OUVRE LE FEU", "NOUS TIRE DESSUS", "TIRENT", "OUVRENT LE FEU"],
        "RETREATS": ["RECULE", "SE REPLIE", "FUIT", "RECULENT", "SE REPLIENT"],
        "IT": ["LÀ", "CET ENDROIT", "CE LIEU"],
        "BYROAD": ["PAR LA ROUTE", "PAR ROUTE", "SUR LA ROUTE"],
        "SUPPORTING": ["EN SOUTIEN DE", "POUR SOUTENIR", "EN SOUTIEN"],
        "FORM:line": ["EN LIGNE"], "FORM:column": ["EN COLONNE"], "FORM:square": ["EN CARRÉ"],
        "FORM:skirmish": ["EN TIRAILLEURS", "EN ORDRE DISPERSÉ"], "FORM:limbered": ["SUR AVANT-TRAINS", "ATTELÉE"],
        "FORM:unlimbered": ["EN BATTERIE", "DÉTELÉE"], "FORM:mounted": ["À CHEVAL", "MONTÉS"],
        "FORM:dismounted": ["PIED À TERRE", "DÉMONTÉS"],
    },
    "uk": {
        "MOVE": ["РУХАТИСЯ ДО", "РУХАТИСЯ НА", "РУХАТИСЯ", "ЙТИ ДО", "ЙТИ НА", "ІТИ ДО", "РУШИТИ ДО", "НАСТУПАТИ НА",
                 "ВИСУНУТИСЯ ДО", "ПЕРЕЙТИ ДО", "ПЕРЕЙТИ НА"],
        "HOLD": ["СТОЯТИ Й УТРИМУВАТИ", "СТОЯТИ І УТРИМУВАТИ", "СТОЯТИ ТА УТРИМУВАТИ", "УТРИМУВАТИ", "СТОЯТИ",
                 "ОБОРОНЯТИ", "ТРИМАТИ"],
        "ATTACK": ["АТАКУВАТИ", "АТАКУЙТЕ"],
        "DEPLOY": ["РОЗГОРНУТИСЯ", "РОЗГОРНІТЬСЯ", "ПІДТРИМУВАТИ"],
        "RETREAT": ["ВІДСТУПИТИ ДО", "ВІДСТУПИТИ НА", "ВІДСТУПАТИ ДО", "ВІДІЙТИ ДО", "ВІДІЙТИ НА", "ВІДСТУПИТИ"],
        "THEN": ["ПОТІМ", "ДАЛІ", "А ПОТІМ", "І ПОТІМ", "Й ПОТІМ", "ПІСЛЯ ЦЬОГО", "І", "Й", "ТА"],
        "IF": ["ЯКЩО", "КОЛИ", "ЩОЙНО"],
        "UNLESS": ["ЯКЩО НЕ"],
        "UNTIL": ["ДОКИ НЕ", "ПОКИ НЕ", "ДОКИ", "ПОКИ", "ДО ТОГО ЯК"],
        "ATTURN": ["НА ХІД #", "НА # ХІД", "У ХІД #", "В ХІД #", "НА ХОДІ #", "О @", "ДО @"],
        "TURN": ["ХІД #", "# ХІД", "ЧАС @"],
        "ENEMY": ["СУПРОТИВНИК", "СУПРОТИВНИКА", "ВОРОГ", "ВОРОГА", "НЕПРИЯТЕЛЬ", "ВОРОЖА БРИГАДА",
                  "ВОРОЖИЙ ПІДРОЗДІЛ"],
        "NEAREST": ["НАЙБЛИЖЧОГО СУПРОТИВНИКА", "НАЙБЛИЖЧОГО ВОРОГА", "НАЙБЛИЖЧИЙ СУПРОТИВНИК"],
        "FRIENDLY": ["ДРУЖНЯ", "ДРУЖНЯ БРИГАДА", "НАША", "НАША БРИГАДА"],
        "REACHES": ["ДОСЯГНЕ", "ДОСЯГНУТЬ", "ДІЙДЕ ДО", "ДІЙДУТЬ ДО", "ЗАЙМЕ", "ЗАЙМУТЬ", "ВИЙДЕ ДО", "УВІЙДЕ ДО"],
        "WITHIN": ["У МЕЖАХ", "В МЕЖАХ", "ОПИНИТЬСЯ В МЕЖАХ", "ПІДІЙДЕ БЛИЖЧЕ НІЖ НА", "БЛИЖЧЕ НІЖ НА", "БЛИЖЧЕ"],
        "ATTACKS": ["АТАКУЄ", "АТАКУЄ НАС", "АТАКУЮТЬ", "НАПАДЕ", "НАПАДЕ НА НАС", "ВСТУПИТЬ У БІЙ"],
        "FIRES": ["ВІДКРИЄ ВОГОНЬ", "СТРІЛЯЄ", "ОБСТРІЛЮЄ НАС", "ВІДКРИЮТЬ ВОГОНЬ"],
        "RETREATS": ["ВІДСТУПИТЬ", "ВІДСТУПАЄ", "ВІДІЙДЕ", "ТІКАЄ", "ПОБІЖИТЬ"],
        "IT": ["ТАМ", "ЙОГО", "ЇЇ", "ЦЕ МІСЦЕ"],
        "BYROAD": ["ДОРОГОЮ", "ПО ДОРОЗІ", "ШЛЯХОМ"],
        "SUPPORTING": ["НА ПІДТРИМКУ", "ПІДТРИМУЮЧИ"],
        "FORM:line": ["У ЛІНІЮ", "В ЛІНІЮ", "ЛІНІЄЮ", "В ЛІНІЇ", "У ЛІНІЇ"],
        "FORM:column": ["У КОЛОНУ", "В КОЛОНУ", "КОЛОНОЮ", "В КОЛОНІ", "У КОЛОНІ"],
        "FORM:square": ["У КАРЕ", "В КАРЕ"],
        "FORM:skirmish": ["У РОЗСИПНИЙ СТРІЙ", "В РОЗСИПНИЙ СТРІЙ", "РОЗСИПНИМ СТРОЄМ", "ЛАНЦЮГОМ"],
        "FORM:limbered": ["НА ПЕРЕДКАХ"], "FORM:unlimbered": ["ЗНЯТИМИ З ПЕРЕДКІВ", "З ПЕРЕДКІВ"],
        "FORM:mounted": ["ВЕРХИ", "У КІННОМУ СТРОЮ"], "FORM:dismounted": ["СПІШЕНИМИ", "У ПІШОМУ СТРОЮ"],
    },
    "zh": {
        "MOVE": ["前往", "移动到", "进军", "开赴"],
        "HOLD": ["坚守", "固守", "据守", "原地坚守"],
        "ATTACK": ["攻击", "进攻"],
        "DEPLOY": ["展开", "部署"],
        "RETREAT": ["撤退到", "撤往", "后撤到", "退往"],
        "THEN": ["然后", "之后", "再", "接着"],
        "IF": ["如果", "若", "当"],
        "UNLESS": ["除非"],
        "UNTIL": ["直到"],
        "ATTURN": ["在回合 #", "于回合 #", "在第 # 回合", "在 @"],
        "TURN": ["回合 #", "第 # 回合", "时间 @"],
        "ENEMY": ["敌军", "敌人", "敌方"],
        "NEAREST": ["最近的敌军", "最近敌军", "最近的敌人"],
        "FRIENDLY": ["友军", "我军"],
        "REACHES": ["抵达", "到达", "占领"],
        "WITHIN": ["进入", "逼近至"],
        "ATTACKS": ["来攻", "攻击我军", "进攻我军"],
        "FIRES": ["开火", "向我军开火", "射击"],
        "RETREATS": ["后撤", "撤退", "溃逃"],
        "IT": ["该处", "那里", "该地"],
        "BYROAD": ["沿道路", "走大路", "沿公路"],
        "SUPPORTING": ["支援"],
        "FORM:line": ["横队"], "FORM:column": ["纵队"], "FORM:square": ["方阵"], "FORM:skirmish": ["散兵线"],
        "FORM:limbered": ["挂架"], "FORM:unlimbered": ["卸架"], "FORM:mounted": ["乘马"], "FORM:dismounted": ["下马"],
    },
}
for _forms in NATIVE.values():
    for _key, _more in _forms.items():
        PHRASES[_key] = PHRASES[_key] + [f for f in _more if f not in PHRASES[_key]]
PHRASES["THEN"] += ["，", "。", "；"]



@lru_cache(maxsize=1)
def by_language() -> dict[str, frozenset[str]]:
    """Each language's order words and phrases (a number's ``#`` and a time's ``@`` left out): French, Ukrainian and
    Chinese from NATIVE, the others of PHRASES English where written in Latin letters, Russian in Cyrillic. What
    tells the language a seat's orders are written in (pbem.core.written)."""
    def cut(phrase: str) -> str:
        return " ".join(w for w in phrase.split() if w not in ("#", "@"))

    out: dict[str, set[str]] = {lang: {cut(f) for forms in by_key.values() for f in forms}
                                for lang, by_key in NATIVE.items()}
    native = set().union(*out.values())
    out["en"], out["ru"] = set(), set()
    for forms in PHRASES.values():
        for form in forms:
            if cut(form) in native or not any(c.isalpha() for c in form):
                continue
            out["ru" if any("\u0400" <= c <= "\u04ff" for c in form) else "en"].add(cut(form))
    return {lang: frozenset(w for w in words if w) for lang, words in out.items()}


VERB_KEYS = ("MOVE", "HOLD", "ATTACK", "DEPLOY", "RETREAT")
EVENT_VERBS = ("REACHES", "WITHIN", "ATTACKS", "FIRES", "RETREATS")
CONDITIONS = ("IF", "UNTIL", "UNLESS")

# the words that head a line of an orders text, by what they start (compared folded)
HEAD_WORDS = {"FROM": "FROM", "ОТ": "FROM", "TO": "TO", "КОМУ": "TO", "INITIATIVE": "INITIATIVE",
              "ИНИЦИАТИВА": "INITIATIVE", "FINAL": "FINAL",
              # French, Ukrainian, Chinese (MAIL_HEAD_WORDS leaves out the French words a mail's sentence may begin
              # with)
              "DE": "FROM", "EXPEDITEUR": "FROM", "POUR": "TO", "FIN": "FINAL", "ВІД": "FROM",
              "ІНІЦІАТИВА": "INITIATIVE", "КІНЕЦЬ": "FINAL", "КОНЕЦ": "FINAL", "自": "FROM", "致": "TO",
              "主动": "INITIATIVE", "完毕": "FINAL"}
# the fields of a dispatch's head line: FROM sender AT position TO recipient TURN n
HEAD_FIELDS = {"FROM": "FROM", "ОТ": "FROM", "AT": "AT", "ИЗ": "AT", "TO": "TO", "КОМУ": "TO", "К": "TO",
               "TURN": "TURN", "ХОД": "TURN", "TIME": "TURN", "ВРЕМЯ": "TURN", "У": "AT",
               "DE": "FROM", "EXPEDITEUR": "FROM", "A": "AT", "POUR": "TO", "TOUR": "TURN", "HEURE": "TURN",
               "ВІД": "FROM", "БІЛЯ": "AT", "ІЗ": "AT", "ХІД": "TURN", "ЧАС": "TURN",
               "自": "FROM", "于": "AT", "致": "TO", "回合": "TURN", "时间": "TURN"}
MAIL_HEAD_WORDS = frozenset(w for w in HEAD_WORDS if w not in ("DE", "POUR", "FIN")) | {"EXPÉDITEUR"}
"""The words that begin an orders text in a mail: DE, POUR and FIN, so common at the start of a French sentence, are
not (the orders form's GAME line, or EXPÉDITEUR, begins a French player's orders)."""

# inches: 6" 6'' 6 INCHES 6 ДЮЙМОВ 6 ШАГОВ (the text: «12" = шагов»)
UNIT_WORDS = ("\"", "''", "”", "″", "INCH", "INCHES", "ДЮЙМ", "ДЮЙМА", "ДЮЙМОВ", "ШАГ", "ШАГА", "ШАГОВ",
              "POUCE", "POUCES", "ДЮЙМИ", "ДЮЙМІВ", "КРОКІВ", "КРОКИ", "英寸")
NUMBER = re.compile(r"(\d+)(?:-?(?:ОЙ|ЫЙ|ИЙ|Й|ГО|ОГО|ОМУ|МУ|М|ОМ|ТH|TH|ST|ND|RD))?", re.I)
CLOCK = re.compile(r"(\d{1,2})[:h](\d{2})", re.I)
DISTANCE = re.compile(r"(\d+(?:\.\d)?)(\"|''|”|″)?")


_LATIN = str.maketrans("ÀÂÄÁÇÉÈÊËÎÏÍÔÖÓÙÛÜÚŸ’", "AAAACEEEEIIIOOOUUUUY'")


def fold_word(text: str) -> str:
    """A word as keywords are compared: upper case, Ё as Е, the Latin letters' accents left out (DEPLOYER is
    DÉPLOYER); Ukrainian Ї, Є, Й stay themselves."""
    return text.upper().replace("Ё", "Е").translate(_LATIN)


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


ORDER_LEXICON = Lexicon([form for forms in PHRASES.values() for form in forms] + list(HEAD_WORDS)
                        + list(HEAD_FIELDS) + list(UNIT_WORDS) + ["于", "在", "距", "离"])
"""The order words of every language, to cut Chinese written without spaces (pbem.core.orders.tokenize)."""


def lexicon(names=None) -> Lexicon:
    """The order words and, when ``names`` (a :class:`~pbem.games.dba.names.Names`) is given, its places',
    brigades' and commanders' names in every language's spelling (the dba catalog's): what a Chinese order
    written without spaces is cut into (``前往磨坊村横队`` is ``前往 磨坊村 横队``). Made once for a table's names."""
    if names is None:
        return ORDER_LEXICON
    english = frozenset([*names.places, *names.aliases, *(b.name for b in names.brigades.values()),
                         *(c.name for c in names.commanders.values())])
    return _names_lexicon(english)


@lru_cache(maxsize=32)
def _names_lexicon(english: frozenset[str]) -> Lexicon:
    from pbem.lang import LANGUAGES

    from .lang import tongue

    spelt = [tongue(code).gettext(name) for code in LANGUAGES for name in sorted(english)]
    return Lexicon([*ORDER_LEXICON.words, *english, *spelt])


_INDEX: dict[str, list[tuple[str, list[str]]]] = {}
for _key, _forms in PHRASES.items():
    for _form in _forms:
        _parts = fold_word(_form).split()
        _INDEX.setdefault(_parts[0], []).append((_key, _parts))
for _entries in _INDEX.values():
    _entries.sort(key=lambda e: -len(e[1]))
_FIRST_SLOTS = [e for first in ("#", "@") for e in _INDEX.get(first, [])]


def lex(line: str, words: Lexicon | None = None) -> list[Word]:
    """The words of one step line: keyword phrases joined, ``;`` and a sentence's full stop as THEN. Chinese
    written without spaces is cut into ``words`` (:func:`lexicon`; the order words alone when None)."""
    pieces = []
    for n, segment in enumerate(tokenize(line, words or ORDER_LEXICON)):
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
