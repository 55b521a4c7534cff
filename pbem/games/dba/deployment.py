"""How a scenario's brigade entry is put on the table: its elements side by side in line, or one behind another
in column, from the brigade's ``at`` (the centre of its front), ``facing`` and ``formation``; an element that
gives its own ``at`` stands there (docs/dba.md, "Transcribing your own table")."""

from __future__ import annotations

from shapely import affinity
from shapely.geometry import Point

from .elements import QUALITIES, TROOPS, Element, footprint_size, formations_for, inches


def point(v) -> tuple[int, int]:
    """A point written [x, y] in inches, as tenths; ValueError saying what was expected otherwise."""
    if not (isinstance(v, list) and len(v) == 2 and all(isinstance(c, (int, float)) for c in v)):
        raise ValueError(f"expected a point [x, y] in inches, got {v!r}")
    return inches(v[0]), inches(v[1])


def deploy(bid: str, spec: dict, side: str, problems: list[str]) -> list[Element]:
    """The elements of a brigade entry, placed from its ``at``, ``facing`` and ``formation`` (side by side in
    line, one behind another in column) unless an element gives its own ``at``."""
    x, y = point(spec["at"]) if "at" in spec else (0, 0)
    facing = int(spec.get("facing", 0)) % 360
    group = spec.get("formation", "line")
    quality = spec.get("quality", "trained")
    made: list[Element] = []
    n = 0
    for i, es in enumerate(spec.get("elements", []), 1):
        troop = es.get("troop")
        if troop not in TROOPS:
            problems.append(f"brigade {bid}, element entry {i}: unknown troop {troop!r}; expected one of "
                            f"{', '.join(TROOPS)}")
            continue
        formation = es.get("formation") or {"artillery": "unlimbered", "staff": "line"}.get(TROOPS[troop].arm, "line")
        if formation == "line" and group == "column" and TROOPS[troop].arm != "artillery":
            formation = "column"
        if formation not in formations_for(troop):
            problems.append(f"brigade {bid}, element entry {i}: {troop} cannot be in {formation!r}; expected one of "
                            f"{', '.join(formations_for(troop))}")
            continue
        q = es.get("quality", quality)
        if q not in QUALITIES:
            problems.append(f"brigade {bid}, element entry {i}: quality {q!r}; expected one of {', '.join(QUALITIES)}")
            continue
        for _ in range(int(es.get("count", 1))):
            n += 1
            eid = es.get("id") if es.get("count", 1) == 1 and es.get("id") else f"{bid}-{n}"
            made.append(Element(eid, side, bid, troop, x, y, facing, formation, int(es.get("ranks", 2)),
                                es.get("weapon"), q, name=es.get("name", "")))
            if "at" in es:
                made[-1].x, made[-1].y = point(es["at"])
    # place the ones without their own position: a line across the front, or a column going back
    loose = [e for e, es in zip(made, _expand(spec.get("elements", []))) if "at" not in es]
    if group == "column":
        back = 0
        for e in loose:
            w, d = footprint_size(e.troop, e.formation)
            e.x, e.y = _offset(x, y, facing, 0, -back)
            back += d
    else:
        widths = [footprint_size(e.troop, e.formation)[0] for e in loose]
        left = -sum(widths) / 2
        for e, w in zip(loose, widths):
            e.x, e.y = _offset(x, y, facing, left + w / 2, 0)
            left += w
    return made


def _expand(entries: list[dict]) -> list[dict]:
    out = []
    for es in entries:
        if es.get("troop") in TROOPS:
            out.extend([es] * int(es.get("count", 1)))
    return out


def _offset(x: int, y: int, facing: int, right: float, ahead: float) -> tuple[int, int]:
    """The point ``right`` tenths to the right and ``ahead`` tenths ahead of (x, y) facing ``facing``."""
    p = affinity.translate(affinity.rotate(Point(right, ahead), -facing, origin=(0, 0)), x, y)
    return round(p.x), round(p.y)


