"""The league pages through the Flask test client on a real database: founding a league,
signing up, creating and entering a tournament, the organiser's console, the public
crosstable, and who may do what."""

from __future__ import annotations

import pytest

from pbem.server.leagues.service import Leagues

from leaguesupport import ORG
from websupport import ADMIN, ANNA, FRED, OTTO, SMALL, csrf, post


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
    record = site.client(ANNA).get(f"/players/{ANNA}")
    assert record.status_code == 200 and "Reliability" in record.text
    record = site.client(FRED).get(f"/players/{ANNA}")  # another player sees her name, as the league page shows
    assert record.status_code == 200 and "Anna" in record.text and "Reliability" not in record.text


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


def test_an_organiser_who_plays_sees_only_his_seat_on_the_console_and_rules_nothing_of_his_game(site):
    """The seat rule of docs/security.md on the tournament console: an organiser holding a seat in a
    running game sees nothing of the other seat there and may not rule on it; another organiser may."""
    leagues = Leagues(site.service)
    org2 = "org2@example.org"
    league_id = leagues.create_league("Club", ORG, rules={"scenario": SMALL})
    leagues.add_organiser(league_id, ORG, org2)
    for email in (ORG, ANNA, FRED, OTTO, "sub@example.org"):
        leagues.join(league_id, email)
    tid = leagues.create_tournament(league_id, ORG, "Pool", "round_robin")
    for email in (ORG, ANNA, FRED, OTTO):
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    t = leagues.tournament(tid)
    mine = next(p for p in t["pairings"] if ORG in (p["first"], p["second"]))
    other = next(p for p in t["pairings"] if ORG not in (p["first"], p["second"]))
    opponent = mine["second"] if mine["first"] == ORG else mine["first"]
    # the game's moderator is not a player of it: the other organiser moderates the organiser's game
    assert site.service.info(mine["game_id"])["moderator"] == org2
    assert site.service.info(other["game_id"])["moderator"] == ORG
    site.store.update_seat(mine["game_id"], next(s["side"] for s in site.store.seats(mine["game_id"])
                                                  if s["email"] == opponent), missed=1)
    org = site.client(ORG)
    page = org.get(f"/tournaments/{tid}/console")
    assert page.status_code == 200
    row = next(r for r in page.text.split("<tr>") if f"#{mine['game_id']}<" in r)
    assert "you play" in row and "missed" not in row and "Adjudicate" not in row and "Excuse" not in row
    other_row = next(r for r in page.text.split("<tr>") if f"#{other['game_id']}<" in r)
    assert "missed 0" in other_row and "Adjudicate" in other_row
    for action, data in (("adjudicate", {"pairing": str(mine["id"]), "result": "first"}),
                         ("excuse", {"game": str(mine["game_id"]), "side": "austria"}),
                         ("pause", {}), ("replace", {"old": opponent, "new": "sub@example.org"})):
        answer = post(org, f"/tournaments/{tid}/console/{action}", why="test", **data)
        assert answer.status_code == 400 and f"you play in game {mine['game_id']}, which is still running" \
            in answer.text, action
    assert next(p for p in leagues.tournament(tid)["pairings"] if p["id"] == mine["id"])["result"] is None
    assert site.service.info(mine["game_id"])["status"] == "running"
    # his ruling on another game stands; the other organiser rules on his
    assert post(org, f"/tournaments/{tid}/console/adjudicate", pairing=str(other["id"]), result="draw",
                why="agreed").status_code == 302
    assert post(site.client(org2), f"/tournaments/{tid}/console/adjudicate", pairing=str(mine["id"]),
                result="second", why="agreed").status_code == 302
    assert site.service.game(mine["game_id"]).over
    # once his game is over, the console shows it whole again
    row = next(r for r in org.get(f"/tournaments/{tid}/console").text.split("<tr>") if f"#{mine['game_id']}<" in r)
    assert "you play" not in row and "missed 1" in row
