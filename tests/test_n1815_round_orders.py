"""A battle round's orders block by block (issue 29, §2; round_orders.py, played.py): each order word
read in every language the game reads, each refused where the rules refuse it with its line and column,
and a battle played round by round with the players' choices, each recorded as the seat's decision, the
doctrine playing what they leave unsaid.

The position: a live two-player game (seed 1, the simple bots) stopped before the first round of the
battle of Dinant. The Prussians attack from Ciney: P-IV-2, P-IV-1 and P-III-1 on their left, centre and
right (att0-att2; woods on their right); the French defend: IV (a farm), C-EXE (a hill) and C-PAJ on
their right, centre and left (def0-def2), GC in reserve. P-II-1 and P-II-2 stand in Namur, next to
Dinant by road."""

from __future__ import annotations

import pytest

from pbem.core.game import Game
from pbem.core.orders import OrdersError
from pbem.core.verify import verify
from pbem.games import ruleset
from pbem.games.napoleon1815.round_orders import VERBS as ROUND_VERBS
from pbem.games.napoleon1815.scenario import SEAT_ARMY
from pbem.games.napoleon1815.words import native_words
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.selfplay import chooser, simple_players

RULES = ruleset("napoleon1815")
SCENARIO = RULES.load_scenario(next(iter(RULES.scenarios().values())))
OPTIONS = {"players": "2", "battle": "live"}


def before_dinant() -> Game:
    players = simple_players(RULES, SCENARIO, OPTIONS)
    game = Game(RULES, SCENARIO, 1, options=OPTIONS)
    while not (game.state.pending and game.state.pending["stage"] == "round"):
        for seat in game.turn().seats:
            game.submit(seat, players[seat].orders(SCENARIO, game.view(seat), 1))
        game.advance(choose=chooser(1, game.day))
    return game


@pytest.fixture(scope="module")
def dinant() -> Game:
    game = before_dinant()
    (battle,) = game.state.pending["fought"]
    where = {bid: (b["role"], b["loc"]) for bid, b in battle["blocks"].items()}
    assert battle["town"] == "dinant" and where == {
        "P-IV-2": ("att", "att0"), "P-IV-1": ("att", "att1"), "P-III-1": ("att", "att2"),
        "IV": ("def", "def0"), "C-EXE": ("def", "def1"), "C-PAJ": ("def", "def2"), "GC": ("def", "res-def")}
    return game


PRUSSIAN = "{ENGAGE} P-IV-1\n{FORM} {SQUARE} P-IV-2\n{WITHDRAW} P-III-1 {TO} Ciney\n{REINFORCE} P-II-2 P-II-1"
FRENCH = "{SHIFT} GC {RIGHT}\n{ENGAGE} C-PAJ\n{HOLD} IV C-EXE"
ECHO = {"prussian": "ENGAGE P-IV-1\nFORM SQUARE P-IV-2\nWITHDRAW P-III-1 TO Ciney\nREINFORCE P-II-2 P-II-1",
        "french": "SHIFT GC RIGHT\nENGAGE C-PAJ\nHOLD IV C-EXE"}


@pytest.mark.parametrize("lang", ["en", "fr", "ru", "uk", "zh"])
def test_every_round_order_reads_in_each_language_as_the_english(dinant, lang):
    words = native_words(lang)
    for seat, text in (("prussian", PRUSSIAN), ("french", FRENCH)):
        assert dinant.check_orders(seat, text.format(**words)).echo() == ECHO[seat]
    # the words this position refuses, read as the English ones: each refused for the English word's reason
    for text, says in (("{DISENGAGE} C-EXE", "C-EXE is not engaged"), ("{BREAK} {SQUARE} IV", "IV is not in square"),
                       ("{FIRE} C-PAJ {LINE}", "C-PAJ is not engaged: only artillery fires")):
        with pytest.raises(OrdersError) as error:
            dinant.check_orders("french", text.format(**words))
        (problem,) = error.value.problems
        assert says in problem.message and problem.line == 1


def test_chinese_round_orders_need_no_spaces(dinant):
    assert dinant.check_orders("prussian", "接战P-IV-1\n结成方阵P-IV-2").echo() == "ENGAGE P-IV-1\nFORM SQUARE P-IV-2"


@pytest.mark.parametrize("seat, text, line, column, says", [
    # §6.32: "Пешая артиллерия не может осуществить подобное движение" (none here: the reserve instead)
    ("french", "ENGAGE GC", 1, 8, "GC is in your reserve"),
    # §6.32: "Выход из боя: передвижение частей, выходящих из боя" — only an engaged block leaves the fight
    ("french", "DISENGAGE IV", 1, 11, "IV is not engaged"),
    # §6.32: "Боковое движение в бою не допускается"; infantry makes one move a round
    ("prussian", "SHIFT P-IV-1 LEFT", 1, 7, "two moves, through the reserve"),
    # §6.33: "Части, находящиеся в Резерве, никогда не могут стрелять"
    ("french", "HOLD IV\nFIRE GC", 2, 6, "never fires (§6.33)"),
    # §6.33: "Кавалерия – для того, чтобы открыть огонь, должна вступить в бой"
    ("french", "FIRE C-EXE", 1, 6, "only artillery fires"),
    # §6.5: "Пехотные части могут сформировать или расформировать каре" — infantry only
    ("french", "FORM SQUARE C-PAJ", 1, 13, "only infantry forms square"),
    # §6.5: "Каре нельзя сформировать в лесу или ферме" (IV stands on the farm)
    ("french", "FORM SQUARE IV", 1, 13, "no square in the woods or on a farm"),
    ("french", "BREAK SQUARE IV", 1, 14, "IV is not in square"),
    # §7.1: "Атакующий может отступить только в прилегающие к бою города, через которые части вступили в бой"
    ("prussian", "WITHDRAW P-III-1 TO Namur", 1, 21, "Namur is not a town the battle of Dinant may be left to"),
    # §6.34: reinforcements come from adjacent towns without battles
    ("prussian", "REINFORCE P-IV-1", 1, 11, "P-IV-1 is not in a town next to a battle of yours"),
    # §6.3: "каждая часть может в раунд или осуществить движение, или атаковать, или отступить"
    ("prussian", "ENGAGE P-IV-1\nHOLD P-IV-2 P-IV-1", 2, 13, "P-IV-1 is given a second action this round (also "
                                                             "ENGAGE on line 1"),
    ("prussian", "ENGAGE OG", 1, 8, "OG is not a block of your army"),
])
def test_a_round_order_the_rules_refuse_is_answered_at_its_line_and_column(dinant, seat, text, line, column, says):
    with pytest.raises(OrdersError) as error:
        dinant.check_orders(seat, text)
    (problem,) = error.value.problems
    assert (problem.line, problem.column) == (line, column) and says in problem.message, problem


def test_round_orders_are_refused_outside_a_round_sub_turn():
    game = Game(RULES, SCENARIO, 1, options=OPTIONS)
    for text in ("ENGAGE P-I-1", "FIRE P-I-1", "FORM SQUARE P-I-1", "REINFORCE P-I-1"):
        with pytest.raises(OrdersError) as error:
            game.check_orders("prussian", text)
        (problem,) = error.value.problems
        assert problem.column == 1 and "only between two rounds of a battle" in problem.message


def test_a_round_played_with_the_players_orders_and_the_doctrine_for_the_rest():
    """Worked by hand from the rules: the Prussians' part comes first (§6.3 "Атакующий первым"). P-IV-1
    engages the French centre (§6.32); P-IV-2 forms square on its own left (§6.5); P-III-1, not engaged,
    withdraws by road to Ciney, disorganised (§7, §7.3: "Части, которые отступали - дезорганизованы"); the reinforcements from Namur come P-II-2 first,
    as named (§6.34: two by the major road), where the doctrine brings the stronger or P-II-1 first."""
    game = before_dinant()
    game.submit("prussian", ECHO["prussian"])
    game.submit("french", "SHIFT GC RIGHT\nHOLD IV")
    game.advance()
    day = game.days[-1]
    said = [str(e.said) for e in day.events if e.said is not None]
    part = said[said.index("Battle of Dinant, round 1 of the attacker."):]
    assert part[1:4] == ["P-IV-1 (infantry 4, B2) engages the defender's centre (your order).",
                         "P-IV-2 (infantry 4, B2) forms square (§6.5, your order).",
                         "P-III-1 retreats to Ciney (withdrawal), disorganised"]
    joined = [line for line in part if "joins the battle of Dinant from Namur" in line]
    assert joined[:2] == ["P-II-2 joins the battle of Dinant from Namur", "P-II-1 joins the battle of Dinant from Namur"]
    assert game.state.blocks["P-III-1"].town == "ciney"  # (disorganised till the turn's end, §7.3, which came)
    orders = [(r.decision.side, r.decision.question, r.answer, r.source) for r in day.decisions
              if r.decision.kind == "round"]
    assert orders[:4] == [
        ("prussian", "Battle of Dinant, round 1: ENGAGE P-IV-1", ("yes",), "orders"),
        ("prussian", "Battle of Dinant, round 1: FORM SQUARE P-IV-2", ("yes",), "orders"),
        ("prussian", "Battle of Dinant, round 1: WITHDRAW P-III-1 TO Ciney", ("yes",), "orders"),
        ("prussian", "Battle of Dinant, round 1: REINFORCE P-II-2", ("yes",), "orders")]
    report = RULES.report(game, game.day - 1, "prussian").markdown
    assert "Battle of Dinant, round 1: ENGAGE P-IV-1 carried out (your orders for the round)" in report


def test_a_three_player_live_game_through_the_service_with_every_block_ordered_each_round(tmp_path):
    service = Service(Store(tmp_path / "pbem.sqlite3"))
    service.rasterise = lambda svg: b"png"
    seats = {"french": "fred@example.org", "anglo-dutch": "anna@example.org", "prussian": "paul@example.org"}
    game_id, _ = service.create_game("Live", seats, scenario="napoleon1815.toml", seed=2, game="napoleon1815",
                                     options={"players": "3", "battle": "live"},
                                     settings={"hours": 0, "seconds": 600, "reminders": [], "early": True})
    bot = RULES.bots()["bot"]
    rounds = 0
    while service.info(game_id)["status"] != "finished":
        game = service.game(game_id)
        for seat in game.turn().seats:
            view = game.view(seat)
            text = bot.orders(game.scenario, view, 2)
            if view["phase"] == "battle round":  # every block of the seat's army on a board is given its order
                rounds += 1
                army = {b["id"] for b in view["blocks"] if b["army"] == SEAT_ARMY[seat]}
                on_board = {bid for battle in view["battles"] for place in battle["board"].values()
                            for bid in place["own"] if bid in army}
                named = {word for line in text.splitlines() if line.split()[0] in ROUND_VERBS
                         for word in line.split() if word in army}
                assert named == on_board, (seat, text)
            assert service.submit(game_id, seat, text + "FINAL\n").ok
        service.resolve_next(game_id)
    game = service.game(game_id)
    records = [r for d in game.days for r in d.decisions if r.decision.kind == "round"]
    assert rounds and records and all(r.source == "orders" for r in records)
    assert game.over
    assert verify(service.export(game_id), RULES, game.scenario) == []  # replayed from its log, day by day


def test_the_stored_parse_of_round_orders_reads_back_as_they_were(dinant):
    form = RULES.orders_form(SCENARIO)
    orders = dinant.check_orders("prussian", ECHO["prussian"])
    again = form.loads(form.dumps(orders))
    assert again.plays == orders.plays and again.echo() == ECHO["prussian"]


def test_an_engagement_by_order_is_the_attackers_activity_against_stalemate():
    """§6.7: «Битва заходит в тупик, если атакующий ... отказывается стрелять, входить в бой или отступать на
    протяжении 2 своих раундов». The Prussians' only act of round 1 is P-IV-2 engaging the French right by
    order (the rest hold, no reinforcements): their idle count stays 0 (1 would be a round towards stalemate)."""
    game = before_dinant()
    game.submit("prussian", "ENGAGE P-IV-2\nHOLD P-IV-1 P-III-1\nDOCTRINE REINFORCE NO")
    game.submit("french", "HOLD IV C-EXE C-PAJ GC\nDOCTRINE REINFORCE NO")
    game.advance()
    (battle,) = game.state.pending["fought"]
    assert battle["rounds"] == {"att": 1, "def": 1} and battle["idle"] == 0
    assert battle["blocks"]["P-IV-2"]["loc"] == "def0"  # the French right, as the attacker sees it opposite
