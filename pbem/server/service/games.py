"""Creating games and taking seats: the options and seats a ruleset offers, the seed and
its published commitment, the welcome mail with the first orders template."""

from __future__ import annotations

import json
import secrets
from datetime import datetime

from pbem.server import addresses, deadlines, i18n, throttle
from pbem.server.addresses import one_line
from pbem.core.chance import DICE_KEYED, DICE_PLAIN, SEED_BITS
from pbem.core.game import Game
from pbem.core.ruleset import options_of, title_said
from pbem.games import UnknownGame, ruleset
from pbem.server.mail.outbox import queue
from pbem.server.store import new_key

from .base import TITLE_LIMIT, ServiceBase, ServiceError


class Games(ServiceBase):

    def create_game(self, title: str, seats: dict[str, str | None], scenario: str | None = None,
                    seed: int | None = None, settings: dict | None = None, moderator: str | None = None,
                    who: str = "system", timezones: dict | None = None, game: str = "marengo",
                    options: dict | None = None, bots: dict[str, str] | None = None,
                    dice: int | None = None, moderator_known: bool = False) -> tuple[int, dict[str, str]]:
        """Create a game of the ruleset called ``game``; returns its id and each seat's key
        (shown once, mailed once). ``scenario`` is a scenario file under maps/ (default: the
        game's first), ``options`` the ruleset's options (default: each option's default),
        ``bots`` the seats the computer plays (seat -> one of the ruleset's ``bots()``).

        The dice (pbem.core.chance): without ``seed``, a seed of 256 random bits and the keyed
        derivation (version 2), what every game of the site gets. A ``seed`` given (a test's, a
        tool's: a game played again the same) keeps version 1 unless ``dice`` says otherwise;
        such a game's dice are known to whoever chose its seed."""
        try:
            rules = ruleset(game)
            scenario = scenario or next(iter(rules.scenarios().values())).name
            options = options_of(rules, options)
            settings = deadlines.settings_with_defaults(settings)
            loaded = self.scenario(game, scenario)
        except (deadlines.SettingsError, UnknownGame, ValueError) as exc:
            raise ServiceError(i18n.refusal_text(exc)) from None
        if seed is None:
            seed, dice = secrets.randbits(SEED_BITS[DICE_KEYED]), DICE_KEYED
        dice = DICE_PLAIN if dice is None else dice
        title = one_line(title, TITLE_LIMIT)  # a title is one line: it heads reports and mails
        moderator = self.moderator_address(moderator, "system" if moderator_known else who)
        keys = {}
        seat_ids = [seat.id for seat in rules.seats(loaded, options)]
        unknown = set(seats or {}) - set(seat_ids)
        if unknown:
            raise ServiceError("%(title)s has no seat %(names)s (seats: %(names2)s)",
                               title=title_said(rules), names=', '.join(sorted(unknown)), names2=', '.join(seat_ids))
        bots = self.check_bots(rules, seat_ids, bots)
        if bots:
            settings = {**settings, "bots": bots}
        with self.lock, self.store.transaction():  # the service's lock first (ServiceLock)
            game_id = self.store.create_game(game, scenario, seed, title, settings, options=options,
                                             salt=secrets.token_hex(16), dice=dice)
            for side in seat_ids:
                email = (seats or {}).get(side)
                self.store.add_seat(game_id, side, email=email, timezone=(timezones or {}).get(side, "UTC"))
                keys[side] = new_key()
                self.set_key(game_id, side, keys[side])
            if moderator:
                self.store.set_moderator(game_id, moderator)
            self.store.audit(who, "create", game_id, detail={"title": title, "game": game, "scenario": scenario,
                                                             "options": options})
            if all((seats or {}).get(side) or side in bots for side in seat_ids):
                self.start(game_id)  # first, so that every welcome tells the first deadline
            for side, email in (seats or {}).items():
                if email:
                    self.welcome(game_id, side, email, keys[side])
            if moderator:
                self.tell_moderator(game_id, "named", asked_by="system" if moderator_known else who)
        return game_id, keys

    def moderator_address(self, moderator: str | None, who: str) -> str | None:
        """The moderator named for a new game: one valid address (email-validator), or None; refused if
        it is no address, or if it has never confirmed anything here and the server has mailed such
        addresses as often as it does for ``who`` (pbem.server.throttle). ``create_game(moderator_known=True)``:
        the moderator comes from the server's own records (a league's organiser, the moderator of the game a
        rematch repeats), not typed by its asker, and ``who`` is "system" here."""
        if not (moderator or "").strip():
            return None
        try:
            moderator = addresses.require_address(moderator)
        except addresses.AddressError:
            raise ServiceError("the moderator is one email address, like %(example)s: %(given)s is not one",
                               example="moderator@example.org", given=repr(one_line(moderator, 80))) from None
        if throttle.may_mail(self.store, self.now(), moderator, who)[0]:
            raise ServiceError("%(email)s has never signed in here, and the server mails such addresses only so "
                               "often: name this moderator again in an hour", email=moderator)
        return moderator

    def join(self, game_id: int, side: str, email: str, timezone: str = "UTC") -> str:
        """Take an empty seat; returns its new key (also mailed)."""
        with self.lock, self.store.transaction():  # the service's lock first (ServiceLock)
            seat = self.seat(game_id, side)
            if seat["email"] or side in self.bots_of(game_id):
                raise ServiceError("%(seat)s in game %(game)s is taken",
                                   seat=self.seat_said(game_id, side), game=game_id)
            self.check_invitation(game_id, side, email)  # a kept seat, a private game (invitations.py)
            self.store.update_seat(game_id, side, email=email, timezone=timezone)
            key = new_key()
            self.set_key(game_id, side, key)
            self.store.audit(email, "join", game_id, detail={"side": side})
            bots = self.bots_of(game_id)
            starting = all(s["email"] or s["side"] in bots for s in self.store.seats(game_id)) \
                and self.info(game_id)["status"] == "open"
            if starting:
                self.start(game_id)
            self.welcome(game_id, side, email, key)
            if starting:
                self.tell_moderator(game_id, "begins")
                for other in self.store.seats(game_id):
                    if other["side"] != side and other["email"]:  # not the computer
                        lang = self.store.language_of(other["email"])
                        tr = i18n.translator(lang)
                        queue(self.store, other["email"], f"[pbem {game_id}] " + tr.gettext("The game begins"),
                              tr.gettext("Every seat of game %(game)s is taken: the game begins.\n\nYour first "
                                         "orders (%(turn)s) are due by %(deadline)s.\n", game=self.label(game_id),
                                         turn=self.turn_label(self.game(game_id), lang=lang),
                                         deadline=self.deadline_for(game_id, other["side"], lang=lang)),
                              kind="start", game_id=game_id, dedupe_key=f"start:{game_id}:{other['side']}")
        return key

    def console_url(self, game_id: int) -> str:
        """The address of a game's moderator console."""
        base = self.config.url.rstrip("/") if self.config is not None else ""
        return f"{base}/games/{game_id}/moderate"

    def tell_moderator(self, game_id: int, what: str, asked_by: str = "") -> None:
        """Mail the game's moderator that he was named (``what="named"``; it tells whether the
        game has begun) or that the game begins (``"begins"``), with the console's link. The mail
        names the game by its number (never its title: another user's text), and to an address that
        has not confirmed anything it goes within the caps of answers to strangers, counted for
        ``asked_by`` (pbem.server.throttle); over them it is not sent."""
        info = self.info(game_id)
        moderator = info.get("moderator")
        if not moderator:
            return
        held, kind = throttle.may_mail(self.store, self.now(), moderator, asked_by)
        if held:
            return
        zone = (self.store.find_player(moderator) or {}).get("timezone") or \
            (info.get("settings") or {}).get("timezone") or "UTC"
        tr = i18n.translator(self.store.language_of(moderator))
        seats = ["  " + i18n.labelled(tr, self.seat_title(game_id, s['side'], tr.lang),
                                      s["email"] or (tr.gettext("the computer") if s["side"] in self.bots_of(game_id)
                                                     else tr.gettext("(open)")))
                 for s in self.store.seats(game_id)]
        running = info["status"] == "running"
        if what == "named":
            subject = f"[pbem {game_id}] " + tr.gettext("You moderate game %(game)s", game=game_id)
            head = (tr.gettext("You are the moderator of game %(game)s of %(title)s.", game=game_id,
                               title=self.rules_title(game_id, tr.lang)) + " "
                    + (tr.gettext("It has begun.") if running
                       else tr.gettext("It begins when every seat is taken; you will be told.")))
        else:
            subject = f"[pbem {game_id}] " + tr.gettext("The game you moderate begins")
            head = tr.gettext("Every seat of game %(game)s is taken: the game begins.", game=game_id)
        body = "\n".join([
            head, "", tr.gettext("Seats:"), *seats, "",
            tr.gettext("Deadline: %(deadline)s.", deadline=self.deadline_in_zone(game_id, zone, lang=tr.lang)), "",
            tr.gettext("The moderator console: %(url)s", url=self.console_url(game_id)),
            tr.gettext("(sign in with this address). There you can pause and resume the game, move or extend its "
                       "deadline, resolve a day now, replace a player, and amend orders or decisions of past days. "
                       "While the game runs you see both sides: a moderator holds no seat in it."),
        ])
        queue(self.store, moderator, subject, body, kind="moderator", game_id=game_id,
              dedupe_key=f"moderator:{what}:{game_id}:{moderator.lower()}")
        if kind == "stranger":  # counted where a cap counts it
            throttle.note_answer(self.store, self.now(), moderator, asked_by, kind)

    def start(self, game_id: int) -> None:
        self.store.update_game(game_id, status="running")
        self.set_next_deadline(game_id)

    def set_next_deadline(self, game_id: int) -> None:
        info = self.info(game_id)
        subturn = self.game(game_id).turn().kind == "subturn"
        self.set_deadline(game_id, deadlines.next_deadline(info["settings"], self.now(), subturn), info["settings"])

    def set_deadline(self, game_id: int, when: datetime, settings: dict | None = None) -> None:
        """Set the deadline, and when the clock must first look at the game (its first reminder)."""
        settings = self.info(game_id)["settings"] if settings is None else settings
        # a reminder due within the turn's first hour (the 24-hour one of a 24-hour turn) is not sent:
        # the clock first looks at the game at the first reminder after that
        soon = self.now() + deadlines.REMINDER_QUIET
        first = min([when] + [t for _, t in deadlines.reminder_times(settings, when) if t >= soon])
        self.store.set_clock(game_id, deadline=deadlines.iso(when), next_check=deadlines.iso(first))
        self.play_bots(game_id)  # a turn starts (or its clock moves): a computer seat answers at once

    def opening_template(self, game_id: int, side: str, lang: str | None = None, titled: bool = True) -> str:
        """The orders template of a seat before any day has been resolved, in ``lang`` (else its player's);
        the game named by its number alone unless ``titled``."""
        game = self.game(game_id)
        lang = lang or self.lang_of(game_id, side)
        return game.ruleset.orders_template(game, side, deadline=self.deadline_for(game_id, side, lang=lang),
                                           game_label=self.label(game_id) if titled else f"#{game_id}",
                                           game_id=str(game_id), lang=lang)

    def welcome(self, game_id: int, side: str, email: str, key: str, titled: bool = True) -> None:
        """Mail a seat's new player his key and first template. ``titled`` False: the game named by its number
        alone, never its title (another user's text), for an address that has confirmed nothing."""
        game = self.game(game_id)
        lang = self.store.language_of(email)
        tr = i18n.translator(lang)
        seat = self.seat_title(game_id, side, lang)
        label, title = (self.label(game_id) if titled else game_id), self.rules_title(game_id, lang)
        body = "\n".join([
            # a title that names the game already ("Demo: Bonaparte at Marengo") is not followed by its name again
            tr.gettext("Welcome to game %(game)s: you play %(seat)s.", game=label, seat=seat)
            if titled and self.names_rules(game_id, label, lang) else
            tr.gettext("Welcome to game %(game)s of %(title)s: you play %(seat)s.", game=label, title=title,
                       seat=seat),
            "",
            tr.gettext("Deadline: %(deadline)s.", deadline=self.deadline_for(game_id, side, lang=lang)),
            "",
            tr.gettext("Your secret key for this seat is: %(key)s", key=key),
            tr.gettext("Keep it: every orders mail must carry it in its first line. It is not stored by the\n"
                       "server (only a hash of it is), so it cannot be sent again; a moderator can give you a\n"
                       "new one, or send KEY in a mail with your current key to get a new one."),
            "",
            *commitment_lines(self.commitment(game_id), lang),
            tr.gettext("Send your orders by replying to this mail, or on the web page of the game.\n"
                       "A template for your first orders:"),
            "",
            self.opening_template(game_id, side, lang, titled),
        ])
        queue(self.store, email, f"[pbem {game_id}] " + tr.gettext("Welcome: you play %(seat)s", seat=seat), body,
              attachments=[self.view_attachment(game, side)],
              kind="welcome", game_id=game_id, dedupe_key=f"welcome:{game_id}:{side}:{key[:6]}")

    @staticmethod
    def view_attachment(game: Game, side: str, day: int | None = None) -> tuple:
        """The side's view as JSON, for mail clients and scripts: what its map shows."""
        return ("view.json", "application/json", view_json(game, side, day), None)


def view_json(game: Game, side: str, day: int | None = None) -> bytes:
    """Seat ``side``'s view after ``day`` (None: now) as the JSON mailed with its welcome and reports."""
    return json.dumps(game.view(side, day), indent=1, sort_keys=True).encode()


def commitment_lines(commitment: str | None, lang: str = "en") -> list[str]:
    """What a welcome says of the seed's commitment (nothing for games made before commitments)."""
    if not commitment:
        return []
    return [i18n.translate(lang, "The dice of this game are fixed by a secret seed, revealed when the game ends. Its\n"
                               "commitment (SHA-256 of the seed and a salt) is %(commitment)s:\n"
                               "keep it, to check with `pbem verify` that the seed was never changed.",
                         commitment=commitment), ""]
