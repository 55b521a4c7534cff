"""Who sees what of an event and of a position, asserted exactly.

These tests kill the mutants scripts/mutation's "visibility" group found alive:
each pins one rule of pbem.core.events or of a game's view (what an owner, a
witness, a bystander and the moderator are given) to its exact output.
"""

from __future__ import annotations

from pbem.core.events import Event, events_for


def test_owners_of_public_single_and_shared_events():
    assert Event("k", "t").owners() == ()
    assert Event("k", "t", owner="austria").owners() == ("austria",)
    assert Event("k", "t", owner=("austria", "france")).owners() == ("austria", "france")
    assert Event("k", "t", owner=["austria", "france"]).owners() == ("austria", "france")


def test_an_owner_and_the_moderator_get_the_full_description():
    event = Event("fire", "F1 fires on A2", {"block": "F1"}, owner="france", seen="fire at Marengo",
                  seen_data={"locale": "marengo"})
    assert event.for_side("france") == ("F1 fires on A2", {"block": "F1"})
    assert event.for_side(None) == ("F1 fires on A2", {"block": "F1"})


def test_the_other_seat_gets_what_it_saw_and_never_the_owners_data():
    event = Event("fire", "F1 fires on A2", {"block": "F1"}, owner="france", seen="fire at Marengo",
                  seen_data={"locale": "marengo"})
    assert event.for_side("austria") == ("fire at Marengo", {"locale": "marengo"})
    bare = Event("fire", "F1 fires", {"block": "F1"}, owner="france", seen="a fire")
    assert bare.for_side("austria") == ("a fire", {})


def test_a_public_event_is_the_same_for_everyone():
    event = Event("weather", "Rain", {"mm": 3}, seen="hidden?")
    for side in ("austria", "france", None):
        assert event.for_side(side) == ("Rain", {"mm": 3})


def test_an_unseen_event_reaches_no_other_seat():
    event = Event("move", "F1 marches", {"block": "F1"}, owner="france")
    assert event.for_side("austria") is None
    assert event.for_side("france") == ("F1 marches", {"block": "F1"})


def test_witnesses_alone_see_the_seen_description():
    event = Event("move", "F1 marches", {"block": "F1"}, owner="france", seen="troops march",
                  seen_data={"n": 1}, witnesses=("prussia",))
    assert event.for_side("prussia") == ("troops march", {"n": 1})
    assert event.for_side("austria") is None
    assert event.for_side("france") == ("F1 marches", {"block": "F1"})
    shared = Event("move", "both march", {}, owner=("france", "austria"), seen="march", witnesses=())
    assert shared.for_side("austria") == ("both march", {})
    assert shared.for_side("prussia") is None


def test_to_dict_keeps_every_field_and_witnesses_only_when_given():
    event = Event("fire", "t", {"a": 1}, owner="france", seen="s", seen_data={"b": 2})
    assert event.to_dict() == {"kind": "fire", "text": "t", "data": {"a": 1}, "owner": "france",
                               "seen": "s", "seen_data": {"b": 2}}
    witnessed = Event("fire", "t", owner=("france",), witnesses=("austria", "prussia"))
    assert witnessed.to_dict() == {"kind": "fire", "text": "t", "data": {}, "owner": ("france",),
                                   "seen": None, "seen_data": None, "witnesses": ["austria", "prussia"]}


def test_events_for_keeps_order_and_drops_the_unseen():
    events = [
        Event("a", "public", {"x": 1}),
        Event("b", "secret", {"y": 2}, owner="france"),
        Event("c", "full", {"z": 3}, owner="france", seen="glimpse", seen_data={"w": 4}),
    ]
    assert events_for(events, "austria") == [
        {"kind": "a", "text": "public", "data": {"x": 1}},
        {"kind": "c", "text": "glimpse", "data": {"w": 4}},
    ]
    assert events_for(events, "france") == [
        {"kind": "a", "text": "public", "data": {"x": 1}},
        {"kind": "b", "text": "secret", "data": {"y": 2}},
        {"kind": "c", "text": "full", "data": {"z": 3}},
    ]
    assert [e["kind"] for e in events_for(events, None)] == ["a", "b", "c"]
    assert events_for([], "austria") == []


# -- Marengo: a position built by hand, seen by each side and by the moderator ---------------------

import importlib  # noqa: E402
from pathlib import Path  # noqa: E402

from pbem.core.chance import Chance  # noqa: E402
from pbem.games.marengo.scenario import load_scenario as load_marengo  # noqa: E402
from pbem.games.marengo.setup import setup as setup_marengo  # noqa: E402
from pbem.games.simmons.clock import hour_label  # noqa: E402

marengo_view = importlib.import_module("pbem.games.marengo.view")  # the module (the package exports a function of that name)
SMALL = Path(__file__).parent / "fixtures" / "small.toml"


def full(b) -> dict:
    return {"id": b.id, "side": b.side, "name": b.name, "type": b.type, "strength": b.strength,
            "locale": b.locale, "facing": b.facing, "status": b.status, "activated": b.activated,
            "arrives": b.arrives, "bombard": b.bombard, "entries": list(b.entries)}


def marengo_position():
    scenario = load_marengo(SMALL)
    state = setup_marengo(scenario, Chance(3))
    blocks = state.blocks
    state.put(blocks["A4"], "marengo")  # cavalry 2 in the reserve
    state.put(blocks["A2"], "marengo", "spinetta")  # on an approach
    state.put(blocks["A6"], "pedrabona")  # artillery 1, bombarding: revealed
    blocks["A6"].bombard = "marengo"
    state.put(blocks["A3"], "marengo")  # infantry 3 in the reserve
    state.put(blocks["A1"], "bridgehead")
    state.day = 3
    state.morale = {"austria": 9, "france": 7}
    state.demoralised = {"austria": False, "france": True}
    state.standing = {"austria": [{"text": "AUSTRIAN SECRET"}], "france": [{"text": "HOLD"}, {}]}
    state.last_moves = [{"block": "F2", "to": "marengo"}]
    return scenario, state


def test_marengo_a_side_sees_its_own_blocks_in_full_and_the_enemy_only_where_it_stands():
    scenario, state = marengo_position()
    seen = marengo_view.view(scenario, state, "france")
    assert seen["blocks"] == [full(b) for b in state.blocks.values() if b.side == "france"]
    assert [b["id"] for b in seen["blocks"]] == ["F1", "F2", "F3", "F4", "F5", "F6", "F7", "F8"]
    # in board order (bridgehead, pedrabona, marengo), the reserve before an approach, then by what shows
    assert seen["enemy"] == [
        {"side": "austria", "locale": "bridgehead", "facing": None, "revealed": None},
        {"side": "austria", "locale": "pedrabona", "facing": None,
         "revealed": {"type": "artillery", "strength": 1}},
        {"side": "austria", "locale": "marengo", "facing": None, "revealed": None},
        {"side": "austria", "locale": "marengo", "facing": None, "revealed": None},
        {"side": "austria", "locale": "marengo", "facing": "spinetta", "revealed": None},
    ]
    # the enemy's waiting blocks: only how many come at which hour
    assert seen["reinforcements"] == {
        "austria": [{"arrives": 6, "count": 2}, {"arrives": 9, "count": 1}],
        "france": [{"id": "F8", "name": "F8", "type": "cavalry", "strength": 2, "arrives": 6},
                   {"id": "F7", "name": "F7", "type": "infantry", "strength": 3, "arrives": 11}],
    }
    assert seen["standing"] == {"france": ["HOLD", ""]}
    assert "AUSTRIAN SECRET" not in repr(seen)


def test_marengo_the_days_facts_are_the_same_for_both():
    scenario, state = marengo_position()
    seen = marengo_view.view(scenario, state, "austria")
    facts = {k: v for k, v in seen.items() if k not in ("blocks", "enemy", "reinforcements", "standing")}
    assert facts == {
        "game": "marengo", "scenario": "Small test scenario", "viewer": "austria", "day": 3, "round": 2,
        "rounds": 6, "hour": 7, "hour_label": hour_label(7), "next_side": scenario.side_of_day(3),
        "morale": {"austria": 9, "france": 7}, "demoralised": {"austria": False, "france": True},
        "over": False, "winner": None, "victory": "", "last_moves": [{"block": "F2", "to": "marengo"}],
    }
    assert scenario.side_of_day(3) is not None
    assert seen["standing"] == {"austria": ["AUSTRIAN SECRET"]}
    assert seen["reinforcements"]["france"] == [{"arrives": 6, "count": 1}, {"arrives": 11, "count": 1}]
    assert len(seen["enemy"]) == 6 and all(e["revealed"] is None for e in seen["enemy"])


def test_marengo_the_moderator_sees_everything_and_a_finished_game_has_no_next_side():
    scenario, state = marengo_position()
    state.day, state.over, state.winner, state.victory = 40, True, "france", "morale"
    seen = marengo_view.view(scenario, state, None)
    assert seen["blocks"] == [full(b) for b in state.blocks.values()]
    assert seen["enemy"] == []
    assert seen["standing"] == {"austria": ["AUSTRIAN SECRET"], "france": ["HOLD", ""]}
    assert [r["id"] for r in seen["reinforcements"]["austria"]] == ["A5", "A7", "A8"]
    assert [r["id"] for r in seen["reinforcements"]["france"]] == ["F8", "F7"]
    assert (seen["hour"], seen["next_side"], seen["round"], seen["winner"], seen["victory"]) == \
        (11, None, 21, "france", "morale")


# -- Triomphe: the same, with discs, the time track and the waiting cells ----------------------------

from pbem.games.triomphe.scenario import load_scenario as load_triomphe  # noqa: E402
from pbem.games.triomphe.setup import setup as setup_triomphe  # noqa: E402

triomphe_view = importlib.import_module("pbem.games.triomphe.view")
TRIOMPHE = Path(__file__).parent.parent / "maps" / "triomphe.toml"


def triomphe_position():
    scenario = load_triomphe(TRIOMPHE)
    state = setup_triomphe(scenario, 3)
    blocks = state.blocks
    state.put(blocks["A1"], "pedrabona")
    state.put(blocks["A14"], "pedrabona")  # the artillery reserve, bombarding: revealed
    blocks["A14"].bombard = "marengo"
    state.put(blocks["A2"], "pedrabona", "marengo")
    blocks["A2"].disorganised = True
    blocks["F20"].cell = "nowhere"  # a cell the scenario does not know: no hour, open from the start
    state.uncommitted = {"austria": 2, "france": 1}
    state.committed = {"austria": {"pedrabona": 1}, "france": {}}
    state.spent = 4
    state.standing = {"austria": [{"text": "AUSTRIAN SECRET"}], "france": [{"text": "HOLD"}, {}]}
    state.last_moves = [{"block": "F1"}]
    return scenario, state


def test_triomphe_a_side_sees_its_blocks_the_enemys_on_the_table_and_the_waiting_cells():
    scenario, state = triomphe_position()
    seen = triomphe_view.view(scenario, state, "france")
    mine = [b for b in state.blocks.values() if b.side == "france"]
    assert seen["blocks"] == [
        {"id": b.id, "side": b.side, "name": b.name, "type": b.type, "strength": b.strength,
         "locale": b.locale, "facing": b.facing, "status": b.status, "cell": b.cell, "arrives": b.arrives,
         "disorganised": b.disorganised, "bombard": b.bombard} for b in mine]
    assert len(mine) == 20
    assert seen["enemy"] == [
        {"side": "austria", "locale": "pedrabona", "facing": None, "disorganised": False, "revealed": None},
        {"side": "austria", "locale": "pedrabona", "facing": None, "disorganised": False,
         "revealed": {"type": "artillery", "strength": 1, "why": "bombardment declared"}},
        {"side": "austria", "locale": "pedrabona", "facing": "marengo", "disorganised": True, "revealed": None},
    ]
    # A14, held back to 7 AM in a cell open from 6 AM, shows face up; the rest only as a count
    assert seen["waiting"]["austria"] == [{"cell": "alessandria", "hour": hour_label(6), "count": 17,
                                           "face_up": []}]
    assert seen["waiting"]["france"] == [
        {"cell": "11AM", "hour": hour_label(11), "count": 3, "face_up": []},
        {"cell": "4PM", "hour": hour_label(16), "count": 4, "face_up": []},
        {"cell": "5PM", "hour": hour_label(17), "count": 1, "face_up": []},
        {"cell": "nowhere", "hour": "", "count": 1, "face_up": [{"type": "cavalry", "strength": 2}]},
    ]
    assert seen["standing"] == {"france": ["HOLD", ""]}
    assert "AUSTRIAN SECRET" not in repr(seen)


def test_triomphe_a_block_held_back_shows_face_up_until_it_may_enter():
    scenario, state = triomphe_position()
    state.put(state.blocks["A14"], None, status="waiting")
    state.blocks["A14"].bombard = None
    assert triomphe_view.view(scenario, state, "france")["waiting"]["austria"][0]["face_up"] == \
        [{"type": "artillery", "strength": 1}]
    state.day = 2  # 7 AM: it may enter, and is a block like the others
    later = triomphe_view.view(scenario, state, "france")["waiting"]["austria"][0]
    assert (later["count"], later["face_up"]) == (18, [])


def test_triomphe_the_table_is_the_same_for_both():
    scenario, state = triomphe_position()
    state.day = 3
    seen = triomphe_view.view(scenario, state, "austria")
    facts = {k: v for k, v in seen.items() if k not in ("blocks", "enemy", "waiting", "standing")}
    assert facts == {
        "game": "triomphe", "scenario": scenario.name, "viewer": "austria", "day": 3, "round": 2,
        "rounds": 16, "hour": 7, "hour_label": hour_label(7), "next_side": scenario.side_of_day(3),
        "over": False, "winner": None, "victory": "",
        "morale": {"austria": state.morale("austria"), "france": state.morale("france")},
        "uncommitted": {"austria": 2, "france": 1},
        "committed": {"austria": {"pedrabona": 1}, "france": {}},
        "track": {"austria": {hour_label(h): 2 for h in range(7, 12)},
                  "france": {**{hour_label(h): 1 for h in range(7, 12)}, hour_label(12): 2,
                             hour_label(16): 3, hour_label(17): 1}},
        "demoralised": dict(state.demoralised), "orders_spent": 4, "last_moves": [{"block": "F1"}],
    }
    assert scenario.side_of_day(3) is not None
    assert seen["standing"] == {"austria": ["AUSTRIAN SECRET"]}
    assert all("id" not in e and "name" not in e for e in seen["enemy"])


def test_triomphe_the_moderator_sees_every_block_and_a_finished_game_no_next_side():
    scenario, state = triomphe_position()
    state.day, state.over, state.winner = 99, True, "austria"
    seen = triomphe_view.view(scenario, state, None)
    assert len(seen["blocks"]) == len(state.blocks) and seen["enemy"] == []
    assert seen["standing"] == {"austria": ["AUSTRIAN SECRET"], "france": ["HOLD", ""]}
    assert (seen["next_side"], seen["hour"], seen["winner"]) == (None, scenario.hour(scenario.days - 1), "austria")


# -- Napoleon 1815: each army sees itself; the others are plain blocks counted by town -------------

from pbem.games.napoleon1815.scenario import load_scenario as load_n1815  # noqa: E402
from pbem.games.napoleon1815.state import Block as N1815Block, State as N1815State  # noqa: E402
from pbem.games.napoleon1815.turn import owing  # noqa: E402

n1815_view = importlib.import_module("pbem.games.napoleon1815.view")
N1815 = Path(__file__).parent.parent / "maps" / "napoleon1815.toml"


def n1815_position(players=3, turn=6):
    scenario = load_n1815(N1815)
    blocks = [N1815Block("OG", "french", "beaumont", 3), N1815Block("NAP", "french", "beaumont", 1),
              N1815Block("WEL", "anglo", "brussels", 2, disorganized=True),
              N1815Block("BR-GDS", "anglo", "brussels", 3), N1815Block("BLU", "prussian", "ligny", 1),
              N1815Block("P-I-1", "prussian", None, 0, eliminated=True)]
    state = N1815State(turn=turn, blocks={b.id: b for b in blocks}, players=players, battle_mode="hybrid",
                       lost={"french": 1, "anglo": 0, "prussian": 2}, broken=["prussian"],
                       last_moves=[["french", "a", "b", 2]], last_battles=["ligny"])
    return scenario, state


def shown(scenario, b) -> dict:
    spec = scenario.blocks[b.id]
    return {"id": b.id, "army": b.army, "town": b.town, "strength": b.strength, "max": spec.strength,
            "type": spec.type, "fire": spec.fire, "name": spec.name, "corps": spec.corps,
            "disorganized": b.disorganized}


def test_n1815_each_seat_sees_its_army_and_only_counts_of_the_others():
    scenario, state = n1815_position()
    seen = n1815_view.view(scenario, state, "french")
    assert seen["blocks"] == [shown(scenario, state.blocks["NAP"]), shown(scenario, state.blocks["OG"])]
    assert seen["hidden"] == [{"town": "brussels", "army": "anglo", "count": 2},
                              {"town": "ligny", "army": "prussian", "count": 1}]
    allied = n1815_view.view(scenario, state, "anglo-dutch")
    assert [b["id"] for b in allied["blocks"]] == ["BR-GDS", "WEL"]
    assert allied["hidden"] == [{"town": "beaumont", "army": "french", "count": 2},
                                {"town": "ligny", "army": "prussian", "count": 1}]


def test_n1815_in_the_two_player_game_one_player_sees_both_allied_armies():
    scenario, state = n1815_position(players=2)
    for seat in ("anglo-dutch", "prussian"):
        seen = n1815_view.view(scenario, state, seat)
        assert [b["id"] for b in seen["blocks"]] == ["BLU", "BR-GDS", "WEL"]
        assert seen["hidden"] == [{"town": "beaumont", "army": "french", "count": 2}]
    assert [b["id"] for b in n1815_view.view(scenario, state, "french")["blocks"]] == ["NAP", "OG"]
    assert n1815_view.visible_armies(state, "french") == {"french"}
    assert n1815_view.visible_armies(state, None) == {"french", "anglo", "prussian"}
    assert n1815_view.visible_armies(state, "spectator") == {"french", "anglo", "prussian"}
    assert [b["id"] for b in n1815_view.view(scenario, state, None)["blocks"]] == \
        ["BLU", "BR-GDS", "NAP", "OG", "WEL"]


def test_n1815_the_public_facts():
    scenario, state = n1815_position()
    seen = n1815_view.view(scenario, state, "prussian")
    spec = scenario.track[4]
    assert spec.night
    facts = {k: v for k, v in seen.items() if k not in ("blocks", "hidden")}
    assert facts == {
        "seat": "prussian", "players": 3, "battle": "hybrid", "turn": 6, "night": True, "phase": "campaign",
        "battles": [], "mover": spec.side, "owing": list(owing(scenario, state)),
        "lost": {"french": 1, "anglo": 0, "prussian": 2}, "broken": ["prussian"],
        "last_moves": [["french", "a", "b", 2]], "last_battles": ["ligny"],
        "over": False, "winner": None, "victory": "",
        "bid": None, "questions": [],
        "sides": {"french": "france", "anglo": "allies", "prussian": "allies"},
    }


def test_n1815_the_turn_track_at_its_ends():
    scenario, _ = n1815_position()
    cases = {0: ("allied setup", "A", False), 1: ("French setup", "F", False),
             2: ("campaign", scenario.track[0].side, scenario.track[0].night),
             3: ("campaign", scenario.track[1].side, scenario.track[1].night),
             len(scenario.track) + 1: ("campaign", scenario.track[-1].side, scenario.track[-1].night),
             len(scenario.track) + 2: ("campaign", "F", False)}
    for turn, (phase, mover, night) in cases.items():
        _, state = n1815_position(turn=turn)
        seen = n1815_view.view(scenario, state, "french")
        assert (seen["phase"], seen["mover"], seen["night"]) == (phase, mover, night), turn
    assert scenario.track[0].side != "A" or scenario.track[-1].side != "F"


def test_n1815_a_battle_waiting_for_deployment_shows_how_many_defend_each_position_not_which():
    scenario, state = n1815_position()
    battle = {"town": "ligny", "sides": {"att": "france", "def": "allies"}, "terrain": {"def1": "village"}}
    state.pending = {"battles": [battle], "stage": "att",
                     "deploy": {"def": {"ligny": {"BLU": 1, "X1": 1, "X2": None, "X3": 2}}}}
    state.blocks["NAP"].town = "ligny"  # a battle is shown to the seats whose army fights in it (sight.py)
    seen = n1815_view.view(scenario, state, "french")
    assert seen["phase"] == "battle deployment"
    assert seen["battles"] == [{"town": "ligny", "sides": {"att": "france", "def": "allies"},
                                "terrain": {"def1": "village"}, "stage": "att",
                                "defenders": {"def1": 2, "res-def": 1, "def2": 1}}]
    state.pending["stage"] = "def"
    assert n1815_view.view(scenario, state, "french")["battles"][0]["defenders"] == {}
    assert n1815_view.view(scenario, state, "french")["battles"][0]["stage"] == "def"


# -- the Marengo family's enemy list itself ------------------------------------------------------------

from types import SimpleNamespace  # noqa: E402

from pbem.games.simmons.board import Board  # noqa: E402
from pbem.games.simmons.view import enemy_as_seen  # noqa: E402


def test_enemy_as_seen_lists_only_the_foes_blocks_on_the_map_in_board_order():
    locales = {"north": 0, "middle": 1, "south": 2}
    board = SimpleNamespace(locales=locales, rank=Board.rank.func(SimpleNamespace(locales=locales)))  # a Board's own

    def block(bid, side, locale, facing=None, on_map=True, strength=1):
        return SimpleNamespace(id=bid, side=side, locale=locale, facing=facing, on_map=on_map, strength=strength)

    blocks = [block("F1", "france", "south"), block("F2", "france", "north", "middle", strength=3),
              block("F3", "france", "north", "middle", strength=2), block("F4", "france", "off-board"),
              block("F9", "france", "south", "Alpha"),
              block("F5", "france", "north", on_map=False), block("A1", "austria", "north"),
              block("F6", "france", "middle"), block("F7", "france", "north")]

    def seen_as(b):
        return {"side": b.side, "locale": b.locale, "facing": b.facing, "shows": b.strength}

    assert enemy_as_seen(board, blocks, "france", seen_as) == [
        {"side": "france", "locale": "off-board", "facing": None, "shows": 1},  # an unknown place sorts as the first locale
        {"side": "france", "locale": "north", "facing": None, "shows": 1},
        {"side": "france", "locale": "north", "facing": "middle", "shows": 2},
        {"side": "france", "locale": "north", "facing": "middle", "shows": 3},
        {"side": "france", "locale": "middle", "facing": None, "shows": 1},
        {"side": "france", "locale": "south", "facing": None, "shows": 1},  # the reserve before any approach
        {"side": "france", "locale": "south", "facing": "Alpha", "shows": 1},
    ]
    assert enemy_as_seen(board, blocks, "austria", seen_as) == [
        {"side": "austria", "locale": "north", "facing": None, "shows": 1}]


def test_marengo_a_reinforcement_without_an_hour_is_listed_first():
    scenario, state = marengo_position()
    state.blocks["F7"].arrives = 1
    state.blocks["F8"].arrives = None
    mine = marengo_view.view(scenario, state, "france")["reinforcements"]["france"]
    assert [(r["id"], r["arrives"]) for r in mine] == [("F8", None), ("F7", 1)]
    theirs = marengo_view.view(scenario, state, "austria")["reinforcements"]["france"]
    assert theirs == [{"arrives": 0, "count": 1}, {"arrives": 1, "count": 1}]


def test_a_side_without_standing_orders_has_an_empty_list():
    scenario, state = marengo_position()
    state.standing = {"france": [{"text": "HOLD"}]}
    assert marengo_view.view(scenario, state, None)["standing"] == {"austria": [], "france": ["HOLD"]}
    assert marengo_view.view(scenario, state, "austria")["standing"] == {"austria": []}
    tscenario, tstate = triomphe_position()
    tstate.standing = {"france": [{"text": "HOLD"}]}
    assert triomphe_view.view(tscenario, tstate, None)["standing"] == {"austria": [], "france": ["HOLD"]}


def test_n1815_the_first_turn_of_the_track_is_read_from_the_track():
    import dataclasses

    scenario, state = n1815_position(turn=2)
    first = dataclasses.replace(scenario.track[0], side="A", night=True)
    scenario.track = [first, *scenario.track[1:]]
    seen = n1815_view.view(scenario, state, "french")
    assert (seen["mover"], seen["night"], seen["phase"]) == ("A", True, "campaign")


def test_n1815_a_battle_whose_defenders_have_not_deployed_shows_none():
    scenario, state = n1815_position()
    battle = {"town": "wavre", "sides": {"att": "france", "def": "allies"}, "terrain": {}}
    state.pending = {"battles": [battle], "stage": "att", "deploy": {"def": {}}}
    state.blocks["NAP"].town = "wavre"  # the French army fights there: the seat is told of the battle
    assert n1815_view.view(scenario, state, "french")["battles"][0]["defenders"] == {}
    assert n1815_view.view(scenario, state, "anglo-dutch")["battles"] == []  # no Anglo-Dutch block there


# -- an event's descriptions as Texts (pbem.lang): each seat reads its own in its language -------------------

def test_an_events_english_is_its_texts_and_each_seat_reads_its_own_description_in_its_language():
    from babel.support import NullTranslations

    from pbem.lang import Tongue, say

    class Loud(Tongue):
        """A language that shouts: it shows which Text a seat was given to read."""

        def gettext(self, message, /, **values):
            return super().gettext(message, **values).upper()

    loud = Loud("xx", NullTranslations())
    full, seen = say("the %(who)s falls back", who="Guard"), say("a block falls back")
    event = Event("retreat", said=full, owner="france", seen_said=seen, witnesses=("austria",))
    assert (event.text, event.seen) == ("the Guard falls back", "a block falls back")  # the English, from the Texts
    assert event.text_for("france", loud) == "THE GUARD FALLS BACK"
    assert event.text_for(None, loud) == "THE GUARD FALLS BACK"  # the moderator reads the whole
    assert event.text_for("austria", loud) == "A BLOCK FALLS BACK"  # a witness reads what he saw
    assert event.text_for("prussia", loud) is None  # not a witness: nothing
    # given English is kept; a missing seen Text leaves what was given
    kept = Event("retreat", "as written", owner=("france", "allies"), seen="seen as written", said=full,
                 seen_said=seen)
    assert (kept.text, kept.seen) == ("as written", "seen as written")
    assert kept.text_for("allies", loud) == "THE GUARD FALLS BACK" and kept.text_for("austria", loud) == "A BLOCK FALLS BACK"
    plain = Event("retreat", "plain", owner="france", seen="seen plain")
    assert (plain.text_for("france", loud), plain.text_for("austria", loud)) == ("plain", "seen plain")
    assert Event("note", said=say("for all")).text_for("austria", loud) == "FOR ALL"
    assert Event("note", said=full, owner="france").seen is None  # no seen Text: the others see nothing
    assert Event("note", said=full, owner="france").text_for("austria", loud) is None
