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
import email.message
import email.policy
import re

import pytest

from pbem.core.game import Game
from pbem.games import ruleset
from pbem.server.config import Config
from pbem.server.serve import Server
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.harness import SERVER_ADDR, Relay, attached_json, send_mail, wait_until

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
    ("2", {"french": "BID PRUSSIAN 3", "anglo-dutch": "BID 1"},  # two players: an Allied army names the Allies
     {"anglo-dutch": "french", "prussian": "french", "french": "anglo-dutch"}, ("allies", 3)),
])
def test_the_auction_says_which_seats_change_hands(players, bids, moves, pays):
    game = auction(players, bids)
    result = game.days[0]
    assert RULES.seat_moves(SCENARIO, result.before, result.after) == moves
    assert (game.state.bid["side"], game.state.bid["steps"]) == pays
    assert not result.rolls


@pytest.mark.parametrize("named", ["PRUSSIAN", "ANGLO-DUTCH", "PRUSSIANS"])
def test_in_the_two_player_game_a_bid_naming_an_allied_army_is_read_and_echoed_as_for_the_allies(named):
    """docs/rules-notes.md (the auction, two players): the Allied player holds both armies, so the French
    player's bid for either is a bid to play the Allies; his acknowledgement says so in the words it reads."""
    game = Game(RULES, SCENARIO, 1, options={"players": "2", "bid": "auction"})
    orders = RULES.check_orders(game.scenario, game.state, "french", f"BID {named} 3\n")
    assert orders.echo().splitlines()[0] == "BID ALLIES 3"


def test_only_the_auction_turn_moves_players():
    game = auction("2", {"french": "BID ALLIES 3"})
    game.submit("anglo-dutch", "")
    game.advance()  # the Allied setup
    assert RULES.seat_moves(SCENARIO, game.days[1].before, game.days[1].after) == {}
    assert game.state.bid["moves"]  # the auction's result stays in the position, for the reports


# -- the service: keys, mails, computer players, history, rewind -----------------------------------


def mails(service, game_id, to: str, subject: str = "") -> list[dict]:
    return [m for m in service.store.mails("WHERE game_id = ? AND to_addr = ? ORDER BY id",
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


# -- end to end: the real server, real SMTP both ways on loopback ----------------------------------


TITLES = {seat.id: seat.title for seat in RULES.seats(SCENARIO, {})}
SEAT_OF = {title: seat for seat, title in TITLES.items()}


class Mailbox:
    """What the players read: every mail the server sent through the relay, by address, with the keys
    they carry (a welcome's, a "You now play" mail's) and the seats' views attached."""

    def __init__(self, relay: Relay):
        self.relay = relay

    def read(self, to: str) -> list[tuple[str, str, dict | None]]:
        out = []
        for delivery in self.relay.snapshot():
            if delivery.to == to:
                msg = email.message_from_bytes(delivery.raw, policy=email.policy.default)
                body = msg.get_body(("plain",)).get_content()
                out.append((" ".join(str(msg["Subject"]).split()), body, attached_json(delivery.raw)))
        return out

    def keys(self, to: str) -> dict[str, str]:
        """The player's keys as his mails gave them, the latest for each seat."""
        keys = {}
        for subject, body, _ in self.read(to):
            if "Welcome: you play" in subject:
                keys[SEAT_OF[subject.split("you play ", 1)[1]]] = re.search(r"this seat is: (\S+)", body)[1]
            for title, key in re.findall(r"Your secret key for (.+?) is: (\S+)", body):
                if title in SEAT_OF:
                    keys[SEAT_OF[title]] = key
        return keys

    def view(self, to: str, seat: str, day: int) -> dict | None:
        """The view of ``seat`` for ``day`` the player was mailed (his welcome's or a report's)."""
        found = [v for _, _, v in self.read(to) if v and v.get("seat") == seat and v.get("day") == day]
        return found[-1] if found else None


def orders_mail(sender: str, game_id: int, seat: str, key: str, text: str, final: bool = True) -> bytes:
    msg = email.message.EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, SERVER_ADDR, f"Orders {seat}"
    msg.set_content(f"GAME {game_id} SIDE {seat} KEY {key}\n{text.rstrip()}\n" + ("FINAL\n" if final else ""))
    return msg.as_bytes()


@pytest.fixture
def server(tmp_path):
    relay = Relay()
    config = Config(instance=str(tmp_path), web_port=0, smtp_port=0, smtp_host="127.0.0.1", tick_seconds=0.2,
                    demo=False, from_addr=SERVER_ADDR, domain="load.invalid", secret_key="seats-test",
                    relay_host="127.0.0.1", relay_port=relay.port)
    server = Server(config)
    server.start()
    server.service.rasterise = lambda svg: b"png"  # the maps' PNGs are not this test's matter
    server.service.drawing = None  # (nor drawn whole in the drawing workers)
    try:
        yield server, Mailbox(relay)
    finally:
        server.stop()
        relay.stop()


def play_by_mail(server, box: Mailbox, game_id: int, players: dict[str, str], bids: dict[str, str]) -> dict:
    """Each player answers by SMTP, with his latest keys, every view the server mails him that owes
    orders: the auction's bids (``bids``, by seat), then the random bot's orders, marked FINAL (the
    turn is resolved at once); until the first campaign turn's orders are on file (not FINAL: the
    game waits there). Returns who held which seat at each day, as mailed."""
    service, port = server.service, server.smtp_port
    bot = RULES.bots()["bot"]
    held = {}
    while True:
        game = service.game(game_id)
        day, owing = game.day, game.turn().seats
        if game.state.turn >= 2 and all(game.orders_text(day, s) for s in owing):
            return held
        for seat in owing:
            if game.orders_text(day, seat):
                continue
            holder = wait_until(lambda seat=seat: next((p for p in set(players.values()) if box.view(p, seat, day)),
                                                       None), 60, what=f"the view of {seat} for day {day}")
            held.setdefault(day, {})[seat] = holder
            view = box.view(holder, seat, day)
            text = bids.get(seat, "") if view["phase"] == "auction" else bot.orders(SCENARIO, view, 3)
            send_mail(port, orders_mail(holder, game_id, seat, box.keys(holder)[seat], text,
                                        final=game.state.turn < 2), holder)
            wait_until(lambda seat=seat: service.game(game_id).orders_text(day, seat) or service.game(game_id).day > day,
                       60, what=f"{seat}'s orders for day {day} on file")
        wait_until(lambda: service.game(game_id).day > day or service.game(game_id).state.turn >= 2
                   and all(service.game(game_id).orders_text(day, s) for s in owing), 120,
                   what=f"day {day} resolved")


def test_two_players_by_mail_the_french_player_wins_the_allies(server):
    server_, box = server
    service = server_.service
    game_id, _ = service.create_game("Auction by mail", {"french": FRED, "anglo-dutch": ANNA, "prussian": ANNA},
                                     scenario="napoleon1815.toml", seed=3, game="napoleon1815",
                                     options={"players": "2", "bid": "auction"}, settings=FAST)
    old = wait_until(lambda: box.keys(FRED), 60, what="Fred's welcome")
    held = play_by_mail(server_, box, game_id, {"french": FRED, "anglo-dutch": ANNA, "prussian": ANNA},
                        {"french": "BID ALLIES 3", "anglo-dutch": "BID 1", "prussian": "BID 0"})
    assert held[0] == {"french": FRED, "anglo-dutch": ANNA, "prussian": ANNA}  # the auction, as they joined
    assert held[1] == {"anglo-dutch": FRED, "prussian": FRED}  # the Allied setup: Fred, with his new keys
    assert held[2] == {"french": ANNA}  # the French setup: Anna
    game = service.game(game_id)
    assert game.state.turn == 2 and game.state.bid["side"] == "allies" and game.state.bid["steps"] == 3
    assert "The Allies set up 3 steps down" in " ".join(e.text for e in game.days[1].events)
    # each player was told his new side in his own mail; after it, only his new seats' views reach him
    subjects = [s for s, _, _ in box.read(FRED)]
    moved = next(i for i, s in enumerate(subjects) if "You now play" in s)
    assert "Anglo-Dutch army (Wellington) and Prussian army (Blücher)" in subjects[moved]
    assert {v["seat"] for _, _, v in box.read(FRED)[moved:] if v} == {"anglo-dutch", "prussian"}
    anna = box.read(ANNA)
    moved = next(i for i, (s, _, _) in enumerate(anna) if "You now play" in s)
    assert "France (Napoleon)" in anna[moved][0]
    assert {v["seat"] for _, _, v in anna[moved:] if v} == {"french"}
    # Fred's old French key no longer opens France: the mail is a stranger's, nothing recorded
    send_mail(server_.smtp_port, orders_mail(FRED, game_id, "french", old["french"], "DOCTRINE SQUARE NO"), FRED)
    wait_until(lambda: any(e["action"] == "wrong_key" for e in service.store.read_audit(game_id)), 30,
               what="the old key refused")
    assert "DOCTRINE SQUARE NO" not in service.game(game_id).orders_text(game.day, "french")


def test_three_players_by_mail_the_french_player_wins_the_prussians(server):
    server_, box = server
    service = server_.service
    seats = {"french": FRED, "anglo-dutch": ANNA, "prussian": PAUL}
    game_id, _ = service.create_game("Auction of three", seats, scenario="napoleon1815.toml", seed=3,
                                     game="napoleon1815", options={"players": "3", "bid": "auction"},
                                     settings=FAST, moderator="mod@example.org")
    anna_key = wait_until(lambda: box.keys(ANNA), 60, what="Anna's welcome")["anglo-dutch"]
    held = play_by_mail(server_, box, game_id, seats,
                        {"french": "BID PRUSSIAN 2", "anglo-dutch": "BID 1", "prussian": "BID 1"})
    assert held[1] == {"anglo-dutch": ANNA, "prussian": FRED} and held[2] == {"french": PAUL}
    assert box.keys(ANNA) == {"anglo-dutch": anna_key}  # the third player kept his seat and key
    assert not [s for s, _, _ in box.read(ANNA) if "You now play" in s]
    assert {v["seat"] for _, _, v in box.read(PAUL) if v and v["day"] >= 1} == {"french"}
    game = service.game(game_id)
    assert game.state.turn == 2 and game.state.bid["side"] == "allies" and game.state.bid["steps"] == 2
    assert [s for s, _, _ in box.read("mod@example.org") if "Players moved between seats" in s]
    history = service.store.query("SELECT side, email, last_day FROM seat_history WHERE game_id = ? ORDER BY side",
                                  (game_id,))
    assert [(h["side"], h["email"], h["last_day"]) for h in history] == [("french", FRED, 1), ("prussian", PAUL, 1)]


@pytest.mark.parametrize("players, seat, named", [("2", "french", "FRANCE|ALLIES"), ("3", "french", "ANGLO-DUTCH|PRUSSIAN"),
                                                  ("3", "prussian", "FRANCE")])
def test_the_auction_template_names_the_sides_a_seat_may_bid_for(players, seat, named):
    game = Game(RULES, SCENARIO, 1, options={"players": players, "bid": "auction"})
    template = RULES.orders_template(game, seat, deadline=None, game_label="x", game_id="1")
    assert f"# BID [{named}] <steps>" in template
    with_bid = template.replace("BID 0", f"BID {named.split('|')[-1]} 2")
    assert RULES.parse_orders(SCENARIO, game.state, seat, with_bid).bid == 2  # what it offers is taken


def test_a_seat_missed_before_the_move_is_told_to_the_player_who_missed_it(tmp_path):
    service, game_id, _ = two_player_game(tmp_path)
    service.submit(game_id, "french", "BID ALLIES 3\n")
    service.submit(game_id, "anglo-dutch", "BID 1\n")  # Anna sends nothing for the Prussian seat
    service.resolve_next(game_id)
    service.run_jobs()
    assert {s["side"]: s["email"] for s in service.store.seats(game_id)}["prussian"] == FRED
    (missed,) = [m for m in service.store.mails("WHERE game_id = ? AND kind = 'missed'",
                                                (game_id,))]
    assert missed["to_addr"] == ANNA and "Prussian army" in missed["body"]
    assert service.seat(game_id, "french")["missed"] == 1  # Anna's count went with her to France


def test_the_moderator_console_shows_the_move(tmp_path):
    from websupport import MOD, Site

    site = Site(tmp_path)
    service = site.service
    service.rasterise = lambda svg: b"png"
    game_id, _ = service.create_game("Auction", {"french": FRED, "anglo-dutch": ANNA, "prussian": ANNA},
                                     scenario="napoleon1815.toml", seed=5, game="napoleon1815",
                                     options={"players": "2", "bid": "auction"}, settings=FAST, moderator=MOD)
    service.submit(game_id, "french", "BID ALLIES 3\nFINAL\n")
    service.submit(game_id, "anglo-dutch", "FINAL\n")
    service.submit(game_id, "prussian", "FINAL\n")
    service.resolve_next(game_id)
    page = site.client(MOD).get(f"/games/{game_id}/moderate")
    assert page.status_code == 200
    seats = page.text[page.text.index('id="seats"'):]
    seats = seats[:seats.index("</table>")]
    assert re.search(r"France \(Napoleon\).*?" + re.escape(ANNA), seats, re.S)
    assert "seats moved" in page.text and f"{FRED} -&gt; {ANNA}" in page.text
