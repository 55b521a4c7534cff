"""Play against the computer: a seat played by one of the ruleset's bots, from the service and the
new-game form. It answers at once when its turn comes, through submit, recorded with source "bot"."""

from __future__ import annotations

import pytest
from websupport import ANNA, SMALL, Site, csrf

from pbem.server.service import ServiceError


@pytest.fixture
def site(tmp_path):
    return Site(tmp_path)


def test_the_strategist_takes_a_seat_and_answers_at_once(site):
    service = site.service
    game_id, _ = service.create_game("Against the computer", {"france": ANNA}, scenario=SMALL, seed=4,
                                     settings={"hours": 48}, bots={"austria": "strategist"})
    assert service.info(game_id)["status"] == "running"  # no seat left open
    game = service.game(game_id)
    assert game.turn().seats == ("austria",)
    on_file = service.orders_on_file(game_id, "austria")
    assert on_file.rstrip().endswith("FINAL")
    entry = [e for e in game.log if e["kind"] == "orders"][-1]
    assert entry["source"] == "bot" and entry["side"] == "austria"
    assert service.store.seats(game_id)[0]["email"] is None  # no mail to the computer
    # the clock resolves its day (FINAL), then France's day waits on Anna
    assert service.resolve_next(game_id) == 0
    service.run_jobs()
    assert service.game(game_id).turn().seats == ("france",)
    assert service.submit(game_id, "france", "FINAL\n").ok
    assert service.resolve_next(game_id) == 1
    service.run_jobs()  # the next turn starts: the computer has answered again
    assert service.orders_on_file(game_id, "austria").rstrip().endswith("FINAL")
    assert service.bots_of(game_id) == {"austria": "strategist"}


def test_bots_are_checked(site):
    with pytest.raises(ServiceError, match="no computer player"):
        site.service.create_game("x", {"france": ANNA}, scenario=SMALL, bots={"austria": "nobody"})
    with pytest.raises(ServiceError, match="no seat"):
        site.service.create_game("x", {"france": ANNA}, scenario=SMALL, bots={"prussia": "bot"})
    with pytest.raises(ServiceError, match="every seat"):
        site.service.create_game("x", {}, scenario=SMALL, bots={"austria": "bot", "france": "bot"})


def test_the_new_game_form_seats_the_computer(site):
    anna = site.client(ANNA)
    form = anna.get("/games/new")
    assert 'name="computer"' in form.text and "marengo:strategist" in form.text
    made = anna.post("/games/new", data={"csrf_token": anna.csrf, "title": "Me against the strategist",
                                         "scenario": f"marengo:{SMALL}", "seat": "france",
                                         "computer": "marengo:strategist", "hours": "24"})
    assert made.status_code == 302, made.text
    game_id = int(made.location.rstrip("/").split("/")[-1].split("?")[0])
    assert site.service.bots_of(game_id) == {"austria": "strategist"}
    assert site.service.orders_on_file(game_id, "austria")
    page = anna.get(f"/games/{game_id}")
    assert "Played by the computer" in page.text
    assert anna.get("/").status_code == 200
