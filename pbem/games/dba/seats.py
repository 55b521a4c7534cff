"""Who sits at the table: one seat a side (``command = commanders``), or one seat per commander
(``command = kriegsspiel``, issue 12 §3: "one seat per commander, where orders between seats travel as couriers
and each seat sees only what its own troops see"). Readings DS1-DS6 in docs/rules-notes.md.

In the kriegsspiel game a seat is a commander of the scenario (its id is his: ``blue-general``, ``blue-1``):

- his troops are the brigades he commands and those of every commander under him (DS1): he writes to them and
  knows where they are;
- he writes dispatches only as himself (FROM <him>), to commanders under him, and his own initiative order;
- his eyes are his own: he and the brigade he leads himself (DS2); what the troops of the commanders under him
  see reaches him by their reports, carried by courier (DS6, reports.py); his sightings, seen or reported, are
  kept in the state's ``memory`` under his id, beside each side's;
- he reads the turn's events that name his own brigade, its elements or himself, with every enemy element he
  has not seen written as "an unseen element"; the reports and dispatches couriers brought him (DS3, DS6); an
  event that names no seat's own troops is the moderator's alone;
- the decisions the rules put to his side are his when their question names his troops (DS5).
"""

from __future__ import annotations

import re

from pbem.core.events import Event
from pbem.lang import Text

from .lang import say, term

from . import sight
from .orders import Orders
from .reports import Report, merge

COMMANDERS, KRIEGSSPIEL = "commanders", "kriegsspiel"
MODERATOR = "*moderator*"  # an event's owner: the moderator alone reads it (no seat has this id)
COPY = "seat copy"  # an event's data key: a seat's copy of an event the moderator reads whole
LEVELS = ("army", "corps", "division", "brigade")


def kriegsspiel(state_or_options) -> bool:
    mode = state_or_options.get("command") if isinstance(state_or_options, dict) else state_or_options.mode
    return mode == KRIEGSSPIEL


def commanders_of(scenario) -> list:
    """Every commander of the scenario (those arriving later too), side by side, the highest first."""
    sides = list(scenario.sides)  # every commander's level is one of LEVELS (scenario.py refuses others)
    return sorted(scenario.table.commanders.values(), key=lambda c: (sides.index(c.side), LEVELS.index(c.level), c.id))


def seat_title(scenario, commander) -> str:
    return str(seat_said(scenario, commander))


def seat_said(scenario, commander) -> Text:
    """A kriegsspiel seat's title (the commander, his command, his army), read in each language."""
    brigade = scenario.table.brigades.get(commander.brigade)  # None for a commander who leads no brigade
    what = term(brigade.name) if brigade is not None else say("%(level)s commander", level=term(commander.level))
    return say("%(commander)s (%(command)s, %(army)s)", commander=term(commander.name), command=what,
               army=term(scenario.sides[commander.side]))


def under(commanders: dict, seat: str) -> set[str]:
    """The commander ``seat`` and every commander under him (ids)."""
    out = {seat}
    while True:
        more = {c.id for c in commanders.values() if c.id not in out and c.superior in out}
        if not more:
            return out
        out |= more


def command(state, seat: str) -> tuple[set[str], set[str]]:
    """(brigade ids, commander ids) of the seat's troops: his and his subordinates' (DS1)."""
    chain = under(state.commanders, seat)
    brigades = {b.id for b in state.brigades.values() if b.commander in chain}
    return brigades, chain


def eyes(state, seat: str) -> tuple[set[str], set[str]]:
    """(brigade ids, commander ids) that look for the seat itself: the brigade he leads and he (DS2)."""
    return {b.id for b in state.brigades.values() if b.commander == seat}, {seat}


def side_of(scenario, seat: str) -> str:
    if seat in scenario.sides:
        return seat
    return scenario.table.commanders[seat].side


def writing(scenario, state) -> tuple[str, ...]:
    """The seats that may write for the next turn: every commander alive and on the table."""
    if state.over:
        return ()
    return tuple(c.id for c in commanders_of(scenario)
                 if state.commanders[c.id].alive and state.commanders[c.id].present)


def owing(scenario, state) -> tuple[str, ...]:
    """The seats the next turn waits for (their FINAL, or the deadline): the commanders on the table with a
    commander alive under them, to whom they write their dispatches. A brigade's commander with no one under him
    has nothing he must write (his initiative order is his own choice): he may write, and is not waited for
    (DS4)."""
    alive = {c.id for c in state.commanders.values() if c.alive}
    return tuple(s for s in writing(scenario, state)
                 if any(c.superior == s and c.id in alive for c in state.commanders.values()))


def not_owing(scenario, state) -> tuple[str, ...]:
    """The seats that may write for the next turn without being waited for."""
    owe = set(owing(scenario, state))
    return tuple(s for s in writing(scenario, state) if s not in owe)


def merged(scenario, orders: dict) -> dict:
    """The seats' orders gathered by side, in seat order (the turn reads one orders text a side)."""
    out: dict[str, Orders] = {}
    order = [c.id for c in commanders_of(scenario)]
    for seat in [s for s in orders if s not in order] + [s for s in order if s in orders]:  # a side's seat first
        side = side_of(scenario, seat)
        got = out.setdefault(side, Orders())
        got.dispatches += list(orders[seat].dispatches)
        got.initiatives += list(orders[seat].initiatives)
    return out


def look(scenario, state, delivered: list[Report] = (), turn: int | None = None) -> None:
    """Each seat looks at the end of ``turn`` (default: the state's) with its own eyes (DS2), after reading the
    reports brought to it (DS6): its sightings are kept under its id."""
    table = state.table(scenario)
    for r in delivered:
        state.memory[r.recipient] = merge(state.memory.get(r.recipient, {}), r.sightings)
        state.troops[r.recipient] = merge(state.troops.get(r.recipient, {}), r.troops)
    for c in commanders_of(scenario):
        brigades, own = eyes(state, c.id)
        state.memory[c.id] = sight.update(state.memory.get(c.id, {}), table, c.side, scenario.settings.spotting,
                                          state.turn if turn is None else turn, brigades, own)
    know_troops(scenario, state, state.turn if turn is None else turn, table)


def know_troops(scenario, state, turn: int, table=None) -> None:
    """DS7: each seat knows where its own troops are as it sees them: the elements of the brigade he leads, and the
    other elements under his command that he or that brigade sees now, at their place on ``turn``; the rest as his
    subordinates' reports last told him (merged by :func:`look`)."""
    table = table or state.table(scenario)
    for c in commanders_of(scenario):
        brigades, chain = command(state, c.id)
        mine, me = eyes(state, c.id)
        known = dict(state.troops.get(c.id, {}))
        present = state.commanders[c.id].alive and state.commanders[c.id].present
        for e in table.on_table(c.side):
            if e.brigade not in brigades:
                continue
            if e.brigade in mine or present and (turn == 0 or sight.sees_friend(table, e, scenario.settings.spotting,
                                                                               mine, me)):
                known[e.id] = sight.Sighting(e.id, e.brigade, e.troop, e.formation, e.x, e.y, e.facing, turn)
        state.troops[c.id] = known


def _where(state):
    def where(cid):
        c = state.commanders.get(cid)
        return (c.x, c.y) if c is not None and c.alive and c.present else None
    return where


def ride_reports(scenario, state, chance) -> list[Report]:
    """The reports on the road ride one turn at the start of the turn (with the dispatches): those delivered."""
    return state.reports.ride(state.turn, _where(state), state.post.speed, state.post.loss, chance)


def report_events(scenario, state, delivered: list[Report]) -> list[Event]:
    """What each report brought, told to its recipient alone."""
    from pbem.lang import say_plural

    out = []
    for r in delivered:
        out.append(Event("report", data={"report": r.seq}, owner=(r.recipient,),
                         said=say_plural("report %(seq)s from %(sender)s, sent turn %(turn)s (%(num)d enemy element "
                                         "known): %(news)s", "report %(seq)s from %(sender)s, sent turn %(turn)s "
                                         "(%(num)d enemy elements known): %(news)s", len(r.sightings), seq=r.seq,
                                         sender=term(state.commanders[r.sender].name), turn=r.sent,
                                         news=r.news())))
    return out


def send_reports(scenario, state, told: list[Event], turn: int) -> None:
    """At the end of ``turn`` every commander on the table with a superior on the table sends him a report: the
    enemy he knows of (seen or reported) and the lines he read this turn (DS6), each as its Text (as he read it:
    the enemy he has not seen unnamed), for his superior to read in his own language."""
    where = _where(state)
    for c in commanders_of(scenario):
        me = state.commanders[c.id]
        up = state.commanders.get(me.superior)  # None for the army's commander (no superior)
        if where(c.id) is None or up is None or where(up.id) is None:
            continue
        lines = [e.said if e.said is not None else e.text for e in told
                 if e.kind != "roll" and e.owner is not None and c.id in e.owners()]
        state.reports.send(c.id, up.id, turn, where(c.id), state.memory.get(c.id, {}).values(), lines,
                           state.troops.get(c.id, {}).values())


def _words(text: str) -> set[str]:
    return set(re.findall(r"\w+(?:-\w+)*", text))


def tokens(state, seat: str, own: bool = False) -> set[str]:
    """What names the seat's troops in a line: its brigades' ids and names, its elements', its officers'; with
    ``own``, only those of the brigade he leads himself and his own (DS3)."""
    brigades, chain = eyes(state, seat) if own else command(state, seat)
    out = set(brigades) | set(chain)
    out |= {b.name for bid, b in state.brigades.items() if bid in brigades}
    out |= {e for bid in brigades for e in state.brigades[bid].elements}
    out |= {state.commanders[c].name for c in chain}
    return out


def _mentions(text: str, names: set[str]) -> bool:
    words = _words(text)
    return any((n in text) if " " in n else (n in words) for n in names)


VIEW_ID = "E-{n}"
"""How a kriegsspiel seat names an enemy element (DS8): a number its army gave it, which says nothing of its brigade."""


def draw_enemy_ids(scenario, rng=None) -> dict[str, dict[str, str]]:
    """DS8: for each side, the ids its seats read for the enemy's elements: the enemy's elements (those on the table
    and those still to arrive) in an order drawn from the game's own stream ``fog`` (never shown: no die of the
    log), numbered 1, 2, … So an id says nothing of an element's brigade, nor of which the army saw first, and
    stays the same all game. Without a stream (a case built by hand) the order is a fixed shuffle."""
    from pbem.core.rng import Rng

    rng = rng if rng is not None else Rng(0)
    every = list(scenario.table.elements.values()) + list(scenario.waiting.values())
    out = {}
    for side in scenario.sides:
        enemy = sorted(e.id for e in every if e.side != side)
        rng.shuffle(enemy)
        out[side] = {eid: VIEW_ID.format(n=n) for n, eid in enumerate(enemy, 1)}
    return out


def enemy_id(state, side: str, eid: str) -> str:
    """The id ``side``'s seats read for the enemy element ``eid`` (DS8)."""
    return state.enemy_ids[side][eid]


def enemy_known(scenario, state, seat: str) -> dict[str, str]:
    """A kriegsspiel seat's ids of the enemy elements it knows of, each with the grid square where it was last
    seen: what ATTACK E-7 names (DS8) — those it sees now, where they stand, as its view shows them (at the start
    too, before a turn has been played), and those seen before or reported, where they were last seen. Empty
    for a seat of one a side."""
    if not kriegsspiel(state) or seat not in state.commanders:
        return {}
    side, grid = side_of(scenario, seat), scenario.table.grid
    known = {enemy_id(state, side, s.element): grid.ref_at(s.x, s.y) for s in state.memory.get(seat, {}).values()
             if grid.ref_at(s.x, s.y) is not None}
    table = state.table(scenario)
    brigades, own = eyes(state, seat)
    for eid in sight.seen(table, side, scenario.settings.spotting, brigades, own):
        e = table.elements[eid]
        if grid.ref_at(e.x, e.y) is not None:
            known[enemy_id(state, side, eid)] = grid.ref_at(e.x, e.y)
    return known


def _fogged(text, names: dict, pattern):
    """``text`` with each id or name of ``names`` (matched by ``pattern``) written as ``names`` says, in a
    :class:`pbem.lang.Text` in each of its values, and a name kept as a term (a Text of the name alone) too."""
    from .turn import joined

    if isinstance(text, Text):
        if not text.values and text.message in names:
            return names[text.message]
        return Text(text.message, {k: _fogged(v, names, pattern) for k, v in text.values.items()}, text.plural)
    if not isinstance(text, str) or not pattern.search(text):
        return text
    pieces = pattern.split(text)  # text, name, text, name, ... text
    if len(pieces) == 3 and not pieces[0] and not pieces[2]:
        return names[pieces[1]]
    return joined(*[names[p] if n % 2 else p for n, p in enumerate(pieces)])


def fog(scenario, state, seat: str) -> dict:
    """What a kriegsspiel seat reads instead of the enemy's own names (DS8): an enemy element it knows of by its
    army's id for it, one it does not as "an unseen element"; an enemy brigade as "an enemy brigade" and an enemy
    officer as "an enemy officer" (which brigade an element or an officer belongs to is not seen)."""
    side = side_of(scenario, seat)
    known = state.memory.get(seat, {})
    ids = state.enemy_ids.get(side, {})
    names: dict = {}
    for e in list(scenario.table.elements.values()) + list(scenario.waiting.values()):
        if e.side != side:
            names[e.id] = ids.get(e.id, e.id) if e.id in known else say("an unseen element")
    for c in scenario.table.commanders.values():
        if c.side != side:
            names[c.id] = names[c.name] = say("an enemy officer")
    for b in scenario.table.brigades.values():  # a brigade's id is often its colonel's: the lines name brigades
        if b.side != side:
            names[b.id] = names[b.name] = say("an enemy brigade")
    return names


def redact(text, scenario, state, seat: str):
    """``text`` (a :class:`pbem.lang.Text` too, in each of its values) as a kriegsspiel seat reads it (DS8): every
    enemy element the seat has not seen written as "an unseen element", those it has by its army's ids for them,
    the enemy's brigades and officers unnamed."""
    names = fog(scenario, state, seat)
    # the longest first: a name is matched whole (the lookarounds), the first alternative that fits wins
    pattern = re.compile(r"(?<![\w-])(" + "|".join(map(re.escape, sorted(names, key=lambda n: (-len(n), n))))
                         + r")(?![\w-])")
    out = _fogged(text, names, pattern)
    return str(out) if isinstance(out, Text) and not isinstance(text, Text) else out


def for_seats(scenario, state, events: list[Event]) -> list[Event]:
    """The turn's events told to the kriegsspiel seats (DS3): an event a side was told goes to the seats of that
    side whose own troops it names (the brigade each leads, its elements, himself) — a courier's setting out or
    loss to its sender alone —, each reading it with the enemy it has not seen unnamed; seats that read the same words share one copy. What the commanders above
    them learn of it comes by report (DS6). The moderator reads each event once, whole (the original, owned by
    :data:`MODERATOR`; the seats' copies carry :data:`COPY`). Public news (a brigade's surrender) is read by
    every seat, the enemy in it unnamed (DS8); the dice stay public."""
    sides = tuple(scenario.sides)
    seats = {s: [c.id for c in commanders_of(scenario) if c.side == s] for s in sides}
    names = {c.id: tokens(state, c.id, own=True) for c in commanders_of(scenario)}

    def told(text: str, said, side: str, sender: str | None = None) -> dict[str, tuple]:
        """{the text a group of seats reads: (its Text, the seats)}: the seats whose own troops the text names
        (the sender alone for a courier's news)."""
        groups: dict[str, tuple] = {}
        for seat in (s for s in seats[side] if (s == sender if sender else _mentions(text, names[s]))):
            own = redact(text, scenario, state, seat)
            groups.setdefault(own, (redact(said, scenario, state, seat) if said is not None else None, []))[1] \
                .append(seat)
        return groups

    out = []
    every = [c.id for c in commanders_of(scenario)]
    for e in events:
        owners = e.owners()
        if not owners and e.kind != "roll":  # public news (a surrender): each seat reads it with the enemy unnamed
            groups: dict[str, tuple] = {}
            for seat in every:
                own = redact(e.text, scenario, state, seat)
                groups.setdefault(own, (redact(e.said, scenario, state, seat) if e.said is not None else None, []))[1] \
                    .append(seat)
            if list(groups) == [e.text]:
                out.append(e)
                continue
            out.append(Event(e.kind, e.text, e.data, owner=(MODERATOR,), said=e.said))
            out += [Event(e.kind, text, {**e.data, COPY: True}, owner=tuple(who), said=said)
                    for text, (said, who) in groups.items()]
            continue
        if not owners or any(o not in sides for o in owners):
            out.append(e)
            continue
        out.append(Event(e.kind, e.text, e.data, owner=(MODERATOR,), said=e.said))
        for side in owners:  # a courier's setting out or loss: the sender's news alone
            for text, (said, who) in told(e.text, e.said, side, e.data.get("sender")).items():
                out.append(Event(e.kind, text, {**e.data, COPY: True}, owner=tuple(who), said=said))
        if e.seen is not None:
            watchers = [s for s in sides if s not in owners and (e.witnesses is None or s in e.witnesses)]
            for side in watchers:
                for text, (said, who) in told(e.seen, e.seen_said, side).items():
                    out.append(Event(e.kind, text, {**(e.seen_data or {}), COPY: True}, owner=tuple(who), said=said))
    return out


def bot(orders):
    """A bot of one seat a side made to sit in a kriegsspiel seat too: it writes for the seat's commander only
    (the dispatches FROM him, in the side's bot's words)."""
    def write(scenario, view: dict, seed: int) -> str:
        officer = view.get("commander")
        if not officer:
            return orders(scenario, view, seed)
        if view["over"] or officer not in view["owing"]:
            return ""
        name = next(c["name"] for c in view["commanders"] if c["id"] == officer)  # he is among his commanders
        text = orders(scenario, view | {"owing": [view["side"]]}, seed)
        blocks = [b for b in text.split("\n\n") if b.strip()]
        return "\n\n".join(b for b in blocks if b.startswith(f"FROM {name} TO ")) + "\n"
    return write


class SeatDecider:
    """The turn's decider, as a kriegsspiel game asks it: a decision the rules put to a side goes to the seat
    whose troops its question names — the lowest commander's, a brigade's before his general's — or, naming none
    (the initiative), to the side's highest commander still alive (DS5). The answers and records stay the
    wrapped decider's."""

    def __init__(self, decider, scenario, state):
        self.decider, self.scenario, self.state = decider, scenario, state

    def __getattr__(self, name):
        return getattr(self.decider, name)

    def seat_for(self, decision) -> str:
        side = decision.side
        if side not in self.scenario.sides:
            return side
        mine = [c for c in commanders_of(self.scenario) if c.side == side]
        for c in reversed(mine):  # the lowest first
            if self.state.commanders[c.id].alive and _mentions(decision.question,
                                                                 tokens(self.state, c.id)):
                return c.id
        alive = [c.id for c in mine if self.state.commanders[c.id].alive]
        return (alive or [c.id for c in mine])[0]

    def decide(self, decision, *args, **kwargs):
        from dataclasses import replace

        return self.decider.decide(replace(decision, side=self.seat_for(decision)), *args, **kwargs)
