"""The league operations, over the server's Service: leagues, organisers, members and seasons
(this module), tournaments (``tournaments.py``). The web pages and the CLI call these.

A league's ``rules`` are the defaults of its tournaments, which may override each:

``game``, ``scenario``, ``options``  what is played (default: Bonaparte at Marengo, its first scenario)
``settings``         the games' clock settings (pbem.server.deadlines): time per day, reminders,
                     ``miss_policy`` (default "forfeit") and ``miss_limit`` (default 3) ...
``vacation``         whether players may take vacations (default true; false sets ``vacation_days`` 0)
``min_reliability``  the least reliability (percent) a player needs to enter (default none)
``auto``             pair the next round as soon as a round is over (default true)
``starts``           when the clock starts the tournament by itself (UTC, "2026-12-01 18:00"; default
                     none: the organiser starts it)
``withdrawal``       what withdrawing an entrant does to his unplayed games: "forfeit" (the default:
                     each a win for the other side) or "annul" (counted for nobody); a knockout forfeits
"""

from __future__ import annotations

import json
from datetime import datetime, timezone

from pbem.core.ruleset import options_of, title_said
from pbem.lang import say
from pbem.server import deadlines, i18n
from pbem.server.i18n import Said
from pbem.server.service import ServiceError

from .records import meets, reliability
from .tournaments import Tournaments

DEFAULT_RULES = {"game": "marengo", "scenario": None, "options": {}, "settings": {"miss_policy": "forfeit"},
                 "vacation": True, "min_reliability": None, "auto": True, "bidding": False, "withdrawal": "forfeit",
                 "starts": None}


def check_rules(rules: dict | None) -> dict:
    """The rules with their defaults, checked; ServiceError says what is wrong."""
    from pbem.games import UnknownGame, ruleset

    out = {**DEFAULT_RULES, **(rules or {})}
    unknown = set(out) - set(DEFAULT_RULES)
    if unknown:
        raise ServiceError("unknown league rule %(names)s", names=', '.join(sorted(unknown)))
    try:
        rules_of = ruleset(out["game"])
        if not isinstance(out["options"], dict) or not isinstance(out["settings"], dict):
            raise ValueError("options and settings are each a table of names and values")
        options_of(rules_of, out["options"])  # the new game's check: an unknown option or value is refused now
        deadlines.settings_with_defaults(out["settings"])
    except (UnknownGame, deadlines.SettingsError, ValueError) as exc:
        raise ServiceError(i18n.refusal_text(exc)) from None
    if out["scenario"] and out["scenario"] not in {s.name for s in rules_of.scenarios().values()} \
            and not str(out["scenario"]).startswith("/"):
        raise ServiceError("%(title)s has no scenario %(scenario)s",
                           title=title_said(rules_of), scenario=repr(out['scenario']))
    if out["starts"] not in (None, ""):
        try:
            moment = datetime.fromisoformat(str(out["starts"]).strip().replace("Z", "+00:00").replace(" ", "T", 1))
        except ValueError:
            raise ServiceError("%(when)s is not a date and time (write 2026-12-01 18:00, UTC)",
                               when=repr(out["starts"])) from None
        out["starts"] = deadlines.iso(moment if moment.tzinfo else moment.replace(tzinfo=timezone.utc))
    else:
        out["starts"] = None
    if out["withdrawal"] not in ("forfeit", "annul"):
        raise ServiceError("a withdrawal forfeits or annuls the games left (withdrawal: forfeit or annul), not %(rule)s",
                           rule=repr(out["withdrawal"]))
    if out["min_reliability"] not in (None, "") and not 0 <= float(out["min_reliability"]) <= 100:
        raise ServiceError("the minimum reliability is a percentage, 0 to 100")
    return out


class Leagues(Tournaments):
    """Leagues and tournaments of one server. ``Leagues(service)``."""

    def __init__(self, service):
        self.service = service
        self.store = service.store

    # -- leagues -------------------------------------------------------------------

    def create_league(self, name: str, organiser: str, rules: dict | None = None, about: str = "") -> int:
        name = " ".join((name or "").split())
        if not name:
            raise ServiceError("a league needs a name")
        rules = check_rules(rules)
        with self.store.transaction():
            league_id = self.store.execute(
                "INSERT INTO leagues (name, about, rules, created) VALUES (?, ?, ?, ?)",
                (name, about, json.dumps(rules, sort_keys=True), self.store.now())).lastrowid
            self.store.execute("INSERT INTO league_organisers (league_id, email) VALUES (?, ?)",
                               (league_id, organiser.strip()))
            self.store.audit(organiser, "league_create", detail={"league": league_id, "name": name})
        return league_id

    def leagues(self) -> list[dict]:
        return self.store.query("SELECT l.*, (SELECT COUNT(*) FROM league_members m WHERE m.league_id = l.id)"
                                " AS members FROM leagues l ORDER BY l.id")

    def league(self, league_id: int) -> dict:
        row = self.store.query_one("SELECT * FROM leagues WHERE id = ?", (league_id,))
        if row is None:
            raise ServiceError("there is no league %(number)s", number=league_id)
        row["rules"] = json.loads(row["rules"])
        row["organisers"] = [r["email"] for r in self.store.query(
            "SELECT email FROM league_organisers WHERE league_id = ? ORDER BY email", (league_id,))]
        row["members"] = self.store.query("SELECT * FROM league_members WHERE league_id = ? ORDER BY joined, email",
                                          (league_id,))
        row["seasons"] = self.store.query("SELECT * FROM league_seasons WHERE league_id = ? ORDER BY id",
                                          (league_id,))
        row["tournaments"] = self.store.query("SELECT * FROM league_tournaments WHERE league_id = ? ORDER BY id",
                                              (league_id,))
        return row

    def is_organiser(self, league_id: int, email: str | None) -> bool:
        return bool(email) and self.store.query_one(
            "SELECT 1 AS yes FROM league_organisers WHERE league_id = ? AND email = ?",
            (league_id, email.strip())) is not None

    def organiser_only(self, league_id: int, who: str) -> None:
        admin = getattr(self.service.config, "admin_email", None)
        if not self.is_organiser(league_id, who) and not (admin and who.lower() == admin.lower()):
            raise ServiceError("only the league's organisers may do this")

    def add_organiser(self, league_id: int, who: str, email: str) -> None:
        self.organiser_only(league_id, who)
        self.store.execute("INSERT OR IGNORE INTO league_organisers (league_id, email) VALUES (?, ?)",
                           (league_id, email.strip()))
        self.store.audit(who, "league_organiser", detail={"league": league_id, "email": email})

    def set_signup(self, league_id: int, who: str, open_: bool) -> None:
        self.organiser_only(league_id, who)
        self.store.execute("UPDATE leagues SET signup = ? WHERE id = ?", ("open" if open_ else "closed", league_id))

    def add_season(self, league_id: int, who: str, name: str) -> int:
        self.organiser_only(league_id, who)
        name = " ".join((name or "").split())
        if not name:
            raise ServiceError("a season needs a name")
        return self.store.execute("INSERT INTO league_seasons (league_id, name, created) VALUES (?, ?, ?)",
                                  (league_id, name, self.store.now())).lastrowid

    # -- members -------------------------------------------------------------------

    def join(self, league_id: int, email: str, name: str = "", via: str = "web") -> str:
        """Sign ``email`` up to the league; returns what to tell them."""
        league = self.league(league_id)
        email = email.strip()
        if any(m["email"].lower() == email.lower() for m in league["members"]):
            return Said(say("You are already a member of %(league)s.", league=league['name']))
        if league["signup"] != "open":
            raise ServiceError("%(name)s is not taking new members", name=league['name'])
        record = reliability(self.store, email)
        if not meets(record, league["rules"].get("min_reliability")):
            raise ServiceError("%(name)s asks for a reliability of %(min_reliability)s%%; yours is %(percent)s%%",
                               name=league['name'], min_reliability=league['rules']['min_reliability'],
                               percent=record['percent'])
        with self.store.transaction():
            self.store.execute("INSERT INTO league_members (league_id, email, name, joined, via) VALUES (?, ?, ?, ?, ?)",
                               (league_id, email, " ".join(name.split())[:80], self.store.now(), via))
            self.store.audit(email, "league_join", detail={"league": league_id, "via": via})
        return Said(say("Welcome to %(league)s.", league=league['name']))

    def is_member(self, league_id: int, email: str | None) -> bool:
        return bool(email) and self.store.query_one(
            "SELECT 1 AS yes FROM league_members WHERE league_id = ? AND email = ?",
            (league_id, email.strip())) is not None

    def profile(self, email: str) -> dict:
        """A player's record: reliability, ratings, leagues."""
        from . import ratings

        return {"email": email, "reliability": reliability(self.store, email),
                "ratings": ratings.of(self.store, email),
                "leagues": self.store.query("SELECT l.id, l.name, m.name AS member FROM league_members m JOIN leagues l"
                                            " ON l.id = m.league_id WHERE m.email = ? ORDER BY l.id", (email,)),
                "tournament_games": self.tournament_games(email)}

    def tournament_games(self, email: str) -> list[dict]:
        """The tournament games ``email`` played to their end (a replaced player's stay his, a
        replacement's are his from the replacement on): tournament, round, game, his outcome."""
        from .standings import outcome

        rows = self.store.query(
            "SELECT p.*, t.name AS tournament FROM league_pairings p JOIN league_tournaments t ON t.id = p.tournament_id"
            " WHERE p.result IS NOT NULL AND p.second IS NOT NULL AND ? IN (p.first, p.second, p.third)"
            " ORDER BY p.tournament_id, p.round", (email,))
        for row in rows:
            me = 1 if row["first"].lower() == email.lower() else 2
            row["outcome"] = outcome(standings_result(row), me)
        return rows

    def excuse(self, game_id: int, side: str, who: str, why: str, count: int = 1) -> None:
        """A moderator excuses missed days of a seat: they no longer count against its player."""
        if not why.strip():
            raise ServiceError("say why the miss is excused")
        seat = self.service.seat(game_id, side)
        moderator = (self.service.info(game_id).get("moderator") or "").lower()
        admin = (getattr(self.service.config, "admin_email", "") or "").lower()
        organisers = {r["email"].lower() for r in self.store.query(
            "SELECT o.email FROM league_organisers o JOIN league_tournaments t ON t.league_id = o.league_id"
            " JOIN league_pairings p ON p.tournament_id = t.id WHERE p.game_id = ?", (game_id,))}
        if who.lower() not in {moderator, admin} | organisers:
            raise ServiceError("only the game's moderator (or its tournament's organisers) may excuse a miss")
        self.seat_rule(game_id, who)
        if count < 1 or count > seat["missed"]:
            raise ServiceError("the seat has missed %(missed)s days", missed=seat['missed'])
        with self.store.transaction():
            self.store.execute("INSERT INTO league_excused (game_id, side, count, who, why, at) VALUES (?, ?, ?, ?, ?, ?)",
                               (game_id, side, count, who, why, self.store.now()))
            self.store.audit(who, "excuse", game_id, why=why, detail={"side": side, "count": count})


def standings_result(row: dict):
    """A pairing row as standings.Result, its first player number 1 and the others 2."""
    from .standings import Result

    return Result(row["round"], 1, 2, row["result"], row["how"] or "played", row["game_id"])
