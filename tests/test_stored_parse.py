"""The stored parse (issue 15, pbem.core.parsed): an orders entry keeps what its text was read into, and a
replay believes it only when it is this parser's, intact, and no later entry changed an earlier day. The
days replayed either way are the same; no timing is asserted (`pbem bench` prints the replay both ways)."""

from __future__ import annotations

import json
import sys
from dataclasses import dataclass, replace
from pathlib import Path

import pytest
from conftest import CountingParses, first_setting

from pbem.core.game import Game, with_stored_parses
from pbem.core.parsed import Codec, believed, canonical, check_of, parser_version, stored, without_parses
from pbem.core.verify import export_game, verify
from pbem.games import ruleset
from pbem.games.simmons.ruleset import FAMILY_PARSER_FILES
from pbem.tools.selfplay import play, play_game

GAMES = ("marengo", "triomphe", "napoleon1815")
PBEM = Path(__import__("pbem").__file__).parent


def days_of(game):
    return [(d.day, d.seats, game.ruleset.digest(d.after)) for d in game.days]


def replay(rules, scenario, seed, log, key=b""):
    counting = CountingParses(rules)
    game = Game(counting, scenario, seed, log, parse_key=key)
    return game, counting.parses


_PLAYED: dict = {}


def played(name, seed):
    """A self-play game and its log with every stored parse (kept for the module's tests)."""
    if (name, seed) not in _PLAYED:
        rules, scenario = first_setting(name)
        game = play(rules, scenario, seed, random_decisions=True)  # answers in the log too
        _PLAYED[name, seed] = (rules, scenario, game, with_stored_parses(game))
    return _PLAYED[name, seed]


def orders_entries(log):
    return [n for n, entry in enumerate(log) if entry["kind"] == "orders"]


@pytest.mark.parametrize("name", GAMES)
@pytest.mark.parametrize("seed", [1, 2, 3])
def test_a_game_replayed_from_its_stored_parses_has_the_days_of_one_replayed_from_its_texts(name, seed):
    rules, scenario, game, log = played(name, seed)
    kept = [entry for entry in log if "parsed" in entry]
    assert len(kept) == len(orders_entries(log)) > 10  # every orders text of a self-play game parses
    texts, parses = replay(rules, scenario, seed, game.log)
    stored_, none = replay(rules, scenario, seed, log)
    assert days_of(stored_) == days_of(texts) == days_of(game) and len(game.days) > 5
    assert parses >= len(game.days) and none == 0  # the stored parse is used: no text read again
    for day in stored_.days:  # what a day says, word for word
        again = texts.days[day.day]
        assert [e.to_dict() for e in day.events] == [e.to_dict() for e in again.events]
    for entry in kept:  # each stored parse reads back as the orders its text is read into
        orders = believed(stored_.orders_form, entry)
        read = rules.parse_orders(scenario, game.state_before(entry["day"]), entry["side"], entry["text"])
        assert orders == read and repr(orders) == repr(read)
        assert stored_.orders_form.dumps(orders) == entry["parsed"]["orders"]


def test_a_ruleset_without_the_json_form_reads_its_texts_as_before():
    rules, scenario = first_setting("dba")
    assert getattr(rules, "orders_form", None) is None
    game = play_game(rules, scenario, 1, {seat: next(iter(rules.bots().values())) for seat in
                                          Game(rules, scenario, 1).seats()}, days=4)
    log = with_stored_parses(game)
    assert not any("parsed" in entry for entry in log)
    again, parses = replay(rules, scenario, 1, log)
    assert days_of(again) == days_of(game) and parses > 0


@pytest.mark.parametrize("name", GAMES)
def test_a_stored_parse_of_another_version_is_read_again_from_its_text(name):
    rules, scenario, game, log = played(name, 1)
    log = [dict(entry) for entry in log]
    stale = orders_entries(log)[3:7]
    for n in stale:
        log[n]["parsed"] = dict(log[n]["parsed"], version="0" * 32)
    again, parses = replay(rules, scenario, 1, log)
    assert days_of(again) == days_of(game) and parses == len(stale)


def test_the_version_changes_with_the_parser_files_the_order_classes_and_the_scenario(tmp_path):
    rules, scenario = first_setting("marengo")
    source = tmp_path / "parse.py"
    source.write_text("x = 1\n")
    types = list(rules.CODEC.types.values())
    codec = Codec(*types, files=[source])
    first = parser_version(scenario, codec)
    assert parser_version(scenario, Codec(*types, files=[source])) == first  # the same code and scenario
    source.write_text("x = 2\n")
    assert parser_version(scenario, codec) == first  # the sources as they were when the code was loaded...
    assert parser_version(scenario, Codec(*types, files=[source])) != first  # ...and as they are now
    source.write_text("x = 1\n")
    assert parser_version(scenario, Codec(*types[:-1], files=[source])) != first
    renamed = rules.load_scenario(next(iter(rules.scenarios().values())))
    key, locale = next(iter(renamed.board.locales.items()))
    renamed.board.locales[key] = replace(locale, name=locale.name + " Vecchia")
    assert parser_version(renamed, codec) != first
    # the form a ruleset gives is computed once per scenario and names every parser file that exists
    assert rules.orders_form(scenario) is rules.orders_form(scenario)
    for name in GAMES:
        assert all(Path(f).exists() for f in ruleset(name).PARSER_FILES)


def test_the_scenario_is_written_the_same_in_every_process_whatever_the_hash_seed():
    import subprocess

    script = ("from pbem.games import ruleset; from pbem.core.parsed import canonical; import hashlib\n"
              "for n in ('marengo', 'triomphe', 'napoleon1815'):\n"
              "    r = ruleset(n); s = r.load_scenario(next(iter(r.scenarios().values())))\n"
              "    print(hashlib.sha256(canonical(s).encode()).hexdigest(), r.orders_form(s).version)\n")
    runs = {subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": str(seed), "PATH": ""}).stdout for seed in (1, 2)}
    assert len(runs) == 1 and len(next(iter(runs)).split()) == 6
    assert "object at 0x" not in canonical(object()) and canonical({3, 1, 2}) == canonical({2, 3, 1})


@pytest.mark.parametrize("name", GAMES)
def test_entries_before_an_answer_or_orders_for_an_earlier_day_or_a_rewind_are_read_again(name):
    rules, scenario, game, log = played(name, 2)
    orders = orders_entries(log)
    middle = orders[len(orders) // 2]
    day = log[middle]["day"]
    earlier = next(e for e in reversed(log[:middle]) if e["kind"] == "orders" and e["day"] < day - 1)
    changes = [dict(earlier),  # orders for an earlier day again (a moderator's amendment)
               {"kind": "rewind", "day": earlier["day"] + 1}]  # days from there undone, resolved again
    answers = [e for e in log[:middle] if e["kind"] == "answer" and e["day"] < day - 1]
    if name != "napoleon1815":
        assert answers  # the random decisions were logged
    if answers:  # an answer for an earlier day again (a moderator's ruling)
        changes.append(dict(answers[-1]))
    for change in changes:
        changed = log[: middle + 1] + [change] + log[middle + 1:]
        again, parses = replay(rules, scenario, 2, changed)
        assert days_of(again) == days_of(game)
        # read again: each entry that counts, logged before the change, for a day after the change's
        # (the position it was read against may be another); the change's own day keeps its position
        stale = [n for n in orders if n <= middle and log[n]["day"] > change["day"] and _counts(log, n)]
        assert stale and parses == len(stale), (change, parses, len(stale))


def _counts(log, n):
    """Whether orders entry ``n`` is the one that counts for its day and side (the last)."""
    entry = log[n]
    return not any(e["kind"] == "orders" and e["day"] == entry["day"] and e["side"] == entry["side"]
                   for e in log[n + 1:])


@pytest.mark.parametrize("name", GAMES)
def test_a_damaged_stored_parse_is_read_again_from_its_text_never_believed_nor_failing(name):
    rules, scenario, game, log = played(name, 3)
    form = rules.orders_form(scenario)
    orders = [n for n in orders_entries(log) if _counts(log, n) and log[n]["text"]]  # each read on its day
    first, second = log[orders[2]], log[orders[5]]

    def sealed(entry, data):  # version and check made to match: only the JSON itself is wrong
        return {"version": form.version, "orders": data,
                "check": check_of(b"", form.version, entry["day"], entry["side"], entry["text"], data)}

    damages = [
        dict(first["parsed"], orders=first["parsed"]["orders"][:-9]),  # cut short: the check fails
        dict(first["parsed"], orders=first["parsed"]["orders"].replace('"', "'", 4)),
        dict(second["parsed"]),  # another entry's stored parse: bound to that entry's day and text
        sealed(first, "{not json"),
        sealed(first, '{"c": "NoSuchOrder"}'),
        sealed(first, '{"c": "Orders", "nonsense": 1}'),
        sealed(first, "[1, 2"),
        sealed(first, "[" * 100_000 + "]" * 100_000),  # past the recursion limit
        sealed(first, '{"c": "Orders"}'),  # a class missing a field without a default
        "not a dict",
        {"version": form.version},
    ]
    for damage in damages:
        changed = [dict(e) for e in log]
        changed[orders[2]]["parsed"] = damage
        again, parses = replay(rules, scenario, 3, changed)
        assert days_of(again) == days_of(game) and parses == 1, damage


def test_verify_reads_every_text_again_whatever_the_export_carries():
    rules, scenario, game, log = played("marengo", 1)
    form = rules.orders_form(scenario)
    lying = [dict(e) for e in log]
    for n in orders_entries(lying)[:6]:  # stored parses that say nothing was ordered, sealed as if true
        entry = lying[n]
        nothing = type(believed(form, entry))(side=entry["side"])
        lying[n]["parsed"] = stored(form, entry["day"], entry["side"], entry["text"], nothing)
    believing = Game(rules, scenario, 1, lying)
    assert days_of(believing) != days_of(game)  # a replay believes a sealed stored parse...
    export = export_game(game, scenario="marengo.toml", scenario_sha256="x", salt="s")
    assert not any("parsed" in entry for entry in export["log"])  # an export is the log as written
    assert export["log"] == without_parses(log) == [{k: v for k, v in e.items()} for e in game.log]
    export["log"] = lying  # ...but verify reads the texts, whatever the export carries
    assert verify(export, rules, scenario) == []
    export["days"][5]["digest"] = "0" * 16
    assert len(verify(export, rules, scenario)) == 1


@dataclass
class Probe:
    flag: object = False
    count: object = 0
    names: tuple = ()


def test_the_codec_keeps_tuples_lists_dicts_named_tuples_and_refuses_what_it_does_not_know():
    from pbem.core.orders import Header, Token

    codec = Codec(Header, Token)
    header = Header(game="7", key="***", line=1, extra={"x": "y"}, tokens=[Token("GAME", 1, "GAME")])
    back = codec.loads(codec.dumps(header))
    assert back == header and back.tokens == header.tokens and type(back.tokens[0]) is Token
    parser_only = Codec(Header, Token, left_out={Header: ("tokens",)})  # what the parser alone reads
    assert "GAME" not in parser_only.dumps(header) and parser_only.loads(parser_only.dumps(header)).tokens == []
    assert parser_only.loads(parser_only.dumps(header)) == header
    value = [("a", None, ("b",)), {"k": [1, 2.5, True]}, None]
    assert codec.loads(codec.dumps(value)) == value and type(codec.loads(codec.dumps(value))[0]) is tuple
    for wrong in ({1: "x"}, {"a"}, object(), Path("x")):
        with pytest.raises(TypeError):
            codec.dumps(wrong)
    with pytest.raises(ValueError):
        Codec(Header, type("Header", (), {}))
    probe = Probe(flag=0, count=False, names=("a",))  # equal to the defaults, not of their types
    back = Codec(Probe).loads(Codec(Probe).dumps(probe))
    assert (type(back.flag), type(back.count), back.names) == (int, bool, ("a",))
    assert Codec(Probe).loads(Codec(Probe).dumps(Probe())) == Probe() and Codec(Probe).dumps(Probe()) == '{"c":"Probe"}'
    assert json.loads(codec.dumps(Header()))["c"] == "Header"  # defaults left out: {"c": "Header"}
    assert codec.dumps(Header()) == '{"c":"Header"}'


@pytest.mark.parametrize("name", GAMES)
def test_every_file_a_parse_runs_is_one_of_the_parser_files_its_version_digests(name):
    """A parser change must change the version: every pbem file whose code runs while orders are read
    (the self-play logs' texts, the strategist's too) is among the files digested (pbem/lang.py only
    writes problems' texts, never stored: a text that parses has none)."""
    rules, scenario = first_setting(name)
    listed = {Path(f).resolve() for f in rules.CODEC.files}  # what the version digests
    if name != "napoleon1815":  # the Marengo family's
        assert set(FAMILY_PARSER_FILES) <= set(rules.CODEC.files)
    listed |= {(PBEM / "core" / "orders.py").resolve(), (PBEM / "core" / "parsed.py").resolve(),
               (PBEM / "lang.py").resolve()}
    ran: set[str] = set()

    def profile(frame, event, arg):
        if event == "call":
            ran.add(frame.f_code.co_filename)

    game = played(name, 1)[2]
    bots = rules.bots()
    texts = [(e["day"], e["side"], e["text"]) for e in game.log if e["kind"] == "orders"]
    best = bots.get("strategist") or bots.get("marshal") or next(iter(bots.values()))
    other = play_game(rules, scenario, 2, {seat: best for seat in game.seats()}, days=12)
    for source in (game, other):
        for day, side, text in [(e["day"], e["side"], e["text"]) for e in source.log if e["kind"] == "orders"]:
            state = source.state_before(day)
            sys.setprofile(profile)
            try:
                rules.parse_orders(scenario, state, side, text)
            finally:
                sys.setprofile(None)
    assert texts
    inside = {Path(f).resolve() for f in ran if f.startswith(str(PBEM))}
    assert inside and inside <= listed, sorted(str(f) for f in inside - listed)


def test_the_server_stores_the_parse_of_the_text_it_logs_never_the_key_and_an_old_log_replays_the_same(
        tmp_path, monkeypatch):
    from datetime import datetime, timezone

    from conftest import Clock

    from pbem.games.marengo.bot import bot_orders
    from pbem.server.config import Config
    from pbem.server.service import Service
    from pbem.server.store import Store

    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock),
                      Config(instance=str(tmp_path), demo=False, cache_games=1), clock=clock)
    game_id, keys = service.create_game("G", {"austria": "anna@example.org", "france": "fred@example.org"},
                                        seed=7, settings={"hours": 24})
    real_stored = Game.stored_parse
    for day in range(6):
        if day < 2:  # the first two days as a server before the stored parse logged them: the text alone
            monkeypatch.setattr(Game, "stored_parse", lambda *args: None)
        else:
            monkeypatch.setattr(Game, "stored_parse", real_stored)
        game = service.game(game_id)
        for side in game.turn().seats:
            text = f"GAME {game_id} SIDE {side} KEY {keys[side]}\n" + bot_orders(game.scenario, game.view(side), 7)
            assert service.submit(game_id, side, text).ok
        service.resolve_next(game_id)
    log = service.store.read_log(game_id)
    old_entries = [entry for entry in log if entry["kind"] == "orders" and entry["day"] < 2]
    entries = [entry for entry in log if entry["kind"] == "orders" and entry["day"] >= 2]
    assert len(entries) >= 4 and all("parsed" in entry for entry in entries)
    assert len(old_entries) >= 2 and not any("parsed" in entry for entry in old_entries)
    for entry in entries:  # the text logged has its key hidden, and so has what it was read into
        assert keys[entry["side"]] not in json.dumps(entry) and "KEY ***" in entry["text"]
    rules = ruleset("marengo")
    calls = []
    real = rules.parse_orders
    monkeypatch.setattr(rules, "parse_orders", lambda *args: calls.append(args) or real(*args))
    service._games.clear()
    loaded = service.game(game_id)  # replayed from the store: the old days' texts read, the others' parses believed
    # the old days' texts read, then read again to be stored (tests/test_reparse.py)
    assert len(calls) == 2 * len(old_entries) and len(loaded.days) == 6
    assert all("parsed" in entry for entry in service.store.read_log(game_id) if entry["kind"] == "orders")
    old = Game(rules, loaded.scenario, 7, without_parses(log))  # a database written before the stored parse
    assert days_of(old) == days_of(loaded) and len(calls) == 3 * len(old_entries) + len(entries)  # all read


def test_a_dict_the_scenario_shares_is_written_as_its_name_and_read_back_as_a_copy():
    rules, scenario, game, log = played("napoleon1815", 1)
    form = rules.orders_form(scenario)
    entry = next(e for e in log if "parsed" in e)
    assert '{"s":"names"}' in entry["parsed"]["orders"] and "Waterloo" not in entry["parsed"]["orders"]
    first, second = believed(form, entry), believed(form, entry)
    assert first.names == form.shared["names"] and first.names is not second.names is not form.shared["names"]
    first.names.clear()  # a replay's orders are its own
    assert believed(form, entry).names == form.shared["names"] != {}
    assert form.codec.loads('{"s": "names"}', {"names": {"a": "A"}}) == {"a": "A"}
    with pytest.raises(ValueError):  # without the shared dicts, their names mean nothing
        form.codec.loads('{"s": "names"}')


def test_a_moderators_amendment_of_a_past_day_reads_the_later_days_texts_again(tmp_path, monkeypatch):
    from datetime import datetime, timezone

    from conftest import Clock

    from pbem.games.marengo.bot import bot_orders
    from pbem.server.config import Config
    from pbem.server.service import Service
    from pbem.server.store import Store

    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), Config(instance=str(tmp_path), demo=False),
                      clock=clock)
    game_id, _ = service.create_game("G", {"austria": "anna@example.org", "france": "fred@example.org"}, seed=3,
                                     settings={"hours": 24})
    for _ in range(6):
        game = service.game(game_id)
        for side in game.turn().seats:
            assert service.submit(game_id, side, bot_orders(game.scenario, game.view(side), 3)).ok
        service.resolve_next(game_id)
    before = days_of(service.game(game_id))
    service.moderate(game_id, "mod@example.org", "amend_orders", "lost by the provider", day=0, side="austria",
                     text="# no orders")
    log = service.store.read_log(game_id)
    rules = ruleset("marengo")
    texts = Game(rules, service.game(game_id).scenario, 3, without_parses(log))
    believed_ = []
    real = Game._stored_orders
    monkeypatch.setattr(Game, "_stored_orders", lambda self, entry: believed_.append(real(self, entry)) or
                        believed_[-1])
    loaded, parses = replay(rules, service.game(game_id).scenario, 3, log, service.parse_key)  # as a server reloading it
    assert days_of(loaded) == days_of(texts) == days_of(service.game(game_id))
    assert days_of(loaded)[1:] != before[1:]  # the amendment changed the days after it...
    later = [e for e in log if e["kind"] == "orders" and e["day"] > 0 and "parsed" in e]
    # the amended orders of day 0 (nothing after them changes an earlier day) were stored by the server's
    # replay after the ruling (tests/test_reparse.py): believed; every later day's are not
    assert len(later) == 5 and believed_[0] is not None and not any(o is not None for o in believed_[1:])
    assert parses >= len(later)  # ...so every later day's text was read again (some twice: lines that no
    # longer fit the new position are left out and the rest read again)


@pytest.mark.parametrize("name", ["marengo", "triomphe"])
def test_the_parsers_version_does_not_hold_where_the_scenario_was_read_from(name):
    """The server's files moved (another release directory): the stored parses stay believed. A scenario's
    figures changed: they do not."""
    rules = ruleset(name)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    codec = rules.orders_form(scenario).codec
    moved = replace(scenario, path="/srv/pbem-2.0/maps/" + Path(scenario.path).name)
    assert moved.path != scenario.path
    assert parser_version(moved, codec) == parser_version(scenario, codec) == rules.orders_form(moved).version
    assert parser_version(replace(scenario, rounds=scenario.rounds - 1), codec) != \
        parser_version(scenario, codec)
