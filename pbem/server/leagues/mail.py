"""League commands by mail: a mail whose first line is a league command (and no GAME header).

    LEAGUE 3 JOIN Jean Lannes     sign the sender up to league 3, under a name
    TOURNAMENT 5 ENTER            enter the sender in tournament 5 (a member of its league)

The sender is the mail's From address (its Reply-To for the answer): a league sign-up
gives no seat and no key, and the answer goes to that address, so a forged From signs
up only someone who is told of it. The words are read in every language (LIGUE 3 ADHÉRER, 联赛3加入):
pbem.server.mail.commands reads the line and hands ``run`` its English words.
"""

from __future__ import annotations

from pbem.server import i18n
from pbem.server.i18n import N_
from pbem.server.service import ServiceError

USAGE = N_("League commands: LEAGUE <number> JOIN [your name]  or  TOURNAMENT <number> ENTER\n"
           "(the league's page on the web lists its tournaments and their numbers).")


def run(service, sender: str, words: list[str], lang: str | None = "en") -> tuple[str, dict]:
    """Do a league command (``words``: its English words, as pbem.server.mail.commands.read gives them, then
    its arguments) for ``sender``; returns the answer (in ``lang``: the language the address
    chose) and what to record."""
    from .service import Leagues

    leagues = Leagues(service)
    tr = i18n.translator(lang)
    kind = words[0].upper()
    if len(words) < 3 or not words[1].lstrip("#").isdigit():
        return tr.gettext(USAGE), {"why": "bad league command"}
    number, verb = int(words[1].lstrip("#")), words[2].upper()
    try:
        if kind == "LEAGUE" and verb == "JOIN":
            return leagues.join(number, sender, " ".join(words[3:]), via="mail").in_(lang), {"command": "LEAGUE JOIN"}
        if kind == "TOURNAMENT" and verb == "ENTER":
            return leagues.enter(number, sender).in_(lang), {"command": "TOURNAMENT ENTER"}
    except ServiceError as exc:
        return tr.gettext("Nothing was done: %(why)s", why=exc.in_(lang)) + ".", {"why": str(exc)}
    return tr.gettext(USAGE), {"why": "bad league command"}
