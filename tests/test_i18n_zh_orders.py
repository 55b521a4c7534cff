"""Chinese orders written without spaces (issue 17): a Chinese player writes ``移动A1马伦哥->斯皮内塔`` or
``常备撤退马伦哥到斯皮内塔``, as he writes Chinese. The core's tokenizer (pbem.core.orders.tokenize) cuts a run of
Chinese characters into the game's known words (its Lexicon: order words, sides, places, names) and at every
boundary with Latin letters, digits and signs; each game's orders written so read as the same normalised orders
as with spaces, and a problem's column points at the character it names."""

from __future__ import annotations

import re

import pytest

from pbem.core.game import Game
from pbem.core.orders import Lexicon, OrdersError, parse_header, tokenize
from pbem.games import rulesets

CJK = "\u3002-\u303f\u3400-\u4dbf\u4e00-\u9fff"


def squeeze(text: str) -> str:
    """``text`` with no space beside a Chinese character, as a Chinese player writes it."""
    return re.sub(f"(?<=[{CJK}]) +| +(?=[{CJK}])", "", text)


def cut(line: str, lexicon: Lexicon | None = None) -> list[list[tuple[str, int]]]:
    return [[(t.text, t.column) for t in segment] for segment in tokenize(line, lexicon)]


def echo(orders) -> list[str]:
    return [o.text for o in orders.orders] + [s.text for s in orders.standing] + [str(orders.final)]


# -- the core: cutting, columns, full-width signs -----------------------------------------------------

def test_a_run_of_chinese_is_cut_into_the_known_words_each_with_the_column_of_its_first_character():
    words = Lexicon(["移动", "到", "马伦哥", "斯皮内塔", "从", "不", "从不", "追击", "追击战"])
    assert cut("移动A1马伦哥->斯皮内塔", words) == [[("移动", 1), ("A1", 3), ("马伦哥", 5), ("->", 8), ("斯皮内塔", 10)]]
    assert cut("移动 A1 马伦哥 -> 斯皮内塔", words) == [[("移动", 1), ("A1", 4), ("马伦哥", 7), ("->", 11),
                                                      ("斯皮内塔", 14)]]
    # the fewest words: 从不 (NEVER), not 从 (FROM) and 不 (NO); the longest: 追击战 before 追击
    assert cut("从不追击战追击", words) == [[("从不", 1), ("追击战", 3), ("追击", 6)]]
    # characters that are no known word stay together, named as written
    assert cut("移动末知地到斯皮内塔", words) == [[("移动", 1), ("末知地", 3), ("到", 6), ("斯皮内塔", 7)]]
    assert cut("末知地") == [[("末知地", 1)]]


def test_full_width_letters_digits_and_signs_read_as_ascii_and_keep_their_columns():
    words = Lexicon(["移动"])
    assert cut("移动Ａ１、Ａ２；移动Ａ３－＞Ｂ４　＃注释", words) == [
        [("移动", 1), ("A1", 3), ("A2", 6)], [("移动", 9), ("A3", 11), ("->", 13), ("B4", 15)]]
    # a full-width sign the game reads as a word (DBA's ，and 。 for THEN) stays a word of its own
    assert cut("坚守X，撤退", Lexicon(["坚守", "撤退", "，"])) == [[("坚守", 1), ("X", 3), ("，", 4), ("撤退", 5)]]
    assert cut("MOVE A1 Marengo -> Spinetta") == [[("MOVE", 1), ("A1", 6), ("Marengo", 9), ("->", 17),
                                                   ("Spinetta", 20)]]


def test_a_chinese_header_without_spaces_reads_its_values_as_written():
    header, body = parse_header("对局17阵营法国回合7时密钥ab12\n移动")
    assert (header.game, header.side, header.turn, header.key) == ("17", "法国", "7时", "ab12")
    assert body == [(2, "移动")]
    spaced, _ = parse_header("对局 17 阵营 法国 回合 7时 密钥 ab12")
    assert (spaced.game, spaced.side, spaced.turn, spaced.key) == ("17", "法国", "7时", "ab12")
    english, _ = parse_header("GAME 17 SIDE Austria TURN 7 AM KEY ab12")
    assert (english.side, english.turn) == ("Austria", "7 AM")


# -- the Marengo family: a self-played game's orders in Chinese without spaces ------------------------

def in_chinese(text: str, words, places) -> str:
    """Orders in English (a bot's) in the game's Chinese words and place names (words.toml), as the echo writes
    them; the header and comments as they are."""
    return "\n".join(line if line.startswith(("GAME", "#")) or not line.strip() else words.echo_in(line, "zh", places)
                     for line in text.splitlines())


@pytest.mark.parametrize("name", ["marengo", "triomphe"])
def test_a_marengo_family_games_orders_in_chinese_without_spaces_read_as_with_spaces(name):
    from pbem.games.marengo.words import WORDS as MARENGO
    from pbem.games.triomphe.words import WORDS as TRIOMPHE

    words = {"marengo": MARENGO, "triomphe": TRIOMPHE}[name]
    ruleset = rulesets()[name]
    bot = ruleset.bots()["strategist"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()[name]), 5)
    places = tuple(loc.name for loc in game.scenario.board.locales.values())
    squeezed = turns = 0
    while not game.over and turns < 10:
        turn = game.turn()
        side, other = turn.seats[0], turn.others[0]
        texts = {side: bot.orders(game.scenario, game.view(side), 5),
                 other: bot.standing(game.scenario, game.view(other), 5)}
        for seat, text in texts.items():
            english = echo(ruleset.check_orders(game.scenario, game.state, seat, text))
            spaced = in_chinese(text, words, places)
            written = squeeze(spaced)
            assert echo(ruleset.check_orders(game.scenario, game.state, seat, spaced, lang="zh")) == english
            assert echo(ruleset.check_orders(game.scenario, game.state, seat, written, lang="zh")) == english, \
                f"turn {turns} {seat}:\n{written}"
            squeezed += written != spaced
            game.submit(seat, text)
        game.advance()
        turns += 1
    assert squeezed > 5, "the orders should hold Chinese written without spaces"


def test_a_marengo_problem_in_chinese_without_spaces_names_the_word_at_its_column():
    ruleset = rulesets()["marengo"]
    game = Game(ruleset, ruleset.load_scenario(ruleset.scenarios()["marengo"]), 5)
    good = ruleset.check_orders(game.scenario, game.state, "france", "常备撤退马伦哥到斯皮内塔\n常备损失最弱")
    assert echo(good) == ["STANDING RETREAT Marengo TO Spinetta", "STANDING LOSSES WEAKEST", "False"]
    with pytest.raises(OrdersError) as error:  # 末知地: no place of the map
        ruleset.check_orders(game.scenario, game.state, "france", "常备撤退马伦哥到末知地", lang="zh")
    problem = error.value.problems[0]
    assert (problem.line, problem.column, problem.found) == (1, 9, "末知地")
    assert "第 1 行，第 9 列" in str(problem) and "末知地" in str(problem)
    with pytest.raises(OrdersError) as error:  # 有时: no value of PURSUE
        ruleset.check_orders(game.scenario, game.state, "france", "常备追击有时", lang="zh")
    problem = error.value.problems[0]
    assert (problem.column, problem.found) == (5, "有时") and "总是" in problem.expected


def test_a_header_keys_word_inside_a_chinese_value_is_part_of_the_value():
    """The form's placeholder key 你的密钥 ("your key") holds 密钥 (KEY): not a second KEY."""
    header, _ = parse_header("对局 7 阵营 奥地利 回合 6:00 密钥 你的密钥")
    assert header.key == "你的密钥"
    problems = []
    parse_header("对局 7 密钥 a 密钥 b", problems)
    assert len(problems) == 1 and problems[0].column == 11, "a key written twice is still one problem"


# -- Napoleon 1815 ----------------------------------------------------------------------------------

def test_napoleon1815s_orders_in_chinese_without_spaces_read_as_with_spaces_for_a_whole_game():
    """A whole bot game (three players, campaign and battles), each seat's orders and standing orders in Chinese
    (words.toml's words and towns), without spaces: the same orders as in English."""
    from test_lang_napoleon1815 import GAMES, RULES, SCENARIO, in_language, standing_lines

    seed, options = GAMES["three"]
    bot = RULES.bots()["bot"]
    game = Game(RULES, SCENARIO, seed, options=options)
    squeezed = 0
    from pbem.tools.selfplay import chooser

    while not game.over:
        for seat in game.turn().seats:
            view = game.view(seat)
            text = bot.orders(SCENARIO, view, seed)
            if view["phase"] == "campaign":
                text += "\n".join(standing_lines(view)) + "\n"
            english = RULES.check_orders(SCENARIO, game.state, seat, text)
            written = squeeze(in_language(text, "zh"))
            assert RULES.check_orders(SCENARIO, game.state, seat, written, lang="zh") == english, written
            squeezed += written != in_language(text, "zh")
            game.submit(seat, text)
        game.advance(choose=chooser(seed, game.day))
    assert squeezed > 10


def test_a_napoleon1815_problem_in_chinese_without_spaces_names_the_town_at_its_column():
    from test_lang_napoleon1815 import RULES, SCENARIO

    game = Game(RULES, SCENARIO, 1, options={"players": "2"})
    for seat in ("anglo-dutch", "prussian"):
        game.submit(seat, "")
    game.advance()
    game.submit("french", "FINAL")
    game.advance()
    english = RULES.check_orders(SCENARIO, game.state, "french", "MOVE OG GC Beaumont -> Thuin FORCED\n"
                                                                  "DOCTRINE WITHDRAW 30")
    assert RULES.check_orders(SCENARIO, game.state, "french", "移动OG GC博蒙->蒂安强行军\n方针退出30", lang="zh") == english
    with pytest.raises(OrdersError) as error:
        RULES.check_orders(SCENARIO, game.state, "french", "移动OG GC博蒙->末知城", lang="zh")
    problem = error.value.problems[0]
    assert (problem.line, problem.column) == (1, 12) and "末知城" in str(problem), str(problem)


# -- Napoleonic DBA -----------------------------------------------------------------------------------

def test_dbas_dispatches_in_chinese_without_spaces_read_as_with_spaces_for_a_whole_game():
    """A bot game's dispatches as a Chinese seat's echo writes them (its words, the places', brigades' and
    commanders' Chinese names), without spaces: the same normalised orders as in English."""
    from test_lang_dba import QUATRE_BRAS, RULES, bots, native_text
    from pbem.tools.selfplay import play_game

    game = play_game(RULES, QUATRE_BRAS, 3, bots(QUATRE_BRAS), days=0)
    bot = RULES.bots()["bot"]
    checked = turns = 0
    while not game.over and turns < 5:
        for seat in game.turn().seats:
            text = bot.orders(game.scenario, game.view(seat), 3)
            english = RULES.check_orders(game.scenario, game.state, seat, text)
            written = squeeze(native_text(text, game, seat, "zh"))
            read = RULES.check_orders(game.scenario, game.state, seat, written, lang="zh")
            assert [o.text for o in read.dispatches] == [o.text for o in english.dispatches], written
            checked += len(english.dispatches) * (written != native_text(text, game, seat, "zh"))
            game.submit(seat, text)
        game.advance()
        turns += 1
    assert checked > 10


def test_every_dba_order_word_and_construction_reads_in_chinese_without_spaces():
    from test_lang_dba import EVERY_WORD, MEETING, RULES, bots
    from pbem.tools.selfplay import play_game

    game = play_game(RULES, MEETING, 1, bots(MEETING), days=0)
    english = RULES.check_orders(game.scenario, game.state, "blue", EVERY_WORD)
    echo = RULES.check_orders(game.scenario, game.state, "blue", EVERY_WORD, lang="zh").echo()
    again = RULES.check_orders(game.scenario, game.state, "blue", squeeze(echo), lang="zh")
    assert [o.text for o in again.dispatches] == [o.text for o in english.dispatches], squeeze(echo)
    # the documented dispatch (docs/dba-orders.md), its punctuation Chinese
    text = "自阿祖尔将军致布勒上校\n前往磨坊村横队沿道路，然后坚守该处直到敌军进入6\"距磨坊村。然后撤退到桥在回合9"
    spaced = ("自 阿祖尔将军 致 布勒上校\n前往 磨坊村 横队 沿道路 然后 坚守 该处 直到 敌军 进入 6\" 距 磨坊村\n"
              "然后 撤退到 桥 在回合 9")
    read = RULES.check_orders(game.scenario, game.state, "blue", text, lang="zh")
    assert [o.text for o in read.dispatches] == [o.text for o in RULES.check_orders(
        game.scenario, game.state, "blue", spaced, lang="zh").dispatches]


def test_a_dba_problem_in_chinese_without_spaces_names_the_place_at_its_column():
    from test_lang_dba import MEETING, RULES, bots
    from pbem.tools.selfplay import play_game

    game = play_game(RULES, MEETING, 1, bots(MEETING), days=0)
    with pytest.raises(OrdersError) as error:
        RULES.check_orders(game.scenario, game.state, "blue", "自阿祖尔将军致布勒上校\n前往末知村横队", lang="zh")
    problem = error.value.problems[0]
    assert (problem.line, problem.column, problem.found) == (2, 3, "末知村"), problem


# -- a mail's orders ------------------------------------------------------------------------------------

def test_a_mails_chinese_orders_without_spaces_are_told_from_its_greeting_and_sign_off():
    """The server finds a mail's orders by their header and first words (pbem.server.mail.reply): a Chinese
    header and orders written without spaces are found as with spaces."""
    from pbem.core.orders import leading_word
    from pbem.server.mail.reply import new_text

    words = rulesets()["marengo"].mail_words
    spaced = "对局 7 阵营 奥地利 回合 6:00 密钥 abc\n常备 撤退 马伦哥 到 斯皮内塔"
    for orders in (spaced, squeeze(spaced)):
        assert new_text(f"你好\n\n{orders}\n\n谢谢", words).text == orders
    assert leading_word("常备撤退马伦哥到斯皮内塔", words) == "常备"
    assert leading_word("移动A1马伦哥->斯皮内塔", words) == "移动"
    assert leading_word("你好", words) == "你好" and leading_word("MOVE A1", words) == "MOVE"


def test_every_token_of_any_mixed_line_is_the_text_at_its_column():
    """Lines of Chinese, Latin letters, digits, Cyrillic, signs and full-width characters mixed at random: each
    token is the text found at its column (full-width characters read as ASCII ones), in order, never overlapping,
    and nothing but white space, commas and comments is left out."""
    import random

    from pbem.core.orders import FULL_WIDTH

    words = Lexicon(["移动", "到", "马伦哥", "斯皮内塔", "从不", "从", "不", "，", "。"])
    alphabet = list("移动到马伦哥斯皮内塔从不末知地。，、；Ａ１－＞ ABCab12 ->;,→#ЖюÉé\u3000")
    rng = random.Random(17)
    narrow = {k: v for k, v in FULL_WIDTH.items() if chr(k) not in "，"}
    for _ in range(3000):
        line = "".join(rng.choice(alphabet) for _ in range(rng.randint(0, 24)))
        read = line.translate(narrow).split("#")[0]
        last = 0
        kept = ""
        for segment in tokenize(line, words):
            for token in segment:
                at = token.column - 1
                assert at >= last, (line, token)
                written = read[at:at + len(token.text)] if token.text != "->" or read[at] != "→" else "->"
                assert written == token.text, (line, token)
                kept += read[last:at]
                last = at + (1 if read[at] == "→" else len(token.text))
        kept += read[last:]
        assert set(kept) <= set(" ,;\u3000"), (line, kept)


def test_orders_by_mail_in_chinese_without_spaces_reach_the_seat_and_never_keep_the_key(tmp_path):
    """A mail 对局7密钥<key> then 常备损失最弱, all without spaces: the seat's orders, echoed in its words, and the key
    written right after 密钥 is never in the stored text."""
    from datetime import datetime, timezone
    from email.message import EmailMessage

    from conftest import Clock
    from pbem.server import inbox
    from pbem.server.service import Service
    from pbem.server.service.orders import redact_key
    from pbem.server.store import Store

    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    service.rasterise = lambda svg: b"png"
    for email in ("anna@example.org", "fred@example.org"):
        service.store.set_language(email, "zh")
    game_id, keys = service.create_game("对局", {"austria": "anna@example.org", "france": "fred@example.org"}, seed=2)
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = "anna@example.org", "pbem@localhost", "命令"
    msg.set_content(f"你好\n\n对局{game_id}阵营奥地利密钥{keys['austria']}\n常备损失最弱\n\n谢谢\n")
    inbound_id, _ = inbox.receive(service, msg.as_bytes(), "smtp")
    inbox.process(service, inbound_id)
    body = service.store.mails("WHERE to_addr = ? ORDER BY id DESC", ("anna@example.org",))[0]["body"]
    assert "常备 损失 最弱" in body and "STANDING" not in body, body
    logged = [e for e in service.game(game_id).log if e.get("kind") == "orders"]
    assert logged and keys["austria"] not in logged[-1]["text"] and "密钥***" in logged[-1]["text"]
    assert redact_key(f"对局7阵营奥地利回合6:00密钥{keys['austria']}") == "对局7阵营奥地利回合6:00密钥***"
    assert redact_key(f"GAME 7 KEY {keys['austria']}") == "GAME 7 KEY ***"


def test_the_moderator_console_hides_a_key_after_its_word_in_any_language():
    """The inbound mails the moderator reads hide every seat's key: after KEY, CLÉ, КЛЮЧ, and 密钥 with or without a
    space (a Chinese header written without spaces)."""
    from pbem.server.web.moderator import redact

    for text in ("GAME 7 KEY s3cr3t", "PARTIE 7 CLÉ s3cr3t", "ИГРА 7 КЛЮЧ s3cr3t", "对局 7 密钥 s3cr3t",
                 "对局7阵营奥地利密钥s3cr3t"):
        assert "s3cr3t" not in redact(text) and redact(text).endswith("***"), text
    assert redact("MONKEY business") == "MONKEY business"


def test_a_chinese_orders_header_inside_a_quote_is_told_without_spaces_too():
    """The note "you filled in the form inside the quoted mail" finds a header 对局7...密钥<key> written without
    spaces as it finds one with them; a placeholder key is no key."""
    from pbem.server.inbox import QUOTED_HEADER

    for line in ("> GAME 7 KEY k3y", "> PARTIE 7 CLÉ k3y", "> 对局 7 密钥 k3y", "> 对局7阵营奥地利回合6:00密钥k3y"):
        found = QUOTED_HEADER.match(line)
        assert found and found.group(1) == "k3y", line
    assert QUOTED_HEADER.match("> GAMEBOY 7 KEY k3y") is None and QUOTED_HEADER.match("> GAME 7 SIDE Austria") is None


@pytest.mark.parametrize("head", ["对局7阵营奥地利回合6:00密钥abc123", "PARTIE 7 CAMP Autriche CLÉ abc123"])
def test_forwarded_orders_headed_in_the_players_words_are_read_when_he_wrote_none(head):
    """A player forwards his own orders (sent to the wrong address): a header in his words, Chinese without
    spaces too, is the forwarded orders' header; the form's placeholder key (<你的密钥>) is none."""
    from pbem.server.mail.reply import new_text

    words = rulesets()["marengo"].mail_words
    forwarded = (f"发错地址了。\n\n---------- Forwarded message ---------\nFrom: Anna <a@work.example>\n"
                 f"Date: Mon, 3 Jun 2024\nSubject: orders\n\n{head}\n常备损失最弱\n")
    assert new_text(forwarded, words).text == f"{head}\n常备损失最弱"
    form = forwarded.replace("abc123", "<你的密钥>").replace("CLÉ <你的密钥>", "CLÉ <votre clé>")
    assert "常备损失最弱" not in new_text(form, words).text
