"""Issue 17's done-when: a game of Bonaparte at Marengo played by a French player against a
Ukrainian player, over the real SMTP receiver, a real SMTP relay and the real HTTP server. Each
signs in on the web (the sign-in link comes by mail, in the language his browser asks for),
chooses his language with the page's chooser, gets his welcome, acknowledgements and reports by
mail in it, writes his orders in it (the order words of pbem/games/marengo/words.toml), and reads
his game's page and map in it. Three days of play.

Still English, by design or left (docs/translating.md): the seat titles the game gives
("Austria", "France" in the server's sentences), the games' titles (a tournament's included),
the order words echoed inside the server's frame where the game keeps them English, and the
operator's CLI."""

from __future__ import annotations

import html
import re
from datetime import datetime, timezone

import pytest
from conftest import Clock
from i18n_post import PostOffice
from i18n_sweep import english_in_mail, english_left

from pbem.server import i18n

JEAN, TARAS = "jean@example.fr", "taras@example.ua"


@pytest.fixture
def office(tmp_path):
    clock = Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc))
    office = PostOffice(tmp_path, clock, web=True)
    yield office
    office.close()


def sign_in(office, email: str, lang: str):
    """A new reader whose browser asks for ``lang``: the sign-in page, the link by mail, the
    chooser. Returns his browser, signed in."""
    browser = office.browser(f"{lang},en;q=0.5")
    status, page = browser.get("/login")
    assert status == 200 and f'<html lang="{i18n.HTML_LANG.get(lang, lang)}"' in page
    browser.post("/login", {"email": email})
    subject, body, _ = office.read(email)[-1]
    tr = i18n.translator(lang)
    assert subject == "[pbem] " + tr.gettext("Your sign-in link")  # in the language his browser asked for
    assert english_in_mail(body, lang) == set()
    link = re.search(r"https?://\S+/login/\S+", body).group(0)
    browser.sign_in(link)
    browser.get("/")
    status, _ = browser.post("/language", {"lang": lang, "next": "/"})
    assert status == 200 and office.store.language_of(email) == lang  # kept with his address: his mails follow
    return browser


def mails_since(office, email: str, count: int):
    return office.read(email)[count:]


def test_a_french_player_against_a_ukrainian_player(office):
    service = office.service
    jean, taras = sign_in(office, JEAN, "fr"), sign_in(office, TARAS, "uk")
    seen = {JEAN: len(office.read(JEAN)), TARAS: len(office.read(TARAS))}
    game_id, keys = service.create_game("Marengo, 14 juin 1800 / 14 червня 1800", {"austria": TARAS, "france": JEAN},
                                        settings={"hours": 48})
    fr, uk = i18n.translator("fr"), i18n.translator("uk")

    def new_mail(email):
        rows = office.read(email)[seen[email]:]
        seen[email] += len(rows)
        return rows

    welcome = {email: new_mail(email) for email in (JEAN, TARAS)}
    assert (service.seat_title(game_id, "france", "fr"), service.seat_title(game_id, "austria", "uk")) == \
        ("France", "Австрія")  # the game's own words for its seats (its catalog)
    assert any(s == f"[pbem {game_id}] " + fr.gettext("Welcome: you play %(seat)s", seat="France")
               for s, _, _ in welcome[JEAN])
    assert any(s == f"[pbem {game_id}] " + uk.gettext("Welcome: you play %(seat)s", seat="Австрія")
               for s, _, _ in welcome[TARAS])

    days = [  # each in his own words: Ukrainian for Austria, French for France
        (TARAS, "uk", "austria", "УВІЙТИ A1 A2 A3 ЧЕРЕЗ МАРШ ПУНКТ Bormida bridge\nКІНЕЦЬ"),
        (JEAN, "fr", "france", "PERMANENT POURSUIVRE JAMAIS\nFIN"),
        (TARAS, "uk", "austria", "ПОСТІЙНО ПЕРЕСЛІДУВАТИ НІКОЛИ\nКІНЕЦЬ"),
    ]
    for day, (email, lang, side, orders) in enumerate(days):
        assert side in service.game(game_id).turn().seats
        office.send(email, f"GAME {game_id} KEY {keys[side]}\n{orders}")
        service.tick()  # the server's clock: FINAL lets the day be resolved at once
        assert service.game(game_id).day == day + 1
        tr = i18n.translator(lang)
        for reader, reader_lang in ((JEAN, "fr"), (TARAS, "uk")):
            rows = new_mail(reader)
            for subject, body, raw in rows:
                assert english_in_mail(subject + "\n" + body, reader_lang) == set(), (reader, subject)
            if reader == email:
                assert any(tr.gettext("Orders accepted") in subject for subject, _, _ in rows), [r[0] for r in rows]
            reports = [(subject, body, raw) for subject, body, raw in rows if office.attachment(raw, "view.json")]
            assert reports, (reader, [r[0] for r in rows])
            print(reader, reports[-1][0], reports[-1][1][:3000])
    # his pages and his map, over HTTP, in his language
    for browser, lang, side in ((jean, "fr", "france"), (taras, "uk", "austria")):
        status, page = browser.get(f"/games/{game_id}?side={side}")
        assert status == 200 and f'<html lang="{lang}"' in page
        assert english_left(page, lang) == set()
        status, svg = browser.get(f"/api/games/{game_id}/map/1.svg?side={side}")
        assert status == 200 and "<svg" in svg
        english = service.map_svg(game_id, 1, side, "en")
        assert html.unescape(svg) != html.unescape(english)  # drawn in his language, not in English
