"""Game clocks, asserted exactly at their edges (pbem.server.deadlines).

These tests kill the mutants scripts/mutation's "clocks" group found alive: each
edge of a setting's check, of the deadline arithmetic (intervals, daily hours,
skipped weekdays, the half day to write orders) and of how a time is told to a
player is pinned to its exact answer.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from pbem.lang import ENGLISH, Text
from pbem.server import deadlines as d
from pbem.server import i18n
from pbem.server.deadlines import SettingsError

UTC = timezone.utc
MONDAY = datetime(2026, 11, 2, 9, 30, tzinfo=UTC)  # a Monday
FIXED = datetime(2026, 11, 6, 18, 0, tzinfo=UTC)  # a Friday


def refused(settings: dict) -> str:
    with pytest.raises(SettingsError) as error:
        d.settings_with_defaults(settings)
    return str(error.value)


def test_defaults_fill_what_a_game_leaves_out_and_keep_what_it_says():
    s = d.settings_with_defaults({"hours": 2})
    assert s == {**d.DEFAULTS, "hours": 2}
    assert d.settings_with_defaults(None) == d.DEFAULTS
    assert d.DEFAULTS["reminders"] == [24, 2] and d.DEFAULTS["grace_minutes"] == 0


def test_each_bad_setting_is_refused_with_its_reason():
    assert refused({"clock": "weekly"}) == "clock must be 'interval' or 'daily'"
    assert refused({"timezone": "Mars/Olympus"}) == \
        "unknown time zone 'Mars/Olympus' (use a name like Europe/Paris or UTC)"
    assert refused({"timezone": "../etc"}).startswith("unknown time zone '../etc'")
    assert refused({"hours": 0}) == "the time per day must be positive"
    assert refused({"hours": 0, "minutes": -1, "seconds": 59}) == "the time per day must be positive"
    assert refused({"clock": "daily", "at": "24:00"}) == "at must be a time of day like 18:00, not '24:00'"
    assert refused({"skip_weekdays": [7]}) == \
        "skip_weekdays takes weekday numbers 0 (Monday) to 6 (Sunday), not all seven"
    assert refused({"skip_weekdays": list(range(7))}).startswith("skip_weekdays takes")
    assert refused({"subturn_minutes": 0}) == \
        "subturn_minutes (the deadline of a short step inside a turn) must be a positive number"
    assert refused({"subturn_minutes": 1.5}).startswith("subturn_minutes")
    assert refused({"miss_policy": "ignore"}) == "miss_policy must be one of warn, alert, forfeit"
    for delay in (-1, True, False, "3", 1.5):  # a bool is an int to Python, not a number of days here
        assert refused({"spectator_delay": delay}) == "spectator_delay is a number of days (0 or more), or none"
    for private in (1, "yes", None):
        assert refused({"private": private}) == "private is true or false"
    assert refused({"press": "gossip"}) == "press must be one of none, open, game"


def test_the_edges_that_are_allowed():
    for ok in ({"hours": 0, "seconds": 1}, {"skip_weekdays": [0, 1, 2, 3, 4, 5]}, {"skip_weekdays": [6, 6]},
               {"subturn_minutes": 1}, {"clock": "daily", "at": "23:59"}, {"clock": "daily", "at": "0:00"},
               {"clock": "interval", "at": "not looked at"}, {"hours": 0, "minutes": 0, "seconds": 0,
                                                               "clock": "daily"},
               {"miss_policy": "forfeit"}, {"miss_policy": "alert"}, {"timezone": "Europe/Vienna"},
               {"spectator_delay": None}, {"spectator_delay": 0}, {"spectator_delay": 3}, {"private": True},
               {"private": False}, {"press": "none"}, {"press": "open"}, {"press": "game"}):
        assert d.settings_with_defaults(ok) == {**d.DEFAULTS, **ok}


@pytest.mark.parametrize("text", ["24:00", "12:60", "-1:00", "7", "x:y", "1:2:3", ""])
def test_parse_at_refuses_what_is_not_a_time_of_day(text):
    with pytest.raises(SettingsError, match=f"at must be a time of day like 18:00, not {text!r}"):
        d.parse_at(text)


def test_parse_at_reads_hours_and_minutes():
    assert d.parse_at("0:00") == (0, 0)
    assert d.parse_at("23:59") == (23, 59)
    assert d.parse_at("07:05") == (7, 5)


def test_an_interval_day_and_a_subturn():
    assert d.next_deadline({"hours": 48}, MONDAY) == MONDAY + timedelta(hours=48)
    assert d.next_deadline({"hours": 1, "minutes": 2, "seconds": 3}, MONDAY) == \
        MONDAY + timedelta(hours=1, minutes=2, seconds=3)
    assert d.next_deadline({}, MONDAY, subturn=True) == MONDAY + timedelta(minutes=720)
    assert d.next_deadline({"subturn_minutes": 5, "clock": "daily"}, MONDAY, subturn=True) == \
        MONDAY + timedelta(minutes=5)


def test_an_interval_deadline_skips_the_skipped_weekdays_in_the_games_zone():
    # Monday + 4 days = Friday; Friday and Saturday skipped: Sunday
    assert d.next_deadline({"hours": 96, "skip_weekdays": [4, 5]}, MONDAY) == MONDAY + timedelta(days=6)
    # 23:30 UTC on Saturday is already Sunday in Tokyo: a skipped Saturday does not hold it back there
    late = datetime(2026, 11, 6, 23, 30, tzinfo=UTC)  # a Friday
    assert d.next_deadline({"hours": 24, "skip_weekdays": [5], "timezone": "Asia/Tokyo"}, late) == \
        late + timedelta(hours=24)
    assert d.next_deadline({"hours": 24, "skip_weekdays": [5]}, late) == late + timedelta(hours=48)


def test_a_daily_deadline_leaves_at_least_half_a_day():
    daily = {"clock": "daily", "at": "18:00"}
    assert d.next_deadline(daily, datetime(2026, 11, 2, 5, 59, tzinfo=UTC)) == \
        datetime(2026, 11, 2, 18, 0, tzinfo=UTC)
    # exactly twelve hours before 18:00 is not enough
    assert d.next_deadline(daily, datetime(2026, 11, 2, 6, 0, tzinfo=UTC)) == \
        datetime(2026, 11, 3, 18, 0, tzinfo=UTC)
    assert d.next_deadline(daily, datetime(2026, 11, 2, 19, 0, tzinfo=UTC)) == \
        datetime(2026, 11, 3, 18, 0, tzinfo=UTC)


def test_a_daily_deadline_in_the_games_zone_skipping_weekdays():
    vienna = {"clock": "daily", "at": "18:30", "timezone": "Europe/Vienna", "skip_weekdays": [1, 2]}
    when = d.next_deadline(vienna, datetime(2026, 11, 2, 1, 0, 7, 5, tzinfo=UTC))  # Monday 02:00 in Vienna
    assert when == datetime(2026, 11, 2, 17, 30, tzinfo=UTC)  # Monday 18:30 CET
    assert when.tzinfo == UTC
    when = d.next_deadline(vienna, datetime(2026, 11, 2, 10, 0, tzinfo=UTC))  # Tuesday, Wednesday skipped
    assert when == datetime(2026, 11, 5, 17, 30, tzinfo=UTC)


def test_reminders_latest_first_and_grace_in_minutes():
    deadline = datetime(2026, 11, 4, 18, 0, tzinfo=UTC)
    assert d.reminder_times({"reminders": [2, 24, 6]}, deadline) == [
        (24, datetime(2026, 11, 3, 18, 0, tzinfo=UTC)), (6, datetime(2026, 11, 4, 12, 0, tzinfo=UTC)),
        (2, datetime(2026, 11, 4, 16, 0, tzinfo=UTC))]
    assert d.reminder_times({}, deadline) == [(24, deadline - timedelta(hours=24)),
                                              (2, deadline - timedelta(hours=2))]
    assert d.grace_end({"grace_minutes": 90}, deadline) == deadline + timedelta(minutes=90)
    assert d.grace_end({}, deadline) == deadline


def test_a_deadline_as_a_player_reads_it():
    when = datetime(2026, 11, 6, 17, 0, tzinfo=UTC)
    assert d.local_time(when, "Europe/Vienna") == "Friday 06 November 2026, 18:00 Europe/Vienna"
    assert d.local_time(when, "Nowhere/Else") == "Friday 06 November 2026, 17:00 UTC"
    assert d.local_time(when, "../x") == "Friday 06 November 2026, 17:00 UTC"
    assert d.local_time(when, "UTC", now=when - timedelta(days=1, hours=4)) == \
        "Friday 06 November 2026, 17:00 UTC, in 1 day 4 hours"


@pytest.mark.parametrize("left, words", [
    (timedelta(days=1, hours=4, minutes=5), "in 1 day 4 hours"),
    (timedelta(days=2, minutes=5), "in 2 days 5 minutes"),
    (timedelta(hours=2, minutes=1), "in 2 hours 1 minute"),
    (timedelta(hours=1), "in 1 hour"),
    (timedelta(minutes=35, seconds=59), "in 35 minutes"),
    (timedelta(minutes=1), "in 1 minute"),
    (timedelta(seconds=59), "passed"),
    (timedelta(0), "passed"),
    (timedelta(minutes=-5), "passed"),
])
def test_time_left_in_words(left, words):
    assert d.time_left(left) == words


def test_iso_times_round_trip_in_utc():
    assert d.parse_iso("2026-11-06T17:00:00Z") == datetime(2026, 11, 6, 17, 0, tzinfo=UTC)
    assert d.parse_iso("") is None and d.parse_iso(None) is None
    vienna = d.zone("Europe/Vienna")
    assert d.iso(datetime(2026, 11, 6, 18, 0, 5, tzinfo=vienna)) == "2026-11-06T17:00:05Z"


@pytest.fixture
def machine_in_tokyo(monkeypatch):
    """The machine's own time zone set far from UTC, for this test only."""
    import time

    monkeypatch.setenv("TZ", "Asia/Tokyo")
    time.tzset()
    yield
    monkeypatch.undo()
    time.tzset()


def test_the_machines_own_time_zone_changes_nothing(machine_in_tokyo):
    vienna = d.zone("Europe/Vienna")
    assert d.iso(datetime(2026, 11, 6, 18, 0, 5, tzinfo=vienna)) == "2026-11-06T17:00:05Z"
    when = d.next_deadline({"clock": "daily", "at": "18:30", "timezone": "Europe/Vienna"},
                           datetime(2026, 11, 2, 1, 0, tzinfo=UTC))
    assert when == datetime(2026, 11, 2, 17, 30, tzinfo=UTC) and when.utcoffset() == timedelta(0)
    assert when.tzinfo == UTC


def test_a_deadline_in_the_readers_language():
    # local_time: the day and month in the reader's words (CLDR's), the hour and the zone as they are; a
    # code naming no language of the server reads English, as no code does
    when = datetime(2026, 11, 6, 17, 0, tzinfo=UTC)
    assert d.local_time(when, "Europe/Vienna", lang="fr") == "vendredi 6 novembre 2026, 18:00 Europe/Vienna"
    assert d.local_time(when, "Asia/Tokyo", lang="zh") == "2026年11月7日星期六, 02:00 Asia/Tokyo"
    assert d.local_time(when, "UTC", now=when - timedelta(hours=2), lang="fr") == \
        "vendredi 6 novembre 2026, 17:00 UTC, " + d.time_left(timedelta(hours=2), "fr")
    for lang in (None, "en", "EN", "en-GB", "xx"):
        assert d.local_time(when, "Europe/Vienna", lang=lang) == "Friday 06 November 2026, 18:00 Europe/Vienna"
        assert d.time_left(timedelta(hours=2), lang) == "in 2 hours"
    assert d.time_left(timedelta(hours=2)) == "in 2 hours"
    assert d.time_left(timedelta(days=1, minutes=3), "fr") == "dans 1 jour 3 minutes"
    assert d.time_left(timedelta(0), "uk") == "минув"


# -- a moment read in each reader's language (issue 17): a value of a sentence written once, and a date told back --


def test_a_local_time_reads_itself_in_each_language_and_in_english_as_a_str():
    when = d.LocalTime(FIXED, "Europe/Paris")
    assert str(when) == when.message == "Friday 06 November 2026, 19:00 Europe/Paris"
    assert (when.when, when.tz_name) == (FIXED, "Europe/Paris")
    assert i18n.translator("fr").say(when) == "vendredi 6 novembre 2026, 19:00 Europe/Paris"
    assert i18n.translator("uk").say(when) == "пʼятниця, 6 листопада 2026\u202fр., 19:00 Europe/Paris"
    sentence = Text("the deadline is now %(when)s (%(iso)s).", {"when": when, "iso": "2026-11-06T18:00:00Z"})
    assert ENGLISH.say(sentence) == ("the deadline is now Friday 06 November 2026, 19:00 Europe/Paris "
                                     "(2026-11-06T18:00:00Z).")
    assert i18n.translator("zh").say(sentence) == ("截止时间现为 2026年11月6日星期五, 19:00 Europe/Paris"
                                                   "（2026-11-06T18:00:00Z）。")


def test_a_moment_is_told_in_words_then_as_it_is_written():
    assert d.moment_text(FIXED, "UTC") == "Friday 06 November 2026, 18:00 UTC (2026-11-06T18:00:00Z)"
    assert d.moment_text(FIXED, "Asia/Shanghai", "zh") == \
        "2026年11月7日星期六, 02:00 Asia/Shanghai (2026-11-06T18:00:00Z)"
    assert d.moment_text(FIXED, "UTC", lang="ru") == ("пятница, 6 ноября 2026\u202fг., 18:00 UTC "
                                               "(2026-11-06T18:00:00Z)")
