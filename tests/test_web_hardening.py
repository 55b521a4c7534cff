"""Web and moderator hardening (issue 14): map images drawn once and cached by the
browser, sign-out that ends the session on the server, addresses and titles that
cannot break a mail's headers or a report's heading."""

from __future__ import annotations

import threading

import pytest

from pbem.server.mail.outbox import build_email
from pbem.server.service import ServiceError

from websupport import ANNA, FRED, MOD, SMALL, csrf


def finished_game(site) -> tuple[int, int]:
    game_id, _ = site.service.create_game("Over", {}, scenario=SMALL, seed=5)
    while not site.service.game(game_id).over:
        site.service.resolve_next(game_id)
    return game_id, len(site.service.game(game_id).days) - 1


# -- 7. maps: drawn once per content, with caching headers ----------------------------------------


def test_a_map_is_drawn_once_and_revalidated_without_drawing(site, monkeypatch):
    game_id, last = finished_game(site)
    drawn = []
    real = site.service.rasterise
    monkeypatch.setattr(site.service, "rasterise", lambda svg: drawn.append(1) or real(svg))
    clients = [site.client() for _ in range(6)]
    responses = []
    threads = [threading.Thread(target=lambda c=c: responses.append(c.get(f"/games/{game_id}/map/{last}.png")))
               for c in clients]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert [r.status_code for r in responses] == [200] * 6
    assert len(drawn) == 1  # six spectators at once: one drawing
    first = responses[0]
    assert first.headers["ETag"] and "max-age" in first.headers["Cache-Control"]
    assert len({r.data for r in responses}) == 1
    again = clients[0].get(f"/games/{game_id}/map/{last}.png", headers={"If-None-Match": first.headers["ETag"]})
    assert again.status_code == 304 and again.data == b""
    assert len(drawn) == 1


def test_a_players_map_is_private_and_changes_its_etag_when_the_picture_changes(site):
    game_id, _ = site.game()
    anna = site.client(ANNA)
    before = anna.get(f"/games/{game_id}/map/now.png?side=austria")
    assert before.status_code == 200 and before.headers["Cache-Control"].startswith("private")
    site.service.resolve_next(game_id)
    after = anna.get(f"/games/{game_id}/map/now.png?side=austria", headers={"If-None-Match": before.headers["ETag"]})
    assert after.status_code == 200 and after.headers["ETag"] != before.headers["ETag"]


def test_report_mails_and_the_web_share_the_drawing(site, monkeypatch):
    game_id, _ = site.game()
    drawn = []
    real = site.service.rasterise
    monkeypatch.setattr(site.service, "rasterise", lambda svg: drawn.append(1) or real(svg))
    site.service.resolve_next(game_id)
    site.service.run_jobs()
    assert len(drawn) == 2  # the two reports' maps
    assert site.client(ANNA).get(f"/games/{game_id}/map/0.png?side=austria").status_code == 200
    assert len(drawn) == 2


# -- 9. sign-out ends the session on the server ----------------------------------------------------------


def test_sign_out_ends_a_copied_session_cookie(site):
    anna = site.client(ANNA)
    cookie = anna.get_cookie("pbem_session").value
    thief = site.client()
    thief.set_cookie("pbem_session", cookie)
    assert thief.get("/").status_code == 200  # the copy works while the session lives
    assert anna.post("/logout", data={"csrf_token": anna.csrf}).status_code == 302
    assert anna.get("/").status_code == 302
    assert thief.get("/").status_code == 302  # and no longer after the sign-out
    other = site.client(ANNA)  # Anna's other sessions go on
    assert other.get("/").status_code == 200


# -- 11. the moderator's "replace" takes only an address -------------------------------------------------


@pytest.mark.parametrize("address", ["new@example.org\r\nBcc: victim@example.com", "new@exa\nmple.org", "new\x00@example.org",
                                     "not an address @", "@example.org", "a@b@example.org", "x" * 300 + "@e.org",
                                     "new@example.org>, <victim@example.com"])
def test_replace_refuses_what_is_not_an_address(site, address):
    game_id, _ = site.game()
    moderator = site.client(MOD)
    before = site.store.seats(game_id)
    response = moderator.post(f"/games/{game_id}/moderate/replace",
                              data={"csrf_token": moderator.csrf, "why": "x", "side": "france", "email": address})
    assert response.status_code == 400 and "not an email address" in response.text
    with pytest.raises(ServiceError):
        site.service.moderate(game_id, MOD, "replace", "x", side="france", email=address)
    assert site.store.seats(game_id) == before


def test_replace_takes_an_address_and_the_new_player_is_reachable(site):
    game_id, _ = site.game()
    moderator = site.client(MOD)
    response = moderator.post(f"/games/{game_id}/moderate/replace",
                              data={"csrf_token": moderator.csrf, "why": "x", "side": "france",
                                    "email": "  Otto@Example.org "})
    assert response.status_code == 302
    assert site.store.get_seat(game_id, "france")["email"] == "Otto@example.org"


def test_no_header_of_an_outgoing_mail_carries_a_control_character(site):
    game_id, _ = site.game()
    for row in site.store.mails():
        msg = build_email(row, texts=site.store.text)
        for name, value in msg.items():
            assert not any(ord(c) < 32 for c in str(value).replace("\r\n ", " ").replace("\n ", " ")), name


# -- 12. a title is one line ------------------------------------------------------------------------------


def test_a_title_with_newlines_stays_one_line_everywhere(site):
    title = "Evil\nSIDE Austria KEY stolen\r\n\r\nInjected paragraph\x00\x1b[31m"
    game_id, _ = site.service.create_game(title, {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=3)
    assert "\n" not in site.service.info(game_id)["title"] and "\x00" not in site.service.info(game_id)["title"]
    label = site.service.label(game_id)
    assert "\n" not in label and "\r" not in label
    welcome = site.store.mail("WHERE to_addr = ? AND kind = 'welcome'", (FRED,))["body"]
    assert welcome.splitlines()[0].startswith("Welcome to game") and "Injected paragraph" in welcome.splitlines()[0]
    site.service.resolve_next(game_id)
    report = site.service.report(game_id, 0, "austria")
    heading = next(line for line in report.text.splitlines() if "Evil" in line)
    assert "Injected paragraph" in heading  # the whole title on the heading's one line
    # a title already stored with a newline (before this fix) is shown on one line too
    site.store.update_game(game_id, title="Old\ntitle")
    assert site.service.label(game_id) == f"#{game_id} Old title"
    # and the web form keeps it one line
    anna = site.client(ANNA)
    form = anna.get("/games/new")
    created = anna.post("/games/new", data={"csrf_token": csrf(form.text), "title": "Two\nlines", "seat": "austria",
                                            "scenario": f"marengo:{SMALL}", "hours": "48"})
    assert created.status_code == 302
    assert site.store.games()[0]["title"] == "Two lines"
