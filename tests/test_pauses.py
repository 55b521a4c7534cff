"""A paused game's mails and clock (issue 32 item 6): the pause mail says the game is paused,
not when a deadline falls; an extension granted during the pause survives the resume."""

from __future__ import annotations

from datetime import timedelta

import pytest

from websupport import ANNA, MOD, Site


@pytest.fixture
def site(tmp_path):
    site = Site(tmp_path)
    yield site
    site.store.close()


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
    # the resume's new deadline is a full 48 hours from now, and the day granted during the pause
    assert about(site.service.deadline(game_id) - site.service.now(), timedelta(hours=48 + 24))
    # a second pause and resume without an extension: the full period only (the day was spent)
    site.service.moderate(game_id, MOD, "pause", "again")
    site.service.moderate(game_id, MOD, "resume", "back again")
    assert about(site.service.deadline(game_id) - site.service.now(), timedelta(hours=48))


def test_the_players_game_log_shows_an_extension_in_hours(site):
    game_id, _ = site.game(settings={"hours": 48})
    site.service.moderate(game_id, MOD, "extend", "Anna asked for more time", hours=36)
    page = site.client(ANNA).get(f"/games/{game_id}").text
    log = page[page.index('class="audit"'):]
    assert '>extend <span class="detail">hours=36</span>' in log and "Anna asked for more time" in log
