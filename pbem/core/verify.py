"""A finished game's export, and its verification by replay (``pbem verify``).

An export is plain JSON: the ruleset's name, the scenario file's name and
SHA-256, the options, the dice version (pbem.core.chance: absent in exports
made before it, which are version 1), the seed and its salt (the commitment
published at the start, :func:`commitment_of`, binds the three), the log, and what the server recorded of
every resolved day: who owed orders, the dice rolled and the digest of the
position after it. The log is exported as written: an orders entry's stored parse (pbem.core.parsed)
is left out, and :func:`verify` reads every text again whatever the export carries.
:func:`verify` replays the log from the seed and says where
the replay and the record differ, day by day: a changed order, answer, roll or
result shows at the first day it touches.
"""

from __future__ import annotations

import hashlib

from .chance import DICE_KEYED, DICE_PLAIN, DICE_VERSIONS, seed_of, seed_text
from .game import Game
from .parsed import without_parses

FORMAT = "pbem-game/1"


def commitment_of(seed: int, salt: str, dice: int = DICE_PLAIN) -> str:
    """The commitment published at a game's start, in hex: SHA-256 of ``"seed:salt"`` (dice version 1,
    the seed in decimal), or of ``"pbem-dice/2:seed:salt"`` (version 2, the seed as 64 hex digits: the
    version is bound too, so a seed cannot be shown later as another derivation's)."""
    if dice == DICE_KEYED:
        return hashlib.sha256(f"pbem-dice/{dice}:{seed_text(seed, dice)}:{salt}".encode()).hexdigest()
    return hashlib.sha256(f"{seed}:{salt}".encode()).hexdigest()


def export_game(game: Game, *, scenario: str, scenario_sha256: str, salt: str, title: str = "",
                game_id: int | None = None, recorded: list[dict] | None = None) -> dict:
    """The export of ``game``. ``recorded`` are the days as the server recorded them when
    it resolved them (day, seats, digest, rolls); by default the game's own replay."""
    if recorded is None:
        recorded = [day_record(game, result) for result in game.days]
    return {
        "format": FORMAT,
        "game_id": game_id,
        "title": title,
        "ruleset": game.ruleset.name,
        "scenario": scenario,
        "scenario_sha256": scenario_sha256,
        "options": game.options,
        "dice": game.dice,
        "seed": game.seed if game.dice == DICE_PLAIN else seed_text(game.seed, game.dice),
        "salt": salt,
        "commitment": commitment_of(game.seed, salt, game.dice),
        "log": without_parses(game.log),  # the orders as written (a stored parse is the server's cache)
        "days": recorded,
    }


def day_record(game: Game, result) -> dict:
    """What is recorded of one resolved day."""
    return {"day": result.day, "turn": game.turn_label(result.day), "seats": list(result.seats),
            "digest": game.ruleset.digest(result.after), "rolls": [r.to_dict() for r in result.rolls]}


def verify(export: dict, ruleset, scenario, scenario_sha256: str | None = None) -> list[str]:
    """Every difference between the export and a replay of it (empty: it verifies).

    ``scenario`` is the scenario loaded from the local file named in the export,
    ``scenario_sha256`` that file's hash (checked against the export's).
    """
    problems = []
    if export.get("format") != FORMAT:
        return [f"not a pbem game export (format {export.get('format')!r}, expected {FORMAT!r})"]
    if export["ruleset"] != ruleset.name:
        return [f"the export is a game of {export['ruleset']!r}, not {ruleset.name!r}"]
    if scenario_sha256 is not None and scenario_sha256 != export["scenario_sha256"]:
        problems.append(f"the scenario file {export['scenario']} here differs from the game's "
                        f"(SHA-256 {scenario_sha256[:12]}..., the export says {export['scenario_sha256'][:12]}...)")
    dice = export.get("dice", DICE_PLAIN)
    if dice not in DICE_VERSIONS:
        return problems + [f"dice version {dice!r} is not one this pbem knows ({', '.join(map(str, DICE_VERSIONS))})"]
    try:
        seed = seed_of(export["seed"], dice)
    except (TypeError, ValueError) as exc:
        return problems + [f"the seed {export.get('seed')!r} is not a seed of dice version {dice}: {exc}"]
    if commitment_of(seed, str(export["salt"]), dice) != export["commitment"]:
        problems.append("the seed and salt do not match the commitment published at the start")
    try:
        # every text read again: a stored parse an export may carry is not evidence of what was ordered
        game = Game(ruleset, scenario, seed, without_parses(export["log"]),
                    options=export.get("options") or {}, dice=dice)
    except Exception as exc:  # a tampered log may not even replay
        return problems + [f"the log does not replay: {type(exc).__name__}: {exc}"]
    replayed = {result.day: day_record(game, result) for result in game.days}
    for record in export["days"]:
        day = record["day"]
        mine = replayed.get(day)
        where = f"day {day} ({record.get('turn') or game.turn_label(day)})"
        if mine is None:
            problems.append(f"{where}: recorded as resolved, but the replay never reaches it")
            continue
        if list(record.get("seats", mine["seats"])) != mine["seats"]:
            problems.append(f"{where}: recorded as the turn of {', '.join(record['seats'])}, "
                            f"the replay says {', '.join(mine['seats'])}")
        theirs, ours = record.get("rolls", []), mine["rolls"]
        for n in range(max(len(theirs), len(ours))):
            a = theirs[n] if n < len(theirs) else None
            b = ours[n] if n < len(ours) else None
            if a is None or b is None or (a["value"], a["purpose"], a.get("sides", b["sides"])) != (
                    b["value"], b["purpose"], b["sides"]):
                problems.append(f"{where}: roll {n + 1} recorded as {_roll(a)}, the replay rolls {_roll(b)}")
        if record.get("digest") != mine["digest"]:
            problems.append(f"{where}: the position after the day differs from the record "
                            f"(recorded {record.get('digest')}, replayed {mine['digest']})")
    if len(game.days) > len(export["days"]):
        problems.append(f"the replay resolves {len(game.days)} days, the record has {len(export['days'])}")
    return problems


def _roll(roll: dict | None) -> str:
    return "nothing" if roll is None else f"{roll['value']} ({roll['purpose']})"
