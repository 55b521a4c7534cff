"""The JSON API: the same operations as the pages, for scripts and clients.

Authentication: the signed-in session (POSTs then need the ``X-CSRF-Token``
header: the token of every page's forms, also given by GET /api/games), or ``Authorization: Bearer <seat key>``
with ``?game=<id>&side=<side>`` (no session, no CSRF token).

    GET  /api/rulesets                       the installed games (scenarios, seats — and the seats another
                                             choice of an option gives, Napoleonic DBA's kriegsspiel —,
                                             options, whether the game has its own press rule) and the settings of who may
                                             join, talk and watch (private, press, spectator_delay); the
                                             titles, help and words in the request's language
    GET  /api/games                          my games
    POST /api/games                          {game, scenario, title, seats, options, settings, bots} -> {id};
                                             settings by name (hours, private, press, spectator_delay ...),
                                             an unknown or bad one refused with {ok: false, error}
    GET  /api/games/<id>?side=               the game as my side sees it
    POST /api/games/<id>/orders              {side, text, check_only} -> {ok, echo, problems}
    GET  /api/games/<id>/reports/<day>?side= a resolved day's report
    GET  /api/games/<id>/map/<day>.svg?side= a day's map
    GET  /api/games/<id>/export.json         a finished game's export, for pbem verify
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, current_app, g, jsonify, request
from flask_babel import gettext as _

from pbem.core.ruleset import (SPECTATOR, options_in, options_of, scenario_title_in, seat_title_in, title_in, title_said,
                               words_of)
from pbem.games import rulesets as installed
from pbem.server import i18n, deadlines
from pbem.server.service import ServiceError
from pbem.server.web.around import AROUND_SETTINGS
from pbem.server.web.games import FORM_SETTINGS, map_day, my_games, report_for, settings_from_form
from pbem.server.web.security import csrf_token, login_required, my_sides, service, side_for, spectator

bp = Blueprint("api", __name__, url_prefix="/api")


def wanted_side(game_id: int) -> str | None:
    """The side asked for: ?side=, else the caller's own (the first, for a hot-seat player)."""
    side = request.args.get("side")
    if side is None:
        mine = my_sides(g.user, game_id)
        side = mine[0] if mine else None
    return side_for(g.user, game_id, side)


@bp.route("/games")
@login_required
def games():
    if g.user.seat is not None:
        game_id, side = g.user.seat
        items = [{"id": game_id, "title": service().info(game_id)["title"], "status": service().info(game_id)["status"],
                  "sides": [side], "turn": service().turn_label(service().game(game_id))}]
        return jsonify({"games": items})
    # a script signed in by session reads here the token its POSTs send as X-CSRF-Token
    return jsonify({"games": my_games(g.user.email), "csrf_token": csrf_token()})


@bp.route("/rulesets")
def rulesets():
    """The installed games; their titles, scenarios' and seats' titles, options' titles, help and choices'
    words ("labels"), "ask me" decisions and computer players ("bot_titles") in the request's language (the
    names, ids, choices and keys as they are)."""
    lang = i18n.web_lang()
    out = []
    for name, rules in installed().items():
        words = words_of(rules, lang)
        scenarios = []
        for scenario, path in rules.scenarios().items():
            loaded = service().scenario(name, path.name)
            defaults = options_of(rules)
            by_option = {o.name: {c: [{"id": s.id, "side": s.side, "title": seat_title_in(rules, s, lang)}
                                      for s in rules.seats(loaded, options_of(rules, {o.name: c}))]
                                  for c in o.choices if c != o.default} for o in rules.options()}
            scenarios.append({"name": scenario, "file": path.name, "title": scenario_title_in(rules, loaded, lang),
                              "seats": [{"id": s.id, "side": s.side, "title": seat_title_in(rules, s, lang)}
                                        for s in rules.seats(loaded, defaults)],
                              # the seats another choice of an option gives (DBA's kriegsspiel: one per commander)
                              "seats_by_option": {n: v for n, v in by_option.items() if v}})
        out.append({"name": name, "title": title_in(rules, lang), "scenarios": scenarios,
                    "options": [{"name": o.name, "title": o.title, "choices": [c for c, _w in o.choices],
                                 "labels": dict(o.choices), "default": o.default, "help": o.help}
                                for o in options_in(rules, lang)],
                    "ask_kinds": {kind: words.gettext(text) for kind, text in rules.ask_kinds.items()},
                    "bots": list(rules.bots()),
                    "bot_titles": {bot.name: words.gettext(bot.title) for bot in rules.bots().values()},
                    "press_rule": callable(getattr(rules, "press_rule", None))})
    settings = [{"name": name, "default": default,
                 **({"takes": AROUND_SETTINGS[name][0], "help": AROUND_SETTINGS[name][1]}
                    if name in AROUND_SETTINGS else {})}
                for name, default in deadlines.DEFAULTS.items() if name in AROUND_SETTINGS
                or name in FORM_SETTINGS.values()]
    return jsonify({"rulesets": out, "settings": settings})


@bp.route("/games", methods=["POST"])
@login_required
def create():
    """A new game: {game, scenario (its name, as /api/rulesets gives it), title, seats: [seat ids I take], options, settings,
    moderator, bots: {seat: computer player}}. Seats I do not take and the computer does not play
    stay open for others to join."""
    if g.user.seat is not None:
        abort(403, _("A seat key cannot create games; sign in."))
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not str(body.get("title", "")).strip():
        abort(400, _("Send JSON: %(example)s.", example='{"game": "marengo", "title": "...", "seats": ["austria"], '
                                                        '"options": {}}'))
    game = str(body.get("game") or "marengo")
    try:
        settings = settings_from_form(api_settings(body.get("settings")), given_only=True)
        game_id, _keys = service().create_game(
            str(body["title"]).strip()[:100], {seat: g.user.email for seat in body.get("seats") or []},
            scenario=offered_scenario(game, body.get("scenario")), settings=settings, moderator=body.get("moderator"),
            who=g.user.email, game=game, options=body.get("options") or {},
            bots=body.get("bots") if isinstance(body.get("bots"), dict) else None)
    except ServiceError as exc:
        return jsonify({"ok": False, "error": exc.in_(i18n.web_lang())}), 400
    return jsonify({"ok": True, "id": game_id, "commitment": service().commitment(game_id)}), 201


def offered_scenario(game: str, given) -> str | None:
    """The scenario file of ``game`` that ``given`` names: a scenario's name as /api/rulesets gives it, or its
    file as it gives it ("file"); none given, the game's first. Only the scenarios the server offers (the
    game's own list, the new-game form's): never a path, so no other file is read and no path is told."""
    if given is None or given == "":
        return None
    try:
        rules = installed()[game]
    except KeyError:
        return str(given)  # an unknown game: the service says which games there are
    offered = {path.name: path.name for path in rules.scenarios().values()}
    offered.update({name: path.name for name, path in rules.scenarios().items()})
    offered.update({key.partition(":")[2]: key.partition(":")[2]
                    for key in current_app.config["PBEM_SCENARIOS"] if key.partition(":")[0] == game})
    if not isinstance(given, str) or given not in offered:
        raise ServiceError("%(title)s has no scenario %(scenario)s (scenarios: %(names)s)", title=title_said(rules),
                           scenario=repr(str(given)[:40]), names=", ".join(rules.scenarios()))
    return offered[given]


def api_settings(given) -> "_Form":
    """The JSON settings as the new-game form's fields: each by its setting's name (docs/operations.md,
    pbem.server.deadlines) or its field's; an unknown name is refused, naming those there are."""
    if given is None:
        given = {}
    if not isinstance(given, dict):
        raise ServiceError('settings is an object, such as {"hours": 48, "private": true}')
    fields = {name: field for field, name in FORM_SETTINGS.items()}
    known = sorted(set(fields) | set(AROUND_SETTINGS))
    out = _Form()
    for name, value in given.items():
        if name in AROUND_SETTINGS or name in FORM_SETTINGS:
            out[name] = value
        elif name in fields:
            out[fields[name]] = value
        else:
            raise ServiceError("there is no setting %(name)s; the settings are %(names)s",
                               name=repr(name), names=', '.join(known))
    return out


class _Form(dict):
    """JSON settings read like the new-game form's fields."""

    def getlist(self, name):
        value = self.get(name, [])
        return value if isinstance(value, list) else [value]


@bp.route("/games/<int:game_id>/export.json")
def export(game_id: int):
    try:
        return jsonify(service().export(game_id))
    except ServiceError as exc:
        abort(403, exc.in_(i18n.web_lang()))


@bp.route("/games/<int:game_id>")
@login_required
def game(game_id: int):
    side = wanted_side(game_id)
    info = service().info(game_id)
    state = service().game(game_id)
    out = {"id": game_id, "label": service().label(game_id), "status": info["status"], "side": side,
           "turn": service().turn_label(state), "days": len(state.days), "view": state.view(side)}
    if side is not None:
        out["deadline"] = service().deadline_for(game_id, side)
        out["orders_on_file"] = service().orders_on_file(game_id, side) if not state.over else ""
    return jsonify(out)


@bp.route("/games/<int:game_id>/orders", methods=["POST"])
@login_required
def orders(game_id: int):
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("text", ""), str):
        abort(400, _("Send JSON: %(example)s.", example='{"side": "france", "text": "...", "check_only": false}'))
    side = side_for(g.user, game_id, body.get("side") or request.args.get("side"), write=True)
    text = body.get("text", "")
    if body.get("check_only"):
        result, _checked = service().check_orders(game_id, side, text, i18n.web_lang())
    else:
        result = service().submit(game_id, side, text, source="web", who=g.user.label, lang=i18n.web_lang())
    return jsonify({"ok": result.ok, "checked_only": bool(body.get("check_only")), "side": side, "day": result.day,
                    "turn": result.turn, "final": result.final, "echo": result.echo, "message": result.message(),
                    "warnings": result.warnings,
                    "problems": [{"line": p.line, "column": p.column, "message": p.message, "found": p.found,
                                  "expected": p.expected, "text": str(p)} for p in result.problems]})


@bp.route("/games/<int:game_id>/reports/<int:day>")
@login_required
def report(game_id: int, day: int):
    side = side_for(g.user, game_id, request.args.get("side"))
    rep = report_for(game_id, day, side)
    return jsonify({"game": game_id, "day": day, "side": side, "subject": rep.subject, "markdown": rep.markdown,
                    "text": rep.text, "html": rep.html, "template": getattr(rep, "template", "")})


@bp.route("/games/<int:game_id>/map/<day>.svg")
def map_svg(game_id: int, day: str):
    side = side_for(g.user, game_id, request.args.get("side"))
    if side is None and spectator(g.user, game_id):  # an onlooker of a finished game: the spectator's map
        side = SPECTATOR
    svg = service().map_svg(game_id, map_day(game_id, day), side, i18n.web_lang())
    return Response(svg, mimetype="image/svg+xml", headers={
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        "Cache-Control": "private, max-age=60"})
