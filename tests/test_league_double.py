"""Double elimination (issue 32 item 6): the bracket worked out by hand (winners' and losers' brackets, the grand
final and its reset, byes), then tournaments through the service: a withdrawal and a forfeit as a knockout has
them, the standings by how long each stayed in. The organiser's walk through the real server is in
tests/test_league_server.py."""

from __future__ import annotations

import pytest

from pbem.server.leagues.elimination import Bracket, bracket, most_rounds
from pbem.server.leagues.service import Leagues

from leaguesupport import ORG
from websupport import SMALL


def test_eight_entrants_make_the_bracket_of_the_rules():
    matches = {m.id: (m.first, m.second) for m in bracket(8)}
    # the winners' bracket seeded as a knockout: 1 v 8, 4 v 5, 2 v 7, 3 v 6
    assert [matches[f"W1.{m}"] for m in range(1, 5)] == [("seed:1", "seed:8"), ("seed:4", "seed:5"),
                                                          ("seed:2", "seed:7"), ("seed:3", "seed:6")]
    assert matches["W2.1"] == ("winner:W1.1", "winner:W1.2") and matches["W3.1"] == ("winner:W2.1", "winner:W2.2")
    # L1: the losers of W1 among themselves; L2: its winners against the losers of W2, come in reversed
    assert matches["L1.1"] == ("loser:W1.1", "loser:W1.2") and matches["L1.2"] == ("loser:W1.3", "loser:W1.4")
    assert matches["L2.1"] == ("winner:L1.1", "loser:W2.2") and matches["L2.2"] == ("winner:L1.2", "loser:W2.1")
    assert matches["L3.1"] == ("winner:L2.1", "winner:L2.2")
    assert matches["L4.1"] == ("winner:L3.1", "loser:W3.1")  # the losers' final, against the winners' final's loser
    assert matches["F"] == ("winner:W3.1", "winner:L4.1") == matches["F2"]
    assert len(matches) == 7 + 6 + 2  # 2n - 1 games at most for n players, and the reset
    assert most_rounds(8) == 7


def play(count: int, winners: list[dict[str, int]]) -> list[list[tuple[str, int, int | None]]]:
    """The rounds of a double elimination of ``count``, each round's matches as ``ready`` gives them, the
    winners of each round's matches as ``winners`` says (a round's byes go to their player)."""
    won: dict[str, int] = {}
    played: set[str] = set()
    rounds = []
    for chosen in winners:
        ready = Bracket(count, won).ready(played)
        rounds.append(ready)
        for match_id, a, b in ready:
            played.add(match_id)
            won[match_id] = a if b is None else chosen[match_id]
    return rounds


def test_five_entrants_with_byes_through_a_reset_final_worked_by_hand():
    """Five in a bracket of eight: byes to seeds 1, 2 and 3 (round 1, recorded as byes); a losers' bracket match
    with nobody on one side passes its player on without a game (4, the loser of 4 v 5, waits for the loser of
    W2.2; 5 meets the winner of L2.1 in L3). The losers' bracket's winner, 2, wins the grand final: the reset."""
    rounds = play(5, [{"W1.2": 5},
                      {"W2.1": 1, "W2.2": 2},
                      {"W3.1": 1, "L2.1": 3},
                      {"L3.1": 5},
                      {"L4.1": 2},
                      {"F": 2},
                      {"F2": 2}])
    assert rounds == [
        [("W1.1", 1, None), ("W1.2", 4, 5), ("W1.3", 2, None), ("W1.4", 3, None)],
        [("W2.1", 1, 5), ("W2.2", 2, 3)],
        [("W3.1", 1, 2), ("L2.1", 4, 3)],
        [("L3.1", 3, 5)],
        [("L4.1", 5, 2)],
        [("F", 1, 2)],
        [("F2", 1, 2)]]
    won = {"W1.2": 5, "W2.1": 1, "W2.2": 2, "W3.1": 1, "L2.1": 3, "L3.1": 5, "L4.1": 2, "F": 2, "F2": 2,
           "W1.1": 1, "W1.3": 2, "W1.4": 3}
    done = Bracket(5, won)
    assert done.over() and done.champion() == 2 and done.ready(set(won)) == []
    assert len(rounds) == most_rounds(5)


def test_the_winners_bracket_winner_who_wins_the_grand_final_is_champion_without_a_reset():
    rounds = play(2, [{"W1.1": 2}, {"F": 2}])
    assert rounds == [[("W1.1", 1, 2)], [("F", 2, 1)]]  # two entrants: the final is their second game
    done = Bracket(2, {"W1.1": 2, "F": 2})
    assert done.over() and done.champion() == 2 and done.ready({"W1.1", "F"}) == []
    reset = Bracket(2, {"W1.1": 2, "F": 1})  # the loser of W1 wins the final: both have lost once
    assert not reset.over() and reset.ready({"W1.1", "F"}) == [("F2", 2, 1)]


@pytest.mark.parametrize("count", range(2, 18))
def test_every_bracket_ends_with_one_champion_and_everyone_else_out_after_two_losses(count):
    """Whoever wins each game (here the worse seed, then the better, by turns), each player plays until his second
    loss, never two games in a round, and the tournament takes at most ``most_rounds`` rounds."""
    won: dict[str, int] = {}
    played: set[str] = set()
    losses = {n: 0 for n in range(1, count + 1)}
    rounds, turn = 0, 0
    while not Bracket(count, won).over():
        ready = Bracket(count, won).ready(played)
        assert ready
        rounds += 1
        seen = [n for _, a, b in ready for n in (a, b) if n is not None]
        assert len(seen) == len(set(seen))
        for match_id, a, b in ready:
            played.add(match_id)
            if b is None:
                won[match_id] = a
                continue
            assert losses[a] < 2 and losses[b] < 2
            turn += 1
            winner = max(a, b) if turn % 2 else min(a, b)
            won[match_id] = winner
            losses[b if winner == a else a] += 1
    champion = Bracket(count, won).champion()
    assert losses[champion] <= 1 and sorted(losses.values()).count(2) == count - 1
    assert rounds <= most_rounds(count)


# -- through the service ------------------------------------------------------------------


def double_of(site, count: int):
    leagues = Leagues(site.service)
    league_id = leagues.create_league("Club", ORG, rules={"scenario": SMALL, "settings": {
        "hours": 48, "miss_policy": "forfeit", "miss_limit": 1}})
    emails = [f"p{n}@example.org" for n in range(1, count + 1)]
    for email in emails:
        leagues.join(league_id, email, email[:2].upper())
        leagues.enter(tid := leagues.create_tournament(league_id, ORG, "Double", "double_elimination")
                      if email == emails[0] else tid, email)
    leagues.start(tid, ORG)
    return leagues, tid


def by_slot(leagues, tid) -> dict[str, dict]:
    t = leagues.tournament(tid)
    return {p["slot"]: {**p, "a": t["numbers"][p["first"].lower()],
                        "b": t["numbers"][p["second"].lower()] if p["second"] else None} for p in t["pairings"]}


def win(leagues, tid, p: dict, number: int) -> None:
    leagues.adjudicate(tid, ORG, "by hand", p["id"], "first" if p["a"] == number else "second")


def test_a_double_elimination_through_the_service_with_a_withdrawal_a_forfeit_and_the_reset(site):
    leagues, tid = double_of(site, 4)
    assert leagues.tournament(tid)["rounds"] == 5
    slots = by_slot(leagues, tid)
    assert {k: (p["a"], p["b"]) for k, p in slots.items()} == {"W1.1": (1, 4), "W1.2": (2, 3)}
    win(leagues, tid, slots["W1.1"], 4)  # an upset: 1 drops into the losers' bracket
    # a forfeit: 3's side misses its day and forfeits (the miss policy), a loss as any other
    game = slots["W1.2"]["game_id"]
    while not site.service.game(game).over:
        site.service.resolve_next(game)
    leagues.sync(tid)
    slots = by_slot(leagues, tid)
    assert slots["W1.2"]["how"] == "forfeit"
    forfeited = slots["W1.2"]
    went_on = forfeited["a"] if forfeited["result"] == "first" else forfeited["b"]
    out = ({2, 3} - {went_on}).pop()
    # round 2: the winners' bracket's winners meet; the losers' bracket's first round pairs the losers
    assert {k: {p["a"], p["b"]} for k, p in slots.items() if p["round"] == 2} == {"W2.1": {4, went_on},
                                                                                  "L1.1": {1, out}}
    # the forfeit's loser withdraws: his losers' bracket game is a walkover for 1
    email = next(e["email"] for e in leagues.tournament(tid)["entries"] if e["number"] == out)
    leagues.withdraw(tid, ORG, "moved abroad", email)
    slots = by_slot(leagues, tid)
    assert slots["L1.1"]["how"] == "forfeit" and slots["L1.1"]["why"] == "moved abroad"
    win(leagues, tid, slots["W2.1"], 4)
    leagues.sync(tid)
    slots = by_slot(leagues, tid)
    loser_w2 = went_on
    assert {slots["L2.1"]["a"], slots["L2.1"]["b"]} == {1, loser_w2}
    win(leagues, tid, slots["L2.1"], 1)
    leagues.sync(tid)
    slots = by_slot(leagues, tid)
    assert {slots["F"]["a"], slots["F"]["b"]} == {4, 1}
    win(leagues, tid, slots["F"], 1)  # the losers' bracket's winner wins the final: the reset
    leagues.sync(tid)
    slots = by_slot(leagues, tid)
    assert "F2" in slots and leagues.tournament(tid)["status"] == "running"
    win(leagues, tid, slots["F2"], 1)
    leagues.sync(tid)
    assert leagues.tournament(tid)["status"] == "finished"
    rows = leagues.table(tid)["rows"]
    # ranked by how long each stayed in: 1 the champion, 4 out in the reset, then who lost L2.1, then the withdrawn
    assert [r.number for r in rows] == [1, 4, loser_w2, out]
    page = site.client(ORG).get(f"/tournaments/{tid}").text
    assert "double elimination" in page
    winners, losers, final = (page[page.index(f'id="bracket-{part}"'):] for part in ("w", "l", "final"))
    assert "Winners&#39; bracket" in page and "Losers&#39; bracket" in page and "Grand final, the reset" in page
    assert winners.index('data-match="W1.1"') < winners.index('data-match="W2.1"') < winners.index('id="bracket-l"')
    assert losers.index('data-match="L1.1"') < losers.index('data-match="L2.1"') < losers.index('id="bracket-final"')
    assert final.index('data-match="F"') < final.index('data-match="F2"')
    champion = next(e["email"] for e in leagues.tournament(tid)["entries"] if e["number"] == 1)
    reset = final[final.index('data-match="F2"'):final.index("</li>", final.index('data-match="F2"'))]
    assert f"<strong>{champion[:2].upper()}</strong>" in reset  # in bold, who won the reset


def test_a_double_elimination_through_the_json_api_and_not_of_three_seat_games(site):
    org = site.client(ORG)

    def api(method, url, payload=None):
        response = org.open(url, method=method, json=payload, headers={"X-CSRF-Token": org.csrf})
        return response.status_code, response.get_json()

    status, out = api("POST", "/api/leagues", {"name": "Club", "rules": {"scenario": SMALL}})
    league_id = out["id"]
    for n in range(1, 4):
        Leagues(site.service).join(league_id, f"p{n}@example.org", f"P{n}")
    status, out = api("POST", f"/api/leagues/{league_id}/tournaments", {"name": "Double", "format": "double_elimination"})
    assert status == 201, out
    tid = out["id"]
    for n in range(1, 4):
        Leagues(site.service).enter(tid, f"p{n}@example.org")
    assert api("POST", f"/api/tournaments/{tid}/start", {})[1] == {"ok": True}
    status, t = api("GET", f"/api/tournaments/{tid}")
    assert t["format"] == "double_elimination" and t["rounds"] == 5
    assert [(p["match"], p["result"]) for p in t["pairings"]] == [("W1.1", "bye"), ("W1.2", None)]
    status, out = api("POST", f"/api/leagues/{league_id}/tournaments", {
        "name": "Waterloo", "format": "double_elimination",
        "rules": {"game": "napoleon1815", "scenario": "napoleon1815.toml", "options": {"players": "3"}}})
    assert status == 400 and "a knockout of three-seat games is not offered" in out["error"]
    status, out = api("POST", f"/api/leagues/{league_id}/tournaments", {"name": "Odd", "format": "triple"})
    assert status == 400 and "double_elimination" in out["error"]


def test_a_replacement_takes_the_entrys_place_in_the_bracket(site):
    leagues, tid = double_of(site, 4)
    t = leagues.tournament(tid)
    leagues.join(t["league_id"], "sub@example.org", "SUB")
    slots = by_slot(leagues, tid)
    win(leagues, tid, slots["W1.1"], 4)  # 1 loses to 4: one loss
    old = next(e["email"] for e in t["entries"] if e["number"] == 1)
    leagues.replace(tid, ORG, "a family matter", old, "sub@example.org")  # the entry with its loss passes on
    win(leagues, tid, slots["W1.2"], 2)
    leagues.sync(tid)
    slots = by_slot(leagues, tid)
    assert {slots["L1.1"]["first"], slots["L1.1"]["second"]} == {"sub@example.org", slots["W1.2"]["second"]
                                                                 if slots["W1.2"]["a"] == 2 else slots["W1.2"]["first"]}
    win(leagues, tid, slots["L1.1"], 3)  # the newcomer's loss is the entry's second: number 1 is out
    leagues.sync(tid)
    rows = leagues.table(tid)["rows"]
    assert rows[-1].number == 1 and rows[-1].email == "sub@example.org" and rows[-1].out == 2
    assert slots["W1.1"]["first"] == old or slots["W1.1"]["second"] == old  # the game he played stays his


def test_a_match_that_stood_behind_a_changed_result_goes_on_with_those_who_played_it():
    """W1.1 was 1's and W2.1 paired 1 against 2 and begun; then W1.1 was overridden to 4. W2.1 stands (a game begun
    is never paired again): its winner and loser are those who played it, not the bracket's new occupant."""
    bracket_now = Bracket(4, {"W1.1": 4, "W1.2": 2, "W2.1": 1}, paired={"W1.1": (1, 4), "W1.2": (2, 3), "W2.1": (1, 2)})
    assert bracket_now.place("winner:W2.1") == 1 and bracket_now.place("loser:W2.1") == 2
    assert Bracket(4, {"W1.1": 4, "W1.2": 2}).players("W2.1") == (4, 2)  # unpaired, it would be 4's
