"""A league's Swiss tournament of twelve players run to its end through the real server
(``pbem serve`` in a subprocess): the organiser starts it, every game is played by mail by
bots that read their welcome (the seat's key) and each report (the view), answering with
orders marked FINAL. Around the games: one player never answers and forfeits every game by
the miss policy; one resigns his first game by mail (RESIGN); one is on a vacation scheduled
ahead when his first deadline passes, so his game waits for him (no day missed): he reads his
mail again when the server tells him his game waits, and plays on. The server's clock reads the results and pairs each next round;
the public page shows the crosstable.

Kept cheap without losing what it proves: twelve players and four rounds, but games of the
one-round scenario (two days: each seat moves once, and each report's map is the costly part),
a 12-second day, bots answering the moment a report arrives and FINAL resolving each day at
once: only the silent player's and the vacationer's games wait on the clock."""

from __future__ import annotations

import email
import email.policy
import re
import smtplib
import threading
import time
import urllib.request
from datetime import timedelta
from pathlib import Path

from pbem.games import ruleset
from pbem.server.leagues import ratings
from pbem.server.leagues.records import reliability
from pbem.server.leagues.service import Leagues
from pbem.server.leagues.standings import standings, tie_breaks_for
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.harness import (BOT_DOMAIN, Relay, Seat, ServerProcess, attached_json, bot_mail, orders_mail,
                                read_only, send_mail, wait_until)

SHORT = str((Path(__file__).parent / "fixtures" / "short.toml").resolve())  # one round: two days
ORG = "org@bots.invalid"
SILENT = "p12@bots.invalid"  # never answers: forfeits every game
RESIGNER = "p11@bots.invalid"  # resigns his round-1 game (board 5: p05 v p11) when he first moves
AWAY = "p10@bots.invalid"  # on vacation at the start; round 1 (board 4: p10 v p04) he moves first
AWAY_MINUTES = 10  # long enough for any load; he reads his mail again when told his game waits
SETTINGS = {"clock": "interval", "hours": 0, "minutes": 0, "seconds": 12, "reminders": [], "early": True,
            "miss_policy": "forfeit", "miss_limit": 1}


class TournamentBots:
    """Players behind the relay: a welcome gives them a seat and its key; every mail with a
    view in which their side moves is answered with the simple bot's orders, FINAL."""

    def __init__(self, port: int, silent: set[str], resigner: str = "", away: str = ""):
        self.port, self.silent = port, silent
        self.resigner, self.resigned = resigner, False
        self.away, self.back, self.unread = away, False, []  # away: reads nothing until his game waits
        self.rules = ruleset("marengo")
        self.scenario = self.rules.load_scenario(Path(SHORT))
        self.keys: dict[tuple[int, str], str] = {}
        self.answered: set[tuple[int, int, str]] = set()
        self.lock = threading.Lock()
        self.errors: list[str] = []

    def send(self, raw: bytes, sender: str) -> None:
        """Until the server answers 250, as a mail server retries (the same Message-ID each time)."""
        for _ in range(100):
            try:
                return send_mail(self.port, raw, sender, timeout=10)
            except (OSError, smtplib.SMTPException):
                time.sleep(0.2)
        self.errors.append(f"{sender}: the server never took the mail")

    def on_message(self, delivery, raw: bytes) -> None:
        if delivery.to == self.away and not self.back:
            if "on vacation" not in delivery.subject:
                self.unread.append((delivery, raw))  # his mail waits for him
                return
            self.back = True  # told that his game waits for him: he answers what came meanwhile
            for later in self.unread:
                self.on_message(*later)
        if delivery.to in self.silent or b'filename="view.json"' not in raw:
            return
        try:
            view = attached_json(raw)
            game_id = int(re.search(r"\[pbem (\d+)\]", delivery.subject).group(1))
            side = view["viewer"]
            if "Welcome" in delivery.subject:
                msg = email.message_from_bytes(raw, policy=email.policy.default)
                text = msg.get_body(("plain",)).get_content()
                self.keys[(game_id, side)] = re.search(r"Your secret key for this seat is: (\S+)", text).group(1)
            if view.get("over") or side not in view.get("to_move", ()):
                return
            with self.lock:
                if (game_id, view["day"], side) in self.answered:
                    return
                self.answered.add((game_id, view["day"], side))
                resign = delivery.to == self.resigner and not self.resigned
                self.resigned = self.resigned or resign
            seat = Seat(game_id, side, self.keys[(game_id, side)], delivery.to, game_id)
            message_id = f"<t.{game_id}.{view['day']}.{side}@{BOT_DOMAIN}>"
            if resign:
                raw = orders_mail(delivery.to, game_id, side, seat.key, view, "RESIGN", message_id)
            else:
                raw = bot_mail(self.rules, self.scenario, seat, view, message_id)
            threading.Thread(target=self.send, args=(raw, delivery.to), daemon=True).start()
        except Exception as exc:  # noted, and the test fails on it
            self.errors.append(f"{delivery.subject}: {type(exc).__name__}: {exc}")


def service_of(store: Store) -> Service:
    return Service(store)


def test_a_swiss_of_twelve_runs_to_its_end_through_the_server(tmp_path):
    players = [f"p{n:02}@bots.invalid" for n in range(1, 13)]
    relay = Relay(keep_raw=False)
    server = ServerProcess(tmp_path / "instance", relay.port, tick=0.2)
    bots = TournamentBots(server.smtp_port, {SILENT}, RESIGNER, AWAY)
    relay.on_message = bots.on_message
    store = Store(server.database)
    service = Service(store)
    leagues = Leagues(service)
    now = service.now()
    service.schedule_vacation(AWAY, now, now + timedelta(minutes=AWAY_MINUTES))  # scheduled ahead, from now
    league_id = leagues.create_league("Bots' club", ORG, rules={"scenario": SHORT, "settings": SETTINGS})
    for email_ in players:
        leagues.join(league_id, email_, email_.split("@")[0].upper())
    tid = leagues.create_tournament(league_id, ORG, "Bots' Swiss", "swiss")
    for email_ in players:
        leagues.enter(tid, email_)
    assert leagues.start(tid, ORG) == 4
    leagues.publish(tid, ORG)
    store.close()
    server.start()
    try:
        def finished():
            conn = read_only(server.database)
            try:
                return conn.execute("SELECT status FROM league_tournaments WHERE id = ?", (tid,)).fetchone()[0] \
                    == "finished"
            finally:
                conn.close()
        try:
            wait_until(finished, timeout=900, interval=1, what="the tournament's end")
        except TimeoutError:
            conn = read_only(server.database)
            state = conn.execute("SELECT round, status FROM league_tournaments").fetchall(), conn.execute(
                "SELECT status, COUNT(*) FROM outbox GROUP BY status").fetchall()
            conn.close()
            raise AssertionError(f"tournament, outbox: {state}\n{server.log_tail(60)}") from None
        page = urllib.request.urlopen(f"{server.url}/tournaments/{tid}", timeout=30).read().decode()
    finally:
        server.stop()
        relay.stop()
    assert bots.errors == [] and bots.back  # the vacationer was told his game waited for him
    store = Store(server.database)
    leagues = Leagues(service_of(store))
    t = leagues.tournament(tid)
    assert t["round"] == 4 and len(t["pairings"]) == 24
    pairs = [frozenset((p["first"], p["second"])) for p in t["pairings"]]
    assert len(set(pairs)) == 24  # nobody met twice
    for number in range(1, 5):
        assert sorted(e for p in t["pairings"] if p["round"] == number for e in (p["first"], p["second"])) \
            == sorted(players)
    silent_games = [p for p in t["pairings"] if SILENT in (p["first"], p["second"])]
    assert all(p["how"] == "forfeit" and p["result"] == ("second" if p["first"] == SILENT else "first")
               for p in silent_games)
    resigned = [p for p in t["pairings"] if p["how"] == "resigned"]
    assert [(p["round"], p["first"], p["second"], p["result"]) for p in resigned] \
        == [(1, "p05@bots.invalid", RESIGNER, "first")]  # the first seat won: the second resigned
    assert "resigns" in service_of(store).game(resigned[0]["game_id"]).ended["why"]
    played = [p for p in t["pairings"] if SILENT not in (p["first"], p["second"]) and p not in resigned]
    assert {p["how"] for p in played} == {"played"}
    # the vacationer's first game waited for him (the clock held its deadline), and he missed no day
    first = next(p for p in t["pairings"] if p["round"] == 1 and AWAY in (p["first"], p["second"]))
    assert (first["first"], first["second"]) == (AWAY, "p04@bots.invalid")
    assert [a["action"] for a in store.read_audit(first["game_id"])].count("vacation_hold") >= 1
    assert store.query("SELECT SUM(missed) AS n FROM seats WHERE email = ?", (AWAY,))[0]["n"] == 0
    assert reliability(store, AWAY)["missed"] == 0 and reliability(store, SILENT)["missed"] >= 4
    rows = leagues.table(tid)["rows"]
    assert sum(r.points for r in rows) == 24
    assert rows[-1].email == SILENT and rows[-1].points == 0
    # ratings: what the server stored is the whole history rated again, the resignation a win
    stored = {(r["email"], round(r["mu"], 9), round(r["sigma"], 9)) for r in ratings.table(store, "marengo")}
    ratings.recompute(service_of(store))
    assert {(r["email"], round(r["mu"], 9), round(r["sigma"], 9)) for r in ratings.table(store, "marengo")} == stored
    winner, loser = (next(r for r in rows if r.email == e) for e in ("p05@bots.invalid", RESIGNER))
    assert winner.cells[1]["outcome"] == "win" and loser.cells[1]["outcome"] == "loss"
    again = standings([e["number"] for e in t["entries"]], leagues.results(t), tie_breaks_for("swiss"))
    assert [r.number for r in again] == [r.number for r in rows]
    assert 'id="crosstable"' in page and "P01" in page and "f" in page
    rated = {r["email"] for r in ratings.table(store, "marengo")}
    assert rated == set(players)
    store.close()

