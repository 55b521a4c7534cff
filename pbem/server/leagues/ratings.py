"""Ratings per game, by OpenSkill (Weng-Lin, the Plackett-Luce model), rated seat by seat.

A game is scored as its rule book scores it: one side wins (every seat of that side wins) or
nobody does (a draw). Each seat is rated as having played one game of that result against the
seats of the other sides: for each opposing seat the library rates the duel of the two (the
ratings both had before the game), and the seat's new mu and sigma are the means over its
duels. A duel of two seats is exactly the library's own two-player rating; in three-player
Napoleon 1815 the French player's game counts as one game against two opponents (the mean of
his two duels), and each Allied player's as one game against the French player, never as one
player against a team of two whose strengths add up (docs/leagues.md, "Ratings", works one
example).

``recompute(service)`` forgets the table and rates every finished game of the server again,
in the order the games ended. A tournament game the organiser overrode counts with the result he
ruled; one annulled (a withdrawal, an override), or cancelled with its round, does not count. Games with an empty seat, or with one address in two seats (hot
seat; addresses compared without case), are not rated. The rating shown is OpenSkill's
ordinal, mu - 3 sigma (a cautious estimate: 0 for a newcomer), beside mu and sigma.
"""

from __future__ import annotations


def model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def finished_games(service) -> list[tuple[str, list[list[str]], list[int]]]:
    """Every rated game, in the order they ended: (game name, each side's addresses, each side's rank:
    1 for the winner, 2 for the others; all 1 in a draw)."""
    rows = service.store.query(
        "SELECT g.id, g.ruleset, (SELECT MAX(at) FROM log WHERE log.game_id = g.id) AS ended FROM games g"
        " WHERE g.status = 'finished' ORDER BY ended, g.id")
    ruled = {r["game_id"]: r for r in service.store.query(
        "SELECT game_id, result, how FROM league_pairings WHERE how IN ('overridden', 'annulled') AND game_id IS NOT NULL")}
    cancelled = {r["game_id"] for r in service.store.query("SELECT game_id FROM league_cancelled")}
    out = []
    for row in rows:
        game = service.game(row["id"])
        if not game.over or ruled.get(row["id"], {}).get("how") == "annulled" or row["id"] in cancelled:
            continue
        seats = {s["side"]: s["email"] for s in service.store.seats(row["id"])}
        emails = [e.lower() for e in seats.values() if e]
        if len(emails) < len(seats) or len(set(emails)) < len(emails) or len(emails) < 2:
            continue
        winner = game.view(None).get("winner")
        order = game.ruleset.seats(game.scenario, game.options)
        if row["id"] in ruled:  # the tournament organiser's override: the result he ruled
            winner = {"first": order[0].side, "second": order[1].side}.get(ruled[row["id"]]["result"])
        sides: dict[str, list[str]] = {}
        for seat in order:
            sides.setdefault(seat.side, []).append(seats[seat.id].lower())
        teams = list(sides.values())
        ranks = [1 if winner is None or side == winner else 2 for side in sides]
        out.append((row["ruleset"], teams, ranks))
    return out


def rate_game(rate, before: dict[str, object], teams: list[list[str]], ranks: list[int]) -> dict[str, object]:
    """The seats' new ratings after one game: each seat's mean over its duels with every seat of
    another side, each duel rated by the library from the ratings before the game."""
    out = {}
    for i, team in enumerate(teams):
        for email in team:
            duels = [rate.rate([[before[email]], [before[other]]], ranks=[ranks[i], ranks[j]])[0][0]
                     for j, others in enumerate(teams) if j != i for other in others]
            out[email] = rate.rating(mu=sum(d.mu for d in duels) / len(duels),
                                     sigma=sum(d.sigma for d in duels) / len(duels), name=email)
    return out


def recompute(service) -> dict[str, int]:
    """Rate every finished game again; returns the number of games rated per game name."""
    rate = model()
    ratings: dict[tuple[str, str], object] = {}
    played: dict[tuple[str, str], int] = {}
    counts: dict[str, int] = {}
    for name, teams, ranks in finished_games(service):
        before = {e: ratings.get((name, e)) or rate.rating(name=e) for team in teams for e in team}
        for email, rating in rate_game(rate, before, teams, ranks).items():
            ratings[(name, email)] = rating
            played[(name, email)] = played.get((name, email), 0) + 1
        counts[name] = counts.get(name, 0) + 1
    store = service.store
    with store.transaction():
        store.db.execute("DELETE FROM league_ratings")
        for (name, email), rating in ratings.items():
            store.db.execute("INSERT INTO league_ratings (game, email, mu, sigma, games, updated)"
                             " VALUES (?, ?, ?, ?, ?, ?)",
                             (name, email, rating.mu, rating.sigma, played[(name, email)], store.now()))
    return counts


def table(store, game: str | None = None) -> list[dict]:
    """The ratings, best first: game, email, mu, sigma, games and the shown rating (mu - 3 sigma)."""
    rows = store.query("SELECT * FROM league_ratings" + (" WHERE game = ?" if game else "")
                       + " ORDER BY game, mu - 3 * sigma DESC, email", (game,) if game else ())
    for row in rows:
        row["rating"] = round(row["mu"] - 3 * row["sigma"], 2)
    return rows


def of(store, email: str) -> list[dict]:
    return [row for row in table(store) if row["email"].lower() == email.lower()]
