"""Napoleon 1815 played to its end through the real server (issue 11, "Done when").

- A three-player game by mail: ``pbem demo`` runs the server on loopback with its SMTP
  receiver, its outgoing mail through a relay to the seats' bots, who answer each report by
  SMTP with their keys (pbem/tools/demo.py). The battles are hybrid: deployments and the
  triggers the bots ask for are sub-turns by mail too.
- A two-player game on the web: the same server (waitress on a loopback port), each player
  signed in by a mailed link in a cookie session of its own, sending every turn's orders,
  deployments and round orders through the game page's form over HTTP, the Allied player
  sitting in both Allied seats. The live battle mode: every round a sub-turn. It is played through
  the auction and two battle rounds; the three-player game on the web below is played to its end.

Both begin with the auction of §13 (option bid = auction): each seat's sealed BID, by mail
in the first, on the web in the second.

- The live mode played to its end with every battle choice a player's (issue 29, §2): a two- and a
  three-player game by mail (``pbem demo``'s bots, tests/test_n1815_live_mail.py) and a three-player game on
  the web, in which each
  round sub-turn's orders give every block of the seat's army on a battle board its order.

The games played to their end finish, and the finished game's export verifies (``pbem verify``: the seed against its
commitment, every day, roll and result replayed).
"""

from __future__ import annotations

import http.cookiejar
import json
import re
import time
import urllib.parse
import urllib.request

import pytest

from pbem.cli import main
from pbem.core.verify import verify
from pbem.games import ruleset
from pbem.server.web.auth import make_login_token
from pbem.server.config import Config
from pbem.server.serve import Server
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.demo import run_demo

RULES = ruleset("napoleon1815")


def test_a_three_player_game_by_mail_to_its_end(tmp_path):
    out = tmp_path / "demo"
    summary = run_demo(out, seed=3, game="napoleon1815", options={"players": "3", "battle": "hybrid", "bid": "auction"},
                       day_seconds=120, timeout=1500, draw_maps=False)
    assert not summary.problems, summary.problems
    assert summary.winner in ("france", "allies") and summary.days > 40
    service = Service(Store(out / "instance" / "pbem.sqlite3"))
    info = service.info(summary.game_id)
    assert info["status"] == "finished"
    game = service.game(summary.game_id)
    assert any(d.before.pending for d in game.days)  # battles deployed by mail in sub-turns
    assert any("The auction (§13): France bids" in e.text for e in game.days[0].events)  # bids by mail (§13)
    export = service.export(summary.game_id)
    assert verify(export, RULES, game.scenario) == []
    seats = {p.name.split("-")[1] for p in out.glob("*.eml")}
    assert {"french", "anglo", "prussian"} <= seats  # every seat was mailed


class Browser:
    """A player's browser: a cookie session over real HTTP."""

    def __init__(self, base: str):
        self.base = base
        self.opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))

    def get(self, path: str) -> str:
        with self.opener.open(self.base + path, timeout=60) as response:
            return response.read().decode()

    def post(self, path: str, data: dict) -> str:
        body = urllib.parse.urlencode(data).encode()
        with self.opener.open(self.base + path, body, timeout=60) as response:
            return response.read().decode()


def csrf(page: str) -> str:
    return re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)


def signed_in(base: str, service, email: str) -> Browser:
    browser = Browser(base)
    token = make_login_token(service.store, email, service.now())
    browser.post(f"/login/{token}", {"csrf_token": csrf(browser.get(f"/login/{token}"))})
    assert email in browser.get("/")  # the session is the player's
    return browser


def test_a_two_player_live_game_on_the_web_through_the_auction_and_a_battles_rounds(tmp_path):
    """The Allied player in both Allied seats, on the web, through the auction (§13) and until two battle
    rounds' sub-turns have been answered on the game page (the three-player game below goes on to the end)."""
    config = Config(instance=str(tmp_path), web_port=0, smtp_port=0, smtp_host="127.0.0.1", tick_seconds=0.2,
                    demo=False, from_addr="pbem@web.invalid", domain="web.invalid", secret_key="web-test",
                    relay_host="127.0.0.1", relay_port=9)  # nothing listens: the mail stays queued
    server = Server(config)
    server.start()
    try:
        service = server.service
        service.rasterise = lambda svg: b"png"  # the maps' PNGs are not this test's matter
        service.drawing = None  # (nor drawn whole in the drawing workers)
        anna, fred = "anna@example.org", "fred@example.org"
        game_id, _ = service.create_game("On the web", {"french": fred, "anglo-dutch": anna, "prussian": anna},
                                         scenario="napoleon1815.toml", seed=3, game="napoleon1815",
                                         options={"players": "2", "battle": "live", "bid": "auction"},
                                         settings={"hours": 0, "seconds": 600, "reminders": [], "early": True})
        base = f"http://127.0.0.1:{config.web_port}"
        browsers = {fred: signed_in(base, service, fred), anna: signed_in(base, service, anna)}
        email = {"french": fred, "anglo-dutch": anna, "prussian": anna}
        bot = RULES.bots()["bot"]
        rounds = 0
        started = time.monotonic()
        while rounds < 2 and service.info(game_id)["status"] != "finished":
            assert time.monotonic() - started < 900, "two battle rounds were not reached in 15 minutes"
            game = service.game(game_id)
            day, turn = game.day, game.turn()
            rounds += turn.kind == "subturn" and "battle round" in turn.label
            for seat in turn.seats:
                browser = browsers[email[seat]]
                page = browser.get(f"/games/{game_id}?side={seat}")
                text = bot.orders(game.scenario, game.view(seat), 3) + "FINAL\n"
                answer = browser.post(f"/games/{game_id}/orders", {"csrf_token": csrf(page), "side": seat,
                                                                    "text": text, "action": "submit"})
                assert "NOT accepted" not in answer, answer[:2000]
            deadline = time.monotonic() + 120
            while service.game(game_id).day == day and service.info(game_id)["status"] != "finished":
                assert time.monotonic() < deadline, f"day {day} was not resolved"
                time.sleep(0.1)
        game = service.game(game_id)
        assert rounds == 2  # the live battles' rounds were sub-turns, answered on the web
        played = [r for d in game.days for r in d.decisions if r.decision.kind == "round"]
        assert played and {r.source for r in played} == {"orders"}  # every block's round order a player's
        assert game.days[0].before.auction == {} and game.days[1].before.bid["bids"] == {"france": 2, "allies": 3}
    finally:
        server.stop()


def test_a_three_player_live_game_on_the_web_to_its_end_with_every_block_ordered_each_round(tmp_path):
    """Three players, each at his own browser: in every round sub-turn each gives every block of his army
    on a battle board its order (the bot's round orders, round_orders.py), sent through the game page."""
    config = Config(instance=str(tmp_path), web_port=0, smtp_port=0, smtp_host="127.0.0.1", tick_seconds=0.2,
                    demo=False, from_addr="pbem@web.invalid", domain="web.invalid", secret_key="web-test-3",
                    relay_host="127.0.0.1", relay_port=9)
    server = Server(config)
    server.start()
    try:
        service = server.service
        service.rasterise = lambda svg: b"png"
        service.drawing = None
        email = {"french": "fred@example.org", "anglo-dutch": "anna@example.org", "prussian": "paul@example.org"}
        game_id, _ = service.create_game("Three on the web", email, scenario="napoleon1815.toml", seed=1,
                                         game="napoleon1815", options={"players": "3", "battle": "live"},
                                         settings={"hours": 0, "seconds": 600, "reminders": [], "early": True})
        base = f"http://127.0.0.1:{config.web_port}"
        browsers = {seat: signed_in(base, service, address) for seat, address in email.items()}
        bot = RULES.bots()["bot"]
        rounds, started = 0, time.monotonic()
        while service.info(game_id)["status"] != "finished":
            assert time.monotonic() - started < 900, "the game did not finish in 15 minutes"
            game = service.game(game_id)
            day = game.day
            for seat in game.turn().seats:
                page = browsers[seat].get(f"/games/{game_id}?side={seat}")
                text = bot.orders(game.scenario, game.view(seat), 1)
                rounds += "ENGAGE" in text or "HOLD" in text or "FIRE" in text or "SHIFT" in text
                answer = browsers[seat].post(f"/games/{game_id}/orders", {"csrf_token": csrf(page), "side": seat,
                                                                          "text": text + "FINAL\n", "action": "submit"})
                assert "NOT accepted" not in answer, answer[:2000]
            deadline = time.monotonic() + 120
            while service.game(game_id).day == day and service.info(game_id)["status"] != "finished":
                assert time.monotonic() < deadline, f"day {day} was not resolved"
                time.sleep(0.1)
        game = service.game(game_id)
        played = [r for d in game.days for r in d.decisions if r.decision.kind == "round"]
        assert game.over and rounds and played and {r.source for r in played} == {"orders"}
        assert {r.decision.side for r in played} == {"french", "anglo-dutch", "prussian"}
        assert "finished" in browsers["prussian"].get(f"/games/{game_id}?side=prussian")
        export = tmp_path / "export.json"
        export.write_text(json.dumps(service.export(game_id)), encoding="utf-8")
        assert main(["verify", str(export)]) == 0  # pbem verify: the scenario file's hash too
    finally:
        server.stop()
