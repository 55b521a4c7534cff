"""The moderator console of a game, and the site admin's page.

The console (the game's moderator or the admin) shows everything: the full
map, the moderator's report, the seats and their addresses, every message
received for the game (keys redacted) and the audit trail, with a form for
each moderator action. Every action needs a reason, which the players read.
"""

from __future__ import annotations

import email
import email.policy
import re
from pathlib import Path

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from pbem.server.mail.inbound import parse_message
from pbem.server.addresses import clean_address
from pbem.server.service import ServiceError
from pbem.server.service.orders import KEY_SPACE
from pbem.server import i18n
from pbem.server.web.games import map_sources, public_audit, report_body, report_for, settings_list
from pbem.server.web.security import (admin_required, config, game_info, is_moderator, login_required, seat_rule,
                                      seated_while_running, service)

bp = Blueprint("moderator", __name__)
KEY = re.compile(rf"(?i)({KEY_SPACE})\S+")
"""The value after KEY or its word in any language (CLÉ, КЛЮЧ; 密钥, whose key Chinese writes without a space)."""
ACTIONS = ("pause", "resume", "deadline", "extend", "resolve_now", "replace", "amend_orders", "amend_decision",
           "rewind")


def redact(text: str) -> str:
    """A message with the value after every KEY hidden."""
    return KEY.sub(r"\1***", text)


def inbound_messages(game_id: int) -> list[dict]:
    """The messages received for a game, as read by the server, keys redacted."""
    out = []
    for row in service().store.inbound_for_game(game_id):
        raw = bytes(row["raw"])
        head = re.split(rb"\r?\n\r?\n", raw, maxsplit=1)[0].decode("utf-8", "replace")[:4000]
        msg = parse_message(raw)
        out.append({"id": row["id"], "received_at": row["received_at"], "source": row["source"],
                    "status": row["status"], "result": row["result"], "from": msg.from_addr,
                    "subject": redact(msg.subject), "headers": redact(head), "text": redact(msg.text)[:20000]})
    return out


def moderator_only(game_id: int) -> None:
    game_info(game_id)
    seat_rule(g.user, game_id)  # a moderator holding a seat in the running game: refused, saying why
    if not is_moderator(g.user, game_id):
        abort(403, _("Only the game's moderator (or the site admin) may use the moderator console."))


@bp.route("/games/<int:game_id>/moderate")
@login_required
def console(game_id: int):
    moderator_only(game_id)
    info = game_info(game_id)
    game = service().game(game_id)
    last = game.days[-1].day if game.days else None
    report = report_for(game_id, last, None) if last is not None else None
    return render_template(
        "moderate.html", info=info, game=game, game_id=game_id, label=service().label(game_id),
        seats=service().store.seats(game_id), last=last, days=[d.day for d in game.days],
        report_html=report_body(report) if report else "", messages=inbound_messages(game_id),
        audit=public_audit(game_id, [], True), status=service().status(game_id, lang=i18n.web_lang()), actions=ACTIONS,
        turn=service().turn_label(game, lang=i18n.web_lang()), zone=(service().store.find_player(g.user.email) or {}).get("timezone") or info["settings"].get("timezone", "UTC"),
        deadline=service().deadline_for(game_id, None, lang=i18n.web_lang()), settings=settings_list(game_id),
        map_alt="the full map: both sides", map_lazy=True, **map_sources(game_id, last, None))


def action_args(action: str, form, game_id: int) -> dict:
    def number(name):
        value = form.get(name, "").strip()
        if not value.isdigit():
            raise ServiceError("%(name)s must be a number", name=name)
        return int(value)

    def side():
        value = form.get("side", "")
        if value not in service().seat_titles(game_id):
            raise ServiceError("choose a side")
        return value

    if action == "deadline":
        return {"when": form.get("when", "").strip(), "zone": form.get("zone", "").strip() or "UTC"}
    if action == "extend":
        return {"hours": number("hours")}
    if action == "replace":
        address = clean_address(form.get("email", ""))
        if address is None:
            raise ServiceError("give the new player's address (that is not an email address)")
        return {"side": side(), "email": address}
    if action == "amend_orders":
        return {"day": number("day"), "side": side(), "text": form.get("text", "")}
    if action == "amend_decision":
        return {"day": number("day"), "index": number("index"),
                "answer": [a for a in re.split(r"[\s,]+", form.get("answer", "")) if a]}
    if action == "rewind":
        return {"day": number("day")}
    return {}


@bp.route("/games/<int:game_id>/moderate/<action>", methods=["POST"])
@login_required
def act(game_id: int, action: str):
    moderator_only(game_id)
    if action not in ACTIONS:
        abort(404, _("There is no moderator action %(action)s.", action=repr(action)))
    why = request.form.get("why", "").strip()
    if not why:
        raise ServiceError("a moderator action needs a reason; the players will read it")
    done = service().moderate(game_id, g.user.email, action, why, **action_args(action, request.form, game_id))
    zone = (service().store.find_player(g.user.email) or {}).get("timezone") or \
        (game_info(game_id)["settings"] or {}).get("timezone") or "UTC"
    lang = i18n.web_lang()
    line = service().deadline_line(game_id, None) and _("Deadline: %(deadline)s.",
                                                          deadline=service().deadline_in_zone(game_id, zone, lang=lang))
    flash((_("Done: %(done)s", done=done.in_(lang)) + " " + (line or "")).strip())
    return redirect(url_for("moderator.console", game_id=game_id))


# -- the site admin --------------------------------------------------------------------


def maildir_messages(limit: int = 30) -> list[dict]:
    """The newest mails delivered to the local maildir (no relay configured)."""
    root = Path(config().maildir)
    files = [p for folder in ("new", "cur") for p in (root / folder).glob("*") if p.is_file()] \
        if root.exists() else []
    out = []
    for path in sorted(files, key=lambda p: p.stat().st_mtime, reverse=True)[:limit]:
        msg = email.message_from_bytes(path.read_bytes(), policy=email.policy.default)
        part = msg.get_body(preferencelist=("plain",))
        out.append({"name": path.name, "to": msg["To"], "subject": msg["Subject"], "date": msg["Date"],
                    "body": part.get_content()[:5000] if part else ""})
    closed = closed_games()
    for item in out:
        if game_of_subject(item["subject"]) in closed:
            item["body"] = closed_text(game_of_subject(item["subject"]))
    return out


def outbox_rows(limit: int = 50) -> list[dict]:
    """The newest outbox rows. Sign-in links are shown only while mail stays on this machine
    (no relay): then the admin page is how they are read. The mails of a game in which the
    admin holds a seat are not shown while it runs (pbem.server.web.security.is_moderator)."""
    rows = service().store.recent_outbox(limit)
    closed = closed_games()
    for row in rows:
        if config().relay and row["kind"] == "login":
            row["body"] = "(a sign-in link: not shown, as it was mailed through the relay)"
        if row["game_id"] in closed or game_of_subject(row["subject"]) in closed:
            row["body"] = closed_text(row["game_id"] or game_of_subject(row["subject"]))
    return rows


def closed_games() -> set[int]:
    """The running games in which the signed-in admin holds a seat: their mail stays hidden from him."""
    return {info["id"] for info in service().store.games() if info["status"] != "finished"
            and seated_while_running(g.user, info["id"])}


def game_of_subject(subject: str | None) -> int | None:
    match = re.match(r"\s*(?:\[corrected\]\s*)?\[pbem (\d+)\]", str(subject or ""))
    return int(match.group(1)) if match else None


def closed_text(game_id) -> str:
    return f"(not shown: you play in game {game_id}, which is still running; its mail opens to you when the game ends)"


def door_rows() -> list[dict]:
    """The mail doors for the admin page: open or not, where, the last mail each brought, and the IMAP
    door's last poll with its error in words."""
    from pbem.server.doors import described

    came = service().store.inbound_by_source()
    keys = {"SMTP": "smtp", "IMAP": "imap", "pipe": "pipe"}
    doors = service().doors
    rows = []
    for name, is_open, where in described(config()):
        row = {"name": name, "open": is_open, "where": where, **came.get(keys[name], {"last": None, "count": 0})}
        if name == "IMAP" and is_open:
            row["fetch"], row["fetched"] = doors.imap_last, doors.imap_last_ok
        rows.append(row)
    return rows


@bp.route("/admin")
@admin_required
def admin():
    return render_template("admin.html", games=service().store.games(), outbox=outbox_rows(), doors=door_rows(),
                           maildir=None if config().relay else maildir_messages(), relay=config().relay,
                           maildir_path=config().maildir, inbound=service().store.recent_inbound(50),
                           players=service().store.players_with_games())
