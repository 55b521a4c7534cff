"""Triomphe à Marengo on the web: the new-game form offers it, the game page, its orders
form, its report and its map work for each side, and orders sent there are checked by
Triomphe's own rules (the same answer as by mail)."""

import html

import pytest
from websupport import ANNA, FRED, Site, csrf


@pytest.fixture
def site(tmp_path):
    return Site(tmp_path)


def test_a_triomphe_game_is_played_on_the_web(site):
    anna = site.client(ANNA)
    form = anna.get("/games/new").text
    assert 'value="triomphe:triomphe.toml"' in form and "Triomphe à Marengo" in html.unescape(form)
    created = anna.post("/games/new", data={"csrf_token": anna.csrf, "title": "Triomphe", "seat": "austria",
                                            "scenario": "triomphe:triomphe.toml", "hours": "24"})
    assert created.status_code == 302, created.text
    game_id = int(created.headers["Location"].rstrip("/").split("/")[-1])
    assert site.service.info(game_id)["ruleset"] == "triomphe"
    fred = site.client(FRED)
    assert fred.post(f"/games/{game_id}/join", data={"csrf_token": fred.csrf, "side": "france"}).status_code == 302
    page = anna.get(f"/games/{game_id}?side=austria")
    assert page.status_code == 200 and "Triomphe à Marengo" in html.unescape(page.text)
    game = site.service.game(game_id)
    bot = game.ruleset.bots()["bot"]
    text = bot.orders(game.scenario, game.view("austria"), 1)
    answer = anna.post(f"/games/{game_id}/orders", data={"csrf_token": csrf(page.text), "side": "austria",
                                                          "text": text, "action": "submit"})
    assert answer.status_code in (200, 302, 303)
    assert site.service.orders_on_file(game_id, "austria").strip()
    wrong = anna.post(f"/games/{game_id}/orders", data={"csrf_token": csrf(page.text), "side": "austria",
                                                         "text": "MARCH NOBODY -> Nowhere", "action": "check"},
                      follow_redirects=True)  # post-redirect-get: the answer is on the page it leads to
    assert "NOT accepted" in html.unescape(wrong.text)
    site.service.resolve_next(game_id)
    site.service.rasterise = lambda svg: b"png"
    site.service.run_jobs()
    day = anna.get(f"/games/{game_id}/reports/0?side=austria")
    assert day.status_code == 200
    svg = fred.get(f"/api/games/{game_id}/map/0.svg?side=france")
    assert svg.status_code == 200 and b"<svg" in svg.data[:300]
    assert anna.get(f"/api/games/{game_id}/map/0.svg?side=france").status_code == 403  # not Anna's side


def test_a_triomphe_game_is_played_to_its_end_through_the_web_forms(site):
    """Every turn's orders posted on the game page by the seat's player (the simple bot's
    orders, written from the player's own view); the clock resolves each turn."""
    site.service.rasterise = lambda svg: b"png"
    game_id, _ = site.service.create_game("Whole game", {"austria": ANNA, "france": FRED}, game="triomphe", seed=4,
                                          settings={"hours": 24})
    players = {"austria": site.client(ANNA), "france": site.client(FRED)}
    game = site.service.game(game_id)
    bot = game.ruleset.bots()["bot"]
    turns = 0
    while not game.over:
        seat = game.turn().seats[0]
        client = players[seat]
        page = client.get(f"/games/{game_id}?side={seat}")
        assert page.status_code == 200
        text = bot.orders(game.scenario, game.view(seat), 4)
        posted = client.post(f"/games/{game_id}/orders", data={"csrf_token": csrf(page.text), "side": seat,
                                                                "text": text, "action": "submit"})
        assert posted.status_code in (200, 302, 303), posted.text
        assert site.service.orders_on_file(game_id, seat).strip(), f"turn {game.day}: {seat}'s orders not on file"
        day = game.day
        assert site.service.resolve_next(game_id) == day
        site.service.run_jobs()
        game = site.service.game(game_id)
        turns += 1
    assert turns == len(game.days) and site.service.info(game_id)["status"] == "finished"
    final = players["austria"].get(f"/games/{game_id}?side=austria")
    assert final.status_code == 200 and "finished" in final.text
    assert site.service.export(game_id)["ruleset"] == "triomphe"
