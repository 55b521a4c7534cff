"""Around each game on the web (Flask's test client, a real database): offering, declining and
accepting a draw, resigning (with its confirmation), and vacations scheduled ahead."""

from __future__ import annotations

import pytest

from websupport import ANNA, FRED, Site


@pytest.fixture
def site(tmp_path):
    site = Site(tmp_path)
    yield site
    site.store.close()


def post(client, url, **data):
    return client.post(url, data={"csrf_token": client.csrf, **data})


def test_a_draw_offered_declined_and_accepted_on_the_game_page(site):
    game_id, _ = site.game()
    anna, fred = site.client(ANNA), site.client(FRED)
    assert "Offer a draw" in anna.get(f"/games/{game_id}?side=austria").text
    assert post(anna, f"/games/{game_id}/draw/offer", side="austria").status_code == 302
    page = anna.get(f"/games/{game_id}?side=austria").text
    assert "stands until the coming day is resolved" in page and "Offer a draw" not in page
    page = fred.get(f"/games/{game_id}?side=france").text
    assert "Austria offers a draw" in page and "Accept the draw" in page
    assert post(fred, f"/games/{game_id}/draw/decline", side="france").status_code == 302
    assert "declined the draw" in fred.get(f"/games/{game_id}?side=france").text
    assert post(fred, f"/games/{game_id}/draw/maybe", side="france").status_code == 400
    assert post(anna, f"/games/{game_id}/draw/accept", side="austria").status_code == 400  # nothing to accept
    post(fred, f"/games/{game_id}/draw/offer", side="france")
    assert post(anna, f"/games/{game_id}/draw/accept", side="austria").status_code == 302
    game = site.service.game(game_id)
    assert game.over and game.view(None)["winner"] is None
    assert "is drawn by agreement" in anna.get(f"/games/{game_id}?side=austria").text


def test_resigning_needs_the_box_ticked_and_ends_the_game(site):
    game_id, _ = site.game()
    fred = site.client(FRED)
    response = post(fred, f"/games/{game_id}/resign", side="france")
    assert response.status_code == 400 and "a resignation is final" in response.text
    assert not site.service.game(game_id).over
    assert post(fred, f"/games/{game_id}/resign", side="france", confirm="yes").status_code == 302
    assert site.service.game(game_id).view(None)["winner"] == "austria"
    page = fred.get(f"/games/{game_id}?side=france").text
    assert "You resigned" in page and "Resign" not in page.split('id="audit"')[0].replace("You resigned", "")


def test_vacations_page_schedules_lists_and_cancels(site):
    anna = site.client(ANNA)
    page = anna.get("/vacations")
    assert page.status_code == 200 and "None scheduled" in page.text and "A year allows 28 days" in page.text
    assert post(anna, "/vacations", starts="2030-07-01", ends="2030-07-10").status_code == 302
    page = anna.get("/vacations").text
    assert "2030-07-01T00:00:00Z" in page and "2030-07-11T00:00:00Z" in page and "<td>10</td>" in page
    response = post(anna, "/vacations", starts="2030-07-05", ends="2030-07-06")
    assert response.status_code == 400 and "overlaps" in response.text
    response = post(anna, "/vacations", starts="soon", ends="2030-07-06")
    assert response.status_code == 400 and "not a date" in response.text
    vid = site.service.vacations_of(ANNA)[0]["id"]
    assert post(site.client(FRED), "/vacations", cancel=str(vid)).status_code == 400  # not his
    assert post(anna, "/vacations", cancel=str(vid)).status_code == 302
    assert site.service.vacations_of(ANNA) == []
