"""Who may do what, asserted exactly: the guards' answers, the headers, the session, the sign-in.

These tests kill the mutants scripts/mutation's "security" group found alive
(pbem.server.web.security, auth, sessions, redirects, the sign-in throttle and
the seat-key checks): each guard's status and the words a person reads, the
exact security headers, what a session carries, a link's life, a password's
rules, the edges of a local redirect.
"""

from __future__ import annotations

import hashlib
import html
from datetime import timedelta

import pytest
from flask import g
from werkzeug.exceptions import HTTPException
from werkzeug.security import generate_password_hash

from pbem.server import throttle
from pbem.server.store import iso
from pbem.server.web import security, sessions
from pbem.server.web.auth import TOKEN_LIFE, make_login_token, token_hash
from pbem.server.web.redirects import MAX_LENGTH, local_path

from websupport import ADMIN, ANNA, FRED, MOD, OTTO, Site, csrf


@pytest.fixture
def site(tmp_path):
    site = Site(tmp_path)
    site.g, site.keys = site.game()
    yield site
    site.store.close()


def error_of(response) -> str:
    """The message an error page or an API error shows."""
    if response.is_json:
        return response.json["error"]
    text = html.unescape(response.text)
    start = text.index('id="error-message"')
    return text[text.index(">", start) + 1:text.index("<", start + 1)].strip()


# -- the guards' answers -----------------------------------------------------------------------------


def test_a_page_sends_a_stranger_to_sign_in_and_back(site):
    anon = site.client()
    response = anon.get(f"/games/{site.g}?side=austria")
    assert response.status_code == 302
    assert response.headers["Location"] == f"/login?next=/games/{site.g}?side%3Daustria"
    assert anon.get("/").headers["Location"] == "/login?next=/"


def test_the_api_tells_a_stranger_how_to_sign_in(site):
    # (both answers once held "<...>", which handle_http takes for markup: the client read only
    # "Sign in needed.", and a mutant of the words survived)
    response = site.client().get("/api/games")
    assert (response.status_code, response.json) == (
        401, {"error": "Sign in, or send Authorization: Bearer KEY (the seat's key) with ?game=ID&side=SIDE.", "status": 401})


def test_side_for_answers(site):
    anna, otto = site.client(ANNA), site.client(OTTO)
    g = site.g
    assert (anna.get(f"/api/games/{g}?side=prussia").status_code,
            error_of(anna.get(f"/api/games/{g}?side=prussia"))) == (404, f"Game {g} has no side 'prussia'.")
    refused = anna.get(f"/api/games/{g}?side=france")
    assert (refused.status_code, error_of(refused)) == (403, f"You do not play France in game {g}.")
    both = otto.get(f"/api/games/{g}")
    assert (both.status_code, error_of(both)) == \
        (403, "Only the game's moderator sees both sides (and everyone, once the game is over).")
    unsaid = anna.post(f"/api/games/{g}/orders", json={"text": ""}, headers={"X-CSRF-Token": anna.csrf})
    assert (unsaid.status_code, error_of(unsaid)) == (400, "Say which side.")
    # the moderator reads a side but may not write for it; the address is compared without case
    mod = site.client(MOD.upper())
    assert mod.get(f"/api/games/{g}?side=france").status_code == 200
    assert mod.get(f"/api/games/{g}").status_code == 200
    wrote = mod.post(f"/api/games/{g}/orders", json={"side": "france", "text": ""},
                     headers={"X-CSRF-Token": mod.csrf})
    assert (wrote.status_code, error_of(wrote)) == (403, f"You do not play France in game {g}.")
    assert site.client(ANNA.upper()).get(f"/api/games/{g}?side=austria").status_code == 200


def test_side_for_without_a_user_and_a_finished_game(site, tmp_path):
    with site.app.test_request_context(f"/api/games/{site.g}"):
        g.user = None
        for side in (None, "austria"):
            with pytest.raises(HTTPException) as refused:
                security.side_for(None, site.g, side)
            assert (refused.value.code, refused.value.description) == (401, "Sign in first.")
        assert security.my_sides(None, site.g) == []
        assert not security.is_moderator(None, site.g) and not security.is_moderator(security.User(seat=(1, "a")), 1)
        assert security.spectator(None, site.g)
        assert not security.spectator(security.User(email=MOD), site.g)
        assert security.is_admin(security.User(email=ADMIN.upper()))
        assert not security.is_admin(None) and not security.is_admin(security.User(seat=(site.g, "austria")))
        assert security.User(seat=(site.g, "austria")).label == f"key of game {site.g} austria"
        assert security.User(email=ANNA).label == ANNA


def test_a_seat_key_proves_one_seat_of_one_game(site):
    client = site.client()
    key = {"Authorization": f"Bearer {site.keys['austria']}"}
    needs = client.get(f"/api/games/{site.g}", headers=key)
    assert (needs.status_code, error_of(needs)) == (401, "A seat key needs ?game=ID&side=SIDE.")
    assert client.get(f"/api/games?game={site.g}&side=austria", headers=key).status_code == 200
    assert client.get(f"/api/games/{site.g}?side=austria", headers={"Authorization": "bearer " + site.keys["austria"]}
                      ).status_code == 200
    # the side may come in the JSON body
    sent = client.post(f"/api/games/{site.g}/orders", json={"side": "austria", "text": ""}, headers=key)
    assert sent.status_code == 200
    wrong = client.get(f"/api/games/{site.g}?side=france", headers=key)
    assert (wrong.status_code, error_of(wrong)) == (401, "That key is not the key of this seat.")
    attempts = site.store.query("SELECT email, kind, ok FROM login_attempts")
    assert attempts == [{"email": None, "kind": "key", "ok": 0}]
    with site.app.test_request_context(f"/api/games/{site.g}?side=austria", headers=key):
        security.load_user()
        assert g.user == security.User(seat=(site.g, "austria"))
        assert security.my_sides(g.user, site.g) == ["austria"] and security.my_sides(g.user, site.g + 1) == []


def test_guards_for_an_address_and_for_the_admin(site):
    @security.email_required
    def page():
        return "ok"

    with site.app.test_request_context("/password"):
        g.user = security.User(seat=(site.g, "austria"))
        with pytest.raises(HTTPException) as refused:
            page()
        assert (refused.value.code, refused.value.description) == \
            (403, "This needs a signed-in address, not a seat key.")
        g.user = security.User(email=ANNA)
        assert page() == "ok"
    admin = site.client(ANNA).get("/admin")
    assert (admin.status_code, error_of(admin)) == (403, "Only the site admin may see this page.")
    assert site.client(ADMIN.upper()).get("/admin").status_code == 200


# -- CSRF: every unsafe method -----------------------------------------------------------------------


@pytest.mark.parametrize("method", ["POST", "PUT", "PATCH", "DELETE"])
def test_every_unsafe_method_needs_the_token(site, method):
    anna = site.client(ANNA)
    refused = anna.open("/logout", method=method)
    assert (refused.status_code, error_of(refused)) == \
        (400, "The form's security token is missing or out of date. Go back, reload the page and try again.")
    passed = anna.open("/logout", method=method, headers={"X-CSRF-Token": anna.csrf})
    assert passed.status_code == (302 if method == "POST" else 405)
    if method != "POST":
        assert error_of(passed) == f"This address does not take {method} requests."


def test_a_session_without_a_token_refuses_an_empty_one(site):
    client = site.client()
    assert client.post("/login", data={"email": ANNA, "csrf_token": ""}).status_code == 400
    assert client.get("/login").status_code == 200  # a page: no token needed, one is made


# -- headers, errors ---------------------------------------------------------------------------------


def test_the_security_headers_exactly(site):
    page = site.client().get("/login")
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    assert page.headers["X-Frame-Options"] == "DENY"
    assert page.headers["Referrer-Policy"] == "same-origin"
    assert page.headers["Content-Security-Policy"] == (
        "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
        "script-src 'self'; frame-ancestors 'none'; form-action 'self'")
    assert "Cache-Control" not in page.headers or "no-store" not in page.headers["Cache-Control"]
    assert site.client(ANNA).get("/").headers["Cache-Control"] == "private, no-store"


def test_error_answers(site, monkeypatch):
    anna = site.client(ANNA)
    assert error_of(anna.get("/no/such/page")) == "There is no such page."
    api = anna.get("/api/no/such")
    assert (api.status_code, api.json) == (404, {"error": "There is no such page.", "status": 404})
    assert error_of(anna.get("/games/999")) == "There is no game 999."
    # an abort without words of its own gets the code's title
    from werkzeug.exceptions import BadRequest, Forbidden, RequestEntityTooLarge, TooManyRequests

    with site.app.test_request_context("/api/x"):
        g.user = None
        for exc, words in ((BadRequest(), "Bad request."), (Forbidden(), "Not yours to see."),
                           (RequestEntityTooLarge(), "Too large."), (TooManyRequests(), "Too many attempts."),
                           (BadRequest("<b>markup</b>"), "Bad request.")):
            body, code = security.handle_http(exc)
            assert (code, body.json) == (exc.code, {"error": words, "status": exc.code})
    too_big = anna.post("/login", data={"csrf_token": anna.csrf, "email": "x" * 10})
    assert too_big.status_code == 400 and error_of(too_big) == "That is not an email address."

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom")

    monkeypatch.setattr(site.service, "status", boom)
    monkeypatch.setattr(site.service, "orders_on_file", boom)
    crashed = anna.get(f"/api/games/{site.g}?side=austria")
    assert crashed.json == {"error": "Something went wrong on the server; it was logged. Try again, or tell the admin.",
                            "status": 500}


def test_a_sign_in_page_401_goes_to_the_sign_in_form(site):
    with site.app.test_request_context("/games/1"):
        g.user = None
        from werkzeug.exceptions import Unauthorized

        response = security.handle_http(Unauthorized("Sign in first."))
        assert response.status_code == 302 and response.headers["Location"] == "/login"


# -- the session a sign-in starts ----------------------------------------------------------------------


def test_a_sign_in_starts_a_fresh_session(site):
    client = site.client()
    token = make_login_token(site.store, " " + ANNA, site.service.now())
    page = client.get(f"/login/{token}")
    assert page.status_code == 200 and ANNA in page.text
    with client.session_transaction() as before:
        old_csrf = before["csrf"]
        before["stale"] = "x"
    assert client.post(f"/login/{token}", data={"csrf_token": old_csrf}).status_code == 302
    with client.session_transaction() as s:
        assert s.permanent and "stale" not in s
        assert (s["email"], s["via"], s["generation"]) == (ANNA, "link", 0)
        assert s["at"] <= iso(site.service.now()) and len(s["sid"]) == 24
        assert s["csrf"] != old_csrf and len(s["csrf"]) == 32
    used = client.get(f"/login/{token}")
    assert (used.status_code, error_of(used)) == (
        400, "This sign-in link is unknown, used or expired: a link works once, for 30 minutes. "
             "Ask for a new one on the sign-in page.")
    attempts = site.store.query("SELECT email, kind, ok FROM login_attempts ORDER BY rowid")
    assert attempts == [{"email": ANNA, "kind": "token", "ok": 1}, {"email": None, "kind": "token", "ok": 0}]


def test_a_link_lives_thirty_minutes(site):
    now = site.service.now()
    assert TOKEN_LIFE == timedelta(minutes=30)
    fresh = make_login_token(site.store, ANNA, now - timedelta(minutes=29))
    stale = make_login_token(site.store, ANNA, now - timedelta(minutes=31))
    assert site.store.peek_login_token(token_hash(fresh)) == ANNA
    assert site.store.peek_login_token(token_hash(stale)) is None
    assert token_hash("abc") == hashlib.sha256(b"abc").hexdigest()
    assert site.store.use_login_token(token_hash(fresh)) == ANNA
    assert site.store.use_login_token(token_hash(fresh)) is None
    assert site.store.peek_login_token(token_hash(fresh)) is None


def test_the_mailed_link(site):
    client = site.client()
    form = client.get("/login?next=/games/1")
    assert client.post("/login", data={"csrf_token": csrf(form.text), "email": ANNA, "action": "link",
                                       "next": "/games/1"}).status_code == 200
    (mail,) = site.store.mails("WHERE kind = 'login'")
    assert (mail["to_addr"], mail["subject"]) == (ANNA, "[pbem] Your sign-in link")
    token = mail["body"].split("/login/")[1].split()[0]
    assert mail["body"] == (
        f"To sign in to the pbem server at {site.config.url}, open this link within 30 minutes:\n\n"
        f"  {site.config.url.rstrip('/')}/login/{token}\n\n"
        "It works once. If you did not ask for it, ignore this mail: nothing happens without the link.")
    assert site.store.peek_login_token(token_hash(token)) == ANNA


def test_a_signed_in_visitor_of_the_sign_in_form_goes_on(site):
    anna = site.client(ANNA)
    assert anna.get("/login?next=/games/7").headers["Location"] == "/games/7"
    assert anna.get("/login?next=//evil.example").headers["Location"] == "/"


def test_password_sign_in(site):
    site.store.set_password_hash(ANNA, generate_password_hash("right one"))
    client = site.client()
    form = client.get("/login")
    wrong = client.post("/login", data={"csrf_token": csrf(form.text), "email": ANNA, "password": "wrong",
                                        "action": "password"})
    assert wrong.status_code == 401
    assert "Wrong address or password (or no password is set: ask for a link)." in html.unescape(wrong.text)
    right = client.post("/login", data={"csrf_token": csrf(form.text), "email": ANNA, "password": "right one",
                                        "action": "password", "next": "/games/3"})
    assert (right.status_code, right.headers["Location"]) == (302, "/games/3")
    with client.session_transaction() as s:
        assert (s["email"], s["via"]) == (ANNA, "password")
    attempts = site.store.query("SELECT email, kind, ok FROM login_attempts ORDER BY rowid")
    assert attempts == [{"email": ANNA, "kind": "password", "ok": 0}, {"email": ANNA, "kind": "password", "ok": 1}]


def test_the_sign_in_limits_answer_in_words(site):
    site.store.set_password_hash(ANNA, generate_password_hash("right one"))
    for i in range(throttle.PASSWORD_PER_ADDRESS):
        site.store.add_login_attempt(ANNA, f"10.1.{i}.1", "password", False)
    client = site.client()
    form = client.get("/login")
    paused = client.post("/login", data={"csrf_token": csrf(form.text), "email": ANNA, "password": "right one",
                                         "action": "password"})
    assert (paused.status_code, error_of(paused)) == (429, (
        "Too many wrong passwords for this address lately: password sign-in for it is paused for 15 minutes. "
        "Ask for a sign-in link instead; it works at once."))
    for i in range(throttle.PASSWORD_PER_CLIENT):
        site.store.add_login_attempt(None, "10.2.0.1", "token", False)
    guesser = site.client(ip="10.2.0.1")
    blocked = guesser.get("/login/any-token")
    assert (blocked.status_code, error_of(blocked)) == (429, "Too many sign-in attempts: wait 15 minutes and try again.")


def test_signin_refusal_edges(site):
    store, now = site.store, site.service.now()
    refusal = throttle.signin_refusal
    for _ in range(throttle.PASSWORD_PER_PAIR - 1):
        store.add_login_attempt(ANNA, "10.0.0.9", "password", False)
    store.add_login_attempt(ANNA, "10.0.0.9", "password", True)  # a right password counts for nothing
    store.add_login_attempt(ANNA, "10.0.0.9", "link", False)  # nor does a link, for passwords
    assert refusal(store, now, "10.0.0.9", ANNA, "password") == ""
    assert refusal(store, now, "10.0.0.9", " " + ANNA + " ", "password") == ""
    store.add_login_attempt(ANNA, "10.0.0.9", "password", False)
    assert refusal(store, now, "10.0.0.9", ANNA, "password") == "pair"
    assert refusal(store, now, "10.0.0.9", " " + ANNA + " ", "password") == "pair"
    assert refusal(store, now, "10.0.0.9", ANNA, "link") == ""  # a link is never refused for the address
    assert refusal(store, now, "10.0.0.9", None, "password") == ""
    # an hour later nothing counts
    assert refusal(store, now + throttle.SIGNIN_WINDOW + timedelta(seconds=1), "10.0.0.9", ANNA, "password") == ""
    assert refusal(store, now + throttle.SIGNIN_WINDOW, "10.0.0.9", ANNA, "password") == "pair"
    for i in range(throttle.PASSWORD_PER_ADDRESS - throttle.PASSWORD_PER_PAIR):
        store.add_login_attempt(ANNA, f"10.3.{i}.1", "password", False)
    assert refusal(store, now, "10.4.0.1", ANNA, "password") == "address"
    assert refusal(store, now, "10.4.0.1", ANNA, "token") == ""
    for i in range(throttle.LINKS_PER_CLIENT - 1):
        store.add_login_attempt(FRED, "10.5.0.1", "link", True)
    assert refusal(store, now, "10.5.0.1", FRED, "link") == ""
    store.add_login_attempt(FRED, "10.5.0.1", "link", True)
    assert refusal(store, now, "10.5.0.1", FRED, "link") == "links"
    assert refusal(store, now, "10.5.0.1", FRED, "password") == ""


def test_link_mails_per_address(site):
    store, now = site.store, site.service.now()
    from pbem.server.mail.outbox import queue

    for _ in range(throttle.LINKS_PER_ADDRESS - 1):
        queue(store, ANNA, "link", "x", kind="login")
    queue(store, ANNA, "report", "x", kind="report")
    queue(store, FRED, "link", "x", kind="login")
    assert throttle.link_mail_allowed(store, now, ANNA)
    assert throttle.link_mail_allowed(store, now, " " + ANNA)
    queue(store, ANNA, "link", "x", kind="login")
    assert not throttle.link_mail_allowed(store, now, ANNA)
    assert not throttle.link_mail_allowed(store, now, ANNA + " ")
    assert throttle.link_mail_allowed(store, now + throttle.HOUR + timedelta(seconds=1), ANNA)


# -- passwords ---------------------------------------------------------------------------------------


def password_form(client, **data):
    return client.post("/password", data={"csrf_token": client.csrf, **data})


def test_password_rules(site):
    anna = site.client(ANNA)  # signed in by a fresh link: may set a password without the old one
    short = password_form(anna, new="7chars!", again="7chars!")
    assert short.status_code == 400 and "A password needs at least 8 characters." in html.unescape(short.text)
    differ = password_form(anna, new="eight ch", again="eight cx")
    assert differ.status_code == 400 and "The two new passwords differ." in differ.text
    assert password_form(anna, new="eight ch", again="eight ch").status_code == 200
    (audit,) = [a for a in site.store.read_audit() if a["action"] == "password"]
    assert (audit["who"], audit["detail"]) == (ANNA, {"changed": False})
    with anna.session_transaction() as s:
        assert s["generation"] == site.store.session_generation(ANNA) == 1
    # thirty minutes after the link, the current password is asked for
    with anna.session_transaction() as s:
        s["at"] = iso(site.service.now() - TOKEN_LIFE - timedelta(seconds=2))
    wrong = password_form(anna, current="not it", new="another one", again="another one")
    assert wrong.status_code == 400 and "Your current password is not right." in wrong.text
    assert site.store.query("SELECT kind, ok FROM login_attempts WHERE email = ? AND kind = 'password'", (ANNA,)) \
        == [{"kind": "password", "ok": 0}]
    assert password_form(anna, current="eight ch", new="another one", again="another one").status_code == 200
    assert [a["detail"] for a in site.store.read_audit() if a["action"] == "password"][-1] == {"changed": True}
    assert 'name="current"' in anna.get("/password").text
    with anna.session_transaction() as s:
        s["at"] = iso(site.service.now() - TOKEN_LIFE + timedelta(seconds=60))
    assert 'name="current"' not in anna.get("/password").text


def test_a_password_sign_in_must_give_the_current_password(site):
    site.store.set_password_hash(ANNA, generate_password_hash("right one"))
    client = site.client()
    form = client.get("/login")
    client.post("/login", data={"csrf_token": csrf(form.text), "email": ANNA, "password": "right one",
                                "action": "password"})
    client.csrf = csrf(client.get("/password").text)
    assert 'name="current"' in client.get("/password").text
    assert password_form(client, new="new password", again="new password").status_code == 400


# -- signing out -------------------------------------------------------------------------------------


def test_sign_out_records_the_session_and_old_ids_are_forgotten(site):
    anna = site.client(ANNA)
    with anna.session_transaction() as s:
        sid = s["sid"]
    assert anna.post("/logout", data={"csrf_token": anna.csrf}).headers["Location"] == "/login"
    assert sessions.ended(site.store, sid) and not sessions.ended(site.store, "other")
    now = site.service.now()
    assert sessions.forget_old(site.store, now + sessions.LIFETIME - timedelta(seconds=5)) == 0
    assert sessions.forget_old(site.store, now + sessions.LIFETIME + timedelta(seconds=5)) == 1
    assert not sessions.ended(site.store, sid)
    assert sessions.LIFETIME == timedelta(days=30) == site.app.permanent_session_lifetime
    assert len(sessions.new_id()) == 24 and sessions.new_id() != sessions.new_id()


def test_sign_out_of_a_session_without_an_id_ends_every_session_of_the_address(site):
    anna, other = site.client(ANNA), site.client(ANNA)
    with anna.session_transaction() as s:
        del s["sid"]
    assert anna.post("/logout", data={"csrf_token": anna.csrf}).status_code == 302
    assert other.get("/").status_code == 302
    assert site.store.session_generation(ANNA) == 1
    everywhere = site.client(ANNA)
    assert everywhere.post("/logout/everywhere", data={"csrf_token": everywhere.csrf}).headers["Location"] == "/login"
    assert [a["who"] for a in site.store.read_audit() if a["action"] == "sign_out_everywhere"] == [ANNA]


# -- local redirects at their edges -------------------------------------------------------------------


def test_local_path_edges():
    assert local_path("/" + "a" * (MAX_LENGTH - 1)) == "/" + "a" * (MAX_LENGTH - 1)
    assert local_path("/" + "a" * MAX_LENGTH) is None
    assert MAX_LENGTH == 2000
    assert local_path("/!~") == "/!~"
    assert local_path("/a b") is None and local_path("/a\x7f") is None
    assert local_path("/a%20b") == "/a%20b"  # a space once decoded is still a path of this site
    assert local_path("/a%7Fb") is None
    assert local_path("/g?x=1#f") == "/g?x=1#f"
    assert local_path("/%25252F%25252Fevil") is None  # decoded thrice: //evil
    assert local_path("/%2525252F%2525252Fevil") == "/%2525252F%2525252Fevil"  # still encoded after three
    assert local_path("") is None and local_path(None) is None


# -- a seat key by mail ------------------------------------------------------------------------------


def test_a_wrong_key_by_mail_is_refused_audited_and_told_to_the_owner(site):
    from pbem.server import inbox

    service, g_id = site.service, site.g
    site.store.execute("DELETE FROM outbox")  # the welcome mails
    assert inbox.authenticate(service, g_id, "austria", site.keys["austria"], "anyone@example.org", {"id": 1})
    assert site.store.mails() == []
    assert not inbox.authenticate(service, g_id, "austria", "wrong", "Stranger@Example.org", {"id": 2})
    (audit,) = [a for a in site.store.read_audit() if a["action"] == "wrong_key"]
    assert (audit["who"], audit["game_id"], audit["detail"]) == \
        ("Stranger@Example.org", g_id, {"from": "stranger@example.org", "side": "austria", "inbound": 2})
    mails = [{k: m[k] for k in ("to_addr", "subject", "body", "kind", "dedupe_key")}
             for m in site.store.mails("ORDER BY id")]
    assert mails == [
        {"to_addr": "Stranger@example.org", "subject": f"[pbem {g_id}] Refused: wrong key",
         "body": mails[0]["body"], "kind": "reply", "dedupe_key": "answer:2"},
        {"to_addr": ANNA, "subject": f"[pbem {g_id}] Someone used a wrong key for your seat",
         "body": mails[1]["body"], "kind": "reply", "dedupe_key": "answer:2:owner"}]
    assert site.store.query("SELECT kind, recipient, source FROM answer_log ORDER BY rowid") == [
        {"kind": "stranger", "recipient": "Stranger@example.org", "source": "Stranger@Example.org"},
        {"kind": "owner", "recipient": ANNA, "source": f"seat:{g_id}:austria"}]
    assert mails[0]["body"].startswith(
        f"The key in your mail is not the key of Austria in game {g_id}; nothing was done.\n\n"
        f"Your key is in the welcome mail of game {g_id}")
    assert "ask the game's moderator for a new one." in mails[0]["body"]
    assert mails[1]["body"].startswith(
        f"1 mail tried to act for Austria in game {g_id} with a wrong key since the last notice (the latest "
        "from Stranger@Example.org). All were refused; your key is unchanged, and nothing needs doing if you "
        "have it. You are told at most once every 6 hours; the game's log lists every attempt.")
    # the owner's own mistake is not reported to the owner
    assert not inbox.authenticate(service, g_id, "austria", "wrong", ANNA.upper(), {"id": 3})
    assert [m["to_addr"] for m in site.store.query("SELECT to_addr FROM outbox ORDER BY id")] == \
        ["Stranger@example.org", ANNA, "ANNA@example.org"]


def test_a_proven_key_is_remembered_only_until_the_key_changes(site):
    service, g_id, key = site.service, site.g, site.keys["austria"]
    assert not service.check_key(g_id, "austria", "wrong") and service._verified == {}
    assert service.check_key(g_id, "austria", key)
    assert service._verified == {(g_id, "austria"): hashlib.sha256(f"{g_id}\0austria\0{key}".encode()).digest()}
    assert service.check_key(g_id, "austria", key) and not service.check_key(g_id, "france", key)
    service.set_key(g_id, "austria", "a new key")
    assert service._verified == {}
    assert not service.check_key(g_id, "austria", key) and service.check_key(g_id, "austria", "a new key")
    assert not site.store.check_key(g_id, "prussia", "a new key")
    assert not site.store.check_key(g_id + 99, "austria", "a new key")
    row = site.store.query_one("SELECT key_hash, key_salt FROM seats WHERE game_id = ? AND side = ?", (g_id, "austria"))
    assert len(row["key_salt"]) == 16 and b"a new key" not in row["key_hash"]
    site.store.set_seat_key(g_id, "france", "a new key")
    other = site.store.query_one("SELECT key_hash, key_salt FROM seats WHERE game_id = ? AND side = ?", (g_id, "france"))
    assert other["key_salt"] != row["key_salt"] and other["key_hash"] != row["key_hash"]
    assert site.store.check_key(g_id, "france", "a new key")
    assert site.store.check_key(g_id, "france", "\udcff") is False


# -- small edges of the request hooks --------------------------------------------------------------------


def test_a_client_without_an_address_is_counted_as_one(site):
    with site.app.test_request_context("/login", environ_overrides={"REMOTE_ADDR": ""}):
        assert security.client_ip() == "?"
    with site.app.test_request_context("/login", environ_overrides={"REMOTE_ADDR": "10.1.2.3"}):
        assert security.client_ip() == "10.1.2.3"


def test_a_session_from_before_generations_is_of_generation_zero(site):
    anna = site.client(ANNA)
    with anna.session_transaction() as s:
        del s["generation"]
    assert anna.get("/").status_code == 200
    site.store.end_sessions(ANNA)
    assert anna.get("/").status_code == 302


def test_a_seat_key_with_a_json_list_body_names_no_side(site):
    response = site.client().post(f"/api/games/{site.g}/orders", json=["austria"],
                                  headers={"Authorization": f"Bearer {site.keys['austria']}"})
    assert (response.status_code, error_of(response)) == (401, "A seat key needs ?game=ID&side=SIDE.")


@pytest.mark.parametrize("token", ["", "XXXX", "None", "XXXXXX", "csrf"])
def test_a_session_without_a_token_accepts_none(site, token):
    client = site.client()
    assert client.post("/login", data={"email": ANNA, "action": "link", "csrf_token": token}).status_code == 400
    assert site.store.mails("WHERE kind = 'login'") == []


def test_a_service_refusal_is_a_clear_400(site):
    anna = site.client(ANNA)
    page = anna.post(f"/games/{site.g}/vacation", data={"csrf_token": anna.csrf, "side": "austria", "days": "99"})
    assert page.status_code == 400 and error_of(page).startswith("a vacation may total at most 14 days in this game")
    with site.app.test_request_context("/api/x"):
        g.user = None
        from pbem.server.service import ServiceError

        body, code = security.handle_service_error(ServiceError("no such thing"))
        assert (code, body.json) == (400, {"error": "no such thing", "status": 400})


def test_a_crash_is_logged_with_the_request_and_an_http_error_keeps_its_code(site, caplog):
    from werkzeug.exceptions import NotFound

    with site.app.test_request_context("/api/games/5", method="PUT"):
        g.user = None
        body, code = security.handle_crash(NotFound())
        assert (code, body.json) == (404, {"error": "There is no such page.", "status": 404})
        with caplog.at_level("ERROR"):
            try:
                raise RuntimeError("kaboom")
            except RuntimeError as error:
                body, code = security.handle_crash(error)
    assert code == 500 and "kaboom" not in body.get_data(as_text=True)
    (record,) = [r for r in caplog.records if r.getMessage().startswith("error on")]
    assert record.getMessage() == "error on PUT /api/games/5" and record.exc_info[0] is RuntimeError


def test_who_may_view_a_game(site):
    with site.app.test_request_context("/"):
        g.user = None
        assert security.may_view_game(security.User(email=ANNA), site.g)
        assert security.may_view_game(security.User(email=MOD), site.g)
        assert not security.may_view_game(security.User(email=OTTO), site.g)
        assert not security.may_view_game(None, site.g)
        site.store.update_game(site.g, status="finished")
        assert security.may_view_game(None, site.g)


def test_a_seat_key_with_a_game_that_is_no_number_or_a_broken_json_body(site):
    key = {"Authorization": f"Bearer {site.keys['austria']}"}
    client = site.client()
    bad = client.get("/api/games?game=abc&side=austria", headers=key)
    assert (bad.status_code, error_of(bad)) == (401, "A seat key needs ?game=ID&side=SIDE.")
    broken = client.post(f"/api/games/{site.g}/orders", data="{not json", content_type="application/json",
                         headers=key)
    assert (broken.status_code, error_of(broken)) == (401, "A seat key needs ?game=ID&side=SIDE.")


def test_the_owners_own_wrong_key_tells_nobody_and_a_notice_counts_every_attempt(site):
    from pbem.server import inbox

    service, g_id = site.service, site.g
    site.store.execute("DELETE FROM outbox")
    # the owner's own mistake, while a notice could go: no notice (whatever the case of the address)
    assert not inbox.authenticate(service, g_id, "austria", "wrong", ANNA.upper(), {"id": 1})
    assert [m["to_addr"] for m in site.store.query("SELECT to_addr FROM outbox")] == ["ANNA@example.org"]
    # an earlier attempt on the seat, not yet told: the notice counts both
    site.store.audit("x@example.org", "wrong_key", g_id, detail={"from": "x@example.org", "side": "austria"})
    site.store.audit("y@example.org", "wrong_key", g_id, detail={"from": "y@example.org", "side": "france"})
    assert not inbox.authenticate(service, g_id, "austria", "wrong", "z@example.org", {"id": 2})
    rows = site.store.mails("ORDER BY id")
    assert [(r["to_addr"], r["game_id"]) for r in rows] == \
        [("ANNA@example.org", g_id), ("z@example.org", g_id), (ANNA, g_id)]
    assert rows[2]["body"].startswith(
        f"3 mails tried to act for Austria in game {g_id} with a wrong key since the last notice (the latest from "
        "z@example.org). All were refused; your key is unchanged,")


def test_the_admin_moderates_every_game(site):
    with site.app.test_request_context("/"):
        g.user = None
        assert security.is_moderator(security.User(email=ADMIN), site.g)
        assert not security.is_moderator(security.User(email=FRED), site.g)
