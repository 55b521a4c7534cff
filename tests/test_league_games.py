"""Leagues of every game, from the web forms and the JSON API, checked as a new game is; an
entrant withdrawn by the organiser (forfeit or annul, never paired again, mailed); a finished
result overridden (audited, mailed, standings and ratings follow). Real database, the Flask
test client (docs/leagues.md)."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest

from pbem.server.leagues import ratings
from pbem.server.leagues.service import Leagues
from pbem.server.leagues.standings import cell_text
from pbem.server.service import ServiceError

from leaguesupport import league_of, ORG
from websupport import SMALL, post


def api(client, method, url, payload=None):
    response = client.open(url, method=method, json=payload, headers={"X-CSRF-Token": client.csrf})
    return response.status_code, response.get_json()


def members(site, league_id, count):
    emails = [f"p{n:02}@example.org" for n in range(1, count + 1)]
    for email in emails:
        Leagues(site.service).join(league_id, email, email[:3].upper())
    return emails


def test_a_napoleon_1815_league_of_three_players_from_the_web_form_with_a_clock_in_minutes(site):
    org = site.client(ORG)
    page = org.get("/leagues").text
    assert 'value="napoleon1815:napoleon1815.toml"' in page and 'name="option.napoleon1815.players"' in page
    response = post(org, "/leagues", name="Waterloo Club", scenario="napoleon1815:napoleon1815.toml",
                    **{"option.napoleon1815.players": "3", "option.dba.command": "kriegsspiel"}, minutes="30")
    assert response.status_code == 302
    league = Leagues(site.service).leagues()[0]
    rules = Leagues(site.service).league(league["id"])["rules"]
    assert (rules["game"], rules["scenario"]) == ("napoleon1815", "napoleon1815.toml")
    assert rules["options"] == {"players": "3", "battle": "doctrine", "bid": "none"}  # the chosen game's options only
    assert rules["settings"] == {"miss_policy": "forfeit", "minutes": 30}  # 30 minutes a day, not 48 hours and 30
    # an option's value the game does not have is refused as the new-game form refuses it
    bad = post(org, "/leagues", name="Bad", scenario="napoleon1815:napoleon1815.toml",
               **{"option.napoleon1815.players": "4"})
    assert bad.status_code == 400 and "option players may be 2, 3, not &#39;4&#39;" in bad.text
    # a tournament of the league: its games are three-player Napoleon 1815 on a 30-minute clock
    emails = members(site, league["id"], 3)
    response = post(org, f"/leagues/{league['id']}/organise/tournament", name="Swiss", format="swiss", rounds="1")
    assert response.status_code == 302
    tid = Leagues(site.service).league(league["id"])["tournaments"][0]["id"]
    for email in emails:
        Leagues(site.service).enter(tid, email)
    Leagues(site.service).start(tid, ORG)
    [board] = Leagues(site.service).tournament(tid)["pairings"]
    info = site.service.info(board["game_id"])
    assert info["ruleset"] == "napoleon1815" and info["settings"]["minutes"] == 30 and info["settings"]["hours"] == 0
    assert {s["side"] for s in site.store.seats(board["game_id"])} == {"french", "anglo-dutch", "prussian"}


def test_a_dba_knockout_through_the_json_api_and_its_refusals(site):
    org = site.client(ORG)
    status, out = api(org, "POST", "/api/leagues", {"name": "Club", "rules": {"game": "napoleon1815",
                                                                             "options": {"players": "4"}}})
    assert status == 400 and out["ok"] is False and "option players may be 2, 3, not '4'" in out["error"]
    status, out = api(org, "POST", "/api/leagues", {"name": "Club", "rules": {"settings": {"hourz": 3}}})
    assert status == 400 and "there is no setting 'hourz'" in out["error"]
    status, out = api(org, "POST", "/api/leagues", {"name": "Club", "rules": {"game": "marengo", "scenario": "/etc/passwd"}})
    assert status == 400 and "has no scenario" in out["error"]
    status, out = api(org, "POST", "/api/leagues", {"name": "Club"})
    assert status == 201
    league_id = out["id"]
    emails = members(site, league_id, 4)
    status, out = api(org, "POST", f"/api/leagues/{league_id}/tournaments", {
        "name": "DBA Cup", "format": "knockout",
        "rules": {"game": "dba", "scenario": "dba-meeting.toml", "settings": {"hours": 24, "miss_limit": 2}}})
    assert status == 201, out
    tid = out["id"]
    status, league = api(org, "GET", f"/api/leagues/{league_id}")
    assert league["tournaments"][0]["format"] == "knockout"
    for email in emails:
        player = site.client(email)
        assert api(player, "POST", f"/api/tournaments/{tid}/enter")[0] == 200
    assert api(org, "POST", f"/api/tournaments/{tid}/start", {})[1] == {"ok": True}
    status, t = api(org, "GET", f"/api/tournaments/{tid}")
    assert t["rules"]["game"] == "dba" and len(t["pairings"]) == 2
    info = site.service.info(t["pairings"][0]["game"])
    assert info["ruleset"] == "dba" and info["settings"]["hours"] == 24 and info["settings"]["miss_limit"] == 2
    # a player may not rule, and a ruling without its reason is refused
    assert api(site.client(emails[0]), "POST", f"/api/tournaments/{tid}/pause", {"why": "x"})[0] == 403
    status, out = api(org, "POST", f"/api/tournaments/{tid}/pause", {})
    assert status == 400 and "say why" in out["error"]


def mails_to(site, email):
    return [m for m in site.store.query("SELECT * FROM outbox ORDER BY id") if m["to_addr"].lower() == email.lower()]


@pytest.mark.parametrize("rule", ["forfeit", "annul"])
def test_a_withdrawn_entrant_is_never_paired_again_and_his_games_end_by_the_stated_rule(site, rule):
    leagues, league_id, emails = league_of(site, 4, withdrawal=rule)
    tid = leagues.create_tournament(league_id, ORG, "Pool", "round_robin")
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    t = leagues.tournament(tid)
    gone = t["pairings"][0]["second"]
    with pytest.raises(ServiceError, match="say why"):
        leagues.withdraw(tid, ORG, " ", gone)
    org = site.client(ORG)
    assert 'id="action-withdraw"' in org.get(f"/tournaments/{tid}/console").text
    assert post(org, f"/tournaments/{tid}/console/withdraw", email=gone, why="").status_code == 400
    assert post(org, f"/tournaments/{tid}/console/withdraw", email=gone, why="moved abroad").status_code == 302
    page = org.get(f"/tournaments/{tid}").text
    assert "(withdrawn)" in page and "reason: moved abroad" in page
    stated = "are annulled (they count for nobody)" if rule == "annul" else "are forfeited (each a win for his opponents)"
    assert f"never paired again; his unfinished games {stated}" in page
    assert "up to 14 days a game" in page and "Only the organiser pauses the tournament" in page
    with pytest.raises(ServiceError, match="already withdrawn"):
        leagues.withdraw(tid, ORG, "again", gone)
    t = leagues.tournament(tid)
    board = t["pairings"][0]
    assert site.service.game(board["game_id"]).over
    assert (board["result"], board["how"]) == (("first", "forfeit") if rule == "forfeit" else ("draw", "annulled"))
    entry = next(e for e in t["entries"] if e["email"] == gone)
    assert entry["withdrawn"] == 1 and entry["withdrawn_why"] == "moved abroad"
    mail = mails_to(site, gone)[-1]
    assert "withdrew you from Pool" in mail["body"] and "Reason: moved abroad" in mail["body"]
    assert any(a["action"] == "tournament_withdraw" for a in site.store.query("SELECT * FROM audit"))
    # the other board is played; the rounds after: no game with him, his boards end by the rule
    other = t["pairings"][1]
    leagues.adjudicate(tid, ORG, "by hand", other["id"], "first")
    for _ in range(2):
        leagues.sync(tid)
        t = leagues.tournament(tid)
        for p in t["pairings"]:
            if p["result"] is None:
                assert gone not in (p["first"], p["second"])
                leagues.adjudicate(tid, ORG, "by hand", p["id"], "draw")
    t = leagues.tournament(tid)
    leagues.sync(tid)
    assert leagues.tournament(tid)["status"] == "finished"
    his = [p for p in t["pairings"] if gone in (p["first"], p["second"])]
    assert len(his) == 3 and all(p["game_id"] is None for p in his[1:])
    assert {p["how"] for p in his} == ({"forfeit"} if rule == "forfeit" else {"annulled"})
    rows = {r.email: r for r in leagues.table(tid)["rows"]}
    assert rows[gone].points == 0
    opponents = [p["first"] if p["second"] == gone else p["second"] for p in his]
    if rule == "annul":  # counted for nobody: no point, no Buchholz from him, an x in the crosstable
        numbers = {e["email"]: e["number"] for e in t["entries"]}
        assert cell_text(rows[opponents[0]].cells[1]).startswith(f"x{numbers[gone]}")
    # ratings: an annulled game is not rated, a forfeited one is
    rated = {r["email"] for r in ratings.table(site.store, "marengo")}
    assert (gone in rated) == (rule == "forfeit")


def test_an_organiser_overrides_a_finished_result_with_a_reason(site):
    leagues, league_id, emails = league_of(site, 2)
    tid = leagues.create_tournament(league_id, ORG, "Duel", "round_robin")
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    [board] = leagues.tournament(tid)["pairings"]
    with pytest.raises(ServiceError, match="not over"):
        leagues.override(tid, ORG, "why", board["id"], "second")
    leagues.adjudicate(tid, ORG, "by hand", board["id"], "first")
    before = {r["email"]: r["mu"] for r in ratings.table(site.store, "marengo")}
    assert before[board["first"]] > before[board["second"]]
    leagues.override(tid, ORG, "the first player used a second account", board["id"], "second")
    [board] = leagues.tournament(tid)["pairings"]
    assert (board["result"], board["how"], board["why"]) == ("second", "overridden", "the first player used a second account")
    rows = {r.email: r for r in leagues.table(tid)["rows"]}
    assert rows[board["second"]].points == 1 and rows[board["first"]].points == 0
    assert cell_text(rows[board["second"]].cells[1]).endswith("o")
    after = {r["email"]: r["mu"] for r in ratings.table(site.store, "marengo")}
    assert after[board["second"]] == pytest.approx(before[board["first"]])  # the ratings follow, at once
    for email in emails:
        assert "Reason: the first player used a second account" in mails_to(site, email)[-1]["body"]
    audit = [a for a in site.store.query("SELECT * FROM audit") if a["action"] == "tournament_override"]
    assert len(audit) == 1 and json.loads(audit[0]["detail"])["was"] == ["first", "adjudicated"]


def test_a_rewind_reopens_a_forfeited_tournament_game_and_its_result_standings_and_ratings_follow(site):
    leagues, league_id, emails = league_of(site, 2)
    tid = leagues.create_tournament(league_id, ORG, "Duel", "swiss", rounds=1)
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    [board] = leagues.tournament(tid)["pairings"]
    game_id = board["game_id"]
    while not site.service.game(game_id).over:  # nobody sends orders: the miss policy ends it
        site.service.resolve_next(game_id)
    assert "finished" in leagues.sync(tid)
    [board] = leagues.tournament(tid)["pairings"]
    assert board["how"] == "forfeit" and board["result"] in ("first", "second")
    assert len(ratings.table(site.store, "marengo")) == 2
    moderator = site.service.info(game_id)["moderator"]
    site.service.moderate(game_id, moderator, "rewind", "the server's mail was down", day=1)
    assert not site.service.game(game_id).over
    assert leagues.tick() == [f"tournament {tid}: round 1 board 1: reopened"]
    [board] = leagues.tournament(tid)["pairings"]
    assert board["result"] is None and board["how"] == ""
    assert leagues.tournament(tid)["status"] == "running"
    assert ratings.table(site.store, "marengo") == []  # the game no longer counts
    rows = leagues.table(tid)["rows"]
    assert all(r.points == 0 for r in rows)
    assert leagues.tick() == []  # nothing new: the log did not grow
    # the game goes on after the rewind and ends otherwise: a resignation, no longer a forfeit
    site.service.moderate(game_id, moderator, "resume", "mail is back")
    seats = {s["side"]: s["email"] for s in site.store.seats(game_id)}
    site.service.resign(game_id, "austria", seats["austria"])
    leagues.tick()
    [board] = leagues.tournament(tid)["pairings"]
    assert (board["result"], board["how"]) == ("second", "resigned")
    assert leagues.tournament(tid)["status"] == "finished"
    assert {r["email"] for r in ratings.table(site.store, "marengo")} == set(emails)


def test_a_replacement_keeps_each_players_history_and_both_are_told(site):
    leagues, league_id, emails = league_of(site, 4)
    leagues.join(league_id, "sub@example.org", "Sub")
    tid = leagues.create_tournament(league_id, ORG, "Pool", "round_robin")
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    t = leagues.tournament(tid)
    for p in t["pairings"]:
        leagues.adjudicate(tid, ORG, "by hand", p["id"], "first")
    leagues.sync(tid)  # round 2 paired
    old = next(p["first"] for p in t["pairings"] if p["round"] == 1)  # won round 1
    number = next(e["number"] for e in t["entries"] if e["email"] == old)
    [his] = [p for p in leagues.tournament(tid)["pairings"] if p["round"] == 2 and old in (p["first"], p["second"])]
    org = site.client(ORG)
    assert post(org, f"/tournaments/{tid}/console/replace", old=old, new="sub@example.org",
                why="a long illness").status_code == 302
    t = leagues.tournament(tid)
    # round 1, finished: stays his; round 2, under way: the replacement's, in the game from now on
    assert any(old in (p["first"], p["second"]) for p in t["pairings"] if p["round"] == 1)
    now = next(p for p in t["pairings"] if p["id"] == his["id"])
    assert "sub@example.org" in (now["first"], now["second"]) and old not in (now["first"], now["second"])
    assert "sub@example.org" in {s["email"] for s in site.store.seats(his["game_id"])}
    history = site.store.query("SELECT * FROM seat_history WHERE game_id = ?", (his["game_id"],))
    assert [h["email"] for h in history] == [old]
    # the entry goes on: its point from round 1 under its number, now the replacement's row
    row = next(r for r in leagues.table(tid)["rows"] if r.number == number)
    assert row.email == "sub@example.org" and row.points == 1
    # each player's record shows what he played
    assert [(g["round"], g["outcome"]) for g in leagues.profile(old)["tournament_games"]] == [(1, "win")]
    assert leagues.profile("sub@example.org")["tournament_games"] == []
    leagues.adjudicate(tid, ORG, "by hand", now["id"], "draw")
    assert [g["round"] for g in leagues.profile("sub@example.org")["tournament_games"]] == [2]
    assert [g["round"] for g in leagues.profile(old)["tournament_games"]] == [1]
    # both mailed with the reason; shown on the console and the public page; audited
    for email, words in ((old, "replaces you in Pool"), ("sub@example.org", "You replace")):
        mail = [m for m in mails_to(site, email) if "A replacement in Pool" in m["subject"]][-1]
        assert words in mail["body"] and "Reason: a long illness" in mail["body"]
    assert f"No. {number}: sub@example.org replaces {old} from round 2" in org.get(f"/tournaments/{tid}/console").text
    leagues.publish(tid, ORG)
    page = site.client().get(f"/tournaments/{tid}").text
    assert f"No. {number}: Sub replaces {old[:3].upper()} from round 2" in page and "a long illness" in page
    assert any(a["action"] == "tournament_replace" for a in site.store.query("SELECT * FROM audit"))


def test_a_tournament_starts_by_itself_at_its_scheduled_time(site):
    leagues, league_id, emails = league_of(site, 3)
    org = site.client(ORG)
    soon = (site.service.now() + timedelta(hours=1)).strftime("%Y-%m-%d %H:%M")
    assert post(org, f"/leagues/{league_id}/organise/tournament", name="Evening Swiss", format="swiss", rounds="1",
                starts=soon).status_code == 302
    assert post(org, f"/leagues/{league_id}/organise/tournament", name="Bad", format="swiss",
                starts="tomorrow evening").status_code == 400
    tid = leagues.league(league_id)["tournaments"][0]["id"]
    for email in emails:
        leagues.enter(tid, email)
    assert f"{soon.replace(' ', 'T')}:00Z UTC" in org.get(f"/tournaments/{tid}").text
    assert leagues.start_scheduled() == []  # not yet
    site.store.execute("UPDATE league_tournaments SET rules = json_set(rules, '$.starts', ?) WHERE id = ?",
                       ("2000-01-01T00:00:00Z", tid))  # its time has come
    lonely = leagues.create_tournament(league_id, ORG, "Lonely", "swiss", rules={"starts": "2000-01-01 00:00"})
    leagues.enter(lonely, emails[0])
    assert f"tournament {tid}: started as scheduled" in leagues.tick()
    t = leagues.tournament(tid)
    assert t["status"] == "running" and t["rules"]["moderator"] == ORG and len(t["pairings"]) == 2
    # one that cannot start waits for its organisers, who are told why, once
    assert leagues.tournament(lonely)["status"] == "signup" and leagues.tournament(lonely)["rules"]["starts"] is None
    told = [m for m in mails_to(site, ORG) if "Lonely did not start" in m["subject"]]
    assert len(told) == 1 and "a tournament needs two players at least" in told[0]["body"]


def test_a_tournament_of_another_game_takes_no_scenario_nor_options_from_its_league(site):
    """A league of Bonaparte at Marengo on a scenario file of its own, with a Napoleon 1815 tournament that
    names no scenario: the tournament plays Napoleon 1815's own first scenario (not the league's Marengo map),
    and a tournament of the league's own game keeps the league's scenario."""
    leagues, league_id, _ = league_of(site, 4, options={})
    n1815 = leagues.create_tournament(league_id, ORG, "Waterloo cup", "swiss", 2,
                                      rules={"game": "napoleon1815", "options": {"players": "2"}})
    rules = leagues.tournament(n1815)["rules"]
    assert rules["game"] == "napoleon1815" and rules["scenario"] is None and rules["options"] == {"players": "2"}
    same = leagues.create_tournament(league_id, ORG, "Marengo cup", "swiss", 2)
    assert leagues.tournament(same)["rules"]["scenario"] == SMALL
