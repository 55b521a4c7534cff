"""A player's notification settings (/notifications) and calendar feed (/calendar/<token>.ics):
pbem.server.notify does the work."""

from __future__ import annotations

from flask import Blueprint, Response, abort, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext

from pbem.server import notify
from pbem.server.service import ServiceError
from pbem.server.web.security import config, email_required, service

bp = Blueprint("notifications", __name__)


def base_url() -> str:
    c = config()
    return c.base_url if c is not None and c.base_url else request.host_url.rstrip("/")


@bp.route("/notifications", methods=["GET", "POST"])
@email_required
def settings():
    me = g.user.email
    store = service().store
    if request.method == "POST":
        if request.form.get("action") == "calendar":
            notify.calendar_token(store, me, renew=True)
            flash(_("A new calendar address is made; the old one no longer works."))
        else:
            try:
                notify.set_settings(store, me, request.form.get("mode", ""), request.form.get("webhook_url", ""),
                                    request.form.get("webhook_format", "discord"),
                                    digest_hour=request.form.get("digest_hour"),
                                    timezone=request.form.get("timezone"))
            except notify.NotifyError as exc:
                raise ServiceError(exc.text) from None
            flash(_("Notification settings saved."))
        return redirect(url_for("notifications.settings"))
    token = notify.calendar_token(store, me)
    return render_template("notifications.html", mine=notify.settings_of(store, me), modes=notify.MODES,
                           formats=notify.FORMATS,
                           calendar_url=f"{base_url()}{url_for('notifications.calendar', token=token)}",
                           waiting=notify.waiting_on(service(), me))


@bp.route("/calendar/<token>.ics")
def calendar(token: str):
    email = notify.owner_of_token(service().store, token)
    if email is None:
        abort(404, _("No calendar at this address (a new one may have replaced it)."))
    return Response(notify.calendar(service(), email, base_url()), mimetype="text/calendar",
                    headers={"Cache-Control": "private, max-age=300"})
