"""One turn of Napoleonic DBA, in the order of «Последовательность игры»:

    «1. Игроки пишут приказы … 2. Игроки бросают кубик d6 на инициативу … 3. Игрок A проводит стрельбу
    4. Игрок B проводит стрельбу 5. Игрок B бросает кубик d6 для определения PIP и выполняет перемещения
    6. Игрок A … 7. Рукопашная схватка»

1. orders: both seats' dispatches set out with their couriers (the Post), initiative orders are tested; brigades
   due on the table this turn enter; couriers ride and deliver, each delivered order's delay is rolled;
2. the initiative roll (sequence.py) makes A and B; each brigade's order in force is read (command.py), asking
   the brigade's own sight (executor.BrigadeSight);
3. fire, A's brigades then B's; 4. PIPs and movement, B's then A's (fleeing elements run in their side's phase);
5. melee between every pair of enemy elements in contact; 6. brigade effectiveness: temporary losses recover,
   brigades at 0 surrender; 7. each side looks (last-known positions kept), and victory by the scenario.

Pure and deterministic: every die from ``chance``, every choice a logged decision.
"""

from __future__ import annotations

import re

from pbem.core.decisions import Decider
from pbem.core.events import Event
from pbem.lang import Text, say_plural

from . import disorder, effectiveness, flight, melee, officers, sight
from .command import receive, take_initiative, why_no_initiative
from .executor import BrigadeSight, Executor
from .lang import joined, term, terms
from .orders import HOLD
from .lang import say as T  # a Text: a line every seat reads in its own language
from .sequence import initiative
from .table import Table


def sides_of(scenario) -> tuple[str, str]:
    return tuple(scenario.sides)  # type: ignore[return-value]


def resolve(scenario, state, orders: dict, decider: Decider, chance):
    t = state.turn
    table = state.table(scenario)
    events: list[Event] = []
    sides = sides_of(scenario)

    def say(text: Text | str, side: str | None = None, kind: str = "report", seen: Text | str | None = None,
            witnesses: tuple[str, ...] | None = None, data: dict | None = None):
        said, text = (text, str(text)) if isinstance(text, Text) else (None, text)
        seen_said, seen = (seen, str(seen)) if isinstance(seen, Text) else (None, seen)
        if side is None:
            events.append(Event(kind, text, data or {}, said=said))
        else:
            events.append(Event(kind, text, data or {}, owner=side, seen=seen, witnesses=witnesses if seen else (),
                                said=said, seen_said=seen_said))

    for e in table.elements.values():
        e.moved_last, e.moved = e.moved, False
        # cavalry that drove its enemy back stays in contact, in pursuit (−2), until its next combat (D34)
        e.pursuing = e.pursuing and table.engaged(e)
    retreated: set[str] = set()
    fired_at: set[str] = set()
    was_disordered = {e.id for e in table.elements.values() if e.disorganised or e.shaken}

    # 1. reinforcements enter, with their commanders
    for arrival in scenario.arrivals:
        if arrival.brigade in state.arrived or arrival.turn > t:
            continue
        b = state.brigades[arrival.brigade]
        new = [state.reserve[i] for i in b.elements if i in state.reserve]
        placed = entry(table, new)
        if placed is None:
            say(T("%(brigade)s cannot enter at %(place)s yet: the way is blocked", brigade=term(b.name),
                  place=term(arrival.place)), b.side)
            continue
        for e in new:
            table.elements[e.id] = state.reserve.pop(e.id)
            e.x, e.y = placed[e.id]
        if b.commander in state.commanders:
            state.commanders[b.commander].present = True
        state.arrived.append(arrival.brigade)
        say(T("%(brigade)s enters at %(place)s", brigade=term(b.name), place=term(arrival.place)), b.side)

    def look():
        for side in sides:
            state.memory[side] = sight.update(state.memory.get(side, {}), table, side, scenario.settings.spotting, t)

    look()

    # 1. orders: dispatches set out, initiative orders are tried
    for side in sides:
        written = orders.get(side)
        if written is None:
            continue
        for order in written.dispatches:
            sender = state.commanders.get(order.sender.id)
            if sender is None or not sender.alive or not sender.present:
                say(T("%(commander)s cannot send a dispatch: he is not on the table", commander=term(order.sender.name)), side)
                continue
            courier = state.post.send(order, t, (sender.x, sender.y))
            say(T("courier %(seq)s sets out: %(sender)s to %(recipient)s", seq=courier.seq, sender=term(order.sender.name),
                  recipient=term(order.recipient.name)), side,
                data={"sender": order.sender.id})  # his news alone: the recipient learns of it when it arrives
        for order in written.initiatives:
            cmd = state.commanders.get(order.sender.id)
            bo = state.commands.get(cmd.brigade) if cmd is not None and cmd.brigade else None
            why = why_no_initiative(cmd) if cmd is not None else T("no such commander")
            if why or bo is None:
                say(T("%(commander)s: no initiative test (%(why)s)", commander=term(order.sender.name),
                      why=why or T("he commands no brigade")), side)
                continue
            passed = take_initiative(chance, cmd, order, bo, t)
            result = (T("%(commander)s tests his initiative: passed, his order is in force", commander=term(cmd.name))
                      if passed else T("%(commander)s tests his initiative: failed", commander=term(cmd.name)))
            # «все последствия такого теста должны быть ясны и понятны для обоих игроков» (DO18): the other side
            # reads it too; in the kriegsspiel, only a seat whose own troops it names (seats.for_seats: none of his)
            say(result, side, seen=result)

    # couriers ride and deliver; each delivered order waits for its delay
    def where(cid):
        c = state.commanders.get(cid)
        if c is None or not c.alive:
            return None
        if not c.present:  # he comes on later: the courier rides to where he will enter
            entry = next((a.place for a in scenario.arrivals if a.brigade == c.brigade), None)
            loc = table.names.find_location(entry) if entry else None
            return (round(loc.centre.x), round(loc.centre.y)) if loc is not None else (c.x, c.y)
        return (c.x, c.y)

    for courier in state.post.ride(t, where, chance):
        rec = state.commanders[courier.recipient]
        bo = state.commands.get(rec.brigade) if rec.brigade else None
        delay = receive(courier, t, rec, bo, chance)
        if delay is None:
            text = T("courier %(seq)s delivered to %(commander)s: he commands no brigade; the dispatch is read",
                     seq=courier.seq, commander=term(rec.name))
        else:
            text = say_plural("courier %(seq)s delivered to %(commander)s: delay %(num)d turn, in force from turn "
                              "%(turn)s", "courier %(seq)s delivered to %(commander)s: delay %(num)d turns, in force "
                              "from turn %(turn)s", delay, seq=courier.seq, commander=term(rec.name), turn=t + delay)
        say(text, rec.side)
    for courier in state.post.couriers:
        if courier.status == "lost" and courier.delivered == t:
            say(T("courier %(seq)s to %(commander)s is lost", seq=courier.seq, commander=term(courier.order.recipient.name)),
                state.commanders[courier.sender].side, data={"sender": courier.sender})

    # 2. the initiative roll, and each brigade's order in force
    init = initiative(sides, chance, scenario.settings.initiative_bonus, decider)
    state.a = init.a
    say(init.said(), None, kind="initiative")
    steps = {}
    seen: dict[str, set[str]] = {}
    for bid in sorted(state.brigades):
        b = state.brigades[bid]
        if not table.brigade_elements(bid) or b.surrendered:
            continue
        eyes = BrigadeSight(table, scenario, bid, t, set(state.fired_at), set(state.retreated))
        seen[bid] = eyes.seen
        force = state.commands[bid].in_force(t, eyes)
        # a step waiting for its turn (AT TURN) or its event (IF) is not begun: the brigade holds where it stands
        # («начнет выполнение приказа … но ни в коем случае не ранее!»; docs/rules-notes.md, DT-W)
        steps[bid] = HOLD if force.waiting else force.step
        say(T("%(brigade)s: %(order)s", brigade=term(b.name), order=force.said), b.side, kind="order")
    ex = Executor(table, scenario, decider, chance, say)

    # D6: a battery that moved limbered unlimbers at the start of the next fire phase (unless its order keeps it
    # limbered); it fires from the turn after it moved (fire.why_not_fire)
    for bid in sorted(steps):
        if steps[bid].formation == "limbered":
            continue
        for e in table.brigade_elements(bid):
            if e.arm == "artillery" and e.limbered and not e.fleeing:
                ex.unlimber(e)

    def surrender_at_zero():
        """«Когда БЭФ уменьшается до нуля и ниже, бригада сдается»: at once, whatever the phase (DR5)."""
        for bid in sorted(state.brigades):
            b = state.brigades[bid]
            if not b.surrendered and effectiveness.current(b) <= 0 and table.brigade_elements(bid):
                out = flight.surrender(table, bid)
                say(T("%(brigade)s surrenders: its elements flee", brigade=term(b.name)), None, kind="surrender")
                state.gone += [f.element for f in out]

    # 3. fire: A, then B; the groups that must retreat do so when both have fired (DR3)
    retreats: dict[tuple[str, str], object] = {}
    for side in (init.a, init.b):
        for bid in sorted(steps):
            if state.brigades[bid].side != side or bid not in seen:
                continue
            v = ex.fire(bid, steps[bid], seen[bid])
            if v is None:
                continue
            fired_at.add(v.target_brigade)
            target_side = state.brigades[v.target_brigade].side
            told = joined(T("%(brigade)s (%(arm)s) comes under fire: %(result)s",
                            brigade=term(state.brigades[v.target_brigade].name), arm=term(v.arm), result=v.result),
                          T("; destroyed %(elements)s", elements=", ".join(v.destroyed)) if v.destroyed else "",
                          T("; disorganised %(elements)s", elements=", ".join(v.disorganised)) if v.disorganised else "",
                          T("; shaken %(elements)s", elements=", ".join(v.shaken)) if v.shaken else "",
                          T("; %(commanders)s killed or taken with it", commanders=terms(v.commanders_lost))
                          if v.commanders_lost else "")
            say(fire_line(v, set(state.memory.get(side, {}))), side, kind="fire", seen=told,
                witnesses=(target_side,))
            state.gone += v.destroyed
            if v.must_retreat:
                retreats[(v.target_brigade, v.arm)] = v
            surrender_at_zero()
    for key in sorted(retreats):
        fall_back(table, state, retreats[key], decider, say, retreated)
    surrender_at_zero()

    settle(table, say)
    disorder.pull_apart(table, say, decider)  # D17: the disorganised break contact with each other

    # commanders reached by the enemy (after each movement phase and after the melee): the first contact of the
    # turn he evades, a second takes him («в тот же игровой тур … ещё одна аналогичная атака»)
    evaded: set[str] = set()
    rode: dict[str, int] = {}  # tenths each commander has ridden this turn (a staff move at most)

    told: set[tuple[str, str]] = set()

    def reached_officers():
        for c in sorted(table.commanders.values(), key=lambda c: c.id):
            if c.alive and c.present and officers.contacted(table, c):
                got = officers.evade(table, c, decider, c.id in evaded)  # which way he rides: a decision
                if got.outcome != "sheltered":
                    evaded.add(c.id)
                if (c.id, got.outcome) not in told:
                    told.add((c.id, got.outcome))
                    say(T("%(commander)s: enemy contact, %(outcome)s", commander=term(c.name), outcome=term(got.outcome)),
                        c.side)

    # 4. PIPs and movement: B, then A
    for side in (init.b, init.a):
        for e in [e for e in table.on_table(side) if e.fleeing]:
            if rally(table, e, chance, decider, say, rode):
                ex.still.add(e.id)  # stopped: it takes no order this turn
                continue
            out = flight.flee(table, e)
            retreated.add(e.brigade)
            if out.outcome != "ran":
                state.gone.append(out.element)
            say(joined(T("%(element)s flees: %(outcome)s", element=out.element, outcome=term(out.outcome)),
                       T("; %(commanders)s killed or taken with it", commanders=terms(out.commanders_lost))
                       if out.commanders_lost else ""), side)
        surrender_at_zero()
        for bid in sorted(steps):
            if state.brigades[bid].side != side or not table.brigade_elements(bid):
                continue
            step = steps[bid]
            if step.verb == "RETREAT":
                retreated.add(bid)

            def hold(reason, side=side):
                say(reason, side, kind="hold")

            ex.move(bid, step, seen.get(bid, set()), hold)
            cid = state.brigades[bid].commander
            if cid in table.commanders:
                rode[cid] = rode.get(cid, 0) + officers.follow(table, table.commanders[cid],
                                                               officers.STAFF_MOVE - rode.get(cid, 0))
        # superiors ride after their troops (DT6)
        for c in sorted(table.commanders.values(), key=lambda c: c.id):
            if c.side == side and c.brigade is None:
                rode[c.id] = rode.get(c.id, 0) + officers.follow(table, c, officers.STAFF_MOVE - rode.get(c.id, 0))
        # DT9: disorganised (or shaken) before this turn and out of contact: re-formed at the end of the move
        for e in table.on_table(side):
            if e.id in was_disordered and not e.fleeing and not table.engaged(e):
                if e.shaken:
                    leave_shaken(table, e, ex, say)
                e.disorganised = e.shaken = False
                say(T("%(element)s re-forms", element=e.id), side)
        reached_officers()

    look()  # the enemy in contact is seen before the melee

    # 5. melee: every combat the text allows (melee.phase, D34): front to front, then flank and rear, then pursuit
    def attacks(e) -> bool:
        return steps.get(e.brigade) is not None and steps[e.brigade].verb == "ATTACK"

    for c in melee.phase(table, init.a, attacks, chance, decider):
        for x in c.destroyed:
            state.gone.append(x)
        if c.loser is not None and c.outcome in ("recoil", "flee") and c.loser in table.elements:
            retreated.add(table.elements[c.loser].brigade)
        # each side reads the combat naming only the enemy it has seen (the moderator reads A's line)
        say(redact(c.said(), init.a, state, scenario), init.a, kind="melee",
            seen=redact(c.said(), init.b, state, scenario), witnesses=(init.b,))

    settle(table, say)
    surrender_at_zero()
    reached_officers()

    # 6. brigade effectiveness
    surrender_at_zero()
    for bid in sorted(state.brigades):
        effectiveness.recover(state.brigades[bid])
    for e in table.on_table():
        if not table.engaged(e):
            e.rounds = 0

    # 7. sight and victory
    look()
    state.fired_at, state.retreated = sorted(fired_at), sorted(retreated)
    victory(scenario, state, table)
    state.turn = t + 1
    return state, events


def fall_back(table, state, v, decider, say, retreated: set) -> None:
    """«Если все элементы являются дезорганизованными, как минимум половина или все элементы должны отступить на 3"
    (или если истощенные (spent), то бежать на 6")»: after both sides have fired, the group of volley ``v`` still
    all disorganised retreats 3" (flees, when spent); which of its elements go, at least half, is its owner's
    decision (``fire retreat``; by default all). The others stand, disorganised (DR3, DR4)."""
    b = table.brigades[v.target_brigade]
    group = [e for e in table.brigade_elements(b.id) if e.arm == v.arm and not e.fleeing]
    if b.surrendered or not group or not all(e.disorganised for e in group):
        return
    flee = effectiveness.rating(b) == "spent"
    options = tuple(e.id for e in group)
    least = -(-len(options) // 2)
    from pbem.core.decisions import Decision

    said = T("%(brigade)s (%(arm)s) must fall back: which of its elements go (at least %(num)s, or all)?",
             brigade=term(b.name), arm=term(v.arm), num=least)
    going = decider.decide(Decision(b.side, "fire retreat", str(said), options, options, min=least,
                                    max=len(options), said=said), given=None)
    for eid in options:
        e = table.elements.get(eid)
        if e is None:
            continue
        if eid not in going:
            say(T("%(element)s stands, disorganised", element=eid), b.side)
            continue
        retreated.add(e.brigade)
        if flee:
            fled = flight.start_flight(table, e)
            say(T("%(element)s flees (artillery: out of the game)", element=eid) if fled
                else T("%(element)s flees", element=eid), b.side)
            if fled:
                state.gone.append(eid)
        elif not melee.recoil(table, e, melee.RECOIL):
            dead = officers.destroy(table, eid)
            effectiveness.element_lost(b)
            state.gone.append(eid)
            say(joined(T("%(element)s cannot fall back 3\" and is destroyed", element=eid),
                       T("; %(commanders)s killed or taken with it", commanders=terms(dead)) if dead else ""), b.side)
        else:
            say(T("%(element)s falls back 3\"", element=eid), b.side)


def leave_shaken(table, e, ex, say) -> None:
    """DT13: «Пехота в каре или отряды в полевом укреплении могут игнорировать отступление, но считаются shaken
    пока они не простоят полный тур без рукопашной схватки; затем они обязаны отступить с занимаемой позиции или
    изменить построение с каре в другую формацию.» A shaken square forms line (recoils 3" when there is no room);
    a shaken element in field works falls back 3" out of them."""
    if e.formation == "square":
        ex.reform(e, "line")
        if e.formation == "line":
            return
    elif not table.terrain.in_fieldworks(e.shape):
        return
    if melee.recoil(table, e, melee.RECOIL):
        say(T("%(element)s leaves its position: falls back 3\"", element=e.id), e.side)
    else:
        say(T("%(element)s cannot fall back 3\" and stays", element=e.id), e.side)


RALLY_RIDE = 100  # tenths: the commander rides to a fleeing element as staff move («Штаб и прочее», 10")


def rally(table, e, chance, decider, say, rode: dict | None = None) -> bool:
    """«Бегущие элементы бригады с положительным БЭФ могут быть остановлены бригадным главнокомандующим. Он
    должен войти в контакт с бегущим элементом»: before it runs, the brigade's commander within a staff move
    rides into contact (at the middle of its rear edge; a decision, default yes) and rolls (flight.rally); what he
    has ridden this turn (``rode``, tenths by commander) counts against his staff move. True when it is stopped."""
    b = table.brigades[e.brigade]
    c = table.commanders.get(b.commander) if b.commander else None
    if c is None or not c.alive or not c.present or effectiveness.current(b) <= 0:
        return False
    rode = {} if rode is None else rode
    if c.point.distance(e.shape) > RALLY_RIDE - rode.get(c.id, 0):
        return False
    from pbem.core.decisions import Decision

    said = T("%(commander)s rides to rally the fleeing %(element)s?", commander=term(c.name), element=e.id)
    go = decider.decide(Decision(b.side, "rally", str(said), ("yes", "no"), ("yes",), said=said), given=None)
    if go != ("yes",):
        return False
    p = e.edge("rear").interpolate(0.5, normalized=True)
    rode[c.id] = rode.get(c.id, 0) + round(c.point.distance(p))
    c.x, c.y = round(p.x), round(p.y)
    got = flight.rally(table, e, chance)
    how = T("stopped") if got.rallied else T("not stopped (%(why)s)", why=got.why_not) if got.why_not \
        else T("not stopped")
    say(T("%(commander)s rallies %(element)s: die %(die)s%(charisma)s → %(outcome)s", commander=term(c.name),
          element=e.id, die=got.die, charisma=f"{got.charisma:+d}", outcome=how), b.side)
    return got.rallied


def settle(table, say) -> None:
    """D16: a recoiling element may end on friends it passed; the executor pushes them aside: the friend it stands
    on steps sideways (left, then right, up to 3") to the first place clear of every base and of closed ground; when
    it has none, the other of the two does."""
    on = table.on_table()  # in id order
    closed = [f.shape for f in table.terrain.closed()]
    for n, a in enumerate(on):
        for b in on[n + 1:]:
            if a.side != b.side or not Table.overlap(a, b):
                continue
            for e, o in ((a, b), (b, a)):
                if _step_aside(table, e, o, on, closed, say):
                    break


def _step_aside(table, e, o, on, closed, say) -> bool:
    """Move ``o`` sideways off ``e`` (left, then right, up to 3") to the first clear place; False when none."""
    from shapely import affinity
    from shapely.geometry import Point

    for step in [d for k in range(2, 31, 2) for d in (-k, k)]:
        p = affinity.translate(affinity.rotate(Point(step, 0), -o.facing, origin=(0, 0)), o.x, o.y)
        m = o.moved_to(round(p.x), round(p.y))
        ms = m.shape
        if table.area.contains(ms) and not any(Table.overlap(m, x) for x in on if x.id != o.id) \
                and not any(ms.intersection(c).area > 0.5 for c in closed):
            o.x, o.y = m.x, m.y
            say(T("%(element)s steps aside %(inches)s\" to make room for %(other)s", element=o.id,
                  inches=f"{abs(step) / 10:g}", other=e.id), o.side)
            return True
    return False


def entry(table, new) -> dict[str, tuple[int, int]] | None:
    """Where an arriving brigade's elements stand: as the scenario deploys them, moved straight ahead (a column
    marching on from the table's edge) by the least whole inch that puts every base on the table, clear of
    other bases and of closed ground; None when no such place is within 24"."""
    closed = [f.shape for f in table.terrain.closed()]
    for n, e in enumerate(new):  # bases a rounding of the deployment left overlapping step back a tenth at a time
        for _ in range(20):
            if not any(Table.overlap(e, o) for o in new[:n]):
                break
            e.x, e.y = melee.step_back(e, 1)
    for ahead in range(0, 241, 10):
        spots = {e.id: melee.step_back(e, -ahead) for e in new}
        moved = [e.moved_to(*spots[e.id]) for e in new]
        if all(table.area.contains(m.shape) for m in moved) \
                and not any(Table.overlap(m, o) for m in moved for o in table.on_table()) \
                and not any(c.intersects(m.shape) and m.shape.intersection(c).area > 0.5 for m in moved for c in closed):
            return spots
    return None


def redact(text: Text | str, side: str, state, scenario) -> Text | str:
    """``text`` with every enemy element ``side`` has not seen written as "an unseen element" (in a Text, in
    each of its values)."""
    known = set(state.memory.get(side, {}))
    enemy = [e.id for e in list(scenario.table.elements.values()) + list(scenario.waiting.values()) if e.side != side]
    hidden = set(enemy) - known
    if not hidden:
        return text
    # an id is matched whole or not at all (the lookarounds), so the alternatives' order does not matter
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(hidden))) + r")(?![\w-])")
    return _redacted(text, pattern)


def _redacted(text, pattern):
    if isinstance(text, Text):
        return Text(text.message, {k: _redacted(v, pattern) for k, v in text.values.items()}, text.plural)
    if not isinstance(text, str) or not pattern.search(text):
        return text
    pieces = pattern.split(text)  # text, id, text, id, ... text
    if len(pieces) == 3 and not pieces[0] and not pieces[2]:
        return T("an unseen element")
    return joined(*[T("an unseen element") if n % 2 else p for n, p in enumerate(pieces)])


def fire_line(v, known: set[str]) -> Text:
    """The firing side's line of a volley: the enemy elements it hit are named when it has seen them, and
    counted otherwise (the result falls on the whole group fired at, seen or not)."""
    def names(ids):
        shown = [i for i in ids if i in known]
        hidden = len(ids) - len(shown)
        return joined(", ".join(shown), T("%(num)s unseen", num=hidden) if hidden else "", sep=", ")

    who = [joined(f"{s.shooter} {s.value}", T(" (doubled)") if s.doubled else "") for s in v.shots if s.value]
    mods = joined(" ", terms(v.modifiers, " ")) if v.modifiers else ""
    text = T("%(brigade)s fires at %(target)s (%(arm)s): value %(value)s%(of)s [%(shots)s], die %(die)s%(mods)s → "
             "%(result)s", brigade=v.brigade, target=v.target_brigade, arm=term(v.arm), value=v.value,
             of=T(" (of %(base)s)", base=v.base) if v.base != v.value else "",
             shots=joined(*who, sep=", ") if who else T("no shot"), die=v.die, mods=mods, result=v.result)
    parts = [text]
    for label, ids in ((T("; destroyed %(elements)s", elements=names(v.destroyed)), v.destroyed),
                       (T("; disorganised %(elements)s", elements=names(v.disorganised)), v.disorganised),
                       (T("; shaken %(elements)s", elements=names(v.shaken)), v.shaken)):
        if ids:
            parts.append(label)
    if v.commanders_lost:
        parts.append(T("; %(commanders)s killed or taken with it", commanders=terms(v.commanders_lost)))
    return joined(*parts)


def broken_share(scenario, state, side: str) -> float:
    """The share of ``side``'s brigades in the battle (not those still to arrive) spent or broken."""
    later = {a.brigade for a in scenario.arrivals} - set(state.arrived)
    mine = [b for b in state.brigades.values() if b.side == side and b.id not in later]
    if not mine:
        return 0.0
    return sum(1 for b in mine if effectiveness.rating(b) in ("spent", "broken")) / len(mine)


def victory(scenario, state, table) -> None:
    """D30: an army wins when ``breaks`` of the enemy's brigades are spent or broken; at the end, the side
    holding the place (its elements within ``radius``, none of the enemy's) wins if it may (``holder``)."""
    v = scenario.settings.victory
    sides = sides_of(scenario)
    breaks = float(v.get("breaks", 0.5))
    broken = {s: broken_share(scenario, state, s) >= breaks for s in sides}
    if any(broken.values()):
        state.over = True
        if all(broken.values()):
            state.winner, state.victory = None, str(DRAW_BROKEN)
        else:
            loser = next(s for s in sides if broken[s])
            state.winner = next(s for s in sides if s != loser)
            state.victory = str(broken_said(scenario, loser))
        return
    if state.turn < scenario.settings.turns:
        return
    state.over = True
    place = v.get("hold")
    loc = table.names.find_location(place) if place else None
    if loc is None:
        state.winner, state.victory = None, str(DRAW_LAST)
        return
    radius = round(float(v.get("radius", 3)) * 10)
    near = {s: any(e.shape.distance(loc.geometry) <= radius for e in table.on_table(s) if not e.fleeing)
            for s in sides}
    holders = [s for s in sides if near[s] and not any(near[o] for o in sides if o != s)]
    allowed = v.get("holder", "either")
    if holders and (allowed == "either" or allowed == holders[0]):
        state.winner = holders[0]
        state.victory = str(holds_said(scenario, holders[0], place))
    else:
        state.winner, state.victory = None, str(nobody_said(place))


DRAW_BROKEN = T("both armies are broken: a draw")
DRAW_LAST = T("the last turn is played: a draw")


def broken_said(scenario, side: str) -> Text:
    breaks = float(scenario.settings.victory.get("breaks", 0.5))
    return T("%(army)s is broken (%(percent)s%% of its brigades spent)", army=term(scenario.sides[side]),
             percent=round(breaks * 100))


def holds_said(scenario, side: str, place: str) -> Text:
    return T("%(army)s holds %(place)s at the end", army=term(scenario.sides[side]), place=term(place))


def nobody_said(place: str) -> Text:
    return T("nobody holds %(place)s at the end: a draw", place=term(place))


def victory_said(scenario, victory: str | None) -> Text | str:
    """The game's outcome (``state.victory``, kept in English) as the Text :func:`victory` wrote it, to be read in
    each language; an outcome not of the rules (a forfeit, written by the server) as it is."""
    if not victory:
        return victory or ""
    place = scenario.settings.victory.get("hold")
    candidates = [DRAW_BROKEN, DRAW_LAST] + [broken_said(scenario, s) for s in scenario.sides]
    if place:
        candidates += [holds_said(scenario, s, place) for s in scenario.sides] + [nobody_said(place)]
    return next((c for c in candidates if str(c) == victory), victory)

