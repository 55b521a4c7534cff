"""Tournaments inside a league: entries, rounds paired and played as server games, results
read from the games, standings; the organiser's rulings are ``console.py``'s. Mixed into
``Leagues`` (service.py).

Each pairing of two entrants is a game of the tournament's rules, moderated by the organiser
who started the tournament; the *first* player takes the ruleset's first seat. A round's
results are read from its games (``sync``, which the server's clock calls each tick:
``results.py``): the winning side's player wins; a game over without a winner is a draw; a
game ended by the miss policy is a forfeit (a win for the player who stayed); the organiser
may adjudicate an unfinished game. When a round is complete the next is paired (unless the
rules say ``auto: false``: then the organiser pairs it), until the last round.
"""

from __future__ import annotations

import json

from pbem.core.ruleset import options_of, title_said
from pbem.lang import say
from pbem.server import i18n
from pbem.server.i18n import Said
from pbem.server.mail.outbox import queue
from pbem.server.service import ServiceError

from . import elimination, pairing, standings
from .bidding import Bidding
from .brackets import Brackets
from .console import Console, against, withdrawal_rule
from .records import meets, reliability
from .results import Results

FORMATS = ("round_robin", "swiss", "knockout", "double_elimination")
ELIMINATIONS = ("knockout", "double_elimination")  # a player goes on or out: no annulled game, no knockout of three
KNOCKOUT_OF_THREE = (
    "a knockout of three-seat games is not offered: when the two players of the second side win, both win, so "
    "one game cannot send one player on; play a round robin in groups of three (then, for a next stage, a new "
    "tournament of each group's best), or a Swiss of groups of three")



def inherited(league_rules: dict, rules: dict) -> dict:
    """What a tournament takes from its league's rules: all of them, but a tournament of another game than the
    league's takes no scenario nor options from it (they are the league's game's: its first scenario, no
    options, unless the tournament names its own)."""
    if rules.get("game") in (None, league_rules.get("game")):
        return league_rules
    return {name: value for name, value in league_rules.items() if name not in ("scenario", "options")}

class Tournaments(Bidding, Brackets, Console, Results):

    # -- creating and entering ------------------------------------------------------

    def create_tournament(self, league_id: int, who: str, name: str, format: str, rounds: int = 0,
                          rules: dict | None = None, season_id: int | None = None) -> int:
        from .service import check_rules

        self.organiser_only(league_id, who)
        league = self.league(league_id)
        if format not in FORMATS:
            raise ServiceError("a tournament is %(names)s, not %(format)s",
                               names=', '.join(FORMATS), format=repr(format))
        name = " ".join((name or "").split())
        if not name:
            raise ServiceError("a tournament needs a name")
        if season_id is not None and season_id not in {s["id"] for s in league["seasons"]}:
            raise ServiceError("the league has no season %(number)s", number=season_id)
        merged = check_rules({**inherited(league["rules"], rules or {}), **(rules or {})})
        if len(self.seats_of_rules(merged)) == 3 and format in ELIMINATIONS:  # two or three seats, or refuse now
            raise ServiceError(KNOCKOUT_OF_THREE)
        with self.store.transaction():
            tid = self.store.execute(
                "INSERT INTO league_tournaments (league_id, season_id, name, format, rounds, rules, created)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (league_id, season_id, name, format, int(rounds or 0), json.dumps(merged, sort_keys=True),
                 self.store.now())).lastrowid
            self.store.audit(who, "tournament_create", detail={"tournament": tid, "format": format})
        return tid

    def seats_of_rules(self, rules: dict) -> list:
        from pbem.games import ruleset

        rules_of = ruleset(rules["game"])
        scenario = rules["scenario"] or next(iter(rules_of.scenarios().values())).name
        seats = rules_of.seats(self.service.scenario(rules["game"], scenario), rules_of_options(rules_of, rules))
        if len(seats) == 3 and seats[1].side == seats[2].side != seats[0].side:
            return list(seats)  # one against two (Napoleon 1815 with three players): groups of three
        if len(seats) != 2:
            raise ServiceError("tournaments pair two players a game, or three when two seats play one side against the "
                               "first; %(title)s has %(count)s seats", title=title_said(rules_of), count=len(seats))
        return list(seats)

    def tournament(self, tid: int) -> dict:
        row = self.store.query_one("SELECT * FROM league_tournaments WHERE id = ?", (tid,))
        if row is None:
            raise ServiceError("there is no tournament %(number)s", number=tid)
        row["rules"] = json.loads(row["rules"])
        row["entries"] = self.store.query("SELECT * FROM league_entries WHERE tournament_id = ? ORDER BY number",
                                          (tid,))
        row["pairings"] = self.store.query("SELECT * FROM league_pairings WHERE tournament_id = ?"
                                           " ORDER BY round, board", (tid,))
        row["league"] = self.store.query_one("SELECT id, name FROM leagues WHERE id = ?", (row["league_id"],))
        row["replacements"] = self.store.query("SELECT * FROM league_replacements WHERE tournament_id = ? ORDER BY id",
                                               (tid,))
        # each address that held an entry -- its player now, and each player he replaced -- to the entry's number
        row["numbers"] = {**{r["old"].lower(): r["number"] for r in row["replacements"]},
                          **{e["email"].lower(): e["number"] for e in row["entries"]}}
        return row

    def enter(self, tid: int, email: str) -> str:
        """Enter a league member in a tournament that has not started."""
        t = self.tournament(tid)
        email = email.strip()
        if any(e["email"].lower() == email.lower() for e in t["entries"]):
            return Said(say("You are entered in %(tournament)s.", tournament=t['name']))
        if t["status"] != "signup":
            raise ServiceError("%(name)s has started: entries are closed", name=t['name'])
        if not self.is_member(t["league_id"], email):
            raise ServiceError("join the league %(name)s first", name=t['league']['name'])
        record = reliability(self.store, email)
        if not meets(record, t["rules"].get("min_reliability")):
            raise ServiceError("%(name)s asks for a reliability of %(min_reliability)s%%; yours is %(percent)s%%",
                               name=t['name'], min_reliability=t['rules']['min_reliability'], percent=record['percent'])
        with self.store.transaction():
            self.store.execute("INSERT INTO league_entries (tournament_id, email, number) VALUES (?, ?, ?)",
                               (tid, email, len(t["entries"]) + 1))
            self.store.audit(email, "tournament_enter", detail={"tournament": tid})
        return Said(say("You are entered in %(tournament)s.", tournament=t['name']))

    # -- rounds ----------------------------------------------------------------------------

    def start(self, tid: int, who: str) -> int:
        """Close the entries, number the entrants (best rating first, then by entry) and pair round 1."""
        from . import ratings

        t = self.tournament(tid)
        self.organiser_only(t["league_id"], who)
        if t["status"] != "signup":
            raise ServiceError("%(name)s has already started", name=t['name'])
        count = len(t["entries"])
        if count < 2:
            raise ServiceError("a tournament needs two players at least")
        rated = {r["email"].lower(): r["rating"] for r in ratings.table(self.store, t["rules"]["game"])}
        order = sorted(t["entries"], key=lambda e: (-rated.get(e["email"].lower(), 0.0), e["number"]))
        rounds = t["rounds"] or {"round_robin": pairing.round_robin_rounds(count),
                                 "swiss": pairing.swiss_rounds(count),
                                 "knockout": pairing.knockout_rounds(count),
                                 "double_elimination": elimination.most_rounds(count)}[t["format"]]
        three = len(self.seats_of_rules(t["rules"])) == 3
        if t["format"] == "round_robin" and three:
            try:
                pairing.round_robin_groups(count)
            except pairing.PairingFailed as exc:
                raise ServiceError(str(exc)) from None
            rounds = min(t["rounds"] or 3, 6)
        elif t["format"] == "round_robin":
            rounds = min(rounds, pairing.round_robin_rounds(count, double=True))
        with self.service.lock, self.store.transaction():
            self.store.execute("UPDATE league_entries SET number = -number WHERE tournament_id = ?", (tid,))
            for number, entry in enumerate(order, 1):
                self.store.execute("UPDATE league_entries SET number = ? WHERE tournament_id = ? AND email = ?",
                                   (number, tid, entry["email"]))
            rules = {**t["rules"], "moderator": who}
            self.store.execute("UPDATE league_tournaments SET status = 'running', rounds = ?, rules = ? WHERE id = ?",
                               (rounds, json.dumps(rules, sort_keys=True), tid))
            self.store.audit(who, "tournament_start", detail={"tournament": tid, "rounds": rounds})
            self.pair_next(tid)
        return rounds

    def pair_next(self, tid: int, who: str | None = None) -> int:
        """Pair the next round and create its games; returns its number. One transaction, so the
        clock and an organiser pairing at once cannot pair a round twice."""
        with self.service.lock, self.store.transaction():  # the service's lock first, as every part takes them
            return self._pair_next(tid, who)

    def _pair_next(self, tid: int, who: str | None) -> int:
        t = self.tournament(tid)
        if who is not None:
            self.organiser_only(t["league_id"], who)
        if t["status"] != "running":
            raise ServiceError("%(name)s is %(status)s", name=t['name'], status=i18n.status_text(t['status']))
        if any(p["result"] is None for p in t["pairings"]) or self.waiting_to_pair(t):
            raise ServiceError("round %(round)s is not over", round=t['round'])
        number = t["round"] + 1
        if number > t["rounds"] and t["format"] == "double_elimination" and not self.bracket(t).over():
            self.store.execute("UPDATE league_tournaments SET rounds = ? WHERE id = ?", (number, tid))
        elif number > t["rounds"]:  # (a double elimination's rounds are its most: one that stood may ask one more)
            raise ServiceError("%(name)s has %(rounds)s rounds", name=t['name'], rounds=t['rounds'])
        active = [e for e in t["entries"] if not e["withdrawn"]]
        history = self.histories(t)
        slots: list[str | None] = []
        if t["format"] == "round_robin" and len(self.seats_of_rules(t["rules"])) == 3:
            boards = pairing.round_robin_of_three(len(t["entries"]), number)
        elif t["format"] == "round_robin":
            boards = pairing.round_robin(len(t["entries"]), (number - 1) % pairing.round_robin_rounds(
                len(t["entries"])) + 1, double=False)
            if number > pairing.round_robin_rounds(len(t["entries"])):  # the second cycle, sides swapped
                boards = [(b, a) if b is not None else (a, None) for a, b in boards]
        elif t["format"] == "swiss" and len(self.seats_of_rules(t["rules"])) == 3:
            boards = pairing.groups_of_three([history[e["number"]] for e in active], number)
        elif t["format"] == "swiss":
            boards = pairing.swiss(list(history.values()), number, t["rounds"],
                                   absent=tuple(e["number"] for e in t["entries"] if e["withdrawn"]))
        elif t["format"] == "double_elimination":
            boards, slots = self.double_elimination_round(t, history)
        elif number == 1:
            boards = pairing.knockout_first(len(t["entries"]))
        else:
            boards = pairing.knockout_next(self.knockout_winners(t, number - 1), history)
        paid: dict[int, tuple[int, int]] = {}
        if t["rules"].get("bidding") and len(self.seats_of_rules(t["rules"])) == 2:
            bidden = pairing.apply_bids(boards, self.bids_by_number(t), "first")
            boards = [board for board, _, _ in bidden]
            paid = {i: (who, price) for i, (_, who, price) in enumerate(bidden, 1) if who is not None}
        with self.store.transaction():
            self.create_boards(t, number, list(zip(boards, slots or [None] * len(boards))), paid=paid)
            self.store.execute("UPDATE league_tournaments SET round = ? WHERE id = ?", (number, tid))
        return number

    def create_boards(self, t: dict, number: int, boards: list[tuple], first_board: int = 1,
                      paid: dict | None = None) -> None:
        """Round ``number``'s boards, each (the players' numbers, its match of a double elimination's bracket or
        None), numbered from ``first_board``: a game each, a bye, or a walkover of a withdrawn entrant."""
        tid, paid = t["id"], paid or {}
        withdrawn = {e["email"].lower() for e in t["entries"] if e["withdrawn"]}
        by_number = {e["number"]: e["email"] for e in t["entries"]}
        for board, ((first, second, *third), slot) in enumerate(boards, first_board):
            first_email = by_number[first]
            second_email = by_number.get(second) if second is not None else None
            third_email = by_number[third[0]] if third and third[0] is not None else None
            pairing_id = self.store.execute(
                "INSERT INTO league_pairings (tournament_id, round, board, first, second, third, slot)"
                " VALUES (?, ?, ?, ?, ?, ?, ?)",
                (tid, number, board, first_email, second_email, third_email, slot)).lastrowid
            if board in paid:
                self.store.execute("UPDATE league_pairings SET bid = ?, bid_by = ? WHERE id = ?",
                                   (paid[board][1], by_number[paid[board][0]], pairing_id))
            gone = [e for e in (first_email, second_email, third_email) if e and e.lower() in withdrawn]
            if second_email is None and first_email.lower() in withdrawn:
                self.store.execute("DELETE FROM league_pairings WHERE id = ?", (pairing_id,))
            elif second_email is None:
                self.store.execute("UPDATE league_pairings SET result = 'bye', how = 'bye' WHERE id = ?",
                                   (pairing_id,))
                self.tell_bye(t, number, first_email)
            elif gone:  # a withdrawn entrant is never paired again: the board is not played
                annul = withdrawal_rule(t) == "annul" or (first_email in gone and len(gone) > 1)
                self.store.execute("UPDATE league_pairings SET result = ?, how = ?, why = ? WHERE id = ?",
                                   ("draw" if annul else against({"first": first_email}, gone[0]),
                                    "annulled" if annul else "forfeit", "withdrawn", pairing_id))
            else:
                self.create_pairing_game(t, pairing_id, number, board, first_email, second_email, third_email)

    def create_pairing_game(self, t: dict, pairing_id: int, number: int, board: int, first: str, second: str,
                            third: str | None = None) -> int:
        rules = t["rules"]
        seats = self.seats_of_rules(rules)
        players = {seats[0].id: first, seats[1].id: second, **({seats[2].id: third} if third else {})}
        settings = dict(rules["settings"])
        if not rules.get("vacation", True):
            settings["vacation_days"] = 0
        moderator = self.moderator_for(t, players.values())
        game_id, _ = self.service.create_game(
            f"{t['name']}, round {number}, board {board}", players,
            game=rules["game"], scenario=rules["scenario"], settings=settings, options=rules["options"],
            moderator=moderator, who=rules.get("moderator") or "system", moderator_known=True)
        self.store.execute("UPDATE league_pairings SET game_id = ? WHERE id = ?", (game_id, pairing_id))
        return game_id

    # -- what the entrants are told (each in his language) ------------------------------------

    def tell_bye(self, t: dict, number: int, email: str) -> None:
        """An entrant without a game this round: the bye, and what it counts."""
        tr = i18n.translator(self.store.language_of(email))
        queue(self.store, email, "[pbem] " + tr.gettext("%(tournament)s, round %(round)s: a bye", tournament=t["name"],
                                                       round=number),
              tr.gettext("You have a bye in round %(round)s of %(tournament)s: no game for you this round. A bye "
                         "counts as a win (1 point) in the standings.", round=number, tournament=t["name"])
              + "\n\n" + tr.gettext("The next round is paired when every game of this one is over."),
              kind="tournament", dedupe_key=f"bye:{t['id']}:{number}:{email.lower()}")

    def tell_standings(self, tid: int) -> None:
        """The tournament is over: each entrant gets the final standings."""
        table = self.table(tid)
        t = table["tournament"]
        for entry in t["entries"]:
            tr = i18n.translator(self.store.language_of(entry["email"]))
            lines = [tr.ngettext("%(rank)s. %(name)s, %(points)s point", "%(rank)s. %(name)s, %(points)s points",
                                 int(row.points) if row.points == int(row.points) else 2, rank=row.rank or i,
                                 name=row.name,
                                 points=f"{row.points:g}")
                     for i, row in enumerate(table["rows"], 1)]
            queue(self.store, entry["email"], "[pbem] " + tr.gettext("%(tournament)s is over", tournament=t["name"]),
                  tr.gettext("%(tournament)s is over. The final standings:", tournament=t["name"]) + "\n\n"
                  + "\n".join(lines) + "\n\n"
                  + tr.gettext("The tournament's page shows the crosstable and every game."),
                  kind="tournament", dedupe_key=f"standings:{tid}:{entry['email'].lower()}")

    def moderator_for(self, t: dict, players) -> str | None:
        """The game's moderator: the organiser who started the tournament, unless he plays in it (a
        moderator holds no seat: docs/security.md); then another organiser of the league who does not
        play in it; else none, and the site admin acts for the game."""
        playing = {p.lower() for p in players if p}
        organisers = [t["rules"].get("moderator")] + sorted(
            r["email"] for r in self.store.query("SELECT email FROM league_organisers WHERE league_id = ?",
                                                 (t["league_id"],)))
        return next((o for o in organisers if o and o.lower() not in playing), None)

    def histories(self, t: dict) -> dict[int, pairing.Player]:
        """Each entrant's history for pairing: points, each round's result and seat, opponents, bye."""
        players = {e["number"]: pairing.Player(e["number"]) for e in t["entries"]}
        results = self.results(t)
        for r in sorted(results, key=lambda r: r.round):
            for player in players.values():  # a round without him (withdrawn): no game
                while len(player.results) < r.round - 1:
                    player.results += "Z"
                    player.seats += "-"
            for me, seat in ((r.first, "F"), (r.second, "S"), (r.third, "T")):
                if me is None:
                    continue
                player = players[me]
                result = standings.outcome(r, me)
                player.points += standings.POINTS.get(result, 0.0) if result else 0.0
                player.results += {"win": "1", "draw": "=", "loss": "0", "bye": "U"}.get(result, "Z")
                if r.second is None:
                    player.seats += "-"
                    player.had_bye = True
                else:
                    player.seats += seat
                    player.opponents += [n for n in (r.first, r.second, r.third) if n is not None and n != me]
        for player in players.values():
            while len(player.results) < max((r.round for r in results), default=0):
                player.results += "Z"
                player.seats += "-"
        return players

    def results(self, t: dict) -> list[standings.Result]:
        numbers = t["numbers"]
        return [standings.Result(p["round"], numbers[p["first"].lower()],
                                 numbers[p["second"].lower()] if p["second"] else None,
                                 p["result"], p["how"] or "played", p["game_id"],
                                 numbers[p["third"].lower()] if p.get("third") else None)
                for p in t["pairings"]]

    def table(self, tid: int) -> dict:
        """Standings and crosstable: rows best first, with each entrant's address and rating."""
        from . import ratings

        t = self.tournament(tid)
        numbers = [e["number"] for e in t["entries"]]
        paid = {}
        by_email = t["numbers"]
        for p in t["pairings"]:
            if p.get("bid_by"):
                paid[by_email[p["bid_by"].lower()]] = paid.get(by_email[p["bid_by"].lower()], 0) + p["bid"]
        rows = standings.standings(numbers, self.results(t), standings.tie_breaks_for(t["format"]), bids=paid,
                                   eliminated=t["format"] == "double_elimination")
        emails = {e["number"]: e["email"] for e in t["entries"]}
        names = {m["email"].lower(): m["name"] for m in self.store.query(
            "SELECT email, name FROM league_members WHERE league_id = ?", (t["league_id"],))}
        rated = {r["email"].lower(): r["rating"] for r in ratings.table(self.store, t["rules"]["game"])}
        for row in rows:
            row.email = emails[row.number]
            row.name = names.get(row.email.lower()) or row.email.split("@")[0]
            row.rating = rated.get(row.email.lower())
        return {"tournament": t, "rows": rows, "rounds": list(range(1, t["round"] + 1))}


def rules_of_options(rules_of, rules: dict) -> dict:
    return {**options_of(rules_of), **(rules.get("options") or {})}
