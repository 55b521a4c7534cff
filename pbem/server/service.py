"""The service layer: every operation of the server, done once.

The web pages, the JSON API, the mail handler, the scheduler and the command
line all call these methods; none of them touches the store or the engine
directly. A method changes the database in one transaction, so a crash leaves
all of an operation or none of it.
"""

from __future__ import annotations

import hashlib
import hmac
import html
import json
import re
import secrets
import threading
from dataclasses import dataclass, field
from datetime import datetime, timedelta, timezone
from pathlib import Path

from pbem.server import deadlines
from pbem.core.decisions import Decision, Pending, never
from pbem.core import verify
from pbem.core.game import Game
from pbem.core.orders import OrdersError, Problem
from pbem.games import UnknownGame, ruleset
from pbem.server.mail.outbox import queue
from pbem.paths import MAPS
from pbem.server.store import NoSuchGame, NoSuchSeat, Store, new_key


class ServiceError(ValueError):
    """An operation refused; the message is meant for the person who asked."""


@dataclass
class Submission:
    ok: bool
    game_id: int
    side: str
    day: int = 0
    turn: str = ""
    echo: str = ""
    problems: list[Problem] = field(default_factory=list)
    final: bool = False
    standing_only: bool = False
    seat_title: str = ""

    def message(self) -> str:
        if self.ok:
            what = "Standing orders" if self.standing_only else "Orders"
            lines = [f"{what} accepted for game {self.game_id}, {self.seat_title or self.side}, "
                     f"{self.turn}. They replace any you sent before for this day.", ""]
            lines += [f"  {line}" for line in (self.echo or "(no orders: standing orders still apply)").splitlines()]
            if self.final:
                lines += ["", "You marked them FINAL: the day may be resolved before the deadline."]
            return "\n".join(lines)
        lines = [f"Your orders for game {self.game_id} were NOT accepted. Nothing was changed; "
                 f"correct these and send them again:", ""]
        lines += [f"  - {p}" for p in self.problems]
        return "\n".join(lines)


KEY_WORD = re.compile(r"(?im)^(\s*(?:(?:GAME|SIDE|TURN)\b.*?)?\bKEY\s+)(\S+)")


def redact_key(text: str) -> str:
    """The orders text with the header's secret key replaced, for storing and showing."""
    return KEY_WORD.sub(lambda m: m.group(1) + "***", text, count=1)


def scenario_path(name: str) -> Path:
    path = Path(name)
    return path if path.is_absolute() else MAPS / path


class Service:
    def __init__(self, store: Store, config=None, clock=None):
        self.store = store
        self.config = config
        self.clock = clock or (lambda: datetime.now(timezone.utc))
        self._games: dict[int, Game] = {}
        self._verified: dict[tuple[int, str], bytes] = {}
        self._scenarios: dict[str, object] = {}
        self.lock = threading.RLock()

    def now(self) -> datetime:
        return self.clock()

    # -- reading games ------------------------------------------------------------

    def scenario(self, game: str, name: str):
        """Scenario ``name`` (a file under maps/) of the game called ``game``."""
        if (game, name) not in self._scenarios:
            self._scenarios[(game, name)] = ruleset(game).load_scenario(scenario_path(name))
        return self._scenarios[(game, name)]

    def game(self, game_id: int) -> Game:
        """The game, replayed from its stored log (cached while the log is unchanged)."""
        with self.lock:
            info = self.store.get_game(game_id)
            log = self.store.read_log(game_id)
            cached = self._games.get(game_id)
            if cached is not None and cached.log == log:
                return cached
            game = Game(ruleset(info["ruleset"]), self.scenario(info["ruleset"], info["scenario"]), info["seed"],
                        log, options=info["options"])
            self._games[game_id] = game
            return game

    def info(self, game_id: int) -> dict:
        try:
            return self.store.get_game(game_id)
        except NoSuchGame:
            raise ServiceError(f"there is no game {game_id}") from None

    def label(self, game_id: int) -> str:
        info = self.info(game_id)
        return f"#{game_id} {info['title']}".strip()

    def turn_label(self, game: Game, day: int | None = None) -> str:
        return game.turn_label(day)

    def seat_titles(self, game_id: int) -> dict[str, str]:
        """The game's seats, id -> title, in the order its ruleset shows them."""
        game = self.game(game_id)
        return {seat.id: seat.title for seat in game.ruleset.seats(game.scenario, game.options)}

    def seat_title(self, game_id: int, side: str) -> str:
        return self.seat_titles(game_id).get(side, side)

    def export(self, game_id: int) -> dict:
        """A finished game as JSON for ``pbem verify``: its seed, salt, log and the days as
        recorded when they were resolved. The seed stays secret until the game is over."""
        info = self.info(game_id)
        game = self.game(game_id)
        if not game.over:
            raise ServiceError(f"game {game_id} is not over: its seed stays secret until it ends")
        recorded = [{"day": row["day"], "turn": game.turn_label(row["day"]), "seats": row["side"].split(","),
                     "digest": row["digest"],
                     "rolls": [e["data"] for e in row["events"] if e["kind"] == "roll"]}
                    for row in self.store.read_days(game_id)]
        path = scenario_path(info["scenario"])
        return verify.export_game(game, scenario=info["scenario"], scenario_sha256=file_sha256(path),
                                  salt=info.get("salt") or "", title=info["title"], game_id=game_id,
                                  recorded=recorded)

    def commitment(self, game_id: int) -> str | None:
        """The published commitment to the game's seed: SHA-256 of "seed:salt", in hex."""
        info = self.info(game_id)
        if not info.get("salt"):
            return None
        return verify.commitment_of(info["seed"], info["salt"])

    def seat(self, game_id: int, side: str) -> dict:
        try:
            return self.store.get_seat(game_id, side)
        except NoSuchSeat:
            raise ServiceError(f"game {game_id} has no side {side!r}") from None

    def deadline(self, game_id: int) -> datetime | None:
        return deadlines.parse_iso(self.info(game_id).get("deadline"))

    def deadline_for(self, game_id: int, side: str) -> str:
        when = self.deadline(game_id)
        if when is None:
            return "(no deadline: the game is not running)"
        return deadlines.local_time(when, self.seat(game_id, side)["timezone"])

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

    # -- creating and joining games --------------------------------------------------

    def create_game(self, title: str, seats: dict[str, str | None], scenario: str | None = None,
                    seed: int | None = None, settings: dict | None = None, moderator: str | None = None,
                    who: str = "system", timezones: dict | None = None, game: str = "marengo",
                    options: dict | None = None) -> tuple[int, dict[str, str]]:
        """Create a game of the ruleset called ``game``; returns its id and each seat's key
        (shown once, mailed once). ``scenario`` is a scenario file under maps/ (default: the
        game's first), ``options`` the ruleset's options (default: each option's default)."""
        try:
            rules = ruleset(game)
            scenario = scenario or next(iter(rules.scenarios().values())).name
            options = game_options(rules, options)
            settings = deadlines.settings_with_defaults(settings)
            loaded = self.scenario(game, scenario)
        except (deadlines.SettingsError, UnknownGame, ValueError) as exc:
            raise ServiceError(str(exc).strip("'\"")) from None
        seed = secrets.randbelow(2**31) if seed is None else seed
        keys = {}
        seat_ids = [seat.id for seat in rules.seats(loaded, options)]
        unknown = set(seats or {}) - set(seat_ids)
        if unknown:
            raise ServiceError(f"{rules.title} has no seat {', '.join(sorted(unknown))} (seats: {', '.join(seat_ids)})")
        with self.store.transaction():
            game_id = self.store.create_game(game, scenario, seed, title, settings, options=options,
                                             salt=secrets.token_hex(16))
            for side in seat_ids:
                email = (seats or {}).get(side)
                self.store.add_seat(game_id, side, email=email, timezone=(timezones or {}).get(side, "UTC"))
                keys[side] = new_key()
                self.set_key(game_id, side, keys[side])
            if moderator:
                self.store.set_moderator(game_id, moderator)
            self.store.audit(who, "create", game_id, detail={"title": title, "game": game, "scenario": scenario,
                                                             "options": options})
            for side, email in (seats or {}).items():
                if email:
                    self.welcome(game_id, side, email, keys[side])
            if all((seats or {}).get(side) for side in seat_ids):
                self.start(game_id)
        return game_id, keys

    def join(self, game_id: int, side: str, email: str, timezone: str = "UTC") -> str:
        """Take an empty seat; returns its new key (also mailed)."""
        with self.store.transaction():
            seat = self.seat(game_id, side)
            if seat["email"]:
                raise ServiceError(f"{self.seat_title(game_id, side)} in game {game_id} is taken")
            self.store.update_seat(game_id, side, email=email, timezone=timezone)
            key = new_key()
            self.set_key(game_id, side, key)
            self.store.audit(email, "join", game_id, detail={"side": side})
            self.welcome(game_id, side, email, key)
            if all(s["email"] for s in self.store.seats(game_id)) and self.info(game_id)["status"] == "open":
                self.start(game_id)
        return key

    def start(self, game_id: int) -> None:
        self.store.update_game(game_id, status="running")
        self.set_next_deadline(game_id)

    def set_next_deadline(self, game_id: int) -> None:
        info = self.info(game_id)
        self.set_deadline(game_id, deadlines.next_deadline(info["settings"], self.now()), info["settings"])

    def set_deadline(self, game_id: int, when: datetime, settings: dict | None = None) -> None:
        """Set the deadline, and when the clock must first look at the game (its first reminder)."""
        settings = self.info(game_id)["settings"] if settings is None else settings
        first = min([when] + [t for _, t in deadlines.reminder_times(settings, when)])
        self.store.set_clock(game_id, deadline=deadlines.iso(when), next_check=deadlines.iso(first))

    def opening_template(self, game_id: int, side: str) -> str:
        """The orders template of a seat before any day has been resolved."""
        game = self.game(game_id)
        return game.ruleset.orders_template(game, side, deadline=self.deadline_for(game_id, side),
                                           game_label=self.label(game_id), game_id=str(game_id))

    def welcome(self, game_id: int, side: str, email: str, key: str) -> None:
        game = self.game(game_id)
        body = "\n".join([
            f"Welcome to game {self.label(game_id)} of {game.ruleset.title}: you play "
            f"{self.seat_title(game_id, side)}.",
            "",
            f"Your secret key for this seat is: {key}",
            "Keep it: every orders mail must carry it in its first line. It is not stored by the",
            "server (only a hash of it is), so it cannot be sent again; a moderator can give you a",
            "new one, or send KEY in a mail with your current key to get a new one.",
            "",
            *commitment_lines(self.commitment(game_id)),
            "Send your orders by replying to this mail, or on the web page of the game.",
            "A template for your first orders:",
            "",
            self.opening_template(game_id, side),
        ])
        queue(self.store, email, f"[pbem {game_id}] Welcome: you play {self.seat_title(game_id, side)}", body,
              attachments=[self.view_attachment(game, side)],
              kind="welcome", game_id=game_id, dedupe_key=f"welcome:{game_id}:{side}:{key[:6]}")

    @staticmethod
    def view_attachment(game: Game, side: str, day: int | None = None) -> tuple:
        """The side's view as JSON, for mail clients and scripts: what its map shows."""
        data = json.dumps(game.view(side, day), indent=1, sort_keys=True).encode()
        return ("view.json", "application/json", data, None)

    # -- orders --------------------------------------------------------------------

    def check_orders(self, game_id: int, side: str, text: str) -> tuple[Submission, object]:
        """Check a side's orders for the coming day without recording them.

        Returns the answer the player gets (the same words by mail and on the
        web) and the parsed orders (None when refused).
        """
        info = self.info(game_id)
        game = self.game(game_id)
        result = Submission(False, game_id, side, game.day, self.turn_label(game),
                            seat_title=self.seat_title(game_id, side))
        if info["status"] == "finished" or game.over:
            result.problems = [Problem(1, 1, f"game {game_id} is over; it takes no more orders")]
            return result, None
        if side not in game.seats():
            result.problems = [Problem(1, 1, f"no seat called {side!r}")]
            return result, None
        try:
            orders = game.check_orders(side, text)
        except OrdersError as exc:
            result.problems = exc.problems
            return result, None
        if orders.header.game is not None and str(orders.header.game).lstrip("#") != str(game_id):
            result.problems = [Problem(orders.header.line or 1, 1,
                                       f"these orders name game {orders.header.game}, not {game_id}")]
            return result, None
        result.ok = True
        result.echo = orders.echo()
        result.final = orders.final
        result.standing_only = side not in game.turn().seats
        return result, orders

    def submit(self, game_id: int, side: str, text: str, source: str = "web", who: str = "") -> Submission:
        """Check a side's orders for the coming day and, if they are good, record them.

        The last accepted orders of a side for a day count; all are kept.
        """
        with self.lock:
            result, orders = self.check_orders(game_id, side, text)
            if not result.ok:
                return result
            game = self.game(game_id)
            entry = {"kind": "orders", "day": game.day, "side": side, "text": redact_key(text), "source": source,
                     "by": who, "at": deadlines.iso(self.now())}
            with self.store.transaction():
                self.store.append_log(game_id, entry)
                if orders.final and side in game.turn().seats:
                    self.store.mark_final(game_id, side, game.day)
            game.log.append(entry)
            return result

    def orders_on_file(self, game_id: int, side: str) -> str:
        game = self.game(game_id)
        return game.orders_text(game.day, side)

    # -- resolving days ---------------------------------------------------------------

    def ask_function(self, game_id: int):
        kinds = set(self.info(game_id)["settings"].get("ask", []))
        if not kinds:
            return never
        return lambda decision: decision.kind in kinds

    def tick(self) -> list[tuple[int, int]]:
        """Do what the clock says: resolve due days, time out questions, send reminders."""
        resolved = []
        now = self.now()
        for info in self.store.games_to_check(deadlines.iso(now)):
            game_id = info["id"]
            try:
                done = self.tick_game(game_id, now, info)
            except Exception as exc:  # one broken game must not stop the others
                self.store.audit("scheduler", "error", game_id, why=f"{type(exc).__name__}: {exc}")
                continue
            if done is not None:
                resolved.append((game_id, done))
        return resolved

    def tick_game(self, game_id: int, now: datetime, info: dict | None = None) -> int | None:
        """One game's clock. The game itself is replayed only when something is due."""
        info = info or self.info(game_id)
        settings = deadlines.settings_with_defaults(info["settings"])
        pending = info.get("pending")
        if pending:
            if now >= deadlines.parse_iso(pending["deadline"]):
                return self.resolve_next(game_id, ask=False, seen=info)
            return None
        deadline = deadlines.parse_iso(info.get("deadline"))
        if deadline is None:  # the clock starts when the last day's reports are out
            return None
        final = {seat["side"] for seat in self.store.seats(game_id) if seat["final_day"] is not None}
        if settings["early"] and final:
            owing = self.game(game_id).turn().seats  # only seats that owe orders can mark them FINAL
            if set(owing) <= final:
                return self.resolve_next(game_id, seen=info)
        if now >= deadlines.grace_end(settings, deadline):
            return self.resolve_next(game_id, seen=info)
        reminders = [hours for hours, when in deadlines.reminder_times(settings, deadline) if now >= when]
        if now < deadline and not reminders:
            return None
        game = self.game(game_id)
        if game.over:
            return None
        owing = game.turn().seats
        waiting = [seat for seat in owing if not game.orders_text(game.day, seat)]
        if not waiting and now >= deadline:
            return self.resolve_next(game_id, seen=info)
        for seat in waiting:
            if self.seat(game_id, seat)["email"]:
                for hours in reminders:
                    self.remind(game_id, seat, hours, game)
        # look again at the next reminder, or when the deadline (and its grace) has passed
        later = [t for _, t in deadlines.reminder_times(settings, deadline) if t > now]
        later.append(deadline if now < deadline else deadlines.grace_end(settings, deadline))
        self.store.set_clock(game_id, next_check=deadlines.iso(min(later)))
        return None

    def remind(self, game_id: int, side: str, hours: int, game: Game) -> None:
        seat = self.seat(game_id, side)
        body = (f"Game {self.label(game_id)}: your orders for {self.turn_label(game)} are due by "
                f"{self.deadline_for(game_id, side)}, and none have arrived yet.\n\n"
                f"Send them by mail or on the game's web page. Without orders the day is played with "
                f"your standing orders only, and counted as missed.")
        queue(self.store, seat["email"], f"[pbem {game_id}] Reminder: orders due for {self.turn_label(game)}",
              body, kind="reminder", game_id=game_id,
              dedupe_key=f"reminder:{game_id}:{game.day}:{side}:{hours}:{len(game.log)}")

    def resolve_next(self, game_id: int, ask: bool = True, seen: dict | None = None) -> int | None:
        """Resolve the coming day. Returns the day, or None when it waits on a question.

        ``seen`` is the game's row as the caller saw it when it decided: if its
        deadline or pending question has changed since (another tick resolved
        the day meanwhile), nothing is done, so a day is never resolved twice.
        """
        with self.lock:
            if seen is not None:
                now_row = self.info(game_id)
                if (now_row.get("deadline"), now_row.get("pending")) != (seen.get("deadline"), seen.get("pending")):
                    return None
            game = self.game(game_id)
            if game.over:
                return None
            day = game.day
            owing = game.turn().seats
            missed = [seat for seat in owing if not game.orders_text(day, seat)]
            before = len(game.log)
            try:
                result = game.advance(ask=self.ask_function(game_id) if ask else never)
            except Pending as pending:
                self.ask(game_id, day, pending.index, pending.decision)
                return None
            with self.store.transaction():
                for entry in game.log[before:]:
                    self.store.append_log(game_id, entry)
                self.record(game_id, result)
                self.store.set_clock(game_id, pending=None)
                for seat in owing:
                    self.store.mark_final(game_id, seat, None)
                for seat in missed:
                    self.missed(game_id, seat, day)
                # the next day's clock starts when its reports are out (run_jobs): a player
                # cannot be late for a day he has not yet been told about
                self.store.set_clock(game_id, deadline=None)
                if game.over:
                    self.store.update_game(game_id, status="finished")
                self.store.add_job("reports", game_id, {"day": day, "start_clock": True,
                                                        "version": self.rewinds(game)})
            return day

    def run_jobs(self, limit: int = 100) -> int:
        """Do the work resolution left for later (drawing and queuing reports).

        The reports and maps are drawn first, outside the lock and any
        transaction (drawing is slow, and mail must keep flowing meanwhile);
        then they are queued and the job marked done in one transaction. The
        mails carry dedupe keys, so a job redone after a crash sends nothing twice.
        """
        done = 0
        for job in self.store.due_jobs(limit):
            try:
                mails = []
                if job["kind"] == "reports":
                    mails = self.draw_reports(job["game_id"], job["payload"]["day"],
                                              corrected=job["payload"].get("corrected", ""),
                                              version=job["payload"].get("version"))
                with self.lock, self.store.transaction():
                    for mail in mails:
                        queue(self.store, **mail)
                    self.store.finish_job(job["id"])
                    self.start_clock(job)
            except Exception as exc:  # recorded; the other jobs go on
                self.store.finish_job(job["id"], error=f"{type(exc).__name__}: {exc}")
                self.store.audit("jobs", "error", job["game_id"], why=f"{type(exc).__name__}: {exc}")
                self.start_clock(job)
            done += 1
        return done

    def start_clock(self, job: dict) -> None:
        if job["payload"].get("start_clock") and self.info(job["game_id"])["status"] == "running":
            self.set_next_deadline(job["game_id"])

    def record(self, game_id: int, result) -> None:
        self.store.record_day(game_id, result.day, ",".join(result.seats), self.game(game_id).ruleset.digest(result.after),
                              [e.to_dict() for e in result.events],
                              [r.to_dict() for r in result.decisions])

    def missed(self, game_id: int, side: str, day: int) -> None:
        seat = self.seat(game_id, side)
        count = seat["missed"] + 1
        self.store.update_seat(game_id, side, missed=count)
        settings = deadlines.settings_with_defaults(self.info(game_id)["settings"])
        self.store.audit("scheduler", "missed", game_id, detail={"side": side, "day": day, "count": count})
        if seat["email"]:
            queue(self.store, seat["email"], f"[pbem {game_id}] You missed a day",
                  f"No orders arrived for {self.seat_title(game_id, side)} in game {self.label(game_id)} before the deadline; "
                  f"the day was played with your standing orders only. Days missed: {count} "
                  f"(limit {settings['miss_limit']}).", kind="missed", game_id=game_id,
                  dedupe_key=f"missed:{game_id}:{day}:{side}")
        if count < settings["miss_limit"]:
            return
        policy = settings["miss_policy"]
        moderator = self.info(game_id).get("moderator")
        if policy == "alert" and moderator:
            queue(self.store, moderator, f"[pbem {game_id}] {self.seat_title(game_id, side)} has missed {count} days",
                  f"{self.seat_title(game_id, side)} ({seat['email']}) has missed {count} days in game {self.label(game_id)}. "
                  f"You may replace the player from the moderator console.", kind="alert", game_id=game_id,
                  dedupe_key=f"alert:{game_id}:{day}:{side}")
        elif policy == "forfeit":
            game = self.game(game_id)
            sides = {s.id: s.side for s in game.ruleset.seats(game.scenario, game.options)}
            others = sorted(set(sides.values()) - {sides[side]})
            winner = others[0] if len(others) == 1 else None  # with more sides, a moderator rules
            title = self.seat_title(game_id, side)
            entry = game.end(winner, f"{title} forfeits, having missed {count} days"
                                     + (f"; {winner_title(game, winner)} wins." if winner else "."))
            entry.update(by="scheduler", at=deadlines.iso(self.now()))
            with self.store.transaction():
                self.store.append_log(game_id, entry)
                self.store.update_game(game_id, status="finished")
                self.store.set_clock(game_id, deadline=None)
                self.store.audit("scheduler", "forfeit", game_id, why=f"{side} missed {count} days",
                                 detail={"side": side})
            for other in self.store.seats(game_id):
                if other["email"]:
                    queue(self.store, other["email"], f"[pbem {game_id}] {title} forfeits",
                          f"{title} missed {count} days and forfeits game {self.label(game_id)}.",
                          kind="forfeit", game_id=game_id, dedupe_key=f"forfeit:{game_id}:{other['side']}")

    # -- "ask me" decisions ------------------------------------------------------------

    def ask(self, game_id: int, day: int, index: int, decision: Decision) -> None:
        settings = deadlines.settings_with_defaults(self.info(game_id)["settings"])
        until = self.now() + timedelta(minutes=settings["ask_minutes"])
        pending = {"day": day, "index": index, "decision": decision.to_dict(), "deadline": deadlines.iso(until)}
        with self.store.transaction():
            self.store.set_clock(game_id, pending=pending)
            seat = self.seat(game_id, decision.side)
            if seat["email"]:
                options = "\n".join(f"  {key}: {decision.label(key)}" for key in decision.options)
                body = (f"Game {self.label(game_id)} needs your decision before it can go on:\n\n"
                        f"{decision.question}\n\n{options}\n\n"
                        f"Choose {decision.min} to {decision.max} of them. Answer with a mail whose first line is\n"
                        f"  GAME {game_id} SIDE {self.seat_title(game_id, decision.side)} KEY <your key>\n"
                        f"and whose next line is\n  ANSWER {index} <choices, separated by spaces>\n\n"
                        f"Without an answer by {deadlines.local_time(until, seat['timezone'])} the default is "
                        f"used: {', '.join(decision.label(k) for k in decision.default) or 'none'}.")
                queue(self.store, seat["email"], f"[pbem {game_id}] Your decision: {decision.kind}", body,
                      kind="question", game_id=game_id, dedupe_key=f"ask:{game_id}:{day}:{index}")

    def answer(self, game_id: int, side: str, index: int, answer: list[str]) -> str:
        """A side's answer to the pending question; resolution goes on."""
        with self.lock:
            info = self.info(game_id)
            pending = info.get("pending")
            if not pending or pending["index"] != index or pending["decision"]["side"] != side:
                raise ServiceError(f"game {game_id} is not waiting for your answer {index}")
            d = pending["decision"]
            decision = Decision(d["side"], d["kind"], d["question"], tuple(d["options"]), tuple(d["default"]),
                                tuple(d["labels"].items()), d["min"], d["max"])
            problem = decision.problem(answer)
            if problem:
                raise ServiceError(f"that answer cannot be taken: {problem}")
            self.store.append_log(game_id, {"kind": "answer", "day": pending["day"], "index": index,
                                            "answer": list(answer), "by": "player"})
            self.store.set_clock(game_id, pending=None)
        self.resolve_next(game_id)
        return "Your answer was taken."

    # -- reports ------------------------------------------------------------------------

    def report(self, game_id: int, day: int, side: str | None, corrected: str = ""):
        game = self.game(game_id)
        deadline = self.deadline_for(game_id, side) if side else None
        report = game.ruleset.report(game, day, side, deadline=deadline, game_label=self.label(game_id),
                                     game_id=str(game_id))
        if corrected:
            notice = f"CORRECTED REPORT. A moderator ruled: {corrected}"
            report.markdown = f"**{notice}**\n\n{report.markdown}"
            report.text = f"{notice}\n\n{report.text}"
            report.html = re.sub(r"(<body[^>]*>)", lambda m: f"{m.group(1)}<p><strong>{html.escape(notice)}"
                                                             f"</strong></p>", report.html, count=1)
        return report

    def map_png(self, game_id: int, day: int | None, side: str | None) -> bytes:
        return self.rasterise(self.map_svg(game_id, day, side))

    @staticmethod
    def rasterise(svg: str) -> bytes:
        """SVG to PNG, here; the server replaces this with a worker process (pbem.server.serve),
        since the rasteriser holds the interpreter for most of a second a map."""
        from pbem.render import render_png

        return render_png(svg)

    def map_svg(self, game_id: int, day: int | None, side: str | None) -> str:
        game = self.game(game_id)
        return game.ruleset.render_svg(game.scenario, game.view(side, day), title=self.label(game_id))

    @staticmethod
    def rewinds(game: Game) -> int:
        """How many rulings have rewound the game: the version of its reports."""
        return sum(1 for e in game.log if e["kind"] == "rewind")

    def draw_reports(self, game_id: int, day: int, corrected: str = "", version: int | None = None,
                     only: str | None = None) -> list[dict]:
        """Each seat's (or seat ``only``'s) report mail of ``day``: the arguments of
        outbox.queue, drawn, not yet queued. One mail per seat and version (a
        ruling makes a new version)."""
        game = self.game(game_id)
        version = self.rewinds(game) if version is None else version
        mails = []
        for seat in self.store.seats(game_id):
            if not seat["email"] or only not in (None, seat["side"]):
                continue
            side = seat["side"]
            report = self.report(game_id, day, side, corrected)
            png = self.map_png(game_id, day, side)
            html = report.html.replace("</body>", '<p><img src="cid:map" alt="map" style="max-width:100%"></p>'
                                                  "</body>")
            subject = ("[corrected] " if corrected else "") + report.subject
            mails.append(dict(to=seat["email"], subject=subject, body=report.text, html=html,
                              attachments=[("map.png", "image/png", png, "map"),
                                           self.view_attachment(game, side, day)],
                              kind="report", game_id=game_id, dedupe_key=f"report:{game_id}:{day}:{side}:{version}"))
        return mails

    def resend_report(self, game_id: int, side: str) -> None:
        game = self.game(game_id)
        if not game.days:
            raise ServiceError("no day has been resolved yet")
        for mail in self.draw_reports(game_id, game.days[-1].day, only=side):
            mail["dedupe_key"] = None  # asked for again: sent again
            queue(self.store, **mail)

    # -- players ---------------------------------------------------------------------

    def vacation(self, game_id: int, side: str, days: int, who: str = "") -> datetime:
        """Shift the game's deadline by ``days`` (within the game's allowance)."""
        info = self.info(game_id)
        settings = deadlines.settings_with_defaults(info["settings"])
        seat = self.seat(game_id, side)
        used = int(seat.get("vacation_to") or 0)
        if days < 1 or used + days > settings["vacation_days"]:
            raise ServiceError(f"a vacation may total at most {settings['vacation_days']} days in this game "
                               f"({used} used)")
        deadline = self.deadline(game_id) or self.now()
        new = deadline + timedelta(days=days)
        with self.store.transaction():
            self.set_deadline(game_id, new)
            self.store.update_seat(game_id, side, vacation_to=str(used + days))
            self.store.audit(who or seat["email"] or side, "vacation", game_id, detail={"side": side, "days": days})
            for other in self.store.seats(game_id):
                if other["email"]:
                    queue(self.store, other["email"], f"[pbem {game_id}] Vacation: deadline moved",
                          f"{self.seat_title(game_id, side)} takes {days} day(s) of vacation in game {self.label(game_id)}. "
                          f"The deadline is now {deadlines.local_time(new, other['timezone'])}.",
                          kind="vacation", game_id=game_id)
        return new

    def rotate_key(self, game_id: int, side: str, who: str = "") -> str:
        key = new_key()
        with self.store.transaction():
            seat = self.seat(game_id, side)
            self.set_key(game_id, side, key)
            self.store.audit(who or seat["email"] or side, "rotate_key", game_id, detail={"side": side})
            if seat["email"]:
                queue(self.store, seat["email"], f"[pbem {game_id}] Your new key",
                      f"Your new key for {self.seat_title(game_id, side)} in game {self.label(game_id)} is: {key}\n"
                      f"The old key no longer works.", kind="key", game_id=game_id)
        return key

    def status(self, game_id: int, side: str | None = None) -> str:
        info = self.info(game_id)
        game = self.game(game_id)
        lines = [f"Game {self.label(game_id)}: {info['status']}."]
        if game.over:
            lines.append(game.view(None)["victory"])
        else:
            lines.append(f"Next: {self.turn_label(game)}.")
            if side:
                lines.append(f"Deadline: {self.deadline_for(game_id, side)}.")
            for seat in game.turn().seats:
                lines.append(f"Orders from {self.seat_title(game_id, seat)}: "
                             f"{'received' if game.orders_text(game.day, seat) else 'not yet'}.")
        lines += game.ruleset.status_lines(game, side)
        return "\n".join(lines)

    # -- moderators ---------------------------------------------------------------------

    def moderate(self, game_id: int, who: str, action: str, why: str, **args) -> str:
        """A moderator's ruling (see pbem.server.moderation): done, audited, told to the players."""
        from pbem.server import moderation

        return moderation.moderate(self, game_id, who, action, why, **args)


def file_sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def game_options(rules, chosen: dict | None) -> dict:
    """The ruleset's options with ``chosen`` applied (each one checked), the rest at their defaults."""
    known = {option.name: option for option in rules.options()}
    unknown = set(chosen or {}) - set(known)
    if unknown:
        raise ValueError(f"{rules.title} has no option {', '.join(sorted(unknown))}")
    out = {name: option.default for name, option in known.items()}
    for name, value in (chosen or {}).items():
        if value not in known[name].choices:
            raise ValueError(f"option {name} may be {', '.join(known[name].choices)}, not {value!r}")
        out[name] = value
    return out


def winner_title(game: Game, side: str) -> str:
    """The title of a side: its seat's title when one seat plays it, else the side's name."""
    titles = [s.title for s in game.ruleset.seats(game.scenario, game.options) if s.side == side]
    return titles[0] if len(titles) == 1 else side.capitalize()


def commitment_lines(commitment: str | None) -> list[str]:
    """What a welcome says of the seed's commitment (nothing for games made before commitments)."""
    if not commitment:
        return []
    return [f"The dice of this game are fixed by a secret seed, revealed when the game ends. Its",
            f"commitment (SHA-256 of the seed and a salt) is {commitment}:",
            "keep it, to check with `pbem verify` that the seed was never changed.", ""]
