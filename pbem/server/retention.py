"""What the server keeps, and for how long: ``pbem prune`` and the clock's daily prune.

Games are kept whole: their log, resolved days, seats, and the audit of every
ruling (the players' record). What grows without end is mail, and its copies:

| setting | default | what goes after it |
|---|---|---|
| ``retain_inbound_days`` | 30 | the raw bytes of processed, dropped and failed inbound mail (the row stays: when, from whom, its Message-ID and digest, what was done) |
| ``retain_outbox_days`` | 30 | the text and HTML of sent and failed outgoing mail (the row stays: to whom, subject, when, status), done jobs |
| ``retain_attachments_days`` | 7 | the attachments of sent and failed outgoing mail (the map PNGs and view.json), and map images unused that long in ``<instance>/mapcache`` |
| ``retain_audit_days`` | 365 | audit entries that are noise, not rulings: wrong keys, scheduler and job errors |

Sign-in attempts and expired sign-in links go after a day, the answer counts
(pbem.server.throttle) after a day, ended sessions once no session could
still be alive (30 days). A value of 0 keeps that item forever. Mail still to
be processed or sent is never touched.

Pruning frees space inside the database file for new data; ``pbem prune
--vacuum`` also gives it back to the file system (SQLite's VACUUM, which
rewrites the file: run it when the server is quiet).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from pbem.server.store import iso

NOISE = ("wrong_key", "error")
DEFAULTS = {"retain_inbound_days": 30, "retain_outbox_days": 30, "retain_attachments_days": 7,
            "retain_audit_days": 365}


@dataclass
class Pruned:
    counts: dict[str, int] = field(default_factory=dict)
    bytes_freed: int = 0

    def __str__(self) -> str:
        done = ", ".join(f"{n} {what}" for what, n in self.counts.items() if n) or "nothing to prune"
        return f"{done}; {self.bytes_freed / 1e6:.1f} MB of content freed"


def _setting(config, name: str) -> int:
    return int(getattr(config, name, DEFAULTS[name]) if config is not None else DEFAULTS[name])


def prune(store, config=None, now: datetime | None = None, maps=None) -> Pruned:
    """Delete what the retention settings no longer keep; returns what was done."""
    now = now or store.clock()
    out = Pruned()

    def before(days: int) -> str:
        return iso(now - timedelta(days=days))

    def run(what: str, size_sql: str, sql: str, params) -> None:
        with store.transaction():
            size = (store.db.execute(size_sql, params).fetchone()[0] or 0) if size_sql else 0
            count = store.db.execute(sql, params).rowcount
        out.counts[what] = out.counts.get(what, 0) + count
        out.bytes_freed += size

    days = _setting(config, "retain_inbound_days")
    if days:
        where = "status != 'stored' AND received_at < ? AND length(raw) > 0"
        run("inbound mails", f"SELECT SUM(length(raw)) FROM inbound WHERE {where}",
            f"UPDATE inbound SET raw = X'' WHERE {where}", (before(days),))
    days = _setting(config, "retain_attachments_days")
    if days:
        where = "status IN ('sent', 'failed') AND created < ? AND attachments != '[]'"
        run("outgoing attachments", f"SELECT SUM(length(attachments)) FROM outbox WHERE {where}",
            f"UPDATE outbox SET attachments = '[]' WHERE {where}", (before(days),))
        if maps is not None:
            out.bytes_freed += maps.prune(days * 86400)
    days = _setting(config, "retain_outbox_days")
    if days:
        where = ("status IN ('sent', 'failed') AND created < ? AND (body != '' OR body_ref IS NOT NULL"
                 " OR html IS NOT NULL OR html_ref IS NOT NULL)")
        run("outgoing mail texts", f"SELECT SUM(length(body) + COALESCE(length(html), 0)) FROM outbox WHERE {where}",
            f"UPDATE outbox SET body = '', body_ref = NULL, html = NULL, html_ref = NULL WHERE {where}",
            (before(days),))
        orphans = ("digest NOT IN (SELECT html_ref FROM outbox WHERE html_ref IS NOT NULL"  # kept once: shared
                   " UNION SELECT body_ref FROM outbox WHERE body_ref IS NOT NULL)")
        run("outgoing mail texts kept once", f"SELECT SUM(length(data)) FROM texts WHERE {orphans}",
            f"DELETE FROM texts WHERE {orphans}", ())
        run("done jobs", "SELECT SUM(length(payload)) FROM jobs WHERE status = 'done' AND done_at < ?",
            "DELETE FROM jobs WHERE status = 'done' AND done_at < ?", (before(days),))
    days = _setting(config, "retain_audit_days")
    if days:
        marks = ", ".join("?" for _ in NOISE)
        run("audit entries (noise)", f"SELECT SUM(length(detail) + length(why)) FROM audit WHERE action IN ({marks})"
                                     " AND at < ?", f"DELETE FROM audit WHERE action IN ({marks}) AND at < ?",
            (*NOISE, before(days)))
    run("answer counts", None, "DELETE FROM answer_log WHERE at < ?", (before(1),))
    run("ended sessions", None, "DELETE FROM ended_sessions WHERE at < ?", (before(30),))
    store.prune_web(before(1))
    return out


def vacuum(store) -> None:
    """Give the freed space back to the file system (rewrites the file)."""
    with store._lock:  # noqa: SLF001 - no transaction may be open on the store's connection
        store.db.execute("VACUUM")
        store.db.execute("PRAGMA wal_checkpoint(TRUNCATE)")  # in WAL mode the file shrinks at the checkpoint
