"""A result that changes behind a round whose games have begun (issue 32 item 6): the games of the later round
that have begun stand; its boards not begun are withdrawn (games ended, kept aside, never rated) and their
players paired again, among themselves (a Swiss) or by their places in the bracket (a knockout), once the round
before is over; the organisers are told which games stood. Through the service on a real database, the games
ruled by the organiser; the page's stated rule through the pages."""

from __future__ import annotations

from pbem.server.leagues.service import Leagues

from leaguesupport import ORG
from websupport import SMALL


def started(site, count: int, format: str, rounds: int = 0):
    leagues = Leagues(site.service)
    league_id = leagues.create_league("Club", ORG, rules={"scenario": SMALL, "settings": {"hours": 48}})
    emails = [f"p{n}@example.org" for n in range(1, count + 1)]
    for email in emails:
        leagues.join(league_id, email, email[:2].upper())
    tid = leagues.create_tournament(league_id, ORG, "Cup", format, rounds)
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    return leagues, tid


def boards(leagues, tid, round_no: int) -> list[dict]:
    t = leagues.tournament(tid)
    return [{**p, "a": t["numbers"][p["first"].lower()], "b": t["numbers"][p["second"].lower()]}
            for p in t["pairings"] if p["round"] == round_no and p["second"]]


def win(leagues, tid, p: dict, number: int) -> None:
    leagues.adjudicate(tid, ORG, "played at the club", p["id"], "first" if p["a"] == number else "second")


def begin(site, p: dict) -> None:
    """The game's first seat sends orders: the game has begun."""
    game = site.service.game(p["game_id"])
    [side] = game.turn().seats
    assert site.service.submit(p["game_id"], side, "", source="web").ok


def test_a_knockout_re_pairs_the_board_not_begun_and_keeps_the_one_begun(site):
    leagues, tid = started(site, 8, "knockout")
    first = boards(leagues, tid, 1)
    assert [(p["a"], p["b"]) for p in first] == [(1, 8), (4, 5), (2, 7), (3, 6)]
    for p in first:
        win(leagues, tid, p, min(p["a"], p["b"]))
    leagues.sync(tid)
    semis = boards(leagues, tid, 2)
    assert [{p["a"], p["b"]} for p in semis] == [{1, 4}, {2, 3}]
    begin(site, semis[0])  # 1 v 4 has begun; 2 v 3 has not
    # the organiser overrides 3 v 6 (6 won after all) and 1 v 8 (8 won): the begun semi-final stands
    leagues.override(tid, ORG, "the result was misreported", first[3]["id"],
                     "first" if first[3]["a"] == 6 else "second")
    leagues.override(tid, ORG, "a second account", first[0]["id"], "first" if first[0]["a"] == 8 else "second")
    semis_now = boards(leagues, tid, 2)
    assert semis_now[0]["id"] == semis[0]["id"] and not site.service.game(semis[0]["game_id"]).over
    assert [{p["a"], p["b"]} for p in semis_now] == [{1, 4}, {2, 6}]  # the bracket's place of 3 is 6's now
    cancelled = site.store.query("SELECT * FROM league_cancelled")
    assert [c["game_id"] for c in cancelled] == [semis[1]["game_id"]] and site.service.game(cancelled[0]["game_id"]).over
    mails = site.store.query("SELECT to_addr, body FROM outbox WHERE kind = 'tournament' ORDER BY id")
    told = [m["body"] for m in mails if m["to_addr"] == ORG and "a result changed" not in m["body"]]
    assert any(f"The games of round 2 that had begun stand: {semis[0]['game_id']}." in body for body in told)
    assert any("a game cancelled" in m["body"] or "cancelled" in m["body"] for m in mails if m["to_addr"] == "p3@example.org")


def test_a_swiss_pairs_the_players_of_the_boards_not_begun_again_among_themselves(site):
    leagues, tid = started(site, 6, "swiss", rounds=3)
    first = boards(leagues, tid, 1)
    for p in first:
        win(leagues, tid, p, min(p["a"], p["b"]))
    leagues.sync(tid)
    second = boards(leagues, tid, 2)
    assert len(second) == 3
    begin(site, second[0])
    kept = {second[0]["a"], second[0]["b"]}
    # a result of round 1 is overridden: the round 2 boards not begun are paired again, among their own players
    changed = next(p for p in first if not {p["a"], p["b"]} & kept) if any(
        not {p["a"], p["b"]} & kept for p in first) else first[-1]
    leagues.override(tid, ORG, "misreported", changed["id"], "draw")
    now = boards(leagues, tid, 2)
    assert now[0]["id"] == second[0]["id"]  # the begun game stands
    others = {n for p in second[1:] for n in (p["a"], p["b"])}
    assert {n for p in now[1:] for n in (p["a"], p["b"])} == others  # the same four players, among themselves
    assert {p["game_id"] for p in second[1:]} == {c["game_id"] for c in site.store.query("SELECT * FROM league_cancelled")}
    assert all(site.service.game(p["game_id"]).over for p in second[1:])
    assert all(not site.service.game(p["game_id"]).over for p in now[1:])
    # the round goes on: when its games are over, round 3 is paired
    for p in now:
        win(leagues, tid, p, min(p["a"], p["b"]))
    leagues.sync(tid)
    assert leagues.tournament(tid)["round"] == 3


def test_the_tournament_page_states_what_a_changed_result_does(site):
    leagues, tid = started(site, 4, "swiss", rounds=2)
    page = site.client(ORG).get(f"/tournaments/{tid}").text
    rule = page[page.index('id="rule-changed"'):page.index("</tr>", page.index('id="rule-changed"'))]
    assert "games that have begun stand; its games not begun are cancelled and their players paired again" in rule
    leagues, robin = started(site, 4, "round_robin")
    page = site.client(ORG).get(f"/tournaments/{robin}").text
    assert "pairings do not depend on results" in page
    french = site.client(ORG).get(f"/tournaments/{tid}", headers={"Accept-Language": "fr"}).text
    assert "ont commencé continuent" in french


def test_a_round_s_results_and_the_next_round_s_pairing_are_committed_together(site):
    """A reader of the database (the web's pages, another process) never sees a round's results read while the
    round they decide is not yet paired: the clock's reading of results and the pairing it leads to are one
    transaction. The pairing is caught half-way; a second connection to the file looks at what is committed."""
    import sqlite3

    leagues, tid = started(site, 4, "knockout")
    first = boards(leagues, tid, 1)
    for p in first:  # each first seat resigns: the second wins, by the game's own end (not an organiser's ruling)
        site.service.resign(p["game_id"], sorted(site.service.sides_of(p["game_id"]))[0])
        assert site.service.game(p["game_id"]).over
    seen = []
    pair_next = leagues.pair_next

    def pairing_watched(tid_, who=None):
        outside = sqlite3.connect(site.store.path)
        try:
            seen.append(outside.execute("SELECT COUNT(*) FROM league_pairings WHERE tournament_id = ? AND round = 1"
                                        " AND result IS NOT NULL", (tid_,)).fetchone()[0])
        finally:
            outside.close()
        return pair_next(tid_, who)

    leagues.pair_next = pairing_watched
    assert "round 2 paired" in leagues.sync(tid)
    assert seen == [0]  # the results were not yet committed while the final was being paired
    assert all(p["result"] == "second" for p in leagues.tournament(tid)["pairings"] if p["round"] == 1)
    assert len(boards(leagues, tid, 2)) == 1  # and both are, once the final is
