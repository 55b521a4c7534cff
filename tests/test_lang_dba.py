"""Napoleonic DBA in each player's language (issue 17): its catalog (pbem/games/dba/locale, the ``dba`` domain),
the events as Texts read in each seat's language, and the orders written in English, Russian, French, Ukrainian or
Chinese words (mixed, accents optional) read as the same normalised orders.

A meeting engagement played by the bots, in both ways of playing (a seat a side, and ``command=kriegsspiel``, a
seat a commander), is rendered whole in each language (every report of every seat and of the moderator, the orders
forms, status lines, turn labels and maps) with no text of the catalog left in English; English itself stays
exactly what it was (tests/fixtures/dba-english.json, recorded before the catalog existed)."""

from __future__ import annotations

import hashlib
import json
import re
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from pbem.core.orders import OrdersError
from pbem.core.ruleset import options_of
from pbem.games.dba.lang import ORDER_WORDS, tongue
from pbem.games.dba.ruleset import DBA_RULESET as RULES
from pbem.games.dba.words import HEAD_FIELDS, HEAD_WORDS, fold_word, lex
from pbem.lang import Text
from pbem.tools.selfplay import play_game

LANGS = ("fr", "ru", "uk", "zh")
LOCALE = Path(__file__).resolve().parents[1] / "pbem" / "games" / "dba" / "locale"
GOLDEN = Path(__file__).parent / "fixtures" / "dba-english.json"
PLACEHOLDER = re.compile(r"%\((\w+)\)[sd]")
MEETING = RULES.load_scenario(RULES.scenarios()["dba-meeting"])
QUATRE_BRAS = RULES.load_scenario(RULES.scenarios()["dba-quatre-bras"])
KRIEG = options_of(RULES, {"command": "kriegsspiel"})


def bots(scenario, options=None):
    return {s.id: RULES.bots()["bot"] for s in RULES.seats(scenario, options or {})}


@pytest.fixture(scope="module")
def games():
    """The meeting engagement played whole a seat a side, and ten turns of it a seat a commander."""
    return {"commanders": play_game(RULES, MEETING, 1, bots(MEETING)),
            "kriegsspiel": play_game(RULES, MEETING, 4, bots(MEETING, KRIEG), options=KRIEG, days=10)}


def texts_of(game, lang: str) -> dict[str, str]:
    """Everything a player or the moderator reads of ``game`` in ``lang``, by what it is."""
    out = {}
    seats = [s.id for s in RULES.seats(game.scenario, game.options)]
    for day in range(len(game.days)):
        for seat in seats + [None]:
            r = RULES.report(game, day, seat, game_label="g", game_id="7", deadline="Monday", lang=lang)
            out[f"report {day} {seat}"] = "\n".join([r.subject, r.markdown, r.text, r.template])
        out[f"label {day}"] = RULES.turn_label(game.scenario, day, lang=lang)
    out["spectators"] = RULES.report(game, len(game.days) - 1, None, spectator=True, lang=lang).markdown
    for seat in seats:
        if not game.over:
            out[f"form {seat}"] = RULES.orders_template(game, seat, deadline="Monday", game_label="g", game_id="7",
                                                        lang=lang)
        out[f"status {seat}"] = "\n".join(RULES.status_lines(game, seat, lang=lang))
    for day in (0, len(game.days) // 2, len(game.days) - 1):
        for seat in seats + [None]:
            out[f"svg {day} {seat}"] = RULES.render_svg(game.scenario, game.view(seat, day), "t", lang=lang)
    return out


# -- the catalog ---------------------------------------------------------------------------------------------------

def catalog(lang: str):
    with (LOCALE / lang / "LC_MESSAGES" / "dba.po").open("rb") as f:
        return read_po(f)


def english_phrases() -> set[str]:
    """Of every text of the dba catalog, its longest run of words between placeholders (three words or more)."""
    out = set()
    for message in catalog("fr"):
        for msgid in (message.id if isinstance(message.id, tuple) else (message.id,)):
            runs = [r.strip(" .,:;()[]\"") for r in PLACEHOLDER.split(msgid or "") if r]
            longest = max(runs, key=len, default="")
            if len(longest.split()) >= 3:
                out.add(longest)
    return out


def test_the_catalog_holds_every_text_the_code_marks():
    """Extracted again as scripts/translations does (the code's texts, the words kept as data, the scenarios'
    names), the texts are exactly the catalog's (none missing, none stale)."""
    import importlib.machinery
    import importlib.util

    path = Path(__file__).resolve().parents[1] / "scripts" / "translations"
    loader = importlib.machinery.SourceFileLoader("translations", str(path))
    module = importlib.util.module_from_spec(importlib.util.spec_from_loader("translations", loader))
    sys.modules["translations"] = module  # its dataclasses look their module up
    loader.exec_module(module)
    wanted = {m.id for m in module.texts("dba") if m.id}
    for lang in LANGS:
        held = {m.id for m in catalog(lang) if m.id}
        assert wanted == held, \
            f"{lang}: scripts/translations update dba, then translate: {sorted(map(str, wanted ^ held))[:5]}"


def test_russian_and_ukrainian_have_three_plural_forms_and_chinese_one():
    from pbem.lang import say_plural

    text = [say_plural("courier %(seq)s delivered to %(commander)s: delay %(num)d turn, in force from turn %(turn)s",
                       "courier %(seq)s delivered to %(commander)s: delay %(num)d turns, in force from turn %(turn)s",
                       n, seq=3, commander="Ney", turn=5) for n in (1, 2, 5)]
    assert [tongue("ru").say(t).split(": ")[1] for t in text] == [
        "задержка 1 ход, приказ в силе с хода 5", "задержка 2 хода, приказ в силе с хода 5",
        "задержка 5 ходов, приказ в силе с хода 5"]
    assert [tongue("uk").say(t).split(": ")[1] for t in text] == [
        "затримка 1 хід, наказ чинний з ходу 5", "затримка 2 ходи, наказ чинний з ходу 5",
        "затримка 5 ходів, наказ чинний з ходу 5"]
    assert tongue("zh").say(text[2]).endswith("延迟 5 回合，自第5回合生效")
    assert str(text[0]).endswith("delay 1 turn, in force from turn 5") and str(text[1]).endswith("delay 2 turns, "
                                                                                                   "in force from turn 5")


@pytest.mark.parametrize("lang", LANGS)
def test_each_order_word_of_the_catalog_reads_back_as_its_keyword(lang):
    """The echo writes each order word as the catalog translates it: the orders must read it as the English."""
    t = tongue(lang)
    for word in ORDER_WORDS:
        native = t.gettext(word)
        assert native != word or lang == "fr" and word == "INITIATIVE", (lang, word)
        if word in ("FROM", "TO", "TURN", "INITIATIVE", "FINAL") and word not in ("TURN",):
            assert HEAD_WORDS.get(fold_word(native)) == word or HEAD_FIELDS.get(fold_word(native)) == word
            continue
        if word in ("AT", "OF", "ENEMY AT"):  # a preposition before the place it names (parse.PREPOSITIONS, NEAR)
            continue
        english = [w.key for w in lex(word + (" 6" if word in ("TURN", "AT TURN") else ""))]
        assert [w.key for w in lex(native + (" 6" if word in ("TURN", "AT TURN") else ""))] == english, (lang, word)


# -- a whole game in each language -----------------------------------------------------------------------------------

@pytest.mark.parametrize("mode", ["commanders", "kriegsspiel"])
@pytest.mark.parametrize("lang", LANGS)
def test_a_meeting_engagement_reads_whole_in_the_language_with_no_catalog_text_left_in_english(games, mode, lang):
    game = games[mode]
    phrases = english_phrases()
    assert len(phrases) > 100
    english = _english(games, mode)
    native = texts_of(game, lang)
    assert native.keys() == english.keys()
    for what, text in native.items():
        assert text.strip(), what
        left = sorted(p for p in phrases if p in text)
        assert not left, f"{lang} {mode} {what}: English left: {left[:5]}"
        if what.startswith(("label", "status", "report", "form")):
            assert text != english[what], f"{what} left in English"
    # no seat reads in its language an enemy element it does not read in English (the leak tests read English)
    ids = {e.id for e in list(game.scenario.table.elements.values()) + list(game.scenario.waiting.values())}
    for what, text in native.items():
        named = {i for i in ids if re.search(r"(?<![\w-])" + re.escape(i) + r"(?![\w-])", text)}
        assert named <= {i for i in ids if re.search(r"(?<![\w-])" + re.escape(i) + r"(?![\w-])", english[what])}, what
    # every line of what happened is the seat's language (none left as the engine wrote it in English)
    for day in range(len(game.days)):
        for seat in [s.id for s in RULES.seats(game.scenario, game.options)] + [None]:
            en = _happened(english[f"report {day} {seat}"])
            there = _happened(native[f"report {day} {seat}"])
            assert len(en) == len(there) and en, (day, seat)
            same = [a for a, b in zip(en, there) if a == b]
            assert not same, f"{lang} {mode} day {day} {seat}: left in English: {same[:3]}"


_ENGLISH: dict = {}


def _english(games, mode: str) -> dict[str, str]:
    """The English texts of a game, rendered once for every language's test."""
    key = (id(games[mode]), mode)
    if key not in _ENGLISH:
        _ENGLISH[key] = texts_of(games[mode], "en")
    return _ENGLISH[key]


def _happened(report: str) -> list[str]:
    """The bullets of a report's first section (what happened)."""
    section = report.split("\n## ", 2)[1]
    return [line[2:] for line in section.splitlines() if line.startswith("- ")]


def test_the_words_follow_the_russian_rule_book(games):
    """004's own words (БЭФ, PIP, «СТОЯТЬ И УДЕРЖИВАТЬ», «ДВИГАТЬСЯ К», «рукопашная схватка»), the same terms in
    every language; see docs/glossary-dba.md."""
    game = games["commanders"]
    report = "\n".join(RULES.report(game, day, "blue", lang="ru").markdown for day in range(len(game.days)))
    assert "СТОЯТЬ И УДЕРЖИВАТЬ" in report and "| бригада | БЭФ |" in report and "PIP" in report
    assert "Синяя дивизия" in report and "свежая" in report
    fresh = play_game(RULES, MEETING, 1, bots(MEETING), days=0)
    form = RULES.orders_template(fresh, "blue", deadline=None, game_label="g", game_id="7", lang="ru")
    assert "# ОТ генерал Азур КОМУ полковник Блё" in form and "ДВИГАТЬСЯ К <место>" in form
    assert "Мельничная деревня" in form
    french = RULES.report(game, 2, "red", lang="fr").markdown
    assert "## Ce qui s'est passé" in french and "Division rouge" in french
    maps = [RULES.render_svg(game.scenario, game.view("red", day), lang="fr") for day in range(len(game.days))]
    assert any(", vu au tour " in svg for svg in maps) and not any("seen turn" in svg for svg in maps)


def test_english_stays_exactly_what_it_was(games):
    """Every English text of both games, byte for byte, as recorded before the catalog (``--record`` again, with the
    reason in the commit, only when a change of the rules or of a text is meant)."""
    recorded = json.loads(GOLDEN.read_text(encoding="utf-8"))
    got = {f"{mode} {what}": hashlib.sha256(text.encode()).hexdigest()[:16]
           for mode in games for what, text in _english(games, mode).items()}
    assert got.keys() == recorded.keys()
    changed = sorted(k for k in got if got[k] != recorded[k])
    assert not changed, f"English output changed: {changed[:5]}"


def _digests(games) -> dict[str, str]:
    return {f"{mode} {what}": hashlib.sha256(text.encode()).hexdigest()[:16]
            for mode, game in games.items() for what, text in texts_of(game, "en").items()}


def test_every_melee_of_the_rules_cases_reads_in_each_language(monkeypatch):
    """No melee comes about in the bots' games: the rules' melee cases (tests/cases/dba/melee-*.toml) give each
    combat line; its Text is the English line exactly and reads in each language with no English left."""
    from pbem.games.dba import melee

    seen = []
    line = melee.Combat.line
    monkeypatch.setattr(melee.Combat, "line", lambda self: seen.append((line(self), self.said())) or line(self))
    for path in sorted((Path(__file__).parent / "cases" / "dba").glob("melee-*.toml")):
        RULES.run_case(path)
    assert len(seen) > 20
    phrases = english_phrases() | {"melee:", "against", "pursues", "support ("}
    for english, said in seen:
        assert str(said) == english
        for lang in LANGS:
            text = tongue(lang).say(said)
            left = [p for p in phrases if p in text]
            assert not left, f"{lang}: {text!r} keeps {left}"


BREAK_EVADE_LIMBER = ("disorder-*.toml", "officer-evades-*.toml", "move-battery-*.toml",
                      "fire-battery-unlimbers-*.toml")


def test_breaking_contact_evading_and_limbering_read_in_each_language_lines_questions_and_answers():
    """D17, D33, D6 (few of their lines come about in the bots' games): each line of the rules' cases, and each
    question and answer of their decisions (the way an element breaks contact or a commander rides off, a battery's
    stay or follow), is a Text whose English is the case's line and which reads with no English left."""
    from pbem.games.dba.report import answer_said, question_said

    cases = Path(__file__).parent / "cases" / "dba"
    paths = sorted({p for pattern in BREAK_EVADE_LIMBER for p in cases.glob(pattern)})
    said, asked, kinds = [], [], set()
    for path in paths:
        outcome = RULES.run_case(path)
        assert outcome.ok, (path.name, outcome.failures)
        assert [str(s) for s in outcome.said] == outcome.lines, path.name  # every line a Text, its English the line
        said += outcome.said
        for record in outcome.decisions:
            kinds.add(record.decision.kind)
            if record.decision.kind in ("evade", "break contact", "battery"):
                assert str(question_said(record.decision)) == record.decision.question
                asked.append((question_said(record.decision), [answer_said(record.decision, k)
                                                               for k in record.decision.options]))
    assert {"evade", "break contact", "battery"} <= kinds
    english = {str(s) for s in said}
    assert any("breaks contact" in s for s in english) and any("stays touching" in s for s in english)
    assert any("moved limbered" in s for s in english) and any(s.endswith(" unlimbers") for s in english)
    assert any("stays unlimbered" in s for s in english)
    phrases = english_phrases()
    words = {"back", "ahead", "left", "right", "north", "east", "south", "west", "follow", "stay", "away from",
             "towards his", "which way", "reached by", "limber", "disorganised"}
    for lang in LANGS:
        t = tongue(lang)
        for text in said + [q for q, _ in asked] + [a for _, answers in asked for a in answers]:
            assert isinstance(text, Text), text
            native = t.say(text)
            left = [p for p in phrases | words if re.search(r"(?<![\w-])" + re.escape(p) + r"(?![\w-])", native)]
            assert not left, f"{lang}: {native!r} keeps {left}"
    ru = tongue("ru")
    assert "разрывает контакт с blue-2-2 (на 0,8\" назад)" in " ".join(ru.say(s) for s in said)
    assert any(ru.say(q).endswith("в какую сторону он отходит (на расстояние до 6\")?") for q, _ in asked)


# -- orders in every language ----------------------------------------------------------------------------------------

def native_text(text: str, game, seat, lang: str) -> str:
    """A seat's orders (English, a bot's) rewritten in ``lang``'s words and names, as its echo writes them."""
    orders = RULES.check_orders(game.scenario, game.state, seat, text)
    t = tongue(lang)
    head = [line for line in text.splitlines() if line.startswith(("GAME", "#"))]
    return "\n".join(head) + "\n" + "\n\n".join(t.say(o.said) for o in orders.dispatches + orders.initiatives) + "\n"


@pytest.mark.parametrize("lang", LANGS)
def test_a_bots_dispatches_in_each_language_read_as_the_same_normalised_orders_for_a_whole_game(lang):
    game = play_game(RULES, QUATRE_BRAS, 3, bots(QUATRE_BRAS), days=0)
    checked, turns = 0, 0
    bot = RULES.bots()["bot"]
    while not game.over and turns < 5:
        for seat in game.turn().seats:
            text = bot.orders(game.scenario, game.view(seat), 3)
            english = RULES.check_orders(game.scenario, game.state, seat, text)
            written = native_text(text, game, seat, lang)
            assert written != text
            read = RULES.check_orders(game.scenario, game.state, seat, written, lang=lang)
            assert [o.text for o in read.dispatches] == [o.text for o in english.dispatches], written
            if english.dispatches:
                assert read.echo() != english.echo() and not re.search(r"\b(MOVE TO|HOLD|THEN|FROM)\b", read.echo())
            checked += len(english.dispatches)
            game.submit(seat, text)
        game.advance()
        turns += 1
    assert checked > 10


EVERY_WORD = """FROM General Azur AT Windmill Hill TO Colonel Bleu TURN 1
IF FRIENDLY 2nd Blue brigade REACHES the bridge DEPLOY IN LINE AT Mill Village UNLESS ENEMY FIRES
THEN ATTACK ENEMY AT North Wood IN COLUMN UNTIL ENEMY 1st Red brigade WITHIN 6" OF South Copse
THEN HOLD IT IN SQUARE UNTIL TURN 5
THEN DEPLOY SUPPORTING 2nd Blue brigade IN SKIRMISH ORDER AT TURN 6
THEN ATTACK NEAREST ENEMY UNLESS ENEMY ATTACKS
THEN MOVE TO D4 BY ROAD UNTIL FRIENDLY 2nd Blue brigade RETREATS
THEN RETREAT TO Blue edge AT TURN 9

FROM General Azur TO Colonel Indigo
ATTACK Red cavalry brigade IN LINE THEN MOVE TO Red edge DISMOUNTED IF ENEMY REACHES Windmill Hill
"""


@pytest.mark.parametrize("lang", LANGS)
def test_every_order_word_and_construction_reads_back_from_the_echo_in_each_language(lang):
    """Each verb, condition, event, formation and head field, written as the seat's echo writes it, reads as the
    English (the echo is what a player copies to write his next orders)."""
    game = play_game(RULES, MEETING, 1, bots(MEETING), days=0)
    english = RULES.check_orders(game.scenario, game.state, "blue", EVERY_WORD)
    echo = RULES.check_orders(game.scenario, game.state, "blue", EVERY_WORD, lang=lang).echo()
    assert not re.search(r"\b(FROM|MOVE TO|HOLD|DEPLOY|ATTACK|IF|UNLESS|UNTIL|THEN|WITHIN|REACHES)\b", echo), echo
    again = RULES.check_orders(game.scenario, game.state, "blue", echo, lang=lang)
    assert [o.text for o in again.dispatches] == [o.text for o in english.dispatches], echo
    assert sum(len(o.steps) for o in english.dispatches) == 9


def test_words_of_every_language_mix_in_one_dispatch_and_accents_may_be_left_out():
    game = play_game(RULES, MEETING, 1, bots(MEETING), days=0)
    english = RULES.check_orders(game.scenario, game.state, "blue", (
        "FROM General Azur TO Colonel Bleu\nMOVE TO Mill Village IN LINE BY ROAD THEN HOLD IT UNTIL ENEMY WITHIN 6\" "
        "OF Mill Village\nTHEN RETREAT TO the bridge AT TURN 9\n"))
    for text in (
            "DE Général Azur POUR Colonel Bleu\nMARCHER SUR Village du Moulin EN LIGNE PAR LA ROUTE PUIS TENIR LÀ "
            "JUSQU'À CE QUE ENNEMI À MOINS DE 6\" DE Village du Moulin\nPUIS SE REPLIER SUR le pont AU TOUR 9",
            "de general azur pour colonel bleu\nmarcher sur village du moulin en ligne par la route puis tenir la "
            "jusqu'a ce que ennemi a moins de 6\" de village du moulin\npuis se replier sur le pont au tour 9",
            "ВІД генерал Азур КОМУ полковник Бльо\nРУХАТИСЯ ДО Млинове село У ЛІНІЮ ДОРОГОЮ ПОТІМ СТОЯТИ Й "
            "УТРИМУВАТИ ТАМ ДОКИ НЕ СУПРОТИВНИК У МЕЖАХ 6\" ВІД Млинове село\nПОТІМ ВІДСТУПИТИ ДО міст НА ХІД 9",
            "自 阿祖尔将军 致 布勒上校\n前往 磨坊村 横队 沿道路 然后 坚守 该处 直到 敌军 进入 6\" 距 磨坊村\n"
            "然后 撤退到 桥 在回合 9",
            # four languages in one dispatch
            "ОТ General Azur КОМУ Colonel Bleu\nMARCHER SUR Мельничная деревня В ЛИНИЮ 沿道路 THEN СТОЯТИ Й "
            "УТРИМУВАТИ IT ПОКА НЕ ENNEMI WITHIN 6\" OF 磨坊村\nПОТІМ RETREAT TO le pont НА ХОД 9"):
        orders = RULES.check_orders(game.scenario, game.state, "blue", text, lang="fr")
        assert [o.text for o in orders.dispatches] == [o.text for o in english.dispatches], text


@pytest.mark.parametrize("lang, expected", [("fr", ("MARCHER SUR", "TENIR")), ("ru", ("ДВИГАТЬСЯ К", "СТОЯТЬ И УДЕРЖИВАТЬ")),
                                            ("uk", ("РУХАТИСЯ ДО", "СТОЯТИ Й УТРИМУВАТИ")), ("zh", ("前往", "坚守"))])
def test_a_problem_names_the_expected_words_in_the_seats_language_at_the_same_line_and_column(lang, expected):
    game = play_game(RULES, MEETING, 1, bots(MEETING), days=0)
    text = "FROM General Azur TO Colonel Bleu\nDANCE TO Mill Village\n"
    with pytest.raises(OrdersError) as english:
        RULES.check_orders(game.scenario, game.state, "blue", text)
    with pytest.raises(OrdersError) as native:
        RULES.check_orders(game.scenario, game.state, "blue", text, lang=lang)
    a, b = english.value.problems[0], native.value.problems[0]
    assert (a.line, a.column, a.found) == (b.line, b.column, b.found) == (2, 1, "DANCE")
    assert "MOVE TO" in a.expected and "HOLD" in a.expected
    assert all(w in b.expected for w in expected) and "MOVE TO" not in b.expected, b


def test_a_problems_sentence_is_in_the_seats_language_with_the_players_own_words_as_written():
    game = play_game(RULES, MEETING, 1, bots(MEETING), days=0)
    text = "FROM General Azur TO Colonel Blu\nHOLD\nFROM General Azur TO Colonel Bleu\nDANCE TO Mill Village\n"
    with pytest.raises(OrdersError) as english:
        RULES.check_orders(game.scenario, game.state, "blue", text)
    assert [p.message for p in english.value.problems] == [
        "no commander 'Colonel Blu'; did you mean Colonel Bleu or Colonel Rouge or Colonel Cobalt?",
        "'DANCE' is not a verb of an order (did you mean ADVANCE?)"]
    with pytest.raises(OrdersError) as ukrainian:
        RULES.check_orders(game.scenario, game.state, "blue", text, lang="uk")
    assert [p.message for p in ukrainian.value.problems] == [
        "'Colonel Blu': не знайдено (командувач); можливо, Colonel Bleu або Colonel Rouge або Colonel Cobalt?",
        "'DANCE' — не дієслово наказу (можливо, ADVANCE?)"]
    assert ukrainian.value.problems[0].expected == "командувач, якому вона адресована"


def test_the_echo_is_in_the_seats_words_and_the_logged_orders_stay_as_written():
    game = play_game(RULES, MEETING, 1, bots(MEETING), days=0)
    text = "FROM General Azur TO Colonel Bleu\nMOVE TO Mill Village IN COLUMN\nFINAL\n"
    assert RULES.check_orders(game.scenario, game.state, "blue", text).echo() == (
        "FROM General Azur TO Colonel Bleu\nMOVE TO Mill Village IN COLUMN\n\nFINAL")
    assert RULES.check_orders(game.scenario, game.state, "blue", text, lang="ru").echo() == (
        "ОТ генерал Азур КОМУ полковник Блё\nДВИГАТЬСЯ К Мельничная деревня В КОЛОННУ\n\nКОНЕЦ")
    game.submit("blue", text)
    assert game.orders_text(game.day, "blue") == text


def test_mail_words_know_the_dispatch_heads_of_every_language_but_not_a_common_french_word():
    words = RULES.mail_words
    assert {"FROM", "ОТ", "ВІД", "自", "EXPÉDITEUR", "EXPEDITEUR", "INITIATIVE", "ІНІЦІАТИВА"} <= words
    assert not {"DE", "POUR", "FIN"} & words


def test_a_french_seat_against_a_ukrainian_seat_on_a_real_server_store(tmp_path):
    """Issue 17's "done when", for DBA: through the service (a real SQLite file), each seat's acknowledgement,
    refusal and report in its player's language, each writing in his own words, the same game underneath."""
    from pbem.server.service import Service
    from pbem.server.store import Store

    service = Service(Store(tmp_path / "pbem.sqlite3"))
    seats = {"blue": "jean@example.org", "red": "olena@example.org"}
    service.store.set_language(seats["blue"], "fr")
    service.store.set_language(seats["red"], "uk")
    game_id, _ = service.create_game("Langues", seats, scenario="dba-meeting.toml", seed=1, game="dba",
                                     settings={"hours": 24})
    french = service.submit(game_id, "blue", "DE Général Azur POUR Colonel Bleu\nMARCHER SUR Village du Moulin "
                                             "EN COLONNE\n", lang="fr")
    assert french.ok and "MARCHER SUR Village du Moulin EN COLONNE" in french.echo
    refused = service.submit(game_id, "red", "ВІД генерал Кармен КОМУ полковник Руж\nТАНЦЮВАТИ\n", lang="uk")
    assert not refused.ok and "не дієслово наказу" in str(refused.problems[0].message)
    assert "РУХАТИСЯ ДО" in refused.problems[0].expected
    ukrainian = service.submit(game_id, "red", "ВІД генерал Кармен КОМУ полковник Руж\nРУХАТИСЯ ДО Млинове село\n",
                               lang="uk")
    assert ukrainian.ok and ukrainian.echo.startswith("ВІД генерал Кармен КОМУ полковник Руж")
    game = service.game(game_id)
    assert game.orders_text(game.day, "blue").startswith("DE Général Azur")  # the log keeps what was written
    service.resolve_next(game_id, ask=False)
    blue, red = service.report(game_id, 0, "blue"), service.report(game_id, 0, "red")
    assert "## Ce qui s'est passé" in blue.markdown and "## Що сталося" in red.markdown
    assert "Division bleue" in blue.markdown and "Червона дивізія" in red.markdown


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:  # python tests/test_lang_dba.py --record
    played = {"commanders": play_game(RULES, MEETING, 1, bots(MEETING)),
              "kriegsspiel": play_game(RULES, MEETING, 4, bots(MEETING, KRIEG), options=KRIEG, days=10)}
    GOLDEN.write_text(json.dumps(_digests(played), indent=0, sort_keys=True) + "\n", encoding="utf-8")
    print("recorded", GOLDEN)
