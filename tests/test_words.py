"""Words a player reads (issue 33, item 6): a game's title not followed by the game's name it holds already, a HELP
mail listing every seat its address holds, Triomphe's map header saying whose orders were spent, and the echo of
accepted orders in the words they were written in. Through the real SMTP receiver and relay (tests/i18n_post.py);
the sweep of whole games for ids where a name belongs is tests/test_words_sweep.py."""

from __future__ import annotations

from datetime import datetime, timezone

import pytest
from conftest import Clock
from i18n_post import PostOffice

ANNA, BORIS = "anna@example.org", "boris@example.org"


@pytest.fixture
def office(tmp_path):
    office = PostOffice(tmp_path, Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)))
    yield office
    office.close()


def welcome(office, email: str) -> str:
    """The welcome's first sentence."""
    return next(line for subject, body, _ in office.read(email) if "Welcome" in subject or "Bienvenue" in subject
                for line in body.splitlines() if line.startswith(("Welcome", "Bienvenue")))


def test_a_title_naming_the_game_is_not_followed_by_its_name_again(office):
    office.service.create_game("Demo: Bonaparte at Marengo", {"austria": ANNA, "france": BORIS})
    first = welcome(office, ANNA)
    assert first == "Welcome to game #1 Demo: Bonaparte at Marengo: you play Austria.", first
    office.service.create_game("Sunday", {"austria": BORIS, "france": ANNA}, game="triomphe")
    assert "Welcome to game #2 Sunday of Triomphe à Marengo: you play France." in [
        line for subject, body, _ in office.read(ANNA) for line in body.splitlines()]


def test_a_title_naming_the_game_in_the_readers_language_too(office):
    office.store.set_language(ANNA, "fr")
    office.service.create_game("Dimanche : Bonaparte à Marengo", {"austria": ANNA, "france": BORIS})
    first = welcome(office, ANNA)
    assert first == "Bienvenue dans la partie #1 Dimanche : Bonaparte à Marengo ; votre camp : Autriche.", first


@pytest.mark.parametrize("headed", [True, False], ids=["with GAME KEY", "alone"])
def test_help_lists_every_seat_its_address_holds(office, headed):
    """Two seats in one game (Napoleon 1815's Allies, one player) and one in another: HELP names the three."""
    service = office.service
    first, keys = service.create_game("Allies", {"french": BORIS, "anglo-dutch": ANNA, "prussian": ANNA},
                                      game="napoleon1815", options={"players": "2"})
    second, _ = service.create_game("Other", {"austria": ANNA, "france": BORIS})
    office.read(ANNA)
    office.send(ANNA, (f"GAME {first} KEY {keys['prussian']}\n" if headed else "") + "HELP\n")
    subject, body, _ = office.read(ANNA)[-1]
    assert "pbem: how to play by mail" in body
    listed = [line.strip() for line in body.splitlines() if line.startswith("  game ")]
    assert [line.split(": deadline")[0] for line in listed] == [
        f"game {second}, Austria", f"game {first}, Anglo-Dutch army (Wellington)",
        f"game {first}, Prussian army (Blücher)"], body


@pytest.mark.parametrize("lang,orders,echoed,english", [
    ("fr", "PERMANENT POURSUIVRE JAMAIS\nFIN", "PERMANENT POURSUIVRE JAMAIS\nFIN", "STANDING PURSUE NEVER"),
    ("ru", "ПОСТОЯННО ПРЕСЛЕДОВАТЬ НИКОГДА\nКОНЕЦ", "ПОСТОЯННО ПРЕСЛЕДОВАТЬ НИКОГДА\nКОНЕЦ", "STANDING PURSUE NEVER"),
])
def test_orders_are_echoed_in_the_words_they_were_written_in(office, lang, orders, echoed, english):
    """docs/glossary-marengo.md: "the acknowledgement echoes the accepted orders in the player's words". A player
    whose mails are in English (he chose no language) writes his orders in French or Russian: the echo is in the
    words he wrote; the acknowledgement's own sentences stay in his mails' language."""
    game_id, keys = office.service.create_game("Words", {"austria": ANNA, "france": BORIS})
    office.read(ANNA)
    office.send(ANNA, f"GAME {game_id} KEY {keys['austria']}\n{orders}")
    subject, body, _ = office.read(ANNA)[-1]
    lines = "\n".join(line.strip() for line in body.splitlines())
    assert "Orders accepted" in subject and "Orders accepted for game 1, Austria" in lines
    assert f"\n\n{echoed}\n\n" in lines and english not in lines, body


def lines_of(text: str) -> list[str]:
    return [line.strip() for line in text.splitlines() if line.strip()]


def echoed(body: str) -> list[str]:
    """An acknowledgement's echo: its first indented lines, to the next line that is not (blank lines left out)."""
    lines = body.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith("  "))
    out = []
    for line in lines[start:]:
        if line.strip() and not line.startswith("  "):
            break
        out += [line.strip()] if line.strip() else []
    return out


@pytest.mark.parametrize("game", ["marengo", "triomphe", "napoleon1815", "dba"])
@pytest.mark.parametrize("lang", ["fr", "ru", "uk", "zh"])
def test_every_game_echoes_orders_in_the_language_of_their_words(office, game, lang):
    """The bot's first orders of each game, written in ``lang``'s words (the game's own reading of them in that
    language, which its parser reads as the same orders), sent by a player whose mails are in English: the echo
    is those words, not the English ones; sent by a player whose mails are in ``lang`` but written in English
    words: the echo is English."""
    from pbem.games import ruleset

    service = office.service
    rules = ruleset(game)
    scenario = service.scenario(game, next(iter(rules.scenarios().values())).name)
    seats = [s.id for s in rules.seats(scenario, {})]
    game_id, keys = service.create_game("Words", {seats[0]: ANNA, **{s: BORIS for s in seats[1:]}}, seed=3,
                                        game=game)
    state = service.game(game_id)
    seat = state.turn().seats[0]
    english = rules.bots()["bot"].orders(state.scenario, state.view(seat), 11) + "\nFINAL"  # (a setup may be empty)
    checked = rules.check_orders(state.scenario, state.state, seat, english, lang="en")
    native = rules.check_orders(state.scenario, state.state, seat, english, lang=lang).echo()
    assert native != checked.echo(), "the orders have words of their own in the language"
    address = service.seat(game_id, seat)["email"]
    office.store.set_language(address, "en")
    office.read(address)
    office.send(address, f"GAME {game_id} KEY {keys[seat]}\n{native}")
    subject, body, _ = office.read(address)[-1]
    assert "Orders accepted" in subject, body
    assert echoed(body) == lines_of(native), body
    office.store.set_language(address, lang)
    office.send(address, f"GAME {game_id} KEY {keys[seat]}\n{english}")
    body = office.read(address)[-1][1]
    assert echoed(body) == lines_of(checked.echo()), body


@pytest.mark.parametrize("game,title", [("napoleon1815", "Napoleon 1815"), ("dba", "Napoleonic DBA")])
def test_a_report_of_a_game_titled_with_its_name_does_not_say_it_twice(office, game, title):
    from pbem.games import ruleset

    service = office.service
    rules = ruleset(game)
    scenario = service.scenario(game, next(iter(rules.scenarios().values())).name)
    seats = [s.id for s in rules.seats(scenario, {})]
    game_id, keys = service.create_game(f"Demo: {title}", {s: ANNA for s in seats}, seed=3, game=game)
    state = service.game(game_id)
    for seat in state.turn().seats:
        service.submit(game_id, seat, rules.bots()["bot"].orders(state.scenario, state.view(seat), 5) + "\nFINAL")
    service.resolve_next(game_id, ask=False)
    reports = [subject for subject, body, raw in office.read(ANNA)
               if office.attachment(raw, "view.json") and "Welcome" not in subject]
    assert reports and all(subject.count(title) == 1 for subject in reports), reports
    assert f"#{game_id} Demo: {title}: " in reports[0], reports


def test_the_game_page_echoes_orders_in_the_words_they_were_written_in(tmp_path):
    """The same answer on the web: a player reading the site in English submits Russian orders on the game page;
    the page that follows echoes them in Russian words."""
    from pbem.server.web.auth import make_login_token

    office = PostOffice(tmp_path, Clock(datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)), web=True)
    try:
        game_id, _ = office.service.create_game("Words", {"austria": ANNA, "france": BORIS})
        browser = office.browser("en")
        browser.sign_in(f"/login/{make_login_token(office.store, ANNA, office.service.now())}")
        browser.get(f"/games/{game_id}?side=austria")
        status, page = browser.post(f"/games/{game_id}/orders",
                                    {"side": "austria", "text": "ПОСТОЯННО ПРЕСЛЕДОВАТЬ НИКОГДА\n"})
        assert status == 200 and "Orders accepted" in page, page[-3000:]
        assert "ПОСТОЯННО ПРЕСЛЕДОВАТЬ НИКОГДА" in page and "STANDING PURSUE NEVER" not in page
    finally:
        office.close()


def test_the_language_of_orders_is_the_one_most_of_their_words_belong_to():
    """pbem/core/written.py: shared words count for each language that has them; none, or a tie, keeps the seat's."""
    from pbem.core.written import written_in

    words = {"en": frozenset({"MOVE", "TO", "DOCTRINE"}), "fr": frozenset({"DÉPLACER", "VERS", "DOCTRINE"}),
             "ru": frozenset({"МАРШ", "ШТУРМ"}), "uk": frozenset({"МАРШ", "ШТУРМ", "РУХ"}), "zh": frozenset({"移动", "到"})}
    assert written_in("GAME 1 KEY x\ndeplacer A1 vers Ligny\nDOCTRINE", words, "en") == "fr"  # accents optional
    assert written_in("MOVE A1 TO Ligny", words, "fr") == "en"
    assert written_in("移动A1到Ligny", words, "en") == "zh"  # Chinese written without spaces
    assert written_in("DOCTRINE", words, "fr") == "fr" and written_in("DOCTRINE", words, "ru") == "ru"  # a tie
    assert written_in("МАРШ A1 ШТУРМ", words, "en") == "en"  # Russian and Ukrainian tie: the seat's
    assert written_in("МАРШ A1 РУХ", words, "ru") == "uk"
    assert written_in("A1 Ligny", words, "zh") == "zh"  # no word: the seat's


def test_the_order_words_are_found_as_one_pattern_a_word_finds_them():
    """pbem/core/written.py puts a language's whole words under one pair of word bounds (tried once a place, not
    once a word): it finds the same phrases, in the same order, as one alternative a phrase, longest first, for
    every installed game's words in every language, in texts that glue, split and mix them."""
    import re
    from pbem.core.written import _is_cjk, _pattern, plain
    from pbem.games.dba.words import by_language as dba
    from pbem.games.marengo.words import WORDS as marengo
    from pbem.games.napoleon1815.words import by_language as napoleon1815
    from pbem.games.triomphe.ruleset import WORDS as triomphe

    def one_a_phrase(phrases):
        words = sorted({plain(p) for p in phrases if p.strip()}, key=len, reverse=True)
        return re.compile("|".join(re.escape(w) if _is_cjk(w) else rf"(?<!\w){re.escape(w)}(?!\w)" for w in words))

    for by_language in (marengo.by_language(), triomphe.by_language(), napoleon1815(), dba()):
        every = sorted(set().union(*by_language.values()))
        texts = [" ".join(every), "".join(every), "\n".join(every[::-1]), ",".join(every[::2]) + "A1" + "-".join(every)]
        for phrases in by_language.values():
            found = [_pattern(frozenset(phrases)).findall(plain(text)) for text in texts]
            assert found == [one_a_phrase(phrases).findall(plain(text)) for text in texts]
            assert len(found[0]) >= len({plain(p) for p in phrases if p.strip()})  # each of them, at least
