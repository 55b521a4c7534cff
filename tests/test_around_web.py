"""Around each game on the web (Flask's test client, a real database): offering, declining and
accepting a draw, resigning (with its confirmation), and vacations scheduled ahead."""

from __future__ import annotations

from websupport import ANNA, FRED, post


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


def test_press_on_the_web_reaches_only_the_seats_named(site):
    from websupport import MOD, OTTO

    game_id, _ = site.game()
    anna, fred = site.client(ANNA), site.client(FRED)
    page = anna.get(f"/games/{game_id}/press?side=austria")
    assert page.status_code == 200 and "No message yet" in page.text and 'name="to" value="france"' in page.text
    assert post(anna, f"/games/{game_id}/press", side="austria", to="france", text="Truce <b>at noon</b>?") \
        .status_code == 302
    page = fred.get(f"/games/{game_id}/press?side=france").text
    assert "Truce &lt;b&gt;at noon&lt;/b&gt;?" in page and "Austria</strong> to France" in page
    assert "Truce" in site.client(MOD).get(f"/games/{game_id}/press").text  # the moderator reads all
    assert site.client(OTTO).get(f"/games/{game_id}/press?side=france").status_code == 403
    response = post(anna, f"/games/{game_id}/press", side="austria", text="to nobody")
    assert response.status_code == 400 and "say to which seats" in response.text
    assert "Press: messages to the other seats" in anna.get(f"/games/{game_id}?side=austria").text


def finish(site, game_id):
    for _ in range(40):
        if site.service.game(game_id).over:
            return
        site.service.resolve_next(game_id)
    raise AssertionError("the game did not end")


def test_a_finished_game_replays_day_by_day_in_every_view(site):
    game_id, _ = site.game()
    site.service.resolve_next(game_id)
    site.service.resolve_next(game_id)
    anon = site.client()
    assert anon.get(f"/games/{game_id}/replay").status_code == 403  # being played: nothing yet
    finish(site, game_id)
    days = len(site.service.game(game_id).days)
    page = anon.get(f"/games/{game_id}/replay?day=1&view=france")
    assert page.status_code == 200 and "<svg" in page.text and "day 1 of" in page.text
    assert page.text.count('rel="prev"') == 1 and 'rel="next"' in page.text and "export" in page.text
    france, neutral = (site.service.replay_day(game_id, 1, v)["svg"] for v in ("france", "neutral"))
    assert france != neutral and france in page.text and neutral not in page.text  # France's own view
    last = anon.get(f"/games/{game_id}/replay?view=neutral").text
    assert f"day {days - 1} of {days - 1}" in last and 'rel="next"' not in last
    assert anon.get(f"/games/{game_id}/replay?day={days}").status_code == 404
    assert anon.get(f"/games/{game_id}/replay?view=prussia").status_code == 404
    assert "replay it day by day" in anon.get(f"/games/{game_id}").text


def test_a_watched_game_shows_the_neutral_view_its_delay_behind(site):
    game_id, _ = site.game(settings={"hours": 48, "spectator_delay": 2})
    anon = site.client()
    assert anon.get(f"/games/{game_id}/replay").status_code == 404  # no day old enough yet
    for _ in range(3):
        site.service.resolve_next(game_id)
    page = anon.get(f"/games/{game_id}/replay")
    assert page.status_code == 200 and "day 0 of 0" in page.text  # three days played, two held back
    assert anon.get(f"/games/{game_id}/replay?day=1").status_code == 404
    assert anon.get(f"/games/{game_id}/replay?day=0&view=austria").status_code == 404  # no side's view
    assert 'href="/games/' not in page.text.split('id="views"')[1].split("</nav>")[0]  # one view only
    from websupport import MOD
    assert site.client(MOD).get(f"/games/{game_id}/replay?day=2&view=austria").status_code == 200


def test_a_private_game_is_joined_by_invitation_only(site):
    from websupport import OTTO, SMALL

    game_id, _ = site.service.create_game("Private", {"austria": ANNA}, scenario=SMALL, seed=9,
                                          settings={"hours": 48, "private": True})
    anna, otto, fred = site.client(ANNA), site.client(OTTO), site.client(FRED)
    assert f"/games/{game_id}/join" not in fred.get("/").text  # not among the open games
    response = post(fred, f"/games/{game_id}/join", side="france")
    assert response.status_code == 400 and "private" in response.text
    page = anna.get(f"/games/{game_id}?side=austria").text
    assert 'id="invite"' in page and "Offer a draw" not in page  # an open game: no draw, no resignation
    assert post(otto, f"/games/{game_id}/invite", side="france", email=FRED).status_code == 400  # not his
    assert post(anna, f"/games/{game_id}/invite", side="france", email=FRED).status_code == 302
    mail = site.store.mail("WHERE kind = 'invitation'")
    assert mail["to_addr"] == FRED and f"/games/{game_id}/invitation" in mail["body"]
    assert otto.get(f"/games/{game_id}/invitation").status_code == 404
    assert "Take the seat" in fred.get(f"/games/{game_id}/invitation").text
    response = post(otto, f"/games/{game_id}/join", side="france")
    assert response.status_code == 400 and "kept for an invited player" in response.text
    assert post(fred, f"/games/{game_id}/join", side="france").status_code == 302
    assert site.service.info(game_id)["status"] == "running"
    assert {s["side"]: s["email"] for s in site.store.seats(game_id)} == {"austria": ANNA, "france": FRED}
