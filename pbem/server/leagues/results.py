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
        his. Returns what changed. One transaction: a reader never sees a round's results without the
        pairing they lead to (nor a forfeit read while the next round is still unpaired)."""
        with self.service.lock, self.store.transaction():  # the service's lock first, as every part takes them
            return self._sync(tid)

    def _sync(self, tid: int) -> list[str]:
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
        changes += self.pair_rest(tid)
        t = self.tournament(tid)
        if t["status"] == "finished" and (any(p["result"] is None for p in t["pairings"]) or self.waiting_to_pair(t)):
            self.store.execute("UPDATE league_tournaments SET status = 'running' WHERE id = ?", (tid,))
            t = self.tournament(tid)
        if t["status"] == "running" and t["pairings"] and all(p["result"] for p in t["pairings"]) \
                and not self.waiting_to_pair(t):
            over = self.finished_by_bracket(t) if t["format"] == "double_elimination" else (
                t["round"] >= t["rounds"] or self.finished_by_bracket(t))  # a bracket ends when it is decided
            if over:
                self.store.execute("UPDATE league_tournaments SET status = 'finished' WHERE id = ?", (tid,))
                self.store.audit("scheduler", "tournament_finish", detail={"tournament": tid})
                self.tell_standings(tid)
                changes.append("finished")
            elif t["rules"].get("auto", True):
                changes.append(f"round {self.pair_next(tid)} paired")
        return changes

    def repair(self, t: dict, changed: list[dict]) -> bool:
        """A result of the round before the last changed (a rewind, an amendment, an override): the last round was
        paired on the old one. Its games that have begun stand; its boards not begun are withdrawn -- their games
        ended and kept aside (``league_cancelled``, never rated), their players told -- and paired again by the
        tournament's pairing: when no game had begun, the whole round, once the round before is over; else only
        the players of the boards withdrawn, among themselves, as soon as the round before is over (``pair_rest``).
        A round robin's pairings do not follow results, so a round of it with a game begun stands. Returns whether
        boards were withdrawn (else the organisers are told the rounds stand)."""
        last = [p for p in self.tournament(t["id"])["pairings"] if p["round"] == t["round"]]
        if any(p["round"] != t["round"] - 1 for p in changed):
            return False
        begun = [p for p in last if p["game_id"] and self.begun(p)]
        if begun and t["format"] == "round_robin":
            return False
        withdrawn = last if not begun else [p for p in last if p["game_id"] and p not in begun
                                             and self.moved_by(t, p, changed)]  # byes, walkovers stand with the games
        if not withdrawn:
            return False
        why = f"round {t['round'] - 1} changed after round {t['round']} was paired"
        with self.service.lock, self.store.transaction():
            for p in withdrawn:
                if p["game_id"]:
                    self.end_game(p["game_id"], None, f"Cancelled: {why}; the round is paired again", "scheduler")
                    self.tell_cancelled(t, p)
                self.store.execute("INSERT INTO league_cancelled (tournament_id, round, board, first, second, third,"
                                   " game_id, why, at, repaired) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                                   (t["id"], p["round"], p["board"], p["first"], p["second"], p.get("third"),
                                    p["game_id"], why, self.store.now(), None if begun else 1))
                self.store.execute("DELETE FROM league_pairings WHERE id = ?", (p["id"],))
            if not begun:
                self.store.execute("UPDATE league_tournaments SET round = ? WHERE id = ?", (t["round"] - 1, t["id"]))
            self.store.audit("scheduler", "tournament_repair", why=why,
                             detail={"tournament": t["id"], "games": [p["game_id"] for p in withdrawn if p["game_id"]],
                                     "stand": [p["game_id"] for p in begun if p["game_id"]]})
        if begun:
            self.tell_changed(t, changed, stand=begun)
        return True

    def begun(self, p: dict) -> bool:
        """Whether a pairing's game has begun: it is over, or orders came or a day was resolved."""
        if p["result"] is not None:
            return True
        return self.store.query_one("SELECT 1 AS yes FROM log WHERE game_id = ? AND json_extract(entry, '$.kind') IN"
                                    " ('orders', 'resolved', 'answer')", (p["game_id"],)) is not None

    @staticmethod
    def moved_by(t: dict, p: dict, changed: list[dict]) -> bool:
        """Whether a board of the last round may be paired otherwise after ``changed``: any board of a Swiss (the
        score groups move); a knockout's or a double elimination's only if one of its players played a changed
        game (a bracket's other places do not move)."""
        if t["format"] not in ("knockout", "double_elimination"):
            return True
        players = {e.lower() for c in changed for e in (c["first"], c["second"], c.get("third")) if e}
        return bool(players & {e.lower() for e in (p["first"], p["second"], p.get("third")) if e})

    def waiting_to_pair(self, t: dict) -> list[int]:
        """The entrants of the boards of the current round withdrawn behind begun games (``repair``) while their
        players are not yet paired again (they are once the round before is over), but for those withdrawn
        from the tournament or paired since. A knockout's or a double elimination's are paired by their places
        in the bracket, whoever they are: then the list holds the players of the withdrawn boards."""
        rows = self.store.query("SELECT first, second, third FROM league_cancelled WHERE tournament_id = ? AND round = ?"
                                " AND repaired IS NULL", (t["id"], t["round"]))
        emails = {e.lower() for r in rows for e in (r["first"], r["second"], r["third"]) if e}
        paired = {e.lower() for p in t["pairings"] if p["round"] == t["round"]
                  for e in (p["first"], p["second"], p.get("third")) if e}
        gone = {e["email"].lower() for e in t["entries"] if e["withdrawn"]}
        return sorted(t["numbers"][e] for e in emails - paired - gone if e in t["numbers"]) if rows else []

    def pair_rest(self, tid: int) -> list[str]:
        """Pair the players waiting in the current round (``waiting_to_pair``) among themselves, by the
        tournament's pairing of that round, once the round before is over. Returns what was done."""
        with self.service.lock, self.store.transaction():
            t = self.tournament(tid)
            waiting = self.waiting_to_pair(t)
            if not waiting or any(p["result"] is None for p in t["pairings"] if p["round"] < t["round"]):
                return []
            boards = self.rest_boards(t, waiting)
            self.create_boards(t, t["round"], boards, first_board=max(
                [p["board"] for p in t["pairings"] if p["round"] == t["round"]], default=0) + 1)
            self.store.execute("UPDATE league_cancelled SET repaired = 1 WHERE tournament_id = ? AND round = ?",
                               (tid, t["round"]))
            self.store.audit("scheduler", "tournament_repair_paired",
                             detail={"tournament": tid, "round": t["round"], "players": waiting})
        return [f"round {t['round']}: {len(boards)} board(s) paired again"]

    def rest_boards(self, t: dict, waiting: list[int]) -> list[tuple]:
        """The boards of the waiting players of the current round, by the tournament's pairing, as if the round
        were paired for them alone (a knockout's and a double elimination's by their place in the bracket)."""
        from . import pairing

        number = t["round"]
        before = {**t, "pairings": [p for p in t["pairings"] if p["round"] < number]}
        history = self.histories(before)
        rest = set(waiting)
        if t["format"] == "double_elimination":
            busy = {n for p in t["pairings"] if p["round"] == number
                    for n in (t["numbers"][p["first"].lower()], t["numbers"].get((p["second"] or "").lower()))}
            played = {p["slot"] for p in t["pairings"] if p.get("slot")}
            return [((a, b), slot) for slot, a, b in self.bracket(t).ready(played) if not busy & {a, b}]
        if t["format"] == "knockout":
            busy = {t["numbers"][e.lower()] for p in t["pairings"] if p["round"] == number
                    for e in (p["first"], p["second"]) if e}
            boards = pairing.knockout_next(self.knockout_winners(t, number - 1), history)
            return [(board, None) for board in boards if not busy & set(board)]
        if len(self.seats_of_rules(t["rules"])) == 3:
            return [(group, None) for group in pairing.groups_of_three([history[n] for n in waiting], number)]
        try:
            boards = pairing.swiss(list(history.values()), number, t["rounds"],
                                   absent=tuple(n for n in history if n not in rest))
        except pairing.PairingFailed:  # no pairing of them alone: as they were paired before
            boards = self.boards_cancelled(t, rest)
        return [(board, None) for board in boards]

    def boards_cancelled(self, t: dict, rest: set[int]) -> list[tuple]:
        rows = self.store.query("SELECT first, second FROM league_cancelled WHERE tournament_id = ? AND round = ?"
                                " ORDER BY id DESC", (t["id"], t["round"]))
        out, seen = [], set()
        for r in rows:
            a, b = t["numbers"][r["first"].lower()], t["numbers"].get((r["second"] or "").lower())
            if a in rest and b in rest and not {a, b} & seen:
                out.append((a, b))
                seen |= {a, b}
        return out

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

    def tell_changed(self, t: dict, pairings: list[dict], stand: list[dict] | None = None) -> None:
        """A result of a round already followed by another changed (a rewind, an amendment): the later
        rounds were paired on the old result, so the organisers are told (audited): they decide. ``stand``: the
        games of the last round that had begun and stand (its other boards were paired again)."""
        games = ", ".join(str(p["game_id"]) for p in pairings)
        if stand is not None:
            self.store.audit("scheduler", "tournament_result_changed",
                             detail={"tournament": t["id"], "games": [p["game_id"] for p in pairings],
                                     "stand": [p["game_id"] for p in stand]})
            for email in [r["email"] for r in self.store.query("SELECT email FROM league_organisers WHERE league_id = ?",
                                                               (t["league_id"],))]:
                tr = i18n.translator(self.store.language_of(email))
                queue(self.store, email, "[pbem] " + tr.gettext("%(tournament)s: a result changed",
                                                                tournament=t["name"]),
                      tr.gettext("The result of game %(games)s of %(tournament)s changed after round %(round)s was "
                                 "paired (a moderator's rewind or amendment, or an override). The games of round "
                                 "%(round)s that had begun stand: %(stand)s. Its boards not begun were cancelled; "
                                 "their players are paired again among themselves once round %(before)s is over. "
                                 "The standings and ratings follow the new result.", games=games, tournament=t["name"],
                                 round=t["round"], before=t["round"] - 1,
                                 stand=", ".join(str(p["game_id"]) for p in stand if p["game_id"]) or "-"),
                      kind="tournament")
            return
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
