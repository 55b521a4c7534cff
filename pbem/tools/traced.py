"""The statements a SQLite connection runs, counted (``pbem mailbench``, ``pbem loadtest --resolution``)."""

from __future__ import annotations

import collections
import re


class Traced:
    """While inside, every statement ``conn`` runs: how many, how many commits, and by kind. SQLite traces a
    trigger's statements with the text of the statement that fired them, one after another: a statement
    traced again at once is counted once (the store never runs the same statement twice in a row)."""

    def __init__(self, conn):
        self.conn = conn
        self.statements = 0
        self.commits = 0
        self.by_kind: collections.Counter = collections.Counter()  # SELECT, INSERT, SAVEPOINT ...
        self.by_text: collections.Counter = collections.Counter()  # the SQL with its numbers and strings as ?
        self._last = None

    def __enter__(self) -> "Traced":
        self.conn.set_trace_callback(self._note)
        return self

    def __exit__(self, *exc) -> None:
        self.conn.set_trace_callback(None)

    def _note(self, sql: str) -> None:
        if sql == self._last:
            return  # a trigger's statement
        self._last = sql
        self.statements += 1
        kind = sql.split(None, 1)[0].upper() if sql.strip() else ""
        self.commits += kind == "COMMIT"
        self.by_kind[kind] += 1
        self.by_text[re.sub(r"'[^']*'|\b\d+\b", "?", " ".join(sql.split()))[:100]] += 1

    def per(self, count: int) -> str:
        """"22.0 statements (SELECT 9.0, ...), 0.04 commits" for each of ``count`` (mails, games)."""
        count = max(1, count)
        kinds = ", ".join(f"{kind} {n / count:.1f}" for kind, n in self.by_kind.most_common())
        return f"{self.statements / count:.1f} statements ({kinds}), {self.commits / count:.2f} commits"
