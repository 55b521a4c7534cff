"""Orders: checked against the position as its ruleset reads them, the same answer by
mail and on the web, and recorded in the game's log."""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from pbem.server import deadlines, i18n
from pbem.core.orders import HEADER_ALIASES, OrdersError, Problem

from .base import ServiceBase


@dataclass
class Submission:
    ok: bool
    game_id: int
    side: str
    day: int = 0
    turn: str = ""
    echo: str = ""
    problems: list[Problem] = field(default_factory=list)
    final: bool = False
    standing_only: bool = False
    seat_title: str = ""
    deadline: str = ""  # the day's deadline, as the seat reads it
    warnings: list[str] = field(default_factory=list)  # orders that depend on the enemy (the ruleset says)
    lang: str = "en"  # the language of the answer: the seat's player's

    def message(self) -> str:
        tr = i18n.translator(self.lang)
        if self.ok:
            where = dict(game=self.game_id, seat=self.seat_title or self.side, turn=self.turn)
            lines = [tr.gettext("Standing orders accepted for game %(game)s, %(seat)s, %(turn)s. They replace any "
                                "you sent before for this day.", **where) if self.standing_only else
                     tr.gettext("Orders accepted for game %(game)s, %(seat)s, %(turn)s. They replace any you sent "
                                "before for this day.", **where), ""]
            lines += [f"  {line}" for line in (self.echo or tr.gettext("(no orders: standing orders still apply)"))
                      .splitlines()]
            if self.warnings:
                lines += ["", tr.gettext("They will be carried out unless the enemy's actions prevent it. These "
                                         "depend on what happens during the day:"), ""]
                lines += [f"  - {w}" for w in self.warnings]
            if self.final:
                lines += ["", tr.gettext("You marked them FINAL: the day may be resolved before the deadline.")]
            if self.deadline:
                lines += ["", tr.gettext("Deadline: %(deadline)s.", deadline=self.deadline)]
            return "\n".join(lines)
        lines = [tr.gettext("Your orders for game %(game)s were NOT accepted. Nothing was changed; correct these "
                            "and send them again:", game=self.game_id), ""]
        lines += [f"  - {problem_text(p, self.lang)}" for p in self.problems]
        if self.deadline:
            lines += ["", tr.gettext("Deadline: %(deadline)s.", deadline=self.deadline)]
        return "\n".join(lines)


def problem_text(problem: Problem, lang: str = "en") -> str:
    """A problem of the orders as the player reads it: its line and column, in his language (the
    frame from the core's catalog, pbem.core.orders; the message itself comes from the ruleset,
    which wrote it in that language)."""
    return problem.in_language(lang)


def _header_words(key: bool, chinese: bool) -> str:
    """KEY's words (or the other header words), those of Chinese (which need no spaces around them) or the others."""
    words = [w for w, k in HEADER_ALIASES.items() if (k == "KEY") == key and ("\u4e00" <= w[0] <= "\u9fff") == chinese]
    return "|".join(sorted((re.escape(w) for w in words), key=len, reverse=True))


KEY_SPACE = rf"(?:(?<!\w)(?:{_header_words(True, False)})\s+|(?:{_header_words(True, True)})\s*)"
"""KEY or its word in any language and the space before the key (CLÉ, КЛЮЧ; 密钥, which Chinese writes without
one): the key is the text after it, to its next space (a header's here, every key of a mail on the moderator's
console, a forwarded form's in the inbox)."""

KEY_WORD = re.compile(rf"(?im)^(\s*(?:(?:(?:{_header_words(False, False)})(?!\w)|{_header_words(False, True)}).*?)?"
                      rf"{KEY_SPACE})(\S+)")
"""The header's key, after KEY or its word in any language (CLÉ, КЛЮЧ, 密钥), Chinese written without spaces
too (``对局7密钥abc``)."""


def redact_key(text: str) -> str:
    """The orders text with the header's secret key replaced, for storing and showing."""
    return KEY_WORD.sub(lambda m: m.group(1) + "***", text, count=1)


class Orders(ServiceBase):

    def check_orders(self, game_id: int, side: str, text: str, lang: str | None = None) -> tuple[Submission, object]:
        """Check a side's orders for the coming day without recording them.

        Returns the answer the player gets (the same words by mail and on the
        web) and the parsed orders (None when refused).
        """
        info = self.info(game_id)
        game = self.game(game_id)
        in_game = side in game.seats()
        lang = lang or (self.lang_of(game_id, side) if in_game else "en")
        tr = i18n.translator(lang)
        result = Submission(False, game_id, side, game.day, self.turn_label(game, lang=lang),
                            seat_title=self.seat_title(game_id, side, lang), lang=lang)
        if in_game and not game.over:
            result.deadline = self.deadline_for(game_id, side, lang=lang)
        if info["status"] == "finished" or game.over:
            result.problems = [Problem(1, 1, tr.gettext("game %(game)s is over; it takes no more orders", game=game_id))]
            return result, None
        if not in_game:
            result.problems = [Problem(1, 1, tr.gettext("no seat called %(side)r", side=side))]
            return result, None
        try:
            orders = game.ruleset.check_orders(game.scenario, game.state, side, text, lang=lang)
        except OrdersError as exc:
            result.problems = exc.problems
            return result, None
        if orders.header.game is not None and str(orders.header.game).lstrip("#") != str(game_id):
            result.problems = [Problem(orders.header.line or 1, 1,
                                       tr.gettext("these orders name game %(named)s, not %(game)s",
                                                  named=orders.header.game, game=game_id))]
            return result, None
        result.ok = True
        result.echo = orders.echo()
        written = getattr(game.ruleset, "orders_language", None)  # optional (pbem.core.ruleset)
        words = written(text, lang) if written is not None else lang
        if words != lang:  # echoed in the words the player wrote them in (docs/orders.md, on the echo)
            result.echo = game.ruleset.check_orders(game.scenario, game.state, side, text, lang=words).echo()
        result.final = orders.final
        result.warnings = list(getattr(orders, "warnings", ()))
        result.standing_only = side not in game.turn().seats
        return result, orders

    def submit(self, game_id: int, side: str, text: str, source: str = "web", who: str = "",
               lang: str | None = None) -> Submission:
        """Check a side's orders for the coming day and, if they are good, record them.

        The last accepted orders of a side for a day count; all are kept.
        """
        with self.lock:
            logged = redact_key(text)  # the text as stored; the check reads it (the answer's echo has no header)
            result, orders = self.check_orders(game_id, side, logged, lang)
            if not result.ok:
                return result
            game = self.game(game_id)
            entry = {"kind": "orders", "day": game.day, "side": side, "text": logged, "source": source,
                     "by": who, "at": deadlines.iso(self.now())}
            parsed = game.stored_parse(side, logged, orders)  # what a replay reads in it (pbem.core.parsed)
            if parsed is not None:
                entry["parsed"] = parsed
            with self.store.transaction():
                self.store.append_log(game_id, entry)
                if side in game.turn().seats:  # the last orders count: amended without FINAL, they are not final
                    self.store.mark_final(game_id, side, game.day if orders.final else None)
            game.log.append(entry)
            return result

    def orders_on_file(self, game_id: int, side: str) -> str:
        game = self.game(game_id)
        return game.orders_text(game.day, side)
