"""Napoleonic DBA's kriegsspiel fog of war, leak-tested through the real server (issue 30 §2; DS7, DS8).

Whole kriegsspiel games of the advance guards (maps/dba-advance-guards.toml: a general and two colonels a side)
are played by the general bots through a real server: a SQLite file, the web app served by waitress on
loopback, orders posted to the JSON API with each seat's key, turns resolved by the service, each report queued
in the outbox. After every turn, every output of every seat is read back and searched, by the leak oracle
(tests/leak_oracle.py, which never imports a view module), for what that seat's own troops could not see and no
courier told it:

- the API's game (with the view), its report and its map SVG; the map PNG (its text chunks; its picture is
  drawn from the SVG checked); the game page and the report page, signed in by a mailed link; every mail queued
  for the seat (text, HTML, view.json); the export before the end (refused, and its answer says nothing);
  offers.json (the orders check behind the map's offers, asked of the lines the seat could write);
- what is searched for: an enemy element's real id (it says its brigade: ``red-1-2``), the army's id of an
  enemy element the seat never saw nor was told of (``E-7``), an enemy brigade or officer named outside the
  public seat titles; in the view, an enemy element with a brigade, and an element of the seat's own command
  placed where he could not know it stands (his eyes, his deployment, or a report that reached him, DS7); in the
  texts, such an element written beside the place it stands at now;
- in every language: each seat's player reads the game in one of the five (``seat_languages``: the seats of a game
  in different ones, turned by the seed; the API asked in it), and the oracle looks for the names, the events'
  texts and the places as each language's catalog writes them.

The suite plays ``--fog-games`` games (default 1, cut at ``--fog-days``, default 6 turns); the long run,
``pytest tests/test_dba_fog.py --fog-games 50 --fog-days 0``, plays 50 whole games (docs/testing.md).
"""

from __future__ import annotations

import json
import random
import re
import urllib.error
import urllib.request

import pytest
from leak_oracle import all_ids, check_view_json, dba_known_positions, knowledge
from leak_oracle import check as oracle_check
from test_leak_oracle import Server, mails_for
from test_leaks import png_text_chunks

from pbem.core.orders import OrdersError
from pbem.games import ruleset
from pbem.lang import LANGUAGES

RULES = ruleset("dba")
SCENARIO = "dba-advance-guards.toml"
KRIEG = {"command": "kriegsspiel"}
VIEW_ID = re.compile(r"^E-\d+$")


@pytest.fixture
def server(tmp_path):
    server = Server(tmp_path)
    yield server
    server.close()


def known_positions(game, seat: str) -> dict[str, set[tuple[int, int]]]:
    """DS7: where the kriegsspiel commander ``seat`` may know each element of his side to stand (the oracle's
    ``dba_known_positions``: his deployment, his eyes, the reports that reached him; not view.py)."""
    return dba_known_positions(game, seat)


def check_fog_view(what: str, game, seat: str, view: dict) -> int:
    """DS8 and DS7 in a kriegsspiel seat's view: every enemy element by an army id, with no brigade; every element
    of his command where he may know it stands. Returns how many enemy elements the view shows."""
    enemy = view["enemy"] + view["last_known"]
    for e in enemy:
        eid = e.get("id", e.get("element"))
        assert VIEW_ID.match(eid) and not e["brigade"], f"{what}: an enemy element shown as {eid} of {e['brigade']!r}"
    places = known_positions(game, seat)
    lead = {b.id for b in game.state.brigades.values() if b.commander == seat}
    for e in view["elements"]:
        if e["brigade"] in lead:
            continue
        assert (e["x"], e["y"]) in places.get(e["id"], ()), (
            f"{what}: {seat} is shown {e['id']} at ({e['x']}, {e['y']}), where he neither saw it nor was told of it")
    return len(enemy)


def post_offers(server: Server, browser, game_id: int, seat: str, lines: list[str]) -> str:
    page = server.get(f"/games/{game_id}?side={seat}", opener=browser)
    token = re.search(r'name="csrf_token" value="([^"]+)"', page).group(1)
    body = json.dumps({"side": seat, "text": "", "at": 0, "replace": False, "lines": lines}).encode()
    request = urllib.request.Request(server.url + f"/games/{game_id}/map/offers.json", data=body, method="POST",
                                     headers={"Content-Type": "application/json", "X-CSRF-Token": token})
    try:
        with browser.open(request, timeout=60) as answer:
            return answer.read().decode()
    except urllib.error.HTTPError as refused:  # a seat that owes no orders now: refused, saying why
        assert refused.code == 404
        return refused.read().decode()


def seat_languages(seats: list[str], seed: int) -> dict[str, str]:
    """Each seat's player reads the game in one of the five languages (pbem.lang.LANGUAGES), the seats of a
    game in different ones, turned by the seed: over five games every seat reads every language."""
    codes = list(LANGUAGES)
    return {seat: codes[(n + seed) % len(codes)] for n, seat in enumerate(seats)}


def play_fog_game(server: Server, seed: int, days: int, png_days: str = "last") -> dict:
    """One kriegsspiel game of the general bots through the server, every output of every seat checked after
    every turn (``days``: turns played, 0: to the end). The map PNG is checked after each turn (``png_days="all"``)
    or after the last only (drawing it is the slow part). Returns counts of what was checked."""
    service = server.service
    seats = [s.id for s in RULES.seats(service.scenario("dba", SCENARIO), KRIEG)]
    email = {s: f"{s}.{seed}@example.org" for s in seats}  # its own addresses: no mail of an earlier game
    langs = seat_languages(seats, seed)
    for seat in seats:
        service.store.set_language(email[seat], langs[seat])
    game_id, keys = service.create_game(f"Fog {seed}", email, scenario=SCENARIO, seed=seed,
                                        settings={"hours": 48}, game="dba", options=KRIEG)
    service.run_jobs()
    browsers = {s: server.browser(email[s]) for s in seats}
    seen_mail = {s: 0 for s in seats}
    bot = RULES.bots()["general"]
    rng = random.Random(seed)
    counts = {"turns": 0, "outputs": 0, "enemy shown": 0, "fire": 0, "pngs": 0, "own unknown": 0}
    while True:
        game = service.game(game_id)
        if game.over or (days and counts["turns"] >= days):
            break
        server.send_bot_orders(game, game_id, keys, bot, rng, who="general")
        day = service.resolve_next(game_id, ask=False)
        service.run_jobs()
        counts["turns"] += 1
        game = service.game(game_id)
        counts["fire"] += sum(e.kind == "fire" for e in game.days[-1].events)
        every = all_ids(game)
        last = game.over or (days and counts["turns"] >= days)
        for seat in seats:
            known = [knowledge(game, seat)]
            counts["own unknown"] += len(known[0].places)  # elements of his side whose place he may not know
            where = f"fog seed {seed}, turn {day}, {seat} ({langs[seat]})"
            args, key, browser, lang = f"?game={game_id}&side={seat}", keys[seat], browsers[seat], langs[seat]

            def check(what: str, text: str) -> None:
                oracle_check(f"{where}: {what}", text, known)
                counts["outputs"] += 1

            api = json.loads(server.get(f"/api/games/{game_id}{args}", key, lang=lang))
            check_view_json(f"{where}: API view", api["view"], known, every)
            counts["enemy shown"] += check_fog_view(f"{where}: API view", game, seat, api["view"])
            check("API game", json.dumps(api, ensure_ascii=False))
            check("API report", server.get(f"/api/games/{game_id}/reports/{day}{args}", key, lang=lang))
            check("API map", server.get(f"/api/games/{game_id}/map/{day}.svg{args}", key, lang=lang))
            if png_days == "all" or last:
                request = urllib.request.Request(server.url + f"/games/{game_id}/map/{day}.png?side={seat}")
                with browser.open(request, timeout=120) as answer:
                    for chunk in png_text_chunks(answer.read()):
                        check("map PNG text", chunk)
                counts["pngs"] += 1
            check("game page", server.get(f"/games/{game_id}?side={seat}", opener=browser))
            check("report page", server.get(f"/games/{game_id}/reports/{day}?side={seat}", opener=browser))
            try:
                server.get(f"/api/games/{game_id}/export.json{args}", key, lang=lang)
                assert game.over, f"{where}: the export was given before the end"
            except urllib.error.HTTPError as refused:
                assert refused.code == 403 and not game.over
                check("export refused", refused.read().decode())
            if seat in game.turn().seats:  # the orders check behind offers.json, on the lines he could write
                mine = [e["id"] for e in api["view"]["enemy"] + [dict(s, id=s["element"])
                                                                 for s in api["view"]["last_known"]]]
                check("offers.json", post_offers(server, browser, game_id, seat,
                                                 [f"ATTACK {eid}" for eid in mine[:6]] + ["ATTACK NEAREST ENEMY"]))
            for outbox_id, mail, views in mails_for(server.store, email[seat], seen_mail[seat],
                                                    service.attachment):
                seen_mail[seat] = outbox_id
                check(f"mail {outbox_id}", mail)
                for view in views:
                    check_view_json(f"{where}: view.json of mail {outbox_id}", view, known, every)
                    check_fog_view(f"{where}: view.json of mail {outbox_id}", game, seat, view)
    print(f"fog: seed {seed}: {counts}")
    return counts


def test_every_output_of_every_kriegsspiel_seat_keeps_the_fog(server, request):
    games, days = request.config.getoption("fog_games"), request.config.getoption("fog_days")
    import os

    base = int(os.environ.get("PBEM_FOG_SEED") or 7)
    total: dict[str, int] = {}
    for seed in range(base, base + games):
        for k, v in play_fog_game(server, seed, days).items():
            total[k] = total.get(k, 0) + v
    print(f"fog: {games} games from seed {base}: {total}")
    assert total["turns"] >= games and total["pngs"] >= games * 6
    assert total["enemy shown"] > 0, "no seat ever saw an enemy: the fog was not tested"


def play_engine_game(seed: int) -> dict:
    """One whole kriegsspiel game of the general bots on the engine alone (pbem.core.game, no server), every seat's
    outputs after every turn — its view (as JSON and checked as check_fog_view does), its report (text, Markdown,
    the orders form), its map SVG — checked by the leak oracle: the long run's cheaper half, the same checks on
    what the server sends (tests/test_dba_fog.py's server game reads them back over HTTP)."""
    from pbem.core.game import Game
    from pbem.core.ruleset import options_of

    scenario = RULES.load_scenario(RULES.scenarios()["dba-advance-guards"])
    game = Game(RULES, scenario, seed, options=options_of(RULES, KRIEG))
    seats = [s.id for s in RULES.seats(scenario, game.options)]
    bot = RULES.bots()["general"]
    counts = {"turns": 0, "outputs": 0, "enemy shown": 0, "fire": 0}
    while not game.over:
        for seat in game.turn().seats:
            game.submit(seat, bot.orders(scenario, game.view(seat), seed + game.day))
        for seat in game.turn().others:
            game.submit(seat, "")
        game.advance()
        day = game.day - 1
        counts["turns"] += 1
        counts["fire"] += sum(e.kind == "fire" for e in game.days[-1].events)
        every = all_ids(game)
        for seat in seats:
            known = [knowledge(game, seat)]
            where = f"fog engine seed {seed}, turn {day}, {seat}"
            view = game.view(seat)
            check_view_json(f"{where}: view", view, known, every)
            counts["enemy shown"] += check_fog_view(f"{where}: view", game, seat, view)
            report = RULES.report(game, day, seat, game_id="1")
            svg = RULES.render_svg(scenario, view)
            for what, text in (("view", json.dumps(view, ensure_ascii=False)), ("report", report.text),
                               ("report Markdown", report.markdown), ("orders form", report.template),
                               ("map SVG", svg)):
                oracle_check(f"{where}: {what}", text, known)
                counts["outputs"] += 1
    return counts


def test_whole_kriegsspiel_games_on_the_engine_keep_the_fog(request):
    """``--fog-engine-games`` whole games (default 1; the long run: 50) checked on the engine's outputs."""
    import os

    games = request.config.getoption("fog_engine_games")
    base = int(os.environ.get("PBEM_FOG_SEED") or 1)
    total: dict[str, int] = {}
    for seed in range(base, base + games):
        counts = play_engine_game(seed)
        print(f"fog engine: seed {seed}: {counts}")
        for k, v in counts.items():
            total[k] = total.get(k, 0) + v
    print(f"fog engine: {games} whole games: {total}")
    assert total["turns"] >= games and total["enemy shown"] > 0


# -- the parts, each on the engine -------------------------------------------------------------------------------

def _met(seed: int = 2, turns: int = 6):
    """A kriegsspiel game of the advance guards played by the general bots until an enemy is seen and fired at."""
    from pbem.core.game import Game
    from pbem.core.ruleset import options_of

    scenario = RULES.load_scenario(RULES.scenarios()["dba-advance-guards"])
    game = Game(RULES, scenario, seed, options=options_of(RULES, KRIEG))
    bot = RULES.bots()["general"]
    while game.day < turns:
        for seat in game.turn().seats:
            game.submit(seat, bot.orders(scenario, game.view(seat), seed))
        for seat in game.turn().others:
            game.submit(seat, "")
        game.advance()
    return game


def test_a_kriegsspiel_seat_reads_an_enemy_element_by_its_armys_id_with_no_brigade():
    game = _met()
    view = game.view("blue-1")
    assert view["enemy"], "the advance guards meet by turn 6 (seed 2)"
    ids = {e["id"] for e in view["enemy"]}
    assert all(VIEW_ID.match(i) for i in ids) and {e["brigade"] for e in view["enemy"]} == {""}
    real = {v: k for k, v in game.state.enemy_ids["blue"].items()}
    assert {real[i].rsplit("-", 1)[0] for i in ids} <= {"red-1", "red-3"}  # each is a red element
    # the same element keeps its id the next turn, and the other seat of the army reads the same id
    same = next(iter(ids))
    for seat in game.turn().seats:
        game.submit(seat, "")
    game.advance()
    later = game.view("blue-1")
    assert same in {e["id"] for e in later["enemy"]} | {s["element"] for s in later["last_known"]}
    # the report's enemy table has no brigade column; the moderator reads the real ids
    report = RULES.report(game, game.day - 1, "blue-1")
    enemy_part = report.text.split("The enemy")[1].split("\n\n")[0]
    assert "brigade" not in enemy_part and "red-" not in enemy_part
    assert any(e["id"].startswith("red-") for e in game.view(None)["enemy"] or game.view(None)["elements"])


def test_the_one_seat_a_side_game_keeps_the_tabletop_view_with_enemy_brigades():
    """DS8: with one seat a side the two players stand at the table (004 has no hidden order of battle); an enemy
    element seen is named by its own id, with its brigade, as ATTACK <enemy brigade> needs."""
    from pbem.core.game import Game

    scenario = RULES.load_scenario(RULES.scenarios()["dba-advance-guards"])
    game = Game(RULES, scenario, 2)
    bot = RULES.bots()["general"]
    while game.day < 6:
        for seat in game.turn().seats:
            game.submit(seat, bot.orders(scenario, game.view(seat), 2))
        game.advance()
    seen = game.view("blue")["enemy"] + game.view("blue")["last_known"]
    assert seen and all(e.get("id", e.get("element")).startswith("red-") and e["brigade"] for e in seen)


def test_a_fire_line_names_no_enemy_brigade_and_the_enemy_by_the_armys_ids():
    game = _met(2, 8)
    blue = {"blue-general", "blue-1", "blue-3"}
    lines = [e.text for d in game.days for e in d.events
             if e.kind == "fire" and set(e.owners()) & blue and " fires at " in e.text]
    assert lines, "seed 2: blue fires by turn 8"
    for line in lines:
        assert line.split(" fires at ")[1].startswith("an enemy brigade"), line
        assert not re.search(r"\bred-\d(?:-\d)?\b", line), line
    moderator = [e.text for d in game.days for e in d.events if e.kind == "fire" and e.owners() == ("*moderator*",)]
    assert any(re.search(r"fires at red-\d", t) for t in moderator)  # the umpire reads the real names


def test_attack_names_an_enemy_element_by_the_seats_id_and_an_unknown_id_is_refused_saying_why():
    game = _met()
    view = game.view("blue-general")
    enemy = view["enemy"] + [dict(s, id=s["element"]) for s in view["last_known"]]
    assert enemy, "the general knows of an enemy by turn 6 (seed 2)"
    target = enemy[0]
    text = f"FROM General Azur TO Colonel Bleu\nATTACK {target['id']}\n"
    orders = RULES.check_orders(game.scenario, game.state, "blue-general", text)
    step = orders.dispatches[0].steps[0]
    square = game.scenario.table.grid.ref_at(target["x"], target["y"])
    assert step.verb == "ATTACK" and step.target.place == square and step.target.brigade is None
    unknown = next(f"E-{n}" for n in range(1, 40) if f"E-{n}" not in {e["id"] for e in enemy})
    with pytest.raises(OrdersError) as refused:
        RULES.check_orders(game.scenario, game.state, "blue-general",
                           f"FROM General Azur TO Colonel Bleu\nATTACK {unknown}\n")
    assert f"{unknown} is no enemy element your troops have seen or been told of" in str(refused.value)
    with pytest.raises(OrdersError, match=f"{unknown} n.est aucun élément ennemi"):  # in the seat's language too
        RULES.check_orders(game.scenario, game.state, "blue-general",
                           f"FROM General Azur TO Colonel Bleu\nATTACK {unknown}\n", lang="fr")


def test_a_surrender_is_public_news_with_the_enemy_brigade_unnamed_for_the_other_army():
    """Found by the 50-game run (seed 16): "1st Blue brigade surrenders" was a public line, read by the Red seats
    too; now each seat reads public news with the enemy in it unnamed (DS8), the umpire the original."""
    from pbem.core.events import Event
    from pbem.games.dba import seats
    from pbem.games.dba.state import initial_state

    scenario = RULES.load_scenario(RULES.scenarios()["dba-advance-guards"])
    state = initial_state(scenario, KRIEG)
    news, rain = Event("surrender", "1st Blue brigade surrenders: its elements flee"), Event("weather", "rain")
    told = seats.for_seats(scenario, state, [news, rain])
    assert told[-1] is rain  # nothing of the enemy in it: public as it was
    by_owner = {e.owners(): e.text for e in told[:-1]}
    assert by_owner == {(seats.MODERATOR,): news.text, ("blue-general", "blue-1", "blue-3"): news.text,
                        ("red-general", "red-1", "red-3"): "an enemy brigade surrenders: its elements flee"}


# -- the oracle reads every language ------------------------------------------------------------------------------

def _unseen_event(game, seat: str, known):
    """An event of the game whose full text ``seat`` was not told nor had reported (``known.unseen``), with a Text
    to read it in another language: one told to other seats of his own side only (a colonel's news), so that it
    names no enemy brigade or officer the oracle would catch by name alone."""
    from leak_oracle import told

    side = game.scenario.table.commanders[seat].side
    ours = {c.id for c in game.scenario.table.commanders.values() if c.side == side}
    for day in game.days:
        for event in day.events:
            if event.said is not None and event.kind != "roll" and told(event, seat) is None \
                    and event.owners() and set(event.owners()) <= ours and event.text in known.unseen:
                return event
    raise AssertionError(f"no event of his side hidden from {seat} (seed 2, 8 turns)")


@pytest.mark.parametrize("lang", ["fr", "ru", "uk", "zh"])
def test_the_oracle_finds_a_leak_planted_in_a_report_in_every_language(lang):
    """Each language's report of a kriegsspiel seat passes the oracle as it is, and fails it once an enemy brigade's
    name, an enemy officer's (capitalised as a sentence begins, or JSON-escaped as a page's script writes it) or
    the text of an event the seat was not told is planted in it, each in the report's own language: an oracle
    that knew only the English names would let every one of these through. And the general's report, with an
    element of his division written beside the place it stands at now, which no eye nor report has told him (DS7),
    in the language's own way of writing a place (« (22,6" ; 28,8") », « （22.6"，28.8"） »)."""
    from leak_oracle import dba_names_in_every_language

    from pbem.games.dba.elements import in_inches
    from pbem.games.dba.lang import tongue
    from pbem.lang import say

    game, seat = _met(2, 8), "red-general"
    known = [knowledge(game, seat)]
    report = RULES.report(game, game.day - 1, seat, game_id="1", lang=lang)
    t = tongue(lang)
    assert report.text != RULES.report(game, game.day - 1, seat, game_id="1").text  # read in its language
    oracle_check(f"{lang} report", report.text + report.markdown, known)  # nothing to find in the real one
    brigade = t.gettext(game.scenario.table.brigades["blue-1"].name)
    officer = t.gettext(game.scenario.table.commanders["blue-3"].name)
    assert brigade in dba_names_in_every_language("1st Blue brigade") and brigade != "1st Blue brigade"
    hidden = t.say(_unseen_event(game, seat, known[0]).said)
    planted = {
        "an enemy brigade's name": report.text.replace("\n", f"\n{brigade}: 4/4\n", 1),
        "an enemy officer's name, capitalised": report.text + f"\n{officer[0].upper()}{officer[1:]}.\n",
        "an enemy officer's name in a page's script": report.text + json.dumps({"who": officer}),
        "an event not told": report.text + f"\n- {hidden}\n",
    }
    # DS7: the general's report with an element of his division where it stands now, unseen and unreported
    general = [knowledge(game, "blue-general")]
    (eid, places), = general[0].places.items()  # seed 2, turn 8: blue-1-2, out of his sight since its last report
    theirs = RULES.report(game, game.day - 1, "blue-general", game_id="1", lang=lang)
    oracle_check(f"{lang} report of blue-general", theirs.text + theirs.markdown, general)
    now = tongue(lang).say(say('(%(x)s", %(y)s")', x=in_inches(game.state.table(game.scenario).elements[eid].x),
                               y=in_inches(game.state.table(game.scenario).elements[eid].y)))
    assert now in places
    for what, text, who in [(what, text, known) for what, text in planted.items()] + [
            ("an element of his own where it stands unreported", theirs.text + f"\n| {eid} | {t.gettext('infantry')} | "
                                                                             f"{now} |\n", general)]:
        try:
            oracle_check(f"{lang} report with {what}", text, who)
        except AssertionError as found:
            assert "may not know" in str(found)
        else:
            pytest.fail(f"the oracle is blind to {what} in {lang}")


def test_every_enemy_element_a_seats_view_shows_may_be_attacked_by_its_id_from_the_first_turn():
    """Found by playing Quatre Bras in the kriegsspiel (seed 3): the armies start in sight, the first report shows
    Reille the enemy as E-8, E-11 …, and ``ATTACK E-8`` was refused, "E-8 is no enemy element your troops have seen
    or been told of": the orders check knew only what the seat had seen at the end of a turn, the view what it
    sees now. Every id the view shows (now or as last seen) is one an order may name, at every seat, every turn."""
    from pbem.core.game import Game
    from pbem.core.ruleset import options_of

    for name, turns in (("dba-quatre-bras", 3), ("dba-advance-guards", 6)):
        scenario = RULES.load_scenario(RULES.scenarios()[name])
        game = Game(RULES, scenario, 3, options=options_of(RULES, KRIEG))
        bot = RULES.bots()["general"]
        tried = 0
        while game.day <= turns and not game.over:
            for seat in [s.id for s in RULES.seats(scenario, game.options)]:
                view = game.view(seat)
                if not view["commander"] or seat not in game.turn().seats + game.turn().others:
                    continue
                me = scenario.table.commanders[seat]
                under = next((c for c in scenario.table.commanders.values() if c.superior == seat), None)
                if under is None:
                    continue
                for eid in [e["id"] for e in view["enemy"]] + [s["element"] for s in view["last_known"]]:
                    RULES.check_orders(scenario, game.state, seat, f"FROM {me.name} TO {under.name}\nATTACK {eid}\n")
                    tried += 1
            for seat in game.turn().seats:
                game.submit(seat, bot.orders(scenario, game.view(seat), 3))
            for seat in game.turn().others:
                game.submit(seat, "")
            game.advance()
        assert tried, f"{name}: no enemy shown to a seat that writes orders"


def test_an_untold_sentence_inside_a_report_the_seat_was_told_is_no_leak():
    """Fog seed 129, turn 7 (found by the long run): the PIP event "1-я красная бригада: кубик PIP 4, 4 PIP; группы
    red-1-1, red-1-2, red-1-3" was told to the colonel only, while his report to the general, told in full, says
    the same with a fourth unit. The sentence inside the told report is no leak; the same sentence alone is."""
    from leak_oracle import Knowledge, leaks

    untold = "1-я красная бригада: кубик PIP 4, 4 PIP; группы red-1-1, red-1-2, red-1-3"
    report = ("донесение 27 (отправитель: полковник Руж, ход 7): 1-я красная бригада: кубик PIP 4, 4 PIP; группы "
              "red-1-1, red-1-2, red-1-3, red-1-4")
    ids = {"red-1-1", "red-1-2", "red-1-3", "red-1-4"}
    known = Knowledge("red-general", unseen=[untold], heard={report}, own=ids, allowed=ids, ids=ids)
    assert leaks(f"<p>{report}</p>", [known]) == []
    assert leaks(f"<p>{report}</p><p>{untold}</p>", [known]) != []
    assert leaks(f"<p>{untold}, red-1-4</p>", [Knowledge("red-general", unseen=[untold], own=ids, allowed=ids,
                                                         ids=ids)]) != []
