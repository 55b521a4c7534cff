"""Notifications (issue 16 §6): a player's choice of every notice, a daily digest or none; chat
webhooks in Discord's and Slack's formats, sent to a real HTTP server on loopback through the
stored webhook outbox (retried, never twice); the iCalendar feed of a player's deadlines."""

from __future__ import annotations

import json
import threading
from datetime import datetime, timedelta, timezone
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from icalendar import Calendar

from pbem.server import notify
from pbem.server.service import Service
from pbem.server.store import Store

from conftest import Clock
from websupport import ANNA, FRED, SMALL, Site, csrf

START = datetime(2026, 11, 2, 9, 0, tzinfo=timezone.utc)
LOOPBACK = ("127.0.0.0/8",)  # the test's receiver: let through where the server lets only public addresses


@pytest.fixture
def world(tmp_path):
    clock = Clock(START)
    store = Store(tmp_path / "pbem.sqlite3", clock=clock)
    yield Service(store, clock=clock), clock
    store.close()


class Hook:
    """A chat app's incoming webhook on loopback: records each POST; answers ``codes`` in turn, then 204."""

    def __init__(self):
        self.received: list[tuple[str, dict]] = []
        self.codes: list[int] = []
        hook = self

        class Handler(BaseHTTPRequestHandler):
            def do_POST(self):
                body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
                code = hook.codes.pop(0) if hook.codes else 204
                if code < 300:
                    hook.received.append((self.path, body))
                self.send_response(code)
                self.send_header("Content-Length", "0")
                self.end_headers()

            def log_message(self, *args):
                pass

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_port}"
        self.thread = threading.Thread(target=self.server.serve_forever, daemon=True)
        self.thread.start()

    def stop(self):
        self.server.shutdown()
        self.server.server_close()
        self.thread.join(10)


@pytest.fixture
def hook():
    hook = Hook()
    yield hook
    hook.stop()


def new_game(service, settings=None):
    return service.create_game("Duel", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=3,
                               settings={"hours": 48, "reminders": [], **(settings or {})})


def kinds_to(service, address):
    return [r["kind"] for r in service.store.query("SELECT kind FROM outbox WHERE to_addr = ? ORDER BY id",
                                                   (address,))]


def test_every_digest_or_none(world):
    service, clock = world
    notify.set_settings(service.store, FRED, "none")
    notify.set_settings(service.store, ANNA, "digest")
    game_id, _ = new_game(service, {"grace_minutes": 60})
    clock.now = service.deadline(game_id) + timedelta(minutes=1)
    service.tick()  # Austria (Anna) is late: France (Fred) would be told, but chose none
    service.offer_draw(game_id, "france")  # Anna would be told, but chose the digest
    assert "late" not in kinds_to(service, FRED) and "draw" not in kinds_to(service, ANNA)
    assert "welcome" in kinds_to(service, ANNA)  # what carries the game always comes
    assert notify.digests(service) == 1 and notify.digests(service) == 0  # once a day
    digest = service.store.mail("WHERE kind = 'digest'")
    assert digest["to_addr"] == ANNA and f"#{game_id} Duel, Austria" in digest["body"]
    clock.now += timedelta(days=1)
    assert notify.digests(service) == 1  # the next day, again
    notify.set_settings(service.store, FRED, "every")
    service.resign(game_id, "austria")
    assert "ended" in kinds_to(service, FRED) and "ended" not in kinds_to(service, ANNA)
    with pytest.raises(notify.NotifyError, match="every, digest, none"):
        notify.set_settings(service.store, FRED, "sometimes")
    with pytest.raises(notify.NotifyError, match="http"):
        notify.set_settings(service.store, FRED, "every", "ftp://chat.example/hook")


def test_the_digest_comes_at_the_players_hour_in_his_time_zone(world):
    service, clock = world
    game_id, _ = new_game(service)  # Austria (Anna) owes the first day
    notify.set_settings(service.store, ANNA, "digest", digest_hour=7, timezone="America/New_York")
    clock.now = datetime(2026, 11, 3, 11, 30, tzinfo=timezone.utc)  # 06:30 in New York: not yet
    assert notify.digests(service) == 0
    clock.now = datetime(2026, 11, 3, 12, 5, tzinfo=timezone.utc)  # 07:05 in New York
    assert notify.digests(service) == 1
    body = service.store.mail("WHERE kind = 'digest'")["body"]
    assert f"#{game_id} Duel, Austria" in body and "America/New_York" in body  # the deadline in his zone
    clock.now = datetime(2026, 11, 4, 3, 0, tzinfo=timezone.utc)  # the 4th in UTC, still the 3rd in New York
    assert notify.digests(service) == 0
    clock.now = datetime(2026, 11, 4, 11, 59, tzinfo=timezone.utc)  # the 4th, 06:59 in New York
    assert notify.digests(service) == 0
    clock.now = datetime(2026, 11, 4, 12, 0, tzinfo=timezone.utc)
    assert notify.digests(service) == 1
    # the hour and the zone are kept when only the mode or the webhook change (as the calendar does)
    notify.calendar_token(service.store, ANNA, renew=True)
    notify.set_settings(service.store, ANNA, "digest", "https://chat.example/hook")
    mine = notify.settings_of(service.store, ANNA)
    assert (mine["digest_hour"], mine["timezone"]) == (7, "America/New_York")
    for hour, said in (("24", "0 to 23, not '24'"), ("seven", "not 'seven'"), (-1, "not -1")):
        with pytest.raises(notify.NotifyError, match=said):
            notify.set_settings(service.store, ANNA, "digest", digest_hour=hour)
    with pytest.raises(notify.NotifyError, match="unknown time zone 'Mars/Olympus'"):
        notify.set_settings(service.store, ANNA, "digest", timezone="Mars/Olympus")


def test_webhooks_in_discord_and_slack_formats_retried_never_twice(world, hook):
    service, clock = world
    notify.set_settings(service.store, ANNA, "none", f"{hook.url}/discord", "discord", allow=LOOPBACK)
    notify.set_settings(service.store, FRED, "every", f"{hook.url}/slack", "slack", allow=LOOPBACK)
    game_id, _ = new_game(service)
    service.offer_draw(game_id, "austria")  # Fred is told (mail and Slack)
    service.send_press(game_id, "france", ["austria"], "Never!")  # Anna: Discord only
    sender = notify.WebhookSender(service.store, timeout=5, allow=LOOPBACK)
    hook.codes = [500]  # the chat app fails once: the message waits and is sent again
    assert sender.send_due(clock.now) == 1
    assert sender.send_due(clock.now) == 0  # the failed one waits for its backoff
    clock.now += timedelta(minutes=2)
    assert sender.send_due(clock.now) == 1 and sender.send_due(clock.now) == 0
    got = dict(hook.received)
    assert set(got) == {"/discord", "/slack"}
    assert "offers a draw" in got["/slack"]["text"] and set(got["/slack"]) == {"text"}
    assert "Never!" in got["/discord"]["content"] and set(got["/discord"]) == {"content"}
    # the same notice queued again (a job redone) is not sent again
    before = service.store.query_one("SELECT COUNT(*) AS n FROM webhook_outbox")["n"]
    pid = service.press_for(game_id, None)[0]["id"]
    notify.notice(service.store, ANNA, "x", "y", "press", game_id, f"press:{pid}:austria")
    assert service.store.query_one("SELECT COUNT(*) AS n FROM webhook_outbox")["n"] == before
    # a 404 is final: the row fails, the audit says so
    hook.codes = [404]
    service.resign(game_id, "austria")
    assert sender.send_due(clock.now) == 1  # one of the two "ended" went, the other was refused
    failed = service.store.query("SELECT * FROM webhook_outbox WHERE status = 'failed'")
    assert len(failed) == 1 and failed[0]["last_error"] == "HTTP 404"
    assert any(a["action"] == "webhook failed" for a in service.store.read_audit(game_id))
    assert len(hook.received) == 3


def test_the_calendar_feed_lists_every_deadline(tmp_path):
    site = Site(tmp_path)
    try:
        games = [new_game(site.service)[0] for _ in range(2)]
        anna = site.client(ANNA)
        page = anna.get("/notifications")
        assert page.status_code == 200 and "/calendar/" in page.text
        url = page.text.split('id="calendar-url">')[1].split("<")[0]
        feed = site.client().get(url.replace("http://pbem.test", ""))
        assert feed.status_code == 200 and feed.mimetype == "text/calendar"
        events = [c for c in Calendar.from_ical(feed.data).walk("VEVENT")]
        assert sorted(str(e["summary"]).split(":")[1].split()[0] for e in events) == [f"#{g}" for g in games]
        assert {e.decoded("dtstart") for e in events} == {site.service.deadline(g) for g in games}
        # only the turns she owes: her orders on file for the first game, it leaves the feed
        game = site.service.game(games[0])
        due = [b.id for b in game.state.blocks.values() if b.side == "austria" and b.status == "waiting"
               and (b.arrives or 0) <= game.scenario.hour(game.day)]
        assert site.service.submit(games[0], "austria", f"ENTER {due[0]} BY ROAD").ok
        events = Calendar.from_ical(site.client().get(url.replace("http://pbem.test", "")).data).walk("VEVENT")
        assert [str(e["summary"]).split(":")[1].split()[0] for e in events] == [f"#{games[1]}"]
        # a new address: the old one is gone
        token = csrf(page.text)
        assert anna.post("/notifications", data={"csrf_token": token, "action": "calendar"}).status_code == 302
        assert site.client().get(url.replace("http://pbem.test", "")).status_code == 404
        assert anna.post("/notifications", data={"csrf_token": token, "mode": "digest",
                                                 "webhook_url": "https://chat.example/hook",
                                                 "webhook_format": "slack"}).status_code == 302
        assert notify.settings_of(site.store, ANNA)["mode"] == "digest"
        bad = anna.post("/notifications", data={"csrf_token": token, "mode": "loud"})
        assert bad.status_code == 400
        # the digest's hour, in the player's time zone
        assert anna.post("/notifications", data={"csrf_token": token, "mode": "digest", "digest_hour": "18",
                                                 "timezone": "Europe/Paris"}).status_code == 302
        mine = notify.settings_of(site.store, ANNA)
        assert (mine["digest_hour"], mine["timezone"]) == (18, "Europe/Paris")
        page = anna.get("/notifications").text
        assert '<option value="18" selected>18:00</option>' in page and 'value="Europe/Paris"' in page
        for hour, zone, said in (("25", "UTC", "0 to 23, not &#39;25&#39;"), ("6", "Paris", "unknown time zone")):
            bad = anna.post("/notifications", data={"csrf_token": token, "mode": "digest", "digest_hour": hour,
                                                    "timezone": zone})
            assert bad.status_code == 400 and said in bad.text, bad.text
    finally:
        site.store.close()


def test_your_turn_and_reminders_reach_the_webhook(world, hook):
    service, clock = world
    notify.set_settings(service.store, FRED, "every", f"{hook.url}/fred", "discord", allow=LOOPBACK)
    game_id, _ = service.create_game("Duel", {"austria": ANNA, "france": FRED}, scenario=SMALL, seed=3,
                                     settings={"hours": 48, "reminders": [2]})
    service.resolve_next(game_id)  # day 0 (Austria's); France owes day 1 once the reports are out
    service.run_jobs()
    clock.now = service.deadline(game_id) - timedelta(hours=1)
    service.tick()  # France's reminder
    sender = notify.WebhookSender(service.store, timeout=5, allow=LOOPBACK)
    assert sender.send_due(clock.now) == 2 and sender.send_due(clock.now) == 0
    texts = [body["content"] for _, body in hook.received]
    assert "Your turn" in texts[0] and "Reminder" in texts[1]
    assert service.store.query_one("SELECT COUNT(*) AS n FROM webhook_outbox WHERE email = ?", (ANNA,))["n"] == 0
