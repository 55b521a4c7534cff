"""Who may see and do what on the web, and the guards around every request.

The authorization matrix is checked over every route of the app: the test
``test_every_route_is_considered`` enumerates ``app.url_map`` and fails if a
route has no entry in ATTACKS (tried as the wrong person) or in PUBLIC (with
the reason it needs none). Austria's player tries to read France's report,
map (PNG and SVG), orders, view and log, and to act for France, through every
route; a player tries every moderator action; outsiders, anonymous visitors
and seat keys try their own way in. Each must fail, and change nothing.
"""

from __future__ import annotations

import html

import pytest

from werkzeug.security import generate_password_hash

from pbem.core.decisions import Decision
from pbem.server import throttle
from pbem.server.store import iso
from pbem.server.web.auth import make_login_token

from websupport import ADMIN, ANNA, FRED, MOD, OTTO, SMALL, Site, csrf

SECRET = "SECRET-FRENCH-PLAN"  # in France's orders and in a ruling on them: never shown to Austria


@pytest.fixture
def world(tmp_path):
    """Game g: Anna (Austria) against Fred (France), moderated by Mod, day 0 played, France's orders on file
    with a secret, a ruling on them, and a question pending for France. Game h: Fred against Otto."""
    site = made_world(tmp_path)
    yield site
    site.store.close()


@pytest.fixture(scope="module")
def one_world(tmp_path_factory):
    """``world`` made once for the matrix of refusals (the 123 attacks each made it again: 24 of the file's 39
    CPU seconds): each attack asserts that it changed nothing of it (``snapshot``), so the next meets the same
    world. Each attack's client has an address of its own (websupport's 10.0.0.N, N < 255), so no attack
    counts against another's sign-in limits; a limit reached would answer 429, which no attack takes as
    refused."""
    site = made_world(tmp_path_factory.mktemp("world"))
    yield site
    site.store.close()


def made_world(tmp_path):
    site = Site(tmp_path)
    service = site.service
    g, keys = service.create_game("Game G", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=3,
                                  moderator=MOD, settings={"hours": 48})
    service.submit(g, "france", f"STANDING PURSUE NEVER  # {SECRET}\n")
    service.resolve_next(g)
    service.moderate(g, MOD, "amend_orders", "a lost mail", day=0, side="france",
                     text=f"STANDING PURSUE NEVER  # {SECRET} amended\n")
    service.submit(g, "france", f"STANDING LOSSES WEAKEST  # {SECRET} on file\n")
    decision = Decision("france", "pursuit", f"Pursue? {SECRET}", ("yes", "no"), ("yes",))
    site.store.set_clock(g, pending={"day": 1, "index": 0, "decision": decision.to_dict(),
                                     "deadline": iso(service.now())})
    h, hkeys = service.create_game("Game H", {"austria": OTTO, "france": FRED}, scenario=SMALL, seed=4,
                                   settings={"hours": 48})
    site.g, site.h, site.keys, site.hkeys = g, h, keys, hkeys
    return site


def snapshot(site):
    """Everything an action could change."""
    s = site.store
    return (s.read_log(site.g), s.seats(site.g), s.get_game(site.g), s.read_log(site.h), s.seats(site.h),
            s.get_game(site.h), len(s.read_audit()))


# -- the matrix ------------------------------------------------------------------------------

# (endpoint, who, method, url, form or json, statuses that count as refused)
# who: a signed-in address, "anon", or "key:<side>" (Game G's seat key as a Bearer token)
DENIED = {403, 404}
ATTACKS = [
    # Austria reads France's side
    ("games.game_page", ANNA, "GET", "/games/{g}?side=france", None, DENIED),
    ("games.game_page", ANNA, "GET", "/games/{g}?side=", None, DENIED),
    ("games.game_page", ANNA, "GET", "/games/{h}", None, DENIED),
    ("games.game_page", OTTO, "GET", "/games/{g}", None, DENIED),
    ("games.game_page", "anon", "GET", "/games/{g}", None, {302}),
    ("games.report_page", ANNA, "GET", "/games/{g}/reports/0?side=france", None, DENIED),
    ("games.report_page", ANNA, "GET", "/games/{g}/reports/0", None, DENIED),
    ("games.report_page", ANNA, "GET", "/games/{g}/reports/0?side=", None, DENIED),
    ("games.report_page", OTTO, "GET", "/games/{g}/reports/0?side=austria", None, DENIED),
    ("games.report_page", "anon", "GET", "/games/{g}/reports/0?side=austria", None, {302}),
    ("games.map_png", ANNA, "GET", "/games/{g}/map/0.png?side=france", None, DENIED),
    ("games.map_png", ANNA, "GET", "/games/{g}/map/now.png?side=france", None, DENIED),
    ("games.map_png", ANNA, "GET", "/games/{g}/map/0.png", None, DENIED),
    ("games.map_png", OTTO, "GET", "/games/{g}/map/0.png?side=austria", None, DENIED),
    ("games.map_clicks", ANNA, "GET", "/games/{g}/map/clicks.json?side=france", None, DENIED),
    ("games.map_clicks", OTTO, "GET", "/games/{g}/map/clicks.json?side=austria", None, DENIED),
    ("games.map_offers", ANNA, "POST", "/games/{g}/map/offers.json",
     {"json": {"side": "france", "text": "", "at": 0, "lines": ["STANDING PURSUE ALWAYS"]}}, DENIED),
    ("games.map_offers", MOD, "POST", "/games/{g}/map/offers.json",
     {"json": {"side": "france", "text": "", "at": 0, "lines": ["STANDING PURSUE ALWAYS"]}}, DENIED),
    ("games.map_offers", OTTO, "POST", "/games/{g}/map/offers.json",
     {"json": {"side": "austria", "text": "", "at": 0, "lines": ["STANDING PURSUE ALWAYS"]}}, DENIED),
    ("games.map_offers", "anon", "POST", "/games/{g}/map/offers.json",
     {"json": {"side": "austria", "text": "", "at": 0, "lines": []}}, {400, 401}),
    ("games.map_png", "anon", "GET", "/games/{g}/map/now.png?side=austria", None, {302}),
    ("games.map_png", ANNA, "GET", "/games/{g}/map/0.png?side=france&w=480", None, DENIED),
    ("games.map_svg", ANNA, "GET", "/games/{g}/map/0.svg?side=france", None, DENIED),
    ("games.map_svg", ANNA, "GET", "/games/{g}/map/now.svg?side=france", None, DENIED),
    ("games.map_svg", OTTO, "GET", "/games/{g}/map/0.svg?side=austria", None, DENIED),
    ("games.map_svg", "anon", "GET", "/games/{g}/map/now.svg?side=austria", None, {302}),
    ("api.game", ANNA, "GET", "/api/games/{g}?side=france", None, DENIED),
    ("api.game", ANNA, "GET", "/api/games/{g}?side=", None, DENIED),
    ("api.game", OTTO, "GET", "/api/games/{g}", None, DENIED),
    ("api.game", "anon", "GET", "/api/games/{g}", None, {401}),
    ("api.game", "key:austria", "GET", "/api/games/{g}?side=france", None, {401}),
    ("api.game", "key:austria", "GET", "/api/games/{h}?side=austria", None, {401}),
    ("api.report", ANNA, "GET", "/api/games/{g}/reports/0?side=france", None, DENIED),
    ("api.report", ANNA, "GET", "/api/games/{g}/reports/0", None, DENIED),
    ("api.report", "key:austria", "GET", "/api/games/{g}/reports/0?side=france", None, {401}),
    ("api.report", "anon", "GET", "/api/games/{g}/reports/0?side=austria", None, {401}),
    ("api.map_svg", ANNA, "GET", "/api/games/{g}/map/0.svg?side=france", None, DENIED),
    ("api.map_svg", ANNA, "GET", "/api/games/{g}/map/now.svg", None, DENIED),
    ("api.map_svg", "key:austria", "GET", "/api/games/{g}/map/0.svg?side=france", None, {401}),
    ("api.map_svg", "anon", "GET", "/api/games/{g}/map/0.svg?side=austria", None, {401}),
    ("api.games", "anon", "GET", "/api/games", None, {401}),
    # Austria acts for France
    ("games.orders", ANNA, "POST", "/games/{g}/orders", {"side": "france", "text": "STANDING PURSUE ALWAYS",
                                                          "action": "submit"}, DENIED),
    ("games.orders", ANNA, "POST", "/games/{g}/orders", {"side": "france", "text": "STANDING PURSUE ALWAYS",
                                                          "action": "check"}, DENIED),
    ("games.orders", MOD, "POST", "/games/{g}/orders", {"side": "france", "text": "STANDING PURSUE ALWAYS",
                                                        "action": "submit"}, DENIED),
    ("games.orders", ANNA, "POST", "/games/{h}/orders", {"side": "austria", "text": "STANDING PURSUE ALWAYS",
                                                          "action": "submit"}, DENIED),
    ("games.standing", ANNA, "POST", "/games/{g}/standing", {"side": "france", "text": "STANDING PURSUE ALWAYS"},
     DENIED),
    ("games.vacation", ANNA, "POST", "/games/{g}/vacation", {"side": "france", "days": "3"}, DENIED),
    ("games.rotate_key", ANNA, "POST", "/games/{g}/key", {"side": "france"}, DENIED),
    ("games.rotate_key", MOD, "POST", "/games/{g}/key", {"side": "france"}, DENIED),
    ("games.answer", ANNA, "POST", "/games/{g}/answer", {"side": "france", "index": "0", "choice": "no"}, DENIED),
    ("games.answer", ANNA, "POST", "/games/{g}/answer", {"side": "austria", "index": "0", "choice": "no"}, {400}),
    ("games.join", ANNA, "POST", "/games/{h}/join", {"side": "france"}, {400}),
    ("games.join", ANNA, "POST", "/games/{g}/join", {"side": "nowhere"}, {404}),
    ("api.orders", ANNA, "POST", "/api/games/{g}/orders",
     {"json": {"side": "france", "text": "STANDING PURSUE ALWAYS"}}, DENIED),
    ("api.orders", "key:austria", "POST", "/api/games/{g}/orders?side=austria",
     {"json": {"side": "france", "text": "STANDING PURSUE ALWAYS"}}, DENIED),
    ("api.orders", "key:austria", "POST", "/api/games/{g}/orders?side=france",
     {"json": {"side": "france", "text": "STANDING PURSUE ALWAYS"}}, {401}),
    ("api.orders", "anon", "POST", "/api/games/{g}/orders", {"json": {"side": "austria", "text": ""}}, {400, 401}),
    # moderator pages and actions, as a player, an outsider, another game's moderator
    ("moderator.console", ANNA, "GET", "/games/{g}/moderate", None, DENIED),
    ("moderator.console", OTTO, "GET", "/games/{g}/moderate", None, DENIED),
    ("moderator.console", MOD, "GET", "/games/{h}/moderate", None, DENIED),
    ("moderator.console", "anon", "GET", "/games/{g}/moderate", None, {302}),
    ("moderator.act", ANNA, "POST", "/games/{g}/moderate/pause", {"why": "x"}, DENIED),
    ("moderator.act", ANNA, "POST", "/games/{g}/moderate/resume", {"why": "x"}, DENIED),
    ("moderator.act", ANNA, "POST", "/games/{g}/moderate/deadline", {"why": "x", "when": "2030-01-01T00:00Z"}, DENIED),
    ("moderator.act", ANNA, "POST", "/games/{g}/moderate/replace", {"why": "x", "side": "france", "email": ANNA},
     DENIED),
    ("moderator.act", ANNA, "POST", "/games/{g}/moderate/amend_orders",
     {"why": "x", "day": "0", "side": "austria", "text": "STANDING PURSUE ALWAYS"}, DENIED),
    ("moderator.act", ANNA, "POST", "/games/{g}/moderate/amend_decision",
     {"why": "x", "day": "0", "index": "0", "answer": "yes"}, DENIED),
    ("moderator.act", ANNA, "POST", "/games/{g}/moderate/rewind", {"why": "x", "day": "0"}, DENIED),
    ("moderator.act", FRED, "POST", "/games/{g}/moderate/pause", {"why": "x"}, DENIED),
    ("moderator.act", MOD, "POST", "/games/{h}/moderate/pause", {"why": "x"}, DENIED),
    ("moderator.act", "anon", "POST", "/games/{g}/moderate/pause", {"why": "x"}, {400, 302}),
    ("moderator.admin", ANNA, "GET", "/admin", None, DENIED),
    ("moderator.admin", MOD, "GET", "/admin", None, DENIED),
    ("moderator.admin", "anon", "GET", "/admin", None, {302}),
    ("games.home", "anon", "GET", "/", None, {302}),
    ("games.new_game", "anon", "GET", "/games/new", None, {302}),
    ("auth.password", "anon", "GET", "/password", None, {302}),
    ("auth.logout_everywhere", "anon", "POST", "/logout/everywhere", {}, {400, 302}),
    ("api.export", ANNA, "GET", "/api/games/{g}/export.json", None, DENIED),  # running: the seed is secret
    ("api.export", "anon", "GET", "/api/games/{g}/export.json", None, DENIED),
    ("api.create", "anon", "POST", "/api/games", {"title": "x"}, {400, 401, 302}),
    # around each game: resigning and draws for another's seat (tests/test_around_web.py has the rest)
    ("around.resign", ANNA, "POST", "/games/{g}/resign", {"side": "france", "confirm": "yes"}, DENIED),
    ("around.resign", MOD, "POST", "/games/{g}/resign", {"side": "france", "confirm": "yes"}, DENIED),
    ("around.resign", "anon", "POST", "/games/{g}/resign", {"side": "austria", "confirm": "yes"}, {400, 302}),
    ("around.draw", ANNA, "POST", "/games/{g}/draw/offer", {"side": "france"}, DENIED),
    ("around.draw", MOD, "POST", "/games/{g}/draw/accept", {"side": "france"}, DENIED),
    ("around.press", OTTO, "GET", "/games/{g}/press?side=france", None, DENIED),
    ("around.press", ANNA, "GET", "/games/{g}/press?side=france", None, DENIED),
    ("around.press", ANNA, "GET", "/games/{g}/press", None, DENIED),  # everything: the moderator's
    ("around.press", ANNA, "POST", "/games/{g}/press", {"side": "france", "to": "austria", "text": "x"}, DENIED),
    ("around.press", MOD, "POST", "/games/{g}/press", {"side": "france", "to": "austria", "text": "x"}, DENIED),
    ("around.replay", "anon", "GET", "/games/{g}/replay", None, DENIED),  # being played, no spectator delay
    ("around.replay", ANNA, "GET", "/games/{g}/replay?view=france", None, DENIED),
    ("around.rematch", OTTO, "POST", "/games/{g}/rematch", {}, {400}),  # not his game, nor over
    ("around.rematch", "anon", "POST", "/games/{g}/rematch", {}, {400, 302}),
    ("notifications.settings", "anon", "GET", "/notifications", None, {302}),
    ("notifications.settings", "anon", "POST", "/notifications", {"mode": "none"}, {400, 302}),
    ("notifications.calendar", "anon", "GET", "/calendar/not-a-token.ics", None, {404}),
    ("around.invite", OTTO, "POST", "/games/{g}/invite", {"side": "france", "email": OTTO}, {400}),
    ("around.invitation", OTTO, "GET", "/games/{g}/invitation", None, {404}),
    ("around.vacations", "anon", "GET", "/vacations", None, {302}),
    ("around.vacations", "anon", "POST", "/vacations", {"starts": "2030-01-01", "ends": "2030-01-02"}, {400, 302}),
    # leagues: the organisers' and members' own tries are in tests/test_league_web.py
    ("leagues.create", "anon", "POST", "/leagues", {"name": "x"}, {400, 302}),
    ("leagues.join", "anon", "POST", "/leagues/1/join", {}, {400, 302}),
    ("leagues.organise", "anon", "POST", "/leagues/1/organise/season", {"name": "x"}, {400, 302}),
    ("leagues.organise", ANNA, "POST", "/leagues/1/organise/season", {"name": "x"}, DENIED),
    ("leagues.tournament", ANNA, "GET", "/tournaments/1", None, DENIED),
    ("leagues.enter", "anon", "POST", "/tournaments/1/enter", {}, {400, 302}),
    ("leagues.console", "anon", "GET", "/tournaments/1/console", None, {302}),
    ("leagues.console", ANNA, "GET", "/tournaments/1/console", None, DENIED),
    ("leagues.act", "anon", "POST", "/tournaments/1/console/start", {}, {400, 302}),
    ("leagues.act", ANNA, "POST", "/tournaments/1/console/start", {}, DENIED),
    ("leagues.profile", "anon", "GET", "/players/anna@example.org", None, {302}),
    ("leagues.bid", "anon", "POST", "/tournaments/1/bid", {"seat": "austria", "bid": "1"}, {400, 302}),
    ("leagues.bid", ANNA, "POST", "/tournaments/1/bid", {"seat": "austria", "bid": "1"}, {400, 404}),
    # the leagues' JSON API (tests/test_league_games.py has the organisers' and players' own tries)
    ("leagues_api.create_league", "anon", "POST", "/api/leagues", {"json": {"name": "x"}}, {400, 401, 302}),
    ("leagues_api.create_league", "key:austria", "POST", "/api/leagues", {"json": {"name": "x"}}, {401, 403}),
    ("leagues_api.join", "anon", "POST", "/api/leagues/1/join", {"json": {}}, {400, 401, 302}),
    ("leagues_api.create_tournament", ANNA, "POST", "/api/leagues/1/tournaments",
     {"json": {"name": "x", "format": "swiss"}}, DENIED),
    ("leagues_api.tournament", ANNA, "GET", "/api/tournaments/1", None, DENIED),
    ("leagues_api.enter", "key:austria", "POST", "/api/tournaments/1/enter", {"json": {}}, {401, 403}),
    ("leagues_api.act", ANNA, "POST", "/api/tournaments/1/start", {"json": {}}, DENIED),
    ("leagues_api.act", "key:austria", "POST", "/api/tournaments/1/start", {"json": {}}, {401, 403}),
]
PUBLIC = {  # routes with no side data: the reason, and the test that covers them
    "games.favicon": "the site's icon (test_pages.py)",
    "static": "the style sheet",
    "auth.login": "the sign-in form (test_login_rate_limit_*, test_csrf_*)",
    "auth.confirm": "a sign-in link (test_web.py; its guesses are rate limited: test_token_guesses_are_limited)",
    "auth.logout": "signing out (test_csrf_refusals)",
    "api.rulesets": "the installed games, their scenarios and options: no game's data",
    "leagues.index": "the list of leagues: names and member counts (test_league_web.py)",
    "leagues.league": "a league's rules, members' names, tournaments and ratings (test_league_web.py)",
    "leagues_api.leagues": "the list of leagues, as /leagues shows it",
    "leagues_api.league": "a league's rules, seasons and tournaments, as its page shows them (no member's address)",
    "language.choose": "the reader's language, his own only: a bad code refused, a next page kept on this site, "
                       "no CSRF token refused (test_i18n.py)",
}


def test_every_route_is_considered(world):
    endpoints = {rule.endpoint for rule in world.app.url_map.iter_rules()}
    considered = {a[0] for a in ATTACKS} | set(PUBLIC)
    assert endpoints - considered == set(), "routes nobody tried to break into"
    assert considered - endpoints == set(), "attacks on routes that do not exist"


@pytest.mark.parametrize("attack", ATTACKS, ids=[f"{a[0]}-{a[1].split('@')[0]}-{a[3]}" for a in ATTACKS])
def test_the_wrong_person_is_refused(one_world, attack):
    world = one_world
    endpoint, who, method, url, payload, refused = attack
    url = url.format(g=world.g, h=world.h)
    headers = {}
    if who.startswith("key:"):
        client = world.client()
        headers["Authorization"] = f"Bearer {world.keys[who[4:]]}"
    elif who == "anon":
        client = world.client()
    else:
        client = world.client(who)
    before = snapshot(world)
    if method == "GET":
        response = client.get(url, headers=headers)
    elif payload and "json" in payload:
        if who not in ("anon",) and not who.startswith("key:"):
            headers["X-CSRF-Token"] = client.csrf
        response = client.post(url, json=payload["json"], headers=headers)
    else:
        data = dict(payload or {})
        if who != "anon":
            data["csrf_token"] = getattr(client, "csrf", "")
        response = client.post(url, data=data, headers=headers)
    assert response.status_code in refused, (response.status_code, response.text[:500])
    assert SECRET not in response.text
    assert "Traceback" not in response.text
    if response.status_code == 302:
        assert "/login" in response.location
    assert snapshot(world) == before, "a refused request changed something"


def every_get(site, game_id):
    """Every GET url of the app for a game, with every side value."""
    urls = ["/", "/games/new", "/password", "/admin", "/api/games"]
    for side in ("", "?side=austria", "?side=france", "?side="):
        urls += [f"/games/{game_id}{side}", f"/games/{game_id}/reports/0{side}", f"/games/{game_id}/reports/1{side}",
                 f"/games/{game_id}/map/0.png{side}", f"/games/{game_id}/map/now.png{side}",
                 f"/games/{game_id}/moderate", f"/api/games/{game_id}{side}", f"/api/games/{game_id}/reports/0{side}",
                 f"/api/games/{game_id}/map/0.svg{side}", f"/api/games/{game_id}/map/now.svg{side}"]
    return urls


def test_nothing_austria_can_fetch_shows_frances_orders_log_or_question(world):
    anna = world.client(ANNA)
    seen_own = False
    for url in every_get(world, world.g):
        response = anna.get(url)
        assert b"SECRET" not in response.data, url
        if url == f"/games/{world.g}?side=austria":
            assert response.status_code == 200
            seen_own = 'id="audit"' in response.text and "amend orders" in response.text
    assert seen_own  # the ruling itself is in Austria's log, without France's orders
    # while France, the moderator and the admin do see them
    assert SECRET in world.client(FRED).get(f"/games/{world.g}").text
    assert SECRET in world.client(FRED).get(f"/api/games/{world.g}").text
    assert SECRET in world.client(MOD).get(f"/games/{world.g}/moderate").text
    assert world.client(MOD).get(f"/games/{world.g}/map/0.png?side=france").status_code == 200
    assert world.client(ADMIN).get(f"/games/{world.g}/moderate").status_code == 200


def test_each_side_sees_only_its_own_view(world):
    anna = world.client(ANNA)
    view = anna.get(f"/api/games/{world.g}").json["view"]
    assert view["viewer"] == "austria" and set(view["standing"]) == {"austria"}
    assert view == world.service.game(world.g).view("austria")
    png = anna.get(f"/games/{world.g}/map/0.png?side=austria").data
    assert png == world.service.map_png(world.g, 0, "austria") != world.service.map_png(world.g, 0, None)


def test_a_finished_game_is_open_to_spectators_but_not_its_sides(tmp_path):
    site = Site(tmp_path)
    game_id, _ = site.service.create_game("Over", {}, scenario=SMALL, seed=5)
    for _ in range(30):
        if site.service.game(game_id).over:
            break
        site.service.resolve_next(game_id)
    assert site.service.game(game_id).over
    last = len(site.service.game(game_id).days) - 1
    for client in (site.client(OTTO), site.client()):
        page = client.get(f"/games/{game_id}")
        assert page.status_code == 200 and "Spectator view" in page.text and 'id="orders-text"' not in page.text
        report = client.get(f"/games/{game_id}/reports/{last}")
        assert report.status_code == 200 and "spectators" in report.text
        assert client.get(f"/games/{game_id}/map/{last}.png").status_code == 200
        assert client.get(f"/api/games/{game_id}/map/{last}.svg").status_code == 200
        assert client.get(f"/games/{game_id}/reports/{last}?side=france").status_code in {302, 403}
        assert client.get(f"/games/{game_id}/moderate").status_code in {302, 403}


def test_a_forfeited_game_is_open_to_spectators(tmp_path):
    site = Site(tmp_path)
    game_id, _ = site.game(settings={"hours": 48, "miss_limit": 1, "miss_policy": "forfeit"})
    assert site.service.submit(game_id, "austria", "FINAL\n").ok
    site.service.resolve_next(game_id)
    outsider = site.client(OTTO)
    assert outsider.get(f"/games/{game_id}").status_code == 403  # not while it is played
    site.service.missed(game_id, "france", 1)  # France misses a day once too often: it forfeits
    assert site.store.get_game(game_id)["status"] == "finished" and site.service.game(game_id).over
    for client in (outsider, site.client()):
        page = client.get(f"/games/{game_id}")
        assert page.status_code == 200 and "Spectator view" in page.text and 'id="orders-text"' not in page.text
        report = client.get(f"/games/{game_id}/reports/0")
        assert report.status_code == 200 and "France forfeits" in report.text
        assert client.get(f"/games/{game_id}/reports/0?side=france").status_code in {302, 403}
    anna = site.client(ANNA)  # the players no longer give orders
    assert 'id="orders-text"' not in anna.get(f"/games/{game_id}?side=austria").text


# -- CSRF ----------------------------------------------------------------------------------------


def test_csrf_refusals(world):
    anna = world.client(ANNA)
    other = world.client(FRED)
    moderator = world.client(MOD)  # signed in before the snapshot: a first sign-in is audited (address_confirmed)
    before = snapshot(world)
    forms = [("/games/{g}/orders", {"side": "austria", "text": "STANDING PURSUE ALWAYS", "action": "submit"}),
             ("/games/{g}/standing", {"side": "austria", "text": "STANDING PURSUE ALWAYS"}),
             ("/games/{g}/vacation", {"side": "austria", "days": "1"}),
             ("/games/{g}/key", {"side": "austria"}),
             ("/games/{h}/join", {"side": "austria"}),
             ("/games/new", {"title": "x", "seat": "austria"}),
             ("/password", {"new": "a long password", "again": "a long password"}),
             ("/logout", {})]
    for url, data in forms:
        url = url.format(g=world.g, h=world.h)
        for token in (None, "wrong", other.csrf):
            sent = dict(data) if token is None else {**data, "csrf_token": token}
            response = anna.post(url, data=sent)
            assert response.status_code == 400, (url, token)
            assert "security token" in response.text
    assert moderator.post(f"/games/{world.g}/moderate/pause", data={"why": "x"}).status_code == 400
    # the JSON API with a session needs the header
    api = anna.post(f"/api/games/{world.g}/orders", json={"side": "austria", "text": "STANDING PURSUE ALWAYS"})
    assert api.status_code == 400 and "security token" in api.json["error"]
    assert snapshot(world) == before
    assert anna.get("/").status_code == 200  # still signed in: the logout was refused too
    # a sign-in form without the token is refused as well (no login CSRF)
    fresh = world.client()
    assert fresh.post("/login", data={"email": ANNA, "action": "link"}).status_code == 400


def test_a_seat_key_needs_no_csrf_token_and_a_wrong_key_gets_nothing(world):
    client = world.client()
    ok = client.post(f"/api/games/{world.g}/orders?side=austria", json={"side": "austria", "text": ""},
                     headers={"Authorization": f"Bearer {world.keys['austria']}"})
    assert ok.status_code == 200
    wrong = client.get(f"/api/games/{world.g}?side=austria", headers={"Authorization": "Bearer not-the-key"})
    assert wrong.status_code == 401 and "not the key" in wrong.json["error"]
    # a Bearer header does not count on the pages (only the session does)
    page = client.get(f"/games/{world.g}?side=austria", headers={"Authorization": f"Bearer {world.keys['austria']}"})
    assert page.status_code == 302


# -- sessions, cookies, headers --------------------------------------------------------------------


def session_cookie(client) -> str:
    token = make_login_token(client.application.extensions["pbem"]["service"].store, ANNA,
                             client.application.extensions["pbem"]["service"].now())
    page = client.get(f"/login/{token}")
    response = client.post(f"/login/{token}", data={"csrf_token": csrf(page.text)})
    return [h for h in response.headers.getlist("Set-Cookie") if h.startswith("pbem_session=")][0]


def test_cookie_flags_over_http(tmp_path):
    cookie = session_cookie(Site(tmp_path).client())
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie


def test_cookie_flags_over_https(tmp_path):
    site = Site(tmp_path, base_url="https://pbem.example.org")
    client = site.app.test_client()
    client.environ_base["wsgi.url_scheme"] = "https"
    cookie = session_cookie(client)
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" in cookie


def test_security_headers_and_no_open_redirect(world):
    page = world.client(ANNA).get(f"/games/{world.g}")
    assert page.headers["X-Frame-Options"] == "DENY"
    assert "default-src 'self'" in page.headers["Content-Security-Policy"]
    assert page.headers["X-Content-Type-Options"] == "nosniff"
    # the game page is kept by the reader's browser alone and asked again each time, with its ETag (issue 35:
    # a 304 when unchanged); every other signed-in page is not kept at all
    assert page.headers["Cache-Control"] == "private, no-cache" and page.headers["ETag"]
    assert "no-store" in world.client(ANNA).get("/").headers["Cache-Control"]
    client = world.client()
    token = make_login_token(world.store, ANNA, world.service.now())
    form = client.get(f"/login/{token}")
    done = client.post(f"/login/{token}", data={"csrf_token": csrf(form.text), "next": "//evil.example/x"})
    assert done.location == "/"
    login = client.get("/login?next=https://evil.example/")
    assert login.status_code == 302 and login.location == "/"


def test_titles_cannot_inject_markup(world):
    game_id, _ = world.service.create_game("<script>alert(1)</script>", {"austria": ANNA, "france": FRED},
                                           scenario=SMALL, seed=3)
    world.service.resolve_next(game_id)
    anna = world.client(ANNA)
    for url in ("/", f"/games/{game_id}", f"/games/{game_id}/reports/0?side=austria",
                f"/api/games/{game_id}/map/0.svg?side=austria"):
        assert "<script>alert(1)" not in anna.get(url).text, url
    assert "&lt;script&gt;" in anna.get("/").text


# -- the sign-in rate limit --------------------------------------------------------------------------


def login_form(client, email, password="wrong password", action="password"):
    form = client.get("/login")
    return client.post("/login", data={"csrf_token": csrf(form.text), "email": email, "password": password,
                                       "action": action})


def test_wrong_passwords_block_the_pair_not_the_owner(world):
    """Wrong passwords from one client for Anna block that client for Anna only: Anna's own
    client signs in, and the guessing client may still sign in as someone else."""
    world.store.set_password_hash(ANNA, generate_password_hash("right one"))
    world.store.set_password_hash(FRED, generate_password_hash("fred's one"))
    guesser = world.client(ip="10.9.0.1")
    for i in range(throttle.PASSWORD_PER_PAIR):
        assert login_form(guesser, ANNA).status_code == 401
    blocked = login_form(guesser, ANNA, "right one")
    assert blocked.status_code == 429
    assert "Too many sign-in attempts" in blocked.text and "15 minutes" in blocked.text
    assert "Traceback" not in blocked.text
    assert login_form(world.client(ip="10.9.1.1"), ANNA, "right one").status_code == 302  # the owner
    assert login_form(guesser, FRED, "fred's one").status_code == 302


def test_many_clients_guessing_one_password_never_close_the_link(world):
    world.store.set_password_hash(ANNA, generate_password_hash("right one"))
    for i in range(throttle.PASSWORD_PER_ADDRESS):
        assert login_form(world.client(ip=f"10.9.{i // 200}.{i % 200}"), ANNA).status_code == 401
    paused = login_form(world.client(ip="10.9.9.9"), ANNA, "right one")
    assert paused.status_code == 429 and "Ask for a sign-in link" in paused.text
    assert login_form(world.client(ip="10.9.9.9"), ANNA, action="link").status_code == 200
    (link,) = world.store.mails("WHERE kind = 'login' AND to_addr = ?", (ANNA,))
    assert "/login/" in link["body"]


def test_login_rate_limit_per_client(world):
    client = world.client(ip="10.8.0.1")
    for i in range(throttle.PASSWORD_PER_CLIENT):
        assert login_form(client, f"user{i}@example.org").status_code == 401
    assert login_form(client, "someone.else@example.org").status_code == 429
    assert login_form(world.client(ip="10.8.0.2"), "someone.else@example.org").status_code == 401


def test_link_requests_neither_lock_out_nor_flood_the_address(world):
    """Ten link requests for an address from one client: three mails at most, and the owner
    still signs in by password and by link, from any client."""
    world.store.set_password_hash(OTTO, generate_password_hash("otto's password"))
    attacker = world.client(ip="10.7.0.1")
    for i in range(10):
        assert login_form(attacker, OTTO, action="link").status_code == 200
    assert login_form(attacker, OTTO, action="link").status_code == 429  # that client asked too often
    assert len(world.store.mails("WHERE kind = 'login'")) == throttle.LINKS_PER_ADDRESS
    assert login_form(world.client(ip="10.7.1.1"), OTTO, "otto's password").status_code == 302
    assert login_form(world.client(ip="10.7.1.2"), OTTO, action="link").status_code == 200
    token = make_login_token(world.store, OTTO, world.service.now())  # a link already mailed still works
    owner = world.client(ip="10.7.1.3")
    form = owner.get(f"/login/{token}")
    assert owner.post(f"/login/{token}", data={"csrf_token": csrf(form.text)}).status_code == 302


def test_token_guesses_are_limited(world):
    client = world.client(ip="10.6.0.1")
    for i in range(throttle.PASSWORD_PER_CLIENT):
        assert client.get(f"/login/guess{i}").status_code == 400
    assert client.get("/login/guess-again").status_code == 429


def test_wrong_seat_keys_are_limited(world):
    client = world.client(ip="10.5.0.1")
    for i in range(throttle.PASSWORD_PER_CLIENT):
        assert client.get(f"/api/games/{world.g}?side=austria", headers={"Authorization": f"Bearer x{i}"}
                          ).status_code == 401
    right = client.get(f"/api/games/{world.g}?side=austria",
                       headers={"Authorization": f"Bearer {world.keys['austria']}"})
    assert right.status_code == 429 and "Too many" in right.json["error"]


# -- errors are pages, never stack traces --------------------------------------------------------------


def test_errors_are_clear_pages_without_stack_traces(world, monkeypatch):
    anna = world.client(ANNA)
    cases = [(anna.get("/games/999"), 404, "There is no game 999"),
             (anna.get("/no/such/page"), 404, "There is no such page"),
             (anna.get(f"/games/{world.g}/reports/99?side=austria"), 404, "has not been played"),
             (anna.get(f"/games/{world.g}/map/x.png?side=austria"), 404, "has not been played"),
             (anna.get("/logout"), 405, "does not take GET"),
             (anna.post("/games/new", data={"csrf_token": anna.csrf}), 400, "give the game a title")]
    for response, code, words in cases:
        assert response.status_code == code
        assert 'id="error-message"' in response.text or code == 400
        assert words in html.unescape(response.text)
        assert "Traceback" not in response.text and "werkzeug" not in response.text.lower()
    api = [(anna.get("/api/games/999"), 404), (anna.post("/api/games", headers={"X-CSRF-Token": anna.csrf}), 400),
           (anna.post(f"/api/games/{world.g}/orders", data="not json", headers={"X-CSRF-Token": anna.csrf}), 400)]
    for response, code in api:
        assert response.status_code == code and response.is_json and response.json["error"]

    def boom(*args, **kwargs):
        raise RuntimeError("kaboom: /secret/path/in/the/message")

    monkeypatch.setattr(world.service, "status", boom)
    monkeypatch.setattr(world.service, "orders_on_file", boom)
    crashed = anna.get(f"/games/{world.g}")
    assert crashed.status_code == 500
    assert "Something went wrong" in crashed.text
    assert "kaboom" not in crashed.text and "Traceback" not in crashed.text
    api_crash = anna.get(f"/api/games/{world.g}")
    assert api_crash.status_code == 500 and "kaboom" not in api_crash.text and api_crash.json["error"]


def test_a_password_change_or_sign_out_everywhere_ends_the_other_sessions(world):
    """Sessions are signed cookies, and yet they can be ended: a session carries its player's
    session generation, which a password change or "sign out everywhere" moves on."""
    here, there = world.client(ANNA), world.client(ANNA)
    assert here.get("/").status_code == 200 and there.get("/").status_code == 200
    page = here.post("/password", data={"csrf_token": here.csrf, "new": "correct horse", "again": "correct horse"})
    assert page.status_code == 200 and "Every other session" in page.text
    assert here.get("/").status_code == 200  # the session that changed the password goes on
    assert there.get("/").status_code == 302  # the other one is over
    assert there.get("/").headers["Location"].startswith("/login")
    again = world.client(ANNA)
    assert again.get("/").status_code == 200
    assert again.post("/logout/everywhere", data={"csrf_token": again.csrf}).status_code == 302
    assert again.get("/").status_code == 302 and here.get("/").status_code == 302
    assert world.client(ANNA).get("/").status_code == 200  # signing in again works at once
    assert world.client(FRED).get("/").status_code == 200  # nobody else was signed out
    actions = [row["action"] for row in world.store.read_audit() if row["who"] == ANNA]
    assert "password" in actions and "sign_out_everywhere" in actions
