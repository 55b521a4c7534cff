"""Spectators and the replay page, for every installed game (issue 16 §5 and §7): a public game
with a ``spectator_delay`` is watched while it is played in the neutral view only, that many days
behind, with no block that a side hides from its enemy; once it is over, its replay steps day by
day through each side's view and the neutral view. Through the web pages, on a real database,
the games played by the games' own bots (all seats but one; the last one sends no orders)."""

from __future__ import annotations

import html
import re

import pytest

from pbem.core.ruleset import SPECTATOR
from pbem.core.ruleset import options_of
from pbem.games import ruleset

from websupport import MOD, Site

GAMES = [("marengo", {}), ("triomphe", {}), ("napoleon1815", {"players": "2"}), ("napoleon1815", {"players": "3"})]
DELAY = 1


@pytest.fixture
def site(tmp_path):
    site = Site(tmp_path)
    site.service.rasterise = lambda svg: b"png"  # the mailed maps' pictures are not what is tested here
    yield site
    site.store.close()


def watched_game(site, name: str, options: dict, days: int) -> tuple[int, list[str]]:
    """A game of ``name`` with the spectator delay, ``days`` days resolved; its seat ids."""
    rules = ruleset(name)
    scenario = next(iter(rules.scenarios().values()))
    seats = [s.id for s in rules.seats(rules.load_scenario(scenario), options_of(rules, options))]
    bot = next(iter(rules.bots()))
    game_id, _ = site.service.create_game(
        "Watched", {seats[0]: "anna@example.org"}, scenario=scenario.name, seed=11, moderator=MOD,
        settings={"hours": 48, "spectator_delay": DELAY}, game=name, options=options,
        bots={seat: bot for seat in seats[1:]})
    for _ in range(days):
        site.service.resolve_next(game_id)
        site.service.run_jobs()
    assert len(site.service.game(game_id).days) == days and not site.service.game(game_id).over
    return game_id, seats


def svg_of(page: str) -> str:
    """The map drawn on a page (or an SVG alone), its entities read."""
    return html.unescape(page[page.index("<svg"):page.rindex("</svg>") + 6])


@pytest.mark.parametrize("name,options", GAMES, ids=["marengo", "triomphe", "napoleon1815-2", "napoleon1815-3"])
def test_a_watched_game_shows_the_neutral_view_only_then_every_view_once_over(site, name, options):
    days = 4
    game_id, seats = watched_game(site, name, options, days)
    game = site.service.game(game_id)
    anon = site.client()
    # while it is played: the neutral view only, DELAY days behind the last day resolved
    page = anon.get(f"/games/{game_id}/replay")
    assert page.status_code == 200 and f"day {days - DELAY - 1} of {days - DELAY - 1}" in page.text
    assert anon.get(f"/games/{game_id}/replay?day={days - DELAY}").status_code == 404
    for seat in seats:
        assert anon.get(f"/games/{game_id}/replay?day=0&view={seat}").status_code == 404
    for day in range(days - DELAY):
        shown = anon.get(f"/games/{game_id}/replay?day={day}&view=neutral").text
        expected = game.ruleset.render_svg(game.scenario, game.view(SPECTATOR, day), title=site.service.label(game_id))
        assert svg_of(shown) == svg_of(expected)
        hidden = game.view(None, day)["blocks"]
        assert hidden  # the moderator's view of that day holds every block ...
        drawn = svg_of(shown)
        for block in hidden:  # ... and the onlookers' map writes none of their ids or names
            assert f">{block['id']}<" not in drawn and f'"{block["id"]}"' not in drawn, (day, block["id"])
            if block.get("name"):
                assert f">{block['name']}<" not in drawn, (day, block["name"])
        for seat in seats:  # no side's own drawing either, where it shows blocks of its own
            seen = game.view(seat, day)
            if seen["blocks"]:
                own = game.ruleset.render_svg(game.scenario, seen, title=site.service.label(game_id))
                assert svg_of(shown) != svg_of(own), (day, seat)
    # the moderator sees every view at any time
    moderator = site.client(MOD)
    assert all(moderator.get(f"/games/{game_id}/replay?day={days - 1}&view={seat}").status_code == 200
               for seat in seats)

    # over (the first seat resigns): every view of every day opens, a seat's view being its own
    site.service.resign(game_id, seats[0])
    game = site.service.game(game_id)
    assert game.over
    total = len(game.days)
    for day in range(total):
        pages = {view: anon.get(f"/games/{game_id}/replay?day={day}&view={view}") for view in ["neutral"] + seats}
        assert all(p.status_code == 200 for p in pages.values()), day
        for seat in seats:
            own = game.ruleset.render_svg(game.scenario, game.view(seat, day), title=site.service.label(game_id))
            assert svg_of(pages[seat].text) == svg_of(own), (day, seat)
    views = re.findall(r"view=([\w-]+)", anon.get(f"/games/{game_id}/replay?day=0").text)
    assert set(seats) <= set(views)  # the page links each side's view


@pytest.mark.parametrize("name", ["marengo", "triomphe"])
def test_a_spectators_map_is_captioned_as_a_spectators(site, name):
    """The Marengo family's maps say whose view they are: an onlooker's is neither a side's ("seen by Austria") nor
    the moderator's ("moderator's view: every block"), while the game is played (the replay's neutral view) and once
    it is over (the game page's map, the JSON API's); the moderator's map stays the moderator's."""
    game_id, seats = watched_game(site, name, {}, 3)
    anon, moderator = site.client(), site.client(MOD)
    watched = svg_of(anon.get(f"/games/{game_id}/replay?day=0&view=neutral").text)
    assert "spectator's view: what both sides see" in watched
    assert "moderator's view" not in watched and "seen by" not in watched
    assert "moderator's view: every block" in moderator.get(f"/games/{game_id}/map/now.svg").text
    site.service.resign(game_id, seats[0])
    for url in (f"/games/{game_id}/map/now.svg", f"/api/games/{game_id}/map/now.svg"):
        shown = svg_of(anon.get(url).text)
        assert "spectator's view: every block" in shown and "moderator's view" not in shown, url
    assert "moderator's view: every block" in moderator.get(f"/games/{game_id}/map/now.svg").text
    french = svg_of(site.client().get(f"/games/{game_id}/replay?day=0&view=neutral",
                                      headers={"Accept-Language": "fr"}).text)
    assert "vue des spectateurs" in french
