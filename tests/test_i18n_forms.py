"""The games as the server names them, in the reader's language (issue 17): each game's title, its scenarios'
names, its options (titles, help, the words of each choice), its "ask me" decisions, its computer players and
its seats are entries of the game's own catalog, read on the new-game form, by GET /api/rulesets, on the game
page's facts line and settings, in the mails that name the game, in refusals and on the league pages."""

from __future__ import annotations

import html
import re

import pytest
from i18n_sweep import game_english_in, game_english_left
from websupport import ANNA, FRED, MOD, Site

from pbem.core.ruleset import options_in, title_in, title_said
from pbem.games import rulesets
from pbem.server import i18n
from pbem.server.leagues.service import Leagues
from pbem.server.service import ServiceError

LANGS = ["fr", "ru", "uk", "zh"]
TITLES = {"marengo": {"fr": "Bonaparte à Marengo", "ru": "Бонапарт при Маренго", "uk": "Бонапарт під Маренго",
                      "zh": "马伦哥之役"},
          "napoleon1815": {"fr": "Napoléon 1815 (Columbia Games, 4e édition)",
                           "zh": "拿破仑 1815（Columbia Games，第4版）"}}


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    return Site(tmp_path_factory.mktemp("i18n-forms"))


def client(site, lang: str):
    site.store.set_language(ANNA, lang)
    return site.client(ANNA)


def api_texts(value, key: str = "") -> list[str]:
    """The words a reader reads in /api/rulesets' answer: its strings, less its keys, names and codes."""
    if isinstance(value, dict):
        return [text for k, v in value.items() for text in api_texts(v, k)]
    if isinstance(value, list):
        return [text for v in value for text in api_texts(v, key)]
    machine = {"name", "file", "id", "side", "choices", "default", "bots"}
    return [value] if isinstance(value, str) and key not in machine else []


def test_the_sweep_finds_a_games_english_left():
    """The sweep can fail: a game's English texts on a page or in the API's answer read as French."""
    page = ("<html><body><label>Battles <select><option value='live'>live</option></select></label>"
            "<span class='hint'>played by the computer: the random legal bot</span></body></html>")
    assert game_english_left(page, "fr") == {"Battles", "live", "the random legal bot"}
    assert game_english_in(["which enemy a brigade's volley aims at"], "zh") == {"which enemy a brigade's volley aims at"}
    assert game_english_in(["Batailles", "le robot aléatoire"], "fr") == set()


@pytest.mark.parametrize("lang", LANGS)
def test_the_new_game_form_holds_no_english_text_of_any_games_catalog(site, lang):
    page = client(site, lang).get("/games/new")
    assert page.status_code == 200
    assert game_english_left(page.text, lang) == set()
    text = html.unescape(page.text)
    for name, rules in rulesets().items():  # every game's title, options and decisions, in the language
        assert title_in(rules, lang) in text, name
        for shown in options_in(rules, lang):
            assert shown.title in text and all(words in text for _value, words in shown.choices), (name, shown)
        if lang == "fr":
            assert all(rules.tongue(lang).gettext(kind) in text for kind in rules.ask_kinds.values()), name
    assert "Bonaparte at Marengo" not in text and "Napoleon 1815 (Columbia Games" not in text
    # the values the form sends stay the keys the server reads
    assert 'value="hybrid"' in page.text and 'value="france-3"' in page.text and 'value="napoleon1815:terrain"' in page.text


@pytest.mark.parametrize("lang", LANGS)
def test_the_api_names_the_games_in_the_requests_language(site, lang):
    answer = client(site, lang).get("/api/rulesets").get_json()
    assert game_english_in(api_texts(answer["rulesets"]), lang) == set()
    games = {g["name"]: g for g in answer["rulesets"]}
    assert games["marengo"]["title"] == TITLES["marengo"][lang]
    napoleon = games["napoleon1815"]
    bid = next(o for o in napoleon["options"] if o["name"] == "bid")
    assert bid["choices"][:3] == ["none", "auction", "france-0"]  # the keys a script sends, unchanged
    assert set(bid["labels"]) == set(bid["choices"]) and bid["labels"]["france-3"] != "france-3"
    assert set(napoleon["ask_kinds"]) == set(rulesets()["napoleon1815"].ask_kinds)
    assert napoleon["bots"] == ["bot", "general", "marshal"] and set(napoleon["bot_titles"]) == set(napoleon["bots"])


def test_english_reads_the_games_as_their_rulesets_write_them(site):
    answer = client(site, "en").get("/api/rulesets").get_json()
    napoleon = next(g for g in answer["rulesets"] if g["name"] == "napoleon1815")
    rules = rulesets()["napoleon1815"]
    assert napoleon["title"] == rules.title == "Napoleon 1815 (Columbia Games, 4th edition)"
    assert [(o["title"], o["help"]) for o in napoleon["options"]] == [(o.title, o.help) for o in rules.options()]
    assert next(o for o in napoleon["options"] if o["name"] == "bid")["labels"]["france-3"] == "france-3"
    assert napoleon["ask_kinds"] == rules.ask_kinds
    page = html.unescape(site.client(FRED).get("/games/new").text)
    assert "Napoleon 1815 (Columbia Games, 4th edition)" in page and "the random legal bot" in page


def napoleon_game(site, lang: str) -> int:
    for email in (ANNA, FRED, MOD):
        site.store.set_language(email, lang)
    game_id, _keys = site.service.create_game(
        "Campagne", {"french": ANNA, "anglo-dutch": FRED, "prussian": FRED}, game="napoleon1815",
        scenario="napoleon1815.toml", seed=5, moderator=MOD, options={"battle": "hybrid", "bid": "france-3"},
        settings={"hours": 48, "ask": ["terrain"]})
    return game_id


@pytest.mark.parametrize("lang, facts, settings", [
    ("fr", ["Napoléon 1815 (Columbia Games, 4e édition)", "Joueurs : 2", "Batailles : hybride", "Enchère (§13) : France-3"],
     ["où vont vos marqueurs de terrain de bataille"]),
    ("zh", ["拿破仑 1815（Columbia Games，第4版）", "玩家：2", "战斗：混合", "出价（§13）：法国-3"], ["你的战斗地形标记放在哪里"]),
    ("en", ["Napoleon 1815 (Columbia Games, 4th edition)", "Players: 2", "Battles: hybrid", "Bid (§13): france-3"],
     ["where your battle terrain markers go"]),
])
def test_the_game_pages_facts_line_reads_title_and_choice_in_the_readers_language(tmp_path, lang, facts, settings):
    site = Site(tmp_path)
    game_id = napoleon_game(site, lang)
    page = html.unescape(site.client(ANNA).get(f"/games/{game_id}?side=french").text)
    line = " ".join(re.search(r'<p class="sub" id="game-facts">(.*?)</p>', page, re.S).group(1).split())
    assert all(fact in line for fact in facts), line
    assert "battle: hybrid" not in line and "bid: france-3" not in line  # no longer the options' keys
    block = page[page.index('id="settings"'):] if 'id="settings"' in page else page
    assert all(words in block for words in settings)
    if lang != "en":
        assert game_english_left(page, lang) - {"Napoleon"} == set()  # (a leader's name, the same in French)


def test_the_mails_that_name_the_game_name_it_in_the_readers_language(tmp_path):
    site = Site(tmp_path)
    game_id = napoleon_game(site, "fr")
    welcome = site.store.mails("WHERE to_addr = ? AND kind = 'welcome'", (ANNA,))[0]["body"]
    assert "Napoléon 1815 (Columbia Games, 4e édition)" in welcome and "4th edition" not in welcome
    moderator = site.store.mails("WHERE to_addr = ? AND kind = 'moderator'", (MOD,))
    assert moderator and all("Napoléon 1815 (Columbia Games, 4e édition)" in m["body"] for m in moderator)
    site.store.set_language(ANNA, "uk")
    game_id, _ = site.service.create_game("Запрошення", {"austria": ANNA}, game="marengo", seed=2, moderator=MOD)
    site.service.invite(game_id, "france", "nobody@example.org", who=ANNA)  # the inviter's language: Ukrainian
    invitation = site.store.mails("WHERE kind = 'invitation'")[0]["body"]
    assert "Бонапарт під Маренго" in invitation and "Bonaparte at Marengo" not in invitation


def test_a_refusal_names_the_game_in_the_language_that_reads_it():
    rules = rulesets()["napoleon1815"]
    refusal = ServiceError("%(title)s has no seat %(names)s (seats: %(names2)s)", title=title_said(rules),
                           names="austria", names2="french")
    assert str(refusal) == "Napoleon 1815 (Columbia Games, 4th edition) has no seat austria (seats: french)"
    assert "Napoléon 1815 (Columbia Games, 4e édition)" in refusal.in_("fr")
    assert "拿破仑 1815（Columbia Games，第4版）" in refusal.in_("zh")


def test_a_league_page_names_its_game_and_scenario_in_the_readers_language(tmp_path):
    site = Site(tmp_path)
    league = Leagues(site.service).create_league("Coupe", MOD, {"game": "marengo", "scenario": "marengo.toml"})
    page = html.unescape(client(site, "fr").get(f"/leagues/{league}").text)
    assert "Bonaparte à Marengo, Bonaparte à Marengo : 14 juin 1800" in page
    assert i18n.translate("fr", "Ratings (%(game)s)", game="Bonaparte à Marengo") in page
    english = html.unescape(client(site, "en").get(f"/leagues/{league}").text)
    assert "Bonaparte at Marengo, Bonaparte at Marengo: 14 June 1800" in english


# -- the dice -----------------------------------------------------------------------------------------------


@pytest.fixture(scope="module")
def diced():
    """A Napoleon 1815 and a Napoleonic DBA game played long enough for dice of several kinds."""
    from pbem.tools.selfplay import chooser, play_game, simple_players

    out = {}
    for name, days in (("napoleon1815", 14), ("dba", 8)):
        rules = rulesets()[name]
        scenario = rules.load_scenario(list(rules.scenarios().values())[-1])
        out[name] = play_game(rules, scenario, 1, simple_players(rules, scenario, {}),
                              choose=lambda g: chooser(1, g.day), days=days)
    return out


@pytest.mark.parametrize("lang", LANGS)
def test_every_die_a_seat_reads_of_is_in_its_language(diced, lang):
    """The log's rolls reach a player only through his reports (mailed and on the game page): the dice in the
    game's lines, in his language; never the roll's record (its English purpose, "Die for ...")."""
    seen = 0
    for name, game in diced.items():
        rules = game.ruleset
        for result in game.days:
            if not result.rolls:
                continue
            for seat in [s.id for s in rules.seats(game.scenario, game.options)] + [None]:
                report = rules.report(game, result.day, seat, game_label="g", game_id="7", lang=lang)
                text = report.text + report.html
                assert "Die for" not in text and not [r.purpose for r in result.rolls if r.purpose in text]
                assert game_english_in(report.text.splitlines(), lang) == set(), (name, result.day, seat)
                seen += 1
    assert seen > 20
    words = {"fr": "dé", "ru": "кубик", "uk": "кубик", "zh": "骰"}[lang]
    assert any(words in rules.report(game, d.day, None, lang=lang).text.lower()
               for game in diced.values() for rules in [game.ruleset] for d in game.days if d.rolls)


def test_the_game_lists_name_each_game_and_dbas_turns_in_the_readers_language(tmp_path):
    site = Site(tmp_path)
    for email in (ANNA, FRED):
        site.store.set_language(email, "fr")
    mine, _ = site.service.create_game("Partie DBA", {"blue": ANNA, "red": FRED}, game="dba",
                                       scenario="dba-meeting.toml", seed=3, settings={"hours": 48})
    site.service.create_game("Ouverte", {"austria": FRED}, game="marengo", seed=2, settings={"hours": 48})
    home = html.unescape(site.client(ANNA).get("/").text)
    mine_list = home[home.index('id="my-games"'):home.index('id="open-games"')]
    assert "DBA napoléonien avec ordres écrits (d'après David Manley)" in mine_list
    assert "Bonaparte à Marengo" in home[home.index('id="open-games"'):]
    assert "tour 1 (" in mine_list and "turn 1 (" not in mine_list  # DBA's turn, named in French
    page = html.unescape(site.client(ANNA).get(f"/games/{mine}?side=blue").text)
    assert "turn 1" not in page and "tour 1" in page
    english = html.unescape(site.client(MOD).get("/").text)  # a reader who chose nothing: English
    assert "Bonaparte at Marengo" in english


def test_a_napoleon_1815_reports_title_and_subject_name_the_game_in_the_readers_language(diced):
    game = diced["napoleon1815"]
    french = game.ruleset.report(game, 2, "french", game_label="#7 Campagne", lang="fr")
    assert french.title.startswith("Napoléon 1815 #7 Campagne : ") and "Napoleon 1815" not in french.subject
    english = game.ruleset.report(game, 2, "french", game_label="#7 Campagne")
    assert english.title.startswith("Napoleon 1815 #7 Campagne: ")


def test_a_side_bid_names_the_seat_in_the_bidders_language_and_takes_it_in_any(tmp_path):
    site = Site(tmp_path)
    leagues = Leagues(site.service)
    league_id = leagues.create_league("Club", MOD, rules={"game": "marengo", "bidding": True,
                                                          "settings": {"hours": 48}})
    emails = [ANNA, FRED]
    for email in emails:
        leagues.join(league_id, email, email[:4])
    tid = leagues.create_tournament(league_id, MOD, "Enchères", "round_robin")
    for email in emails:
        leagues.enter(tid, email)
    answer = leagues.bid(tid, ANNA, "Autriche", 3)  # the seat named in French
    assert str(answer).startswith("Your bid: Austria, up to 3 points")
    assert "Autriche" in answer.in_("fr") and "Австрія" in answer.in_("uk")
    with pytest.raises(ServiceError) as refused:
        leagues.bid(tid, FRED, "Prusse", 1)
    assert "Autriche" in refused.value.in_("fr") and "France" in refused.value.in_("fr")


@pytest.mark.parametrize("lang", ["fr", "zh"])
def test_every_games_page_and_console_hold_no_english_of_its_catalog(tmp_path, lang):
    """Each game (DBA in both ways of commanding), with "ask me" decisions ticked: its page for a seat and for
    its moderator, and the moderator's console, read whole in the language (the games' catalogs and the
    server's)."""
    from i18n_sweep import english_left

    from pbem.core.ruleset import options_of

    site = Site(tmp_path)
    for email in (ANNA, FRED, MOD):
        site.store.set_language(email, lang)
    for name, rules in rulesets().items():
        for options in ([{}, {"command": "kriegsspiel"}] if name == "dba" else [{}]):
            path = list(rules.scenarios().values())[-1]
            seats = [s.id for s in rules.seats(rules.load_scenario(path), options_of(rules, options))]
            game_id, _ = site.service.create_game(
                "Partie", {s: ANNA if n == 0 else FRED for n, s in enumerate(seats)}, game=name, scenario=path.name,
                seed=3, moderator=MOD, options=options, settings={"hours": 48, "ask": list(rules.ask_kinds)[:3]})
            for who, path_ in ((ANNA, f"/games/{game_id}?side={seats[0]}"), (MOD, f"/games/{game_id}?side="),
                               (MOD, f"/games/{game_id}/moderate")):
                page = site.client(who).get(path_)
                assert page.status_code == 200, path_
                assert game_english_left(page.text, lang) | english_left(page.text, lang) == set(), (name, path_)
                if "moderate" not in path_:
                    assert title_in(rules, lang) in html.unescape(page.text), (name, path_)


def test_a_replay_reads_its_turn_map_and_victory_in_the_readers_language(tmp_path):
    site = Site(tmp_path)
    game_id, _ = site.game()
    for _ in range(40):
        if site.service.game(game_id).over:
            break
        site.service.resolve_next(game_id)
    game = site.service.game(game_id)
    assert game.over
    last = len(game.days) - 1
    english = site.service.replay_day(game_id, last, "neutral")
    french = site.service.replay_day(game_id, last, "neutral", lang="fr")
    assert english["victory"] == game.view(None)["victory"] and french["victory"] != english["victory"]
    assert french["label"] == game.turn_label(last, "fr") != english["label"]
    assert "Autriche" in french["svg"] and "Austria" not in french["svg"]
    site.store.set_language(ANNA, "zh")
    page = html.unescape(site.client(ANNA).get(f"/games/{game_id}/replay?day={last}&view=neutral").text)
    assert site.service.replay_day(game_id, last, "neutral", lang="zh")["victory"] in page
    assert game_english_left(page, "zh") == set()


def test_a_refusal_about_a_seat_names_it_in_the_language_that_reads_it(tmp_path):
    site = Site(tmp_path)
    game_id, _keys = site.service.create_game("Sièges", {"austria": ANNA}, game="marengo", seed=2)
    with pytest.raises(ServiceError) as taken:
        site.service.join(game_id, "austria", FRED)
    assert str(taken.value) == f"Austria in game {game_id} is taken"
    assert taken.value.in_("fr") == i18n.translate("fr", "%(seat)s in game %(game)s is taken", seat="Autriche",
                                                   game=game_id)
    assert "Австрія" in taken.value.in_("uk") and "Austria" not in taken.value.in_("uk")
    site.service.invite(game_id, "france", "kept@example.org", who=ANNA)
    with pytest.raises(ServiceError) as kept:
        site.service.join(game_id, "france", FRED)
    assert "France" in str(kept.value) and "法国" in kept.value.in_("zh") and "France" not in kept.value.in_("zh")
