"""Caps on what a stranger can make the server do: mail answers and sign-in attempts.

Answers to mail (``may_answer`` / ``note_answer``, counted in ``answer_log``):

- A *stranger's* mail -- one not proven by a seat key: no first line, an
  unknown game or side, a wrong key, a mail too big or unreadable -- gets a
  fixed answer that quotes nothing of it (not its subject, not its text), at
  most ``STRANGER_PER_ADDRESS`` an hour to one address, and at most
  ``STRANGER_PER_SOURCE`` an hour for mail from one From address (a forged
  Reply-To cannot spread them over many victims), and at most
  ``STRANGER_PER_HOUR`` an hour in all: the club's address cannot be made to
  mail anyone much.
- Every answer, a player's too, at most ``ANSWERS_PER_ADDRESS`` an hour to one
  address: an auto-responder that carries no robot marker and quotes the key
  still ends its loop there.
- Any other mail to an address that has not *confirmed* anything (``confirmed``:
  signed in by a mailed link or with a password, or confirmed a league
  sign-up by its code) -- an invitation, the
  notice to a game's new moderator -- goes through the same caps as an answer
  to a stranger (``may_mail``), counted for the address that asked for it.
- When an answer is held by a cap, the address is told so once an hour
  (``may_tell_held``): a fixed notice, sent only to an address that had an
  answer in the last hour (a forged Reply-To never reaches a new address
  this way), at most ``HELD_PER_HOUR`` an hour in all. Silence is never the
  answer.
- A seat's owner is told of wrong keys for the seat at most once every
  ``OWNER_NOTICE_EVERY``, and the notice counts the attempts since the last
  one (``owner_notice``).

Sign-in (``signin_refusal``): failed passwords count per (client, address)
pair, per client, and per address; an address's own limit stops password
sign-in for that address only, never a mailed link, and link mails are capped
per address (a request over the cap is answered as if sent, and nothing is
mailed). Nobody can lock an address out of every way in.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.server.store import iso

HOUR = timedelta(hours=1)
STRANGER_PER_ADDRESS = 3
STRANGER_PER_SOURCE = 3
STRANGER_PER_HOUR = 60
ANSWERS_PER_ADDRESS = 100
OWNER_NOTICE_EVERY = timedelta(hours=6)
HELD_PER_HOUR = 60  # notices that answers are held, all addresses together

SIGNIN_WINDOW = timedelta(minutes=15)
PASSWORD_PER_PAIR = 5  # failed passwords from one client for one address
PASSWORD_PER_CLIENT = 20  # failed sign-ins of any kind from one client (guessing many addresses, tokens, keys)
PASSWORD_PER_ADDRESS = 50  # failed passwords for one address from everywhere: password sign-in pauses
LINKS_PER_ADDRESS = 3  # sign-in links mailed to one address an hour
LINKS_PER_CLIENT = 10  # sign-in links one client may ask for in the window


def _count(store, sql: str, params) -> int:
    return store.query_one(sql, params)["n"]


def may_answer(store, now: datetime, recipient: str, source: str, stranger: bool) -> str:
    """Why an answer to ``recipient`` (for mail from ``source``) must not go out now, or ""."""
    since = iso(now - HOUR)
    if _count(store, "SELECT COUNT(*) AS n FROM answer_log WHERE recipient = ? AND at >= ?",
              (recipient, since)) >= ANSWERS_PER_ADDRESS:
        return f"{ANSWERS_PER_ADDRESS} answers to this address in the last hour"
    if not stranger:
        return ""
    if _count(store, "SELECT COUNT(*) AS n FROM answer_log WHERE recipient = ? AND kind = 'stranger' AND at >= ?",
              (recipient, since)) >= STRANGER_PER_ADDRESS:
        return f"{STRANGER_PER_ADDRESS} answers to unproven mail for this address in the last hour"
    if source and _count(store, "SELECT COUNT(*) AS n FROM answer_log WHERE source = ? AND kind = 'stranger'"
                                " AND at >= ?", (source, since)) >= STRANGER_PER_SOURCE:
        return f"{STRANGER_PER_SOURCE} answers to unproven mail from this sender in the last hour"
    if _count(store, "SELECT COUNT(*) AS n FROM answer_log WHERE kind = 'stranger' AND at >= ?",
              (since,)) >= STRANGER_PER_HOUR:
        return f"{STRANGER_PER_HOUR} answers to unproven mail in the last hour, all addresses together"
    return ""


def may_tell_held(store, now: datetime, recipient: str) -> bool:
    """Whether ``recipient``, whose answer a cap holds, may be told so now: it had an answer in the
    last hour and no such notice, and fewer than ``HELD_PER_HOUR`` notices went in all."""
    since = iso(now - HOUR)
    # pragma: no mutate start (SQL)
    answered = _count(store, "SELECT COUNT(*) AS n FROM answer_log WHERE recipient = ? AND kind != 'held' AND at >= ?",
                      (recipient, since))
    told = _count(store, "SELECT COUNT(*) AS n FROM answer_log WHERE recipient = ? AND kind = 'held' AND at >= ?",
                  (recipient, since))
    # pragma: no mutate end
    return bool(answered) and not told and _count(
        store, "SELECT COUNT(*) AS n FROM answer_log WHERE kind = 'held' AND at >= ?", (since,)) < HELD_PER_HOUR


def confirmed(store, email: str) -> bool:
    """Whether ``email`` has shown it reads its mail here: a sign-in link used, a password set, a league
    sign-up confirmed by its code (``note_confirmed``)."""
    email = (email or "").strip()
    # pragma: no mutate start (SQL)
    return bool(email) and store.query_one(
        "SELECT EXISTS (SELECT 1 FROM audit WHERE action = 'address_confirmed' AND who = ? COLLATE NOCASE)"
        " OR EXISTS (SELECT 1 FROM players WHERE email = ? AND password_hash IS NOT NULL)"
        " OR EXISTS (SELECT 1 FROM login_tokens WHERE email = ? COLLATE NOCASE AND used_at IS NOT NULL) AS yes",
        (email, email, email))["yes"] == 1
    # pragma: no mutate end


def note_confirmed(store, email: str, how: str) -> None:
    """Record that ``email`` confirmed it reads its mail here (once; in the caller's transaction)."""
    if not confirmed(store, email):
        store.audit(email.strip(), "address_confirmed", detail={"how": how})


def may_mail(store, now: datetime, recipient: str, source: str) -> tuple[str, str]:
    """(why a mail that ``source`` asked for may not go to ``recipient`` now, or ""; the kind to count it as
    with ``note_answer``): an address that has not confirmed anything gets such mail within the caps of
    answers to strangers. The server's operator (``source`` "" or "system": the CLI, the clock) and an
    address asking for mail to itself are not strangers' requests."""
    own = not source or source == "system" or source.strip().lower() == recipient.strip().lower()
    kind = "player" if own or confirmed(store, recipient) else "stranger"
    return may_answer(store, now, recipient, source, stranger=kind == "stranger"), kind


def note_answer(store, now: datetime, recipient: str, source: str, kind: str) -> None:
    """Count an answer queued (in the caller's transaction)."""
    store.execute("INSERT INTO answer_log (at, kind, recipient, source) VALUES (?, ?, ?, ?)",
                  (iso(now), kind, recipient, source or ""))


def owner_notice(store, now: datetime, game_id: int, side: str) -> int:
    """How many wrong keys for the seat the owner has not been told of, if a notice may go now; else 0.

    A notice may go when none went in the last ``OWNER_NOTICE_EVERY``; it then
    counts every wrong key since the last notice (the one just audited included).
    """
    source = f"seat:{game_id}:{side}"
    last = store.query_one("SELECT MAX(at) AS at FROM answer_log WHERE kind = 'owner' AND source = ?",
                           (source,))["at"]
    if last is not None and last >= iso(now - OWNER_NOTICE_EVERY):
        return 0
    if last is None:
        rows = store.query("SELECT detail FROM audit WHERE action = 'wrong_key' AND game_id = ? AND at >= ?",
                           (game_id, iso(now - OWNER_NOTICE_EVERY)))
    else:  # every attempt after the second of the last notice
        rows = store.query("SELECT detail FROM audit WHERE action = 'wrong_key' AND game_id = ? AND at > ?",
                           (game_id, last))
    return max(1, sum(1 for row in rows if f'"side":"{side}"' in row["detail"]))


# -- sign-in -----------------------------------------------------------------------------


def signin_refusal(store, now: datetime, ip: str, email: str | None, kind: str) -> str:
    """Why a sign-in attempt of ``kind`` ("password", "link", "token", "key") must be refused now, or ""."""
    since = iso(now - SIGNIN_WINDOW)
    failed_here = _count(store, "SELECT COUNT(*) AS n FROM login_attempts WHERE ip = ? AND at >= ? AND ok = 0",  # pragma: no mutate (SQL)
                         (ip, since))
    if failed_here >= PASSWORD_PER_CLIENT:
        return "client"
    if kind == "password" and email:
        # pragma: no mutate start (SQL: a mark at the end of a statement's second line stands for its first)
        pair = _count(store, "SELECT COUNT(*) AS n FROM login_attempts WHERE ip = ? AND email = ? AND at >= ?"
                             " AND ok = 0 AND kind = 'password'", (ip, email.strip(), since))
        # pragma: no mutate end
        if pair >= PASSWORD_PER_PAIR:
            return "pair"
        # pragma: no mutate start (SQL)
        everywhere = _count(store, "SELECT COUNT(*) AS n FROM login_attempts WHERE email = ? AND at >= ?"
                                   " AND ok = 0 AND kind = 'password'", (email.strip(), since))
        # pragma: no mutate end
        if everywhere >= PASSWORD_PER_ADDRESS:
            return "address"
    if kind == "link":
        asked = _count(store, "SELECT COUNT(*) AS n FROM login_attempts WHERE ip = ? AND at >= ? AND kind = 'link'",  # pragma: no mutate (SQL)
                       (ip, since))
        if asked >= LINKS_PER_CLIENT:
            return "links"
    return ""


def link_mail_allowed(store, now: datetime, email: str) -> bool:
    """Whether another sign-in link may be mailed to ``email`` now (at most LINKS_PER_ADDRESS an hour)."""
    return _count(store, "SELECT COUNT(*) AS n FROM outbox WHERE kind = 'login' AND to_addr = ? AND created >= ?",  # pragma: no mutate (SQL)
                  (email.strip(), iso(now - HOUR))) < LINKS_PER_ADDRESS
