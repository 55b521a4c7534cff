"""The mail commands' words, in every language the server writes (issue 17), and the one reader of a
command line.

A command is the first line after a mail's header (``STATUS``, ``VACATION 5``, ``DRAW ACCEPT``), or
a mail's first line where no header is needed (``HELP``, ``LEAGUE 3 JOIN``). Each is read in English
and in French, Russian, Ukrainian and Chinese, with or without accents, in any case: ``ÉTAT``,
``etat``, ``СТАТУС``, ``状态``. A sub-word (``ACCEPT`` after ``DRAW``, ``FROM`` and ``TO`` after
``VACATION``, ``ALL`` after ``PRESS``, ``JOIN`` and ``ENTER`` after ``LEAGUE <n>`` and
``TOURNAMENT <n>``) is read in any language too, whatever the command's. Chinese needs no space
between a command and its argument (``休假5``, ``语言fr``, ``和棋接受``), and a few phrases read as a
command with its sub-word (``接受和棋``, ``ПРИНЯТЬ НИЧЬЮ``).

    read("congé du 2026-12-20 au 2027-01-03")   -> Command("VACATION", ("FROM", "2026-12-20", "TO", "2027-01-03"), ...)
    read("休假5")                                -> Command("VACATION", ("5",), ...)
    read("FOO")                                  -> None

:func:`word` is a command's word as a :class:`pbem.lang.Text` read in its reader's language (a refusal
names the words its reader writes); :func:`help_text` is the HELP mail, in the reader's words.
"""

from __future__ import annotations

import re
import textwrap
import unicodedata
from dataclasses import dataclass

from pbem.core.orders import header_words
from pbem.lang import LANGUAGES, LIST_SEPARATOR, Text, Tongue
from pbem.server import i18n
from pbem.server.i18n import N_

COMMANDS = ("HELP", "STATUS", "REPORT", "ORDERS", "VACATION", "ANSWER", "KEY", "RESIGN", "DRAW", "PRESS", "REMATCH",
            "LANGUAGE")
"""The commands after a header, by their English words (what the code compares)."""
LEAGUE_COMMANDS = ("LEAGUE", "TOURNAMENT")
"""The commands of a mail with no header, but HELP (pbem.server.leagues.mail)."""

WORDS: dict[str, dict[str, tuple[str, ...]]] = {
    # the commands
    "HELP": {"fr": ("AIDE",), "ru": ("ПОМОЩЬ", "СПРАВКА"), "uk": ("ДОПОМОГА", "ДОВІДКА"), "zh": ("帮助", "幫助")},
    "STATUS": {"fr": ("ÉTAT", "STATUT"), "ru": ("СТАТУС", "СОСТОЯНИЕ"), "uk": ("СТАН", "СТАТУС"), "zh": ("状态", "狀態")},
    "REPORT": {"fr": ("RAPPORT", "COMPTE-RENDU"), "ru": ("ДОНЕСЕНИЕ", "ОТЧЁТ"), "uk": ("ЗВІТ", "ДОНЕСЕННЯ"),
               "zh": ("战报", "报告", "戰報", "報告")},
    "ORDERS": {"fr": ("ORDRES",), "ru": ("ПРИКАЗЫ",), "uk": ("НАКАЗИ",), "zh": ("命令",)},
    "VACATION": {"fr": ("CONGÉ", "VACANCES"), "ru": ("ОТПУСК",), "uk": ("ВІДПУСТКА",), "zh": ("休假",)},
    "ANSWER": {"fr": ("RÉPONSE", "RÉPONDRE"), "ru": ("ОТВЕТ", "ОТВЕТИТЬ"), "uk": ("ВІДПОВІДЬ", "ВІДПОВІСТИ"),
               "zh": ("回答", "答复", "答覆")},
    "KEY": {"fr": ("CLÉ", "CLEF"), "ru": ("КЛЮЧ",), "uk": ("КЛЮЧ",), "zh": ("密钥", "新密钥", "密鑰", "新密鑰")},
    "RESIGN": {"fr": ("ABANDON", "ABANDONNER"), "ru": ("СДАЧА", "СДАТЬСЯ"), "uk": ("ЗДАЧА", "ЗДАТИСЯ"),
               "zh": ("认输", "認輸")},
    "DRAW": {"fr": ("NULLE",), "ru": ("НИЧЬЯ",), "uk": ("НІЧИЯ",), "zh": ("和棋", "求和")},
    "PRESS": {"fr": ("MESSAGE",), "ru": ("СООБЩЕНИЕ",), "uk": ("ПОВІДОМЛЕННЯ",), "zh": ("通信", "消息")},
    "REMATCH": {"fr": ("REVANCHE",), "ru": ("РЕВАНШ",), "uk": ("РЕВАНШ",), "zh": ("再战", "再戰")},
    "LANGUAGE": {"fr": ("LANGUE",), "ru": ("ЯЗЫК",), "uk": ("МОВА",), "zh": ("语言", "語言")},
    "LEAGUE": {"fr": ("LIGUE",), "ru": ("ЛИГА",), "uk": ("ЛІГА",), "zh": ("联赛", "聯賽")},
    "TOURNAMENT": {"fr": ("TOURNOI",), "ru": ("ТУРНИР",), "uk": ("ТУРНІР",), "zh": ("锦标赛", "錦標賽")},
    # the sub-words
    "OFFER": {"fr": ("PROPOSER",), "ru": ("ПРЕДЛОЖИТЬ",), "uk": ("ЗАПРОПОНУВАТИ",), "zh": ("提议", "提議")},
    "ACCEPT": {"fr": ("ACCEPTER", "ACCEPTE"), "ru": ("ПРИНЯТЬ", "ПРИНИМАЮ"), "uk": ("ПРИЙНЯТИ", "ПРИЙМАЮ"),
               "zh": ("接受", "同意")},
    "DECLINE": {"fr": ("REFUSER", "REFUSE"), "ru": ("ОТКЛОНИТЬ", "ОТКАЗ"), "uk": ("ВІДХИЛИТИ", "ВІДМОВА"),
                "zh": ("拒绝", "拒絕")},
    "FROM": {"fr": ("DU", "DE"), "ru": ("С", "ОТ"), "uk": ("З", "ВІД"), "zh": ("从", "自", "從")},
    "TO": {"fr": ("AU", "À", "JUSQU'AU"), "ru": ("ПО", "ДО"), "uk": ("ПО", "ДО"), "zh": ("到", "至")},
    "ALL": {"fr": ("TOUS",), "ru": ("ВСЕМ", "ВСЕ"), "uk": ("УСІМ", "ВСІМ", "УСІ"), "zh": ("全部", "所有人")},
    "JOIN": {"fr": ("ADHÉRER", "REJOINDRE"), "ru": ("ВСТУПИТЬ",), "uk": ("ВСТУПИТИ",), "zh": ("加入",)},
    "ENTER": {"fr": ("INSCRIRE", "S'INSCRIRE", "PARTICIPER"), "ru": ("УЧАСТВОВАТЬ", "ЗАПИСАТЬСЯ"),
              "uk": ("ЗАПИСАТИСЯ", "УЧАСТЬ"), "zh": ("报名", "参加", "報名", "參加")},
}
"""{English word: {language: its words, the first the one the server writes}} (docs/translating.md's
table). The English word is read in every language too; Chinese words in the traditional script as well
(the Chinese rule book, 001, is written in it)."""

PHRASES: dict[str, dict[str, tuple[str, ...]]] = {
    "ru": {"ПРИНЯТЬ НИЧЬЮ": ("DRAW", "ACCEPT"), "ОТКЛОНИТЬ НИЧЬЮ": ("DRAW", "DECLINE"),
           "ПРЕДЛОЖИТЬ НИЧЬЮ": ("DRAW", "OFFER")},
    "uk": {"ПРИЙНЯТИ НІЧИЮ": ("DRAW", "ACCEPT"), "ВІДХИЛИТИ НІЧИЮ": ("DRAW", "DECLINE"),
           "ЗАПРОПОНУВАТИ НІЧИЮ": ("DRAW", "OFFER")},
    "zh": {"接受和棋": ("DRAW", "ACCEPT"), "拒绝和棋": ("DRAW", "DECLINE"), "提议和棋": ("DRAW", "OFFER"),
           "拒絕和棋": ("DRAW", "DECLINE"), "提議和棋": ("DRAW", "OFFER")},
}
"""Phrases a player writes for a command with its sub-word, as his language puts them (the verb first)."""

SUB_WORDS = {"DRAW": ("OFFER", "ACCEPT", "DECLINE"), "VACATION": ("FROM", "TO"), "PRESS": ("ALL",),
             "LEAGUE": ("JOIN",), "TOURNAMENT": ("ENTER",)}
"""The sub-words each command reads (in any language), put back in English for the code."""


def folded(word: str) -> str:
    """A word as commands are compared: compatibility forms (full-width letters) made plain, upper
    case, no accents (É, Ё, Ї as E, Е, І), no hyphen or apostrophe inside it (COMPTE-RENDU, S'INSCRIRE).
    Other signs stay: ``Ordres:`` heads a list of orders, it is not the command ORDRES."""
    plain = unicodedata.normalize("NFKD", unicodedata.normalize("NFKC", word))
    return "".join(c for c in plain if not unicodedata.combining(c) and c not in "-'’ʼ").upper()


def _table(names) -> dict[str, tuple[str, str]]:
    """{folded word: (English word, language)} for the words of ``names`` in every language."""
    out: dict[str, tuple[str, str]] = {}
    for name in names:
        out.setdefault(folded(name), (name, "en"))
        for lang, words in WORDS[name].items():
            for alias in words:
                out.setdefault(folded(alias), (name, lang))
    return out


_COMMANDS = _table(COMMANDS + LEAGUE_COMMANDS)
_PHRASES = {folded(p.replace(" ", "")): (names, lang)  # read from a line's first two words joined
            for lang, phrases in PHRASES.items() for p, names in phrases.items()}
_SUBS = {command: _table(names) for command, names in SUB_WORDS.items()}
_CJK = re.compile(r"[\u3400-\u9fff\uf900-\ufaff]")
_CJK_WORDS = sorted((w for w in list(_COMMANDS) + list(_PHRASES) if _CJK.match(w)), key=len, reverse=True)
_BOUNDARY = re.compile(r"(?<=[\u3400-\u9fff])(?=[A-Za-z0-9])|(?<=[A-Za-z0-9])(?=[\u3400-\u9fff])")


@dataclass(frozen=True)
class Command:
    """A command line as read: the command's English word, its arguments (sub-words in English, the rest
    as written), the word as written and its language ("en" for English, or a word two languages
    share: the first that has it)."""

    name: str
    args: tuple[str, ...]
    written: str
    lang: str


def split(line: str) -> list[str]:
    """The words of a command line; in Chinese, a command and its argument need no space between them
    (``休假5`` is ``休假 5``, ``语言fr`` is ``语言 fr``, ``和棋接受`` is ``和棋 接受``)."""
    words = unicodedata.normalize("NFKC", line).split()
    if not words or folded(words[0]) in _COMMANDS or folded(words[0]) in _PHRASES:
        return words
    head = folded(words[0])
    for cjk in _CJK_WORDS:
        if head.startswith(cjk) and words[0].startswith(cjk):
            rest = words[0][len(cjk):]
            return [cjk] + [p for w in (rest, *words[1:]) for p in _BOUNDARY.sub(" ", w).split()]
    return words


def read(line: str) -> Command | None:
    """The command a line writes, or None (not a command: orders, or nothing)."""
    words = split(line)
    if not words:
        return None
    if len(words) > 1 and (phrase := _PHRASES.get(folded(words[0] + words[1]))):
        (name, *sub), lang = phrase
        return Command(name, tuple(sub) + tuple(words[2:]), " ".join(words[:2]), lang)
    if phrase := _PHRASES.get(folded(words[0])):
        (name, *sub), lang = phrase
        return Command(name, tuple(sub) + tuple(words[1:]), words[0], lang)
    found = _COMMANDS.get(folded(words[0]))
    if found is None:
        return None
    name, lang = found
    args = [_BOUNDARY.sub(" ", w) if lang == "zh" else w for w in words[1:]]
    args = [p for a in args for p in a.split()]
    subs = _SUBS.get(name, {})
    at = {"DRAW": (0,), "VACATION": (0, 2), "LEAGUE": (1,), "TOURNAMENT": (1,)}.get(name, range(len(args)))
    for i in at:
        if i < len(args) and folded(args[i]) in subs:
            args[i] = subs[folded(args[i])][0]
    return Command(name, tuple(args), words[0], lang)


def means(written: str, name: str) -> bool:
    """Whether a word, as written, is ``name``'s in some language (``tous``, ``ВСЕМ``, ``全部`` mean ALL)."""
    return folded(written) in {folded(name)} | {folded(w) for words in WORDS[name].values() for w in words}


def words_in(lang: str | None) -> dict[str, str]:
    """{English word: the word ``lang`` writes for it} (English: the word itself)."""
    code = i18n.normalise(lang) or i18n.DEFAULT
    return {name: by_lang.get(code, (name,))[0] for name, by_lang in WORDS.items()}


class Word(Text):
    """A command's word, read in its reader's language (a refusal's value: "write NULLE ACCEPTER")."""

    def __init__(self, name: str):
        super().__init__(name)

    def read_in(self, tongue: Tongue) -> str:
        return words_in(tongue.lang)[self.message]


def word(name: str) -> Word:
    return Word(name)


def words(*names: str) -> dict[str, Word]:
    """The values of a refusal naming these words: ``{"draw": Word("DRAW"), ...}``."""
    return {name.lower(): Word(name) for name in names}


# -- the HELP mail ---------------------------------------------------------------------------------
# A catalog entry for each line's usage that has words to translate (<days>), one for each description.

HELP_INTRO = N_("""pbem: how to play by mail

Every mail to the server starts with a line naming the game and carrying
your seat's secret key; %(side)s (your seat) and %(turn)s are optional and checked
if given:

  %(game)s 17 %(key)s your-key-here
  %(game)s 17 %(side)s Austria %(turn)s 7AM %(key)s your-key-here

Then either your orders, one per line (see the order template in your last
report), or one of these commands on the next line:""")

HELP_END = N_("""Orders you send replace any you sent before for the same day. Write FINAL on
a line of its own to let the day be resolved before the deadline.""")

HELP_WITHOUT_HEADER = N_("Without a first line (alone in the mail):")

# (how it is written: its words as placeholders, in upper case; what it does)
HELP_LINES = [
    ("%(STATUS)s", N_("the game's state and your deadline")),
    ("%(REPORT)s", N_("your last report again")),
    ("%(ORDERS)s", N_("the orders on file for the coming day")),
    (N_("%(VACATION)s <days>"), N_("move the game's deadline by some days (within the game's limit)")),
    ("%(VACATION)s %(FROM)s 2026-12-20 %(TO)s 2027-01-03",
     N_("a vacation scheduled ahead, in all your games (UTC dates, both days included; or 2026-12-20T08:00 for a "
        "time)")),
    ("%(RESIGN)s", N_("concede the game (final: the other side wins)")),
    ("%(DRAW)s", N_("offer a draw (it stands until the coming day is resolved)")),
    ("%(DRAW)s %(ACCEPT)s", N_("accept the draw offered")),
    ("%(DRAW)s %(DECLINE)s", N_("decline the draw offered")),
    ("%(REMATCH)s", N_("once the game is over: a new one with the seats swapped")),
    (N_("%(PRESS)s <seats>"), N_("a message to other seats (their names, separated by commas, or %(ALL)s); the "
                                 "message is the lines that follow")),
    (N_("%(ANSWER)s <n> <choice>"), N_("answer question n the server asked you")),
    ("%(KEY)s", N_("a new secret key (the old one stops working)")),
    (N_("%(LANGUAGE)s <code>"), N_("the language of the server's mails to you: %(codes)s")),
]
HELP_ALONE = [
    ("%(HELP)s", N_("this text")),
    (N_("%(LEAGUE)s <number> %(JOIN)s [your name]"), N_("join a league (under a name, if given)")),
    (N_("%(TOURNAMENT)s <number> %(ENTER)s"), N_("enter a tournament of a league you belong to")),
]

HELP_ENGLISH = N_("The same commands in English are read too:")
HELP_OTHERS = N_("Each command is read in French, Russian, Ukrainian and Chinese too, for example:")

COLUMN = 23  # where the description of a command starts
WIDTH = 78


def width(text: str) -> int:
    """Columns a text takes in a fixed-width font (a Chinese character takes two)."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def _items(items: list[str], sep: str) -> list[str]:
    """Items of a list on indented lines of at most WIDTH columns, never split inside an item."""
    lines, line = [], ""
    for i, item in enumerate(items):
        item += sep.rstrip() if i < len(items) - 1 else ""
        if line and width(line) + 1 + width(item) > WIDTH - 2:
            lines.append("  " + line)
            line = item
        else:
            line = f"{line} {item}" if line and sep.endswith(" ") else line + item
    return lines + (["  " + line] if line else [])


_UNITS = re.compile(r"[\u3000-\u303f\u3400-\u9fff\uff00-\uffef]|[^\s\u3000-\u303f\u3400-\u9fff\uff00-\uffef]+|\s+")
_NO_LINE_START = set("，。、；：！？）」』")


def _wrap(text: str, room: int) -> list[str]:
    """A description on lines of at most ``room`` columns, broken at spaces, or between two Chinese
    characters (never before a closing mark: ，。）)."""
    lines, line = [], ""
    for unit in _UNITS.findall(text):
        if line and not unit.isspace() and width(line.rstrip() + unit) > room and unit not in _NO_LINE_START:
            lines.append(line.rstrip())
            line = ""
        if not (unit.isspace() and not line):
            line += " " if unit.isspace() else unit
    return lines + [line.rstrip()]


def help_text(lang: str | None) -> str:
    """The HELP mail in ``lang``: the commands in its words, what each does, and the English words."""
    tr = i18n.translator(lang)
    mine = words_in(tr.lang)
    header = {k.lower(): v for k, v in header_words(tr.lang).items()}
    sep = LIST_SEPARATOR.get(tr.lang, ", ")
    codes = sep.join(f"{code} ({name})" for code, name in LANGUAGES.items())

    def block(lines) -> list[str]:
        out = []
        for usage, what in lines:
            left = "  " + tr.gettext(usage, **mine)
            right = _wrap(tr.gettext(what, codes=codes, **mine), WIDTH - COLUMN)
            if width(left) < COLUMN:
                out.append(left + " " * (COLUMN - width(left)) + right[0])
                right = right[1:]
            else:
                out.append(left)
            out += [" " * COLUMN + more for more in right]
        return out

    parts = [tr.gettext(HELP_INTRO, **header), "", *block(HELP_LINES), "", tr.gettext(HELP_WITHOUT_HEADER), "",
             *block(HELP_ALONE), "", tr.gettext(HELP_END), ""]
    if tr.lang == i18n.DEFAULT:
        parts.append(tr.gettext(HELP_OTHERS))
        parts += _items([f"{name} = " + ", ".join(dict.fromkeys(WORDS[name][code][0] for code in WORDS[name]))
                         for name in ("HELP", "STATUS")], "; ")
    else:
        parts.append(tr.gettext(HELP_ENGLISH))
        names = dict.fromkeys(COMMANDS + LEAGUE_COMMANDS + tuple(n for subs in SUB_WORDS.values() for n in subs))
        parts += _items([f"{mine[name]} = {name}" for name in names if mine[name] != name], sep)
    return "\n".join(parts) + "\n"


def listed(lang: str | None, names=COMMANDS) -> str:
    """The commands' words in ``lang``, as a list ("ÉTAT, RAPPORT, ...")."""
    mine = words_in(lang)
    return LIST_SEPARATOR.get(i18n.normalise(lang) or "en", ", ").join(mine[n] for n in names)


def mail_words() -> frozenset[str]:
    """Every word that begins a command line, in every language, upper case with and without accents
    (a line beginning with one is the player's: never cut as a quote or a signature)."""
    out = set()
    for name in COMMANDS + LEAGUE_COMMANDS:
        out.add(name)
        for aliases in WORDS[name].values():
            for alias in aliases:
                out |= {alias.upper(), "".join(c for c in unicodedata.normalize("NFKD", alias)
                                                if not unicodedata.combining(c)).upper()}
    for phrases in PHRASES.values():
        out |= {p.split()[0] for p in phrases}
    return frozenset(out)
