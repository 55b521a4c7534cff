"""The mail commands in every language (issue 17): each command and sub-word written in English,
French, Russian, Ukrainian and Chinese (accents or none, any case, Chinese without a space before its
argument) does what its English word does, through the real mail path -- the player's mail by SMTP to
the server's receiver, the answers out of the outbox by SMTP to a relay on loopback; the HELP mail
lists the commands in the reader's words (French, Chinese) with the English ones; a refusal names the
words its reader writes, and a first word that is neither an order nor a command (Russian) gets the
list of commands."""

from __future__ import annotations

import email
import email.policy
import re
from datetime import datetime, timezone
from pathlib import Path

import pytest
from conftest import Clock
from i18n_post import PostOffice
from i18n_sweep import english_in_mail

from pbem.core.orders import header_words
from pbem.server import i18n
from pbem.server.leagues.service import Leagues
from pbem.server.mail import commands
from pbem.server.mail.commands import read

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
ANNA, FRED, ORG = "anna@example.org", "fred@example.org", "org@example.org"

# what each language's player writes: the command lines of the game, as a player would write them
WRITTEN = {
    "en": {"LANGUAGE": "language en", "HELP": "help", "STATUS": "Status", "REPORT": "REPORT", "ORDERS": "orders",
           "VACATION": "VACATION 1", "VACATION FROM": "vacation from 2026-12-20 to 2027-01-03", "ANSWER": "ANSWER",
           "PRESS ALL": "PRESS all", "DRAW": "DRAW", "DRAW DECLINE": "draw decline", "DRAW ACCEPT": "DRAW ACCEPT",
           "REMATCH": "rematch", "RESIGN": "RESIGN", "KEY": "key", "LEAGUE JOIN": "LEAGUE {n} JOIN Anna",
           "TOURNAMENT ENTER": "tournament {n} enter"},
    "fr": {"LANGUAGE": "langue fr", "HELP": "Aide", "STATUS": "etat", "REPORT": "RAPPORT", "ORDERS": "ordres",
           "VACATION": "congé 1", "VACATION FROM": "CONGE DU 2026-12-20 AU 2027-01-03", "ANSWER": "Réponse",
           "PRESS ALL": "MESSAGE tous", "DRAW": "NULLE", "DRAW DECLINE": "nulle refuser",
           "DRAW ACCEPT": "Nulle Accepter", "REMATCH": "revanche", "RESIGN": "ABANDON", "KEY": "clé",
           "LEAGUE JOIN": "LIGUE {n} ADHERER Anna", "TOURNAMENT ENTER": "Tournoi {n} s'inscrire"},
    "ru": {"LANGUAGE": "ЯЗЫК ru", "HELP": "помощь", "STATUS": "СТАТУС", "REPORT": "отчет", "ORDERS": "Приказы",
           "VACATION": "ОТПУСК 1", "VACATION FROM": "отпуск с 2026-12-20 по 2027-01-03", "ANSWER": "ОТВЕТ",
           "PRESS ALL": "СООБЩЕНИЕ всем", "DRAW": "НИЧЬЯ", "DRAW DECLINE": "Отклонить ничью",
           "DRAW ACCEPT": "ничья принять", "REMATCH": "РЕВАНШ", "RESIGN": "сдаться", "KEY": "КЛЮЧ",
           "LEAGUE JOIN": "ЛИГА {n} ВСТУПИТЬ Анна", "TOURNAMENT ENTER": "турнир {n} участвовать"},
    "uk": {"LANGUAGE": "мова uk", "HELP": "ДОПОМОГА", "STATUS": "стан", "REPORT": "ЗВІТ", "ORDERS": "накази",
           "VACATION": "ВІДПУСТКА 1", "VACATION FROM": "відпустка з 2026-12-20 до 2027-01-03",
           "ANSWER": "Відповідь", "PRESS ALL": "ПОВІДОМЛЕННЯ УСІМ", "DRAW": "нічия",
           "DRAW DECLINE": "НІЧИЯ ВІДХИЛИТИ", "DRAW ACCEPT": "прийняти нічию", "REMATCH": "реванш",
           "RESIGN": "ЗДАЧА", "KEY": "ключ", "LEAGUE JOIN": "ЛІГА {n} вступити Анна",
           "TOURNAMENT ENTER": "ТУРНІР {n} ЗАПИСАТИСЯ"},
    "zh": {"LANGUAGE": "语言zh", "HELP": "帮助", "STATUS": "状态", "REPORT": "战报", "ORDERS": "命令",
           "VACATION": "休假1", "VACATION FROM": "休假从2026-12-20到2027-01-03", "ANSWER": "回答",
           "PRESS ALL": "通信全部", "DRAW": "和棋", "DRAW DECLINE": "和棋拒绝", "DRAW ACCEPT": "接受和棋",
           "REMATCH": "再战", "RESIGN": "认输", "KEY": "密钥", "LEAGUE JOIN": "联赛{n}加入 安娜",
           "TOURNAMENT ENTER": "锦标赛{n}报名"},
}


@pytest.fixture
def office(tmp_path):
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    post = PostOffice(tmp_path, clock)
    yield post
    post.close()


def header(lang: str, game_id: int, key: str) -> str:
    """The orders header in ``lang``'s words (PARTIE 1 CLÉ ...), as its reader's form writes it."""
    words = header_words(lang)
    return f"{words['GAME']} {game_id} {words['KEY']} {key}"


def last(office, to: str) -> tuple[str, str]:
    """The last mail delivered to ``to`` by the relay: (subject, text)."""
    office.flush()
    raw = [d.raw for d in office.relay.snapshot() if d.to == to.lower()][-1]
    msg = email.message_from_bytes(raw, policy=email.policy.default)
    texts = [part.get_content() for part in msg.walk() if part.get_content_type() == "text/plain"
             and not part.get_filename()]
    return str(msg["Subject"]), "\n".join(texts)


@pytest.mark.parametrize("lang", sorted(WRITTEN))
def test_every_command_does_its_work_in_every_language(office, lang):
    said, service = WRITTEN[lang], office.service
    tr = i18n.translator(lang)
    service.store.set_language(FRED, lang)
    settings = {"hours": 48, "vacation_days": 5, "press": "open"}
    game_id, keys = service.create_game("Mots", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=2,
                                        settings=settings)

    def send(text: str, who: str = ANNA, key: str | None = None, game: int = game_id) -> tuple[str, str]:
        office.send(who, header(lang, game, key or keys["austria" if who == ANNA else "france"]) + "\n" + text)
        return last(office, who)

    # LANGUAGE, from an address that chose none: the next mails are in the language named
    subject, body = send(said["LANGUAGE"])
    assert service.store.language_of(ANNA) == lang
    assert i18n.translate(lang, "From now on the server writes to you in English.") in body
    subject, body = send(said["HELP"])
    assert tr.gettext("Help") in subject and commands.help_text(lang).splitlines()[0] in body
    assert tr.gettext("Status") in send(said["STATUS"])[0]
    assert tr.gettext("no day has been resolved yet") in send(said["REPORT"])[1]  # REPORT's own answer, no report yet
    assert tr.gettext("Orders on file for the coming day:") in send(said["ORDERS"])[1]
    deadline = service.store.get_game(game_id)["deadline"]
    assert tr.gettext("Vacation taken.") in send(said["VACATION"])[1]
    assert service.store.get_game(game_id)["deadline"] > deadline
    subject, body = send(said["VACATION FROM"])
    assert tr.gettext("Vacation") in subject and ANNA in body
    assert [v["starts"][:10] for v in service.vacations_of(ANNA)] == ["2026-12-20"]
    subject, body = send(said["ANSWER"])  # no question's number: refused, in the reader's words
    assert tr.gettext("write %(answer)s, the question's number, then your choices: %(answer)s 3 F2",
                      answer=commands.words_in(lang)["ANSWER"]) in body
    send(said["PRESS ALL"] + "\nBonjour / Привіт / 你好")
    assert "Bonjour / Привіт / 你好" in last(office, FRED)[1]
    send(said["DRAW"])
    assert service.draw_offer(game_id)["side"] == "austria"
    send(said["DRAW DECLINE"], who=FRED)
    assert service.draw_offer(game_id) is None
    other, other_keys = service.create_game("Nulle", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=3)
    send(said["DRAW"], key=other_keys["austria"], game=other)
    send(said["DRAW ACCEPT"], who=FRED, key=other_keys["france"], game=other)
    assert service.store.get_game(other)["status"] == "finished"
    games = len(service.store.query("SELECT id FROM games"))
    subject, body = send(said["REMATCH"], key=other_keys["austria"], game=other)
    assert len(service.store.query("SELECT id FROM games")) == games + 1 and tr.gettext("Rematch") in subject

    other, other_keys = service.create_game("Clé", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=4)
    send(said["KEY"], key=other_keys["austria"], game=other)
    assert not service.check_key(other, "austria", other_keys["austria"])  # a new key: the old one stops working
    mailed = next(body for subject, body, _ in reversed(office.read(ANNA)) if tr.gettext("Your new key") in subject)
    new_key = re.search(r"(?<![A-Za-z0-9_-])[A-Za-z0-9_-]{24}(?![A-Za-z0-9_-])", mailed).group(0)  # 24 URL-safe
    send(said["RESIGN"], key=new_key, game=other)
    assert service.store.get_game(other)["status"] == "finished"

    leagues = Leagues(service)
    league_id = leagues.create_league("Club", ORG, rules={"scenario": SMALL})
    tid = leagues.create_tournament(league_id, ORG, "Open", "swiss")
    for request in (said["LEAGUE JOIN"].format(n=league_id), said["TOURNAMENT ENTER"].format(n=tid)):
        office.send(ANNA, request)  # a request; the line to confirm it by its code comes in his words
        office.send(ANNA, re.search(r"^    (.+)$", office.read(ANNA)[-1][1], re.M).group(1))
    assert [m["email"] for m in leagues.league(league_id)["members"]] == [ANNA]
    assert [e["email"] for e in leagues.tournament(tid)["entries"]] == [ANNA]
    for subject, body, _ in office.read(ANNA)[1:] if lang != "en" else []:  # every answer after LANGUAGE: his language
        assert english_in_mail(subject + "\n" + body, lang) == set(), (subject, body)


def test_the_help_mail_in_french_lists_the_french_words_and_the_english_ones(office):
    office.service.store.set_language(ANNA, "fr")
    office.send(ANNA, "aide")
    subject, body = last(office, ANNA)
    assert subject == i18n.translate("fr", "[pbem] Your mail to the game server")
    lines = body.splitlines()
    assert "pbem : comment jouer par courriel" in lines
    assert "  PARTIE 17 CLÉ votre-clé-ici" in lines  # the header in the reader's words (read in every language)
    for usage, what in [("ÉTAT", "l'état de la partie et votre date limite"), ("NULLE ACCEPTER", "accepter la nulle"),
                        ("CONGÉ <jours>", "reporter la date limite"), ("LANGUE <code>", "la langue des courriels"),
                        ("MESSAGE <places>", "un message aux autres places")]:
        assert any(re.match(rf"  {re.escape(usage)} +{re.escape(what)}", line) for line in lines), usage
    assert "  CONGÉ DU 2026-12-20 AU 2027-01-03" in lines
    assert "Les mêmes commandes en anglais sont lues aussi :" in lines
    english = " ".join(lines[lines.index("Les mêmes commandes en anglais sont lues aussi :"):])
    for pair in ("AIDE = HELP", "ÉTAT = STATUS", "CONGÉ = VACATION", "NULLE = DRAW", "ACCEPTER = ACCEPT", "DU = FROM"):
        assert pair in english
    assert english_in_mail(body, "fr") == set()
    for line in lines:  # a line of the list that names an English command would be English left in the mail
        assert not re.match(r"  (STATUS|REPORT|VACATION|DRAW|PRESS|LANGUAGE|HELP)\b", line), line


def test_the_help_mail_in_chinese_to_a_stranger_who_wrote_the_chinese_word(office):
    office.send("new@example.net", "帮助")  # no language chosen, none in the mail's headers: the word says it
    subject, body = last(office, "new@example.net")
    assert subject == i18n.translate("zh", "[pbem] Your mail to the game server")
    lines = body.splitlines()
    assert "pbem：如何通过邮件游戏" in lines
    assert "  对局 17 密钥 你的密钥" in lines
    for usage, what in [("状态", "对局状态和你的截止时间"), ("和棋 接受", "接受对方的和棋提议"), ("休假 <天数>", "将对局截止时间"),
                        ("通信 <席位>", "给其他席位的消息")]:
        assert any(re.match(rf"  {re.escape(usage)} +{re.escape(what)}", line) for line in lines), usage
    assert "同样的英文命令也可识别：" in lines
    assert "帮助 = HELP、状态 = STATUS" in body and "休假 = VACATION" in body
    assert all(commands.width(line) <= commands.WIDTH for line in commands.help_text("zh").splitlines())
    assert english_in_mail(body, "zh") == set()
    assert i18n.translate("fr", "In English: write LANGUAGE %(code)s on the line after GAME ... KEY ..., or choose "
                                "English on the site's pages.", code="fr") not in body  # chosen: no list of choices


def test_an_unknown_command_in_russian_is_refused_with_the_russian_commands(office):
    service = office.service
    service.store.set_language(ANNA, "ru")
    game_id, keys = service.create_game("Ошибка", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=2)
    office.send(ANNA, f"ИГРА {game_id} КЛЮЧ {keys['austria']}\nПОМОГИТЕ")
    subject, body = last(office, ANNA)
    assert subject == f"[pbem {game_id}] " + i18n.translate("ru", "Orders NOT accepted")
    assert ("ПОМОГИТЕ — и не почтовая команда. Команды: ПОМОЩЬ, СТАТУС, ДОНЕСЕНИЕ, ПРИКАЗЫ, ОТПУСК, ОТВЕТ, КЛЮЧ, "
            "СДАЧА, НИЧЬЯ, СООБЩЕНИЕ, РЕВАНШ, ЯЗЫК; напишите ПОМОЩЬ на строке после первой") in body
    assert body.index("ПОМОГИТЕ —") < body.index(i18n.translate("ru", "Deadline: %(deadline)s.", deadline="")[:5])
    assert english_in_mail(body, "ru") == set()
    # a command with a wrong sub-word: refused with the words the reader writes
    office.send(ANNA, f"ИГРА {game_id} КЛЮЧ {keys['austria']}\nНИЧЬЯ может быть")
    assert "напишите НИЧЬЯ (чтобы предложить ничью), НИЧЬЯ ПРИНЯТЬ или НИЧЬЯ ОТКЛОНИТЬ" in last(office, ANNA)[1]
    # orders refused at a later line are not taken for a command
    office.send(ANNA, f"ИГРА {game_id} КЛЮЧ {keys['austria']}\n# мои приказы\nНЕТ ТАКОГО ПРИКАЗА")
    assert "почтовая команда" in last(office, ANNA)[1]
    office.send(ANNA, f"ИГРА {game_id} КЛЮЧ {keys['austria']}\nПРИКАЗЫ :\nНЕТ ТАКОГО ПРИКАЗА")
    subject, body = last(office, ANNA)  # a heading over orders, not the command ПРИКАЗЫ (which takes nothing)
    assert subject == f"[pbem {game_id}] " + i18n.translate("ru", "Orders NOT accepted")
    assert "ПРИКАЗЫ — почтовая команда, только если написана одна на строке, без ничего после неё." in body
    assert "Команды:" not in body  # its word is a command's: no list of commands


def test_no_word_means_two_things_and_none_is_an_order_word():
    """A folded word (no accents, upper case) names one command, and one sub-word of each command; no
    command's word begins a game's orders (it would take the player's orders for a command)."""
    from pbem.games import rulesets

    order_words = {commands.folded(w) for r in rulesets().values() for w in r.mail_words}
    order_words -= {commands.folded(w) for w in ("GAME", "SIDE", "TURN", "KEY")} | {
        commands.folded(w) for w in header_words("fr").values()} | {"CLE", "CLEF", "КЛЮЧ", "密钥"}
    seen = {}
    for name in commands.COMMANDS + commands.LEAGUE_COMMANDS:
        for word in (name, *(w for words in commands.WORDS[name].values() for w in words)):
            assert seen.setdefault(commands.folded(word), name) == name, word
            assert commands.folded(word) not in order_words, word
    for command, subs in commands.SUB_WORDS.items():
        mine = {}
        for name in subs:
            for word in (name, *(w for words in commands.WORDS[name].values() for w in words)):
                assert mine.setdefault(commands.folded(word), name) == name, word


@pytest.mark.parametrize("lang", ["fr", "ru", "uk", "zh"])
def test_no_translation_tells_a_player_to_write_an_english_command(lang):
    """Every text of the server's catalog that names a command names it in its reader's words (NULLE ACCEPTER,
    not DRAW ACCEPT): the English words are read too, but a reader is told his own."""
    names = commands.COMMANDS + commands.LEAGUE_COMMANDS + tuple(n for sub in commands.SUB_WORDS.values() for n in sub)
    english = re.compile(r"(?<![\w%(])(" + "|".join(n for n in names if n != commands.words_in(lang)[n]) + r")(?!\w)")
    left = []
    for message in i18n.read_catalog(i18n.LOCALE_DIR / lang / "LC_MESSAGES" / "pbem.po"):
        for text in message.string if isinstance(message.string, tuple) else (message.string,):
            if message.id and english.search(text.replace("Bearer KEY", "")):  # HTTP's: the header's own word
                left.append(text)
    assert left == []


def test_a_league_command_in_french_from_a_new_address_is_answered_in_french(office):
    leagues = Leagues(office.service)
    league_id = leagues.create_league("Club", ORG, rules={"scenario": SMALL})
    office.send("jean@example.net", f"Ligue {league_id} adhérer Jean Lannes")
    subject, body = last(office, "jean@example.net")
    assert subject == i18n.translate("fr", "[pbem] Your mail to the game server")
    assert english_in_mail(body, "fr") == set()
    line = re.search(r"^    (.+)$", body, re.M).group(1)  # to confirm by the code: in the French words
    assert line.startswith(f"LIGUE {league_id} ADHÉRER ")
    office.send("jean@example.net", line)
    assert [(m["email"], m["name"]) for m in leagues.league(league_id)["members"]] == [("jean@example.net",
                                                                                         "Jean Lannes")]
    assert english_in_mail(last(office, "jean@example.net")[1], "fr") == set()
    office.send("jean@example.net", "LIGUE")  # too short: the usage, in the French words
    assert "LIGUE <numéro> ADHÉRER [votre nom]" in last(office, "jean@example.net")[1]
    assert office.service.store.language_of("jean@example.net", default=None) is None  # a stranger's mail sets none


def test_every_word_of_every_language_reads_as_its_command_with_or_without_accents_in_any_case():
    """Each word of the table (the mail path above takes one of each language; this reads them all)."""
    import unicodedata

    def bare(word: str) -> str:
        return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))

    for name in commands.COMMANDS + commands.LEAGUE_COMMANDS:
        for words in ((name,), *commands.WORDS[name].values()):
            for word in words:
                langs = {other for other, ws in {"en": (name,), **commands.WORDS[name]}.items()
                         if commands.folded(word) in map(commands.folded, ws)}  # КЛЮЧ: Russian and Ukrainian
                for written in (word, word.lower(), bare(word).capitalize()):
                    assert read(written).name == name and read(written).lang in langs, written
    for command, subs in commands.SUB_WORDS.items():
        head = {"LEAGUE": "LEAGUE 3", "TOURNAMENT": "TOURNAMENT 3", "VACATION": "VACATION"}.get(command, command)
        for name in subs:
            for word in (name, *(w for ws in commands.WORDS[name].values() for w in ws)):
                args = read(f"{head} {bare(word).lower()}").args
                assert name in args, (command, word)
