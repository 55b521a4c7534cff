"""The JSON API of leagues and tournaments, as the games' (pbem.server.web.api): the same
operations as the league pages, the same checks. Signed-in session only (a seat key is one
game's); POSTs send the ``X-CSRF-Token`` header (GET /api/games gives it).

    GET  /api/leagues                            the leagues
    POST /api/leagues                            {name, about, rules} -> {id}
    GET  /api/leagues/<id>                       a league: rules, organisers, seasons, tournaments
    POST /api/leagues/<id>/join                  {name}
    POST /api/leagues/<id>/tournaments           {name, format, rounds, season, rules} -> {id}  (organisers)
    GET  /api/tournaments/<id>                   a tournament: entries, pairings (a double elimination's with
                                                 their match of the bracket: W1.2, L3.1, F, F2), standings
    POST /api/tournaments/<id>/enter
    POST /api/tournaments/<id>/<action>          the console's rulings (organisers): {why, ...} as its forms

``rules`` as a league's (docs/leagues.md): ``game``, ``scenario`` (its name or file, as /api/rulesets
gives it), ``options`` (checked as a new game's), ``settings`` (by name, as POST /api/games takes
them: an unknown one or a bad value refused), ``vacation``, ``min_reliability``, ``auto``, ``bidding``.
A refusal is ``{ok: false, error}`` with status 400.
"""

from __future__ import annotations

from flask import Blueprint, abort, g, jsonify, request
from flask_babel import gettext as _

from pbem.server import deadlines, i18n
from pbem.server.service import ServiceError
from pbem.server.web import leagues as pages
from pbem.server.web.api import api_settings, offered_scenario
from pbem.server.web.games import FORM_SETTINGS, settings_from_form
from pbem.server.web.security import login_required

bp = Blueprint("leagues_api", __name__, url_prefix="/api")


def signed_in() -> str:
    if g.user.seat is not None:
        abort(403, _("A seat key cannot act in leagues; sign in."))
    return g.user.email


def body() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, _("Send JSON: %(example)s.", example='{"name": "...", "rules": {"game": "napoleon1815"}}'))
    return data


def rules_of(given, settings: dict | None = None) -> dict:
    """JSON rules checked as POST /api/games checks a game: the scenario one offered, the settings by
    name (only those sent, over ``settings``: an hour, minute or second replaces the whole time per day)."""
    if given is None:
        return {}
    if not isinstance(given, dict):
        raise ServiceError('rules is an object, such as {"game": "napoleon1815", "options": {"players": "3"}}')
    rules = dict(given)
    if "scenario" in rules and rules.get("game"):
        rules["scenario"] = offered_scenario(str(rules["game"]), rules["scenario"])
    if "settings" in rules:
        fields = api_settings(rules["settings"])
        checked = settings_from_form(fields, given_only=True)
        named = {FORM_SETTINGS.get(key, key): checked[FORM_SETTINGS.get(key, key)] for key in fields}
        clock = set(named) & set(deadlines.CLOCK_PARTS)
        rules["settings"] = {**{k: v for k, v in (settings or {}).items() if not (clock and k in deadlines.CLOCK_PARTS)},
                             **named}
    return rules


def refused(exc: ServiceError):
    return jsonify({"ok": False, "error": exc.in_(i18n.web_lang())}), 400


@bp.route("/leagues")
def leagues():
    return jsonify({"leagues": [{"id": l["id"], "name": l["name"], "signup": l["signup"], "members": l["members"]}
                                for l in pages.leagues().leagues()]})


@bp.route("/leagues", methods=["POST"])
@login_required
def create_league():
    me, data = signed_in(), body()
    try:
        rules = {"settings": {"miss_policy": "forfeit"}}
        rules.update(rules_of(data.get("rules"), rules["settings"]))
        league_id = pages.leagues().create_league(str(data.get("name", "")), me, rules=rules,
                                                  about=str(data.get("about", ""))[:2000])
    except ServiceError as exc:
        return refused(exc)
    return jsonify({"ok": True, "id": league_id}), 201


@bp.route("/leagues/<int:league_id>")
def league(league_id: int):
    info = pages.league_or_404(league_id)
    return jsonify({"id": info["id"], "name": info["name"], "about": info["about"], "signup": info["signup"],
                    "rules": info["rules"], "members": len(info["members"]),
                    "seasons": [{"id": s["id"], "name": s["name"]} for s in info["seasons"]],
                    "tournaments": [{"id": t["id"], "name": t["name"], "format": t["format"], "status": t["status"],
                                     "round": t["round"], "rounds": t["rounds"]} for t in info["tournaments"]]})


@bp.route("/leagues/<int:league_id>/join", methods=["POST"])
@login_required
def join(league_id: int):
    me = signed_in()
    pages.league_or_404(league_id)
    try:
        said = pages.leagues().join(league_id, me, str((request.get_json(silent=True) or {}).get("name", "")))
    except ServiceError as exc:
        return refused(exc)
    return jsonify({"ok": True, "said": said.in_(i18n.web_lang())})


@bp.route("/leagues/<int:league_id>/tournaments", methods=["POST"])
@login_required
def create_tournament(league_id: int):
    me, data = signed_in(), body()
    info = pages.league_or_404(league_id)
    try:
        rounds, season = data.get("rounds") or 0, data.get("season")
        if not isinstance(rounds, int) or (season is not None and not isinstance(season, int)):
            raise ServiceError("rounds and season are whole numbers")
        tid = pages.leagues().create_tournament(league_id, me, str(data.get("name", "")), str(data.get("format", "")),
                                                rounds, rules_of(data.get("rules"), info["rules"]["settings"]), season)
    except ServiceError as exc:
        return refused(exc)
    return jsonify({"ok": True, "id": tid}), 201


@bp.route("/tournaments/<int:tid>")
def tournament(tid: int):
    t = pages.tournament_or_404(tid)
    if not pages.may_see(t):
        abort(403, _("This tournament is not published yet."))
    table = pages.leagues().table(tid)
    organiser = pages.organiser(t["league_id"])
    names = {row.email.lower(): row.name for row in table["rows"]}

    def who(email):
        return None if email is None else (email if organiser else names.get(email.lower(), email.split("@")[0]))

    return jsonify({"id": t["id"], "name": t["name"], "format": t["format"], "status": t["status"], "round": t["round"],
                    "rounds": t["rounds"], "rules": {k: v for k, v in t["rules"].items() if k != "moderator"},
                    "standings": [{"rank": r.rank, "number": r.number, "name": r.name, "points": r.points,
                                   "buchholz": r.buchholz, "sonneborn_berger": r.sonneborn_berger, "rating": r.rating,
                                   **({"email": r.email} if organiser else {})} for r in table["rows"]],
                    "pairings": [{"id": p["id"], "round": p["round"], "board": p["board"], "first": who(p["first"]),
                                  "second": who(p["second"]), "third": who(p.get("third")), "game": p["game_id"],
                                  "result": p["result"], "how": p["how"], "why": p["why"],
                                  **({"match": p["slot"]} if p.get("slot") else {})} for p in t["pairings"]],
                    "withdrawn": [who(e["email"]) for e in t["entries"] if e["withdrawn"]]})


@bp.route("/tournaments/<int:tid>/enter", methods=["POST"])
@login_required
def enter(tid: int):
    me = signed_in()
    pages.tournament_or_404(tid)
    try:
        said = pages.leagues().enter(tid, me)
    except ServiceError as exc:
        return refused(exc)
    return jsonify({"ok": True, "said": said.in_(i18n.web_lang())})


@bp.route("/tournaments/<int:tid>/<action>", methods=["POST"])
@login_required
def act(tid: int, action: str):
    signed_in()
    data = body()
    try:
        pages.rule(tid, action, {k: str(v) for k, v in data.items()})
    except ServiceError as exc:
        return refused(exc)
    return jsonify({"ok": True})
