"""Onlookers of a game being played (a game with spectator_delay) see only what both sides see:
no block's id, name, type or strength that its enemy may not see, in the view or on the map.
Once the game is over they see everything."""

import json

import pytest

from pbem.core.ruleset import SPECTATOR
from pbem.games import ruleset as ruleset_named
from pbem.tools.selfplay import play_game

SECRET_KEYS = {"id", "name", "strength", "type"}


@pytest.mark.parametrize("name", ["marengo", "triomphe"])
def test_onlookers_of_a_game_being_played_see_no_hidden_block(name):
    rules = ruleset_named(name)
    scenario = rules.load_scenario(rules.scenarios()[name])
    players = {seat.id: rules.bots()["bot"] for seat in rules.seats(scenario, {})}
    game = play_game(rules, scenario, seed=5, players=players, days=6)
    assert not game.over
    public = game.view(SPECTATOR)
    assert public["blocks"] == [] and public["standing"] == {}
    sides = {entry["side"] for entry in public["enemy"]}
    assert sides == {seat.id for seat in rules.seats(scenario, {})}  # both armies are drawn, as blocks of a colour
    for entry in public["enemy"]:
        assert not SECRET_KEYS & set(entry), entry
        if entry.get("revealed"):  # a revealed block is shown to its enemy, so to everybody
            assert set(entry["revealed"]) >= {"type", "strength"}
    moderator = game.view(None)
    assert moderator["blocks"]  # the moderator's view holds the blocks the onlookers do not get
    text = json.dumps(public)
    svg = rules.render_svg(scenario, public, title="watched")
    names = {b["name"] for b in moderator["blocks"] if b.get("name")}
    ids = {b["id"] for b in moderator["blocks"]}
    for secret in names:
        assert secret not in text and secret not in svg, secret
    for block_id in ids:
        assert f'"{block_id}"' not in text and f">{block_id}<" not in svg, block_id


@pytest.mark.parametrize("players", ["2", "3"])
def test_onlookers_of_a_napoleon_1815_campaign_see_counts_only(players):
    rules = ruleset_named("napoleon1815")
    scenario = rules.load_scenario(rules.scenarios()["napoleon1815"])
    options = {"players": players}
    bots = {seat.id: rules.bots()["bot"] for seat in rules.seats(scenario, options)}
    game = play_game(rules, scenario, seed=7, players=bots, days=8, options=options)
    assert not game.over
    public, moderator = game.view(SPECTATOR), game.view(None)
    assert public["blocks"] == [] and public["battles"] == [] and moderator["blocks"]
    assert sum(h["count"] for h in public["hidden"]) == len(moderator["blocks"])
    text, svg = json.dumps(public), rules.render_svg(scenario, public, title="watched")
    for block in moderator["blocks"]:
        assert f'"{block["id"]}"' not in text and block["name"] not in text and block["name"] not in svg


def test_onlookers_see_everything_once_the_game_is_over():
    rules = ruleset_named("marengo")
    scenario = rules.load_scenario(rules.scenarios()["marengo"])
    players = {seat.id: rules.bots()["bot"] for seat in rules.seats(scenario, {})}
    game = play_game(rules, scenario, seed=5, players=players)
    assert game.over and game.view(SPECTATOR)["blocks"] == game.view(None)["blocks"]
