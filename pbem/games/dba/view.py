"""What a seat may see (issue 12 §3): its own troops, commanders and couriers; the enemy elements its troops
see now; the enemy as last seen (with the turn); the brigades' orders in force. The moderator (seat None) sees
everything. Hidden information is decided here, on the server: nothing else goes into a seat's view."""

from __future__ import annotations

from .effectiveness import current, rating
from .executor import brigade_centre
from .lang import Text, say
from . import seats
from .sight import seen


def _element(e) -> dict:
    return {"id": e.id, "brigade": e.brigade, "side": e.side, "troop": e.troop, "formation": e.formation,
            "x": e.x, "y": e.y, "facing": e.facing, "disorganised": e.disorganised, "shaken": e.shaken,
            "fleeing": e.fleeing}


def _fogged(state, side: str, enemy: list[dict], key: str) -> list[dict]:
    """The enemy elements of a kriegsspiel seat's view as his army names them (DS8): its id for each, no brigade;
    in the order of those ids (the real ids' order would group them by brigade)."""
    out = [e | {key: seats.enemy_id(state, side, e[key]), "brigade": ""} for e in enemy]
    return sorted(out, key=lambda e: int(e[key].rsplit("-", 1)[1]))


def _reported(k, side: str) -> dict:
    """An element of his command as his reports last placed it (DS7): where, how, and the turn; its state not known."""
    return {"id": k.element, "brigade": k.brigade, "side": side, "troop": k.troop, "formation": k.formation,
            "x": k.x, "y": k.y, "facing": k.facing, "disorganised": False, "shaken": False, "fleeing": False,
            "reported": k.turn}


def _reported_brigade(state, officer: str, b, known: dict) -> dict:
    """A brigade under a kriegsspiel general that he does not lead himself, as he knows it (DS7): its elements and
    their place as reported, and as its order the last dispatch he sent its commander (what he wrote, not what is
    being done: which step, what came from others, he learns by report)."""
    els = [k for k in known.values() if k.brigade == b.id]
    sent = [c for c in state.post.couriers if c.sender == officer and c.recipient == b.commander]
    return {"id": b.id, "name": b.name, "side": b.side, "commander": b.commander, "bef": current(b),
            "bef_start": b.bef_start, "rating": rating(b), "elements": sorted(k.element for k in els),
            "order": sent[-1].order.text if sent else "", "step": 0 if sent else None, "waiting": 0, "history": [],
            "at": [round(sum(k.x for k in els) / len(els)), round(sum(k.y for k in els) / len(els))] if els else None,
            "reported": max((k.turn for k in els), default=None)}


def _last_reported_at(scenario, state, officer: str, cid: str) -> tuple[int, int]:
    """Where ``officer`` last knew his subordinate ``cid`` to be: where cid's last report to him left from, or where
    the scenario deployed him."""
    got = [r for r in state.reports.reports if r.sender == cid and r.recipient == officer and r.delivered is not None]
    if got:
        return got[-1].x, got[-1].y
    start = scenario.table.commanders.get(cid)
    return (start.x, start.y) if start is not None else (0, 0)


def turn_said(scenario, turn: int) -> Text:
    """The turn's name (its number and its time) in each language."""
    if turn > scenario.settings.turns:
        return say("the end of the game")
    return say("turn %(turn)s (%(clock)s)", turn=turn, clock=scenario.settings.clock(turn))


def turn_label(scenario, turn: int) -> str:
    return str(turn_said(scenario, turn))


def view(scenario, state, seat: str | None) -> dict:
    """What ``seat`` sees: a side (one seat a side), a commander (kriegsspiel: his troops and what they see,
    pbem/games/dba/seats.py), or None (the moderator: everything). Any other seat is refused (ValueError), never
    shown the moderator's view."""
    table = state.table(scenario)
    sides = tuple(scenario.sides)
    if seat is not None and seat not in sides and seat not in state.commanders:
        raise ValueError(f"{seat!r} is no seat of this game: a side, a commander, or None (the moderator)")
    officer = seat if seat in state.commanders else None  # no commander has a side's id (scenario.py)
    side = seat if seat in sides else (state.commanders[officer].side if officer else None)
    brigades_of = chain = looking = own = None  # a side or the moderator: every brigade, every commander
    if officer:
        brigades_of, chain = seats.command(state, officer)
        looking, own = seats.eyes(state, officer)  # his own eyes (DS2)
    mine = [e for e in table.on_table() if side is None or e.side == side
            and (brigades_of is None or e.brigade in brigades_of)]
    known = None  # kriegsspiel: his troops as he knows them (DS7), not where they are now
    if officer and seats.kriegsspiel(state):
        known = state.troops.get(officer, {})
        mine = [e for e in mine if e.brigade in looking or e.id in known and known[e.id].turn == state.turn - 1]
    now: set[str] = set()
    if side is not None:
        now = seen(table, side, scenario.settings.spotting, looking, own)
    enemy = [_element(table.elements[i]) for i in sorted(now)]
    last = []
    if side is not None:
        last = [s.to_dict() for s in sorted(state.memory.get(officer or side, {}).values(), key=lambda s: s.element)
                if s.element not in now]
    if officer and seats.kriegsspiel(state):  # the enemy by his army's ids for it, with no brigade (DS8)
        enemy, last = _fogged(state, side, enemy, "id"), _fogged(state, side, last, "element")
    elements = [_element(e) for e in mine]
    if known is not None:  # the others as his subordinates' reports last placed them, with the turn
        now = {e.id for e in mine}
        elements += [_reported(k, side) for k in sorted(known.values(), key=lambda k: k.element) if k.element not in now]
    brigades = []
    for bid, b in sorted(state.brigades.items()):
        if side is not None and (b.side != side or brigades_of is not None and bid not in brigades_of):
            continue
        if known is not None and bid not in looking:
            brigades.append(_reported_brigade(state, officer, b, known))
            continue
        bo = state.commands.get(bid)
        track = bo.current if bo else None
        centre = brigade_centre(table, bid)
        brigades.append({"id": bid, "name": b.name, "side": b.side, "commander": b.commander,
                         "bef": current(b), "bef_start": b.bef_start, "rating": rating(b),
                         "elements": [e.id for e in table.brigade_elements(bid)],
                         "order": track.order.text if track else "",
                         "step": (track.index if track else None), "waiting": len(bo.pending) if bo else 0,
                         "history": list(bo.history[-4:]) if bo else [],
                         "at": [round(centre.x), round(centre.y)] if centre is not None else None})
    commanders = [{"id": c.id, "name": c.name, "side": c.side, "level": c.level, "character": c.character,
                   "brigade": c.brigade, "superior": c.superior, "alive": c.alive, "x": c.x, "y": c.y,
                   "initiative_used": c.initiative_used, "present": c.present}
                  for c in sorted(table.commanders.values(), key=lambda c: c.id)
                  if side is None or c.side == side and (chain is None or c.id in chain)]
    if known is not None:  # a subordinate stands where his last report left from (or where he deployed)
        for c in commanders:
            if c["id"] != officer:
                c["x"], c["y"] = _last_reported_at(scenario, state, officer, c["id"])
    # the couriers the seat sent or received (every courier is sent by a commander: the moderator's list, of
    # every commander, is the whole post)
    post = state.post.seen_by([officer] if officer else [c["id"] for c in commanders])
    couriers = [c.text for c in post]
    if officer or side is None:  # the reports he sent up and those brought to him (DS6); the moderator: all
        names = {c.id: c.name for c in table.commanders.values()}
        couriers += [r.text(names) for r in (state.reports.seen_by(officer) if officer else state.reports.reports)]
    # what the couriers brought (and what the seat sent): the dispatches themselves
    dispatches = [c.order.text for c in post if officer and c.status == "delivered" and c.recipient == officer]
    owing = [] if state.over else (list(seats.owing(scenario, state)) if seats.kriegsspiel(state) else list(sides))
    return {"seat": seat, "side": side, "turn": state.turn, "turn_label": turn_label(scenario, state.turn),
            "commander": officer, "dispatches": dispatches,
            "owing": owing, "over": state.over, "winner": state.winner,
            "victory": state.victory, "a": state.a, "elements": elements,
            "enemy": enemy, "last_known": last, "brigades": brigades, "commanders": commanders,
            "couriers": couriers, "places": sorted(table.places), "table": [table.width, table.depth]}


def public(scenario, state) -> dict:
    """What every seat sees: the turn and the outcome, no troops."""
    return {"seat": "*spectator*", "side": None, "turn": state.turn, "turn_label": turn_label(scenario, state.turn),
            "owing": [], "over": state.over, "winner": state.winner, "victory": state.victory, "a": state.a,
            "elements": [], "enemy": [], "last_known": [], "brigades": [], "commanders": [], "couriers": [],
            "commander": None, "dispatches": [], "places": sorted(scenario.table.places), "table": [scenario.table.width, scenario.table.depth]}
