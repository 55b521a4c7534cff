"""The service's common ground: the store, the clock, the games replayed from their logs,
seats, keys and deadlines as every part of the service reads them."""

from __future__ import annotations

import hashlib
import hmac
import json
import logging
import sqlite3
import traceback
import threading
from collections import OrderedDict
from datetime import datetime, timezone
from pathlib import Path

from pbem.server import deadlines, i18n
from pbem.server.i18n import N_
from pbem.lang import Text
from pbem.core.ruleset import options_in, seat_said, seat_title_in, title_in
from pbem.server.addresses import one_line
from pbem.server.doors import Doors
from pbem.server.mail.outbox import queue
from pbem.server.mapcache import MapCache
from pbem.core import verify
from pbem.core.chance import seed_text
from pbem.core.orders import fold
from pbem.core.game import Game
from pbem.games import ruleset
from pbem.paths import MAPS
from pbem.server.store import NoSuchGame, NoSuchSeat, Store


NOT_YET_SET = N_("(set when this day's reports are out)")
"""The deadline of a day being resolved: the next is set once its reports are out."""
NO_DEADLINE = {"open": N_("(none yet: the game begins when every seat is taken)"),
               "paused": N_("(none while the game is paused)"),
               "finished": N_("(none: the game is over)")}
TITLE_LIMIT = 100  # characters of a game's title, on one line
CACHE_GAMES = 300  # games kept replayed (Config.cache_games): 0.7-1.5 MB each, by game (docs/performance.md)


log = logging.getLogger("pbem.server.service")


class LockOrderError(RuntimeError):
    """The service's lock was asked for inside a store transaction that does not hold it already."""


class ServiceLock:
    """The service's lock (re-entrant), which keeps the lock order of the whole server:

        ONE LOCK ORDER: the service's lock first, then the store's (``Store.transaction``).

    A thread may take the store's lock while it holds this one (the clock's tick does, for a whole
    batch of games); so a thread inside a store transaction that asked for this one afterwards
    could wait for ever on that thread, which waits for it: a deadlock that stops the whole server
    (issue 28: a game creation that opened its transaction first, then replayed the game). Every
    operation that changes games therefore opens its transaction under this lock
    (``with self.lock, self.store.transaction():``), and the parts that take the store's lock alone
    (the SMTP receipts, the outbox sender, the web's sessions) never ask for this one inside it.

    Asking for it in the wrong order is a bug, found before anything waits: it raises
    ``LockOrderError`` when ``STRICT`` (the tests set it: tests/conftest.py), and is logged once a
    place otherwise (a running server goes on rather than fail an operation that may not meet
    the other thread at all)."""

    STRICT = False

    def __init__(self, store):
        self.store = store
        self._lock = threading.RLock()
        self._mine = threading.local()  # .depth: how many times this thread holds it
        self._logged: set[str] = set()

    def acquire(self, blocking: bool = True, timeout: float = -1) -> bool:
        depth = getattr(self._mine, "depth", 0)
        if not depth and self.store.in_transaction():
            self.out_of_order()
        if not self._lock.acquire(blocking, timeout):
            return False
        self._mine.depth = depth + 1
        return True

    def release(self) -> None:
        self._mine.depth -= 1
        self._lock.release()

    def __enter__(self):
        self.acquire()
        return self

    def __exit__(self, *exc) -> None:
        self.release()

    def held(self) -> bool:
        """Whether this thread holds the lock."""
        return getattr(self._mine, "depth", 0) > 0

    def out_of_order(self) -> None:
        where = "".join(traceback.format_stack(limit=6)[:-2])
        if self.STRICT:
            raise LockOrderError("the service's lock asked for inside a store transaction: take the service's "
                                 "lock first (pbem.server.service.base.ServiceLock)\n" + where)
        if where not in self._logged:
            self._logged.add(where)
            log.error("lock order: the service's lock asked for inside a store transaction (a deadlock if "
                      "another thread waits for the store under it):\n%s", where)


class ServiceError(i18n.Refusal):
    """An operation refused; the message is meant for the person who asked, in his language
    (``ServiceError("game %(game)s is %(status)s", game=3, status=...)``: pbem.server.i18n.Refusal)."""


class ReplayDiffers(ServiceError):
    """The refusal of a game whose replay differs from its record (ServiceBase.refuse_replay), with where:
    ``where`` is (day, recorded digest, replayed digest)."""

    def __init__(self, text, game_id: int, info: dict, where: tuple[int, str, str]):
        super().__init__(text)
        self.game_id, self.info, self.where = game_id, info, where


def parse_key(secret: str) -> bytes:
    """The key of the stored parses' checks (pbem.core.parsed.check_of), from the server's secret
    (Config.secret_key, kept in <instance>/secret_key): a key of its own, not the secret itself."""
    return hmac.new(secret.encode(), b"pbem stored parse", hashlib.sha256).digest()


def scenario_path(name: str) -> Path:
    path = Path(name)
    return path if path.is_absolute() else MAPS / path


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


class TurnSaid(Text):
    """A day's name (``Game.turn_label``) as a value of a sentence read later in its reader's language:
    "6AM (Austria's day)" in English, "6 h (tour autrichien)" in French."""

    def __init__(self, game: Game, day: int):
        super().__init__(game.turn_label(day))
        self.game, self.day = game, day

    def read_in(self, tongue) -> str:
        return self.game.turn_label(self.day, tongue.lang)


class ServiceBase:
    """What every part of the service shares (pbem.server.service.Service is all the parts)."""

    def __init__(self, store: Store, config=None, clock=None):
        self.store = store
        self.config = config
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        # the games replayed from their logs, least recently used first; a game dropped is
        # replayed again from its log when next asked for (the same game: replay is deterministic)
        self._games: OrderedDict[int, Game] = OrderedDict()
        self.cache_games = max(1, int(getattr(config, "cache_games", CACHE_GAMES) or CACHE_GAMES))
        self._verified: dict[tuple[int, str], bytes] = {}
        self._refused: dict[int, tuple[tuple, tuple]] = {}  # games whose replay differs from the record: (log tail, where)
        self.parse_key = parse_key(getattr(config, "secret_key", "") or "")
        self._scenarios: dict[str, object] = {}
        self._ends: dict[int, tuple[Game, str]] = {}  # a cached game's log's last entry as stored (ends_with)
        self.lock = ServiceLock(store)  # taken before the store's, never after (one lock order)
        self.doors = Doors()  # what the mail doors did last (pbem.server.doors): the admin page's
        self.maps = MapCache(Path(config.instance) / "mapcache" if config is not None else None)  # drawn once

    def now(self) -> datetime:
        return self.clock()

    # -- reading games ------------------------------------------------------------

    def scenario(self, game: str, name: str):
        """Scenario ``name`` (a file under maps/) of the game called ``game``."""
        if (game, name) not in self._scenarios:
            self._scenarios[(game, name)] = ruleset(game).load_scenario(scenario_path(name))
        return self._scenarios[(game, name)]

    def game(self, game_id: int) -> Game:
        """The game, replayed from its stored log (cached while the log is unchanged).

        The log is append-only (the store refuses an update or a delete), so the cached game is
        the stored log's while the log's length and last entry are its own: one row read, where
        reading and decoding the whole log (4-5 times a mail) was most of a cache hit's cost.
        A replay that read orders texts because their stored parse was missing or stale (a release
        changed the parser) stores their parses again (:meth:`store_parses`)."""
        with self.lock:
            cached = self._games.get(game_id)
            if cached is not None:  # a game is never deleted, nor its ruleset, scenario, seed or options changed
                length, last = self.store.log_end(game_id)
                if length == len(cached.log) and self.ends_with(game_id, cached, last):
                    self._games.move_to_end(game_id)
                    return cached
            info = self.store.get_game(game_id)
            log = self.store.read_log(game_id)
            tail = (len(log), log[-1] if log else None)
            refused = self._refused.get(game_id)
            if refused is not None and refused[0] == tail:  # replayed before to the same difference: not again
                raise self.refuse_replay(game_id, info, *refused[1])  # (told once: a mail lost in a rollback is queued now)
            game = Game(ruleset(info["ruleset"]), self.scenario(info["ruleset"], info["scenario"]), info["seed"],
                        log, options=info["options"], dice=info["dice"], parse_key=self.parse_key)
            differs = self.replay_differs(game_id, game)
            if differs is not None:
                self._refused[game_id] = (tail, differs)
                raise self.refuse_replay(game_id, info, *differs)
            self._refused.pop(game_id, None)
            self.store_parses(game_id, game)
            self._games[game_id] = game
            self._games.move_to_end(game_id)
            while len(self._games) > self.cache_games:
                dropped, _ = self._games.popitem(last=False)  # the least recently used
                self._ends.pop(dropped, None)
            return game

    def ends_with(self, game_id: int, game: Game, last: str | None) -> bool:
        """Whether the cached ``game``'s log ends with the stored entry whose JSON text is ``last`` (None: the
        stored log is empty). The text found equal last time for this very game is compared as text; another
        is decoded and compared with the entry, and kept if equal (a mail read the game four times, and the
        log's last entry, a stored parse in it, was decoded each time)."""
        if last is None:
            return not game.log
        kept = self._ends.get(game_id)
        if kept is not None and kept[0] is game and kept[1] == last:
            return True
        if not game.log or game.log[-1] != json.loads(last):
            return False
        self._ends[game_id] = (game, last)
        return True

    def replay_differs(self, game_id: int, game: Game) -> tuple[int, str, str] | None:
        """The first day whose replayed position is not the one recorded when it was resolved, as
        (day, recorded digest, replayed digest); None when every day replays as recorded (a day
        recorded without a digest, or not recorded yet, is not compared). A difference is a log or
        a stored parse changed behind the server's back, or a release that plays a past day
        otherwise: never to be played on silently."""
        recorded = self.store.day_digests(game_id)
        for result in game.days:
            digest = recorded.get(result.day)
            if digest:
                replayed = game.ruleset.digest(result.after)
                if replayed != digest:
                    return result.day, digest, replayed
        return None

    def refuse_replay(self, game_id: int, info: dict, day: int, recorded: str, replayed: str) -> "ReplayDiffers":
        """The refusal of a game whose replay differs from its record at ``day``; the game's moderator
        (else the site's admin) is told by mail, once for this difference, and it is audited."""
        to = info.get("moderator") or getattr(self.config, "admin_email", "")
        why = f"day {day}: recorded {recorded}, replayed {replayed}"
        detail = {"day": day, "recorded": recorded, "replayed": replayed}
        key = f"replay-differs:{game_id}:{day}:{recorded}:{replayed}"
        try:
            with self.store.transaction():
                if to and not self.store.query_one("SELECT 1 FROM outbox WHERE dedupe_key = ?", (key,)):
                    self.store.audit("server", "replay-differs", game_id, why=why, detail=detail)
                    tr = i18n.translator(self.store.language_of(to))
                    label = f"#{game_id} {one_line(info['title'], TITLE_LIMIT)}".strip()
                    queue(self.store, to, f"[pbem {game_id}] " + tr.gettext("The game cannot be loaded"),
                          tr.gettext("Replaying the log of game %(game)s gives day %(day)s another position than the "
                                     "one recorded when the day was resolved (recorded %(recorded)s, replayed "
                                     "%(replayed)s). The log, a stored reading of orders or the days' record was "
                                     "changed outside the server, or this release plays that day otherwise. The "
                                     "game is refused until it is put right: restore the database from a backup, "
                                     "or run the release that resolved the day.",
                                     game=label, day=day, recorded=recorded, replayed=replayed),
                          kind="alert", game_id=game_id, dedupe_key=key)
        except sqlite3.Error:  # a read-only or busy database: the refusal stands all the same
            pass
        said = ServiceError("game %(game)s cannot be loaded: replaying its log gives day %(day)s another position "
                            "than the one recorded; its moderator has been told", game=game_id, day=day)
        return ReplayDiffers(said.text, game_id, info, (day, recorded, replayed))

    def store_parses(self, game_id: int, game: Game) -> int:
        """Store again, in one short transaction, the parses of the orders entries ``game``'s replay
        read from their texts because their stored parse was missing or not this code's, and of the
        next day's orders without one (``Game.parses_to_store``), and give them to the game's own
        log too (``Game.keep_parses``: the cache check still finds its last entry); returns how many
        were stored. Only a cache: a write that fails leaves the entries as they were, read from
        their texts as before."""
        fresh = game.parses_to_store()
        if not fresh:
            return 0
        try:
            done = set(self.store.store_parses(game_id, [(n, game.log[n], parsed) for n, parsed in fresh]))
        except sqlite3.Error:  # the database busy or read-only: the texts are the record
            return 0
        game.keep_parses([(n, parsed) for n, parsed in fresh if n in done])
        return len(done)

    def cached_games(self) -> list[int]:
        """The ids of the games kept replayed, least recently used first."""
        with self.lock:
            return list(self._games)

    def info(self, game_id: int) -> dict:
        try:
            return self.store.get_game(game_id)
        except NoSuchGame:
            raise ServiceError("there is no game %(game)s", game=game_id) from None

    def label(self, game_id: int) -> str:
        info = self.info(game_id)
        return f"#{game_id} {one_line(info['title'], TITLE_LIMIT)}".strip()  # one line, even if stored with breaks

    def turn_label(self, game: Game, day: int | None = None, lang: str = "en") -> str:
        """The name of ``day`` (default: the next). A day with a position is named by it (its
        ``Turn.label``, in the game's words); a day beyond, by the ruleset, in ``lang``."""
        return game.turn_label(day, lang)

    def turn_said(self, game: Game, day: int | None = None) -> Text:
        """The name of ``day`` as a value of a sentence read later in its reader's language (a moderator's
        "%(turn)s was resolved now", mailed to every seat): :meth:`turn_label` in the reader's language."""
        return TurnSaid(game, game.day if day is None else day)

    def lang_of(self, game_id: int, side: str | None) -> str:
        """The language of seat ``side``'s player (his choice, kept with his address; English
        until he chooses). ``side=None``: the moderator's."""
        if side:
            email = self.seat(game_id, side)["email"]
        else:
            email = self.info(game_id).get("moderator")
        return self.store.language_of(email)

    def seat_titles(self, game_id: int, lang: str | None = None) -> dict[str, str]:
        """The game's seats, id -> title, in the order its ruleset shows them; ``lang``: each title
        as the game's own catalog writes it in that language (a game without one: as it is).
        Without ``lang``, the titles a mail's header and the press name seats by."""
        game = self.game(game_id)
        return {seat.id: seat_title_in(game.ruleset, seat, lang)
                for seat in game.ruleset.seats(game.scenario, game.options)}

    def seat_title(self, game_id: int, side: str, lang: str | None = None) -> str:
        return self.seat_titles(game_id, lang).get(side, side)

    def seat_said(self, game_id: int, side: str):
        """A seat's title as a value of a refusal (``ServiceError``) read later in its reader's language."""
        game = self.game(game_id)
        seat = next((s for s in game.ruleset.seats(game.scenario, game.options) if s.id == side), None)
        return seat_said(game.ruleset, seat) if seat is not None else side

    def rules_title(self, game_id: int, lang: str | None = None) -> str:
        """The title of the game a game plays ("Bonaparte at Marengo"), in ``lang`` as the game's catalog
        writes it ("Bonaparte à Marengo")."""
        return title_in(self.game(game_id).ruleset, lang)

    def names_rules(self, game_id: int, text: str, lang: str | None = None) -> bool:
        """Whether ``text`` (a game's label, its title chosen by a user) names the game it plays already, in
        English or in ``lang`` ("#1 Demo: Bonaparte at Marengo"): then no sentence says the game's name again."""
        said = " ".join(str(text).casefold().split())
        return any(" ".join(title.casefold().split()) in said
                   for title in {self.rules_title(game_id, "en"), self.rules_title(game_id, lang)} if title)

    def options_text(self, game_id: int, lang: str | None = None) -> list[tuple[str, str]]:
        """The game's options as (title, the words of the choice made), in ``lang``, in the ruleset's order."""
        game = self.game(game_id)
        return [(shown.title, shown.label(str(game.options.get(shown.name, shown.default))))
                for shown in options_in(game.ruleset, lang)]

    def seat_named(self, game_id: int, name: str) -> str | None:
        """The seat ``name`` names: its id or its title in any language, any case, accents optional
        (a Ukrainian writes SIDE Австрія, PRESS Франція)."""
        wanted = fold(name.strip())
        for lang in (None, *(code for code in i18n.LANGUAGES if code != i18n.DEFAULT)):
            for seat, title in self.seat_titles(game_id, lang).items():
                if wanted in (fold(seat), fold(title)):
                    return seat
        return None

    def say_in(self, game_id: int, text: Text, lang: str | None) -> str:
        """A sentence about the game's seats in ``lang``: its values that are a seat's English
        title are written as that language's (the sentence was made once, for every reader)."""
        english = self.seat_titles(game_id)
        titles = self.seat_titles(game_id, lang)
        by_title = {english[seat]: titles[seat] for seat in english}
        values = {k: by_title.get(v, v) if isinstance(v, str) else v for k, v in text.values.items()}
        return i18n.translator(lang).say(Text(text.message, values, text.plural))

    def export(self, game_id: int) -> dict:
        """A finished game as JSON for ``pbem verify``: its seed, salt, log and the days as
        recorded when they were resolved. The seed stays secret until the game is over."""
        info = self.info(game_id)
        game = self.game(game_id)
        if not game.over:
            raise ServiceError("game %(game)s is not over: its seed stays secret until it ends", game=game_id)
        recorded = [{"day": row["day"], "turn": game.turn_label(row["day"]), "seats": row["side"].split(","),
                     "digest": row["digest"],
                     "rolls": [e["data"] for e in row["events"] if e["kind"] == "roll"]}
                    for row in self.store.read_days(game_id)]
        path = scenario_path(info["scenario"])
        return verify.export_game(game, scenario=info["scenario"], scenario_sha256=file_sha256(path),
                                  salt=info.get("salt") or "", title=info["title"], game_id=game_id,
                                  recorded=recorded)

    def commitment(self, game_id: int) -> str | None:
        """The published commitment to the game's seed, its salt and its dice version (verify.commitment_of)."""
        info = self.info(game_id)
        if not info.get("salt"):
            return None
        return verify.commitment_of(info["seed"], info["salt"], info["dice"])

    def seed_shown(self, game_id: int) -> str | None:
        """The game's seed as the game page shows it once the game is over (None before: it stays secret)."""
        if not self.game(game_id).over:
            return None
        info = self.info(game_id)
        return seed_text(info["seed"], info["dice"])

    def seat(self, game_id: int, side: str) -> dict:
        try:
            return self.store.get_seat(game_id, side)
        except NoSuchSeat:
            raise ServiceError("game %(game)s has no side %(side)s", game=game_id, side=repr(side)) from None

    def deadline(self, game_id: int) -> datetime | None:
        return deadlines.parse_iso(self.info(game_id).get("deadline"))

    def deadline_for(self, game_id: int, side: str | None, when: datetime | None = None,
                     lang: str | None = None) -> str:
        """The deadline as seat ``side`` reads it: in its time zone and language (``lang``, else
        its player's), with the time left (``side=None``: the moderator, in UTC). ``when``: a
        deadline about to be set."""
        info = self.info(game_id)
        when = when or deadlines.parse_iso(info.get("deadline"))  # self.deadline(game_id), without reading it again
        lang = lang or (self.lang_of(game_id, side) if side else "en")
        if when is None:
            return i18n.translate(lang, NO_DEADLINE.get(info["status"], NOT_YET_SET))
        zone = self.seat(game_id, side)["timezone"] if side else "UTC"
        return deadlines.local_time(when, zone, now=self.now(), lang=lang)

    def deadline_line(self, game_id: int, side: str | None, lang: str | None = None) -> str:
        """"Deadline: ..." as seat ``side`` reads it (None: the moderator, in UTC) while the
        game runs or waits to begin; "" once it is over."""
        if self.info(game_id)["status"] == "finished" or self.game(game_id).over:
            return ""
        lang = lang or (self.lang_of(game_id, side) if side else "en")
        return i18n.translate(lang, "Deadline: %(deadline)s.", deadline=self.deadline_for(game_id, side, lang=lang))

    def deadline_in_zone(self, game_id: int, zone: str, lang: str = "en") -> str:
        """The deadline in time zone ``zone`` (a moderator's, or the game's for a reader not
        known), with the time left; the same words as ``deadline_for`` when there is none."""
        when = self.deadline(game_id)
        if when is None:
            return self.deadline_for(game_id, None, lang=lang)
        return deadlines.local_time(when, zone, now=self.now(), lang=lang)

    def check_key(self, game_id: int, side: str, key: str) -> bool:
        """Whether ``key`` is the seat's key.

        The store keeps only a slow scrypt hash; a key once proven is
        remembered in memory (as a fast hash) so a player's later mails do
        not pay the slow hash again. A wrong key always pays it.
        """
        token = hashlib.sha256(f"{game_id}\0{side}\0{key}".encode()).digest()
        known = self._verified.get((game_id, side))
        if known is not None and hmac.compare_digest(known, token):
            return True
        if self.store.check_key(game_id, side, str(key)):
            self._verified[(game_id, side)] = token
            return True
        return False

    def set_key(self, game_id: int, side: str, key: str) -> None:
        self.store.set_seat_key(game_id, side, key)
        self._verified.pop((game_id, side), None)
