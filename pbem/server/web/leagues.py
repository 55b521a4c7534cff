"""League and tournament pages: the leagues, a league (sign up, the organisers' forms), a
tournament's public page (standings and crosstable, once published), the organiser's console,
and a player's record (reliability and ratings).

Entrants appear by the name they gave when joining (else the part of their address before
the @); addresses are shown only to the organisers, on the console.
"""

from __future__ import annotations

from flask import Blueprint, abort, current_app, flash, g, redirect, render_template, request, url_for
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from pbem.core.ruleset import scenario_title_in, seat_title_in, title_in
from pbem.games import UnknownGame, ruleset
from pbem.server import deadlines, i18n
from pbem.server.leagues import ratings
from pbem.server.leagues.service import Leagues
from pbem.server.leagues.standings import cell_text
from pbem.server.service import ServiceError
from pbem.server.web.games import FORM_SETTINGS, game_from_form, per_game, scenarios_in, settings_from_form
from pbem.server.web.security import email_required, is_admin, service

bp = Blueprint("leagues", __name__)
CONSOLE = ("start", "pair", "pause", "resume", "replace", "withdraw", "adjudicate", "override", "publish", "unpublish",
           "excuse")
WITH_REASON = ("pause", "resume", "replace", "withdraw", "adjudicate", "override", "excuse")
ORGANISE = ("season", "tournament", "organiser", "signup")


def leagues() -> Leagues:
    return Leagues(service())


def who() -> str | None:
    return g.user.email if g.user is not None else None


def league_or_404(league_id: int) -> dict:
    try:
        return leagues().league(league_id)
    except ServiceError:
        abort(404, _("There is no league %(id)s.", id=league_id))


def tournament_or_404(tid: int) -> dict:
    try:
        return leagues().tournament(tid)
    except ServiceError:
        abort(404, _("There is no tournament %(id)s.", id=tid))


def organiser(league_id: int) -> bool:
    return is_admin(g.user) or leagues().is_organiser(league_id, who())


def game_choices() -> dict:
    """What the league's and the tournament's forms offer: the new-game form's scenarios and each game's options."""
    return {"scenarios": scenarios_in(current_app.config["PBEM_SCENARIOS"], i18n.web_lang()), "games": per_game()}


def rules_from_form(form, settings: dict | None = None) -> dict:
    """The game and the clock a league's or a tournament's form chose, checked as the new-game form checks
    them (one check: pbem.server.web.games): a scenario chosen sets the game, scenario and options; each clock
    field filled in replaces that setting of ``settings`` (the league's), an hour, minute or second the
    whole time per day."""
    rules: dict = {}
    if form.get("scenario"):
        rules["game"], rules["scenario"], rules["options"] = game_from_form(form, current_app.config["PBEM_SCENARIOS"])
    given = {field: form.get(field) for field in FORM_SETTINGS if str(form.get(field) or "").strip()}
    if given:
        checked = settings_from_form(MultiDict(given), given_only=True)
        named = {FORM_SETTINGS[field]: checked[FORM_SETTINGS[field]] for field in given}
        kept = {k: v for k, v in (settings or {}).items()
                if not (k in deadlines.CLOCK_PARTS and set(named) & set(deadlines.CLOCK_PARTS))}
        rules["settings"] = {**kept, **named}
    return rules


@bp.route("/leagues")
def index():
    return render_template("leagues.html", leagues=leagues().leagues(), **game_choices())


@bp.route("/leagues", methods=["POST"])
@email_required
def create():
    rules = {"settings": {"miss_policy": "forfeit"}}
    rules.update(rules_from_form(request.form, rules["settings"]))
    league_id = leagues().create_league(request.form.get("name", ""), g.user.email, rules=rules,
                                        about=request.form.get("about", "")[:2000])
    return redirect(url_for("leagues.league", league_id=league_id))


def game_named(rules: dict) -> dict:
    """The game a league or tournament plays, as its page names it in the reader's language: the game's title
    and the scenario's name (its catalog's words; a game or scenario not installed here: as the rules write it)."""
    lang = i18n.web_lang()
    try:
        rules_of = ruleset(rules["game"])
    except UnknownGame:
        return {"title": rules["game"], "scenario": rules.get("scenario") or ""}
    path = next((p for p in rules_of.scenarios().values() if p.name == rules.get("scenario")), None)
    scenario = scenario_title_in(rules_of, service().scenario(rules["game"], path.name), lang) if path else \
        rules.get("scenario") or ""
    return {"title": title_in(rules_of, lang), "scenario": scenario}


@bp.route("/leagues/<int:league_id>")
def league(league_id: int):
    info = league_or_404(league_id)
    return render_template("league.html", league=info, organiser=organiser(league_id), game=game_named(info["rules"]),
                           **game_choices(),
                           member=leagues().is_member(league_id, who()),
                           ratings=ratings.table(service().store, info["rules"]["game"]),
                           names={m["email"].lower(): m["name"] or m["email"].split("@")[0] for m in info["members"]})


@bp.route("/leagues/<int:league_id>/join", methods=["POST"])
@email_required
def join(league_id: int):
    league_or_404(league_id)
    flash(leagues().join(league_id, g.user.email, request.form.get("name", "")).in_(i18n.web_lang()))
    return redirect(url_for("leagues.league", league_id=league_id))


@bp.route("/leagues/<int:league_id>/organise/<action>", methods=["POST"])
@email_required
def organise(league_id: int, action: str):
    league_or_404(league_id)
    if action not in ORGANISE:
        abort(404, _("There is no action %(action)s.", action=repr(action)))
    if not organiser(league_id):
        abort(403, _("Only the league's organisers may do this."))
    form, me = request.form, g.user.email
    if action == "season":
        leagues().add_season(league_id, me, form.get("name", ""))
    elif action == "organiser":
        leagues().add_organiser(league_id, me, form.get("email", ""))
    elif action == "signup":
        leagues().set_signup(league_id, me, form.get("open") == "1")
    else:
        rounds = form.get("rounds", "").strip()
        season = form.get("season", "").strip()
        rules = {}
        if form.get("vacation") == "no":
            rules["vacation"] = False
        if form.get("starts", "").strip():
            rules["starts"] = form["starts"].strip()
        if form.get("withdrawal") in ("forfeit", "annul"):
            rules["withdrawal"] = form["withdrawal"]
        if form.get("bidding") == "yes":
            rules["bidding"] = True
        if form.get("min_reliability", "").strip():
            rules["min_reliability"] = float(form["min_reliability"]) if form["min_reliability"].replace(
                ".", "", 1).isdigit() else -1
        rules.update(rules_from_form(form, leagues().league(league_id)["rules"]["settings"]))
        tid = leagues().create_tournament(league_id, me, form.get("name", ""), form.get("format", ""),
                                          int(rounds) if rounds.isdigit() else 0, rules,
                                          int(season) if season.isdigit() else None)
        return redirect(url_for("leagues.console", tid=tid))
    flash(_("Done."))
    return redirect(url_for("leagues.league", league_id=league_id))


def may_see(t: dict) -> bool:
    me = (who() or "").lower()
    return bool(t["published"]) or organiser(t["league_id"]) or any(e["email"].lower() == me for e in t["entries"]) \
        or (t["status"] == "signup" and leagues().is_member(t["league_id"], who()))


@bp.route("/tournaments/<int:tid>")
def tournament(tid: int):
    t = tournament_or_404(tid)
    if not may_see(t):
        if g.user is None:
            return redirect(url_for("auth.login", next=request.path))
        abort(403, _("This tournament is not published yet."))
    table = leagues().table(tid)
    bidding = None
    if t["rules"].get("bidding") and t["status"] != "finished" and g.user is not None:
        mine = next((b for b in leagues().store.query("SELECT * FROM league_bids WHERE tournament_id = ? AND email = ?",
                                                       (tid, g.user.email))), None)
        rules_of = ruleset(t["rules"]["game"])  # the seats in the reader's language
        bidding = {"seats": [(s.id, seat_title_in(rules_of, s, i18n.web_lang()))
                             for s in leagues().seats_of_rules(t["rules"])], "mine": mine}
    try:  # the first seat, as the crosstable's legend names it in the reader's language
        first = seat_title_in(ruleset(t["rules"]["game"]), leagues().seats_of_rules(t["rules"])[0], i18n.web_lang())
    except (UnknownGame, ServiceError, IndexError):
        first = _("the first side")
    return render_template("tournament.html", t=t, table=table, cell_text=cell_text, bidding=bidding, first=first,
                           entered=any(e["email"].lower() == (who() or "").lower() for e in t["entries"]),
                           member=leagues().is_member(t["league_id"], who()), organiser=organiser(t["league_id"]),
                           names={row.number: row.name for row in table["rows"]}, shown=member_names(t),
                           game=game_named(t["rules"]), clock=deadlines.settings_with_defaults(t["rules"]["settings"]),
                           brackets=double_bracket(t))


def double_bracket(t: dict) -> list[tuple[str, str, list[tuple[str, list[dict]]]]]:
    """A double elimination's pairings as its page draws them: the winners' bracket, the losers' bracket and the
    grand final, each by its rounds: [(part, heading, [(stage, pairings)])]."""
    if t["format"] != "double_elimination":
        return []
    stages: dict[str, list[dict]] = {}
    for p in t["pairings"]:
        if p.get("slot"):
            stages.setdefault(p["slot"].split(".")[0], []).append(p)
    parts = []
    for part, heading in (("W", _("Winners' bracket")), ("L", _("Losers' bracket"))):
        rounds = sorted((int(stage[1:]), pairings) for stage, pairings in stages.items() if stage[0] == part)
        parts.append((part.lower(), heading,
                      [(_("Round %(round)s", round=n), pairings) for n, pairings in rounds]))
    finals = [(_("Grand final"), stages["F"])] if "F" in stages else []
    finals += [(_("Grand final, the reset"), stages["F2"])] if "F2" in stages else []
    return [part for part in parts if part[2]] + ([("final", _("Grand final"), finals)] if finals else [])


def member_names(t: dict):
    """An address as the public page names a member: the name he gave, else the part before the @."""
    names = {m["email"].lower(): m["name"] for m in service().store.query(
        "SELECT email, name FROM league_members WHERE league_id = ?", (t["league_id"],))}
    return lambda email: names.get(email.lower()) or email.split("@")[0]


@bp.route("/tournaments/<int:tid>/enter", methods=["POST"])
@email_required
def enter(tid: int):
    tournament_or_404(tid)
    flash(leagues().enter(tid, g.user.email).in_(i18n.web_lang()))
    return redirect(url_for("leagues.tournament", tid=tid))


@bp.route("/tournaments/<int:tid>/bid", methods=["POST"])
@email_required
def bid(tid: int):
    tournament_or_404(tid)
    amount = request.form.get("bid", "0").strip()
    flash(leagues().bid(tid, g.user.email, request.form.get("seat", ""),
                        int(amount) if amount.isdigit() else -1).in_(i18n.web_lang()))
    return redirect(url_for("leagues.tournament", tid=tid))


@bp.route("/tournaments/<int:tid>/console")
@email_required
def console(tid: int):
    t = tournament_or_404(tid)
    if not organiser(t["league_id"]):
        abort(403, _("Only the league's organisers may use the tournament console."))
    ops = leagues()
    games = {}
    for p in t["pairings"]:
        if p["game_id"]:
            mine = ops.seated_in(p["game_id"], who())  # the seat rule: nothing of the other seats
            seats = service().store.seats(p["game_id"])
            games[p["game_id"]] = {"info": service().info(p["game_id"]), "mine": [
                service().seat_title(p["game_id"], side, i18n.web_lang()) for side in mine],
                "seats": [] if mine else seats}
    return render_template("tournament_console.html", t=t, table=leagues().table(tid), cell_text=cell_text,
                           games=games, actions=CONSOLE, shown=str)


def rule(tid: int, action: str, form) -> None:
    """One of the console's rulings, by the signed-in organiser (the console's forms, the JSON API)."""
    t = tournament_or_404(tid)
    if action not in CONSOLE:
        abort(404, _("There is no action %(action)s.", action=repr(action)))
    if not organiser(t["league_id"]):
        abort(403, _("Only the league's organisers may use the tournament console."))
    me, ops = g.user.email, leagues()
    why = form.get("why", "").strip()
    if action in WITH_REASON and not why:
        raise ServiceError("say why: the players read it")
    if action == "start":
        ops.start(tid, me)
    elif action == "pair":
        ops.pair_next(tid, me)
    elif action == "pause":
        ops.pause(tid, me, why)
    elif action == "resume":
        ops.resume(tid, me, why)
    elif action == "replace":
        ops.replace(tid, me, why, form.get("old", ""), form.get("new", ""))
    elif action == "withdraw":
        ops.withdraw(tid, me, why, form.get("email", ""))
    elif action == "adjudicate":
        ops.adjudicate(tid, me, why, int(form.get("pairing", "0") or 0) if str(form.get("pairing", "0")).isdigit() else 0,
                       form.get("result", ""))
    elif action == "override":
        ops.override(tid, me, why, int(form.get("pairing", "0") or 0) if str(form.get("pairing", "0")).isdigit() else 0,
                     form.get("result", ""))
    elif action in ("publish", "unpublish"):
        ops.publish(tid, me, action == "publish")
    else:
        game_id = int(form.get("game", "0") or 0) if str(form.get("game", "0")).isdigit() else 0
        if game_id not in {p["game_id"] for p in t["pairings"]}:
            raise ServiceError("that game is not in this tournament")
        count = form.get("count", "1").strip()
        ops.excuse(game_id, form.get("side", ""), me, why, int(count) if count.isdigit() else 0)


@bp.route("/tournaments/<int:tid>/console/<action>", methods=["POST"])
@email_required
def act(tid: int, action: str):
    rule(tid, action, request.form)
    flash(_("%(action)s: done.", action=action))
    return redirect(url_for("leagues.console", tid=tid))


@bp.route("/players/<path:email>")
@email_required
def profile(email: str):
    """A player's record. His address and reliability only to himself and the admin; anyone else signed in
    sees what the league pages show -- his name there, his leagues and ratings -- of a league member only
    (any other address: no such page, as an unknown one)."""
    record = leagues().profile(email)
    own = is_admin(g.user) or g.user.email.strip().lower() == email.strip().lower()
    if not own and not record["leagues"]:
        abort(404)
    name = next((row["member"] for row in record["leagues"] if row["member"]), "") or email.split("@")[0]
    return render_template("player.html", profile=record, own=own, name=email if own else name)
