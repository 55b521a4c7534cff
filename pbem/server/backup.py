"""Backups: SQLite's online backup API copies a consistent database while the
server runs; a restore checks the copy before putting it in place."""

from __future__ import annotations

import shutil
import sqlite3
from pathlib import Path


class RestoreError(ValueError):
    """A backup that cannot be restored; the message says why."""


def backup(source: str | Path, dest: str | Path) -> int:
    """Copy the live database ``source`` to ``dest``; returns the number of pages."""
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
    for suffix in ("-wal", "-shm"):
        Path(str(dest) + suffix).unlink(missing_ok=True)
    tmp = dest.with_suffix(dest.suffix + ".restoring")
    shutil.copyfile(source, tmp)
    tmp.replace(dest)
