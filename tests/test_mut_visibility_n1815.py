"""What each seat of Napoleon 1815 sees, asserted exactly (the visibility group of scripts/mutation).

Hand-built positions: a battle stopped between two rounds (a round sub-turn) seen by a seat that fights in
it, by a seat that does not, by the moderator and by a spectator; a battle waiting for deployment; the
auction under way; and the rules of sight.py themselves (which armies a seat sees, who witnesses a fight,
how a fight's events are told to its witnesses alone).
"""

from __future__ import annotations

import importlib
from pathlib import Path

from pbem.core.events import Event
from pbem.lang import Text
from pbem.games.napoleon1815 import sight
from pbem.games.napoleon1815.ruleset import RULESET
from pbem.games.napoleon1815.ruleset import RULESET as NAPOLEON1815_RULESET
from pbem.games.napoleon1815.scenario import load_scenario
from pbem.games.napoleon1815.state import Block, State
from pbem.games.napoleon1815.turn import owing

view = importlib.import_module("pbem.games.napoleon1815.view")
MAP = Path(__file__).parent.parent / "maps" / "napoleon1815.toml"
EMPTY = {loc: {"own": [], "others": 0} for loc in view.LOCATIONS}


def position(players=3, turn=6):
    """Ligny: a battle stopped after its second round (the French against both Allied armies); Wavre: a battle
    stopped before its first round ends (the French against the Prussians alone)."""
    scenario = load_scenario(MAP)
    blocks = [Block("OG", "french", "ligny", 4), Block("NAP", "french", "ligny", 1),
              Block("I-1", "french", "wavre", 3), Block("WEL", "anglo", "ligny", 1),
              Block("BR-GDS", "anglo", "brussels", 4), Block("BLU", "prussian", "ligny", 1),
              Block("P-I-1", "prussian", "ligny", 2, disorganized=True), Block("P-II-1", "prussian", "wavre", 4)]
    state = State(turn=turn, blocks={b.id: b for b in blocks}, players=players, battle_mode="hybrid",
                  lost={"french": 3, "anglo": 1, "prussian": 0})
    # the blocks of a battle in the order a battle keeps them: not sorted, to show the view sorts them
    ligny = {"town": "ligny", "sides": {"att": "france", "def": "allies"}, "entries": ["fleurus"],
             "blocks": {"OG": {"army": "french", "loc": "att1"}, "NAP": {"army": "french", "loc": "att1"},
                        "WEL": {"army": "anglo", "loc": "def0"}, "P-I-1": {"army": "prussian", "loc": "def1"},
                        "BLU": {"army": "prussian", "loc": "def1"}},
             "terrain": {"def1": "village"}, "rounds": {"att": 3, "def": 2},
             "witnesses": ["anglo-dutch", "french", "prussian"], "asked": []}
    wavre = {"town": "wavre", "sides": {"att": "france", "def": "allies"}, "entries": ["gembloux"],
             "blocks": {"P-II-1": {"army": "prussian", "loc": "res-def"}, "I-1": {"army": "french", "loc": "att0"}},
             "terrain": {}, "rounds": {}, "witnesses": ["french", "prussian"], "asked": []}
    state.pending = {"stage": "round", "standing": {}, "battles": [], "fought": [ligny, wavre],
                     "asked": {"french": ["Ligny: commit the Guard?"], "prussian": ["Wavre: withdraw?", "or stand?"]}}
    return scenario, state


def board(**where) -> dict:
    """Each place: (own ids, how many others[, how many of them the seat's enemy's: 0 unless given])."""
    out = {loc: {"own": [], "others": 0, "enemies": 0, "square": []} for loc in view.LOCATIONS}
    for loc, (own, others, *enemies) in where.items():
        out[loc.replace("_", "-")] = {"own": own, "others": others, "enemies": (enemies or [0])[0], "square": []}
    return out


def test_n1815_a_french_seat_sees_its_blocks_in_each_battle_by_id_and_only_counts_of_the_enemy():
    scenario, state = position()
    seen = view.view(scenario, state, "french")
    assert seen["phase"] == "battle round"
    assert seen["questions"] == ["Ligny: commit the Guard?"]
    assert seen["battles"] == [
        {"town": "ligny", "sides": {"att": "france", "def": "allies"}, "terrain": {"def1": "village"},
         "stage": "round", "round": 3, "board": board(att1=(["NAP", "OG"], 0), def0=([], 1, 1), def1=([], 2, 2))},
        {"town": "wavre", "sides": {"att": "france", "def": "allies"}, "terrain": {}, "stage": "round",
         "round": 1, "board": board(att0=(["I-1"], 0), res_def=([], 1, 1))},
    ]


def test_n1815_three_players_each_allied_seat_sees_its_own_army_by_id_and_its_partners_as_a_count():
    scenario, state = position()
    anglo = view.view(scenario, state, "anglo-dutch")
    # Wavre has no Anglo-Dutch block: the seat is no witness and is told nothing of it
    assert anglo["battles"] == [
        {"town": "ligny", "sides": {"att": "france", "def": "allies"}, "terrain": {"def1": "village"},
         "stage": "round", "round": 3, "board": board(att1=([], 2, 2), def0=(["WEL"], 0), def1=([], 2))}]
    assert anglo["questions"] == []
    prussian = view.view(scenario, state, "prussian")
    assert [b["board"] for b in prussian["battles"]] == [
        board(att1=([], 2, 2), def0=([], 1), def1=(["BLU", "P-I-1"], 0)),
        board(att0=([], 1, 1), res_def=(["P-II-1"], 0))]
    assert prussian["questions"] == ["Wavre: withdraw?", "or stand?"]


def test_n1815_two_players_the_allied_seat_sees_both_allied_armies_by_id():
    scenario, state = position(players=2)
    for fought in state.pending["fought"]:
        fought["witnesses"] = sorted(set(fought["witnesses"]) | {"anglo-dutch"})
    seen = view.view(scenario, state, "anglo-dutch")
    assert [b["board"] for b in seen["battles"]] == [
        board(att1=([], 2, 2), def0=(["WEL"], 0), def1=(["BLU", "P-I-1"], 0)),
        board(att0=([], 1, 1), res_def=(["P-II-1"], 0))]


def test_n1815_the_moderator_sees_every_battle_with_every_block_by_id():
    scenario, state = position()
    for seat in (None, "*spectator*"):
        seen = view.view(scenario, state, seat)
        assert [b["board"] for b in seen["battles"]] == [
            board(att1=(["NAP", "OG"], 0), def0=(["WEL"], 0), def1=(["BLU", "P-I-1"], 0)),
            board(att0=(["I-1"], 0), res_def=(["P-II-1"], 0))], seat
        assert seen["questions"] == []
    assert NAPOLEON1815_RULESET.view(scenario, state, "*spectator*") == view.public(scenario, state)
    state.over = True  # a finished game is shown whole to everyone
    assert NAPOLEON1815_RULESET.view(scenario, state, "*spectator*") == view.view(scenario, state, None)


def test_n1815_a_battle_stops_for_a_round_only_in_the_round_stage():
    scenario, state = position()
    state.pending["stage"] = "att"
    state.pending["deploy"] = {"def": {}}
    assert view.fought(state, "french") == []
    state.pending = None
    assert view.fought(state, None) == [] and view.battles(state, None) == []


def test_n1815_the_spectators_view_is_every_block_as_a_count_and_no_battle():
    scenario, state = position()
    state.bid = {"side": "france", "steps": 2}
    state.last_moves = [["french", "charleroi", "fleurus", 2]]
    assert view.public(scenario, state) == {
        "seat": None, "players": 3, "battle": "hybrid", "turn": 6, "night": True, "phase": "battle round",
        "battles": [], "questions": [], "mover": scenario.track[4].side, "owing": ["french", "prussian"],
        "blocks": [],
        "hidden": [{"town": "brussels", "army": "anglo", "count": 1},
                   {"town": "ligny", "army": "anglo", "count": 1},
                   {"town": "ligny", "army": "french", "count": 2},
                   {"town": "ligny", "army": "prussian", "count": 2},
                   {"town": "wavre", "army": "french", "count": 1},
                   {"town": "wavre", "army": "prussian", "count": 1}],
        "lost": {"french": 3, "anglo": 1, "prussian": 0}, "broken": [], "bid": {"side": "france", "steps": 2},
        "last_moves": [["french", "charleroi", "fleurus", 2]], "last_battles": [],
        "over": False, "winner": None, "victory": "",
        "sides": {"french": "france", "anglo": "allies", "prussian": "allies"},
    }
    assert list(owing(scenario, state)) == ["french", "prussian"]


def test_n1815_the_auction_is_its_own_phase_even_before_any_bid():
    scenario, state = position(turn=0)
    state.pending = None
    state.auction = {}
    seen = view.view(scenario, state, "prussian")
    assert (seen["phase"], seen["questions"], seen["battles"], seen["mover"]) == ("auction", [], [], "A")
    state.auction = None
    assert view.view(scenario, state, "prussian")["phase"] == "allied setup"


def test_n1815_a_deployment_has_no_questions_and_shows_only_the_battles_the_seat_fights_in():
    scenario, state = position()
    battle = {"town": "wavre", "sides": {"att": "france", "def": "allies"}, "terrain": {"def0": "farm"}}
    other = {"town": "brussels", "sides": {"att": "france", "def": "allies"}, "terrain": {}}
    state.pending = {"battles": [battle, other], "stage": "def", "deploy": {"def": {}, "att": {}}}
    seen = view.view(scenario, state, "prussian")
    assert (seen["phase"], seen["questions"]) == ("battle deployment", [])
    assert seen["battles"] == [{"town": "wavre", "sides": {"att": "france", "def": "allies"},
                                "terrain": {"def0": "farm"}, "stage": "def", "defenders": {}}]
    assert [b["town"] for b in view.view(scenario, state, "anglo-dutch")["battles"]] == ["brussels"]
    assert [b["town"] for b in view.view(scenario, state, "french")["battles"]] == ["wavre"]
    for seat in (None, "*spectator*"):
        assert [b["town"] for b in view.battles(state, seat)] == ["wavre", "brussels"]
    assert [b["town"] for b in view.battles(state)] == ["wavre", "brussels"]  # no seat: every battle


# -- sight.py: which armies a seat sees, who witnesses a fight, and a fight's events told to them alone ------

def test_n1815_a_seat_sees_its_own_army_and_with_two_players_the_allies_see_both_allied_armies():
    assert sight.visible_armies(3, "french") == {"french"}
    assert sight.visible_armies(3, "anglo-dutch") == {"anglo"}
    assert sight.visible_armies(3, "prussian") == {"prussian"}
    assert sight.visible_armies(2, "french") == {"french"}
    assert sight.visible_armies(2, "anglo-dutch") == {"anglo", "prussian"}
    assert sight.visible_armies(2, "prussian") == {"anglo", "prussian"}
    for players in (2, 3):
        assert sight.visible_armies(players, None) == {"french", "anglo", "prussian"}
        assert sight.visible_armies(players, "*spectator*") == {"french", "anglo", "prussian"}


def test_n1815_the_witnesses_of_a_fight_are_the_seats_that_see_an_army_in_it_in_seat_order():
    assert sight.seats_seeing(3, ["prussian", "french"]) == ("french", "prussian")
    assert sight.seats_seeing(3, iter(["anglo"])) == ("anglo-dutch",)
    assert sight.seats_seeing(2, ("prussian",)) == ("anglo-dutch", "prussian")
    assert sight.seats_seeing(3, ()) == ()


def test_n1815_a_fights_events_go_to_its_witnesses_alone():
    events: list = []
    told = sight.Told(events, {"prussian", "french"})
    public = Event("battle", "round 1 at Ligny")
    told.append(public)
    assert public.owner == ("french", "prussian") and public.witnesses is None
    owned = Event("battle", "the Guard attacks", owner="french", seen="a French attack")
    told.append(owned)
    assert (owned.owner, owned.witnesses) == ("french", ("prussian",))
    assert owned.for_side("prussian") == ("a French attack", {}) and owned.for_side("anglo-dutch") is None
    set_already = Event("battle", "losses", owner="prussian", seen="losses", witnesses=("anglo-dutch",))
    told.append(set_already)
    assert (set_already.owner, set_already.witnesses) == ("prussian", ("anglo-dutch",))
    told.witnesses.add("anglo-dutch")  # a reinforcement: the set grows, and so do the seats told
    late = Event("battle", "Wellington arrives")
    told.append(late)
    assert late.owner == ("french", "anglo-dutch", "prussian")
    assert events == [public, owned, set_already, late]


def test_n1815_a_seat_is_told_of_a_later_battle_it_witnesses_after_one_it_does_not():
    scenario, state = position()
    state.pending["fought"].reverse()  # Wavre (no Anglo-Dutch block there) first
    assert [b["town"] for b in view.view(scenario, state, "anglo-dutch")["battles"]] == ["ligny"]


def test_n1815_two_players_the_allied_seat_is_shown_a_deployment_where_either_allied_army_fights():
    scenario, state = position(players=2)
    battle = {"town": "brussels", "sides": {"att": "france", "def": "allies"}, "terrain": {}}
    state.pending = {"battles": [battle], "stage": "def", "deploy": {"def": {}, "att": {}}}
    for seat in ("anglo-dutch", "prussian"):  # only Anglo-Dutch blocks at Brussels: one player commands both armies
        assert [b["town"] for b in view.view(scenario, state, seat)["battles"]] == ["brussels"], seat
    assert view.view(scenario, state, "french")["battles"] == []


# -- what each seat reads of a battle's deployment (§6.24, §12) and to whom a battle's lines are told ---------

from pbem.games.napoleon1815.battle import BB, Battle, Fight  # noqa: E402


def ligny_fight(players=3):
    """Ligny: the French attack (the Guard in the centre, Napoleon in reserve); the Allies defend, Wellington and
    Blücher in the woods on their right, the Guards in the centre, two Prussian and one British block in reserve."""
    scenario = load_scenario(MAP)
    placed = (("OG", "att", "french", "att1", 4), ("NAP", "att", "french", "res-att", 1),
              ("WEL", "def", "anglo", "def0", 1), ("BR-GDS", "def", "anglo", "def1", 4),
              ("BLU", "def", "prussian", "def0", 1), ("P-I-1", "def", "prussian", "res-def", 4),
              ("P-I-2", "def", "prussian", "res-def", 3), ("BR-3", "def", "anglo", "res-def", 4))
    state = State(turn=6, blocks={i: Block(i, army, "ligny", n) for i, _, army, _, n in placed}, players=players)
    events: list = []
    fight = Fight(scenario, state, {}, None, None, events, ["ligny"])
    battle = Battle("ligny", {"att": "france", "def": "allies"}, {"fleurus"}, terrain={"def0": "woods"},
                    blocks={i: BB(i, role, army, scenario.blocks[i].type, loc) for i, role, army, loc, _ in placed})
    return fight, battle, events


def read(events) -> list[tuple]:
    assert all((e.kind, e.text) == ("battle", str(e.said)) for e in events)
    return [(e.owner, e.witnesses, e.data, str(e.said), e.seen) for e in events]


FR = RULESET.tongue("fr")


DEF = "The defender deploys: the defender's right: "
CENTRE = "; the defender's centre: BR-GDS (infantry 4, B3); the defender's left: nobody; 3 blocks in reserve"
ALL_DEF = f"{DEF}WEL (leader 1, A1), BLU (leader 1, A1){CENTRE} (P-I-1 (infantry 4, B2), P-I-2 (infantry 3, B2), " \
          "BR-3 (infantry 4, B2))."
BLIND_DEF = f"{DEF}2 blocks in the woods{CENTRE}."
ATT = "The attacker deploys: the attacker's left: nobody; the attacker's centre: OG (infantry 4, B3); " \
      "the attacker's right: nobody; 1 block in reserve"


def test_n1815_three_players_each_allied_seat_reads_its_partners_deployment_as_the_enemy_does():
    fight, battle, events = ligny_fight()
    fight.watch(battle)
    assert battle.witnesses == {"french", "anglo-dutch", "prussian"}
    fight.announce(battle, "def")
    fight.announce(battle, "att")
    assert read(events) == [
        ((), ("french",), {}, ALL_DEF, BLIND_DEF),  # the whole for the moderator; the French read the blind one
        (("anglo-dutch",), None, {"partial": True},
         f"{DEF}WEL (leader 1, A1), 1 block in the woods{CENTRE} (BR-3 (infantry 4, B2) and 2 more).", None),
        (("prussian",), None, {"partial": True},
         f"{DEF}BLU (leader 1, A1), 1 block in the woods{CENTRE} (P-I-1 (infantry 4, B2), P-I-2 (infantry 3, B2) "
         "and 1 more).", None),
        (("french",), ("anglo-dutch", "prussian"), {}, f"{ATT} (NAP (leader 1, A1)).", f"{ATT}."),
    ]
    # each reads it in his own language, the forms following the numbers
    fr_def = "Le défenseur se déploie : la droite du défenseur : "
    fr_centre = ("\u00a0; le centre du défenseur : BR-GDS (infanterie 4, B3)\u00a0; la gauche du défenseur : "
                 "personne\u00a0; 3 blocs en réserve")  # French: a no-break space before ";" (the catalog's frame)
    assert [FR.say(e.said) for e in events if e.owner != ("prussian",)] == [
        f"{fr_def}WEL (chef 1, A1), BLU (chef 1, A1){fr_centre} (P-I-1 (infanterie 4, B2), "
        "P-I-2 (infanterie 3, B2), BR-3 (infanterie 4, B2)).",
        f"{fr_def}WEL (chef 1, A1), 1 bloc dans les bois{fr_centre} (BR-3 (infanterie 4, B2) et 2 autres).",
        "L'attaquant se déploie : la gauche de l'attaquant : personne\u00a0; le centre de l'attaquant : "
        "OG (infanterie 4, B3)\u00a0; la droite de l'attaquant : personne\u00a0; 1 bloc en réserve (NAP (chef 1, A1))."]
    assert FR.say(events[0].seen_said) == f"{fr_def}2 blocs dans les bois{fr_centre}."


def test_n1815_a_deployment_with_nothing_hidden_is_one_text_for_every_witness():
    fight, battle, events = ligny_fight()
    battle.blocks["NAP"].loc = "att0"  # no reserve, no woods: the enemy sees all of it
    battle.witnesses = {"french", "anglo-dutch", "prussian"}
    fight.announce(battle, "att")
    assert read(events) == [
        (("french", "anglo-dutch", "prussian"), (), {},
         "The attacker deploys: the attacker's left: NAP (leader 1, A1); the attacker's centre: OG (infantry 4, B3); "
         "the attacker's right: nobody; 0 blocks in reserve.",
         "The attacker deploys: the attacker's left: NAP (leader 1, A1); the attacker's centre: OG (infantry 4, B3); "
         "the attacker's right: nobody; 0 blocks in reserve.")]


def test_n1815_two_players_the_allied_seats_read_their_whole_deployment():
    fight, battle, events = ligny_fight(players=2)
    alone, anglo, _ = ligny_fight(players=2)
    for bid in ("BLU", "P-I-1", "P-I-2"):
        del anglo.blocks[bid]
    alone.watch(anglo)  # the Anglo-Dutch alone: one player commands both armies, and sees it from either seat
    assert anglo.witnesses == {"french", "anglo-dutch", "prussian"}
    fight.watch(battle)
    fight.announce(battle, "def")
    assert read(events) == [(("anglo-dutch", "prussian"), ("french",), {}, ALL_DEF, BLIND_DEF)]


def test_n1815_a_seat_with_no_army_in_a_battle_reads_nothing_of_it():
    fight, battle, events = ligny_fight()
    for bid in ("WEL", "BR-GDS", "BR-3"):
        del battle.blocks[bid]
    battle.witnesses = {"anglo-dutch"}  # told earlier (a reinforcement since gone): still a witness
    fight.watch(battle)
    assert battle.witnesses == {"french", "anglo-dutch", "prussian"}
    battle.witnesses = set()
    fight.watch(battle)
    assert fight.witnessed(battle) == ("french", "prussian")
    fight.announce(battle, "def")
    rest = "; the defender's centre: nobody; the defender's left: nobody; 2 blocks in reserve"
    assert read(events) == [  # the Anglo-Dutch seat, no witness, reads nothing of it
        (("prussian",), ("french",), {},
         f"{DEF}BLU (leader 1, A1){rest} (P-I-1 (infantry 4, B2), P-I-2 (infantry 3, B2)).",
         f"{DEF}1 block in the woods{rest}.")]


def test_n1815_a_battles_lines_are_told_to_its_witnesses_and_the_outcome_to_them_as_to_all():
    fight, battle, events = ligny_fight()
    battle.witnesses = {"prussian", "french"}
    line = Text("the Guard charges")
    fight.say(battle, line)
    fight.say(battle, line, round=2)
    fight.say(battle, line, public=True, town="ligny")
    assert [(e.kind, e.text, e.data, e.owner, e.witnesses, e.said, e.seen_said) for e in events] == [
        ("battle", "the Guard charges", {}, ("french", "prussian"), None, line, None),
        ("battle", "the Guard charges", {"round": 2}, ("french", "prussian"), None, line, None),
        ("battle", "the Guard charges", {"town": "ligny"}, ("french", "prussian"), None, line, line)]
    assert events[2].for_side("anglo-dutch") == ("the Guard charges", {})  # what the map shows anyway
    assert events[0].for_side("anglo-dutch") is None
    told = fight.told(battle)
    assert (told.events, told.witnesses) == (events, battle.witnesses)


def test_n1815_a_seat_sees_which_of_its_own_blocks_are_in_square_and_not_the_enemys():
    scenario, state = position()
    ligny = state.pending["fought"][0]
    ligny["blocks"]["OG"]["square"] = True
    ligny["blocks"]["P-I-1"]["square"] = True
    french = view.view(scenario, state, "french")["battles"][0]["board"]
    prussian = view.view(scenario, state, "prussian")["battles"][0]["board"]
    assert french["att1"]["square"] == ["OG"] and french["def1"]["square"] == []
    assert prussian["def1"]["square"] == ["P-I-1"] and prussian["att1"]["square"] == []
