"""The JSON API: the same operations as the pages, for scripts and clients.

Authentication: the signed-in session (POSTs then need the ``X-CSRF-Token``
header: the token of every page's forms, also given by GET /api/games), or ``Authorization: Bearer <seat key>``
with ``?game=<id>&side=<side>`` (no session, no CSRF token).

    GET  /api/games                          my games
    GET  /api/games/<id>?side=               the game as my side sees it
    POST /api/games/<id>/orders              {side, text, check_only} -> {ok, echo, problems}
    GET  /api/games/<id>/reports/<day>?side= a resolved day's report
    GET  /api/games/<id>/map/<day>.svg?side= a day's map
"""

from __future__ import annotations

from flask import Blueprint, Response, abort, g, jsonify, request

from pbem.server.web.games import map_day, my_games, report_for
from pbem.server.web.security import csrf_token, login_required, my_sides, service, side_for

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
        abort(400, 'Send JSON: {"side": "france", "text": "...", "check_only": false}.')
    side = side_for(g.user, game_id, body.get("side") or request.args.get("side"), write=True)
    text = body.get("text", "")
    if body.get("check_only"):
        result, _ = service().check_orders(game_id, side, text)
    else:
        result = service().submit(game_id, side, text, source="web", who=g.user.label)
    return jsonify({"ok": result.ok, "checked_only": bool(body.get("check_only")), "side": side, "day": result.day,
                    "turn": result.turn, "final": result.final, "echo": result.echo, "message": result.message(),
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
    svg = service().map_svg(game_id, map_day(game_id, day), side)
    return Response(svg, mimetype="image/svg+xml", headers={
        "Content-Security-Policy": "default-src 'none'; style-src 'unsafe-inline'; img-src data:",
        "Cache-Control": "private, max-age=60"})
