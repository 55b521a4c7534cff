"""A deadline a moderator set by hand (issue 32 item 6) stands whatever comes before it: a player's orders, his
amended orders (again and again, by the web and by mail, FINAL or not while another seat still owes), the
clock's ticks, a moderator's amendment of a past day's orders. Through the web pages on a real database."""

from __future__ import annotations

from datetime import timedelta
from email.message import EmailMessage

from pbem.server import deadlines, inbox

from websupport import ANNA, FRED, MOD, csrf

HAND_SET = "2026-12-24 18:00"


def post(client, url, data):
    return client.post(url, data={"csrf_token": csrf(client.get("/").text), **data})


def mail(text, sender):
    msg = EmailMessage()
    msg["From"], msg["To"], msg["Subject"] = sender, "pbem@localhost", "orders"
    msg.set_content(text)
    return msg.as_bytes()


def entering(service, game_id, side, n=0) -> str:
    """An order of ``side`` for the coming day: a waiting block due enters by road (the ``n``-th of them)."""
    game = service.game(game_id)
    due = [b.id for b in game.state.blocks.values() if b.side == side and b.status == "waiting"
           and (b.arrives or 0) <= game.scenario.hour(game.day)]
    return f"ENTER {due[n % len(due)]} BY ROAD"


def test_a_hand_set_deadline_survives_orders_and_their_amendments(site):
    site.service.clock = lambda: deadlines.parse_iso("2026-12-20T08:00:00Z")
    game_id, keys = site.game(settings={"hours": 48})
    site.service.resolve_next(game_id)  # day 0 (both seats' standing orders), so a past day can be amended
    site.service.run_jobs()
    game = site.service.game(game_id)
    day, [owing] = game.day, game.turn().seats
    player = {"austria": ANNA, "france": FRED}[owing]
    moderator, web = site.client(MOD), site.client(player)
    set_by_hand = post(moderator, f"/games/{game_id}/moderate/deadline",
                       {"when": HAND_SET, "zone": "UTC", "why": "the club meets on Christmas Eve"})
    assert set_by_hand.status_code == 302, set_by_hand.text
    fixed = deadlines.parse_iso("2026-12-24T18:00:00Z")
    assert site.service.deadline(game_id) == fixed

    def unchanged(step: str) -> None:
        assert site.service.deadline(game_id) == fixed, step
        assert site.service.game(game_id).day == day, step  # and the day is not resolved before it

    first = entering(site.service, game_id, owing)
    assert post(web, f"/games/{game_id}/orders", {"side": owing, "text": first}).status_code == 303
    unchanged("orders")
    amended = entering(site.service, game_id, owing, 1)
    assert post(web, f"/games/{game_id}/orders", {"side": owing, "text": amended}).status_code == 303
    unchanged("amended orders")
    raw = mail(f"GAME {game_id} SIDE {owing} KEY {keys[owing]}\n{first}\n", player)
    inbox.process(site.service, inbox.receive(site.service, raw, "pipe")[0])
    assert site.service.game(game_id).orders_text(day, owing).strip().endswith(first)
    unchanged("orders amended by mail")
    site.service.clock = lambda: fixed - timedelta(hours=1)
    site.service.tick()  # the clock looks before the deadline (a reminder's time): nothing moves
    unchanged("a tick before the deadline")
    done = post(moderator, f"/games/{game_id}/moderate/amend_orders",
                {"day": "0", "side": owing, "text": "", "why": "a lost mail of day 0"})
    assert done.status_code == 302, done.text
    unchanged("a moderator's amendment of day 0")
    site.service.run_jobs()  # the corrected reports go out: they start no new clock
    unchanged("the corrected reports")
    settings = deadlines.settings_with_defaults(site.service.info(game_id)["settings"])
    site.service.clock = lambda: deadlines.grace_end(settings, fixed) + timedelta(minutes=1)
    site.service.tick()
    assert site.service.game(game_id).day == day + 1  # the day is resolved at the hand-set deadline (and grace)


def test_orders_amended_without_final_withdraw_the_final_so_the_hand_set_deadline_stands(site):
    """Both seats of a DBA turn owe orders. Blue marks his FINAL, then amends them without FINAL (he is not done
    after all); Red marks his FINAL: the day is not resolved early -- Blue's orders on file are not final -- and
    the hand-set deadline stands. Blue's FINAL again resolves it."""
    from pbem.games import ruleset

    site.service.clock = lambda: deadlines.parse_iso("2026-12-20T08:00:00Z")
    scenario = next(iter(ruleset("dba").scenarios().values()))
    game_id, _ = site.service.create_game("Two at once", {"blue": ANNA, "red": FRED}, game="dba",
                                          scenario=scenario.name, moderator=MOD, settings={"hours": 48})
    assert site.service.game(game_id).turn().seats == ("blue", "red")
    moderator, blue, red = site.client(MOD), site.client(ANNA), site.client(FRED)
    assert post(moderator, f"/games/{game_id}/moderate/deadline",
                {"when": HAND_SET, "zone": "UTC", "why": "the club meets on Christmas Eve"}).status_code == 302
    fixed = deadlines.parse_iso("2026-12-24T18:00:00Z")
    post(blue, f"/games/{game_id}/orders", {"side": "blue", "text": "# all hold\nFINAL"})
    post(blue, f"/games/{game_id}/orders", {"side": "blue", "text": "# all hold, but I may think again"})
    post(red, f"/games/{game_id}/orders", {"side": "red", "text": "# all hold\nFINAL"})
    site.service.tick()
    assert site.service.game(game_id).day == 0 and site.service.deadline(game_id) == fixed
    post(blue, f"/games/{game_id}/orders", {"side": "blue", "text": "# all hold after all\nFINAL"})
    assert site.service.game(game_id).day == 1  # every seat's orders on file are FINAL: resolved early
