"""Ratings (docs/leagues.md, "Ratings"): each seat rated by its duels with the other side's
seats, checked against the rating library's own two-player figures; games whose seats share
one address are not rated; a knockout draw sends the better seed on."""

from __future__ import annotations

from datetime import timedelta

import pytest

from pbem.server.leagues import ratings

from leaguesupport import league_of, ORG


def duel(winner, loser):
    """The library's own figures for one won two-player game."""
    model = ratings.model()
    [[won], [lost]] = model.rate([[winner], [loser]], ranks=[1, 2])
    return won, lost


def test_three_player_napoleon_1815_rates_each_seat_by_its_duels_not_one_against_a_team(site):
    leagues, league_id, emails = league_of(site, 3, game="napoleon1815", scenario="", options={"players": "3"})
    tid = leagues.create_tournament(league_id, ORG, "Waterloo", "swiss", rounds=1)
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    [board] = leagues.tournament(tid)["pairings"]
    leagues.adjudicate(tid, ORG, "by hand", board["id"], "first")  # the French player wins
    leagues.sync(tid)
    table = {r["email"]: r for r in ratings.table(site.store, "napoleon1815")}
    model = ratings.model()
    won, lost = duel(model.rating(), model.rating())
    # between newcomers the French player's game is one won duel against each Ally (both alike), so
    # he gains what a two-player winner gains, 27.635..., and each Ally loses what a loser loses --
    # not the 28.708 / 21.292 of one player against a team of two whose strengths add up
    assert won.mu == pytest.approx(27.635389, abs=1e-6) and lost.mu == pytest.approx(22.364611, abs=1e-6)
    assert set(table) == set(emails)
    french = board["first"]
    assert table[french]["mu"] == pytest.approx(won.mu) and table[french]["sigma"] == pytest.approx(won.sigma)
    for ally in (board["second"], board["third"]):
        assert table[ally]["mu"] == pytest.approx(lost.mu) and table[ally]["sigma"] == pytest.approx(lost.sigma)
    assert all(r["games"] == 1 for r in table.values())


def test_a_seat_against_two_of_unequal_strength_takes_the_mean_of_its_two_duels():
    model = ratings.model()
    french, strong, weak = model.rating(mu=25), model.rating(mu=32, sigma=6), model.rating(mu=20, sigma=7)
    new = ratings.rate_game(model, {"f": french, "s": strong, "w": weak}, [["f"], ["s", "w"]], [1, 2])
    beat_strong, strong_lost = duel(french, strong)
    beat_weak, weak_lost = duel(french, weak)
    assert new["f"].mu == pytest.approx((beat_strong.mu + beat_weak.mu) / 2)
    assert new["f"].sigma == pytest.approx((beat_strong.sigma + beat_weak.sigma) / 2)
    assert new["s"].mu == pytest.approx(strong_lost.mu) and new["w"].mu == pytest.approx(weak_lost.mu)
    # a draw: every seat ranked alike
    drawn = ratings.rate_game(model, {"a": strong, "b": weak}, [["a"], ["b"]], [1, 1])
    [[a], [b]] = model.rate([[strong], [weak]], ranks=[1, 1])
    assert drawn["a"].mu == pytest.approx(a.mu) and drawn["b"].mu == pytest.approx(b.mu)


def finish_by_forfeit(site, game_id):
    while not site.service.game(game_id).over:
        site.service.resolve_next(game_id)


def test_a_game_whose_seats_share_one_address_is_not_rated(site):
    settings = {"hours": 48, "miss_policy": "forfeit", "miss_limit": 1}
    shared, _ = site.game({"austria": "Same@example.org", "france": "same@example.org"}, settings=settings)
    apart, _ = site.game({"austria": "one@example.org", "france": "two@example.org"}, settings=settings)
    finish_by_forfeit(site, shared)
    finish_by_forfeit(site, apart)
    assert ratings.recompute(site.service) == {"marengo": 1}
    assert {r["email"] for r in ratings.table(site.store)} == {"one@example.org", "two@example.org"}


def test_a_drawn_knockout_game_sends_the_better_seed_on_whichever_seat_he_held(site):
    leagues, league_id, emails = league_of(site, 4)
    tid = leagues.create_tournament(league_id, ORG, "Cup", "knockout")
    for email in emails:
        leagues.enter(tid, email)
    leagues.start(tid, ORG)
    t = leagues.tournament(tid)
    numbers = {e["email"]: e["number"] for e in t["entries"]}
    assert [(numbers[p["first"]], numbers[p["second"]]) for p in t["pairings"]] == [(1, 4), (2, 3)]
    for p in t["pairings"]:
        leagues.adjudicate(tid, ORG, "by hand", p["id"], "draw")
    assert leagues.knockout_winners(leagues.tournament(tid), 1) == [1, 2]
    # the worse seed in the first seat: a draw still sends the better one on
    t = leagues.tournament(tid)
    swapped = [{**p, "first": p["second"], "second": p["first"]} for p in t["pairings"]]
    assert leagues.knockout_winners({**t, "pairings": swapped}, 1) == [1, 2]
    leagues.sync(tid)
    [final] = [p for p in leagues.tournament(tid)["pairings"] if p["round"] == 2]
    assert {numbers[final["first"]], numbers[final["second"]]} == {1, 2}


def rows_of(site):
    return [(r["game"], r["email"].lower(), r["mu"], r["sigma"], r["games"]) for r in ratings.table(site.store)]


def test_ratings_brought_up_to_date_incrementally_equal_a_full_recompute_and_read_only_what_changed(site):
    """Ratings are kept game by game; after a change only the games from the first changed one are rated
    again (the games before are not even read), and the ratings are exactly those of rating every game again."""
    settings = {"hours": 48, "miss_policy": "forfeit", "miss_limit": 1}
    players = [f"r{n}@example.org" for n in range(1, 6)]
    games = []
    for i in range(6):  # six games among five players, each ended by the miss policy
        game_id, _ = site.game({"austria": players[i % 5], "france": players[(i + 2) % 5]}, settings=settings)
        finish_by_forfeit(site, game_id)
        games.append(game_id)
        site.service.clock = (lambda moment: lambda: moment)(site.service.now() + timedelta(hours=1))
    assert ratings.recompute(site.service) == {"marengo": 6}
    incremental = rows_of(site)
    assert ratings.recompute(site.service, full=True) == {"marengo": 6} and rows_of(site) == incremental
    read: list[int] = []
    loads = site.service.game
    site.service.game = lambda game_id: read.append(game_id) or loads(game_id)
    ratings.recompute(site.service)
    assert read == [] and rows_of(site) == incremental  # nothing changed: nothing read, nothing rated again
    # one more game: only it is read
    game_id, _ = site.game({"austria": players[4], "france": players[0]}, settings=settings)
    finish_by_forfeit(site, game_id)
    read.clear()
    ratings.recompute(site.service)
    assert read == [game_id]
    after_new = rows_of(site)
    ratings.recompute(site.service, full=True)
    assert rows_of(site) == after_new
    # a change in the middle of the history (the third game's France seat passes to another address): the games
    # from it on are rated again, and the result is again exactly the full recomputation's
    site.store.execute("UPDATE seats SET email = ? WHERE game_id = ? AND side = 'france'", ("late@example.org", games[2]))
    read.clear()
    ratings.recompute(site.service)
    assert read == [games[2]]  # the others' rating input is known by their fingerprints
    changed = rows_of(site)
    assert changed != after_new and "late@example.org" in {email for _, email, *_ in changed}
    ratings.recompute(site.service, full=True)
    assert rows_of(site) == changed
