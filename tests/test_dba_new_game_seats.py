"""A Napoleonic DBA kriegsspiel game made with any one commander's seat, and the computer in the seats the maker
ticks, on the new-game form and by the JSON API, over a real HTTP server on loopback (issue 12, the seats of
``command = kriegsspiel``: pbem/games/dba/seats.py)."""

from __future__ import annotations

import html
import urllib.error
import urllib.parse
import urllib.request

from test_around_settings import Http, served  # noqa: F401 -- the site on a real HTTP server
from websupport import ANNA, FRED, csrf

RED = ["red-general", "red-1", "red-2", "red-3"]


def form_post(http: Http, path: str, fields: list[tuple[str, str]]) -> tuple[int, str]:
    page = http.opener.open(http.url + "/games/new", timeout=30).read().decode()
    data = urllib.parse.urlencode([("csrf_token", csrf(page))] + fields).encode()
    try:
        with http.opener.open(urllib.request.Request(http.url + path, data=data), timeout=30) as answer:
            return answer.status, answer.read().decode()
    except urllib.error.HTTPError as error:
        return error.code, error.read().decode()


def newest(site) -> int:
    return max(g["id"] for g in site.store.games())


def test_the_form_offers_each_commanders_seat_and_makes_a_game_with_one_of_them_and_the_computer_in_ticked_ones(served):  # noqa: F811
    anna = Http(served, ANNA)
    page = anna.opener.open(served.url + "/games/new", timeout=30).read().decode()
    assert "Command: kriegsspiel, Meeting engagement at the mill bridge" in page
    assert 'name="seat" value="dba:blue-1"' in page and 'name="computer_seat" value="dba:red-general"' in page
    base = [("title", "One colonel"), ("scenario", "dba:dba-meeting.toml"), ("option.dba.command", "kriegsspiel"),
            ("timezone", "UTC"), ("hours", "24"), ("seat", "dba:blue-1")]
    status, _ = form_post(anna, "/games/new", base + [("computer", "dba:general")]
                          + [("computer_seat", f"dba:{s}") for s in RED])
    assert status == 200  # followed to the game's page
    game_id = newest(served)
    assert served.service.seat(game_id, "blue-1")["email"] == ANNA
    assert served.service.bots_of(game_id) == {s: "general" for s in RED}
    assert served.service.info(game_id)["status"] == "open"  # the other blue commanders' seats wait for players
    fred = Http(served, FRED)
    code, _ = form_post(fred, f"/games/{game_id}/join", [("side", "blue-general"), ("timezone", "UTC")])
    assert code == 200 and served.service.seat(game_id, "blue-general")["email"] == FRED


def test_the_form_refuses_a_ticked_seat_it_cannot_give_the_computer_saying_why(served):  # noqa: F811
    anna = Http(served, ANNA)
    base = [("title", "Refused"), ("scenario", "dba:dba-meeting.toml"), ("option.dba.command", "kriegsspiel"),
            ("timezone", "UTC"), ("seat", "dba:blue-1")]
    before = len(served.store.games())
    for extra, said in (([("computer_seat", "dba:red-1")], "choose a computer player of"),
                        ([("computer", "dba:bot"), ("computer_seat", "dba:blue-1")], "you take blue-1 yourself"),
                        ([("computer", "dba:bot"), ("computer_seat", "dba:wellington")], "the computer cannot play wellington")):
        status, text = form_post(anna, "/games/new", base + extra)
        assert status == 400 and said in text
    status, text = form_post(anna, "/games/new", [(k, v) for k, v in base if k != "option.dba.command"])
    assert status == 400 and "choose your seat" in text  # one seat a side has no blue-1
    assert len(served.store.games()) == before


def test_the_api_lists_the_kriegsspiel_seats_and_makes_a_game_with_one_commanders_seat(served):  # noqa: F811
    anna = Http(served, ANNA)
    _, listed = anna.get("/api/rulesets")
    dba = next(r for r in listed["rulesets"] if r["name"] == "dba")
    meeting = next(s for s in dba["scenarios"] if s["file"] == "dba-meeting.toml")
    assert [s["id"] for s in meeting["seats"]] == ["blue", "red"]
    krieg = [s["id"] for s in meeting["seats_by_option"]["command"]["kriegsspiel"]]
    assert krieg == ["blue-general", "blue-1", "blue-2", "blue-3"] + RED
    status, made = anna.post("/api/games", {"game": "dba", "scenario": "dba-meeting.toml", "title": "API colonel",
                                            "seats": ["blue-2"], "options": {"command": "kriegsspiel"},
                                            "bots": {s: "bot" for s in RED}})
    assert status == 201 and made["ok"], made
    assert served.service.seat(made["id"], "blue-2")["email"] == ANNA
    assert served.service.bots_of(made["id"]) == {s: "bot" for s in RED}
    _, view = anna.get(f"/api/games/{made['id']}?side=blue-2")
    assert view["view"]["commander"] == "blue-2"  # the seat sees as Colonel Cobalt
    assert {e["brigade"] for e in view["view"]["elements"]} == {"blue-2"}


def test_the_kriegsspiel_never_asks_a_question_that_names_the_enemy(served):  # noqa: F811
    """Issue 30 §2: an "ask me" question is written by the umpire, who knows the enemy's brigades and element ids;
    in the kriegsspiel no seat may read them, so the decisions that name the enemy (a volley's target, which enemy
    elements a D destroys, the enemy an element breaks contact with, the enemy a move heads for) are never asked
    there (DS9): the form refuses them, saying why, and a game given them anyway asks only the others."""
    from pbem.core.decisions import Decision
    from pbem.games import ruleset

    anna = Http(served, ANNA)
    base = [("title", "Asked"), ("scenario", "dba:dba-meeting.toml"), ("timezone", "UTC"), ("hours", "24")]
    krieg = base + [("option.dba.command", "kriegsspiel"), ("seat", "dba:blue-1")]
    before = len(served.store.games())
    status, text = form_post(anna, "/games/new", krieg + [("ask", "dba:fire target"), ("ask", "dba:rally")])
    assert status == 400 and "never asks fire target by mail" in html.unescape(text)
    assert len(served.store.games()) == before
    status, _ = form_post(anna, "/games/new", krieg + [("ask", "dba:rally")])
    assert status == 200
    status, _ = form_post(anna, "/games/new", base + [("seat", "dba:blue"), ("ask", "dba:fire target")])
    assert status == 200  # one seat a side: the players see the enemy's brigades, the question may name them

    def asks(options, kinds):
        rules = ruleset("dba")
        seats = {s.id: ANNA for s in rules.seats(served.service.scenario("dba", "dba-meeting.toml"), options)}
        game_id, _ = served.service.create_game("Asked", seats, scenario="dba-meeting.toml", game="dba",
                                                options=options, settings={"hours": 24, "ask": kinds})
        ask = served.service.ask_function(game_id)
        return {kind for kind in kinds if ask(Decision("blue", kind, "?", ("yes", "no"), ("yes",)))}

    kinds = ["fire target", "fire losses", "break contact", "path", "rally", "evade"]
    assert asks({"command": "kriegsspiel"}, kinds) == {"rally", "evade"}
    assert asks({}, kinds) == set(kinds)
