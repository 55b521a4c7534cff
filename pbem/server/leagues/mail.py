"""League commands by mail: a mail whose first line is a league command (and no GAME header).

    LEAGUE 3 JOIN Jean Lannes     ask to sign the sender up to league 3, under a name
    TOURNAMENT 5 ENTER            ask to enter the sender in tournament 5 (a member of its league)
    LEAGUE 3 JOIN abcd-efgh-ijkl  confirm: the code the server mailed for the request
    TOURNAMENT 5 ENTER abcd-efgh-ijkl

A mail's From can be forged, so a request does nothing by itself: the server mails its From
address (never the Reply-To) a code, and only a mail carrying that code -- which only someone
reading that address has -- signs it up. Whoever was named is therefore told, and nobody is
enrolled without his word. Every answer is a fixed text naming the league or tournament by its
number and page (never its name: another user's text), and goes within the caps of answers to
strangers (pbem.server.throttle). A code lapses after ``LAPSE``. The words are read in every
language (LIGUE 3 ADHÉRER, 联赛3加入): pbem.server.mail.commands reads the line and hands ``run``
its English words.
"""

from __future__ import annotations

import base64
import hashlib
import re
import secrets
from datetime import timedelta

from pbem.server import i18n, throttle
from pbem.server.i18n import N_
from pbem.server.mail.commands import words_in
from pbem.server.service import ServiceError
from pbem.server.store import iso

from .records import meets, reliability

LAPSE = timedelta(days=2)
CODE = re.compile(r"[a-z2-7]{4}-[a-z2-7]{4}-[a-z2-7]{4}")
USAGE = N_("League commands: LEAGUE <number> JOIN [your name]  or  TOURNAMENT <number> ENTER\n"
           "(the league's page on the web lists its tournaments and their numbers).")
ASK = {"LEAGUE": N_("A mail from this address asked to sign it up to league %(number)s (%(url)s). Nothing is done "
                    "until you confirm: to confirm, send a mail whose first line is\n\n    %(line)s\n\nIf you did "
                    "not ask, ignore this mail: nothing will be done, and the request lapses in %(days)s days."),
       "TOURNAMENT": N_("A mail from this address asked to enter it in tournament %(number)s (%(url)s). Nothing is "
                        "done until you confirm: to confirm, send a mail whose first line is\n\n    %(line)s\n\nIf "
                        "you did not ask, ignore this mail: nothing will be done, and the request lapses in "
                        "%(days)s days.")}
DONE = {"LEAGUE": N_("This address is now a member of league %(number)s (%(url)s)."),
        "TOURNAMENT": N_("This address is now entered in tournament %(number)s (%(url)s).")}
ALREADY = {"LEAGUE": N_("This address is already a member of league %(number)s (%(url)s)."),
           "TOURNAMENT": N_("This address is already entered in tournament %(number)s (%(url)s).")}
NO_SUCH = {"LEAGUE": N_("There is no league %(number)s; nothing was done."),
           "TOURNAMENT": N_("There is no tournament %(number)s; nothing was done.")}
WRONG_CODE = N_("That code is not one this server mailed this address for %(what)s, or it has lapsed; nothing was "
                "done. Send the request again for a new code.")
REFUSED = {"LEAGUE": N_("League %(number)s does not take this address now (%(url)s says what it asks); nothing was "
                        "done."),
           "TOURNAMENT": N_("Tournament %(number)s does not take this address now: it takes members of its league "
                            "while its entries are open (%(url)s says what it asks); nothing was done.")}
RELIABILITY = N_("%(what)s asks for a reliability of %(least)s%%; this address has %(percent)s%%. Nothing was done.")
WHAT = {"LEAGUE": N_("league %(number)s"), "TOURNAMENT": N_("tournament %(number)s")}


def run(service, sender: str, words: list[str], lang: str | None = "en") -> tuple[str, dict]:
    """Do a league command (``words``: its English words, as pbem.server.mail.commands.read gives them, then
    its arguments) for ``sender``, the mail's From address; returns the answer (in ``lang``: the language the
    address chose) and what to record. The caller mails the answer to ``sender`` alone."""
    tr = i18n.translator(lang)
    kind = words[0].upper()
    if len(words) < 3 or not words[1].lstrip("#").isdigit():
        return tr.gettext(USAGE), {"why": "bad league command"}
    number, verb, rest = int(words[1].lstrip("#")), words[2].upper(), words[3:]
    if (kind, verb) not in (("LEAGUE", "JOIN"), ("TOURNAMENT", "ENTER")):
        return tr.gettext(USAGE), {"why": "bad league command"}
    request = Request(service, kind, number, sender, tr)
    if len(rest) == 1 and CODE.fullmatch(rest[0].lower()):
        return request.confirm(rest[0].lower())
    return request.ask(" ".join(rest))


class Request:
    """One address's request to join a league or enter a tournament, by mail."""

    def __init__(self, service, kind: str, number: int, email: str, tr):
        from .service import Leagues

        self.service, self.store, self.leagues = service, service.store, Leagues(service)
        self.kind, self.number, self.email, self.tr = kind, number, email.strip(), tr
        self.command = f"{kind} {'JOIN' if kind == 'LEAGUE' else 'ENTER'}"

    def say(self, message: str, **values) -> str:
        return self.tr.gettext(message, number=self.number, url=self.url(), **values)

    def url(self) -> str:
        base = self.service.config.url.rstrip("/") if self.service.config is not None else ""
        return f"{base}/{'leagues' if self.kind == 'LEAGUE' else 'tournaments'}/{self.number}"

    def refusal(self) -> tuple[str, dict] | None:
        """Why the address cannot be signed up now (a fixed answer and what to record), or None."""
        try:
            row = self.leagues.league(self.number) if self.kind == "LEAGUE" else self.leagues.tournament(self.number)
        except ServiceError:
            return self.tr.gettext(NO_SUCH[self.kind], number=self.number), {"why": f"no such {self.kind.lower()}"}
        if self.kind == "LEAGUE":
            done = any(m["email"].lower() == self.email.lower() for m in row["members"])
            taking = row["signup"] == "open"
        else:
            done = any(e["email"].lower() == self.email.lower() for e in row["entries"])
            taking = row["status"] == "signup" and self.leagues.is_member(row["league_id"], self.email)
        if done:
            return self.say(ALREADY[self.kind]), {"command": self.command, "already": True}
        if not taking:
            return self.say(REFUSED[self.kind]), {"why": "not taking this address"}
        least = row["rules"].get("min_reliability")
        record = reliability(self.store, self.email)
        if not meets(record, least):
            return (self.tr.gettext(RELIABILITY, what=self.tr.gettext(WHAT[self.kind], number=self.number),
                                    least=least, percent=record["percent"]), {"why": "reliability"})
        return None

    def ask(self, name: str) -> tuple[str, dict]:
        """A request: nothing is done; the address is mailed a code to confirm it with."""
        refused = self.refusal()
        if refused is not None:
            return refused
        code = new_code()
        with self.store.transaction():
            self.store.execute("DELETE FROM league_mail_requests WHERE (email = ? AND kind = ? AND target = ?)"
                               " OR created < ?", (self.email, self.kind, self.number,
                                                   iso(self.service.now() - LAPSE)))
            self.store.execute("INSERT INTO league_mail_requests (code_hash, email, kind, target, name, created)"
                               " VALUES (?, ?, ?, ?, ?, ?)", (digest(code), self.email, self.kind, self.number,
                                                              " ".join(name.split())[:80], self.store.now()))
        words = words_in(self.tr.lang)
        line = f"{words[self.kind]} {self.number} {words['JOIN' if self.kind == 'LEAGUE' else 'ENTER']} {code}"
        return self.say(ASK[self.kind], line=line, days=LAPSE.days), {"command": self.command, "asked": True}

    def confirm(self, code: str) -> tuple[str, dict]:
        """The code mailed for a request: the address is signed up."""
        since = iso(self.service.now() - LAPSE)
        row = self.store.query_one("SELECT * FROM league_mail_requests WHERE code_hash = ? AND email = ? AND kind = ?"
                                   " AND target = ? AND created >= ?",
                                   (digest(code), self.email, self.kind, self.number, since))
        if row is None:
            what = self.tr.gettext(WHAT[self.kind], number=self.number)
            return self.tr.gettext(WRONG_CODE, what=what), {"why": "wrong or lapsed code"}
        refused = self.refusal()
        if refused is not None:
            return refused
        try:
            with self.store.transaction():
                if self.kind == "LEAGUE":
                    self.leagues.join(self.number, self.email, row["name"], via="mail")
                else:
                    self.leagues.enter(self.number, self.email)
                self.store.execute("DELETE FROM league_mail_requests WHERE id = ?", (row["id"],))
                throttle.note_confirmed(self.store, self.email, "league code")
        except ServiceError:
            return self.say(REFUSED[self.kind]), {"why": "not taking this address"}
        return self.say(DONE[self.kind]), {"command": self.command, "confirmed": True}


def new_code() -> str:
    """A code of 60 random bits, written so that a reader can copy it: ``abcd-efgh-ijkl``."""
    text = base64.b32encode(secrets.token_bytes(8)).decode().lower()[:12]
    return "-".join(text[i:i + 4] for i in range(0, 12, 4))


def digest(code: str) -> str:
    return hashlib.sha256(code.encode()).hexdigest()
