"""Reports and maps: each seat's, drawn by its game's ruleset from what that seat may see,
mailed with the seat's view; the STATUS answer."""

from __future__ import annotations

from concurrent.futures import Future
from datetime import datetime

import html
import re

from pbem.core.game import Game
from pbem.server import i18n
from pbem.server.drawing import map_picture
from pbem.server.mail.outbox import Drawn, queue

from .base import ServiceBase, ServiceError
from .games import view_json


class Reports(ServiceBase):

    def report(self, game_id: int, day: int, side: str | None, corrected: str = "",
               deadline: datetime | None = None, lang: str | None = None):
        """Seat ``side``'s report of ``day`` (None: the moderator's), telling the next deadline
        (``deadline``: one about to be set), a ruling that corrected it, and a day the seat missed;
        in ``lang`` (else the seat's player's language)."""
        game = self.game(game_id)
        lang = lang or self.lang_of(game_id, side)
        tr = i18n.translator(lang)
        when = self.deadline_for(game_id, side, deadline, lang=lang) if not game.over else None
        report = game.ruleset.report(game, day, side, deadline=when, game_label=self.label(game_id),
                                     game_id=str(game_id), lang=lang)
        if side and day < len(game.days) and side in game.days[day].seats and not game.orders_text(day, side):
            notice(report, tr.gettext("No orders from you arrived for this day before its deadline: it was played "
                                      "with your standing orders only, and counts as a missed day."))
        if corrected:
            notice(report, tr.gettext("CORRECTED REPORT. A moderator ruled: %(ruling)s", ruling=corrected))
        return report

    def map_png(self, game_id: int, day: int | None, side: str | None, lang: str = "en") -> bytes:
        return self.maps.png(self.map_svg(game_id, day, side, lang), self.rasterise)[1]  # drawn once per content

    def attachment(self, ref: dict) -> bytes:
        """An attachment kept in the outbox as a reference (outbox.Drawn), drawn again from the log:
        ``{"map": [game, day, side, lang], "svg": digest}`` (from the map cache when it still has that
        picture) or ``{"view": [game, day, side]}``."""
        if "map" in ref:
            kept = self.maps.get(ref.get("svg", ""))
            return kept if kept is not None else self.map_png(*ref["map"])
        if "view" in ref:
            game_id, day, side = ref["view"]
            return view_json(self.game(game_id), side, day)
        raise ValueError(f"no attachment is drawn from {sorted(ref)}")

    @staticmethod
    def rasterise(svg: str) -> bytes:
        """SVG to PNG, here; the server replaces this with a worker process (pbem.server.serve),
        since the rasteriser holds the interpreter for most of a second a map."""
        from pbem.render import render_png

        return render_png(svg)

    drawing = None  # an executor whose workers draw maps whole (pbem.server.serve's); None: drawn here

    def map_ordered(self, game_id: int, day: int | None, side: str | None, lang: str = "en") -> Future:
        """Seat ``side``'s map of ``day``, ordered: a future of (the SVG's digest, the PNG). With drawing
        workers (``drawing``), this process takes only the seat's view, and a worker builds the SVG and
        the PNG (pbem.server.drawing); without, the map is drawn here and now (``rasterise``)."""
        if self.drawing is None:
            ordered = Future()
            try:
                ordered.set_result(self.maps.png(self.map_svg(game_id, day, side, lang), self.rasterise))
            except Exception as exc:  # met when the map is asked for
                ordered.set_exception(exc)
            return ordered
        game, info = self.game(game_id), self.info(game_id)
        return self.drawing.submit(map_picture, info["ruleset"], info["scenario"], game.view(side, day),
                                   self.label(game_id), lang)

    def maps_ordered(self, game_id: int, day: int, only: str | None = None) -> dict[str, Future]:
        """The maps of ``day``'s reports (each seat with an address, or seat ``only``), ordered, by seat."""
        return {seat["side"]: self.map_ordered(game_id, day, seat["side"], self.store.language_of(seat["email"]))
                for seat in self.store.seats(game_id) if seat["email"] and only in (None, seat["side"])}

    def map_kept(self, ordered: Future) -> str:
        """The digest of an ordered map once it is drawn, its PNG kept in the map cache (where the
        outbox finds the report's attachment)."""
        key, png = ordered.result(timeout=300)  # pragma: no mutate (how long a hung worker is waited for)
        self.maps.keep(key, png)
        return key

    def map_svg(self, game_id: int, day: int | None, side: str | None, lang: str = "en") -> str:
        game = self.game(game_id)
        return game.ruleset.render_svg(game.scenario, game.view(side, day), title=self.label(game_id), lang=lang)

    @staticmethod
    def rewinds(game: Game) -> int:
        """How many rulings have rewound the game: the version of its reports."""
        return sum(1 for e in game.log if e["kind"] == "rewind")

    def draw_reports(self, game_id: int, day: int, corrected: str = "", version: int | None = None,
                     only: str | None = None, deadline: datetime | None = None,
                     maps: dict[str, Future] | None = None) -> list[dict]:
        """Each seat's (or seat ``only``'s) report mail of ``day``: the arguments of
        outbox.queue, drawn, not yet queued. One mail per seat and version (a
        ruling makes a new version). ``deadline``: the next one, about to be set.
        ``maps``: the reports' maps ordered before (``maps_ordered``), else ordered now; each is
        drawn once, while the reports are written."""
        maps = self.maps_ordered(game_id, day, only) if maps is None else maps
        game = self.game(game_id)
        version = self.rewinds(game) if version is None else version
        mails = []
        for seat in self.store.seats(game_id):
            if not seat["email"] or only not in (None, seat["side"]):
                continue
            side = seat["side"]
            lang = self.store.language_of(seat["email"])
            report = self.report(game_id, day, side, corrected, deadline, lang=lang)
            digest = self.map_kept(maps.get(side) or self.map_ordered(game_id, day, side, lang))  # drawn once, kept
            html = report.html.replace("</body>", '<p><img src="cid:map" alt="map" style="max-width:100%"></p>'
                                                  "</body>")
            tag = f"[pbem {game_id}]"  # one subject scheme for every game: the tag first
            subject = report.subject if report.subject.startswith(tag) else f"{tag} {report.subject}"
            subject = ("[" + i18n.translate(lang, "corrected") + "] " if corrected else "") + subject
            mails.append(dict(to=seat["email"], subject=subject, body=report.text, html=html,
                              attachments=[("map.png", "image/png", Drawn(map=[game_id, day, side, lang], svg=digest),
                                             "map"),
                                           ("view.json", "application/json", Drawn(view=[game_id, day, side]),
                                            None)],
                              kind="report", game_id=game_id, dedupe_key=f"report:{game_id}:{day}:{side}:{version}"))
        return mails

    def resend_report(self, game_id: int, side: str) -> None:
        game = self.game(game_id)
        if not game.days:
            raise ServiceError("no day has been resolved yet")
        for mail in self.draw_reports(game_id, game.days[-1].day, only=side):
            mail["dedupe_key"] = None  # asked for again: sent again
            queue(self.store, **mail)

    def status(self, game_id: int, side: str | None = None, lang: str | None = None) -> str:
        """The STATUS answer: the game's state, the next turn, the deadline, whose orders are in,
        and the ruleset's lines; in ``lang`` (else the seat's player's language)."""
        info = self.info(game_id)
        game = self.game(game_id)
        lang = lang or self.lang_of(game_id, side)
        tr = i18n.translator(lang)
        status = i18n.STATUS.get(info["status"])
        lines = [tr.gettext("Game %(game)s: %(status)s.", game=self.label(game_id),
                            status=tr.gettext(status) if status else info["status"])]
        if game.over:
            lines.append(game.view(None)["victory"])
        else:
            lines.append(tr.gettext("Next: %(turn)s.", turn=self.turn_label(game, lang=lang)))
            if side:
                lines.append(tr.gettext("Deadline: %(deadline)s.", deadline=self.deadline_for(game_id, side, lang=lang)))
            for seat in game.turn().seats:
                title = self.seat_title(game_id, seat, lang)
                lines.append(tr.gettext("Orders from %(seat)s: received.", seat=title)
                             if game.orders_text(game.day, seat) else
                             tr.gettext("Orders from %(seat)s: not yet.", seat=title))
        lines += game.ruleset.status_lines(game, side, lang=lang)
        return "\n".join(lines)


def notice(report, text: str) -> None:
    """Put ``text`` first in every form of ``report``, in bold."""
    report.markdown = f"**{text}**\n\n{report.markdown}"
    report.text = f"{text}\n\n{report.text}"
    report.html = re.sub(r"(<body[^>]*>)", lambda m: f"{m.group(1)}<p><strong>{html.escape(text)}</strong></p>",
                         report.html, count=1)

