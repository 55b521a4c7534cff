"""What a player asks for himself: a vacation, a new key."""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.server import deadlines
from pbem.server.mail.outbox import queue
from pbem.server.store import new_key

from .base import ServiceBase, ServiceError


class Players(ServiceBase):

    def vacation(self, game_id: int, side: str, days: int, who: str = "") -> datetime:
        """Shift the game's deadline by ``days`` (within the game's allowance)."""
        info = self.info(game_id)
        settings = deadlines.settings_with_defaults(info["settings"])
        seat = self.seat(game_id, side)
        used = int(seat.get("vacation_to") or 0)
        if days < 1 or used + days > settings["vacation_days"]:
            raise ServiceError(f"a vacation may total at most {settings['vacation_days']} days in this game "
                               f"({used} used)")
        deadline = self.deadline(game_id) or self.now()
        new = deadline + timedelta(days=days)
        with self.store.transaction():
            self.set_deadline(game_id, new)
            self.store.update_seat(game_id, side, vacation_to=str(used + days))
            self.store.audit(who or seat["email"] or side, "vacation", game_id, detail={"side": side, "days": days})
            for other in self.store.seats(game_id):
                if other["email"]:
                    queue(self.store, other["email"], f"[pbem {game_id}] Vacation: deadline moved",
                          f"{self.seat_title(game_id, side)} takes {days} day(s) of vacation in game {self.label(game_id)}. "
                          f"The deadline is now {deadlines.local_time(new, other['timezone'], now=self.now())}.",
                          kind="vacation", game_id=game_id)
        return new

    def rotate_key(self, game_id: int, side: str, who: str = "") -> str:
        key = new_key()
        with self.store.transaction():
            seat = self.seat(game_id, side)
            self.set_key(game_id, side, key)
            self.store.audit(who or seat["email"] or side, "rotate_key", game_id, detail={"side": side})
            if seat["email"]:
                queue(self.store, seat["email"], f"[pbem {game_id}] Your new key",
                      f"Your new key for {self.seat_title(game_id, side)} in game {self.label(game_id)} is: {key}\n"
                      f"The old key no longer works.\n\n{self.deadline_line(game_id, side)}".rstrip(),
                      kind="key", game_id=game_id)
        return key
