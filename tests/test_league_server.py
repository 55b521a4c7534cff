"""An organiser runs, from the web alone, through the real server (``Server``: real HTTP on
loopback, a real SQLite file, the server's own clock reading results): a three-player Napoleon
1815 Swiss and a Triomphe à Marengo knockout with a dropout, a mid-game replacement, a
moderator's rewind of a forfeit and an override; every page, mail, standing and rating is
checked to show what happened (docs/leagues.md, "An organiser's walk-through")."""

from __future__ import annotations

import http.cookiejar
import re
import urllib.error
import urllib.parse
import urllib.request

import pytest

from pbem.server.config import Config
from pbem.server.leagues import ratings
from pbem.server.leagues.service import Leagues
from pbem.server.serve import Server
from pbem.server.web.auth import make_login_token
from pbem.tools.harness import wait_until

ORG = "org@club.invalid"
PLAYERS = [f"p{n}@club.invalid" for n in range(1, 6)]
SUB = "sub@club.invalid"


class Browser:
    """A cookie session over real HTTP."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=60) as response:
            return response.read().decode()

    def post(self, path: str, data: dict | None = None) -> str:
        page = self.get(path.rsplit("/", 2)[0] if "/console/" in path or "/moderate/" in path else "/")
        body = urllib.parse.urlencode({"csrf_token": csrf(page), **(data or {})}).encode()
        try:
            with self.opener.open(self.base + path, body, timeout=60) as response:
                return response.read().decode()
        except urllib.error.HTTPError as exc:
            raise AssertionError(f"{path}: {exc.code} {exc.read().decode()[:2000]}") from None


def csrf(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def signed_in(base: str, service, email: str) -> Browser:
    browser = Browser(base)
    token = make_login_token(service.store, email, service.now())
    browser.opener.open(base + f"/login/{token}", urllib.parse.urlencode(
        {"csrf_token": csrf(browser.get(f"/login/{token}"))}).encode(), timeout=60).read()
    return browser


@pytest.fixture
def server(tmp_path):
    config = Config(instance=str(tmp_path), web_port=0, smtp_port=0, smtp_host="127.0.0.1", tick_seconds=0.2,
                    demo=False, from_addr="pbem@club.invalid", domain="club.invalid", secret_key="club-test",
                    relay_host="127.0.0.1", relay_port=9)  # nothing listens: the mail stays in the outbox, read here
    server = Server(config)
    server.start()
    server.service.rasterise = lambda svg: b"png"  # the maps' PNGs are not this test's matter
    server.service.drawing = None  # (nor drawn whole in the drawing workers)
    yield server
    server.stop()


def mails(service, email: str) -> list[dict]:
    return service.store.query("SELECT subject, body FROM outbox WHERE to_addr = ? ORDER BY id", (email,))


def test_an_organiser_runs_a_napoleon_swiss_and_a_triomphe_knockout_from_the_web(server):
    service = server.service
    base = f"http://127.0.0.1:{server.config.web_port}"
    org = signed_in(base, service, ORG)
    # the league: three-player Napoleon 1815, chosen on the form
    org.post("/leagues", {"name": "Waterloo Club", "scenario": "napoleon1815:napoleon1815.toml",
                          "option.napoleon1815.players": "3", "hours": "48"})
    [league] = Leagues(service).leagues()
    lid = league["id"]
    players = {}
    for email in PLAYERS + [SUB]:
        players[email] = signed_in(base, service, email)
        players[email].post(f"/leagues/{lid}/join", {"name": email.split("@")[0].upper()})
    # a Swiss of the league's game, and a Triomphe knockout on its own form's game, one missed day forfeiting
    org.post(f"/leagues/{lid}/organise/tournament", {"name": "Waterloo Swiss", "format": "swiss", "rounds": "1"})
    org.post(f"/leagues/{lid}/organise/tournament", {"name": "Triomphe Cup", "format": "knockout",
                                                      "scenario": "triomphe:triomphe.toml", "miss_limit": "1"})
    swiss, cup = (t["id"] for t in Leagues(service).league(lid)["tournaments"])
    for email in PLAYERS[:3]:
        players[email].post(f"/tournaments/{swiss}/enter")
    for email in PLAYERS[:4]:
        players[email].post(f"/tournaments/{cup}/enter")
    org.post(f"/tournaments/{swiss}/console/start")
    org.post(f"/tournaments/{cup}/console/start")
    org.post(f"/tournaments/{swiss}/console/publish")
    org.post(f"/tournaments/{cup}/console/publish")

    # -- the Swiss: one game of three, the French player wins by adjudication -------------------
    [board] = Leagues(service).tournament(swiss)["pairings"]
    assert service.info(board["game_id"])["ruleset"] == "napoleon1815"
    assert {s["side"] for s in service.store.seats(board["game_id"])} == {"french", "anglo-dutch", "prussian"}
    org.post(f"/tournaments/{swiss}/console/adjudicate", {"pairing": board["id"], "result": "first",
                                                          "why": "the Allies conceded"})
    wait_until(lambda: Leagues(service).tournament(swiss)["status"] == "finished", 60, 0.2, what="the Swiss's end")
    page = Browser(base).get(f"/leagues/{lid}")
    french = board["first"].split("@")[0].upper()
    # rated seat by seat: the French player as a duel's winner (27.64), each Ally as its loser (22.36)
    assert re.search(rf"<td>{french}</td><td>[0-9.]+</td><td>27\.64</td>", page)
    for ally in (board["second"], board["third"]):
        assert re.search(rf"<td>{ally.split('@')[0].upper()}</td><td>[0-9.-]+</td><td>22\.36</td>", page)

    # -- the knockout: seeds 1 v 4 and 2 v 3 -----------------------------------------------
    t = Leagues(service).tournament(cup)
    seed = {e["number"]: e["email"] for e in t["entries"]}
    one, two = t["pairings"]
    assert service.info(one["game_id"])["ruleset"] == "triomphe"
    # a dropout: seed 4 withdraws; his game is forfeited to seed 1
    org.post(f"/tournaments/{cup}/console/withdraw", {"email": seed[4], "why": "no time this month"})
    # a mid-game replacement: seed 3 hands his game to the substitute
    org.post(f"/tournaments/{cup}/console/replace", {"old": seed[3], "new": SUB, "why": "a family matter"})
    assert SUB in {s["email"] for s in service.store.seats(two["game_id"])}
    # the substitute's side misses a day (nobody sends orders) and forfeits; the moderator rewinds it
    org.post(f"/games/{two['game_id']}/moderate/resolve_now", {"why": "the deadline is today"})
    wait_until(lambda: Leagues(service).tournament(cup)["pairings"][1]["how"] == "forfeit", 60, 0.2,
               what="the forfeit read")
    wait_until(lambda: any(p["round"] == 2 for p in Leagues(service).tournament(cup)["pairings"]), 60, 0.2,
               what="the final paired")  # the forfeit sends the substitute on; the rewind below withdraws it
    org.post(f"/games/{two['game_id']}/moderate/rewind", {"day": "1", "why": "the server's mail was down"})
    wait_until(lambda: Leagues(service).tournament(cup)["pairings"][1]["result"] is None, 60, 0.2,
               what="the rewind read")
    # the forfeit had sent the substitute into a final not yet begun: that final is withdrawn with the change
    cancelled = service.store.query("SELECT * FROM league_cancelled")
    assert [(c["round"], {c["first"], c["second"]}) for c in cancelled] == [(2, {seed[1], SUB})]
    assert service.game(cancelled[0]["game_id"]).over
    assert any("a game cancelled" in m["subject"] for m in mails(service, SUB))
    # the game cannot go on: the organiser adjudicates a draw, and the better seed (2) goes on
    org.post(f"/tournaments/{cup}/console/adjudicate", {"pairing": two["id"], "result": "draw",
                                                        "why": "both sides agree it is even"})
    wait_until(lambda: Leagues(service).tournament(cup)["round"] == 2, 60, 0.2, what="the final paired")
    final = Leagues(service).tournament(cup)["pairings"][-1]
    assert {final["first"], final["second"]} == {seed[1], seed[2]}
    org.post(f"/tournaments/{cup}/console/adjudicate", {"pairing": final["id"], "result": "first",
                                                        "why": "time is up"})
    wait_until(lambda: Leagues(service).tournament(cup)["status"] == "finished", 60, 0.2, what="the cup's end")
    # an override of the final, with its reason
    org.post(f"/tournaments/{cup}/console/override", {"pairing": final["id"], "result": "second",
                                                      "why": "the winner's orders came from a second account"})
    t = Leagues(service).tournament(cup)
    final = t["pairings"][-1]
    assert (final["result"], final["how"]) == ("second", "overridden")

    # -- what every page, mail, standing and rating shows ---------------------------------
    page = Browser(base).get(f"/tournaments/{cup}")
    champion_name = final["second"].split("@")[0].upper()
    assert "(withdrawn)" in page and "reason: no time this month" in page
    assert f"SUB replaces {seed[3].split('@')[0].upper()} from round 1" in page and "a family matter" in page
    assert "reason: the winner&#39;s orders came from a second account" in page
    assert "overridden by the organiser" in page
    bracket = page[page.index('id="bracket"'):page.index("</div>\n<p class=\"hint\">In bold")]
    assert bracket.count('class="match"') == 3  # two games of round 1, the final
    assert f"<strong>{champion_name}</strong>" in bracket.split('aria-label="Round 2"')[1]
    rows = {r.email: r for r in Leagues(service).table(cup)["rows"]}
    champion = final["second"]
    assert rows[champion].rank == 1 and rows[seed[4]].points == 0 and rows[SUB].number == 3
    assert any("withdrew you from Triomphe Cup" in m["body"] for m in mails(service, seed[4]))
    assert any("You replace" in m["body"] and "a family matter" in m["body"] for m in mails(service, SUB))
    assert any("replaces you" in m["body"] for m in mails(service, seed[3]))
    for email in (final["first"], final["second"]):
        assert any("overrode the result" in m["body"] and "second account" in m["body"] for m in mails(service, email))
    # ratings: the final counts as overridden (the champion rated the winner), the draw as a draw
    table = {r["email"]: r for r in ratings.table(service.store, "triomphe")}
    assert table[champion]["mu"] > table[final["first"]]["mu"]
    assert SUB in table and seed[3] not in table  # the game under way went to the substitute
    record = players[seed[3]].get(f"/players/{seed[3]}")
    assert "Waterloo Swiss" in record and "Triomphe Cup" not in record  # the cup's draw was the substitute's
    assert "Triomphe Cup" in players[SUB].get(f"/players/{SUB}")
    audit = {a["action"] for a in service.store.query("SELECT action FROM audit")}
    assert {"tournament_withdraw", "tournament_replace", "tournament_override", "adjudicate"} <= audit


def test_an_organiser_runs_a_double_elimination_from_the_web(server):
    """Three entrants, a bracket of four: seed 1 has a bye; 3 beats 2, who drops into the losers' bracket and
    waits (his losers' bracket match has nobody on the other side); 1 beats 3 in the winners' final; 2 beats 3 in
    the losers' final (3 is out, two losses); 2 beats 1 in the grand final, so the reset is played, and 2 wins it.
    Made on the tournament form, ruled on the console, read on the page and the JSON API, all over HTTP; the
    server's clock pairs each round."""
    import json

    service = server.service
    base = f"http://127.0.0.1:{server.config.web_port}"
    org = signed_in(base, service, ORG)
    org.post("/leagues", {"name": "Double Club", "scenario": "triomphe:triomphe.toml", "hours": "48"})
    lid = next(league["id"] for league in Leagues(service).leagues() if league["name"] == "Double Club")
    for email in PLAYERS[:3]:
        player = signed_in(base, service, email)
        player.post(f"/leagues/{lid}/join", {"name": email.split("@")[0].upper()})
    org.post(f"/leagues/{lid}/organise/tournament", {"name": "Double Cup", "format": "double_elimination"})
    [tid] = [t["id"] for t in Leagues(service).league(lid)["tournaments"]]
    for email in PLAYERS[:3]:
        signed_in(base, service, email).post(f"/tournaments/{tid}/enter")
    org.post(f"/tournaments/{tid}/console/start")
    org.post(f"/tournaments/{tid}/console/publish")
    seed = {e["number"]: e["email"] for e in Leagues(service).tournament(tid)["entries"]}

    def match(slot: str) -> dict:
        wait_until(lambda: any(p["slot"] == slot for p in Leagues(service).tournament(tid)["pairings"]), 60, 0.2,
                   what=f"match {slot} paired")
        return next(p for p in Leagues(service).tournament(tid)["pairings"] if p["slot"] == slot)

    def won_by(slot: str, number: int) -> None:
        p = match(slot)
        assert seed[number] in (p["first"], p["second"]), (slot, p)
        org.post(f"/tournaments/{tid}/console/adjudicate", {"pairing": p["id"], "why": "played at the club",
                                                            "result": "first" if p["first"] == seed[number] else "second"})

    assert match("W1.1")["result"] == "bye" and match("W1.1")["first"] == seed[1]
    won_by("W1.2", 3)
    won_by("W2.1", 1)
    assert "L1.1" not in {p["slot"] for p in Leagues(service).tournament(tid)["pairings"]}  # 2 passed on, no game
    won_by("L2.1", 2)
    won_by("F", 2)  # the losers' bracket's winner wins the grand final: the reset
    won_by("F2", 2)
    wait_until(lambda: Leagues(service).tournament(tid)["status"] == "finished", 60, 0.2, what="the end")

    page = Browser(base).get(f"/tournaments/{tid}")
    assert "double elimination" in page
    for heading in ("Winners&#39; bracket", "Losers&#39; bracket", "Grand final, the reset"):
        assert heading in page
    reset = page[page.index('data-match="F2"'):]
    assert f"<strong>{seed[2].split('@')[0].upper()}</strong>" in reset[:reset.index("</li>")]
    api = json.loads(org.get(f"/api/tournaments/{tid}"))
    assert api["format"] == "double_elimination"
    assert [p["match"] for p in api["pairings"]] == ["W1.1", "W1.2", "W2.1", "L2.1", "F", "F2"]
    assert [row["number"] for row in api["standings"]] == [2, 1, 3]  # by how long each stayed in


def test_a_result_overridden_behind_a_begun_round_keeps_its_begun_game_and_pairs_the_rest_again(server):
    """A Swiss of four on the server's clock: round 1 ruled on the console, round 2 paired by the clock; one game
    of round 2 begins (its first seat sends orders on the web), the other does not; the organiser then overrides a
    round-1 result. The begun game stands; the other board's game is cancelled and its players paired again (a
    new game); the organiser's mail says which game stood; the tournament page states the rule."""
    service = server.service
    base = f"http://127.0.0.1:{server.config.web_port}"
    org = signed_in(base, service, ORG)
    org.post("/leagues", {"name": "Swiss Club", "scenario": "triomphe:triomphe.toml", "hours": "48"})
    lid = next(league["id"] for league in Leagues(service).leagues() if league["name"] == "Swiss Club")
    browsers = {}
    for email in PLAYERS[:4]:
        browsers[email] = signed_in(base, service, email)
        browsers[email].post(f"/leagues/{lid}/join", {"name": email.split("@")[0].upper()})
    org.post(f"/leagues/{lid}/organise/tournament", {"name": "Swiss", "format": "swiss", "rounds": "3"})
    [tid] = [t["id"] for t in Leagues(service).league(lid)["tournaments"]]
    for email in PLAYERS[:4]:
        browsers[email].post(f"/tournaments/{tid}/enter")
    org.post(f"/tournaments/{tid}/console/start")
    first_round = Leagues(service).tournament(tid)["pairings"]
    for p in first_round:
        org.post(f"/tournaments/{tid}/console/adjudicate", {"pairing": p["id"], "result": "first", "why": "played"})
    wait_until(lambda: Leagues(service).tournament(tid)["round"] == 2, 60, 0.2, what="round 2 paired")
    begun, waiting = [p for p in Leagues(service).tournament(tid)["pairings"] if p["round"] == 2]
    side = service.game(begun["game_id"]).turn().seats[0]
    owner = next(s["email"] for s in service.store.seats(begun["game_id"]) if s["side"] == side)
    browsers[owner].post(f"/games/{begun['game_id']}/orders", {"side": side, "text": ""})
    assert any(e["kind"] == "orders" for e in service.game(begun["game_id"]).log)  # it has begun
    org.post(f"/tournaments/{tid}/console/override", {"pairing": first_round[0]["id"], "result": "second",
                                                      "why": "misreported"})
    wait_until(lambda: len([p for p in Leagues(service).tournament(tid)["pairings"] if p["round"] == 2]) == 2
               and all(p["game_id"] != waiting["game_id"] for p in Leagues(service).tournament(tid)["pairings"]),
               60, 0.2, what="the board not begun paired again")
    now = [p for p in Leagues(service).tournament(tid)["pairings"] if p["round"] == 2]
    assert now[0]["id"] == begun["id"] and not service.game(begun["game_id"]).over  # the begun game stands
    assert {now[1]["first"], now[1]["second"]} == {waiting["first"], waiting["second"]}  # its players, again
    assert service.game(waiting["game_id"]).over and not service.game(now[1]["game_id"]).over
    told = [m["body"] for m in mails(service, ORG) if "a result changed" in m["subject"]]
    assert any(f"that had begun stand: {begun['game_id']}." in body for body in told)
    assert any("a game cancelled" in m["subject"] for m in mails(service, waiting["first"]))
    page = org.get(f"/tournaments/{tid}")
    assert "games that have begun stand; its games not begun are cancelled and their players paired again" in page
