"""Ratings per game, by OpenSkill (Weng-Lin, the Plackett-Luce model): it rates games of two
or more sides, a side being a team of the seats that play for it, so a three-player game
rates as well as a duel.

``recompute(service)`` forgets the table and rates every finished game of the server again,
in the order the games ended: the winner's side ranks first, every other side second; a game
over with no winner is a draw between all sides. Games with an empty seat, or with one
address in two seats (hot seat), are not rated. The rating shown is OpenSkill's ordinal,
mu - 3 sigma (a cautious estimate: 0 for a newcomer), beside mu and sigma.
"""

from __future__ import annotations


def model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def finished_games(service) -> list[tuple[str, list[list[str]], list[int]]]:
    """Every rated game, in the order they ended: (game name, teams of addresses, ranks)."""
    rows = service.store.query(
        "SELECT g.id, g.ruleset, (SELECT MAX(at) FROM log WHERE log.game_id = g.id) AS ended FROM games g"
        " WHERE g.status = 'finished' ORDER BY ended, g.id")
    out = []
    for row in rows:
        game = service.game(row["id"])
        if not game.over:
            continue
        seats = {s["side"]: s["email"] for s in service.store.seats(row["id"])}
        emails = [e.lower() for e in seats.values() if e]
        if len(emails) < len(seats) or len(set(emails)) < len(emails) or len(emails) < 2:
            continue
        winner = game.view(None).get("winner")
        sides: dict[str, list[str]] = {}
        for seat in game.ruleset.seats(game.scenario, game.options):
            sides.setdefault(seat.side, []).append(seats[seat.id].lower())
        teams = list(sides.values())
        ranks = [1 if winner is None or side == winner else 2 for side in sides]
        out.append((row["ruleset"], teams, ranks))
    return out


def recompute(service) -> dict[str, int]:
    """Rate every finished game again; returns the number of games rated per game name."""
    rate = model()
    ratings: dict[tuple[str, str], object] = {}
    played: dict[tuple[str, str], int] = {}
    counts: dict[str, int] = {}
    for name, teams, ranks in finished_games(service):
        current = [[ratings.get((name, e)) or rate.rating(name=e) for e in team] for team in teams]
        new = rate.rate(current, ranks=ranks)
        for team, rated in zip(teams, new):
            for email, rating in zip(team, rated):
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
