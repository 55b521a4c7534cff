"""Each player in his own language, the games' side (issue 17): the ``lang`` keyword of the ruleset
interface, the games' gettext catalogs, and Bonaparte at Marengo's texts in every language.

A whole self-played Marengo game is rendered for each language (every report of each side and of
the moderator, the orders forms, the status lines, the turn labels, the maps) and no text of the
catalogs is left in English, while English stays the source. The event lines of "what happened" and
the decisions are written by the rules engine as Texts (pbem.lang.say) and read in each seat's
language; so are a Triomphe game's. An orders problem is framed in the reader's language, the echo of
accepted orders is in his words, and the header's keys are read in every language."""

from __future__ import annotations

import inspect
import io
import re
from pathlib import Path

import pytest
from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po

from pbem.core.game import Game
from pbem.core.ruleset import Ruleset
from pbem.games import rulesets

GAMES_DIR = Path(__file__).resolve().parents[1] / "pbem" / "games"
LANGS = ("fr", "ru", "uk", "zh")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]|\{\w+\}")
LANG_MEMBERS = ("report", "orders_template", "status_lines", "render_svg", "check_orders", "turn_label")


def catalogs() -> list[Path]:
    return sorted(GAMES_DIR.glob("*/locale/*/LC_MESSAGES/*.po"))


# -- the ruleset interface ------------------------------------------------------------------------

@pytest.mark.parametrize("member", LANG_MEMBERS)
def test_the_protocol_and_every_game_take_the_readers_language_as_a_keyword(member):
    for owner in [Ruleset, *(type(r) for r in rulesets().values())]:
        parameter = inspect.signature(getattr(owner, member)).parameters.get("lang")
        assert parameter is not None, f"{owner.__name__}.{member} has no lang"
        assert parameter.kind is inspect.Parameter.KEYWORD_ONLY and parameter.default == "en", \
            f"{owner.__name__}.{member}: lang must be keyword-only, 'en' by default"


# -- the catalogs ---------------------------------------------------------------------------------

def test_the_games_catalogs_exist_for_every_language():
    found = {(p.parts[-5], p.parts[-3]) for p in catalogs()}
    for game in ("marengo", "simmons", "triomphe"):
        assert {(game, lang) for lang in LANGS} <= found, f"{game} lacks a catalog"


@pytest.mark.parametrize("po", catalogs(), ids=lambda p: "/".join(p.parts[-5:]))
def test_a_catalog_is_complete_its_placeholders_kept_and_its_mo_compiled(po):
    catalog = read_po(po.open("rb"))
    for message in catalog:
        if not message.id:
            continue
        ids = message.id if isinstance(message.id, tuple) else (message.id,)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        assert all(strings), f"{po}: {ids[0]!r} untranslated"
        assert not message.fuzzy, f"{po}: {ids[0]!r} fuzzy"
        if isinstance(message.id, tuple):
            assert len(strings) == catalog.num_plurals, f"{po}: {ids[0]!r} needs {catalog.num_plurals} forms"
        wanted = sorted(set(PLACEHOLDER.findall(ids[-1])))
        for s in strings:
            assert sorted(set(PLACEHOLDER.findall(s))) == wanted, f"{po}: {ids[0]!r} -> {s!r}: placeholders differ"
    compiled = io.BytesIO()
    write_mo(compiled, catalog)
    assert po.with_suffix(".mo").read_bytes() == compiled.getvalue(), f"{po}: the committed .mo is stale"


def test_russian_and_ukrainian_have_three_plural_forms_and_chinese_one():
    from pbem.games.marengo.words import marengo_tongue

    def blocks(lang, n):
        return marengo_tongue(lang).ngettext("%(num)d enemy block on the map.", "%(num)d enemy blocks on the map.", n)

    assert [blocks("ru", n) for n in (1, 3, 5, 21)] == [
        "1 блок противника на карте.", "3 блока противника на карте.", "5 блоков противника на карте.",
        "21 блок противника на карте."]
    assert [blocks("uk", n) for n in (1, 2, 11)] == [
        "1 фігура супротивника на мапі.", "2 фігури супротивника на мапі.", "11 фігур супротивника на мапі."]
    assert [blocks("fr", n) for n in (0, 1, 2)] == [
        "0 pion ennemi sur la carte.", "1 pion ennemi sur la carte.", "2 pions ennemis sur la carte."]
    assert blocks("zh", 4) == "地图上有4支敌方部队。"
    assert blocks("en", 1) == "1 enemy block on the map." and blocks("xx", 2) == "2 enemy blocks on the map."


# -- a whole Marengo game in every language -------------------------------------------------------

def english_phrases(game: str = "marengo") -> set[str]:
    """Of every msgid of a game's catalogs (and the family's), its longest run of words between
    placeholders (three words or more): what must not be left in a translated text."""
    out = set()
    for po in catalogs():
        if po.parts[-5] not in (game, "simmons"):
            continue
        for message in read_po(po.open("rb")):
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            for msgid in (message.id if isinstance(message.id, tuple) else (message.id,)):
                if not msgid or msgid in " ".join(s or "" for s in strings):
                    continue  # a name the language keeps as it is (Triomphe à Marengo, in French)
                runs = [r.strip(" .,:;()") for r in PLACEHOLDER.split(msgid) if r]
                longest = max(runs, key=len, default="")
                if len(longest.split()) >= 3:
                    out.add(longest)
    return out


@pytest.fixture(scope="module")
def marengo_game() -> Game:
    from pbem.games.marengo.bot import bot_orders

    ruleset = rulesets()["marengo"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 3)
    while not game.over:
        side = game.turn().seats[0]
        game.submit(side, bot_orders(game.scenario, game.view(side), 3))
        game.advance()
    return game


def texts_of(game: Game, lang: str) -> list[tuple[str, str]]:
    """(what, text) for everything a player or the moderator reads of ``game`` in ``lang``."""
    ruleset = game.ruleset
    out = []
    for seat in ("austria", "france"):
        out.append((f"opening form {seat}", ruleset.orders_template(game, seat, deadline=None, game_label="g",
                                                                    game_id="7", lang=lang)))
        out.append((f"status {seat}", "\n".join(ruleset.status_lines(game, seat, lang=lang))))
    for day in range(len(game.days)):
        for seat in ("austria", "france", None):
            report = ruleset.report(game, day, seat, game_label="g", game_id="7", lang=lang)
            out.append((f"report {day} {seat}", report.subject + "\n" + report.markdown + report.template))
        out.append((f"label {day}", ruleset.turn_label(game.scenario, day, lang=lang)))
    spectators = ruleset.report(game, len(game.days) - 1, None, spectator=True, lang=lang)
    out.append(("spectators", spectators.markdown))
    for day in (0, len(game.days) // 2, len(game.days) - 1):
        for seat in ("austria", "france", None):
            svg = ruleset.render_svg(game.scenario, game.view(seat, day), lang=lang)
            out.append((f"map {day} {seat}", " | ".join(re.findall(r">([^<>]+)</t", svg))))
    return out


def strip_engine_lines(text: str) -> str:
    """The text without what the rules engine writes in English (events, decisions, the victory line)."""
    return "\n".join(line for line in text.splitlines()
                     if not line.lstrip().startswith(("- ", "* ", "|")) and "**" not in line[:2])


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_marengo_game_reads_in_the_language_with_no_catalog_text_left_in_english(marengo_game, lang):
    phrases = english_phrases()
    assert len(phrases) > 80
    english = dict(texts_of(marengo_game, "en"))
    for what, text in texts_of(marengo_game, lang):
        assert text.strip(), what
        if what.startswith(("label", "status")):
            assert text != english[what], f"{what} left in English: {text!r}"
        left = sorted(p for p in phrases if p in text)  # the engine's lines (events, decisions, victory) too
        assert not left, f"{lang} {what}: English left: {left[:5]}"


def test_english_stays_the_source(marengo_game):
    report = marengo_game.ruleset.report(marengo_game, 1, "france", game_label="g", game_id="7")
    assert "## Morale" in report.markdown and "Decisions taken on your behalf" in report.markdown
    assert report.template.startswith("GAME 7 SIDE France TURN 7AM KEY <your-key>")
    assert marengo_game.ruleset.turn_label(marengo_game.scenario, 3) == "7AM (France's day)"


def test_the_translated_words_follow_the_rule_books(marengo_game):
    """The terms of 003 (French: pion, lieu, approche, réserve), 001 (Chinese: 区域, 后备, 部队) and 000
    (Ukrainian: фігура, ділянка, підступ): see docs/glossary-marengo.md."""
    def form(lang):
        return marengo_game.ruleset.orders_template(marengo_game, "france", deadline=None, game_label="g",
                                                    game_id="7", lang=lang)

    def report(lang):
        return marengo_game.ruleset.report(marengo_game, 2, "france", lang=lang).markdown

    assert "Vos pions sur la carte" in form("fr") and "réserve de " in form("fr")
    assert "Lieu" in report("fr") and "Moral" in report("fr")
    assert "地图上的己方部队" in form("zh") and "的后备" in form("zh")
    assert "Ваші фігури на мапі" in form("uk") and "Ділянка" in report("uk")
    assert "Ваши блоки на карте" in form("ru") and "Участок" in report("ru")


@pytest.mark.parametrize("lang", LANGS)
def test_the_orders_form_header_still_reads_as_orders(marengo_game, lang):
    """The form's header names the hour in the reader's clock (13:00), which the orders' header reads."""
    from pbem.games.marengo.bot import bot_orders

    ruleset = rulesets()["marengo"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 3)
    for _ in range(2):
        side = game.turn().seats[0]
        form = ruleset.orders_template(game, side, deadline=None, game_label="g", game_id="7", lang=lang)
        header = form.splitlines()[0].replace("<", "").replace(">", "")
        orders = bot_orders(game.scenario, game.view(side), 3).splitlines()
        text = "\n".join([header] + [line for line in orders if not line.startswith(("GAME", "#"))])
        ruleset.check_orders(game.scenario, game.state, side, text, lang=lang)  # raises if the header is refused
        game.submit(side, text)
        game.advance()


# -- orders in every language ---------------------------------------------------------------------

def in_language(text: str, lang: str, board) -> str:
    """``text`` (orders in English) with every order word in ``lang``'s and each place in its usual
    spelling there (when it has one), as a player of that language would write it."""
    from pbem.games.marengo.words import native_names, native_words

    words, names = native_words(lang), native_names(lang)
    sides = {"fr": {"France": "France", "Austria": "Autriche"}, "ru": {"France": "Франция", "Austria": "Австрия"},
             "uk": {"France": "Франція", "Austria": "Австрія"}, "zh": {"France": "法国", "Austria": "奥地利"}}
    places = sorted((loc.name for loc in board.locales.values()), key=len, reverse=True)
    place = re.compile("|".join(re.escape(p) for p in places))
    out = []
    for line in text.splitlines():
        if line.startswith(("GAME", "#")) or not line.strip():
            out.append(re.sub(r"SIDE (\w+)", lambda m: "SIDE " + sides[lang].get(m.group(1), m.group(1)), line))
            continue
        line = place.sub(lambda m: "\0" + str(places.index(m.group()))+ "\0", line)
        line = " ".join(words.get(w, w) for w in line.split(" "))
        line = re.sub("\0(\\d+)\0", lambda m: names.get(places[int(m.group(1))], places[int(m.group(1))]), line)
        out.append(line)
    return "\n".join(out)


def echo(orders) -> list[str]:
    return [o.text for o in orders.orders] + [s.text for s in orders.standing] + [str(orders.final)]


def test_the_same_orders_in_each_language_read_as_the_same_logged_orders_for_a_whole_game():
    """A self-played game (the strategist, own days and standing orders): each day's orders written in
    each language's words and place names parse to the same normalised orders as the English."""
    ruleset = rulesets()["marengo"]
    strategist = ruleset.bots()["strategist"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 5)
    board = game.scenario.board
    seen_words, days = set(), 0
    while not game.over:
        turn = game.turn()
        side, other = turn.seats[0], turn.others[0]
        texts = {side: strategist.orders(game.scenario, game.view(side), 5),
                 other: strategist.standing(game.scenario, game.view(other), 5)}
        for seat, text in texts.items():
            english = echo(ruleset.check_orders(game.scenario, game.state, seat, text))
            seen_words |= {w for line in text.splitlines() if not line.startswith("#") for w in line.split()}
            for lang in LANGS:
                written = in_language(text, lang, board)
                assert written != text
                assert echo(ruleset.check_orders(game.scenario, game.state, seat, written, lang=lang)) == english, \
                    f"day {days} {seat} {lang}:\n{written}"
            game.submit(seat, text)
        game.advance()
        days += 1
    assert days == 32 or game.over
    assert {"MOVE", "ASSAULT", "STANDING", "LEAD"} <= seen_words, "the game should use the main orders"


def test_words_and_names_of_every_language_mix_in_one_text_and_accents_may_be_left_out():
    ruleset = rulesets()["marengo"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 5)
    english = ruleset.check_orders(game.scenario, game.state, "france",
                                   "STANDING RETREAT Marengo TO Spinetta\nSTANDING LOSSES WEAKEST")
    for text in ("PERMANENT RETRAITE Маренго НА Спинетта\n常备 损失 最弱",  # three languages at once
                 "permanent retraite marengo vers spinetta\nПОСТОЯННО ПОТЕРИ СЛАБЕЙШИЙ",
                 "ПОСТІЙНО ВІДСТУП Маренго НА Спінетта\nPERMANENT PERTES PLUSFAIBLE",
                 "常备 撤退 马伦哥 到 斯皮内塔\nSTANDING LOSSES WEAKEST"):
        orders = ruleset.check_orders(game.scenario, game.state, "france", text, lang="fr")
        assert echo(orders) == echo(english), text
    accents = ruleset.check_orders(game.scenario, game.state, "france", "PERMANENT ARTILLERIE DEFENDRE")
    assert echo(accents) == ["STANDING ARTILLERY DEFEND", "False"]


def test_mail_words_know_every_languages_order_words():
    words = rulesets()["marengo"].mail_words
    assert {"MOVE", "DÉPLACER", "DEPLACER", "ДВИЖЕНИЕ", "РУХ", "移动", "PERMANENT", "ПОСТОЯННО"} <= words
    assert not {"SI", "PAR", "НА", "ПО", "AVEC", "以"} & words, "words inside an order begin no orders in a mail"


def test_a_name_in_cyrillic_letters_reads_as_the_maps_latin_name():
    ruleset = rulesets()["marengo"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 5)
    translit = ruleset.check_orders(game.scenario, game.state, "france", "ПОСТОЯННО ОТСТУПЛЕНИЕ Маренго НА Кашина Ронко")
    assert echo(translit) == ["STANDING RETREAT Marengo TO Cascina Ronco", "False"]


@pytest.mark.parametrize("lang", LANGS)
def test_the_forms_examples_are_in_the_readers_words_and_read_as_the_english_forms(marengo_game, lang):
    """Each example of the orders form, written in the reader's words, reads as the English form's
    example at the same place: the form teaches the player his own language's orders."""
    ruleset = rulesets()["marengo"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 3)
    from pbem.games.marengo.bot import bot_orders

    checked = 0
    for _ in range(6):
        side = game.turn().seats[0]
        forms = {language: ruleset.orders_template(game, side, deadline=None, game_label="g", game_id="7",
                                                   lang=language) for language in ("en", lang)}
        en_lines, native_lines = forms["en"].splitlines(), forms[lang].splitlines()
        assert len(en_lines) == len(native_lines)
        pairs = [(n[2:], e[2:]) for e, n in zip(en_lines, native_lines) if re.match(r"# [A-Z]{3,}( |$)", e)]
        native, english = [p[0] for p in pairs], [p[1] for p in pairs]
        for mine, theirs in zip(native, english):
            assert mine != theirs
            a = ruleset.check_orders(game.scenario, game.state, side, mine, lang=lang)
            b = ruleset.check_orders(game.scenario, game.state, side, theirs)
            assert echo(a) == echo(b), (mine, theirs)
            checked += 1
        game.submit(side, bot_orders(game.scenario, game.view(side), 3))
        game.advance()
    assert checked > 10


@pytest.mark.parametrize("name", ["marengo", "triomphe"])
def test_a_wrong_turn_in_the_header_names_the_hour_to_play_in_the_seats_clock_which_the_header_reads(name):
    """TURN that is no hour, or another hour: what is expected is the hour as the seat's language writes it
    (6AM, 6 h, 6:00, 6时), and the header reads it so."""
    from pbem.core.orders import OrdersError

    ruleset = rulesets()[name]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()[name]), 3)
    side = game.turn().seats[0]
    labels = {"en": "6AM", "fr": "6 h", "ru": "6:00", "uk": "6:00", "zh": "6时"}
    for lang, label in labels.items():
        for turn in ("dance", "3PM"):
            with pytest.raises(OrdersError) as error:
                ruleset.check_orders(game.scenario, game.state, side, f"GAME 7 TURN {turn}\nFINAL", lang=lang)
            problem = error.value.problems[0]
            assert problem.expected.startswith(label), (lang, problem.expected)
            assert lang == "en" or "AM" not in problem.expected, problem
        assert ruleset.check_orders(game.scenario, game.state, side, f"GAME 7 TURN {label}\nFINAL", lang=lang).final


def test_an_orders_problem_names_the_expected_words_in_the_seats_language_at_the_same_line_and_column():
    from pbem.core.orders import OrdersError

    ruleset = rulesets()["marengo"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 5)
    text = "STANDING PURSUE SOMETIMES"
    with pytest.raises(OrdersError) as english:
        ruleset.check_orders(game.scenario, game.state, "austria", text)
    problems = {}
    for lang in LANGS:
        with pytest.raises(OrdersError) as native:
            ruleset.check_orders(game.scenario, game.state, "austria", text, lang=lang)
        problems[lang] = native.value.problems[0]
    first = english.value.problems[0]
    assert "ALWAYS" in first.expected and "NEVER" in first.expected
    for lang, words in {"fr": ("TOUJOURS", "JAMAIS"), "ru": ("ВСЕГДА", "НИКОГДА"), "uk": ("ЗАВЖДИ", "НІКОЛИ"),
                        "zh": ("总是", "从不")}.items():
        p = problems[lang]
        assert (p.line, p.column, p.found) == (first.line, first.column, first.found)
        assert all(w in p.expected for w in words) and "ALWAYS" not in p.expected, p


# -- Triomphe à Marengo's orders in every language ------------------------------------------------

def test_triomphes_orders_in_each_language_read_as_the_same_logged_orders_for_a_whole_game():
    """Triomphe's words (its words.toml, after 000): a self-played game (the strategist, own turns and
    standing orders), each turn's orders in each language, read as the English."""
    from pbem.games.triomphe.words import WORDS

    ruleset = rulesets()["triomphe"]
    bot = ruleset.bots()["strategist"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["triomphe"]), 5)
    places = sorted((loc.name for loc in game.scenario.board.locales.values()), key=len, reverse=True)
    place = re.compile("|".join(re.escape(p) for p in places))
    seen, turns = set(), 0
    while not game.over and turns < 12:
        turn = game.turn()
        side, other = turn.seats[0], turn.others[0]
        texts = {side: bot.orders(game.scenario, game.view(side), 5),
                 other: bot.standing(game.scenario, game.view(other), 5)}
        for seat, text in texts.items():
            english = echo(ruleset.check_orders(game.scenario, game.state, seat, text))
            for lang in LANGS:
                words, names = WORDS.native_words(lang), WORDS.native_names(lang)
                lines = []
                for line in text.splitlines():
                    if line.startswith(("GAME", "#")):
                        lines.append(line)
                        continue
                    marked = place.sub(lambda m: "\0" + str(places.index(m.group())) + "\0", line)
                    marked = " ".join(words.get(w, w) for w in marked.split(" "))
                    lines.append(re.sub("\0(\\d+)\0", lambda m: names.get(places[int(m.group(1))],
                                                                            places[int(m.group(1))]), marked))
                    seen |= {w for w in line.split() if w in words}
                written = "\n".join(lines)
                assert echo(ruleset.check_orders(game.scenario, game.state, seat, written, lang=lang)) == english, \
                    f"turn {turns} {seat} {lang}:\n{written}"
            game.submit(seat, text)
        game.advance()
        turns += 1
    assert {"MARCH", "STANDING"} <= seen


def test_triomphes_problems_name_the_expected_words_in_the_seats_language():
    from pbem.core.orders import OrdersError

    ruleset = rulesets()["triomphe"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["triomphe"]), 5)
    with pytest.raises(OrdersError) as error:
        ruleset.check_orders(game.scenario, game.state, "austria", "STANDING CLEAR\nDANCE", lang="uk")
    text = str(error.value)
    assert "МАРШ" in text and "MARCH" not in text, text
    assert "МАРШ" in rulesets()["triomphe"].mail_words and "行军" in rulesets()["triomphe"].mail_words


@pytest.fixture(scope="module")
def triomphe_game() -> Game:
    """A whole self-played Triomphe game (the bot, to its end)."""
    ruleset = rulesets()["triomphe"]
    bot = ruleset.bots()["bot"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["triomphe"]), 2)
    while not game.over:
        side = game.turn().seats[0]
        game.submit(side, bot.orders(game.scenario, game.view(side), 2))
        game.advance()
    return game


def triomphe_texts(game: Game, lang: str) -> list[tuple[str, str]]:
    """(what, text) for everything a player or the moderator reads of a Triomphe game in ``lang``:
    the opening forms, every report (with its orders form), the status lines, the turn labels, maps."""
    ruleset = game.ruleset
    opening = Game(ruleset, game.scenario, 2)
    out = [(f"opening form {seat}", ruleset.orders_template(opening, seat, deadline=None, game_label="g",
                                                             game_id="7", lang=lang)) for seat in ("austria", "france")]
    for seat in ("austria", "france"):
        out.append((f"status {seat}", "\n".join(ruleset.status_lines(game, seat, lang=lang))))
    for day in range(len(game.days)):
        for seat in ("austria", "france", None):
            report = ruleset.report(game, day, seat, game_label="g", game_id="7", lang=lang)
            out.append((f"report {day} {seat}", report.subject + "\n" + report.markdown + report.template))
        out.append((f"label {day}", game.turn_label(day, lang)))
    out.append(("spectators", ruleset.report(game, len(game.days) - 1, None, spectator=True, lang=lang).markdown))
    for day in (0, len(game.days) // 2, len(game.days) - 1):
        for seat in ("austria", "france", None):
            svg = ruleset.render_svg(game.scenario, game.view(seat, day), lang=lang)
            out.append((f"map {day} {seat}", " | ".join(re.findall(r">([^<>]+)</t", svg))))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_a_whole_triomphe_game_reads_in_the_language_with_no_catalog_text_left_in_english(triomphe_game, lang):
    """Its reports (each side, the moderator, onlookers), the engine's lines in them (events, decisions,
    the victory), its orders forms, status lines, turn labels and maps: no text of its catalogs or the
    family's left in English."""
    phrases = english_phrases("triomphe")
    assert len(phrases) > 120
    english = dict(triomphe_texts(triomphe_game, "en"))
    for what, text in triomphe_texts(triomphe_game, lang):
        assert text.strip(), what
        if what.startswith(("label", "status", "opening")):
            assert text != english[what], f"{what} left in English: {text!r}"
        left = sorted(p for p in phrases if p in text)
        assert not left, f"{lang} {what}: English left: {left[:5]}"


@pytest.mark.parametrize("lang", LANGS)
def test_every_event_line_of_a_whole_triomphe_game_is_in_the_seats_language(triomphe_game, lang):
    tongue = triomphe_game.ruleset.tongue(lang)
    kinds = set()
    for day in triomphe_game.days:
        for event in day.events:
            assert event.said is not None, f"{event.kind}: {event.text!r} is not a Text"
            for seat in ("austria", "france", None):
                known = event.for_side(seat)
                if known is None:
                    continue
                native = event.text_for(seat, tongue)
                assert native != known[0], f"{lang} {seat}: left in English: {native!r}"
                kinds.add(event.kind)
    assert {"turn", "discs", "march", "maneuver", "retreat", "decision", "victory", "orders"} <= kinds


def test_triomphes_form_examples_read_as_the_english_forms():
    """The orders form in each language: the same lines as the English, each example in the reader's
    words reading as the English example."""
    ruleset = rulesets()["triomphe"]
    bot = ruleset.bots()["bot"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["triomphe"]), 2)
    checked = 0
    for _ in range(5):
        side = game.turn().seats[0]
        english = ruleset.orders_template(game, side, deadline=None, game_label="g", game_id="7").splitlines()
        for lang in LANGS:
            native = ruleset.orders_template(game, side, deadline=None, game_label="g", game_id="7",
                                             lang=lang).splitlines()
            assert len(native) == len(english)
            for e, n in zip(english, native):
                if re.match(r"# [A-Z]{3,}( |$)", e):
                    mine, theirs = n[2:].split("    #")[0], e[2:].split("    #")[0]
                    assert mine != theirs
                    assert echo(ruleset.check_orders(game.scenario, game.state, side, mine, lang=lang)) == \
                        echo(ruleset.check_orders(game.scenario, game.state, side, theirs)), (mine, theirs)
                    checked += 1
        game.submit(side, bot.orders(game.scenario, game.view(side), 2))
        game.advance()
    assert checked > 20


# -- the engine's sentences: events and decisions --------------------------------------------------

@pytest.mark.parametrize("lang", LANGS)
def test_every_event_line_of_a_whole_marengo_game_is_in_the_seats_language(marengo_game, lang):
    """Each event of every day (moves, entries, assaults and their results, losses, retreats, decisions
    taken by default, the victory) as each seat and the moderator know it: written as a Text, read in
    the language (no line left as its English), the English reading the same as the event's text."""
    tongue = marengo_game.ruleset.tongue(lang)
    kinds, checked = set(), 0
    for day in marengo_game.days:
        for event in day.events:
            assert event.said is not None, f"{event.kind}: {event.text!r} is not a Text"
            for seat in ("austria", "france", None):
                native, known = event.text_for(seat, tongue), event.for_side(seat)
                if known is None:
                    assert native is None  # what a seat did not see stays unseen in every language
                    continue
                assert native != known[0], f"{lang} {seat}: left in English: {native!r}"
                assert event.text_for(seat, marengo_game.ruleset.tongue("en")) == known[0]
                kinds.add(event.kind)
                checked += 1
    assert {"move", "entry", "assault", "assault_result", "loss", "decision", "victory", "day"} <= kinds
    assert checked > 300


def test_a_decisions_question_is_asked_in_the_seats_language(marengo_game):
    """The moderator's table of decisions and a seat's list read each question in the reader's language."""
    ruleset = marengo_game.ruleset
    day = next(i for i, d in enumerate(marengo_game.days) if d.decisions)
    record = marengo_game.days[day].decisions[0]
    assert record.decision.said is not None and str(record.decision.said) == record.decision.question
    french = record.decision.question_in(ruleset.tongue("fr"))
    assert french != record.decision.question
    assert french in ruleset.report(marengo_game, day, None, lang="fr").markdown


def test_the_victory_is_told_in_the_readers_language(marengo_game):
    ruleset = marengo_game.ruleset
    last = len(marengo_game.days) - 1
    english = ruleset.report(marengo_game, last, "austria").markdown
    assert "France wins: Austria holds objectives of fewer than two colours" in english
    assert "La France gagne : l'Autriche tient des objectifs de moins de deux couleurs" in \
        ruleset.report(marengo_game, last, "austria", lang="fr").markdown
    assert "Франція перемагає: Австрія утримує цілі менш ніж двох кольорів" in \
        ruleset.report(marengo_game, last, None, spectator=True, lang="uk").markdown


def test_a_text_reads_its_values_lists_and_plurals_in_the_language():
    from pbem.lang import say, say_plural
    from pbem.games.marengo.words import marengo_tongue

    blocks = say("%(blocks)s retreat from %(place)s to %(to)s.", blocks=["A1", "A2"], place="Marengo",
                 to=say("%(place)s (reserve)", place="Spinetta"))
    assert str(blocks) == "A1, A2 retreat from Marengo to Spinetta (reserve)."
    assert marengo_tongue("zh").say(blocks) == "A1、A2从马伦哥撤退到斯皮内塔（后备）。"  # the places as Chinese spells them
    count = say_plural("%(num)d %(side)s block", "%(num)d %(side)s blocks", 5, side=say("French"))
    assert str(count) == "5 French blocks"
    assert marengo_tongue("ru").say(count) == "5 блоков Франции"
    assert marengo_tongue("uk").say(say_plural("%(num)d %(side)s block", "%(num)d %(side)s blocks", 2,
                                               side=say("Austrian"))) == "2 фігури Австрії"


@pytest.mark.parametrize("lang", LANGS)
def test_the_turn_being_played_is_named_in_the_readers_language(marengo_game, lang):
    ruleset = marengo_game.ruleset
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 3)
    for day in (0, game.day):
        native = game.turn_label(day, lang)
        assert native != game.turn_label(day) == "6AM (Austria's day)"
        assert native == ruleset.turn_label(game.scenario, day, lang=lang)  # the position's name, read
    assert marengo_game.turn_label(len(marengo_game.days) - 1, lang) == \
        ruleset.turn_label(marengo_game.scenario, len(marengo_game.days) - 1, lang=lang)


# -- the frame of an orders problem, the echo, the header's keys ---------------------------------------

FRAMES = {"fr": ("ligne 3, colonne 1 : ", "(trouvé 'DANCE')", "; attendu : l'un de "),
          "ru": ("строка 3, столбец 1: ", "(найдено 'DANCE')", "; ожидалось: одно из: "),
          "uk": ("рядок 3, стовпчик 1: ", "(знайдено 'DANCE')", "; очікувалося: одне з: "),
          "zh": ("第 3 行，第 1 列：", "（发现 'DANCE'）", "；应为：以下之一：")}


@pytest.mark.parametrize("game_name", ["marengo", "triomphe"])
@pytest.mark.parametrize("lang", LANGS)
def test_an_orders_problem_is_framed_whole_in_the_readers_language(game_name, lang):
    """Line, column, what was found and what was expected, and the message, in the seat's language,
    at the same line and column as the English; the server's refusal shows the same words."""
    from pbem.core.orders import OrdersError
    from pbem.server.service.orders import problem_text

    ruleset = rulesets()[game_name]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()[game_name]), 5)
    text = "GAME 3 SIDE Austria KEY x\n\nDANCE"
    with pytest.raises(OrdersError) as english:
        ruleset.check_orders(game.scenario, game.state, "austria", text)
    with pytest.raises(OrdersError) as native:
        ruleset.check_orders(game.scenario, game.state, "austria", text, lang=lang)
    en, it = english.value.problems[0], native.value.problems[0]
    assert str(en).startswith("line 3, column 1: 'DANCE' is not an order (found 'DANCE'); expected one of ")
    assert (it.line, it.column, it.found) == (en.line, en.column, en.found)
    line = str(it)
    head, found, expected = FRAMES[lang]
    assert line.startswith(head) and found in line and expected in line, line
    assert "is not an order" not in line and "expected" not in line
    assert problem_text(it, lang) == line == str(native.value)
    assert it.in_language("en").startswith("line 3, column 1: ")  # the frame alone follows the language asked


def test_the_cores_problems_are_read_in_the_language_with_the_expected_words():
    ruleset = rulesets()["marengo"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 5)
    from pbem.core.orders import OrdersError

    with pytest.raises(OrdersError) as error:
        ruleset.check_orders(game.scenario, game.state, "austria", "GAME 3 PARTIE 4\nMOVE", lang="fr")
    text = str(error.value)
    assert "ligne 1, colonne 8 : GAME figure deux fois dans l'en-tête" in text or \
        "figure deux fois dans l'en-tête" in text, text
    assert "l'ordre s'arrête trop tôt" in text and "DÉPLACER" in text, text


@pytest.mark.parametrize("lang", LANGS)
def test_the_echo_of_accepted_orders_is_in_the_seats_words_and_reads_back_as_the_same_orders(lang):
    ruleset = rulesets()["marengo"]
    strategist = ruleset.bots()["strategist"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 5)
    for _ in range(4):
        side = game.turn().seats[0]
        text = strategist.orders(game.scenario, game.view(side), 5)
        english = ruleset.check_orders(game.scenario, game.state, side, text)
        native = ruleset.check_orders(game.scenario, game.state, side, text, lang=lang)
        assert native.echo() != english.echo() and english.echo() == ruleset.check_orders(
            game.scenario, game.state, side, text, lang="en").echo()
        assert echo(native) == echo(english)  # the orders themselves, as logged, stay English
        again = ruleset.check_orders(game.scenario, game.state, side, native.echo(), lang=lang)
        assert echo(again) == echo(english), native.echo()
        assert not any(w in native.echo().split() for w in ("MOVE", "ROAD", "ASSAULT", "ENTER"))
        game.submit(side, text)
        game.advance()


HEADERS = {"fr": "PARTIE 7 CAMP Autriche TOUR 6:00 CLÉ secret", "ru": "ИГРА 7 СТОРОНА Австрия ХОД 6:00 КЛЮЧ secret",
           "uk": "ГРА 7 СТОРОНА Австрія ХІД 6:00 КЛЮЧ secret", "zh": "对局 7 阵营 奥地利 回合 6:00 密钥 secret"}


@pytest.mark.parametrize("game_name", ["marengo", "triomphe"])
@pytest.mark.parametrize("lang", LANGS)
def test_the_header_keys_are_read_in_every_language_and_the_form_writes_the_readers(game_name, lang):
    from pbem.core.orders import parse_header
    from pbem.server.service.orders import redact_key

    header, _ = parse_header(HEADERS[lang] + "\nFINAL")
    assert (header.game, header.key, header.turn, fold(header.side)) == ("7", "secret", "6:00",
                                                                        fold(HEADERS[lang].split()[3]))
    assert "secret" not in redact_key(HEADERS[lang]) and redact_key(HEADERS[lang]).endswith("***")
    ruleset = rulesets()[game_name]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()[game_name]), 3)
    form = ruleset.orders_template(game, "austria", deadline=None, game_label="g", game_id="7", lang=lang)
    first = form.splitlines()[0]
    assert first.split()[:4] == HEADERS[lang].split()[:4] and "GAME" not in first
    header = first.rsplit(" ", 1)[0] + " secret"  # the player fills in his key and sends the form back
    orders = ruleset.check_orders(game.scenario, game.state, "austria", header + "\n", lang=lang)
    assert (orders.header.game, orders.header.key) == ("7", "secret")


def fold(text):
    from pbem.core.orders import fold as core_fold

    return core_fold(text)


# -- by mail, end to end: the header's words, the refusal and the echo in the seat's language ------------

MAIL_WORDS = {"fr": ("PARTIE", "CLÉ", "DANSE", "ligne 2, colonne 1 : 'DANSE' n'est pas un ordre", "l'un de ACTIVER"),
              "ru": ("ИГРА", "КЛЮЧ", "ТАНЕЦ", "строка 2, столбец 1: 'ТАНЕЦ' — не приказ", "одно из: АКТИВИРОВАТЬ"),
              "uk": ("ГРА", "КЛЮЧ", "ТАНЕЦЬ", "рядок 2, стовпчик 1: 'ТАНЕЦЬ' — не наказ", "одне з: АКТИВУВАТИ"),
              "zh": ("对局", "密钥", "跳舞", "第 2 行，第 1 列：'跳舞' 不是命令", "以下之一：启动")}


@pytest.mark.parametrize("lang", LANGS)
def test_orders_by_mail_headed_in_the_players_words_are_refused_whole_in_his_language(lang, tmp_path):
    """A mail headed PARTIE/ИГРА/对局 ... CLÉ/КЛЮЧ/密钥 reaches the seat; a wrong order is refused with its
    line, column, message and the expected words all in the player's language; the key, written after
    the header word of his language, is never kept in the stored text; good orders are echoed in his words."""
    from datetime import datetime, timezone
    from email.message import EmailMessage

    from conftest import Clock
    from pbem.server import inbox
    from pbem.server.service import Service
    from pbem.server.store import Store

    from pbem.games.marengo.words import native_words

    game_word, key_word, bad, refusal, expected = MAIL_WORDS[lang]
    assert native_words(lang)["ACTIVATE"] in expected
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    service.rasterise = lambda svg: b"png"
    for email in ("anna@example.org", "fred@example.org"):
        service.store.set_language(email, lang)
    game_id, keys = service.create_game("Langues", {"austria": "anna@example.org", "france": "fred@example.org"},
                                        seed=2)

    def send(text):
        msg = EmailMessage()
        msg["From"], msg["To"], msg["Subject"] = "anna@example.org", "pbem@localhost", "orders"
        msg.set_content(text)
        inbound_id, _ = inbox.receive(service, msg.as_bytes(), "smtp")
        inbox.process(service, inbound_id)
        rows = service.store.mails("WHERE to_addr = ? ORDER BY id DESC", ("anna@example.org",))
        return rows[0]["body"]

    header = f"{game_word} {game_id} {key_word} {keys['austria']}"
    body = send(f"{header}\n{bad}")
    assert refusal in body and expected in body, body
    assert "is not an order" not in body and "expected" not in body
    words = native_words(lang)
    good = send(f"{header}\n{words['STANDING']} {words['LOSSES']} {words['WEAKEST']}")
    assert f"{words['STANDING']} {words['LOSSES']} {words['WEAKEST']}" in good and "STANDING" not in good, good
    logged = [e for e in service.game(game_id).log if e.get("kind") == "orders"]
    assert logged and keys["austria"] not in logged[-1]["text"] and f"{key_word} ***" in logged[-1]["text"]


@pytest.mark.parametrize("lang", LANGS)
def test_an_order_the_day_would_not_carry_out_is_refused_in_the_seats_language(lang):
    """The check of the day as it will play (checks.py): the engine's reason, the refusal and what is
    expected, in the seat's language; the English as it was."""
    from pbem.core.orders import OrdersError
    from pbem.games.marengo.bot import bot_orders

    ruleset = rulesets()["marengo"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 5)
    side = game.turn().seats[0]
    game.submit(side, bot_orders(game.scenario, game.view(side), 5))
    game.advance()
    asleep = next(b for b in game.view("france")["blocks"] if b["status"] == "map" and not b["activated"])
    board = game.scenario.board
    text = f"MOVE {asleep['id']} {board.locales[asleep['locale']].name} -> " \
           f"{board.locales[board.adjacent(asleep['locale'])[0]].name}"
    with pytest.raises(OrdersError) as english:
        ruleset.check_orders(game.scenario, game.state, "france", text)
    assert str(english.value) == (f"line 1, column 1: {asleep['id']} has not been activated (003 §6 step 6): this "
                                  f"order would not be carried out (found {text!r}); expected a block already "
                                  "active, or one activated by ACTIVATE in these orders")
    with pytest.raises(OrdersError) as native:
        ruleset.check_orders(game.scenario, game.state, "france", text, lang=lang)
    line = str(native.value)
    assert "activated" not in line and "would not be carried out" not in line, line
    assert "003 §6" in line and asleep["id"] in line


# -- every problem Marengo's parser and checks write, in every language -------------------------

def _literal_calls(path: Path, names: tuple[str, ...], constants: dict) -> list[tuple[str, tuple, dict]]:
    """The calls of ``names`` in a test file whose arguments are all literals (or ``constants``):
    the bad orders the parse and check tests feed, as (name, args, keywords)."""
    import ast

    def value(node):
        if isinstance(node, ast.Name) and node.id in constants:
            return constants[node.id]
        return ast.literal_eval(node)

    calls = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in names:
            try:
                calls.append((node.func.id, tuple(value(a) for a in node.args),
                              {k.arg: value(k.value) for k in node.keywords}))
            except (ValueError, TypeError, SyntaxError):
                continue  # built at run time (an f-string of the test's position): not a literal example
    return calls


def _marengo_problems() -> list:
    """Every Problem the bad orders of tests/test_parse.py and tests/test_checks.py raise (parsed
    against their fixtures' positions, as those tests parse them)."""
    from pbem.core.chance import Chance
    from pbem.core.orders import OrdersError
    from pbem.games.marengo.parse import parse_orders
    from pbem.games.marengo.scenario import load_scenario
    from pbem.games.marengo.setup import setup

    import test_checks
    import test_parse

    here = Path(__file__).parent
    found = []
    scenario = load_scenario(here / "fixtures" / "small.toml")
    days = {k: getattr(test_parse, k) for k in ("AUSTRIA_6AM", "FRANCE_6AM", "AUSTRIA_7AM", "FRANCE_7AM")}
    for _name, args, keywords in _literal_calls(here / "test_parse.py", ("problems",), days):
        state = setup(scenario, Chance(7))
        for bid, (locale, facing) in test_parse.POSITIONS.items():
            block = state.blocks[bid]
            block.status, block.locale, block.facing = "map", locale, facing
        text, *rest = args
        side = keywords.get("side", rest[0] if rest else "austria")
        state.day = keywords.get("day", rest[1] if len(rest) > 1 else days["AUSTRIA_6AM"])
        try:
            parse_orders(scenario, state, side, text, checks=False)
        except OrdersError as error:
            found.extend(error.problems)
    for _name, args, keywords in _literal_calls(here / "test_checks.py", ("refused", "check"), {}):
        try:
            test_checks.check(*args, **keywords)
        except OrdersError as error:
            found.extend(error.problems)
    for case, day, side, text in MARENGO_MORE:
        scenario, state = test_checks.position(case)
        state.day = day
        with pytest.raises(OrdersError) as error:
            parse_orders(scenario, state, side, text)
        found.extend(error.value.problems)
    return found


# Marengo's refusals the parse and check tests do not write: (case of tests/cases/marengo, day, side, text)
MARENGO_MORE = [
    ("artillery-defence-allowed", 5, "france", "BOMBARD F3 FROM Mid>East"),  # the engine's reason (combat.py)
    ("artillery-defence-allowed", 5, "france", "BOMBARD F3 FROM Mid>West\nMOVE F3 Mid>West -> Mid"),
]


def _english_pieces(lang: str, game: str = "marengo") -> list[str]:
    """The English words of the Marengo family's catalog sentences (each sentence cut at its
    placeholders, pieces of three words or more) that its translation in ``lang`` does not keep
    (order words such as IF BLOCKED stay English in every catalog; the order words are put in the
    reader's words afterwards)."""
    pieces = set()
    for po in (Path(f"pbem/games/{game}/locale"), Path("pbem/games/simmons/locale"), Path("pbem/core/locale")):
        for path in (Path(__file__).parent.parent / po / lang / "LC_MESSAGES").glob("*.po"):
            for message in read_po(path.open("rb")):
                if not message.id or not isinstance(message.id, str) or not message.string:
                    continue
                for piece in re.split(r"%\([a-z]+\)[sd]", message.id):
                    piece = piece.strip(" ,.;:()'")
                    if len(re.findall(r"[a-z]+", piece)) >= 3 and piece not in message.string:
                        pieces.add(piece)
    return sorted(pieces)


@pytest.fixture(scope="module")
def marengo_problems():
    return _marengo_problems()


def test_every_marengo_problem_is_written_as_a_text(marengo_problems):
    """The parser's and the checks' problems (every bad order of the parse and check tests): each
    message, and what it expects, a Text read in the seat's language."""
    assert len(marengo_problems) > 80
    english = [str(p) for p in marengo_problems
               if p.said is None or (p.expected and p.expected_said is None)]
    assert english == []
    # nor an English sentence kept as a plain value of a Text (a reason the checks hold as English)
    sentences = [f"{value!r} in {p}" for p in marengo_problems for said in (p.said, p.expected_said)
                 for value in _plain_values(said) if len(re.findall(r"\b[a-z]+\b", value)) >= 3]
    assert sentences == []


def _plain_values(said) -> list[str]:
    """The plain strings among a Text's values (its Texts' too): names and ids, never a sentence."""
    from pbem.lang import Text

    if not isinstance(said, Text):
        return []
    out = []
    for value in said.values.values():
        for item in value if isinstance(value, (list, tuple)) else (value,):
            out.extend(_plain_values(item) if isinstance(item, Text) else [item] if isinstance(item, str) else [])
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_sentence_is_left_in_a_marengo_refusal(marengo_problems, lang):
    """Each of those problems read in ``lang`` (as the server refuses orders: the seat's order words,
    the core's frame) holds no English sentence of the catalogs; line, column and found unchanged."""
    from pbem.core.orders import OrdersError
    from pbem.games.marengo import words
    from pbem.games.marengo.words import marengo_tongue

    pieces = _english_pieces(lang)
    assert "is not one of the blocks of this move" in pieces or lang == "en"
    left = []
    for problem in marengo_problems:
        read = words.error_in_words(OrdersError([problem]), lang, marengo_tongue(lang)).problems[0]
        assert (read.line, read.column, read.found) == (problem.line, problem.column, problem.found)
        line = str(read)
        left.extend(f"{piece!r} in {line}" for piece in pieces if piece in line and piece not in problem.found)
    assert left == []


# Triomphe's bad orders, each raising at least one problem, at the start of the game: (side, text)
TRIOMPHE_BAD = [
    ("austria", "ENTER A1 A2 -> Pedrabona"), ("austria", "ENTER A1 BY PONTOON\nENTER A2 BY PONTOON"),
    ("austria", "ENTER A1 AT Nowhere"), ("austria", "ENTER A1 -> Pedrabona -> Marengo -> Spinetta -> Cascina"),
    ("austria", "ENTER A1 BY FOO"), ("austria", "ENTER A1 IF FOO"), ("austria", "ENTER A1 IF BLOCKED FOO"),
    ("austria", "ENTER A1 THEN FOO"), ("austria", "ENTER A1 THEN CONTINUE A1 Marengo>Spinetta"),
    ("austria", "ENTER A1\nENTER A1"), ("austria", "MARCH A1 Pedrabona -> Marengo"), ("austria", "ROAD"),
    ("austria", "MARCH A1"), ("austria", "BOMBARD"), ("austria", "HOLD A1"), ("austria", "FIRE"),
    ("austria", "REORGANISE A1"), ("austria", "RETURN NONE"), ("austria", "ATTACK A1 Pedrabona"),
    ("france", "MARCH F1 Spinetta -> Nowhere"), ("france", "MARCH F1 F2 F3 F4 Spinetta -> Marengo"),
    ("france", "MARCH F1 Spinetta -> Spinetta"), ("france", "MARCH F1 Spinetta -> Bormida bridgehead"),
    ("france", "ROAD F1 F2 Spinetta -> Marengo"), ("france", "ROAD F1 Spinetta>Marengo -> Marengo"),
    ("france", "ATTACK F1 Spinetta -> Bormida bridgehead"), ("france", "ASSAULT Spinetta>Marengo"),
    ("france", "BOMBARD F1 FROM Spinetta>Marengo"), ("france", "FIRE F1"), ("france", "RETURN Marengo"),
    ("france", "RETURN NONE\nRETURN NONE"),
    ("france", "MARCH F1 Spinetta -> Spinetta>Marengo THEN CONTINUE Marengo>Spinetta"),
    ("france", "MARCH F1 Spinetta -> Marengo THEN CONTINUE F1 Marengo>Spinetta"), ("france", "ENTER F1"),
    ("france", "STANDING RETREAT Spinetta TO Spinetta Spinetta"),
    ("france", "ATTACK F1 Spinetta>Marengo -> Piana di San Giuliano"),
    ("france", "MARCH F1 Spinetta -> Marengo\nMARCH F1 Marengo -> Spinetta"),
    ("france", "ASSAULT Spinetta>Marengo WITH F1 LEAD F2"), ("france", "MOVE F1 Spinetta -> Marengo"),
]


@pytest.fixture(scope="module")
def triomphe_problems():
    from pbem.core.orders import OrdersError
    from pbem.games.triomphe import parse_orders, setup
    from pbem.games.triomphe.scenario import load_scenario

    scenario = load_scenario(Path(__file__).parent.parent / "maps" / "triomphe.toml")
    found = []
    for side, text in TRIOMPHE_BAD:
        state = setup(scenario, 1)
        state.day = 0 if side == "austria" else 1
        with pytest.raises(OrdersError) as error:
            parse_orders(scenario, state, side, text)
        found.extend(error.value.problems)
    return found


def test_every_triomphe_problem_is_written_as_a_text(triomphe_problems):
    """Triomphe's parser (its own orders, the family's reader): each message a Text, what is expected
    a Text or only names and order words; no English sentence kept as a plain value."""
    def sentence(text: str) -> bool:
        return len(re.findall(r"\b[a-z]+\b", text)) >= 3

    english = [str(p) for p in triomphe_problems
               if p.said is None or (p.expected_said is None and sentence(p.expected))]
    assert english == []
    plain = [f"{value!r} in {p}" for p in triomphe_problems for said in (p.said, p.expected_said)
             for value in _plain_values(said) if sentence(value)]
    assert plain == []


@pytest.mark.parametrize("lang", LANGS)
def test_no_english_sentence_is_left_in_a_triomphe_refusal(triomphe_problems, lang):
    from pbem.core.orders import OrdersError
    from pbem.games.triomphe.words import WORDS

    ruleset = rulesets()["triomphe"]
    pieces = _english_pieces(lang, "triomphe")
    assert "is not one of the blocks of this action" in pieces
    left = []
    for problem in triomphe_problems:
        read = WORDS.error_in_words(OrdersError([problem]), lang, ruleset.tongue(lang)).problems[0]
        assert (read.line, read.column, read.found) == (problem.line, problem.column, problem.found)
        line = str(read)
        left.extend(f"{piece!r} in {line}" for piece in pieces if piece in line and piece not in problem.found)
    assert left == []


@pytest.fixture(scope="module")
def marengo_warned():
    """The orders of tests/test_checks.py's literal examples that are accepted with warnings."""
    from pbem.core.orders import OrdersError

    import test_checks

    import ast

    from pbem.games.marengo.parse import parse_orders

    here, found, examples = Path(__file__).parent, [], []
    for name in ("test_checks.py", "test_mutants_marengo.py"):
        examples += [args for _n, args, _k in _literal_calls(here / name, ("check",), {}) if len(args) == 2]
        for function in ast.walk(ast.parse((here / name).read_text(encoding="utf-8"))):
            if not isinstance(function, ast.FunctionDef):
                continue
            cases = [a.value for n in ast.walk(function) if isinstance(n, ast.Call) and getattr(n.func, "id", "") ==
                     "position" for a in n.args[:1] if isinstance(a, ast.Constant)]
            calls = [n for n in ast.walk(function) if isinstance(n, ast.Call) and getattr(n.func, "id", "") ==
                     "parse_orders" and len(n.args) == 4 and all(isinstance(a, ast.Constant) for a in n.args[2:])]
            examples += [(cases[0], call.args[3].value, call.args[2].value) for call in calls if len(cases) == 1]
    for case, text, *side in examples:
        try:
            if side:
                scenario, state = test_checks.position(case)
                orders = parse_orders(scenario, state, side[0], text)
            else:
                orders = test_checks.check(case, text)
        except OrdersError:
            continue
        if orders.warnings:
            found.append(orders)
    return found


@pytest.mark.parametrize("lang", LANGS)
def test_a_marengo_warning_is_read_in_the_seats_language(marengo_warned, lang):
    """What an accepted order depends on (the enemy's blocks, an earlier assault, the command limit):
    each warning a Text whose English is the warning as written, read in ``lang`` with no English
    sentence of the catalogs left."""
    from pbem.games.marengo import words
    from pbem.games.marengo.words import marengo_tongue

    assert len(marengo_warned) >= 3
    tongue, pieces = marengo_tongue(lang), _english_pieces(lang)
    left = []
    for orders in marengo_warned:
        assert [str(w) for w in orders.warnings_said] == orders.warnings
        for said in orders.warnings_said:
            line = words.words_in(tongue.say(said), lang)
            left.extend(f"{piece!r} in {line}" for piece in pieces if piece in line)
            left.extend(f"{value!r} in {line}" for value in _plain_values(said)
                        if len(re.findall(r"\b[a-z]+\b", value)) >= 3)
    assert left == []


# -- Triomphe's engine reasons: why an action is not carried out ------------------------------------

TRIOMPHE_ENGINE = ("assault", "bombardment", "maneuver", "march", "reorganisation", "sequence", "turn")


def test_every_void_triomphes_engine_raises_is_a_text():
    """Each ``raise Void(...)`` of Triomphe's engine gives a Text (say/say_plural, or a reason already one):
    no English sentence reaches a report unread."""
    import ast

    raised, messages = 0, set()
    for module in TRIOMPHE_ENGINE:
        path = GAMES_DIR / "triomphe" / f"{module}.py"
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Raise) and isinstance(node.exc, ast.Call) and \
                    getattr(node.exc.func, "id", None) == "Void":
                arg = node.exc.args[0]
                calls = [arg.body, arg.orelse] if isinstance(arg, ast.IfExp) else [arg]
                for call in calls:
                    assert isinstance(call, ast.Name) or isinstance(call, ast.Call) and \
                        getattr(call.func, "id", None) in ("say", "say_plural"), \
                        f"{path.name}:{node.lineno}: Void({ast.unparse(arg)[:60]}) is not a Text"
                    if isinstance(call, ast.Call):
                        messages.add(call.args[0].value)
                raised += 1
    assert raised > 50 and len(messages) > 40
    for lang in LANGS:  # each reason, those the cases below do not reach too, has its translation
        tongue = rulesets()["triomphe"].tongue(lang)
        for message in messages:
            assert tongue.gettext(message) != message, f"{lang}: {message!r} is not translated"


@pytest.fixture(scope="module")
def triomphe_voids() -> list:
    """Every event of Triomphe's adjudication cases (tests/cases/triomphe) that tells why an action was not
    carried out, or where a road march stopped: (case, event, the reason's Text)."""
    from pbem.games.triomphe.cases import run_case
    from pbem.lang import Text

    out = []
    for path in sorted((Path(__file__).parent / "cases" / "triomphe").glob("*.toml")):
        for event in run_case(path).events:
            said = event.said
            why = said and (said.values.get("why") or said.values.get("end"))
            if event.kind in ("void", "road") and why:
                assert isinstance(why, Text), f"{path.stem}: {event.text!r}: the reason is not a Text"
                out.append((path.stem, event, why))
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_void_reason_of_triomphes_cases_reads_in_the_seats_language(triomphe_voids, lang):
    phrases = english_phrases("triomphe")
    tongue = rulesets()["triomphe"].tongue(lang)
    reasons = set()
    for case, event, why in triomphe_voids:
        seat = event.owners()[0]
        native = event.text_for(seat, tongue)
        assert native != event.text, f"{case}: left in English: {native!r}"
        assert tongue.say(why) != str(why), f"{case}: the reason left in English: {tongue.say(why)!r}"
        left = sorted(p for p in phrases if p in native)
        assert not left, f"{lang} {case}: English left: {left[:3]} in {native!r}"
        reasons.add(why.message)
    assert len(reasons) >= 15, sorted(reasons)


@pytest.mark.parametrize("lang, marengo, spinetta", [("uk", "Маренго", "Спінетта"), ("ru", "Маренго", "Спинетта"),
                                                      ("zh", "马伦哥", "斯皮内塔"), ("fr", "Marengo", "Spinetta")])
def test_the_family_s_reports_spell_the_map_s_places_as_the_reader_s_language_does(lang, marengo, spinetta):
    """A place named in a sentence of Bonaparte at Marengo or Triomphe à Marengo reads in its usual spelling
    in the reader's language (words.toml's names), as the orders read it; English and French keep the map's."""
    from pbem.games.marengo.words import marengo_tongue
    from pbem.games.triomphe.words import triomphe_tongue
    from pbem.lang import say

    moved = say("%(blocks)s retreat from %(place)s to %(to)s.", blocks=["A1"], place="Marengo", to="Spinetta")
    for tongue in (marengo_tongue(lang), triomphe_tongue(lang)):
        text = tongue.say(moved)
        assert marengo in text and spinetta in text, text
        assert tongue.say("Spinetta") == spinetta and tongue.say("A1") == "A1"
    assert str(moved) == "A1 retreat from Marengo to Spinetta."


@pytest.mark.parametrize("game", ["marengo", "triomphe"])
def test_the_family_s_map_labels_its_places_as_the_reader_s_language_spells_them(game):
    """The map's locale labels read as words.toml spells the place in the reader's language (Ukrainian
    Маренго, Chinese 马伦哥); English and French draw the map's own names."""
    from pbem.core.game import Game
    from pbem.games import ruleset

    rules = ruleset(game)
    scenario = rules.load_scenario(next(iter(rules.scenarios().values())))
    view = rules.view(scenario, Game(rules, scenario, 1, []).state, "austria")
    labels = {lang: re.findall(r'font-style="italic"[^>]*>(?:<tspan[^>]*>)?([^<]+)<',
                               rules.render_svg(scenario, view, lang=lang)) for lang in ("en", "fr", "uk", "zh")}
    assert "Marengo" in labels["en"] and "Marengo" in labels["fr"] and "Marengo" not in labels["uk"]
    assert "Маренго" in labels["uk"] and "马伦哥" in labels["zh"] and "Marengo" not in labels["zh"]
