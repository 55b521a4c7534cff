"""Press: messages between the seats of a game, by mail (PRESS) and on the web.

A message goes only to the seats it names (each by its own mail, to the seat's address); the
game's moderator reads them all on the web; nobody else does, not even once the game is over.
The server adds nothing of the game to a message: it carries what the sender wrote, so it
carries no hidden information the sender did not have. The game's ``press`` setting rules it:
"none", "open", or "game" (the ruleset's ``press_rule``, e.g. Napoleon 1815's Allied players
talk only at setup and on night turns; a game without a rule is open)."""

from __future__ import annotations

import json

from pbem.core.ruleset import press_refusal
from pbem.server import deadlines, i18n
from pbem.server.notify import notice
from pbem.server.mail import commands

from .base import ServiceBase, ServiceError

PRESS_LIMIT = 4000  # characters of one message


class Press(ServiceBase):

    def press_seats(self, game_id: int, sender: str, names: list[str]) -> list[str]:
        """The seats a message names (ids or titles, any case; ALL: every other seat)."""
        titles = self.seat_titles(game_id)
        if len(names) == 1 and commands.means(names[0].strip(), "ALL"):  # ALL, TOUS, ВСЕМ, УСІМ, 全部
            return [s for s in titles if s != sender]
        out = []
        for name in names:
            seat = self.seat_named(game_id, name)
            if seat is None:
                raise ServiceError("game %(game)s has no seat %(name)s (seats: %(names)s)",
                                   game=game_id, name=repr(name.strip()),
                                   names=[self.seat_said(game_id, s) for s in titles])
            if seat == sender:
                raise ServiceError("a message goes to other seats, not your own")
            if seat not in out:
                out.append(seat)
        if not out:
            raise ServiceError("say to which seats: their names, or %(all)s", all=commands.word("ALL"))
        return out

    def send_press(self, game_id: int, sender: str, to: list[str], text: str, who: str = "") -> str:
        with self.lock:
            info = self.info(game_id)
            if info["status"] not in ("running", "paused"):
                raise ServiceError("game %(game)s is %(status)s: messages are sent while it is played",
                                   game=game_id, status=i18n.status_text(info['status']))
            rule = deadlines.settings_with_defaults(info["settings"])["press"]
            if rule == "none":
                raise ServiceError("game %(game)s allows no messages between players", game=game_id)
            recipients = self.press_seats(game_id, sender, to)
            text = "\n".join(line.rstrip() for line in (text or "").strip().splitlines())
            if not text:
                raise ServiceError("the message is empty")
            if len(text) > PRESS_LIMIT:
                raise ServiceError("a message is at most %(limit)s characters; this one is %(count)s",
                                   limit=PRESS_LIMIT, count=len(text))
            game = self.game(game_id)
            if rule == "game":
                refusal = press_refusal(game.ruleset, game.scenario, game.state, sender, tuple(recipients))
                if refusal:
                    raise ServiceError("not now: %(refusal)s", refusal=refusal)
            sender_lang = self.lang_of(game_id, sender)
            names = i18n.translator(sender_lang).listed([self.seat_title(game_id, s, sender_lang) for s in recipients])
            with self.store.transaction():
                pid = self.store.execute(
                    "INSERT INTO press (game_id, day, sender, recipients, text, created) VALUES (?, ?, ?, ?, ?, ?)",
                    (game_id, game.day, sender, json.dumps(recipients), text, self.store.now())).lastrowid
                self.store.audit(who or sender, "press", game_id, detail={"from": sender, "to": recipients,
                                                                          "id": pid})
                for seat in recipients:
                    tr = i18n.translator(self.lang_of(game_id, seat))
                    said = self.seat_title(game_id, sender, tr.lang)
                    notice(self.store, self.seat(game_id, seat)["email"],
                           f"[pbem {game_id}] " + tr.gettext("Message from %(seat)s", seat=said),
                           tr.gettext("%(seat)s writes to %(names)s in game %(game)s (%(turn)s):", seat=said,
                                      names=tr.listed([self.seat_title(game_id, s, tr.lang) for s in recipients]),
                                      game=self.label(game_id),
                                      turn=self.turn_label(game, lang=tr.lang))
                           + f"\n\n{text}\n\n"
                           + tr.gettext("To answer, send a mail whose first line carries your key and whose next line "
                                        "is\n  PRESS %(seat)s\nfollowed by your message, or write on the game's press "
                                        "page.", seat=said),
                          kind="press", game_id=game_id, dedupe_key=f"press:{pid}:{seat}")
        return i18n.translate(sender_lang, "Your message went to %(names)s.", names=names)

    def press_for(self, game_id: int, side: str | None, lang: str | None = None) -> list[dict]:
        """The messages seat ``side`` sent or received (None: all of them, for the moderator), the
        seats named in ``lang``."""
        rows = self.store.query("SELECT * FROM press WHERE game_id = ? ORDER BY id", (game_id,))
        out = []
        for row in rows:
            row["recipients"] = json.loads(row["recipients"])
            if side is None or side == row["sender"] or side in row["recipients"]:
                row["sender_title"] = self.seat_title(game_id, row["sender"], lang)
                row["recipient_titles"] = [self.seat_title(game_id, s, lang) for s in row["recipients"]]
                out.append(row)
        return out
