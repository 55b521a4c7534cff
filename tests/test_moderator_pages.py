"""The moderator's console and the admin page (what an organiser meets): resolve now and
extend the deadline, each with a reason; a deadline written in the moderator's time zone;
the admin page's players, incoming mail, and mail delivered or only written locally."""

import html

import pytest
from websupport import ADMIN, ANNA, MOD, Site

from pbem.server import deadlines


@pytest.fixture
def site(tmp_path):
    return Site(tmp_path)


def act(client, game_id, action, **form):
    return client.post(f"/games/{game_id}/moderate/{action}", data={"csrf_token": client.csrf, **form})


def test_resolve_now_and_extend_need_a_reason_and_do_what_they_say(site):
    game_id, _ = site.game()
    mod = site.client(MOD)
    before = site.service.deadline(game_id)
    assert b"needs a reason" in act(mod, game_id, "extend", hours="24", why=" ").data
    assert act(mod, game_id, "extend", hours="24", why="Anna is ill").status_code == 302
    assert (site.service.deadline(game_id) - before).total_seconds() == 24 * 3600
    assert site.service.game(game_id).day == 0
    assert act(mod, game_id, "resolve_now", why="both agreed").status_code == 302
    assert site.service.game(game_id).day == 1
    audit = [a["action"] for a in site.store.read_audit(game_id)]
    assert "extend" in audit and "resolve_now" in audit
    page = mod.get(f"/games/{game_id}/moderate").text
    assert "Resolve now" in page and "Extend the deadline" in page


def test_a_deadline_is_written_in_the_moderators_time_zone(site):
    game_id, _ = site.game()
    site.store.add_player(MOD, timezone="Asia/Tokyo")
    mod = site.client(MOD)
    page = mod.get(f"/games/{game_id}/moderate").text
    assert 'name="zone" value="Asia/Tokyo"' in page
    year = site.service.now().year + 1
    assert act(mod, game_id, "deadline", when=f"{year}-01-10 09:00", zone="Asia/Tokyo",
               why="after the holidays").status_code == 302
    assert deadlines.iso(site.service.deadline(game_id)) == f"{year}-01-10T00:00:00Z"
    refused = act(mod, game_id, "deadline", when="2001-01-01 09:00", zone="UTC", why="x")
    assert refused.status_code == 400 and "has passed" in html.unescape(refused.text)


def test_the_admin_page_lists_players_incoming_mail_and_says_mail_was_only_written_locally(site):
    from pbem.server import inbox

    game_id, _ = site.game()
    inbox.receive(site.service, b"From: stranger@example.net\r\nSubject: hello there\r\n\r\nHELP\r\n", "smtp")
    site.client(ANNA)
    page = html.unescape(site.client(ADMIN).get("/admin").text)
    assert 'id="players"' in page and ANNA in page
    assert 'id="inbound"' in page and "stranger@example.net" in page and "hello there" in page
    assert "written to the local folder" in page  # no relay in the test's settings
