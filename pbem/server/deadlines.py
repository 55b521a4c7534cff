"""Game clocks: when a day's orders are due, reminders, vacations.

Pure functions of a game's settings and a time; the scheduler calls them.
Times are timezone-aware datetimes; settings are the dict stored with the game:

``clock``           "interval" (a fixed time per day) or "daily" (a fixed hour)
``hours``/``minutes``/``seconds``  the time per day, for "interval" (default 48 hours)
``at``              "HH:MM", for "daily": orders are due at that time of day
``timezone``        the game's time zone for "daily" and skipped weekdays (IANA name)
``skip_weekdays``   weekdays with no deadline, 0 = Monday ... 6 = Sunday
``reminders``       hours before the deadline to remind a side with no orders
``grace_minutes``   extra time after the deadline before a side without orders misses
``miss_policy``     "warn", "alert" (tell the moderator) or "forfeit" after ``miss_limit`` misses
``miss_limit``      how many missed days the policy tolerates (default 3)
``vacation_days``   most days of vacation a player may take in one game (default 14)
``ask``             decision kinds a side answers by mail ("ask me"); [] by default
``ask_minutes``     how long an "ask me" question waits for its answer (default 720)
``early``           resolve as soon as the moving side marks its orders FINAL (default true)
``spectator_delay`` None: onlookers see the game once it is over (the default); a number N: anyone may
                    watch it while it is played, in the neutral view, N days behind (the replay page)
``private``         true: the game is not listed among the open games; its seats go by invitation
``press``           messages between seats: "none", "open" (any seat to any) or "game" (the game's
                    own rule, ``press_rule`` of its ruleset; open where it has none) (default "game")
"""

from __future__ import annotations

import functools
from datetime import datetime, timedelta, timezone
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from pbem.lang import Text, Tongue
from pbem.server import i18n

DEFAULTS = {
    "clock": "interval",
    "hours": 48,
    "minutes": 0,
    "seconds": 0,
    "at": "18:00",
    "timezone": "UTC",
    "skip_weekdays": [],
    "reminders": [24, 2],
    "grace_minutes": 0,
    "miss_policy": "warn",
    "miss_limit": 3,
    "vacation_days": 14,
    "ask": [],
    "ask_minutes": 720,
    "early": True,
    "press": "game",
    "private": False,
    "spectator_delay": None,
    "subturn_minutes": 720,  # a short step inside a turn (a battle round, a bid): its own, shorter deadline
}
POLICIES = ("warn", "alert", "forfeit")
PRESS = ("none", "open", "game")
REMINDER_QUIET = timedelta(hours=1)
"""No reminder in a turn's first hour: it would come just after the report or welcome."""


class SettingsError(i18n.Refusal):
    """Game settings that cannot be used; the message says which and why."""


CLOCK_PARTS = ("hours", "minutes", "seconds")
"""The parts of the time per turn: given one, the others not given are 0 (``minutes = 5`` is five
minutes, not 48 hours and five minutes)."""


def settings_with_defaults(settings: dict | None) -> dict:
    out = dict(DEFAULTS)
    if any(part in (settings or {}) for part in CLOCK_PARTS):
        out.update(dict.fromkeys(CLOCK_PARTS, 0))
    out.update(settings or {})
    check_settings(out)
    return out


def zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        raise SettingsError("unknown time zone %(name)s (use a name like Europe/Paris or UTC)",
                            name=repr(name)) from None


def check_settings(s: dict) -> None:
    if s["clock"] not in ("interval", "daily"):
        raise SettingsError("clock must be 'interval' or 'daily'")
    zone(s["timezone"])
    if s["clock"] == "interval" and day_length(s) <= timedelta(0):
        raise SettingsError("the time per day must be positive")
    if s["clock"] == "daily":
        parse_at(s["at"])
    if not set(s["skip_weekdays"]) < set(range(7)):  # weekdays 0-6, not all seven: a proper subset of the week
        raise SettingsError("skip_weekdays takes weekday numbers 0 (Monday) to 6 (Sunday), not all seven")
    if not isinstance(s["subturn_minutes"], int) or s["subturn_minutes"] < 1:
        raise SettingsError("subturn_minutes (the deadline of a short step inside a turn) must be a positive number")
    delay = s["spectator_delay"]
    if delay is not None and (not isinstance(delay, int) or isinstance(delay, bool) or delay < 0):
        raise SettingsError("spectator_delay is a number of days (0 or more), or none")
    if not isinstance(s["private"], bool):
        raise SettingsError("private is true or false")
    if s["press"] not in PRESS:
        raise SettingsError("press must be one of %(names)s", names=', '.join(PRESS))
    if s["miss_policy"] not in POLICIES:
        raise SettingsError("miss_policy must be one of %(names)s", names=', '.join(POLICIES))


def parse_at(text: str) -> tuple[int, int]:
    try:
        h, m = (int(x) for x in str(text).split(":"))
        if 0 <= h < 24 and 0 <= m < 60:
            return h, m
    except ValueError:
        pass
    raise SettingsError("at must be a time of day like 18:00, not %(text)s", text=repr(text))


def day_length(s: dict) -> timedelta:
    return timedelta(hours=s["hours"], minutes=s["minutes"], seconds=s["seconds"])


def next_deadline(settings: dict, start: datetime, subturn: bool = False) -> datetime:
    """The deadline of a day whose orders may be sent from ``start``; a sub-turn's
    (``subturn``) comes ``subturn_minutes`` after ``start``, whatever the clock."""
    s = settings_with_defaults(settings)
    if subturn:
        return start + timedelta(minutes=s["subturn_minutes"])
    tz = zone(s["timezone"])
    skip = set(s["skip_weekdays"])
    if s["clock"] == "interval":
        when = start + day_length(s)
        while when.astimezone(tz).weekday() in skip:
            when += timedelta(days=1)
        return when
    h, m = parse_at(s["at"])
    local = start.astimezone(tz)
    when = local.replace(hour=h, minute=m, second=0, microsecond=0)
    # at least half a day to write orders
    while when <= local + timedelta(hours=12) or when.weekday() in skip:
        when = (when + timedelta(days=1)).replace(hour=h, minute=m)  # pragma: no mutate (the hour is h already)
    return when.astimezone(timezone.utc)


def reminder_times(settings: dict, deadline: datetime) -> list[tuple[int, datetime]]:
    s = settings_with_defaults(settings)
    return [(h, deadline - timedelta(hours=h)) for h in sorted(s["reminders"], reverse=True)]


def grace_end(settings: dict, deadline: datetime) -> datetime:
    return deadline + timedelta(minutes=settings_with_defaults(settings)["grace_minutes"])


def local_time(when: datetime, tz_name: str, now: datetime | None = None, lang: str | None = None) -> str:
    """A deadline as a player reads it, in their own time zone and language (and, given ``now``,
    with the time left: "Friday 06 November 2026, 18:00 Europe/Vienna, in 1 day 4 hours"); ``lang`` None,
    or a code naming no language of the server: English."""
    try:
        tz = ZoneInfo(tz_name)
    except (ZoneInfoNotFoundError, ValueError):
        tz, tz_name = ZoneInfo("UTC"), "UTC"
    local = when.astimezone(tz)
    if i18n.normalise(lang) in (None, "en"):
        text = local.strftime("%A %d %B %Y, %H:%M ") + tz_name
    else:  # the day and month in the reader's words (CLDR's, through Babel)
        from babel.dates import format_date

        text = format_date(local.date(), "full", locale=i18n.babel_locale(lang)) + local.strftime(", %H:%M ") + tz_name
    return text if now is None else f"{text}, {time_left(when - now, lang)}"


def moment_text(when: datetime, tz_name: str, lang: str | None = None) -> str:
    """A moment a player wrote and is told back (a vacation's start and end): ``local_time``'s words in
    his language, then the exact moment as he may write it again: "Sunday 20 December 2026, 00:00 UTC
    (2026-12-20T00:00:00Z)"."""
    return f"{local_time(when, tz_name, lang=lang)} ({iso(when)})"


class LocalTime(Text):
    """A moment as a value of a sentence written once and read later by each reader in his own language
    (a moderator's "the deadline is now %(when)s", mailed to every seat): ``local_time`` in time zone
    ``tz_name``, in the words of whichever language reads the sentence (``str()``: the English)."""

    def __init__(self, when: datetime, tz_name: str):
        super().__init__(local_time(when, tz_name))
        self.when, self.tz_name = when, tz_name

    def read_in(self, tongue: Tongue) -> str:
        return local_time(self.when, self.tz_name, lang=tongue.lang)


def time_left(left: timedelta, lang: str | None = None) -> str:
    """``left`` in words, to the minute: "in 1 day 4 hours", "in 35 minutes", "passed"."""
    tr = i18n.translator(lang)
    minutes = int(left.total_seconds() // 60)  # pragma: no mutate (/ or //: passed below a minute)
    if minutes <= 0:
        return tr.gettext("passed")
    days, minutes = divmod(minutes, 24 * 60)
    hours, minutes = divmod(minutes, 60)
    parts = [text for n, text in ((days, tr.ngettext("%(num)d day", "%(num)d days", days)),
                                  (hours, tr.ngettext("%(num)d hour", "%(num)d hours", hours)),
                                  (minutes, tr.ngettext("%(num)d minute", "%(num)d minutes", minutes))) if n][:2]
    return tr.gettext("in %(time)s", time=" ".join(parts))


def parse_iso(text: str | None) -> datetime | None:
    if not text:
        return None
    return _parsed_iso(text)


@functools.lru_cache(maxsize=4096)
def _parsed_iso(text: str) -> datetime:
    """``parse_iso`` of a text, kept (a datetime never changes): a game's deadline is read several times a mail
    and a tick, and ``strptime`` was the most of each reading."""
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=timezone.utc)


def iso(when: datetime) -> str:
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")
