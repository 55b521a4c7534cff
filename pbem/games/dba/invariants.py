"""What self-play checks after every turn (check_turn), and a finished game for balance runs (summary)."""

from __future__ import annotations

from .effectiveness import current, rating


def check_turn(scenario, result) -> list[str]:
    before, after = result.before, result.after
    problems = []
    if after.turn != before.turn + 1:
        problems.append(f"the turn went from {before.turn} to {after.turn}")
    table = after.table(scenario)
    ids = sorted(table.elements)
    for n, a in enumerate(ids):
        ea = table.elements[a]
        if not ea.shape.within(table.area.buffer(1)):
            problems.append(f"{a} stands off the table at ({ea.x / 10:g}, {ea.y / 10:g})")
        for f in table.terrain.closed():
            if f.shape.intersection(ea.shape).area > 0.5:
                problems.append(f"{a} stands inside impassable {f.kind} {f.name!r}")
        for b in ids[n + 1:]:
            eb = table.elements[b]
            if ea.shape.intersection(eb.shape).area > 1:
                problems.append(f"{a} and {b} stand on one another")
    for eid in ids:
        if eid in after.gone:
            problems.append(f"{eid} is gone but still on the table")
        if eid in before.gone:
            problems.append(f"{eid} came back")
    for b in after.brigades.values():
        if current(b) > b.bef_start:
            problems.append(f"{b.id}'s effectiveness {current(b)} is above its start {b.bef_start}")
        if b.bef_temporary < 0 or b.bef_permanent < 0:
            problems.append(f"{b.id}'s losses are negative")
        if rating(b) not in ("fresh", "tired", "spent", "broken"):
            problems.append(f"{b.id} has no rating")
        for eid in b.elements:
            if eid in table.elements and table.elements[eid].brigade != b.id:
                problems.append(f"{eid} changed brigade")
    problems += after.post.check()
    problems += after.reports.check()
    delivered_before = {c.seq for c in before.post.couriers if c.status != "riding"}
    for c in after.post.couriers:
        if c.seq in delivered_before:
            prior = next(x for x in before.post.couriers if x.seq == c.seq)
            if (prior.status, prior.delivered) != (c.status, c.delivered):
                problems.append(f"courier {c.seq} was {prior.status} on turn {prior.delivered}, now {c.status}")
    seqs = [p.seq for bo in after.commands.values() for p in bo.pending]
    seqs += [bo.current.seq for bo in after.commands.values() if bo.current is not None]
    if len(seqs) != len(set(seqs)):
        problems.append("one dispatch came into two brigades' commands")
    return problems


def summary(scenario, state) -> dict:
    sides = tuple(scenario.sides)
    side_of = {e.id: e.side for e in list(scenario.table.elements.values()) + list(scenario.table.reserve.values())}
    return {"winner": state.winner, "how": state.victory,
            "means": {f"{s} elements lost": sum(1 for e in set(state.gone) if side_of.get(e) == s) for s in sides}
            | {"turns": state.turn - 1},
            "counts": {"brigades broken": sorted(b.id for b in state.brigades.values()
                                                 if rating(b) in ("spent", "broken"))}}
