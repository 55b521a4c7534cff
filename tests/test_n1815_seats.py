"""Napoleon 1815 §13: the auction's winner plays the side he bid for, so the server moves the
players between the seats before the setup (the ruleset's optional ``seat_moves``; the
service's seats.py). Keys re-issued and mailed, each player told his new side, computer
players moving with their seat's player, the seat history, a moderator's rewind.

The end-to-end tests run the real server on loopback: its SMTP receiver takes the players'
orders by smtplib, its outgoing mail goes by SMTP to a relay on loopback where each player
reads his keys and reports; a two-player and a three-player game whose auction moves the
players, through to the first campaign turn.
"""

from __future__ import annotations

import email
import email.policy
import re
import time

import pytest

from pbem.core.game import Game
from pbem.games import ruleset
from pbem.server.config import Config
from pbem.server.serve import Server
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.harness import SERVER_ADDR, Relay, attached_json, send_mail

RULES = ruleset("napoleon1815")
SCENARIO = RULES.load_scenario(next(iter(RULES.scenarios().values())))
FRED, ANNA, PAUL = "fred@example.org", "anna@example.org", "paul@example.org"
FAST = {"hours": 0, "seconds": 600, "reminders": [], "early": True}


# -- the engine: what the auction hands the server ------------------------------------------------


def auction(players: str, bids: dict[str, str], seed: int = 1) -> Game:
    game = Game(RULES, SCENARIO, seed, options={"players": players, "bid": "auction"})
    for seat, text in bids.items():
        game.submit(seat, text)
    game.advance()
    return game


@pytest.mark.parametrize("players, bids, moves, pays", [
    ("2", {"french": "BID ALLIES 3", "anglo-dutch": "BID 1"},
     {"anglo-dutch": "french", "prussian": "french", "french": "anglo-dutch"}, ("allies", 3)),
    ("2", {"french": "BID 1", "prussian": "BID FRANCE 2"},
     {"french": "anglo-dutch", "anglo-dutch": "french", "prussian": "french"}, ("france", 2)),
    ("3", {"french": "BID PRUSSIAN 2", "prussian": "BID 1"}, {"prussian": "french", "french": "prussian"},
     ("allies", 2)),
    ("3", {"french": "BID 1", "anglo-dutch": "BID FRANCE 4"}, {"french": "anglo-dutch", "anglo-dutch": "french"},
     ("france", 4)),
    ("3", {"french": "BID 3", "anglo-dutch": "BID FRANCE 2"}, {}, ("france", 3)),  # the French bid is higher
    ("2", {"french": "BID 2", "anglo-dutch": "BID 3"}, {}, ("allies", 3)),  # each for his own side
    ("2", {"french": "BID ALLIES 0", "anglo-dutch": "BID FRANCE 0"},  # both want the other side: no coin
     {"anglo-dutch": "french", "prussian": "french", "french": "anglo-dutch"}, ("allies", 0)),
])
def test_the_auction_says_which_seats_change_hands(players, bids, moves, pays):
    game = auction(players, bids)
    result = game.days[0]
    assert RULES.seat_moves(SCENARIO, result.before, result.after) == moves
    assert (game.state.bid["side"], game.state.bid["steps"]) == pays
    assert not result.rolls


def test_only_the_auction_turn_moves_players():
    game = auction("2", {"french": "BID ALLIES 3"})
    game.submit("anglo-dutch", "")
    game.advance()  # the Allied setup
    assert RULES.seat_moves(SCENARIO, game.days[1].before, game.days[1].after) == {}
    assert game.state.bid["moves"]  # the auction's result stays in the position, for the reports


# -- the service: keys, mails, computer players, history, rewind -----------------------------------


def mails(service, game_id, to: str, subject: str = "") -> list[dict]:
    return [m for m in service.store.query("SELECT * FROM outbox WHERE game_id = ? AND to_addr = ? ORDER BY id",
                                           (game_id, to)) if subject in m["subject"]]


def two_player_game(tmp_path, moderator: str | None = None):
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    service.rasterise = lambda svg: b"png"
    game_id, keys = service.create_game("Auction", {"french": FRED, "anglo-dutch": ANNA, "prussian": ANNA},
                                        scenario="napoleon1815.toml", seed=5, game="napoleon1815",
                                        options={"players": "2", "bid": "auction"}, settings=FAST,
                                        moderator=moderator)
    return service, game_id, keys


def test_the_winner_of_the_auction_takes_the_other_side_with_new_keys(tmp_path):
    service, game_id, keys = two_player_game(tmp_path, moderator="mod@example.org")
    assert service.submit(game_id, "french", "BID ALLIES 3\nFINAL\n").ok
    assert service.submit(game_id, "anglo-dutch", "BID 1\nFINAL\n").ok
    assert service.submit(game_id, "prussian", "FINAL\n").ok
    assert service.resolve_next(game_id) == 0
    seats = {s["side"]: s["email"] for s in service.store.seats(game_id)}
    assert seats == {"french": ANNA, "anglo-dutch": FRED, "prussian": FRED}
    for side, key in keys.items():  # every old key stops working
        assert not service.check_key(game_id, side, key)
    told = mails(service, game_id, FRED, "You now play")
    assert len(told) == 1 and "Anglo-Dutch army (Wellington) and Prussian army (Blücher)" in told[0]["subject"]
    new = dict(re.findall(r"Your secret key for (.+?) is: (\S+)", told[0]["body"]))
    assert set(new) == {"Anglo-Dutch army (Wellington)", "Prussian army (Blücher)"}
    assert service.check_key(game_id, "anglo-dutch", new["Anglo-Dutch army (Wellington)"])
    assert not service.check_key(game_id, "french", new["Anglo-Dutch army (Wellington)"])
    (anna,) = mails(service, game_id, ANNA, "You now play")
    assert "France (Napoleon)" in anna["subject"] and "Your secret key for France (Napoleon) is:" in anna["body"]
    assert "Anglo-Dutch" not in anna["subject"]
    # the seat history: who held which seat until when
    history = service.store.query("SELECT side, email, first_day, last_day, why FROM seat_history"
                                  " WHERE game_id = ? ORDER BY side", (game_id,))
    assert [(h["side"], h["email"], h["first_day"], h["last_day"], h["why"]) for h in history] == [
        ("anglo-dutch", ANNA, 0, 1, "exchanged"), ("french", FRED, 0, 1, "exchanged"),
        ("prussian", ANNA, 0, 1, "exchanged")]
    # the moderator: an audit entry on the console, and a mail
    (entry,) = [e for e in service.store.read_audit(game_id) if e["action"] == "seats_moved"]
    assert entry["detail"]["seats"]["french"] == f"{FRED} -> {ANNA}"
    (told_mod,) = mails(service, game_id, "mod@example.org", "Players moved")
    assert f"France (Napoleon): {ANNA}" in told_mod["body"]
    # the reports of the auction go to the seats' new players: Fred reads the Allied setup's template
    service.run_jobs()
    fred_reports = [m for m in mails(service, game_id, FRED) if m["kind"] == "report"]
    assert fred_reports and all("SIDE french" not in m["body"] for m in fred_reports)
    assert any("SIDE anglo-dutch" in m["body"] for m in fred_reports)
    assert service.game(game_id).turn().label == "Allied setup"
    # reliability: an exchange is not a replacement
    from pbem.server.leagues.records import reliability
    assert reliability(service.store, FRED)["replaced"] == 0


def test_a_computer_player_moves_with_its_seat(tmp_path):
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    service.rasterise = lambda svg: b"png"
    game_id, keys = service.create_game("Against the marshal", {"french": FRED, "anglo-dutch": ANNA},
                                        scenario="napoleon1815.toml", seed=5, game="napoleon1815",
                                        options={"players": "3", "bid": "auction"}, settings=FAST,
                                        bots={"prussian": "marshal"})
    assert service.orders_on_file(game_id, "prussian").startswith("BID 0")  # the marshal bids at once
    assert service.submit(game_id, "french", "BID PRUSSIAN 2\nFINAL\n").ok
    assert service.submit(game_id, "anglo-dutch", "FINAL\n").ok
    assert service.resolve_next(game_id) == 0
    assert service.bots_of(game_id) == {"french": "marshal"}
    seats = {s["side"]: s["email"] for s in service.store.seats(game_id)}
    assert seats == {"french": None, "anglo-dutch": ANNA, "prussian": FRED}
    assert not mails(service, game_id, ANNA, "You now play")  # the third player keeps his seat and key
    assert service.check_key(game_id, "anglo-dutch", keys["anglo-dutch"])
    history = service.store.query("SELECT side, email FROM seat_history WHERE game_id = ?", (game_id,))
    assert sorted((h["side"], h["email"]) for h in history) == [("french", FRED), ("prussian", "computer:marshal")]
    service.run_jobs()  # the Allied setup begins; then the marshal sets up France by itself
    game = service.game(game_id)
    assert game.turn().label == "Allied setup"
    assert service.submit(game_id, "prussian", "FINAL\n").ok and service.submit(game_id, "anglo-dutch", "FINAL\n").ok
    assert service.resolve_next(game_id) == 1
    service.run_jobs()
    assert service.game(game_id).turn().label == "French setup"
    assert service.orders_on_file(game_id, "french").rstrip().endswith("FINAL")  # the marshal, as France


def test_a_rewind_that_replays_the_auction_alike_keeps_the_players_and_their_keys(tmp_path):
    service, game_id, _ = two_player_game(tmp_path)
    service.submit(game_id, "french", "BID ALLIES 3\nFINAL\n")
    service.submit(game_id, "anglo-dutch", "FINAL\n")
    service.submit(game_id, "prussian", "FINAL\n")
    service.resolve_next(game_id)
    (told,) = mails(service, game_id, FRED, "You now play")
    key = re.search(r"for Prussian army \(Blücher\) is: (\S+)", told["body"])[1]
    service.moderate(game_id, "mod@example.org", "rewind", "a test of the rewind", day=0)
    assert {s["side"]: s["email"] for s in service.store.seats(game_id)}["french"] == ANNA
    assert service.check_key(game_id, "prussian", key)
    assert len(mails(service, game_id, FRED, "You now play")) == 1


def test_a_rewind_that_replays_the_auction_otherwise_gives_the_seats_back(tmp_path):
    service, game_id, keys = two_player_game(tmp_path)
    service.submit(game_id, "french", "BID ALLIES 3\nFINAL\n")
    service.submit(game_id, "anglo-dutch", "FINAL\n")
    service.submit(game_id, "prussian", "FINAL\n")
    service.resolve_next(game_id)
    assert {s["side"]: s["email"] for s in service.store.seats(game_id)}["french"] == ANNA
    # the moderator amends the French bid of the auction: France bids 3 for France, nobody moves
    service.moderate(game_id, "mod@example.org", "amend_orders", "the player meant his own side",
                     day=0, side="french", text="BID 3\n")
    seats = {s["side"]: s["email"] for s in service.store.seats(game_id)}
    assert seats == {"french": FRED, "anglo-dutch": ANNA, "prussian": ANNA}
    assert service.game(game_id).state.bid == {"side": "france", "steps": 3, "bids": {"france": 3, "allies": 0}}
    back = mails(service, game_id, FRED, "You now play France")
    assert back and "a moderator's ruling" in back[-1]["body"]
    new = re.search(r"is: (\S+)", back[-1]["body"])[1]
    assert service.check_key(game_id, "french", new) and not service.check_key(game_id, "french", keys["french"])
    undone = service.store.query("SELECT undone FROM seat_history WHERE game_id = ?", (game_id,))
    assert undone and all(h["undone"] for h in undone)
    assert [e["action"] for e in service.store.read_audit(game_id) if e["action"].startswith("seats_moved")] == [
        "seats_moved", "seats_moved_back"]
