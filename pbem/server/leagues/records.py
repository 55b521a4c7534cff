"""A player's reliability across every game: days owed, days missed, misses excused by a
moderator, forfeits. Read from the seats, the resolved days and the audit trail.

``percent`` is the share of the days a player owed orders on which they came (excused misses
count as come); None before the player has owed any day. A moderator who replaces a player
starts the seat's count again for the newcomer; the player replaced keeps the days he held the
seat and the days he missed (``seat_history``).
"""

from __future__ import annotations


def reliability(store, email: str) -> dict:
    email = email.strip()
    seats = store.query("SELECT game_id, side, missed FROM seats WHERE email = ?", (email,))
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
    held = store.query("SELECT * FROM seat_history WHERE email = ? AND undone IS NULL", (email,))
    for h in held:  # seats held until a moderator replaced him (or the rules moved him): his days and misses stay his
        owed += days_owed(store, h["game_id"], h["side"], h["first_day"], h["last_day"])
        missed += h["missed"]
    excused = min(excused, missed)
    percent = None if owed == 0 else round(100.0 * (owed - (missed - excused)) / owed, 1)
    games = len({s["game_id"] for s in seats} | {h["game_id"] for h in held})
    return {"email": email, "games": games, "owed": owed, "missed": missed, "excused": excused,
            "forfeits": forfeits, "percent": percent, "replaced": sum(h["why"] == "replaced" for h in held)}


def days_owed(store, game_id: int, side: str, first: int, last: int | None) -> int:
    """The resolved days ``first`` <= day < ``last`` (None: to now) on which seat ``side`` owed orders."""
    return store.query_one(
        "SELECT COUNT(*) AS n FROM days WHERE game_id = ? AND (',' || side || ',') LIKE ? AND day >= ?"
        " AND (? IS NULL OR day < ?)", (game_id, f"%,{side},%", first, last, last))["n"]


def meets(record: dict, minimum: float | None) -> bool:
    """Whether a record meets a minimum reliability (a player who never owed a day does)."""
    return not minimum or record["percent"] is None or record["percent"] >= minimum
