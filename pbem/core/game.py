"""The game driver: a scenario, its options, a seed and a log, replayed into states.

The driver knows a game only through its ruleset (pbem.core.ruleset.Ruleset):
``setup`` makes the first position from the seed, ``turn`` says which seats
owe orders, ``parse_orders`` checks them, ``resolve`` plays a turn. One
resolved turn is called a *day* here (Bonaparte at Marengo's word, kept by the
log's entries); ``game.days`` holds them in order.

The log is a list of plain dicts, kept in the order they were made:

``{"kind": "orders", "day": d, "side": s, "text": t}``: seat s's orders for day d;
    the last one for a day counts, earlier ones are kept. The server adds ``"parsed"``: the
    orders the text was read into at submit, as JSON, with the parser's version
    (pbem.core.parsed, the *stored parse*); a replay believes it only when the version is this
    code's, it is intact, and no later entry changed an earlier day (an answer, orders or a
    rewind for a day before the entry's own); else it reads the text again, and the server
    writes the parse back (``parses_to_store``: a cache beside the text, the one part of an
    entry ever written again).
``{"kind": "answer", "day": d, "index": i, "answer": [...], "by": who, "why": text}``:
    the answer to the i-th decision of day d (a player's "ask me" reply or a
    moderator's ruling); the last one for (d, i) counts.
``{"kind": "resolved", "day": d}``: day d was resolved.
``{"kind": "rewind", "day": d}``: days d and later are undone (a moderator's
    ruling); they are resolved again, with the orders and answers then in the log.
``{"kind": "end", "day": d, "winner": s, "why": text}``: the game ended before
    day d outside the rules of play (a side forfeited); ``winner`` may be None.
    A later rewind to day d or earlier undoes it.

Entries may carry more keys (who sent them, when); the driver ignores them.
The log is append-only: a rewind is an entry, not a deletion. Replaying the
log from the start rebuilds every past state exactly.
"""

from __future__ import annotations

import copy
from dataclasses import dataclass, field
from typing import Callable

from .chance import DICE_PLAIN, Chance, Roll
from .decisions import Decider, Decision, DecisionRecord, Pending, never
from .events import Event
from .orders import OrdersError
from .parsed import believed, stored, stored_as
from .ruleset import words_of


@dataclass
class DayResult:
    """One resolved turn: who owed orders (``seats``), the first of their orders texts,
    the positions before and after, what happened, the decisions taken and the dice."""

    day: int
    seats: tuple[str, ...]
    orders: str
    before: object
    after: object
    events: list[Event] = field(default_factory=list)
    decisions: list[DecisionRecord] = field(default_factory=list)
    rolls: list[Roll] = field(default_factory=list)


class Game:
    """One game: replays its log on creation, then takes new entries."""

    def __init__(self, ruleset, scenario, seed: int, log: list[dict] | None = None,
                 options: dict | None = None, dice: int = DICE_PLAIN, parse_key: bytes = b""):
        """``dice``: the derivation of the game's dice from its seed (pbem.core.chance: 1 for games
        made before issue 28 and for self-play; the server makes its games with 2, a 256-bit seed).
        ``parse_key``: the key of the stored parses' checks (pbem.core.parsed.check_of), handed in
        by the server (from its secret); the engine never reads a secret itself."""
        self.ruleset = ruleset
        self.scenario = scenario
        self.seed = seed
        self.dice = dice
        self.parse_key = parse_key
        self.options = dict(options or {})
        self._seats: tuple[str, ...] | None = None
        self.chance = Chance(seed, dice=dice)
        self.log: list[dict] = []
        self.initial = ruleset.setup(scenario, self.options, self.chance)
        self.days: list[DayResult] = []
        self.pending: Pending | None = None
        self._by_day: dict[int, list[dict]] = {}  # orders and answers by day, kept up with the log
        self._ended: dict | None = None  # the "end" entry in force
        self._indexed = 0  # how many log entries the two above have seen
        self._parsed_days: dict[int, list[dict]] = {}  # orders entries with a stored parse, by day
        self._stale: set[int] = set()  # ids of those whose day's position a later entry may have changed
        self._read: dict[int, tuple] = {}  # id(orders entry) -> (entry, position, its reading): see submit
        self.texts_read: list[dict] = []  # orders entries whose text the days read, no stored parse believed
        form_of = getattr(ruleset, "orders_form", None)  # optional: the ruleset's orders as JSON
        self.orders_form = form_of(scenario) if form_of is not None else None
        for entry in log or []:
            self.log.append(dict(entry))
        self.replay()

    # -- reading -----------------------------------------------------------

    @property
    def state(self):
        return self.days[-1].after if self.days else self.initial

    @property
    def day(self) -> int:
        """Index of the next day to resolve (0 is the first side's first day)."""
        return len(self.days)

    @property
    def over(self) -> bool:
        """Played to its end by the rules, or ended before this day (a forfeit)."""
        if self.ruleset.is_over(self.scenario, self.state):
            return True
        ended = self.ended
        return ended is not None and self.day >= ended["day"]

    @property
    def ended(self) -> dict | None:
        """The log's "end" entry in force, if the game was ended outside the rules of play."""
        self._index_log()
        return self._ended

    def seats(self) -> tuple[str, ...]:
        """The ids of the game's seats, in the order the ruleset shows them (asked once: a game's
        seats are its scenario's and options', which do not change)."""
        if self._seats is None:
            self._seats = tuple(seat.id for seat in self.ruleset.seats(self.scenario, self.options))
        return self._seats

    def turn(self):
        """Who owes orders for the next day (a pbem.core.ruleset.Turn)."""
        return self.ruleset.turn(self.scenario, self.state)

    def turn_label(self, day: int | None = None, lang: str = "en") -> str:
        """The name of day ``day`` (default: the next one) in ``lang``, as the position before it
        names it (``Turn.label``; ``Turn.said`` read by the ruleset's ``tongue(lang)`` when the
        game gives both): a game whose sub-turns are days of their own (a battle's deployment,
        a bid) keeps its turn track in its position, not in the count of days. A day beyond
        the next has no position yet; the ruleset names it by its number."""
        day = self.day if day is None else day
        if 0 <= day <= self.day:
            turn = self.ruleset.turn(self.scenario, self.state_before(day))
            if lang != "en" and turn.said is not None:
                return words_of(self.ruleset, lang).say(turn.said)
            return turn.label
        return self.ruleset.turn_label(self.scenario, day, lang=lang)

    def entries_of(self, day: int) -> list[dict]:
        """The log's orders and answers for ``day``, in log order.

        The log only grows (a rewind is an entry too), so the index by day is
        brought up to date with the entries appended since the last look.
        """
        self._index_log()
        return self._by_day.get(day, [])

    def _index_log(self) -> None:
        for entry in self.log[self._indexed:]:
            kind = entry["kind"]
            if kind in ("orders", "answer", "rewind") and self._parsed_days:
                self._staled_by(entry["day"])  # it may change the days after its own
            if kind in ("orders", "answer"):
                self._by_day.setdefault(entry["day"], []).append(entry)
                if kind == "orders" and "parsed" in entry:
                    self._parsed_days.setdefault(entry["day"], []).append(entry)
            elif kind == "end":
                self._ended = entry
            elif kind == "rewind" and self._ended is not None and entry["day"] <= self._ended["day"]:
                self._ended = None
        self._indexed = len(self.log)

    def _staled_by(self, day: int) -> None:
        """An entry changing ``day`` came after the stored parses of later days: not believed
        (the position each was read against may be another now)."""
        for later in [d for d in self._parsed_days if d > day]:
            self._stale.update(id(entry) for entry in self._parsed_days.pop(later))

    def orders_entry(self, day: int, side: str) -> dict | None:
        """The orders entry that counts for ``side`` on ``day`` (the last), or None."""
        found = None
        for entry in self.entries_of(day):
            if entry["kind"] == "orders" and entry["side"] == side:
                found = entry
        return found

    def orders_text(self, day: int, side: str) -> str:
        entry = self.orders_entry(day, side)
        return entry["text"] if entry is not None else ""

    def stored_parse(self, side: str, text: str, checked=None) -> dict | None:
        """The ``parsed`` value for ``text`` as ``side``'s orders for the next day: what the
        ruleset's parser reads in it against the position now (exactly what a replay would read
        from the text), as JSON with the parser's version; None when the ruleset has no JSON
        form or the text does not parse. ``checked``: the ruleset's ``check_orders`` answer for this
        very text and position, whose reading (its optional ``day_orders``) is stored rather than the
        text parsed again (issue 35: a mail's text was parsed twice); read again only when the ruleset has
        no such reading or its codec cannot store it."""
        if self.orders_form is None:
            return None
        day_orders = getattr(self.ruleset, "day_orders", None)
        read = day_orders(checked) if checked is not None and day_orders is not None else None
        kept = stored(self.orders_form, self.day, side, text, read, self.parse_key) if read is not None else None
        if kept is not None:
            return kept
        return stored_as(self.ruleset, self.orders_form, self.scenario, self.state, self.day, side, text,
                         key=self.parse_key)

    def _stored_orders(self, entry: dict):
        """The orders stored with ``entry`` if they may be believed (pbem.core.parsed.believed and
        no later entry changed an earlier day), else None: the text is read again."""
        if self.orders_form is None or "parsed" not in entry or id(entry) in self._stale:
            return None
        return believed(self.orders_form, entry, key=self.parse_key)

    def parses_to_store(self) -> list[tuple[int, dict]]:
        """The stored parses to write again: each orders entry a resolved day read from its text
        because it had no stored parse this code believes (none, another version, damaged:
        :attr:`texts_read`), and each orders entry that counts for the next day with none, as
        (its index in the log, the ``parsed`` value submit would store: its text read against the
        position before its day). Left out: an entry after which another changed an earlier day
        (its day's position is not the one it was sent against: the rule of :meth:`_staled_by`,
        so its parse would never be believed), one that does not parse whole, one the codec
        cannot write. The log's text stays the record; the parse is a cache beside it
        (pbem.core.parsed)."""
        if self.orders_form is None:
            return []
        waiting = [entry for entry in (self.orders_entry(self.day, side) for side in self.seats())
                   if entry is not None and entry["text"] and id(entry) not in self._stale
                   and self._stored_orders(entry) is None]  # not read by a replay
        if not self.texts_read and not waiting:
            return []
        where = {id(entry): n for n, entry in enumerate(self.log)}
        changed_after, low = [0] * len(self.log), float("inf")  # the earliest day an entry after n changes
        for n in range(len(self.log) - 1, -1, -1):
            changed_after[n] = low
            if self.log[n]["kind"] in ("orders", "answer", "rewind"):
                low = min(low, self.log[n]["day"])
        out = {}
        for entry in [e for e in self.texts_read if e["day"] < self.day] + waiting:
            n, day = where.get(id(entry)), entry["day"]
            if n is None or n in out or changed_after[n] < day:
                continue
            parsed = stored_as(self.ruleset, self.orders_form, self.scenario, self.state_before(day), day,
                               entry["side"], entry["text"], key=self.parse_key)
            if parsed is not None:
                out[n] = parsed
        return sorted(out.items())

    def keep_parses(self, parses) -> None:
        """Give log entries the stored parses written for them (pairs of :meth:`parses_to_store`, as
        the server stored them): the log in memory stays the stored one, and each is counted as a
        stored parse, so a later entry changing an earlier day stops it being believed."""
        self._index_log()
        for n, parsed in parses:
            entry = self.log[n]
            if "parsed" not in entry:
                self._parsed_days.setdefault(entry["day"], []).append(entry)
            entry["parsed"] = parsed

    def answers(self, day: int) -> dict[int, tuple[str, ...]]:
        out = {}
        for entry in self.entries_of(day):
            if entry["kind"] == "answer":
                out[entry["index"]] = tuple(entry["answer"])
        return out

    def state_before(self, day: int):
        return self.days[day].before if day < len(self.days) else self.state

    def view(self, side: str | None, day: int | None = None) -> dict:
        """What seat ``side`` sees after ``day`` (default: now); a game ended by a forfeit shows
        as over, with the entry's winner and why as the view's ``winner`` and ``victory``.

        Besides what the ruleset's view holds, every view says which day comes next
        (``day``), its name (``turn_label``) and the seats that owe orders for it
        (``to_move``): what a player's program needs to know whether to answer."""
        state = self.state if day is None else self.days[day].after
        turn = self.ruleset.turn(self.scenario, state)
        out = self.ruleset.view(self.scenario, state, side)
        out.setdefault("day", self.day if day is None else day + 1)
        out["turn_label"] = turn.label
        out["to_move"] = list(turn.seats)
        ended = self.ended
        if ended is not None and (day is None or day + 1 >= ended["day"]):
            out = {**out, "over": True, "winner": ended.get("winner"), "victory": ended.get("why", "")}
        return out

    # -- writing -----------------------------------------------------------

    def check_orders(self, side: str, text: str):
        """Check ``text`` as seat ``side``'s orders for the next day, as they are sent (the ruleset's
        check_orders: every rule the position already decides); raises OrdersError."""
        return self.ruleset.check_orders(self.scenario, self.state, side, text)

    def parse_what_fits(self, state, side: str, text: str):
        """Orders recorded for a day, parsed against the position now before it.

        Orders were checked when they arrived; they can stop fitting only
        when a moderator's ruling changed an earlier day. Then the lines that
        no longer fit are left out (and told), the rest still count.
        """
        problems = []
        lines = text.split("\n")
        for _ in range(5):
            try:
                return self.ruleset.parse_orders(self.scenario, state, side, "\n".join(lines)), problems
            except OrdersError as exc:
                bad = {p.line for p in exc.problems}
                problems += [str(p) for p in exc.problems]
                if not bad or any(n < 1 or n > len(lines) for n in bad):
                    break
                lines = ["# (left out)" if i + 1 in bad else line for i, line in enumerate(lines)]
        return None, problems

    def submit(self, side: str, text: str):
        """Check and record ``side``'s orders for the next day (the last one counts). The reading the day
        would make of the text (the ruleset's optional ``day_orders`` of the check's answer) is kept for
        :meth:`resolve`, which takes it for this entry against this very position instead of reading the
        text again (issue 15: a self-play day read each text twice, at submit and at resolution)."""
        orders = self.check_orders(side, text)
        entry = {"kind": "orders", "day": self.day, "side": side, "text": text}
        self.log.append(entry)
        day_orders = getattr(self.ruleset, "day_orders", None)  # optional: the check's reading, as the day reads it
        read = day_orders(orders) if day_orders is not None else None
        if read is not None:  # handed to resolve: the same text is not read again against the same position
            self._read[id(entry)] = (entry, self.state, read)
        return orders

    def answer(self, day: int, index: int, answer, by: str = "player", why: str = "") -> None:
        """Record the answer to decision ``index`` of ``day``.

        For a past day, call :meth:`replay` afterwards to rebuild from there.
        """
        self.log.append(
            {"kind": "answer", "day": day, "index": index, "answer": list(answer), "by": by, "why": why}
        )

    def resolve(self, ask: Callable[[Decision], bool] = never, choose=None) -> DayResult:
        """Resolve the next day. Raises Pending if a decision awaits its side.

        ``choose(decision)`` lets a bot answer the decisions its orders left
        open; its answers are written to the log, so the day replays exactly.
        """
        if self.over:
            raise GameOver("the game is over")
        day = self.day
        state = self.state
        owing = self.ruleset.turn(self.scenario, state).seats
        orders = {}
        dropped: list[Event] = []
        for each in self.seats():
            entry = self.orders_entry(day, each)
            text = entry["text"] if entry is not None else ""
            if text:
                read = self._read.get(id(entry))
                if read is not None and read[0] is entry and read[1] is state:  # read at submit, against this position
                    orders[each] = read[2]
                    continue
                kept = self._stored_orders(entry)
                if kept is not None:
                    orders[each] = kept
                    continue
                if self.orders_form is not None and id(entry) not in self._stale:
                    self.texts_read.append(entry)  # missing or not this parser's: parses_to_store
                parsed, problems = self.parse_what_fits(state, each, text)
                if parsed is not None:
                    orders[each] = parsed
                for problem in problems:
                    dropped.append(Event("void", f"Not used (it no longer fits the position after a "
                                                 f"moderator's ruling): {problem}", owner=each))
        text = self.orders_text(day, owing[0]) if owing else ""
        decider = Decider(answers=self.answers(day), ask=ask, choose=choose)
        chance = self.chance.for_turn(day)
        try:
            after, events = self.ruleset.resolve(self.scenario, deep_copy(state), orders, decider, chance)
        except Pending as pending:
            self.pending = pending
            raise
        self.pending = None
        self._read.clear()  # every reading handed on was of this day's orders (submit writes for the next day)
        for record in decider.records:
            if record.source == "chosen":
                self.log.append({"kind": "answer", "day": day, "index": record.index,
                                 "answer": list(record.answer), "by": "bot"})
                record.source = "log"
        rolls = [Event("roll", f"Die for {r.purpose}: {r.value}", r.to_dict(), owner=r.seen_by)
                 for r in chance.rolls]
        result = DayResult(day, tuple(owing), text, state, after, dropped + events + rolls, decider.records,
                           list(chance.rolls))
        self.days.append(result)
        return result

    def resolved_through(self) -> int:
        """The last day the log says is resolved (-1 if none), after rewinds."""
        last = -1
        for entry in self.log:
            if entry["kind"] == "resolved":
                last = max(last, entry["day"])
            elif entry["kind"] == "rewind":
                last = min(last, entry["day"] - 1)
        return last

    def replay(self, until: int | None = None) -> None:
        """Rebuild every resolved day from the log (up to day ``until``, exclusive)."""
        self.days = []
        self.pending = None
        self.texts_read = []
        last = self.resolved_through()
        while self.day <= last and (until is None or self.day < until) and not self.over:
            self.resolve()

    def advance(self, ask: Callable[[Decision], bool] = never, choose=None) -> DayResult:
        """Resolve the next day and record it in the log."""
        result = self.resolve(ask, choose)
        self.log.append({"kind": "resolved", "day": result.day})
        return result

    def end(self, winner: str | None, why: str) -> dict:
        """End the game before its next day, outside the rules of play (a forfeit); returns the entry."""
        entry = {"kind": "end", "day": self.day, "winner": winner, "why": why}
        self.log.append(entry)
        return entry

    def rewind(self, day: int) -> None:
        """Undo day ``day`` and every later one (their orders stay in the log)."""
        self.log.append({"kind": "rewind", "day": day})
        self.replay()


def deep_copy(state):
    """``copy.deepcopy(state)``: a state that copies itself (``__deepcopy__``, as Marengo's, Triomphe's and Napoleon
    1815's do) is asked directly, with a new memo, as deepcopy would ask it -- without deepcopy's bookkeeping
    around it (its memo's keep-alive list raised and caught a KeyError at every day's copy)."""
    own = getattr(state, "__deepcopy__", None)
    return own({}) if own is not None else copy.deepcopy(state)


class GameOver(Exception):
    """The game has ended; no further day can be resolved."""


def with_stored_parses(game: Game) -> list[dict]:
    """``game``'s log with a stored parse on every orders entry of a day reached (what the server
    would have stored at submit: each text read against the position before its day); entries
    that do not parse, or of a ruleset without the JSON form, stay as they are. For benchmarks and
    tests: the server stores the parse when the orders come in (``Game.stored_parse``)."""
    if game.orders_form is None:
        return [dict(entry) for entry in game.log]
    out = []
    for entry in game.log:
        entry = dict(entry)
        if entry["kind"] == "orders" and entry["day"] <= game.day:
            parsed = stored_as(game.ruleset, game.orders_form, game.scenario, game.state_before(entry["day"]),
                               entry["day"], entry["side"], entry["text"], key=game.parse_key)
            if parsed is not None:
                entry["parsed"] = parsed
        out.append(entry)
    return out
