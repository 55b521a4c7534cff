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
