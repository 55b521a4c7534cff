"""The league tables: named migrations ``league_*``, registered after the store's own.

pbem.server.store imports this module on its last line, so these migrations
always come after every other one, whatever is added before them.
"""

from __future__ import annotations

from sqlite_utils import Database

from pbem.server.store import migrations


@migrations(name="league_001_leagues")
def _leagues(db: Database) -> None:
    """Leagues (organisers, members, seasons, rules), their tournaments (entries, pairings
    with the game each pairing plays), ratings per game, and excused misses."""
    db.executescript(
        """
        CREATE TABLE leagues (
          id INTEGER PRIMARY KEY, name TEXT NOT NULL, about TEXT NOT NULL DEFAULT '',
          rules TEXT NOT NULL DEFAULT '{}',
          signup TEXT NOT NULL DEFAULT 'open' CHECK (signup IN ('open', 'closed')),
          created TEXT NOT NULL);
        CREATE TABLE league_organisers (
          league_id INTEGER NOT NULL REFERENCES leagues(id), email TEXT NOT NULL COLLATE NOCASE,
          PRIMARY KEY (league_id, email));
        CREATE TABLE league_members (
          league_id INTEGER NOT NULL REFERENCES leagues(id), email TEXT NOT NULL COLLATE NOCASE,
          name TEXT NOT NULL DEFAULT '', joined TEXT NOT NULL, via TEXT NOT NULL DEFAULT 'web',
          PRIMARY KEY (league_id, email));
        CREATE TABLE league_seasons (
          id INTEGER PRIMARY KEY, league_id INTEGER NOT NULL REFERENCES leagues(id),
          name TEXT NOT NULL, created TEXT NOT NULL);
        CREATE TABLE league_tournaments (
          id INTEGER PRIMARY KEY, league_id INTEGER NOT NULL REFERENCES leagues(id),
          season_id INTEGER REFERENCES league_seasons(id), name TEXT NOT NULL,
          format TEXT NOT NULL CHECK (format IN ('round_robin', 'swiss', 'knockout')),
          rounds INTEGER NOT NULL DEFAULT 0, rules TEXT NOT NULL DEFAULT '{}',
          status TEXT NOT NULL DEFAULT 'signup'
            CHECK (status IN ('signup', 'running', 'paused', 'finished')),
          round INTEGER NOT NULL DEFAULT 0, published INTEGER NOT NULL DEFAULT 0,
          created TEXT NOT NULL);
        CREATE TABLE league_entries (
          tournament_id INTEGER NOT NULL REFERENCES league_tournaments(id),
          email TEXT NOT NULL COLLATE NOCASE, number INTEGER NOT NULL,
          withdrawn INTEGER NOT NULL DEFAULT 0, PRIMARY KEY (tournament_id, email));
        CREATE TABLE league_pairings (
          id INTEGER PRIMARY KEY, tournament_id INTEGER NOT NULL REFERENCES league_tournaments(id),
          round INTEGER NOT NULL, board INTEGER NOT NULL,
          first TEXT NOT NULL COLLATE NOCASE, second TEXT COLLATE NOCASE,
          game_id INTEGER REFERENCES games(id),
          result TEXT CHECK (result IN ('first', 'second', 'draw', 'bye')),
          how TEXT NOT NULL DEFAULT '', why TEXT NOT NULL DEFAULT '',
          UNIQUE (tournament_id, round, board));
        CREATE INDEX league_pairings_game ON league_pairings(game_id);
        CREATE TABLE league_ratings (
          game TEXT NOT NULL, email TEXT NOT NULL COLLATE NOCASE, mu REAL NOT NULL, sigma REAL NOT NULL,
          games INTEGER NOT NULL DEFAULT 0, updated TEXT NOT NULL, PRIMARY KEY (game, email));
        CREATE TABLE league_excused (
          id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), side TEXT NOT NULL,
          count INTEGER NOT NULL DEFAULT 1, who TEXT NOT NULL, why TEXT NOT NULL, at TEXT NOT NULL);
        """
    )


@migrations(name="league_002_around_games")
def _around_games(db: Database) -> None:
    """What happens around each game (issue 16 §5): draw offers and their answers, vacations
    scheduled ahead by a player (across all their games), and the record of every player who
    held a seat before a moderator replaced them (so their misses stay in their record)."""
    db.executescript(
        """
        CREATE TABLE game_offers (
          id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id),
          kind TEXT NOT NULL DEFAULT 'draw' CHECK (kind IN ('draw')),
          side TEXT NOT NULL, day INTEGER NOT NULL,
          status TEXT NOT NULL DEFAULT 'open'
            CHECK (status IN ('open', 'accepted', 'declined', 'lapsed')),
          answers TEXT NOT NULL DEFAULT '{}', created TEXT NOT NULL);
        CREATE INDEX game_offers_game ON game_offers(game_id, status);
        CREATE TABLE vacations (
          id INTEGER PRIMARY KEY, email TEXT NOT NULL COLLATE NOCASE,
          starts TEXT NOT NULL, ends TEXT NOT NULL, created TEXT NOT NULL,
          cancelled INTEGER NOT NULL DEFAULT 0, CHECK (ends > starts));
        CREATE INDEX vacations_email ON vacations(email, ends);
        CREATE TABLE seat_history (
          id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), side TEXT NOT NULL,
          email TEXT NOT NULL COLLATE NOCASE, first_day INTEGER NOT NULL, last_day INTEGER NOT NULL,
          missed INTEGER NOT NULL DEFAULT 0, replaced TEXT NOT NULL);
        CREATE INDEX seat_history_email ON seat_history(email);
        """
    )


@migrations(name="league_003_press")
def _press(db: Database) -> None:
    """Messages between the seats of a game (press): who sent it, to which seats, on which day."""
    db.executescript(
        """
        CREATE TABLE press (
          id INTEGER PRIMARY KEY, game_id INTEGER NOT NULL REFERENCES games(id), day INTEGER NOT NULL,
          sender TEXT NOT NULL, recipients TEXT NOT NULL, text TEXT NOT NULL, created TEXT NOT NULL);
        CREATE INDEX press_game ON press(game_id, id);
        """
    )


@migrations(name="league_004_notifications")
def _notifications(db: Database) -> None:
    """Each player's notification settings (every mail, a daily digest, or none beyond the
    orders reminders; a chat-app webhook; the token of the calendar feed), and the webhook
    outbox: every chat message stored before it is sent, retried as mail is."""
    db.executescript(
        """
        CREATE TABLE notify_settings (
          email TEXT PRIMARY KEY COLLATE NOCASE,
          mode TEXT NOT NULL DEFAULT 'every' CHECK (mode IN ('every', 'digest', 'none')),
          webhook_url TEXT NOT NULL DEFAULT '',
          webhook_format TEXT NOT NULL DEFAULT 'discord' CHECK (webhook_format IN ('discord', 'slack')),
          calendar_token TEXT UNIQUE, updated TEXT NOT NULL);
        CREATE TABLE webhook_outbox (
          id INTEGER PRIMARY KEY, created TEXT NOT NULL, email TEXT NOT NULL COLLATE NOCASE,
          url TEXT NOT NULL, format TEXT NOT NULL, text TEXT NOT NULL, kind TEXT NOT NULL DEFAULT '',
          game_id INTEGER, dedupe_key TEXT UNIQUE,
          status TEXT NOT NULL DEFAULT 'queued' CHECK (status IN ('queued', 'sending', 'sent', 'failed')),
          attempts INTEGER NOT NULL DEFAULT 0, next_attempt_at TEXT NOT NULL, last_error TEXT, sent_at TEXT);
        CREATE INDEX webhook_outbox_due ON webhook_outbox(status, next_attempt_at);
        """
    )


@migrations(name="league_005_invitations")
def _invitations(db: Database) -> None:
    """Seats kept for an invited address (private games, or any empty seat a player invites to)."""
    db.executescript(
        """
        CREATE TABLE invitations (
          game_id INTEGER NOT NULL REFERENCES games(id), side TEXT NOT NULL,
          email TEXT NOT NULL COLLATE NOCASE, who TEXT NOT NULL, created TEXT NOT NULL,
          PRIMARY KEY (game_id, side));
        """
    )


@migrations(name="league_006_groups_of_three")
def _groups_of_three(db: Database) -> None:
    """Tournaments of three-seat games: a pairing's third player (the second side's other seat)."""
    db.execute("ALTER TABLE league_pairings ADD COLUMN third TEXT COLLATE NOCASE")


@migrations(name="league_007_side_bidding")
def _side_bidding(db: Database) -> None:
    """Side bidding: each entrant's standing bid (the seat wanted, and what he would pay for it),
    and on a pairing, the bid paid for a contested seat and by whom."""
    db.executescript(
        """
        CREATE TABLE league_bids (
          tournament_id INTEGER NOT NULL REFERENCES league_tournaments(id),
          email TEXT NOT NULL COLLATE NOCASE, seat TEXT NOT NULL, bid INTEGER NOT NULL CHECK (bid >= 0),
          updated TEXT NOT NULL, PRIMARY KEY (tournament_id, email));
        ALTER TABLE league_pairings ADD COLUMN bid INTEGER;
        ALTER TABLE league_pairings ADD COLUMN bid_by TEXT COLLATE NOCASE;
        """
    )


@migrations(name="league_008_digest_hour")
def _digest_hour(db: Database) -> None:
    """The daily digest's hour, chosen by each player, in the player's own time zone."""
    db.executescript(
        """
        ALTER TABLE notify_settings ADD COLUMN digest_hour INTEGER NOT NULL DEFAULT 0
          CHECK (digest_hour BETWEEN 0 AND 23);
        ALTER TABLE notify_settings ADD COLUMN timezone TEXT NOT NULL DEFAULT 'UTC';
        """
    )


@migrations(name="league_009_seat_history_why")
def _seat_history_why(db: Database) -> None:
    """Why a player left a seat: a moderator replaced him ("replaced"), or the game's rules moved
    the players between seats ("exchanged", Napoleon 1815's auction); and when a rewind undid an
    exchange (the seat went back to him)."""
    db.executescript(
        """
        ALTER TABLE seat_history ADD COLUMN why TEXT NOT NULL DEFAULT 'replaced';
        ALTER TABLE seat_history ADD COLUMN undone TEXT;
        """
    )


@migrations(name="league_010_mail_requests")
def _mail_requests(db: Database) -> None:
    """Requests by mail to join a league or enter a tournament, waiting for the code mailed to the
    address to come back (pbem.server.leagues.mail): the code's SHA-256, never the code."""
    db.executescript(
        """
        CREATE TABLE league_mail_requests (
          id INTEGER PRIMARY KEY, code_hash TEXT NOT NULL, email TEXT NOT NULL COLLATE NOCASE,
          kind TEXT NOT NULL CHECK (kind IN ('LEAGUE', 'TOURNAMENT')), target INTEGER NOT NULL,
          name TEXT NOT NULL DEFAULT '', created TEXT NOT NULL);
        CREATE INDEX league_mail_requests_email ON league_mail_requests(email, kind, target);
        """
    )


@migrations(name="league_011_withdrawals")
def _withdrawals(db: Database) -> None:
    """Why and when an entrant was withdrawn from a tournament (the flag ``withdrawn`` was there); and
    on a pairing, how many log entries its game had when its result was read (a rewind or an
    amendment adds some: the result is read again)."""
    db.executescript(
        """
        ALTER TABLE league_entries ADD COLUMN withdrawn_why TEXT NOT NULL DEFAULT '';
        ALTER TABLE league_entries ADD COLUMN withdrawn_at TEXT;
        ALTER TABLE league_pairings ADD COLUMN log_read INTEGER;
        """
    )


@migrations(name="league_012_replacements")
def _replacements(db: Database) -> None:
    """Every replacement of an entrant: the entry (its number) passes from ``old`` to ``new`` from
    round ``round`` on; the pairings finished before stay with the player who played them. And the
    pairings of a round withdrawn before its games began (a result before it changed): kept, with
    their games (ended, never rated), for the record."""
    db.executescript(
        """
        CREATE TABLE league_replacements (
          id INTEGER PRIMARY KEY, tournament_id INTEGER NOT NULL REFERENCES league_tournaments(id),
          number INTEGER NOT NULL, old TEXT NOT NULL COLLATE NOCASE, new TEXT NOT NULL COLLATE NOCASE,
          round INTEGER NOT NULL, who TEXT NOT NULL, why TEXT NOT NULL, at TEXT NOT NULL);
        CREATE TABLE league_cancelled (
          id INTEGER PRIMARY KEY, tournament_id INTEGER NOT NULL REFERENCES league_tournaments(id),
          round INTEGER NOT NULL, board INTEGER NOT NULL, first TEXT NOT NULL, second TEXT, third TEXT,
          game_id INTEGER REFERENCES games(id), why TEXT NOT NULL, at TEXT NOT NULL);
        """
    )


@migrations(name="league_013_paused_extensions")
def _paused_extensions(db: Database) -> None:
    """The hours a moderator extended a paused game's deadline by: the resume's new deadline keeps them."""
    db.execute("CREATE TABLE paused_extensions (game_id INTEGER PRIMARY KEY REFERENCES games(id),"
               " hours INTEGER NOT NULL)")


@migrations(name="league_014_paused_time_left")
def _paused_time_left(db: Database) -> None:
    """What a paused game's clock had left when it was paused (seconds; none without a deadline), and a
    deadline the moderator set by hand during the pause: the resume gives that time, not a full day."""
    db.executescript(
        """
        ALTER TABLE paused_extensions ADD COLUMN left_seconds INTEGER;
        ALTER TABLE paused_extensions ADD COLUMN until TEXT;
        """
    )


@migrations(name="league_015_double_elimination")
def _double_elimination(db: Database) -> None:
    """Double elimination: a tournament format more (the CHECK of ``format`` widened in place, as SQLite's
    documentation allows for a constraint every stored row still meets: "Making Other Kinds Of Table Schema
    Changes", https://www.sqlite.org/lang_altertable.html), and on each pairing its match of the bracket (``W1.2``:
    the winners' bracket's round 1, match 2; ``L3.1``; ``F``, ``F2``: the grand final and its reset). And whether a
    board withdrawn behind begun games (a result before it changed) has had its players paired again."""
    version = db.execute("PRAGMA schema_version").fetchone()[0]
    db.execute("PRAGMA writable_schema = ON")
    db.execute("UPDATE sqlite_master SET sql = replace(sql, ?, ?) WHERE type = 'table' AND name = 'league_tournaments'",
               ["format IN ('round_robin', 'swiss', 'knockout')",
                "format IN ('round_robin', 'swiss', 'knockout', 'double_elimination')"])
    db.execute(f"PRAGMA schema_version = {version + 1}")
    db.execute("PRAGMA writable_schema = OFF")
    db.execute("ALTER TABLE league_pairings ADD COLUMN slot TEXT")
    # a board withdrawn behind begun games, its players not yet paired again (NULL) or paired (1)
    db.execute("ALTER TABLE league_cancelled ADD COLUMN repaired INTEGER")


@migrations(name="league_016_rating_games")
def _rating_games(db: Database) -> None:
    """The rated history, game by game in the order rated (``ratings.recompute``): each finished game's
    fingerprint (what its rating depends on), what it was rated as (JSON: game name, sides, ranks; null when not
    rated) and its seats' ratings after it (JSON {email: [mu, sigma, games]}), so that a change rates again only
    from the first game that changed."""
    db.execute("CREATE TABLE league_rating_games (position INTEGER PRIMARY KEY, game_id INTEGER NOT NULL,"
               " fingerprint TEXT NOT NULL, rated TEXT, after TEXT)")
