"""Napoleonic DBA's command: couriers (couriers.py), the delay die by the commander's character, the initiative
test, and the order in force each turn (command.py). Dice are fixed through pbem.core.chance, and each one
rolled is checked for its purpose."""

from __future__ import annotations

import pytest
from test_dba_orders import stand_in

from pbem.core.chance import Chance
from pbem.games.dba.command import (TABLE, BrigadeOrders, CommandError, character, delay_roll, initiative_test,
                                    receive, take_initiative)
from pbem.games.dba.couriers import DELIVERED, LOST, RIDING, SPEED, CourierError, Post, step_towards
from pbem.games.dba.orders import HOLD, Event, Order, Ref, Step
from pbem.games.dba.parse import parse_orders

# The text's table, typed again from «Тип командующего» (Лихой, Обычный, Осторожный, Робкий):
# charisma, initiative passes on, delay for the die 1..6
TEXT_TABLE = {
    "dashing": (+1, 4, (0, 0, 0, 0, 1, 1)),
    "ordinary": (0, 5, (0, 0, 1, 1, 2, 3)),
    "cautious": (0, 6, (0, 1, 1, 2, 2, 3)),
    "timid": (-1, None, (1, 1, 2, 2, 3, 3)),
}


@pytest.fixture
def names():
    return stand_in()


def order(names, text: str, turn: int = 3) -> Order:
    (one,) = parse_orders(text, names, "allied", turn).dispatches
    return one


class Sees:
    """A stand-in executor: the events so this turn, and the steps done."""

    def __init__(self, events=(), done=()):
        self.events, self.finished = set(events), set(done)

    def happened(self, event: Event) -> bool:
        return event in self.events

    def done(self, step: Step) -> bool:
        return step in self.finished


NOTHING = Sees()


# -- the table ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("kind", sorted(TEXT_TABLE))
def test_the_delay_die_gives_the_texts_delay_for_each_character(names, kind):
    commander = next(c for c in names.commanders.values() if c.character == kind)
    got = []
    for die in range(1, 7):
        chance = Chance(1, 3, fixed=[die])
        got.append(delay_roll(chance, commander, "order from Wellington"))
        (roll,) = chance.rolls
        assert roll.sides == 6 and roll.value == die and roll.purpose.startswith(f"delay, {commander.name} ({kind})")
    assert tuple(got) == TEXT_TABLE[kind][2]
    assert (TABLE[kind].charisma, TABLE[kind].initiative) == TEXT_TABLE[kind][:2]


def test_characters_are_named_in_english_or_russian():
    assert character("Лихой") is TABLE["dashing"] and character("ОСТОРОЖНЫЙ") is TABLE["cautious"]
    assert character("average") is TABLE["ordinary"]
    with pytest.raises(CommandError, match="no type of commander called 'brave'"):
        character("brave")


# -- the initiative test --------------------------------------------------------------------------------

@pytest.mark.parametrize("kind, fails, passes", [("dashing", 3, 4), ("ordinary", 4, 5), ("cautious", 5, 6)])
def test_the_initiative_test_passes_from_the_texts_number(names, kind, fails, passes):
    commander = next(c for c in names.commanders.values() if c.character == kind)
    assert initiative_test(Chance(1, 3, fixed=[fails]), commander, 3) is False
    commander.initiative_used = False
    chance = Chance(1, 3, fixed=[passes])
    assert initiative_test(chance, commander, 3) is True
    assert chance.rolls[0].purpose == f"initiative test, {commander.name} ({kind}, passes on {passes}+), turn 3"


def test_one_initiative_test_a_game_even_a_failed_one(names):
    bijlandt = names.commanders["bijlandt"]
    assert initiative_test(Chance(1, 2, fixed=[1]), bijlandt, 2) is False
    chance = Chance(1, 5, fixed=[6])
    with pytest.raises(CommandError, match="has taken his one initiative test"):
        initiative_test(chance, bijlandt, 5)
    assert chance.rolls == []


def test_a_timid_commander_has_no_test(names):
    chance = Chance(1, 3, fixed=[6])
    with pytest.raises(CommandError, match=r"timid \(Робкий\).*n/a"):
        initiative_test(chance, names.commanders["saxe"], 3)
    assert chance.rolls == [] and not names.commanders["saxe"].initiative_used


# -- couriers -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("distance, arrives", [(0, 4), (50, 4), (100, 4), (101, 5), (200, 5), (250, 6)])
def test_a_courier_takes_a_turn_a_ten_inches_and_at_least_one_turn(names, distance, arrives):
    """Sent on turn 3 at the default 10" a turn to a commander who does not move."""
    post = Post()
    assert post.speed == SPEED == 100
    post.send(order(names, "FROM Wellington TO Bijlandt\nHOLD\n"), 3, (0, 0))
    where = {"bijlandt": (0, distance)}.get
    turns = {turn: post.ride(turn, where, Chance(1, turn)) for turn in range(3, 9)}
    assert [t for t, got in turns.items() if got] == [arrives]
    (courier,) = post.couriers
    assert courier.status == DELIVERED and courier.delivered == arrives and courier.ridden == distance


def test_a_courier_rides_after_a_moving_commander(names):
    post = Post(speed=100)
    post.send(order(names, "FROM Wellington TO Bijlandt\nHOLD\n"), 1, (0, 0))
    path = {2: (0, 150), 3: (0, 200), 4: (0, 240)}  # he rides away 5" and 4" a turn
    got = {t: post.ride(t, lambda _id, t=t: path[t], Chance(1, t)) for t in (2, 3, 4)}
    assert [t for t, d in got.items() if d] == [3]
    assert (post.couriers[0].x, post.couriers[0].y) == (0, 200)


def test_the_rider_moves_in_whole_tenths_on_the_straight_line():
    assert step_towards(0, 0, 300, 400, 100) == (60, 80, 100, False)
    assert step_towards(0, 0, 30, 40, 100) == (30, 40, 50, True)


def test_a_courier_is_delivered_once(names):
    post = Post()
    courier = post.send(order(names, "FROM Wellington TO Bijlandt\nHOLD\n"), 3, (600, 600))
    where = {"bijlandt": (600, 650)}.get
    assert post.ride(4, where, Chance(1, 4)) == [courier]
    assert all(post.ride(t, where, Chance(1, t)) == [] for t in range(5, 10))
    with pytest.raises(CourierError, match="courier 1 was already delivered on turn 4"):
        post.deliver(courier, 5)
    assert post.check() == []
    brigade = BrigadeOrders("1nl")
    brigade.deliver(courier.order, 4, 0, 3, courier.seq)
    with pytest.raises(CommandError, match="dispatch 1 was already delivered to 1nl"):
        brigade.deliver(courier.order, 5, 0, 3, courier.seq)


def test_the_post_check_finds_a_courier_ended_twice_or_too_early(names):
    post = Post()
    one = post.send(order(names, "FROM Wellington TO Bijlandt\nHOLD\n"), 3, (0, 0))
    two = post.send(order(names, "FROM Wellington TO Orange\nHOLD\n"), 3, (0, 0))
    two.seq = 1
    one.status, one.delivered = DELIVERED, 3
    assert post.check() == ["two couriers share a number", "courier 1 sent on turn 3 ended on turn 3"]


def test_no_dice_for_losses_unless_the_scenario_sets_a_chance(names):
    post = Post()  # loss 0 by default: the text says nothing of lost dispatches
    post.send(order(names, "FROM Wellington TO Bijlandt\nHOLD\n"), 3, (0, 0))
    chance = Chance(1, 4)
    post.ride(4, {"bijlandt": (0, 10)}.get, chance)
    assert chance.rolls == [] and post.couriers[0].status == DELIVERED


@pytest.mark.parametrize("die, status", [(2, LOST), (3, DELIVERED)])
def test_a_lost_dispatch_is_a_recorded_percent_die(names, die, status):
    post = Post(loss=2)
    post.send(order(names, "FROM Wellington TO Bijlandt\nHOLD\n"), 3, (0, 0))
    chance = Chance(1, 4, fixed=[die])
    delivered = post.ride(4, {"bijlandt": (0, 10)}.get, chance)
    assert post.couriers[0].status == status and (delivered != []) == (status == DELIVERED)
    (roll,) = chance.rolls
    assert roll.sides == 100 and roll.purpose == "courier 1 (Wellington to Bijlandt): lost on a roll of 2 or less"


def test_a_courier_to_a_commander_gone_is_lost(names):
    post = Post()
    post.send(order(names, "FROM Wellington TO Bijlandt\nHOLD\n"), 3, (0, 0))
    assert post.ride(4, lambda _id: None, Chance(1, 4)) == [] and post.couriers[0].status == LOST


def test_the_post_refuses_what_it_cannot_carry(names):
    with pytest.raises(CourierError, match="speed must be more than 0"):
        Post(speed=0)
    with pytest.raises(CourierError, match="percent from 0 to 100"):
        Post(loss=101)
    (initiative,) = parse_orders("INITIATIVE Bijlandt\nHOLD\n", names, "allied", 3).initiatives
    with pytest.raises(CourierError, match="needs no courier"):
        Post().send(initiative, 3, (0, 0))


def test_the_post_survives_saving_mid_ride(names):
    post = Post(speed=60, loss=5)
    post.send(order(names, "FROM Wellington TO Bijlandt\nHOLD X\n"), 3, (0, 0))
    post.ride(4, {"bijlandt": (0, 500)}.get, Chance(1, 4))
    again = Post.from_dict(post.to_dict())
    assert again == post and again.couriers[0].status == RIDING and again.couriers[0].y == 60


# -- the order in force ----------------------------------------------------------------------------------

def test_an_order_is_in_force_exactly_after_its_delay_and_never_earlier(names):
    brigade = BrigadeOrders("1nl")
    first = order(names, "FROM Wellington TO Bijlandt TURN 1\nHOLD Quatre Bras\n", 1)
    brigade.deliver(first, 2, 0, 1, 1)
    assert brigade.in_force(2, NOTHING).step == Step("HOLD", "Quatre Bras")
    second = order(names, "FROM Wellington TO Bijlandt\nMOVE TO Gemioncourt\n")
    brigade.deliver(second, 5, 2, 3, 2)  # delivered turn 5, delay 2: from turn 7
    assert [brigade.in_force(t, NOTHING).step for t in (5, 6, 7)] == [
        Step("HOLD", "Quatre Bras"), Step("HOLD", "Quatre Bras"), Step("MOVE", "Gemioncourt")]


def test_no_order_is_hold(names):
    got = BrigadeOrders("1nl").in_force(1, NOTHING)
    assert got.step == HOLD and got.index is None and got.text == "HOLD (no order in force)"


def test_an_older_order_arriving_later_is_set_aside(names):
    brigade = BrigadeOrders("1nl")
    old = order(names, "FROM Wellington TO Bijlandt\nRETREAT TO Quatre Bras\n")
    new = order(names, "FROM Wellington TO Bijlandt TURN 4\nATTACK NEAREST ENEMY\n", 4)
    brigade.deliver(old, 5, 3, 3, 1)  # sent turn 3, in force turn 8
    brigade.deliver(new, 6, 0, 4, 2)  # sent turn 4, in force turn 6
    assert brigade.in_force(6, NOTHING).step.verb == "ATTACK"
    assert brigade.in_force(8, NOTHING).step.verb == "ATTACK"
    assert "older than the order in force" in brigade.history[-1]


def test_until_ends_a_step_unless_drops_the_rest(names):
    brigade = BrigadeOrders("1nl")
    text = ('FROM Wellington TO Bijlandt\nMOVE TO Gemioncourt\nHOLD IT UNTIL ENEMY WITHIN 6" OF Gemioncourt\n'
            'RETREAT TO Quatre Bras UNLESS ENEMY ATTACKS\nHOLD Quatre Bras\n')
    o = order(names, text)
    move, hold, retreat, last = o.steps
    brigade.deliver(o, 3, 0, 3, 1)
    assert brigade.in_force(3, NOTHING).step == move
    assert brigade.in_force(4, Sees(done={move})).step == hold  # arrived: the next step at once
    assert brigade.in_force(5, NOTHING).step == hold  # holds: nothing seen
    assert brigade.in_force(6, Sees({hold.until})).step == retreat
    got = brigade.in_force(7, Sees({retreat.unless}))
    assert got.step == HOLD and got.index is None and got.text == "HOLD (the order is carried out)"
    assert brigade.in_force(8, Sees(done={retreat})).step == HOLD  # dropped: the last step never comes


def test_if_waits_for_its_event_and_at_begins_at_its_turn(names):
    brigade = BrigadeOrders("1nl")
    o = order(names, "FROM Wellington TO Bijlandt\nHOLD Gemioncourt\nIF FRIENDLY 2nd Nassau REACHES Bossu Wood "
                     "ATTACK Lancers\nRETREAT TO Quatre Bras AT TURN 9\n")
    hold, attack, retreat = o.steps
    brigade.deliver(o, 3, 0, 3, 1)
    assert brigade.in_force(3, NOTHING).step == hold
    got = brigade.in_force(4, Sees(done={hold}))
    assert got.step == attack and got.waiting == "waiting until FRIENDLY 2nd Nassau REACHES Bossu Wood"
    assert got.text.startswith("HOLD, waiting until FRIENDLY 2nd Nassau REACHES Bossu Wood; then IF")
    assert brigade.in_force(5, Sees({attack.when})) == brigade.in_force(5, NOTHING)  # begun: the IF is past
    assert brigade.in_force(6, NOTHING).waiting == "" and brigade.in_force(6, NOTHING).step == attack
    assert brigade.in_force(9, NOTHING).step == retreat  # AT TURN 9 cuts the attack short, exactly then


def test_at_waits_when_the_steps_before_end_early(names):
    brigade = BrigadeOrders("1nl")
    o = order(names, "FROM Wellington TO Bijlandt\nMOVE TO X THEN RETREAT TO bridge AT TURN 6\n")
    move, retreat = o.steps
    brigade.deliver(o, 3, 0, 3, 1)
    assert brigade.in_force(4, Sees(done={move})).waiting == "waiting for turn 6"
    assert brigade.in_force(5, NOTHING).waiting == "waiting for turn 6"
    got = brigade.in_force(6, NOTHING)
    assert got.step == retreat and got.waiting == ""


def test_an_initiative_order_then_the_old_order_again_from_where_it_stood(names):
    brigade = BrigadeOrders("1nl")
    o = order(names, "FROM Wellington TO Bijlandt\nMOVE TO Gemioncourt THEN HOLD IT\n")
    move, hold = o.steps
    brigade.deliver(o, 3, 0, 3, 1)
    brigade.in_force(3, NOTHING)
    (own,) = parse_orders("INITIATIVE Bijlandt\nATTACK ENEMY AT Piraumont\n", names, "allied", 4).initiatives
    commander = names.commanders["bijlandt"]
    chance = Chance(1, 4, fixed=[5])
    assert take_initiative(chance, commander, own, brigade, 4) is True and commander.initiative_used
    got = brigade.in_force(4, NOTHING)
    assert got.step == own.steps[0] and got.initiative
    got = brigade.in_force(5, Sees(done={own.steps[0]}))
    assert got.step == move and not got.initiative  # «вернуться к исполнению своего первоначального приказа»


def test_a_failed_initiative_leaves_the_order(names):
    brigade = BrigadeOrders("1nl")
    o = order(names, "FROM Wellington TO Bijlandt\nHOLD Quatre Bras\n")
    brigade.deliver(o, 3, 0, 3, 1)
    (own,) = parse_orders("INITIATIVE Bijlandt\nRETREAT TO bridge\n", names, "allied", 4).initiatives
    assert take_initiative(Chance(1, 4, fixed=[4]), names.commanders["bijlandt"], own, brigade, 4) is False
    assert brigade.in_force(4, NOTHING).step == Step("HOLD", "Quatre Bras")


def test_a_new_order_ends_the_initiative(names):
    brigade = BrigadeOrders("1nl")
    (own,) = parse_orders("INITIATIVE Bijlandt\nHOLD Y\n", names, "allied", 3).initiatives
    brigade.take_initiative(own, 3)
    assert brigade.in_force(3, NOTHING).initiative
    brigade.deliver(order(names, "FROM Wellington TO Bijlandt TURN 4\nHOLD X\n", 4), 5, 0, 4, 1)
    got = brigade.in_force(5, NOTHING)
    assert got.step == Step("HOLD", "X") and not got.initiative and brigade.initiative is None


def test_a_saved_state_goes_on_as_the_live_one(names):
    def run(save: bool):
        brigade = BrigadeOrders("1nl")
        o = order(names, "FROM Wellington TO Bijlandt\nMOVE TO X THEN HOLD IT UNTIL ENEMY ATTACKS\n"
                         "RETREAT TO bridge AT TURN 9\n")
        brigade.deliver(o, 4, 1, 3, 1)
        seen = {5: Sees(done={o.steps[0]}), 7: Sees({o.steps[1].until})}
        out = []
        for turn in range(4, 11):
            if save:
                brigade = BrigadeOrders.from_dict(brigade.to_dict())
            out.append(brigade.in_force(turn, seen.get(turn, NOTHING)).text)
        return out, brigade.to_dict()

    assert run(True) == run(False)


# -- a dispatch from pen to table -----------------------------------------------------------------------

def test_from_written_to_in_force_with_every_die_recorded(names):
    """Wellington writes on turn 3, 13" from Bijlandt (130 tenths): the courier arrives on
    turn 5; Bijlandt (ordinary) rolls 5 for his delay, 2 turns: the order is in force on turn 7, not before."""
    wellington, bijlandt = names.commanders["wellington"], names.commanders["bijlandt"]
    (dispatch,) = parse_orders("FROM Wellington AT Quatre Bras TO Bijlandt TURN 3\nMOVE TO Gemioncourt\n", names,
                               "allied", 3).dispatches
    post, brigade = Post(), BrigadeOrders("1nl")
    assert (wellington.x, wellington.y) == (620, 640) and (bijlandt.x, bijlandt.y) == (580, 470)
    post.send(dispatch, 3, (580, 600))  # he writes it 13" from Bijlandt
    steps, rolls = {}, []
    for turn in range(3, 9):
        chance = Chance(7, turn, fixed=[5])
        for courier in post.ride(turn, lambda cid: (names.commanders[cid].x, names.commanders[cid].y), chance):
            assert receive(courier, turn, names.commanders[courier.recipient], brigade, chance) == 2
        rolls += [(turn, r.purpose, r.value) for r in chance.rolls]
        steps[turn] = brigade.in_force(turn, NOTHING).step
    assert post.couriers[0].delivered == 5
    assert rolls == [(5, "delay, Bijlandt (ordinary): order from Wellington (courier 1)", 5)]
    assert [t for t, s in steps.items() if s == dispatch.steps[0]] == [7, 8]
    assert post.of("wellington") == post.of("bijlandt") == post.couriers


def test_between_seats_the_same_way_and_a_superior_rolls_no_delay(names):
    """Kriegsspiel: one seat a commander. Perponcher's seat orders Bijlandt's (a brigade's commander, 12" away:
    two turns, then his delay die) and Wellington's seat orders Orange's (3.6" away; no brigade of his own: the
    dispatch is read by his seat, no die)."""
    post = Post()
    to_brigade = order(names, "FROM Perponcher TO Bijlandt\nHOLD Gemioncourt\n")
    to_corps = order(names, "FROM Wellington TO Orange\nHOLD Quatre Bras\n")
    post.send(to_brigade, 3, (590, 590))
    post.send(to_corps, 3, (620, 640))
    where = {"bijlandt": (580, 470), "orange": (600, 610)}.get
    chance = Chance(7, 4)
    (first,) = post.ride(4, where, chance)
    assert first.order == to_corps and receive(first, 4, names.commanders["orange"], None, chance) is None
    assert chance.rolls == []
    chance = Chance(7, 5, fixed=[1])
    (second,) = post.ride(5, where, chance)
    brigade = BrigadeOrders("1nl")
    assert second.order == to_brigade and receive(second, 5, names.commanders["bijlandt"], brigade, chance) == 0
    assert [r.purpose for r in chance.rolls] == ["delay, Bijlandt (ordinary): order from Perponcher (courier 1)"]
    assert brigade.in_force(5, NOTHING).step == Step("HOLD", "Gemioncourt")


def test_in_force_text_names_the_step(names):
    brigade = BrigadeOrders("1nl")
    brigade.deliver(order(names, "FROM Wellington TO Bijlandt\nMOVE TO X IN COLUMN THEN HOLD IT\n"), 3, 0, 3, 1)
    assert brigade.in_force(3, NOTHING).text == "MOVE TO X IN COLUMN  (step 1 of 2)"
    assert Ref("1nl", "1st Netherlands").to_dict() == ["1nl", "1st Netherlands"]


def test_a_seat_knows_only_its_own_couriers_and_what_reached_it(names):
    post = Post()
    mine = post.send(order(names, "FROM Wellington TO Bijlandt\nHOLD\n"), 3, (600, 600))
    theirs = post.send(parse_orders("FROM Ney TO Husson\nHOLD\n", names, "french", 3).dispatches[0], 3, (580, 130))
    assert post.seen_by({"wellington", "orange"}) == [mine] and post.seen_by({"bijlandt"}) == []
    assert mine.text == "dispatch 1, Wellington to Bijlandt, sent turn 3: on the road (0\" ridden)"
    post.ride(4, {"bijlandt": (600, 650), "husson": (580, 330)}.get, Chance(1, 4))
    assert post.seen_by({"bijlandt"}) == [mine] and post.seen_by({"ney"}) == [theirs]
    assert mine.text == "dispatch 1, Wellington to Bijlandt, sent turn 3: delivered on turn 4"
    assert theirs.text == "dispatch 2, Ney to Husson, sent turn 3: on the road (10\" ridden)"
