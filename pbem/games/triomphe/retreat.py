"""Retreats (000 §13): the defeated defender's reductions, then its blocks leave.

A retreat is not an action and costs no order. Step 1, the reductions:
artillery anywhere is eliminated; the blocks on each approach take 1 (narrow)
or 2 (wide) between them; the infantry in the reserve 2 if the attack came
through a wide attack approach with several surviving attackers advancing
(T34), else 1; cavalry in the reserve none. Step 2: every block goes to the
reserve of an adjacent locale its owner chooses: not the attack locale, not
one the enemy holds, not past its capacity, not a closed entry locale (T14);
French blocks go west, Austrian east, only if nothing else is left (T37).
Blocks with nowhere to go are eliminated. Austria commits a disc to the
locale for each block that retreated from it (T36); every strength point lost
costs a disc (T35).
"""

from __future__ import annotations

from pbem.games.simmons.retreat import preferred, ranked
from pbem.lang import say, say_plural

from . import morale
from .state import Block
from .turn import Turn

AGAINST = {"france": "west", "austria": "east"}  # the direction each side retreats only as a last resort


def retreat(turn: Turn, locale: str, attack_locale: str, wide_attack: bool, advancing: int, cause: str) -> None:
    """Every block of the defender in ``locale`` retreats (the attacker is the moving side)."""
    st = turn.st
    side = turn.foe
    blocks = st.in_locale(locale, side)
    if not blocks:
        return
    turn.reveal(blocks, "retreat")
    lost = 0
    for b in [b for b in blocks if b.type == "artillery"]:
        lost += turn.reduce(b, b.strength, "retreat: artillery is eliminated")
    facings = []
    for b in blocks:
        if b.on_map and b.facing is not None and b.facing not in facings:
            facings.append(b.facing)
    for facing in facings:
        width = turn.board.approach(locale, facing).width
        lost += _reductions(turn, [b for b in blocks if b.on_map and b.facing == facing
                                   and b.type in ("infantry", "cavalry")], width,
                            say("retreat from the approach %(approach)s", approach=turn.approach_name(locale, facing)))
    infantry = [b for b in blocks if b.on_map and b.facing is None and b.type == "infantry"]
    n = 2 if wide_attack and advancing >= 2 else 1
    lost += _reductions(turn, infantry, n, "retreat from the reserve")
    moved: list[tuple[Block, str]] = []
    gone = []
    survivors = sorted((b for b in blocks if b.on_map), key=lambda b: (-b.strength, b.id))
    survivors = _who_goes(turn, survivors, locale, attack_locale)
    for b in survivors:
        options = destinations(turn, b, locale, attack_locale)
        if not options:
            lost += turn.reduce(b, b.strength, "retreat: nowhere to go")
            gone.append(b)
            continue
        to = _choose(turn, b, locale, options)
        turn.enter(b, to)
        moved.append((b, to))
        turn.record_move(side, (locale, None), (to, None), 1, "retreat")
    for b, to in moved:
        turn.private("retreat", side, say("%(block)s retreats from %(place)s to %(to)s.", block=turn.own(b),
                                          place=turn.name(locale), to=turn.name(to)),
                     seen=say("%(block)s retreats from %(place)s to %(to)s.", block=Turn.shown(b),
                              place=turn.name(locale), to=turn.name(to)),
                     seen_data={"from": locale, "to": to}, block=b.id, frm=locale, to=to)
    for to in dict.fromkeys(to for _b, to in moved):
        turn.contagion(to)
    if lost:
        morale.lose(turn, side, lost, say_plural("%(num)d reduction(s) in the retreat from %(place)s",
                                                 "%(num)d reduction(s) in the retreat from %(place)s", lost,
                                                 place=turn.name(locale)))
    if side == "austria" and moved:
        morale.commit(turn, "austria", locale, len(moved), say_plural("%(num)d block(s) retreated from it",
                                                                      "%(num)d block(s) retreated from it", len(moved)))


def _who_goes(turn: Turn, blocks: list[Block], locale: str, attack_locale: str) -> list[Block]:
    """§13: «Якщо місткості ділянки не вистачає для усіх фігур, що відступають, гравець, що
    відступає обирає, які з них відступають» — the owner names the blocks that retreat
    (default: the strongest); the others are eliminated in step 2."""
    if not blocks:
        return blocks
    room = sum(turn.capacity_left(n, blocks[0].side) for n in turn.board.adjacent(locale)
               if n in set(destinations(turn, blocks[0], locale, attack_locale, every=True)))
    if room >= len(blocks):
        return blocks
    if room <= 0:
        return blocks  # nobody can go: each is eliminated in turn
    side = blocks[0].side
    options = [(b.id, turn.own(b)) for b in blocks]
    answer = turn.decide(side, "retreat_who", say("Room for %(room)d of the %(n)d blocks retreating from %(place)s: "
                                                  "which retreat (the others are eliminated)?", room=room, n=len(blocks),
                                                  place=turn.name(locale)),
                         options, tuple(b.id for b in blocks[:room]), lo=room, hi=room)
    return [b for b in blocks if b.id in answer] + [b for b in blocks if b.id not in answer]


def _reductions(turn: Turn, blocks: list[Block], n: int, why: str) -> int:
    lost = 0
    for _ in range(n):
        alive = [b for b in blocks if b.on_map]
        if not alive:
            break
        b = turn.pick_own(alive[0].side, alive, "retreat_loss", say("A reduction (%(why)s): which block takes it?",
                                                                    why=say(why)))
        lost += turn.reduce(b, 1, why)
    return lost


def destinations(turn: Turn, block: Block, locale: str, attack_locale: str, every: bool = False) -> list[str]:
    """Where ``block`` may retreat from ``locale`` now: the side's last-resort direction only if
    nothing else is left (T37), unless ``every``."""
    st, board = turn.st, turn.board
    legal = [n for n in board.adjacent(locale)
             if n != attack_locale and not st.occupied_by(n, turn.side)
             and turn.capacity_left(n, block.side) > 0 and not turn.closed_to(n, block.side)]
    against = AGAINST[block.side]
    preferred = [n for n in legal if turn.terrain.direction(locale, n) != against]
    return legal if every else (preferred or legal)


def _choose(turn: Turn, block: Block, locale: str, options: list[str]) -> str:
    """The owner's choice among ``options``, ranked as in every Marengo-family game (simmons/retreat.py)."""
    room = {n: turn.capacity_left(n, block.side) for n in options}
    best = ranked(turn.board, options, (turn.sc.retreat_toward or {}).get(block.side), room)
    given = preferred(turn.standing(block.side, "retreat", locale), options)
    labels = [(n, say("%(place)s (%(num)d room)", place=turn.name(n), num=room[n])) for n in best]
    return turn.decide(block.side, "retreat", say("%(block)s retreats from %(place)s: where to?", block=turn.own(block),
                                                  place=turn.name(locale)),
                       labels, (best[0],), given=given, source="standing" if given else None)[0]


__all__ = ["retreat", "destinations"]
