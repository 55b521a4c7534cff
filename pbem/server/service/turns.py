"""Resolving turns: the clock's tick, reminders, resolution when every seat that owes
orders has them (or the deadline passed), missed turns and the miss policy, the jobs
that draw the reports, and "ask me" decisions."""

from __future__ import annotations

import os
import time
from collections import deque
from datetime import datetime, timedelta

from pbem.lang import say_plural
from pbem.server import deadlines, i18n
from pbem.core.decisions import Decision, Pending, never
from pbem.core.game import Game
from pbem.core.ruleset import ask_kinds_in, decision_in
from pbem.server.mail.outbox import queue
from pbem.server.notify import chat, notice
from pbem.server.store import NoSuchSeat

from .base import ReplayDiffers, ServiceBase, ServiceError

AHEAD = 2 * (os.cpu_count() or 1)  # jobs whose maps are ordered ahead of the reports written (two maps a job)


TICK_BATCH = 100  # games resolved in one transaction
TICK_SECONDS = 0.25  # at most this long a batch under the lock


class Turns(ServiceBase):

    def ask_function(self, game_id: int, info: dict | None = None):
        """Whether the players of game ``game_id`` are asked a decision (its "ask me" setting); ``info``: the
        game's row read by the caller in the same transaction (not read again)."""
        kinds = set((info or self.info(game_id))["settings"].get("ask", []))
        if not kinds:
            return never
        game = self.game(game_id)
        kinds &= set(ask_kinds_in(game.ruleset, game.options))  # a kind these options never ask takes its default
        return lambda decision: decision.kind in kinds

    def tick(self, batch: int = TICK_BATCH, seconds: float = TICK_SECONDS) -> list[tuple[int, int]]:
        """Do what the clock says: resolve due days, time out questions, send reminders.

        The games are taken in batches, one transaction (one commit) a batch, each game in a
        savepoint of its own: a game that fails is rolled back alone and audited, the others
        commit; a crash before the commit leaves the whole batch as it was, to be done again
        by the next tick (a resolution checks that the game's clock is still the one it saw,
        so nothing is played twice). A batch stops taking games once ``seconds`` have passed,
        so mail waits at most that long for the lock."""
        resolved = []
        now = self.now()
        due = self.store.games_to_check(deadlines.iso(now))
        while due:
            started, in_batch = time.monotonic(), 0
            with self.lock, self.store.transaction():
                while due and in_batch < batch and time.monotonic() - started < seconds:
                    info = due.pop(0)
                    game_id = info["id"]
                    try:
                        with self.store.transaction():  # a savepoint: this game alone is rolled back if it fails
                            done = self.tick_game(game_id, now, info)
                    except ReplayDiffers as exc:  # refused (audited once): its moderator told outside the savepoint
                        self.refuse_replay(exc.game_id, exc.info, *exc.where)
                        continue
                    except Exception as exc:  # one broken game must not stop the others
                        self.store.audit("scheduler", "error", game_id, why=f"{type(exc).__name__}: {exc}")
                        continue
                    if done is not None:
                        resolved.append((game_id, done))
                        in_batch += 1
        return resolved

    def resolve_if_ready(self, game_id: int) -> int | None:
        """What the next tick would do for this game, now: after orders marked FINAL on the web, the day is
        resolved before the page is drawn again (when every seat that owes orders has marked them FINAL and
        the game resolves early), so the page shows the new day, never the old one. The day, or None."""
        with self.lock, self.store.transaction():
            return self.tick_game(game_id, self.now())

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
        seats = {seat["side"]: seat for seat in self.store.seats(game_id)}
        final = {side for side, seat in seats.items() if seat["final_day"] is not None}
        if settings["early"] and final:
            owing = self.game(game_id).turn().seats  # only seats that owe orders can mark them FINAL
            if set(owing) <= final:
                return self.resolve_next(game_id, seen=info, final=final)
        if now >= deadlines.grace_end(settings, deadline):
            game = self.game(game_id)
            waiting = [seat for seat in game.turn().seats if not game.orders_text(game.day, seat)]
            if not game.over and waiting and self.vacation_hold(game_id, waiting, now, settings, seats):
                return None
            return self.resolve_next(game_id, seen=info, final=final)
        # the reminders due since the clock last planned to look (set_deadline leaves out those of the
        # turn's first hour: a 24-hour reminder on a 24-hour turn would follow the report at once)
        planned = deadlines.parse_iso(info.get("next_check"))
        reminders = [hours for hours, when in deadlines.reminder_times(settings, deadline)
                     if now >= when and (planned is None or when >= planned)]
        if now < deadline and not reminders:
            return None
        game = self.game(game_id)
        if game.over:
            return None
        owing = game.turn().seats
        waiting = [seat for seat in owing if not game.orders_text(game.day, seat)]
        if not waiting and now >= deadline:
            return self.resolve_next(game_id, seen=info, final=final)
        for seat in waiting:
            if self.seat(game_id, seat)["email"]:
                for hours in reminders[-1:]:  # the latest one due: an earlier one missed is not news now
                    self.remind(game_id, seat, hours, game)
        if waiting and now >= deadline:  # in the grace time: the other seats hear who is late
            self.late_notice(game_id, waiting, game, deadlines.grace_end(settings, deadline))
        # look again at the next reminder, or when the deadline (and its grace) has passed
        later = [t for _, t in deadlines.reminder_times(settings, deadline) if t > now]
        later.append(deadline if now < deadline else deadlines.grace_end(settings, deadline))
        self.store.set_clock(game_id, next_check=deadlines.iso(min(later)))
        return None

    def remind(self, game_id: int, side: str, hours: int, game: Game) -> None:
        seat = self.seat(game_id, side)
        lang = self.store.language_of(seat["email"])
        tr = i18n.translator(lang)
        turn = self.turn_label(game, lang=lang)
        body = tr.gettext("Game %(game)s: your orders for %(turn)s are due by %(deadline)s, and none have arrived "
                          "yet.\n\nSend them by mail or on the game's web page. Without orders the day is played "
                          "with your standing orders only, and counted as missed.", game=self.label(game_id),
                          turn=turn, deadline=self.deadline_for(game_id, side, lang=lang))
        subject = f"[pbem {game_id}] " + tr.gettext("Reminder: orders due for %(turn)s", turn=turn)
        queue(self.store, seat["email"], subject,
              body, kind="reminder", game_id=game_id,
              dedupe_key=f"reminder:{game_id}:{game.day}:{side}:{hours}:{len(game.log)}")
        chat(self.store, seat["email"], f"{subject}\n{body}",
             "reminder", game_id, f"reminder:{game_id}:{game.day}:{side}:{hours}:{len(game.log)}")

    def late_notice(self, game_id: int, late: list[str], game: Game, grace_end: datetime) -> None:
        """Tell every seat not late that these seats are late (once a day): the day is resolved
        without them when the grace time ends."""
        for other in self.store.seats(game_id):
            if other["email"] and other["side"] not in late:
                lang = self.store.language_of(other["email"])
                tr = i18n.translator(lang)
                titles = tr.listed([self.seat_title(game_id, side, lang) for side in late])
                notice(self.store, other["email"], f"[pbem {game_id}] " + tr.gettext("Late: %(seats)s", seats=titles),
                       tr.gettext("Game %(game)s: the deadline for %(turn)s has passed and %(seats)s has sent no "
                                  "orders yet. The day is resolved when the grace time ends, %(end)s, with or "
                                  "without them.", game=self.label(game_id), turn=self.turn_label(game, lang=lang),
                                  seats=titles, end=deadlines.local_time(grace_end, other["timezone"],
                                                                         now=self.now(), lang=lang)),
                       kind="late", game_id=game_id,
                      dedupe_key=f"late:{game_id}:{game.day}:{other['side']}:{self.rewinds(game)}")

    def resolve_next(self, game_id: int, ask: bool = True, seen: dict | None = None,
                     final: set[str] | None = None) -> int | None:
        """Resolve the coming day. Returns the day, or None when it waits on a question.

        ``seen`` is the game's row as the caller saw it when it decided: if its
        deadline or pending question has changed since (another tick resolved
        the day meanwhile), nothing is done, so a day is never resolved twice.
        ``final``: the seats whose orders are marked FINAL, when the caller read the seats under
        this lock and transaction (the others' mark needs no clearing); None: every owing seat's is.
        """
        with self.lock:
            row = self.info(game_id)  # read once: the check below, the "ask me" setting and the missed days'
            if seen is not None:
                if (row.get("deadline"), row.get("pending")) != (seen.get("deadline"), seen.get("pending")):
                    return None
            game = self.game(game_id)
            if game.over:
                return None
            day = game.day
            owing = game.turn().seats
            missed = [seat for seat in owing if not game.orders_text(day, seat)]
            before = len(game.log)
            try:
                result = game.advance(ask=self.ask_function(game_id, row) if ask else never)
            except Pending as pending:
                self.ask(game_id, day, pending.index, pending.decision)
                return None
            with self.store.transaction():
                for entry in game.log[before:]:
                    self.store.append_log(game_id, entry)
                self.record(game_id, result)
                for seat in owing:
                    if final is None or seat in final:  # (a statement a seat, where most have no mark)
                        self.store.mark_final(game_id, seat, None)
                for seat in missed:
                    self.missed(game_id, seat, day, row["settings"])
                # the game passed on: self.game(game_id) after a write read the log's end again, one statement
                self.move_seats(game_id, result, game)  # the rules may give players other seats (seats.py)
                # the next day's clock starts when its reports are out (run_jobs): a player
                # cannot be late for a day he has not yet been told about; no question waits
                self.store.set_clock(game_id, deadline=None, pending=None)
                if game.over:
                    self.store.update_game(game_id, status="finished")
                self.store.add_job("reports", game_id, {"day": day, "start_clock": True,
                                                        "version": self.rewinds(game)})
            return day

    def run_jobs(self, limit: int = 100, queued=None, going=None) -> int:
        """Do the work resolution left for later (drawing and queuing reports), until none is left.

        The maps are ordered ``AHEAD`` jobs in front of the job whose reports are being written:
        the drawing workers build each map whole (SVG and PNG, pbem.server.drawing) while this
        process writes reports, so neither waits for the other (before, four maps were drawn, then
        their reports written while the workers waited, and every SVG was built twice, here).
        A job's reports are written outside the lock and any transaction (mail must keep flowing
        meanwhile); then they are queued and the job marked done in one transaction, and
        ``queued()`` (the sender's wake-up) is called. The mails carry dedupe keys, so a job
        redone after a crash sends nothing twice. ``limit``: the jobs read at a time; ``going()``
        false: the server is stopping, no job is taken any more (those ordered are finished; the
        others stay due for the next start, not failed for want of the drawing workers)."""
        done, ordered = 0, deque()
        for job in self.jobs_due(limit):
            if going is not None and not going():
                break
            ordered.append((job, self.job_maps(job)))
            if len(ordered) > AHEAD:
                done += self.run_job(*ordered.popleft(), queued)
        while ordered:
            done += self.run_job(*ordered.popleft(), queued)
        return done

    def jobs_due(self, limit: int):
        """The due jobs, ``limit`` read at a time, until none is left (those read once are not read again)."""
        after = 0
        while jobs := self.store.due_jobs(limit, after=after):
            yield from jobs
            after = jobs[-1]["id"]

    def job_maps(self, job: dict) -> dict:
        """The maps of a job's reports, ordered from the drawing workers (pbem.server.service.reports)."""
        if job["kind"] != "reports":
            return {}
        try:
            return self.maps_ordered(job["game_id"], job["payload"]["day"])
        except Exception:  # the job itself meets it again, and records it
            return {}

    def run_job(self, job: dict, maps: dict, queued=None) -> int:
        """One job: its reports written (their maps ``maps``), queued, and the job marked done, in one
        transaction; a failure is recorded on the job. Returns 1."""
        try:
            mails = []
            when = self.next_deadline(job)  # told in the reports, set once they are queued
            if job["kind"] == "reports":
                mails = self.draw_reports(job["game_id"], job["payload"]["day"],
                                          corrected=job["payload"].get("corrected", ""),
                                          version=job["payload"].get("version"), deadline=when, maps=maps)
                if not job["payload"].get("corrected"):
                    mails += self.missed_mails(job["game_id"], job["payload"]["day"], when)
            with self.lock, self.store.transaction():
                for mail in mails:
                    queue(self.store, **mail)
                self.store.finish_job(job["id"])
                if when is not None:
                    self.set_deadline(job["game_id"], when)
                    self.your_turn(job["game_id"], when)
        except Exception as exc:  # recorded; the other jobs go on
            self.store.finish_job(job["id"], error=f"{type(exc).__name__}: {exc}")
            self.store.audit("jobs", "error", job["game_id"], why=f"{type(exc).__name__}: {exc}")
            self.start_clock(job)
        if queued is not None:
            queued()
        return 1

    def your_turn(self, game_id: int, when: datetime) -> None:
        """Tell the webhook of each seat that owes the coming day's orders (mail has the report)."""
        game = self.game(game_id)
        if game.over:
            return
        for side in game.turn().seats:
            email = self.seat(game_id, side)["email"]
            if not email:
                continue
            lang = self.lang_of(game_id, side)  # the seat's player's language, the deadline in his time zone
            chat(self.store, email, f"[pbem {game_id}] " + i18n.translate(
                     lang, "Your turn in %(game)s: %(turn)s, orders due by %(deadline)s", game=self.label(game_id),
                     turn=self.turn_label(game, lang=lang), deadline=self.deadline_for(game_id, side, when, lang)),
                 "turn", game_id, f"turn:{game_id}:{game.day}:{side}:{self.rewinds(game)}")

    def start_clock(self, job: dict) -> None:
        if job["payload"].get("start_clock") and self.info(job["game_id"])["status"] == "running":
            self.set_next_deadline(job["game_id"])

    def next_deadline(self, job: dict) -> datetime | None:
        """The deadline a job's reports start (None: the job starts no clock)."""
        info = self.info(job["game_id"])
        if not job["payload"].get("start_clock") or info["status"] != "running":
            return None
        subturn = self.game(job["game_id"]).turn().kind == "subturn"
        return deadlines.next_deadline(info["settings"], self.now(), subturn)

    def missed_mails(self, game_id: int, day: int, deadline: datetime | None) -> list[dict]:
        """The mails of seats that sent no orders for ``day`` (and the moderator's alert when the
        miss policy says so), as outbox.queue's arguments; sent with the day's reports, so they
        tell the next deadline (``deadline``: about to be set)."""
        game = self.game(game_id)
        if not 0 <= day < len(game.days):
            return []
        info = self.info(game_id)
        settings = deadlines.settings_with_defaults(info["settings"])
        mails = []
        for side in game.days[day].seats:
            seat = self.holder_on(game_id, side, day)  # who held it that day: the rules may have moved him since
            if game.orders_text(day, side) or not seat["email"]:
                continue
            count = seat["missed"]
            tr = i18n.translator(self.store.language_of(seat["email"]))
            title = self.seat_title(game_id, side, tr.lang)
            due = tr.gettext("Deadline: %(deadline)s.", deadline=self.deadline_for(game_id, side, deadline,
                                                                                  lang=tr.lang)) \
                if not game.over else ""
            mails.append(dict(to=seat["email"], subject=f"[pbem {game_id}] " + tr.gettext("You missed a day"),
                              body=(tr.gettext("No orders arrived for %(seat)s in game %(game)s before the deadline; "
                                               "the day was played with your standing orders only. Days missed: "
                                               "%(count)s (limit %(limit)s).", seat=title, game=self.label(game_id),
                                               count=count, limit=settings['miss_limit'])
                                    + f"\n\n{due}").rstrip(),
                              kind="missed", game_id=game_id, dedupe_key=f"missed:{game_id}:{day}:{side}"))
            moderator = info.get("moderator")
            if count >= settings["miss_limit"] and settings["miss_policy"] == "alert" and moderator:
                zone = (self.store.find_player(moderator) or {}).get("timezone") or settings["timezone"]
                when = deadline or self.deadline(game_id)
                tr = i18n.translator(self.store.language_of(moderator))
                title = self.seat_title(game_id, side, tr.lang)
                due = (tr.gettext("Deadline: %(deadline)s.",
                                  deadline=deadlines.local_time(when, zone, now=self.now(), lang=tr.lang))
                       if when and not game.over else "")
                mails.append(dict(to=moderator, subject=f"[pbem {game_id}] " + tr.ngettext(
                                      "%(seat)s has missed %(num)d day", "%(seat)s has missed %(num)d days", count,
                                      seat=title),
                                  body=(tr.ngettext("%(seat)s (%(email)s) has missed %(num)d day in game %(game)s.",
                                                    "%(seat)s (%(email)s) has missed %(num)d days in game %(game)s.",
                                                    count, seat=title, email=seat['email'], game=self.label(game_id))
                                        + " " + tr.gettext("You may replace the player from the moderator console: "
                                                           "%(url)s", url=self.console_url(game_id))
                                        + f"\n\n{due}").rstrip(),
                                  kind="alert", game_id=game_id, dedupe_key=f"alert:{game_id}:{day}:{side}"))
        return mails

    def record(self, game_id: int, result) -> None:
        """Record a resolved day, with the digest of its position. A game's ruleset never changes: the cached
        game's is the game's whatever its log (``game`` checked the log's end, a statement after each write)."""
        cached = self._games.get(game_id)
        rules = cached.ruleset if cached is not None else self.game(game_id).ruleset
        self.store.record_day(game_id, result.day, ",".join(result.seats), rules.digest(result.after),
                              [e.to_dict() for e in result.events],
                              [r.to_dict() for r in result.decisions])

    def missed(self, game_id: int, side: str, day: int, settings: dict | None = None) -> None:
        """Seat ``side`` missed ``day``: counted, audited, and past the game's limit the miss policy applied
        (``settings``: the game's settings as stored, when the caller read its row in this transaction)."""
        try:
            count = self.store.count_missed(game_id, side)
        except NoSuchSeat:
            raise ServiceError("game %(game)s has no side %(side)s", game=game_id, side=repr(side)) from None
        settings = deadlines.settings_with_defaults(self.info(game_id)["settings"] if settings is None else settings)
        self.store.audit("scheduler", "missed", game_id, detail={"side": side, "day": day, "count": count})
        # the mails about it go with the day's reports (missed_mails), which tell the next deadline
        if count < settings["miss_limit"]:
            return
        if settings["miss_policy"] == "forfeit":
            game = self.game(game_id)
            sides = {s.id: s.side for s in game.ruleset.seats(game.scenario, game.options)}
            others = sorted(set(sides.values()) - {sides[side]})
            winner = others[0] if len(others) == 1 else None  # with more sides, a moderator rules
            title = self.seat_title(game_id, side)
            why = say_plural("%(seat)s forfeits, having missed %(num)d day; %(winner)s wins.",
                             "%(seat)s forfeits, having missed %(num)d days; %(winner)s wins.", count, seat=title,
                             winner=winner_title(game, winner)) if winner else \
                say_plural("%(seat)s forfeits, having missed %(num)d day.", "%(seat)s forfeits, having missed %(num)d days.",
                           count, seat=title)
            entry = game.end(winner, str(why))
            entry.update(by="scheduler", at=deadlines.iso(self.now()))
            with self.store.transaction():
                self.store.append_log(game_id, entry)
                self.store.update_game(game_id, status="finished")
                self.store.set_clock(game_id, deadline=None)
                self.store.audit("scheduler", "forfeit", game_id, why=f"{side} missed {count} days",
                                 detail={"side": side})
            for other in self.store.seats(game_id):
                if other["email"]:
                    tr = i18n.translator(self.store.language_of(other["email"]))
                    queue(self.store, other["email"],
                          f"[pbem {game_id}] "
                          + tr.gettext("%(seat)s forfeits", seat=self.seat_title(game_id, side, tr.lang)),
                          tr.ngettext("%(seat)s missed %(num)d day and forfeits game %(game)s.",
                                      "%(seat)s missed %(num)d days and forfeits game %(game)s.", count,
                                      seat=self.seat_title(game_id, side, tr.lang), game=self.label(game_id))
                          + " " + self.say_in(game_id, why, tr.lang),
                          kind="forfeit", game_id=game_id, dedupe_key=f"forfeit:{game_id}:{other['side']}")

    # -- "ask me" decisions --

    def ask(self, game_id: int, day: int, index: int, decision: Decision) -> None:
        settings = deadlines.settings_with_defaults(self.info(game_id)["settings"])
        until = self.now() + timedelta(minutes=settings["ask_minutes"])
        game = self.game(game_id)
        # the question as each language reads it: the mail's, and kept with it for the pages (the stored decision
        # is English)
        read = {code: decision_in(game.ruleset, game.scenario, decision, code) for code in i18n.LANGUAGES}
        said = {code: {"question": shown.question, "labels": dict(shown.labels)}
                for code, shown in read.items() if code != i18n.DEFAULT}
        pending = {"day": day, "index": index, "decision": decision.to_dict(), "deadline": deadlines.iso(until),
                   "said": said}
        with self.store.transaction():
            self.store.set_clock(game_id, pending=pending)
            seat = self.seat(game_id, decision.side)
            if seat["email"]:
                tr = i18n.translator(self.store.language_of(seat["email"]))
                shown = read[tr.lang]
                options = "\n".join("  " + i18n.labelled(tr, key, shown.label(key)) for key in decision.options)
                body = "\n\n".join([
                    tr.gettext("Game %(game)s needs your decision before it can go on:", game=self.label(game_id)),
                    shown.question, options,
                    tr.gettext("Choose %(least)s to %(most)s of them. Answer with a mail whose first line is\n"
                               "  GAME %(game)s SIDE %(seat)s KEY <your key>\nand whose next line is\n"
                               "  ANSWER %(index)s <choices, separated by spaces>\n(each by the word before its colon "
                               "or by its name).", least=decision.min, most=decision.max, game=game_id,
                               seat=self.seat_title(game_id, decision.side, tr.lang), index=index),
                    tr.gettext("Without an answer by %(deadline)s the default is used: %(default)s.",
                               deadline=deadlines.local_time(until, seat['timezone'], now=self.now(), lang=tr.lang),
                               default=", ".join(shown.label(k) for k in decision.default) or tr.gettext("none"))])
                queue(self.store, seat["email"],
                      f"[pbem {game_id}] " + tr.gettext("Your decision: %(kind)s", kind=decision.kind), body,
                      kind="question", game_id=game_id, dedupe_key=f"ask:{game_id}:{day}:{index}")

    def answer(self, game_id: int, side: str, index: int, answer: list[str]) -> str:
        """A side's answer to the pending question; resolution goes on."""
        with self.lock:
            info = self.info(game_id)
            pending = info.get("pending")
            if not pending or pending["index"] != index or pending["decision"]["side"] != side:
                raise ServiceError("game %(game)s is not waiting for your answer %(index)s", game=game_id, index=index)
            d = pending["decision"]
            decision = Decision(d["side"], d["kind"], d["question"], tuple(d["options"]), tuple(d["default"]),
                                tuple(d["labels"].items()), d["min"], d["max"])
            answer = list(decision.read(answer))  # a choice by its key or its name
            problem = decision.problem(answer)
            if problem:
                raise ServiceError("that answer cannot be taken: %(problem)s", problem=problem)
            self.store.append_log(game_id, {"kind": "answer", "day": pending["day"], "index": index,
                                            "answer": list(answer), "by": "player"})
            self.store.set_clock(game_id, pending=None)
        self.resolve_next(game_id)
        return i18n.translate(self.lang_of(game_id, side), "Your answer was taken.")


def winner_title(game: Game, side: str) -> str:
    """The title of a side: its seat's title when one seat plays it, else the side's name."""
    titles = [s.title for s in game.ruleset.seats(game.scenario, game.options) if s.side == side]
    return titles[0] if len(titles) == 1 else side.capitalize()
