"""A paused game's mails and clock (issue 32 item 6): the pause mail says the game is paused,
not when a deadline falls; the resume gives the time the clock had left, with any extension granted during
the pause, and a deadline set by hand during the pause stands."""

from __future__ import annotations

from datetime import timedelta

from websupport import ANNA, MOD


def about(left: timedelta, expected: timedelta) -> bool:
    """Equal to the minute (deadlines are stored to the second, and the test's own steps take a moment)."""
    return abs(left - expected) < timedelta(minutes=1)


def test_the_pause_mail_says_paused_and_an_extension_during_the_pause_survives_the_resume(site):
    game_id, _ = site.game(settings={"hours": 48})
    site.service.moderate(game_id, MOD, "pause", "a holiday")
    [mail] = site.store.query("SELECT body FROM outbox WHERE to_addr = ? AND kind = 'moderator'", (ANNA,))
    assert "The game is paused: no deadline runs until the moderator resumes it." in mail["body"]
    assert "Deadline:" not in mail["body"]
    site.service.moderate(game_id, MOD, "extend", "Anna asked for a day more", hours=24)
    site.service.moderate(game_id, MOD, "resume", "back")
    # paused at once: the resume gives the 48 hours left, and the day granted during the pause
    assert about(site.service.deadline(game_id) - site.service.now(), timedelta(hours=48 + 24))


def later(site, hours: float) -> None:
    """The service's clock moved on by ``hours``."""
    moment = site.service.now() + timedelta(hours=hours)
    site.service.clock = lambda: moment


def test_the_resume_gives_the_time_left_and_the_extensions_of_the_pause(site):
    game_id, _ = site.game(settings={"hours": 48})
    later(site, 30)  # 18 hours left
    site.service.moderate(game_id, MOD, "pause", "a holiday")
    later(site, 5 * 24)  # a pause of five days
    site.service.moderate(game_id, MOD, "extend", "Anna asked for more time", hours=6)
    site.service.moderate(game_id, MOD, "extend", "and a little more", hours=2)
    site.service.moderate(game_id, MOD, "resume", "back")
    assert about(site.service.deadline(game_id) - site.service.now(), timedelta(hours=18 + 6 + 2))
    # a second pause without an extension: the time left again, the extensions spent with the first
    later(site, 20)  # 6 hours left
    site.service.moderate(game_id, MOD, "pause", "again")
    later(site, 48)
    site.service.moderate(game_id, MOD, "resume", "back again")
    assert about(site.service.deadline(game_id) - site.service.now(), timedelta(hours=6))
    # a deadline the clock had already passed (its grace time running) when paused: a full day's time
    later(site, 7)
    site.service.moderate(game_id, MOD, "pause", "once more")
    site.service.moderate(game_id, MOD, "resume", "and back")
    assert about(site.service.deadline(game_id) - site.service.now(), timedelta(hours=48))


def test_a_deadline_set_during_the_pause_stands_at_the_resume(site):
    game_id, _ = site.game(settings={"hours": 48})
    site.service.moderate(game_id, MOD, "pause", "a holiday")
    later(site, 24)
    moment = site.service.now() + timedelta(hours=30)
    site.service.moderate(game_id, MOD, "deadline", "the club meets then", when=moment.strftime("%Y-%m-%d %H:%M"))
    site.service.moderate(game_id, MOD, "extend", "and an hour", hours=1)
    later(site, 12)
    site.service.moderate(game_id, MOD, "resume", "back")
    assert about(site.service.deadline(game_id), moment + timedelta(hours=1))


def test_the_players_game_log_shows_an_extension_in_hours(site):
    game_id, _ = site.game(settings={"hours": 48})
    site.service.moderate(game_id, MOD, "extend", "Anna asked for more time", hours=36)
    page = site.client(ANNA).get(f"/games/{game_id}").text
    log = page[page.index('class="audit"'):]
    assert '>extend <span class="detail">hours=36</span>' in log and "Anna asked for more time" in log
