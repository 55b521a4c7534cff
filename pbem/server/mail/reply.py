"""The player's own text in a reply: what he wrote, and what was left out.

A player answers a report by pressing Reply, so the mail holds his orders and
the report again, quoted the way his mail program quotes: with ``>``, or under
an attribution line ("On ... wrote:", "Le ... a écrit :", "2024-06-03 9:30
GMT+02:00 pbem <...>:", "... 写道："), under an Outlook header block (From: /
Sent: / To: / Subject:, in any language, bold or not), after a separator
line ("-----Original Message-----", "---- On ... wrote ----", a rule of
underscores), and with a footer ("Sent from my iPhone", "Get Outlook for iOS")
or a signature. ``new_text(body, words)`` returns the lines the player wrote
and a list of the parts it left out (:class:`Cut`), which the acknowledgement
lists (``summary``) so a player sees at once what was read.

Every mail the server sends carries two marker lines (``mark_text`` and
``mark_html``, called when a mail is built): ``[pbem-mail]`` first and
``[pbem-mail-end]`` last. They survive quoting and reformatting (a word of
ASCII at the start of a line), so wherever a reply holds the server's text
unquoted the cut is sure: from the marker, walking back over the attribution
or header block above it, to the end marker. A second orders header after the
player's own also starts quoted text (the report's orders form).

``words`` are the ruleset's mail words (the first words of its orders): a line
starting with one of them, with a header word (GAME, SIDE, TURN, KEY) or with
``#`` is the player's and is never taken for a footer, a signature or quoted
prose. Nothing here knows a game.
"""

from __future__ import annotations

import re
from html import escape
from dataclasses import dataclass, field

from pbem.core.orders import HEADER_ALIASES, leading_word, tokenize
from pbem.server import i18n
from pbem.server.i18n import N_
from pbem.server.mail.quoting import (
    ANY_HEADER_LINE, CLOSING, DATE, DECOR, EMAIL, FOOTER, FORWARD, FRAMED, FROM, HEADER_LINE, PLACEHOLDER,
    ENDS_VERB, PLAIN_RULE, QUOTE, RULE, SEPARATOR, SIG_DASH, START, TIME, VERB, YEAR,
)

MARK = "[pbem-mail]"
MARK_END = "[pbem-mail-end]"
MARK_SAYS = N_("Written by the pbem server: when you reply, only the lines you write are read.")
MARK_LINE = f"{MARK} {MARK_SAYS}"
MARK_END_LINE = MARK_END

WALK_BACK = 12  # lines above a marker or a second header that may be its attribution or header block
MAX_SIGNATURE = 8  # lines under a rule that may be a signature
MAX_TAIL = 200  # lines looked at under a footer for orders the player wrote on
NARROWEST_WRAP = 66  # the narrowest width at which mail programs wrap the lines they quote
WRAP_WIDTH = 60  # less than that, for the blanks lost at the break

# -- the parts left out -----------------------------------------------------------------------


@dataclass
class Cut:
    """Lines left out of a reply: ``kind`` says why (quote, attribution, header block,
    separator, pbem mail, orders form, footer, signature); ``lines`` are as written."""

    kind: str
    lines: list[str] = field(default_factory=list)

    @property
    def count(self) -> int:
        """The lines with something written on them (a quoted blank line ">" is not counted)."""
        return sum(1 for line in self.lines if _content(line).strip())

    @property
    def first(self) -> str:
        return next((_content(line).strip() for line in self.lines if _content(line).strip()), "")


@dataclass
class Reply:
    """The player's text (``text``) and what was left out of the mail (``cuts``, in order)."""

    text: str
    cuts: list[Cut] = field(default_factory=list)

    def summary(self) -> str:
        """What was ignored, in a few words: "3 quoted lines (from 'On ... wrote:'), the footer 'Sent from my iPhone'"."""
        return summary(self.cuts)


QUOTED_KINDS = ("quote", "attribution", "header block", "separator", "pbem mail", "orders form", "quoted text")
NAMED_KINDS = ("greeting", "note", "footer", "signature", "sign-off")  # listed one by one, by their first line


NAMED = {"greeting": N_("the greeting %(first)s"), "note": N_("the note %(first)s"),
         "footer": N_("the footer %(first)s"), "signature": N_("the signature %(first)s"),
         "sign-off": N_("the sign-off %(first)s")}


def summary(cuts: list[Cut], lang: str | None = "en") -> str:
    """What was ignored, counted and named by its first line, in ``lang``."""
    tr = i18n.translator(lang)
    parts = []
    quoted = [c for c in cuts if c.kind in QUOTED_KINDS and c.count]
    count = sum(c.count for c in quoted)
    if count:
        start = next((c for c in quoted if c.kind != "quote"), quoted[0])
        parts.append(tr.ngettext("%(num)d quoted line (from %(first)s)", "%(num)d quoted lines (from %(first)s)", count,
                                 first=repr(_short(start.first))))
    for cut in cuts:
        if cut.kind in NAMED_KINDS and cut.count:
            rest = cut.count - 1
            named = tr.gettext(NAMED[cut.kind], first=repr(_short(cut.first)))
            parts.append(named + (" " + tr.ngettext("and %(num)d line under it", "and %(num)d lines under it", rest)
                                  if rest > 0 else ""))
    return ", ".join(parts)


def _short(text: str, limit: int = 60) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[:limit - 1] + "…"


# -- reading a reply ---------------------------------------------------------------------------


_RULE_CHAR = re.compile(r"[-=_*~—–]")


def _content(line: str) -> str:
    match = QUOTE.match(line)
    return line[match.end():] if match else line


_UPPERED: tuple = (None, frozenset())  # (the words last given, them in upper case with the header words)


def _upper_words(words) -> frozenset[str]:
    """``words`` in upper case, with the header's words: made once for the same (frozen) set of words, which
    the server gives every mail (pbem.server.inbox.mail_words), where making it was a fifth of a mail's parse."""
    global _UPPERED
    if _UPPERED[0] is words and isinstance(words, frozenset):
        return _UPPERED[1]
    upper = frozenset({w.upper() for w in words} | set(HEADER_ALIASES))
    if isinstance(words, frozenset):
        _UPPERED = (words, upper)
    return upper


class _Reader:
    """The lines of a reply with what is known of each, computed once (the scans stay
    linear on a mail of a million lines)."""

    def __init__(self, text: str, words):
        self.lines = lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
        self.words = _upper_words(words)
        self.has_words = bool(words)
        n = self.n = len(lines)
        self.filled = [False] * n
        self.depth = [0] * n
        self.bare = [""] * n
        self.marks = [False] * n
        self.mark_ends = [False] * n
        self.colon = [False] * n
        self._orders_like = [False] * n
        self.filled_lines: list[int] = []  # the indices of the non-blank lines (most scans need only these)
        strip = DECOR + "\u200b\ufeff"
        for i, line in enumerate(lines):
            if not line or line.isspace():
                continue
            self.filled[i] = True
            self.filled_lines.append(i)
            quote = QUOTE.match(line) if ">" in line[:8] or line[:1] in " \t" else None
            if quote:  # a quoted line: never the player's, so never an order
                self.depth[i] = quote.group(1).count(">")
                bare = line[quote.end():].strip(strip)
            else:
                bare = line.strip(strip)
                self._orders_like[i] = self._is_orders_like(line)
            self.bare[i] = bare
            if "[pbem-mail" in line:
                self.marks[i] = MARK in line
                self.mark_ends[i] = MARK_END in line
            self.colon[i] = bare[-1:] in (":", "：")
        # the next non-blank line and the next unquoted end marker, at or after each line
        self._next_filled = [n] * (n + 1)
        self._next_end = [n] * (n + 1)
        next_filled = next_end = n
        for i in range(n - 1, -1, -1):
            if self.filled[i]:
                next_filled = i
                if self.mark_ends[i] and not self.depth[i]:
                    next_end = i
            self._next_filled[i] = next_filled
            self._next_end[i] = next_end
        self._memo: dict = {}

    def _cached(self, name: str, i: int, compute):
        key = (name, i)
        if key not in self._memo:
            self._memo[key] = compute(i)
        return self._memo[key]

    # -- what a line is

    def quoted(self, i: int) -> bool:
        return i < self.n and self.depth[i] > 0

    def blank(self, i: int) -> bool:
        return not self.filled[i]

    def next_filled(self, i: int) -> int:
        """The index of the first non-blank line at or after ``i`` (``n`` if none)."""
        return self._next_filled[min(i, self.n)]

    def next_end_mark(self, i: int) -> int:
        """The index of the first unquoted end marker at or after ``i`` (``n`` if none)."""
        return self._next_end[min(i, self.n)]

    def orders_like(self, i: int) -> bool:
        """A line that is the player's: a comment, or starting with a header or mail word."""
        return self._orders_like[i]

    def _is_orders_like(self, line: str) -> bool:
        text = line.lstrip()
        if not text:
            return False
        if text[0] == "#":
            return True
        return leading_word(text[:40], self.words) in self.words  # 常备撤退...: Chinese needs no spaces

    def header_line(self, i: int) -> bool:
        """An orders header: GAME/SIDE/TURN/KEY first, with GAME or KEY in it."""
        if self.depth[i] or not self._orders_like[i]:
            return False
        line = self.lines[i]
        words = [HEADER_ALIASES.get(w, w) for w in line.split("#")[0].upper().split()] if line.isascii() else \
            [HEADER_ALIASES.get(t.word, t.word) for segment in tokenize(line) for t in segment]  # 对局7阵营...
        # GAME or KEY (in any language) with its value: "KEY" alone is the mail command for a new key, not a header
        return bool(words) and words[0] in HEADER_ALIASES and ("GAME" in words[:-1] or "KEY" in words[:-1])

    def mark(self, i: int) -> bool:
        return self.marks[i]

    def mark_end(self, i: int) -> bool:
        return self.mark_ends[i]

    def footer(self, i: int) -> bool:
        text = self.bare[i]
        return (bool(text) and len(text) < 160 and text[:1].isalpha() and not self.orders_like(i)
                and bool(FOOTER.match(text)))

    def separator(self, i: int) -> bool:
        if not self.filled[i] or not self.colon[i] and not _RULE_CHAR.search(self.lines[i]):
            return False  # most lines: neither a colon at the end nor a dash, "=" or "_" anywhere
        return self._cached("separator", i, self._separator)

    def _separator(self, i: int) -> bool:
        if PLAIN_RULE.match(self.lines[i]):
            return True
        text = self.bare[i]
        if not text or self.orders_like(i):
            return False
        if SEPARATOR.match(text) and (re.search(r"[-=_*~—–]{2,}", text) or text.endswith(":")):
            return True
        framed = FRAMED.match(self.lines[i])
        if framed:
            inner = framed.group(1)
            return bool(VERB.search(" " + inner) or EMAIL.search(inner) or SEPARATOR.match(inner))
        return False

    def header_block(self, i: int) -> int:
        """The number of lines of an Outlook-style header block starting at ``i`` (0 if none)."""
        if not self.filled[i] or ":" not in self.bare[i] and "：" not in self.bare[i]:
            return 0
        return self._cached("header_block", i, self._header_block)

    def _header_block(self, i: int) -> int:
        first = HEADER_LINE.match(self.bare[i])
        if not first or first.group(1).lower() not in FROM + DATE:
            return 0
        j, found, gap = i + 1, 1, 0
        while j < self.n and j - i < 12:
            text = self.bare[j]
            if not text:
                break
            if HEADER_LINE.match(text):
                found += 1
                gap = 0
            elif gap or self.orders_like(j):
                break
            else:
                gap += 1  # a wrapped value (a long To: list)
            j += 1
        return j - i - gap if found >= 2 else 0

    def attribution(self, i: int) -> int:
        """The number of lines (1 to 3) of an attribution line starting at ``i`` (0 if none)."""
        colon = self.colon
        if self.depth[i] or not self.filled[i]:
            return 0
        if not (colon[i] or i + 1 < self.n and colon[i + 1] or i + 2 < self.n and colon[i + 2]):
            return int(self._without_colon(i))
        return self._cached("attribution", i, self._attribution)

    def _without_colon(self, i: int) -> bool:
        """An attribution whose colon was left out ("On Mon, 3 Jun 2024 at 09:30, pbem <...> wrote"): it starts
        as one, holds a date or an address, and ends with the verb."""
        text = self.bare[i]
        return (not self.orders_like(i) and len(text) <= 300 and bool(START.match(text))
                and bool(re.search(r"\d|@", text)) and bool(ENDS_VERB.search(" " + text)))

    def _attribution(self, i: int) -> int:
        if self.orders_like(i):
            return 0
        parts = []
        for k in range(3):
            j = i + k
            if j >= self.n or not self.filled[j] or self.depth[j] or (k and self.orders_like(j)):
                return 0
            parts.append(self.bare[j])
            if k and not (START.match(parts[0]) or re.search(r"\d|@", parts[0]) or VERB.search(" " + parts[0])):
                return 0
            if self.colon[j] and self._is_attribution(" ".join(parts), j + 1):
                return k + 1
        return 0

    def _is_attribution(self, text: str, after: int) -> bool:
        if len(text) > 300:
            return False
        if VERB.search(" " + text):
            return True
        if EMAIL.search(text) and (re.search(r"\d", text) or START.match(text)):
            return True
        # no verb, no address: a date and a time, then the quoted mail
        following = self.next_filled(after)
        return bool(TIME.search(text) and YEAR.search(text)
                    and (following >= self.n or self.quoted(following) or self.mark(following)))

    def signature(self, i: int) -> int:
        """The lines of a signature under a rule (``---``, ``___``): a few short lines, no orders."""
        if self.depth[i] or not self.filled[i] or not RULE.match(self.lines[i]):
            return 0
        j, filled = i + 1, 0
        while j < self.n and not self.quoted(j) and not self.boundary(j):
            if self.filled[j]:
                if self.orders_like(j) or len(self.lines[j].strip()) > 80 or filled == MAX_SIGNATURE:
                    return 0
                filled += 1
            elif j - i > 3 * MAX_SIGNATURE:
                return 0
            j += 1
        return j - i if filled else 0

    def hard_boundary(self, i: int) -> bool:
        """Does a quoted mail start at line ``i`` (a marker, separator, header block, attribution)?"""
        return self.mark(i) or self.separator(i) or bool(self.header_block(i)) or bool(self.attribution(i))

    def boundary(self, i: int) -> bool:
        """Does the player's text end at line ``i``?"""
        return self.hard_boundary(i) or self.footer(i) or self.lines[i] in ("--", "-- ")

    def orders_follow(self, i: int) -> bool:
        """Are there lines of orders after line ``i``, before the quoted mail? (Then line ``i``,
        whatever it looks like, is no footer or signature: the player wrote on under it.)"""
        for j in range(i + 1, min(self.n, i + 1 + MAX_TAIL)):
            if self.quoted(j) or self.hard_boundary(j):
                return False
            if self.filled[j] and self.orders_like(j):
                return True
        return False

    def wrapped_quote(self, i: int) -> bool:
        """A quoted line that the mail program wrapped without repeating the ``>``."""
        if i == 0 or not self.quoted(i - 1) or self.blank(i):
            return False
        if not (i + 1 >= self.n or self.quoted(i + 1) or self.blank(i + 1)):
            return False  # the quote goes on, or a blank line ends it
        previous = len(self.lines[i - 1].rstrip())
        first_word = len(self.lines[i].split()[0])
        if self.orders_like(i):  # an order written between two quoted lines, unless it plainly is a wrap
            return previous + 1 + first_word > NARROWEST_WRAP and len(self.lines[i].split()) <= 3
        if previous + 1 + first_word > NARROWEST_WRAP or previous >= 50 and previous + 1 + first_word > WRAP_WIDTH:
            return True  # the word could not have stood on the quoted line: the program moved it down
        return previous >= 60

    # -- walking back from a cut

    def walk_back(self, out: list[int], limit: int = WALK_BACK, prose: bool = False) -> list[int]:
        """The indices at the end of ``out`` that belong to the quoted mail starting after them:
        blank lines, rules, separators, attribution and header lines (and, with ``prose``
        and mail words, any line that is not the player's)."""
        taken: list[int] = []
        k = len(out)
        block = 0  # which block of non-blank lines above the cut (1: the one right above it)
        while k > 0 and (len(taken) < limit or prose):
            i = out[k - 1]
            text = self.bare[i]
            if self.filled[i] and (not taken or self.blank(taken[-1])):
                block += 1
            if self.blank(i) or RULE.match(self.lines[i]) or self.separator(i) or FRAMED.match(self.lines[i]):
                pass
            elif self.orders_like(i):
                break
            elif prose and self.has_words:
                pass
            elif (self.colon[i] or ANY_HEADER_LINE.match(text)) and len(text) < 300:
                pass
            elif block == 1 and self.has_words and len(text) < 300 and re.search(r"\d|@", text):
                pass  # an attribution in a form no rule knows, right above the server's mail
            else:
                break
            taken.append(i)
            k -= 1
        return taken[::-1]


def new_text(body: str, words=()) -> Reply:
    """The lines the player wrote in ``body`` (a plain text, or HTML turned into text with
    ``>`` for blockquotes), and the parts left out."""
    r = _Reader(body, words)
    kinds: list[str | None] = [None] * r.n  # why each line is left out; None: the player's
    seen_header = _scan(r, kinds, 0)
    if not seen_header:
        forwarded = _forwarded_orders(r, kinds)
        if forwarded is not None:
            seen_header = _scan(r, kinds, forwarded)
        else:
            _edited_in_place(r, kinds)
    _greeting_and_sign_off(r, kinds)
    kept = [k for k in range(r.n) if kinds[k] is None]
    while kept and r.blank(kept[-1]):
        kept.pop()
    while kept and r.blank(kept[0]):
        kept.pop(0)
    text = "\n".join(r.lines[k].rstrip() for k in kept)
    cuts: list[Cut] = []
    for k, kind in enumerate(kinds):
        if kind is None:
            continue
        if cuts and cuts[-1].kind == kind and kinds[k - 1] == kind:
            cuts[-1].lines.append(r.lines[k])
        else:
            cuts.append(Cut(kind, [r.lines[k]]))
    return Reply(text, [c for c in cuts if c.count])


def _scan(r: _Reader, kinds: list, start: int) -> bool:
    """Mark in ``kinds`` why each line from ``start`` on is left out; whether an orders header was kept."""
    out: list[int] = []  # the player's lines so far
    seen_header = False
    i = start

    def cut(kind: str, start: int, end: int, before: list[int] = ()) -> None:
        for k in list(before) + list(range(start, end)):
            kinds[k] = kind

    def skip_pbem(start: int) -> int:
        """After a cut at ``start``: the line after the server's end marker, if the server's
        mail begins here (after its header block or attribution); else the end."""
        j = r.next_filled(start)
        for _ in range(WALK_BACK):
            if j >= r.n or r.mark(j):
                break
            j = r.next_filled(j + 1)
        if j < r.n and r.mark(j):
            end = r.next_end_mark(j + 1)
            if end < r.n:
                return end + 1
        return r.n

    def drop_back(prose: bool = False) -> list[int]:
        taken = r.walk_back(out, prose=prose)
        del out[len(out) - len(taken):]
        return taken

    while i < r.n:
        line = r.lines[i]
        if not r.filled[i]:
            out.append(i)
            i += 1
            continue
        if r.depth[i]:
            depth, filled, next_filled, n = r.depth, r.filled, r._next_filled, r.n
            j = i
            while j < n and (depth[j] or not filled[j] and next_filled[j] < n and depth[next_filled[j]]):
                j += 1
            # the server's mail quoted: the line above it is its attribution, whatever its form
            before = drop_back() if any(r.mark(k) for k in range(i, min(j, i + 4))) else []
            cut("quote", i, j, before)
            i = j
            continue
        if r.wrapped_quote(i):
            cut("quote", i, i + 1)
            i += 1
            continue
        if r.orders_like(i) and not r.mark(i):  # the player's (an order, a comment, a header): no cut starts here
            if r.header_line(i):
                if seen_header:  # a second orders header: the report's orders form, quoted without ">"
                    cut("orders form", i, r.n, drop_back(prose=True))
                    break
                seen_header = True
            out.append(i)
            i += 1
            continue
        if r.mark(i):
            before = drop_back()
            end = skip_pbem(i)
            cut("pbem mail", i, end, before)
            i = end
            continue
        if (line in SIG_DASH or r.footer(i)) and not r.orders_follow(i):  # the end of the player's text
            end = i + 1
            if line in SIG_DASH:
                end = next((j for j in range(i + 1, r.n) if r.quoted(j) or r.hard_boundary(j)), r.n)
            cut("signature" if line in SIG_DASH else "footer", i, end)
            cut("quoted text", end, r.n)
            break
        if r.separator(i):
            size = 1 + r.header_block(r.next_filled(i + 1)) if r.next_filled(i + 1) < r.n else 1
            kind = "separator"
        else:
            size = r.header_block(i)
            kind = "header block"
            if not size:
                size = r.attribution(i)
                kind = "attribution"
        if size:
            following = r.next_filled(i + size)
            if following < r.n and r.quoted(following):
                # the mail follows quoted with ">": only this line or block goes, the player may write on below
                cut(kind, i, following)
                i = following
                continue
            end = skip_pbem(i + size)  # the mail follows unquoted: to its end marker, or to the end
            cut(kind, i, end, drop_back())
            i = end
            continue
        size = r.signature(i)
        if size:
            cut("signature", i, i + size)
            i += size
            continue
        out.append(i)
        i += 1
    return seen_header


def _only_prose(r: _Reader, kinds: list) -> bool:
    """Whether the player's kept lines hold no order (comments and prose only)."""
    return not any(kinds[k] is None and r.orders_like(k) and not r.lines[k].lstrip().startswith("#")
                   for k in r.filled_lines)


def _real_key(r: _Reader, k: int) -> bool:
    """Is line ``k`` an orders header with a key of the player's (not the form's placeholder)?"""
    if not r.header_line(k):
        return False
    line = r.lines[k]
    word = next((t for segment in tokenize(line) for t in segment if HEADER_ALIASES.get(t.word) == "KEY"), None)
    rest = line[word.end - 1:].split("#")[0].split() if word else []  # after KEY, CLÉ, КЛЮЧ, 密钥 (glued too)
    key = "" if not rest else " ".join(rest) if rest[0].startswith("<") else rest[0]
    return bool(key) and not PLACEHOLDER.match(key)


def _forwarded_orders(r: _Reader, kinds: list) -> int | None:
    """The player forwarded a mail of orders (his own, sent from elsewhere or to the wrong
    address) and wrote none himself: the line of the forwarded orders' header, or None.
    His own lines above become a note; the forwarded mail is read from its header on."""
    if not _only_prose(r, kinds):
        return None
    forward = next((k for k in r.filled_lines if not r.depth[k] and FORWARD.search(r.bare[k])), None)
    if forward is None:
        return None
    inside = False  # within the server's own mail, whose form is never the player's
    for k in range(forward + 1, r.n):
        if r.depth[k]:
            continue
        if r.mark(k):
            inside = True
        elif r.mark_end(k):
            inside = False
        elif not inside and _real_key(r, k):
            for m in range(k):
                if kinds[m] is None and r.filled[m]:
                    kinds[m] = "note"
            for m in range(k, r.n):
                kinds[m] = None
            return k
    return None


def _edited_in_place(r: _Reader, kinds: list) -> None:
    """The player wrote no orders of his own but filled in the server's orders form where it
    stands, in the server's mail (unquoted: Outlook's inline answers, or the whole mail pasted
    into a new one): the form, from its header with a real key to its end, is his."""
    if not any(r.marks) or not _only_prose(r, kinds):
        return
    start = 0
    while start < r.n:
        if not (r.mark(start) and not r.quoted(start)):
            start += 1
            continue
        end = r.next_end_mark(start + 1)
        for k in range(start + 1, end):
            if not _real_key(r, k):
                continue
            stop = next((m for m in range(k + 1, end) if r.quoted(m) or RULE.match(r.lines[m])
                         or FRAMED.match(r.lines[m]) or r.mark(m) or r.mark_end(m)), end)
            for m in range(r.n):
                if kinds[m] is None and not r.blank(m):
                    kinds[m] = "note"  # what the player wrote above: not orders (checked above)
            for m in range(k, stop):
                kinds[m] = None
            return
        start = end + 1


def _greeting_and_sign_off(r: _Reader, kinds: list) -> None:
    """A greeting above the orders header and a sign-off under the last order ("Thanks,
    Anna") are not orders: left out, and listed. Only with the ruleset's mail words, which
    tell an order (even a misspelt one stays: it does not start with a closing word)."""
    if not r.has_words:
        return
    kept = [k for k in r.filled_lines if kinds[k] is None]
    header = next((k for k in kept if r.header_line(k)), None)
    if header is None:
        return
    before = [k for k in kept if k < header]
    if 0 < len(before) <= 3 and not any(r.orders_like(k) for k in before):
        for k in before:
            kinds[k] = "greeting"
    after = [k for k in kept if k > header]
    last = max((k for k in after if r.orders_like(k)), default=header)
    tail = [k for k in after if k > last]
    names = tail[1:]  # under the closing word: a name, a title (no digits: no misspelt order)
    if (0 < len(tail) <= 3 and CLOSING.match(r.bare[tail[0]])
            and all(len(r.lines[k].strip()) <= 40 and not r.orders_like(k) for k in tail)
            and not any(re.search(r"\d", r.lines[k]) or len(r.lines[k].split()) > 4 for k in names)):
        for k in tail:
            kinds[k] = "sign-off"


# -- marking the server's mail --------------------------------------------------------------------


def mark_line(lang: str | None = "en") -> str:
    """The first marker line, its words in ``lang`` (the marker itself is what a reply is read by)."""
    return f"{MARK} {i18n.translate(lang, MARK_SAYS)}"


def mark_text(body: str, lang: str | None = "en") -> str:
    """A text body with the server's marker lines first and last."""
    return f"{mark_line(lang)}\n\n{body.rstrip()}\n\n{MARK_END_LINE}\n"


_MARK_STYLE = 'style="color:#888888;font-size:small"'


def mark_html(html: str, lang: str | None = "en") -> str:
    """An HTML body with the marker lines first and last (as visible text: a hidden
    element would be dropped by the mail program that quotes it)."""
    top = f'<p class="pbem-mail" {_MARK_STYLE}>{escape(mark_line(lang))}</p>'
    bottom = f'<p class="pbem-mail-end" {_MARK_STYLE}>{MARK_END_LINE}</p>'
    body = re.search(r"<body[^>]*>", html, re.I)
    html = html[:body.end()] + top + html[body.end():] if body else top + html
    end = html.lower().rfind("</body>")
    return html[:end] + bottom + html[end:] if end >= 0 else html + bottom
