"""Survivors of scripts/mutation's napoleon1815 sample killed where a case cannot reach (docs/testing.md,
"Mutation testing"): who an event and a die belong to, the standing orders carried between sub-turns, the words
of a withdrawal. The rules a case can pin down have cases (tests/cases/napoleon1815/)."""

from __future__ import annotations

from pathlib import Path

from conftest import run_case_text

from pbem.games.napoleon1815.cases import run_case
from pbem.games.napoleon1815.orders import Orders
from pbem.games.napoleon1815.turn import merged

CASES = Path(__file__).parent / "cases" / "napoleon1815"



def test_a_forced_march_is_told_to_its_own_army_only_and_its_die_seen_by_it():
    # movement.x_forced_march__mutmut_3 (the seat dropped: the event and the die told to every seat) survived
    outcome = run_case(CASES / "forced-march-fails.toml")
    assert outcome.ok
    forced = [(e.owner, e.text, e.seen) for e in outcome.raw if e.kind == "forced"]
    assert forced == [("french", "Forced march of I-2: die 3: loses a step", None)]
    assert [(r.purpose, r.seen_by) for r in outcome.rolls] == [("forced march, block I-2", ("french",))]


def test_standing_orders_sent_in_a_sub_turn_replace_the_saved_ones():
    # turn.x_merged__mutmut_55 (the new order's list read with no name) survived: no test sent SKIRMISH, HIT
    # FIRST, RETREAT FIRST or TERRAIN in a sub-turn
    saved = {"french": {"doctrine": {}, "retreat": [], "supply": [], "ask": None, "skirmish": ["II"],
                        "hit_first": ["I-2"]}}
    new = Orders("french", skirmish=["OG"], retreat_first=["III"], terrain={"farm": "left"})
    out = merged(saved, {"french": new})
    assert (out["french"].skirmish, out["french"].hit_first, out["french"].retreat_first, out["french"].terrain) == (
        ["OG"], ["I-2"], ["III"], {"farm": "left"})
    assert (out["prussian"].skirmish, out["prussian"].terrain) == ([], {})


def test_an_attacker_leaving_a_battle_is_told_it_will_withdraw():
    # turn.x_next_round__mutmut_35 (the attacker's words in capitals) survived: the case has the defender leave
    source = (CASES / "live-every-round-a-sub-turn.toml").read_text()
    assert 'orders = { prussian = "LEAVE Charleroi" }' in source
    source = source.replace('orders = { prussian = "LEAVE Charleroi" }', 'orders = { french = "LEAVE Charleroi" }')
    source = source[:source.index("[expect]")] + '[expect]\nevents = ["round 1 of the attacker"]\n'
    outcome = run_case_text(run_case, source)
    assert outcome.ok, outcome.failures
    told = [(e.owner, e.text) for e in outcome.raw if "will withdraw" in e.text]
    assert told == [("french", "The attacker will withdraw from Charleroi (LEAVE).")]


def test_the_map_is_one_road_network_and_no_town_is_99_roads_away():
    # general.x_step_toward__mutmut_22 (99 made 100 for a town the roads do not reach) and
    # general.x_general_orders__mutmut_108 (no default for such a town) change nothing while every town reaches
    # every other, fewer than 99 roads away: docs/testing.md counts them equivalent on that ground, which this holds
    from pbem.games.napoleon1815.cases import scenario
    from pbem.games.napoleon1815.general import distances

    board = scenario().board
    for town in board.towns:
        far = distances(board, town)
        assert set(far) == set(board.towns) and max(far.values()) < 99


def test_the_enemy_sees_a_block_regroup_into_the_battles_town():
    # battle.xǁFightǁregroup__mutmut_71 (the town the enemy sees unnamed) survived
    outcome = run_case(CASES / "regroup-after-victory.toml")
    assert outcome.ok
    assert [(e.owner, e.text, e.seen) for e in outcome.raw if e.kind == "regroup"] == [
        ("french", "IV regroups from Beaumont into Thuin (§7.5)", "A French block regroups into Thuin")]


def three_players(case: str, extra: str = ""):
    source = (CASES / f"{case}.toml").read_text()
    assert "[case]\n" in source
    return run_case_text(run_case, source.replace("[case]\n", "[case]\nplayers = 3\n" + extra, 1))


def test_a_skirmishs_dice_are_seen_only_by_the_seats_that_fight_it_and_say_who_fires():
    # skirmish.x_skirmish__mutmut_9 (the dice seen by every seat) and _85 (a die's purpose dropped) survived: with
    # two players every seat saw them anyway. With three, the Anglo-Dutch seat sees nothing of a French-Prussian
    # skirmish at Thuin.
    outcome = three_players("skirmish-tie-attacker-retreats")
    assert outcome.ok, outcome.failures
    assert outcome.rolls and all(r.seen_by == ("french", "prussian") for r in outcome.rolls)
    assert all(r.purpose.endswith(" fires, skirmish at Thuin") and r.purpose.split()[0] in outcome.state.blocks
               for r in outcome.rolls)



def test_a_hit_among_equally_strong_blocks_spares_the_leader_and_follows_hit_first():
    # losses.x_victim__mutmut_10 (leaders first among the tied) and _53 (the standing order's source misspelt)
    # survived
    from pbem.core.decisions import Decider
    from pbem.games.napoleon1815.cases import scenario
    from pbem.games.napoleon1815.losses import victim

    outcome = run_case(CASES / "skirmish-tie-attacker-retreats.toml")
    state = outcome.state
    for bid in ("BLU", "P-I-1", "P-II-1"):
        state.blocks[bid].strength = 2
    decider = Decider()
    assert victim(scenario(), state, decider, ["BLU", "P-II-1", "P-I-1"], "Thuin") == "P-I-1"
    assert [(r.decision.options, r.answer, r.source) for r in decider.records] == [
        (("P-I-1", "P-II-1", "BLU"), ("P-I-1",), "default")]
    decider = Decider()
    orders = {"prussian": Orders("prussian", hit_first=["P-II-1"])}
    assert victim(scenario(), state, decider, ["BLU", "P-II-1", "P-I-1"], "Thuin", orders) == "P-II-1"
    assert [(r.answer, r.source) for r in decider.records] == [(("P-II-1",), "standing")]


def test_a_battle_told_to_every_seat_names_its_town():
    # battle.xǁFightǁsay__mutmut_10 (the public line's data dropped) survived: the map marks the battle's town
    outcome = run_case(CASES / "battle-cavalry-shock.toml")
    opened = [e for e in outcome.raw if e.kind == "battle" and e.text.startswith("Battle of Thuin:")]
    assert [(e.owner, e.data) for e in opened] == [(("french", "anglo-dutch", "prussian"), {"town": "thuin"})]


def test_a_retreat_decision_names_its_towns_for_the_seat_asked():
    # retreat.x_choose_towns__mutmut_13 (the towns' names dropped from the decision) survived: a seat asked where
    # to retreat reads the towns by name
    from pbem.core.decisions import Decider
    from pbem.games.napoleon1815.cases import scenario
    from pbem.games.napoleon1815.retreat import choose_towns

    outcome = run_case(CASES / "skirmish-tie-attacker-retreats.toml")
    sc, decider = scenario(), Decider()
    towns = choose_towns(sc, outcome.state, "thuin", "prussia", ["beaumont", "charleroi"], decider, {}, "prussian")
    assert sorted(towns) == ["beaumont", "charleroi"]
    (record,) = decider.records
    assert record.decision.labels == (("beaumont", "Beaumont"), ("charleroi", "Charleroi"))
    # retreat.x_choose_towns__mutmut_58 (the standing order's source misspelt) survived
    decider = Decider()
    standing = {"prussian": Orders("prussian", retreat=["charleroi"])}
    assert choose_towns(sc, outcome.state, "thuin", "prussia", ["beaumont", "charleroi"], decider, standing,
                        "prussian")[0] == "charleroi"
    assert [(r.answer[0], r.source) for r in decider.records] == [("charleroi", "standing")]


def prussian_view(stack_at: str, french_at: str, count: int) -> dict:
    from pbem.games.napoleon1815.cases import scenario

    corps = [b for b in scenario().blocks.values() if b.army == "prussian" and b.type == "infantry"][:3]
    return {"seat": "prussian", "phase": "campaign", "owing": ["prussian"], "night": False,
            "blocks": [{"id": b.id, "army": b.army, "town": stack_at, "strength": b.strength, "type": b.type}
                       for b in corps],
            "hidden": [{"army": "french", "town": french_at, "count": count}]}


def test_the_computer_general_covers_a_supply_city_the_enemy_is_two_roads_from():
    # general.x_general_orders__mutmut_127 (threatened only within 1 road, not 2) survived: the French at Namur,
    # two roads from Liège, threaten it; the Prussian stack at Huy falls back on Liège rather than strike Namur
    from pbem.games.napoleon1815.cases import scenario
    from pbem.games.napoleon1815.general import general_orders

    assert general_orders(scenario(), prussian_view("huy", "namur", 2), 1) == "MOVE P-I-1 P-I-2 P-II-1 Huy -> Liège\n"


def test_the_computer_general_strikes_a_weaker_enemy_stack_next_to_one_of_its_own():
    # general.x_general_orders__mutmut_139 (the stack's neighbours not looked up) survived
    from pbem.games.napoleon1815.cases import scenario
    from pbem.games.napoleon1815.general import general_orders

    assert general_orders(scenario(), prussian_view("ligny", "charleroi", 1), 1) == \
        "MOVE P-I-1 P-I-2 P-II-1 Ligny -> Charleroi\n"


def test_the_anglo_dutch_seat_chooses_where_its_blocks_retreat_after_a_skirmish():
    # skirmish.x_skirmish__mutmut_222 (the Anglo-Dutch seat misspelt: its RETREAT TO order not read) survived: the
    # cases' losers were Prussian. retreat-standing-order, with an Anglo-Dutch brigade in P-I-2's place.
    source = (CASES / "retreat-standing-order.toml").read_text()
    assert source.count("P-I-2") == 4 and 'prussian = "RETREAT TO Charleroi"' in source
    source = source.replace("P-I-2", "NE-2").replace('prussian = "RETREAT TO Charleroi"',
                                                     'anglo-dutch = "RETREAT TO Charleroi"')
    outcome = run_case_text(run_case, source)
    assert outcome.ok, outcome.failures


def test_supply_losses_do_not_count_toward_breaking_when_the_reading_says_so():
    # supply.x_supply__mutmut_88 (the scenario's supply_losses_count ignored) survived: every case plays the
    # default reading (supply losses count, docs/rules-notes.md); a scenario may read the rule book the other way
    from pbem.games.napoleon1815.cases import scenario

    source = (CASES / "supply-losses-break-the-army.toml").read_text()
    source = source[:source.index("[expect]")] + ('[expect]\nevents = ["leaves the army: the French hold Brussels"]\n'
                                                  'no_events = ["The Anglo-Dutch army breaks"]\n'
                                                  'lost = { anglo = 7 }\n')
    sc = scenario()
    assert sc.supply_losses_count
    sc.supply_losses_count = False
    try:
        outcome = run_case_text(run_case, source)
    finally:
        sc.supply_losses_count = True
    assert outcome.ok, outcome.failures


def test_a_block_leaving_the_fight_crosses_back_over_a_stream_on_either_side_at_most_twice():
    # combat.RoundActions.disengage: mutmut_17 (the defender's side's stream looked up as "DEF1") survived: no
    # case had a block leave the fight back over a stream lying on the defender's side of the sector (§6.21)
    from collections import Counter
    from types import SimpleNamespace

    from pbem.games.napoleon1815.combat import RoundActions

    class Fight(RoundActions):
        def __init__(self):
            self.killed = []

        def kill(self, battle, b, why):
            self.killed.append((b.id, str(why)))

    def leaving(terrain, loc="def1", crossed=0):
        fight = Fight()
        battle = SimpleNamespace(terrain=terrain, crossings=Counter({("att", "1"): crossed}))
        b = SimpleNamespace(id="I-1", role="att", loc=loc, moved=False, fresh=True, square=True)
        fight.disengage(battle, b)
        return (b.loc, b.moved, b.fresh, b.square), battle.crossings[("att", "1")], fight.killed

    for side in ("def1", "att1"):  # the stream on the defender's side of the sector, or on the attacker's
        assert leaving({side: "stream"}) == (("att1", True, False, False), 1, [])
        assert leaving({side: "stream"}, crossed=1) == (("att1", True, False, False), 2, [])
        assert leaving({side: "stream"}, crossed=2) == (("def1", False, True, True), 2,
                                                        [("I-1", "it cannot cross the stream (§6.21)")])
    assert leaving({"def1": "woods"}) == (("att1", True, False, False), 0, [])  # no stream: nothing counted
    # from its own side's position it goes to the reserve, crossing nothing
    assert leaving({"att1": "stream"}, loc="att1", crossed=2) == (("res-att", True, False, False), 2, [])


def test_a_second_step_only_in_the_round_from_the_reserve_and_own_blocks_ahead_are_no_enemy():
    # combat.RoundActions.move: its step counter (a mounted block in from the reserve may step on into the enemy's
    # position the same round) is cleared at the round's end; mutmut_240 (never cleared) survived: no case had
    # such a block leave the fight in a later round and then be offered a second step
    from collections import Counter
    from types import SimpleNamespace

    from pbem.games.napoleon1815.combat import RoundActions

    class Fight(RoundActions):
        said: list = []

        def doctrine(self, battle, role, key):
            return {"COMMIT": "9", "ATTACK": "YES", "SQUARE": "NO", "SHELTER": "NO"}[key]

        def at(self, battle, loc, role=None):
            return [b for b in battle.blocks.values() if b.loc == loc and (role is None or b.role == role)]

        def engaged(self, battle, b):
            return not b.loc.startswith("res") and any(o.role != b.role for o in self.at(battle, b.loc))

        def strength(self, bid):
            return 2

        def name(self, b):
            return b.id

        def where(self, loc):
            return loc

        def say(self, battle, text, public=False, **data):
            self.said.append(str(text))

        def check_rout(self, battle):
            return False

    def block(bid, role, loc):
        return SimpleNamespace(id=bid, role=role, loc=loc, type="cavalry", army="french", moved=False, fired=False,
                               fresh=False, square=False, shelter=None)

    cavalry = block("C", "att", "res-att")
    battle = SimpleNamespace(blocks={"C": cavalry}, terrain={}, crossings=Counter(), commits={})
    fight = Fight()
    # round 1: in from the reserve; no enemy in front, it stays (a move behind its own line: not an
    # activity against a stalemate, §6.7, so move says False)
    assert not fight.move(battle, "att", 1)
    assert (cavalry.loc, cavalry.moved, hasattr(cavalry, "steps")) == ("att1", True, False)
    enemy = block("E", "def", "def1")
    battle.blocks["E"] = enemy
    cavalry.loc = "def1"  # a later round: it had engaged, and leaves the fight (bad morale)
    fight.disengage(battle, cavalry)
    assert (cavalry.loc, cavalry.moved) == ("att1", True)
    fight.move(battle, "att", 2)
    assert cavalry.loc == "att1"  # it moved this round: no step forward again

    # mutmut_98 (the enemy's position searched for blocks of either side) survived: own blocks already in the
    # enemy's empty position are no enemy there, so one block is kept back from advancing into it
    ahead, first, second = block("A", "att", "def1"), block("B", "att", "att1"), block("C", "att", "att1")
    battle = SimpleNamespace(blocks={"A": ahead, "B": first, "C": second}, terrain={}, crossings=Counter(),
                             commits={})
    assert fight.move(battle, "att", 1)
    assert [(b.id, b.loc) for b in (ahead, first, second)] == [("A", "def1"), ("B", "def1"), ("C", "att1")]
