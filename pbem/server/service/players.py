"""What a player asks for himself: a vacation, a new key."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

from pbem.server import deadlines, i18n
from pbem.server.mail.outbox import queue
from pbem.server.notify import notice
from pbem.server.store import new_key

from .base import ServiceBase, ServiceError


class Players(ServiceBase):

    def vacation(self, game_id: int, side: str, days: int, who: str = "") -> datetime:
        """Shift the game's deadline by ``days`` (within the game's allowance)."""
        info = self.info(game_id)
        settings = deadlines.settings_with_defaults(info["settings"])
        seat = self.seat(game_id, side)
        used = int(seat.get("vacation_to") or 0)
        if days < 1 or used + days > settings["vacation_days"]:
            raise ServiceError("a vacation may total at most %(limit)s days in this game (%(used)s used)",
                               limit=settings['vacation_days'], used=used)
        deadline = self.deadline(game_id) or self.now()
        new = deadline + timedelta(days=days)
        with self.lock, self.store.transaction():  # the service's lock first (ServiceLock)
            self.set_deadline(game_id, new)
            self.store.update_seat(game_id, side, vacation_to=str(used + days))
            self.store.audit(who or seat["email"] or side, "vacation", game_id, detail={"side": side, "days": days})
            for other in self.store.seats(game_id):
                if other["email"]:
                    tr = i18n.translator(self.store.language_of(other["email"]))
                    queue(self.store, other["email"], f"[pbem {game_id}] " + tr.gettext("Vacation: deadline moved"),
                          tr.ngettext("%(seat)s takes %(num)d day of vacation in game %(game)s.",
                                      "%(seat)s takes %(num)d days of vacation in game %(game)s.", days,
                                      seat=self.seat_title(game_id, side, tr.lang), game=self.label(game_id)) + " "
                          + tr.gettext("The deadline is now %(deadline)s.",
                                       deadline=deadlines.local_time(new, other['timezone'], now=self.now(),
                                                                     lang=tr.lang)),
                          kind="vacation", game_id=game_id)
        return new

    def rotate_key(self, game_id: int, side: str, who: str = "") -> str:
        key = new_key()
        with self.lock, self.store.transaction():  # the service's lock first (ServiceLock)
            seat = self.seat(game_id, side)
            self.set_key(game_id, side, key)
            self.store.audit(who or seat["email"] or side, "rotate_key", game_id, detail={"side": side})
            if seat["email"]:
                tr = i18n.translator(self.store.language_of(seat["email"]))
                queue(self.store, seat["email"], f"[pbem {game_id}] " + tr.gettext("Your new key"),
                      (tr.gettext("Your new key for %(seat)s in game %(game)s is: %(key)s\nThe old key no longer "
                                  "works.", seat=self.seat_title(game_id, side, tr.lang), game=self.label(game_id),
                                  key=key)
                       + f"\n\n{self.deadline_line(game_id, side)}").rstrip(),
                      kind="key", game_id=game_id)
        return key


VACATION_YEAR_DAYS = 28
"""Days of vacation scheduled ahead a player may take in one calendar year (all games together),
unless the server's configuration sets ``vacation_year_days``."""


class Vacations(ServiceBase):
    """Vacations scheduled ahead by a player, from a start to an end, across all their games.

    While a player is away, a game whose deadline passes with their orders missing waits: its
    deadline moves to the vacation's end plus the game's time for a day (the other seats are
    told), and no day is counted as missed. A game that forbids vacations (``vacation_days`` 0, as a league may rule) does not
    wait: the days are missed as usual. Each calendar year allows ``VACATION_YEAR_DAYS`` days
    (a vacation counts in whole days, begun days included, in the year it starts)."""

    def year_allowance(self) -> int:
        return VACATION_YEAR_DAYS if self.config is None else int(self.config.vacation_year_days)

    def vacations_of(self, email: str, upcoming: bool = True) -> list[dict]:
        sql = "SELECT * FROM vacations WHERE email = ? AND cancelled = 0"
        params: tuple = (email.strip(),)
        if upcoming:
            sql += " AND ends > ?"
            params += (deadlines.iso(self.now()),)
        rows = self.store.query(sql + " ORDER BY starts", params)
        for row in rows:
            row["days"] = vacation_days(row)
        return rows

    def vacation_days_used(self, email: str, year: int) -> int:
        return sum(v["days"] for v in self.vacations_of(email, upcoming=False)
                   if deadlines.parse_iso(v["starts"]).year == year)

    def schedule_vacation(self, email: str, starts: datetime, ends: datetime) -> int:
        """Schedule a vacation ahead; refused if it has begun, overlaps another, or passes the year's allowance."""
        email = email.strip()
        starts, ends = starts.astimezone(timezone.utc), ends.astimezone(timezone.utc)
        if ends <= starts:
            raise ServiceError("a vacation ends after it starts")
        if starts < self.now() - timedelta(minutes=1):
            raise ServiceError("a vacation is scheduled ahead: its start has passed")
        with self.lock, self.store.transaction():  # the service's lock first (ServiceLock)
            for v in self.vacations_of(email):
                if deadlines.parse_iso(v["starts"]) < ends and starts < deadlines.parse_iso(v["ends"]):
                    raise ServiceError("it overlaps your vacation from %(starts)s to %(ends)s",
                                       starts=v['starts'], ends=v['ends'])
            days = vacation_days({"starts": deadlines.iso(starts), "ends": deadlines.iso(ends)})
            used = self.vacation_days_used(email, starts.year)
            allowance = self.year_allowance()
            if used + days > allowance:
                raise ServiceError("a year allows %(allowance)s days of vacation; %(year)s has %(used)s scheduled, and "
                                   "this one is %(days)s", allowance=allowance, year=starts.year, used=used, days=days)
            vid = self.store.execute("INSERT INTO vacations (email, starts, ends, created) VALUES (?, ?, ?, ?)",
                                     (email, deadlines.iso(starts), deadlines.iso(ends),
                                      self.store.now())).lastrowid
            self.store.audit(email, "vacation_scheduled", detail={"id": vid, "starts": deadlines.iso(starts),
                                                                  "ends": deadlines.iso(ends)})
        return vid

    def cancel_vacation(self, email: str, vid: int) -> None:
        with self.lock, self.store.transaction():  # the service's lock first (ServiceLock)
            row = self.store.query_one("SELECT * FROM vacations WHERE id = ? AND email = ? AND cancelled = 0",
                                       (vid, email.strip()))
            if row is None:
                raise ServiceError("you have no vacation %(number)s", number=vid)
            self.store.execute("UPDATE vacations SET cancelled = 1 WHERE id = ?", (vid,))
            self.store.audit(email, "vacation_cancelled", detail={"id": vid})

    def away(self, email: str | None, when: datetime) -> dict | None:
        """The vacation ``email`` is on at ``when``, if any."""
        if not email:
            return None
        at = deadlines.iso(when)
        return self.store.query_one("SELECT * FROM vacations WHERE email = ? AND cancelled = 0 AND starts <= ?"
                                    " AND ends > ? ORDER BY ends DESC", (email.strip(), at, at))

    def vacation_hold(self, game_id: int, waiting: list[str], now: datetime, settings: dict,
                      seats: dict[str, dict] | None = None) -> datetime | None:
        """At the deadline's end: if a seat without orders is on a vacation and the game allows
        vacations, the deadline moves to a day's time after the vacation's end (returned), and the
        seats are told. ``seats``: the game's seat rows by side, when the caller read them in this
        transaction (not read again, one a seat)."""
        if not settings["vacation_days"]:
            return None
        away = [(side, v) for side in waiting
                for v in [self.away((seats[side] if seats and side in seats else self.seat(game_id, side))["email"],
                                    now)] if v is not None]
        if not away:
            return None
        back = max(deadlines.parse_iso(v["ends"]) for _, v in away)
        until = deadlines.next_deadline(settings, back)  # a day's time, from the return
        with self.lock, self.store.transaction():  # the service's lock first (ServiceLock)
            self.set_deadline(game_id, until)
            self.store.audit("scheduler", "vacation_hold", game_id,
                             detail={"sides": [s for s, _ in away], "until": deadlines.iso(until)})
            for other in self.store.seats(game_id):
                if other["email"]:
                    tr = i18n.translator(self.store.language_of(other["email"]))
                    titles = tr.listed([self.seat_title(game_id, side, tr.lang) for side, _ in away])
                    notice(self.store, other["email"], f"[pbem {game_id}] " + tr.gettext("%(seats)s: on vacation",
                                                                                        seats=titles),
                          tr.gettext("%(seats)s of game %(game)s is on a vacation scheduled ahead. The deadline waits "
                                     "for the vacation's end, with a day's time after it: %(deadline)s.", seats=titles,
                                     game=self.label(game_id),
                                     deadline=deadlines.local_time(until, other['timezone'], lang=tr.lang)),
                          kind="vacation", game_id=game_id,
                          dedupe_key=f"vacation_hold:{game_id}:{deadlines.iso(until)}:{other['side']}")
        return until


def vacation_days(v: dict) -> int:
    """A vacation's length in days, a begun day counted whole."""
    seconds = (deadlines.parse_iso(v["ends"]) - deadlines.parse_iso(v["starts"])).total_seconds()
    return max(1, -(-int(seconds) // 86400))


def vacation_span(start: str, end: str) -> tuple[datetime, datetime]:
    """A vacation's start and end from a mail: dates (the end day included) or times, in UTC."""
    def when(text: str, last: bool) -> datetime:
        for fmt in ("%Y-%m-%dT%H:%M", "%Y-%m-%d"):
            try:
                at = datetime.strptime(text, fmt).replace(tzinfo=timezone.utc)
            except ValueError:
                continue
            return at + timedelta(days=1) if last and fmt == "%Y-%m-%d" else at
        raise ServiceError("%(text)s is not a date like 2026-12-20 or a time like 2026-12-20T08:00 (UTC)",
                           text=repr(text))
    return when(start, False), when(end, True)
