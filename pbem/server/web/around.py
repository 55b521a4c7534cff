"""Around each game, on the web: resigning, draw offers and their answers (forms in the game
page's "Your seat" box, templates/_around.html), press (a game's messages between seats,
/games/<id>/press), and a player's vacations scheduled ahead (/vacations). Each route calls
one service operation, as the mail commands do."""

from __future__ import annotations

from datetime import timezone

from flask import Blueprint, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from pbem.server import deadlines, i18n
from pbem.server.service import ServiceError
from pbem.server.service.players import vacation_span
from pbem.server.web.security import email_required, is_moderator, my_sides, service, side_for

bp = Blueprint("around", __name__)
DRAW = ("offer", "accept", "decline")

AROUND_SETTINGS = {
    "private": ("true or false", "the game is not listed among the open games; its seats go by invitation"),
    "press": ("one of " + ", ".join(deadlines.PRESS),
              "messages between seats: none, open (any seat to any, at any time), or game (the game's own rule)"),
    "spectator_delay": ("a number of days (0 or more), or null",
                        "anyone may watch the game while it is played, in the neutral view, this many days behind "
                        "the last day resolved; null: only once it is over"),
}
"""The settings of who may join, talk and watch (docs/leagues.md, "Around each game"): what each
takes and does, as the new-game form and GET /api/rulesets tell them."""


def around_settings(form, given_only: bool = False) -> dict:
    """``private``, ``press`` and ``spectator_delay`` read from the new-game form or the JSON API's
    settings (``given_only``: only those sent), checked; a ServiceError names the setting, what was
    sent and what it takes. On the form an unticked box is sent as nothing (not private), and an
    empty delay is none."""
    out = {}
    if not given_only or "private" in form:
        value = form.get("private")
        words = {"1": True, "true": True, "yes": True, "on": True, "0": False, "false": False, "no": False,
                 "off": False, "": False, "none": False}
        if isinstance(value, bool):
            out["private"] = value
        elif value is None or (isinstance(value, str) and value.strip().lower() in words):
            out["private"] = words[(value or "").strip().lower()]
        else:
            raise ServiceError("private is %(allowed)s, not %(value)s",
                               allowed=AROUND_SETTINGS['private'][0], value=repr(value))
    if not given_only or "press" in form:
        value = form.get("press")
        value = "game" if value is None or value == "" else value
        if value not in deadlines.PRESS:
            raise ServiceError("press is %(allowed)s, not %(value)s",
                               allowed=AROUND_SETTINGS['press'][0], value=repr(value))
        out["press"] = value
    if not given_only or "spectator_delay" in form:
        value = form.get("spectator_delay")
        if isinstance(value, str) and value.strip().lower() in ("", "none", "null"):
            value = None
        elif isinstance(value, str) and value.strip().isdigit():
            value = int(value)
        if value is not None and (not isinstance(value, int) or isinstance(value, bool) or value < 0):
            raise ServiceError("spectator_delay is %(allowed)s, not %(value)s",
                               allowed=AROUND_SETTINGS['spectator_delay'][0], value=repr(value))
        out["spectator_delay"] = value
    return out


@bp.app_context_processor
def helpers() -> dict:
    def draw_offer(game_id: int) -> dict | None:
        offer = service().draw_offer(game_id)
        if offer is not None:
            offer["title"] = service().seat_title(game_id, offer["side"], i18n.web_lang())
        return offer
    def empty_seats(game_id: int) -> list[tuple[str, str]]:
        bots = service().bots_of(game_id)
        return [(s["side"], service().seat_title(game_id, s["side"], i18n.web_lang()))
                for s in service().store.seats(game_id)
                if not s["email"] and s["side"] not in bots]
    return {"draw_offer": draw_offer, "empty_seats": empty_seats}


@bp.route("/games/<int:game_id>/resign", methods=["POST"])
@email_required
def resign(game_id: int):
    side = side_for(g.user, game_id, request.form.get("side"), write=True)
    if request.form.get("confirm") != "yes":
        raise ServiceError("tick the box to confirm: a resignation is final")
    flash(service().resign(game_id, side, who=g.user.email))
    return redirect(url_for("games.game_page", game_id=game_id, side=side))


@bp.route("/games/<int:game_id>/draw/<action>", methods=["POST"])
@email_required
def draw(game_id: int, action: str):
    side = side_for(g.user, game_id, request.form.get("side"), write=True)
    if action not in DRAW:
        raise ServiceError("a draw is offered, accepted or declined, not %(action)s", action=repr(action))
    if action == "offer":
        flash(service().offer_draw(game_id, side, who=g.user.email))
    else:
        flash(service().answer_draw(game_id, side, action == "accept", who=g.user.email))
    return redirect(url_for("games.game_page", game_id=game_id, side=side))


@bp.route("/vacations", methods=["GET", "POST"])
@email_required
def vacations():
    me = g.user.email
    if request.method == "POST":
        if request.form.get("cancel", "").isdigit():
            service().cancel_vacation(me, int(request.form["cancel"]))
            flash(_("Vacation cancelled."))
        else:
            starts, ends = vacation_span(request.form.get("starts", "").strip(), request.form.get("ends", "").strip())
            service().schedule_vacation(me, starts, ends)
            flash(_("Vacation scheduled."))
        return redirect(url_for("around.vacations"))
    year = service().now().astimezone(timezone.utc).year
    return render_template("vacations.html", vacations=service().vacations_of(me), year=year,
                           used=service().vacation_days_used(me, year), allowance=service().year_allowance())


@bp.route("/games/<int:game_id>/press", methods=["GET", "POST"])
@email_required
def press(game_id: int):
    """A seat's messages (sent and received), with a form to write one; the moderator reads all."""
    if request.method == "POST":
        side = side_for(g.user, game_id, request.form.get("side"), write=True)
        flash(service().send_press(game_id, side, request.form.getlist("to"), request.form.get("text", ""),
                                   who=g.user.email))
        return redirect(url_for("around.press", game_id=game_id, side=side))
    side = request.args.get("side") or None
    if side is None and not is_moderator(g.user, game_id):
        abort(403, _("Only the game's moderator reads every message; a player reads his seat's."))
    side = side_for(g.user, game_id, side)  # the seat's holder, or the moderator
    titles = service().seat_titles(game_id, i18n.web_lang())
    return render_template("press.html", game_id=game_id, label=service().label(game_id), side=side,
                           messages=service().press_for(game_id, side, i18n.web_lang()), titles=titles,
                           writing=side is not None and side in my_sides(g.user, game_id)
                           and service().info(game_id)["status"] in ("running", "paused"))



@bp.route("/games/<int:game_id>/replay")
def replay(game_id: int):
    """Step through a game day by day (a finished game, or a watched one with its delay)."""
    from pbem.server.web.security import game_info

    info = game_info(game_id)
    moderator = is_moderator(g.user, game_id)
    day = request.args.get("day", "")
    view = request.args.get("view", "neutral")
    try:
        shown, _last = service().replay_bounds(game_id, moderator)
        step = service().replay_day(game_id, int(day) if day.isdigit() else max(shown - 1, 0), view, moderator,
                                    lang=i18n.web_lang())
    except ServiceError as exc:
        abort(403 if "being played" in str(exc) else 404, exc.in_(i18n.web_lang()))
    titles = {"neutral": _("Neutral view"), **service().seat_titles(game_id, i18n.web_lang())}
    return render_template("replay.html", game_id=game_id, label=service().label(game_id), step=step,
                           titles=titles, over=info["status"] == "finished" or service().game(game_id).over)


@bp.route("/games/<int:game_id>/rematch", methods=["POST"])
@email_required
def rematch(game_id: int):
    new = service().rematch(game_id, g.user.email)
    flash(_("Rematch: game %(game)s, with the seats swapped.", game=service().label(new)))
    return redirect(url_for("games.game_page", game_id=new))


@bp.route("/games/<int:game_id>/invite", methods=["POST"])
@email_required
def invite(game_id: int):
    flash(service().invite(game_id, request.form.get("side", ""), request.form.get("email", ""), g.user.email))
    return redirect(url_for("games.game_page", game_id=game_id, side=(my_sides(g.user, game_id) or [""])[0]))


@bp.route("/games/<int:game_id>/invitation")
@email_required
def invitation(game_id: int):
    """The seats of a game kept for the signed-in player, each with its join button."""
    kept = [i for i in service().invitations_for(g.user.email) if i["game_id"] == game_id]
    if not kept:
        abort(404, _("No seat of game %(game)s is kept for %(email)s.", game=game_id, email=g.user.email))
    return render_template("invitation.html", game_id=game_id, label=service().label(game_id),
                           seats=[(i["side"], service().seat_title(game_id, i["side"], i18n.web_lang()), i["who"])
                                  for i in kept])
