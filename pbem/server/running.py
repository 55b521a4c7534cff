"""Whether a server runs on a database: ``pbem serve`` holds an exclusive lock on a file beside it for as
long as it runs (the lock goes with the process, however it ends), with its process id inside, so that
``pbem restore`` can refuse to replace the database under it, and a second ``pbem serve`` can refuse to start
on the same one."""

from __future__ import annotations

import fcntl
import os
import signal
import time
from pathlib import Path


class ServerRunning(RuntimeError):
    """A server runs on the database; ``pid`` is its process id."""

    def __init__(self, pid: int | None, database: Path):
        self.pid = pid
        super().__init__(f"a pbem server (process {pid or 'unknown'}) is running on {database}")


def lock_path(database: str | Path) -> Path:
    return Path(str(database) + ".serving")


class Serving:
    """The running server's hold on its database: ``claim()`` at start, released when the process ends."""

    def __init__(self, database: str | Path):
        self.database = Path(database)
        self.file = None

    def claim(self) -> None:
        path = lock_path(self.database)
        path.parent.mkdir(parents=True, exist_ok=True)
        handle = open(path, "a+")
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            pid = _pid(handle.read())
            handle.close()
            raise ServerRunning(pid, self.database) from None
        handle.seek(0)
        handle.truncate()
        handle.write(f"{os.getpid()}\n")
        handle.flush()
        self.file = handle

    def release(self) -> None:
        if self.file:
            self.file.close()  # the lock goes with the file
            self.file = None


def server_pid(database: str | Path) -> int | None:
    """The process id of the server running on ``database``, or None when none is (nobody holds the lock)."""
    path = lock_path(database)
    if not path.exists():
        return None
    with open(path, "a+") as handle:
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            handle.seek(0)
            return _pid(handle.read()) or -1
        fcntl.flock(handle, fcntl.LOCK_UN)
        return None


def stop_server(database: str | Path, wait_seconds: float = 60) -> bool:
    """Ask the server on ``database`` to stop (SIGTERM, as systemd does) and wait until it has; whether it did."""
    pid = server_pid(database)
    if pid is None:
        return True
    if pid > 0:
        try:
            os.kill(pid, signal.SIGTERM)
        except ProcessLookupError:
            pass
    end = time.monotonic() + wait_seconds
    while time.monotonic() < end:
        if server_pid(database) is None:
            return True
        time.sleep(0.1)
    return False


def _pid(text: str) -> int | None:
    try:
        return int(text.strip())
    except ValueError:
        return None
