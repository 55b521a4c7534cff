"""Dice no seat can foresee, an audit that finds what it exists for, a log nobody changes unseen
(issue 28, items 3 and 10; docs/security.md, "Dice and the log").

- A game the server makes has a seed of 256 random bits, and every die is HMAC-SHA256 keyed by
  it (of its stream, turn and index): checked here against HMAC computed by the standard library.
- The commitment binds the seed, the salt and the dice version; ``pbem verify`` checks a keyed
  game's export; an old game (dice version 1) keeps its seed, its dice, its commitment.
- ``verify`` reports a roll recorded for another purpose, a replay with more days than the
  record, a changed salt (the faults of the issue that the suite let through).
- No page, API answer or mail a seat reads holds the seed or the salt before the game ends.
- A stored parse is checked under a key from the server's secret: one forged without it is not
  believed; a replay that still differs from the recorded days is refused and the moderator told.
"""

from __future__ import annotations

import copy
import hashlib
import hmac
import json
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from pbem.core.chance import Chance
from pbem.core.game import Game
from pbem.core.parsed import believed, stored
from pbem.core.rng import Rng
from pbem.core.verify import commitment_of, export_game, verify
from pbem.games import ruleset
from pbem.games.marengo.bot import bot_orders
from pbem.server.service import ServiceError
from pbem.server.store import _json as store_json
from test_platform import Race, exported, race_game
from websupport import MOD, SMALL, Site

ROOT = Path(__file__).resolve().parent.parent


def hmac_die(seed: int, name: str) -> int:
    """A die of the keyed derivation as the issue states it: the first 64 bits of HMAC-SHA256 keyed by
    the seed's 32 bytes, of the stream's name and the draw's index, on six faces (a draw past the
    largest multiple of 6 below 2**64 is thrown away: one in 2**62, never met here)."""
    draw = int.from_bytes(hmac.new(seed.to_bytes(32, "big"), f"{name}/0".encode(), hashlib.sha256).digest()[:8], "big")
    assert draw < (1 << 64) - 1 - ((1 << 64) - 1) % 6
    return 1 + draw % 6


def play_dba(site: Site, game_id: int, days: int = 99) -> None:
    """Each seat's bot orders, day after day, through the service (at most ``days`` days)."""
    service = site.service
    bot = ruleset("dba").bots()["bot"]
    for _ in range(days):
        game = service.game(game_id)
        if game.over:
            return
        for side in game.turn().seats:
            assert service.submit(game_id, side, bot.orders(game.scenario, game.view(side), 5)).ok
        service.resolve_next(game_id)
        service.run_jobs()


def dba_game(site: Site, seed: int | None = None) -> int:
    """A game of Napoleonic DBA (dice from the first day on), with the server's own seed unless ``seed``."""
    rules = ruleset("dba")
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    seats = {seat.id: f"{seat.id}@example.org" for seat in rules.seats(scenario, {})}
    game_id, _ = site.service.create_game("Keyed dice", seats, game="dba", moderator=MOD, settings={"hours": 48},
                                          seed=seed)
    return game_id


# -- item 3: the seed, the dice, the commitment -----------------------------------------------------


def test_a_game_the_server_makes_has_a_256_bit_seed_and_every_die_is_an_hmac_of_it(tmp_path):
    site = Site(tmp_path)
    game_id = dba_game(site)
    info = site.service.info(game_id)
    assert info["dice"] == 2 and len(info["seed_key"]) == 64 and int(info["seed_key"], 16) == info["seed"]
    assert info["seed"].bit_length() > 192  # 256 random bits (this fails once in 2**64 games)
    other = site.service.info(dba_game(site))["seed"]
    assert other != info["seed"]
    play_dba(site, game_id, days=3)
    game = site.service.game(game_id)
    rolled = [(d.day, r) for d in game.days for r in d.rolls]
    assert len(rolled) >= 5  # DBA's initiative and combat dice, as the attack saw them
    for day, roll in rolled:
        assert roll.value == hmac_die(info["seed"], f"turn {day}/roll {roll.n}"), (day, roll)
    keyed = Chance(info["seed"], dice=2)
    first = hmac.new(info["seed"].to_bytes(32, "big"), b"game/setup/0", hashlib.sha256).digest()[:8]
    assert keyed.stream("setup").next64() == int.from_bytes(first, "big")  # a setup draw is keyed too
    # a seat's computer player draws from a keyed stream of its own, not from the seed plus the day
    from pbem.server.service.bots import bot_seed

    assert bot_seed(game, info["seed"]) not in (info["seed"] + game.day, (info["seed"] + game.day) & (2**64 - 1))


def test_an_old_games_seed_dice_and_commitment_are_unchanged(tmp_path):
    """A game stored before the keyed dice (the migration gives it version 1) replays as it was
    resolved: the same dice (SHA-256 of "seed/turn t/roll n", SplitMix64), the same days, the same
    commitment SHA-256 of "seed:salt", and its export verifies."""
    site = Site(tmp_path)
    game_id = dba_game(site, seed=11)
    rules = ruleset("dba")
    play_dba(site, game_id, days=4)
    recorded = site.store.read_days(game_id)
    site.store.close()
    with sqlite3.connect(tmp_path / "pbem.sqlite3") as db:  # the database as the release before left it
        db.execute("ALTER TABLE games DROP COLUMN dice")
        db.execute("ALTER TABLE games DROP COLUMN seed_key")
        db.execute("DELETE FROM migrations WHERE name = 'issue_28_3_dice_keyed'")
    site = Site(tmp_path)
    info = site.service.info(game_id)
    assert info["dice"] == 1 and info["seed"] == 11 and info["seed_key"] is None
    game = site.service.game(game_id)
    assert [rules.digest(d.after) for d in game.days] == [row["digest"] for row in recorded]
    rolls = [(d.day, r) for d in game.days for r in d.rolls]
    assert len(rolls) >= 10
    for day, roll in rolls:
        draw = Rng(int.from_bytes(hashlib.sha256(f"11/turn {day}/roll {roll.n}".encode()).digest()[:8], "big"))
        assert roll.value == 1 + draw.below(roll.sides)
    assert [[e["data"] for e in row["events"] if e["kind"] == "roll"] for row in recorded] == \
        [[r.to_dict() for r in d.rolls] for d in game.days]
    assert site.service.commitment(game_id) == hashlib.sha256(f"11:{info['salt']}".encode()).hexdigest()
    assert Chance(11).stream("setup").next64() == Rng(11).next64()
    site.service.resign(game_id, game.seats()[0])
    export = site.service.export(game_id)
    assert export["seed"] == 11 and export["dice"] == 1
    assert verify(export, rules, site.service.game(game_id).scenario) == []


def test_the_commitment_binds_the_seed_the_salt_and_the_dice_version():
    assert commitment_of(123456, "pepper") == hashlib.sha256(b"123456:pepper").hexdigest()
    seed = 0x0123456789ABCDEF << 190
    text = f"{seed:064x}"
    assert commitment_of(seed, "pepper", 2) == hashlib.sha256(f"pbem-dice/2:{text}:pepper".encode()).hexdigest()
    assert commitment_of(seed, "salt", 2) != commitment_of(seed, "pepper", 2) != commitment_of(seed, "pepper", 1)


def test_verify_finds_a_rolls_purpose_a_day_left_out_of_the_record_and_a_changed_salt():
    game = race_game()
    export = exported(game)
    assert verify(export, Race(), None) == []

    purpose = copy.deepcopy(export)
    purpose["days"][2]["rolls"][1]["purpose"] = "blue stumbles on a 6"  # the same value, told for another reason
    assert verify(purpose, Race(), None) == [
        f"day 2 (turn 3): roll 2 recorded as {export['days'][2]['rolls'][1]['value']} (blue stumbles on a 6), "
        f"the replay rolls {export['days'][2]['rolls'][1]['value']} (blue stumbles on a 1)"]

    sides = copy.deepcopy(export)
    sides["days"][1]["rolls"][0]["sides"] = 20
    assert [p[:26] for p in verify(sides, Race(), None)] == ["day 1 (turn 2): roll 1 rec"]

    shorter = copy.deepcopy(export)
    shorter["days"].pop()  # a day played that the record does not hold
    assert verify(shorter, Race(), None) == [f"the replay resolves {len(game.days)} days, the record has "
                                             f"{len(game.days) - 1}"]

    salt = copy.deepcopy(export)
    salt["salt"] = "paprika"  # a seed shown with another salt than the one committed to
    assert verify(salt, Race(), None) == ["the seed and salt do not match the commitment published at the start"]


def test_a_keyed_games_export_verifies_and_its_seed_is_bound_to_its_version():
    seed = int.from_bytes(hashlib.sha256(b"a test's seed").digest(), "big")
    game = Game(Race(), None, seed, dice=2)
    while not game.over:
        for seat in game.turn().seats:
            game.submit(seat, f"RUN {1 + (game.day + len(seat)) % 3}")
        game.advance()
    export = json.loads(json.dumps(export_game(game, scenario="none", scenario_sha256="0" * 64, salt="pepper")))
    assert export["dice"] == 2 and export["seed"] == f"{seed:064x}"
    assert export["commitment"] == hashlib.sha256(f"pbem-dice/2:{seed:064x}:pepper".encode()).hexdigest()
    assert verify(export, Race(), None) == []
    assert [[r["value"] for r in d["rolls"]] for d in export["days"]] != \
        [[r["value"] for r in d["rolls"]] for d in exported(Game(Race(), None, seed % 2**31, game.log))["days"]]

    plain = copy.deepcopy(export)
    plain["dice"], plain["seed"] = 1, seed  # the same seed shown as the old derivation's
    assert "the seed and salt do not match the commitment published at the start" in verify(plain, Race(), None)
    other = copy.deepcopy(export)
    other["seed"] = f"{seed ^ 1:064x}"
    found = verify(other, Race(), None)
    assert found[0] == "the seed and salt do not match the commitment published at the start"
    assert any(": roll " in p for p in found)  # and the dice of another seed are others
    assert verify({**export, "seed": "not hex"}, Race(), None) == [
        "the seed 'not hex' is not a seed of dice version 2: a version 2 seed is 64 lower-case hex digits"]


def test_pbem_verify_checks_a_keyed_server_game_and_its_welcome_commitment(tmp_path):
    site = Site(tmp_path)
    game_id = dba_game(site)
    play_dba(site, game_id)
    assert site.service.game(game_id).over
    export = site.service.export(game_id)
    info = site.service.info(game_id)
    assert export["dice"] == 2 and export["seed"] == info["seed_key"] and export["salt"] == info["salt"]
    welcome = site.store.mails("WHERE kind = 'welcome'")
    assert welcome and all(export["commitment"] in row["body"] for row in welcome)
    good = tmp_path / "game.json"
    good.write_text(json.dumps(export))
    result = subprocess.run([sys.executable, "-m", "pbem.cli", "verify", str(good)], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 0 and "verified" in result.stdout, result.stdout + result.stderr
    day = next(d for d in export["days"] if d["rolls"])
    day["rolls"][0]["value"] = 7 - day["rolls"][0]["value"]
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(export))
    result = subprocess.run([sys.executable, "-m", "pbem.cli", "verify", str(bad)], capture_output=True, text=True,
                            cwd=ROOT)
    assert result.returncode == 1 and f"day {day['day']} " in result.stdout and ": roll 1 recorded as" in result.stdout


def test_no_page_api_answer_or_mail_a_seat_reads_holds_the_seed_or_the_salt_before_the_end(tmp_path):
    site = Site(tmp_path)
    game_id = dba_game(site)
    play_dba(site, game_id, days=3)
    info = site.service.info(game_id)
    secrets = [info["seed_key"], str(info["seed"]), info["salt"]]
    seats = {row["side"]: row["email"] for row in site.store.seats(game_id)}
    days = len(site.service.game(game_id).days)
    assert days == 3

    def seen(email: str, side: str | None) -> list[tuple[str, str]]:
        client = site.client(email)
        query = f"?side={side}" if side else ""
        urls = [f"/games/{game_id}{query}", f"/api/games/{game_id}{query}", f"/api/games/{game_id}/export.json"] + \
            [u for d in range(days) for u in (f"/games/{game_id}/reports/{d}{query}",
                                               f"/api/games/{game_id}/reports/{d}{query}")]
        out = [(url, client.get(url).get_data(as_text=True)) for url in urls]
        for row in site.store.mails("WHERE to_addr = ?", (email,)):
            out.append((row["subject"], f"{row['subject']}\n{row['body']}\n{row['html'] or ''}\n{row['attachments']}"))
        return out

    texts = [t for side, email in seats.items() for t in seen(email, side)] + seen(MOD, None)
    assert any(info["salt"] not in text and site.service.commitment(game_id) in text for _, text in texts)
    for where, text in texts:
        for secret in secrets:
            assert secret not in text, f"{secret} in {where}"
    site.service.resign(game_id, next(iter(seats)))
    page = site.client(MOD).get(f"/games/{game_id}").get_data(as_text=True)
    assert info["seed_key"] in page and info["salt"] in page  # once over, the page shows them
    export = site.client(MOD).get(f"/api/games/{game_id}/export.json").get_json()
    assert export["seed"] == info["seed_key"] and export["salt"] == info["salt"]


# -- item 10: the stored parse and the recorded days --------------------------------------------------


def played_marengo(site: Site, days: int = 4) -> int:
    game_id, _ = site.game()
    for _ in range(days):
        game = site.service.game(game_id)
        for side in game.turn().seats:
            assert site.service.submit(game_id, side, bot_orders(game.scenario, game.view(side), 7)).ok
        site.service.resolve_next(game_id)
    return game_id


def forge(tmp_path, site: Site, game_id: int, check) -> tuple[int, int]:
    """Write into the database, where the log's trigger lets a stored parse be written again, a stored
    parse saying an orders entry with moves ordered nothing, sealed by ``check(version, day, side, text,
    orders)``; returns the entry's place in the log and its day."""
    game = site.service.game(game_id)
    form = game.ruleset.orders_form(game.scenario)
    log = site.store.read_log(game_id)
    seq, entry = next((n, e) for n, e in enumerate(log) if e["kind"] == "orders" and 0 < e["day"] < game.day
                      and "MOVE" in e["text"] and "parsed" in e)
    nothing = type(form.loads(entry["parsed"]["orders"]))(side=entry["side"])
    parsed = stored(form, entry["day"], entry["side"], entry["text"], nothing)
    parsed["check"] = check(form.version, entry["day"], entry["side"], entry["text"], parsed["orders"])
    with sqlite3.connect(tmp_path / "pbem.sqlite3") as db:
        db.execute("UPDATE log SET entry = ? WHERE game_id = ? AND seq = ?",
                   (store_json({**entry, "parsed": parsed}), game_id, seq))
    return seq, entry["day"]


def unkeyed(version, day, side, text, orders) -> str:
    """The check as it was, a digest anyone can compute (issue 28, item 10)."""
    return hashlib.sha256("\0".join((version, str(day), side, text, orders)).encode()).hexdigest()[:32]


def keyed(key: bytes):
    return lambda *parts: hmac.new(key, "\0".join(map(str, parts)).encode(), hashlib.sha256).hexdigest()[:32]


FORGERS = {"the digest of today's main": unkeyed, "HMAC under an empty key": keyed(b""),
           "HMAC under another server's key": keyed(hmac.new(b"another secret", b"pbem stored parse",
                                                              hashlib.sha256).digest())}


@pytest.mark.parametrize("forger", FORGERS)
def test_a_stored_parse_forged_without_the_servers_key_changes_no_replay(tmp_path, forger):
    site = Site(tmp_path)
    game_id = played_marengo(site)
    recorded = [row["digest"] for row in site.store.read_days(game_id)]
    seq, _ = forge(tmp_path, site, game_id, FORGERS[forger])
    again = Site(tmp_path)  # the server started again: the game replayed from the database
    game = again.service.game(game_id)
    assert [game.ruleset.digest(d.after) for d in game.days] == recorded  # the forged parse was not believed
    assert not again.store.mails("WHERE kind = 'alert'")
    entry = again.store.read_log(game_id)[seq]  # its text was read, and its true parse stored again, keyed
    assert believed(game.orders_form, entry, again.service.parse_key).orders
    assert believed(game.orders_form, entry) is None  # a check anyone can compute is not this server's


@pytest.mark.parametrize("change", ["a stored parse forged with the server's key", "a day's record"])
def test_a_replay_that_differs_from_the_record_is_refused_and_the_moderator_told(tmp_path, change):
    site = Site(tmp_path)
    game_id = played_marengo(site)
    if change == "a day's record":
        day = 2
        with sqlite3.connect(tmp_path / "pbem.sqlite3") as db:
            db.execute("UPDATE days SET digest = 'forged' WHERE game_id = ? AND day = 2", (game_id,))
    else:
        _, day = forge(tmp_path, site, game_id, keyed(site.service.parse_key))  # a leaked secret: the check
        # holds, and the replay is another
    again = Site(tmp_path)
    again.store.set_clock(game_id, deadline="2026-01-01T00:00:00Z")  # due: the clock's tick replays it first
    assert again.service.tick() == []  # the game refused, the others go on (its savepoint rolled back)...
    assert [row["to_addr"] for row in again.store.mails("WHERE kind = 'alert'")] == [MOD]  # ...and its moderator told
    with pytest.raises(ServiceError, match=f"game {game_id} cannot be loaded: replaying its log gives day {day} "
                                           "another position than the one recorded; its moderator has been told"):
        again.service.game(game_id)
    page = again.client(MOD).get(f"/games/{game_id}")
    assert page.status_code != 500 and f"game {game_id} cannot be loaded" in page.get_data(as_text=True)
    with pytest.raises(ServiceError):
        again.service.game(game_id)  # asked again: refused again, and told once
    told = again.store.mails("WHERE kind = 'alert'")
    assert [row["to_addr"] for row in told] == [MOD] and f"day {day} " in told[0]["body"]
    assert [a["action"] for a in again.store.read_audit(game_id)].count("replay-differs") == 1


def test_pbem_store_parses_replays_a_keyed_game_with_its_dice_and_stores_parses_the_server_believes(tmp_path):
    from pbem.tools.storeparses import store_parses

    site = Site(tmp_path)
    rules = ruleset("napoleon1815")
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    seats = {seat.id: f"{seat.id}@example.org" for seat in rules.seats(scenario, {})}
    game_id, _ = site.service.create_game("Keyed", seats, game="napoleon1815", moderator=MOD, settings={"hours": 48})
    for _ in range(8):
        game = site.service.game(game_id)
        for side in game.turn().seats:
            assert site.service.submit(game_id, side, rules.bots()["bot"].orders(game.scenario, game.view(side), 2)).ok
        site.service.resolve_next(game_id)
    assert sum(len(d.rolls) for d in site.service.game(game_id).days) >= 10
    recorded = [row["digest"] for row in site.store.read_days(game_id)]
    with site.store.transaction():  # every stored parse an earlier release's (as after an upgrade)
        for row in site.store.query("SELECT seq, entry FROM log WHERE game_id = ?", (game_id,)):
            entry = json.loads(row["entry"])
            if "parsed" in entry:
                entry["parsed"]["version"] = "0" * 32
                site.store.db.execute("UPDATE log SET entry = ? WHERE game_id = ? AND seq = ?",
                                      (store_json(entry), game_id, row["seq"]))
    again = Site(tmp_path)
    assert store_parses(again.service).entries.get(game_id, 0) >= 8
    game = again.service.game(game_id)  # replayed as the server replays it: not refused
    assert [rules.digest(d.after) for d in game.days] == recorded and not game.texts_read
    form = game.orders_form
    kept = [e for e in again.store.read_log(game_id) if e["kind"] == "orders" and e["text"] and e["day"] < game.day]
    assert kept and all(believed(form, e, again.service.parse_key) is not None for e in kept)


def test_pbem_measure_seed_search_prints_what_a_search_costs_and_times_the_real_derivation():
    """The figures are printed, not asserted (they are this machine's); what is checked is that the die
    timed is the game's own, and that the printout says what a 2**40 search and a whole one come to."""
    from pbem.tools.seedsearch import first_die

    for dice, bits in ((1, 31), (2, 256)):
        for n in range(50):
            seed = int.from_bytes(hashlib.sha256(f"{dice}/{n}".encode()).digest(), "big") >> (256 - bits)
            assert first_die(seed, dice) == Chance(seed, 3, dice=dice).roll("initiative")
    result = subprocess.run([sys.executable, "-m", "pbem.cli", "measure", "seed-search", "--seconds", "0.05"],
                            capture_output=True, text=True, cwd=ROOT)
    assert result.returncode == 0, result.stderr
    print(result.stdout)
    lines = result.stdout.splitlines()
    assert any(line.startswith("dice version 1 ") and "all 2^31 seeds: " in line for line in lines)
    assert any(line.startswith("2^40 candidates: ") and "2^-216" in line for line in lines)
    assert any(line.startswith("all 2^256 seeds: ") and "hopeless" in line for line in lines)
