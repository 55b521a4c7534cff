"""The assault (000 §11): across an approach the enemy blocks, in nine steps.

1. The attacker names the attack approach (its blocks stand on it);
2. the defender's assault blocks are all its blocks on the defence approach;
   it may choose a vanguard among them (0-1 narrow, 0-2 wide, one type);
3. the attacker, having seen it, names up to three assault blocks and a
   vanguard (1 narrow, 1-2 wide, one type, strength 2 or more);
4. the defender's artillery may fire a barrage: one reduction on a vanguard;
5. the defender may counterattack (1 narrow, 1-2 wide, one type, strength 2
   or more, not vanguard): the counterattackers take a reduction for each
   attacking vanguard block at once;
6. result = attacking vanguard − terrain − defending vanguard − counterattack
   (current strengths, T25); above zero the attacker wins;
7. reductions: one per enemy vanguard block; the attacker one more per
   surviving cavalry counterattacker, and 1 or 2 more if it lost by at least
   its vanguard's strength (T28);
8. each side puts them on its vanguard first, evenly, then on its other
   assault blocks; the rest are ignored;
9. the attacker won: the defender retreats and the assault blocks advance into
   the defence locale's reserve (T27); it lost: everything stays.
Discs: the loser loses one per strength point lost (T29); a winning defender
commits one per vanguard and counterattacking block.
"""

from __future__ import annotations

from itertools import combinations

from . import morale
from pbem.lang import say, say_plural
from .march import continuation
from .orders import Assault
from .retreat import retreat
from .state import Block
from .turn import GROUP, STRENGTH_ORDER, Turn, Void

MIN_LEAD = 2  # attacking vanguard and counterattackers: «міццю два або більше»


def can_lead(block: Block, obstacle: bool, minimum: int = MIN_LEAD) -> bool:
    return block.strength >= minimum and block.type != "artillery" and not (obstacle and block.type == "cavalry")


def choices(blocks: list[Block], width: int, exact_one: bool) -> list[tuple[Block, ...]]:
    """Every legal vanguard-like choice: 1 block, or 2 of one type on a wide approach."""
    out = [(b,) for b in blocks]
    if width > 1 and not exact_one:
        out += [pair for pair in combinations(blocks, 2) if pair[0].type == pair[1].type]
    return out


def _same_type(turn: Turn, limit: int):
    def check(answer):
        types = {turn.st.blocks[k].type for k in answer}
        if len(types) > 1:
            return "two blocks of one type"
        if len(answer) > limit:
            return f"at most {limit}"
        return None
    return check


def assault(turn: Turn, order: Assault) -> None:
    st, board = turn.st, turn.board
    locale, toward = order.locale, order.toward
    side, foe = turn.side, turn.foe
    if (locale, toward) not in board.approaches:
        raise Void(say("%(place)s has no approach toward %(toward)s",
                        place=turn.name(locale), toward=turn.name(toward)))
    here = st.at(locale, toward, side)
    if order.best:  # T55: the assault blocks are chosen at step 3; the organised fresh ones may be
        blocks = [b for b in here if b.id not in turn.acted and not b.disorganised]
        if here and not blocks:
            raise Void(say("none of the blocks there may take part (disorganised, or acted this turn)"))
    elif order.blocks:
        ids = set(order.blocks)
        blocks = [b for b in here if b.id in ids]
        missing = ids - {b.id for b in blocks}
        if missing:
            raise Void(say("%(blocks)s not on %(approach)s", blocks=sorted(missing),
                                approach=turn.approach_name(locale, toward)))
    else:
        blocks = here
    if not blocks:
        raise Void(say("none of your blocks stand on %(approach)s", approach=turn.approach_name(locale, toward)))
    if len(blocks) > GROUP and not order.best:
        raise Void(say("more than %(most)d blocks stand there: name the assault blocks with WITH (000 §6)", most=GROUP))
    turn.fresh(blocks)
    if any(b.disorganised for b in blocks):
        raise Void(say("disorganised blocks cannot attack (000 §14)"))
    defenders = st.at(toward, locale, foe)
    if not defenders:
        raise Void(say("the enemy does not block %(approach)s: no assault, a maneuver attack crosses it (000 §11)",
                       approach=turn.approach_name(toward, locale)))
    if (locale, toward) in turn.closed:
        raise Void(say("an assault from %(approach)s was lost this turn (000 §11)",
                       approach=turn.approach_name(locale, toward)))
    if turn.closed_to(toward, side):
        raise Void(say("%(place)s is where enemy reinforcements enter while they wait (000 §15)",
                        place=turn.name(toward)))
    defence = board.approach(toward, locale)
    attack_approach = board.approach(locale, toward)
    obstacle = defence.cavalry_obstacle
    leaders = [b for b in blocks if can_lead(b, obstacle)]
    if not leaders:
        raise Void(say("no block of the assault can be its vanguard (strength 2 or more, not cavalry across a "
                       "cavalry obstacle; 000 §11)") if obstacle else
                   say("no block of the assault can be its vanguard (strength 2 or more; 000 §11)"))
    room = turn.capacity_left(toward, side)
    if room < (1 if order.best else len(blocks)):
        raise Void(say_plural("%(place)s has no room for %(num)d more block(s)",
                              "%(place)s has no room for %(num)d more block(s)", len(blocks), place=turn.name(toward)))
    turn.pay(1)
    width = defence.width
    if not order.best:
        for b in blocks:
            turn.acted.add(b.id)
    turn.public("assault", say("Assault from %(place)s on %(at)s with %(blocks)s", place=turn.approach_name(locale, toward),
                               at=turn.approach_name(toward, locale),
                               blocks=say("blocks chosen after the defender's vanguard.") if order.best
                               else say_plural("%(num)d block(s).", "%(num)d block(s).", len(blocks))),
                locale=locale, toward=toward)

    # step 2: the defender's vanguard
    d_vanguard = defence_vanguard(turn, defenders, locale, toward, width, obstacle)
    if order.best:  # step 3, first half: the assault blocks, having seen the defender's vanguard
        blocks = assault_blocks(turn, blocks, d_vanguard, width, obstacle, defence, min(GROUP, room), order.lead,
                                locale, toward)
        leaders = [b for b in blocks if can_lead(b, obstacle)]
        for b in blocks:
            turn.acted.add(b.id)
    # step 3: the attacker's vanguard
    a_vanguard = attack_vanguard(turn, blocks, leaders, width, obstacle, defence, order.lead)
    a_lost = d_lost = 0
    # step 4: barrage
    a_lost += barrage(turn, defenders, d_vanguard, a_vanguard, attack_approach.artillery, locale, toward)
    # step 5: counterattack
    counters, lost = counterattack(turn, defenders, d_vanguard, a_vanguard, width, obstacle, defence, locale, toward)
    d_lost += lost
    # step 6: the result
    lead_type = a_vanguard[0].type
    strength = sum(b.strength for b in a_vanguard)
    terrain = defence.penalty(lead_type)
    d_strength = sum(b.strength for b in d_vanguard)
    c_strength = sum(b.strength for b in counters)
    result = strength - terrain - d_strength - c_strength
    won = result > 0
    turn.public("assault", say("Assault on %(at)s: strength %(strength)d - terrain %(terrain)d - defence %(defence)d - "
                               "counterattack %(counter)d; result %(result)d: %(outcome)s.",
                               at=turn.approach_name(toward, locale), strength=strength, terrain=terrain,
                               defence=d_strength, counter=c_strength, result=result,
                               outcome=say("the attackers win") if won else say("the defenders win")),
                result=result, won=won)
    # step 7: reductions
    a_red = len(d_vanguard) + sum(1 for b in counters if b.on_map and b.type == "cavalry")
    d_red = len(a_vanguard)
    if not won and -result >= sum(b.strength for b in a_vanguard if b.on_map):
        a_red += len(a_vanguard)
    # step 8: distribute
    d_lost += distribute(turn, foe, d_vanguard, defenders, d_red)
    a_lost += distribute(turn, side, a_vanguard, blocks, a_red)
    if won and d_lost:
        morale.lose(turn, foe, d_lost, "the assault lost")
    if not won and a_lost:
        morale.lose(turn, side, a_lost, "the assault lost")
    # step 9
    if not won:
        turn.closed.add((locale, toward))
        morale.commit(turn, foe, toward, len(d_vanguard) + len(counters), "the assault held")
        return
    survivors = [b for b in blocks if b.on_map]
    retreat(turn, toward, locale, attack_approach.wide, len(survivors), "assault")
    for b in survivors:
        turn.enter(b, toward)
    turn.no_road_into.add(toward)
    turn.record_move(side, (locale, toward), (toward, None), len(survivors), "assault")
    turn.public("assault", say_plural("%(num)d block(s) advance into %(place)s.", "%(num)d block(s) advance into %(place)s.",
                                      len(survivors), place=turn.name(toward)))
    continuation(turn, survivors, toward, order.then, road_from=None)


def assault_blocks(turn: Turn, here: list[Block], d_vanguard: list[Block], width: int, obstacle: bool, defence,
                   most: int, lead, locale: str, toward: str) -> list[Block]:
    """§11 step 3 (T55): which blocks on the attack approach are the assault blocks. Default: the
    best vanguard and, if it beats the defender's vanguard after the terrain, the strongest others
    too (they advance); if it does not, the vanguard alone (the others take no excess reductions)."""
    leaders = [b for b in here if can_lead(b, obstacle)]
    vanguard = _best(choices(leaders, width, False), lambda c: sum(b.strength for b in c) - defence.penalty(c[0].type))
    if lead:
        vanguard = tuple(b for b in here if b.id in lead) or vanguard
    vanguard = vanguard[:most]
    edge = sum(b.strength for b in vanguard) - defence.penalty(vanguard[0].type) - sum(b.strength for b in d_vanguard)
    default = list(vanguard)
    if edge > 0:
        others = sorted((b for b in here if b not in vanguard), key=lambda b: (-b.strength, STRENGTH_ORDER[b.type], b.id))
        default += others[:most - len(default)]
    must = set(lead or ())

    def check(answer):
        if not any(can_lead(turn.st.blocks[k], obstacle) for k in answer):
            return "at least one block that can be the vanguard (strength 2 or more)"
        if not must <= set(answer):
            return "the LEAD blocks among them"
        return None

    answer = turn.decide(turn.side, "assault_blocks",
                         say("Assault on %(at)s: your assault blocks (1 to %(most)d), having seen the defender's "
                             "vanguard?", at=turn.approach_name(toward, locale), most=most),
                         [(b.id, turn.own(b)) for b in here], tuple(b.id for b in default), lo=1, hi=most,
                         check=check)
    return [b for b in here if b.id in answer]


def _best(options: list[tuple[Block, ...]], score) -> tuple[Block, ...]:
    return max(options, key=lambda c: (score(c), len(c), -STRENGTH_ORDER[c[0].type]))


def defence_vanguard(turn: Turn, defenders: list[Block], locale: str, toward: str, width: int,
                     obstacle: bool) -> list[Block]:
    foe = turn.foe
    eligible = [b for b in defenders if not (obstacle and b.type == "cavalry")]
    if not eligible:
        return []
    best = _best(choices(eligible, width, False), lambda c: sum(b.strength for b in c))
    policy = turn.standing(foe, "vanguard", toward, locale)
    given = None
    if policy is not None:
        if policy.value == "NONE":
            given = ()
        elif policy.value == "BEST":
            given = tuple(b.id for b in best)
        else:
            given = tuple(bid for bid in policy.blocks if bid in {b.id for b in eligible})
    answer = turn.decide(foe, "defence_vanguard",
                         say("Assault on %(at)s: your vanguard (0 to %(width)d, one type)?",
                             at=turn.approach_name(toward, locale), width=width),
                         [(b.id, turn.own(b)) for b in eligible], tuple(b.id for b in best), lo=0,
                         hi=min(width, len(eligible)), given=given, source="standing" if given is not None else None,
                         check=_same_type(turn, width))
    chosen = [b for b in eligible if b.id in answer]
    if chosen:
        turn.reveal(chosen, "the defending vanguard")
    else:
        turn.public("assault", say("The defender names no vanguard."))
    return chosen


def attack_vanguard(turn: Turn, blocks, leaders, width, obstacle, defence, lead) -> list[Block]:
    side = turn.side
    options = choices(leaders, width, False)
    best = _best(options, lambda c: sum(b.strength for b in c) - defence.penalty(c[0].type))
    given = None if lead is None else tuple(lead)
    answer = turn.decide(side, "attack_vanguard", say("Your vanguard for the assault (1 to the approach's width, "
                                                       "one type, strength 2 or more)?"),
                         [(b.id, turn.own(b)) for b in leaders], tuple(b.id for b in best), lo=1,
                         hi=min(width, len(leaders)), given=given, check=_same_type(turn, width))
    chosen = [b for b in leaders if b.id in answer]
    turn.reveal(chosen, "the attacking vanguard")
    return chosen


def barrage(turn: Turn, defenders, d_vanguard, a_vanguard, penalty: int, locale: str, toward: str) -> int:
    """§11 step 4; returns the attacker's strength lost."""
    foe, st = turn.foe, turn.st
    guns = [b for b in defenders if b.type == "artillery" and b not in d_vanguard and b.on_map
            and (st.day - 1) not in b.bombard_days]
    if not guns or penalty:
        return 0
    policy = turn.standing(foe, "barrage")
    given = None if policy is None else (("fire",) if policy.value == "ALWAYS" else ("hold",))
    key = turn.decide(foe, "barrage", say("Assault on %(at)s: fire a barrage?", at=turn.approach_name(toward, locale)),
                      [("fire", say("fire a barrage")), ("hold", say("hold"))], ("fire",), given=given,
                      source="standing" if given else None)[0]
    if key != "fire":
        return 0
    turn.reveal(guns[:1], "a barrage")
    victim = turn.pick_own(turn.side, a_vanguard, "barrage_loss", say("A barrage strikes your vanguard: which block?"))
    return turn.reduce(victim, 1, "barrage")


def counterattack(turn: Turn, defenders, d_vanguard, a_vanguard, width, obstacle, defence, locale, toward):
    """§11 step 5; returns (counterattackers, the defender's strength lost)."""
    foe = turn.foe
    eligible = [b for b in defenders if b.on_map and b not in d_vanguard and can_lead(b, obstacle)]
    if not eligible:
        return [], 0
    hits = len(a_vanguard)
    options = choices(eligible, width, exact_one=width == 1)

    def after(c):  # the counterattack's strength once it took its reductions
        return sum(max(0, s) for s in _shares([b.strength for b in c], hits))

    base = (sum(b.strength for b in a_vanguard) - defence.penalty(a_vanguard[0].type)
            - sum(b.strength for b in d_vanguard))
    policy = turn.standing(foe, "counterattack")
    mode = policy.value if policy is not None else "TURN"
    turning = [c for c in sorted(options, key=lambda c: (len(c), -after(c))) if base > 0 and base - after(c) <= 0]
    if mode == "NEVER":
        pick: tuple = ()
    elif mode == "ALWAYS":
        pick = _best(options, after) if after(_best(options, after)) > 0 else ()
    else:
        pick = turning[0] if turning else ()
    default = tuple(b.id for b in (turning[0] if turning else ()))
    answer = turn.decide(foe, "counterattack",
                         say("Assault on %(at)s: counterattack (with 1%(two)s, or none)?",
                             at=turn.approach_name(toward, locale), two=say(" or 2 of one type") if width > 1 else ""),
                         [(b.id, turn.own(b)) for b in eligible], default, lo=0, hi=min(width, len(eligible)),
                         given=None if policy is None else tuple(b.id for b in pick), source="standing",
                         check=_same_type(turn, width))
    chosen = [b for b in eligible if b.id in answer]
    if not chosen:
        return [], 0
    turn.reveal(chosen, "a counterattack")
    lost = spread(turn, foe, chosen, hits, "counterattack")
    return chosen, lost


def _shares(strengths: list[int], n: int) -> list[int]:
    """Strengths after ``n`` reductions spread as evenly as possible (the odd one on the first)."""
    if len(strengths) == 1:
        return [strengths[0] - n]
    a = (n + 1) // 2
    b = n // 2
    return [strengths[0] - a, strengths[1] - b]


def spread(turn: Turn, owner: str, leads: list[Block], n: int, why: str) -> int:
    """Put up to ``n`` reductions on ``leads`` as evenly as their strength allows, the owner
    choosing who takes an odd one; returns the strength lost."""
    leads = [b for b in leads if b.on_map]
    if not leads or n <= 0:
        return 0
    n = min(n, sum(b.strength for b in leads))
    if len(leads) == 1:
        return turn.reduce(leads[0], n, why)
    first, second = leads
    share = [n // 2, n // 2]
    if n % 2:
        stronger = max(leads, key=lambda b: (b.strength, -leads.index(b)))
        key = turn.decide(owner, "odd_reduction", say("An odd reduction (%(why)s): which block takes it?", why=say(why)),
                          [(b.id, turn.own(b)) for b in leads], (stronger.id,))[0]
        share[0 if key == first.id else 1] += 1
    for i, j in ((0, 1), (1, 0)):  # what one cannot take, the other does
        over = share[i] - leads[i].strength
        if over > 0:
            share[i] -= over
            share[j] += over
    return turn.reduce(first, share[0], why) + turn.reduce(second, share[1], why)


def distribute(turn: Turn, owner: str, vanguard: list[Block], assault_blocks: list[Block], n: int) -> int:
    """§11 step 8; returns the strength lost."""
    alive = [b for b in vanguard if b.on_map]
    on_vanguard = min(n, sum(b.strength for b in alive))
    lost = spread(turn, owner, alive, on_vanguard, "the assault")
    excess = n - on_vanguard
    while excess > 0:
        others = [b for b in assault_blocks if b.on_map and b not in vanguard]
        if not others:
            break
        b = turn.pick_own(owner, others, "excess_loss",
                          say("A reduction beyond the vanguard (the assault): which block?"))
        lost += turn.reduce(b, 1, "the assault")
        excess -= 1
    return lost
