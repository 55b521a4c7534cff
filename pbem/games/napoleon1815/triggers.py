"""Battles by mail between two rounds: the live mode's round sub-turns and the hybrid mode's
triggers (docs/rules-notes.md ("Napoleon 1815"), "Battles by mail: the modes").

Before each round of the battles of a turn (§2.2: a round in each battle in turn) the fight
may stop for a sub-turn: in the live mode always, every seat with blocks in a battle sending
its orders for the next round; in the hybrid mode only when a trigger a seat chose with its
standing ``ASK`` order fires, and only that seat is asked. Each trigger fires once a battle
(once a round for ROUND). In a round sub-turn a seat sends standing orders — ``DOCTRINE``
lines, ``RETREAT TO``, ``ASK`` — which count from that round on.
"""

from __future__ import annotations

from pbem.lang import say, say_plural

from .combat import OTHER, POSITION
from .scenario import ARMY_SEAT, SEATS
from .words import POSITION_SAID, Place

# ASK <trigger>: when a seat is asked in the hybrid mode, trigger -> what it is. The default is none.
TRIGGERS = {
    "ROUT": "one of your positions the enemy has entered is down to its last block (it is about to rout)",
    "REINFORCE": "blocks of yours in adjacent towns could join the battle (before the first would come)",
    "WITHDRAW": "your strength in the battle falls below your WITHDRAW line",
    "ROUND": "before every round of your battles (the live mode, for your seat alone)",
}


def seats_in(battle, role: str) -> list[str]:
    """The seats whose armies have blocks of ``role`` in the battle, in seat order."""
    armies = {b.army for b in battle.blocks.values() if b.role == role}
    return [s for s in SEATS if any(ARMY_SEAT[a] == s for a in armies)]


def position_name(loc: str) -> str:
    i = int(loc[3])
    return POSITION[i if loc.startswith("att") else 2 - i]


def fired(fight, battle, role: str):
    """The triggers that hold for ``role`` before the battle's next round: (trigger, key, question)."""
    name = Place(fight.sc.board.name(battle.town))
    n = battle.rounds[role] + 1
    yield "ROUND", f"round{n}{role}", say("Battle of %(town)s: round %(n)s comes next.", town=name, n=n)
    for i in range(3):
        loc = f"{role}{i}"
        own, enemy = fight.at(battle, loc, role), fight.at(battle, loc, OTHER[role])
        if enemy and len(own) == 1:
            yield "ROUT", f"rout-{loc}", say_plural(
                "Battle of %(town)s: your %(position)s is down to its last block, %(block)s, against %(num)s enemy "
                "block: if it goes, your side routs (§7.4).",
                "Battle of %(town)s: your %(position)s is down to its last block, %(block)s, against %(num)s enemy "
                "blocks: if it goes, your side routs (§7.4).", len(enemy), town=name,
                position=POSITION_SAID[position_name(loc)], block=fight.name(own[0]))
    coming = fight.reinforcements(battle, role)
    if coming:
        yield "REINFORCE", "reinforce", say("Battle of %(town)s: %(blocks)s could join from adjacent towns "
                                            "(DOCTRINE REINFORCE YES or NO).", town=name, blocks=", ".join(coming))
    start = battle.start.get(role) or 1
    if (role not in battle.withdrawing and role not in battle.stand
            and fight.below_line(battle, role, start)):
        yield "WITHDRAW", "withdraw", say("Battle of %(town)s: your strength is %(strength)s of %(start)s, below "
                                          "your WITHDRAW line (DOCTRINE WITHDRAW 0 fights on).", town=name,
                                          strength=fight.side_strength(battle, role), start=start)


class Pause:
    """Asked before each round and each side's part of it (Fight.fight's ``pause``): whether to
    stop for a sub-turn, and whom to ask what. The live mode asks every seat with blocks in the
    battles before each round; the hybrid mode asks a seat before its own side's part of a round
    when a trigger it chose holds. Each question is asked once (Battle.asked)."""

    def __init__(self, mode: str, asks: dict[str, list[str]]):
        self.mode, self.asks = mode, asks
        self.asked: dict[str, list[str]] = {}
        self.said: dict[str, list] = {}  # the same questions as Texts, for the reports in each language

    def __call__(self, fight, battles, battle=None, role=None) -> bool:
        if self.mode == "live" and battle is None:
            for b in battles:
                for r in ("att", "def"):
                    if not b.over:
                        self.put(b, seats_in(b, r), (t for t in fired(fight, b, r) if t[0] == "ROUND"), live=True)
        elif self.mode == "hybrid" and battle is not None:
            self.put(battle, seats_in(battle, role), fired(fight, battle, role))
        self.asked = {s: q for s, q in sorted(self.asked.items(), key=lambda kv: SEATS.index(kv[0]))}
        return bool(self.asked)

    def put(self, battle, seats, triggers, live=False) -> None:
        for trigger, key, question in triggers:
            for seat in seats:
                if (live or trigger in self.asks.get(seat, ())) and f"{seat}:{key}" not in battle.asked:
                    battle.asked.add(f"{seat}:{key}")
                    self.asked.setdefault(seat, []).append(str(question))
                    self.said.setdefault(seat, []).append(question)


def pause_for(state, orders: dict):
    """The pause of a turn's battles in the game's battle mode (None: the doctrine mode never stops)."""
    if state.battle_mode == "doctrine":
        return None
    asks = {seat: list(o.asks or ()) for seat, o in orders.items()}
    return Pause(state.battle_mode, asks)
