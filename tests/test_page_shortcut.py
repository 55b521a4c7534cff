"""The kept game page found from one read of the game's counter, and the session cookie read once and
signed again only when needed (issue 35, item 2, twelfth session; pbem.server.web.pagecache.kept_page,
pbem.server.web.sessions.DailyRenewed).

A kept page is answered before the game's rows are read, so these check that what decides who may see
it still decides: another reader of the same address, a copy of a session signed out, a session ended
everywhere, a language chosen (kept with the address, not under the game's counter). The cookie: not
sent again on each request, sent again once a day old, refused once older than its lifetime even when
it was read before, and a changed cookie never passes for one read before."""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import pytest

from pbem.server.store import Store
from test_page_cache import SECRET, fresh_page, same_as_fresh, site  # noqa: F401 (site: the fixture, shared)
from websupport import ANNA, FRED, MOD, OTTO, post


def kept_twice(site, client, path: str) -> str:
    """``path`` asked twice by ``client`` (the second answer is the kept page), checked against a fresh app."""
    first = same_as_fresh(site, client, path)
    assert same_as_fresh(site, client, path) == first
    return first


def test_a_kept_page_is_never_answered_to_another_reader_of_its_address(site):
    site.service.submit(site.g, "france", f"STANDING PURSUE NEVER  # {SECRET}\n")
    path = f"/games/{site.g}?side=france"
    assert SECRET in kept_twice(site, site.client(FRED), path)
    assert site.client(ANNA).get(path).status_code == 403  # the other seat
    assert site.client(OTTO).get(path).status_code == 403  # a stranger, while the game runs
    signed_out = site.client().get(path)
    assert signed_out.status_code == 302 and "/login" in signed_out.location
    mod = site.client(MOD)  # the moderator may read France's seat: his own page of it, not Fred's
    moderator = same_as_fresh(site, mod, path)
    assert moderator != kept_twice(site, site.client(FRED), path)


@pytest.mark.parametrize("how", ["sign out", "sign out everywhere"])
def test_a_session_ended_gets_no_kept_page(site, how):
    anna, path = site.client(ANNA), f"/games/{site.g}?side=austria"
    kept_twice(site, anna, path)
    copy = site.client()
    copy.set_cookie("pbem_session", anna.get_cookie("pbem_session").value)  # the cookie taken before
    assert copy.get(path).status_code == 200
    assert post(anna, "/logout" if how == "sign out" else "/logout/everywhere").status_code in (302, 303)
    after = copy.get(path)
    assert after.status_code == 302 and "/login" in after.location


def test_a_language_chosen_elsewhere_shows_on_the_next_page(site, tmp_path):
    """The language is kept with the address (not under the game's counter): chosen by another process,
    the next page is in it."""
    anna, path = site.client(ANNA), f"/games/{site.g}?side=austria"
    english = kept_twice(site, anna, path)
    other = Store(tmp_path / "pbem.sqlite3")
    try:
        other.set_language(ANNA, "fr")
    finally:
        other.close()
    french = same_as_fresh(site, anna, path)
    assert french != english and 'lang="fr"' in french and 'lang="en"' in english


def test_the_cookie_is_not_signed_again_on_every_request(site):
    anna, path = site.client(ANNA), f"/games/{site.g}?side=austria"
    anna.get(path)
    for _ in range(2):
        assert "Set-Cookie" not in anna.get(path).headers
    assert "Set-Cookie" not in anna.get("/").headers


def test_a_month_old_cookie_is_refused_though_read_before_and_a_day_old_one_signed_again(site):
    anna, path = site.client(ANNA), f"/games/{site.g}?side=austria"
    assert anna.get(path).status_code == 200  # the cookie read (and kept read)
    copy = site.client()
    copy.set_cookie("pbem_session", anna.get_cookie("pbem_session").value)
    cookies = site.app.session_interface
    now = datetime.now(timezone.utc)
    cookies.clock = lambda: now + timedelta(days=30, minutes=1)
    late = copy.get(path)
    assert late.status_code == 302 and "/login" in late.location
    cookies.clock = lambda: now + timedelta(days=1, minutes=1)
    renewed = anna.get(path)
    assert renewed.status_code == 200 and "pbem_session=" in renewed.headers["Set-Cookie"]
    cookies.clock = lambda: now + timedelta(hours=23)
    assert "Set-Cookie" not in anna.get(path).headers


def test_a_changed_cookie_never_passes_for_one_read_before(site):
    anna, path = site.client(ANNA), f"/games/{site.g}?side=austria"
    assert anna.get(path).status_code == 200
    value = anna.get_cookie("pbem_session").value
    forged = site.client()
    forged.set_cookie("pbem_session", value[:-2] + ("AA" if value[-2:] != "AA" else "BB"))
    answer = forged.get(path)
    assert answer.status_code == 302 and "/login" in answer.location


def test_a_message_flashed_is_shown_once_though_the_page_was_kept(site):
    """A flashed message (a list in the session, never kept read) is on the next page, once."""
    fred, path = site.client(FRED), f"/games/{site.g}?side=france"
    plain = kept_twice(site, fred, path)
    with fred.session_transaction() as session:
        session["_flashes"] = [("message", "A WORD FLASHED")]
    flashed = fred.get(path).text
    assert "A WORD FLASHED" in flashed and "A WORD FLASHED" not in plain
    assert fred.get(path).text == plain == fresh_page(site, fred, path).text
