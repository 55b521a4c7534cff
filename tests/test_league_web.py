"""The league pages through the Flask test client on a real database: founding a league,
signing up, creating and entering a tournament, the organiser's console, the public
crosstable, and who may do what."""

from __future__ import annotations

import pytest

from pbem.server.leagues.service import Leagues

from websupport import ADMIN, ANNA, FRED, OTTO, SMALL, Site, csrf, post

ORG = "org@example.org"


@pytest.fixture
def site(tmp_path):
    site = Site(tmp_path)
    yield site
    site.store.close()


def test_a_league_and_a_tournament_on_the_web(site):
    org = site.client(ORG)
    assert post(org, "/leagues", name="Marengo Club").status_code == 302
    leagues = Leagues(site.service)
    league_id = leagues.leagues()[0]["id"]
    site.store.execute("UPDATE leagues SET rules = json_set(rules, '$.scenario', ?) WHERE id = ?", (SMALL, league_id))
    page = site.client().get(f"/leagues/{league_id}")
    assert page.status_code == 200 and "Marengo Club" in page.text and "Sign in" in page.text
    players = {ANNA: "Anna", FRED: "Fred", OTTO: "Otto"}
    for email, name in players.items():
        client = site.client(email)
        assert post(client, f"/leagues/{league_id}/join", name=name).status_code == 302
        assert "You are a member" in client.get(f"/leagues/{league_id}").text
    page = org.get(f"/leagues/{league_id}")
    assert 'id="organise"' in page.text and "Anna" in page.text
    assert ANNA not in page.text.replace(ORG, "")  # members appear by name, never by address
    response = post(org, f"/leagues/{league_id}/organise/tournament", name="Winter Swiss", format="swiss",
                    rounds="2", vacation="no")
    assert response.status_code == 302
    tid = leagues.league(league_id)["tournaments"][0]["id"]
    assert response.location.endswith(f"/tournaments/{tid}/console")
    # members enter; outsiders may not see an unpublished tournament, anonymous visitors sign in first
    for email in players:
        client = site.client(email)
        assert "Enter the tournament" in client.get(f"/tournaments/{tid}").text
        assert post(client, f"/tournaments/{tid}/enter").status_code == 302
    assert site.client("stranger@example.org").get(f"/tournaments/{tid}").status_code == 403
    assert site.client().get(f"/tournaments/{tid}").status_code == 302
    # a player is not the organiser
    anna = site.client(ANNA)
    assert anna.get(f"/tournaments/{tid}/console").status_code == 403
    assert post(anna, f"/tournaments/{tid}/console/start").status_code == 403
    assert leagues.tournament(tid)["status"] == "signup"
    # the organiser starts it: round 1 paired, one bye for three players
    assert post(org, f"/tournaments/{tid}/console/start").status_code == 302
    console = org.get(f"/tournaments/{tid}/console")
    assert console.status_code == 200 and "Adjudicate" in console.text and ANNA in console.text
    t = leagues.tournament(tid)
    game = next(p for p in t["pairings"] if p["game_id"])
    assert site.service.info(game["game_id"])["settings"]["vacation_days"] == 0
    # a reason is needed; then the adjudication ends the game and the next round is paired
    assert post(org, f"/tournaments/{tid}/console/adjudicate", pairing=str(game["id"]), result="first",
                why="").status_code == 400
    assert post(org, f"/tournaments/{tid}/console/adjudicate", pairing=str(game["id"]), result="first",
                why="agreed by both").status_code == 302
    assert site.service.game(game["game_id"]).over
    leagues.tick()
    assert leagues.tournament(tid)["round"] == 2
    # published: anyone sees the crosstable
    assert post(org, f"/tournaments/{tid}/console/publish").status_code == 302
    public = site.client().get(f"/tournaments/{tid}")
    assert public.status_code == 200 and 'id="crosstable"' in public.text and "Buchholz" in public.text
    assert "+bye" in public.text and ANNA not in public.text
    # a player's record
    record = site.client(FRED).get(f"/players/{ANNA}")
    assert record.status_code == 200 and "Reliability" in record.text


def test_organiser_forms_are_for_organisers(site):
    leagues = Leagues(site.service)
    league_id = leagues.create_league("Club", ORG)
    anna = site.client(ANNA)
    assert post(anna, f"/leagues/{league_id}/organise/season", name="2027").status_code == 403
    assert post(anna, f"/leagues/{league_id}/organise/nothing", name="2027").status_code == 404
    org = site.client(ORG)
    assert post(org, f"/leagues/{league_id}/organise/season", name="2027").status_code == 302
    assert post(org, f"/leagues/{league_id}/organise/organiser", email=FRED).status_code == 302
    assert leagues.is_organiser(league_id, FRED)
    assert post(org, f"/leagues/{league_id}/organise/signup", open="0").status_code == 302
    assert leagues.league(league_id)["signup"] == "closed"
    assert post(anna, f"/leagues/{league_id}/join").status_code == 400  # sign-up closed: the page says so
    admin = site.client(ADMIN)
    assert post(admin, f"/leagues/{league_id}/organise/signup", open="1").status_code == 302
    assert site.client().get("/leagues").status_code == 200
    assert site.client().get("/leagues/999").status_code == 404
    assert site.client(ANNA).get("/tournaments/999/console").status_code == 404
    assert post(site.client(ANNA), "/leagues", name="").status_code == 400
