"""The map's click flow of every verb matches its hint (issue 33, item 5): for each game, positions where its
verbs are offered; for each verb, a block chosen, the verb clicked, then exactly what the panel's hint says to
click (the verb itself, a place, the next place) until it says the line is written; the line in the orders box
is the one the verb's grammar writes for those clicks, and the server takes it (submitted with the day's text).

One browser and one server for the file (tests/test_pages.py's site, tests/conftest.py's Chromium). DBA's map
takes no clicks: its page says its orders are typed.

Not walked, for want of a position reached quickly where they are offered: Bonaparte at Marengo's Bombard (its
artillery on an approach facing the enemy), Triomphe's Bombard, Fire and Hold fire, Napoleon 1815's Disengage,
Break square and Reinforce. Their flow is that of the walked orders with no place (Activate, Reorganise, Engage):
the click on the order writes the line.
"""

from __future__ import annotations

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import Select, WebDriverWait

from pbem.tools.pages import ADMIN
from test_game_page_clicks import before_the_assault, lines, new_game, open_page, regions_of, verb
from test_pages import browser, click_map, middle, sign_in, site  # noqa: F401  (fixtures)

GO = ("now click where they go", "or click where they go next", "or click the next place")


def hint(browser) -> str:
    """The panel's hint once the server has answered (what is offered, where they may go)."""
    said = (By.ID, "click-selection")
    WebDriverWait(browser, 30).until(lambda d: not any(
        w in d.find_element(*said).text for w in ("finding", "loading")))
    return browser.find_element(*said).text


def asks_a_place(text: str) -> bool:
    return text.endswith(GO)


def expected(v: dict, blocks: list[str], at: str, targets: list[str], join: dict) -> str:
    """The line ``v`` writes for these clicks, no option chosen (as the grammar says: pbem.core.ruleset.map_clicks)."""
    where = join.get("targets", " -> ").join(targets)
    if v.get("to"):
        where = v["to"] + where if targets else ""
    out = v["line"].replace("{blocks}", join.get("blocks", " ").join(blocks)).replace("{from}", at)
    out = out.replace("{targets}", where)
    for o in v.get("options", []):
        out = out.replace("{%s}" % o["name"], "")
    return out


class Walk:
    """One seat's page: each verb walked as its hint says, each line checked and submitted."""

    def __init__(self, site, browser, game_id: int, seat: str):
        self.site, self.browser, self.game_id, self.seat = site, browser, game_id, seat
        game = site.service.game(game_id)
        self.grammar = game.ruleset.map_clicks(game.scenario, game.view(seat))
        self.regions = regions_of(site, game_id, seat)
        self.text = open_page(browser, site, game_id, seat)
        self.start = self.text.get_attribute("value")
        self.done: set[str] = set()

    def reset(self):
        self.browser.execute_script("arguments[0].click()", self.browser.find_element(By.ID, "click-clear"))
        assert hint(self.browser) == "No block chosen."
        self.browser.execute_script("arguments[0].value = arguments[1]", self.text, self.start)

    def choose(self, block: dict) -> list[str]:
        """``block`` chosen (its button on the map, or the list for a block off it): the verbs offered."""
        if block["box"]:
            button = self.browser.find_element(By.CSS_SELECTOR, f'#map-view .click-layer [data-block="{block["id"]}"]')
            self.browser.execute_script("arguments[0].scrollIntoView({block: 'center', inline: 'center'})", button)
            button.click()
        else:
            select = self.browser.find_element(By.ID, "click-block")
            self.browser.execute_script("arguments[0].focus()", select)
            Select(select).select_by_value(block["id"])
        WebDriverWait(self.browser, 30).until(lambda d: f"{block['id']} at" in hint(d))
        return [b.get_attribute("data-verb") for b in self.browser.find_elements(By.CSS_SELECTOR, "#click-verbs button")]

    def accepted(self, line: str):
        """The line is the last of the box, and the server takes the box's text."""
        assert lines(self.text)[-1] == line, (lines(self.text), line)
        result = self.site.service.submit(self.game_id, self.seat, self.text.get_attribute("value"))
        assert result.ok, (line, [p.message for p in result.problems])

    def click_place(self) -> str:
        """A place the page offers, clicked on the map (the list and Add when the map shows none uncovered)."""
        offered = [o.get_attribute("value") for o in self.browser.find_elements(
            By.CSS_SELECTOR, "#click-target option") if o.get_attribute("value")]
        assert offered, hint(self.browser)
        for name in offered:
            place = next((p for p in self.regions["places"] if p["name"] == name), None)
            if place and click_map(self.browser, *middle(place["points"])):
                return name
        Select(self.browser.find_element(By.ID, "click-target")).select_by_value(offered[0])
        self.browser.find_element(By.ID, "click-add").click()
        return offered[0]

    def walk(self, block: dict, v: dict, chosen: bool = False):
        """Verb ``v`` for ``block``, clicked as the hints say; every line written checked. ``chosen``: the block
        is chosen already, and nothing else is."""
        if not chosen:
            self.reset()
            assert v["name"] in self.choose(block)
        title, targets = v["title"], []
        verb(self.browser, v["name"])
        while True:
            said = hint(self.browser)
            if not v["max"]:
                assert said == "No block chosen." or said.endswith(f"{title}: written below"), said
                break
            if not v["min"] and not targets:
                assert f"{title}: written below: they go no farther" in said, said
                self.accepted(expected(v, [block["id"]], block["at"], [], self.grammar["join"]))
            if not asks_a_place(said):
                assert said == "No block chosen." or targets, said  # the last place taken: the panel is cleared
                break
            targets.append(self.click_place())
            WebDriverWait(self.browser, 10).until(lambda d: lines(self.text)[-1] == expected(
                v, [block["id"]], block["at"], targets, self.grammar["join"]))
            if len(targets) >= v["max"]:
                break
        self.accepted(expected(v, [block["id"]], block["at"], targets, self.grammar["join"]))
        self.done.add(v["name"])

    def every_verb(self, want: set[str], limit: int = 12, where: dict | None = None) -> set[str]:
        """Each of the verbs ``want`` walked once, for the first of the seat's blocks (up to ``limit``; with the
        marks ``where`` says) offered it."""
        verbs = {v["name"]: v for v in self.grammar["verbs"]}
        assert want <= set(verbs), (want, set(verbs))
        blocks = [b for b in self.regions["blocks"] if all(b["data"].get(k) == v for k, v in (where or {}).items())]
        for block in blocks[:limit]:
            if not want - self.done:
                break
            self.reset()
            for i, name in enumerate([n for n in self.choose(block) if n in want - self.done]):
                self.walk(block, verbs[name], chosen=i == 0)
        return self.done


def test_marengo_every_verb_as_its_hint_says(site, browser):
    service = site.service
    sign_in(browser, site, ADMIN)
    game_id = new_game(site, "marengo")
    done = Walk(site, browser, game_id, "austria").every_verb({"enter"}, limit=1)
    # France's day of the demo (its blocks on the map, some not yet activated)
    done |= Walk(site, browser, site.demo, "france").every_verb({"move", "road", "activate"})
    # two Austrian blocks on the approach facing the French in Pedrabona: the assault
    before_the_assault(service, game_id)
    done |= Walk(site, browser, game_id, "austria").every_verb({"assault"})
    assert done == {"enter", "move", "road", "activate", "assault"}, done


def test_marengo_the_pontoon_closes_the_places_and_the_entry_is_written_at_once(site, browser):
    """Entering that stops at the entry point is the verb's click, and the hint says so; choosing the pontoon
    (its block stops where it crosses) asks the places again: none is offered, a place taken before is dropped."""
    game_id = new_game(site, "marengo")
    sign_in(browser, site, ADMIN)
    page = Walk(site, browser, game_id, "austria")
    a4 = next(b for b in page.regions["blocks"] if b["id"] == "A4")
    page.choose(a4)
    assert "click “Enter” to write it: they go no farther; or click where they go next" in hint(browser), hint(browser)
    verb(browser, "enter")
    assert hint(browser).endswith("Enter: written below: they go no farther; or click where they go next")
    page.accepted("ENTER A4")
    gone = page.click_place()
    WebDriverWait(browser, 10).until(lambda d: lines(page.text)[-1] == f"ENTER A4 -> {gone}")
    Select(browser.find_element(By.ID, "click-option-by")).select_by_value(" BY PONTOON")
    WebDriverWait(browser, 10).until(lambda d: lines(page.text)[-1] == "ENTER A4 BY PONTOON")
    assert hint(browser).endswith("Enter: written below: they go no farther"), hint(browser)
    assert [o.get_attribute("value") for o in browser.find_elements(By.CSS_SELECTOR, "#click-target option")] == [""]
    page.accepted("ENTER A4 BY PONTOON")
    Select(browser.find_element(By.ID, "click-option-by")).select_by_value("")  # by road again: the places are back
    WebDriverWait(browser, 10).until(lambda d: hint(d).endswith("or click where they go next"))


def days(site, game_id: int, orders: list[tuple[str, str]]):
    """Each seat's orders in turn, each day resolved."""
    for seat, text in orders:
        assert site.service.submit(game_id, seat, text).ok, (seat, text)
        site.service.resolve_next(game_id)


def test_triomphe_every_verb_as_its_hint_says(site, browser):
    sign_in(browser, site, ADMIN)
    game_id = new_game(site, "triomphe")
    done = Walk(site, browser, game_id, "austria").every_verb({"enter"}, limit=1)  # 6 AM: all off the map
    days(site, game_id, [("austria", "ENTER A1\nENTER A2\nENTER A4 BY PONTOON\n")])
    done |= Walk(site, browser, game_id, "france").every_verb({"reorganise"}, limit=1)  # disorganised at first
    days(site, game_id, [("france", "FINAL\n")])
    done |= Walk(site, browser, game_id, "austria").every_verb({"march", "road", "attack"})
    # A4 onto the approach facing Pedrabona, F5 onto the approach facing it: the assault
    days(site, game_id, [("austria", "MARCH A4 Bormida bridgehead -> Bormida bridgehead>Pedrabona\n"),
                         ("france", "MARCH F5 Pedrabona -> Pedrabona>Bormida bridgehead\n")])
    done |= Walk(site, browser, game_id, "austria").every_verb({"assault"})
    assert done == {"enter", "reorganise", "march", "road", "attack", "assault"}, done


def test_napoleon1815_every_verb_as_its_hint_says(site, browser):
    service = site.service
    sign_in(browser, site, ADMIN)
    game_id = new_game(site, "napoleon1815")
    done = Walk(site, browser, game_id, "prussian").every_verb({"place"}, limit=1)
    for seat in ("anglo-dutch", "prussian"):
        assert service.submit(game_id, seat, "FINAL\n").ok
    service.resolve_next(game_id)
    assert service.submit(game_id, "french", "FINAL\n").ok
    service.resolve_next(game_id)
    done |= Walk(site, browser, game_id, "french").every_verb({"move"}, limit=3)
    assert done == {"place", "move"}, done


def bot_days_until(site, game_id: int, phase: str, most: int = 40):
    """Days played by the simple computer player for every seat until the seat that owes orders is in ``phase``."""
    service = site.service
    for _ in range(most):
        game = service.game(game_id)
        seat = game.turn().seats[0]
        if game.view(seat).get("phase") == phase:
            return seat
        bot = game.ruleset.bots()["bot"]
        for seat in game.turn().seats:
            assert service.submit(game_id, seat, bot.orders(game.scenario, game.view(seat), 0) + "FINAL\n").ok
        service.resolve_next(game_id)
    pytest.fail(f"no {phase} in {most} days")


DEPLOY = {"deploy-left", "deploy-centre", "deploy-right", "deploy-reserve"}
ROUND = {"engage", "hold", "form-square", "shift-reserve", "withdraw", "fire", "fire-square", "fire-line", "shift-left",
         "shift-right", "shift-centre"}
"""The round orders offered in the first round of this game's first battle (DISENGAGE, BREAK SQUARE and REINFORCE
are not: no block there is engaged, in square, or next to the battle off its board)."""


def test_napoleon1815_battle_verbs_as_their_hints_say(site, browser):
    """A game whose battles are fought round by round (battle = live): its first battle's deployment, then its
    first round, each order clicked for the blocks of the battle."""
    sign_in(browser, site, ADMIN)
    seats = ("french", "anglo-dutch", "prussian")
    game_id, _ = site.service.create_game("Battle clicks", {s: ADMIN for s in seats}, game="napoleon1815", seed=0,
                                          options={"players": "2", "battle": "live"})
    seat = bot_days_until(site, game_id, "battle deployment")
    done = Walk(site, browser, game_id, seat).every_verb(DEPLOY, limit=1)
    seat = bot_days_until(site, game_id, "battle round")
    done |= Walk(site, browser, game_id, seat).every_verb(ROUND, where={"board": "yes"})
    assert done == DEPLOY | ROUND, done


def test_dba_says_its_orders_are_typed(site, browser):
    game_id = new_game(site, "dba")
    game = site.service.game(game_id)
    seat = game.turn().seats[0]
    sign_in(browser, site, ADMIN)
    browser.get(f"{site.url}/games/{game_id}?side={seat}")
    said = browser.find_element(By.ID, "click-help").text
    assert said == "These orders are typed, not clicked on the map: write them below (the form shows how)."
    assert not browser.find_elements(By.ID, "clicks")
