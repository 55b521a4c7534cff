"""Signing in: by a link mailed to the address, or by password.

A link carries a random token valid for 30 minutes and usable once; only its
SHA-256 is stored. Opening the link shows a button that signs in (a POST), so
a mail scanner fetching the link does not use it up. Failed sign-ins count
against limits per client, per (client, address) pair and, for passwords,
per address; at most three links an hour are mailed to an address
(pbem.server.throttle). No limit closes every way in to an address.
"""

from __future__ import annotations

import hashlib
import secrets
from datetime import timedelta

from flask import Blueprint, abort, g, redirect, render_template, request, session, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.security import check_password_hash, generate_password_hash

from pbem.server import i18n, throttle
from pbem.server.addresses import clean_address
from pbem.server.mail.outbox import queue
from pbem.server.store import iso
from pbem.server.web import sessions
from pbem.server.web.redirects import local_path
from pbem.server.web.security import check_rate, config, email_required, note_attempt, service, sign_in

bp = Blueprint("auth", __name__)
TOKEN_LIFE = timedelta(minutes=30)
MIN_PASSWORD = 8


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def make_login_token(store, email: str, now) -> str:
    """A new one-time sign-in token for ``email``; only its hash is stored."""
    token = secrets.token_urlsafe(32)  # pragma: no mutate (None is secrets' default of 32 bytes; the length is asserted)
    store.add_login_token(email, token_hash(token), iso(now + TOKEN_LIFE))
    return token


def site_url() -> str:
    """The site's address for a link mailed from a request: ``base_url`` (never a request's Host, which its
    sender chooses), made https when the request came over https -- behind a proxy, as the proxy's
    X-Forwarded-Proto says, which waitress trusts from the proxy alone (setting ``proxies``): a link asked for
    over TLS never travels back in the clear."""
    url = config().url.rstrip("/")
    if request.scheme == "https" and url.startswith("http://"):
        return "https://" + url[len("http://"):]
    return url


def safe_next(value: str | None) -> str:
    """A local path to go to after signing in (never another site: see redirects.local_path)."""
    return local_path(value) or url_for("games.home")


def clean_email(value: str | None) -> str:
    email = clean_address(value)  # email-validator: syntax, length, no control characters
    if email is None:
        abort(400, _("That is not an email address."))
    return email


@bp.route("/login", methods=["GET", "POST"])
def login():
    next_url = safe_next(request.values.get("next"))
    if request.method == "GET":
        if g.user is not None and g.user.email:
            return redirect(next_url)
        return render_template("login.html", next=next_url)
    email = clean_email(request.form.get("email"))
    service().store.prune_web(iso(service().now() - timedelta(days=1)))
    by_password = request.form.get("action") == "password"
    check_rate(email, "password" if by_password else "link")
    if by_password:
        player = service().store.find_player(email)
        password = request.form.get("password", "")
        if player and player["password_hash"] and check_password_hash(player["password_hash"], password):
            note_attempt(email, "password", True)
            sign_in(email, "password")
            return redirect(next_url)
        note_attempt(email, "password", False)
        return render_template("login.html", next=next_url, email=email,
                               error=_("Wrong address or password (or no password is set: ask for a link).")), 401
    note_attempt(email, "link", True)
    if not throttle.link_mail_allowed(service().store, service().now(), email):
        return render_template("login_sent.html", email=email)  # links already on their way: no more mail
    token = make_login_token(service().store, email, service().now())
    link = f"{site_url()}{url_for('auth.confirm', token=token)}"
    # the language the address chose, else the page's (the reader asking for the link)
    tr = i18n.translator(service().store.language_of(email, default=None) or i18n.web_lang())
    queue(service().store, email, "[pbem] " + tr.gettext("Your sign-in link"),
          tr.gettext("To sign in to the pbem server at %(url)s, open this link within 30 minutes:", url=site_url())
          + f"\n\n  {link}\n\n"
          + tr.gettext("It works once. If you did not ask for it, ignore this mail: nothing happens without the link."),
          kind="login", lang=tr.lang)
    return render_template("login_sent.html", email=email)


@bp.route("/login/<token>", methods=["GET", "POST"])
def confirm(token: str):
    store = service().store
    check_rate(kind="token")
    email = store.peek_login_token(token_hash(token)) if request.method == "GET" else \
        store.use_login_token(token_hash(token))
    if email is None:
        note_attempt(None, "token", False)
        abort(400, _("This sign-in link is unknown, used or expired: a link works once, for 30 minutes. "
                     "Ask for a new one on the sign-in page."))
    if request.method == "GET":
        return render_template("login_confirm.html", email=email, token=token)
    note_attempt(email, "token", True)
    sign_in(email, "link")
    return redirect(safe_next(request.form.get("next")))


@bp.route("/logout", methods=["POST"])
def logout():
    """Sign out: this session ends on the server too (a copy of its cookie is worth nothing)."""
    if session.get("sid"):
        sessions.end(service().store, session["sid"], service().now())
    elif session.get("email"):  # a session from before ids: end them all
        service().store.end_sessions(session["email"])
    session.clear()
    return redirect(url_for("auth.login"))


@bp.route("/logout/everywhere", methods=["POST"])
@email_required
def logout_everywhere():
    """End every session of this address, on every browser (a lost phone, a shared computer)."""
    service().store.end_sessions(g.user.email)
    service().store.audit(g.user.email, "sign_out_everywhere")
    session.clear()
    return redirect(url_for("auth.login"))


@bp.route("/password", methods=["GET", "POST"])
@email_required
def password():
    store = service().store
    player = store.find_player(g.user.email)
    has_password = bool(player and player["password_hash"])
    # a fresh sign-in by mailed link may set a new password without the old one (a forgotten password)
    fresh_link = session.get("via") == "link" and session.get("at", "") >= iso(service().now() - TOKEN_LIFE)
    need_current = has_password and not fresh_link
    if request.method == "GET":
        return render_template("password.html", need_current=need_current, has_password=has_password)
    error = None
    new = request.form.get("new", "")
    if need_current:
        check_rate(g.user.email, "password")
        if not check_password_hash(player["password_hash"], request.form.get("current", "")):
            note_attempt(g.user.email, "password", False)
            error = _("Your current password is not right.")
    if error is None and len(new) < MIN_PASSWORD:
        error = _("A password needs at least %(num)d characters.", num=MIN_PASSWORD)
    elif error is None and new != request.form.get("again", ""):
        error = _("The two new passwords differ.")
    if error:
        return render_template("password.html", need_current=need_current, has_password=has_password,
                               error=error), 400
    store.set_password_hash(g.user.email, generate_password_hash(new))
    store.audit(g.user.email, "password", detail={"changed": has_password})
    # every other session ends (whoever knew the old password is signed out); this one goes on
    session["generation"] = store.end_sessions(g.user.email)
    return render_template("password.html", need_current=True, has_password=True, done=True)
