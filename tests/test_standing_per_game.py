"""The game page's standing-orders form is each game's own (issue 33): its example and the word its lines begin
with (STANDING in the Marengo family, DOCTRINE in Napoleon 1815), and none at all in Napoleonic DBA, whose
choices are asked or take their defaults; sending one there is refused in words, not with a confusing error."""

from __future__ import annotations

import html

import pytest

from pbem.games import ruleset
from websupport import ANNA, FRED, post


def game_of(site, name: str) -> tuple[int, str]:
    rules = ruleset(name)
    path = next(iter(rules.scenarios().values()))
    seats = [s.id for s in rules.seats(rules.load_scenario(path), {})]
    emails = {seat: ANNA if i == 0 else FRED for i, seat in enumerate(seats)}
    game_id, _ = site.service.create_game("Standing", emails, game=name, scenario=path.name, seed=5)
    return game_id, seats[0]


def standing_box(page: str) -> str:
    return page.split('id="standing"', 1)[1].split("</section>", 1)[0] if 'id="standing"' in page else ""


@pytest.mark.parametrize("name, example", [("marengo", "STANDING PURSUE STRONG"),
                                           ("triomphe", "STANDING COUNTERATTACK TURN"),
                                           ("napoleon1815", "DOCTRINE WITHDRAW 40")])
def test_each_game_shows_its_own_example(site, name, example):
    game_id, seat = game_of(site, name)
    box = html.unescape(standing_box(site.client(ANNA).get(f"/games/{game_id}?side={seat}").text))
    assert f'placeholder="{example}"' in box
    assert f"Only {example.split()[0]} lines, such as {example}" in box
    other = {"STANDING PURSUE STRONG", "DOCTRINE WITHDRAW 40", "STANDING COUNTERATTACK TURN"} - {example}
    assert not any(o in box for o in other)


def test_napoleon_1815_takes_its_doctrine_lines_by_the_form(site):
    game_id, seat = game_of(site, "napoleon1815")
    anna = site.client(ANNA)
    answer = anna.get(post(anna, f"/games/{game_id}/standing", side=seat, text="DOCTRINE WITHDRAW 40").location)
    assert "DOCTRINE WITHDRAW 40" in site.service.orders_on_file(game_id, seat)
    refused = post(anna, f"/games/{game_id}/standing", side=seat, text="STANDING PURSUE STRONG")
    assert refused.status_code == 400
    assert "only DOCTRINE lines, such as DOCTRINE WITHDRAW 40" in html.unescape(refused.text)
    assert answer.status_code == 200


def test_dba_has_no_standing_form_and_says_why(site):
    game_id, seat = game_of(site, "dba")
    anna = site.client(ANNA)
    assert standing_box(anna.get(f"/games/{game_id}?side={seat}").text) == ""
    refused = post(anna, f"/games/{game_id}/standing", side=seat, text="STANDING PURSUE STRONG")
    assert refused.status_code == 400 and "this game has no standing orders" in html.unescape(refused.text)
