"""An orders text is read once when it is stored (issue 35, item 3): the stored parse (pbem.core.parsed) is
the ruleset's reading of the check's answer (its ``day_orders``), no second parse of the text; it is
exactly what a parse of the stored text gives (a replay believes it), and never holds the seat's key."""

from __future__ import annotations

import json

import pytest

import pbem.core.game
from pbem.core.parsed import stored_as
from pbem.games import ruleset
from pbem.server.service import Service
from pbem.server.store import Store

GAMES = ("marengo", "napoleon1815", "triomphe", "dba")


class Counted:
    """Counts the calls of one function of a module (the real function runs)."""

    def __init__(self, monkeypatch, module, name: str):
        self.calls = 0
        real = getattr(module, name)

        def counted(*args, **kwargs):
            self.calls += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, counted)


@pytest.mark.parametrize("lang", ["en", "fr"])
@pytest.mark.parametrize("name", GAMES)
def test_the_stored_parse_is_the_checks_reading_and_the_text_is_parsed_once(tmp_path, monkeypatch, name, lang):
    rules = ruleset(name)
    scenario = next(iter(rules.scenarios().values()))
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    seats = {seat.id: f"{seat.id}@example.org" for seat in rules.seats(rules.load_scenario(scenario), {})}
    game_id, keys = service.create_game("Parsed once", seats, seed=7, game=name, settings={"hours": 24})
    game = service.game(game_id)
    side = game.turn().seats[0]
    body = rules.bots()["bot"].orders(game.scenario, json.loads(json.dumps(game.view(side))), 7)
    lines = [line for line in body.splitlines() if line.strip() and not line.lstrip().upper().startswith("GAME")]
    text = "\n".join([f"GAME {game_id} SIDE {side} KEY {keys[side]}", *lines]) + "\n"
    again = Counted(monkeypatch, pbem.core.game, "stored_as")  # the text parsed again to be stored
    result = service.submit(game_id, side, text, source="mail", lang=lang)
    assert result.ok, result.problems
    entry = service.store.read_log(game_id)[-1]
    assert entry["text"].startswith(f"GAME {game_id} SIDE {side} KEY ***") and keys[side] not in json.dumps(entry)
    if game.orders_form is None:  # a game whose parse has no JSON form (Napoleonic DBA): nothing stored
        assert "parsed" not in entry
        return
    assert again.calls == 0, f"{name}: the text parsed again to be stored"
    assert entry["parsed"] == stored_as(rules, game.orders_form, game.scenario, game.state_before(entry["day"]),
                                        entry["day"], side, entry["text"], key=game.parse_key)
    service.store.close()
