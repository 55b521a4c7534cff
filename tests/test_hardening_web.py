"""Hardening, second round (issue 28 §5, §12, §13): the web app over a real SQLite file, and mail
through the real SMTP door.

- a new game's scenario is chosen by name from the ruleset's own list (the name /api/rulesets
  gives), never read from a path the request names;
- a player's record shows his address and reliability only to himself and the admin;
- JSON nested beyond the reader is a 400, pages chosen by Accept-Language say so in ``Vary``, and a
  mail whose subject begins ``Auto:`` is a robot's, never answered.
"""

from __future__ import annotations

import os
import threading

import pytest

from pbem.server.leagues.service import Leagues

from test_mail_hostile import Door, mail
from websupport import ADMIN, ANNA, FRED, OTTO, SMALL, post


def api_post(client, path, body):
    return client.post(path, json=body, headers={"X-CSRF-Token": client.csrf})


# -- §5: a scenario by its name from the ruleset's list, never a path ---------------------------------


def test_every_scenario_named_by_api_rulesets_makes_a_game(site):
    anna = site.client(ANNA)
    listed = anna.get("/api/rulesets").json["rulesets"]
    made = []
    for ruleset in listed:
        for scenario in ruleset["scenarios"]:
            answer = api_post(anna, "/api/games", {"game": ruleset["name"], "scenario": scenario["name"],
                                                   "title": f"{ruleset['name']} {scenario['name']}"})
            assert answer.status_code == 201, (ruleset["name"], scenario["name"], answer.text)
            info = site.service.info(answer.json["id"])
            assert (info["ruleset"], info["scenario"]) == (ruleset["name"], scenario["file"])
            made.append(ruleset["name"])
    assert {"marengo", "triomphe", "napoleon1815", "dba"} <= set(made)


def test_a_scenario_outside_the_list_is_refused_without_reading_it_or_telling_a_path(site, tmp_path):
    anna = site.client(ANNA)
    fifo = tmp_path / "never-ending"
    os.mkfifo(fifo)  # a read of it would wait for a writer for ever, holding a web thread
    held = []
    for scenario in ("/etc/passwd", "../../../../etc/passwd", "/dev/zero", str(fifo), "maps/marengo.toml",
                     "marengo.toml/..", "", 7, ["marengo"]):
        worker = threading.Thread(target=lambda s=scenario: held.append(
            api_post(anna, "/api/games", {"game": "marengo", "scenario": s, "title": "Sneaky"})), daemon=True)
        worker.start()
        worker.join(60)
        assert not worker.is_alive(), f"{scenario!r} held the request"
        answer = held[-1]
        if scenario == "":
            assert answer.status_code == 201  # none given: the game's first scenario
            continue
        assert answer.status_code == 400, (scenario, answer.text)
        error = answer.json["error"]
        assert "has no scenario" in error and "(scenarios: marengo)" in error, error
        assert "/etc" not in error.replace(repr(str(scenario)[:40]), "") and "Traceback" not in error
        assert str(tmp_path) not in error.replace(repr(str(scenario)[:40]), "")


# -- §12: a player's record --------------------------------------------------------------------------


def test_a_players_address_and_reliability_only_to_himself_and_the_admin(site):
    leagues = Leagues(site.service)
    league_id = leagues.create_league("Club", ADMIN)
    leagues.join(league_id, ANNA, "Anna K.")
    own = site.client(ANNA).get(f"/players/{ANNA}")
    assert own.status_code == 200 and ANNA in own.text and 'id="reliability"' in own.text
    admin = site.client(ADMIN).get(f"/players/{ANNA}")
    assert admin.status_code == 200 and ANNA in admin.text and 'id="reliability"' in admin.text
    other = site.client(FRED).get(f"/players/{ANNA}")
    assert other.status_code == 200 and "Anna K." in other.text and "Club" in other.text  # as the league page
    shown = other.text.replace(f"/players/{ANNA}", "")  # the address he typed, in the page's own links
    assert ANNA not in shown and 'id="reliability"' not in shown
    # an address in no league is no page for anyone else, as an unknown one
    site.game()  # Fred plays: he has a record of days owed
    assert site.client(OTTO).get(f"/players/{FRED}").status_code == 404
    assert site.client(OTTO).get("/players/nobody@example.org").status_code == 404
    assert site.client(FRED).get(f"/players/{FRED}").status_code == 200


# -- §13: deep JSON, Vary, Auto: ---------------------------------------------------------------------


def test_json_nested_beyond_the_reader_is_a_400_not_a_500(site):
    game_id, _keys = site.game()
    anna = site.client(ANNA)
    deep = "[" * 100_000 + "]" * 100_000
    for path in (f"/games/{game_id}/map/offers.json", "/api/games", f"/api/games/{game_id}/orders"):
        answer = anna.post(path, data=deep, content_type="application/json", headers={"X-CSRF-Token": anna.csrf})
        assert answer.status_code == 400, (path, answer.status_code, answer.text[:300])
    # a seat key's JSON body is read for its side: deep JSON there is a refusal too, never a crash
    answer = site.client().post(f"/api/games/{game_id}/orders", data=deep, content_type="application/json",
                                headers={"Authorization": "Bearer nope"})
    assert answer.status_code in (400, 401), answer.text[:300]


def test_a_page_in_the_browsers_language_varies_by_accept_language(site):
    stranger = site.client()
    for path in ("/login", "/leagues", "/api/rulesets"):
        french = stranger.get(path, headers={"Accept-Language": "fr"})
        assert french.status_code == 200
        assert "Accept-Language" in french.vary and "Cookie" in french.vary, (path, french.headers)
    page = stranger.get("/login", headers={"Accept-Language": "fr"}).text
    assert "Se connecter" in page or "connexion" in page.lower()  # the French page it says it varies for


@pytest.fixture
def door(tmp_path):
    d = Door(tmp_path)
    yield d
    d.close()


@pytest.mark.parametrize("subject", ["Auto: I am away until Monday", "AUTO : absent", "auto:away"])
def test_a_mail_whose_subject_begins_auto_colon_is_never_answered(door, subject):
    door.send(mail("HELP\n", sender="colleague@example.net", subject=subject))
    door.process()
    assert door.answers() == []
    assert door.store.query_one("SELECT status FROM inbound")["status"] == "dropped"


def test_a_persons_subject_beginning_with_auto_is_answered(door):
    door.send(mail("HELP\n", sender="colleague@example.net", subject="Automobile club: the game?"))
    door.process()
    assert len(door.answers("colleague@example.net")) == 1
