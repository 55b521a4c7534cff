"""The reader's language: the chooser's form (on every page, in base.html) posts here.

The choice is kept in a cookie (a year) and, for a signed-in user, in his player row, where
his mails find it too (pbem.server.i18n). Then back to the page he was on.
"""

from __future__ import annotations

from flask import Blueprint, abort, g, redirect, request
from flask_babel import gettext as _

from pbem.server import i18n
from pbem.server.web.redirects import local_path
from pbem.server.web.security import service

bp = Blueprint("language", __name__)


@bp.post("/language")
def choose():
    code = i18n.normalise(request.form.get("lang"))
    if code is None:
        abort(400, _("Choose one of the languages: %(codes)s.", codes=", ".join(i18n.LANGUAGES)))
    user = g.get("user")
    if user is not None and user.email:
        service().store.set_language(user.email, code)
    answer = redirect(local_path(request.form.get("next")) or "/", code=303)
    answer.set_cookie(i18n.COOKIE, code, max_age=365 * 24 * 3600, samesite="Lax", httponly=True,
                      secure=request.is_secure)
    return answer
