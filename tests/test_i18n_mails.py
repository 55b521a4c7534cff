"""Every mail the server writes around a game, in its reader's language (issue 17): invitations,
the moderator's mails and notices (pause, resume, extend, deadline, resolve now, rewind, replace),
press, draw offers and answers, vacations, wrong-key notices, resignation and the game's end,
forfeits, league and tournament answers, byes and final standings; refusals (ServiceError) by
mail, on pages and in the JSON API; answers to strangers. Each sweep reads every mail against the
server's catalog (no English sentence of it left), with a control that the same sweep finds the
English of an English reader's mails. A league, a tournament and a moderated game run in French
and Ukrainian through the real SMTP receiver and a real SMTP relay."""

from __future__ import annotations

import html
import json
import re
import urllib.request
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from conftest import Clock
from i18n_post import PostOffice
from i18n_sweep import english_in_mail

from pbem.server import i18n, inbox
from pbem.server.mail import commands
from pbem.server.leagues import mail as league_mail
from pbem.server.leagues.service import Leagues
from pbem.server.service import Service, ServiceError
from pbem.server.store import Store

SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())
SHORT = str((Path(__file__).parent / "fixtures" / "short.toml").resolve())
ANNA, FRED, GUS, MOD, EVE = "anna@example.org", "fred@example.org", "gus@example.org", "mod@example.org", \
    "eve@example.net"
LANGS = ["fr", "ru", "uk", "zh"]


def mail(text, sender, **headers):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "orders"
    msg.set_content(text)  # before the headers: it would drop a Content-Language set before it
    for name, value in headers.items():
        msg[name.replace("_", "-")] = value
    return msg.as_bytes()


def deliver(service, text, sender, **headers):
    inbound_id, _ = inbox.receive(service, mail(text, sender, **headers), "smtp")
    return inbox.process(service, inbound_id)


def outbox(service, to):
    return service.store.mails("WHERE to_addr = ? ORDER BY id", (to,))


def around_a_game(folder: Path, lang: str):
    """A moderated game played around: every kind of mail around the game, each player and the
    moderator reading ``lang``. Returns the service and the game."""
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(folder / "pbem.sqlite3", clock=clock), clock=clock)
    service.rasterise = lambda svg: b"png"
    for email in (ANNA, FRED, GUS, MOD):
        service.store.set_language(email, lang)
    game_id, keys = service.create_game("Around", {"austria": ANNA}, scenario=SMALL, seed=2, moderator=MOD,
                                        settings={"hours": 48, "vacation_days": 5, "press": "open"})
    service.invite(game_id, "france", FRED, ANNA)  # the invitation, in the invited address's language
    service.join(game_id, "france", FRED)  # the game begins: the moderator is told
    service.moderate(game_id, MOD, "pause", "the post is on strike")
    service.moderate(game_id, MOD, "resume", "the post is back")
    service.moderate(game_id, MOD, "extend", "a slow week", hours=5)
    service.moderate(game_id, MOD, "deadline", "a fixed hour", when="2026-11-06 18:00")
    service.send_press(game_id, "austria", ["France"], "Bonjour / Привіт / 你好", who=ANNA)
    service.offer_draw(game_id, "france")
    service.answer_draw(game_id, "austria", False)
    service.vacation(game_id, "austria", 2)
    deliver(service, f"GAME {game_id} SIDE Austria KEY not-the-key\nSTATUS", EVE)  # the owner is told
    deliver(service, f"GAME {game_id} KEY {keys['austria']}\nRESIGN now", ANNA)  # a refusal (ServiceError)
    service.moderate(game_id, MOD, "resolve_now", "both asked for it")
    service.run_jobs()
    service.moderate(game_id, MOD, "rewind", "a lost mail", day=0)
    service.run_jobs()
    service.moderate(game_id, MOD, "resume", "replayed")
    service.moderate(game_id, MOD, "replace", "Fred left the club", side="france", email=GUS)
    service.resign(game_id, "austria")  # the game is over: every seat told
    return service, game_id


KINDS = {"invitation", "moderator", "press", "draw", "vacation", "reply", "ended", "welcome"}


@pytest.mark.parametrize("lang", LANGS)
def test_every_mail_around_a_game_is_in_its_readers_language(tmp_path, lang):
    service, game_id = around_a_game(tmp_path, lang)
    tr = i18n.translator(lang)
    rows = [row for who in (ANNA, FRED, GUS, MOD) for row in outbox(service, who)]
    assert KINDS <= {row["kind"] for row in rows}
    for row in rows:
        assert english_in_mail(row["subject"] + "\n" + row["body"], lang) == set(), (row["kind"], row["subject"])
    subjects = {row["subject"] for row in rows}
    for action in ("pause", "resume", "extend", "deadline", "resolve now", "rewind", "replace"):
        assert f"[pbem {game_id}] " + tr.gettext("Moderator: %(action)s", action=tr.gettext(action)) in subjects
    assert f"[pbem {game_id}] " + tr.gettext("An invitation to play") in {r["subject"] for r in outbox(service, FRED)}
    assert f"[pbem {game_id}] " + tr.gettext("Message from %(seat)s",
                                             seat=service.seat_title(game_id, "austria", lang)) in subjects
    assert f"[pbem {game_id}] " + tr.gettext("Someone used a wrong key for your seat") in subjects
    assert f"[pbem {game_id}] " + tr.gettext("The game is over") in subjects
    assert f"[pbem {game_id}] " + tr.gettext("Vacation: deadline moved") in subjects
    refused = tr.gettext("write %(resign)s alone on its line", resign=commands.words_in(lang)["RESIGN"])
    assert any(refused in row["body"] for row in outbox(service, ANNA))  # named in the reader's words (ABANDON)
    resigned = tr.gettext("%(seat)s resigns; %(winner)s wins.", seat=service.seat_title(game_id, "austria", lang),
                          winner=service.seat_title(game_id, "france", lang))
    assert any(resigned in row["body"] for row in outbox(service, GUS))


def test_the_sweep_finds_the_english_of_an_english_readers_mails(tmp_path):
    """The control: the same game read in English leaves, in every kind of mail, English the
    sweep finds when the mail should have been French."""
    service, game_id = around_a_game(tmp_path, "en")
    rows = [row for who in (ANNA, FRED, GUS, MOD) for row in outbox(service, who)]
    for kind in KINDS - {"vacation"}:  # the vacation notice's sentences are too short for the sweep: its subject is
        found = [english_in_mail(row["subject"] + "\n" + row["body"], "fr") for row in rows if row["kind"] == kind]
        assert any(found), kind


# -- refusals: by mail, on a page, in the JSON API -----------------------------------------------


def test_a_refusal_reads_in_the_language_of_whoever_asked(tmp_path):
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    office = PostOffice(tmp_path, clock, web=True)
    try:
        service = office.service
        service.store.set_language(ANNA, "uk")
        game_id, keys = service.create_game("Відмова", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=2)
        error = None
        try:
            service.export(game_id)
        except ServiceError as exc:
            error = exc
        assert str(error) == f"game {game_id} is not over: its seed stays secret until it ends"  # logs, the CLI
        assert error.in_("uk") == i18n.translate("uk", "game %(game)s is not over: its seed stays secret until it ends",
                                                 game=game_id) != str(error)
        # a setting refused (pbem.server.deadlines) keeps its own catalog entry through the service
        try:
            service.create_game("Réglages", {"austria": ANNA}, scenario=SMALL, settings={"press": "maybe"})
        except ServiceError as exc:
            settings_error = exc
        assert settings_error.in_("fr") == i18n.translate("fr", "press must be one of %(names)s",
                                                          names="none, open, game") != str(settings_error)
        # the JSON API: by the request's Accept-Language, the status code unchanged
        request = urllib.request.Request(f"{office.config.url}/api/games/{game_id}/export.json?game={game_id}"
                                         f"&side=austria", headers={"Authorization": f"Bearer {keys['austria']}",
                                                                    "Accept-Language": "zh-CN,zh;q=0.9"})
        try:
            urllib.request.urlopen(request, timeout=30)
            answer = None
        except urllib.error.HTTPError as failed:
            answer = (failed.code, json.loads(failed.read()))
        assert answer == (403, {"error": error.in_("zh"), "status": 403})
        # a page: in the page's language (the signed-out reader's Accept-Language here)
        status, page = office.browser("fr").get("/leagues/99")
        assert status == 404 and i18n.translate("fr", "There is no league %(id)s.", id=99) in html.unescape(page)
        status, page = office.browser("ru").get("/no/such/page")
        assert status == 404 and i18n.translate("ru", "There is no such page.") in html.unescape(page)
        # by mail: in the seat's player's language
        office.send(ANNA, f"GAME {game_id} KEY {keys['austria']}\nDRAW MAYBE")
        refusal = office.read(ANNA)[-1]
        assert i18n.translate("uk", "Nothing was done: %(why)s",
                              why="напишіть НІЧИЯ (щоб запропонувати нічию), НІЧИЯ ПРИЙНЯТИ або НІЧИЯ ВІДХИЛИТИ") \
            in refusal[1]
    finally:
        office.close()


# -- strangers -------------------------------------------------------------------------------


def test_a_stranger_is_answered_in_the_language_his_mail_program_says_else_english_with_the_choice(tmp_path):
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    game_id, _ = service.create_game("Чужі", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=2)
    deliver(service, "hello, how do I play?\nthanks", "uk@example.net", Content_Language="uk-UA")
    deliver(service, "hello", "zh@example.net", Accept_Language="zh-CN, en;q=0.5")
    deliver(service, f"GAME {game_id} KEY wrong\nSTATUS", "plain@example.net")
    deliver(service, "hello", "chose@example.net", Content_Language="ru")
    ukrainian = outbox(service, "uk@example.net")[0]
    assert ukrainian["subject"] == i18n.translate("uk", inbox.STRANGER_SUBJECT)
    assert english_in_mail(ukrainian["body"], "uk") == set()
    chinese = outbox(service, "zh@example.net")[0]
    assert chinese["subject"] == i18n.translate("zh", inbox.STRANGER_SUBJECT)
    plain = outbox(service, "plain@example.net")[0]
    assert plain["subject"] == inbox.STRANGER_SUBJECT and "is not the key of any seat" in plain["body"]
    for code in ("fr", "ru", "uk", "zh"):  # English, and how to have it in each other language
        assert i18n.translate(code, inbox.CHOOSE_LANGUAGE, code=code) in plain["body"]
    assert inbox.choose_language_lines() not in ukrainian["body"]  # chosen by his mail program: no list
    # an address's own choice wins over what its mail program says
    service.store.set_language("chose@example.net", "fr")
    deliver(service, "hello again", "chose@example.net", Content_Language="ru")
    assert outbox(service, "chose@example.net")[-1]["subject"] == i18n.translate("fr", inbox.STRANGER_SUBJECT)


# -- a league, a tournament and a moderated game, in French and Ukrainian, by SMTP ---------------


def plain_text(rows) -> str:
    return "\n".join(subject + "\n" + body for subject, body, _ in rows)


def test_a_league_and_tournament_in_french_and_ukrainian_over_smtp(tmp_path):
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    office = PostOffice(tmp_path, clock)
    try:
        service = office.service
        players = {"jean@example.fr": "fr", "taras@example.ua": "uk", "odile@example.fr": "fr"}
        for email, lang in players.items():
            service.store.set_language(email, lang)
        service.store.set_language(MOD, "uk")
        leagues = Leagues(service)
        league = leagues.create_league("Le club / Клуб", MOD)
        cup = leagues.create_tournament(league, MOD, "Coupe / Кубок", "round_robin",
                                        rules={"scenario": SHORT, "settings": {"hours": 48}})
        for email in players:  # by mail, through the SMTP receiver, each request confirmed by its code
            for request in (f"LEAGUE {league} JOIN {email.split('@')[0]}", f"TOURNAMENT {cup} ENTER"):
                office.send(email, request)
                office.send(email, re.search(r"^    (.+)$", office.read(email)[-1][1], re.M).group(1))
        office.send("taras@example.ua", f"TOURNAMENT {cup} ENTER")  # again: already entered
        office.send("jean@example.fr", "LEAGUE 999 JOIN")  # a refusal
        leagues.start(cup, MOD)  # three players: two play, one has a bye
        round_one = [p for p in leagues.tournament(cup)["pairings"] if p["game_id"]]
        game_ids = [p["game_id"] for p in round_one]
        playing = {p[k] for p in round_one for k in ("first", "second")}
        leagues.pause(cup, MOD, "le serveur déménage / сервер переїжджає")
        leagues.resume(cup, MOD, "c'est fait / готово")
        for p in round_one:  # the organiser adjudicates round 1: every seat is told
            leagues.adjudicate(cup, MOD, "la poste a perdu les ordres / пошта загубила накази", p["id"], "draw")
        for _ in range(3):
            leagues.sync(cup)
            for game_id in [p["game_id"] for p in leagues.tournament(cup)["pairings"] if p["game_id"]]:
                if not service.game(game_id).over:
                    service.resign(game_id, service.store.seats(game_id)[0]["side"])
        leagues.sync(cup)
        assert leagues.tournament(cup)["status"] == "finished"

        for email, lang in [*players.items(), (MOD, "uk")]:
            rows = office.read(email)
            text = plain_text(rows)
            tr = i18n.translator(lang)
            assert english_in_mail(text, lang) == set(), email
            if email != MOD:
                base = service.config.url.rstrip("/")
                assert tr.gettext(league_mail.DONE["LEAGUE"], number=league, url=f"{base}/leagues/{league}") in text
                assert tr.gettext(league_mail.DONE["TOURNAMENT"], number=cup, url=f"{base}/tournaments/{cup}") in text
                assert tr.gettext("%(tournament)s is over. The final standings:", tournament="Coupe / Кубок") in text
            if email in playing:
                assert tr.gettext("Moderator: %(action)s", action=tr.gettext("pause")) in text
                assert tr.gettext("Moderator: %(action)s", action=tr.gettext("resume")) in text
                assert tr.gettext("The tournament organiser ruled game %(game)s: %(ruling)s",
                                  game=service.label(game_ids[0]), ruling=tr.gettext("The game is drawn.")) in text
        bye_subjects = [subject for email, lang in players.items() for subject, _, _ in office.read(email)
                        if subject == "[pbem] " + i18n.translate(lang, "%(tournament)s, round %(round)s: a bye",
                                                                tournament="Coupe / Кубок", round=1)]
        assert len(bye_subjects) == 1  # one player of three sits out round 1, told in his language
        refused = office.read("jean@example.fr")
        assert any(i18n.translate("fr", league_mail.NO_SUCH["LEAGUE"], number=999) in body
                   for _, body, _ in refused)
    finally:
        office.close()


def test_a_subject_in_another_script_keeps_its_spaces_when_folded(tmp_path):
    """The email package cut a long subject between two encoded words at a space, which RFC 2047
    then drops ("ви граєте" read "виграєте"): the server folds it itself."""
    import email.policy

    from pbem.server.mail.outbox import build_email

    store = Store(tmp_path / "pbem.sqlite3")
    subjects = ["[pbem 1] Ласкаво просимо: ви граєте за Австрія",
                "[pbem 12] Модератор: продовження — строк зсунуто на 5 годин пізніше, і ще довгий рядок теми",
                "[pbem 3] Bienvenue : vous jouez Autriche", "[pbem 3] 欢迎：你执掌 奥地利", "[pbem 4] plain"]
    for subject in subjects:
        from pbem.server.mail.outbox import queue

        row = store.mail("WHERE id = ?", (queue(store, ANNA, subject, "body"),))
        raw = build_email(row).as_bytes(policy=email.policy.SMTP)
        head = raw.split(b"\r\n\r\n")[0]
        assert all(len(line) <= 78 for line in head.split(b"\r\n")), head
        assert email.message_from_bytes(raw, policy=email.policy.default)["Subject"] == subject
    store.close()
