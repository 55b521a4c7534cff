"""Reading Napoleonic DBA's written orders (docs/dba-orders.md has the grammar in EBNF, and examples).

An orders text is the seat's header (GAME, SIDE, TURN, KEY), then dispatches and initiative orders, each a
head line followed by step lines:

    FROM Wellington AT Mont-Saint-Jean TO Bijlandt TURN 3
    MOVE TO Papelotte IN LINE THEN HOLD IT UNTIL ENEMY WITHIN 6" OF Papelotte
    THEN RETREAT TO Mont-Saint-Jean AT TURN 8

Names (places, grid squares, brigades, commanders) are found through :class:`~pbem.games.dba.names.Names` and
nothing else of the table. Every problem names its line and column, what was found and what was expected,
with "did you mean" for a misspelt word or name; :meth:`Orders.echo` prints what was read, normalised.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from pbem.core.orders import (Abort, OrderReader, OrdersError, Problem, check_size, parse_header, suggest, tokenize,
                              written_together)
from pbem.lang import say_plural

from .command import why_no_initiative
from .elements import formations_for, inches
from .names import Names
from .orders import Event, Order, Orders, Ref, Step, Target
from .words import (NOT_THE_BOOKS, CLOCK, CONDITIONS, DISTANCE, EVENT_VERBS, HEAD_FIELDS, HEAD_WORDS, NUMBER, PHRASES, UNIT_WORDS,
                    VERB_KEYS, Word, fold_word, lex, lexicon)

MAX_PROBLEMS = 100
VIEW_ID = re.compile(r"\s*E-\d+\s*", re.I)  # a kriegsspiel seat's id of an enemy element (seats.VIEW_ID, DS8)
VERBS_EXPECTED = "a verb: MOVE TO, HOLD, ATTACK, DEPLOY or RETREAT TO"
VERB_WORDS = sorted({f.split()[0] for k in VERB_KEYS for f in PHRASES[k]})
EVENT_WORDS = sorted({f.split()[0] for k in EVENT_VERBS for f in PHRASES[k]})

# Russian nouns that name the kind of a place, in their cases -> the nominative (a name is looked up without
# them, then with the nominative: «к деревне Х» finds "Х", «к мосту» finds "мост"); DO10
_KINDS = {
    "ДЕРЕВНЯ": ("ДЕРЕВНИ", "ДЕРЕВНЕ", "ДЕРЕВНЮ", "ДЕРЕВНЕЙ"), "СЕЛО": ("СЕЛА", "СЕЛУ", "СЕЛЕ", "СЕЛОМ"),
    "ФЕРМА": ("ФЕРМЫ", "ФЕРМЕ", "ФЕРМУ", "ФЕРМОЙ"), "МОСТ": ("МОСТА", "МОСТУ", "МОСТЕ", "МОСТОМ"),
    "ГОРОД": ("ГОРОДА", "ГОРОДУ", "ГОРОДЕ", "ГОРОДОМ"), "ЛЕС": ("ЛЕСА", "ЛЕСУ", "ЛЕСЕ", "ЛЕСОМ"),
    "ХОЛМ": ("ХОЛМА", "ХОЛМУ", "ХОЛМЕ", "ХОЛМОМ"), "ВЫСОТА": ("ВЫСОТЫ", "ВЫСОТЕ", "ВЫСОТУ", "ВЫСОТОЙ"),
    "РОЩА": ("РОЩИ", "РОЩЕ", "РОЩУ", "РОЩЕЙ"), "МЕЛЬНИЦА": ("МЕЛЬНИЦЫ", "МЕЛЬНИЦЕ", "МЕЛЬНИЦУ"),
    "БРОД": ("БРОДА", "БРОДУ", "БРОДЕ"), "ЦЕРКОВЬ": ("ЦЕРКВИ", "ЦЕРКОВЬЮ"), "ЗАМОК": ("ЗАМКА", "ЗАМКУ", "ЗАМКЕ"),
    "ПЕРЕКРЕСТОК": ("ПЕРЕКРЕСТКА", "ПЕРЕКРЕСТКУ", "ПЕРЕКРЕСТКЕ"), "ДОРОГА": ("ДОРОГИ", "ДОРОГЕ", "ДОРОГУ"),
    "КВАДРАТ": ("КВАДРАТА", "КВАДРАТУ", "КВАДРАТЕ"), "ТРАКТИР": ("ТРАКТИРА", "ТРАКТИРУ", "ТРАКТИРЕ"),
}
KIND_OF = {form: nom for nom, forms in _KINDS.items() for form in (nom,) + forms}
ENGLISH_KINDS = ("THE", "VILLAGE", "FARM", "BRIDGE", "TOWN", "WOOD", "WOODS", "HILL", "HEIGHTS", "MILL", "FORD",
                 "CHURCH", "CROSSROADS", "INN", "SQUARE", "CHATEAU", "CASTLE")
PREPOSITIONS = ("К", "КО", "У", "В", "ВО", "НА", "ДО", "ПРИ", "ОКОЛО", "ВОЗЛЕ", "ИЗ", "ЗА", "С", "СО",
                # French, Ukrainian, Chinese (folded: accents off)
                "A", "AU", "AUX", "DE", "DU", "DES", "VERS", "SUR", "PRES", "БІЛЯ", "З", "ІЗ", "ПОБЛИЗУ",
                "КОЛО", "ПІД", "于", "在", "距", "离")
# the room a preposition and a kind noun add before a place's name (Parser.place: a longer run of words is no place)
PREFIX_ROOM = max(map(len, PREPOSITIONS)) + max(map(len, (*KIND_OF, *ENGLISH_KINDS))) + 2
NEAR = ("К", "КО", "ДО", "У", "DE", "DU", "DES", "ВІД", "距", "离")  # prepositions that say OF after a distance
BRIGADE_NOUNS = ("БРИГАДА", "БРИГАДЫ", "БРИГАДЕ", "БРИГАДУ", "БРИГАДОЙ", "BRIGADE")
# a name typed with a Russian keyboard layout's look-alike letters (Cyrillic Х for Latin X): DO11
_LOOKALIKE = str.maketrans("АВЕКМНОРСТУХаеорсух", "ABEKMHOPCTYXaeopcyx")


@dataclass(frozen=True)
class Clock:
    """Turns as clock times, when a scenario gives them: turn ``first`` begins at ``start`` ("HH:MM") and each
    turn lasts ``minutes``. Orders may then say ``AT 14:20`` as well as ``AT TURN 6``."""

    start: str
    minutes: int
    first: int = 1

    def turn_of(self, time: str) -> int | None:
        """The turn in which ``time`` ("HH:MM") falls, or None before the first."""
        h, m = (int(p) for p in time.split(":"))
        s_h, s_m = (int(p) for p in self.start.split(":"))
        elapsed = (h * 60 + m) - (s_h * 60 + s_m)
        return None if elapsed < 0 else self.first + elapsed // self.minutes

    def time_of(self, turn: int) -> str:
        s_h, s_m = (int(p) for p in self.start.split(":"))
        total = s_h * 60 + s_m + (turn - self.first) * self.minutes
        return f"{total // 60 % 24:02d}:{total % 60:02d}"


class Reader(OrderReader):
    """Reads one seat's dispatches: ``side`` is the side writing (its brigades are friendly, the others enemy);
    ``writers`` the commander ids it writes as (None: any of its side's); ``turn`` the turn being written."""

    def __init__(self, names: Names, side: str, problems: list[Problem], turn: int | None = None,
                 writers=None, clock: Clock | None = None, enemy: dict[str, str] | None = None):
        super().__init__(problems)
        self.names, self.side, self.turn, self.clock = names, side, turn, clock
        self.enemy = {k.upper(): v for k, v in (enemy or {}).items()}  # kriegsspiel: view id -> square (DS8)
        self.writers = None if writers is None else set(writers)
        self.last_place: str | None = None  # the place IT names

    def note(self, where, message: str, found: str | None = None, expected: str = "") -> None:
        """Record a problem at a word (its text is what was found) or at a column."""
        column, text = (where, "") if isinstance(where, int) else (where.column, where.text)
        self.note_at(self.line, column, message, text if found is None else found, expected)

    # -- names ---------------------------------------------------------------------------------------------

    @staticmethod
    def _text(words: list[Word]) -> str:
        """The words as written, a full stop glued back to the word it ends (``St.``), Chinese written without
        spaces as it was (``拜兰特旅(佩尔蓬谢)``)."""
        out = ""
        for k, w in enumerate(words):
            glued = k and (w.text == "." and w.column == words[k - 1].end or written_together(words[k - 1], w))
            out += ("" if glued or not out else " ") + w.text
        return out

    def place(self, words: list[Word], what: str) -> str:
        """The place or grid square ``words`` name (by their Russian kind noun, preposition or look-alike
        letters too); fail with Names' "did you mean" if none, or at the first word after a name that is one."""
        if not words:
            self.missing(what)
        found = self.find_place(words)
        if found is not None:
            return found
        longest = self.names.longest_place() + PREFIX_ROOM
        for k in range(len(words) - 1, 0, -1):
            if words[k - 1].end - words[0].column > longest:
                continue  # longer than any place written with a preposition and a kind noun: none (and no hang)
            if self.find_place(words[:k]) is not None:
                self.fail(words[k], f"unexpected {words[k].text!r} after the place {self._text(words[:k])!r}",
                          None, "THEN, a formation (IN LINE, ...), BY ROAD, IF, UNTIL, UNLESS or AT TURN <n>")
        text = self._text(words)
        try:
            self.names.location(text)
        except ValueError as exc:
            self.fail(words[0], str(exc), text, what)
        raise AssertionError("find_location and location disagree")  # pragma: no cover

    def find_place(self, words: list[Word]) -> str | None:
        """The name of the place ``words`` name, or None."""
        text = self._text(words)
        folded = [fold_word(w.text) for w in words]
        starts = [0]
        if len(words) > 1 and folded[0] in PREPOSITIONS:
            starts.append(1)
        candidates = [text]
        for s in starts:
            rest = words[s:]
            if not rest:
                continue
            tail = self._text(rest[1:])
            first = fold_word(rest[0].text)
            candidates.append(self._text(rest))
            if first in KIND_OF or first in ENGLISH_KINDS:
                if tail:
                    candidates += [tail, f"{KIND_OF.get(first, first).lower()} {tail}"]
                else:
                    candidates += [KIND_OF.get(first, first).lower()]
        for candidate in dict.fromkeys(candidates):
            for form in (candidate, candidate.translate(_LOOKALIKE)):
                found = self.names.find_location(form)
                if found is not None:
                    return found.name
        return None

    def brigade(self, words: list[Word], friendly: bool | None, what: str) -> Ref:
        """The brigade ``words`` name; ``friendly``: must be of the writing side (True), of the enemy (False)."""
        if not words:
            self.missing(what)
        text = self._text(words)
        found = None
        for candidate in (text, self._text(words[1:]) if fold_word(words[0].text) in BRIGADE_NOUNS else ""):
            for form in (candidate, candidate.translate(_LOOKALIKE)):
                if form and found is None:
                    found = self.names.find_brigade(form)
        if found is None:
            try:
                self.names.brigade(text)
            except ValueError as exc:
                self.fail(words[0], str(exc), text, what)
        if friendly is True and found.side != self.side:
            self.fail(words[0], f"{found.name} is an enemy brigade", text, what)
        if friendly is False and found.side == self.side:
            self.fail(words[0], f"{found.name} is a brigade of your own side", text, what)
        return Ref(found.id, found.name)

    def commander(self, words: list[Word], what: str):
        """The commander (of the writing side) ``words`` name, or the commander of the brigade they name."""
        if not words:
            self.missing(what)
        text = self._text(words)
        found = None
        for form in (text, text.translate(_LOOKALIKE)):
            found = found or self.names.find_commander(form)
            if found is None:
                brigade = self.names.find_brigade(form)
                if brigade is not None and brigade.commander:
                    found = self.names.commanders.get(brigade.commander)
        if found is None:
            try:
                self.names.commander(text)
            except ValueError as exc:
                self.fail(words[0], str(exc), text, what)
        if found.side != self.side:
            self.fail(words[0], f"{found.name} is an enemy commander", text, what)
        return found

    # -- numbers and times ---------------------------------------------------------------------------------

    def time(self, word: Word) -> int:
        """The turn a TURN/ATTURN word's number or clock time means."""
        value = word.value
        if isinstance(value, int):
            return value
        if self.clock is None:
            self.fail(word, "this game counts turns, not clock times", word.text, "a turn, like AT TURN 6")
        turn = self.clock.turn_of(value)
        if turn is None:
            self.fail(word, f"{value} is before the battle begins ({self.clock.start})", word.text,
                      f"a time from {self.clock.start}")
        return turn

    def distance(self) -> int:
        """A distance in inches (``6"``, ``6 INCHES``, ``6 ДЮЙМОВ``), as tenths."""
        token = self.peek()
        m = DISTANCE.fullmatch(token.text) if token is not None and token.key is None else None
        if m is None:
            self.missing('a distance in inches, like 6"')
        self.take()
        if not m.group(2) and self.peek() is not None and self.peek().key is None \
                and fold_word(self.peek().text) in UNIT_WORDS:
            self.take()
        return inches(float(m.group(1)))

    # -- the words up to the next keyword -----------------------------------------------------------------

    def name_words(self) -> list[Word]:
        """Take the plain words from here to the next keyword; a full stop right after a word and before a plain
        word belongs to the name (``St. Amand``)."""
        out = []
        while True:
            token = self.peek()
            if token is None:
                break
            if token.key is not None:
                after = self.peek(1)
                glued = (token.text == "." and out and token.column == out[-1].end and after is not None
                         and after.key is None)
                if not glued:
                    break
            out.append(self.take())
        return out

    def at_key(self, *keys: str) -> bool:
        token = self.peek()
        return token is not None and token.key in keys

    # -- events --------------------------------------------------------------------------------------------

    def event(self) -> tuple[Event, bool]:
        """An event (docs/dba-orders.md, "Events") and whether a Russian НЕ came with it."""
        negated = False
        if self.at_key("NOT"):
            self.take()
            negated = True
        token = self.peek()
        if token is not None and token.key in ("TURN", "ATTURN"):
            self.take()
            return Event("TURN", turn=self.time(token)), negated
        if token is None:
            self.missing("an event: ENEMY ..., FRIENDLY <brigade> ..., or TURN <n>")
        if token.key == "ENEMY":
            self.take()
            side, brigade = "ENEMY", None
            words = self.name_words()
            if words:
                self.not_a_verb(words)
                brigade = self.brigade(words, False, "an enemy brigade, or REACHES, WITHIN, ATTACKS, FIRES")
        elif token.key == "FRIENDLY":
            self.take()
            side = "FRIENDLY"
            words = self.name_words()
            self.not_a_verb(words)
            brigade = self.brigade(words, True, "a friendly brigade")
        elif token.key is None:  # a brigade named alone: a friendly or an enemy one
            words = self.name_words()
            self.not_a_verb(words)
            brigade = self.brigade(words, None, "ENEMY, FRIENDLY <brigade>, a brigade, or TURN <n>")
            side = "ENEMY" if self.names.brigades[brigade.id].side != self.side else "FRIENDLY"
        else:
            self.fail(token, f"unexpected {token.text!r}: an event starts with ENEMY, FRIENDLY or TURN", None,
                      "ENEMY ..., FRIENDLY <brigade> ..., or TURN <n>")
        if self.at_key("NOT"):
            self.take()
            negated = True
        verbs = ("REACHES", "WITHIN", "ATTACKS", "FIRES") if side == "ENEMY" else ("REACHES", "ATTACKS", "RETREATS")
        verb = self.peek()
        if verb is None or verb.key not in verbs:
            self.missing(f"what the {side.lower()} does: " + ", ".join(verbs), verbs if verb is None or
                         verb.key is None else ())
        self.take()
        if verb.key == "REACHES":
            place = self.place(self.name_words(), "the place reached")
            return Event(f"{side} REACHES", brigade, place), negated
        if verb.key == "WITHIN":
            distance = self.distance()
            place = None
            after = self.peek()
            if self.at_key("OF") or (after is not None and after.key is None and fold_word(after.text) in NEAR):
                self.take()  # OF, or a Russian preposition: «ближе 6" к ферме», «в пределах 6" до моста»
                place = self.place(self.name_words(), "a place after OF")
            return Event("ENEMY WITHIN", brigade, place, distance), negated
        return Event(f"{side} {verb.key}", brigade), negated

    def not_a_verb(self, words: list[Word]) -> None:
        """Fail with "did you mean" when the words a brigade's name should be are a misspelt event verb."""
        text = self._text(words)
        if words and self.names.find_brigade(text) is None and self.names.find_brigade(
                text.translate(_LOOKALIKE)) is None:
            hint = suggest(words[0].text, EVENT_WORDS)
            if hint:
                self.fail(words[0], f"unexpected {words[0].text!r}{hint}", None,
                          "REACHES, WITHIN, ATTACKS, FIRES or RETREATS")

    # -- steps ---------------------------------------------------------------------------------------------

    def step(self) -> Step:
        """One step: ``[IF event] verb object options {condition}``; the next token is THEN or the end."""
        when = until = unless = None
        at = None
        if self.at_key("IF", "UNLESS"):
            word = self.take()
            event, negated = self.event()
            if word.key == "UNLESS" or negated:
                if word.key == "UNLESS" and negated:
                    self.fail(word, "UNLESS with НЕ: the event is negated twice", word.text, "ЕСЛИ НЕ or UNLESS once")
                unless = event
            else:
                when = event
            if self.at_key("THEN") and self.peek(1) is not None and self.peek(1).key in VERB_KEYS:
                self.take()  # IF event THEN verb ...: the THEN belongs to the IF
        verb = self.peek()
        if verb is None or verb.key not in VERB_KEYS:
            if verb is None:
                self.missing(VERBS_EXPECTED)
            self.fail(verb, f"{verb.text!r} is not a verb of an order{suggest(verb.text, VERB_WORDS)}", None,
                      VERBS_EXPECTED)
        self.take()
        kind = verb.key
        place = target = supporting = None
        formation = None
        road = False
        if kind in ("MOVE", "RETREAT"):
            place = self.place_or_it(required=True)
        elif kind == "HOLD":
            place = self.place_or_it(required=False)
        elif kind == "ATTACK":
            target = self.target()
        while self.peek() is not None and not self.at_key("THEN"):
            token = self.peek()
            key = token.key or ""
            if key.startswith("FORM:"):
                self.take()
                if formation is not None:
                    self.fail(token, "a second formation in one step", None, "one formation a step")
                formation = key[5:]
            elif key == "BYROAD" and kind in ("MOVE", "RETREAT"):
                self.take()
                road = True
            elif key == "AT" and kind == "DEPLOY" and place is None:
                self.take()
                place = self.place_or_it(required=True)
            elif key == "SUPPORTING" and kind == "DEPLOY" and supporting is None:
                self.take()
                supporting = self.brigade(self.name_words(), True, "a friendly brigade to support")
            elif token.key is None and kind == "DEPLOY" and supporting is None and place is None:
                words = self.name_words()  # «Поддерживать <бригаду>», or a place with AT left out
                if self.names.find_brigade(self._text(words)) is not None or \
                        fold_word(words[0].text) in BRIGADE_NOUNS:
                    supporting = self.brigade(words, True, "a friendly brigade to support")
                else:
                    place = self.last_place = self.place(words, "AT <place>, SUPPORTING <brigade> or a formation")
            elif key in CONDITIONS:
                self.take()
                event, negated = self.event()
                if key == "IF" and not negated:
                    if when is not None:
                        self.fail(token, "a second IF in one step", None, "one IF a step")
                    when = event
                elif key == "UNLESS" or key == "IF":
                    if key == "UNLESS" and negated:
                        self.fail(token, "UNLESS with НЕ: the event is negated twice", None, "ЕСЛИ НЕ or UNLESS once")
                    if unless is not None:
                        self.fail(token, "a second UNLESS in one step", None, "one UNLESS a step")
                    unless = event
                else:  # UNTIL, with or without the Russian «пока ... не» (DO9)
                    if until is not None:
                        self.fail(token, "a second UNTIL in one step", None, "one UNTIL a step")
                    until = event
            elif key == "ATTURN":
                self.take()
                if at is not None:
                    self.fail(token, "a second AT in one step", None, "one AT TURN a step")
                at = self.time(token)
            else:
                self.fail(token, f"unexpected {token.text!r}", None, self.options_expected(kind))
        return Step(kind, place, target, supporting, formation, road, when, until, unless, at)

    @staticmethod
    def options_expected(kind: str) -> str:
        more = {"MOVE": ", BY ROAD", "RETREAT": ", BY ROAD", "DEPLOY": ", AT <place>, SUPPORTING <brigade>"}
        return f"THEN, a formation (IN LINE, IN COLUMN, ...){more.get(kind, '')}, IF, UNTIL, UNLESS or AT TURN <n>"

    def place_or_it(self, required: bool) -> str | None:
        if self.at_key("IT"):
            token = self.take()
            if self.last_place is None:
                self.fail(token, f"{token.text!r} names no place: no step before this one names one", None,
                          "a place or grid square")
            return self.last_place
        words = self.name_words()
        if not words:
            if required:
                self.missing("a place or grid square (a named place, or like D4)")
            return None
        self.last_place = self.place(words, "a place or grid square")
        return self.last_place

    def target(self) -> Target:
        """The ENEMY UNIT of an ATTACK: NEAREST ENEMY, ENEMY [AT] <place>, an enemy brigade, or a place."""
        token = self.peek()
        if token is None:
            self.missing("an enemy unit: NEAREST ENEMY, ENEMY AT <place>, an enemy brigade, or a place")
        if token.key == "NEAREST":
            self.take()
            return Target()
        if token.key == "ENEMY":
            self.take()
            if self.at_key("AT"):
                self.take()
                self.last_place = self.place(self.name_words(), "the place the enemy holds")
                return Target(place=self.last_place)
            words = self.name_words()
            if not words:
                return Target()
            return self._brigade_or_place(words)
        words = self.name_words()
        if not words:
            self.missing("an enemy unit: NEAREST ENEMY, ENEMY AT <place>, an enemy brigade, or a place")
        return self._brigade_or_place(words)

    def _brigade_or_place(self, words: list[Word]) -> Target:
        text = self._text(words)
        if VIEW_ID.fullmatch(text):  # kriegsspiel: an enemy element by the seat's id for it (DS8)
            square = self.enemy.get(text.upper())
            if square is None:
                self.fail(words[0], f"{text} is no enemy element your troops have seen or been told of", text,
                          "an enemy element by its id in your report, an enemy brigade, or a place")
            return Target(place=square)
        brigade = self.names.find_brigade(text)
        if brigade is not None and brigade.side != self.side:
            return Target(brigade=Ref(brigade.id, brigade.name))
        if brigade is not None:
            self.fail(words[0], f"{brigade.name} is a brigade of your own side", text, "an enemy unit")
        self.last_place = self.place(words, "an enemy brigade or a place the enemy holds")
        return Target(place=self.last_place)

    def steps(self, line: int, words: list[Word]) -> list[tuple[int, Step]]:
        """(column, step) of the steps of one line (THEN, AND, a full stop or ``;`` between them)."""
        self.start(line, words)
        out = []
        if self.at_key("THEN"):
            self.take()  # a line may start with THEN
        while self.peek() is not None:
            column = self.peek().column
            out.append((column, self.step()))
            while self.at_key("THEN"):
                self.take()
        return out


def _head_fields(reader: Reader, words, first) -> dict:
    fields: dict[str, tuple] = {}
    current = None
    for token in words:
        name = HEAD_FIELDS.get(fold_word(token.text))
        if name is not None and name in fields and current is not None and not token.text.isupper():
            name = None  # a field's word written small inside a name: «Colline du Moulin à vent», «bois de Bossu»
        if name is not None:
            if name in fields:
                reader.fail(token, f"{token.word} is given twice in the head line", None, "each field once")
            fields[name] = (token, [])
            current = name
            continue
        if current is None:
            reader.fail(token, f"unexpected {token.text!r}", None, "FROM <commander>")
        fields[current][1].append(token)
    for name, (token, value) in fields.items():
        if not value:
            reader.fail(token.end, f"{token.text} has no value", "", f"a value after {token.text}")
    return fields


def _as_words(tokens) -> list[Word]:
    return [Word(t.text, t.column, t.end, fold_word(t.text)) for t in tokens]


class Block:
    """A dispatch or initiative order being read: its head and its steps so far."""

    def __init__(self, line: int, column: int, sender, recipient, sent, position, initiative: bool):
        self.line, self.column = line, column
        self.sender, self.recipient, self.sent, self.position = sender, recipient, sent, position
        self.initiative = initiative
        self.steps: list[tuple[int, int, Step]] = []  # (line, column, step)
        self.bad = False
        self.stepped = False  # a step line was read, even one with a problem


def under(names: Names, commander, superior) -> bool:
    """Is ``commander`` under ``superior`` in the chain of command?"""
    seen = set()
    while commander.superior and commander.superior not in seen:
        seen.add(commander.superior)
        if commander.superior == superior.id:
            return True
        commander = names.commanders.get(commander.superior)
        if commander is None:
            return False
    return False


def read_head(reader: Reader, line: int, tokens) -> Block | None:
    """A dispatch's head line (FROM ... AT ... TO ... TURN ...) or an initiative's (INITIATIVE <commander>)."""
    words = _as_words(tokens)
    reader.start(line, words)
    first = words[0]
    kind = HEAD_WORDS[fold_word(first.text)]
    if kind == "INITIATIVE":
        reader.take()
        rest = reader.tokens[reader.i:]
        turn_at = next((k for k, w in enumerate(rest) if HEAD_FIELDS.get(fold_word(w.text)) == "TURN"), len(rest))
        commander = reader.commander(rest[:turn_at], "the commander taking the initiative")
        sent = _sent(reader, rest[turn_at:turn_at + 2] if turn_at < len(rest) else [], rest[turn_at + 2:])
        if reader.writers is not None and commander.id not in reader.writers:
            reader.fail(rest[0], f"you do not write for {commander.name}", None,
                        "the commander of your own seat")
        if commander.brigade is None:
            reader.fail(rest[0], f"{commander.name} commands no brigade: the initiative test is a brigade "
                        "commander's", None, "a brigade's commander")
        why = why_no_initiative(commander)
        if why is not None:
            reader.fail(first, why, None, "a commander who has not taken his test")
        ref = Ref(commander.id, commander.name)
        return Block(line, first.column, ref, ref, sent, None, True)
    fields = _head_fields(reader, words, first)
    if "FROM" not in fields:
        reader.fail(first, "a dispatch names who sends it", None, "FROM <commander> ... TO <commander>")
    if "TO" not in fields:
        reader.fail(reader.end_column(), "a dispatch names who receives it", "", "TO <commander>")
    sender = reader.commander(fields["FROM"][1], "the commander sending the dispatch")
    recipient = reader.commander(fields["TO"][1], "the commander it is for")
    position = reader.place(fields["AT"][1], "where the sender writes it") if "AT" in fields else None
    sent = _sent(reader, [fields["TURN"][0]] + fields["TURN"][1][:1], fields["TURN"][1][1:]) \
        if "TURN" in fields else None
    if reader.writers is not None and sender.id not in reader.writers:
        reader.fail(fields["FROM"][1][0], f"you do not write for {sender.name}", None,
                    "the commander of your own seat")
    for who, field in ((sender, "FROM"), (recipient, "TO")):
        if not who.alive:
            reader.fail(fields[field][1][0], f"{who.name} has been killed or taken", None,
                        "a commander still on the table")
    if recipient.id == sender.id:
        reader.fail(fields["TO"][1][0], f"{sender.name} cannot send a dispatch to himself", None,
                    "another commander of your side")
    if not under(reader.names, recipient, sender):
        reader.fail(fields["TO"][1][0], f"{recipient.name} is not under {sender.name}'s command: an order is "
                    "written by a superior officer («высший офицер должен написать этот приказ»)", None,
                    f"a commander under {sender.name}")
    return Block(line, first.column, Ref(sender.id, sender.name), Ref(recipient.id, recipient.name), sent,
                 position, False)


def _sent(reader: Reader, pair, extra) -> int | None:
    """The turn a head line dates its order (TURN 3, ХОД 3, TIME 14:20); it must be the turn being written."""
    if not pair:
        return None
    if extra:
        reader.fail(extra[0], f"unexpected {extra[0].text!r}", None, "the end of the head line")
    if len(pair) < 2:
        reader.fail(pair[0].end, f"{pair[0].text} has no value", "", "a turn number")
    token = pair[1]
    m, c = NUMBER.fullmatch(token.text), CLOCK.fullmatch(token.text)
    if m:
        sent = int(m.group(1))
    elif c:
        sent = reader.time(Word(token.text, token.column, token.end, token.word, "TURN",
                                f"{int(c.group(1)):02d}:{c.group(2)}"))
    else:
        reader.fail(token, f"{token.text!r} is not a turn", None, "a turn number (or a time, like 14:20)")
    if reader.turn is not None and sent != reader.turn:
        reader.fail(token, f"the dispatch is dated turn {sent}, but this is turn {reader.turn}", None,
                    f"TURN {reader.turn} (or no date: the server dates it)")
    return sent


def finish(reader: Reader, block: Block, problems: list[Problem], names: Names) -> Order | None:
    """The order a block holds, once its lines are read; None (with its problems noted) if it is not good."""
    if not block.steps and not block.stepped:
        problems.append(Problem(block.line, block.column, "the order has no step", "",
                                "a step on the next lines: " + VERBS_EXPECTED))
        return None
    now = block.sent if block.sent is not None else reader.turn
    last_at = None
    ok = True
    brigade = names.brigade_of(block.recipient.id) if block.recipient is not None else None
    for line, column, step in block.steps:
        for turn, what in ((step.at, "AT TURN"), (step.when.turn if step.when else None, "IF TURN"),
                           (step.until.turn if step.until else None, "UNTIL TURN"),
                           (step.unless.turn if step.unless else None, "UNLESS TURN")):
            if turn is not None and now is not None and turn < now:
                problems.append(Problem(line, column, f"{what} {turn} has passed: this is turn {now}", "",
                                        f"a turn from {now} on"))
                ok = False
        if step.at is not None:
            if last_at is not None and step.at < last_at:
                problems.append(Problem(line, column, f"AT TURN {step.at} comes after a step AT TURN {last_at}", "",
                                        "steps in the order of their times"))
                ok = False
            last_at = step.at
        if step.formation and brigade is not None:
            able = [e for e in brigade.elements if names.troop_of(e) is not None  # as formed, the gone too
                    and step.formation in formations_for(names.troop_of(e))]
            if brigade.elements and not able:
                problems.append(Problem(line, column, f"no element of {brigade.name} can form {step.formation}", "",
                                        "a formation its troops take"))
                ok = False
        if step.supporting is not None and brigade is not None and step.supporting.id == brigade.id:
            problems.append(Problem(line, column, f"{brigade.name} cannot support itself", "", "another brigade"))
            ok = False
    if not ok or block.bad or not block.steps:
        return None
    return Order(block.sender, block.recipient, tuple(s for _, _, s in block.steps), block.sent, block.position,
                 block.initiative, block.line)


def parse_orders(text: str, names: Names, side: str, turn: int | None = None, writers=None,
                 clock: Clock | None = None, enemy: dict[str, str] | None = None) -> Orders:
    """``side``'s orders text, read. ``turn``: the turn being written (a dispatch's date must be it, and no
    condition may name a turn already past); ``writers``: the commander ids the seat writes as (None: any of
    its side's); ``enemy``: a kriegsspiel seat's ids of the enemy elements it knows of, each with the grid square
    where it was last seen (ATTACK E-7 is ATTACK ENEMY AT that square, DS8). Raises OrdersError listing every
    problem."""
    text = text if isinstance(text, str) else str(text)
    too_long = check_size(text)
    if too_long:
        raise OrdersError([too_long])
    problems: list[Problem] = []
    words = lexicon(names)
    header, body = parse_header(text, problems, lexicon=words)
    reader = Reader(names, side, problems, turn, writers, clock, enemy)
    orders = Orders(header=header)
    block: Block | None = None

    def close():
        if block is not None:
            order = finish(reader, block, problems, names)
            if order is not None:
                (orders.initiatives if order.initiative else orders.dispatches).append(order)

    for number, line in body:
        tokens = [t for segment in tokenize(line, words) for t in segment]
        if not tokens:
            continue
        head = HEAD_WORDS.get(fold_word(tokens[0].text))
        if head == "FINAL":
            if len(tokens) > 1:
                problems.append(Problem(number, tokens[1].column, f"unexpected {tokens[1].text!r}", tokens[1].text,
                                        "nothing after FINAL"))
            orders.final = True
            continue
        if head is not None:
            close()
            block = None
            reader.last_place = None
            try:
                block = read_head(reader, number, tokens)
            except Abort:
                block = Block(number, 1, None, None, None, None, False)
                block.bad = True
            continue
        if block is None:
            first = tokens[0]
            problems.append(Problem(number, first.column, "a step before any dispatch's head line", first.text,
                                    "FROM <commander> [AT <place>] TO <commander> [TURN <n>], or INITIATIVE "
                                    "<commander>, on the line before the steps"))
            continue
        stepwords = lex(line, words)
        foreign = [w for w in stepwords if w.key and " ".join(w.text.upper().split()) in NOT_THE_BOOKS]
        if foreign:
            w = foreign[0]
            book = NOT_THE_BOOKS[" ".join(w.text.upper().split())]
            problems.append(Problem(number, w.column, f"{w.text!r} is not a word of the rule book's orders (did you "
                                    f"mean {book}?)", w.text, f"the book's word {book}"))
            block.bad = block.stepped = True
            continue
        try:
            steps = reader.steps(number, stepwords)
        except Abort:
            block.bad = block.stepped = True
            continue
        block.steps += [(number, column, s) for column, s in steps]
    close()
    if problems:
        problems.sort(key=lambda p: (p.line, p.column))
        if len(problems) > MAX_PROBLEMS:
            rest = len(problems) - MAX_PROBLEMS
            said = say_plural("%(num)s more problem not listed", "%(num)s more problems not listed", rest)
            problems[:] = problems[:MAX_PROBLEMS] + [Problem(problems[MAX_PROBLEMS].line, 1, str(said), said=said)]
        raise OrdersError(problems)
    return orders


def parse_steps(text: str, names: Names, side: str, turn: int | None = None,
                clock: Clock | None = None) -> tuple[Step, ...]:
    """The steps of an order body alone (no head line): for a bot, a test, or a quick check."""
    problems: list[Problem] = []
    reader = Reader(names, side, problems, turn, None, clock)
    steps: list[Step] = []
    known = lexicon(names)
    for number, line in enumerate(text.splitlines(), 1):
        words = lex(line, known)
        if not words:
            continue
        try:
            steps += [s for _, s in reader.steps(number, words)]
        except Abort:
            continue
    if not steps and not problems:
        problems.append(Problem(1, 1, "the order has no step", "", VERBS_EXPECTED))
    if problems:
        raise OrdersError(problems)
    return tuple(steps)
