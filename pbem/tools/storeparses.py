"""``pbem store-parses``: after an upgrade, store again the stale parses of every game not yet over.

An orders entry of the log keeps what its text was read into (the stored parse, pbem.core.parsed),
with the parser's version; a release that changes one of the parser's files makes every stored parse
stale, and replays go back to reading the texts. The server stores them again by itself, a game at a
time, when it next replays it (``Service.game`` on a cache miss: ``Service.store_parses``); this
command does it for every running or paused game at once, right after the upgrade, and prints how
many entries were stored again and the replay time of those games before and after (the texts stay
the record: nothing but the ``parsed`` member of an orders entry is written).
"""

from __future__ import annotations

import time
from dataclasses import dataclass, field

from pbem.core.game import Game
from pbem.games import ruleset

STATUSES = ("running", "paused")  # the games a server replays; a finished one is replayed for its pages only


@dataclass
class Stored:
    """What ``store_parses`` did: games looked at, entries stored again (by game id), replay seconds
    of those games (all of them) before and after."""

    games: int = 0
    entries: dict[int, int] = field(default_factory=dict)
    before: float = 0.0
    after: float = 0.0

    def lines(self) -> list[str]:
        stored = sum(self.entries.values())
        out = [f"game {game_id}: {count} orders entries stored again" for game_id, count in self.entries.items()]
        out.append(f"{stored} orders entries stored again in {len(self.entries)} of {self.games} games")
        if self.games:
            out.append(f"replay of the {self.games} games: {self.before * 1e3:.1f} ms before, "
                       f"{self.after * 1e3:.1f} ms after ({self.before / max(self.after, 1e-9):.2f}x)")
        return out


def replayed(service, game_id: int) -> tuple[Game, float]:
    """The game replayed from its stored log, and the seconds the replay took (the store's read apart)."""
    info = service.store.get_game(game_id)
    log = service.store.read_log(game_id)
    rules, scenario = ruleset(info["ruleset"]), service.scenario(info["ruleset"], info["scenario"])
    start = time.perf_counter()
    game = Game(rules, scenario, info["seed"], log, options=info["options"], dice=info["dice"],
                parse_key=service.parse_key)  # as the server replays it: its dice, its key
    return game, time.perf_counter() - start


def store_parses(service, statuses=STATUSES) -> Stored:
    """Replay every game of ``statuses``, store again the parses its replay read from the texts
    (``Service.store_parses``), then replay it again to time it."""
    done = Stored()
    games = [info for status in statuses for info in service.store.games(status)]
    if games:  # once untimed: the first replay pays what every later one finds made (the parser's version)
        replayed(service, games[0]["id"])
    for info in games:
        game, before = replayed(service, info["id"])
        count = service.store_parses(info["id"], game)
        _, after = replayed(service, info["id"])
        done.games += 1
        done.before += before
        done.after += after
        if count:
            done.entries[info["id"]] = count
    return done
