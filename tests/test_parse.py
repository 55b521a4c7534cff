from pbem.core.chance import Chance
"""The Marengo order language: every form, its normalised echo, the round trip,
and every kind of problem with its line and column (docs/orders.md)."""

from dataclasses import replace
from pathlib import Path

import pytest

from pbem.core.orders import Header, OrdersError, Problem, parse_header, tokenize
from pbem.games.marengo.orders import (
    Activate, Assault, Bombard, Enter, Extend, Fire, Move, RoadMove, Standing,
)
from pbem.games.marengo.parse import parse_orders
from pbem.games.marengo.scenario import load_scenario
from pbem.games.marengo.setup import setup

FIXTURES = Path(__file__).parent / "fixtures"
AUSTRIA_6AM, FRANCE_6AM, AUSTRIA_7AM, FRANCE_7AM = 0, 1, 2, 3

# where the blocks stand in these tests: (locale, facing); facing None is the reserve
POSITIONS = {
    "F1": ("marengo", None), "F2": ("marengo", "pedrabona"), "F3": ("spinetta", None),
    "F4": ("castel", None), "F5": ("cascina", None), "F6": ("sgn", None),
    "A1": ("pedrabona", None), "A2": ("pedrabona", None), "A3": ("pedrabona", "marengo"),
    "A5": ("pedrabona", "marengo"), "A4": ("bridgehead", None),
}


@pytest.fixture(scope="module")
def scenario():
    return load_scenario(FIXTURES / "small.toml")


@pytest.fixture
def state(scenario):
    st = setup(scenario, Chance(7))
    for bid, (locale, facing) in POSITIONS.items():
        block = st.blocks[bid]
        block.status, block.locale, block.facing = "map", locale, facing
    return st


@pytest.fixture
def parse(scenario, state):
    """parse(text, side="austria", day=0) -> Orders: the language alone; the checks of the day
    as it will play (that the fixture's position would refuse) are tests/test_checks.py's."""

    def run(text, side="austria", day=AUSTRIA_6AM):
        state.day = day
        return parse_orders(scenario, state, side, text, checks=False)

    return run


@pytest.fixture
def problems(parse):
    """problems(text, ...) -> the list of Problems the text raises."""

    def run(text, side="austria", day=AUSTRIA_6AM):
        with pytest.raises(OrdersError) as info:
            parse(text, side, day)
        return info.value.problems

    return run


def one(parse, text, side="austria", day=AUSTRIA_6AM):
    orders = parse(text, side, day)
    found = orders.orders + orders.standing
    assert len(found) == 1, found
    return found[0]


def strip_lines(orders):
    return [replace(o, line=0) for o in orders.orders], [replace(s, line=0) for s in orders.standing]


# -- every form, normalised ------------------------------------------------------------------

FORMS = [
    # (side, day, text, normalised text, expected order (without line and text))
    ("france", FRANCE_6AM, "activate f3 f5", "ACTIVATE F3 F5", Activate(blocks=("F3", "F5"))),
    ("austria", AUSTRIA_6AM, "move a1 a2 pedrabona -> marengo",
     "MOVE A1 A2 Pedrabona -> Marengo",
     Move(blocks=("A1", "A2"), frm=("pedrabona", None), to=("marengo", None))),
    ("austria", AUSTRIA_6AM, "MOVE A1 Pedrabona -> Marengo IF BLOCKED STAY",
     "MOVE A1 Pedrabona -> Marengo IF BLOCKED STAY",
     Move(blocks=("A1",), frm=("pedrabona", None), to=("marengo", None), if_blocked="stay")),
    ("austria", AUSTRIA_6AM, "MOVE A1 A2 Pedrabona -> Marengo if blocked advance a2",
     "MOVE A1 A2 Pedrabona -> Marengo IF BLOCKED ADVANCE A2",
     Move(blocks=("A1", "A2"), frm=("pedrabona", None), to=("marengo", None), if_blocked="advance",
          advance=("A2",))),
    ("austria", AUSTRIA_6AM, "MOVE A1 Pedrabona -> Marengo IF BLOCKED ADVANCE",
     "MOVE A1 Pedrabona -> Marengo IF BLOCKED ADVANCE",
     Move(blocks=("A1",), frm=("pedrabona", None), to=("marengo", None), if_blocked="advance")),
    ("austria", AUSTRIA_6AM, "MOVE A4 Bridgehead -> Pedrabona THEN EXTEND Pedrabona > Marengo",
     "MOVE A4 Bridgehead -> Pedrabona THEN EXTEND Pedrabona>Marengo",
     Move(blocks=("A4",), frm=("bridgehead", None), to=("pedrabona", None), extend="marengo")),
    ("austria", AUSTRIA_6AM, "MOVE A1 Pedrabona -> Pedrabona>Castel Ceriolo",
     "MOVE A1 Pedrabona -> Pedrabona>Castel Ceriolo",
     Move(blocks=("A1",), frm=("pedrabona", None), to=("pedrabona", "castel"))),
    ("austria", AUSTRIA_6AM, "MOVE A3 A5 Pedrabona>Marengo -> Pedrabona",
     "MOVE A3 A5 Pedrabona>Marengo -> Pedrabona",
     Move(blocks=("A3", "A5"), frm=("pedrabona", "marengo"), to=("pedrabona", None))),
    ("austria", AUSTRIA_6AM, "MOVE A3 Pedrabona>Marengo -> Marengo",
     "MOVE A3 Pedrabona>Marengo -> Marengo",
     Move(blocks=("A3",), frm=("pedrabona", "marengo"), to=("marengo", None))),
    ("austria", AUSTRIA_6AM, "ROAD A4 Bridgehead -> Pedrabona -> Marengo -> Spinetta",
     "ROAD A4 Bridgehead -> Pedrabona -> Marengo -> Spinetta",
     RoadMove(block="A4", path=("bridgehead", "pedrabona", "marengo", "spinetta"))),
    ("austria", AUSTRIA_6AM, "road a4 bridgehead->pedrabona->marengo if blocked stay then extend marengo>spinetta",
     "ROAD A4 Bridgehead -> Pedrabona -> Marengo IF BLOCKED STAY THEN EXTEND Marengo>Spinetta",
     RoadMove(block="A4", path=("bridgehead", "pedrabona", "marengo"), if_blocked="stay", extend="spinetta")),
    ("france", FRANCE_6AM, "EXTEND F4 Castel Ceriolo>Marengo",
     None, None),  # no main road there: see test_extend_needs_a_main_road
    ("austria", AUSTRIA_6AM, "EXTEND A4 Bridgehead>Pedrabona", "EXTEND A4 Bridgehead>Pedrabona",
     Extend(block="A4", locale="bridgehead", toward="pedrabona")),
    ("austria", AUSTRIA_6AM, "ENTER A1x BY ROAD", None, None),  # see errors
    ("austria", AUSTRIA_6AM, "enter a7 by pontoon", "ENTER A7 BY PONTOON",
     Enter(blocks=("A7",), by="pontoon")),
    ("austria", AUSTRIA_7AM, "ENTER A6 BY ROAD", "ENTER A6 BY ROAD", Enter(blocks=("A6",), by="road")),
    ("austria", AUSTRIA_7AM, "ENTER A6", "ENTER A6 BY ROAD", Enter(blocks=("A6",), by="road")),
    ("austria", AUSTRIA_7AM, "ENTER A6 BY ROAD AT bormida -> Pedrabona -> Marengo IF BLOCKED STAY",
     "ENTER A6 BY ROAD AT Bormida Bridge -> Pedrabona -> Marengo IF BLOCKED STAY",
     Enter(blocks=("A6",), by="road", entry="bormida", path=("pedrabona", "marengo"), if_blocked="stay")),
    ("france", FRANCE_6AM, "ENTER F8 BY ROAD AT Tortona Road -> San Giuliano Nuovo THEN EXTEND "
                           "San Giuliano Nuovo>San Giuliano Vecchio",
     "ENTER F8 BY ROAD AT Tortona Road -> San Giuliano Nuovo THEN EXTEND San Giuliano Nuovo>San Giuliano Vecchio",
     Enter(blocks=("F8",), by="road", entry="tortona", path=("sgn",), extend="sgv")),
    ("austria", AUSTRIA_6AM, "ASSAULT Pedrabona>Marengo WITH A3 A5 LEAD A3 PURSUE A5 "
                             "THEN EXTEND A5 Marengo>Spinetta",
     "ASSAULT Pedrabona>Marengo WITH A3 A5 LEAD A3 PURSUE A5 THEN EXTEND A5 Marengo>Spinetta",
     Assault(locale="pedrabona", toward="marengo", blocks=("A3", "A5"), leads=("A3",), pursue=("A5",),
             extend=(("A5", "spinetta"),))),
    ("austria", AUSTRIA_6AM, "assault pedrabona>marengo with a3 a5 no pursuit",
     "ASSAULT Pedrabona>Marengo WITH A3 A5 NO PURSUIT",
     Assault(locale="pedrabona", toward="marengo", blocks=("A3", "A5"), pursue=())),
    ("austria", AUSTRIA_6AM, "ASSAULT Pedrabona>Marengo",
     "ASSAULT Pedrabona>Marengo WITH A3 A5",
     Assault(locale="pedrabona", toward="marengo", blocks=("A3", "A5"))),
    ("austria", AUSTRIA_7AM, "BOMBARD A6 FROM Pedrabona>Marengo", "BOMBARD A6 FROM Pedrabona>Marengo",
     Bombard(block="A6", locale="pedrabona", toward="marengo")),
    ("austria", AUSTRIA_6AM, "STANDING BLOCK Pedrabona ALWAYS", "STANDING BLOCK Pedrabona ALWAYS",
     Standing(kind="block", locale="pedrabona", value="ALWAYS")),
    ("austria", AUSTRIA_6AM, "standing block all never", "STANDING BLOCK ALL NEVER",
     Standing(kind="block", value="NEVER")),
    ("austria", AUSTRIA_6AM, "STANDING BLOCK Pedrabona WITH A1 a2", "STANDING BLOCK Pedrabona WITH A1 A2",
     Standing(kind="block", locale="pedrabona", value="WITH", blocks=("A1", "A2"))),
    ("austria", AUSTRIA_6AM, "STANDING LEAD Pedrabona>Marengo A3 A5", "STANDING LEAD Pedrabona>Marengo A3 A5",
     Standing(kind="lead", locale="pedrabona", toward="marengo", blocks=("A3", "A5"))),
    ("austria", AUSTRIA_6AM, "STANDING ARTILLERY DEFEND", "STANDING ARTILLERY DEFEND",
     Standing(kind="artillery", value="DEFEND")),
    ("austria", AUSTRIA_6AM, "standing artillery hold", "STANDING ARTILLERY HOLD",
     Standing(kind="artillery", value="HOLD")),
    ("austria", AUSTRIA_6AM, "STANDING PURSUE STRONG", "STANDING PURSUE STRONG",
     Standing(kind="pursue", value="STRONG")),
    ("austria", AUSTRIA_6AM, "STANDING RETREAT Pedrabona TO Castel Ceriolo Bridgehead",
     "STANDING RETREAT Pedrabona TO Castel Ceriolo Bridgehead",
     Standing(kind="retreat", locale="pedrabona", places=("castel", "bridgehead"))),
    ("austria", AUSTRIA_6AM, "STANDING RETREAT ALL TO Bridgehead", "STANDING RETREAT ALL TO Bridgehead",
     Standing(kind="retreat", places=("bridgehead",))),
    ("austria", AUSTRIA_6AM, "STANDING LOSSES WEAKEST", "STANDING LOSSES WEAKEST",
     Standing(kind="losses", value="WEAKEST")),
    ("austria", AUSTRIA_6AM, "STANDING LOSSES a3 a5 a1", "STANDING LOSSES A3 A5 A1",
     Standing(kind="losses", blocks=("A3", "A5", "A1"))),
    ("austria", AUSTRIA_6AM, "STANDING INFLICT STRONGEST", "STANDING INFLICT STRONGEST",
     Standing(kind="inflict", value="STRONGEST")),
    ("austria", AUSTRIA_6AM, "STANDING CLEAR", "STANDING CLEAR", Standing(kind="clear")),
    ("austria", AUSTRIA_6AM, "STANDING CLEAR retreat", "STANDING CLEAR RETREAT",
     Standing(kind="clear", value="retreat")),
]


@pytest.mark.parametrize("side,day,text,normal,expected", [f for f in FORMS if f[3]],
                         ids=[f[3] for f in FORMS if f[3]])
def test_every_form(parse, side, day, text, normal, expected):
    order = one(parse, text, side, day)
    assert order.text == normal
    assert str(order) == normal
    assert order.line == 1
    assert replace(order, line=0, text="") == expected
    again = one(parse, normal, side, day)  # the normalised text reads back the same
    assert again == order


def test_fire_and_hold_fire(parse, state):
    a6 = state.blocks["A6"]
    a6.status, a6.locale, a6.facing, a6.bombard = "map", "pedrabona", "marengo", "marengo"
    assert one(parse, "FIRE A6", day=AUSTRIA_7AM) == Fire(line=1, text="FIRE A6", block="A6")
    order = one(parse, "fire a6 at marengo>spinetta", day=AUSTRIA_7AM)
    assert order == Fire(line=1, text="FIRE A6 AT Marengo>Spinetta", block="A6", target="spinetta")
    order = one(parse, "hold fire a6", day=AUSTRIA_7AM)
    assert order == Fire(line=1, text="HOLD FIRE A6", block="A6", hold=True)


def test_final(parse):
    orders = parse("MOVE A1 Pedrabona -> Marengo\nFINAL")
    assert orders.final is True
    assert orders.echo() == "MOVE A1 Pedrabona -> Marengo\nFINAL"
    assert parse("MOVE A1 Pedrabona -> Marengo").final is False


def test_empty_orders_are_accepted(parse):
    orders = parse("")
    assert orders.orders == [] and orders.standing == [] and not orders.final
    assert parse("\n  \n# nothing to do today\n").orders == []


# -- a whole day for each side, echo and round trip ------------------------------------------

AUSTRIAN_DAY = """\
GAME 17 SIDE Austria TURN 6AM KEY 4f9c-2b71
# the main column
move a1 a2 pedrabona -> marengo if blocked advance a1   # into the village
ASSAULT Pedrabona > Marengo WITH A3 A5 LEAD A3 PURSUE A5 THEN EXTEND A5 Marengo>Spinetta
ENTER A7 BY PONTOON ; ROAD A4 Bridgehead -> Pedrabona -> Marengo

standing retreat all to bridgehead; STANDING ARTILLERY DEFEND
FINAL
"""

FRENCH_DAY = """\
SIDE france TURN 6 AM
ACTIVATE F1 F3
MOVE F1 Marengo -> Spinetta
MOVE F2 Marengo>Pedrabona -> Marengo
ENTER F8 BY ROAD AT tortona -> San Giuliano Nuovo -> San Giuliano Vecchio
STANDING LEAD Marengo>Pedrabona F1
STANDING BLOCK Marengo WITH F1
"""


def test_an_austrian_day(parse):
    orders = parse(AUSTRIAN_DAY)
    assert orders.header == Header(game="17", side="Austria", turn="6AM", key="4f9c-2b71", line=1)
    assert [o.line for o in orders.orders] == [3, 4, 5, 5]
    assert [s.line for s in orders.standing] == [7, 7]
    assert orders.final
    assert orders.echo() == """\
MOVE A1 A2 Pedrabona -> Marengo IF BLOCKED ADVANCE A1
ASSAULT Pedrabona>Marengo WITH A3 A5 LEAD A3 PURSUE A5 THEN EXTEND A5 Marengo>Spinetta
ENTER A7 BY PONTOON
ROAD A4 Bridgehead -> Pedrabona -> Marengo
STANDING RETREAT ALL TO Bridgehead
STANDING ARTILLERY DEFEND
FINAL"""


def test_a_french_day(parse):
    orders = parse(FRENCH_DAY, "france", FRANCE_6AM)
    assert orders.side == "france"
    assert orders.echo().splitlines()[0] == "ACTIVATE F1 F3"
    assert orders.of(Enter)[0].path == ("sgn", "sgv")
    assert orders.of(Move)[1].frm == ("marengo", "pedrabona")


@pytest.mark.parametrize("text,side,day", [(AUSTRIAN_DAY, "austria", AUSTRIA_6AM),
                                           (FRENCH_DAY, "france", FRANCE_6AM)])
def test_round_trip(parse, text, side, day):
    orders = parse(text, side, day)
    again = parse(orders.echo(), side, day)
    assert again.echo() == orders.echo()
    assert strip_lines(again) == strip_lines(orders)
    assert again.final == orders.final


# -- names: multi-word, prefixes, accents, ids, case ------------------------------------------

@pytest.mark.parametrize("written,locale", [
    ("San Giuliano Vecchio", "sgv"),
    ("san giuliano v", "sgv"),
    ("SAN GIULIANO NUOVO", "sgn"),
    ("sgn", "sgn"),  # the locale id
    ("SanGiulianoNuovo", "sgn"),
    ("Torre Garòfoli", "torre"),
    ("torre garofoli", "torre"),
    ("TORRE", "torre"),
    ("Cascina", "cascina"),
    ("Casc", "cascina"),
    ("Spinétta", "spinetta"),
])
def test_locale_names(parse, written, locale):
    order = one(parse, f"STANDING RETREAT ALL TO {written}")
    assert order.places == (locale,)


def test_several_multi_word_names_in_a_row(parse):
    order = one(parse, "STANDING RETREAT ALL TO Spinetta San Giuliano Vecchio Torre Garofoli San Giuliano N")
    assert order.places == ("spinetta", "sgv", "torre", "sgn")
    assert order.text == ("STANDING RETREAT ALL TO Spinetta San Giuliano Vecchio Torre Garòfoli "
                          "San Giuliano Nuovo")


def test_multi_word_names_in_moves_and_approaches(parse):
    order = one(parse, "MOVE F6 San Giuliano Nuovo -> san giuliano vecchio", "france", FRANCE_6AM)
    assert (order.frm, order.to) == (("sgn", None), ("sgv", None))
    order = one(parse, "MOVE F6 San Giuliano Nuovo -> San Giuliano Nuovo > San Giuliano Vecchio",
                "france", FRANCE_6AM)
    assert order.to == ("sgn", "sgv")
    assert order.text == "MOVE F6 San Giuliano Nuovo -> San Giuliano Nuovo>San Giuliano Vecchio"


def test_block_ids_are_case_insensitive_and_canonical(parse):
    order = one(parse, "move a1 A2 Pedrabona -> Marengo")
    assert order.blocks == ("A1", "A2")


def test_commas_separate_ids_and_arrow_may_be_unicode(parse):
    order = one(parse, "MOVE A1, A2 Pedrabona → Marengo")
    assert order.blocks == ("A1", "A2") and order.to == ("marengo", None)


# -- semicolons, comments, columns ------------------------------------------------------------

def test_semicolons_keep_columns(problems):
    text = "MOVE A1 Pedrabona -> Marengo ; MOVE A99 Pedrabona -> Marengo;MOVE A2 Pedrabona -> Nowhere"
    found = problems(text)
    assert [(p.line, p.column, p.found) for p in found] == [(1, 37, "A99"), (1, 83, "Nowhere")]
    assert text.index("A99") == 36 and text.index("Nowhere") == 82


def test_comments_are_ignored(parse):
    orders = parse("# a comment\nMOVE A1 Pedrabona -> Marengo # MOVE A2 Pedrabona -> Marengo\n#FINAL")
    assert len(orders.orders) == 1 and not orders.final


def test_tokenize():
    segments = tokenize("MOVE A1 X>Y->Z ; FINAL # gone ; gone")
    assert [[t.text for t in s] for s in segments] == [["MOVE", "A1", "X", ">", "Y", "->", "Z"], ["FINAL"]]
    assert [t.column for t in segments[0]] == [1, 6, 9, 10, 11, 12, 14]
    assert segments[1][0].column == 18
    assert tokenize("  ;; # only a comment") == []


# -- the header ---------------------------------------------------------------------------------

def test_parse_header():
    header, body = parse_header("\n# hello\nGAME 17 SIDE Austria TURN 7 AM KEY 4f9c-2b71  # mine\nMOVE\n")
    assert header == Header(game="17", side="Austria", turn="7 AM", key="4f9c-2b71", line=3)
    assert body == [(1, ""), (2, "# hello"), (4, "MOVE"), (5, "")]


def test_parse_header_absent():
    header, body = parse_header("MOVE A1 X -> Y\nGAME 3")
    assert header == Header()
    assert body == [(1, "MOVE A1 X -> Y"), (2, "GAME 3")]


def test_parse_header_problems_raise_or_collect():
    with pytest.raises(OrdersError) as info:
        parse_header("GAME SIDE France GAME 4")
    assert [(p.line, p.column) for p in info.value.problems] == [(1, 18), (1, 5)]
    collected = []
    header, _ = parse_header("TURN 7AM KEY", collected)
    assert header.turn == "7AM" and header.key is None
    assert collected == [Problem(1, 13, "KEY in the header has no value", "", "a value after KEY")]


def test_header_is_optional(parse):
    assert parse("MOVE A1 Pedrabona -> Marengo").header == Header()


def test_header_may_name_the_side_loosely(parse):
    for side in ("austria", "AUSTRIA", "Austrian", "aus"):
        assert parse(f"SIDE {side}").header.side == side


def test_header_side_must_match(problems):
    found = problems("GAME 1 SIDE France\nMOVE A1 Pedrabona -> Marengo")
    assert [(p.line, p.column, p.found, p.expected) for p in found] == [(1, 8, "France", "Austria")]
    assert "headed for France" in found[0].message
    found = problems("SIDE Prussia")
    assert found[0].message == "'Prussia' is not a side of this game"


def test_header_turn_must_be_the_hour_of_the_day(parse, problems):
    assert parse("TURN 7AM", day=AUSTRIA_7AM).header.turn == "7AM"
    assert parse("TURN 7:00 AM", "france", FRANCE_7AM).header.turn == "7:00 AM"
    found = problems("SIDE Austria TURN 8AM", day=AUSTRIA_7AM)
    assert [(p.line, p.column, p.found, p.expected) for p in found] == [(1, 14, "8AM", "7AM")]
    found = problems("TURN soon")
    assert [(p.column, p.found, p.message) for p in found] == [(1, "soon", "TURN must be an hour, like 7AM or 1PM")]


def test_header_must_be_first(problems):
    found = problems("MOVE A1 Pedrabona -> Marengo\nGAME 17 SIDE Austria")
    assert [(p.line, p.column, p.found) for p in found] == [(2, 1, "GAME")]
    assert "must be the first line" in found[0].message


# -- whose day ------------------------------------------------------------------------------------

def test_only_standing_orders_on_the_enemy_day(parse, problems):
    orders = parse("STANDING BLOCK ALL ALWAYS\nSTANDING PURSUE NEVER", "france", AUSTRIA_6AM)
    assert [s.kind for s in orders.standing] == ["block", "pursue"]
    found = problems("STANDING PURSUE NEVER\nMOVE F1 Marengo -> Spinetta\nFINAL", "france", AUSTRIA_6AM)
    assert [(p.line, p.column, p.found) for p in found] == [(2, 1, "MOVE"), (3, 1, "FINAL")]
    assert found[0].message == "it is Austria's day (6AM): only STANDING orders can be given now"


def test_activate_is_french(problems):
    found = problems("ACTIVATE A1")
    assert [(p.line, p.column, p.message) for p in found] == [(1, 1, "only the French activate blocks")]


def test_activate_checks(problems, state):
    state.blocks["F1"].activated = True
    found = problems("ACTIVATE F1 F7 F3 F3", "france", FRANCE_6AM)
    assert [(p.column, p.found) for p in found] == [(10, "F1"), (13, "F7"), (19, "F3")]
    assert found[0].message == "F1 is already active"
    assert found[1].message.startswith("F7 is not on the map yet")
    assert found[2].message == "F3 is named twice"


# -- problems: every kind, with line and column ---------------------------------------------------

def where(found):
    return [(p.line, p.column, p.found) for p in found]


def test_unknown_order_word_lists_the_keywords(problems):
    found = problems("\n  MOVEE A1 Pedrabona -> Marengo")
    assert where(found) == [(2, 3, "MOVEE")]
    assert "did you mean MOVE?" in found[0].message
    assert found[0].expected.startswith("one of ACTIVATE, ASSAULT, MOVE, ROAD")


def test_unknown_block(problems):
    found = problems("MOVE A99 Pedrabona -> Marengo")
    assert str(found[0]) == ("line 1, column 6: no block of yours called A99 (found 'A99'); "
                             "expected one of your block ids (A1, A2, A3, A4, A5)")


def test_enemy_block_is_not_yours(problems):
    found = problems("MOVE F1 Marengo -> Spinetta", "austria")
    assert where(found) == [(1, 6, "F1")]
    assert found[0].message == "no block of yours called F1"


def test_block_not_where_the_order_says(problems):
    found = problems("MOVE A1 A3 Pedrabona -> Castel Ceriolo")
    assert where(found) == [(1, 9, "A3")]
    assert found[0].message == ("A3 is not in the reserve of Pedrabona: it is on the approach "
                                "Pedrabona>Marengo")


def test_waiting_and_eliminated_blocks(problems, state):
    state.blocks["A2"].status, state.blocks["A2"].locale = "eliminated", None
    found = problems("MOVE A2 A6 Pedrabona -> Marengo")
    assert where(found) == [(1, 6, "A2"), (1, 9, "A6")]
    assert found[0].message == "A2 has been eliminated"
    assert found[1].message == "A6 is not on the map yet; it may enter at 7AM"


def test_enter_checks(problems):
    found = problems("ENTER A1 A6 A8 BY ROAD ; ENTER A7 BY ROAD")
    assert where(found) == [(1, 7, "A1"), (1, 10, "A6"), (1, 13, "A8"), (1, 32, "A7")]
    assert found[0].message == "A1 is already on the map"
    assert found[1].message == "A6 may not enter before 7AM (it is 6AM)"
    assert found[2].message == "A8 may not enter before 9AM (it is 6AM)"
    assert found[3].message == "A7 may not enter at Bormida Bridge"
    assert found[3].expected == "its entry point: Pontoon"


def test_at_most_three_blocks_enter_by_road(problems, state):
    for bid in ("A1", "A2", "A3", "A4"):
        state.blocks[bid].status, state.blocks[bid].locale = "waiting", None
    found = problems("ENTER A1 A2 A3 A4 BY ROAD")
    assert where(found) == [(1, 16, "A4")]
    assert found[0].message == "at most 3 blocks a day enter by one road entry point"


FRANCE_11AM = 11


def test_enter_needs_at_when_there_are_several_entries(parse, problems):
    found = problems("ENTER F7 BY ROAD", "france", FRANCE_11AM)
    assert found[0].message == "France has 2 road entry points; say which with AT"
    assert found[0].expected == "AT and one of: Tortona Road, Sale Road"
    order = one(parse, "ENTER F7 AT Sale", "france", FRANCE_11AM)
    assert (order.entry, order.text) == ("sale", "ENTER F7 BY ROAD AT Sale Road")


def test_enter_infers_the_only_entry_the_blocks_may_use(parse, problems):
    order = one(parse, "ENTER F8 -> San Giuliano Nuovo", "france", FRANCE_6AM)
    assert order.entry == "tortona"
    assert order.text == "ENTER F8 BY ROAD AT Tortona Road -> San Giuliano Nuovo"
    found = problems("ENTER F7 F8 BY ROAD AT Sale Road", "france", FRANCE_11AM)
    assert where(found) == [(1, 10, "F8")]
    assert found[0].message == "F8 may not enter at Sale Road"


def test_enter_path(problems):
    found = problems("ENTER A6 BY ROAD -> Pedrabona -> Spinetta", day=AUSTRIA_7AM)
    assert where(found) == [(1, 34, "Spinetta")]
    assert found[0].message == "no road runs from Pedrabona to Spinetta"
    found = problems("ENTER A6 BY ROAD -> Pedrabona -> Marengo -> Spinetta -> San Giuliano Vecchio",
                     day=AUSTRIA_7AM)
    assert where(found) == [(1, 57, "San Giuliano Vecchio")]
    assert found[0].message == "a block entering passes at most 3 locales after the entry locale Bridgehead"
    found = problems("ENTER A7 BY PONTOON -> Pedrabona")
    assert where(found) == [(1, 21, "->")]
    found = problems("ENTER A7 BY PONTOON ; ENTER A1 A2 A3 A4 BY ROAD")
    assert [p.message for p in found][:1] == ["A1 is already on the map"]


def test_one_block_by_the_pontoon(problems, state):
    state.day = AUSTRIA_7AM
    found = problems("ENTER A6 A7 BY PONTOON", day=AUSTRIA_7AM)
    assert found[0].message == "one block a day crosses by the pontoon"
    assert found[0].column == 10


def test_two_movement_orders_for_one_block(problems):
    found = problems("MOVE A1 Pedrabona -> Marengo\nMOVE A2 A1 Pedrabona -> Castel")
    assert where(found) == [(2, 9, "A1")]
    assert found[0].message == "A1 already moves in line 1; a block moves only once a day"


def test_block_named_twice(problems):
    found = problems("MOVE A1 a1 Pedrabona -> Marengo")
    assert where(found) == [(1, 9, "a1")]


def test_move_must_be_one_step(problems):
    found = problems("MOVE A1 Pedrabona -> Spinetta")
    assert where(found) == [(1, 22, "Spinetta")]
    assert found[0].message.startswith("Spinetta is not next to Pedrabona")
    found = problems("MOVE A4 Bridgehead -> Castel Ceriolo")
    assert "impassable" in found[0].message
    found = problems("MOVE A1 Pedrabona -> Marengo -> Spinetta")
    assert where(found) == [(1, 30, "->")]
    found = problems("MOVE A3 Pedrabona>Marengo -> Castel Ceriolo")
    assert found[0].message == ("from the approach Pedrabona>Marengo a block may go to the reserve of "
                                "Pedrabona or into Marengo")
    found = problems("MOVE A1 Pedrabona -> Pedrabona")
    assert found[0].message == "the blocks are already in the reserve of Pedrabona"


def test_approach_must_exist(problems):
    found = problems("MOVE A1 Pedrabona -> Pedrabona>Spinetta")
    assert where(found) == [(1, 22, "Pedrabona>Spinetta")]
    assert found[0].message == "Pedrabona has no approach toward Spinetta (they are not adjacent)"
    found = problems("BOMBARD A6 FROM Bridgehead>Castel", day=AUSTRIA_7AM)
    assert "impassable" in found[0].message


def test_unknown_and_ambiguous_locales(problems):
    found = problems("MOVE A1 Pedrabonx -> Marengo")
    assert where(found) == [(1, 9, "Pedrabonx")]
    assert found[0].message == "no locale is called 'Pedrabonx' (did you mean Pedrabona?)"
    found = problems("MOVE A1 Pedrabona -> San")
    assert where(found) == [(1, 22, "San")]
    assert found[0].message == "'San' could be any of: San Giuliano Vecchio, San Giuliano Nuovo"
    found = problems("STANDING RETREAT ALL TO San Giuliano")
    assert where(found) == [(1, 25, "San Giuliano")]


def test_missing_parts(problems):
    found = problems("MOVE A1 Pedrabona")
    assert where(found) == [(1, 18, "")]
    assert found[0].message == "the order ends too soon"
    assert found[0].expected == "'->' and where the blocks go"
    found = problems("MOVE Pedrabona -> Marengo")
    assert found[0].message == "no blocks are named before the place Pedrabona"
    found = problems("MOVE A1 A2 -> Marengo")
    assert where(found) == [(1, 12, "->")]
    assert found[0].message == "the place the blocks start from is missing"
    found = problems("STANDING")
    assert found[0].expected.startswith("one of BLOCK, LEAD, ARTILLERY")


def test_trailing_words(problems):
    found = problems("MOVE A1 Pedrabona -> Marengo PLEASE")
    assert where(found) == [(1, 30, "PLEASE")]
    assert "IF BLOCKED" in found[0].expected


def test_road_checks(problems):
    found = problems("ROAD A4 Bridgehead -> Marengo")
    assert where(found) == [(1, 23, "Marengo")]
    assert found[0].message == "no road runs from Bridgehead to Marengo"
    found = problems("ROAD A4 Bridgehead -> Pedrabona -> Marengo -> Spinetta -> San Giuliano Vecchio")
    assert where(found) == [(1, 59, "San Giuliano Vecchio")]
    assert found[0].message == "a road move passes at most 3 locales after its start"
    found = problems("ROAD A1 A2 Pedrabona -> Marengo")
    assert found[0].message == "a road move is one block: write one ROAD line for each"
    found = problems("ROAD A3 Pedrabona>Marengo -> Marengo")
    assert found[0].message == "a road move starts in a reserve"
    found = problems("ROAD A4 Pedrabona -> Marengo")
    assert found[0].message == "A4 is not in the reserve of Pedrabona: it is in the reserve of Bridgehead"


def test_assault_checks(problems):
    found = problems("ASSAULT Pedrabona>Marengo WITH A3 LEAD A5 PURSUE A1")
    assert where(found) == [(1, 40, "A5"), (1, 50, "A1")]
    found = problems("ASSAULT Pedrabona>Marengo WITH A1")
    assert found[0].message == ("A1 is not on the approach Pedrabona>Marengo: it is in the reserve of "
                                "Pedrabona")
    found = problems("ASSAULT Pedrabona>Castel Ceriolo")
    assert found[0].message == "none of your blocks stand on Pedrabona>Castel Ceriolo"
    found = problems("ASSAULT Pedrabona>Marengo WITH A3 A5 PURSUE A3")
    assert found[0].message == "A3 is infantry; only cavalry pursues"
    found = problems("ASSAULT Pedrabona>Marengo WITH A3 A5 THEN EXTEND A3 Spinetta>Marengo")
    assert [p.message for p in found] == [
        "A3 is infantry; only cavalry extends",
        "after the assault the cavalry extends from Marengo, the locale taken"]
    found = problems("ASSAULT Pedrabona>Marengo WITH A3\nASSAULT Pedrabona>Marengo WITH A5")
    assert where(found) == [(2, 9, "Pedrabona")]
    assert "one assault per approach a day" in found[0].message
    found = problems("ASSAULT Pedrabona>Marengo WITH A3 A5 LEAD A3 MAYBE")
    assert where(found) == [(1, 46, "MAYBE")]
    assert found[0].message == "no block of yours called MAYBE"
    found = problems("ASSAULT Pedrabona>Marengo WITH A3 A5 NO PURSUIT MAYBE")
    assert where(found) == [(1, 49, "MAYBE")]
    assert found[0].expected == "LEAD, PURSUE, NO PURSUIT, THEN EXTEND or the end of the order"


def test_artillery_checks(problems, state):
    found = problems("BOMBARD A1 FROM Pedrabona>Marengo")
    assert found[0].message == "A1 is infantry; only artillery bombards"
    assert found[0].expected == "an artillery block"
    found = problems("FIRE A6", day=AUSTRIA_7AM)
    assert found[0].message == "A6 is not on the map yet; it is due now"
    a6 = state.blocks["A6"]
    a6.status, a6.locale, a6.facing = "map", "pedrabona", "marengo"
    found = problems("FIRE A6", day=AUSTRIA_7AM)
    assert found[0].message == "A6 declared no bombardment last day"
    a6.bombard = "marengo"
    found = problems("FIRE A6 AT Spinetta>Marengo", day=AUSTRIA_7AM)
    assert where(found) == [(1, 12, "Spinetta>Marengo")]
    found = problems("BOMBARD A6 FROM Pedrabona>Marengo\nBOMBARD A6 FROM Pedrabona>Marengo", day=AUSTRIA_7AM)
    assert where(found) == [(2, 9, "A6")]


def test_extend_checks(problems):
    found = problems("EXTEND A1 Pedrabona>Marengo")
    assert found[0].message == "A1 is infantry; only cavalry extends"
    found = problems("EXTEND A4 Pedrabona>Marengo")
    assert found[0].message == "A4 is not in the reserve of Pedrabona: it is in the reserve of Bridgehead"
    found = problems("MOVE A1 Pedrabona -> Marengo THEN EXTEND Marengo>Spinetta")
    assert found[0].message == "only cavalry extends its move, and none of these blocks is cavalry"
    found = problems("MOVE A4 Bridgehead -> Pedrabona THEN EXTEND Marengo>Spinetta")
    assert found[0].message.startswith("the extension must block an approach of Pedrabona")


def test_extend_needs_a_main_road(problems):
    found = problems("EXTEND F4 Castel Ceriolo>Marengo", "france", FRANCE_6AM)
    assert where(found) == [(1, 11, "Castel Ceriolo>Marengo")]
    assert found[0].message.startswith("no main road crosses Castel Ceriolo>Marengo")


def test_if_blocked_checks(problems):
    found = problems("MOVE A1 A2 Pedrabona -> Marengo IF BLOCKED ADVANCE A4")
    assert where(found) == [(1, 52, "A4")]
    found = problems("MOVE A1 Pedrabona -> Pedrabona>Marengo IF BLOCKED STAY")
    assert found[0].message == "IF BLOCKED is for a move into the next locale"
    found = problems("MOVE A1 Pedrabona -> Marengo IF BLOCKED RUN")
    assert where(found) == [(1, 41, "RUN")]
    assert found[0].expected == "STAY or ADVANCE"


def test_standing_checks(problems):
    found = problems("STANDING PURSUE SOMETIMES")
    assert where(found) == [(1, 17, "SOMETIMES")]
    assert found[0].expected == "ALWAYS, NEVER or STRONG"
    found = problems("STANDING RETREAT Pedrabona TO Spinetta")
    assert found[0].message == "Spinetta does not border Pedrabona"
    found = problems("STANDING LOSSES A1 F1")
    assert where(found) == [(1, 20, "F1")]
    found = problems("STANDING CLEAR EVERYTHING")
    assert found[0].expected.startswith("BLOCK, LEAD")
    found = problems("STANDING LEAD Pedrabona>Marengo A6")
    assert found[0].message == "A6 is artillery; artillery never leads a defence"


def test_standing_orders_may_name_waiting_blocks(parse):
    assert one(parse, "STANDING LOSSES A8 A1").blocks == ("A8", "A1")


def test_every_problem_is_listed(problems):
    text = "MOVE A99 Pedrabona -> Marengo\nMOVEE\nROAD A4 Bridgehead -> Marengo\nFINAL\nSTANDING PURSUE NO"
    found = problems(text)
    assert [p.line for p in found] == [1, 2, 3, 5]


def test_too_long(parse, problems):
    assert parse("FINAL\n" * 300).final
    assert parse("#" + "x" * 19_999).orders == []  # 20,000 characters: just fits
    found = problems("FINAL\n" * 301)
    assert len(found) == 1 and "lines" in found[0].message
    assert (found[0].line, found[0].column) == (301, 1)
    found = problems("# " + "x" * 20_000)
    assert len(found) == 1 and "characters" in found[0].message


def test_many_problems_are_capped(problems):
    found = problems("\n".join(f"MOVE Z{i} Pedrabona -> Marengo" for i in range(150)))
    assert len(found) == 101
    assert found[-1].message == "50 more problems not listed"


def test_orders_error_reads_well(problems):
    with pytest.raises(OrdersError) as info:
        parse_orders_text = "MOVE A1 Pedrabona -> Nowhere"
        raise OrdersError(problems(parse_orders_text))
    assert str(info.value) == ("line 1, column 22: no locale is called 'Nowhere' (found 'Nowhere'); "
                               "expected a locale of the map, by name")


def test_unknown_side(scenario, state):
    with pytest.raises(OrdersError) as info:
        parse_orders(scenario, state, "prussia", "FINAL")
    assert info.value.problems[0].message == "there is no side called 'prussia' in this game"


def test_fire_orders_only_on_your_day(problems, state):
    a6 = state.blocks["A6"]
    a6.status, a6.locale, a6.facing, a6.bombard = "map", "pedrabona", "marengo", "marengo"
    found = problems("HOLD FIRE A6", "austria", FRANCE_6AM)
    assert where(found) == [(1, 1, "HOLD")]
    found = problems("HOLD FIRE A6 AT Marengo>Spinetta", day=AUSTRIA_7AM)
    assert where(found) == [(1, 14, "AT")]


def test_pontoon_has_no_if_blocked(problems):
    found = problems("ENTER A7 BY PONTOON IF BLOCKED STAY")
    assert found[0].message == "IF BLOCKED has no use for a block crossing by the pontoon"


def test_standing_orders_name_blocks_still_in_play(problems, state):
    state.blocks["A2"].status, state.blocks["A2"].locale = "eliminated", None
    found = problems("STANDING BLOCK Pedrabona WITH A1 A2")
    assert where(found) == [(1, 34, "A2")]
    assert found[0].message == "A2 has been eliminated"


def test_one_problem_does_not_hide_the_next_order(problems):
    found = problems("MOVE A1 Pedrabona -> Nowhere ; MOVE A1 Pedrabona -> Castel")
    assert [p.found for p in found] == ["Nowhere", "A1"]  # A1 is still counted as moving in the first


def test_road_extension_along_a_road(problems):
    found = problems("ROAD A4 Bridgehead -> Pedrabona THEN EXTEND Pedrabona>Castel Ceriolo")
    assert where(found) == [(1, 45, "Pedrabona>Castel Ceriolo")]
    assert found[0].message == ("no road crosses Pedrabona>Castel Ceriolo; after a road move a block "
                                "extends only along a road")


def test_assault_extension_needs_block_and_approach(problems):
    found = problems("ASSAULT Pedrabona>Marengo WITH A3 A5 THEN EXTEND")
    assert where(found) == [(1, 49, "")]
    assert found[0].expected == "a cavalry block of the assault and an approach of Marengo (like Marengo>Pedrabona)"
    found = problems("ASSAULT Pedrabona>Marengo WITH A3 A5 THEN EXTEND A5 Marengo>Spinetta A5 Marengo>Castel")
    assert where(found) == [(1, 70, "A5")]
