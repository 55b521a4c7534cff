"""A game ended by its players, outside the rules of play: a seat resigns, or a draw is
offered and accepted. The game ends before its coming day (a log ``end`` entry with
``final``: a moderator's rewind cannot undo it), the other seats are told, and ratings and
tournament standings read the result as any other (a resignation is marked ``resign``, an
agreed draw ``agreed``).

A draw offer stands until every seat of every other side has answered it, or the coming day
is resolved (it lapses), or one of them declines. One offer at a time per game."""

from __future__ import annotations

import json

from pbem.lang import Text, say
from pbem.server import deadlines, i18n
from pbem.server.notify import notice

from .base import ServiceBase, ServiceError
from .turns import winner_title

HOW = ("resign", "agreed")


class Endings(ServiceBase):

    def sides_of(self, game_id: int) -> dict[str, str]:
        """Each seat's side."""
        game = self.game(game_id)
        return {s.id: s.side for s in game.ruleset.seats(game.scenario, game.options)}

    def check_playing(self, game_id: int) -> None:
        status = self.info(game_id)["status"]
        if status not in ("running", "paused"):
            raise ServiceError("game %(game)s is %(status)s: only a game being played can end so",
                               game=game_id, status=i18n.status_text(status))

    def end_by_players(self, game_id: int, winner: str | None, why: Text, how: str, who: str) -> None:
        """End the game now with ``winner`` (None: a draw); told to every seat, each in his language
        (the log keeps ``why`` in English). Call under the lock."""
        game = self.game(game_id)
        entry = game.end(winner, str(why))
        entry.update(by=who, at=deadlines.iso(self.now()), how=how, final=True)
        with self.store.transaction():
            self.store.append_log(game_id, entry)
            self.store.update_game(game_id, status="finished")
            self.store.set_clock(game_id, deadline=None, pending=None)
            self.store.execute("UPDATE game_offers SET status = 'lapsed' WHERE game_id = ? AND status = 'open'",
                               (game_id,))
            self.store.audit(who, how, game_id, why=str(why))
            for seat in self.store.seats(game_id):
                if seat["email"]:
                    tr = i18n.translator(self.store.language_of(seat["email"]))
                    notice(self.store, seat["email"], f"[pbem {game_id}] " + tr.gettext("The game is over"),
                          tr.gettext("Game %(game)s is over: %(why)s", game=self.label(game_id),
                                     why=self.say_in(game_id, why, tr.lang))
                          + "\n\n" + tr.gettext("Its seed is now public: the game's page offers the export, to check "
                                                 "every die with `pbem verify`."),
                          kind="ended", game_id=game_id, dedupe_key=f"ended:{game_id}:{seat['side']}")

    # -- resigning -----------------------------------------------------------------------

    def resign(self, game_id: int, side: str, who: str = "") -> str:
        """Seat ``side`` concedes: the other side wins (with more than one other side, the game
        ends with no winner and the moderator may rule). Final."""
        with self.lock:
            self.check_playing(game_id)
            sides = self.sides_of(game_id)
            if side not in sides:
                raise ServiceError("game %(game)s has no seat %(side)s", game=game_id, side=repr(side))
            others = sorted(set(sides.values()) - {sides[side]})
            winner = others[0] if len(others) == 1 else None
            game = self.game(game_id)
            title = self.seat_title(game_id, side)
            why = say("%(seat)s resigns; %(winner)s wins.", seat=title, winner=winner_title(game, winner)) if winner \
                else say("%(seat)s resigns.", seat=title)
            self.end_by_players(game_id, winner, why, "resign", who or self.seat(game_id, side)["email"] or side)
        tr = i18n.translator(self.lang_of(game_id, side))
        return (tr.gettext("You resigned game %(game)s.", game=self.label(game_id)) + " "
                + self.say_in(game_id, why, tr.lang))

    # -- draws ---------------------------------------------------------------------------

    def draw_offer(self, game_id: int) -> dict | None:
        """The open draw offer of the game, if any (one whose day has passed has lapsed)."""
        row = self.store.query_one("SELECT * FROM game_offers WHERE game_id = ? AND status = 'open'", (game_id,))
        if row is None:
            return None
        if row["day"] != self.game(game_id).day:
            self.store.execute("UPDATE game_offers SET status = 'lapsed' WHERE id = ?", (row["id"],))
            return None
        row["answers"] = json.loads(row["answers"])
        row["waiting"] = self.draw_waiting(game_id, row)
        return row

    def draw_waiting(self, game_id: int, offer: dict) -> list[str]:
        """The seats whose answer the offer waits for: every seat of another side."""
        sides = self.sides_of(game_id)
        return [s for s in sides if sides[s] != sides[offer["side"]] and s not in offer["answers"]]

    def offer_draw(self, game_id: int, side: str, who: str = "") -> str:
        with self.lock:
            self.check_playing(game_id)
            if side not in self.sides_of(game_id):
                raise ServiceError("game %(game)s has no seat %(side)s", game=game_id, side=repr(side))
            offer = self.draw_offer(game_id)
            if offer is not None and offer["side"] != side and side in offer["waiting"]:
                return self.answer_draw(game_id, side, True, who)  # offering back is accepting
            if offer is not None:
                raise ServiceError("a draw offer by %(seat)s already stands",
                                   seat=self.seat_said(game_id, offer['side']))
            title = self.seat_title(game_id, side)
            day = self.game(game_id).day
            with self.store.transaction():
                self.store.execute("INSERT INTO game_offers (game_id, side, day, created) VALUES (?, ?, ?, ?)",
                                   (game_id, side, day, self.store.now()))
                self.store.audit(who or side, "draw_offer", game_id, detail={"side": side, "day": day})
                offer = self.draw_offer(game_id)
                for other in offer["waiting"]:
                    tr = i18n.translator(self.lang_of(game_id, other))
                    title = self.seat_title(game_id, side, tr.lang)
                    notice(self.store, self.seat(game_id, other)["email"],
                           f"[pbem {game_id}] " + tr.gettext("%(seat)s offers a draw", seat=title),
                           tr.gettext("%(seat)s offers a draw in game %(game)s.", seat=title, game=self.label(game_id))
                           + "\n\n" + tr.gettext("To accept, answer with a mail whose first line carries your key "
                                                  "(GAME %(game)s KEY <your key>) and whose next line is\n  DRAW ACCEPT\n"
                                                  "or, to decline,\n  DRAW DECLINE\nor do it on the game's web page. The "
                                                  "offer lapses when the coming day is resolved.", game=game_id),
                          kind="draw", game_id=game_id, dedupe_key=f"draw:{offer['id']}:{other}")
        return i18n.translate(self.lang_of(game_id, side), "Your draw offer in game %(game)s stands until the coming day "
                              "is resolved.", game=self.label(game_id))

    def answer_draw(self, game_id: int, side: str, accept: bool, who: str = "") -> str:
        with self.lock:
            self.check_playing(game_id)
            offer = self.draw_offer(game_id)
            if offer is None:
                raise ServiceError("game %(game)s has no draw offer standing", game=game_id)
            if side not in offer["waiting"]:
                raise ServiceError("the offer does not wait for your answer")
            title = self.seat_title(game_id, side)
            offerer = self.seat(game_id, offer["side"])
            answers = {**offer["answers"], side: accept}
            with self.store.transaction():
                status = "open" if accept else "declined"
                self.store.execute("UPDATE game_offers SET answers = ?, status = ? WHERE id = ?",
                                   (json.dumps(answers, sort_keys=True), status, offer["id"]))
                self.store.audit(who or side, "draw_accept" if accept else "draw_decline", game_id,
                                 detail={"side": side, "offer": offer["id"]})
                if not accept:
                    if offerer["email"]:
                        tr = i18n.translator(self.store.language_of(offerer["email"]))
                        title = self.seat_title(game_id, side, tr.lang)
                        notice(self.store, offerer["email"], f"[pbem {game_id}] " + tr.gettext("Draw declined"),
                               tr.gettext("%(seat)s declines your draw offer in game %(game)s: play goes on.", seat=title,
                                          game=self.label(game_id)),
                              kind="draw", game_id=game_id, dedupe_key=f"draw:{offer['id']}:declined")
                    return i18n.translate(self.lang_of(game_id, side), "You declined the draw: play goes on.")
                if self.draw_waiting(game_id, {**offer, "answers": answers}):
                    return i18n.translate(self.lang_of(game_id, side),
                                          "Your acceptance is recorded; the draw waits for the other seats.")
                self.store.execute("UPDATE game_offers SET status = 'accepted' WHERE id = ?", (offer["id"],))
                self.end_by_players(game_id, None, say("Drawn by agreement (%(offerer)s offered, %(seat)s accepted).",
                                                       offerer=self.seat_title(game_id, offer['side']), seat=title),
                                    "agreed", who or side)
        return i18n.translate(self.lang_of(game_id, side), "Game %(game)s is drawn by agreement.", game=self.label(game_id))

    # -- rematch -------------------------------------------------------------------------

    def rematch(self, game_id: int, who: str) -> int:
        """A new game of a finished one, same game, scenario, options and clock, the players'
        seats turned round (two seats: swapped; more: each moves to the next seat). Asked by one
        of its players; returns the new game's id (every seat gets its welcome and key)."""
        info = self.info(game_id)
        if not self.game(game_id).over:
            raise ServiceError("game %(game)s is not over: a rematch follows the end", game=game_id)
        seats = [s["side"] for s in self.store.seats(game_id)]
        emails = {s["side"]: s["email"] for s in self.store.seats(game_id)}
        if not any((e or "").lower() == who.strip().lower() for e in emails.values()):
            raise ServiceError("only the players of game %(game)s may ask for its rematch", game=game_id)
        if not all(emails.values()):
            raise ServiceError("game %(game)s has an empty seat or a computer player: no rematch", game=game_id)
        turned = {seat: emails[seats[i - 1]] for i, seat in enumerate(seats)}  # each player one seat on
        settings = {k: v for k, v in (info["settings"] or {}).items() if k != "bots"}
        title = f"Rematch of #{game_id}"
        new_id, _ = self.create_game(title, turned, scenario=info["scenario"], settings=settings,
                                     moderator=info.get("moderator"), who=who, game=info["ruleset"],
                                     options=info["options"], moderator_known=True)
        self.store.audit(who, "rematch", new_id, detail={"of": game_id})
        return new_id
