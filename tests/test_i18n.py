"""Each reader in his own language (issue 17), the server's side: every page of pbem.tools.pages in
French, Russian, Ukrainian and Chinese with no English text of the catalog left, the page's
<html lang>, the language chooser (profile, cookie, Accept-Language), and every kind of server mail
in its reader's language, with the mail command LANGUAGE."""

from __future__ import annotations

import re
from datetime import datetime, timezone
from email.message import EmailMessage
from pathlib import Path

import pytest
from conftest import Clock
from i18n_sweep import english_in_mail, english_left

from pbem.core.orders import core_tongue
from pbem.server import i18n, inbox
from pbem.server.mail import commands
from pbem.server.service import Service
from pbem.server.store import Store
from pbem.tools.pages import PLAYER, page_site

LANGS = ["fr", "ru", "uk", "zh"]
# words on the pages that come from the games and the sweep may leave out: none now (seat titles, options,
# the replay's map are read through each game's catalog: tests/test_i18n_forms.py sweeps those catalogs)
GAME_WORDS: set[str] = set()
SMALL = str((Path(__file__).parent / "fixtures" / "small.toml").resolve())


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    with page_site(tmp_path_factory.mktemp("i18n-pages")) as site:
        yield site


def client(site, who: str, lang: str | None = None, accept: str | None = None):
    c = site.app.test_client()
    if site.who(who):
        c.set_cookie("pbem_session", site.cookie(site.who(who)).split("=", 1)[1])
    if lang:
        c.set_cookie(i18n.COOKIE, lang)
    if accept:
        c.environ_base["HTTP_ACCEPT_LANGUAGE"] = accept
    return c


@pytest.mark.parametrize("lang", LANGS)
def test_every_page_in_each_language_leaves_no_english_text_of_the_catalog(site, lang):
    left = {}
    for who, paths in site.pages().items():
        c = client(site, who, lang)
        for path in paths:
            page = c.get(path)
            assert page.status_code in (200, 404), (path, page.status_code)
            assert f'<html lang="{i18n.HTML_LANG.get(lang, lang)}">' in page.text, path
            english = english_left(page.text, lang) - GAME_WORDS
            if english:
                left[f"{who} {path}"] = sorted(english)
    assert not left, left


def test_the_sweep_finds_english_left_in_a_page():
    """The sweep can fail: an English page read as French shows its texts."""
    page = "<html><body><h1>My games</h1><p title='Sign in'>x</p><section id='report'><p>My games</p></section></body></html>"
    assert english_left(page, "fr") == {"My games", "Sign in"}


def test_the_page_language_follows_accept_language_then_the_cookie_then_the_profile(site):
    assert '<html lang="fr">' in client(site, "signed out", accept="fr-CH, en;q=0.5").get("/login").text
    assert '<html lang="en">' in client(site, "signed out", accept="de, es;q=0.5").get("/login").text
    assert '<html lang="zh-Hans">' in client(site, "signed out", accept="zh-CN").get("/login").text
    c = client(site, "signed out", accept="fr")
    page = c.get("/login")
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    chosen = c.post("/language", data={"lang": "uk", "next": "/login", "csrf_token": csrf})
    assert chosen.status_code == 303 and chosen.headers["Location"].endswith("/login")
    assert '<html lang="uk">' in c.get("/login").text and "Увійти" in c.get("/login").text
    # a bad code, a post without the form's token, a foreign "next": refused, refused, kept on this site
    assert c.post("/language", data={"lang": "ru"}).status_code == 400
    assert '<html lang="uk">' in c.get("/login").text
    assert c.post("/language", data={"lang": "xx", "csrf_token": csrf}).status_code == 400
    assert c.post("/language", data={"lang": "ru", "next": "//evil.example/", "csrf_token": csrf}
                  ).headers["Location"] == "/"
    # signed in, the choice goes to the player's profile, where his mails find it too
    player = client(site, "player", accept="fr")
    page = player.get("/")
    assert '<html lang="fr">' in page.text
    csrf = re.search(r'name="csrf_token" value="([^"]+)"', page.text).group(1)
    player.post("/language", data={"lang": "ru", "next": "/", "csrf_token": csrf})
    assert site.service.store.language_of(PLAYER) == "ru"
    fresh = client(site, "player", lang="zh", accept="fr")  # another browser, another cookie: the profile wins
    assert '<html lang="ru">' in fresh.get("/").text
    site.service.store.set_language(PLAYER, None)


def test_every_page_has_the_language_chooser_without_script(site):
    for who, paths in site.pages().items():
        c = client(site, who, "fr")
        for path in paths:
            page = c.get(path).text
            form = re.search(r'<form[^>]*action="/language".*?</form>', page, re.S)
            assert form, path
            assert '<label class="inline" for="language-choice">Langue</label>' in form.group(0)
            assert all(f'value="{code}"' in form.group(0) for code in i18n.LANGUAGES)
            assert '<option value="fr" lang="fr" selected>' in form.group(0)


def test_the_game_page_hands_its_script_texts_and_plural_forms_in_the_readers_language(site):
    page = client(site, "moderator", "ru").get(f"/games/{site.demo}?side=austria").text
    texts = re.search(r'<script type="application/json" id="page-texts">(.*?)</script>', page, re.S)
    import json

    texts = json.loads(texts.group(1))
    assert texts["No block chosen."] == "Блок не выбран."
    day = texts["units"]["day"]  # by CLDR category, as the browser's Intl.PluralRules("ru") picks them
    assert (day["one"], day["few"], day["many"]) == ("{n} день", "{n} дня", "{n} дней")


# -- mails ------------------------------------------------------------------------------------


def mail(text, sender):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "orders"
    msg.set_content(text)
    return msg.as_bytes()


def deliver(service, text, sender="anna@example.org"):
    inbound_id, _ = inbox.receive(service, mail(text, sender), "smtp")
    return inbox.process(service, inbound_id)


def mails(service, to, kind=None):
    rows = service.store.mails("WHERE to_addr = ? ORDER BY id", (to,))
    return [r for r in rows if kind is None or r["kind"] == kind]


@pytest.fixture(params=LANGS)
def world(request, tmp_path):
    lang = request.param
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    service.rasterise = lambda svg: b"png"
    for email in ("anna@example.org", "fred@example.org"):
        service.store.set_language(email, lang)
    game_id, keys = service.create_game("Langues", {"austria": "anna@example.org", "france": "fred@example.org"},
                                        scenario=SMALL, seed=2, settings={"hours": 48, "reminders": [24],
                                                                          "grace_minutes": 60})
    return lang, service, clock, game_id, keys


def test_every_kind_of_server_mail_is_in_its_readers_language(world):
    lang, service, clock, game_id, keys = world
    tr = i18n.translator(lang)
    header = f"GAME {game_id} KEY {keys['austria']}"
    deliver(service, "HELP")
    deliver(service, f"{header}\nSTATUS")
    deliver(service, f"{header}\nNO SUCH ORDER HERE")
    clock.advance(hours=25)
    service.tick()  # the 24-hour reminder
    clock.advance(hours=23, minutes=30)
    service.tick()  # the deadline passed without Austria's orders: France is told, in the grace time
    clock.advance(hours=2)
    service.tick()
    service.run_jobs()  # the day resolved without Austria's orders: the reports

    anna = mails(service, "anna@example.org")
    by_kind = {}
    for row in anna:
        by_kind.setdefault(row["kind"], []).append(row)
    welcome = by_kind["welcome"][0]
    assert tr.gettext("Welcome: you play %(seat)s", seat=service.seat_title(game_id, "austria", lang)) in welcome["subject"]
    assert tr.gettext("Your secret key for this seat is: %(key)s", key=keys["austria"]) in welcome["body"]
    help_, status, refusal = by_kind["reply"][:3]
    assert help_["body"].startswith(inbox.HELP(lang)[:30])
    assert commands.words_in(lang)["LANGUAGE"] + " <" in help_["body"]  # the list in the reader's words
    assert tr.gettext("Status") in status["subject"]
    assert tr.gettext("Orders from %(seat)s: not yet.", seat=service.seat_title(game_id, "austria", lang)) in status["body"]
    assert tr.gettext("Orders NOT accepted") in refusal["subject"]
    frame = core_tongue(lang).gettext("line %(line)d, column %(column)d: %(message)s", line=2, column=1, message="")
    assert frame[:8] in refusal["body"]  # the problem's frame, from the core's catalog
    reminder = by_kind["reminder"][0]
    assert all(part in reminder["subject"] for part in tr.gettext("Reminder: orders due for %(turn)s", turn="§").split("§"))
    report = by_kind["report"][0]
    assert report["body"].startswith(tr.gettext("No orders from you arrived for this day before its deadline: it "
                                                "was played with your standing orders only, and counts as a "
                                                "missed day."))
    late = mails(service, "fred@example.org", "late")[0]
    assert tr.gettext("Late: %(seats)s", seats=service.seat_title(game_id, "austria", lang)) in late["subject"]
    for row in [welcome, help_, status, refusal, reminder, late]:
        assert english_in_mail(row["subject"] + "\n" + row["body"], lang) == set(), (row["kind"], row["subject"])


def test_the_mail_command_language_changes_the_language_of_the_next_mails(world):
    lang, service, clock, game_id, keys = world
    other = "fr" if lang != "fr" else "uk"
    deliver(service, f"GAME {game_id} KEY {keys['austria']}\nLANGUAGE {other.upper()}")
    answer = mails(service, "anna@example.org", "reply")[-1]
    assert i18n.translate(other, "From now on the server writes to you in English.") in answer["body"]
    assert service.store.language_of("anna@example.org") == other
    assert service.store.language_of("fred@example.org") == lang  # the other player's stays his
    deliver(service, f"GAME {game_id} KEY {keys['austria']}\nSTATUS")
    assert i18n.translate(other, "Status") in mails(service, "anna@example.org", "reply")[-1]["subject"]
    deliver(service, f"GAME {game_id} KEY {keys['austria']}\nLANGUAGE klingon")
    refused = mails(service, "anna@example.org", "reply")[-1]
    assert commands.words_in(other)["LANGUAGE"] + " fr" in refused["body"]  # МОВА fr: the reader's word
    assert service.store.language_of("anna@example.org") == other
    deliver(service, f"GAME {game_id} KEY {keys['austria']}\n{commands.words_in(other)['LANGUAGE']} русский")
    assert service.store.language_of("anna@example.org") == "ru"  # a language by its own name, in his word


def test_the_mails_of_a_player_who_never_chose_stay_english(tmp_path):
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    service = Service(Store(tmp_path / "pbem.sqlite3", clock=clock), clock=clock)
    service.create_game("Plain", {"austria": "anna@example.org", "france": "fred@example.org"}, scenario=SMALL,
                        seed=2, settings={"hours": 48})
    welcome = mails(service, "anna@example.org", "welcome")[0]
    assert "Welcome: you play Austria" in welcome["subject"] and "Deadline: " in welcome["body"]
