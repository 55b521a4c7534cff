"""Leagues and tournaments: pairing, standings and tie-breaks by hand, ratings by hand, and
whole tournaments through the service on a real database (docs/leagues.md)."""

from __future__ import annotations

import math
import random
import re
from itertools import combinations

import pytest

from pbem.server.leagues import pairing, ratings
from pbem.server.leagues.pairing import Player
from pbem.server.leagues.records import reliability
from pbem.server.leagues.service import Leagues
from pbem.server.leagues.standings import Result, cell_text, standings, tie_breaks_for
from pbem.server.service import ServiceError

from leaguesupport import league_of, ORG
from websupport import ADMIN, SMALL


# -- standings and tie-breaks, computed by hand ------------------------------------------------

# Four players, three rounds: 1 beats 4, 2 draws 3; 1 draws 2, 4 beats 3; 3 beats 1, 2 beats 4.
HAND = [Result(1, 1, 4, "first"), Result(1, 2, 3, "draw"), Result(2, 1, 2, "draw"), Result(2, 3, 4, "second"),
        Result(3, 1, 3, "second"), Result(3, 2, 4, "first")]


def test_scores_buchholz_and_sonneborn_berger_by_hand():
    rows = {row.number: row for row in standings([1, 2, 3, 4], HAND)}
    # points: 1: 1 + 1/2 + 0; 2: 1/2 + 1/2 + 1; 3: 1/2 + 0 + 1; 4: 0 + 1 + 0
    assert [rows[n].points for n in (1, 2, 3, 4)] == [1.5, 2.0, 1.5, 1.0]
    # Buchholz, the opponents' scores: 1 met 4, 2, 3 (1 + 2 + 1.5); 2 met 3, 1, 4; 3 met 2, 4, 1; 4 met 1, 3, 2
    assert [rows[n].buchholz for n in (1, 2, 3, 4)] == [4.5, 4.0, 4.5, 5.0]
    # Sonneborn-Berger: 1 beat 4 (1) and drew 2 (2/2); 2 drew 3 and 1 (1.5/2 each), beat 4 (1);
    # 3 drew 2 (2/2), beat 1 (1.5); 4 beat 3 (1.5)
    assert [rows[n].sonneborn_berger for n in (1, 2, 3, 4)] == [2.0, 2.5, 2.5, 1.5]


def test_tie_breaks_order_the_standings():
    swiss = standings([1, 2, 3, 4], HAND, tie_breaks_for("swiss"))
    assert [(r.number, r.rank) for r in swiss] == [(2, 1), (3, 2), (1, 3), (4, 4)]  # 1 and 3: Buchholz 4.5 both, SB 2.5 > 2
    robin = standings([1, 2, 3, 4], HAND, tie_breaks_for("round_robin"))
    assert [r.number for r in robin] == [2, 3, 1, 4]
    tied = standings([1, 2], [Result(1, 1, 2, "draw")])
    assert [r.rank for r in tied] == [1, 1]  # equal rows share their rank


def test_a_bye_is_a_point_and_adds_nothing_to_buchholz():
    rows = {r.number: r for r in standings([1, 2, 3], [Result(1, 1, 2, "first"), Result(1, 3, None, "bye", "bye")])}
    assert rows[3].points == 1.0 and rows[3].buchholz == 0.0
    assert rows[1].buchholz == 0.0 and rows[2].buchholz == 1.0
    assert cell_text(rows[3].cells[1]) == "+bye"
    assert cell_text(rows[1].cells[1]) == "+2F" and cell_text(rows[2].cells[1]) == "-1S"


def test_unfinished_games_score_nothing_yet():
    rows = {r.number: r for r in standings([1, 2], [Result(1, 1, 2, None)])}
    assert rows[1].points == rows[2].points == 0 and cell_text(rows[1].cells[1]) == "*2F"


# -- pairing -----------------------------------------------------------------------------------


def test_swiss_round_one_is_the_fide_dutch_rule():
    """FIDE C.04.3 (Dutch): round 1 pairs the top half against the bottom half in order (1-7, 2-8, ...),
    the first board's top player takes the initial colour and colours alternate down the boards."""
    assert pairing.swiss([Player(n) for n in range(1, 13)], 1, 5) == [(1, 7), (8, 2), (3, 9), (10, 4), (5, 11), (12, 6)]
    # an odd number: the lowest-ranked player has the bye
    assert pairing.swiss([Player(n) for n in range(1, 12)], 1, 5)[-1] == (11, None)


def play_swiss(count: int, rounds: int, seed: int):
    rng = random.Random(seed)
    players = {n: Player(n) for n in range(1, count + 1)}
    met, rounds_boards = set(), []
    for number in range(1, rounds + 1):
        boards = pairing.swiss(list(players.values()), number, rounds)
        rounds_boards.append(boards)
        assert sorted(n for b in boards for n in b if n is not None) == list(range(1, count + 1))
        for first, second in boards:
            if second is None:
                assert not players[first].had_bye, "a second bye"
                players[first].had_bye, players[first].points = True, players[first].points + 1
                players[first].seats += "-"
                players[first].results += "U"
                continue
            pair = frozenset((first, second))
            assert pair not in met, f"{first} and {second} meet again in round {number}"
            met.add(pair)
            # in a score group: never more than a point apart before the last rounds
            result = rng.choice(("first", "second", "draw"))
            players[first].points += {"first": 1, "draw": 0.5}.get(result, 0)
            players[second].points += {"second": 1, "draw": 0.5}.get(result, 0)
            players[first].seats += "F"
            players[second].seats += "S"
            players[first].results += {"first": "1", "draw": "="}.get(result, "0")
            players[second].results += {"second": "1", "draw": "="}.get(result, "0")
            players[first].opponents.append(second)
            players[second].opponents.append(first)
    return players, rounds_boards


@pytest.mark.parametrize("seed", range(4))
def test_swiss_never_pairs_twice_and_alternates_sides(seed):
    players, _ = play_swiss(12, 5, seed)
    for p in players.values():
        first, second = p.seats.count("F"), p.seats.count("S")
        assert abs(first - second) <= 2, p  # FIDE's absolute colour criterion
        assert "FFF" not in p.seats and "SSS" not in p.seats, p


# FIDE's worked example of the Dutch system: "Mastering the Dutch" (FIDE Technical Commission, SPP,
# 2026 edition), a nine-round Swiss of fifteen players with half-point byes and forfeits. Each round:
# its games (white, black, result: 1-0, 0-1, =, +- and -+ a forfeit), the pairing-allocated bye,
# the half-point byes asked for (those players are not paired that round).
MASTERING_THE_DUTCH = {
    1: ([(1, 8, "1-0"), (9, 2, "="), (3, 10, "1-0"), (11, 4, "0-1"), (5, 12, "="), (13, 6, "1-0"), (7, 14, "0-1")],
        15, []),
    2: ([(14, 1, "0-1"), (2, 5, "1-0"), (15, 3, "0-1"), (4, 13, "1-0"), (10, 7, "0-1"), (8, 11, "1-0"), (12, 9, "=")],
        None, [6]),
    3: ([(1, 4, "="), (3, 2, "="), (6, 5, "="), (13, 8, "-+"), (9, 14, "1-0"), (11, 10, "1-0"), (12, 15, "1-0")],
        None, [7]),
    4: ([(4, 3, "-+"), (2, 1, "0-1"), (8, 9, "0-1"), (7, 12, "1-0"), (5, 13, "1-0"), (14, 6, "0-1"), (15, 11, "0-1")],
        10, []),
    5: ([(1, 3, "="), (9, 7, "0-1"), (4, 5, "1-0"), (12, 2, "="), (6, 8, "0-1"), (13, 11, "1-0"), (10, 15, "1-0")],
        14, []),
    6: ([(7, 1, "0-1"), (3, 4, "1-0"), (8, 12, "1-0"), (11, 9, "="), (2, 10, "1-0"), (5, 14, "-+"), (15, 6, "0-1")],
        13, []),
    7: ([(3, 8, "1-0"), (1, 9, "="), (4, 2, "1-0"), (6, 7, "0-1"), (13, 14, "1-0"), (12, 11, "1-0"), (5, 10, "0-1")],
        None, [15]),
    8: ([(7, 3, "="), (1, 13, "1-0"), (9, 4, "0-1"), (2, 8, "1-0"), (10, 12, "1-0"), (11, 6, "1-0"), (14, 15, "0-1")],
        5, []),
    9: ([(10, 1, None), (9, 3, None), (4, 7, None), (13, 2, None), (8, 15, None), (5, 11, None), (12, 14, None)],
        6, []),
}


def mastering_the_dutch_before(round_no: int) -> list[Player]:
    """The fifteen players' histories before ``round_no``, from the example's crosstable."""
    players = {n: Player(n) for n in range(1, 16)}
    for number in range(1, round_no):
        games, bye, half = MASTERING_THE_DUTCH[number]
        for white, black, result in games:
            letters = {"1-0": "10", "0-1": "01", "=": "==", "+-": "+-", "-+": "-+"}[result]
            for me, other, seat, letter in ((white, black, "F", letters[0]), (black, white, "S", letters[1])):
                players[me].seats += seat
                players[me].results += letter
                players[me].opponents.append(other)
                players[me].points += pairing.RESULT_POINTS[letter]
                players[me].had_bye |= letter == "+"  # a win without playing: no pairing-allocated bye after it
        for me, letter in [(bye, "U")] * bool(bye) + [(n, "H") for n in half]:
            players[me].seats += "-"
            players[me].results += letter
            players[me].points += pairing.RESULT_POINTS[letter]
            players[me].had_bye |= letter == "U"
    return list(players.values())


# Where pbem's pairing differs from the example's: the example follows the 2026 edition of the rules,
# whose choice of the player who has the pairing-allocated bye is new; pbem pairs by the text in force
# until 2026 (py4swiss's engine). Rounds 5, 8 and 9 differ only in the bye and the boards of the
# players it moves (each round paired from the example's own history, so nothing carries over).
BYE_RULE_ROUNDS = {
    5: [(1, 3), (4, 5), (6, 8), (9, 7), (10, 15), (11, 14), (12, 2), (13, None)],
    8: [(1, 13), (2, 8), (5, 15), (7, 3), (9, 4), (10, 6), (14, 12), (11, None)],
    9: [(4, 7), (6, 12), (8, 14), (9, 3), (10, 1), (13, 2), (15, 5), (11, None)],
}


@pytest.mark.parametrize("round_no", range(1, 10))
def test_swiss_pairs_fides_worked_example_of_the_dutch_system(round_no):
    games, bye, half = MASTERING_THE_DUTCH[round_no]
    published = sorted((white, black) for white, black, _ in games) + ([(bye, None)] if bye else [])
    boards = pairing.swiss(mastering_the_dutch_before(round_no), round_no, 9, absent=tuple(half))
    ours = sorted(b for b in boards if b[1] is not None) + [b for b in boards if b[1] is None]
    if round_no in BYE_RULE_ROUNDS:
        assert ours == BYE_RULE_ROUNDS[round_no] and ours[-1] != published[-1]
        same = {b for b in ours if b[1] is not None} & set(published)
        assert len(same) >= len(published) - 4  # the rest of the round is FIDE's
    else:
        assert ours == published  # the same boards, each with FIDE's colours


def test_the_colour_preferences_of_a_score_group_are_met_by_an_exchange_where_one_exists():
    """Round 2 of the FIDE example, its half-point group alone: 2 and 12 want white, 5 and 9 black;
    2-9 and 5-12 met in round 1. 2-5 and 12-9 meet every preference (pairing-core's kernel, used
    before, gave 2-12 and 9-5, against two of them)."""
    others = tuple(n for n in range(1, 16) if n not in (2, 5, 9, 12))
    assert sorted(pairing.swiss(mastering_the_dutch_before(2), 2, 9, absent=others)) == [(2, 5), (12, 9)]


def test_round_robin_everyone_meets_everyone_once_with_sides_balanced():
    for count in (4, 5, 6):
        rounds = pairing.round_robin_rounds(count)
        boards = [b for r in range(1, rounds + 1) for b in pairing.round_robin(count, r)]
        games = [frozenset(b) for b in boards if b[1] is not None]
        assert sorted(map(sorted, games)) == sorted(map(sorted, map(frozenset, combinations(range(1, count + 1), 2))))
        for n in range(1, count + 1):
            firsts = sum(1 for a, b in boards if a == n and b is not None)
            seconds = sum(1 for a, b in boards if b == n)
            assert abs(firsts - seconds) <= 1


def test_knockout_bracket():
    assert pairing.knockout_first(8) == [(1, 8), (4, 5), (2, 7), (3, 6)]  # 1 and 2 meet only in the final
    assert pairing.knockout_first(6) == [(1, None), (4, 5), (2, None), (3, 6)]  # top seeds get the byes
    history = {1: Player(1, seats="F"), 4: Player(4, seats="F"), 2: Player(2, seats="S"), 3: Player(3, seats="F")}
    # 1 and 4 both had the first seat once: the better seed keeps it; 2 had it less than 3
    assert pairing.knockout_next([1, 4, 2, 3], history) == [(1, 4), (2, 3)]
    assert pairing.knockout_rounds(8) == 3 and pairing.knockout_rounds(6) == 3


# -- ratings by hand -----------------------------------------------------------------------------


def test_one_won_game_moves_ratings_as_the_plackett_luce_formula_says():
    """Weng-Lin (OpenSkill) Plackett-Luce, two newcomers (mu 25, sigma 25/3, beta 25/6, tau 25/300):
    c = sqrt(2 (sigma^2 + tau^2) + 2 beta^2); the winner gains (sigma^2 + tau^2) / c * (1 - 1/2)."""
    s2 = (25 / 3) ** 2 + (25 / 300) ** 2
    c = math.sqrt(2 * s2 + 2 * (25 / 6) ** 2)
    gain = s2 / c * 0.5
    sigma = math.sqrt(s2 * (1 - s2 / c ** 2 * (math.sqrt(s2) / c) * 0.25))
    model = ratings.model()
    [[winner], [loser]] = model.rate([[model.rating()], [model.rating()]], ranks=[1, 2])
    assert winner.mu == pytest.approx(25 + gain) and loser.mu == pytest.approx(25 - gain)
    assert winner.sigma == pytest.approx(sigma) and loser.sigma == pytest.approx(sigma)


# -- through the service ------------------------------------------------------------------------


def play_round(site, leagues, tid, decide):
    """Every unfinished game of the tournament ends as ``decide(pairing)`` says: "miss:<seat>" lets
    that seat miss its day (a forfeit by the miss policy), "first"/"second"/"draw" adjudicates."""
    t = leagues.tournament(tid)
    for p in t["pairings"]:
        if p["result"] is None and p["game_id"]:
            how = decide(p)
            if how.startswith("miss"):
                while not site.service.game(p["game_id"]).over:
                    site.service.resolve_next(p["game_id"])
            else:
                leagues.adjudicate(tid, ORG, "by hand", p["id"], how)
    return leagues.sync(tid)


def test_a_swiss_tournament_runs_to_its_end(site):
    leagues, league_id, emails = league_of(site, 6)
    tid = leagues.create_tournament(league_id, ORG, "Autumn Swiss", "swiss", rounds=3)
    for email in emails:
        assert leagues.enter(tid, email).startswith("You are entered")
    assert leagues.start(tid, ORG) == 3
    t = leagues.tournament(tid)
    assert t["round"] == 1 and len(t["pairings"]) == 3
    info = site.service.info(t["pairings"][0]["game_id"])
    assert info["moderator"] == ORG and info["settings"]["miss_policy"] == "forfeit"
    seats = {s["side"]: s["email"] for s in site.store.seats(t["pairings"][0]["game_id"])}
    assert seats == {"austria": t["pairings"][0]["first"], "france": t["pairings"][0]["second"]}
    # round 1: the first seat wins everywhere; round 2: draws; round 3: games forfeited by missed days
    assert "round 2 paired" in play_round(site, leagues, tid, lambda p: "first")
    assert "round 3 paired" in play_round(site, leagues, tid, lambda p: "draw")
    assert "finished" in play_round(site, leagues, tid, lambda p: "miss")
    t = leagues.tournament(tid)
    assert t["status"] == "finished"
    pairs = [frozenset((p["first"], p["second"])) for p in t["pairings"]]
    assert len(set(pairs)) == len(pairs) == 9  # nobody met twice
    assert {p["how"] for p in t["pairings"] if p["round"] == 3} == {"forfeit"}
    assert {p["how"] for p in t["pairings"] if p["round"] < 3} == {"adjudicated"}
    table = leagues.table(tid)
    rows = table["rows"]
    assert sum(r.points for r in rows) == 9  # a point a game
    assert [r.rank for r in rows] == sorted(r.rank for r in rows)
    # every row's figures agree with the pure standings over the stored results
    again = {r.number: r for r in standings([e["number"] for e in t["entries"]], leagues.results(t),
                                             tie_breaks_for("swiss"))}
    assert all(again[r.number].buchholz == r.buchholz and again[r.number].points == r.points for r in rows)
    # ratings were recomputed from the finished games: 9 games rated, everyone rated
    assert {r["email"] for r in ratings.table(site.store, "marengo")} == set(emails)


def test_a_swiss_with_an_odd_number_gives_byes_once_each(site):
    leagues, league_id, emails = league_of(site, 5)
    tid = leagues.create_tournament(league_id, ORG, "Odd", "swiss", rounds=3)
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    for _ in range(3):
        play_round(site, leagues, tid, lambda p: "second")
    t = leagues.tournament(tid)
    byes = [p["first"] for p in t["pairings"] if p["result"] == "bye"]
    assert len(byes) == 3 and len(set(byes)) == 3 and t["status"] == "finished"


def test_round_robin_and_knockout(site):
    leagues, league_id, emails = league_of(site, 4)
    rr = leagues.create_tournament(league_id, ORG, "Pool A", "round_robin")
    ko = leagues.create_tournament(league_id, ORG, "Cup", "knockout")
    for email in emails:
        leagues.enter(rr, email)
        leagues.enter(ko, email)
    assert leagues.start(rr, ORG) == 3 and leagues.start(ko, ORG) == 2
    for _ in range(3):
        play_round(site, leagues, rr, lambda p: "first")
    t = leagues.tournament(rr)
    assert t["status"] == "finished" and len(t["pairings"]) == 6
    # knockout: the better seed wins each game; a draw sends the better seed on
    numbers = {e["email"]: e["number"] for e in leagues.tournament(ko)["entries"]}
    play_round(site, leagues, ko, lambda p: "first" if numbers[p["first"]] < numbers[p["second"]] else "draw")
    final = [p for p in leagues.tournament(ko)["pairings"] if p["round"] == 2]
    assert len(final) == 1 and {numbers[final[0]["first"]], numbers[final[0]["second"]]} == {1, 2}
    play_round(site, leagues, ko, lambda p: "second")
    assert leagues.tournament(ko)["status"] == "finished"


def test_organiser_console_pause_resume_replace_and_refusals(site):
    leagues, league_id, emails = league_of(site, 4)
    leagues.join(league_id, "sub@example.org", "SUB")
    tid = leagues.create_tournament(league_id, ORG, "Pool", "round_robin")
    for email in emails:
        leagues.enter(tid, email)
    with pytest.raises(ServiceError, match="organisers"):
        leagues.start(tid, emails[0])
    leagues.start(tid, ORG)
    with pytest.raises(ServiceError, match="started"):
        leagues.enter(tid, "sub@example.org")
    games = [p["game_id"] for p in leagues.tournament(tid)["pairings"]]
    leagues.pause(tid, ORG, "a holiday")
    assert {site.service.info(g)["status"] for g in games} == {"paused"}
    assert leagues.tournament(tid)["status"] == "paused"
    leagues.resume(tid, ORG, "back")
    assert {site.service.info(g)["status"] for g in games} == {"running"}
    gone = emails[0]
    leagues.replace(tid, ORG, "left the club", gone, "sub@example.org")
    seats = [s["email"] for g in games for s in site.store.seats(g)]
    assert gone not in seats and "sub@example.org" in seats
    assert "sub@example.org" in [e["email"] for e in leagues.tournament(tid)["entries"]]
    with pytest.raises(ServiceError, match="not a member"):
        leagues.replace(tid, ORG, "x", emails[1], "stranger@example.org")
    with pytest.raises(ServiceError, match="not over"):
        leagues.pair_next(tid, ORG)
    leagues.publish(tid, ORG)
    assert leagues.tournament(tid)["published"] == 1
    # the site admin may act in any league
    leagues.pause(tid, ADMIN, "site maintenance")


def test_entry_rules_membership_signup_and_reliability(site):
    leagues, league_id, emails = league_of(site, 2, min_reliability=80)
    tid = leagues.create_tournament(league_id, ORG, "Strict", "swiss")
    with pytest.raises(ServiceError, match="join the league"):
        leagues.enter(tid, "outsider@example.org")
    leagues.set_signup(league_id, ORG, False)
    with pytest.raises(ServiceError, match="not taking"):
        leagues.join(league_id, "late@example.org")
    # a player who missed every day of a game is under 80%: refused by a league asking for it
    game_id, _ = site.service.create_game("g", {"austria": "flaky@example.org", "france": "ok@example.org"},
                                          scenario=SMALL, settings={"hours": 48})
    site.service.resolve_next(game_id)
    site.service.resolve_next(game_id)
    record = reliability(site.store, "flaky@example.org")
    assert record["owed"] == 1 and record["missed"] == 1 and record["percent"] == 0.0
    other = leagues.create_league("Strict club", ORG, rules={"scenario": SMALL, "min_reliability": 80})
    with pytest.raises(ServiceError, match="reliability"):
        leagues.join(other, "flaky@example.org")
    # a moderator excuses the miss: the record is whole again
    site.store.set_moderator(game_id, "mod@example.org")
    leagues.excuse(game_id, "austria", "mod@example.org", "a power cut")
    assert reliability(site.store, "flaky@example.org")["percent"] == 100.0
    assert leagues.join(other, "flaky@example.org").startswith("Welcome")
    with pytest.raises(ServiceError, match="tournaments pair two players|no league rule|unknown"):
        leagues.create_league("Bad", ORG, rules={"colour": "blue"})


def test_vacations_forbidden_by_the_rules(site):
    leagues, league_id, emails = league_of(site, 2, vacation=False)
    tid = leagues.create_tournament(league_id, ORG, "No holidays", "round_robin")
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    game_id = leagues.tournament(tid)["pairings"][0]["game_id"]
    assert site.service.info(game_id)["settings"]["vacation_days"] == 0


def test_ratings_recomputed_from_history_by_the_command(site, tmp_path, capsys):
    from pbem.cli import main

    leagues, league_id, emails = league_of(site, 2)
    tid = leagues.create_tournament(league_id, ORG, "Duel", "round_robin")
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    play_round(site, leagues, tid, lambda p: "first")
    site.store.execute("DELETE FROM league_ratings")
    config = tmp_path / "pbem.toml"
    config.write_text(f'instance = "{tmp_path}"\ndatabase = "{tmp_path / "pbem.sqlite3"}"\n')
    assert main(["ratings", "--config", str(config)]) == 0
    out = capsys.readouterr().out
    assert "marengo: 1 games rated" in out
    table = {r["email"]: r for r in ratings.table(site.store, "marengo")}
    winner = leagues.tournament(tid)["pairings"][0]["first"]
    assert table[winner]["mu"] == pytest.approx(27.635389, abs=1e-5) and table[winner]["games"] == 1


def test_sign_up_and_entry_by_mail(site):
    from email.message import EmailMessage

    from pbem.server import inbox

    leagues = Leagues(site.service)
    league_id = leagues.create_league("Club", ORG, rules={"scenario": SMALL})
    tid = leagues.create_tournament(league_id, ORG, "Open", "swiss")

    sent = []

    def mail(sender, text):
        sent.append(text)
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "league"
        msg["Message-ID"] = f"<league-{len(sent)}@example.org>"
        msg.set_content(text)
        inbound_id, _ = inbox.receive(site.service, msg.as_bytes(), "pipe")
        inbox.process(site.service, inbound_id)
        return site.store.mail("WHERE to_addr = ? ORDER BY id DESC LIMIT 1",
                                    (sender,))["body"]

    def confirmed(sender, text):  # a request, then the line its answer gives to confirm it (the code)
        asked = mail(sender, text)
        assert "Nothing is done until you confirm" in asked
        return mail(sender, re.search(r"^    (.+)$", asked, re.M).group(1))

    assert "takes members of its league" in mail("ney@example.org", f"TOURNAMENT {tid} ENTER")
    assert confirmed("ney@example.org", f"LEAGUE {league_id} JOIN Michel Ney").startswith(
        f"This address is now a member of league {league_id}")
    member = leagues.league(league_id)["members"][0]
    assert (member["email"], member["name"], member["via"]) == ("ney@example.org", "Michel Ney", "mail")
    assert confirmed("ney@example.org", f"TOURNAMENT {tid} ENTER").startswith(
        f"This address is now entered in tournament {tid}")
    assert [e["email"] for e in leagues.tournament(tid)["entries"]] == ["ney@example.org"]
    assert "no league 99" in mail("soult@example.org", "LEAGUE 99 JOIN")
    assert "League commands" in mail("soult@example.org", "LEAGUE JOIN")


# -- tournaments of three-seat games ---------------------------------------------------------


def test_groups_of_three_by_score_without_meeting_twice():
    players = [Player(n) for n in range(1, 8)]
    assert pairing.groups_of_three(players, 1) == [(1, 2, 3), (4, 5, 6), (7, None, None)]  # the lowest: a bye
    # round 2 of nine players after three drawn games: new groups, nobody with anyone met
    first = [(1, 2, 3), (4, 5, 6), (7, 8, 9)]
    players = [Player(n, 0.5, "FST"[g.index(n)], [o for o in g if o != n]) for g in first for n in g]
    groups = pairing.groups_of_three(players, 2)
    met = {frozenset(pair) for g in first for pair in combinations(g, 2)}
    assert len(groups) == 3 and all(frozenset(pair) not in met for g in groups for pair in combinations(g, 2))
    by_number = {p.number: p for p in players}
    assert groups == [(1, 4, 7), (2, 5, 8), (3, 6, 9)]
    # the lone first seat to whoever had it least: in (2, 5, 8) and (3, 6, 9) nobody had it
    assert all(by_number[g[0]].seats.count("F") == min(by_number[n].seats.count("F") for n in g) for g in groups)
    # seven players, the last had the bye: the next lowest without one has it
    players = [Player(n, 1.0 if n == 7 else 0.0, "-" if n == 7 else "S", had_bye=n == 7) for n in range(1, 8)]
    assert pairing.groups_of_three(players, 2)[-1] == (6, None, None)


def test_a_swiss_of_napoleon_1815_with_three_players_a_game(site):
    leagues, league_id, emails = league_of(site, 6, game="napoleon1815", scenario="", options={"players": "3"})
    with pytest.raises(ServiceError, match="knockout of three-seat games is not offered: when the two players"):
        leagues.create_tournament(league_id, ORG, "Cup", "knockout")
    tid = leagues.create_tournament(league_id, ORG, "Waterloo Swiss", "swiss", rounds=2)
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    t = leagues.tournament(tid)
    assert [(p["first"], p["second"], p["third"]) for p in t["pairings"]] == [tuple(emails[:3]), tuple(emails[3:])]
    seats = {s["side"]: s["email"] for s in site.store.seats(t["pairings"][0]["game_id"])}
    assert seats == {"french": emails[0], "anglo-dutch": emails[1], "prussian": emails[2]}
    # board 1: the French player wins; board 2: the Allies win (both Allied players score)
    boards = t["pairings"]
    leagues.adjudicate(tid, ORG, "by hand", boards[0]["id"], "first")
    leagues.adjudicate(tid, ORG, "by hand", boards[1]["id"], "second")
    assert "round 2 paired" in leagues.sync(tid)
    rows = {r.email: r for r in leagues.table(tid)["rows"]}
    assert [rows[e].points for e in emails] == [1, 0, 0, 0, 1, 1]
    # Buchholz counts opponents, not partners: p01 met p02 and p03 (0 + 0); p05 met p04 alone
    assert rows[emails[0]].buchholz == 0 and rows[emails[4]].buchholz == 0 and rows[emails[1]].buchholz == 1
    assert cell_text(rows[emails[0]].cells[1]) == "+2,3Fa" and cell_text(rows[emails[4]].cells[1]) == "+4Sa"
    assert cell_text(rows[emails[5]].cells[1]) == "+4Ta"
    second = [p for p in leagues.tournament(tid)["pairings"] if p["round"] == 2]
    assert len(second) == 2 and all(p["third"] for p in second)
    first_round = [{p["first"], p["second"], p["third"]} for p in boards]
    assert all(not {p["first"], p["second"], p["third"]} <= g for p in second for g in first_round)
    for p in second:
        leagues.adjudicate(tid, ORG, "by hand", p["id"], "draw")
    assert "finished" in leagues.sync(tid)
    assert sum(r.points for r in leagues.table(tid)["rows"]) == 3 + 3  # a point a player whose side won, ½ a draw


def test_a_round_robin_of_three_seat_games_rotates_every_seat_in_groups_of_three():
    assert pairing.round_robin_groups(6) == [(1, 4, 5), (2, 3, 6)]  # snake order: groups alike in strength
    rounds = [pairing.round_robin_of_three(6, r) for r in (1, 2, 3)]
    assert rounds == [[(1, 4, 5), (2, 3, 6)], [(4, 5, 1), (3, 6, 2)], [(5, 1, 4), (6, 2, 3)]]
    for group in pairing.round_robin_groups(6):
        games = [g for r in rounds for g in r if set(g) == set(group)]
        # each player takes each seat once: the lone first seat, and each of the other two
        assert all(sorted(g[i] for g in games) == sorted(group) for i in range(3))
        # each pair faces each other twice (one of them alone in the first seat) and is partnered once
        for a, b in combinations(group, 2):
            assert sum(1 for g in games if {a, b} <= {g[1], g[2]}) == 1
    second = [pairing.round_robin_of_three(6, r) for r in (4, 5, 6)]
    assert second[0] == [(1, 5, 4), (2, 6, 3)]  # the second cycle: the second and third seats turned round
    with pytest.raises(pairing.PairingFailed, match="multiple of three players, not 7"):
        pairing.round_robin_of_three(7, 1)


def test_a_round_robin_of_napoleon_1815_with_three_players_a_game(site):
    leagues, league_id, emails = league_of(site, 6, game="napoleon1815", scenario="", options={"players": "3"})
    tid = leagues.create_tournament(league_id, ORG, "Waterloo pools", "round_robin")
    for email in emails[:5]:
        leagues.enter(tid, email)
    with pytest.raises(ServiceError, match="multiple of three players, not 5"):
        leagues.start(tid, ORG)
    leagues.enter(tid, emails[5])
    assert leagues.start(tid, ORG) == 3
    seats_had: dict[str, list[str]] = {e: [] for e in emails}
    for round_no in (1, 2, 3):
        t = leagues.tournament(tid)
        boards = [p for p in t["pairings"] if p["round"] == round_no]
        assert len(boards) == 2 and all(p["third"] for p in boards)
        for p in boards:
            for seat in site.store.seats(p["game_id"]):
                seats_had[seat["email"]].append(seat["side"])
            leagues.adjudicate(tid, ORG, "by hand", p["id"], "first")  # the French player wins every game
        leagues.sync(tid)
    assert all(sorted(had) == ["anglo-dutch", "french", "prussian"] for had in seats_had.values())
    assert leagues.tournament(tid)["status"] == "finished"
    rows = leagues.table(tid)["rows"]
    assert all(r.points == 1 for r in rows)  # each won once, as the French player
    # each beat his group's other two (1 point each) as the French player: Sonneborn-Berger 2, all equal
    assert all(r.sonneborn_berger == 2 for r in rows) and {r.rank for r in rows} == {1}


# -- side bidding --------------------------------------------------------------------------------


def test_side_bids_decide_contested_seats_and_cost_a_tie_break():
    boards = [(1, 2), (3, 4), (5, 6), (7, 8), (9, None)]
    bids = {1: ("second", 2), 2: ("second", 5),  # both want the second seat: 2 bids more and takes it
            3: ("first", 3), 4: ("first", 3),  # equal bids: the board stands
            5: ("second", 1),  # only one wants a seat: he has it for nothing
            7: ("first", 4), 8: ("second", 0)}  # different seats: both served
    assert pairing.apply_bids(boards, bids, "first") == [
        ((1, 2), 2, 5), ((3, 4), None, 0), ((6, 5), None, 0), ((7, 8), None, 0), ((9, None), None, 0)]
    # what was paid is the last tie-break
    rows = standings([1, 2], [Result(1, 1, 2, "draw")], bids={1: 0, 2: 5})
    assert [(r.number, r.rank) for r in rows] == [(1, 1), (2, 2)]


def test_side_bidding_in_a_tournament(site):
    leagues, league_id, emails = league_of(site, 2, bidding=True)
    tid = leagues.create_tournament(league_id, ORG, "Bids", "round_robin")
    for email in emails:
        leagues.enter(tid, email)
    # p02 (second by the tables) wants Austria, the first seat, and outbids p01
    assert "Austria, up to 3" in leagues.bid(tid, emails[1], "Austria", 3)
    leagues.bid(tid, emails[0], "austria", 1)
    with pytest.raises(ServiceError, match="0 to 10"):
        leagues.bid(tid, emails[0], "austria", 11)
    with pytest.raises(ServiceError, match="not 'Prussia'"):
        leagues.bid(tid, emails[0], "Prussia", 1)
    with pytest.raises(ServiceError, match="not entered"):
        leagues.bid(tid, "stranger@example.org", "austria", 1)
    leagues.start(tid, ORG)
    p = leagues.tournament(tid)["pairings"][0]
    assert (p["first"], p["second"], p["bid"], p["bid_by"]) == (emails[1], emails[0], 3, emails[1])
    seats = {s["side"]: s["email"] for s in site.store.seats(p["game_id"])}
    assert seats["austria"] == emails[1]
    leagues.adjudicate(tid, ORG, "by hand", p["id"], "draw")
    leagues.sync(tid)
    rows = leagues.table(tid)["rows"]
    assert [(r.email, r.bids) for r in rows] == [(emails[0], 0), (emails[1], 3)]  # equal points: the bid decides
    _, plain_league, _ = league_of(site, 2)
    plain = leagues.create_tournament(plain_league, ORG, "No bids", "swiss")
    with pytest.raises(ServiceError, match="no side bidding"):
        leagues.bid(plain, emails[0], "austria", 1)
