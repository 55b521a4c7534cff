"""Moderators: rulings that change a game, each audited and told to its players.

A moderator of a game (or the site admin) may pause and resume it, set its
deadline, replace a player, and settle a dispute by amending a side's orders
or a decision of a past day: the game is then rewound to that day and
replayed, and both sides get corrected reports carrying the ruling. Every
action needs a reason, is written to the audit log with who and when, and is
mailed to the game's players.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from datetime import datetime, timedelta, timezone

from pbem.lang import Text, say, say_plural
from pbem.server import addresses, deadlines, i18n, throttle
from pbem.server.i18n import N_
from pbem.core.orders import OrdersError
from pbem.server.mail.outbox import queue
from pbem.server.service.base import ServiceError
from pbem.server.store import new_key

if TYPE_CHECKING:  # the service calls this module: no import of it at run time
    from pbem.server.service import Service


ACTION_NAMES = {"pause": N_("pause"), "resume": N_("resume"), "deadline": N_("deadline"), "extend": N_("extend"),
                "resolve_now": N_("resolve now"), "replace": N_("replace"), "amend_orders": N_("amend orders"),
                "amend_decision": N_("amend decision"), "rewind": N_("rewind")}
"""The actions as the players' notices name them (``Moderator: pause``), by the action's id."""


def moderate(service: Service, game_id: int, who: str, action: str, why: str, **args) -> i18n.Said:
    """Carry out one action, audit it, tell the players (each in his language); returns what was done,
    in words."""
    if not why.strip():
        raise ServiceError("a moderator action needs a reason; the players will read it")
    handler = ACTIONS.get(action)
    if handler is None:
        raise ServiceError("no moderator action %(action)s (actions: %(names)s)",
                           action=repr(action), names=', '.join(ACTIONS))
    with service.lock:
        ended = service.game(game_id).ended
        if action in REPLAYING and ended is not None and ended.get("final"):
            raise ServiceError("game %(game)s ended by its players (%(why)s): that result is final, and no day of it is"
                               " played again", game=game_id, why=ended.get('why', ''))
        done = handler(service, game_id, who, why, **args)
        service.store.audit(who, action, game_id, why=why, detail={k: v for k, v in args.items() if k != "key"})
        for seat in service.store.seats(game_id):
            if seat["email"] and not told_already(service, action, seat["email"], args):
                tr = i18n.translator(service.store.language_of(seat["email"]))
                line = service.deadline_line(game_id, seat["side"])  # in the reader's zone, with the time left
                if service.info(game_id)["status"] == "paused":  # no clock runs: no "in 59 minutes"
                    line = tr.gettext("The game is paused: no deadline runs until the moderator resumes it.")
                subject = tr.gettext("Moderator: %(action)s", action=tr.gettext(ACTION_NAMES[action]))
                body = (tr.gettext("A moderator of game %(game)s (%(who)s): %(done)s", game=service.label(game_id),
                                   who=who, done=service.say_in(game_id, done, tr.lang))
                        + "\n" + tr.gettext("Reason: %(why)s", why=why) + (f"\n\n{line}" if line else ""))
                queue(service.store, seat["email"], f"[pbem {game_id}] {subject}", body, kind="moderator",
                      game_id=game_id)
        return i18n.Said(done)


def pause(service: Service, game_id, who, why):
    """Stop the game's clock, keeping what it had left (the resume gives it back)."""
    if service.info(game_id)["status"] == "running":
        due = service.deadline(game_id)
        left = int((due - service.now()).total_seconds()) if due is not None else None
        service.store.execute("INSERT INTO paused_extensions (game_id, hours, left_seconds, until) VALUES (?, 0, ?, NULL)"
                              " ON CONFLICT (game_id) DO UPDATE SET hours = 0, left_seconds = excluded.left_seconds,"
                              " until = NULL", (game_id, left if left is not None and left > 0 else None))
    service.store.update_game(game_id, status="paused")
    return say("the game is paused.")


def resume(service: Service, game_id, who, why):
    """Start the clock again with the time it had left when paused (a full day's time if it had none left, or
    no deadline), plus the extensions granted during the pause; a deadline the moderator set during the pause,
    if it is still to come, stands."""
    kept = service.store.query_one("SELECT hours, left_seconds, until FROM paused_extensions WHERE game_id = ?",
                                   (game_id,))
    service.store.update_game(game_id, status="running")
    until = deadlines.parse_iso(kept["until"]) if kept and kept["until"] else None
    if until is not None and until > service.now():
        service.set_deadline(game_id, until)
    elif kept and kept["left_seconds"]:
        service.set_deadline(game_id, service.now() + timedelta(seconds=kept["left_seconds"], hours=kept["hours"]))
    else:
        service.set_next_deadline(game_id)
        if kept and kept["hours"]:  # an extension granted during the pause is not lost to the new deadline
            service.set_deadline(game_id, service.deadline(game_id) + timedelta(hours=kept["hours"]))
    service.store.execute("DELETE FROM paused_extensions WHERE game_id = ?", (game_id,))
    return say("the game is running again, with a new deadline.")


def deadline(service: Service, game_id, who, why, when: str, zone: str = "UTC"):
    """A new deadline, written in the moderator's time zone ``zone`` (or with its own offset)."""
    try:
        moment = datetime.fromisoformat(when.strip().replace("Z", "+00:00").replace(" ", "T", 1))
    except ValueError:
        raise ServiceError("%(when)s is not a date and time (write 2026-12-01 18:00)", when=repr(when)) from None
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=deadlines.zone(zone))
    moment = moment.astimezone(timezone.utc)
    if moment <= service.now():
        raise ServiceError('%(when)s has passed: to play the day now, use "resolve now"',
                           when=deadlines.LocalTime(moment, zone))
    service.set_deadline(game_id, moment)
    if service.info(game_id)["status"] == "paused":  # the moment stands when the game is resumed before it
        service.store.execute("INSERT INTO paused_extensions (game_id, hours, until) VALUES (?, 0, ?) ON CONFLICT"
                              " (game_id) DO UPDATE SET hours = 0, until = excluded.until",
                              (game_id, deadlines.iso(moment)))
    return say("the deadline is now %(when)s (%(iso)s).", when=deadlines.LocalTime(moment, zone),
               iso=deadlines.iso(moment))


EXTEND_HOURS = 30 * 24
"""The most one "extend" moves a deadline: 30 days (longer is a pause)."""


def extend(service: Service, game_id, who, why, hours: int):
    """The deadline moved later by ``hours``."""
    now = service.deadline(game_id)
    if now is None:
        raise ServiceError("the game has no deadline now (it is not waiting for orders)")
    if not 1 <= hours <= EXTEND_HOURS:
        raise ServiceError("a deadline can be extended by 1 to %(hours_max)s hours (%(days)s days) at a time, not "
                           "%(hours)s; to stop the clock for longer, pause the game",
                           hours_max=EXTEND_HOURS, days=EXTEND_HOURS // 24, hours=hours)
    later = now + timedelta(hours=hours)
    service.set_deadline(game_id, later)
    if service.info(game_id)["status"] == "paused":  # kept for the resume, which gives the time left and this
        kept = service.store.query_one("SELECT until FROM paused_extensions WHERE game_id = ?", (game_id,))
        if kept and kept["until"]:  # a deadline set by hand during the pause: it moves
            until = deadlines.iso(deadlines.parse_iso(kept["until"]) + timedelta(hours=hours))
            service.store.execute("UPDATE paused_extensions SET until = ? WHERE game_id = ?", (until, game_id))
        else:
            service.store.execute("INSERT INTO paused_extensions (game_id, hours) VALUES (?, ?) ON CONFLICT"
                                  " (game_id) DO UPDATE SET hours = hours + excluded.hours", (game_id, hours))
    return say_plural("the deadline is %(num)d hour later.", "the deadline is %(num)d hours later.", hours)


def resolve_now(service: Service, game_id, who, why):
    """Play the coming day now, with the orders on file (standing orders for a seat without)."""
    if service.info(game_id)["status"] != "running":
        raise ServiceError("only a running game's day can be resolved (resume it first)")
    day = service.resolve_next(game_id)
    if day is None:
        raise ServiceError("the day was not resolved: it waits on a question to a player, or the game is over")
    return say("%(turn)s was resolved now; the reports follow.", turn=service.turn_said(service.game(game_id), day))


def told_already(service: Service, action: str, email: str, args: dict) -> bool:
    """Whether ``email`` is the address a "replace" just gave a seat and has confirmed nothing: its welcome
    told it what it needs, and the moderator's notice (the game's title, his reason: another user's text)
    is not mailed to it."""
    return action == "replace" and email.lower() == str(args.get("email", "")).strip().lower() \
        and not throttle.confirmed(service.store, email)


def replace(service: Service, game_id, who, why, side: str, email: str):
    try:
        email = addresses.require_address(email)  # a CR/LF or any non-address would leave the seat unreachable
    except addresses.AddressError as exc:
        raise ServiceError("%(exc)s: give the new player's address", exc=exc) from None
    held, kind = throttle.may_mail(service.store, service.now(), email, who)  # the welcome: a stranger's caps
    if held:
        raise ServiceError("%(email)s has never signed in here, and the server mails such addresses only so often: "
                           "replace again in an hour", email=email)
    service.seat(game_id, side)
    key = new_key()
    seat = service.seat(game_id, side)
    if seat["email"]:  # the player replaced keeps his record: the days he held the seat, the days he missed
        held = service.store.query_one("SELECT MAX(last_day) AS day FROM seat_history WHERE game_id = ? AND side = ?"
                                       " AND undone IS NULL",
                                       (game_id, side))["day"] or 0
        service.store.execute(
            "INSERT INTO seat_history (game_id, side, email, first_day, last_day, missed, replaced)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, side, seat["email"], held, service.game(game_id).day, seat["missed"], service.store.now()))
    service.store.update_seat(game_id, side, email=email, missed=0)
    service.set_key(game_id, side, key)
    service.welcome(game_id, side, email, key, titled=kind != "stranger")
    if kind == "stranger":  # counted where a cap counts it
        throttle.note_answer(service.store, service.now(), email, who, kind)
    return say("%(seat)s is now played by %(email)s.", seat=service.seat_said(game_id, side), email=email)


def amend_orders(service: Service, game_id, who, why, day: int, side: str, text: str):
    game = service.game(game_id)
    if day >= game.day:
        raise ServiceError("only a resolved day can be amended; a coming day takes orders as usual")
    try:
        game.ruleset.parse_orders(game.scenario, game.state_before(day), side, text)
    except OrdersError as exc:
        raise ServiceError("the amended orders are not valid: %(exc)s", exc=exc) from None
    return replay_from(service, game_id, day, why, {"kind": "orders", "day": day, "side": side, "text": text,
                                                    "source": "moderator", "by": who})


def amend_decision(service: Service, game_id, who, why, day: int, index: int, answer: list[str]):
    game = service.game(game_id)
    if day >= game.day:
        raise ServiceError("only a resolved day can be amended")
    return replay_from(service, game_id, day, why, {"kind": "answer", "day": day, "index": index,
                                                    "answer": list(answer), "by": "moderator", "why": why})


def rewind(service: Service, game_id, who, why, day: int):
    return replay_from(service, game_id, day, why)


def replay_from(service: Service, game_id: int, day: int, why: str, amended: dict | None = None) -> Text:
    """Undo days from ``day`` and resolve them again with the log as it now stands, and ``amended``
    (a moderator's orders or answer for that day) before the rewind: the entry, the rewind, the days
    resolved again and their record are stored in one transaction, so the stored log never replays
    otherwise than the recorded days (a game whose replay differs from its record is refused:
    ServiceBase.replay_differs)."""
    game = service.game(game_id)
    upto = game.day
    before = len(game.log)
    if amended is not None:
        game.log.append(amended)
    game.rewind(day)
    while game.day < upto and not game.over:
        game.advance()
    with service.store.transaction():
        for entry in game.log[before:]:
            service.store.append_log(game_id, entry)
        for result in game.days[day:]:
            service.record(game_id, result)
        service.replay_seats(game_id, day)  # players moved by a replayed turn: kept, moved back or moved again
        if game.days:
            service.store.add_job("reports", game_id, {"day": game.days[-1].day, "corrected": why,
                                                    "version": service.rewinds(game)})
        reopened = service.info(game_id)["status"] == "finished" and not game.over
        if reopened:  # it had ended (played out, or a forfeit the rewind undid): it waits for a resume
            service.store.update_game(game_id, status="paused")
        elif game.over:
            service.store.update_game(game_id, status="finished")
    service.store_parses(game_id, game)  # the days read again read their texts: their parses kept for the next load
    if reopened:
        return say("days %(first)s to %(last)s were resolved again; corrected reports follow. The game is no longer "
                   "over: it is paused until the moderator resumes it.", first=day, last=upto - 1)
    return say("days %(first)s to %(last)s were resolved again; corrected reports follow.", first=day, last=upto - 1)


REPLAYING = ("resume", "resolve_now", "amend_orders", "amend_decision", "rewind")
"""The actions that would play a game on: refused once its players ended it (resigned, agreed a draw)."""
ACTIONS = {"pause": pause, "resume": resume, "deadline": deadline, "extend": extend, "resolve_now": resolve_now,
           "replace": replace, "amend_orders": amend_orders, "amend_decision": amend_decision, "rewind": rewind}
