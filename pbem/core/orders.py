"""What every ruleset's order language shares: the header, problems, errors.

An orders text is a header line naming game, side, turn and key, then one
order per line. A problem names the line and column, what was found and what
was expected; that message is what the player reads in the reply.
"""

from __future__ import annotations

import difflib
import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import NamedTuple, NoReturn


@lru_cache(maxsize=4096)  # players write the same few names over and over
def fold(text: str) -> str:
    """Lower case, no accents, no spaces or punctuation inside names."""
    decomposed = unicodedata.normalize("NFKD", text)
    plain = "".join(c for c in decomposed if not unicodedata.combining(c))
    return "".join(c for c in plain.lower() if c.isalnum())


@dataclass(frozen=True)
class Problem:
    line: int
    column: int
    message: str
    found: str = ""
    expected: str = ""

    def __str__(self) -> str:
        text = f"line {self.line}, column {self.column}: {self.message}"
        if self.found:
            text += f" (found {self.found!r})"
        if self.expected:
            text += f"; expected {self.expected}"
        return text


class OrdersError(ValueError):
    """Orders that cannot be accepted; ``problems`` lists every one found."""

    def __init__(self, problems: list[Problem]):
        self.problems = list(problems)
        super().__init__("\n".join(str(p) for p in self.problems))


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

_TOKEN = re.compile(r"->|→|>|;|(?:[^\s>;,→-]+|-(?!>))+")
_SIGN = re.compile(r"[>;,→-]")  # a word holding one of these is split by _TOKEN


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


def tokenize(line: str) -> list[list[Token]]:
    """The orders of one line (split at ``;``), each a list of tokens.

    Comments are dropped; commas separate words like spaces do; ``→`` is read
    as ``->``. Empty orders (blank text between semicolons) are left out.
    """
    line = strip_comment(line)
    segments: list[list[Token]] = [[]]
    current = segments[0]
    column = 0
    # Most words hold no sign: split at white space, and read only the words
    # with a sign in them with the full pattern.
    for chunk in line.split():
        column = line.find(chunk, column)
        if chunk.isalnum() or _SIGN.search(chunk) is None:  # isalnum: the quick answer for most words
            current.append(_new_token(Token, (chunk, column + 1, chunk.upper())))
        else:
            for match in _TOKEN.finditer(chunk):
                text = match.group()
                if text == ";":
                    current = []
                    segments.append(current)
                    continue
                if text == "→":
                    text = "->"
                current.append(_new_token(Token, (text, column + match.start() + 1, text.upper())))
        column += len(chunk)
    return [s for s in segments if s]


def check_size(text: str) -> Problem | None:
    """A problem if ``text`` is longer than an orders text may be."""
    if len(text) > MAX_CHARS:
        line = text[:MAX_CHARS].count("\n") + 1
        return Problem(line, 1, f"the orders are too long ({len(text):,} characters); "
                       f"at most {MAX_CHARS:,} characters are read", expected="shorter orders")
    lines = split_lines(text)
    if lines and lines[-1] == "":
        lines.pop()  # the newline ending the last line starts no line
    if len(lines) > MAX_LINES:
        return Problem(MAX_LINES + 1, 1, f"the orders are too long ({len(lines)} lines); "
                       f"at most {MAX_LINES} lines are read", expected="shorter orders")
    return None


def suggest(word: str, choices) -> str:
    """`` (did you mean X?)`` for the choice closest to ``word``, or ``""``."""
    close = difflib.get_close_matches(word.upper(), list(choices), n=1, cutoff=0.6)
    return f" (did you mean {close[0]}?)" if close else ""


def is_header(tokens: list[Token]) -> bool:
    return bool(tokens) and tokens[0].word in HEADER_KEYS


def parse_header(text: str, problems: list[Problem] | None = None,
                 tokenized: dict[int, list[list[Token]]] | None = None) -> tuple[Header, list[tuple[int, str]]]:
    """Split an orders text into its header and its other lines.

    The header is the first line that is not blank or a comment, if it starts
    with one of GAME, SIDE, TURN, KEY; it holds those words, each followed by
    its value (the words up to the next of them), in any order, each at most
    once. The lines returned are (line number, text) for every other line,
    blank and comment lines included. Problems in the header are appended to
    ``problems``, or raised as OrdersError if it is None. ``tokenized``, if
    given, gets the tokens of the lines read here, by line number, so that
    they need not be read again.
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
        segments = tokenize(line)
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
    for token in tokens:
        if token.word in HEADER_KEYS:
            if token.word in fields:
                problems.append(Problem(number, token.column, f"{token.word} is given twice in the header",
                                        token.text, "each of GAME, SIDE, TURN, KEY at most once"))
                current = []
                continue
            current = []
            fields[token.word] = (token, current)
        elif current is not None:
            current.append(token)
    for key, (token, value) in fields.items():
        if not value:
            problems.append(Problem(number, token.end, f"{key} in the header has no value",
                                    "", f"a value after {key}"))
            continue
        setattr(header, key.lower(), " ".join(t.text for t in value))


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

    def note_at(self, line: int, column: int, message: str, found: str = "", expected: str = "") -> None:
        self.problems.append(Problem(line, column, message, found, expected))

    def note(self, where: Token | int, message: str, found: str | None = None, expected: str = "") -> None:
        """Record a problem at a token (its text is what was found) or at a column."""
        column, text = (where.column, where.text) if isinstance(where, Token) else (where, "")
        self.note_at(self.line, column, message, text if found is None else found, expected)

    def fail(self, where: Token | int, message: str, found: str | None = None, expected: str = "") -> NoReturn:
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
            self.fail(self.end_column(), "the order ends too soon", "", expected)
        hint = suggest(token.text, words) if words else ""
        self.fail(token, f"unexpected {token.text!r}{hint}", None, expected)

    def done(self, expected: str) -> None:
        """Fail unless the order has been read to its end."""
        token = self.peek()
        if token is not None:
            self.fail(token, f"unexpected {token.text!r} after the end of the order", None, expected)
