"""The server's database: one SQLite file, WAL mode, foreign keys on.

``Store(path)`` opens (or creates) the file and applies the named migrations
that have not run yet; the ``migrations`` table records which ran. Tables are
changed by adding a migration, never by dropping and recreating them.

Every method is one transaction. To make several changes atomic (store the
orders, mark the mail processed, queue the reply), nest them in
``with store.transaction():`` -- a crash then leaves all or none of them.
A Store may be shared between threads: a lock serialises its writes, and a
read outside a transaction runs on a connection of its own (pbem.server.readers),
so it never waits for a writer. The store's lock is the last one taken: a
thread inside a transaction takes no other lock of the server that another
thread may hold while it waits for the store (the service's lock is taken
before the store's, never after: pbem.server.service.base.ServiceLock).

Times are ISO-8601 UTC strings (``2024-05-01T12:00:00Z``) from ``store.now()``;
pass ``clock=`` to control them in tests.
"""

from __future__ import annotations

import contextlib
import email.parser
import email.policy
import functools
import hashlib
import hmac
import json
import secrets
import sqlite3
import threading
import zlib
from datetime import datetime, timezone
from pathlib import Path

from sqlite_utils import Database
from sqlite_utils.migrations import Migrations
from sqlite_utils.utils import dedupe_keys

from pbem.core.chance import DICE_PLAIN, seed_of, seed_text
from pbem.server import dedupe
from pbem.server.readers import Readers

GAME_STATUSES = ("open", "running", "paused", "finished")
INBOUND_SOURCES = ("smtp", "imap", "pipe", "web")
INBOUND_STATUSES = ("stored", "processed", "dropped", "failed")
SCRYPT = dict(n=2**14, r=8, p=1, dklen=32)
"""A seat key's hash: scrypt at these parameters; a seat's row keeps the ``n`` it was hashed at (``key_cost``), so
a key is checked at the cost it was hashed with whatever ``n`` is now (NULL: hashed before the column, 2**14)."""
FIRST_KEY_COST = 2**14


class NoSuchGame(LookupError):
    """There is no game with this id."""


class NoSuchSeat(LookupError):
    """The game has no seat for this side."""


class SeatExists(ValueError):
    """The game already has a seat for this side."""


class PlayerExists(ValueError):
    """A player with this email address already exists."""


def now() -> datetime:
    """The current time, in UTC."""
    return datetime.now(timezone.utc)


def iso(when: datetime) -> str:
    """``when`` as the ISO-8601 UTC string stored in the database."""
    return when.astimezone(timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def new_key() -> str:
    """A fresh seat key: 144 random bits, URL-safe, 24 characters."""
    return secrets.token_urlsafe(18)


_ENCODER = json.JSONEncoder(sort_keys=True, separators=(",", ":"), ensure_ascii=False)
"""What ``json.dumps`` with these arguments makes anew at each call (a resolved day writes five values)."""


def _json(value) -> str:
    return _ENCODER.encode(value)


class _Migrations(Migrations):
    migrations_table = "migrations"


migrations = _Migrations("pbem")


@migrations(name="001_initial")
def _initial(db: Database) -> None:
    db.executescript(
        """
        CREATE TABLE players (
          id INTEGER PRIMARY KEY, email TEXT NOT NULL UNIQUE COLLATE NOCASE,
          name TEXT NOT NULL DEFAULT '', password_hash TEXT,
          timezone TEXT NOT NULL DEFAULT 'UTC', created TEXT NOT NULL);
        CREATE TABLE games (
          id INTEGER PRIMARY KEY, ruleset TEXT NOT NULL, scenario TEXT NOT NULL,
          seed INTEGER NOT NULL, title TEXT NOT NULL DEFAULT '',
          status TEXT NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'running', 'paused', 'finished')),
          settings TEXT NOT NULL DEFAULT '{}', created TEXT NOT NULL);
        CREATE TABLE seats (
          game_id INTEGER NOT NULL REFERENCES games(id), side TEXT NOT NULL,
          player_id INTEGER REFERENCES players(id), email TEXT COLLATE NOCASE,
          timezone TEXT NOT NULL DEFAULT 'UTC', key_hash BLOB, key_salt BLOB,
          missed INTEGER NOT NULL DEFAULT 0, vacation_from TEXT, vacation_to TEXT,
          PRIMARY KEY (game_id, side));
        CREATE INDEX seats_email ON seats(email);
        CREATE TABLE log (
          game_id INTEGER NOT NULL REFERENCES games(id), seq INTEGER NOT NULL,
          at TEXT NOT NULL, entry TEXT NOT NULL, PRIMARY KEY (game_id, seq));
        CREATE TRIGGER log_no_update BEFORE UPDATE ON log
          BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
        CREATE TRIGGER log_no_delete BEFORE DELETE ON log
          BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
        CREATE TABLE days (
          game_id INTEGER NOT NULL REFERENCES games(id), day INTEGER NOT NULL,
          side TEXT NOT NULL, resolved_at TEXT NOT NULL,
          digest TEXT NOT NULL DEFAULT '', events TEXT NOT NULL DEFAULT '[]',
          decisions TEXT NOT NULL DEFAULT '[]', PRIMARY KEY (game_id, day));
        CREATE TABLE inbound (
          id INTEGER PRIMARY KEY, received_at TEXT NOT NULL, message_id TEXT,
          raw BLOB NOT NULL,
          source TEXT NOT NULL CHECK (source IN ('smtp', 'imap', 'pipe', 'web')),
          status TEXT NOT NULL DEFAULT 'stored'
            CHECK (status IN ('stored', 'processed', 'dropped', 'failed')),
          result TEXT, processed_at TEXT);
        CREATE UNIQUE INDEX inbound_message_id ON inbound(message_id)
          WHERE message_id IS NOT NULL;
        CREATE INDEX inbound_status ON inbound(status, id);
        CREATE TABLE outbox (
          id INTEGER PRIMARY KEY, created TEXT NOT NULL, to_addr TEXT NOT NULL,
          subject TEXT NOT NULL, body TEXT NOT NULL, html TEXT,
          attachments TEXT NOT NULL DEFAULT '[]', kind TEXT NOT NULL DEFAULT '',
          game_id INTEGER REFERENCES games(id), in_reply_to TEXT,
          dedupe_key TEXT UNIQUE, message_id TEXT,
          status TEXT NOT NULL DEFAULT 'queued'
            CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
          attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at TEXT NOT NULL,
          last_error TEXT, sent_at TEXT);
        CREATE INDEX outbox_due ON outbox(status, next_attempt_at);
        CREATE TABLE audit (
          id INTEGER PRIMARY KEY, game_id INTEGER REFERENCES games(id),
          at TEXT NOT NULL, who TEXT NOT NULL, action TEXT NOT NULL,
          why TEXT NOT NULL DEFAULT '', detail TEXT NOT NULL DEFAULT '{}');
        CREATE INDEX audit_game ON audit(game_id, id);
        """
    )


@migrations(name="002_clock")
def _clock(db: Database) -> None:
    """Each game's clock: the next deadline, the pending "ask me" decision,
    and which seat marked its orders final for which day."""
    db.executescript(
        """
        ALTER TABLE games ADD COLUMN deadline TEXT;
        ALTER TABLE games ADD COLUMN pending TEXT;
        ALTER TABLE games ADD COLUMN moderator TEXT;
        ALTER TABLE seats ADD COLUMN final_day INTEGER;
        CREATE INDEX games_deadline ON games(status, deadline);
        """
    )


@migrations(name="003_web")
def _web(db: Database) -> None:
    """Web sign-in: one-time login links (only a hash of each token is kept)
    and the sign-in attempts the rate limit counts."""
    db.executescript(
        """
        CREATE TABLE login_tokens (
          id INTEGER PRIMARY KEY, token_hash TEXT NOT NULL UNIQUE,
          email TEXT NOT NULL COLLATE NOCASE, created TEXT NOT NULL,
          expires TEXT NOT NULL, used_at TEXT);
        CREATE INDEX login_tokens_email ON login_tokens(email);
        CREATE TABLE login_attempts (
          id INTEGER PRIMARY KEY, at TEXT NOT NULL, email TEXT COLLATE NOCASE,
          ip TEXT, kind TEXT NOT NULL DEFAULT '', ok INTEGER NOT NULL DEFAULT 0);
        CREATE INDEX login_attempts_email ON login_attempts(email, at);
        CREATE INDEX login_attempts_ip ON login_attempts(ip, at);
        """
    )


@migrations(name="004_jobs")
def _jobs(db: Database) -> None:
    """Work that follows a change and may take time (drawing and mailing the
    reports of a resolved day): written in the change's transaction, done later."""
    db.executescript(
        """
        CREATE TABLE jobs (
          id INTEGER PRIMARY KEY, created TEXT NOT NULL, kind TEXT NOT NULL,
          game_id INTEGER REFERENCES games(id), payload TEXT NOT NULL DEFAULT '{}',
          status TEXT NOT NULL DEFAULT 'due' CHECK (status IN ('due', 'done', 'failed')),
          done_at TEXT, error TEXT);
        CREATE INDEX jobs_due ON jobs(status, id);
        """
    )


@migrations(name="005_next_check")
def _next_check(db: Database) -> None:
    """When the clock must next look at a game (its first reminder, else its
    deadline), so a tick reads only the games that need it."""
    db.executescript(
        """
        ALTER TABLE games ADD COLUMN next_check TEXT;
        UPDATE games SET next_check = deadline;
        CREATE INDEX games_next_check ON games(status, next_check);
        """
    )


@migrations(name="006_sessions")
def _sessions(db: Database) -> None:
    """Web sessions can be ended: a session remembers its player's session
    generation when it starts, and is over once the generation has moved on
    (a password change, or "sign out everywhere")."""
    db.executescript("ALTER TABLE players ADD COLUMN session_generation INTEGER NOT NULL DEFAULT 0;")


@migrations(name="007_platform")
def _platform(db: Database) -> None:
    """Many games on one server: a game keeps the options chosen at its creation
    (its ruleset's options) and the salt of its seed's commitment. Games made
    before get an empty set of options (Bonaparte at Marengo has none) and a
    salt of their own; their commitment was not published at their start."""
    import secrets

    db.executescript("ALTER TABLE games ADD COLUMN options TEXT NOT NULL DEFAULT '{}';"
                     "ALTER TABLE games ADD COLUMN salt TEXT;")
    for (game_id,) in db.execute("SELECT id FROM games").fetchall():
        db.execute("UPDATE games SET salt = ? WHERE id = ?", (secrets.token_hex(16), game_id))


# -- hardening (issue 14) ------------------------------------------------------------


@migrations(name="harden_1_inbound_dedupe")
def _harden_inbound_dedupe(db: Database) -> None:
    """Mail is a duplicate by its Message-ID per sender (not site-wide), or by a digest of
    its raw bytes within a window (pbem.server.dedupe)."""
    db.executescript(
        """
        ALTER TABLE inbound ADD COLUMN sender TEXT;
        ALTER TABLE inbound ADD COLUMN digest TEXT;
        DROP INDEX inbound_message_id;
        CREATE INDEX harden_inbound_message_id ON inbound(message_id, sender);
        CREATE INDEX harden_inbound_digest ON inbound(digest, received_at);
        CREATE INDEX harden_inbound_received ON inbound(received_at);
        """
    )


@migrations(name="harden_2_answer_log")
def _harden_answer_log(db: Database) -> None:
    """Every answer to a mail, by kind, recipient and source, so answers can be capped
    (pbem.server.throttle); kept a day."""
    db.executescript(
        """
        CREATE TABLE answer_log (
          id INTEGER PRIMARY KEY, at TEXT NOT NULL, kind TEXT NOT NULL,
          recipient TEXT NOT NULL COLLATE NOCASE, source TEXT NOT NULL DEFAULT '' COLLATE NOCASE);
        CREATE INDEX answer_log_recipient ON answer_log(recipient, at);
        CREATE INDEX answer_log_source ON answer_log(source, at);
        CREATE INDEX answer_log_kind ON answer_log(kind, at);
        """
    )


@migrations(name="harden_3_sessions")
def _harden_sessions(db: Database) -> None:
    """Sessions ended by "Sign out" (pbem.server.web.sessions); kept as long as a session lives."""
    db.executescript("CREATE TABLE ended_sessions (sid TEXT PRIMARY KEY, at TEXT NOT NULL);")


@migrations(name="harden_4_retention")
def _harden_retention(db: Database) -> None:
    """Indexes for pruning old mail and audit noise (pbem.server.retention)."""
    db.executescript(
        """
        CREATE INDEX harden_outbox_sent ON outbox(status, sent_at);
        CREATE INDEX harden_audit_action ON audit(action, at);
        CREATE INDEX harden_jobs_done ON jobs(status, done_at);
        CREATE INDEX harden_outbox_to ON outbox(to_addr, created);
        """
    )


@migrations(name="issue15_1_attachments_by_reference")
def _speed_attachments_by_reference(db: Database) -> None:
    """A report mail's map and view.json, kept inline until now, become references drawn again from the
    game's log when the mail is sent (pbem.server.mail.outbox.Drawn): a mailed map was 0.2-0.5 MB of
    every report row. ``pbem prune --vacuum`` then gives the space back to the file system."""
    rows = db.execute("SELECT id, dedupe_key, attachments FROM outbox WHERE kind = 'report'"
                      " AND dedupe_key LIKE 'report:%' AND attachments LIKE '%\"data\"%'").fetchall()
    for outbox_id, key, attachments in rows:
        _, game_id, day, side, _version = key.split(":")
        where = [int(game_id), int(day), side]
        parts = json.loads(attachments)
        for part in parts:
            if part.get("filename") == "map.png":
                part.pop("data", None)
                part["ref"] = {"map": where}
            elif part.get("filename") == "view.json":
                part.pop("data", None)
                part["ref"] = {"view": where}
        db.execute("UPDATE outbox SET attachments = ? WHERE id = ?", (json.dumps(parts), outbox_id))


@migrations(name="issue15_2_texts_kept_once")
def _texts_kept_once(db: Database) -> None:
    """Long texts of outgoing mail (a report's HTML, 20-30 KB, 60 % of a finished game's bytes) kept
    once, compressed, by their SHA-256 (``texts``), the outbox row holding the digest (``html_ref``):
    a resent report, or the same text to two addresses, is kept once; zlib divides it by 8."""
    db.executescript("""
        CREATE TABLE texts (digest TEXT PRIMARY KEY, data BLOB NOT NULL);
        ALTER TABLE outbox ADD COLUMN html_ref TEXT;
        CREATE INDEX outbox_html_ref ON outbox(html_ref);
        """)
    rows = db.execute("SELECT id, html FROM outbox WHERE html IS NOT NULL AND length(html) > ?",
                      (TEXT_INLINE,)).fetchall()
    for outbox_id, html in rows:
        db.execute("UPDATE outbox SET html = NULL, html_ref = ? WHERE id = ?", (put_text(db, html), outbox_id))


TEXT_INLINE = 1024  # characters of an outgoing mail's text or HTML kept in its row; longer, in ``texts``

# A kept text is compressed with a preset dictionary (zlib's ``zdict``: the strings a report mail repeats, its
# HTML's markup and style, the rule book's words): a report then takes about 40 % of its plain zlib size.
# The dictionary's number is the data's first byte; a plain zlib stream (kept before the dictionaries) begins
# with 0x78. A dictionary file is never changed once texts are kept with it: a new one gets a new number
# (scripts/text-dictionary). Its SHA-256 is checked when it is read.
TEXT_DICTIONARIES = {1: ("mailtexts-1.zdict", "50b450f2a64055bd1ace27c82a6151c1950b0da45304befa0e4c50ea14fb3d29")}
TEXT_DICTIONARY = 1  # the one new texts are kept with


@functools.cache
def text_dictionary(number: int) -> bytes:
    """Preset dictionary ``number`` (TEXT_DICTIONARIES); ValueError if its file is not the one recorded."""
    name, sha256 = TEXT_DICTIONARIES[number]
    data = (Path(__file__).parent / name).read_bytes()
    if hashlib.sha256(data).hexdigest() != sha256:
        raise ValueError(f"{name} is not the dictionary texts were kept with (its SHA-256 differs)")
    return data


def pack_text(text: str) -> bytes:
    """A text as kept: its dictionary's number, then the text compressed with it."""
    packer = zlib.compressobj(6, zdict=text_dictionary(TEXT_DICTIONARY))
    return bytes([TEXT_DICTIONARY]) + packer.compress(text.encode()) + packer.flush()


def unpack_text(data: bytes) -> str:
    """The text ``pack_text`` kept (or a plain zlib stream, as texts were kept before the dictionaries)."""
    data = bytes(data)
    if data[:1] == b"\x78":
        return zlib.decompress(data).decode()
    unpacker = zlib.decompressobj(zdict=text_dictionary(data[0]))
    return (unpacker.decompress(data[1:]) + unpacker.flush()).decode()


def put_text(db, text: str) -> str:
    """Keep ``text`` once (compressed: ``pack_text``) by its SHA-256; returns the digest. ``db``: anything
    with execute."""
    digest = hashlib.sha256(text.encode()).hexdigest()
    db.execute("INSERT OR IGNORE INTO texts (digest, data) VALUES (?, ?)", (digest, pack_text(text)))
    return digest


@migrations(name="issue15_3_bodies_kept_once")
def _bodies_kept_once(db: Database) -> None:
    """The plain text of outgoing mail kept once too, as the HTML (``issue15_2``): a body over
    ``TEXT_INLINE`` characters (a report's text, 5-15 KB; a long answer) goes to ``texts`` by its SHA-256,
    the row holding the digest (``body_ref``) and an empty ``body``. Read a mail's texts through
    ``Store.mails`` (or ``Store.whole``), never from the columns."""
    db.executescript("""
        ALTER TABLE outbox ADD COLUMN body_ref TEXT;
        CREATE INDEX outbox_body_ref ON outbox(body_ref);
        """)
    rows = db.execute("SELECT id, body FROM outbox WHERE length(body) > ?", (TEXT_INLINE,)).fetchall()
    for outbox_id, body in rows:
        db.execute("UPDATE outbox SET body = '', body_ref = ? WHERE id = ?", (put_text(db, body), outbox_id))


@migrations(name="issue17_1_language")
def _language(db: Database) -> None:
    """Each player's language (pbem.server.i18n.LANGUAGES): chosen on the web or by the mail command
    LANGUAGE; NULL until he chooses (his mails are then in English, his pages in his browser's)."""
    db.executescript("ALTER TABLE players ADD COLUMN language TEXT;")


@migrations(name="issue17_2_outbox_language")
def _outbox_language(db: Database) -> None:
    """The language a queued mail is written in, when its address chose none (a sign-in link asked
    for from a French page): its marker line is written in it too. NULL: the address's language."""
    db.executescript("ALTER TABLE outbox ADD COLUMN lang TEXT;")


@migrations(name="issue_15_4_parse_stored_again")  # sorts after issue17_2 (the test of migrations wants their order)
def _parse_stored_again(db: Database) -> None:
    """The log stays append-only, but an orders entry's stored parse (its ``parsed`` member, a cache
    of what its text reads: pbem.core.parsed) may be written again, and nothing else in the row:
    after a release that changed the parser, a replay stores the parses its days read from the texts
    (``Store.store_parses``)."""
    db.executescript(
        """
        DROP TRIGGER log_no_update;
        CREATE TRIGGER log_no_update BEFORE UPDATE ON log
          WHEN NEW.game_id IS NOT OLD.game_id OR NEW.seq IS NOT OLD.seq OR NEW.at IS NOT OLD.at
            OR json_extract(OLD.entry, '$.kind') IS NOT 'orders'
            OR json_remove(NEW.entry, '$.parsed') IS NOT json_remove(OLD.entry, '$.parsed')
          BEGIN SELECT RAISE(ABORT, 'the game log is append-only'); END;
        """)


@migrations(name="issue_28_3_dice_keyed")
def _dice_keyed(db: Database) -> None:
    """A game keeps the derivation of its dice from its seed (pbem.core.chance): games made before
    are version 1 (a 31-bit seed in ``seed``) and stay so, their dice unchanged; a game the server
    makes now is version 2, its 256-bit seed kept as 64 hex digits in ``seed_key`` (``seed`` 0:
    SQLite's integers hold 64 bits)."""
    db.executescript("ALTER TABLE games ADD COLUMN dice INTEGER NOT NULL DEFAULT 1;"
                     "ALTER TABLE games ADD COLUMN seed_key TEXT;")


@migrations(name="issue_35_1_games_to_check")
def _games_to_check(db: Database) -> None:
    """The two questions of ``Store.games_to_check`` that no index answered: which running games wait on a
    question (``pending``), which seats marked their orders final (``final_day``). Partial indexes hold
    only those rows, a handful among thousands, so a tick no longer reads every game and every seat."""
    db.executescript("CREATE INDEX games_pending ON games(status) WHERE pending IS NOT NULL;"
                     "CREATE INDEX seats_final ON seats(game_id) WHERE final_day IS NOT NULL;")


VERSIONED = {  # table -> (its game's column, the columns whose change a game's pages show; None: every one)
    "games": ("id", "status, settings, title, deadline, pending, moderator, options"),
    "seats": ("game_id", None),
    "log": ("game_id", None),
    "days": ("game_id", None),
    "audit": ("game_id", None),
}
"""The tables whose rows a game's pages read, each with the column naming the game."""


@migrations(name="issue_35_2_game_versions")
def _game_versions(db: Database) -> None:
    """A counter a game, bumped by SQLite itself (triggers) on every write to a table its pages read:
    new orders, a resolved day, a rewind, an amendment, a moderator's act, a seat taken. The web keeps what
    it computed for a game's pages while the counter is unchanged (pbem.server.web.pagecache); whatever
    wrote, whichever process, the next page sees a new counter."""
    script = ["CREATE TABLE game_versions (game_id INTEGER PRIMARY KEY, version INTEGER NOT NULL);"]
    for table, (column, columns) in VERSIONED.items():
        for event, row in (("INSERT", "NEW"), ("UPDATE", "NEW"), ("DELETE", "OLD")):
            on = f"UPDATE OF {columns} ON {table}" if event == "UPDATE" and columns else f"{event} ON {table}"
            script.append(
                f"CREATE TRIGGER version_{table}_{event.lower()} AFTER {on} WHEN {row}.{column} IS NOT NULL BEGIN "
                f"INSERT INTO game_versions (game_id, version) VALUES ({row}.{column}, 1) "
                f"ON CONFLICT (game_id) DO UPDATE SET version = version + 1; END;")
    db.executescript("\n".join(script))


@migrations(name="issue_35_3_key_cost")
def _key_cost(db: Database) -> None:
    """The scrypt cost (``n``) each seat's key was hashed at: a key is checked at it, so the cost can be raised
    for new keys without locking out the old (NULL: hashed before this column, at FIRST_KEY_COST)."""
    db.executescript("ALTER TABLE seats ADD COLUMN key_cost INTEGER;")


# The running games the clock must look at: each of the four reasons is one indexed lookup (the
# deadline and next check by range on (status, ...), the questions and the final seats from their
# partial indexes), and only the games they name are read; one query with the four reasons joined by
# OR read every game and every seat at every tick (6.9-12.7 ms at 10,000 games, issue 35).
GAMES_TO_CHECK = (
    "SELECT * FROM games WHERE +status = 'running' AND id IN ("
    " SELECT id FROM games WHERE status = 'running' AND next_check <= ?1"
    " UNION SELECT id FROM games WHERE status = 'running' AND deadline <= ?2"
    " UNION SELECT id FROM games WHERE status = 'running' AND pending IS NOT NULL"
    " UNION SELECT game_id FROM seats WHERE final_day IS NOT NULL)"
    " ORDER BY id")


def without_parse(entry: dict) -> dict:
    """A log entry without its stored parse."""
    return {key: value for key, value in entry.items() if key != "parsed"}


def message_id_of(raw: bytes) -> str | None:
    """The Message-ID header of a raw message, or None (never raises)."""
    try:
        headers = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(raw[:65536])
        value = " ".join(str(headers.get("Message-ID", "")).split())
    except Exception:
        return None
    return value or None


class Store:
    """The database of one server."""

    def __init__(self, path, clock=now):
        self.path = str(path)
        self.clock = clock
        self._lock = threading.RLock()
        self._mine = threading.local()  # .depth: this thread's nested transactions
        self._readers = Readers(self.path)  # reads outside a transaction wait for no writer
        self._kept: dict = {}  # rows read inside the transaction, while nothing changed since (``kept_query``)
        conn = sqlite3.connect(self.path, timeout=30, check_same_thread=False)
        self.db = Database(conn)
        self.db.enable_wal()
        self.db.execute("PRAGMA foreign_keys = ON")
        with self.transaction():
            migrations.apply(self.db)

    def close(self) -> None:
        self._readers.close()
        self.db.close()

    def now(self) -> str:
        return iso(self.clock())

    def in_transaction(self) -> bool:
        """Whether this thread is inside a transaction (so holds the store's lock)."""
        return getattr(self._mine, "depth", 0) > 0

    @contextlib.contextmanager
    def transaction(self):
        """All changes inside commit together or not at all (nesting is allowed)."""
        with self._lock:
            self._mine.depth = getattr(self._mine, "depth", 0) + 1
            try:
                if self.db.conn.in_transaction:  # a savepoint named by its depth (sqlite-utils' atomic()
                    # names each by secrets.token_hex: an OS random call a nested transaction)
                    yield from self._savepoint(f"pbem_{self._mine.depth}")
                    return
                self.db.execute("BEGIN IMMEDIATE")
                self._kept.clear()
                try:
                    yield self
                    self.db.commit()
                except BaseException:
                    self.db.rollback()
                    raise
                finally:
                    self._kept.clear()
            finally:
                self._mine.depth -= 1

    def _savepoint(self, name: str):
        conn = self.db.conn
        conn.execute(f"SAVEPOINT {name}")
        try:
            yield self
        except BaseException:
            self._kept.clear()  # what was read since the savepoint may be rolled back with it
            if conn.in_transaction:  # a RAISE(ROLLBACK) may have ended the whole transaction already
                conn.execute(f"ROLLBACK TO SAVEPOINT {name}")
                conn.execute(f"RELEASE SAVEPOINT {name}")
            raise
        conn.execute(f"RELEASE SAVEPOINT {name}")

    def query_one(self, sql: str, params=()) -> dict | None:
        """The first row of a query, as a dict, or None."""
        rows = self.query(sql, params)
        return rows[0] if rows else None

    def query(self, sql: str, params=()) -> list[dict]:
        """Every row of a query, as dicts. Outside a transaction of this thread it runs on a
        connection of its own (pbem.server.readers): it sees the last commit and waits for no writer."""
        if not getattr(self._mine, "depth", 0):
            return self._readers.query(sql, params)
        with self._lock:
            if sql.lstrip()[:6].upper() != "SELECT":  # sqlite-utils refuses, undone, a statement giving no rows
                return list(self.db.query(sql, params))
            # a SELECT read at once (sqlite-utils would wrap it in a savepoint of its own: three statements a read)
            cursor = self.db.conn.execute(sql, params)
            names = dedupe_keys(d[0] for d in cursor.description)  # as sqlite-utils names a column twice named
            return [dict(zip(names, row)) for row in cursor.fetchall()]

    def kept_query(self, sql: str, params=()) -> list[dict]:
        """``query``, but inside this thread's transaction the rows of the same query made since the last
        change are given again (copies) instead of read again: a mail's handling read the game's row 5 times,
        its log's tail 4 and its seat's row 3, each one statement. Kept until anything is written (SQLite's
        count of the rows changed on this connection, triggers' included), a savepoint is rolled back, or
        the transaction ends; no other connection writes while this one holds the write lock (BEGIN
        IMMEDIATE). For reads of rows only (no clock or random function in the SQL; no table altered between,
        as only a migration does, and none reads through this)."""
        if not getattr(self._mine, "depth", 0):
            return self._readers.query(sql, params)
        with self._lock:
            changes = self.db.conn.total_changes
            if self._kept.get(None) != changes:
                self._kept.clear()
                self._kept[None] = changes
            rows = self._kept.get((sql, params))
            if rows is None:
                rows = self._kept[(sql, params)] = self.query(sql, params)
            return [dict(row) for row in rows]

    def execute(self, sql: str, params=()) -> sqlite3.Cursor:
        """Run one statement in its own transaction (or the caller's)."""
        with self.one_change():
            return self.db.execute(sql, params)

    def one_change(self):
        """A transaction, or inside this thread's transaction the store's lock alone: for a block whose only
        change is one statement. A statement is atomic with its triggers (SQLite undoes the whole of one that
        fails; the schema has no OR FAIL), so a savepoint around it would add two statements and nothing else
        (a mail's handling made six)."""
        return self._lock if self.in_transaction() else self.transaction()

    # -- players and games -------------------------------------------------

    def add_player(self, email: str, name: str = "", timezone: str = "UTC", password_hash=None) -> int:
        try:
            return self.execute(
                "INSERT INTO players (email, name, timezone, password_hash, created) VALUES (?, ?, ?, ?, ?)",
                (email.strip(), name, timezone, password_hash, self.now()),
            ).lastrowid
        except sqlite3.IntegrityError:
            raise PlayerExists(email) from None

    def find_player(self, email: str) -> dict | None:
        return self.query_one("SELECT * FROM players WHERE email = ?", (email.strip(),))

    def create_game(self, ruleset: str, scenario: str, seed: int, title: str = "", settings=None,
                    options=None, salt: str | None = None, dice: int = DICE_PLAIN) -> int:
        """A new game; a seed of dice version 2 goes in ``seed_key`` (64 hex digits), ``seed`` left 0."""
        keyed = dice != DICE_PLAIN
        return self.execute(
            "INSERT INTO games (ruleset, scenario, seed, seed_key, dice, title, settings, options, salt, created)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            (ruleset, str(scenario), 0 if keyed else seed, seed_text(seed, dice) if keyed else None, dice, title,
             _json(settings or {}), _json(options or {}), salt, self.now()),
        ).lastrowid

    def game_version(self, game_id: int) -> int:
        """The game's counter of writes (the ``issue_35_2_game_versions`` migration's): changed by every write
        to what its pages show, committed by any process."""
        row = self.query_one("SELECT version FROM game_versions WHERE game_id = ?", (game_id,))
        return row["version"] if row else 0

    def get_game(self, game_id: int) -> dict:
        game = self.game_row(game_id)
        game["settings"] = json.loads(game["settings"])
        game["options"] = json.loads(game["options"])
        game["pending"] = json.loads(game["pending"]) if game.get("pending") else None
        if game.get("seed_key"):  # a 256-bit seed (dice version 2)
            game["seed"] = seed_of(game["seed_key"], game["dice"])
        return game

    def game_row(self, game_id: int) -> dict:
        """The game's row as stored, its JSON columns not decoded (a copy): for a caller that only needs the
        game to exist, or its plain columns (``get_game`` decodes settings, options and pending)."""
        game = next(iter(self.kept_query("SELECT * FROM games WHERE id = ?", (game_id,))), None)
        if game is None:
            raise NoSuchGame(game_id)
        return game

    def update_game(self, game_id: int, *, status=None, settings=None, title=None) -> None:
        if status is not None and status not in GAME_STATUSES:
            raise ValueError(f"game status must be one of {GAME_STATUSES}, not {status!r}")
        with self.transaction():
            game = self.get_game(game_id)
            self.db.execute(
                "UPDATE games SET status = ?, settings = ?, title = ? WHERE id = ?",
                (status or game["status"], _json(game["settings"] if settings is None else settings),
                 game["title"] if title is None else title, game_id),
            )

    def set_clock(self, game_id: int, *, deadline=..., pending=..., next_check=...) -> None:
        """Set the next deadline (an ISO string or None), the pending decision (a dict or
        None) and/or when the clock must next look at the game (default: the deadline). One statement."""
        fields = {}
        if deadline is not ...:
            fields.update(deadline=deadline, next_check=deadline if next_check is ... else next_check)
        elif next_check is not ...:
            fields["next_check"] = next_check
        if pending is not ...:
            fields["pending"] = None if pending is None else _json(pending)
        with self.one_change():
            if not fields:
                self.game_row(game_id)
                return
            # the game's existence told by the update itself (no row changed: none, and nothing to undo), where
            # a read of its row before (decoded) was a statement more at every resolved day
            changed = self.db.execute(f"UPDATE games SET {', '.join(f'{name} = ?' for name in fields)} WHERE id = ?",
                                      (*fields.values(), game_id)).rowcount
            if not changed:
                raise NoSuchGame(game_id)

    def set_moderator(self, game_id: int, email) -> None:
        self.execute("UPDATE games SET moderator = ? WHERE id = ?", (email, game_id))

    def games(self, status=None) -> list[dict]:
        """Every game (or those with one status), newest first."""
        if status is None:
            rows = self.query("SELECT * FROM games ORDER BY id DESC")
        else:
            rows = self.query("SELECT * FROM games WHERE status = ? ORDER BY id DESC", (status,))
        for row in rows:
            row["settings"] = json.loads(row["settings"])
            row["options"] = json.loads(row["options"])
            row["pending"] = json.loads(row["pending"]) if row.get("pending") else None
        return rows

    def games_to_check(self, when: str) -> list[dict]:
        """Running games the clock must look at ``when``: something is due, a question
        waits, or a side marked its orders final."""
        rows = self.query(GAMES_TO_CHECK, (when, when))
        for row in rows:
            row["settings"] = json.loads(row["settings"])
            row["options"] = json.loads(row["options"])
            row["pending"] = json.loads(row["pending"]) if row.get("pending") else None
        return rows

    def seats_of(self, email: str) -> list[dict]:
        """The seats held by an address, with their games."""
        return self.query("SELECT seats.*, games.title, games.status FROM seats JOIN games ON games.id = seats.game_id"
                         " WHERE seats.email = ? ORDER BY seats.game_id DESC", (email.strip(),))

    def mark_final(self, game_id: int, side: str, day) -> None:
        self.execute("UPDATE seats SET final_day = ? WHERE game_id = ? AND side = ?", (day, game_id, side))

    def add_job(self, kind: str, game_id=None, payload=None) -> int:
        return self.execute("INSERT INTO jobs (created, kind, game_id, payload) VALUES (?, ?, ?, ?)",
                         (self.now(), kind, game_id, _json(payload or {}))).lastrowid

    def due_jobs(self, limit: int = 100, after: int = 0) -> list[dict]:
        """The first ``limit`` jobs due, in the order they were added (those after job ``after``)."""
        rows = self.query("SELECT * FROM jobs WHERE status = 'due' AND id > ? ORDER BY id LIMIT ?", (after, limit))
        for row in rows:
            row["payload"] = json.loads(row["payload"])
        return rows

    def finish_job(self, job_id: int, error: str | None = None) -> None:
        self.execute("UPDATE jobs SET status = ?, done_at = ?, error = ? WHERE id = ?",
                  ("failed" if error else "done", self.now(), error, job_id))

    # -- seats -------------------------------------------------------------

    def add_seat(self, game_id: int, side: str, email=None, player_id=None, timezone: str = "UTC") -> None:
        with self.transaction():
            self.get_game(game_id)
            try:
                self.db.execute(
                    "INSERT INTO seats (game_id, side, email, player_id, timezone) VALUES (?, ?, ?, ?, ?)",
                    (game_id, side, email.strip() if email else None, player_id, timezone),
                )
            except sqlite3.IntegrityError:
                raise SeatExists(f"game {game_id} already has a seat for {side}") from None

    def get_seat(self, game_id: int, side: str) -> dict:
        seat = next(iter(self.kept_query("SELECT * FROM seats WHERE game_id = ? AND side = ?", (game_id, side))), None)
        if seat is None:
            raise NoSuchSeat(f"game {game_id} has no seat for {side}")
        return seat

    def seats(self, game_id: int) -> list[dict]:
        return self.query("SELECT * FROM seats WHERE game_id = ? ORDER BY side", (game_id,))

    def update_seat(self, game_id: int, side: str, **fields) -> None:
        """Change ``email``, ``player_id``, ``timezone``, ``missed``, ``vacation_from/to``."""
        allowed = {"email", "player_id", "timezone", "missed", "vacation_from", "vacation_to"}
        if not fields or set(fields) - allowed:
            raise ValueError(f"update_seat changes only {sorted(allowed)}")
        with self.one_change():
            self.get_seat(game_id, side)
            assignments = ", ".join(f"{name} = ?" for name in fields)
            self.db.execute(
                f"UPDATE seats SET {assignments} WHERE game_id = ? AND side = ?",
                (*fields.values(), game_id, side),
            )

    def count_missed(self, game_id: int, side: str) -> int:
        """One more day missed by seat ``side``; returns its count now. One statement (the seat's row read
        and then written was two at every missed day)."""
        with self.one_change():
            row = self.db.conn.execute("UPDATE seats SET missed = missed + 1 WHERE game_id = ? AND side = ?"
                                       " RETURNING missed", (game_id, side)).fetchone()
        if row is None:
            raise NoSuchSeat(f"game {game_id} has no seat for {side}")
        return row[0]

    def set_seat_key(self, game_id: int, side: str, key: str) -> None:
        """Store a slow salted hash of ``key`` (the key itself is never stored)."""
        salt = secrets.token_bytes(16)
        digest = hashlib.scrypt(key.encode(
            "utf-8",  # pragma: no mutate (a codec's name is case-blind: UTF-8 is utf-8)
            "surrogatepass"), salt=salt, **SCRYPT)
        with self.transaction():
            self.get_seat(game_id, side)
            self.db.execute(
                "UPDATE seats SET key_hash = ?, key_salt = ?, key_cost = ? WHERE game_id = ? AND side = ?",  # pragma: no mutate (SQL)
                (digest, salt, SCRYPT["n"], game_id, side),
            )

    def check_key(self, game_id: int, side: str, key: str) -> bool:
        """Whether ``key`` is the seat's key (False for an unknown seat or unset key)."""
        row = self.query_one("SELECT key_hash, key_salt, key_cost FROM seats WHERE game_id = ? AND side = ?",  # pragma: no mutate (SQL)
                             (game_id, side))
        if row is None or row["key_hash"] is None:
            hashlib.scrypt(b"", salt=b"\0" * 16, **SCRYPT)  # pragma: no mutate (take as long as a real check: the digest is thrown away)
            return False
        cost = {**SCRYPT, "n": row["key_cost"] or FIRST_KEY_COST}  # the cost it was hashed at
        digest = hashlib.scrypt(str(key).encode(
            "utf-8",  # pragma: no mutate (a codec's name is case-blind: UTF-8 is utf-8)
            "surrogatepass"), salt=row["key_salt"], **cost)
        return hmac.compare_digest(digest, row["key_hash"])

    # -- the game log and resolved days ------------------------------------

    def append_log(self, game_id: int, entry: dict) -> int:
        """Append one engine log entry; returns its sequence number (0, 1, ...). The log is append-only and
        numbered from 0, so the next number is the last one's plus one: read from the primary key's end
        (one step), where a count of the game's rows walked the whole log at every append. That read is
        ``log_end``'s, kept: the game's cache check has just made it when nothing was written since (a
        resolved day's first entry), and it is not made again."""
        with self.one_change():
            self.game_row(game_id)  # it exists (its JSON columns not decoded)
            seq, _ = self.log_end(game_id)
            self.db.execute(
                "INSERT INTO log (game_id, seq, at, entry) VALUES (?, ?, ?, ?)",
                (game_id, seq, self.now(), _json(entry)),
            )
            return seq

    def read_log(self, game_id: int) -> list[dict]:
        rows = self.query("SELECT entry FROM log WHERE game_id = ? ORDER BY seq", (game_id,))
        return [json.loads(row["entry"]) for row in rows]

    def store_parses(self, game_id: int, parses) -> list[int]:
        """Write again the stored parse of orders entries of the game's log, in one transaction:
        ``parses`` holds (seq, the entry as it was read, its new ``parsed`` value). A row is changed
        only where it is still that orders entry (its stored parse apart), and only in its ``parsed``
        member (the schema refuses any other change). Returns the seqs written."""
        done = []
        with self.transaction():
            for seq, entry, parsed in parses:
                row = self.db.execute("SELECT entry FROM log WHERE game_id = ? AND seq = ?", (game_id, seq)).fetchone()
                if row is None:
                    continue
                kept = json.loads(row[0])
                if kept.get("kind") != "orders" or without_parse(kept) != without_parse(entry):
                    continue
                kept["parsed"] = parsed
                self.db.execute("UPDATE log SET entry = ? WHERE game_id = ? AND seq = ?", (_json(kept), game_id, seq))
                done.append(seq)
        return done

    def log_end(self, game_id: int) -> tuple[int, str | None]:
        """(length, the last entry as stored: its JSON text) of the game's log: the log is append-only, so these
        two tell whether a log read before is still the whole log (one row read, not the log; the entry left
        undecoded, for a caller that has seen that text before: pbem.server.service.base, ``game``)."""
        rows = self.kept_query("SELECT seq, entry FROM log WHERE game_id = ? ORDER BY seq DESC LIMIT 1", (game_id,))
        return (0, None) if not rows else (rows[0]["seq"] + 1, rows[0]["entry"])

    def record_day(self, game_id: int, day: int, side: str, digest: str = "", events=(), decisions=()) -> None:
        """Record (or, after a rewind, replace) the outcome of one resolved day."""
        self.execute(
            "INSERT OR REPLACE INTO days (game_id, day, side, resolved_at, digest, events, decisions)"
            " VALUES (?, ?, ?, ?, ?, ?, ?)",
            (game_id, day, side, self.now(), digest, _json(list(events)), _json(list(decisions))),
        )

    def text(self, digest: str | None) -> str | None:
        """A text kept once (``put_text``) by its digest; None if there is none."""
        if not digest:
            return None
        row = self.query_one("SELECT data FROM texts WHERE digest = ?", (digest,))
        return None if row is None else unpack_text(row["data"])

    def mails(self, tail: str = "", params=()) -> list[dict]:
        """Outbox rows, ``SELECT * FROM outbox`` followed by ``tail`` (its WHERE, ORDER BY, LIMIT),
        each with its texts whole (``whole``): the one way to read what a mail says."""
        rows = self.query(f"SELECT * FROM outbox {tail}", params)
        digests = {row[key] for row in rows for key in ("body_ref", "html_ref") if row.get(key)}
        texts = {}
        for start in range(0, len(digests), 500):  # SQLite's bound on a statement's parameters
            chunk = sorted(digests)[start:start + 500]
            marks = ", ".join("?" for _ in chunk)
            for kept in self.query(f"SELECT digest, data FROM texts WHERE digest IN ({marks})", chunk):
                texts[kept["digest"]] = unpack_text(kept["data"])
        return [self.whole(row, texts.get) for row in rows]

    def mail(self, tail: str = "", params=()) -> dict | None:
        """The first of ``mails(tail, params)``, or None."""
        rows = self.mails(tail, params)
        return rows[0] if rows else None

    def whole(self, row: dict, texts=None) -> dict:
        """An outbox row with its body and HTML whole: those kept once (``body_ref``, ``html_ref``)
        read back from ``texts`` (by ``texts(digest)``, default ``Store.text``). A text whose
        reference is lost stays None (the sender refuses such a row: ``outbox.build_email``)."""
        texts = texts or self.text
        if row.get("body_ref"):
            row["body"] = texts(row["body_ref"])
        if row.get("html_ref") and row.get("html") is None:
            row["html"] = texts(row["html_ref"])
        return row

    def day_digests(self, game_id: int) -> dict[int, str]:
        """Each recorded day's digest of the position after it (day -> digest), as recorded when resolved."""
        return {row["day"]: row["digest"] for row in self.query("SELECT day, digest FROM days WHERE game_id = ?",
                                                                  (game_id,))}

    def read_days(self, game_id: int) -> list[dict]:
        rows = self.query("SELECT * FROM days WHERE game_id = ? ORDER BY day", (game_id,))
        for row in rows:
            row["events"], row["decisions"] = json.loads(row["events"]), json.loads(row["decisions"])
        return rows

    # -- inbound mail and form posts ---------------------------------------

    def store_inbound(self, raw: bytes, source: str, received_at=None, message_id=None) -> tuple[int, bool]:
        """Store a message before acknowledging it; returns (id, duplicate).

        A message already stored -- the same Message-ID from the same sender, or
        the same bytes within 15 minutes (pbem.server.dedupe) -- is not stored
        again: the id is the first copy's.
        """
        if source not in INBOUND_SOURCES:
            raise ValueError(f"inbound source must be one of {INBOUND_SOURCES}, not {source!r}")
        sender, found, digest = dedupe.keys(raw) if source != "web" else (None, None, None)
        message_id = message_id or found
        when = iso(received_at) if isinstance(received_at, datetime) else (received_at or self.now())
        with self.transaction():
            duplicate = dedupe.find(self.db, sender, message_id, digest, when)
            if duplicate is not None:
                return duplicate, True
            cursor = self.db.execute(
                "INSERT INTO inbound (received_at, message_id, raw, source, sender, digest) VALUES (?, ?, ?, ?, ?, ?)",
                (when, message_id, bytes(raw), source, sender, digest),
            )
            return cursor.lastrowid, False

    def get_inbound(self, inbound_id: int) -> dict | None:
        return self.inbound_rows([inbound_id]).get(inbound_id)

    def inbound_rows(self, inbound_ids: list[int]) -> dict[int, dict]:
        """``get_inbound`` of several stored messages, by id, in one read (a batch's: one statement, not one a
        message); ids not stored are left out."""
        rows = {}
        for start in range(0, len(inbound_ids), 500):  # SQLite's bound on a statement's parameters
            chunk = list(inbound_ids[start:start + 500])
            marks = ", ".join("?" for _ in chunk)
            for row in self.query(f"SELECT * FROM inbound WHERE id IN ({marks})", chunk):
                if row["result"] is not None:
                    row["result"] = json.loads(row["result"])
                rows[row["id"]] = row
        return rows

    def inbound_status(self, inbound_id: int) -> str | None:
        """A stored message's status alone (None: no such message): what a batch asks again under its lock
        before handling a message read before it, without reading the message's bytes again."""
        row = self.query_one("SELECT status FROM inbound WHERE id = ?", (inbound_id,))
        return None if row is None else row["status"]

    def pending_inbound(self) -> list[int]:
        """Ids of stored messages not yet processed, oldest first."""
        return [row["id"] for row in self.query("SELECT id FROM inbound WHERE status = 'stored' ORDER BY id")]

    def mark_inbound(self, inbound_id: int, status: str, result=None) -> None:
        if status not in INBOUND_STATUSES:
            raise ValueError(f"inbound status must be one of {INBOUND_STATUSES}, not {status!r}")
        self.execute(
            "UPDATE inbound SET status = ?, result = ?, processed_at = ? WHERE id = ?",
            (status, None if result is None else _json(result), self.now(), inbound_id),
        )

    # -- the audit trail ---------------------------------------------------

    def audit(self, who: str, action: str, game_id=None, why: str = "", detail=None) -> int:
        """Record who did what, and why; returns the entry's id."""
        return self.execute(
            "INSERT INTO audit (game_id, at, who, action, why, detail) VALUES (?, ?, ?, ?, ?, ?)",
            (game_id, self.now(), who, action, why, _json(detail or {})),
        ).lastrowid

    def read_audit(self, game_id=None) -> list[dict]:
        """The audit trail, oldest first: one game's, or everything when game_id is None."""
        if game_id is None:
            rows = self.query("SELECT * FROM audit ORDER BY id")
        else:
            rows = self.query("SELECT * FROM audit WHERE game_id = ? ORDER BY id", (game_id,))
        for row in rows:
            row["detail"] = json.loads(row["detail"])
        return rows

    # -- web sign-in ---------------------------------------------------------

    def add_login_token(self, email: str, token_hash: str, expires: str) -> int:
        """Keep a login link's token (its hash) until ``expires``."""
        return self.execute(
            "INSERT INTO login_tokens (token_hash, email, created, expires) VALUES (?, ?, ?, ?)",
            (token_hash, email.strip(), self.now(), expires),
        ).lastrowid

    def peek_login_token(self, token_hash: str) -> str | None:
        """The address of an unused, unexpired token, without using it."""
        # pragma: no mutate start (SQL: a mark at the end of a statement's second line stands for its first)
        row = self.query_one("SELECT email FROM login_tokens WHERE token_hash = ? AND used_at IS NULL"
                             " AND expires > ?", (token_hash, self.now()))
        # pragma: no mutate end
        return row["email"] if row else None

    def use_login_token(self, token_hash: str) -> str | None:
        """Use a token once: its address, or None if unknown, used or expired."""
        with self.transaction():
            email = self.peek_login_token(token_hash)
            if email is not None:
                self.db.execute("UPDATE login_tokens SET used_at = ? WHERE token_hash = ?",  # pragma: no mutate (SQL)
                                (self.now(), token_hash))
                if self.query_one("SELECT 1 AS yes FROM audit WHERE action = 'address_confirmed' AND who = ?"
                                  " COLLATE NOCASE", (email,)) is None:  # kept beyond the token (throttle.confirmed)
                    self.audit(email, "address_confirmed", detail={"how": "sign-in link"})
            return email

    def add_login_attempt(self, email, ip, kind: str, ok: bool) -> None:
        self.execute("INSERT INTO login_attempts (at, email, ip, kind, ok) VALUES (?, ?, ?, ?, ?)",
                     (self.now(), (email or "").strip() or None, ip, kind, int(ok)))

    def count_login_attempts(self, since: str, email=None, ip=None) -> int:
        """Failed sign-ins and requested links since ``since``, for an address or an IP."""
        column, value = ("email", email.strip()) if email is not None else ("ip", ip)
        row = self.query_one(f"SELECT COUNT(*) AS n FROM login_attempts WHERE {column} = ? AND at >= ?"
                             " AND (ok = 0 OR kind = 'link')", (value, since))
        return row["n"]

    def prune_web(self, before: str) -> None:
        """Forget sign-in attempts and expired tokens older than ``before``."""
        with self.transaction():
            self.db.execute("DELETE FROM login_attempts WHERE at < ?", (before,))
            self.db.execute("DELETE FROM login_tokens WHERE expires < ?", (before,))

    def set_password_hash(self, email: str, password_hash: str | None) -> None:
        """Set a player's password hash, adding the player if the address is new."""
        with self.transaction():
            if self.find_player(email) is None:
                self.add_player(email)
            self.db.execute("UPDATE players SET password_hash = ? WHERE email = ?", (password_hash, email.strip()))

    def language_of(self, email: str | None, default: str | None = "en") -> str | None:
        """The language ``email`` chose (a code of pbem.server.i18n.LANGUAGES), else ``default``."""
        if not email:
            return default
        rows = self.kept_query("SELECT language FROM players WHERE email = ?", (email.strip(),))
        return (rows[0] if rows else {}).get("language") or default

    def set_language(self, email: str, language: str) -> None:
        """Keep ``email``'s language, adding the player if the address is new."""
        with self.transaction():
            if self.find_player(email) is None:
                self.add_player(email)
            self.db.execute("UPDATE players SET language = ? WHERE email = ?", (language, email.strip()))

    def session_generation(self, email: str) -> int:
        """The generation a web session of ``email`` must carry to be valid (0 for a new address)."""
        row = self.query_one("SELECT session_generation FROM players WHERE email = ?", (email.strip(),))
        return row["session_generation"] if row else 0

    def session_facts(self, email: str, sid: str | None) -> tuple[int, str | None, bool]:
        """What a signed-in request needs of its address, in one read: the session generation it must carry
        (:meth:`session_generation`), the language it chose (None: none, :meth:`language_of`), and whether
        the session ``sid`` was signed out (pbem.server.web.sessions.ended)."""
        row = self.query_one(
            "SELECT (SELECT session_generation FROM players WHERE email = ?1) AS generation,"
            " (SELECT language FROM players WHERE email = ?1) AS language,"
            " EXISTS (SELECT 1 FROM ended_sessions WHERE sid = ?2) AS ended", (email.strip(), sid))
        return row["generation"] or 0, row["language"] or None, bool(sid) and bool(row["ended"])

    def end_sessions(self, email: str) -> int:
        """End every web session of ``email``; returns the new generation."""
        with self.transaction():
            if self.find_player(email) is None:
                self.add_player(email)
            self.db.execute("UPDATE players SET session_generation = session_generation + 1 WHERE email = ?",
                            (email.strip(),))
            return self.session_generation(email)

    def recent_outbox(self, limit: int = 50) -> list[dict]:
        """The newest outbox rows (without attachments), newest first."""
        rows = self.query("SELECT id, created, to_addr, subject, body, body_ref, kind, game_id, status, attempts,"
                          " last_error, sent_at FROM outbox ORDER BY id DESC LIMIT ?", (limit,))
        return [self.whole(row) for row in rows]

    def recent_inbound(self, limit: int = 50) -> list[dict]:
        """The newest inbound messages (without their raw bytes), newest first, with their sender
        and subject read from the headers."""
        rows = self.query("SELECT id, received_at, source, status, result, raw, sender FROM inbound ORDER BY id DESC"
                          " LIMIT ?", (limit,))
        for row in rows:
            headers = email.parser.BytesHeaderParser(policy=email.policy.compat32).parsebytes(bytes(row.pop("raw"))[:65536])
            sender = row.pop("sender") or ""  # the raw bytes of old mail are pruned; its sender is kept
            row["from"] = " ".join(str(headers.get("From", "") or sender).split())[:200]
            row["subject"] = " ".join(str(headers.get("Subject", "")).split())[:200]
            row["result"] = json.loads(row["result"]) if row["result"] else None
        return rows

    def inbound_by_source(self) -> dict[str, dict]:
        """For each door mail came in by (smtp, imap, pipe, web): the last message's time and how many it
        brought in all (kept ones: retention prunes old rows)."""
        rows = self.query("SELECT source, MAX(received_at) AS last, COUNT(*) AS count FROM inbound GROUP BY source")
        return {row.pop("source"): row for row in rows}

    def players_with_games(self) -> list[dict]:
        """Every person the site knows -- an account (password), a seat, a game he moderates, or a
        sign-in by mailed link -- once per address, with the games he sits in and moderates."""
        return self.query(
            "WITH known(email) AS ("
            "  SELECT email FROM players UNION SELECT email FROM seats WHERE email IS NOT NULL AND email != ''"
            "  UNION SELECT moderator FROM games WHERE moderator IS NOT NULL AND moderator != ''"
            "  UNION SELECT email FROM login_tokens WHERE used_at IS NOT NULL),"
            " people AS (SELECT lower(trim(email)) AS key, MIN(email) AS email FROM known GROUP BY key)"
            " SELECT people.email, COALESCE(p.name, '') AS name, COALESCE(p.timezone, '') AS timezone,"
            " COALESCE(p.created, (SELECT MIN(t.used_at) FROM login_tokens t WHERE lower(t.email) = people.key),"
            "   '') AS created,"
            " COALESCE(p.password_hash IS NOT NULL, 0) AS has_password,"
            " (SELECT COUNT(*) FROM seats s WHERE lower(s.email) = people.key) AS seats,"
            " (SELECT COUNT(*) FROM games g WHERE lower(g.moderator) = people.key) AS moderates,"
            " (SELECT MAX(t.used_at) FROM login_tokens t WHERE lower(t.email) = people.key) AS last_link"
            " FROM people LEFT JOIN players p ON lower(p.email) = people.key ORDER BY people.key")

    def inbound_for_game(self, game_id: int, limit: int = 200) -> list[dict]:
        """Messages whose handling named this game, newest first."""
        rows = self.query("SELECT * FROM inbound WHERE result IS NOT NULL AND json_extract(result, '$.game') = ?"
                          " ORDER BY id DESC LIMIT ?", (game_id, limit))
        for row in rows:
            row["result"] = json.loads(row["result"])
        return rows


from pbem.server.leagues import tables as _league_tables  # noqa: E402,F401 -- the league_ migrations, last
