"""What the games' code used to glue in English (issue 17, the native reading's "Left for the code"): separators,
decimal numbers, hours and names; each shown in French and Chinese (Ukrainian where a line began in lower case)
with English as it was (tests/test_golden.py and tests/fixtures/dba-english.json pin English whole).

French writes a no-break space before ``:`` and ``;``; Chinese the full-width ``：`` and ``；``."""

from __future__ import annotations

import re

import pytest

from pbem.core.game import Game
from pbem.core.orders import fold, parse_header
from pbem.core.ruleset import options_of
from pbem.games import rulesets
from pbem.tools.selfplay import play_game

NBSP = "\u00a0"
ENDED = r"\*\*(The game is over|La partie est terminée|Партію закінчено|对局已?结束)"
"""The report's line saying the game is over, in each language."""


def new_game(name: str, options: dict | None = None) -> Game:
    rules = rulesets()[name]
    scenario = rules.load_scenario(rules.scenarios()[next(iter(rules.scenarios()))])
    return Game(rules, scenario, 3, options=options_of(rules, options or {}))


def played(name: str, days: int | None = None, seed: int = 3) -> Game:
    rules = rulesets()[name]
    scenario = rules.load_scenario(rules.scenarios()[next(iter(rules.scenarios()))])
    bot = rules.bots()["bot"]
    return play_game(rules, scenario, seed, {s.id: bot for s in rules.seats(scenario, {})}, days=days)


def form(game: Game, seat: str, lang: str) -> str:
    return game.ruleset.orders_template(game, seat, deadline=None, game_label="g", game_id="7", lang=lang)


def report(game: Game, day: int, seat: str | None, lang: str) -> str:
    r = game.ruleset.report(game, day, seat, game_label="g", game_id="7", lang=lang)
    return r.markdown + "\n" + r.template


# -- the Marengo family ------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def marengo():
    return played("marengo", days=3)


def test_marengos_form_separates_its_notes_as_each_language_does(marengo):
    seat = marengo.turn().seats[0]
    places = {lang: [line for line in form(marengo, seat, lang).splitlines() if line.startswith("# -- ")]
              for lang in ("en", "fr", "zh")}
    assert any(re.search(r"; \d+ of yours here, capacity \d+", line) for line in places["en"])
    assert any(re.search(NBSP + r"; \d+ des vôtres ici, capacité \d+", line) for line in places["fr"])
    assert not any(re.search(r"\S; ", line) for line in places["fr"])
    assert any("；此处己方" in line for line in places["zh"]) and not any("; " in line for line in places["zh"])


def test_marengos_reinforcements_read_with_each_languages_colon_and_semicolon(marengo):
    game = new_game("marengo")
    english, french, chinese = (form(game, "austria", lang) for lang in ("en", "fr", "zh"))
    assert re.search(r"#    A\d+ .*, infantry \d: from 7AM", english)
    assert re.search(r"#    A\d+ .*, infanterie \d" + NBSP + r": à partir de 7 h", french)
    assert re.search(r"#    A\d+ .*, 步兵 \d：", chinese)
    assert "pions à partir de 11 h" + NBSP + "; " in report(marengo, 0, "austria", "fr")
    assert "blocks from 11AM; " in report(marengo, 0, "austria", "en")
    assert re.search(r"11时起\d+支部队；", report(marengo, 0, "austria", "zh"))


def test_the_maps_entries_are_named_in_the_readers_language():
    game = new_game("marengo")
    svg = {lang: game.ruleset.render_svg(game.scenario, game.view("france"), lang=lang) for lang in ("en", "fr", "zh")}
    assert "Tortona road" in svg["en"] and "Austrian pontoon" in svg["en"]
    assert "route de Tortone" in svg["fr"] and "ponton autrichien" in svg["fr"] and "Tortona road" not in svg["fr"]
    assert "托尔托纳大路" in svg["zh"] and "奥军浮桥" in svg["zh"] and "Rivalta road" not in svg["zh"]


@pytest.fixture(scope="module")
def triomphe():
    return played("triomphe", days=4)


def test_triomphes_waiting_cells_and_time_track_name_hours_in_the_readers_clock(triomphe):
    texts = {lang: report(triomphe, 0, None, lang) for lang in ("en", "fr", "zh")}
    assert "Alessandria (from 6AM)" in texts["en"] and "4PM: 3" in texts["en"]  # the town, not its id (issue 33)
    assert "Alessandria (à partir de 6 h)" in texts["fr"] and "16 h" + NBSP + ": 3" in texts["fr"]
    assert not re.search(r"\d(AM|PM)\b", texts["fr"]) and not re.search(r"\d(AM|PM)\b", texts["zh"])
    assert "Alessandria（6时起）" in texts["zh"] and "16时：3" in texts["zh"]
    assert "en attente (Alessandria)" in texts["fr"] and "waiting (Alessandria)" in texts["en"]


def test_a_triomphe_retreats_room_is_said_in_the_language():
    from pbem.games.triomphe.words import triomphe_tongue
    from pbem.lang import say

    label = say("%(place)s (%(num)d room)", place="Marengo", num=3)
    assert str(label) == "Marengo (3 room)"
    assert triomphe_tongue("fr").say(label) == "Marengo (place pour 3)"
    assert triomphe_tongue("zh").say(label) == "马伦哥（可容3支）"  # the place as Chinese spells it (words.toml)


# -- Napoleon 1815 ---------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def napoleon():
    return played("napoleon1815")


def test_napoleon1815s_end_line_names_the_winner_as_each_language_begins_a_sentence(napoleon):
    last = len(napoleon.days) - 1
    lines = {lang: next(line for line in report(napoleon, last, None, lang).splitlines() if re.match(ENDED, line))
             for lang in ("en", "fr", "uk", "zh")}
    assert lines["en"].startswith("**The game is over.** allies: the French")
    assert "Vainqueur" + NBSP + ": Alliés — les Français" in lines["fr"]
    assert "** Переможець: союзники — французи" in lines["uk"]  # no line beginning "союзники:" in lower case
    assert "胜方：联军——" in lines["zh"]


def test_napoleon1815s_deployments_separate_positions_as_each_language_does():
    from pbem.games.napoleon1815.words import Join, tongue
    from pbem.lang import say

    joined = Join([say("nobody"), say("nobody")], say("; "))
    assert str(joined) == "nobody; nobody"
    assert tongue("fr").say(joined) == "personne" + NBSP + "; personne"
    assert tongue("zh").say(joined).count("；") == 1


# -- DBA -------------------------------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def dba():
    return played("dba", seed=1)


def test_dbas_status_lines_and_form_write_each_languages_colon(dba):
    rules = dba.ruleset
    assert rules.status_lines(dba, "blue", lang="en")[0].startswith("1st Blue brigade: ")
    assert rules.status_lines(dba, "blue", lang="fr")[0].startswith("1re brigade bleue" + NBSP + ": ")
    assert "：" in rules.status_lines(dba, "blue", lang="zh")[0]
    opening = new_game("dba")
    assert "(1re brigade bleue" + NBSP + ": fraîche)" in form(opening, "blue", "fr")
    assert "(1st Blue brigade: fresh)" in form(opening, "blue", "en")


def test_dbas_end_line_names_the_winner_as_each_language_begins_a_sentence(dba):
    last = len(dba.days) - 1
    lines = {lang: next(line for line in report(dba, last, None, lang).splitlines() if re.match(ENDED, line))
             for lang in ("en", "fr", "uk", "zh")}
    assert re.match(r"\*\*The game is over\.\*\* (red|blue|nobody): ", lines["en"])
    assert "Vainqueur" + NBSP + ": " in lines["fr"] or "Aucun vainqueur — " in lines["fr"]
    assert "** Переможець: " in lines["uk"] or "** Переможця немає — " in lines["uk"]
    assert "胜方：" in lines["zh"] or "无胜方——" in lines["zh"]


def test_dbas_inches_are_written_with_the_languages_decimal_sign(dba):
    from pbem.games.dba.elements import in_inches, length_said
    from pbem.games.dba.lang import say, tongue

    pursued = say("%(element)s pursues %(inches)s\"", element="B1a", inches=in_inches(19))
    assert str(pursued) == "B1a pursues 1.9\"" and "1,9\"" in tongue("fr").say(pursued)
    assert "1.9\"" in tongue("zh").say(pursued)
    assert str(length_said(30)) == '3"' and tongue("uk").say(length_said(35)) == '3,5"'
    assert say("x", n=in_inches(30)).values["n"] == 3  # a whole number of inches stays whole: 3", not 3.0"
    table = {lang: report(dba, 0, "blue", lang) for lang in ("en", "fr", "zh")}
    assert re.search(r'\| \(\d+(\.\d)?", \d+\.\d"\) \|', table["en"])
    assert re.search(r'\| \(\d+(,\d)?"' + NBSP + r'; \d+,\d"\) \|', table["fr"])
    assert not re.search(r'\d\.\d"', table["fr"])


def test_a_text_kept_as_data_keeps_its_decimal_for_every_language():
    from pbem.games.dba.elements import in_inches
    from pbem.games.dba.lang import say, tongue
    from pbem.lang import Text

    kept = Text.from_dict(say("%(element)s pursues %(inches)s\"", element="B1a", inches=in_inches(26)).to_dict())
    assert str(kept) == "B1a pursues 2.6\"" and "2,6\"" in tongue("fr").say(kept)


# -- the forms' headers ------------------------------------------------------------------------------------------

@pytest.mark.parametrize("name,options,seat", [("napoleon1815", {}, "french"), ("dba", {}, "blue"),
                                               ("dba", {"command": "kriegsspiel"}, "blue-general")])
def test_a_forms_header_is_in_the_readers_words_and_names_his_seat_as_the_server_reads_it(name, options, seat):
    game = new_game(name, options)
    key = " KEY <your-key>"  # every game's form carries the key, as Marengo's does
    assert form(game, seat, "en").splitlines()[0] == f"GAME 7 SIDE {seat}{key}"
    seats = {s.id: s for s in game.ruleset.seats(game.scenario, game.options)}
    from pbem.core.ruleset import seat_title_in

    for lang, (game_word, side_word) in {"fr": ("PARTIE", "CAMP"), "uk": ("ГРА", "СТОРОНА"),
                                         "zh": ("对局", "阵营")}.items():
        text = form(game, seat, lang)
        first = text.splitlines()[0]
        assert first.startswith(f"{game_word} 7 {side_word} ") and seat not in first.split() and "GAME" not in first
        header, _ = parse_header(text)
        assert header.game == "7"
        named = [s for s, spec in seats.items() if fold(str(header.side)) == fold(seat_title_in(game.ruleset, spec,
                                                                                                  lang))]
        assert named == [seat]
        orders = game.ruleset.check_orders(game.scenario, game.state, seat, text, lang=lang)
        assert orders.header.game == "7"


def test_the_form_sent_back_finds_its_seat_on_a_real_server_store(tmp_path):
    from pbem.server.service import Service
    from pbem.server.store import Store

    service = Service(Store(tmp_path / "pbem.sqlite3"))
    game_id, _ = service.create_game("Langues", {"french": "jean@example.org", "anglo-dutch": "olena@example.org",
                                                 "prussian": "li@example.org"}, game="napoleon1815", seed=1)
    game = service.game(game_id)
    for seat, lang in (("french", "fr"), ("anglo-dutch", "uk"), ("prussian", "zh")):
        header, _ = parse_header(game.ruleset.orders_template(game, seat, deadline=None, game_label="g",
                                                                 game_id=str(game_id), lang=lang))
        assert header.game == str(game_id) and service.seat_named(game_id, str(header.side)) == seat


def test_napoleon1815s_setup_form_names_each_town_with_the_languages_colon():
    game = new_game("napoleon1815")
    assert "\n# Brussels: WEL BR-5" in form(game, "anglo-dutch", "en")
    assert "\n# Bruxelles : WEL BR-5" in form(game, "anglo-dutch", "fr")
    assert "\n# 布鲁塞尔：WEL BR-5" in form(game, "anglo-dutch", "zh")


def test_lists_the_marengo_familys_code_joins_are_joined_as_each_language_lists():
    game, seat = played("marengo", days=12), "austria"  # Austria has enemies next door to two places by then
    chinese = [line for line in form(game, seat, "zh").splitlines() if "相邻区域有敌军：" in line]
    english = [line for line in form(game, seat, "en").splitlines() if "enemy next door in " in line]
    assert english and len(english) == len(chinese)
    commas = [line.split("enemy next door in ")[1].count(", ") for line in english]
    assert sum(commas) > 0 and commas == [line.split("相邻区域有敌军：")[1].count("、") for line in chinese]
    assert not any(", " in line.split("相邻区域有敌军：")[1] for line in chinese)


@pytest.mark.parametrize("name,seat,english", [
    ("marengo", "austria", "Morale: Austria 16, France 17"),
    ("napoleon1815", "french", "Blocks lost: French 0, Anglo-Dutch 0, Prussian 0")])
def test_status_lines_list_as_each_language_lists(name, seat, english):
    game = new_game(name)
    assert game.ruleset.status_lines(game, seat, lang="en") == [english]
    chinese = game.ruleset.status_lines(game, seat, lang="zh")[0]
    assert ", " not in chinese and chinese.count("、") == english.count(", ")
