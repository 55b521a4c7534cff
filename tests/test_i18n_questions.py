"""An "ask me" question in its reader's language (issue 17): the mail that puts it and the game page that
shows it read the question and its choices as the rules wrote them, in the seat's language; the answer is
still taken by key or by the label the player read."""

from __future__ import annotations

import html
import json

from websupport import ANNA, FRED, Site

from pbem.core.decisions import Decision
from pbem.core.ruleset import decision_in
from pbem.games.marengo.bot import bot_orders
from pbem.games.marengo.ruleset import RULESET as MARENGO
from pbem.server import deadlines

LANGS = {ANNA: "uk", FRED: "fr"}


def test_a_question_is_put_in_the_seats_language_by_mail_and_on_the_page(tmp_path):
    site = Site(tmp_path)
    service = site.service
    for email, lang in LANGS.items():
        site.store.set_language(email, lang)
    game_id, _ = site.game(settings={"hours": 48, "ask": sorted(MARENGO.ask_kinds)})
    pending = None
    for _ in range(40):
        pending = service.info(game_id).get("pending")
        if pending or service.game(game_id).over:
            break
        game = service.game(game_id)
        side = game.turn().seats[0]
        assert service.submit(game_id, side, bot_orders(game.scenario, game.view(side), 5)).ok
        service.resolve_next(game_id)
        service.run_jobs()
    assert pending, "no question was put in the whole game"
    side = pending["decision"]["side"]
    email = service.seat(game_id, side)["email"]
    lang = LANGS[email]
    d = pending["decision"]
    english = Decision(d["side"], d["kind"], d["question"], tuple(d["options"]), tuple(d["default"]),
                       tuple(d["labels"].items()), d["min"], d["max"])
    game = service.game(game_id)
    asked = game.pending.decision if game.pending else english
    shown = decision_in(game.ruleset, game.scenario, asked, lang)
    assert shown.question != english.question  # the rules wrote it as a Text: it reads in the seat's language
    assert pending["said"][lang]["question"] == shown.question

    mail = [m for m in site.store.mails("WHERE kind = 'question' ORDER BY id")][-1]
    assert mail["to_addr"] == email
    body = mail["body"]
    assert shown.question in body and english.question not in body
    assert all(shown.label(key) in body for key in english.options)

    page = html.unescape(site.client(email).get(f"/games/{game_id}?side={side}").text)
    assert shown.question in page and english.question not in page
    assert all(shown.label(key) in page for key in english.options)
    when, zone = deadlines.parse_iso(pending["deadline"]), service.seat(game_id, side)["timezone"]
    assert deadlines.local_time(when, zone, lang=lang) in page  # its deadline in the reader's words
    assert deadlines.local_time(when, zone) not in page
    # an English reader of the page reads the English question
    site.store.set_language(email, "en")
    page = html.unescape(site.client(email).get(f"/games/{game_id}?side={side}").text)
    assert english.question in page and deadlines.local_time(when, zone) in page


def test_a_game_without_translations_asks_in_its_own_words():
    class Plain:
        pass

    decision = Decision("a", "k", "Which way?", ("x", "y"), ("x",), (("x", "Left"), ("y", "Right")))
    assert decision_in(Plain(), None, decision, "fr") is decision
    assert json.dumps(decision.to_dict())  # what the server keeps is the English, as before


def test_every_games_seats_are_titled_in_the_readers_language(tmp_path):
    """The seats' titles a mail or page shows (``Service.seat_titles``) come from each game's own catalog."""
    from pbem.games import rulesets

    site = Site(tmp_path)
    for name, rules in sorted(rulesets().items()):
        scenario = next(iter(rules.scenarios().values())).name
        seats = [seat.id for seat in rules.seats(site.service.scenario(name, scenario), {
            option.name: option.default for option in rules.options()})]
        game_id, _ = site.service.create_game(f"Titles {name}", {seat: ANNA for seat in seats}, scenario=scenario,
                                              seed=1, game=name)
        english = site.service.seat_titles(game_id)
        for lang in ("fr", "ru", "uk", "zh"):
            titles = site.service.seat_titles(game_id, lang)
            assert set(titles) == set(english)
            same = {"France"} if lang == "fr" else set()  # a name French writes as English does
            assert all(titles[seat] != english[seat] for seat in english if english[seat] not in same), \
                (name, lang, titles)


def test_the_new_game_form_names_a_games_decisions_and_computer_players_in_the_readers_language(tmp_path):
    site = Site(tmp_path)
    site.store.set_language(FRED, "fr")
    page = html.unescape(site.client(FRED).get("/games/new").text)
    assert "bloquer une manœuvre d'attaque dans votre lieu" in page and "le stratège" in page
    assert "block an attack maneuver into your locale" not in page
    english = html.unescape(site.client(ANNA).get("/games/new").text)
    assert "block an attack maneuver into your locale" in english and "the strategist" in english
