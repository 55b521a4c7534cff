"""What a newcomer's trial found (issue 13): the server side, each fix with the test
that failed before it, over a real SQLite file and the real web app."""

from __future__ import annotations

import pytest

from websupport import ADMIN, ANNA, FRED, MOD, OTTO, SMALL, Site, csrf


@pytest.fixture
def site(tmp_path):
    s = Site(tmp_path)
    yield s
    s.store.close()


# -- games made by the JSON API take the web form's defaults ------------------------------


def test_a_game_made_by_the_api_without_settings_has_the_default_settings(site):
    anna = site.client(ANNA)
    made = anna.post("/api/games", json={"title": "By script", "scenario": SMALL, "seats": ["austria"]},
                     headers={"X-CSRF-Token": anna.csrf})
    assert made.status_code == 201, made.text
    settings = site.service.info(made.json["id"])["settings"]
    assert settings["early"] is True and settings["reminders"] == [24, 2] and settings["hours"] == 48
    told = anna.post("/api/games", json={"title": "No early", "scenario": SMALL, "seats": ["austria"],
                                         "settings": {"early": False, "hours": 24}},
                     headers={"X-CSRF-Token": anna.csrf})
    settings = site.service.info(told.json["id"])["settings"]
    assert (settings["early"], settings["hours"], settings["reminders"]) == (False, 24, [24, 2])
