"""The organiser's rulings on a running tournament: pause and resume every game, replace an
entrant, adjudicate an unfinished game, publish the public page. Mixed into ``Tournaments``;
each ruling is for the league's organisers (or the site admin) and is audited.

The seat rule of docs/security.md holds here too: an organiser who holds a seat in a running game
of the tournament sees only his own seat there, so every ruling that touches that game (pause,
resume, replace, adjudicate, excuse) is refused to him, saying that another organiser (or the
site admin) must make it; the console shows him nothing of the other seats of that game."""

from __future__ import annotations

from pbem.server import i18n
from pbem.server.i18n import N_
from pbem.server.mail.outbox import queue
from pbem.server.service import ServiceError


class Console:

    def running_games(self, t: dict) -> list[dict]:
        return [p for p in t["pairings"] if p["game_id"] and p["result"] is None]

    def seated_in(self, game_id: int, who: str | None) -> list[str]:
        """The seats ``who`` holds in the game while it runs ([] when none, when he holds every
        seat, or once the game is over): what the seat rule closes the other seats' views for."""
        if not who:
            return []
        seats = self.store.seats(game_id)
        mine = [s["side"] for s in seats if (s["email"] or "").lower() == who.strip().lower()]
        if not mine or len(mine) == len(seats) or self.service.info(game_id)["status"] == "finished" \
                or self.service.game(game_id).over:
            return []
        return mine

    def seat_rule(self, game_id: int, who: str) -> None:
        """Refuse a ruling on a running game in which ``who`` holds a seat, saying why."""
        if self.seated_in(game_id, who):
            raise ServiceError("you play in game %(game)s, which is still running: while it runs a player sees only his"
                               " own seat, whatever his roles, so another organiser of the league (or the site admin) "
                               "must make this ruling", game=game_id)

    def pause(self, tid: int, who: str, why: str) -> None:
        """Pause the tournament and every running game of it (no clock runs while paused)."""
        t = self.tournament(tid)
        self.organiser_only(t["league_id"], who)
        if t["status"] != "running":
            raise ServiceError("%(name)s is %(status)s", name=t['name'], status=i18n.status_text(t['status']))
        for p in self.running_games(t):
            self.seat_rule(p["game_id"], who)
        for p in self.running_games(t):
            if self.service.info(p["game_id"])["status"] == "running":
                self.service.moderate(p["game_id"], who, "pause", why)
        self.store.execute("UPDATE league_tournaments SET status = 'paused' WHERE id = ?", (tid,))
        self.store.audit(who, "tournament_pause", why=why, detail={"tournament": tid})

    def resume(self, tid: int, who: str, why: str) -> None:
        t = self.tournament(tid)
        self.organiser_only(t["league_id"], who)
        if t["status"] != "paused":
            raise ServiceError("%(name)s is not paused", name=t['name'])
        for p in self.running_games(t):
            self.seat_rule(p["game_id"], who)
        for p in self.running_games(t):
            if self.service.info(p["game_id"])["status"] == "paused":
                self.service.moderate(p["game_id"], who, "resume", why)
        self.store.execute("UPDATE league_tournaments SET status = 'running' WHERE id = ?", (tid,))
        self.store.audit(who, "tournament_resume", why=why, detail={"tournament": tid})

    def replace(self, tid: int, who: str, why: str, old: str, new: str) -> None:
        """A new player takes over an entrant's entry from now on: his seats in unfinished games
        (the game's own replacement: the seat's history keeps the days the old player held it)
        and his later rounds. The results finished before stay with the player who played them;
        the entry's number and points go on. Both are mailed the reason; audited, and listed on
        the console and the tournament page (``league_replacements``)."""
        t = self.tournament(tid)
        self.organiser_only(t["league_id"], who)
        old, new = old.strip(), new.strip()
        if not why.strip():
            raise ServiceError("say why")
        entry = next((e for e in t["entries"] if e["email"].lower() == old.lower()), None)
        if entry is None:
            raise ServiceError("%(old)s is not entered in %(name)s", old=old, name=t['name'])
        if new.lower() in t["numbers"]:
            raise ServiceError("%(new)s is already entered in %(name)s", new=new, name=t['name'])
        if not self.is_member(t["league_id"], new):
            raise ServiceError("%(new)s is not a member of the league", new=new)
        old = entry["email"]
        for p in self.running_games(t):
            if any((seat["email"] or "").lower() == old.lower() for seat in self.store.seats(p["game_id"])):
                self.seat_rule(p["game_id"], who)
        with self.service.lock, self.store.transaction():
            for p in self.running_games(t):
                for seat in self.store.seats(p["game_id"]):
                    if (seat["email"] or "").lower() == old.lower():
                        self.service.moderate(p["game_id"], who, "replace", why, side=seat["side"], email=new)
            self.store.execute("UPDATE league_entries SET email = ? WHERE tournament_id = ? AND email = ?",
                               (new, tid, old))
            for column in ("first", "second", "third"):  # the pairings not finished: his from now on
                self.store.execute(f"UPDATE league_pairings SET {column} = ? WHERE tournament_id = ? AND {column} = ?"
                                   " AND result IS NULL", (new, tid, old))
            self.store.execute("UPDATE league_pairings SET bid_by = ? WHERE tournament_id = ? AND bid_by = ?"
                               " AND result IS NULL", (new, tid, old))
            self.store.execute("INSERT INTO league_replacements (tournament_id, number, old, new, round, who, why, at)"
                               " VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                               (tid, entry["number"], old, new, max(t["round"], 1), who, why, self.store.now()))
            self.store.audit(who, "tournament_replace", why=why, detail={"tournament": tid, "old": old, "new": new})
            self.tell_replaced(t, old, new, why)

    def tell_replaced(self, t: dict, old: str, new: str, why: str) -> None:
        for email, text in ((old, N_("%(new)s replaces you in %(tournament)s from now on: your games still to play are "
                                  "his; the games you finished stay yours.")),
                            (new, N_("You replace %(old)s in %(tournament)s from now on: his games still to play are "
                                  "yours (a game under way, from its current day); the games he finished stay his."))):
            tr = i18n.translator(self.store.language_of(email))
            queue(self.store, email, "[pbem] " + tr.gettext("A replacement in %(tournament)s", tournament=t["name"]),
                  tr.gettext(text, old=old, new=new, tournament=t["name"]) + "\n" + tr.gettext("Reason: %(why)s", why=why),
                  kind="tournament", dedupe_key=f"replaced:{t['id']}:{old.lower()}:{new.lower()}:{email.lower()}")

    def ruled_pairing(self, tid: int, who: str, why: str, pairing_id: int) -> tuple[dict, dict]:
        """The tournament and the pairing with a game that its organiser rules on (adjudication, override),
        with his reason; ServiceError for anyone else, no reason, or no such game."""
        t = self.tournament(tid)
        self.organiser_only(t["league_id"], who)
        if not why.strip():
            raise ServiceError("say why")
        p = next((p for p in t["pairings"] if p["id"] == pairing_id), None)
        if p is None or p["game_id"] is None:
            raise ServiceError("%(name)s has no game %(number)s", name=t["name"], number=pairing_id)
        return t, p

    def adjudicate(self, tid: int, who: str, why: str, pairing_id: int, result: str) -> None:
        """The organiser rules an unfinished game: "first", "second" or "draw". The game ends."""
        t, p = self.ruled_pairing(tid, who, why, pairing_id)
        if p["result"] is not None:
            raise ServiceError("that game has its result")
        self.seat_rule(p["game_id"], who)
        if result not in ("first", "second", "draw"):
            raise ServiceError("the result is first, second or draw")
        seats = self.seats_of_rules(t["rules"])
        winner = {"first": seats[0].side, "second": seats[1].side, "draw": None}[result]
        with self.service.lock, self.store.transaction():
            self.end_game(p["game_id"], winner, f"Adjudicated by the tournament organiser: {why}", who)
            self.store.execute("UPDATE league_pairings SET result = ?, how = 'adjudicated', why = ? WHERE id = ?",
                               (result, why, pairing_id))
            self.store.audit(who, "adjudicate", p["game_id"], why=why, detail={"tournament": tid, "result": result})
            self.tell_adjudication(p["game_id"], winner, why)
        from . import ratings

        ratings.recompute(self.service)  # the ruled game counts at once, on every page

    def end_game(self, game_id: int, winner: str | None, text: str, who: str) -> None:
        """End a running game by a ruling (the log says why); its clock stops."""
        game = self.service.game(game_id)
        if not game.over:
            entry = game.end(winner, text)
            entry.update(by=who, at=self.store.now())
            self.store.append_log(game_id, entry)
            self.store.update_game(game_id, status="finished")
            self.store.set_clock(game_id, deadline=None, pending=None)

    # -- withdrawals and overrides ----------------------------------------------------------

    def withdraw(self, tid: int, who: str, why: str, email: str) -> None:
        """Withdraw an entrant: never paired again; his unfinished games end by the tournament's rule
        (``withdrawal``: "forfeit", a win for the other side; "annul", counted for nobody; a knockout
        always forfeits); he is mailed the reason. Before the start, his entry is simply taken out."""
        t = self.tournament(tid)
        self.organiser_only(t["league_id"], who)
        if not why.strip():
            raise ServiceError("say why")
        entry = next((e for e in t["entries"] if e["email"].lower() == email.strip().lower()), None)
        if entry is None:
            raise ServiceError("%(old)s is not entered in %(name)s", old=email.strip(), name=t["name"])
        if entry["withdrawn"]:
            raise ServiceError("%(old)s is already withdrawn from %(name)s", old=entry["email"], name=t["name"])
        if t["status"] == "finished":
            raise ServiceError("%(name)s is over", name=t["name"])
        email = entry["email"]
        mine = [p for p in self.running_games(t) if email.lower() in
                {(x or "").lower() for x in (p["first"], p["second"], p.get("third"))}]
        for p in mine:
            self.seat_rule(p["game_id"], who)
        rule = withdrawal_rule(t)
        with self.service.lock, self.store.transaction():
            if t["status"] == "signup":
                self.store.execute("DELETE FROM league_entries WHERE tournament_id = ? AND email = ?", (tid, email))
            else:
                self.store.execute("UPDATE league_entries SET withdrawn = 1, withdrawn_why = ?, withdrawn_at = ?"
                                   " WHERE tournament_id = ? AND email = ?", (why, self.store.now(), tid, email))
            for p in mine:
                result = "draw" if rule == "annul" else against(p, email)
                winner = None if result == "draw" else self.seats_of_rules(t["rules"])[0 if result == "first" else 1].side
                self.end_game(p["game_id"], winner, f"{'Annulled' if rule == 'annul' else 'Forfeited'}: "
                              f"{email} withdrew from the tournament ({why})", who)
                self.store.execute("UPDATE league_pairings SET result = ?, how = ?, why = ? WHERE id = ?",
                                   (result, "annulled" if rule == "annul" else "forfeit", why, p["id"]))
            self.store.audit(who, "tournament_withdraw", why=why,
                             detail={"tournament": tid, "email": email, "rule": rule, "games": [p["game_id"] for p in mine]})
            self.tell_withdrawn(t, email, why, rule, len(mine))
        from . import ratings

        ratings.recompute(self.service)

    def tell_withdrawn(self, t: dict, email: str, why: str, rule: str, games: int) -> None:
        tr = i18n.translator(self.store.language_of(email))
        ended = (tr.gettext("Your unfinished games in it are annulled: they count for nobody.") if rule == "annul"
                 else tr.gettext("Your unfinished games in it are forfeited: each counts as a win for your opponents."))
        queue(self.store, email, "[pbem] " + tr.gettext("You are withdrawn from %(tournament)s", tournament=t["name"]),
              tr.gettext("The organiser withdrew you from %(tournament)s: you will not be paired again.",
                         tournament=t["name"]) + ("\n" + ended if games else "") + "\n"
              + tr.gettext("Reason: %(why)s", why=why),
              kind="tournament", dedupe_key=f"withdrawn:{t['id']}:{email.lower()}")

    def override(self, tid: int, who: str, why: str, pairing_id: int, result: str) -> None:
        """The organiser overrides a finished result ("first", "second", "draw" or "annul"): the
        standings, the pairings still to come and the ratings follow (a round paired on the old result:
        ``Results.repair``); the game's log stays as it was played; the players are mailed the ruling and
        its reason."""
        t, p = self.ruled_pairing(tid, who, why, pairing_id)
        if p["result"] is None:
            raise ServiceError("that game is not over: adjudicate it instead")
        if result not in ("first", "second", "draw", "annul"):
            raise ServiceError("the result is first, second, draw or annul")
        stored, how = ("draw", "annulled") if result == "annul" else (result, "overridden")
        with self.store.transaction():
            self.store.execute("UPDATE league_pairings SET result = ?, how = ?, why = ? WHERE id = ?",
                               (stored, how, why, pairing_id))
            self.store.audit(who, "tournament_override", p["game_id"], why=why,
                             detail={"tournament": tid, "pairing": pairing_id, "was": [p["result"], p["how"]],
                                     "result": result})
            self.tell_override(t, p, result, why)
        from . import ratings

        ratings.recompute(self.service)
        if p["round"] < t["round"] and (stored, how) != (p["result"], p["how"]):  # a later round paired on the old one
            if not self.repair(t, [p]):
                self.tell_changed(t, [p])
            self.sync(tid)

    def tell_override(self, t: dict, p: dict, result: str, why: str) -> None:
        for email in (p["first"], p["second"], p.get("third")):
            if not email:
                continue
            tr = i18n.translator(self.store.language_of(email))
            mine = "first" if email.lower() == p["first"].lower() else "second"
            ruling = {"annul": tr.gettext("the game is annulled: it counts for nobody"),
                      "draw": tr.gettext("the game is a draw")}.get(
                result, tr.gettext("you win") if result == mine else tr.gettext("you lose"))
            queue(self.store, email, f"[pbem {p['game_id']}] " + tr.gettext("A result of %(tournament)s is overridden",
                                                                           tournament=t["name"]),
                  tr.gettext("The organiser of %(tournament)s overrode the result of game %(game)s (round %(round)s): "
                             "%(ruling)s.", tournament=t["name"], game=p["game_id"], round=p["round"], ruling=ruling)
                  + "\n" + tr.gettext("Reason: %(why)s", why=why),
                  kind="tournament", dedupe_key=f"override:{p['id']}:{email.lower()}:{self.store.now()}")

    def tell_adjudication(self, game_id: int, winner: str | None, why: str) -> None:
        """Every seat of an adjudicated game is told the ruling, in his language."""
        game = self.service.game(game_id)
        won = [s.id for s in game.ruleset.seats(game.scenario, game.options) if s.side == winner]
        for seat in self.store.seats(game_id):
            if not seat["email"]:
                continue
            tr = i18n.translator(self.store.language_of(seat["email"]))
            side = self.service.seat_title(game_id, won[0], tr.lang) if len(won) == 1 else (winner or "").capitalize()
            ruling = tr.gettext("%(side)s wins.", side=side) if winner else tr.gettext("The game is drawn.")
            queue(self.store, seat["email"], f"[pbem {game_id}] " + tr.gettext("The game is adjudicated"),
                  tr.gettext("The tournament organiser ruled game %(game)s: %(ruling)s", game=self.service.label(game_id),
                             ruling=ruling) + "\n" + tr.gettext("Reason: %(why)s", why=why),
                  kind="ended", game_id=game_id, dedupe_key=f"adjudicated:{game_id}:{seat['side']}")

    def publish(self, tid: int, who: str, published: bool = True) -> None:
        t = self.tournament(tid)
        self.organiser_only(t["league_id"], who)
        self.store.execute("UPDATE league_tournaments SET published = ? WHERE id = ?", (int(published), tid))
        self.store.audit(who, "tournament_publish", detail={"tournament": tid, "published": published})


WITHDRAWAL_RULES = ("forfeit", "annul")


def withdrawal_rule(t: dict) -> str:
    """What a withdrawal does to the entrant's unplayed games: the tournament's rule; a knockout or a double
    elimination forfeits (an annulled game sends nobody on)."""
    return "forfeit" if t["format"] in ("knockout", "double_elimination") else t["rules"].get("withdrawal") or "forfeit"


def against(p: dict, email: str) -> str:
    """The result of pairing ``p`` forfeited by ``email``: the other side wins."""
    return "second" if p["first"].lower() == email.lower() else "first"
