"""Backups: SQLite's online backup API copies a consistent database while the
server runs; a restore checks the copy before putting it in place."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path


class RestoreError(ValueError):
    """A backup that cannot be restored; the message says why."""


class BackupError(ValueError):
    """A database that cannot be backed up (there is none at the path); the message says why."""


PBEM_TABLES = ("migrations", "games", "seats", "log")
"""Tables every pbem database has, from its first migration on."""


def pbem_problem(path: str | Path) -> str:
    """Why the SQLite file at ``path`` is not a pbem database ("" if it is one)."""
    conn = sqlite3.connect(f"file:{Path(path).resolve()}?mode=ro", uri=True)
    try:
        tables = {row[0] for row in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
        missing = [t for t in PBEM_TABLES if t not in tables]
        if missing:
            return f"it is an SQLite database but not pbem's (no table {', '.join(missing)})"
        names = {row[0] for row in conn.execute("SELECT name FROM migrations WHERE migration_set = 'pbem'")}
    except sqlite3.DatabaseError as exc:
        return f"it is not a pbem database ({exc})"
    finally:
        conn.close()
    from pbem.server.store import migrations

    known = {m.name for m in migrations._migrations}
    if "001_initial" not in names:
        return "it is not a pbem database (its migrations table records no pbem schema)"
    newer = sorted(names - known)
    if newer:
        return f"it was written by a newer pbem (schema {', '.join(newer)}): upgrade pbem first"
    return ""


def backup(source: str | Path, dest: str | Path) -> int:
    """Copy the live database ``source`` to ``dest``; returns the number of pages."""
    if not Path(source).is_file():
        raise BackupError(f"there is no database at {source} (check the config file's instance or database "
                          f"setting, or --config)")
    dest = Path(dest)
    dest.parent.mkdir(parents=True, exist_ok=True)
    src = sqlite3.connect(str(source), timeout=30)
    try:
        out = sqlite3.connect(str(dest))
        try:
            src.backup(out)
            pages = out.execute("PRAGMA page_count").fetchone()[0]
        finally:
            out.close()
    finally:
        src.close()
    return pages


def integrity(path: str | Path) -> str:
    conn = sqlite3.connect(str(path))
    try:
        return conn.execute("PRAGMA integrity_check").fetchone()[0]
    finally:
        conn.close()


def restore(source: str | Path, dest: str | Path) -> None:
    """Check ``source`` and copy it over ``dest`` (the server must be stopped)."""
    source, dest = Path(source), Path(dest)
    if not source.exists():
        raise RestoreError(f"{source} does not exist")
    try:
        result = integrity(source)
    except sqlite3.DatabaseError as exc:
        raise RestoreError(f"{source} is not a database: {exc}") from None
    if result != "ok":
        raise RestoreError(f"{source} fails SQLite's integrity check: {result}")
    problem = pbem_problem(source)
    if problem:
        raise RestoreError(f"{source} was not restored: {problem}; the database at {dest} is unchanged")
    for suffix in ("-wal", "-shm"):
        Path(str(dest) + suffix).unlink(missing_ok=True)
    tmp = dest.with_suffix(dest.suffix + ".restoring")
    shutil.copyfile(source, tmp)
    tmp.replace(dest)
