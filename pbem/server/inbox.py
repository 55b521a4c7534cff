"""Mail in: one path for every door (SMTP receiver, IMAP poller, mail-server pipe).

``receive(service, raw, source)`` stores the raw message first and returns;
only then may the door acknowledge it. ``process(service, inbound_id)`` reads
a stored message, authenticates its seat by the key in its first line (never
by the From address), carries out the orders or command, queues the answer,
and marks the message processed, all in one transaction: a crash at any
moment leaves the message stored and unprocessed, to be processed again. The
message is parsed before that transaction, outside the service's lock, and
only if its MIME structure is within bounds (pbem.server.mail.bounds): a
hostile mail costs its own parse, never a stall of the site.

Mail not proven by a seat key is a stranger's: its answer is a fixed text
that quotes nothing of it, and answers are capped (pbem.server.throttle).
Robots' mail is never answered (pbem.server.mail.inbound, .robots).
"""

from __future__ import annotations

import logging
import re
import threading
import time
from concurrent.futures import Future
from datetime import datetime

from pbem.server import addresses, deadlines, i18n, throttle
from pbem.server.i18n import N_
from pbem.core.orders import HEADER_ALIASES, OrdersError, header_words, parse_header
from pbem.core.orders import fold
from pbem.games import rulesets
from pbem.server.mail import bounds, commands
from pbem.server.mail.inbound import Inbound, parse_message
from pbem.server.mail.outbox import queue
from pbem.server.mail.quoting import PLACEHOLDER
from pbem.server.mail.reply import NAMED_KINDS, QUOTED_KINDS, summary
from pbem.server.service import Service, ServiceError, redact_key
from pbem.server.service.orders import KEY_SPACE
from pbem.server.service.players import vacation_span
from pbem.server.store import NoSuchGame
from pbem.server.leagues import mail as league_mail

LIMIT_BYTES = 512 * 1024
REPLY_LIMIT = 20_000  # characters: no answer grows without bound
FAILURES_PER_HOUR = throttle.STRANGER_PER_ADDRESS  # answers to wrong keys (and other unproven mail) an hour
STRANGER_SUBJECT = N_("[pbem] Your mail to the game server")
COMMANDS = commands.COMMANDS  # read in every language: pbem.server.mail.commands
ALONE = ("STATUS", "REPORT", "ORDERS", "KEY", "REMATCH")  # commands that take nothing after them
# the subjects of the answers to a seat's mail, by what was done
SUBJECTS = {"Refused": N_("Refused"), "Orders accepted": N_("Orders accepted"),
            "Orders NOT accepted": N_("Orders NOT accepted"), "Press": N_("Press"), "Status": N_("Status"),
            "Report": N_("Report"), "Orders": N_("Orders"), "Vacation": N_("Vacation"), "Answer": N_("Answer"),
            "Key": N_("Key"), "Resign": N_("Resign"), "Draw": N_("Draw"), "Rematch": N_("Rematch"),
            "Help": N_("Help"), "Language": N_("Language")}
BATCH = 64  # stored messages handled in one transaction
BATCH_SECONDS = 0.1  # at most this long under the lock (then the rest in the next batch)
log = logging.getLogger(__name__)

HELP = commands.help_text  # the HELP mail in a language, its commands in that language's words


def receive(service: Service, raw: bytes, source: str, received_at: datetime | None = None) -> tuple[int, bool]:
    """Store a message; returns (id, duplicate). The door acknowledges only after this."""
    return service.store.store_inbound(raw, source, received_at=received_at or service.now())


class Receipts:
    """Messages handed in by several threads at once (the SMTP receiver's connections), stored a
    round at a time: every message waiting when a round begins is stored in one transaction, and
    each ``receive`` returns only once the commit that holds its message is done -- so a door still
    acknowledges only what is stored, for one commit (an fsync) a round instead of one a message.
    A round whose transaction fails is stored again one message at a time, each failing alone.
    ``stop()`` ends the thread that stores them."""

    ROUND = 64  # messages stored in one commit at most

    def __init__(self, service: Service, source: str = "smtp"):
        self.service, self.source = service, source
        self._waiting: list[tuple[bytes, Future]] = []
        self._cond = threading.Condition()
        self._stopping = False
        self.rounds = 0  # commits made (for the benchmark: messages / rounds is the mean round)
        self._thread = threading.Thread(target=self._run, name="receipts", daemon=True)
        self._thread.start()

    def receive(self, raw: bytes) -> tuple[int, bool]:
        """Store a message; returns (id, duplicate) once it is committed (raises if it could not be)."""
        done: Future = Future()
        with self._cond:
            if self._stopping:
                raise RuntimeError("the receiver is stopping")
            self._waiting.append((raw, done))
            self._cond.notify()
        return done.result()

    def stop(self) -> None:
        with self._cond:
            self._stopping = True
            self._cond.notify()
        self._thread.join(timeout=30)

    def _run(self) -> None:
        while True:
            with self._cond:
                while not self._waiting and not self._stopping:
                    self._cond.wait()
                if not self._waiting:
                    return  # stopping, nothing left
                taken, self._waiting = self._waiting[:self.ROUND], self._waiting[self.ROUND:]
            self._store(taken)

    def _store(self, taken: list[tuple[bytes, Future]]) -> None:
        try:
            with self.service.store.transaction():
                stored = [receive(self.service, raw, self.source) for raw, _ in taken]
        except Exception:  # noqa: BLE001 - each again alone: one bad message fails alone
            for raw, done in taken:
                try:
                    done.set_result(receive(self.service, raw, self.source))
                except Exception as error:  # noqa: BLE001 - the door answers 451: the sender tries again
                    done.set_exception(error)
                self.rounds += 1
            return
        self.rounds += 1
        for (_, done), result in zip(taken, stored):
            done.set_result(result)


def process_pending(service: Service, batch: int = BATCH, seconds: float = BATCH_SECONDS) -> int:
    """Process every stored message, oldest first; returns how many were done.

    Messages are read ``batch`` at a time (each parsed once, outside the lock) and
    handled in transactions of at most ``seconds`` each (``process_batch``): one
    commit -- an fsync, what mail processing cost most -- for many mails."""
    count = 0
    for start in range(0, len(pending := service.store.pending_inbound()), batch):
        parsed = parse_batch(service, pending[start:start + batch])
        while parsed:
            taken = handle_batch(service, parsed, seconds)
            count += taken
            parsed = parsed[taken:]
    return count


def parse_batch(service: Service, inbound_ids: list[int]) -> list[tuple[int, dict | None, Inbound | None]]:
    """(id, row, parsed message) of stored messages, read outside any lock (None: not stored now); their
    rows in one read."""
    parsed = []
    rows = service.store.inbound_rows(inbound_ids)
    for inbound_id in inbound_ids:
        row = rows.get(inbound_id)
        parsed.append((inbound_id, row, read(row) if row is not None and row["status"] == "stored" else None))
    return parsed


def process_batch(service: Service, inbound_ids: list[int], seconds: float = BATCH_SECONDS) -> int:
    """Parse stored messages, then handle them in one transaction (``handle_batch``); returns how
    many were taken (the rest are left stored)."""
    return handle_batch(service, parse_batch(service, inbound_ids), seconds)


def handle_batch(service: Service, parsed: list, seconds: float = BATCH_SECONDS) -> int:
    """Handle parsed messages in one transaction, each exactly once; returns how many were taken.

    Each is handled and marked in a savepoint of its own: a message whose handling
    fails is rolled back alone (logged, left stored, tried again later), the others
    commit. A crash before the commit leaves every message of the batch stored, to be
    processed again; their answers carry dedupe keys. The batch stops taking messages
    once ``seconds`` have passed, so that it never holds the lock long (the first mail
    of a seat pays a scrypt)."""
    store = service.store
    taken = 0
    started = time.monotonic()
    with service.lock, store.transaction():
        for inbound_id, row, msg in parsed:
            if taken and time.monotonic() - started > seconds:
                break
            taken += 1
            if msg is None:
                continue
            try:
                with store.transaction():  # a savepoint: this message alone is rolled back if it fails
                    if store.inbound_status(inbound_id) != "stored":
                        continue  # another worker got there first
                    result = handle(service, row, msg)
                    status = result.pop("status", "processed")
                    store.mark_inbound(inbound_id, status, result)
            except Exception:  # noqa: BLE001 - left stored, tried again when next woken
                log.exception("could not process inbound message %s", inbound_id)
    return taken


def reply(service: Service, to: str, subject: str, body: str, game_id=None, in_reply_to=None,
          key: str | None = None, source: str = "", kind: str = "player", lang: str | None = None) -> bool:
    """Queue an answer, unless its cap is reached (pbem.server.throttle); returns whether it was queued.

    ``kind`` is "stranger" for an answer to mail no seat key proved, "owner" for a
    notice to a seat's owner, "player" otherwise.
    """
    to = addresses.clean_address(to)
    if to is None:
        return False
    if throttle.may_answer(service.store, service.now(), to, source, stranger=kind == "stranger"):
        tell_held(service, to, key, lang, stranger=kind == "stranger")
        return False
    if len(body) > REPLY_LIMIT:
        body = body[:REPLY_LIMIT] + "\n\n" + i18n.translate(lang or service.store.language_of(to),
                                                            "[... cut: the answer was too long]")
    queue(service.store, to, subject, body, kind="reply", game_id=game_id, in_reply_to=in_reply_to,
          dedupe_key=key, lang=lang)
    throttle.note_answer(service.store, service.now(), to, source, kind)
    return True


HELD_SUBJECT = N_("[pbem] Answers held for an hour")
HELD = N_("The server has sent this address as many answers as it sends in an hour. Further answers are held "
          "until %(until)s: mail sent meanwhile is still read, and what a right key asks of a game is done, but it "
          "is not answered. This notice is sent once.")


HELD_UNPROVEN = N_("The server has sent this address as many answers to mail that no right seat key proves (no "
                   "first line, a game or side it does not have, a wrong key) as it sends in an hour. Such answers "
                   "are held until %(until)s. Mail whose first line carries a right seat key is still read, done "
                   "and answered. This notice is sent once.")


def tell_held(service: Service, to: str, key: str | None, lang: str | None, stranger: bool = False) -> None:
    """Tell ``to``, once an hour, that a cap holds its answers (pbem.server.throttle.may_tell_held): a fixed
    text, nothing of any mail in it. When only the cap on answers to unproven mail holds (``stranger``, and the
    cap on every answer to the address is not reached), it says that mail with a right key is still answered."""
    now = service.now()
    if not throttle.may_tell_held(service.store, now, to):
        return
    tr = i18n.translator(lang or service.store.language_of(to))
    until = deadlines.moment_text(now + throttle.HOUR, "UTC", lang=tr.lang)
    only_unproven = stranger and not throttle.may_answer(service.store, now, to, "", stranger=False)
    text = HELD_UNPROVEN if only_unproven else HELD
    queue(service.store, to, tr.gettext(HELD_SUBJECT), tr.gettext(text, until=until), kind="held",
          dedupe_key=f"held:{key}" if key else None, lang=tr.lang)
    throttle.note_answer(service.store, now, to, "", "held")


def read(row: dict) -> Inbound:
    """Parse a stored message, within bounds (no lock or transaction is held meanwhile)."""
    raw = bytes(row["raw"])
    problem = bounds.problem(raw)
    if not problem:
        return parse_message(raw, LIMIT_BYTES, has_orders=lambda text: bool(text.strip()), words=mail_words())
    head_end = min((i for i in (raw.find(b"\n\n"), raw.find(b"\r\n\r\n")) if i >= 0), default=len(raw))
    msg = parse_message(raw[:head_end] + b"\r\n\r\n", LIMIT_BYTES)  # the head alone: sender, robot or not
    msg.problem = problem  # over a bound: that is what to tell, whatever the head alone looks like
    msg.text = ""
    return msg


def process(service: Service, inbound_id: int) -> dict:
    """Handle one stored message exactly once; returns what was done."""
    store = service.store
    row = store.get_inbound(inbound_id)
    if row is None or row["status"] != "stored":
        return {"skipped": True}
    msg = read(row)
    with service.lock, store.transaction():
        if store.inbound_status(inbound_id) != "stored":
            return {"skipped": True}  # another worker got there first
        result = handle(service, row, msg)
        status = result.pop("status", "processed")
        store.mark_inbound(inbound_id, status, result)
    return result


def handle(service: Service, row: dict, msg: Inbound | None = None) -> dict:
    msg = msg if msg is not None else read(row)
    dedupe = f"answer:{row['id']}"
    if msg.auto:
        return {"status": "dropped", "why": f"automatic mail ({msg.auto_reason}); never answered"}
    sender = addresses.clean_address(msg.from_addr)
    to = addresses.answer_address(row["raw"], msg.head)
    if not sender or not to:
        return {"status": "dropped", "why": "no valid sender address to answer"}

    # an address's own choice, else the language its mail program says (docs/translating.md), else English
    chosen = service.store.language_of(to, default=None) or i18n.best_match(msg.accept_language) \
        or i18n.best_match(msg.content_language)
    lang = chosen or i18n.DEFAULT
    tr = i18n.translator(lang)

    def stranger(text: str, why: str) -> dict:
        """A fixed answer to mail no key proved: nothing of the mail is quoted in it. In English by
        default, it ends with a line in each other language saying how to have it in that one."""
        if chosen is None:
            text += "\n\n" + choose_language_lines()
        sent = reply(service, to, tr.gettext(STRANGER_SUBJECT), text, in_reply_to=msg.message_id, key=dedupe, source=sender,
                     kind="stranger", lang=lang)
        return {"why": why, "answered": sent}

    if msg.too_big:
        return stranger(tr.gettext("Your message is larger than %(size)d KB and was not read. Send your orders as "
                                   "plain text in the body of the mail.", size=LIMIT_BYTES // 1024), "too big")
    if msg.problem:
        return stranger(tr.gettext("Your message could not be read (its MIME structure is broken or too large).\n\n"
                                   "Send your orders as plain text in the body of the mail."), msg.problem)
    problems = []
    header, body = parse_header(msg.text, problems)
    lines = [text.strip() for _, text in body if text.strip() and not text.strip().startswith("#")]
    said = commands.read(lines[0]) if lines else None  # a command, in any language (AIDE, СТАТУС, 休假5)
    command = said.name if said is not None and said.name in COMMANDS else None
    if command in ALONE and said.args:  # "Ordres :" heads a list of orders: read as orders, refused if not
        command = None
    first = [command, *said.args] if command else lines[0].split() if lines else []
    if header.line == 0 and chosen is None and said is not None and said.lang != i18n.DEFAULT \
            and (command == "HELP" or said.name in commands.LEAGUE_COMMANDS):
        chosen = lang = said.lang  # AIDE, 帮助, LIGUE: the word says which language its writer reads
        tr = i18n.translator(lang)
    if header.line == 0 and (command == "HELP" or not lines and not msg.cuts):
        result = stranger(HELP(lang) + your_deadlines(service, to, lang), "help")  # every answer tells the deadlines
        result["command"] = "HELP"
        return result
    if header.line == 0 and said is not None and said.name in commands.LEAGUE_COMMANDS:  # LEAGUE 3 JOIN
        answer, done = league_mail.run(service, sender, [said.name, *said.args], lang)
        # to the From address alone, the one signed up (never a Reply-To): capped as a stranger's, but for the
        # answer to the right code (the mail proved itself as a seat key does)
        done["answered"] = reply(service, sender, tr.gettext(STRANGER_SUBJECT), answer, in_reply_to=msg.message_id,
                                 key=dedupe, source=sender, kind="player" if done.get("confirmed") else "stranger",
                                 lang=lang)
        return done
    named = known_game(service, header.game) if header.line else None
    if named is not None and (header.key is None or PLACEHOLDER.match(str(header.key).replace(" ", ""))):
        # the first line names a game, but the key is missing or still the form's placeholder: say so, and where
        # the key is (a stranger's answer all the same: nothing of the mail is quoted back)
        key = header_words(lang)["KEY"]
        said = (tr.gettext("The first line of your mail names game %(game)s but carries no key, so nothing was done: "
                           "write %(key)s and your seat's key on that line (%(example)s).", game=named, key=key,
                           example=f"{header_words(lang)['GAME']} {named} {key} ...") if header.key is None else
                tr.gettext("The first line of your mail names game %(game)s but its key is still the orders form's "
                           "placeholder %(placeholder)s, so nothing was done: put your seat's key in its place.",
                           game=named, placeholder=tr.gettext("<your-key>")))  # fixed words: nothing of theirs
        return stranger(said + "\n\n" + where_is_the_key(service, named, lang), "no key")
    if header.line == 0 or header.game is None or header.key is None:
        # what was read, without quoting it: a stranger's lines never go back to whoever Reply-To names
        return stranger(tr.gettext("Your mail has no first line naming the game and carrying your key, so nothing "
                                   "was done.") + stranger_read_note(msg, lang) + quoted_form_note(msg, lang)
                        + your_deadlines(service, to, lang)
                        + "\n\n" + HELP(lang), "no header")
    try:
        game_id = int(str(header.game).lstrip("#"))
        service.store.get_game(game_id)
    except (ValueError, NoSuchGame):
        return stranger(tr.gettext("Your mail names a game this server does not have; nothing was done."),
                        "no such game")
    if header.side is None:  # GAME and KEY name the seat: the seat whose key it is
        side = next((s for s in service.seat_titles(game_id) if service.check_key(game_id, s, str(header.key))), None)
        if side is None:
            service.store.audit(sender, "wrong_key", game_id, detail={"from": sender.lower(), "inbound": row["id"]})
            return {**stranger(tr.gettext("The key in your mail is not the key of any seat in game %(game)s; nothing "
                                          "was done.", game=game_id) + "\n\n" + where_is_the_key(service, game_id, lang),
                               "wrong key"),
                    "from": sender, "game": game_id}
    else:
        side = service.seat_named(game_id, str(header.side))
    if side is None:
        return {**stranger(tr.gettext("Your mail names a side game %(game)s does not have (the sides are %(sides)s); "
                                      "nothing was done.", game=game_id,
                                      sides=tr.listed(list(service.seat_titles(game_id, lang).values()))),
                           "no such side"), "game": game_id}
    if not authenticate(service, game_id, side, header.key, sender, row, lang=chosen):
        return {"why": "wrong key", "from": sender, "game": game_id, "side": side}
    seat = service.seat(game_id, side)
    tag = f"[pbem {game_id}]"
    lang = service.lang_of(game_id, side)  # a seat's answers are in its player's language
    copy_to = seat["email"] if seat["email"] and seat["email"].lower() != sender.lower() else None

    def answer(text: str, what: str) -> None:
        tr = i18n.translator(lang)
        if "Deadline:" not in text:  # every answer tells the deadline, in the seat's zone
            line = service.deadline_line(game_id, side, lang)
            if line and line not in text:
                text = f"{text}\n\n{line}"
        what = tr.gettext(SUBJECTS[what]) if what in SUBJECTS else what
        reply(service, to, f"{tag} {what}", text, game_id, msg.message_id, key=dedupe, source=sender)
        if copy_to:
            reply(service, copy_to, f"{tag} {what} " + tr.gettext("(copy: sent from %(sender)s)", sender=sender), text,
                  game_id,
                  key=dedupe + ":copy", source=sender)

    try:
        if command == "PRESS":
            rest = [text for _, text in body]
            start = next(i for i, text in enumerate(rest) if text.strip() and not text.strip().startswith("#"))
            names = " ".join(first[1:]).split(",") if first[1:] else []
            text = service.send_press(game_id, side, names, "\n".join(rest[start + 1:]), who=sender)
            answer(text, "Press")
            return {"command": command, "game": game_id, "side": side}
        if command:
            text = run_command(service, game_id, side, command, first[1:])
            lang = service.lang_of(game_id, side)  # LANGUAGE may have changed it: answered in the new one
            if command == "HELP" and seat["email"] and seat["email"].lower() == to.lower():
                text += your_deadlines(service, seat["email"], lang)  # every seat the address holds, this one's too
            answer(text, command.title())
            return {"command": command, "game": game_id, "side": side}
        submission = service.submit(game_id, side, msg.text, source=row["source"], who=sender, lang=lang)
    except (ServiceError, OrdersError) as exc:
        answer(i18n.translate(lang, "Nothing was done: %(why)s", why=i18n.error_text(exc, lang)) + read_note(msg, lang),
               "Refused")
        return {"why": str(exc), "game": game_id, "side": side}
    text, note = submission.message(), not_a_command(submission, body, lang)
    if note:  # after the problems, before the deadline
        head, gap, deadline = text.rpartition("\n\n") if submission.deadline else (text, "", "")
        text = head + note + gap + deadline
    answer(text + read_note(msg, lang), "Orders accepted" if submission.ok else "Orders NOT accepted")
    return {"orders": submission.ok, "game": game_id, "side": side, "day": submission.day,
            "problems": [str(p) for p in submission.problems]}


# TRANSLATORS: said in your language, of your language ("En français : ... choisissez le français ...")
CHOOSE_LANGUAGE = N_("In English: write LANGUAGE %(code)s on the line after GAME ... KEY ..., or choose English on "
                     "the site's pages.")


def choose_language_lines() -> str:
    """One line in each language but English: how to have the server's mails in it."""
    return "\n".join("-- " + i18n.translate(code, CHOOSE_LANGUAGE, code=code)
                     for code in i18n.LANGUAGES if code != i18n.DEFAULT)


def mail_words() -> frozenset[str]:
    """The words that begin a line of orders in any installed game: a line starting with one
    is the player's, never a quote, footer or signature. (The game is named in the mail's
    header, which is found only once the mail is read; every game's words only protect more.)

    Made once for the installed rulesets (a tenth of a mail's processing when made for each):
    made again when the rulesets are not the same objects as when it was made."""
    global _mail_words
    found = tuple(rulesets().values())
    made_for, words = _mail_words
    if len(made_for) != len(found) or any(a is not b for a, b in zip(made_for, found)):
        words = commands.mail_words().union(*(r.mail_words for r in found))  # and the mail commands
        _mail_words = (found, words)
    return words


_mail_words: tuple[tuple, frozenset[str]] = ((None,), frozenset())  # (the rulesets, their words): mail_words


ONLY_ALONE = N_("%(word)s is a mail command only alone on its line, with nothing after it.")
NOT_A_COMMAND = N_("Nor is %(word)s a mail command. The commands are %(commands)s; write %(help)s on the line "
                   "after the first for what each does.")


def not_a_command(submission, body: list[tuple[int, str]], lang: str) -> str:
    """For orders refused at their first word (a mail command misspelt, or one the server does not
    have: ``HLEP``, ``ПОМОГИ``): the mail commands, in the seat's words ("" otherwise)."""
    if submission.ok:
        return ""
    first = next(((n, t) for n, t in body if t.strip() and not t.strip().startswith("#")), None)
    if first is None:
        return ""
    number, text = first
    column = len(text) - len(text.lstrip()) + 1
    if not any(p.line == number and p.column == column for p in submission.problems):
        return ""  # refused further on: orders, not a command
    word = text.split()[0]
    if (said := commands.read(word)) is not None:  # ORDRES : -- a command's word, with something after it
        return "\n\n" + i18n.translate(lang, ONLY_ALONE, word=word) if said.name in ALONE else ""
    return "\n\n" + i18n.translate(lang, NOT_A_COMMAND, word=word, commands=commands.listed(lang),
                                    help=commands.words_in(lang)["HELP"])


def stranger_read_note(msg, lang: str = "en") -> str:
    """``read_note`` for mail no key proved: what was read and what ignored, counted, quoting
    nothing of it (the answer may go to whoever Reply-To names)."""
    tr = i18n.translator(lang)
    lines = [line for line in msg.text.splitlines() if line.strip() and not line.strip().startswith("#")]
    read = tr.gettext("nothing") if not lines else tr.ngettext(
        "%(num)d line, the first of them not a line like GAME 17 KEY your-key",
        "%(num)d lines, the first of them not a line like GAME 17 KEY your-key", len(lines))
    ignored = counted(msg.cuts, lang)
    ignored = tr.gettext("%(what)s, taken for quoted text, a footer or a signature", what=ignored) if ignored \
        else tr.gettext("nothing")
    return "\n\n" + tr.gettext("Read from your mail: %(read)s.\nIgnored: %(ignored)s.", read=read, ignored=ignored)


_GAME_WORDS = "|".join(re.escape(w) for w, k in HEADER_ALIASES.items() if k == "GAME")
QUOTED_HEADER = re.compile(rf"^[\s>]*(?:{_GAME_WORDS})\s*#?\d+(?:\b|(?=[\u4e00-\u9fff]))"
                           rf".*{KEY_SPACE}(\S+)", re.I)
"""An orders header (its words in any language: pbem.core.orders.HEADER_ALIASES) inside a quote; Chinese writes
it without spaces too (对局7密钥...)."""


def quoted_form_note(msg, lang: str = "en") -> str:
    """When the quoted mail holds an orders header with a real key (the player filled in the
    form where it stood, inside the quote), why nothing of it was read; quoting nothing."""
    for cut in msg.cuts:
        if cut.kind not in QUOTED_KINDS:
            continue
        for line in cut.lines:
            found = QUOTED_HEADER.match(line)
            if found and not PLACEHOLDER.match(found.group(1)):
                return "\n\n" + i18n.translate(lang, "You seem to have filled in the orders form inside the quoted "
                                                     "mail (the lines starting with >): quoted text is never read as "
                                                     "orders. Copy the form, header line first, and write your orders "
                                                     "above the quoted mail.")
    return ""


COUNTED = {"greeting": N_("a greeting"), "note": N_("a note"), "footer": N_("a footer"), "signature": N_("a signature"),
           "sign-off": N_("a sign-off")}


def counted(cuts, lang: str = "en") -> str:
    """What was left out of a mail, counted by kind, quoting nothing: "58 quoted lines, a footer (1 line)"."""
    tr = i18n.translator(lang)
    parts = []
    quoted = sum(c.count for c in cuts if c.kind in QUOTED_KINDS)
    if quoted:
        parts.append(tr.ngettext("%(num)d quoted line", "%(num)d quoted lines", quoted))
    for cut in cuts:
        if cut.kind in NAMED_KINDS and cut.count:
            parts.append(tr.gettext(COUNTED[cut.kind]) + " (" + tr.ngettext("%(num)d line", "%(num)d lines", cut.count)
                         + ")")
    return ", ".join(parts)


def known_game(service: Service, game) -> int | None:
    """The game a header names, when this server has it (None for a number it does not know, or no number)."""
    try:
        game_id = int(str(game).lstrip("#"))
        service.store.get_game(game_id)
    except (TypeError, ValueError, NoSuchGame):
        return None
    return game_id


def where_is_the_key(service: Service, game_id: int, lang: str = "en") -> str:
    """Where a player finds his seat's key, and how to get a new one (in ``lang``, with the subjects
    of the mails as that language writes them)."""
    tr = i18n.translator(lang)
    url = service.config.url.rstrip("/") if service.config is not None else ""
    page = tr.gettext("the game's web page (%(url)s)", url=f"{url}/games/{game_id}") if url \
        else tr.gettext("the game's web page")
    welcome = f"[pbem {game_id}] " + tr.gettext("Welcome: you play %(seat)s", seat="...")
    return (tr.gettext("Your key is in the welcome mail of game %(game)s (subject \"%(welcome)s\"), or in the mail "
                       "\"%(new_key)s\" if you made a new one since; the server keeps no copy of it. If you lost it, "
                       "sign in on %(page)s and press \"%(button)s\" (the page shows it and it is mailed to you; the "
                       "old one stops working), or ask the game's moderator for a new one.", game=game_id,
                       welcome=welcome, new_key=f"[pbem {game_id}] " + tr.gettext("Your new key"), page=page,
                       button=tr.gettext("Make a new key"))
            + "\n\n" + tr.gettext("The game's deadline: %(deadline)s.",
                                   deadline=service.deadline_in_zone(game_id, game_zone(service, game_id), lang=lang)))


def game_zone(service: Service, game_id: int) -> str:
    return (service.info(game_id).get("settings") or {}).get("timezone") or "UTC"


def your_deadlines(service: Service, address: str, lang: str = "en") -> str:
    """For mail with no header: the running games whose seats this address holds, and their
    deadlines (told only to the seat's own address, never to another Reply-To)."""
    lines = []
    for seat in service.store.seats_of(address):
        if seat["status"] not in ("running", "open", "paused"):
            continue
        game_id, side = seat["game_id"], seat["side"]
        lines.append("  " + i18n.translate(lang, "game %(game)s, %(seat)s: deadline %(deadline)s", game=game_id,
                                         seat=service.seat_title(game_id, side, lang),
                                         deadline=service.deadline_for(game_id, side, lang=lang)))
    if not lines:
        return ""
    return ("\n\n" + i18n.translate(lang, "Your games on this server (start your mail with GAME <number> KEY <your key>):")
            + "\n" + "\n".join(lines))


def read_note(msg, lang: str = "en") -> str:
    """What of the mail was read and what ignored, for the acknowledgement ("" if all was read)."""
    ignored = summary(msg.cuts, lang)
    if not ignored:
        return ""
    lines = [" ".join(line.split()) for line in redact_key(msg.text).splitlines() if line.strip()]
    if lang != "en":
        tr = i18n.translator(lang)
        read = tr.gettext("nothing") if not lines else tr.ngettext(
            "%(num)d line, from %(first)r to %(last)r", "%(num)d lines, from %(first)r to %(last)r", len(lines),
            first=lines[0][:60], last=lines[-1][:60])
        return "\n\n" + tr.gettext("Read from your mail: %(read)s.\nIgnored: %(ignored)s.", read=read, ignored=ignored)
    read = "nothing" if not lines else f"1 line, {lines[0][:60]!r}" if len(lines) == 1 else (
        f"{len(lines)} lines, from {lines[0][:60]!r} to {lines[-1][:60]!r}")
    return f"\n\nRead from your mail: {read}.\nIgnored: {ignored}."


def authenticate(service: Service, game_id: int, side: str, key, from_addr: str, row: dict,
                 lang: str | None = None) -> bool:
    """The key decides, never the From address. A wrong key is refused with a fixed answer
    (capped as any stranger's; in ``lang``, the language the mail's answer address chose or its
    mail program says, else the sender's choice, else English), and the seat's owner is told -- at
    most once every few hours, with the count of attempts since the last notice."""
    store = service.store
    if service.check_key(game_id, side, str(key)):
        return True
    store.audit(from_addr, "wrong_key", game_id, detail={"from": from_addr.lower(), "side": side,
                                                          "inbound": row["id"]})
    tr = i18n.translator(lang or store.language_of(from_addr))  # a stranger: the language his address chose, else English
    reply(service, from_addr, f"[pbem {game_id}] " + tr.gettext("Refused: wrong key"),
          tr.gettext("The key in your mail is not the key of %(seat)s in game %(game)s; nothing was done.",
                     seat=service.seat_title(game_id, side, tr.lang), game=game_id)
          + "\n\n" + where_is_the_key(service, game_id, tr.lang), game_id,
          key=f"answer:{row['id']}", source=from_addr, kind="stranger")
    seat = service.seat(game_id, side)
    if not seat["email"] or seat["email"].lower() == from_addr.lower():
        return False
    count = throttle.owner_notice(store, service.now(), game_id, side)
    if count:
        every = int(throttle.OWNER_NOTICE_EVERY.total_seconds() // 3600)  # pragma: no mutate (int(x / 3600) is x // 3600)
        tr = i18n.translator(service.lang_of(game_id, side))
        reply(service, seat["email"], f"[pbem {game_id}] " + tr.gettext("Someone used a wrong key for your seat"),
              (tr.ngettext("%(num)d mail tried to act for %(seat)s in game %(game)s with a wrong key since the last "
                           "notice (the latest from %(sender)s).",
                           "%(num)d mails tried to act for %(seat)s in game %(game)s with a wrong key since the last "
                           "notice (the latest from %(sender)s).", count,
                           seat=service.seat_title(game_id, side, tr.lang), game=game_id, sender=from_addr) + " "
               + tr.ngettext("All were refused; your key is unchanged, and nothing needs doing if you have it. You are "
                             "told at most once every %(num)d hour; the game's log lists every attempt.",
                             "All were refused; your key is unchanged, and nothing needs doing if you have it. You are "
                             "told at most once every %(num)d hours; the game's log lists every attempt.", every)
               + f"\n\n{service.deadline_line(game_id, side)}").rstrip(), game_id,
              key=f"answer:{row['id']}:owner", source=f"seat:{game_id}:{side}",
              kind="owner")
    return False


def run_command(service: Service, game_id: int, side: str, command: str, args: list[str]) -> str:
    tr = i18n.translator(service.lang_of(game_id, side))
    if command == "HELP":
        return HELP(tr.lang)
    if command == "LANGUAGE":
        return set_language(service, game_id, side, args)
    if command == "STATUS":
        return service.status(game_id, side)
    if command == "REPORT":
        service.resend_report(game_id, side)
        return tr.gettext("Your last report is on its way again.")
    if command == "ORDERS":
        text = service.orders_on_file(game_id, side)
        return tr.gettext("Orders on file for the coming day:") + "\n\n" + (text or tr.gettext("(none)"))
    if command == "VACATION" and args and args[0].upper() == "FROM":
        if len(args) != 4 or args[2].upper() != "TO":
            raise ServiceError("write %(vacation)s %(from)s <start> %(to)s <end>, like: %(vacation)s %(from)s 2026-12-20 "
                               "%(to)s 2027-01-03", **commands.words("VACATION", "FROM", "TO"))
        email = service.seat(game_id, side)["email"] or ""
        if not email:
            raise ServiceError("your seat has no address to schedule a vacation for")
        starts, ends = vacation_span(args[1], args[3])
        service.schedule_vacation(email, starts, ends)
        return tr.gettext("Vacation scheduled for %(email)s, from %(starts)s to %(ends)s: in every game that allows "
                          "vacations, a deadline that passes without your orders meanwhile waits for its end.",
                          email=email, starts=deadlines.moment_text(starts, "UTC", lang=tr.lang),
                          ends=deadlines.moment_text(ends, "UTC", lang=tr.lang))
    if command == "REMATCH":
        email = service.seat(game_id, side)["email"] or ""
        new = service.rematch(game_id, email)
        return tr.gettext("Game %(game)s is made: the seats are swapped, and each gets its welcome and key.",
                          game=service.label(new))
    if command == "RESIGN":
        if args:
            raise ServiceError("write %(resign)s alone on its line", **commands.words("RESIGN"))
        return service.resign(game_id, side)
    if command == "DRAW":
        word = args[0].upper() if args else "OFFER"  # in English: commands.read put a sub-word in any language so
        if len(args) > 1 or word not in ("OFFER", "ACCEPT", "DECLINE"):
            raise ServiceError("write %(draw)s (to offer one), %(draw)s %(accept)s or %(draw)s %(decline)s",
                               **commands.words("DRAW", "ACCEPT", "DECLINE"))
        if word == "OFFER":
            return service.offer_draw(game_id, side)
        return service.answer_draw(game_id, side, word == "ACCEPT")
    if command == "VACATION":
        if len(args) != 1 or not args[0].isdigit():
            raise ServiceError("write %(vacation)s and a number of days, like: %(vacation)s 5",
                               **commands.words("VACATION"))
        service.vacation(game_id, side, int(args[0]))
        return tr.gettext("Vacation taken.") + "\n\n" + service.deadline_line(game_id, side)
    if command == "ANSWER":
        if len(args) < 1 or not args[0].isdigit():
            raise ServiceError("write %(answer)s, the question's number, then your choices: %(answer)s 3 F2",
                               **commands.words("ANSWER"))
        return service.answer(game_id, side, int(args[0]), list(args[1:]))
    if command == "KEY":
        service.rotate_key(game_id, side)
        return tr.gettext("A new key was made and mailed to the seat's registered address.")
    raise ServiceError("unknown command %(command)s", command=command)



def set_language(service: Service, game_id: int, side: str, args: list[str]) -> str:
    """LANGUAGE <code>: the language of every mail to the seat's player from now on (and of his pages
    on the web, where he has not chosen another since)."""
    code = language_named(args[0]) if len(args) == 1 else None
    if code is None:
        raise ServiceError("write %(language)s and one of %(codes)s, like: %(language)s fr",
                           codes=", ".join(f"{c} ({name})" for c, name in i18n.LANGUAGES.items()),
                           **commands.words("LANGUAGE"))
    email = service.seat(game_id, side)["email"]
    if not email:
        raise ServiceError("your seat has no address to keep a language for")
    service.store.set_language(email, code)
    return i18n.translate(code, "From now on the server writes to you in English.")


def language_named(text: str) -> str | None:
    """The language a LANGUAGE command names: its code (fr, fr-CA) or its name, in its own language or in
    English, with or without accents (français, Francais, French, русский, 中文)."""
    code = i18n.normalise(text)
    if code is not None:
        return code
    names = {**{commands.folded(name): c for c, name in i18n.LANGUAGES.items()},
             **{commands.folded(name): c for c, name in ENGLISH_NAMES.items()}}
    return names.get(commands.folded(text))


ENGLISH_NAMES = {"en": "English", "fr": "French", "ru": "Russian", "uk": "Ukrainian", "zh": "Chinese"}
