"""The web pages and the JSON API: a Flask app over the service layer.

    app = create_app(service, config)   # served by werkzeug (see pbem.server.serve)
    print(admin_login_url(service, config))   # a one-time sign-in link for the admin

One blueprint per area: ``auth`` (sign in by mailed link or password),
``games`` (my games, creating and joining, the game page, orders, reports,
maps), ``moderator`` (the moderator console and the admin page) and ``api``
(the same as JSON). ``security`` holds who may see what (``side_for``), the
CSRF check, the sign-in rate limit and the error pages. Views never touch SQL:
they call the service, or small read-only helpers. ``front`` stands before
Flask: a game page kept for this very reader (``pagecache``) is answered there,
everything else by Flask.
"""

from __future__ import annotations

import logging
import secrets
from datetime import timedelta

from flask import Flask
from flask.json.provider import DefaultJSONProvider

from pbem.server.config import Config
from pbem.paths import STATIC, TEMPLATES

log = logging.getLogger("pbem.server.web")


def create_app(service, config: Config | None = None) -> Flask:
    """The web app of one server: every page and API call goes through ``service``."""
    from pbem.server.web import api, auth, games, moderator, security, sessions

    config = config or getattr(service, "config", None) or Config()
    app = Flask("pbem.server.web", template_folder=str(TEMPLATES), static_folder=str(STATIC),
                static_url_path="/static")
    app.config.update(
        SECRET_KEY=config.secret_key or secrets.token_hex(32),
        SESSION_COOKIE_NAME="pbem_session",
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        SESSION_COOKIE_SECURE=config.url.startswith("https"),
        PERMANENT_SESSION_LIFETIME=timedelta(days=30),
        MAX_CONTENT_LENGTH=max(config.max_message_bytes, 64 * 1024),
        PBEM_SCENARIOS=games.scenarios(),
    )
    app.json = BoundedJSON(app)
    app.session_interface = sessions.DailyRenewed()  # signed again when changed or a day old, not each request
    app.extensions["pbem"] = {"service": service, "config": config}
    security.init_app(app)
    from pbem.server import i18n

    i18n.init_app(app)
    from pbem.server.web import around, language, leagues, leagues_api, notifications  # leagues, around games, ...
    for blueprint in (auth.bp, games.bp, moderator.bp, api.bp, leagues.bp, leagues_api.bp, around.bp, notifications.bp,
                      language.bp):
        app.register_blueprint(blueprint)
    from pbem.server.web.front import Front

    app.wsgi_app = Front(app)  # a kept game page answered before Flask; everything else: Flask
    return app


class BoundedJSON(DefaultJSONProvider):
    """JSON read from a request: nested too deep for the reader (a 100,000-deep list) is bad JSON, refused
    as any other (a 400 saying what to send), where Python's RecursionError was a 500."""

    def loads(self, s, **kwargs):
        try:
            return super().loads(s, **kwargs)
        except RecursionError:
            raise ValueError("JSON nested too deep") from None


def admin_login_url(service, config: Config) -> str:
    """A one-time sign-in link for ``config.admin_email`` (valid 30 minutes): no mail needed."""
    from pbem.server.web.auth import make_login_token

    token = make_login_token(service.store, config.admin_email, service.now())
    return f"{config.url.rstrip('/')}/login/{token}"
