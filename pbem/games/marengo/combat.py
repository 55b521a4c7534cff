"""Bombardments (003 §10), assaults (003 §11) and retreats (003 §12)."""

from __future__ import annotations

from .day import Day, Void, reason
from pbem.games.simmons.turn import adjective
from pbem.lang import say
from .movement import extend
from .orders import Assault, Bombard, Fire
from .retreat import retreat, reveal
from .scenario import SIDE_ADJ
from .state import Block

# -- §10 bombardments ---------------------------------------------------------------


def resolve_bombardments(day: Day) -> None:
    """§7 step 1: the bombardments declared on the side's previous day."""
    fire_orders = {o.block: o for o in day.orders.of(Fire)}
    for art in [b for b in day.st.side_blocks(day.side) if b.bombard is not None]:
        order = fire_orders.get(art.id)
        resolve_bombardment(day, art, order)


def bombard_targets(day: Day, art: Block) -> dict[str | None, list[Block]]:
    """§10 step 1: the possible targets, keyed by the approach (toward) or None for the reserve."""
    here, there = art.locale, art.bombard
    opposite = day.st.at(there, here, day.foe)
    if opposite:
        return {here: opposite}
    reserve = day.st.at(there, None, day.foe)
    if reserve:
        return {None: reserve}
    others = {}
    for b in day.st.in_locale(there, day.foe):
        others.setdefault(b.facing, []).append(b)
    return others


def resolve_bombardment(day: Day, art: Block, order: Fire | None) -> None:
    here, there = art.locale, art.bombard
    declared_from = day.place(here, there) if here else "?"
    targets = bombard_targets(day, art) if art.facing == there and art.on_map else {}
    fire = day.decide(
        day.side, "bombard_fire",
        say("%(block)s declared a bombardment from %(place)s: fire or cancel?", block=art.id, place=declared_from),
        [("fire", say("fire")), ("cancel", say("cancel the bombardment"))],
        ("fire",) if targets else ("cancel",),
        given=(("cancel",) if order.hold else ("fire",)) if order else None,
        check=lambda a: "there is no target left" if a == ("fire",) and not targets else None,
    )
    art.bombard = None
    if fire == ("cancel",):
        day.private("bombard", day.side, say("%(block)s's bombardment from %(place)s is cancelled; it is free to move "
                                             "(003 §10).", block=art.id, place=declared_from),
                    seen=say("The %(side)s bombardment from %(place)s is cancelled.", side=adjective(day.side),
                             place=declared_from),
                    seen_data={"locale": here, "facing": there})
        return
    if len(targets) > 1:
        keys = sorted(targets, key=lambda k: (-len(targets[k]), list(day.board.locales).index(k)))
        options = [(k, say("the blocks on %(place)s", place=day.place(there, k))) for k in keys]
        given = (order.target,) if order and order.target else None
        key = day.decide(day.side, "bombard_target",
                         say("%(block)s's bombardment: nothing blocks the opposite approach and %(place)s has no "
                             "reserve; which approach does it fire at?", block=art.id, place=day.name(there)),
                         options, (keys[0],), given=given)[0]
    else:
        key = next(iter(targets))
    victims = targets[key]
    strength = art.strength
    penalty = 0
    if key == here:  # §10 step 2: the terrain counts only against the opposite approach
        penalty = day.board.approach(there, here).artillery
    force = strength - penalty
    day.fired.add(art.id)
    art.bombard_days += (day.st.day,)
    where = day.place(there, key)
    day.public("bombard", say("The %(side)s artillery bombards from %(place)s at %(at)s: strength %(strength)d - "
                              "terrain %(penalty)d = %(force)d (003 §10).", side=adjective(day.side), place=declared_from,
                              at=where, strength=strength, penalty=penalty, force=force),
               side=day.side, frm=[here, there], at=[there, key], force=force)
    if force <= 0:
        return
    target = day.pick_own_loss(day.foe, victims, say("The enemy bombardment at %(at)s inflicts %(force)d: which of "
                                                    "your blocks takes it?", at=where, force=force))
    before = target.strength
    day.lose(target, force, "bombardment")
    day.loss_event(target, before - target.strength, "bombardment")


def declare_bombardments(day: Day) -> None:
    """§7 step 4, §10: the artillery must block an approach, and may not have fired today."""
    for order in day.orders.of(Bombard):
        art = day.st.blocks.get(order.block)
        try:
            if art is None or art.side != day.side or art.type != "artillery":
                raise Void(say("%(block)s is not one of your artillery blocks", block=order.block))
            if not art.on_map or (art.locale, art.facing) != (order.locale, order.toward):
                raise Void(say("%(block)s must be blocking %(place)s to bombard from it (003 §10)", block=art.id,
                               place=day.place(order.locale, order.toward)))
            if art.id in day.fired:
                raise Void(say("%(block)s fired today and may not declare a new bombardment (003 §10)", block=art.id))
            art.bombard = order.toward
            art.bombard_days += (day.st.day,)
            day.public("declare", say("The %(side)s artillery on %(place)s declares a bombardment and is revealed: "
                                      "artillery %(strength)d (003 §10).", side=adjective(day.side),
                                      place=day.place(order.locale, order.toward), strength=art.strength),
                       side=day.side, locale=order.locale, facing=order.toward)
        except Void as why:
            day.void(order, reason(why))


# -- §11 assaults ------------------------------------------------------------------------


def best_leads(candidates: list[Block], width: int, value) -> tuple[str, ...]:
    """The strongest legal choice of leads: one type, at most ``width`` blocks."""
    best: tuple[int, tuple[str, ...]] = (-99, ())
    for kind in ("infantry", "cavalry"):
        pick = sorted((b for b in candidates if b.type == kind), key=lambda b: (-b.strength, b.id))[:width]
        if pick:
            total = sum(value(b) for b in pick)
            if total > best[0]:
                best = (total, tuple(b.id for b in pick))
    return best[1]


def one_type(blocks: list[Block]) -> str | None:
    return None if len({b.type for b in blocks}) <= 1 else (
        "the lead blocks must be all infantry or all cavalry (003 §11)")


def assault(day: Day, order: Assault) -> None:
    side, foe, board = day.side, day.foe, day.board
    here, there = order.locale, order.toward
    if day.st.demoralised[side]:
        raise Void(say("a demoralised army may not assault (003 §13)"))
    if (here, there) not in board.approaches:
        raise Void(say("%(place)s has no approach toward %(toward)s", place=day.name(here), toward=day.name(there)))
    if (here, there) in day.assault_from:
        raise Void(say("only one assault a turn may cross an approach (003 §11)"))
    attack_approach = board.approach(there, here)  # the approach the defenders hold
    defenders = day.st.at(there, here, foe)
    if not defenders:
        raise Void(say("no enemy blocks %(place)s: an assault crosses a blocked approach (003 §11)",
                         place=day.place(there, here)))
    # §5: cavalry is excluded from defending a cavalry-obstacle approach: it neither leads nor takes losses
    taking_part = [b for b in defenders if not (b.type == "cavalry" and attack_approach.cavalry_obstacle)]
    attackers, excluded, left_out = [], [], []
    for bid in order.blocks:
        b = day.st.blocks.get(bid)
        if b is None or b.side != side or not b.on_map:
            raise Void(say("no block of yours called %(block)s on the map", block=bid))
        if (b.locale, b.facing) != (here, there):
            raise Void(say("%(block)s is not blocking %(place)s; all the blocks of an assault must block the same "
                           "approach (003 §11)", block=bid, place=day.place(here, there)))
        if bid in day.moved:
            raise Void(say("%(block)s has already moved or assaulted today", block=bid))
        barred = None
        if not b.activated:
            barred = f"{bid} has not been activated (003 §6 step 6)"
        elif b.type == "artillery" and (b.id in day.fired or any(o.block == b.id for o in day.orders.of(Bombard))):
            barred = f"{bid} may not assault on a day its bombardment is resolved or declared (003 §10)"
        if barred and order.named:
            raise Void(barred)
        if barred:  # written without WITH: the blocks that may not assault stay behind (rules-notes C8)
            left_out.append(b)
            continue
        if b.type == "cavalry" and attack_approach.cavalry_obstacle:
            excluded.append(b)  # §5: «La cavalerie est exclue de l'attaque»; it stays where it is
            continue
        attackers.append(b)
    if left_out:
        day.private("note", side, say("%(blocks)s take no part in the assault: an assault written without WITH leaves "
                                      "out blocks not activated and artillery whose bombardment is resolved or "
                                      "declared today (003 §6, §10, §11).", blocks=[b.id for b in left_out]))
    if excluded:
        day.private("note", side, say("%(blocks)s take no part in the assault: %(place)s is a cavalry obstacle "
                                      "(003 §5).", blocks=[b.id for b in excluded], place=day.place(there, here)))
    if not attackers:
        raise Void(say("no block may take part: cavalry is excluded from attacking a cavalry obstacle (003 §5)"))
    capacity = board.locales[there].capacity
    if len(attackers) > capacity:  # §8: the winners would enter more blocks than it holds
        raise Void(say("%(place)s holds at most %(num)d of your blocks: an assault on it may take at most %(num)d "
                       "blocks (003 §8)", place=day.name(there), num=capacity))
    pen = attack_approach.penalty
    width = attack_approach.width
    eligible = [b for b in attackers if b.type in ("infantry", "cavalry") and b.strength >= 2
                and b.strength > pen(b.type)]
    if not eligible:
        raise Void(say("no block can lead the assault: a lead is infantry or cavalry of strength 2 or more, "
                       "stronger than the approach's penalty for its type (003 §11 step 1)"))
    day.spend_command("assault")
    day.assault_from.add((here, there))
    day.moved.update(b.id for b in attackers)
    where = day.place(there, here)
    day.private("assault", side,
                say("Assault from %(place)s on %(at)s with %(blocks)s.", place=day.place(here, there), at=where,
                    blocks=[day.own(b) for b in attackers]),
                seen=say("%(blocks)s assault %(at)s from %(place)s.", blocks=day.count(len(attackers), side), at=where,
                         place=day.place(here, there)),
                seen_data={"from": [here, there], "at": [there, here], "count": len(attackers)})

    # (1) the attacker's leads
    by_id = {b.id: b for b in eligible}
    leads_ids = day.decide(
        side, "attack_leads", say("Your assault on %(at)s: which blocks lead it?", at=where),
        [(b.id, day.own(b)) for b in eligible], best_leads(eligible, width, lambda b: b.strength - pen(b.type)),
        lo=1, hi=width, given=order.leads or None,
        check=lambda a: one_type([by_id[k] for k in a]))
    leads = [by_id[k] for k in leads_ids]
    reveal(day, leads, "leads the assault")

    # (2)-(3) artillery defence
    demoralised_in_defence = False
    guns = [b for b in taking_part if b.type == "artillery" and b.bombard is None
            and (day.st.day - 1) not in b.bombard_days]
    if guns:
        standing = day.standing(foe, "artillery")
        given = None if standing is None else (("defend",) if standing.value == "DEFEND" else ("hold",))
        if day.decide(foe, "artillery_defence",
                      say("The enemy assaults %(at)s: does your artillery there fire in defence?", at=where),
                      [("defend", say("artillery defence")), ("hold", say("hold fire"))], ("defend",),
                      given=given, source="standing") == ("defend",):
            reveal(day, guns, "fires in defence")
            was = day.st.demoralised[side]
            day.losses(leads, [b for b in attackers if b not in leads], sum(g.strength for g in guns), foe,
                       "artillery defence")
            demoralised_in_defence = day.st.demoralised[side] and not was

    # (4) the defender's leads
    dpen = 1 if day.st.demoralised[foe] else 0
    can_defend = [b for b in taking_part if b.type in ("infantry", "cavalry")]
    dby_id = {b.id: b for b in can_defend}
    standing = day.standing(foe, "lead", there, here)
    dgiven = (tuple(k for k in standing.blocks if k in dby_id) or None) if standing else None
    dleads_ids = day.decide(
        foe, "defence_leads", say("The enemy assaults %(at)s: which of your blocks lead the defence?", at=where),
        [(b.id, day.own(b)) for b in can_defend],
        best_leads(can_defend, width, lambda b: max(0, b.strength - dpen)),
        lo=0, hi=min(width, len(can_defend)), given=dgiven, source="standing",
        check=lambda a: one_type([dby_id[k] for k in a]))
    dleads = [dby_id[k] for k in dleads_ids]
    reveal(day, dleads, "leads the defence")

    # (5) the assault's strength
    alive = [b for b in leads if b.on_map]
    lead_type = leads[0].type
    penalty = pen(lead_type)
    strength = sum(b.strength for b in alive) - penalty - (len(alive) if demoralised_in_defence else 0)
    # (6) the result
    defence = sum(max(0, b.strength - dpen) for b in dleads)
    result = strength - defence
    attacker_wins = result > 0
    day.public("assault_result",
               say("Assault on %(at)s: strength %(sum)d - terrain %(penalty)d%(demoralised)s = %(strength)d; defence "
                   "%(defence)d; result %(result)d: %(outcome)s", at=where, sum=sum(b.strength for b in alive),
                   penalty=penalty, demoralised=say(" - demoralisation %(n)d", n=len(alive)) if demoralised_in_defence
                   else "", strength=strength, defence=defence, result=result,
                   outcome=say("the attackers win.") if attacker_wins else say("the defenders win.")),
               strength=strength, defence=defence, result=result, winner=side if attacker_wins else foe)

    # (7) losses
    winner_leads, winner_all = (leads, attackers) if attacker_wins else (dleads, taking_part)
    loser_leads, loser_all = (dleads, taking_part) if attacker_wins else (leads, attackers)
    winner, loser = (side, foe) if attacker_wins else (foe, side)
    day.losses(winner_leads, [b for b in winner_all if b not in winner_leads], 1, loser, "the assault")
    day.losses(loser_leads, [b for b in loser_all if b not in loser_leads], 1 + abs(result), winner,
               "the assault")

    # (8)-(10) cavalry pursuit
    pursuit(day, order, winner, winner_all, winner_leads, loser_leads, loser_all, here, there, width)

    # (11) the winners hold the locale
    if not attacker_wins:
        survivors = [b for b in attackers if b.on_map]
        for b in survivors:
            b.facing = None
        day.closed.add(frozenset((here, there)))
        if survivors:
            day.private("recoil", side, say("%(blocks)s fall back to the reserve of %(place)s; %(approach)s is closed to "
                                            "you today.", blocks=[b.id for b in survivors], place=day.name(here),
                                            approach=day.place(here, there)),
                        seen=say("The assaulting blocks fall back to the reserve of %(place)s.", place=day.name(here)),
                        seen_data={"locale": here})
            day.record_move(side, (here, there), (here, None), len(survivors), "recoil")
        return
    retreat(day, foe, there, came_from=here, exempt={b.id for b in taking_part})
    survivors = [b for b in attackers if b.on_map]
    for b in survivors:
        day.st.put(b, there, None)
    day.captured[there] = {b.id for b in survivors}
    day.private("capture", side, say("%(blocks)s take %(place)s.", blocks=[b.id for b in survivors],
                                     place=day.name(there)),
                seen=say("%(blocks)s take %(place)s.", blocks=day.count(len(survivors), side), place=day.name(there)),
                seen_data={"locale": there, "count": len(survivors)})
    day.record_move(side, (here, there), (there, None), len(survivors), "assault")
    extensions(day, order, survivors, there)


def extensions(day: Day, order: Assault, survivors: list[Block], locale: str) -> None:
    """§11: after a capture, cavalry of the assault may extend; each split is a new group."""
    wanted: dict[str, list[Block]] = {}
    for bid, toward in order.extend:
        b = next((x for x in survivors if x.id == bid), None)
        if b is None or b.type != "cavalry":
            day.void(order, say("%(block)s cannot extend: only cavalry that took part and survived may (003 §11)",
                                block=bid))
            continue
        wanted.setdefault(toward, []).append(b)
    groups = len(wanted) + (1 if sum(len(g) for g in wanted.values()) < len(survivors) else 0)
    first = True
    for toward, cavalry in wanted.items():
        split = not (first and groups == 1)
        first = False
        try:
            extend(day, cavalry, locale, toward, split=split)
        except Void as why:
            day.void(order, say("the extension toward %(place)s: %(why)s", place=day.name(toward), why=reason(why)))


def pursuit(day: Day, order: Assault, winner: str, winner_all, winner_leads, loser_leads, loser_all,
            here: str, there: str, width: int) -> None:
    """§11 steps 8–10."""
    board = day.board
    if any(b.type == "cavalry" for b in loser_leads):
        return
    if board.approach(here, there).cavalry_obstacle or board.approach(there, here).cavalry_obstacle:
        return
    cavalry = [b for b in winner_all if b.type == "cavalry" and b not in winner_leads and b.on_map]
    if not cavalry:
        return
    # the pursued stand on the loser's approach
    pursued_approach = board.approach(there, here) if winner == day.side else board.approach(here, there)
    pen = pursued_approach.cavalry
    by_id = {b.id: b for b in cavalry}
    pick = sorted(cavalry, key=lambda b: (-b.strength, b.id))[:width]
    strong = tuple(b.id for b in pick) if sum(b.strength for b in pick) - pen >= 2 else ()
    given = None
    source = "standing"
    if winner == day.side and order.pursue is not None:
        given, source = tuple(k for k in order.pursue if k in by_id), "orders"
    else:
        standing = day.standing(winner, "pursue")
        if standing is not None:
            given = {"ALWAYS": tuple(b.id for b in pick), "NEVER": (), "STRONG": strong}.get(standing.value)
    chosen = day.decide(winner, "pursuit",
                        say("Your side won the assault: which cavalry pursues (none: no pursuit)?"),
                        [(b.id, day.own(b)) for b in cavalry], strong, lo=0, hi=min(width, len(cavalry)),
                        given=given, source=source)
    if not chosen:
        return
    pursuers = [by_id[k] for k in chosen]
    reveal(day, pursuers, "pursues")
    force = sum(b.strength for b in pursuers) - pen
    day.public("pursuit", say("Cavalry pursuit: strength %(sum)d - terrain %(penalty)d = %(force)d (003 §11 steps "
                              "8–10).", sum=sum(b.strength for b in pursuers), penalty=pen, force=force),
               force=force, side=winner)
    target = day.pick_own_loss(winner, pursuers, say("Your pursuing cavalry loses 1: which block takes it?"))
    day.lose(target, 1, "pursuit")
    day.loss_event(target, 1, "pursuit")
    if force > 0:
        day.losses(loser_leads, [b for b in loser_all if b not in loser_leads], force, winner, "the pursuit")
