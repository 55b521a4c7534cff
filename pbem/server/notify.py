"""Notifications beyond the game's own mail: each player's settings, chat-app webhooks, the
daily digest and the calendar feed.

A player chooses (``notify_settings``, the /notifications page):

- ``mode``: "every" (every notice by mail: the default), "digest" (instead of the notices, one
  mail a day listing the games waiting on their orders, at the ``digest_hour`` the player
  chooses, 0 to 23, in the player's ``timezone``) or "none" (no notice beyond the orders
  reminders). Reports, welcomes, keys and answers to the player's own mail always go: they
  carry the game. The notices are the optional mails: late notices, vacations holding a game,
  draw offers and answers, a game ended by its players, press;
- a chat-app webhook (Discord or Slack JSON): every notice, every reminder and "your turn"
  go there too, through ``webhook_outbox``: stored before it is sent (in the transaction of
  the change it reports), claimed with a lease, retried with the mail's backoff, a dedupe key
  so a job redone sends nothing twice; a 4xx answer (but 408 and 429) is final;
- a calendar feed (iCalendar, by the icalendar library) of every deadline of every game the
  player holds a seat in, at a private address with a token (/calendar/<token>.ics).
"""

from __future__ import annotations

import json
import secrets
from datetime import datetime, timedelta

from pbem.server import deadlines, i18n, webhooks
from pbem.server.mail.outbox import LEASE, MAX_ATTEMPTS, backoff, queue
from pbem.server.store import iso

MODES = ("every", "digest", "none")
FORMATS = ("discord", "slack")
TEXT_LIMIT = 1900  # characters of a chat message (Discord takes 2,000)


class NotifyError(i18n.Refusal):
    """Notification settings that cannot be used; the message says why."""


def settings_of(store, email: str) -> dict:
    """The player's settings; before he saves any, the defaults, in the time zone of his player
    record (else UTC)."""
    row = store.query_one("SELECT * FROM notify_settings WHERE email = ?", ((email or "").strip(),))
    if row is not None:
        return row
    zone = ((store.find_player(email) or {}).get("timezone") if email else None) or "UTC"
    return {"email": email, "mode": "every", "webhook_url": "", "webhook_format": "discord",
            "calendar_token": None, "digest_hour": 0, "timezone": zone}


def digest_hour_of(value) -> int:
    """The digest's hour as given (a form's text or a number), checked: 0 to 23."""
    text = str(value).strip()
    if isinstance(value, bool) or not text.isdigit() or not 0 <= int(text) <= 23:
        raise NotifyError("the digest's hour is a whole hour, 0 to 23, not %(value)s", value=repr(value))
    return int(text)


def set_settings(store, email: str, mode: str, webhook_url: str = "", webhook_format: str = "discord",
                 digest_hour=None, timezone: str | None = None, allow=()) -> None:
    """Save the player's settings; ``digest_hour`` and ``timezone`` left None keep what they were. The
    webhook must be a public address (pbem.server.webhooks; ``allow``: the tests' loopback only)."""
    webhook_url = (webhook_url or "").strip()
    current = settings_of(store, email)
    digest_hour = current["digest_hour"] if digest_hour is None else digest_hour_of(digest_hour)
    timezone = (current["timezone"] if timezone is None else str(timezone).strip()) or "UTC"
    try:
        deadlines.zone(timezone)
    except deadlines.SettingsError as exc:
        raise NotifyError(exc.text) from None
    if mode not in MODES:
        raise NotifyError("notifications are %(names)s, not %(mode)s", names=", ".join(MODES), mode=repr(mode))
    if webhook_format not in FORMATS:
        raise NotifyError("a webhook speaks %(names)s, not %(format)s", names=" or ".join(FORMATS),
                          format=repr(webhook_format))
    try:
        webhook_url = webhooks.check(webhook_url, allow)
    except webhooks.NotPublic as exc:
        raise NotifyError(exc.text) from None
    with store.transaction():
        store.execute(
            "INSERT INTO notify_settings (email, mode, webhook_url, webhook_format, digest_hour, timezone, updated)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)"
            " ON CONFLICT(email) DO UPDATE SET mode = excluded.mode, webhook_url = excluded.webhook_url,"
            " webhook_format = excluded.webhook_format, digest_hour = excluded.digest_hour,"
            " timezone = excluded.timezone, updated = excluded.updated",
            (email.strip(), mode, webhook_url, webhook_format, digest_hour, timezone, store.now()))
        store.audit(email, "notify_settings", detail={"mode": mode, "webhook": bool(webhook_url),
                                                      "digest_hour": digest_hour, "timezone": timezone})


def calendar_token(store, email: str, renew: bool = False) -> str:
    """The token of the player's calendar address (made on first use; ``renew``: a new one, the old
    address stops working)."""
    current = settings_of(store, email)
    if current["calendar_token"] and not renew:
        return current["calendar_token"]
    token = secrets.token_urlsafe(24)
    with store.transaction():
        if current.get("updated") is None:
            set_settings(store, email, current["mode"], current["webhook_url"], current["webhook_format"])
        store.execute("UPDATE notify_settings SET calendar_token = ? WHERE email = ?", (token, email.strip()))
    return token


def owner_of_token(store, token: str) -> str | None:
    row = store.query_one("SELECT email FROM notify_settings WHERE calendar_token = ?", (token,))
    return row["email"] if row else None


# -- sending ---------------------------------------------------------------------------------


def notice(store, email: str | None, subject: str, body: str, kind: str, game_id=None, dedupe_key=None) -> None:
    """An optional notice to a player: by mail unless their settings say digest or none; to their
    webhook if they have one. Call inside the transaction of the change it reports."""
    if not email:
        return
    mine = settings_of(store, email)
    if mine["mode"] == "every":
        queue(store, email, subject, body, kind=kind, game_id=game_id, dedupe_key=dedupe_key)
    chat(store, email, f"{subject}\n{body}", kind, game_id, dedupe_key)


def chat(store, email: str | None, text: str, kind: str, game_id=None, dedupe_key=None) -> int | None:
    """Queue a chat message to the player's webhook, if they have one; returns its row id."""
    if not email:
        return None
    mine = settings_of(store, email)
    if not mine["webhook_url"]:
        return None
    key = f"chat:{dedupe_key}:{email.lower()}" if dedupe_key else None
    with store.transaction():
        if key is not None:
            row = store.query_one("SELECT id FROM webhook_outbox WHERE dedupe_key = ?", (key,))
            if row is not None:
                return row["id"]
        now = store.now()
        return store.execute(
            "INSERT INTO webhook_outbox (created, email, url, format, text, kind, game_id, dedupe_key,"
            " next_attempt_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (now, email, mine["webhook_url"], mine["webhook_format"], text[:TEXT_LIMIT], kind, game_id, key,
             now)).lastrowid


def payload(format: str, text: str) -> bytes:
    """The JSON a chat app's incoming webhook takes: Discord's ``content``, Slack's ``text``."""
    return json.dumps({"content": text} if format == "discord" else {"text": text}).encode()


class WebhookSender:
    """Delivers due webhook rows by HTTP POST, with the outbox's leases, backoff and attempts, to public
    addresses only, following no redirect, each POST bounded in time and size (pbem.server.webhooks;
    ``allow``: networks let through all the same, for the tests' receivers on loopback -- the server
    never passes it)."""

    def __init__(self, store, timeout: float = 10, max_attempts: int = MAX_ATTEMPTS, allow=()):
        self.store, self.timeout, self.max_attempts, self.allow = store, timeout, max_attempts, tuple(allow)

    def send_due(self, now: datetime | None = None) -> int:
        now = now or self.store.clock()
        sent = 0
        while (row := self._claim(now)) is not None:
            try:
                status = webhooks.post(row["url"], payload(row["format"], row["text"]),
                                       {"Content-Type": "application/json", "User-Agent": "pbem-webhook"},
                                       self.timeout, self.allow)
            except webhooks.NotPublic as error:  # not public (now): final, the audit says why
                self._failed(row, now, error.in_("en"), True)
            except Exception as error:  # refused, timed out: tried again later
                self._failed(row, now, f"{type(error).__name__}: {error}", False)
            else:
                if not 200 <= status < 300:  # a redirect is not followed: final, as a 4xx (but 408, 429)
                    final = 300 <= status < 500 and status not in (408, 429)
                    self._failed(row, now, f"HTTP {status}", final)
                    continue
                self.store.execute("UPDATE webhook_outbox SET status = 'sent', sent_at = ?, last_error = NULL"
                                   " WHERE id = ?", (iso(now), row["id"]))
                sent += 1
        return sent

    def _claim(self, now: datetime):
        with self.store.transaction():
            row = self.store.query_one(
                "SELECT * FROM webhook_outbox WHERE status IN ('queued', 'sending') AND next_attempt_at <= ?"
                " ORDER BY next_attempt_at, id LIMIT 1", (iso(now),))
            if row is None:
                return None
            row["attempts"] += 1
            self.store.execute("UPDATE webhook_outbox SET status = 'sending', attempts = ?, next_attempt_at = ?"
                               " WHERE id = ?", (row["attempts"], iso(now + LEASE), row["id"]))
            return row

    def _failed(self, row, now: datetime, error: str, final: bool) -> None:
        give_up = final or row["attempts"] >= self.max_attempts
        with self.store.transaction():
            self.store.execute("UPDATE webhook_outbox SET status = ?, next_attempt_at = ?, last_error = ? WHERE id = ?",
                               ("failed" if give_up else "queued", iso(now + backoff(row["attempts"])), error,
                                row["id"]))
            if give_up:
                self.store.audit("webhooks", "webhook failed", game_id=row["game_id"], why=error,
                                 detail={"id": row["id"], "email": row["email"], "attempts": row["attempts"]})


# -- what waits on a player: the digest and the calendar ---------------------------------------


def waiting_on(service, email: str) -> list[dict]:
    """Every seat of ``email`` in a running game: the game, the seat, the deadline, and whether
    the seat owes orders now that are not yet on file."""
    out = []
    for seat in service.store.seats_of(email):
        info = service.info(seat["game_id"])
        if info["status"] != "running":
            continue
        game = service.game(seat["game_id"])
        owes = not game.over and seat["side"] in game.turn().seats
        out.append({"game_id": seat["game_id"], "label": service.label(seat["game_id"]), "side": seat["side"],
                    "seat": service.seat_title(seat["game_id"], seat["side"], service.store.language_of(email)),
                    "turn": service.turn_label(game, lang=service.store.language_of(email)),
                    "deadline": deadlines.parse_iso(info.get("deadline")), "day": game.day,
                    "owes": owes and not game.orders_text(game.day, seat["side"])})
    return out


def digests(service, now: datetime | None = None) -> int:
    """Once a day, to each player who chose the digest: the games waiting on their orders. A
    player's day is his own time zone's; his digest goes at the first tick from his hour on (a
    day whose hour the clock never reached, the server being down, has none)."""
    now = now or service.now()
    done = 0
    for row in service.store.query("SELECT email, digest_hour, timezone FROM notify_settings"
                                   " WHERE mode = 'digest'"):
        try:
            local = now.astimezone(deadlines.zone(row["timezone"]))
        except deadlines.SettingsError:
            local = now.astimezone(deadlines.zone("UTC"))
        if local.hour < row["digest_hour"]:
            continue  # not yet his hour today
        key = f"digest:{row['email'].lower()}:{local.date().isoformat()}"
        if service.store.query_one("SELECT id FROM outbox WHERE dedupe_key = ?", (key,)):
            continue  # today's is sent
        waiting = [w for w in waiting_on(service, row["email"]) if w["owes"]]
        if not waiting:
            continue
        tr = i18n.translator(service.store.language_of(row["email"]))
        lines = ["- " + tr.gettext("%(game)s, %(seat)s: %(turn)s, due %(deadline)s", game=w["label"], seat=w["seat"],
                                   turn=w["turn"],
                                   deadline=deadlines.local_time(w["deadline"], row["timezone"], now=now,
                                                                 lang=tr.lang) if w["deadline"]
                                   else tr.gettext("(not set yet)"))
                 for w in waiting]
        queue(service.store, row["email"],
              "[pbem] " + tr.ngettext("%(num)d game waits on your orders", "%(num)d games wait on your orders",
                                      len(waiting)),
              tr.gettext("Your daily digest: these games wait on your orders.") + "\n\n" + "\n".join(lines)
              + "\n\n" + tr.gettext("(You chose a daily digest instead of each notice: change it on the site's "
                                     "notifications page.)"),
              kind="digest", dedupe_key=key)
        done += 1
    return done


def calendar(service, email: str, base_url: str = "") -> bytes:
    """The player's deadlines as an iCalendar file (RFC 5545): only the turns he owes, orders not yet on
    file (a turn of the other side, or one whose orders he sent, is not his to do)."""
    from icalendar import Calendar, Event

    tr = i18n.translator(service.store.language_of(email))
    cal = Calendar()
    cal.add("prodid", "-//pbem//deadlines//EN")
    cal.add("version", "2.0")
    cal.add("x-wr-calname", "pbem: " + tr.gettext("deadlines"))
    for w in waiting_on(service, email):
        if w["deadline"] is None or not w["owes"]:
            continue
        event = Event()
        event.add("uid", f"pbem-{w['game_id']}-{w['side']}-{w['day']}@pbem")
        event.add("summary", tr.gettext("Orders due: %(game)s (%(seat)s, %(turn)s)", game=w["label"], seat=w["seat"],
                                        turn=w["turn"]))
        event.add("dtstart", w["deadline"])
        event.add("dtend", w["deadline"] + timedelta(minutes=15))
        event.add("dtstamp", service.now())
        if base_url:
            event.add("url", f"{base_url.rstrip('/')}/games/{w['game_id']}?side={w['side']}")
        cal.add_component(event)
    return cal.to_ical()
