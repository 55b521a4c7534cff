"""Napoleon 1815 in every language (issue 17): whole self-played games (two and three players, the
battle sub-turns, the auction) read in French, Russian, Ukrainian and Chinese with no English text of
the catalog left, the events ("what happened") included; the orders written with each language's
words and town names read as the same logged orders; plurals; and the English output exactly as it
was before the texts became catalog entries (a digest of whole games' reports, forms and maps)."""

from __future__ import annotations

import hashlib
import re

import pytest
from babel.messages.pofile import read_po

from pbem.core.game import Game
from pbem.core.orders import OrdersError, header_words
from pbem.games import ruleset
from pbem.games.napoleon1815 import words
from pbem.games.napoleon1815.scenario import SEAT_ARMY
from pbem.lang import say, say_plural
from pbem.tools.selfplay import chooser, play_game, simple_players

RULES = ruleset("napoleon1815")
SCENARIO = RULES.load_scenario(RULES.scenarios()["napoleon1815"])
LANGS = ("fr", "ru", "uk", "zh")
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
GAMES = {"two": (1, {"players": "2"}), "three": (2, {"players": "3", "battle": "hybrid"}),
         "auction-live": (4, {"players": "2", "bid": "auction", "battle": "live"})}


def campaign(name: str) -> Game:
    seed, options = GAMES[name]
    return play_game(RULES, SCENARIO, seed, simple_players(RULES, SCENARIO, options),
                     choose=lambda g: chooser(seed, g.day), options=options)


@pytest.fixture(scope="module")
def games() -> dict[str, Game]:
    return {name: campaign(name) for name in GAMES}


def seats(game: Game) -> list[str]:
    return [s.id for s in RULES.seats(SCENARIO, game.options)]


def texts_of(game: Game, lang: str, every: int = 1) -> list[tuple[str, str]]:
    """(what, text) for everything a player or the moderator reads of ``game`` in ``lang``: every
    report (each seat's, the moderator's, the spectators'), the forms, status lines, turn labels,
    and the maps (their texts) of the days that hold a battle board and a few others."""
    out = []
    for seat in seats(game):
        out.append((f"form {seat}", RULES.orders_template(game, seat, deadline="Friday", game_label="g",
                                                          game_id="7", lang=lang)))
        out.append((f"status {seat}", "\n".join(RULES.status_lines(game, seat, lang=lang))))
    for day in range(0, len(game.days), every):
        for seat in seats(game) + [None]:
            report = RULES.report(game, day, seat, game_label="g", game_id="7", deadline="Friday", lang=lang)
            out.append((f"report {day} {seat}", report.subject + "\n" + report.markdown + report.template))
        out.append((f"label {day}", RULES.turn_label(SCENARIO, day, lang=lang)))
        out.append((f"spectators {day}", RULES.report(game, day, None, spectator=True, lang=lang).markdown))
        for seat in seats(game) + [None]:
            view = game.view(seat, day)
            if view["battles"] or day in (0, len(game.days) // 2, len(game.days) - 1):
                svg = RULES.render_svg(SCENARIO, view, lang=lang)
                out.append((f"map {day} {seat}", " | ".join(re.findall(r">([^<>]+)</t", svg))))
    return out


def english_phrases() -> set[str]:
    """Of every msgid of the game's catalog, its longest run of words between placeholders (three
    words or more): what must not be left in a translated text."""
    out = set()
    with open(words.LOCALE / "fr" / "LC_MESSAGES" / "napoleon1815.po", "rb") as f:
        for message in read_po(f):
            for msgid in (message.id if isinstance(message.id, tuple) else (message.id,)):
                runs = [r.strip(" .,:;()") for r in PLACEHOLDER.split(msgid or "") if r]
                longest = max(runs, key=len, default="")
                if len(longest.split()) >= 3:
                    out.add(longest)
    return out


def block_names() -> set[str]:
    """The blocks' own names (scenario data, as the order of battle names them) the reports list."""
    return {spec.name for spec in SCENARIO.blocks.values()}


# -- whole games in every language ------------------------------------------------------------------

def test_the_games_hold_every_kind_of_text(games):
    kinds = {e.kind for g in games.values() for d in g.days for e in d.events}
    assert {"setup", "auction", "move", "battle", "skirmish", "retreat", "eliminated"} <= kinds
    labels = {g.turn_label(d) for g in games.values() for d in range(len(g.days))}
    assert any("deploy" in x for x in labels) and any("battle round" in x for x in labels)


@pytest.fixture(scope="module")
def english(games) -> dict[str, dict[str, str]]:
    return {name: dict(texts_of(game, "en", every=3)) for name, game in games.items()}


@pytest.mark.parametrize("lang", LANGS)
def test_whole_games_read_in_the_language_with_no_catalog_text_left_in_english(games, english, lang):
    phrases = english_phrases()
    assert len(phrases) > 250
    names = block_names()
    for name, game in games.items():
        english_of = english[name]
        for what, text in texts_of(game, lang, every=3):
            assert text.strip(), what
            if what.startswith(("label", "status")) or what.startswith("report"):
                assert text != english_of[what], f"{name} {what} left in English"
            body = text
            for block in names:  # a block's own name may hold English words ("Guard heavy cavalry")
                body = body.replace(block, "")
            left = sorted(p for p in phrases if p in body)
            assert not left, f"{lang} {name} {what}: English left: {left[:5]}"


def test_the_report_reads_the_rule_books_russian_terms(games):
    game = games["three"]
    text = "\n".join(t for _, t in texts_of(game, "ru", every=1) if _.startswith("report"))
    for term in ("Бой за", "Стычка за", "раунд", "Мораль", "отступает", "дезорганизован", "Расстановка",
                 "пехота", "кавалерия", "артиллерия", "Потеряно блоков", "Что произошло", "Ваши блоки"):
        assert term in text, term
    assert "Линьи" in text or "Шарлеруа" in text or "Намюр" in text  # towns in the rule book's spelling
    zh = RULES.render_svg(SCENARIO, game.view("french", 3), lang="zh")
    assert "滑铁卢" in zh and "布鲁塞尔" in zh and "Waterloo" not in zh


def test_plurals_have_the_forms_of_each_language():
    t = {lang: words.tongue(lang) for lang in ("en",) + LANGS}
    blocks = [t["ru"].ngettext("%(num)d block", "%(num)d blocks", n) for n in (1, 3, 5, 21)]
    assert blocks == ["1 блок", "3 блока", "5 блоков", "21 блок"]
    assert [t["uk"].ngettext("%(num)d block", "%(num)d blocks", n) for n in (1, 2, 11)] == \
        ["1 блок", "2 блоки", "11 блоків"]
    assert [t["fr"].ngettext("%(num)d block", "%(num)d blocks", n) for n in (1, 2)] == ["1 bloc", "2 blocs"]
    assert t["zh"].ngettext("%(num)d block", "%(num)d blocks", 4) == "4 支部队"
    reserve = say_plural("%(num)s block in reserve", "%(num)s blocks in reserve", 0)
    for n, ru in ((1, "1 блок в резерве"), (2, "2 блока в резерве"), (7, "7 блоков в резерве")):
        said = say_plural("%(num)s block in reserve", "%(num)s blocks in reserve", n)
        assert t["ru"].say(said) == ru and str(said) == f"{n} block{'s' if n != 1 else ''} in reserve"
    assert t["en"].say(reserve) == "0 blocks in reserve"


def test_an_engine_sentence_reads_its_towns_and_terms_in_each_language():
    said = say("Battle of %(town)s, round %(n)s of the defender.", town=words.Place("Quatre Bras"), n=2)
    assert str(said) == "Battle of Quatre Bras, round 2 of the defender."
    assert words.tongue("ru").say(said) == "Бой за Катр-Бра, раунд 2 обороняющегося."
    assert words.tongue("fr").say(said) == "Bataille de Quatre-Bras, round 2 du défenseur."
    assert words.tongue("zh").say(said) == "四臂村之战，防守方第 2 轮。"
    towns = words.Join([words.Place("Ghent"), words.Place("Brussels")], say(" and "))
    assert str(towns) == "Ghent and Brussels" and words.tongue("uk").say(towns) == "Гент і Брюссель"


def test_an_ask_me_decision_as_the_server_keeps_it_reads_in_the_players_language(games):
    """Every decision of the games, rebuilt from its stored (English) form as the server does, reads
    in each language: no English question left, each label translated, the options unchanged."""
    from pbem.core.decisions import Decision

    phrases = english_phrases()
    decisions = [r.decision for g in games.values() for d in g.days for r in d.decisions]
    assert {d.kind for d in decisions} >= {"terrain", "retreat", "hit"}
    for decision in decisions:
        d = decision.to_dict()
        stored = Decision(d["side"], d["kind"], d["question"], tuple(d["options"]), tuple(d["default"]),
                          tuple(d["labels"].items()), d["min"], d["max"])
        assert RULES.decision_in(SCENARIO, stored) == stored
        for lang in LANGS:
            read = RULES.decision_in(SCENARIO, stored, lang=lang)
            assert read.options == stored.options and read.default == stored.default
            assert read.question != stored.question and not [p for p in phrases if p in read.question]
            assert read.read([read.label(k) for k in read.options]) == stored.options
    ru = RULES.decision_in(SCENARIO, Decision("french", "terrain", "Where do you place the farm (battle of Ligny)?",
                                              ("left", "centre"), ("centre",), (("left", "left"), ("centre", "centre"))),
                           lang="ru")
    assert ru.question == "Куда вы ставите маркер «ферма» (бой за Линьи)?" and ru.labels[0] == ("left", "левый фланг")


# -- orders in every language -----------------------------------------------------------------------

TOWNS = sorted((t.name for t in SCENARIO.board.towns.values()), key=len, reverse=True)
TOWN = re.compile("|".join(re.escape(n) for n in TOWNS))


def in_language(text: str, lang: str) -> str:
    """``text`` (orders in English) with every order word in ``lang``'s and each town in its usual
    spelling there, as a player of that language writes them."""
    native, names = words.native_words(lang), words.native_names(lang)
    out = []
    for line in text.splitlines():
        line = TOWN.sub(lambda m: "\0" + str(TOWNS.index(m.group())) + "\0", line)
        line = " ".join(native.get(w, w) for w in line.split(" "))
        line = re.sub("\0(\\d+)\0", lambda m: names.get(TOWNS[int(m.group(1))], TOWNS[int(m.group(1))]), line)
        out.append(line)
    return "\n".join(out)


def standing_lines(view: dict) -> list[str]:
    """Standing orders a player may give any day, naming the seat's own blocks and towns."""
    mine = [b for b in view["blocks"] if b["army"] == SEAT_ARMY[view["seat"]]]
    own = [b["id"] for b in mine][:2]
    towns = [SCENARIO.board.name(b["town"]) for b in mine][:2]
    if not own:
        return []
    return ["DOCTRINE ATTACK AUTO", "DOCTRINE SQUARE NO", "DOCTRINE RESERVE 2", f"RETREAT TO {', '.join(towns)}",
            f"SUPPLY LOSS {' '.join(own)}", f"SKIRMISH {own[0]}", f"HIT FIRST {' '.join(own)}",
            f"RETREAT FIRST {own[-1]}", "TERRAIN FARM LEFT", "TERRAIN HILL CENTRE"]


@pytest.mark.parametrize("name", ["three", "auction-live"])
def test_a_bots_orders_in_each_language_read_as_the_same_orders_for_a_whole_game(name):
    seed, options = GAMES[name]
    bot = RULES.bots()["bot"]
    game = Game(RULES, SCENARIO, seed, options=options)
    seen: set[str] = set()
    while not game.over:
        for seat in game.turn().seats:
            view = game.view(seat)
            text = bot.orders(SCENARIO, view, seed)
            if view["phase"] == "campaign":
                text += "\n".join(standing_lines(view)) + "\n"
            if view["phase"].endswith("setup"):  # two blocks placed in their historical town
                specs = SCENARIO.army_blocks(SEAT_ARMY[seat])[:2]
                text += f"PLACE {specs[0].id} {specs[1].id} {SCENARIO.board.name(specs[0].setup)}\n" * (
                    specs[0].setup == specs[1].setup)
            english = RULES.check_orders(SCENARIO, game.state, seat, text)
            seen |= {line.split()[0] for line in text.splitlines() if line.strip()}
            for lang in LANGS:
                written = in_language(text, lang)
                assert RULES.check_orders(SCENARIO, game.state, seat, written, lang=lang) == english, (lang, written)
            game.submit(seat, text)
        game.advance(choose=chooser(seed, game.day))
    assert {"MOVE", "PLACE", "DEPLOY", "DOCTRINE", "RETREAT", "SUPPLY", "SKIRMISH", "HIT", "TERRAIN"} <= seen
    assert seen & {"BID", "ASK", "COMMIT", "LEAVE"}


def test_a_mail_finds_its_orders_by_the_first_word_in_any_language():
    """The server finds where a mail's orders begin by their first words (the ruleset's mail_words):
    each language's, in upper case, with and without accents; words found only inside an order are not."""
    for word in ("MOVE", "ДВИЖЕНИЕ", "DÉPLACER", "DEPLACER", "РУХ", "移动", "ДОКТРИНА", "ENCHÈRE", "ENCHERE", "完毕"):
        assert word in RULES.mail_words, word
    assert not {"FORCÉE", "ЦЕНТР", "VERS", "ДА"} & RULES.mail_words


def test_the_seats_have_their_names_in_each_language():
    aliases = RULES.seat_aliases()
    assert set(aliases) == {s.id for s in RULES.seats(SCENARIO, {})}
    assert "Франция" in aliases["french"] and "普军" in aliases["prussian"] and "Anglo-Néerlandais" in aliases["anglo-dutch"]


def test_languages_mix_accents_are_optional_and_cyrillic_reads_in_latin_letters():
    game = Game(RULES, SCENARIO, 1, options={"players": "2"})
    for seat in ("anglo-dutch", "prussian"):
        game.submit(seat, "")
    game.advance()
    game.submit("french", "FINAL")
    game.advance()
    english = RULES.check_orders(SCENARIO, game.state, "french", "MOVE OG GC Beaumont -> Thuin FORCED\n"
                                                                  "DOCTRINE WITHDRAW 30")
    for text in ("deplacer OG GC Бомон -> 蒂安 forcee\nДОКТРИНА REPLI 30",
                 "移动 OG GC beaumont -> Тюэн ФОРСИРОВАННЫЙ\nDOCTRINE ВІДХІД 30",
                 "Рух OG GC Beaumont -> Thuin FORCED\nDOCTRINE WITHDRAW 30"):
        assert RULES.check_orders(SCENARIO, game.state, "french", text, lang="fr") == english, text
    assert words.find_town(SCENARIO.board, "Динант") == "dinant"  # not listed spelled so: read in Latin letters
    assert words.latin("шарлеруа") == "charleroi" and words.latin("намюр") == "namur"
    assert words.find_town(SCENARIO.board, "Кватре-Бра") == "quatre_bras"  # the rule book's other spelling


@pytest.mark.parametrize("lang, message, expected", [
    ("ru", "нет дороги Бомон — Линьи", "города, соединённые дорогой (§5.1)"),
    ("fr", "aucune route de Beaumont à Ligny", "des villes reliées par une route (§5.1)"),
    ("zh", "博蒙 与 利尼 之间没有道路", "有道路相连的城镇（§5.1）"),
])
def test_an_order_problem_names_its_line_and_reads_in_the_players_language(lang, message, expected):
    game = Game(RULES, SCENARIO, 1, options={"players": "2"})
    for seat in ("anglo-dutch", "prussian"):
        game.submit(seat, "")
    game.advance()
    game.submit("french", "")
    game.advance()
    with pytest.raises(OrdersError) as refused:
        RULES.check_orders(SCENARIO, game.state, "french", "\nMOVE OG Beaumont -> Ligny", lang=lang)
    problem = refused.value.problems[0]
    assert (problem.line, problem.message, problem.expected) == (2, message, expected)
    assert problem.found == words.order_in("MOVE OG Beaumont -> Ligny", lang) != "MOVE OG Beaumont -> Ligny"
    with pytest.raises(OrdersError) as unknown:
        RULES.check_orders(SCENARIO, game.state, "french", "FOO", lang="ru")
    assert "ДВИЖЕНИЕ" in unknown.value.problems[0].expected and "MOVE" not in unknown.value.problems[0].expected


def test_the_form_in_each_language_is_orders_a_player_can_send_back(games):
    """The auction's form offers BID 0 in the player's words, which the orders read."""
    seed, options = GAMES["auction-live"]
    game = Game(RULES, SCENARIO, seed, options=options)
    for lang in LANGS:
        form = RULES.orders_template(game, "french", deadline=None, game_label="g", game_id="7", lang=lang)
        first = form.splitlines()[0]  # the header in the reader's words, the seat by its title there
        assert first == "GAME 7 SIDE french KEY <your-key>" if lang == "en" else first.split()[0] == header_words(lang)["GAME"]
        assert "BID 0" not in form and RULES.check_orders(SCENARIO, game.state, "french", form, lang=lang).bid == 0


# -- English stays as it was ------------------------------------------------------------------------

BAD_ORDERS = ("MOVE OG Beaumont -> Ligny", "MOVE OG OG Beaumont -> Thuin", "FOO", "MOVE P-I-1 Nowhere -> Namur",
              "PLACE OG Beaumont", "DOCTRINE RESERVE 99", "DOCTRINE ATTACK MAYBE", "DEPLOY Ligny LEFT OG",
              "BID 3", "BID LOSS OG", "COMMIT OG LEFT", "LEAVE Ligny", "ASK SOMETIMES", "TERRAIN SWAMP LEFT",
              "RETREAT TO Atlantis", "HIT OG", "FINAL NOW", "MOVE WEL BR-GDS Brussels -> Waterloo -> Quatre Bras",
              "MOVE I-1 I-2 Maubeuge -> Beaumont -> Philippeville FORCED")


def english_transcript(game: Game) -> tuple[str, str]:
    """Everything English of a game: each day's label, every report (text and markdown, forms),
    the decisions' questions, the forms and status lines, the problems of BAD_ORDERS; and the maps of three days and of each
    day with a battle board."""
    parts, svgs = [], []
    for day in range(len(game.days)):
        parts.append(game.turn_label(day))
        for seat in seats(game) + [None]:
            r = RULES.report(game, day, seat, game_label="g", game_id="7", deadline="Friday")
            parts += [r.subject, r.markdown, r.text, r.template]
        parts.append(RULES.report(game, day, None, spectator=True).markdown)
        parts += [repr(d.decision.question) + repr(d.decision.labels) for d in game.days[day].decisions]
    for seat in seats(game):
        parts.append(RULES.orders_template(game, seat, deadline=None, game_label="g", game_id="7"))
        parts += RULES.status_lines(game, seat)
    for day in (2, 3):  # the orders' problems, on the first French and Allied turns
        for seat in seats(game):
            for text in BAD_ORDERS:
                try:
                    RULES.check_orders(SCENARIO, game.state_before(day), seat, text)
                except OrdersError as error:
                    parts.append(str(error))
    for day in range(len(game.days)):
        for seat in seats(game) + [None]:
            view = game.view(seat, day)
            if view["battles"] or day in (0, len(game.days) // 2, len(game.days) - 1):
                svgs.append(RULES.render_svg(SCENARIO, view, "g"))
    return "\n".join(parts), "\n".join(svgs)


# The digests of the English transcripts of the three games as main wrote them before the texts
# became catalog entries (and after, unchanged). A change to an English text changes them: compare
# the transcript with main's by hand (english_transcript), then write the new digests here.
# lang-clicks: "1 French against 1 Allied blocks" became "... 1 Allied block" (each count its plural; the
# transcripts compared line by line: that is the only change).
# n1815-play (issue 29 §4): the forms' headers end with "KEY <your-key>", the seats' report subjects with
# " — " and the seat's army, "A Allied block" became "An Allied block", and an ASK in the live mode is refused
# at its first word with the reason (the transcripts compared line by line: those are the only changes).
# The maps then: every block of a stack drawn (no "+N more"; a stack of more than 8 in an inset under the map),
# the towns' names over the stacks on a halo, a legend, and at the setup the border, the setup line and rings
# (the maps' elements compared by kind and count: those are the only changes).
# Then the round orders block by block (issue 29 §2): the list of order words in "expected an order" grew
# (the only change in "two" and "three"); in "auction-live" the bots give every block its round order, so
# that game is fought otherwise from its first round sub-turn (its transcript is another game's from there).
# Then "block(s)", "step(s)", "hit(s)" of the plural texts became each count's own word ("1 French block moves",
# "2 hits", "3 steps down"; "loses 1 step(s) in the rout" is left as it was): the transcripts compared line by
# line, those are the only changes.
# Then issue 29's rule fixes (n1815-rules: reinforcements take a town's last block, horse artillery fires after
# its move, squares (lost in a rout), the leader shown before forced marches...) change how the self-played games go
# Then the STATUS line names the armies ("Blocks lost: French 0, Anglo-Dutch 0, Prussian 0", not the ids "french 0,
# anglo 0"): only the status lines of the transcript change, the maps not at all.
ENGLISH = {"two": ("5719452281ba", "1195f38f163c"), "three": ("85cf8276a1aa", "f4f08edb3067"),
           "auction-live": ("251030d8837e", "534d0f6a1d8c")}


@pytest.mark.parametrize("name", list(GAMES))
def test_the_english_output_is_byte_for_byte_what_it_was(games, name):
    text, svg = english_transcript(games[name])
    digests = tuple(hashlib.sha256(x.encode()).hexdigest()[:12] for x in (text, svg))
    assert digests == ENGLISH[name], f"{name}: the English reports, forms or maps changed"
    assert all(RULES.report(games[name], d, None, lang=lang).markdown == RULES.report(games[name], d, None).markdown
               for d in (0, 5) for lang in ("en", "xx", "EN"))
