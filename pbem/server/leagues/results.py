"""A tournament's results as its games and the clock give them: each result read from its game,
and read again when the game's log grows (a moderator's rewind or amendment); a round paired on a
result that then changed, paired again when none of its games has begun; the scheduled start;
the clock's tick. Mixed into ``Tournaments`` (tournaments.py), whose methods it uses."""

from __future__ import annotations

import json

from pbem.server import deadlines, i18n
from pbem.server.mail.outbox import queue
from pbem.server.service import ServiceError


class Results:

    # -- results -----------------------------------------------------------------------

    def sync(self, tid: int) -> list[str]:
        """Read the results of the tournament's games -- again whenever a game's log grew since (a
        moderator's rewind or amendment: a game no longer over has no result, a forfeit undone is no
        longer one); pair the next round when one is over (if the rules say so); end the tournament
        after its last round. Results the organiser ruled (adjudicated, overridden, a withdrawal) are
        his. Returns what changed."""
        t = self.tournament(tid)
        changes, earlier = [], []
        first_seat = None
        lengths = {r["game_id"]: r["n"] for r in self.store.query(
            "SELECT l.game_id, COUNT(*) AS n FROM log l JOIN league_pairings p ON p.game_id = l.game_id"
            " WHERE p.tournament_id = ? GROUP BY l.game_id", (tid,))}
        for p in t["pairings"]:
            if p["game_id"] is None or p["why"] or (p["result"] is not None and p["log_read"] == lengths.get(p["game_id"])):
                continue
            game = self.service.game(p["game_id"])
            if not game.over:
                if p["result"] is not None:  # a rewind reopened it
                    self.store.execute("UPDATE league_pairings SET result = NULL, how = '', log_read = NULL WHERE id = ?",
                                       (p["id"],))
                    changes.append(f"round {p['round']} board {p['board']}: reopened")
                    earlier += [p] if p["round"] < t["round"] else []
                continue
            first_seat = first_seat or self.seats_of_rules(t["rules"])[0]
            winner = game.view(None).get("winner")
            result = "draw" if winner is None else ("first" if winner == first_seat.side else "second")
            how = self.how_ended(p["game_id"], game)
            self.store.execute("UPDATE league_pairings SET result = ?, how = ?, log_read = ? WHERE id = ?",
                               (result, how, lengths.get(p["game_id"]), p["id"]))
            if (result, how) != (p["result"], p["how"]):
                changes.append(f"round {p['round']} board {p['board']}: {result}")
                earlier += [p] if p["result"] is not None and p["round"] < t["round"] else []
        if changes:
            from . import ratings

            ratings.recompute(self.service)
        if earlier and not self.repair(t, earlier):
            self.tell_changed(t, earlier)
        t = self.tournament(tid)
        if t["status"] == "finished" and any(p["result"] is None for p in t["pairings"]):
            self.store.execute("UPDATE league_tournaments SET status = 'running' WHERE id = ?", (tid,))
            t = self.tournament(tid)
        if t["status"] == "running" and t["pairings"] and all(p["result"] for p in t["pairings"]):
            over = t["round"] >= t["rounds"] or (t["format"] == "knockout"
                                                 and len(self.knockout_winners(t, t["round"])) < 2)
            if over:
                self.store.execute("UPDATE league_tournaments SET status = 'finished' WHERE id = ?", (tid,))
                self.store.audit("scheduler", "tournament_finish", detail={"tournament": tid})
                self.tell_standings(tid)
                changes.append("finished")
            elif t["rules"].get("auto", True):
                changes.append(f"round {self.pair_next(tid)} paired")
        return changes

    def repair(self, t: dict, changed: list[dict]) -> bool:
        """A result of the round before the last changed: when no game of the last round has begun
        (no orders, no day resolved), that round is withdrawn -- its games ended and kept aside
        (``league_cancelled``, never rated), its players told -- and paired again once the round
        before is complete. Returns whether it was."""
        last = [p for p in self.tournament(t["id"])["pairings"] if p["round"] == t["round"]]
        if any(p["round"] != t["round"] - 1 for p in changed) or any(p["result"] not in (None, "bye") and not p["why"] ==
                                                                     "withdrawn" for p in last if p["game_id"]):
            return False
        for p in last:
            if p["game_id"] and self.store.query_one(
                    "SELECT 1 AS yes FROM log WHERE game_id = ? AND json_extract(entry, '$.kind') IN"
                    " ('orders', 'resolved', 'answer')", (p["game_id"],)):
                return False
        why = f"round {t['round'] - 1} changed after round {t['round']} was paired"
        with self.service.lock, self.store.transaction():
            for p in last:
                if p["game_id"]:
                    self.end_game(p["game_id"], None, f"Cancelled: {why}; the round is paired again", "scheduler")
                    self.tell_cancelled(t, p)
                self.store.execute("INSERT INTO league_cancelled (tournament_id, round, board, first, second, third,"
                                   " game_id, why, at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                   (t["id"], p["round"], p["board"], p["first"], p["second"], p.get("third"),
                                    p["game_id"], why, self.store.now()))
                self.store.execute("DELETE FROM league_pairings WHERE id = ?", (p["id"],))
            self.store.execute("UPDATE league_tournaments SET round = ? WHERE id = ?", (t["round"] - 1, t["id"]))
            self.store.audit("scheduler", "tournament_repair", why=why,
                             detail={"tournament": t["id"], "games": [p["game_id"] for p in last if p["game_id"]]})
        return True

    def tell_cancelled(self, t: dict, p: dict) -> None:
        for email in (p["first"], p["second"], p.get("third")):
            if not email:
                continue
            tr = i18n.translator(self.store.language_of(email))
            queue(self.store, email, f"[pbem {p['game_id']}] " + tr.gettext("%(tournament)s: a game cancelled",
                                                                           tournament=t["name"]),
                  tr.gettext("A result of round %(before)s of %(tournament)s changed (a moderator's rewind or "
                             "amendment) before game %(game)s of round %(round)s began: that game is cancelled and "
                             "the round is paired again once round %(before)s is over.", before=t["round"] - 1,
                             tournament=t["name"], game=p["game_id"], round=t["round"]),
                  kind="tournament", game_id=p["game_id"], dedupe_key=f"cancelled:{p['game_id']}:{email.lower()}")

    def tell_changed(self, t: dict, pairings: list[dict]) -> None:
        """A result of a round already followed by another changed (a rewind, an amendment): the later
        rounds were paired on the old result, so the organisers are told (audited): they decide."""
        games = ", ".join(str(p["game_id"]) for p in pairings)
        self.store.audit("scheduler", "tournament_result_changed",
                         detail={"tournament": t["id"], "games": [p["game_id"] for p in pairings]})
        for email in [r["email"] for r in self.store.query("SELECT email FROM league_organisers WHERE league_id = ?",
                                                           (t["league_id"],))]:
            tr = i18n.translator(self.store.language_of(email))
            queue(self.store, email, "[pbem] " + tr.gettext("%(tournament)s: a result changed", tournament=t["name"]),
                  tr.gettext("The result of game %(games)s of %(tournament)s changed after the next round was paired "
                             "(a moderator's rewind or amendment). The standings and ratings follow it; the rounds "
                             "already paired stand unless you rule otherwise on the console.", games=games,
                             tournament=t["name"]),
                  kind="tournament")

    def how_ended(self, game_id: int, game) -> str:
        """How a finished game ended, for the crosstable: "forfeit" (the miss policy ended it: the end
        in force is the scheduler's, so a forfeit a rewind undid is none), "resigned", "agreed" (a draw
        by agreement) or "played"."""
        ended = game.ended
        if ended is not None and ended.get("how") in ("resign", "agreed"):
            return {"resign": "resigned", "agreed": "agreed"}[ended["how"]]
        if ended is not None and ended.get("by") == "scheduler":
            return "forfeit"
        return "played"

    def start_scheduled(self) -> list[str]:
        """Start every tournament whose scheduled start (rule ``starts``) has come, as the organiser who
        created it; one that cannot start (too few entrants) is told to its organisers and waits for them."""
        out = []
        now = self.service.now()
        for row in self.store.query("SELECT id, rules FROM league_tournaments WHERE status = 'signup'"):
            when = deadlines.parse_iso(json.loads(row["rules"]).get("starts"))
            if when is None or when > now:
                continue
            creator = self.store.query_one("SELECT who FROM audit WHERE action = 'tournament_create'"
                                           " AND json_extract(detail, '$.tournament') = ?", (row["id"],))
            t = self.tournament(row["id"])
            try:
                self.start(row["id"], creator["who"])
                out.append(f"tournament {row['id']}: started as scheduled")
            except ServiceError as exc:
                rules = {**t["rules"], "starts": None}
                self.store.execute("UPDATE league_tournaments SET rules = ? WHERE id = ?",
                                   (json.dumps(rules, sort_keys=True), row["id"]))
                self.store.audit("scheduler", "tournament_start_failed", why=str(exc), detail={"tournament": row["id"]})
                for email in [r["email"] for r in self.store.query(
                        "SELECT email FROM league_organisers WHERE league_id = ?", (t["league_id"],))]:
                    tr = i18n.translator(self.store.language_of(email))
                    queue(self.store, email, "[pbem] " + tr.gettext("%(tournament)s did not start", tournament=t["name"]),
                          tr.gettext("%(tournament)s was to start now, but could not: %(why)s. Start it from its console "
                                     "when it can.", tournament=t["name"], why=exc.in_(tr.lang)),
                          kind="tournament", dedupe_key=f"start-failed:{row['id']}:{email.lower()}")
        return out

    def tick(self) -> list[str]:
        """Start the tournaments scheduled to start, and sync every running one (the server's clock calls this)."""
        out = self.start_scheduled()
        for row in self.store.query("SELECT id FROM league_tournaments WHERE status IN ('running', 'finished')"
                                    " ORDER BY id"):
            try:
                out += [f"tournament {row['id']}: {c}" for c in self.sync(row["id"])]
            except Exception as exc:  # one broken tournament must not stop the others
                self.store.audit("scheduler", "error", why=f"tournament {row['id']}: {type(exc).__name__}: {exc}")
        return out
