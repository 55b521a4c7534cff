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

``recompute(service)`` rates every finished game of the server, in the order the games ended:
incrementally, from the first game whose rating input changed since it last ran (the history is
stored game by game); ``recompute(service, full=True)`` rates them all again, with the same result. A tournament game the organiser overrode counts with the result he
ruled; one annulled (a withdrawal, an override), or cancelled with its round, does not count. Games with an empty seat, or with one address in two seats (hot
seat; addresses compared without case), are not rated. The rating shown is OpenSkill's
ordinal, mu - 3 sigma (a cautious estimate: 0 for a newcomer), beside mu and sigma.
"""

from __future__ import annotations

import json


def model():
    from openskill.models import PlackettLuce

    return PlackettLuce()


def finished_games(service) -> list[tuple[str, list[list[str]], list[int]]]:
    """Every rated game, in the order they ended: (game name, each side's addresses, each side's rank:
    1 for the winner, 2 for the others; all 1 in a draw)."""
    return [rated for _, _, rated in history(service, {}) if rated is not None]


def history(service, known: dict[int, tuple[str, object]]) -> list[tuple[int, str, tuple | None]]:
    """Every finished game in the order they ended, as (game id, fingerprint, what it is rated as or None). The
    fingerprint holds all a game's rating depends on -- its log's length (a rewind or an amendment adds to it), its
    seats' addresses, the organiser's ruling, a cancellation -- so a game ``known`` {game id: (fingerprint, rated)}
    by the same fingerprint is not read again (reading a game replays it)."""
    store = service.store
    rows = store.query(
        "SELECT g.id, (SELECT MAX(at) FROM log WHERE log.game_id = g.id) AS ended,"
        " (SELECT COUNT(*) FROM log WHERE log.game_id = g.id) AS entries FROM games g"
        " WHERE g.status = 'finished' ORDER BY ended, g.id")
    ruled = {r["game_id"]: r for r in store.query(
        "SELECT game_id, result, how FROM league_pairings WHERE how IN ('overridden', 'annulled') AND game_id IS NOT NULL")}
    cancelled = {r["game_id"] for r in store.query("SELECT game_id FROM league_cancelled WHERE game_id IS NOT NULL")}
    seated: dict[int, list[str]] = {}
    for seat in store.query("SELECT game_id, side, email FROM seats ORDER BY game_id, side"):
        seated.setdefault(seat["game_id"], []).append(f"{seat['side']}={(seat['email'] or '').lower()}")
    out = []
    for row in rows:
        game_id = row["id"]
        rule = ruled.get(game_id, {})
        fingerprint = "|".join([str(row["entries"]), ",".join(seated.get(game_id, [])), rule.get("result") or "",
                                rule.get("how") or "", "cancelled" if game_id in cancelled else ""])
        if game_id in known and known[game_id][0] == fingerprint:
            out.append((game_id, fingerprint, known[game_id][1]))
        else:
            out.append((game_id, fingerprint, rated_as(service, game_id, rule, game_id in cancelled)))
    return out


def rated_as(service, game_id: int, rule: dict, cancelled: bool) -> tuple[str, list[list[str]], list[int]] | None:
    """What a finished game is rated as: (game name, each side's addresses, each side's rank), or None when it is
    not rated (not over, annulled, cancelled with its round, an empty seat, one address in two seats)."""
    game = service.game(game_id)
    if not game.over or rule.get("how") == "annulled" or cancelled:
        return None
    seats = {s["side"]: s["email"] for s in service.store.seats(game_id)}
    emails = [e.lower() for e in seats.values() if e]
    if len(emails) < len(seats) or len(set(emails)) < len(emails) or len(emails) < 2:
        return None
    winner = game.view(None).get("winner")
    order = game.ruleset.seats(game.scenario, game.options)
    if rule:  # the tournament organiser's override: the result he ruled
        winner = {"first": order[0].side, "second": order[1].side}.get(rule["result"])
    sides: dict[str, list[str]] = {}
    for seat in order:
        sides.setdefault(seat.side, []).append(seats[seat.id].lower())
    ranks = [1 if winner is None or side == winner else 2 for side in sides]
    return service.info(game_id)["ruleset"], list(sides.values()), ranks


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


def recompute(service, full: bool = False) -> dict[str, int]:
    """Bring the ratings up to date with every finished game; returns the number of games rated per game name.

    Incremental: the rated history is stored game by game with each game's fingerprint and its seats' ratings
    after it (``league_rating_games``), so only the games from the first one that changed (a new game, a rewind,
    an override, a replacement, a game ending earlier than the last rated) are rated again, from the ratings
    stored before it; the games before are not even read. ``full``: forget it all and rate every game again.
    Both give the same ratings (tests/test_league_ratings.py)."""
    store = service.store
    stored = [] if full else store.query("SELECT * FROM league_rating_games ORDER BY position")
    known = {r["game_id"]: (r["fingerprint"], _rated_of(r["rated"])) for r in stored}
    games = history(service, known)
    first = next((i for i, ((game_id, fingerprint, _), row) in enumerate(zip(games, stored))
                  if (game_id, fingerprint) != (row["game_id"], row["fingerprint"])), min(len(games), len(stored)))
    state: dict[tuple[str, str], list] = {}  # (game name, email) -> [mu, sigma, games]
    for row in stored[:first]:
        rated = _rated_of(row["rated"])
        if rated is not None:
            for email, value in json.loads(row["after"]).items():
                state[(rated[0], email)] = value
    rate = model()
    with store.transaction():
        store.db.execute("DELETE FROM league_rating_games WHERE position >= ?", (first,))
        for position, (game_id, fingerprint, rated) in enumerate(games[first:], first):
            after = None
            if rated is not None:
                name, teams, ranks = rated
                before = {e: rate.rating(mu=state[(name, e)][0], sigma=state[(name, e)][1], name=e)
                          if (name, e) in state else rate.rating(name=e) for team in teams for e in team}
                after = {}
                for email, rating in rate_game(rate, before, teams, ranks).items():
                    state[(name, email)] = after[email] = [rating.mu, rating.sigma,
                                                           state.get((name, email), [0, 0, 0])[2] + 1]
            store.db.execute("INSERT INTO league_rating_games (position, game_id, fingerprint, rated, after)"
                             " VALUES (?, ?, ?, ?, ?)", (position, game_id, fingerprint,
                                                         json.dumps(rated) if rated is not None else None,
                                                         json.dumps(after) if after is not None else None))
        if first < len(games) or first < len(stored) or full:  # else nothing changed
            store.db.execute("DELETE FROM league_ratings")
            for (name, email), (mu, sigma, played) in state.items():
                store.db.execute("INSERT INTO league_ratings (game, email, mu, sigma, games, updated)"
                                 " VALUES (?, ?, ?, ?, ?, ?)", (name, email, mu, sigma, played, store.now()))
    counts: dict[str, int] = {}
    for _, _, rated in games:
        if rated is not None:
            counts[rated[0]] = counts.get(rated[0], 0) + 1
    return counts


def _rated_of(text: str | None):
    if text is None:
        return None
    name, teams, ranks = json.loads(text)
    return name, teams, ranks


def table(store, game: str | None = None) -> list[dict]:
    """The ratings, best first: game, email, mu, sigma, games and the shown rating (mu - 3 sigma)."""
    rows = store.query("SELECT * FROM league_ratings" + (" WHERE game = ?" if game else "")
                       + " ORDER BY game, mu - 3 * sigma DESC, email", (game,) if game else ())
    for row in rows:
        row["rating"] = round(row["mu"] - 3 * row["sigma"], 2)
    return rows


def of(store, email: str) -> list[dict]:
    return [row for row in table(store) if row["email"].lower() == email.lower()]
