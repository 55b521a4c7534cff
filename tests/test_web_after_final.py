"""The page after Submit with FINAL (issue 33): when those orders were the last the day waited for, the day is
resolved before the page is drawn again, so it shows the new day and the report of the one just played,
never the old day with a map whose clickable blocks no longer exist."""

from __future__ import annotations

import html
import re

from test_web import entering_orders
from websupport import ANNA, FRED, post


def submit(client, game_id: int, text: str, final: bool = True):
    answer = post(client, f"/games/{game_id}/orders", side="austria", text=text, action="submit",
                  **({"final": "1"} if final else {}))
    assert answer.status_code == 303
    return client.get(answer.location)


def test_the_last_final_orders_resolve_the_day_before_the_page_comes_back(site):
    game_id, _ = site.game()
    anna = site.client(ANNA)
    before = site.service.turn_label(site.service.game(game_id))
    order = entering_orders(site.service, game_id)
    page = submit(anna, game_id, f"{order}\n")
    assert page.status_code == 200 and "Orders accepted" in page.text
    game = site.service.game(game_id)
    assert game.day == 1 and len(game.days) == 1  # resolved within the request
    now = site.service.turn_label(game)
    assert now != before and f"Orders for {now}" in html.unescape(page.text)
    # the orders box holds the new day's form, not the orders of the day just resolved (issue 33's trial)
    def box(text):
        return html.unescape(re.search(r'<textarea name="text"[^>]*>(.*?)</textarea>', text, re.S).group(1))

    assert order not in box(page.text) and box(page.text) == box(anna.get(f"/games/{game_id}?side=austria").text)
    # the report of the day just played is on the page, and the map is the new day's
    assert "/map/0.svg" in page.text or "/map/0.png" in page.text
    assert site.service.seat(game_id, "austria")["final_day"] is None
    # France owes the new day's orders, and its page offers its clicks for that day
    fred = site.client(FRED)
    assert fred.get(f"/games/{game_id}/map/clicks.json?side=france").status_code == 200


def test_orders_not_final_or_a_game_that_waits_for_the_deadline_leave_the_day_open(site):
    game_id, _ = site.game()
    anna = site.client(ANNA)
    submit(anna, game_id, f"{entering_orders(site.service, game_id)}\n", final=False)
    assert site.service.game(game_id).day == 0
    late, _ = site.game(settings={"hours": 48, "early": False})
    page = submit(anna, late, f"{entering_orders(site.service, late)}\n")
    assert "Orders accepted" in page.text and site.service.game(late).day == 0
