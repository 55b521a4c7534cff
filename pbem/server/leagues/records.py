"""A player's reliability across every game: days owed, days missed, misses excused by a
moderator, forfeits. Read from the seats, the resolved days and the audit trail.

``percent`` is the share of the days a player owed orders on which they came (excused misses
count as come); None before the player has owed any day. A moderator who replaces a player
starts the seat's count again for the newcomer (the count left belongs to no one: a known gap).
"""

from __future__ import annotations


def reliability(store, email: str) -> dict:
    seats = store.query("SELECT game_id, side, missed FROM seats WHERE email = ?", (email.strip(),))
    owed = missed = excused = forfeits = 0
    for seat in seats:
        owed += store.query_one(
            "SELECT COUNT(*) AS n FROM days WHERE game_id = ? AND (',' || side || ',') LIKE ?",
            (seat["game_id"], f"%,{seat['side']},%"))["n"]
        missed += seat["missed"]
        excused += store.query_one("SELECT COALESCE(SUM(count), 0) AS n FROM league_excused"
                                   " WHERE game_id = ? AND side = ?", (seat["game_id"], seat["side"]))["n"]
        forfeits += store.query_one("SELECT COUNT(*) AS n FROM audit WHERE game_id = ? AND action = 'forfeit'"
                                    " AND json_extract(detail, '$.side') = ?", (seat["game_id"], seat["side"]))["n"]
    excused = min(excused, missed)
    percent = None if owed == 0 else round(100.0 * (owed - (missed - excused)) / owed, 1)
    return {"email": email, "games": len(seats), "owed": owed, "missed": missed, "excused": excused,
            "forfeits": forfeits, "percent": percent}


def meets(record: dict, minimum: float | None) -> bool:
    """Whether a record meets a minimum reliability (a player who never owed a day does)."""
    return not minimum or record["percent"] is None or record["percent"] >= minimum
