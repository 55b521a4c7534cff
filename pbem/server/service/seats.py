"""Players moved between seats by the game's own rules (the optional ruleset member
``seat_moves``: Napoleon 1815's auction gives its winner the side he bid for).

When a resolved turn moves players, each player's address, account, time zone, missed
days (the most of his seats') and vacation go with him to his new seat, a computer player goes with its seat's
player as a person would, every seat that changed hands gets a new key (the old ones
stop working), and each player is mailed his new seats with their keys. The seat
history keeps who held which seat until which day (``why = 'exchanged'``), the audit
trail and the moderator's mail say what moved. A moderator's rewind that replays the
turn to another ending moves the players back (``replay_seats``); one that replays it
alike changes nothing.
"""

from __future__ import annotations

from pbem.core.game import Game
from pbem.core.ruleset import seat_moves
from pbem.lang import Text, say
from pbem.server import i18n
from pbem.server.mail.outbox import queue
from pbem.server.store import new_key

from .base import ServiceBase

CARRIED = ("email", "player_id", "timezone", "missed", "vacation_from", "vacation_to")
"""What of a seat's row is its player's, and goes with him to another seat."""
COMPUTER = "computer:"
"""The seat history's name of a computer player (``computer:<bot>``): it has no address."""


class Seats(ServiceBase):

    def move_seats(self, game_id: int, result, game: Game | None = None) -> dict[str, str]:
        """Move the players as the ruleset says one resolved turn does (inside the caller's
        transaction); returns the moves, ``{seat: the seat whose player takes it}`` (``game``: the game,
        when the caller holds it)."""
        game = game or self.game(game_id)
        moves = seat_moves(game.ruleset, game.scenario, result.before, result.after)
        if moves:
            self.exchange(game_id, result.day, moves)
        return moves

    def holder_on(self, game_id: int, side: str, day: int) -> dict:
        """Seat ``side`` as its player of turn ``day`` held it: its row now, or, when the rules moved
        him after that turn, his address (None for a computer player) and missed days then."""
        seat = self.seat(game_id, side)
        was = self.store.query_one("SELECT email, missed FROM seat_history WHERE game_id = ? AND side = ?"
                                   " AND why = 'exchanged' AND undone IS NULL AND first_day <= ? AND last_day > ?"
                                   " ORDER BY id DESC", (game_id, side, day, day))
        if was is None:
            return seat
        return {**seat, "email": None if was["email"].startswith(COMPUTER) else was["email"], "missed": was["missed"]}

    def holders(self, game_id: int) -> dict[str, dict]:
        """Each seat's player as a record: what goes with him (CARRIED) and ``bot``, the computer
        player's name (None for a person)."""
        bots = self.bots_of(game_id)
        return {s["side"]: {**{k: s[k] for k in CARRIED}, "bot": bots.get(s["side"])}
                for s in self.store.seats(game_id)}

    def exchange(self, game_id: int, day: int, moves: dict[str, str]) -> None:
        """Seat ``s`` is taken by the player of seat ``moves[s]``, after turn ``day``."""
        before = self.holders(game_id)
        missed: dict[str, int] = {}  # a player of several seats takes the most days he missed in one of them
        for record in before.values():
            missed[who(record)] = max(missed.get(who(record), 0), record["missed"])
        after = {seat: {**before[moves.get(seat, seat)], "missed": missed[who(before[moves.get(seat, seat)])]}
                 for seat in before}
        changed = [seat for seat in before if who(after[seat]) != who(before[seat])]
        if not changed:
            return
        rows = []
        for seat in changed:
            since = self.store.query_one(
                "SELECT COALESCE(MAX(last_day), 0) AS day FROM seat_history"
                " WHERE game_id = ? AND side = ? AND undone IS NULL", (game_id, seat))["day"]
            rows.append(self.store.execute(
                "INSERT INTO seat_history (game_id, side, email, first_day, last_day, missed, replaced, why)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, 'exchanged')",
                (game_id, seat, who(before[seat]), since, day + 1, before[seat]["missed"], self.store.now())).lastrowid)
        self.place(game_id, after, changed, why=say("the rules of the game after %(turn)s", turn=day))
        self.store.audit("rules", "seats_moved", game_id, why="the game's rules gave players other seats",
                         detail={"day": day, "moves": dict(moves), "rows": rows,
                                 "seats": {s: f"{who(before[s])} -> {who(after[s])}" for s in changed}})

    def replay_seats(self, game_id: int, day: int) -> None:
        """After a rewind to ``day`` has replayed the days: the moves of the replayed turns, if they
        differ from those made before, replace them (the players moved since ``day`` go back first)."""
        game = self.game(game_id)
        new = [(r.day, moves) for r in game.days[day:]
               if (moves := seat_moves(game.ruleset, game.scenario, r.before, r.after))]
        old = [e for e in self.store.read_audit(game_id) if e["action"] == "seats_moved"
               and e["detail"]["day"] >= day and self.active(e)]
        if [(e["detail"]["day"], e["detail"]["moves"]) for e in old] == new:
            return
        for entry in reversed(old):
            self.undo_exchange(game_id, entry)
        for moved_day, moves in new:
            self.exchange(game_id, moved_day, moves)

    def active(self, entry: dict) -> bool:
        rows = entry["detail"].get("rows") or []
        return bool(rows) and self.store.query_one("SELECT undone FROM seat_history WHERE id = ?",
                                                   (rows[0],))["undone"] is None

    def undo_exchange(self, game_id: int, entry: dict) -> None:
        """Give back the seats of one exchange (its seat history rows) to the players who held them."""
        now = self.holders(game_id)
        by_name = {}
        for record in now.values():
            by_name.setdefault(who(record), record)
        back = dict(now)
        ids = tuple(entry["detail"]["rows"])
        rows = self.store.query(f"SELECT * FROM seat_history WHERE id IN ({','.join('?' * len(ids))})", ids)
        for row in rows:
            held = by_name.get(row["email"])
            if held is None:  # a player no longer in the game (a moderator replaced him since): his seat stays
                continue
            back[row["side"]] = {**held, "missed": row["missed"]}
        changed = [seat for seat in now if who(back[seat]) != who(now[seat])]
        self.store.execute(f"UPDATE seat_history SET undone = ? WHERE id IN ({','.join('?' * len(rows))})",
                           (self.store.now(), *[r["id"] for r in rows]))
        if changed:
            self.place(game_id, back, changed,
                       why=say("a moderator's ruling replayed the game before the players moved"))
        self.store.audit("rules", "seats_moved_back", game_id, why="a rewind replayed the turn that moved the players",
                         detail={"day": entry["detail"]["day"],
                                 "seats": {s: f"{who(now[s])} -> {who(back[s])}" for s in changed}})

    def place(self, game_id: int, holders: dict[str, dict], changed: list[str], why: Text) -> None:
        """Seat the players ``holders`` says in the seats ``changed``: new keys, the computer
        players' settings, and a mail to each person moved with his seats and their keys, in his
        language (``why`` too; a ``turn`` value of it is a day, named in the reader's words)."""
        keys = {}
        for seat in changed:
            record = holders[seat]
            self.store.update_seat(game_id, seat, **{k: record[k] for k in CARRIED})
            self.store.mark_final(game_id, seat, None)
            keys[seat] = new_key()
            self.set_key(game_id, seat, keys[seat])
        bots = {seat: record["bot"] for seat, record in holders.items() if record["bot"]}
        if bots != self.bots_of(game_id):
            settings = dict(self.info(game_id)["settings"] or {})
            settings["bots"] = bots
            self.store.update_game(game_id, settings=settings)
        people: dict[str, list[str]] = {}
        for seat in changed:
            if holders[seat]["email"] and not holders[seat]["bot"]:
                people.setdefault(holders[seat]["email"], []).append(seat)
        for email, moved in people.items():
            held = [s for s, r in holders.items() if r["email"] == email and not r["bot"]]
            tr = i18n.translator(self.store.language_of(email))
            seats = tr.gettext(" and ").join(self.seat_title(game_id, s, tr.lang) for s in held)
            lines = [tr.gettext("Game %(game)s: by %(why)s, you now play %(seats)s.", game=self.label(game_id),
                                why=self.why_in(game_id, why, tr), seats=seats), ""]
            lines += [tr.gettext("Your secret key for %(seat)s is: %(key)s", seat=self.seat_title(game_id, s, tr.lang),
                                 key=keys[s]) for s in moved]
            lines += [tr.gettext("Every orders mail for that seat must carry it (%(sides)s).",
                                 sides="SIDE " + ", SIDE ".join(moved)),
                      tr.gettext("The keys of the seats you held before no longer work for you."), "",
                      tr.gettext("Your orders template comes with the report of the turn.")]
            queue(self.store, email, f"[pbem {game_id}] " + tr.gettext("You now play %(seats)s", seats=seats),
                  "\n".join(lines), kind="seats", game_id=game_id)
        moderator = self.info(game_id).get("moderator")
        if moderator:
            tr = i18n.translator(self.store.language_of(moderator))
            queue(self.store, moderator, f"[pbem {game_id}] " + tr.gettext("Players moved between seats"),
                  tr.gettext("Game %(game)s: by %(why)s, the seats are now held so:", game=self.label(game_id),
                             why=self.why_in(game_id, why, tr)) + "\n"
                  + "\n".join("  " + i18n.labelled(tr, self.seat_title(game_id, s, tr.lang), who(holders[s]))
                              for s in sorted(holders))
                  + "\n\n" + tr.gettext("The moderator console: %(url)s", url=self.console_url(game_id)),
                  kind="moderator", game_id=game_id)

    def why_in(self, game_id: int, why: Text, tr) -> str:
        """Why players moved, in ``tr``'s language (a day named as that language names it)."""
        values = dict(why.values)
        if "turn" in values:
            values["turn"] = self.turn_label(self.game(game_id), values["turn"], lang=tr.lang)
        return tr.say(Text(why.message, values))


def who(record: dict) -> str:
    """A seat's player as the seat history names him: his address, or the computer player's name."""
    return f"{COMPUTER}{record['bot']}" if record["bot"] else (record["email"] or "")
