"""Mail in: one path for every door (SMTP receiver, IMAP poller, mail-server pipe).

``receive(service, raw, source)`` stores the raw message first and returns;
only then may the door acknowledge it. ``process(service, inbound_id)`` reads
a stored message, authenticates its seat by the key in its first line (never
by the From address), carries out the orders or command, queues the answer,
and marks the message processed, all in one transaction: a crash at any
moment leaves the message stored and unprocessed, to be processed again.
"""

from __future__ import annotations

from datetime import datetime, timedelta

from pbem.server import deadlines
from pbem.core.orders import OrdersError, parse_header
from pbem.core.orders import fold
from pbem.games import rulesets
from pbem.server.mail.inbound import parse_message
from pbem.server.mail.outbox import queue
from pbem.server.mail.reply import summary
from pbem.server.service import Service, ServiceError, redact_key
from pbem.server.store import NoSuchGame
from pbem.server.leagues import mail as league_mail

LIMIT_BYTES = 512 * 1024
REPLY_LIMIT = 20_000  # characters: no answer grows without bound
FAILURES_PER_HOUR = 5  # wrong keys from one address before it is slowed down
COMMANDS = ("HELP", "STATUS", "REPORT", "ORDERS", "VACATION", "ANSWER", "KEY")

HELP = """pbem: how to play by mail

Every mail to the server starts with a line naming the game and carrying
your seat's secret key; SIDE (your seat) and TURN are optional and checked
if given:

  GAME 17 KEY your-key-here
  GAME 17 SIDE Austria TURN 7AM KEY your-key-here

Then either your orders, one per line (see the order template in your last
report), or one of these commands on the next line:

  STATUS               the game's state and your deadline
  REPORT               your last report again
  ORDERS               the orders on file for the coming day
  VACATION <days>      move the game's deadline by some days (within the game's limit)
  ANSWER <n> <choice>  answer question n the server asked you
  KEY                  a new secret key (the old one stops working)
  HELP                 this text (no first line needed)

Orders you send replace any you sent before for the same day. Write FINAL on
a line of its own to let the day be resolved before the deadline.
"""


def receive(service: Service, raw: bytes, source: str, received_at: datetime | None = None) -> tuple[int, bool]:
    """Store a message; returns (id, duplicate). The door acknowledges only after this."""
    return service.store.store_inbound(raw, source, received_at=received_at or service.now())


def process_pending(service: Service) -> int:
    count = 0
    for inbound_id in service.store.pending_inbound():
        process(service, inbound_id)
        count += 1
    return count


def reply(service: Service, to: str, subject: str, body: str, game_id=None, in_reply_to=None,
          key: str | None = None) -> None:
    if len(body) > REPLY_LIMIT:
        body = body[:REPLY_LIMIT] + "\n\n[... cut: the answer was too long]"
    queue(service.store, to, subject, body, kind="reply", game_id=game_id, in_reply_to=in_reply_to,
          dedupe_key=key)


def process(service: Service, inbound_id: int) -> dict:
    """Handle one stored message exactly once; returns what was done."""
    store = service.store
    row = store.get_inbound(inbound_id)
    if row is None or row["status"] != "stored":
        return {"skipped": True}
    with service.lock, store.transaction():
        result = handle(service, row)
        status = result.pop("status", "processed")
        store.mark_inbound(inbound_id, status, result)
    return result


def handle(service: Service, row: dict) -> dict:
    msg = parse_message(row["raw"], LIMIT_BYTES, has_orders=lambda text: bool(text.strip()), words=mail_words())
    dedupe = f"answer:{row['id']}"
    subject = "Re: " + (msg.subject or "your mail")[:200]
    if msg.auto:
        return {"status": "dropped", "why": f"automatic mail ({msg.auto_reason}); never answered"}
    if not msg.from_addr:
        return {"status": "dropped", "why": "no sender address to answer"}
    to = msg.answer_to
    if msg.too_big:
        reply(service, to, subject, f"Your message is larger than {LIMIT_BYTES // 1024} KB and was not read. "
                                    "Send your orders as plain text in the body of the mail.",
              in_reply_to=msg.message_id, key=dedupe)
        return {"why": "too big"}
    if msg.problem:
        reply(service, to, subject, f"Your message could not be read: {msg.problem}.\n\n"
                                    "Send your orders as plain text in the body of the mail.",
              in_reply_to=msg.message_id, key=dedupe)
        return {"why": msg.problem}
    problems = []
    header, body = parse_header(msg.text, problems)
    lines = [text.strip() for _, text in body if text.strip() and not text.strip().startswith("#")]
    first = lines[0].split() if lines else []
    command = first[0].upper() if first and first[0].upper() in COMMANDS else None
    if header.line == 0 and (command == "HELP" or not lines and not msg.cuts):
        reply(service, to, subject, HELP, in_reply_to=msg.message_id, key=dedupe)
        return {"command": "HELP"}
    if header.line == 0 and league_mail.is_league_command(first):  # LEAGUE 3 JOIN, TOURNAMENT 5 ENTER
        answer, done = league_mail.run(service, msg.from_addr, first)
        reply(service, to, subject, answer, in_reply_to=msg.message_id, key=dedupe)
        return done
    if header.line == 0 or header.game is None or header.key is None:
        reply(service, to, subject, "Your mail has no first line naming the game and carrying your key, "
                                    "so nothing was done." + read_note(msg) + "\n\n" + HELP,
              in_reply_to=msg.message_id, key=dedupe)
        return {"why": "no header"}
    try:
        game_id = int(str(header.game).lstrip("#"))
        service.store.get_game(game_id)
    except (ValueError, NoSuchGame):
        reply(service, to, subject, f"There is no game {header.game!r} on this server; nothing was done.",
              in_reply_to=msg.message_id, key=dedupe)
        return {"why": "no such game"}
    titles = service.seat_titles(game_id)
    if header.side is None:  # GAME and KEY name the seat: the seat whose key it is
        side = next((s for s in titles if service.check_key(game_id, s, str(header.key))), None)
        if side is None:
            reply(service, to, subject, f"The key in your mail is not the key of any seat in game {game_id}; "
                                        f"nothing was done.", game_id=game_id, in_reply_to=msg.message_id, key=dedupe)
            return {"why": "wrong key", "from": msg.from_addr, "game": game_id}
    else:
        side = next((s for s, title in titles.items() if fold(str(header.side)) in (fold(s), fold(title))), None)
    if side is None:
        reply(service, to, subject, f"Game {game_id} has no side called {header.side!r} "
                                    f"(the sides are {', '.join(titles.values())}).",
              game_id=game_id, in_reply_to=msg.message_id, key=dedupe)
        return {"why": "no such side"}
    if not authenticate(service, game_id, side, header.key, msg.from_addr, row):
        return {"why": "wrong key", "from": msg.from_addr, "game": game_id, "side": side}
    seat = service.seat(game_id, side)
    tag = f"[pbem {game_id}]"
    copy_to = seat["email"] if seat["email"] and seat["email"].lower() != msg.from_addr.lower() else None

    def answer(text: str, what: str) -> None:
        reply(service, to, f"{tag} {what}", text, game_id, msg.message_id, key=dedupe)
        if copy_to:
            reply(service, copy_to, f"{tag} {what} (copy: sent from {msg.from_addr})", text, game_id,
                  key=dedupe + ":copy")

    try:
        if command:
            text = run_command(service, game_id, side, command, first[1:])
            answer(text, command.title())
            return {"command": command, "game": game_id, "side": side}
        submission = service.submit(game_id, side, msg.text, source=row["source"], who=msg.from_addr)
    except (ServiceError, OrdersError) as exc:
        answer(f"Nothing was done: {exc}" + read_note(msg), "Refused")
        return {"why": str(exc), "game": game_id, "side": side}
    answer(submission.message() + read_note(msg), "Orders accepted" if submission.ok else "Orders NOT accepted")
    return {"orders": submission.ok, "game": game_id, "side": side, "day": submission.day,
            "problems": [str(p) for p in submission.problems]}


def mail_words() -> frozenset[str]:
    """The words that begin a line of orders in any installed game: a line starting with one
    is the player's, never a quote, footer or signature. (The game is named in the mail's
    header, which is found only once the mail is read; every game's words only protect more.)"""
    return frozenset().union(*(r.mail_words for r in rulesets().values()))


def read_note(msg) -> str:
    """What of the mail was read and what ignored, for the acknowledgement ("" if all was read)."""
    ignored = summary(msg.cuts)
    if not ignored:
        return ""
    lines = [" ".join(line.split()) for line in redact_key(msg.text).splitlines() if line.strip()]
    read = "nothing" if not lines else f"1 line, {lines[0][:60]!r}" if len(lines) == 1 else (
        f"{len(lines)} lines, from {lines[0][:60]!r} to {lines[-1][:60]!r}")
    return f"\n\nRead from your mail: {read}.\nIgnored: {ignored}."


def authenticate(service: Service, game_id: int, side: str, key, from_addr: str, row: dict) -> bool:
    """The key decides, never the From address. Wrong keys are refused, told to the
    seat's registered address, and slowed down when they repeat."""
    store = service.store
    if service.check_key(game_id, side, str(key)):
        return True
    since = deadlines.iso(service.now() - timedelta(hours=1))
    recent = [a for a in store.read_audit(game_id)
              if a["action"] == "wrong_key" and a["at"] >= since and a["detail"].get("from") == from_addr.lower()]
    store.audit(from_addr, "wrong_key", game_id, detail={"from": from_addr.lower(), "side": side,
                                                          "inbound": row["id"]})
    if len(recent) >= FAILURES_PER_HOUR:
        return False  # slowed down: no more answers to this address for a while
    reply(service, from_addr, f"[pbem {game_id}] Refused: wrong key",
          f"The key in your mail is not the key of {service.seat_title(game_id, side)} in game {game_id}; nothing was done.\n"
          f"If you lost your key, ask the game's moderator for a new one.", game_id, key=f"answer:{row['id']}")
    seat = service.seat(game_id, side)
    if seat["email"] and seat["email"].lower() != from_addr.lower():
        reply(service, seat["email"], f"[pbem {game_id}] Someone used a wrong key for your seat",
              f"A mail from {from_addr} tried to act for {service.seat_title(game_id, side)} in game {game_id} with a wrong key. "
              f"It was refused. If it was not you, nothing needs doing; your key is unchanged.", game_id,
              key=f"answer:{row['id']}:owner")
    return False


def run_command(service: Service, game_id: int, side: str, command: str, args: list[str]) -> str:
    if command == "HELP":
        return HELP
    if command == "STATUS":
        return service.status(game_id, side)
    if command == "REPORT":
        service.resend_report(game_id, side)
        return "Your last report is on its way again."
    if command == "ORDERS":
        text = service.orders_on_file(game_id, side)
        return "Orders on file for the coming day:\n\n" + (text or "(none)")
    if command == "VACATION":
        if len(args) != 1 or not args[0].isdigit():
            raise ServiceError("write VACATION and a number of days, like: VACATION 5")
        new = service.vacation(game_id, side, int(args[0]))
        return f"Vacation taken. The deadline is now {deadlines.local_time(new, service.seat(game_id, side)['timezone'])}."
    if command == "ANSWER":
        if len(args) < 1 or not args[0].isdigit():
            raise ServiceError("write ANSWER, the question's number, then your choices: ANSWER 3 F2")
        return service.answer(game_id, side, int(args[0]), list(args[1:]))
    if command == "KEY":
        service.rotate_key(game_id, side)
        return "A new key was made and mailed to the seat's registered address."
    raise ServiceError(f"unknown command {command}")
