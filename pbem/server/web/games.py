"""My games, creating and joining games, and the game page of a side.

Every route that reads or writes a side's data asks ``side_for`` first.
Orders go through ``service.check_orders`` / ``service.submit``, so the page
shows the very words a mail reply would.
"""

from __future__ import annotations

import functools
import gzip
import hashlib
import json
from html import escape as html_escape
import re
import secrets
from collections import OrderedDict
from pathlib import Path

from flask import (Blueprint, Response, abort, current_app, flash, g, redirect, render_template, request, session,
                   url_for)
from flask_babel import gettext as _
from flask_babel import ngettext
from werkzeug.datastructures import MultiDict

from pbem.core.orders import HEADER_ALIASES, leading_word
from pbem.core.ruleset import (SPECTATOR, ask_kinds_in, options_in, options_of, scenario_title_in, seat_title_in,
                               standing_example_of, standing_words_of, title_in, title_said, words_of)
from pbem.games import DEFAULT, UnknownGame, rulesets, ruleset
from pbem.server import deadlines, i18n
from pbem.server.i18n import N_
from pbem.server.service import ServiceError
from pbem.server.web import clicklayer, pagecache
from pbem.server.web.around import around_settings
from pbem.server.web.security import (csrf_token, email_required, game_info, is_finished, is_moderator, my_sides, service,
                                     side_for, spectator)

bp = Blueprint("games", __name__)

ASK_KINDS = {kind: text for r in rulesets().values() for kind, text in r.ask_kinds.items()}
"""The "ask me" decisions the installed games may put to their players by mail."""
WEEKDAYS = ("Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun")
FINAL_LINE = re.compile(r"(?im)^\s*FINAL\s*(#.*)?$")
_HEADER = "|".join(re.escape(word) for word in sorted(HEADER_ALIASES, key=len, reverse=True))
HEADER_LINE = re.compile(rf"(?i)^\s*(?:{_HEADER})(?![^\W\d_])")
"""A header line, its first word in any language (GAME, PARTIE, ИГРА, 对局...: pbem.core.orders.HEADER_WORDS)."""
_KEY = "|".join(re.escape(word) for word, key in HEADER_ALIASES.items() if key == "KEY")
KEY_PART = re.compile(rf"(?i)\s*(?<![^\W\d_])(?:{_KEY})(?![^\W\d_])\s*\S+")
"""A header's key and its value (KEY ..., CLÉ ..., 密钥 ...), taken out of the header the page shows."""


def scenarios(lang: str | None = "en") -> dict[str, str]:
    """The scenarios a new game may use, of every installed game: {"game:file": title}, in ``lang`` (the
    game's catalog's words), the game's title said once ("Bonaparte at Marengo: 14 June 1800", not the
    game's name twice); the default game's first (the one the form shows chosen)."""
    out = {}
    for name, r in offered():
        for scenario, path in r.scenarios().items():
            out[f"{name}:{path.name}"] = heading_of_file(name, str(path), path.stat().st_mtime_ns, lang)
    return out


@functools.lru_cache(maxsize=512)
def heading_of_file(game: str, path: str, changed: int, lang: str | None) -> str:
    """``scenario_heading`` of the scenario file at ``path``, read once while the file is unchanged (``changed``:
    its modification time): every app made (each test's) read every installed scenario again."""
    rules = rulesets()[game]
    return scenario_heading(rules, rules.load_scenario(Path(path)), lang)


def scenario_heading(rules, scenario, lang: str | None) -> str:
    """A scenario as the form names it: its name, after the game's title unless the name begins with it."""
    title, name = title_in(rules, lang), scenario_title_in(rules, scenario, lang)
    return name if name.startswith(title) else i18n.translate(lang, "%(game)s: %(scenario)s", game=title, scenario=name)


def scenarios_in(available: dict[str, str], lang: str | None) -> dict[str, str]:
    """The offered scenarios (the app's ``PBEM_SCENARIOS``, {"game:file": English title}) named in ``lang``:
    an installed game's scenario by its catalog; any other (a test's, an operator's) as offered."""
    if not i18n.normalise(lang) or i18n.normalise(lang) == i18n.DEFAULT:
        return dict(available)
    games = rulesets()
    out = {}
    for key, title in available.items():
        game, _sep, file = key.partition(":")
        rules = games.get(game)
        path = next((p for p in rules.scenarios().values() if p.name == file), None) if rules else None
        out[key] = scenario_heading(rules, service().scenario(game, file), lang) if path is not None else title
    return out


def offered() -> list[tuple]:
    """The installed games as the new-game form lists them: the default game (pbem.games.DEFAULT) first, by
    intent, then the others by name."""
    return sorted(rulesets().items(), key=lambda item: item[0] != DEFAULT)


def per_game() -> list[dict]:
    """What the new-game form offers for each installed game: its options, seats (of every
    scenario), computer players and "ask me" decisions; the form shows the chosen game's."""
    lang = i18n.web_lang()
    out = []
    for name, r in offered():
        say = words_of(r, lang).gettext  # the game's own catalog: its texts in the reader's language
        shown = options_in(r, lang)
        seats: dict[str, str] = {}
        where: dict[str, list[str]] = {}  # seat -> the scenarios that have it ("game:file", the form's values)
        more: list[dict] = []  # seats only an option gives (Napoleonic DBA's kriegsspiel: one per commander)
        for path in r.scenarios().values():
            loaded = r.load_scenario(path)
            for seat in r.seats(loaded, options_of(r)):
                seats.setdefault(seat.id, seat_title_in(r, seat, lang))
                where.setdefault(seat.id, []).append(f"{name}:{path.name}")
            for option, words in zip(r.options(), shown):
                for choice in option.choices:
                    if choice == option.default:
                        continue
                    extra = {s.id: seat_title_in(r, s, lang)
                             for s in r.seats(loaded, options_of(r, {option.name: choice})) if s.id not in seats}
                    if extra:
                        more.append({"label": _("%(option)s: %(choice)s, %(scenario)s", option=words.title,
                                                choice=words.label(choice),
                                                scenario=scenario_title_in(r, loaded, lang)), "seats": extra,
                                 "scenario": f"{name}:{path.name}"})
        out.append({"name": name, "title": title_in(r, lang), "options": list(shown), "seats": seats, "where": where,
                    "more_seats": more, "bots": [(bot.name, say(bot.title)) for bot in r.bots().values()],
                    "ask_kinds": {kind: say(text) for kind, text in r.ask_kinds.items()},
                    "standing": bool(standing_words_of(r))})
    return out


def of_game(values: list[str], game: str) -> list[str]:
    """The form's values for ``game``: "game:value" of that game, or a value without a game."""
    out = []
    for value in values:
        prefix, sep, rest = value.partition(":")
        if not sep:
            out.append(value)
        elif prefix == game:
            out.append(rest)
    return out


# -- read-only helpers ---------------------------------------------------------------


def my_games(email: str) -> list[dict]:
    games: dict[int, dict] = {}
    for seat in service().store.seats_of(email):
        games.setdefault(seat["game_id"], {"id": seat["game_id"], "title": seat["title"],
                                           "status": seat["status"], "sides": []})["sides"].append(seat["side"])
    for info in service().store.games():
        if (info.get("moderator") or "").lower() == email.lower() and info["id"] not in games:
            games[info["id"]] = {"id": info["id"], "title": info["title"], "status": info["status"], "sides": []}
    for item in games.values():
        game = service().game(item["id"])
        item["rules_title"] = title_in(game.ruleset, i18n.web_lang())  # which game it is, in the reader's words
        item["turn"] = service().turn_label(game, lang=i18n.web_lang())
        item["waiting"] = [s for s in item["sides"] if not game.over and s in game.turn().seats
                           and not game.orders_text(game.day, s)]
    return sorted(games.values(), key=lambda item: -item["id"])


def rules_title_of(name: str) -> str:
    """The title of the game called ``name`` in the page's language (a game not installed here: its name)."""
    try:
        return title_in(ruleset(name), i18n.web_lang())
    except UnknownGame:
        return name


def open_games() -> list[dict]:
    out = []
    for info in service().store.games("open"):
        if (info.get("settings") or {}).get("private"):
            continue  # by invitation only (pbem/server/service/invitations.py)
        bots = (info.get("settings") or {}).get("bots") or {}
        free = [s["side"] for s in service().store.seats(info["id"]) if not s["email"] and s["side"] not in bots]
        if free:
            out.append({"id": info["id"], "title": info["title"], "free": free,
                        "rules_title": rules_title_of(info["ruleset"])})
    return out


def report_for(game_id: int, day: int, side: str | None):
    """A resolved day's report for ``side`` (None: the moderator's, or the spectator's), kept while the
    game and the deadline's words (its time left) are unchanged (pbem.server.web.pagecache)."""
    game = service().game(game_id)
    if not 0 <= day < len(game.days):
        abort(404, _("Day %(day)s of game %(game)s has not been played.", day=day, game=game_id))
    lang = i18n.web_lang()
    watching = side is None and spectator(g.user, game_id)
    clock = "" if watching or game.over else service().deadline_for(game_id, side, lang=lang)
    key = (game_id, pagecache.version(game_id), day, side, watching, lang, clock)
    if watching:
        return pagecache.kept("report", key, lambda: game.ruleset.report(
            game, day, None, game_label=service().label(game_id), spectator=True, lang=lang))
    return pagecache.kept("report", key, lambda: service().report(game_id, day, side, lang=lang))


def report_body(report, without_template: bool = False) -> str:
    """The inside of a report's HTML page, to show within ours; ``without_template``: less its last
    section when that is the orders template (the game page has it once, in the orders form)."""
    match = re.search(r"<body[^>]*>(.*)</body>", report.html, re.S)
    body = match.group(1) if match else report.html
    template = getattr(report, "template", "") or ""
    cut = body.rfind("<h2")
    if without_template and template.strip() and cut >= 0 \
            and html_escape(template.strip().splitlines()[0], quote=False) in body[cut:]:
        body = body[:cut]
    return body


def order_text(game_id: int, side: str) -> str:
    """What the order form starts with: the orders on file, or the template of the side's next day."""
    on_file = service().orders_on_file(game_id, side)
    if on_file:
        return on_file
    game = service().game(game_id)
    template = ""
    if game.days and not game.over:
        template = report_for(game_id, game.days[-1].day, side).template  # the report the page shows
    elif not game.days and hasattr(service(), "opening_template"):
        template = service().opening_template(game_id, side, i18n.web_lang())
    lang = i18n.web_lang()
    headers = [line for line in template.splitlines() if HEADER_LINE.match(line)]
    header = (KEY_PART.sub("", headers[0]) if headers
              else f"GAME {game_id} SIDE {service().seat_title(game_id, side, lang)}")
    lines = [line for line in template.splitlines() if not HEADER_LINE.match(line)]
    if not lines:  # a game whose report gives no template: one comment line in the reader's language
        turn, label = game.turn(), game.turn_label(game.day, lang)
        if side in turn.seats:
            lines = [_("# Orders for %(turn)s (yours); one order per line, # starts a comment.", turn=label)]
        else:
            seats = _(" and ").join(service().seat_title(game_id, s, lang) for s in turn.seats)
            lines = [_("# Orders for %(turn)s (%(seats)s's: STANDING orders only); one order per line, # starts a "
                       "comment.", turn=label, seats=seats)]
    return "\n".join([header, *lines]).rstrip() + "\n"


def public_audit(game_id: int, sides: list[str], everything: bool) -> list[dict]:
    """The game's audit trail as these sides may read it: no other side's orders, answers or keys."""
    shown = {"side", "day", "days", "index", "title", "scenario", "count", "when", "email", "changed", "hours"}
    out = []
    for entry in service().store.read_audit(game_id):
        detail = entry["detail"]
        if not everything:
            own = detail.get("side") in sides
            detail = {k: v for k, v in detail.items() if k in shown or (own and k in ("text", "answer"))}
        out.append({**entry, "detail": detail})
    return out


PNG_WIDTHS = (480, 960, 1400)
"""The widths the map is drawn at for ``srcset`` (phone, tablet, desktop); 1400 is the mailed one."""


def kept(name: str) -> OrderedDict:
    """One of this app's small in-memory caches: "answers" (orders answers kept between a POST and
    the page it redirects to, by token), "svg" and "png" (maps)."""
    return current_app.extensions["pbem"].setdefault(name, OrderedDict())


def keep_answer(**answer) -> None:
    """Keep an orders answer for the next page this browser asks for (the redirect after a POST)."""
    token = secrets.token_urlsafe(12)
    answers = kept("answers")
    answers[token] = answer
    while len(answers) > 500:
        answers.popitem(last=False)
    session["answer"] = token


def take_answer(game_id: int) -> dict:
    """The orders answer kept for this browser's game page, once."""
    token = session.pop("answer", None)
    answer = kept("answers").pop(token, None) if token else None
    return answer if answer and answer.get("game_id") == game_id else {}


def page(game_id: int, side: str | None, result=None, text: str | None = None, standing_result=None,
         standing_text: str | None = None, checked: bool = False, status: int = 200):
    """The game page of ``side`` (already allowed by side_for), with an orders answer if any. Without
    one (and no message to flash) the page is kept (pbem.server.web.pagecache) for this reader, seat,
    language and session while the game and the clock's words on it are unchanged, and answered with an
    ETag: a browser that has it gets a 304."""
    if result is not None or text is not None or standing_result is not None or standing_text is not None \
            or checked or status != 200 or session.get("_flashes"):
        return render_page(game_id, side, result, text, standing_result, standing_text, checked), status
    return pagecache.page_sent(pagecache.keep_page(game_id, side, page_deadlines(game_id, side),
                                                   lambda: render_page(game_id, side)))


def page_deadlines(game_id: int, side: str | None) -> tuple:
    """The deadlines the page of ``side`` words with their time left, to the minute
    (pbem.server.deadlines.time_left): the game's, and the question asked of the seat, if any."""
    info = game_info(game_id)
    pending = info.get("pending")
    asked = pending["deadline"] if pending and side and pending["decision"]["side"] == side else None
    return info.get("deadline"), asked


def as_sent(html: str) -> tuple[bytes, str, bytes]:
    """A part as kept: its bytes, their ETag, and their gzip (compress's level)."""
    data = html.encode()
    return data, pagecache.etag_of(data), gzip.compress(data, 6)


def render_page(game_id: int, side: str | None, result=None, text: str | None = None, standing_result=None,
                standing_text: str | None = None, checked: bool = False) -> str:
    """The game page's HTML."""
    info = game_info(game_id)
    game = service().game(game_id)
    mine = my_sides(g.user, game_id)
    playing = side in mine
    last = game.days[-1].day if game.days else None
    report = report_for(game_id, last, side) if last is not None else None
    pending = info.get("pending")
    question = pending if pending and playing and pending["decision"]["side"] == side else None
    shown = (question or {}).get("said", {}).get(i18n.web_lang())
    if shown:  # the question and its choices as the reader's language reads them
        question = dict(question, decision=dict(question["decision"], **shown))
    question_deadline = deadlines.local_time(deadlines.parse_iso(question["deadline"]),
                                             service().seat(game_id, side)["timezone"], now=service().now(),
                                             lang=i18n.web_lang()) \
        if question else ""  # in the seat's time zone, with the time left
    standing_now = game.view(side).get("standing", {}).get(side, []) if side else []
    if playing and standing_text is None:
        on_file = service().orders_on_file(game_id, side)
        standing_text = "\n".join(line for line in on_file.splitlines() if is_standing(game.ruleset, line))
    return render_template(
        "game.html", info=info, game=game, game_id=game_id, label=service().label(game_id), side=side,
        mine=mine, playing=playing, moderator=is_moderator(g.user, game_id), spectator=side is None and
        spectator(g.user, game_id), over=game.over or info["status"] == "finished", last=last,
        report_html=report_body(report, without_template=playing and not game.over) if report else "", days=[d.day for d in game.days],
        turn=service().turn_label(game, lang=i18n.web_lang()), status=service().status(game_id, side if playing else None, lang=i18n.web_lang()),
        deadline=service().deadline_for(game_id, side, lang=i18n.web_lang()) if side else None,
        orders_text=text if text is not None else (order_text(game_id, side) if playing and not game.over else ""),
        result=result, checked=checked, standing_result=standing_result, standing_text=standing_text or "",
        standing_now=standing_now, standing_example=standing_example_of(game.ruleset), question=question, question_deadline=question_deadline, audit=public_audit(game_id, mine, is_moderator(g.user, game_id)),
        day_label=lambda day: service().turn_label(game, day, lang=i18n.web_lang()).replace(" (", ", ").rstrip(")"),
        commitment=service().commitment(game_id), seed_shown=service().seed_shown(game_id), settings=settings_list(game_id),
        rules_title=service().rules_title(game_id, i18n.web_lang()),
        options_text=service().options_text(game_id, i18n.web_lang()),
        deadline_iso=info.get("deadline") if side else None,
        **deadline_now(game_id, side),
        text_lines=(text or "").splitlines(), bots=bots_named(game, (info["settings"] or {}).get("bots", {})),
        clicks=page_grammar(game_id, game, side) if owes(game, side, playing) else None,
        clicks_url=url_for("games.map_clicks", game_id=game_id, side=side),
        map_alt=map_alt(game_id, game, side, last),
        **map_sources(game_id, last, side),
    )


def bots_named(game, bots: dict[str, str]) -> dict[str, str]:
    """A game's computer seats, seat -> its computer player as the game describes it in the page's language."""
    offered, words = game.ruleset.bots(), words_of(game.ruleset, i18n.web_lang())
    return {seat: words.gettext(offered[name].title) if name in offered else name for seat, name in bots.items()}


def map_alt(game_id: int, game, side: str | None, last: int | None) -> str:
    """The map image's text alternative, in the page's language."""
    when = service().turn_label(game, last, lang=i18n.web_lang()) if last is not None else None
    if side:
        seat = service().seat_title(game_id, side, i18n.web_lang())
        return (_("map of the game as %(seat)s sees it, after %(turn)s", seat=seat, turn=when) if when else
                _("map of the game as %(seat)s sees it, at the start", seat=seat))
    return _("map of the game, after %(turn)s", turn=when) if when else _("map of the game, at the start")


POLICY_WORDS = {"warn": N_("the player is warned"), "alert": N_("the moderator is alerted"),
                "forfeit": N_("the player forfeits")}


def weekdays() -> list[str]:
    """Monday to Sunday, abbreviated, in the page's language (CLDR's names through Babel)."""
    from babel import Locale

    names = Locale.parse(i18n.babel_locale(i18n.web_lang())).days["format"]["abbreviated"]
    return [names[d] for d in range(7)]


def settings_list(game_id: int) -> list[tuple[str, str]]:
    """A game's options and settings in words, (term, value), for the small block on its page
    and console (templates/_settings.html)."""
    info = game_info(game_id)
    rules = ruleset(info["ruleset"])
    s = deadlines.settings_with_defaults(info["settings"])
    lang = i18n.web_lang()
    out = list(service().options_text(game_id, lang))  # the game's options: its catalog's words
    if s["clock"] == "daily":
        clock = _("daily at %(at)s %(zone)s, at least 12 hours after the reports", at=s["at"], zone=s["timezone"])
    else:
        length = deadlines.day_length(s)
        hours, rest = divmod(int(length.total_seconds()), 3600)
        clock = " ".join(part for part in (
            ngettext("%(num)d hour", "%(num)d hours", hours) if hours else "",
            ngettext("%(num)d minute", "%(num)d minutes", rest // 60) if rest >= 60 else "",
            ngettext("%(num)d second", "%(num)d seconds", rest % 60) if rest % 60 else "") if part)
        clock = _("%(time)s after the reports go out", time=clock)
    if s["skip_weekdays"]:
        names = weekdays()
        clock += "; " + _("never on %(days)s", days=", ".join(names[d] for d in s["skip_weekdays"]))
    out.append((_("Deadlines"), clock))
    out.append((_("Reminders"), _("%(hours)s hours before the deadline",
                                  hours=_(" and ").join(str(h) for h in s["reminders"]))
                if s["reminders"] else _("none")))
    out.append((_("Grace"), ngettext("%(num)d minute after the deadline", "%(num)d minutes after the deadline",
                                     s["grace_minutes"]) if s["grace_minutes"] else _("none")))
    policy = POLICY_WORDS.get(s["miss_policy"])
    out.append((_("Missed days"), _("after %(limit)s: %(policy)s", limit=s["miss_limit"],
                                    policy=_(policy) if policy else s["miss_policy"])))
    out.append((_("Vacation"), ngettext("up to %(num)d day in all, per player", "up to %(num)d days in all, per player",
                                        s["vacation_days"])))
    out.append((_("Early resolution"), _("yes: as soon as every seat that owes orders marks them FINAL") if s["early"]
                else _("no: always at the deadline")))
    words = words_of(rules, lang)
    asked = [words.gettext(rules.ask_kinds[k]) if k in rules.ask_kinds else k for k in s["ask"]]
    out.append((_("Asked by mail"), ngettext("%(kinds)s (answer within %(num)d minute)",
                                             "%(kinds)s (answer within %(num)d minutes)", s["ask_minutes"],
                                             kinds="; ".join(asked)) if asked
                else _("nothing: the rules' defaults decide")))
    out.append((_("Private"), _("yes: seats by invitation only") if s["private"] else _("no: listed among the open games")))
    out.append((_("Press"), {"none": _("none"), "open": _("open: any seat to any, at any time"),
                             "game": _("the game's own rule")}[s["press"]]))
    out.append((_("Spectators"), _("once the game is over") if s["spectator_delay"] is None else
                ngettext("while it is played, %(num)d day behind, in the neutral view",
                         "while it is played, %(num)d days behind, in the neutral view", s["spectator_delay"])))
    bots = s.get("bots") or {}
    if bots:
        offered = rules.bots()
        tr = i18n.translator(lang)
        out.append((_("Computer players"), tr.listed([
            i18n.labelled(tr, service().seat_title(game_id, seat, lang),
                          words.gettext(offered[name].title) if name in offered else name)
            for seat, name in sorted(bots.items())])))
    return out


def owes(game, side: str | None, playing: bool) -> bool:
    """Map clicks write the day's orders: for the seats that owe them."""
    return playing and not game.over and side in game.turn().seats


def page_grammar(game_id: int, game, side: str) -> dict:
    """The click grammar the page carries (its verbs); the regions come after the first paint (map_clicks)."""
    grammar = click_grammar(game_id, game, side)
    return {key: value for key, value in grammar.items() if key not in ("regions", "offmap")}


def deadline_now(game_id: int, side: str | None) -> dict:
    """The deadline for the page's header: the local time alone, and the time left (the script counts it down)."""
    when = service().deadline(game_id)
    if when is None or not side:
        return {"deadline_local": "", "time_left": ""}
    lang = i18n.web_lang()
    return {"deadline_local": deadlines.local_time(when, service().seat(game_id, side)["timezone"], lang=lang),
            "time_left": deadlines.time_left(when - service().now(), lang)}


def map_sources(game_id: int, day: int | None, side: str | None) -> dict:
    """The map of the page: its SVG, its PNG at each width of ``srcset``, its size."""
    which = day if day is not None else "now"
    svg = map_svg_text(game_id, day, side)
    size = re.search(r'<svg[^>]*\swidth="([\d.]+)"[^>]*\sheight="([\d.]+)"', svg)
    return {"map_url": url_for("games.map_svg", game_id=game_id, day=which, side=side),
            "png_url": url_for("games.map_png", game_id=game_id, day=which, side=side),
            "png_srcset": ", ".join(f"{url_for('games.map_png', game_id=game_id, day=which, side=side, w=w)} {w}w"
                                    for w in PNG_WIDTHS),
            "map_size": (round(float(size.group(1))), round(float(size.group(2)))) if size else map_box(svg)}


def map_box(svg: str) -> tuple[int, int]:
    """The size of a map that gives only its viewBox (the image keeps its shape while it loads)."""
    box = re.search(r'<svg[^>]*\sviewBox="[-\d.]+[ ,]+[-\d.]+[ ,]+([\d.]+)[ ,]+([\d.]+)"', svg)
    return (round(float(box.group(1))), round(float(box.group(2)))) if box else (1400, 1327)


# -- my games, new games ---------------------------------------------------------------


@bp.route("/")
@email_required
def home():
    return render_template("home.html", games=my_games(g.user.email), open_games=open_games(),
                           ask_kinds=ASK_KINDS)


FORM_SETTINGS = {"clock": "clock", "game_timezone": "timezone", "hours": "hours", "minutes": "minutes",
                 "seconds": "seconds", "at": "at", "skip": "skip_weekdays",
                 "reminders": "reminders", "grace_minutes": "grace_minutes", "miss_policy": "miss_policy",
                 "miss_limit": "miss_limit", "vacation_days": "vacation_days", "ask": "ask",
                 "ask_minutes": "ask_minutes", "early": "early", "subturn_minutes": "subturn_minutes"}
"""The new-game form's fields and the game settings they set (pbem.server.deadlines)."""


def settings_from_form(form, given_only: bool = False) -> dict:
    """The game settings of the new-game form. ``given_only`` (the JSON API): a setting
    not sent keeps its default (pbem.server.deadlines.DEFAULTS), as the web form starts
    with them; on the web form an unticked box is sent as nothing, and means "no"."""
    def number(name, default):
        try:
            return int(form.get(name) or default)
        except (TypeError, ValueError):
            raise ServiceError("%(name)s must be a whole number", name=name.replace('_', ' ')) from None

    def yes(value) -> bool:
        return value if isinstance(value, bool) else str(value or "").strip().lower() in ("1", "true", "yes", "on")

    reminders = form.get("reminders", "")
    settings = {"clock": form.get("clock", "interval"), "timezone": form.get("game_timezone") or "UTC",
                "hours": number("hours", 48), "minutes": number("minutes", 0), "seconds": number("seconds", 0),
                "at": form.get("at") or "18:00",
                "skip_weekdays": sorted({int(d) for d in form.getlist("skip") if str(d).isdigit()}),
                "reminders": [int(h) for h in (reminders if isinstance(reminders, list)
                                               else re.findall(r"\d+", str(reminders)))],
                "grace_minutes": number("grace_minutes", 0), "miss_policy": form.get("miss_policy", "warn"),
                "miss_limit": number("miss_limit", 3), "vacation_days": number("vacation_days", 14),
                "ask": [k for k in form.getlist("ask") if k in ASK_KINDS],
                "ask_minutes": number("ask_minutes", 720), "early": yes(form.get("early")),
                "subturn_minutes": number("subturn_minutes", 720)}
    if given_only:
        settings = {name: settings[name] for field, name in FORM_SETTINGS.items() if field in form}
    settings.update(around_settings(form, given_only))  # private, press, spectator_delay
    try:
        return deadlines.settings_with_defaults(settings)
    except deadlines.SettingsError as exc:
        raise ServiceError(exc.text) from None


def game_from_form(form, available: dict[str, str]) -> tuple[str, str, dict]:
    """The game, scenario file and options chosen on a form (the new-game form, a league's, a
    tournament's): the "scenario" field ("game:file", one of ``available``) and the chosen game's
    "option.<game>.<name>" fields, each option checked as a new game checks it."""
    choice = form.get("scenario", "")
    if choice not in available:
        raise ServiceError("choose one of the scenarios offered")
    game, scenario = choice.split(":", 1)
    rules = ruleset(game)
    options = {option.name: form.get(f"option.{game}.{option.name}", option.default) for option in rules.options()}
    try:
        options_of(rules, options)
    except ValueError as exc:
        raise ServiceError(i18n.refusal_text(exc)) from None
    return game, scenario, options


@bp.route("/games/new", methods=["GET", "POST"])
@email_required
def new_game():
    available = current_app.config["PBEM_SCENARIOS"]
    form = request.form
    shown = dict(scenarios=scenarios_in(available, i18n.web_lang()), weekdays=weekdays(), games=per_game())
    if request.method == "GET":
        return render_template("new_game.html", form=MultiDict({"early": "1"}), error=None, **shown)
    try:
        title = form.get("title", "").strip()[:100]
        if not title:
            raise ServiceError("give the game a title")
        game, scenario, options = game_from_form(form, available)
        rules = ruleset(game)
        seat_ids = [s.id for s in rules.seats(service().scenario(game, scenario), options)]
        seat = next(iter(of_game(form.getlist("seat"), game)), "")
        sides = seat_ids if seat == "both" else [] if seat == "none" else [seat]
        if not set(sides) <= set(seat_ids):
            raise ServiceError("choose your seat: %(title)s has %(seats)s (or every seat, or none if you only moderate)",
                               title=title_said(rules), seats=", ".join(seat_ids))
        computer = next((c for c in of_game([c for c in form.getlist("computer") if c], game)), "")
        wrong = [c for c in form.getlist("computer") if c and not c.startswith(f"{game}:") and ":" in c]
        ticked = [s for s in of_game(form.getlist("computer_seat"), game) if s]
        bots = {}
        if computer or (wrong and not computer) or ticked:
            if not computer or computer not in rules.bots():
                raise ServiceError("choose a computer player of %(title)s: %(names)s", title=title_said(rules),
                                   names=", ".join(rules.bots()))
            unknown = [s for s in ticked if s not in seat_ids]
            if unknown:
                raise ServiceError("the computer cannot play %(seats)s: this game's seats are %(all)s",
                                   seats=", ".join(unknown), all=", ".join(seat_ids))
            if set(ticked) & set(sides):
                raise ServiceError("you take %(seats)s yourself: the computer cannot play it too",
                                   seats=", ".join(sorted(set(ticked) & set(sides))))
            bots = {s: computer for s in (ticked or seat_ids) if s not in sides}
        asked = of_game(form.getlist("ask"), game)
        unknown = [k for k in asked if k not in rules.ask_kinds]
        kept_back = [k for k in asked if k in rules.ask_kinds and k not in ask_kinds_in(rules, options)]
        if kept_back:
            raise ServiceError("with these options %(title)s never asks %(names)s by mail: the question would name "
                               "the enemy as only the umpire knows it (the default answers)",
                               title=title_said(rules), names=", ".join(kept_back))
        if unknown:
            if rules.ask_kinds:
                raise ServiceError("%(title)s asks no %(names)s decision by mail (it may ask: %(kinds)s)",
                                   title=title_said(rules), names=", ".join(unknown), kinds=", ".join(rules.ask_kinds))
            raise ServiceError("%(title)s asks no %(names)s decision by mail", title=title_said(rules), names=", ".join(unknown))
        moderator = form.get("moderator", "").strip() or (g.user.email if seat in ("both", "none") else None)
        if moderator and moderator.lower() == g.user.email.lower() and seat not in ("both", "none"):
            raise ServiceError("you cannot moderate a game in which you play one side: a moderator sees both")
        timezone = form.get("timezone") or "UTC"
        deadlines.zone(timezone)
        fields = MultiDict(form)
        fields.setlist("ask", asked)
        game_id, _keys = service().create_game(
            title, {s: g.user.email for s in sides}, scenario=scenario, settings=settings_from_form(fields),
            moderator=moderator, who=g.user.email, timezones={s: timezone for s in sides}, game=game,
            options=options, bots=bots)
    except (ServiceError, deadlines.SettingsError) as exc:
        return render_template("new_game.html", form=form, error=i18n.error_text(exc, i18n.web_lang()), **shown), 400
    mine = (moderator or "").lower() == g.user.email.lower()
    if sides:
        flash(_("Game created. Your seat key was mailed to you; you need it only to send orders by mail."))
    else:
        flash(_("Game created. You moderate it; the seats are open for players to join.") if mine else
              _("Game created. %(moderator)s moderates it; the seats are open for players to join.",
                moderator=moderator))
    if not sides:
        return redirect(url_for("moderator.console", game_id=game_id) if mine else url_for("games.home"))
    return redirect(url_for("games.game_page", game_id=game_id))


@bp.route("/games/<int:game_id>/join", methods=["POST"])
@email_required
def join(game_id: int):
    side = request.form.get("side", "")
    if side not in service().seat_titles(game_id):
        abort(404, _("Game %(game)s has no side %(side)r.", game=game_id, side=side))
    moderator = (game_info(game_id).get("moderator") or "").lower()
    if moderator == g.user.email.lower() and not my_sides(g.user, game_id):
        raise ServiceError("the game's moderator cannot take a seat in it: a moderator sees both sides")
    timezone = request.form.get("timezone") or "UTC"
    try:
        deadlines.zone(timezone)
    except deadlines.SettingsError as exc:
        raise ServiceError(exc.text) from None
    service().join(game_id, side, g.user.email, timezone=timezone)
    flash(_("You play %(seat)s. Your seat key was mailed to you.",
            seat=service().seat_title(game_id, side, i18n.web_lang())))
    return redirect(url_for("games.game_page", game_id=game_id, side=side))


# -- the game page and its forms ----------------------------------------------------------


@bp.route("/games/<int:game_id>")
def game_page(game_id: int):
    same = pagecache.kept_page(game_id)  # the same request answered before, the game unchanged: nothing else read
    if same is not None:
        return pagecache.page_sent(same)
    game_info(game_id)
    if g.user is None and not is_finished(game_id):
        return redirect(url_for("auth.login", next=request.full_path.rstrip("?")))
    wanted = request.args.get("side")
    mine = my_sides(g.user, game_id)
    answer = take_answer(game_id) if g.user is not None else {}
    if wanted is None and answer:
        wanted = answer["side"]
    if wanted is None and mine:
        wanted = mine[0]
    side = side_for(g.user, game_id, wanted)
    if answer.get("side") != side:
        answer = {}
    answer.pop("game_id", None)
    answer.pop("side", None)
    return page(game_id, side, **answer)


@bp.route("/games/<int:game_id>/orders", methods=["POST"])
@email_required
def orders(game_id: int):
    side = side_for(g.user, game_id, request.form.get("side"), write=True)
    text = request.form.get("text", "")
    if request.form.get("final") and not FINAL_LINE.search(text):
        text = text.rstrip("\n") + "\nFINAL\n"
    checked = request.form.get("action") == "check"
    if checked:
        result, _orders = service().check_orders(game_id, side, text, i18n.web_lang())
    else:
        day = service().game(game_id).day
        result = service().submit(game_id, side, text, source="web", who=g.user.email, lang=i18n.web_lang())
        if result.ok:  # orders marked FINAL (in any language) by the last seat: the day is resolved now, so the
            service().resolve_if_ready(game_id)  # page that follows shows the new day, not a stale one
            if service().game(game_id).day != day:
                text = None  # the orders box holds the new day's form, not the orders of the day resolved
    # post-redirect-get: a refresh shows the answer again, never posts again
    keep_answer(game_id=game_id, side=side, result=result, text=text, checked=checked)
    return redirect(url_for("games.game_page", game_id=game_id, side=side) + "#orders-result", 303)


def is_standing(rules, line: str) -> bool:
    """Does ``line`` begin with the game's STANDING word in any language it reads (PERMANENT, 常备...)?"""
    words = standing_words_of(rules)
    return leading_word(line.strip(), words) in words


@bp.route("/games/<int:game_id>/standing", methods=["POST"])
@email_required
def standing(game_id: int):
    """Standing orders only: they join (replace) the STANDING lines of the orders on file."""
    side = side_for(g.user, game_id, request.form.get("side"), write=True)
    text = request.form.get("text", "")
    lines = [line for line in text.splitlines() if line.strip() and not line.strip().startswith("#")
             and not HEADER_LINE.match(line)]
    rules = service().game(game_id).ruleset
    example = standing_example_of(rules)
    if not example:
        raise ServiceError("this game has no standing orders: its choices are asked or take their documented "
                           "defaults (the game settings' ask)")
    wrong = [n for n, line in enumerate(lines, 1) if not is_standing(rules, line)]
    if wrong:
        raise ServiceError("this form takes only %(word)s lines, such as %(example)s; send other orders with the "
                           "orders form", word=example.split()[0], example=example)
    kept = [line for line in service().orders_on_file(game_id, side).splitlines()
            if not is_standing(rules, line) and not HEADER_LINE.match(line)]
    merged = "\n".join([f"GAME {game_id} SIDE {service().seat_title(game_id, side)}", *kept, *lines]) + "\n"
    result = service().submit(game_id, side, merged, source="web", who=g.user.email, lang=i18n.web_lang())
    keep_answer(game_id=game_id, side=side, standing_result=result, standing_text=text)
    return redirect(url_for("games.game_page", game_id=game_id, side=side) + "#standing-result", 303)


@bp.route("/games/<int:game_id>/vacation", methods=["POST"])
@email_required
def vacation(game_id: int):
    side = side_for(g.user, game_id, request.form.get("side"), write=True)
    days = request.form.get("days", "")
    if not days.isdigit():
        raise ServiceError("a vacation is a whole number of days")
    new = service().vacation(game_id, side, int(days), who=g.user.email)
    zone = service().seat(game_id, side)["timezone"]
    flash(_("Vacation taken. The deadline is now %(deadline)s.", deadline=deadlines.local_time(new, zone, lang=i18n.web_lang())))
    return redirect(url_for("games.game_page", game_id=game_id, side=side))


@bp.route("/games/<int:game_id>/key", methods=["POST"])
@email_required
def rotate_key(game_id: int):
    side = side_for(g.user, game_id, request.form.get("side"), write=True)
    key = service().rotate_key(game_id, side, who=g.user.email)
    return render_template("key.html", game_id=game_id, label=service().label(game_id), side=side, key=key)


@bp.route("/games/<int:game_id>/answer", methods=["POST"])
@email_required
def answer(game_id: int):
    side = side_for(g.user, game_id, request.form.get("side"), write=True)
    index = request.form.get("index", "")
    if not index.isdigit():
        abort(400, _("Which question?"))
    flash(service().answer(game_id, side, int(index), request.form.getlist("choice")))
    return redirect(url_for("games.game_page", game_id=game_id, side=side))


# -- reports and maps ------------------------------------------------------------------


@bp.route("/games/<int:game_id>/reports/<int:day>")
def report_page(game_id: int, day: int):
    side = side_for(g.user, game_id, request.args.get("side"))
    report = report_for(game_id, day, side)
    if request.args.get("format") == "text":
        return Response(report.text, mimetype="text/plain")
    return render_template("day.html", game_id=game_id, label=service().label(game_id), side=side, day=day,
                           days=[d.day for d in service().game(game_id).days], report_html=report_body(report),
                           subject=report.subject, clicks=None, map_alt=f"map of {report.subject}",
                           **map_sources(game_id, day, side))


def map_day(game_id: int, day: str) -> int | None:
    if day == "now":
        return None
    game = service().game(game_id)
    if not day.isdigit() or int(day) >= len(game.days):
        abort(404, _("Day %(day)s of game %(game)s has not been played.", day=day, game=game_id))
    return int(day)


def _kept(cache: OrderedDict, key, make, size: int):
    if key in cache:
        cache.move_to_end(key)
        return cache[key]
    value = cache[key] = make()
    while len(cache) > size:
        cache.popitem(last=False)
    return value


def map_side(game_id: int, side: str | None) -> str | None:
    """The side a map is drawn for: a seat's, None for the moderator's, SPECTATOR for an onlooker's (captioned as
    a spectator's). Every cache of a map is keyed by this, so that one reader's map never reaches another."""
    if side is None and spectator(g.user, game_id):
        return SPECTATOR
    return side


def map_svg_text(game_id: int, day: int | None, side: str | None) -> str:
    """The SVG of a day's map (None: now) as ``side`` sees it, kept while the game is unchanged; side None
    is the moderator's map, or an onlooker's (SPECTATOR: captioned as a spectator's, not as the moderator's)."""
    lang = i18n.web_lang()
    side = map_side(game_id, side)
    key = (game_id, day, side, pagecache.version(game_id), lang)
    return _kept(kept("svg"), key, lambda: service().map_svg(game_id, day, side, lang), 64)


def image_response(data: bytes, mimetype: str, day: int | None, tag: str = "", packed: bytes = b"") -> Response:
    """An image with its ETag (``tag``, else made from ``data``): a past day's map never changes (a year's
    caching), today's may. ``packed``: the image gzipped already, sent to a browser that takes gzip."""
    tag = tag or pagecache.etag_of(data)
    gzipped = bool(packed) and "gzip" in request.headers.get("Accept-Encoding", "")
    if pagecache.not_modified(tag):
        response = Response(status=304)
    elif gzipped:
        response = Response(packed, mimetype=mimetype)
        response.headers["Content-Encoding"] = "gzip"
    else:
        response = Response(data, mimetype=mimetype)
    if packed:
        response.vary.add("Accept-Encoding")
    response.set_etag(tag + "-gz" if gzipped else tag)
    response.headers["Cache-Control"] = "private, max-age=31536000, immutable" if day is not None else \
        "private, no-cache"
    response.vary.add("Cookie")
    return response


@bp.route("/games/<int:game_id>/map/<day>.svg")
def map_svg(game_id: int, day: str):
    side = map_side(game_id, side_for(g.user, game_id, request.args.get("side")))
    number = map_day(game_id, day)
    key = (game_id, pagecache.version(game_id), number, side, i18n.web_lang())
    data, tag, packed = pagecache.kept("svg", key, lambda: as_sent(
        clicklayer.unmarked(map_svg_text(game_id, number, side))))
    response = image_response(data, "image/svg+xml", number, tag, packed)
    response.headers["Content-Security-Policy"] = "default-src 'none'; style-src 'unsafe-inline'; img-src data:"
    return response


@bp.route("/games/<int:game_id>/map/clicks.json")
def map_clicks(game_id: int):
    """What may be clicked on today's map of the seat that owes orders: its own blocks and the places
    (pbem.server.web.clicklayer), read from that seat's map; fetched by the page after its first paint."""
    side = side_for(g.user, game_id, request.args.get("side"))
    game = service().game(game_id)
    if not owes(game, side, side in my_sides(g.user, game_id)):
        abort(404, _("No orders by clicking: this seat owes no orders now."))
    grammar = click_grammar(game_id, game, side)
    if not grammar:
        abort(404, _("This game takes its orders as text only."))
    key = (game_id, pagecache.version(game_id), side, i18n.web_lang())
    data, tag = pagecache.kept("clicks", key, lambda: clicks_json(grammar, map_svg_text(game_id, None, side)))
    response = Response(status=304) if pagecache.not_modified(tag) else \
        current_app.response_class(data, mimetype="application/json")
    response.set_etag(tag)
    response.headers["Cache-Control"] = "private, no-cache"
    response.vary.add("Cookie")
    return response


def clicks_json(grammar: dict, svg: str) -> tuple[bytes, str]:
    """The click data of a map (its regions) as sent, and its ETag."""
    data = json.dumps(clicklayer.regions(grammar, svg), separators=(",", ":")).encode()
    return data, pagecache.etag_of(data)


def click_grammar(game_id: int, game, side: str) -> dict:
    """The game's click grammar for ``side``'s view now, kept while the game is unchanged."""
    lang = i18n.web_lang()
    return pagecache.kept("grammar", (game_id, pagecache.version(game_id), side, lang),
                          lambda: game.ruleset.map_clicks(game.scenario, game.view(side), lang=lang))


@bp.route("/games/<int:game_id>/map/offers.json", methods=["POST"])
def map_offers(game_id: int):
    """Which of the order lines the click layer would write the orders check accepts, written into the
    seat's text as it stands (pbem.server.web.clicklayer.offers). JSON in: {side, text, at, replace,
    lines}; out: {"offers": [{"ok", "why"}, ...]}, one a line."""
    body = request.get_json(silent=True)
    if not isinstance(body, dict) or not isinstance(body.get("text"), str) or not isinstance(body.get("lines"), list) \
            or not all(isinstance(line, str) and "\n" not in line for line in body["lines"]) \
            or not isinstance(body.get("at"), int) or len(body["lines"]) > clicklayer.MAX_OFFERS:
        abort(400, _("Send JSON: %(example)s (at most %(lines)s lines).",
                     example='{"side": "france", "text": "...", "at": 3, "replace": false, "lines": ["MOVE ..."]}',
                     lines=clicklayer.MAX_OFFERS))
    side = side_for(g.user, game_id, body.get("side"), write=True)
    game = service().game(game_id)
    if not owes(game, side, side in my_sides(g.user, game_id)):
        abort(404, _("No orders by clicking: this seat owes no orders now."))

    def check(text: str):
        result, _orders = service().check_orders(game_id, side, text, i18n.web_lang())
        return result.problems

    found = clicklayer.offers(check, body["text"], body["at"], bool(body.get("replace")), body["lines"])
    response = current_app.response_class(json.dumps({"offers": found}, separators=(",", ":")),
                                          mimetype="application/json")
    response.headers["Cache-Control"] = "no-store"
    return response


@bp.route("/games/<int:game_id>/map/<day>.png")
def map_png(game_id: int, day: str):
    """A day's map as PNG, ``?w=`` one of PNG_WIDTHS (default: the mailed 1400). The mailed width is
    drawn once per content (pbem.server.mapcache, shared with the report mails, one drawing however
    many ask at once); every image carries an ETag, so a browser that has it gets a 304."""
    side = map_side(game_id, side_for(g.user, game_id, request.args.get("side")))
    number = map_day(game_id, day)
    width = request.args.get("w", type=int) or PNG_WIDTHS[-1]
    if width not in PNG_WIDTHS:
        abort(404, _("The map is drawn %(widths)s pixels wide.", widths=", ".join(map(str, PNG_WIDTHS))))
    key = (game_id, pagecache.version(game_id), number, side, i18n.web_lang(), width)
    png, tag = pagecache.kept("png", key, lambda: png_drawn(map_svg_text(game_id, number, side), width))
    return image_response(png, "image/png", number, tag)


def png_drawn(svg: str, width: int) -> tuple[bytes, str]:
    """The map ``svg`` as PNG ``width`` pixels wide, and its ETag."""
    if width == PNG_WIDTHS[-1]:
        _digest, png = service().maps.png(svg, service().rasterise)
    else:
        from pbem.render import render_png

        png = _kept(kept("png"), (hashlib.sha256(svg.encode()).digest(), width), lambda: render_png(svg, width), 32)
    return png, pagecache.etag_of(png)


@bp.route("/favicon.ico")
def favicon():
    return current_app.send_static_file("favicon.svg")


COMPRESSED = ("text/html", "text/css", "image/svg+xml", "application/json", "text/plain", "text/javascript",
              "application/javascript")


@bp.after_app_request
def compress(response: Response) -> Response:
    """gzip for text (HTML, CSS, SVG, JSON, scripts) when the browser takes it."""
    if (response.status_code != 200 or "Content-Encoding" in response.headers
            or response.mimetype not in COMPRESSED or "gzip" not in request.headers.get("Accept-Encoding", "")):
        return response
    response.direct_passthrough = False  # a static file: read it to compress it
    data = response.get_data()
    if len(data) < 600:
        return response
    response.set_data(gzip.compress(data, 6))
    response.headers["Content-Encoding"] = "gzip"
    response.vary.add("Accept-Encoding")
    if response.get_etag()[0]:
        response.set_etag(response.get_etag()[0] + "-gz")
    return response
