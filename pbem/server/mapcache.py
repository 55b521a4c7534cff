"""Map images drawn once per content.

A map PNG costs about half a second on the one drawing worker (which also
draws the reports), and the same map is asked for again and again: by the
reports, by each reload of a game page, by every spectator of a finished
game. ``MapCache.png(svg, draw)`` keys the PNG by the SHA-256 of its SVG --
the SVG holds everything the picture shows, so equal SVGs are equal pictures
and a rewind that changes a map changes its key. Requests for a map being
drawn wait for that one drawing instead of starting their own.

PNGs are kept in memory (the last ``KEEP``) and, with a folder, on disk
(``<instance>/mapcache``, pruned by ``pbem prune``); the digest is the web's
ETag, so a browser's conditional request costs no drawing at all.
"""

from __future__ import annotations

import hashlib
import os
import threading
import time
from collections import OrderedDict
from pathlib import Path

KEEP = 32


def digest(svg: str) -> str:
    return hashlib.sha256(svg.encode("utf-8")).hexdigest()


class MapCache:
    def __init__(self, folder: Path | str | None = None):
        self.folder = Path(folder) if folder else None
        self._memory: OrderedDict[str, bytes] = OrderedDict()
        self._lock = threading.Lock()
        self._drawing: dict[str, threading.Lock] = {}
        self.drawn = 0  # how many PNGs this cache had to draw

    def png(self, svg: str, draw) -> tuple[str, bytes]:
        """(digest, PNG) of ``svg``, drawn by ``draw(svg)`` only if no copy is kept."""
        key = digest(svg)
        found = self._get(key)
        if found is not None:
            return key, found
        with self._lock:
            one = self._drawing.setdefault(key, threading.Lock())
        with one:  # one drawing per content at a time; the others wait for it
            found = self._get(key)
            if found is None:
                found = draw(svg)
                self.drawn += 1
                self._put(key, found)
        with self._lock:
            self._drawing.pop(key, None)
        return key, found

    def keep(self, key: str, data: bytes) -> None:
        """Keep ``data``, the PNG of the SVG whose digest is ``key``, drawn elsewhere (a drawing
        worker: pbem.server.drawing)."""
        with self._lock:
            if key in self._memory:
                return
        self._put(key, data)

    def get(self, key: str) -> bytes | None:
        """The PNG kept under digest ``key``, or None (nothing is drawn)."""
        if not key or not all(c in "0123456789abcdef" for c in key):
            return None  # a digest, never a path
        return self._get(key)

    def _path(self, key: str) -> Path | None:
        return self.folder / key[:2] / f"{key}.png" if self.folder else None

    def _get(self, key: str) -> bytes | None:
        with self._lock:
            if key in self._memory:
                self._memory.move_to_end(key)
                return self._memory[key]
        path = self._path(key)
        if path is None or not path.exists():
            return None
        try:
            data = path.read_bytes()
            os.utime(path)  # used: pruning goes by the last use
        except OSError:
            return None
        self._remember(key, data)
        return data

    def _put(self, key: str, data: bytes) -> None:
        self._remember(key, data)
        path = self._path(key)
        if path is None:
            return
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            tmp = path.with_suffix(f".{os.getpid()}.{threading.get_ident()}.tmp")
            tmp.write_bytes(data)
            os.replace(tmp, path)
        except OSError:  # a cache that cannot write only draws again
            pass

    def _remember(self, key: str, data: bytes) -> None:
        with self._lock:
            self._memory[key] = data
            self._memory.move_to_end(key)
            while len(self._memory) > KEEP:
                self._memory.popitem(last=False)

    def prune(self, older_than_seconds: float) -> int:
        """Delete kept PNGs unused for ``older_than_seconds``; returns the bytes freed."""
        if self.folder is None or not self.folder.exists():
            return 0
        limit, freed = time.time() - older_than_seconds, 0
        for path in self.folder.glob("*/*.png"):
            try:
                stat = path.stat()
                if stat.st_mtime < limit:
                    path.unlink()
                    freed += stat.st_size
            except OSError:
                continue
        return freed
