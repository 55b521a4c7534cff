"""What every ruleset's order language shares: the header, problems, errors.

An orders text is a header line naming game, side, turn and key, then one
order per line. A problem names the line and column, what was found and what
was expected; that message is what the player reads in the reply, in his
language: the frame ("line 3, column 5: ... (found 'x'); expected ...") from
the core's catalog (pbem/core/locale, the ``core`` domain), the message and what
is expected from the game's, when the parser wrote them as :class:`pbem.lang.Text`
(``Problem.said``, ``Problem.expected_said``; :meth:`Problem.read_in`).

The header's keys are GAME, SIDE, TURN, KEY, or their words in any language
(:data:`HEADER_ALIASES`: PARTIE, ИГРА, 对局...), read as the English ones.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field, replace
from functools import lru_cache
from pathlib import Path
from typing import NamedTuple, NoReturn

from pbem.lang import Text, Tongue, catalog, say

CORE_LOCALE = Path(__file__).parent / "locale"
"""The core's catalogs (domain ``core``): the frame of a problem, the header's problems."""


def core_tongue(lang: str | None = "en") -> Tongue:
    """The core's texts in ``lang``."""
    return catalog(lang, (CORE_LOCALE, "core"))


@lru_cache(maxsize=4096)  # players write the same few names over and over
def fold(text: str) -> str:
    """Lower case, no accents, no spaces or punctuation inside names."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(c for c in plain.lower() if c.isalnum())


@dataclass(frozen=True)
class Problem:
    """What is wrong at a line and column of an orders text. ``message`` and ``expected`` are the
    English texts; ``said``/``expected_said``, when the parser wrote them as Texts, the same to be
    read in the reader's language (:meth:`read_in`); ``lang`` is the language ``str()`` writes the
    problem in (its frame from the core's catalog)."""

    line: int
    column: int
    message: str
    found: str = ""
    expected: str = ""
    lang: str = field(default="en", compare=False)
    said: Text | None = field(default=None, compare=False, repr=False)
    expected_said: Text | None = field(default=None, compare=False, repr=False)

    def __str__(self) -> str:
        return self.in_language(self.lang)

    def in_language(self, lang: str | None = "en") -> str:
        """The problem as its reader reads it: line, column, message, what was found and what was
        expected, framed in ``lang`` (the message and what is expected as they are)."""
        _ = core_tongue(lang).gettext
        text = _("line %(line)d, column %(column)d: %(message)s", line=self.line, column=self.column,
                 message=self.message)
        if self.found:
            text = _("%(problem)s (found %(found)s)", problem=text, found=repr(self.found))
        if self.expected:
            text = _("%(problem)s; expected %(expected)s", problem=text, expected=self.expected)
        return text

    def read_in(self, tongue: Tongue, words=None) -> "Problem":
        """The problem in ``tongue``'s language: its Texts read by ``tongue`` (which must hold the
        parser's catalog and the core's), then ``words`` (a function: the order words of a text in
        the reader's words) over message and expected; ``str()`` of it frames it in that language."""
        words = words or (lambda text: text)
        message = tongue.say(self.said) if self.said is not None else self.message
        expected = tongue.say(self.expected_said) if self.expected_said is not None else self.expected
        return replace(self, message=words(message), expected=words(expected), lang=tongue.lang)


def problem(line: int, column: int, message: str | Text, found: str = "", expected: str | Text = "") -> Problem:
    """A Problem whose message and expected may be Texts (kept to be read in the reader's language)."""
    return Problem(line, column, str(message), found, str(expected),
                   said=message if isinstance(message, Text) else None,
                   expected_said=expected if isinstance(expected, Text) else None)


class OrdersError(ValueError):
    """Orders that cannot be accepted; ``problems`` lists every one found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))

    def read_in(self, tongue: Tongue, words=None) -> "OrdersError":
        """The same error in ``tongue``'s language (:meth:`Problem.read_in`)."""
        return OrdersError([p.read_in(tongue, words) for p in self.problems])

    def in_language(self, lang: str | None = "en") -> str:
        """Every problem, one a line, framed in ``lang``."""
        return "\n".join(p.in_language(lang) for p in self.problems)


@dataclass
class Header:
    """GAME <id> SIDE <side> TURN <turn> KEY <key>; any field may be absent."""

    game: str | None = None
    side: str | None = None
    turn: str | None = None
    key: str | None = None
    line: int = 0
    extra: dict = field(default_factory=dict)
    tokens: list = field(default_factory=list, repr=False, compare=False)  # the header line's tokens


# -- reading an orders text: lines, tokens, the header ------------------------
#
# What follows is shared by every ruleset's parser: the limits on a text, the
# split into lines and orders (``#`` starts a comment, ``;`` separates orders
# on one line), tokens that keep their column, and the header line.

MAX_CHARS = 20_000
MAX_LINES = 300
HEADER_KEYS = ("GAME", "SIDE", "TURN", "KEY")

HEADER_WORDS = {
    "fr": {"GAME": ("PARTIE",), "SIDE": ("CAMP",), "TURN": ("TOUR",), "KEY": ("CLÉ", "CLE", "CLEF")},
    "ru": {"GAME": ("ИГРА", "ПАРТИЯ"), "SIDE": ("СТОРОНА",), "TURN": ("ХОД",), "KEY": ("КЛЮЧ",)},
    "uk": {"GAME": ("ГРА", "ПАРТІЯ"), "SIDE": ("СТОРОНА",), "TURN": ("ХІД",), "KEY": ("КЛЮЧ",)},
    "zh": {"GAME": ("对局", "游戏"), "SIDE": ("阵营",), "TURN": ("回合",), "KEY": ("密钥",)},
}
"""The header's keys in each language (docs/translating.md's glossary: partie, camp, tour, clé...),
the first of each the one a form writes; every language's are read in every game, as the English."""

HEADER_ALIASES = {**{key: key for key in HEADER_KEYS},
                  **{alias: key for words in HEADER_WORDS.values() for key, aliases in words.items()
                     for alias in aliases}}
"""Every header key in upper case, in any language -> the English key."""


_HEADER_CJK = tuple(alias for words in HEADER_WORDS.values() for aliases in words.values() for alias in aliases)


def header_words(lang: str | None) -> dict[str, str]:
    """{English header key: the word a form in ``lang`` writes for it}."""
    words = HEADER_WORDS.get(str(lang or ""), {})
    return {key: words.get(key, (key,))[0] for key in HEADER_KEYS}

_TOKEN = re.compile(r"->|→|>|;|(?:[^\s>;,→-]+|-(?!>))+")
_SIGN = re.compile(r"[>;,→-]")  # a word holding one of these is split by _TOKEN


# -- words written without spaces (Chinese) -------------------------------------
#
# A Chinese player writes his orders as he writes Chinese, without spaces between the words:
# ``移动A1马伦哥到斯皮内塔`` is ``移动 A1 马伦哥 到 斯皮内塔``. :func:`tokenize` splits a word at every
# boundary between those characters and Latin letters, digits or signs, and a run of them into the
# game's known words (its :class:`Lexicon`), each token keeping the column of its first character.

_CJK = re.compile("[\u2e80-\u2fff\u3002-\u303f\u3040-\u30ff\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff\uff00-\uffef"
                  "\U00020000-\U0003134f]+")
"""A run of characters written without spaces between words: Chinese (and Japanese) script and its
punctuation (。「」《》...), and a full-width sign a game reads as a word (:class:`Lexicon`)."""

_WIDE = re.compile("[\u3000\u3001\uff01-\uff5e]")  # a character FULL_WIDTH reads otherwise

FULL_WIDTH = {**{0xFF01 + i: 0x21 + i for i in range(94)}, 0x3000: " ", 0x3001: ","}
"""A Chinese keyboard's full-width signs, letters and digits as their ASCII ones, one character for one (so
the columns stay): ``Ａ１`` is ``A1``, ``，`` and ``、`` separate words as ``,`` does, ``；`` orders as ``;``,
``－＞`` is ``->``, ``＃`` starts a comment, the ideographic space is a space."""


class Lexicon:
    """The words a game's orders know in a script written without spaces (Chinese): its order words,
    sides, places and names in every language (only their Chinese pieces are kept), over the header's
    words (:data:`HEADER_WORDS`). :meth:`split` cuts a run of such characters into them.

    A full-width sign the lexicon holds as a word (DBA reads ``，`` and ``。`` as THEN) is kept as it
    is written; the others read as their ASCII sign (:data:`FULL_WIDTH`)."""

    def __init__(self, words=()):
        words = [str(word) for word in words]
        signs = {word for word in words if len(word) == 1 and ord(word) in FULL_WIDTH}
        self.narrow = {k: v for k, v in FULL_WIDTH.items() if chr(k) not in signs}
        """Full-width characters -> their ASCII ones, as a line is read before it is cut."""
        pieces = {piece for word in (*words, *_HEADER_CJK) for piece in _CJK.findall(word.translate(self.narrow))}
        self.words = frozenset(pieces | signs)
        self.longest = max((len(w) for w in self.words), default=1)
        self.split = lru_cache(maxsize=4096)(self._split)  # players write the same few runs over and over

    def __contains__(self, word: str) -> bool:
        return word in self.words

    def _split(self, run: str) -> tuple[tuple[int, int], ...]:
        """(start, end) of each word of ``run`` (characters written without spaces), in order.

        The cut is the one that leaves the fewest characters outside a known word, then has the
        fewest words (``从不`` NEVER rather than ``从`` FROM and ``不`` NO), then the longest first word;
        characters that are no known word stay together as one word (``末知地``), which the parser
        names in its problem."""
        n, words, longest = len(run), self.words, self.longest
        # best[i][k]: (cost, next) of the best cut of run[i:] whose first word is known (k=0) or not (k=1);
        # cost = (characters in no known word, words)
        best: list[list] = [[None, None] for _ in range(n + 1)]
        best[n] = [((0, 0), None), ((0, 0), None)]
        for i in range(n - 1, -1, -1):
            known = None
            for length in range(min(longest, n - i), 0, -1):
                if run[i:i + length] in words:
                    j = i + length
                    rest = min(best[j][0][0], best[j][1][0]) if j < n else (0, 0)
                    cost = (rest[0], rest[1] + 1)
                    if known is None or cost < known[0]:
                        known = (cost, length)
            best[i][0] = known or ((n + 1, n + 1), None)
            j = i + 1
            if j == n:
                best[i][1] = ((1, 1), None)
            else:
                ends = (best[j][0][0][0] + 1, best[j][0][0][1] + 1)  # the unknown word ends here
                goes = (best[j][1][0][0] + 1, best[j][1][0][1])  # it goes on
                best[i][1] = (ends, "end") if ends <= goes else (goes, "on")
        spans: list[tuple[int, int]] = []
        i = 0
        while i < n:
            if best[i][0][1] is not None and best[i][0][0] <= best[i][1][0]:
                length = best[i][0][1]
                spans.append((i, i + length))
                i += length
                continue
            start = i
            while True:
                how = best[i][1][1]
                i += 1
                if how != "on":
                    break
            spans.append((start, i))
        return tuple(spans)

    def pieces(self, chunk: str) -> list[tuple[int, str]]:
        """(offset, text) of the parts of a word written without spaces: each run of Chinese characters
        cut into words, the text between runs as it is."""
        out: list[tuple[int, str]] = []
        at = 0
        for match in _CJK.finditer(chunk):
            if match.start() > at:
                out.append((at, chunk[at:match.start()]))
            run = match.group()
            out += [(match.start() + a, run[a:b]) for a, b in self.split(run)]
            at = match.end()
        if at < len(chunk):
            out.append((at, chunk[at:]))
        return out


CORE_LEXICON = Lexicon()
"""The header's words alone: what a text is cut into when no game's words are given."""


class Token(NamedTuple):
    """A word or a sign (``->``, ``>``) of an orders line, with its 1-based column."""

    text: str
    column: int
    word: str  # the text in upper case, for comparing with keywords

    @property
    def end(self) -> int:
        """The column just after the token."""
        return self.column + len(self.text)


_new_token = tuple.__new__  # Token(...) without NamedTuple's slower keyword-handling __new__


def split_lines(text: str) -> list[str]:
    """The lines of ``text`` as a person numbers them (any newline convention)."""
    return text.replace("\r\n", "\n").replace("\r", "\n").split("\n")


def strip_comment(line: str) -> str:
    """``line`` without its comment (``#`` to the end of the line)."""
    cut = line.find("#")
    return line if cut < 0 else line[:cut]


def tokenize(line: str, lexicon: Lexicon | None = None) -> list[list[Token]]:
    """The orders of one line (split at ``;``), each a list of tokens.

    Comments are dropped; commas separate words like spaces do; ``→`` is read
    as ``->``. Empty orders (blank text between semicolons) are left out.
    Chinese written without spaces is cut into ``lexicon``'s words (the game's;
    the header's words when None) and at every boundary with Latin letters,
    digits or signs; full-width signs, letters and digits read as ASCII ones.
    """
    cut = None
    if not line.isascii():
        lexicon = lexicon or CORE_LEXICON
        if _WIDE.search(line):
            line = line.translate(lexicon.narrow)
        if _CJK.search(line):
            cut = lexicon
    line = strip_comment(line)
    segments: list[list[Token]] = [[]]
    column = 0
    # Most words hold no sign: split at white space, and read only the words
    # with a sign in them with the full pattern.
    for chunk in line.split():
        column = line.find(chunk, column)
        if cut is None or chunk.isascii() or _CJK.search(chunk) is None:
            if chunk.isalnum() or _SIGN.search(chunk) is None:  # isalnum: the quick answer for most words
                segments[-1].append(_new_token(Token, (chunk, column + 1, chunk.upper())))
            else:
                _signed(chunk, column, segments)
        else:
            for offset, part in cut.pieces(chunk):
                if _SIGN.search(part) is None:
                    segments[-1].append(_new_token(Token, (part, column + offset + 1, part.upper())))
                else:
                    _signed(part, column + offset, segments)
        column += len(chunk)
    return [s for s in segments if s]


def _signed(word: str, column: int, segments: list[list[Token]]) -> None:
    """The tokens of a word holding a sign (``Marengo>Spinetta``, ``A1;MOVE``), at ``column`` (0-based), added
    to the last of ``segments``; ``;`` starts a new one."""
    for match in _TOKEN.finditer(word):
        text = match.group()
        if text == ";":
            segments.append([])
            continue
        if text == "→":
            text = "->"
        segments[-1].append(_new_token(Token, (text, column + match.start() + 1, text.upper())))


def leading_word(text: str, words) -> str:
    """The first word of ``text`` in upper case, as a mail's lines of orders are told by it (``words``: the
    rulesets' mail words, in upper case): a word starting in Chinese written without spaces is the longest of
    ``words`` it begins with (``常备撤退马伦哥...`` begins with 常备), else its run of Chinese characters."""
    parts = text.split(None, 1)
    first = parts[0].split(";", 1)[0].upper() if parts else ""
    if first in words or not _CJK.match(first):
        return first
    run = _CJK.match(first).group()
    return next((run[:n] for n in range(len(run), 0, -1) if run[:n] in words), run)


def written_together(before: Token, after: Token) -> bool:
    """Were two tokens of a line cut from Chinese written without a space (``7时``, ``旅(佩尔蓬谢)``)?"""
    return after.column == before.end and bool(_CJK.match(after.text[:1]) or _CJK.match(before.text[-1:]))


def joined(tokens: list[Token]) -> str:
    """The words of ``tokens`` as one text: separated by a space, but not where Chinese was written without
    one (:func:`written_together`), so that a value or a name reads as its writer wrote it."""
    out = ""
    last: Token | None = None
    for token in tokens:
        if last is not None and not written_together(last, token):
            out += " "
        out += token.text
        last = token
    return out


def check_size(text: str) -> Problem | None:
    """A problem if ``text`` is longer than an orders text may be."""
    if len(text) > MAX_CHARS:
        line = text[:MAX_CHARS].count("\n") + 1
        return problem(line, 1, say("the orders are too long (%(count)s characters); at most %(most)s characters "
                                    "are read", count=f"{len(text):,}", most=f"{MAX_CHARS:,}"),
                       expected=say("shorter orders"))
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()  # the newline ending the last line starts no line
    if len(lines) > MAX_LINES:
        return problem(MAX_LINES + 1, 1, say("the orders are too long (%(count)d lines); at most %(most)d lines "
                                             "are read", count=len(lines), most=MAX_LINES),
                       expected=say("shorter orders"))
    return None


def suggest(word: str, choices) -> str:
    """`` (did you mean X?)`` for the choice closest to ``word``, or ``""``."""
    return str(suggestion(word, choices))


def suggestion(word: str, choices) -> Text | str:
    """:func:`suggest` as a Text (read in the reader's language), or ``""``."""
    close = difflib.get_close_matches(word.upper(), list(choices), n=1, cutoff=0.6)
    return say(" (did you mean %(word)s?)", word=close[0]) if close else ""


def is_header(tokens: list[Token]) -> bool:
    return bool(tokens) and tokens[0].word in HEADER_ALIASES


def parse_header(text: str, problems: list[Problem] | None = None,
                 tokenized: dict[int, list[list[Token]]] | None = None,
                 lexicon: Lexicon | None = None) -> tuple[Header, list[tuple[int, str]]]:
    """Split an orders text into its header and its other lines.

    The header is the first line that is not blank or a comment, if it starts
    with one of GAME, SIDE, TURN, KEY; it holds those words, each followed by
    its value (the words up to the next of them), in any order, each at most
    once. The lines returned are (line number, text) for every other line,
    blank and comment lines included. Problems in the header are appended to
    ``problems``, or raised as OrdersError if it is None. ``tokenized``, if
    given, gets the tokens of the lines read here, by line number, so that
    they need not be read again. ``lexicon``: the game's words, to cut Chinese
    written without spaces (:func:`tokenize`).
    """
    collect = [] if problems is None else problems
    header = Header()
    lines = split_lines(text)
    body: list[tuple[int, str]] = []
    found = False
    for number, line in enumerate(lines, 1):
        if found:
            body.append((number, line))
            continue
        segments = tokenize(line, lexicon)
        if tokenized is not None:
            tokenized[number] = segments
        if not segments:
            body.append((number, line))
            continue
        found = True
        tokens = [t for segment in segments for t in segment]
        if not is_header(tokens):
            body.append((number, line))
            continue
        header.line = number
        header.tokens = tokens
        _read_header(tokens, number, header, collect)
    if problems is None and collect:
        raise OrdersError(collect)
    return header, body


def _read_header(tokens: list[Token], number: int, header: Header, problems: list[Problem]) -> None:
    fields: dict[str, tuple[Token, list[Token]]] = {}
    current: list[Token] | None = None
    last: Token | None = None
    for token in tokens:
        key = HEADER_ALIASES.get(token.word)
        glued = last is not None and current and token.column == last.end  # 你的密钥: a key's word inside a value
        last = token
        if key is not None and not (key in fields and glued):
            if key in fields:
                problems.append(problem(number, token.column,
                                        say("%(key)s is given twice in the header", key=token.word),
                                        token.text, say("each of GAME, SIDE, TURN, KEY at most once")))
                current = []
                continue
            current = []
            fields[key] = (token, current)
        elif current is not None:
            current.append(token)
    for key, (token, value) in fields.items():
        if not value:
            problems.append(problem(number, token.end, say("%(key)s in the header has no value", key=token.word),
                                    "", say("a value after %(key)s", key=token.word)))
            continue
        setattr(header, key.lower(), joined(value))


ARROW, GT = "->", ">"
SIGNS = frozenset((ARROW, GT))


class Abort(Exception):
    """The order being read cannot be read further; its problem is recorded."""


class OrderReader:
    """Reads the tokens of one order at a time, recording problems.

    A ruleset's parser subclasses it: ``start(line, tokens)`` for each order,
    then ``peek``/``take``/``expect`` through the tokens. ``note`` records a
    problem and goes on; ``fail`` records one and raises :class:`Abort`, which
    the parser catches to skip to the next order. Problems point at a token
    (its text is what was found) or, at the end of an order, at the column
    just after it.
    """

    def __init__(self, problems: list[Problem]):
        self.problems = problems
        self.line = 0
        self.tokens: list[Token] = []
        self.i = 0

    def start(self, line: int, tokens: list[Token]) -> None:
        self.line, self.tokens, self.i = line, tokens, 0

    # -- problems

    def note_at(self, line: int, column: int, message: str | Text, found: str = "", expected: str | Text = "") -> None:
        """Record a problem; ``message`` and ``expected`` may be Texts (read later in the reader's
        language), else English strings."""
        self.problems.append(problem(line, column, message, found, expected))

    def note(self, where: Token | int, message: str | Text, found: str | None = None,
             expected: str | Text = "") -> None:
        """Record a problem at a token (its text is what was found) or at a column."""
        column, text = (where.column, where.text) if isinstance(where, Token) else (where, "")
        self.note_at(self.line, column, message, text if found is None else found, expected)

    def fail(self, where: Token | int, message: str | Text, found: str | None = None,
             expected: str | Text = "") -> NoReturn:
        self.note(where, message, found, expected)
        raise Abort

    # -- tokens

    # (These run for every word of every order: they index self.tokens directly.)

    def peek(self, k: int = 0) -> Token | None:
        j = self.i + k
        return self.tokens[j] if j < len(self.tokens) else None

    def at(self, *words: str) -> bool:
        """Is the next token one of these keywords?"""
        i, tokens = self.i, self.tokens
        return i < len(tokens) and tokens[i].word in words

    def at_sign(self, sign: str) -> bool:
        i, tokens = self.i, self.tokens
        return i < len(tokens) and tokens[i].text == sign

    def take(self) -> Token:
        token = self.tokens[self.i]
        self.i += 1
        return token

    def end_column(self) -> int:
        """The column just after the order."""
        return self.tokens[-1].end if self.tokens else 1

    def here(self) -> Token | int:
        """The next token, or the column just after the order."""
        return self.peek() or self.end_column()

    @staticmethod
    def is_word(token: Token | None, stops: tuple[str, ...] = ()) -> bool:
        """A word (not ``->`` or ``>``) that is not one of ``stops``."""
        return token is not None and token.text not in SIGNS and token.word not in stops

    def words(self, stops: tuple[str, ...] = ()) -> list[Token]:
        """The words from here up to a stop word, a sign or the end (not taken)."""
        tokens, j = self.tokens, self.i
        n = len(tokens)
        while j < n:
            token = tokens[j]
            if token.text in SIGNS or token.word in stops:
                break
            j += 1
        return tokens[self.i:j]

    def take_words(self, stops: tuple[str, ...] = ()) -> list[Token]:
        """Take the words from here up to a stop word, a sign or the end."""
        out = self.words(stops)
        self.i += len(out)
        return out

    def expect(self, words: tuple[str, ...], expected: str) -> Token:
        """Take the next token if it is one of ``words``; else fail."""
        if not self.at(*words):
            self.missing(expected, words)
        return self.take()

    def expect_sign(self, sign: str, expected: str) -> Token:
        if not self.at_sign(sign):
            self.missing(expected)
        return self.take()

    def missing(self, expected: str, words: tuple[str, ...] = ()) -> NoReturn:
        """Fail: the next token (or the end of the order) is not what was expected."""
        token = self.peek()
        if token is None:
            self.fail(self.end_column(), say("the order ends too soon"), "", expected)
        hint = suggestion(token.text, words) if words else ""
        self.fail(token, say("unexpected %(word)s%(hint)s", word=repr(token.text), hint=hint), None, expected)

    def done(self, expected: str) -> None:
        """Fail unless the order has been read to its end."""
        token = self.peek()
        if token is not None:
            self.fail(token, say("unexpected %(word)s after the end of the order", word=repr(token.text)), None,
                      expected)
