"""Private games and invitations. A game created with ``private: true`` in its settings is not
listed among the open games, and its empty seats are taken only by invitation. Any empty seat
may be kept for an invited address (a player of the game or its moderator invites): only
that address may take it, by the invitation's link (signed in with that address) or the
join form.

The invitation's mail carries nothing another user wrote but the inviter's address (not the
game's title: the game's number and link), and to an address that has not confirmed anything
it goes within the caps of answers to strangers, counted for the inviter (pbem.server.throttle)."""

from __future__ import annotations

from pbem.server import addresses, i18n, throttle
from pbem.server.mail.outbox import queue

from .base import ServiceBase, ServiceError


class Invitations(ServiceBase):

    def invitation(self, game_id: int, side: str) -> dict | None:
        return self.store.query_one("SELECT * FROM invitations WHERE game_id = ? AND side = ?", (game_id, side))

    def invitations_for(self, email: str) -> list[dict]:
        return self.store.query("SELECT i.* FROM invitations i JOIN seats s ON s.game_id = i.game_id AND"
                                " s.side = i.side WHERE i.email = ? AND s.email IS NULL", (email.strip(),))

    def invite(self, game_id: int, side: str, email: str, who: str) -> str:
        info = self.info(game_id)
        seat = self.seat(game_id, side)
        players = {(s["email"] or "").lower() for s in self.store.seats(game_id)}
        if who.lower() not in players | {(info.get("moderator") or "").lower()} - {""}:
            raise ServiceError("only the players of game %(game)s and its moderator invite to it", game=game_id)
        if info["status"] != "open" or seat["email"] or side in self.bots_of(game_id):
            raise ServiceError("%(seat)s in game %(game)s is taken", seat=self.seat_said(game_id, side), game=game_id)
        try:
            email = addresses.require_address(email)
        except addresses.AddressError as exc:
            raise ServiceError("%(exc)s: give the invited player's address", exc=exc) from None
        held, kind = throttle.may_mail(self.store, self.now(), email, who)
        if held:
            raise ServiceError("%(email)s has never signed in here, and the server mails such addresses only so "
                               "often: invite again in an hour", email=email)
        with self.lock, self.store.transaction():  # the service's lock first (ServiceLock)
            self.store.execute("INSERT OR REPLACE INTO invitations (game_id, side, email, who, created)"
                               " VALUES (?, ?, ?, ?, ?)", (game_id, side, email, who, self.store.now()))
            self.store.audit(who, "invite", game_id, detail={"side": side, "email": email})
            base = (getattr(self.config, "base_url", "") or "").rstrip("/")
            link = f"{base}/games/{game_id}/invitation" if base else f"/games/{game_id}/invitation"
            # the invited address's language if it chose one, else the inviter's (he writes to a friend)
            tr = i18n.translator(self.store.language_of(email, default=None) or self.store.language_of(who))
            queue(self.store, email, f"[pbem {game_id}] " + tr.gettext("An invitation to play"),
                  tr.gettext("%(who)s invites you to play %(seat)s in game %(game)s of %(title)s.", who=who,
                             seat=self.seat_title(game_id, side, tr.lang), game=game_id,
                             title=self.rules_title(game_id, tr.lang))
                  + "\n\n" + tr.gettext("To accept, sign in on the site with this address and open %(link)s", link=link)
                  + "\n\n" + tr.gettext("The seat is kept for you: nobody else may take it."),
                  kind="invitation", game_id=game_id, dedupe_key=f"invite:{game_id}:{side}:{email.lower()}",
                  lang=tr.lang)
            if kind == "stranger":  # counted where a cap counts it
                throttle.note_answer(self.store, self.now(), email, who, kind)
        lang = self.store.language_of(who)
        return i18n.translate(lang, "%(email)s is invited to play %(seat)s.", email=email,
                              seat=self.seat_title(game_id, side, lang))

    def check_invitation(self, game_id: int, side: str, email: str) -> None:
        """Refuse a seat kept for someone else, or a private game's seat without an invitation."""
        kept = self.invitation(game_id, side)
        if kept is not None and kept["email"].lower() != email.strip().lower():
            raise ServiceError("%(seat)s in game %(game)s is kept for an invited player",
                               seat=self.seat_said(game_id, side), game=game_id)
        if kept is None and (self.info(game_id)["settings"] or {}).get("private"):
            raise ServiceError("game %(game)s is private: its seats are taken by invitation", game=game_id)
