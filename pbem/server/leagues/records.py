"""A player's reliability across every game: days owed, days missed, misses excused by a
moderator, forfeits. Read from the seats, the resolved days and the audit trail.

``percent`` is the share of the days a player owed orders on which they came (excused misses
count as come); None before the player has owed any day. A moderator who replaces a player
starts the seat's count again for the newcomer; the player replaced keeps the days he held the
seat and the days he missed (``seat_history``).

Only games with another person count (``with_another_person``): a hot-seat game (every seat his)
and a game against the computer (its other seats the computer's) owe nobody anything, and their
days, misses and forfeits are left out -- else a record could be farmed alone.
"""

from __future__ import annotations


def reliability(store, email: str) -> dict:
    email = email.strip()
    seats = [s for s in store.query("SELECT game_id, side, missed FROM seats WHERE email = ?", (email,))
             if with_another_person(store, s["game_id"], email)]
    owed = missed = excused = forfeits = 0
    for seat in seats:
        since = store.query_one("SELECT COALESCE(MAX(last_day), 0) AS day FROM seat_history"
                                " WHERE game_id = ? AND side = ? AND undone IS NULL",
                                (seat["game_id"], seat["side"]))["day"]
        owed += days_owed(store, seat["game_id"], seat["side"], since, None)
        missed += seat["missed"]
        excused += store.query_one("SELECT COALESCE(SUM(count), 0) AS n FROM league_excused"
                                   " WHERE game_id = ? AND side = ?", (seat["game_id"], seat["side"]))["n"]
        forfeits += store.query_one("SELECT COUNT(*) AS n FROM audit WHERE game_id = ? AND action = 'forfeit'"
                                    " AND json_extract(detail, '$.side') = ?", (seat["game_id"], seat["side"]))["n"]
    held = [h for h in store.query("SELECT * FROM seat_history WHERE email = ? AND undone IS NULL", (email,))
            if with_another_person(store, h["game_id"], email)]
    for h in held:  # seats held until a moderator replaced him (or the rules moved him): his days and misses stay his
        owed += days_owed(store, h["game_id"], h["side"], h["first_day"], h["last_day"])
        missed += h["missed"]
    excused = min(excused, missed)
    percent = None if owed == 0 else round(100.0 * (owed - (missed - excused)) / owed, 1)
    games = len({s["game_id"] for s in seats} | {h["game_id"] for h in held})
    return {"email": email, "games": games, "owed": owed, "missed": missed, "excused": excused,
            "forfeits": forfeits, "percent": percent, "replaced": sum(h["why"] == "replaced" for h in held)}


def with_another_person(store, game_id: int, email: str) -> bool:
    """Whether game ``game_id`` has a person other than ``email`` in a seat, now or before (a seat the
    computer plays has no address)."""
    return store.query_one(
        "SELECT EXISTS (SELECT 1 FROM seats WHERE game_id = ? AND email IS NOT NULL AND email != ''"
        " AND lower(email) != lower(?)) OR EXISTS (SELECT 1 FROM seat_history WHERE game_id = ?"
        " AND undone IS NULL AND lower(email) != lower(?)) AS yes", (game_id, email, game_id, email))["yes"] == 1


def days_owed(store, game_id: int, side: str, first: int, last: int | None) -> int:
    """The resolved days ``first`` <= day < ``last`` (None: to now) on which seat ``side`` owed orders."""
    return store.query_one(
        "SELECT COUNT(*) AS n FROM days WHERE game_id = ? AND (',' || side || ',') LIKE ? AND day >= ?"
        " AND (? IS NULL OR day < ?)", (game_id, f"%,{side},%", first, last, last))["n"]


def meets(record: dict, minimum: float | None) -> bool:
    """Whether a record meets a minimum reliability (a player who never owed a day does)."""
    return not minimum or record["percent"] is None or record["percent"] >= minimum
