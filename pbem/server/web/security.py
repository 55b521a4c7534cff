"""Who is asking, what they may see, and the guards around every request.

``side_for(user, game_id, side)`` is the one rule for side data: a side's
report, map, view, orders and questions are for the seat's holder, the game's
moderator and the site admin; ``side=None`` (everything) only for the
moderator and the admin, or, once the game is over (played out or forfeited), everyone (the spectator
view). Every route that reads or writes side data calls it. A person holding a
seat in a game not yet over sees only his seat there, whatever his roles
(``seat_rule``): as moderator or admin of that game he is refused, saying why.

A user is a signed-in address (Flask's signed session cookie) or, on the JSON
API only, a seat proven by its key (``Authorization: Bearer <key>`` with the
game and side in the query). Every POST carries the session's CSRF token (a
hidden form field, or the ``X-CSRF-Token`` header); a request proven by a seat
key needs none, as no cookie speaks for it.
"""

from __future__ import annotations

import functools
import hmac
import secrets
from dataclasses import dataclass

from flask import abort, current_app, g, jsonify, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.exceptions import HTTPException

from pbem.server import i18n, throttle
from pbem.server.i18n import N_
from pbem.server.service import ServiceError
from pbem.server.store import iso
from pbem.server.web import sessions

UNSAFE_METHODS = ("POST", "PUT", "PATCH", "DELETE")


@dataclass(frozen=True)
class User:
    email: str | None = None  # a signed-in address
    seat: tuple[int, str] | None = None  # or a seat proven by its key (API only)

    @property
    def label(self) -> str:
        return self.email or f"key of game {self.seat[0]} {self.seat[1]}"


def service():
    return current_app.extensions["pbem"]["service"]


def config():
    return current_app.extensions["pbem"]["config"]


def is_api() -> bool:
    return request.path.startswith("/api/")


# -- who may see what ----------------------------------------------------------------


def is_admin(user: User | None) -> bool:
    return bool(user and user.email and user.email.lower() == config().admin_email.lower())


def game_info(game_id: int) -> dict:
    try:
        return service().info(game_id)
    except ServiceError:
        abort(404, _("There is no game %(game)s.", game=game_id))


def my_sides(user: User | None, game_id: int) -> list[str]:
    """The sides of a game this user plays (both in a hot-seat game)."""
    if user is None:
        return []
    if user.seat is not None:
        return [user.seat[1]] if user.seat[0] == game_id else []
    return [s["side"] for s in service().store.seats(game_id)
            if s["email"] and s["email"].lower() == user.email.lower()]


def moderator_role(user: User | None, game_id: int) -> bool:
    """Whether the user is the game's moderator or the site admin (never by a seat key),
    whatever seat he holds; ``is_moderator`` says whether he may act as one now."""
    if user is None or user.email is None:
        return False
    moderator = game_info(game_id).get("moderator")
    return is_admin(user) or bool(moderator and moderator.lower() == user.email.lower())


def seated_while_running(user: User | None, game_id: int) -> list[str]:
    """The seats the user holds in a game still running (and not all of them: a hot-seat
    player hides nothing from himself); [] when none, or once the game is over."""
    mine = my_sides(user, game_id)
    if not mine or set(mine) >= set(service().seat_titles(game_id)) or is_finished(game_id):
        return []
    return mine


def is_moderator(user: User | None, game_id: int) -> bool:
    """The game's moderator, or the site admin, who holds no seat in it while it runs: a
    person holding a seat sees only his seat's views there, whatever his roles."""
    return moderator_role(user, game_id) and not seated_while_running(user, game_id)


def seat_rule(user: User | None, game_id: int) -> None:
    """Refuse (403), saying why, a moderator or admin who holds a seat in the running game."""
    seats = seated_while_running(user, game_id)
    if seats and moderator_role(user, game_id):
        titles = _(" and ").join(service().seat_title(game_id, s, i18n.web_lang()) for s in seats)
        abort(403, _("You play %(seats)s in game %(game)s, which is still running: while it runs, a player sees "
                     "only his own seat's views, whatever his roles, so the moderator console, the other seats' "
                     "views and both sides together are closed to you here. Another moderator (or the site admin, "
                     "if you are not the admin) must act for this game; everything opens when the game ends.",
                     seats=titles, game=game_id))


def is_finished(game_id: int) -> bool:
    """Whether the game is over: played to its end, or ended by a forfeit."""
    if game_info(game_id)["status"] == "finished":
        return True
    return service().game(game_id).over


def may_view_game(user: User | None, game_id: int) -> bool:
    return bool(my_sides(user, game_id)) or is_moderator(user, game_id) or is_finished(game_id)


def side_for(user: User | None, game_id: int, side: str | None, write: bool = False) -> str | None:
    """The side whose data ``user`` asks for, if allowed; otherwise abort 403/404.

    ``side`` names a side, or is None/"" for everything (the moderator's or,
    for a finished game, the spectator's view). ``write=True`` (orders,
    answers, vacations, keys) is for the seat's holder only.
    """
    game_info(game_id)
    side = side or None
    if side is not None and side not in service().seat_titles(game_id):
        abort(404, _("Game %(game)s has no side %(side)r.", game=game_id, side=side))
    mine = my_sides(user, game_id)
    if side is None:
        if write:
            abort(400, _("Say which side."))
        seat_rule(user, game_id)
        if is_moderator(user, game_id) or is_finished(game_id):
            return None
        if user is None:
            abort(401, _("Sign in first."))
        abort(403, _("Only the game's moderator sees both sides (and everyone, once the game is over)."))
    if side in mine:
        return side
    if not write:
        seat_rule(user, game_id)
    if not write and is_moderator(user, game_id):
        return side
    if user is None:
        abort(401, _("Sign in first."))
    abort(403, _("You do not play %(seat)s in game %(game)s.", seat=service().seat_title(game_id, side, i18n.web_lang()),
                 game=game_id))


def spectator(user: User | None, game_id: int) -> bool:
    """Whether a side=None view is the spectator's (not the moderator's)."""
    return not is_moderator(user, game_id)


# -- guards -------------------------------------------------------------------------


def login_required(view):
    @functools.wraps(view)
    def wrapped(*args, **kwargs):
        if g.user is None:
            if is_api():
                abort(401, _("Sign in, or send Authorization: Bearer KEY (the seat's key) with ?game=ID&side=SIDE."))
            return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
        return view(*args, **kwargs)
    return wrapped


def email_required(view):
    """For pages of a signed-in address (a seat key is not enough)."""
    @functools.wraps(view)
    @login_required
    def wrapped(*args, **kwargs):
        if g.user.email is None:
            abort(403, _("This needs a signed-in address, not a seat key."))
        return view(*args, **kwargs)
    return wrapped


def admin_required(view):
    @functools.wraps(view)
    @login_required
    def wrapped(*args, **kwargs):
        if not is_admin(g.user):
            abort(403, _("Only the site admin may see this page."))
        return view(*args, **kwargs)
    return wrapped


def csrf_token() -> str:
    if "csrf" not in session:
        session["csrf"] = secrets.token_urlsafe(24)
    return session["csrf"]


def client_ip() -> str:
    return request.remote_addr or "?"


def check_rate(email: str | None = None, kind: str = "password") -> None:  # pragma: no mutate (every caller names the kind)
    """Refuse (429) a sign-in attempt of ``kind`` over its limit (pbem.server.throttle): per
    client, per (client, address) pair, and for passwords per address -- never a link for it."""
    why = throttle.signin_refusal(service().store, service().now(), client_ip(), email, kind)
    minutes = int(throttle.SIGNIN_WINDOW.total_seconds() // 60)  # pragma: no mutate (int(x / 60) is x // 60)
    if why == "address":
        abort(429, _("Too many wrong passwords for this address lately: password sign-in for it is paused for "
                     "%(num)d minutes. Ask for a sign-in link instead; it works at once.", num=minutes))
    if why == "links":
        abort(429, _("%(links)d sign-in links were asked for from your network address in the last %(num)d minutes: "
                     "wait and try again. If everyone here sees this, the server counts its proxy's address for "
                     "everyone: its admin must set proxies (docs/security.md).",
                     links=throttle.LINKS_PER_CLIENT, num=minutes))
    if why:
        abort(429, _("Too many sign-in attempts: wait %(num)d minutes and try again.", num=minutes))


def note_attempt(email: str | None, kind: str, ok: bool) -> None:
    service().store.add_login_attempt(email, client_ip(), kind, ok)


def sign_in(email: str, via: str) -> None:
    """Start a fresh session for ``email`` (a new CSRF token too)."""
    session.clear()
    session.permanent = True
    session["email"] = email.strip()
    session["via"] = via
    session["at"] = iso(service().now())
    session["generation"] = service().store.session_generation(email)
    session["sid"] = sessions.new_id()  # so "Sign out" can end this session on the server
    csrf_token()


# -- hooks --------------------------------------------------------------------------


def load_user() -> None:
    g.user = None
    auth = request.headers.get("Authorization", "")  # pragma: no mutate (a header's name is case-blind; no header is no Bearer whatever stands in)
    if is_api() and auth[:7].lower() == "bearer ":
        g.user = key_user(auth[7:].strip())
        return
    email = session.get("email")
    if email:
        generation, g.saved_language, ended = service().store.session_facts(email, session.get("sid"))
        if session.get("generation", 0) != generation:
            session.clear()  # ended by a password change or "sign out everywhere"
            return
        if ended:
            session.clear()  # a copy of a session that was signed out
            return
        g.user = User(email=email)


def key_user(key: str) -> User:
    """The seat a Bearer key proves: game from the URL or ?game=, side from ?side= (or the JSON body)."""
    game = (request.view_args or {}).get("game_id") or request.args.get("game", type=int)
    body = request.get_json(silent=True) if request.is_json else None  # pragma: no mutate (silent: None either way)
    side = request.args.get("side") or (body.get("side") if isinstance(body, dict) else None)
    if not game or not side:
        abort(401, _("A seat key needs ?game=ID&side=SIDE."))
    check_rate(kind="key")  # pragma: no mutate (only password and link are kinds apart)
    if not service().store.check_key(int(game), side, key):
        note_attempt(None, "key", False)
        abort(401, _("That key is not the key of this seat."))
    return User(seat=(int(game), side))


def check_csrf() -> None:
    if request.method not in UNSAFE_METHODS or (g.user is not None and g.user.seat is not None):
        return
    sent = request.form.get("csrf_token") or request.headers.get("X-CSRF-Token") or ""  # pragma: no mutate (no token sent never matches)
    known = session.get("csrf") or ""
    if not known or not hmac.compare_digest(str(sent), str(known)):
        abort(400, _("The form's security token is missing or out of date. Go back, reload the page and try again."))


SECURITY_HEADERS = (
    # a header's name on a line of its own: HTTP names are case-blind (RFC 9110 5.1), its value is not
    ("X-Content-Type-Options",  # pragma: no mutate (a header's name is case-blind)
     "nosniff"),
    ("X-Frame-Options",  # pragma: no mutate (a header's name is case-blind)
     "DENY"),
    ("Referrer-Policy",  # pragma: no mutate (a header's name is case-blind)
     "same-origin"),
    ("Content-Security-Policy",  # pragma: no mutate (a header's name is case-blind)
     "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; "
     "script-src 'self'; frame-ancestors 'none'; form-action 'self'"),
)
"""Every answer's, unless the view set its own."""


def headers(response):
    """The security headers on every answer (those the view did not set), looked for once: werkzeug's
    ``setdefault`` looked through every header for each (10-14 % of a kept game page)."""
    present = {name.lower() for name, _value in response.headers}
    for name, value in SECURITY_HEADERS:
        if name.lower() not in present:
            response.headers.add(name, value)
    if g.get("language_negotiated"):  # a page in the language the browser asked for: a cache keeps one a language
        response.vary.update(("Accept-Language", "Cookie"))
    if g.get("user") is not None and "cache-control" not in present:
        response.headers.add(
            "Cache-Control",  # pragma: no mutate (a header's name is case-blind)
            "private, no-store")
    return response


def error_page(code: int, message: str):
    if is_api():
        return jsonify({"error": message, "status": code}), code
    return render_template("error.html", code=code, message=message), code


TITLES = {400: N_("Bad request."), 401: N_("Sign in needed."), 403: N_("Not yours to see."), 404: N_("Not found."),
          405: N_("Not allowed."), 413: N_("Too large."), 429: N_("Too many attempts."), 500: N_("Server error.")}


def handle_http(exc: HTTPException):
    if exc.code == 401 and not is_api():
        return redirect(url_for("auth.login"))
    description = exc.description if isinstance(exc.description, str) else ""
    default = type(exc).description
    message = description if description and description != default and "<" not in description else \
        (_(TITLES[exc.code]) if exc.code in TITLES else exc.name + ".")
    if exc.code == 404 and message == _(TITLES[404]):
        message = _("There is no such page.")
    if exc.code == 405:
        message = _("This address does not take %(method)s requests.", method=request.method)
    return error_page(exc.code or 500, message)


def handle_service_error(exc: ServiceError):
    return error_page(400, exc.in_(i18n.web_lang()))  # the reader's language: the page's, or the API's Accept-Language


def handle_crash(exc: Exception):
    if isinstance(exc, HTTPException):
        return handle_http(exc)
    current_app.logger.exception("error on %s %s", request.method, request.path)
    return error_page(500, _("Something went wrong on the server; it was logged. Try again, or tell the admin."))


def init_app(app) -> None:
    app.before_request(load_user)
    app.before_request(check_csrf)
    app.after_request(headers)
    app.register_error_handler(HTTPException, handle_http)  # pragma: no mutate (without it, handle_crash hands every HTTPException to handle_http)
    app.register_error_handler(ServiceError, handle_service_error)
    app.register_error_handler(Exception, handle_crash)

    @app.context_processor
    def helpers():
        user = g.get("user")
        return {"csrf_token": csrf_token, "user": user, "is_admin": is_admin(user),
                "seat_title": lambda game_id, seat: service().seat_title(int(game_id), seat, i18n.web_lang()),
                "seat_titles": lambda game_id: service().seat_titles(int(game_id), i18n.web_lang())}
