"""The map's clicks in the reader's language (issue 17): each game's click grammar (its verbs, their options,
the choices' labels, the place it gives blocks off the map) is read from the game's catalog on the game page
and in its clicks.json, and the lines a click writes are in the seat's order words, which the game's orders
check reads as the English ones (the same lines accepted, the same refused, the reason in the language)."""

from __future__ import annotations

import html
import json
import re

import pytest
from i18n_sweep import game_english_in
from websupport import ANNA, Site

from pbem.games import ruleset

LANGS = ["fr", "ru", "uk", "zh"]
GAMES = {"marengo": ("austria", "france"), "triomphe": ("austria", "france"),
         "napoleon1815": ("french", "anglo-dutch", "prussian")}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return Site(tmp_path_factory.mktemp("lang-clicks"))


@pytest.fixture(scope="module")
def games(site):
    out = {}
    for name, seats in GAMES.items():
        options = {"bid": "france-3"} if name == "napoleon1815" else {}  # the auction's BID is typed: no clicks
        game_id, _ = site.service.create_game(f"Clicks {name}", {s: ANNA for s in seats}, game=name, seed=4,
                                              options=options)
        out[name] = game_id
    return out


def grammar_texts(grammar: dict) -> list[str]:
    """What the page's script shows of a grammar: the verbs' and options' titles, the choices' labels."""
    texts = []
    for verb in grammar.get("verbs", []):
        texts.append(verb["title"])
        for option in verb.get("options", []):
            texts.append(option["title"])
            texts += [label for _value, label in option.get("choices", [])]
    return texts


def page_grammar(site, game_id: int, seat: str, lang: str) -> tuple[dict, object]:
    site.store.set_language(ANNA, lang)
    client = site.client(ANNA)
    page = client.get(f"/games/{game_id}?side={seat}").text
    found = re.search(r'data-grammar="([^"]*)"', page)
    assert found, "the page offers no clicks"
    return json.loads(html.unescape(found.group(1))), client


def owing(site, game_id: int) -> str:
    """A seat that owes orders now (Anna holds every seat)."""
    return site.service.game(game_id).turn().seats[0]


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", list(GAMES))
def test_the_game_pages_click_texts_hold_no_english_of_the_games_catalogs(site, games, name, lang):
    seat = owing(site, games[name])
    grammar, client = page_grammar(site, games[name], seat, lang)
    regions = client.get(f"/games/{games[name]}/map/clicks.json?side={seat}").json
    english, _ = page_grammar(site, games[name], seat, "en")
    texts = grammar_texts(grammar)
    assert texts and game_english_in(texts, lang) == set(), (name, lang, texts)
    assert [v["title"] for v in grammar["verbs"]] != [v["title"] for v in english["verbs"]]
    offmap = [b["at"] for b in regions["blocks"] if b.get("kind") == "offmap"]
    assert game_english_in(offmap, lang) == set() and not {"reinforcements", "to place"} & set(offmap), offmap


@pytest.mark.parametrize("lang", LANGS)
@pytest.mark.parametrize("name", ["marengo", "triomphe"])
def test_enter_and_its_choices_are_read_in_the_language_and_write_the_seats_words(site, games, name, lang):
    """ENTER (the reinforcements whose hour has come), its options and the place given to blocks off the map."""
    game = site.service.game(games[name])
    seat = owing(site, games[name])
    view = game.view(seat)
    assert any(b["status"] == "waiting" for b in view["blocks"])  # the opening hour: its reinforcements enter
    rules = ruleset(name)
    grammar = rules.map_clicks(game.scenario, view, lang=lang)
    english = rules.map_clicks(game.scenario, view)
    enter = next(v for v in grammar["verbs"] if v["name"] == "enter")
    assert game_english_in(grammar_texts(grammar) + [b["at"] for b in grammar["offmap"]], lang) == set()
    assert [b["at"] for b in grammar["offmap"]] != [b["at"] for b in english["offmap"]]
    english_enter = next(v for v in english["verbs"] if v["name"] == "enter")
    assert enter["line"] != english_enter["line"] and not enter["line"].startswith("ENTER")
    pontoon = [value for o in enter["options"] for value, _ in o.get("choices", []) if value.strip()]
    assert pontoon and not any("PONTOON" in value or "BLOCKED" in value for value in pontoon), pontoon


def fill(verb: dict, blocks: list[str], at: str, to: str | None, join: dict) -> str:
    """The line the page's script writes for ``verb`` (static/game.js lineFor), no option chosen."""
    where = to or ""
    if verb.get("to"):
        where = verb["to"] + where if to else ""
    line = verb["line"].replace("{blocks}", join.get("blocks", " ").join(blocks)).replace("{from}", at).replace(
        "{targets}", where)
    for option in verb.get("options", []):
        line = line.replace("{" + option["name"] + "}", "")
    return line


@pytest.mark.parametrize("lang", ["fr", "zh", "ru"])
@pytest.mark.parametrize("name", list(GAMES))
def test_a_clicked_line_in_the_seats_words_is_accepted_where_the_english_one_is(site, games, name, lang):
    """Every verb the first block may take, to every place: the lines the page writes in ``lang``'s order words
    are accepted by the orders check exactly where the English ones are, and a refusal is worded in ``lang``."""
    game_id = games[name]
    seat = owing(site, game_id)
    english, client_en = page_grammar(site, game_id, seat, "en")
    regions = client_en.get(f"/games/{game_id}/map/clicks.json?side={seat}").json
    block = regions["blocks"][0]
    kinds = {p["name"]: p["kind"] for p in regions["places"]}
    kind = block.get("kind") or kinds.get(block["at"])
    places = [p["name"] for p in regions["places"]][:40]

    def lines(grammar):
        out = []
        for verb in grammar["verbs"]:
            if kind not in verb.get("from", [kind]):
                continue
            if not verb.get("max"):
                out.append(fill(verb, [block["id"]], block["at"], None, grammar["join"]))
            else:
                out += [fill(verb, [block["id"]], block["at"], p, grammar["join"]) for p in places]
        return out

    def ask(client, grammar):
        answer = client.post(f"/games/{game_id}/map/offers.json", headers={"X-CSRF-Token": client.csrf},
                             json={"side": seat, "text": "", "at": 0, "replace": False, "lines": lines(grammar)})
        assert answer.status_code == 200, answer.text
        return answer.json["offers"]

    said_en = ask(client_en, english)
    native, client = page_grammar(site, game_id, seat, lang)
    said = ask(client, native)
    assert lines(native) != lines(english)
    assert [a["ok"] for a in said] == [a["ok"] for a in said_en]
    assert any(a["ok"] for a in said) and not all(a["ok"] for a in said)
    refused = [(a["why"], b["why"]) for a, b in zip(said, said_en) if not a["ok"]]
    assert any(mine != theirs for mine, theirs in refused), refused[:3]


def place_names(game) -> list[str]:
    board = getattr(game.scenario, "board", None)
    places = getattr(board, "locales", None) or getattr(board, "towns", None) or {}
    return [getattr(p, "name", "") for p in places.values()]


@pytest.mark.parametrize("lang", ["fr", "zh"])
def test_every_games_pages_in_progress_and_finished_hold_no_english(tmp_path, lang):
    """Each game (DBA in both ways of commanding) a few turns in, then finished: the game page of a seat (with its
    clicks while it owes orders), a report page, the moderator's page and console, the replay of the last turn;
    read whole in ``lang`` (tests/i18n_sweep.py: the games' catalogs and the server's). DBA's replay names the
    victory in the language too (DBA writes no victory event: its ruleset says it, victory_said)."""
    from i18n_sweep import english_left, game_english_left
    from websupport import FRED, MOD

    from pbem.core.ruleset import options_of
    from pbem.games import rulesets

    site = Site(tmp_path)
    for email in (ANNA, FRED, MOD):
        site.store.set_language(email, lang)
    clients = {who: site.client(who) for who in (ANNA, MOD)}
    finished = set()
    for name, rules in rulesets().items():
        for options in ([{}, {"command": "kriegsspiel"}] if name == "dba" else [{}]):
            path = list(rules.scenarios().values())[0]
            seats = [s.id for s in rules.seats(rules.load_scenario(path), options_of(rules, options))]
            game_id, _ = site.service.create_game(
                "Partie", {s: ANNA if n == 0 else FRED for n, s in enumerate(seats)}, game=name, scenario=path.name,
                seed=3, moderator=MOD, options=options, settings={"hours": 48})
            for stage in ("in progress", "finished"):
                for _ in range(3 if stage == "in progress" else 80):
                    if site.service.game(game_id).over:
                        break
                    site.service.resolve_next(game_id)
                game = site.service.game(game_id)
                if stage == "finished" and not game.over:
                    continue  # (a game the computer's empty orders do not end in 80 turns: its start is swept above)
                last = len(game.days) - 1
                pages = [(ANNA, f"/games/{game_id}?side={seats[0]}"), (MOD, f"/games/{game_id}?side="),
                         (MOD, f"/games/{game_id}/moderate"), (ANNA, f"/games/{game_id}/reports/{last}?side={seats[0]}")]
                if game.over:
                    pages.append((ANNA, f"/games/{game_id}/replay?day={last}&view=neutral"))
                for who, url in pages:
                    page = clients[who].get(url)
                    assert page.status_code == 200, (name, stage, url)
                    left = game_english_left(page.text, lang) | english_left(page.text, lang)
                    # a piece of a place's name on the map, wrapped on two lines ("Bosco Marengo" / "woods"): the map's
                    # names keep the map's spelling where the language has none (docs/translating.md, "Still English");
                    # a letter alone is a map grid's column (DBA's A...F), not Napoleon 1815's "A" (Allied)
                    left = {w for w in left if len(w) > 1 and not any(w in place for place in place_names(game))}
                    assert left == set(), (name, options, stage, url, left)
                if game.over:
                    finished.add(name)
                    english = site.service.replay_day(game_id, last, "neutral")["victory"]
                    said = site.service.replay_day(game_id, last, "neutral", lang=lang)["victory"]
                    assert english and said != english, (name, english, said)
                    assert said in html.unescape(clients[ANNA].get(f"/games/{game_id}/replay?day={last}&view=neutral").text)
    assert {"marengo", "triomphe", "dba"} <= finished, finished
