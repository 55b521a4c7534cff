"""Every game setting docs/operations.md lists is taken where it says (the JSON API, over a real HTTP server
on loopback, and a league's rules), and the time per turn given in minutes or seconds is that time, not
48 hours more (issue 34)."""

from __future__ import annotations

import re
from datetime import timedelta
from pathlib import Path

from pbem.server import deadlines
from pbem.server.leagues.service import check_rules

from test_around_settings import Http, served  # noqa: F401 -- the site on a real HTTP server
from websupport import ANNA, SMALL

DOCS = Path(__file__).resolve().parents[1] / "docs" / "operations.md"

SAMPLES = {"clock": "interval", "hours": 3, "minutes": 7, "seconds": 30, "at": "19:30", "timezone": "Europe/Paris",
           "skip_weekdays": [6], "reminders": [12], "grace_minutes": 15, "early": False, "miss_limit": 2,
           "miss_policy": "alert", "vacation_days": 3, "ask": [], "ask_minutes": 60, "press": "open",
           "private": True, "spectator_delay": 1, "subturn_minutes": 30}
"""A value each documented setting takes (not its default, so that the stored value shows it was read)."""


def documented_game_settings() -> list[str]:
    text = DOCS.read_text(encoding="utf-8")
    table = text.split("### Game settings", 1)[1].split("\n## ", 1)[0]
    names = []
    for row in table.splitlines():
        if row.startswith("| ") and not row.startswith("| setting") and not row.startswith("|---"):
            first = row.split("|")[1]
            names += [n for n in re.findall(r"`([a-z_]+)(?: = [^`]*)?`", first)]
    return names


def test_the_docs_list_the_settings_the_server_has():
    listed = documented_game_settings()
    assert set(listed) == set(deadlines.DEFAULTS), "docs/operations.md's game settings table and deadlines.DEFAULTS"
    assert set(SAMPLES) == set(listed)


def test_the_api_takes_every_documented_setting(served):  # noqa: F811
    anna = Http(served, ANNA)
    for name in documented_game_settings():
        status, made = anna.post("/api/games", {"title": f"With {name}", "scenario": SMALL, "seats": ["austria"],
                                                "settings": {name: SAMPLES[name]}})
        assert status == 201, (name, made)
        assert served.service.info(made["id"])["settings"][name] == SAMPLES[name], name


def test_minutes_alone_are_the_time_per_turn(served):  # noqa: F811
    anna = Http(served, ANNA)
    status, made = anna.post("/api/games", {"title": "Trial", "scenario": SMALL, "seats": ["austria"],
                                            "settings": {"minutes": 5}})
    assert status == 201, made
    stored = served.service.info(made["id"])["settings"]
    assert deadlines.day_length(stored) == timedelta(minutes=5)
    status, made = anna.post("/api/games", {"title": "Trial", "scenario": SMALL, "seats": ["austria"],
                                            "settings": {"seconds": 90}})
    assert deadlines.day_length(served.service.info(made["id"])["settings"]) == timedelta(seconds=90)
    status, made = anna.post("/api/games", {"title": "Default", "scenario": SMALL, "seats": ["austria"]})
    assert deadlines.day_length(served.service.info(made["id"])["settings"]) == timedelta(hours=48)


def test_a_league_rule_in_minutes_replaces_the_default_time():
    assert deadlines.day_length(deadlines.settings_with_defaults({"minutes": 10})) == timedelta(minutes=10)
    assert deadlines.day_length(deadlines.settings_with_defaults({"hours": 1, "minutes": 10})) == \
        timedelta(hours=1, minutes=10)
    assert deadlines.day_length(deadlines.settings_with_defaults({"grace_minutes": 10})) == timedelta(hours=48)
    rules = check_rules({"settings": {"minutes": 10}})
    assert deadlines.day_length(deadlines.settings_with_defaults(rules["settings"])) == timedelta(minutes=10)


def test_every_setting_the_settings_table_names_is_one_the_server_takes(tmp_path):
    """The other way round from tests/test_docs.py: each name in the first column of docs/operations.md's
    "Settings" table is a setting a config file may set (an unknown one stops the server)."""
    import dataclasses

    from pbem.server.config import Config, load_config

    text = DOCS.read_text(encoding="utf-8")
    table = text.split("\n## Settings\n", 1)[1].split("\n## ", 1)[0]
    named = set()
    for row in table.splitlines():
        if row.startswith("| `"):
            named |= set(re.findall(r"`([a-z_]+)`", row.split("|")[1]))
    assert named and named <= {f.name for f in dataclasses.fields(Config)}, named - {f.name for f in dataclasses.fields(Config)}
    settings = tmp_path / "pbem.toml"
    settings.write_text(f'instance = "{tmp_path}"\nimap_after = "move"\nsmtp_connections = 5\n', encoding="utf-8")
    assert load_config(str(settings), env={}).smtp_connections == 5
