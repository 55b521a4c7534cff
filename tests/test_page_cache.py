"""The game page and its parts kept while the game is unchanged (issue 35, item 2; pbem.server.web.pagecache).

A page from the long-lived app (which keeps what it computed) must be, after every kind of change to the
game, the page a fresh app (nothing kept) draws for the same browser; it must differ from the page before
the change, so the comparison could fail. Every reader gets the page a fresh app would draw for him, not
one kept for another seat or reader. The page, its maps and its click data answer If-None-Match with 304."""

from __future__ import annotations

import re
from datetime import timedelta

import pytest

from pbem.server.service import Service
from pbem.server.store import Store
from pbem.server.web import create_app
from websupport import ANNA, FRED, MOD, OTTO, SMALL, Site

SECRET = "SECRET-FRENCH-PLAN"  # in France's orders: never on Austria's page, nor a spectator's


@pytest.fixture
def site(tmp_path):
    site = Site(tmp_path)
    site.g, _keys = site.game()  # Anna (Austria) against Fred (France), moderated by Mod
    yield site
    site.store.close()


def fresh_page(site, client, path: str):
    """The page ``path`` as an app that has kept nothing draws it for ``client``'s browser (its session)."""
    other = create_app(site.service, site.config).test_client()
    other.set_cookie("pbem_session", client.get_cookie("pbem_session").value)
    return other.get(path)


def same_as_fresh(site, client, path: str) -> str:
    """The page ``path`` for ``client``, checked to be what a fresh app draws; its text."""
    kept = client.get(path)
    assert kept.status_code == 200, kept.text
    assert kept.text == fresh_page(site, client, path).text
    return kept.text


def test_every_kind_of_change_shows_on_the_next_page(site):
    anna, path = site.client(ANNA), f"/games/{site.g}?side=austria"
    before = same_as_fresh(site, anna, path)
    changes = [
        ("new orders by mail", lambda: site.service.submit(site.g, "austria", "STANDING PURSUE NEVER # mine\n",
                                                           source="mail")),
        ("the day resolved", lambda: site.service.resolve_next(site.g)),
        ("a moderator's pause", lambda: site.service.moderate(site.g, MOD, "pause", "a holiday")),
        ("a moderator's resume", lambda: site.service.moderate(site.g, MOD, "resume", "back")),
        ("an amendment (the game rewound and replayed)",
         lambda: site.service.moderate(site.g, MOD, "amend_orders", "a lost mail", day=0, side="austria",
                                       text="STANDING PURSUE ALWAYS # amended\n")),
        ("a rewind", lambda: site.service.moderate(site.g, MOD, "rewind", "a mistake", day=0)),
        ("a player replaced", lambda: site.service.moderate(site.g, MOD, "replace", "gone", side="france",
                                                            email=OTTO)),
    ]
    for what, change in changes:
        change()
        now = same_as_fresh(site, anna, path)
        assert now != before, f"{what}: the page did not change"
        before = now


def test_a_write_by_another_process_shows_too(site, tmp_path):
    """The web keeps nothing past a write it did not make: orders stored by another connection (pbem
    mail-in, the receiver's process) bump the same counter, by SQLite's triggers."""
    anna, path = site.client(ANNA), f"/games/{site.g}?side=austria"
    assert "PURSUE NEVER" not in same_as_fresh(site, anna, path)
    other_store = Store(tmp_path / "pbem.sqlite3")
    try:
        assert Service(other_store, site.config).submit(site.g, "austria", "STANDING PURSUE NEVER\n").ok
    finally:
        other_store.close()
    assert "PURSUE NEVER" in same_as_fresh(site, anna, path)


def test_the_time_left_follows_the_clock(site):
    anna, path = site.client(ANNA), f"/games/{site.g}?side=austria"
    start = site.service.now()
    before = same_as_fresh(site, anna, path)
    site.service.clock = lambda: start + timedelta(hours=3)
    later = same_as_fresh(site, anna, path)
    assert later != before and re.search(r"in 1 day 2[01] hours", later)


def test_no_page_kept_for_one_reader_reaches_another(site):
    """Each reader's page, asked for after every other reader's was kept, is the one a fresh app draws for
    him: a seat's orders on file never reach the other seat, nor a spectator."""
    site.service.submit(site.g, "france", f"STANDING PURSUE NEVER  # {SECRET}\n")
    anna, fred, mod, otto = (site.client(who) for who in (ANNA, FRED, MOD, OTTO))
    france = same_as_fresh(site, fred, f"/games/{site.g}?side=france")
    assert SECRET in france
    austria = same_as_fresh(site, anna, f"/games/{site.g}?side=austria")
    assert SECRET not in austria
    assert SECRET not in same_as_fresh(site, anna, f"/games/{site.g}")  # her own seat, chosen by the server
    moderator = same_as_fresh(site, mod, f"/games/{site.g}?side=")
    assert SECRET not in moderator and "/moderate" in moderator
    site.service.resign(site.g, "austria")  # over: spectators may look
    for path in (f"/games/{site.g}?side=", f"/games/{site.g}"):
        moderator = same_as_fresh(site, mod, path)
        spectator = same_as_fresh(site, otto, path)
        signed_out = same_as_fresh(site, site.client(), path)
        assert "/moderate" in moderator and "/moderate" not in spectator + signed_out
        assert len({moderator, spectator, signed_out}) == 3


def test_a_hot_seat_player_gets_each_seats_own_page(tmp_path):
    site = Site(tmp_path)
    g, _ = site.game(seats={"austria": ANNA, "france": ANNA})
    site.service.submit(g, "france", f"STANDING PURSUE NEVER  # {SECRET}\n")
    anna = site.client(ANNA)
    assert SECRET in same_as_fresh(site, anna, f"/games/{g}?side=france")
    assert SECRET not in same_as_fresh(site, anna, f"/games/{g}?side=austria")
    site.store.close()


def conditional(client, path: str, headers=None):
    """The answer to ``path``, then the answer to the same request with its ETag in If-None-Match."""
    first = client.get(path, headers=headers or {})
    assert first.status_code == 200 and first.headers.get("ETag"), (path, first.status_code)
    again = client.get(path, headers={**(headers or {}), "If-None-Match": first.headers["ETag"]})
    return first, again


@pytest.mark.parametrize("gzip", [False, True])
def test_the_page_answers_its_etag_with_304_until_the_game_changes(site, gzip):
    anna, path = site.client(ANNA), f"/games/{site.g}?side=austria"
    headers = {"Accept-Encoding": "gzip"} if gzip else {}
    first, again = conditional(anna, path, headers)
    assert again.status_code == 304 and again.data == b"" and again.headers["ETag"] == first.headers["ETag"]
    assert (first.headers.get("Content-Encoding") == "gzip") == gzip
    assert first.headers["Cache-Control"] == "private, no-cache"
    site.service.submit(site.g, "austria", "STANDING PURSUE NEVER\n")
    changed = anna.get(path, headers={**headers, "If-None-Match": first.headers["ETag"]})
    assert changed.status_code == 200 and changed.headers["ETag"] != first.headers["ETag"]
    assert "PURSUE NEVER" in (changed.data.decode() if not gzip else __import__("gzip").decompress(changed.data).decode())


def test_another_readers_etag_gets_no_304(site):
    """An ETag is of the page's bytes: another seat's page (another content) never matches it."""
    anna, fred = site.client(ANNA), site.client(FRED)
    tag = anna.get(f"/games/{site.g}?side=austria").headers["ETag"]
    assert fred.get(f"/games/{site.g}?side=france", headers={"If-None-Match": tag}).status_code == 200


def test_an_answer_to_orders_is_never_a_kept_page(site):
    """The page after a POST carries the answer to it, once; the next plain page is the kept one again."""
    anna, path = site.client(ANNA), f"/games/{site.g}?side=austria"
    plain = anna.get(path).text
    posted = anna.post(f"/games/{site.g}/orders", data={"csrf_token": anna.csrf, "side": "austria",
                                                      "text": "MOVEE A1 Nowhere\n", "action": "check"})
    answered = anna.get(posted.location)
    assert "MOVEE" in answered.text and "MOVEE" not in plain
    assert "MOVEE" not in anna.get(path).text


@pytest.mark.parametrize("part", ["map/0.svg", "map/now.svg", "map/0.png?w=480", "map/clicks.json"])
def test_the_parts_answer_their_etag_with_304_until_the_game_changes(site, part):
    site.service.resolve_next(site.g)
    seat = site.service.game(site.g).turn().seats[0]  # one that owes orders (the click data is for it alone)
    anna = site.client({"austria": ANNA, "france": FRED}[seat])
    sep = "&" if "?" in part else "?"
    path = f"/games/{site.g}/{part}{sep}side={seat}"
    first, again = conditional(anna, path)
    assert again.status_code == 304 and again.data == b""
    site.service.resolve_next(site.g)  # a new day: today's map and clicks are another day's, day 0's the same
    assert anna.get(path).data == fresh_page(site, anna, path).data


def test_the_counter_moves_with_every_write_to_what_pages_show(site):
    store, g = site.store, site.g
    seen = [store.game_version(g)]

    def moved():
        seen.append(store.game_version(g))
        return seen[-1] != seen[-2]

    site.service.submit(g, "austria", "STANDING PURSUE NEVER\n")
    assert moved()
    site.service.resolve_next(g)
    assert moved()
    site.service.moderate(g, MOD, "pause", "a storm")
    assert moved()
    store.execute("UPDATE outbox SET status = 'sent'")  # the mail sent: nothing a page shows
    assert not moved()
    other, _ = site.game()
    assert not moved() and store.game_version(other) > 0


def test_a_moderators_map_kept_never_reaches_a_spectator(site):
    """The map's SVG and PNG are kept by the side they are drawn for: the moderator's (side None) and an
    onlooker's (a spectator's, captioned so) are two, whichever was asked for first."""
    site.service.resign(site.g, "austria")  # over: spectators may look
    mod, otto = site.client(MOD), site.client(OTTO)
    for path in (f"/games/{site.g}/map/now.svg?side=", f"/games/{site.g}/map/now.png?side=&w=480"):
        moderator = mod.get(path)
        spectator = otto.get(path)
        assert moderator.status_code == spectator.status_code == 200
        assert spectator.data == fresh_page(site, otto, path).data
        assert moderator.data != spectator.data
        assert moderator.headers["ETag"] != spectator.headers["ETag"]
