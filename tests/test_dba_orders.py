"""Napoleonic DBA's written orders, read (pbem/games/dba/parse.py, docs/dba-orders.md): the two examples of the
rule book, every word of its table in Russian and English, the events, the normalised echo read back to the
same values, and the answers to wrong orders (line, column, what was expected, "did you mean").

The names come from a small Quatre Bras table built with names.py's own constructor (:func:`stand_in`), the
same one docs/dba-orders.md's rule-book example is read against (tests/test_dba_orders_docs.py; the page's other
examples name the shipped Quatre Bras scenario)."""

from __future__ import annotations

import pytest
from shapely.geometry import Point, box

from pbem.core.orders import OrdersError
from pbem.games.dba.elements import Brigade, Commander, Element
from pbem.games.dba.names import Grid, Names
from pbem.games.dba.orders import Event, Order, Ref, Step, Target
from pbem.games.dba.parse import Clock, parse_orders, parse_steps

# «Пример: Двигаться к деревне Х и удерживать её, пока враг не достигнет фермы Y. Отступать к мосту на 6-ой ход.»
# (given twice in the text, word for word; the Х of the village is a Cyrillic letter)
TEXT_EXAMPLE = "Двигаться к деревне Х и удерживать её, пока враг не достигнет фермы Y. Отступать к мосту на 6-ой ход."


def stand_in() -> Names:
    """A Quatre Bras table's names: places (with Russian aliases), the grid, two sides' commanders and
    brigades. The text's example names village X, farm Y and the bridge («мост»)."""
    places = {
        "Quatre Bras": Point(600, 600), "Gemioncourt": box(560, 420, 600, 460), "Piraumont": box(760, 440, 800, 480),
        "Bossu Wood": box(300, 450, 480, 650), "Pierrepont": box(240, 380, 280, 420), "Frasnes": Point(580, 120),
        "Thyle": Point(820, 700), "St. Gery": Point(900, 300),
        "X": box(100, 100, 160, 160), "Y": Point(300, 300), "bridge": Point(50, 400),
    }
    aliases = {"Катр-Бра": "Quatre Bras", "Жемонкур": "Gemioncourt", "Пираумон": "Piraumont", "мост": "bridge",
               "лес Боссю": "Bossu Wood", "Фран": "Frasnes"}
    commanders = {c.id: c for c in (
        Commander("wellington", "Wellington", "allied", "dashing", "army", 620, 640),
        Commander("orange", "Orange", "allied", "ordinary", "corps", 600, 610, superior="wellington"),
        Commander("perponcher", "Perponcher", "allied", "cautious", "division", 590, 590, superior="orange"),
        Commander("bijlandt", "Bijlandt", "allied", "ordinary", "brigade", 580, 470, brigade="1nl",
                  superior="perponcher"),
        Commander("saxe", "Saxe-Weimar", "allied", "timid", "brigade", 400, 560, brigade="2nassau",
                  superior="perponcher"),
        Commander("merlen", "van Merlen", "allied", "dashing", "brigade", 650, 700, brigade="nlcav",
                  superior="orange"),
        Commander("ney", "Ney", "french", "dashing", "army", 580, 130),
        Commander("reille", "Reille", "french", "cautious", "corps", 590, 200, superior="ney"),
        Commander("bachelu", "Bachelu", "french", "ordinary", "division", 700, 260, superior="reille"),
        Commander("husson", "Husson", "french", "ordinary", "brigade", 720, 300, brigade="hus", superior="bachelu"),
        Commander("pire", "Pire", "french", "dashing", "brigade", 500, 250, brigade="lancers", superior="reille"),
    )}
    brigades = {b.id: b for b in (
        Brigade("1nl", "1st Netherlands", "allied", "bijlandt", ["1nl-1", "1nl-2", "1nl-a"]),
        Brigade("2nassau", "2nd Nassau", "allied", "saxe", ["2n-1", "2n-2"]),
        Brigade("nlcav", "Netherlands Cavalry", "allied", "merlen", ["nc-1", "nc-2"]),
        Brigade("hus", "Husson Brigade", "french", "husson", ["hus-1", "hus-2"]),
        Brigade("lancers", "Lancers", "french", "pire", ["lan-1"]),
    )}
    elements = {e.id: e for e in (
        Element("1nl-1", "allied", "1nl", "infantry", 570, 460),
        Element("1nl-2", "allied", "1nl", "infantry", 590, 460),
        Element("1nl-a", "allied", "1nl", "light_artillery", 580, 480),
        Element("2n-1", "allied", "2nassau", "light_infantry", 390, 550),
        Element("2n-2", "allied", "2nassau", "light_infantry", 410, 550),
        Element("nc-1", "allied", "nlcav", "light_cavalry", 640, 700),
        Element("nc-2", "allied", "nlcav", "light_cavalry", 660, 700),
        Element("hus-1", "french", "hus", "infantry", 710, 300),
        Element("hus-2", "french", "hus", "infantry", 730, 300),
        Element("lan-1", "french", "lancers", "lancers", 500, 240),
    )}
    return Names(places=places, grid=Grid(1200, 800), brigades=brigades, commanders=commanders, elements=elements,
                 aliases=aliases)


@pytest.fixture
def names() -> Names:
    return stand_in()


def steps(text: str, names: Names, side: str = "allied", **kw) -> tuple[Step, ...]:
    return parse_steps(text, names, side, **kw)


def problems(text: str, names: Names, side: str = "allied", turn: int = 3, **kw) -> list[str]:
    with pytest.raises(OrdersError) as refused:
        parse_orders(text, names, side, turn, **kw)
    return [str(p) for p in refused.value.problems]


# -- the rule book's examples --------------------------------------------------------------------------------

def test_the_rule_books_example_reads_as_three_steps(names):
    """Move to village X and hold it until the enemy reaches farm Y; retreat to the bridge on turn 6: the
    pronoun «её» is X, «пока ... не» is UNTIL, the full stop starts a step, «на 6-ой ход» is AT TURN 6."""
    assert steps(TEXT_EXAMPLE, names) == (
        Step("MOVE", "X"),
        Step("HOLD", "X", until=Event("ENEMY REACHES", place="Y")),
        Step("RETREAT", "bridge", at=6),
    )


def test_the_example_as_a_dispatch_and_its_english_echo(names):
    text = f"ОТ Perponcher КОМУ Bijlandt ХОД 3\n{TEXT_EXAMPLE}\n"
    orders = parse_orders(text, names, "allied", 3)
    assert orders.echo() == ("FROM Perponcher TO Bijlandt TURN 3\n"
                             "MOVE TO X\n"
                             "THEN HOLD X UNTIL ENEMY REACHES Y\n"
                             "THEN RETREAT TO bridge AT TURN 6")
    assert parse_orders(orders.echo(), names, "allied", 3).dispatches == orders.dispatches


# -- the table of words: Russian = English -----------------------------------------------------------------

@pytest.mark.parametrize("russian, english", [
    ("Двигаться к Gemioncourt", "MOVE TO Gemioncourt"),
    ("Стоять и удерживать Gemioncourt", "HOLD Gemioncourt"),
    ("Стоять", "HOLD"),
    ("Атаковать Husson Brigade", "ATTACK Husson Brigade"),
    ("Поддерживать 2nd Nassau", "DEPLOY SUPPORTING 2nd Nassau"),
    ("Отступить к Quatre Bras", "RETREAT TO Quatre Bras"),
    ("Атаковать вражеское подразделение", "ATTACK NEAREST ENEMY"),
    ("Атаковать противника у фермы Y", "ATTACK ENEMY AT Y"),
    ("Стоять, если противник атакует нас", "HOLD IF ENEMY ATTACKS"),
    ("Стоять, если враг не атакует", "HOLD UNLESS ENEMY ATTACKS"),
    ("Удерживать лес Боссю, пока враг не окажется в пределах 6 дюймов от Пираумон",
     "HOLD Bossu Wood UNTIL ENEMY WITHIN 6\" OF Piraumont"),
    ("Стоять пока бригада 2nd Nassau не отступит", "HOLD UNTIL FRIENDLY 2nd Nassau RETREATS"),
    ("Двигаться к Катр-Бра в колонне по дороге на 4-ый ход", "MOVE TO Quatre Bras IN COLUMN BY ROAD AT TURN 4"),
    ("Развернуться в линию у Жемонкур", "DEPLOY IN LINE AT Gemioncourt"),
    ("Стоять в каре пока ход 7", "HOLD IN SQUARE UNTIL TURN 7"),
    ("Отступать к мосту, если враг откроет огонь", "RETREAT TO bridge IF ENEMY FIRES"),
    ("Двигаться к квадрату D4 затем стоять", "MOVE TO D4 THEN HOLD"),
])
def test_russian_words_are_the_english_ones(names, russian, english):
    assert steps(russian, names) == steps(english, names)


def test_english_forms_of_the_same_step(names):
    one = steps('IF ENEMY REACHES Gemioncourt RETREAT TO Quatre Bras BY ROAD', names)
    assert one == steps('RETREAT TO Quatre Bras BY ROAD IF ENEMY REACHES Gemioncourt', names)
    assert one == steps('if the enemy reaches gemioncourt, then retreat to quatre-bras by road', names)
    assert one == (Step("RETREAT", "Quatre Bras", road=True, when=Event("ENEMY REACHES", place="Gemioncourt")),)


# -- the events -------------------------------------------------------------------------------------------

@pytest.mark.parametrize("text, event", [
    ("ENEMY REACHES Piraumont", Event("ENEMY REACHES", place="Piraumont")),
    ("ENEMY Lancers REACHES Piraumont", Event("ENEMY REACHES", Ref("lancers", "Lancers"), "Piraumont")),
    ('ENEMY WITHIN 6" OF Gemioncourt', Event("ENEMY WITHIN", place="Gemioncourt", distance=60)),
    ("ENEMY WITHIN 2.5 INCHES", Event("ENEMY WITHIN", distance=25)),
    ("ENEMY ATTACKS", Event("ENEMY ATTACKS")),
    ("ENEMY FIRES", Event("ENEMY FIRES")),
    ("FRIENDLY 2nd Nassau REACHES Bossu Wood", Event("FRIENDLY REACHES", Ref("2nassau", "2nd Nassau"), "Bossu Wood")),
    ("2nd Nassau ATTACKS", Event("FRIENDLY ATTACKS", Ref("2nassau", "2nd Nassau"))),
    ("Lancers REACHES Y", Event("ENEMY REACHES", Ref("lancers", "Lancers"), "Y")),
    ("FRIENDLY Netherlands Cavalry RETREATS", Event("FRIENDLY RETREATS", Ref("nlcav", "Netherlands Cavalry"))),
    ("TURN 9", Event("TURN", turn=9)),
])
def test_each_event(names, text, event):
    (step,) = steps(f"HOLD UNTIL {text}", names)
    assert step.until == event
    assert steps(step.text, names) == (step,)


def test_unless_drops_the_rest_and_if_waits_as_written(names):
    (step,) = steps("ATTACK Lancers UNLESS ENEMY FIRES IF FRIENDLY 2nd Nassau REACHES Bossu Wood AT TURN 5", names)
    assert step == Step("ATTACK", target=Target(Ref("lancers", "Lancers")), unless=Event("ENEMY FIRES"),
                        when=Event("FRIENDLY REACHES", Ref("2nassau", "2nd Nassau"), "Bossu Wood"), at=5)
    assert step.text == ("IF FRIENDLY 2nd Nassau REACHES Bossu Wood ATTACK Lancers UNLESS ENEMY FIRES AT TURN 5")


def test_a_full_stop_inside_a_name_and_between_sentences(names):
    assert steps("MOVE TO St. Gery. HOLD IT.", names) == (Step("MOVE", "St. Gery"), Step("HOLD", "St. Gery"))


def test_clock_times_when_the_scenario_gives_them(names):
    clock = Clock("13:00", 20)
    assert clock.turn_of("14:20") == 5 and clock.time_of(5) == "14:20" and clock.turn_of("12:59") is None
    assert steps("MOVE TO Thyle AT 14:30", names, clock=clock) == (Step("MOVE", "Thyle", at=5),)
    text = "FROM Wellington TO Orange TIME 13:40\nHOLD Quatre Bras UNTIL TIME 15:00\n"
    (order,) = parse_orders(text, names, "allied", 3, clock=clock).dispatches
    assert order.sent == 3 and order.steps[0].until == Event("TURN", turn=7)


# -- whole texts ------------------------------------------------------------------------------------------

ORDERS = """GAME 4 SIDE allied KEY secret
FROM Wellington AT Quatre Bras TO Bijlandt TURN 3
MOVE TO Gemioncourt IN LINE THEN HOLD IT UNTIL ENEMY WITHIN 6" OF Gemioncourt
THEN RETREAT TO Quatre Bras BY ROAD AT TURN 8

to saxe-weimar from wellington
hold bossu wood in skirmish order unless enemy attacks
IF FRIENDLY 1st Netherlands RETREATS RETREAT TO Pierrepont

FROM Orange TO van Merlen
ATTACK ENEMY AT Frasnes IN COLUMN THEN RETREAT TO Thyle
INITIATIVE Bijlandt
ATTACK NEAREST ENEMY
FINAL
"""


def test_a_whole_text_reads_into_dispatches_and_an_initiative(names):
    orders = parse_orders(ORDERS, names, "allied", 3)
    assert orders.header.game == "4" and orders.final
    assert [(o.sender.id, o.recipient.id, o.sent, o.position, len(o.steps)) for o in orders.dispatches] == [
        ("wellington", "bijlandt", 3, "Quatre Bras", 3), ("wellington", "saxe", None, None, 2),
        ("orange", "merlen", None, None, 2)]
    (initiative,) = orders.initiatives
    assert initiative.initiative and initiative.sender.id == "bijlandt" and initiative.steps == (Step("ATTACK",
                                                                                                     target=Target()),)
    assert orders.dispatches[1].steps == (
        Step("HOLD", "Bossu Wood", formation="skirmish", unless=Event("ENEMY ATTACKS")),
        Step("RETREAT", "Pierrepont", when=Event("FRIENDLY RETREATS", Ref("1nl", "1st Netherlands"))))


def test_the_echo_reads_back_to_the_same_orders_and_values_survive_saving(names):
    orders = parse_orders(ORDERS, names, "allied", 3)
    again = parse_orders(orders.echo(), names, "allied", 3)
    assert again.dispatches == orders.dispatches and again.initiatives == orders.initiatives
    assert again.echo() == orders.echo()
    for order in orders.dispatches + orders.initiatives:
        assert Order.from_dict(order.to_dict()) == order


def test_the_side_decides_friend_and_enemy(names):
    (order,) = parse_orders("FROM Ney TO Husson\nATTACK 1st Netherlands UNLESS Lancers RETREATS\n", names,
                            "french", 3).dispatches
    assert order.steps[0].target == Target(Ref("1nl", "1st Netherlands"))
    assert order.steps[0].unless == Event("FRIENDLY RETREATS", Ref("lancers", "Lancers"))


# -- wrong orders ----------------------------------------------------------------------------------------

def test_misspelt_words_and_names_get_the_nearest(names):
    found = problems("FROM Wellington TO Bijlandt\nMOVVE TO Gemioncourt\nHOLD Gemioncour\n"
                     "HOLD UNTIL ENEMY REACHS Y\nHOLD UNTIL FRIENDLY 2nd Nasau RETREATS\n", names)
    assert found == [
        "line 2, column 1: 'MOVVE' is not a verb of an order (did you mean MOVE?) (found 'MOVVE'); expected a verb: "
        "MOVE TO, HOLD, ATTACK, DEPLOY or RETREAT TO",
        "line 3, column 6: no place or grid square 'Gemioncour'; did you mean Gemioncourt? (found 'Gemioncour'); "
        "expected a place or grid square",
        "line 4, column 18: unexpected 'REACHS' (did you mean REACHES?) (found 'REACHS'); expected REACHES, WITHIN, "
        "ATTACKS, FIRES or RETREATS",
        "line 5, column 21: no brigade '2nd Nasau'; did you mean 2nd Nassau or 2nassau? (found '2nd Nasau'); "
        "expected a friendly brigade",
    ]


@pytest.mark.parametrize("text, answer", [
    ("FROM Wellington TO Bijlandt TURN 2\nHOLD\n",
     "line 1, column 34: the dispatch is dated turn 2, but this is turn 3"),
    ("FROM Bijlandt TO Wellington\nHOLD\n", "line 1, column 18: Wellington is not under Bijlandt's command"),
    ("FROM Wellington TO Wellington\nHOLD\n", "line 1, column 20: Wellington cannot send a dispatch to himself"),
    ("FROM Wellington TO Ney\nHOLD\n", "line 1, column 20: Ney is an enemy commander"),
    ("FROM Wellington TO Bijlandt\n", "line 1, column 1: the order has no step"),
    ("HOLD\n", "line 1, column 1: a step before any dispatch's head line"),
    ("FROM Wellington TO Bijlandt\nATTACK 2nd Nassau\n", "line 2, column 8: 2nd Nassau is a brigade of your own side"),
    ("FROM Wellington TO Bijlandt\nHOLD UNTIL FRIENDLY Lancers ATTACKS\n",
     "line 2, column 21: Lancers is an enemy brigade"),
    ("FROM Wellington TO Bijlandt\nHOLD X AT TURN 6 THEN HOLD Y AT TURN 5\n",
     "line 2, column 23: AT TURN 5 comes after a step AT TURN 6"),
    ("FROM Wellington TO Bijlandt\nHOLD UNTIL TURN 2\n", "line 2, column 1: UNTIL TURN 2 has passed: this is turn 3"),
    ("FROM Wellington TO Bijlandt\nHOLD IT\n", "line 2, column 6: 'IT' names no place"),
    ("FROM Wellington TO Bijlandt\nMOVE TO\n", "line 2, column 8: the order ends too soon"),
    ("FROM Wellington TO Bijlandt\nMOVE TO X IN LINE IN COLUMN\n", "line 2, column 19: a second formation in one step"),
    ("FROM Wellington TO Bijlandt\nMOVE TO X AT 14:00\n", "line 2, column 11: this game counts turns, not clock times"),
    ("FROM Wellington TO van Merlen\nHOLD IN SQUARE\n", "line 2, column 1: no element of Netherlands Cavalry can form "
                                                         "square"),
    ("FROM Wellington TO Bijlandt\nHOLD UNTIL ENEMY WITHIN OF X\n", "line 2, column 25: unexpected 'OF'"),
    ("FROM Wellington TO Bijlandt\nHOLD UNLESS ENEMY NOT ATTACKS\n", "line 2, column 6: UNLESS with НЕ"),
    ("FROM Wellington TO Bijlandt\nMOVE TO X QUICKLY\n", "line 2, column 11: unexpected 'QUICKLY' after the place 'X'"),
    ("INITIATIVE Saxe-Weimar\nHOLD\n", "line 1, column 1: Saxe-Weimar is timid (Робкий): the table gives him no "
                                       "initiative test (n/a)"),
    ("INITIATIVE Orange\nHOLD\n", "line 1, column 12: Orange commands no brigade"),
    ("FROM Wellington TO Bijlandt\nHOLD\nFINAL NOW\n", "line 3, column 7: unexpected 'NOW'"),
])
def test_wrong_orders_are_answered_where_and_with_what_was_expected(names, text, answer):
    found = problems(text, names)
    assert len(found) == 1 and found[0].startswith(answer), found


def test_a_seat_writes_only_for_its_own_commanders(names):
    found = problems("FROM Wellington TO Bijlandt\nHOLD\n", names, writers={"perponcher"})
    assert found == ["line 1, column 6: you do not write for Wellington (found 'Wellington'); "
                     "expected the commander of your own seat"]
    assert parse_orders("FROM Perponcher TO Bijlandt\nHOLD\n", names, "allied", 3, writers={"perponcher"}).dispatches


def test_a_spent_initiative_is_refused(names):
    names.commanders["bijlandt"].initiative_used = True
    assert problems("INITIATIVE Bijlandt\nHOLD\n", names) == [
        "line 1, column 1: Bijlandt has taken his one initiative test of the game (found 'INITIATIVE'); "
        "expected a commander who has not taken his test"]


def test_every_problem_of_a_text_is_told_at_once_in_line_order(names):
    found = problems("FROM Wellington TO Bijlandt TURN 2\nHOLD X AT TURN 5 THEN HOLD Y AT TURN 4\n"
                     "FROM Wellington TO van Merlen\nDEPLOY IN SQUARE\nHOLD IT\n", names)
    assert [f.split(":")[0] for f in found] == ["line 1, column 34", "line 2, column 23", "line 4, column 1",
                                                "line 5, column 6"]


def test_a_wrong_dispatch_does_not_hide_a_good_one_from_the_reader(names):
    """Problems are all told and nothing is accepted; the good dispatch alone is accepted."""
    good = "FROM Wellington TO Bijlandt\nHOLD Quatre Bras\n"
    assert len(problems(good + "FROM Wellington TO Bijlandt\nHOLD Nowhere\n", names)) == 1
    assert parse_orders(good, names, "allied", 3).dispatches[0].steps == (Step("HOLD", "Quatre Bras"),)


def test_a_dispatch_may_be_addressed_to_a_brigade_and_headed_in_russian(names):
    (one,) = parse_orders("FROM Wellington TO 1st Netherlands\nHOLD\n", names, "allied", 3).dispatches
    (two,) = parse_orders("ОТ Perponcher ИЗ Катр-Бра К Bijlandt ВРЕМЯ 3\nСтоять\n", names, "allied", 3).dispatches
    assert one.recipient == two.recipient == Ref("bijlandt", "Bijlandt")
    assert (two.sender.id, two.position, two.sent) == ("perponcher", "Quatre Bras", 3)


@pytest.mark.parametrize("russian, english", [
    ("Идти к Thyle", "MOVE TO Thyle"), ("Выдвинуться на Piraumont", "MOVE TO Piraumont"),
    ("Наступать к X", "MOVE TO X"), ("Держать Y", "HOLD Y"), ("Оборонять мост", "HOLD bridge"),
    ("Отойти к Фран", "RETREAT TO Frasnes"), ("Отходить к Y", "RETREAT TO Y"),
    ("Стоять, как только неприятель дойдёт до X", "HOLD IF ENEMY REACHES X"),
    ("Стоять до тех пор, пока враг не займёт Y", "HOLD UNTIL ENEMY REACHES Y"),
    ('Стоять пока противник не подойдёт ближе 6" к Y', 'HOLD UNTIL ENEMY WITHIN 6" OF Y'),
    ("Стоять пока враг не стреляет по нам", "HOLD UNTIL ENEMY FIRES"),
    ("Стоять пока бригада 2nd Nassau не отойдёт", "HOLD UNTIL FRIENDLY 2nd Nassau RETREATS"),
    ("Двигаться к X колонной, после чего стоять линией к 6-му ходу", "MOVE TO X IN COLUMN THEN HOLD IN LINE AT TURN 6"),
    ("Стоять цепью в ход 5", "HOLD IN SKIRMISH ORDER AT TURN 5"),
    ("Развернуться с передков у Y, затем стоять", "DEPLOY UNLIMBERED AT Y THEN HOLD"),
    ("Атаковать ближайшего неприятеля, потом отступить к мосту", "ATTACK NEAREST ENEMY THEN RETREAT TO bridge"),
])
def test_the_russian_forms_the_doc_lists(names, russian, english):
    assert steps(russian, names) == steps(english, names)


def test_a_dead_commander_neither_writes_nor_receives(names):
    names.commanders["bijlandt"].alive = False
    assert problems("FROM Wellington TO Bijlandt\nHOLD\nFROM Bijlandt TO Wellington\nHOLD\n", names) == [
        "line 1, column 20: Bijlandt has been killed or taken (found 'Bijlandt'); expected a commander still on the "
        "table",
        "line 3, column 6: Bijlandt has been killed or taken (found 'Bijlandt'); expected a commander still on the "
        "table"]
