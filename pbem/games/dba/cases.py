"""Adjudication cases for the table and its rules: a position, one rule applied with the dice fixed, and what
must hold afterwards (tests/cases/dba/*.toml; run by tests/test_dba_table_cases.py).

    dice = [6, 2]                          # the rolls, in order
    [case]
    title = "..."; rule = "004 «Стрельба»"; note = "the passage quoted and the reckoning"
    scenario = "meeting"                   # or "quatre-bras" (maps/dba-<name>.toml); default meeting
    clear = true                           # take every element off first: only the listed ones stand
    [[element]] id = "red-1-2"; at = [20, 24]; facing = 270; formation = "line"   # move / set an element
    [[element]] id = "x"; brigade = "red-1"; troop = "cuirassiers"; at = [..]     # a new one (new id)
    [[commander]] id = "red-1"; at = [..]; alive = true
    [[feature]] kind = "woods"; points = [[..], ..]                                # extra ground
    [[road]] name = "the lane"; points = [[..], ..]                                # an extra road
    [[brigade]] id = "red-1"; quality = "veteran"  # its quality; its starting BEF counted from what stands
    [[brigade]] id = "red-9"; side = "red"; name = "..."; commander = "red-1"     # a new brigade
    [bef] red-1 = { temporary = 2, permanent = 4 }                                 # losses so far
    [answers] 0 = ["red-1-3"]              # decisions answered (by their index)
    [action] kind = "fire"; shooters = [..]; target = "blue-2"; arm = "infantry"
    [expect] result = "D, -1"; value = 8; lines = ["text in the report line"]
    [[expect.element]] id = "blue-2-1"; at = [x, y]; facing = 90; gone = true; disorganised = true

Lengths in a case are inches, as on the table (a path's ``length``, where an element ``reached``). Action kinds: fire, result (rows = [[value, die, "D"]...]), weapon (rows = [[weapon, inches, value]]), melee,
melee phase (first = the side whose elements lead; attacking = the brigades ordered to ATTACK), pips, units, cost,
move, allowance, path, sight, flee, rally, surrender, effectiveness, evade (``rode``: the inches he rode off),
initiative, scenario (an inline scenario text that must be refused or accepted), and turns (whole turns played with
written orders, every die given: turn_cases.py).
"""

from __future__ import annotations

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

from shapely.geometry import LineString, Point, Polygon

from pbem.core.chance import Chance
from pbem.core.decisions import Decider
from pbem.lang import Text
from pbem.paths import MAPS

from . import disorder, effectiveness, fire, flight, melee, movement, officers, pips, sequence, sight
from .elements import Brigade, Element, inches
from .scenario import ScenarioError, load_scenario, scenario_from
from .terrain import Feature, Line, Terrain


class CaseError(ValueError):
    """A case file that cannot be run."""


@dataclass
class Outcome:
    path: str
    title: str
    failures: list[str] = field(default_factory=list)
    lines: list[str] = field(default_factory=list)
    rolls: list = field(default_factory=list)
    said: list = field(default_factory=list)  # the lines the rules wrote as Texts (each read in every language)
    decisions: list = field(default_factory=list)  # the decisions put (DecisionRecord: the question, the answer)

    @property
    def ok(self) -> bool:
        return not self.failures


_SCENARIOS: dict[str, object] = {}


def scenario(name: str):
    if name not in _SCENARIOS:
        _SCENARIOS[name] = load_scenario(MAPS / f"dba-{name}.toml")
    return _SCENARIOS[name]


def _table(data: dict, path: Path):
    meta = data.get("case", {})
    sc = scenario(meta.get("scenario", "meeting"))
    table = sc.fresh_table()
    if meta.get("clear"):
        table.elements.clear()
    waiting = {k: v for k, v in sc.waiting.items()}
    for spec in data.get("brigade", []):  # a new brigade is made before its elements are placed
        if spec["id"] not in table.brigades and "side" in spec:
            table.brigades[spec["id"]] = Brigade(spec["id"], spec.get("name", spec["id"]), spec["side"],
                                                 spec.get("commander"))
    for spec in data.get("element", []):
        eid = spec["id"]
        e = table.elements.get(eid) or waiting.get(eid)
        if e is None:
            base = sc.table.elements.get(eid)
            if base is not None:
                e = Element(**{**base.__dict__})
            elif "troop" in spec and "brigade" in spec:
                if spec["brigade"] not in table.brigades:
                    raise CaseError(f"{path}: element {eid}: no brigade {spec['brigade']!r} (a new one is given by "
                                    "[[brigade]] with its side)")
                b = table.brigades[spec["brigade"]]
                e = Element(eid, b.side, b.id, spec["troop"], 0, 0)
                b.elements.append(eid)
            else:
                raise CaseError(f"{path}: no element {eid} (give brigade and troop for a new one)")
        for k, v in spec.items():
            if k in ("id", "brigade", "troop"):
                continue
            if k == "at":
                e.x, e.y = inches(v[0]), inches(v[1])
            elif k == "facing":
                e.facing = int(v) % 360
            elif hasattr(e, k):
                setattr(e, k, v)
            else:
                raise CaseError(f"{path}: element {eid}: no field {k!r}")
        table.elements[eid] = e
    for spec in data.get("commander", []):
        c = table.commanders[spec["id"]]
        if "at" in spec:
            c.x, c.y = inches(spec["at"][0]), inches(spec["at"][1])
        for k in ("alive", "character", "initiative_used"):
            if k in spec:
                setattr(c, k, spec[k])
    extra = [Feature(f["kind"], f.get("name", ""), Polygon([(inches(x), inches(y)) for x, y in f["points"]]),
                     int(f.get("level", 1 if f["kind"] == "hill" else 0))) for f in data.get("feature", [])]
    roads = [Line("road", r.get("name", ""), LineString([(inches(x), inches(y)) for x, y in r["points"]]))
             for r in data.get("road", [])]
    if extra or roads or meta.get("bare"):
        old = table.terrain
        keep = [] if meta.get("bare") else old.features
        table.terrain = Terrain(keep + extra, ([] if meta.get("bare") else old.roads) + roads,
                                [] if meta.get("bare") else old.streams)
    if data.get("brigade"):
        from .turn_cases import brigade

        for spec in data["brigade"]:
            brigade(table, spec, path)
    for bid, losses in data.get("bef", {}).items():
        b = table.brigades[bid]
        b.bef_temporary = int(losses.get("temporary", 0))
        b.bef_permanent = int(losses.get("permanent", 0))
    return sc, table


def _el(table, eid, path):
    if eid not in table.elements:
        raise CaseError(f"{path}: no element {eid} on the table")
    return table.elements[eid]


def run_case(path) -> Outcome:
    path = Path(path)
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, OSError) as exc:
        raise CaseError(f"{path}: {exc}") from None
    meta = data.get("case", {})
    out = Outcome(str(path), meta.get("title", path.stem))
    action = data.get("action", {})
    expect = data.get("expect", {})
    kind = action.get("kind")
    chance = Chance(0, 1, fixed=list(data.get("dice", [])))
    decider = Decider(answers={int(k): tuple(v) for k, v in data.get("answers", {}).items()})
    got: dict = {}

    if kind == "scenario":
        try:
            scenario_from(tomllib.loads(action["text"]), "case")
            got["refused"] = ""
        except ScenarioError as exc:
            got["refused"] = str(exc)
        _compare(out, expect, got)
        return out
    if kind == "result":
        for value, die, want in action["rows"]:
            r = fire.result(value, die)
            if r != want:
                out.failures.append(f"value {value}, die {die}: {r}, expected {want}")
        return out
    if kind == "weapon":
        for weapon, dist, want in action["rows"]:
            v = fire.weapon_value(weapon, inches(dist))
            if v != want:
                out.failures.append(f"{weapon} at {dist}\": {v}, expected {want}")
        return out
    if kind == "initiative":
        ini = sequence.initiative(tuple(action["sides"]), chance, action.get("bonus", {}), decider)
        got.update(a=ini.a, b=ini.b, winner=ini.winner, tries=len(ini.rolls))
        out.lines.append(ini.line())
        _compare(out, expect, got)
        out.rolls = chance.rolls
        return out

    sc, table = _table(data, path)
    if kind == "turns":
        from .turn_cases import run_turns

        run_turns(data, sc, table, out, path)
        return out
    spotting = inches(action["spotting"]) if "spotting" in action else sc.settings.spotting
    if kind == "fire":
        shooters = [_el(table, i, path) for i in action["shooters"]]
        v = fire.volley(table, shooters, action["target"], action.get("arm", "infantry"), chance, decider, spotting)
        out.lines.append(v.line())
        got.update(value=v.value, base=v.base, result=v.result, die=v.die, modified=v.modified,
                   destroyed=v.destroyed, disorganised=v.disorganised, shaken=v.shaken,
                   must_retreat=v.must_retreat, flee=v.flee, shots={s.shooter: s.value for s in v.shots},
                   not_firing=[s.shooter for s in v.shots if s.why_not], commanders_lost=v.commanders_lost)
        out.lines += [s.why_not for s in v.shots if s.why_not]
    elif kind == "melee":
        a, d = _el(table, action["attacker"], path), _el(table, action["defender"], path)
        c = melee.fight(table, a, d, chance, decider)
        out.lines.append(c.line())
        got.update(attacker_total=c.attacker.total, defender_total=c.defender.total, loser=c.loser or "",
                   outcome=c.outcome, destroyed=c.destroyed, moved=c.moved, pursuit=str(c.pursuit),
                   commanders_lost=c.commanders_lost)
    elif kind == "melee phase":
        ordered = set(action.get("attacking", []))
        cs = melee.phase(table, action.get("first", "blue"), lambda e: e.brigade in ordered, chance, decider)
        out.lines += [c.line() for c in cs]
        got.update(combats=[f"{c.attacker.element} against {c.defender.element}" for c in cs],
                   totals=[[c.attacker.total, c.defender.total] for c in cs],
                   outcomes=[c.outcome for c in cs], destroyed=[x for c in cs for x in c.destroyed])
    elif kind in ("pips", "units", "cost"):
        b = table.brigades[action["brigade"]]
        if kind == "pips":
            die, n = pips.roll(b, chance, bool(action.get("penalty", False)))
            got.update(die=die, pips=n)
        us = pips.units(table, b.id)
        got["units"] = us
        got["costs"] = [pips.cost(table, u, sc.settings.command_radius) for u in us]
        out.lines.append(f"units {us} costs {got['costs']}")
    elif kind == "move":
        e = _el(table, action["element"], path)
        to = Point(inches(action["to"][0]), inches(action["to"][1]))
        line = LineString([e.front, to])
        start = Element(**{**e.__dict__})
        if "started" in action:
            start.x, start.y = inches(action["started"][0]), inches(action["started"][1])
        why = movement.check_move(table, e, line, action.get("facing"), start)
        got["allowed"] = why is None
        got["why"] = str(why or "")
        got["rate"] = movement.allowance(table, e, line)
        if why:
            out.lines.append(str(why))
    elif kind == "allowance":
        e = _el(table, action["element"], path)
        pts = [e.front] + [Point(inches(x), inches(y)) for x, y in action["via"]]
        got["rate"] = movement.allowance(table, e, LineString(pts))
    elif kind == "path":
        e = _el(table, action["element"], path)
        goal = Point(inches(action["to"][0]), inches(action["to"][1]))
        p = movement.find_path(table, e, goal)
        got["found"] = p is not None
        if p is not None:
            got["length"] = round(p.length / 10, 1)
            block = movement.obstacles(table, e)
            got["clear"] = block.is_empty or p.buffer(e.frontage / 2 - 1).intersection(block).area < 0.5
            x, y, f = movement.advance(table, e, p, inches(action["go"]) if "go" in action else None)
            got["reached"] = [x / 10, y / 10]
            out.lines.append(f"path {[tuple(round(c) for c in xy) for xy in p.coords]}, reached {x, y} facing {f}")
    elif kind == "sight":
        memory: dict = {}
        for step in action.get("steps", [{"turn": 1}]):
            for mv in step.get("move", []):
                e = _el(table, mv["id"], path)
                e.x, e.y = inches(mv["to"][0]), inches(mv["to"][1])
            memory = sight.update(memory, table, action["side"], spotting, step["turn"],
                                  set(action["brigades"]) if "brigades" in action else None,
                                  set(action["commanders"]) if "commanders" in action else None)
        last = step["turn"]
        got["seen"] = sorted(i for i, s in memory.items() if s.turn == last)
        got["last_known"] = {s.element: s.turn for s in sight.last_known(memory, last)}
        out.lines.append(f"seen {got['seen']}, last known {got['last_known']}")
    elif kind == "flee":
        e = _el(table, action["element"], path)
        if action.get("start"):
            flight.start_flight(table, e)
        f = flight.flee(table, e) if e.id in table.elements else flight.Fled(e.id, "removed")
        got["outcome"] = f.outcome
        got["commanders_lost"] = f.commanders_lost
        out.lines.append(f"{f.element} {f.outcome}")
    elif kind == "rally":
        r = flight.rally(table, _el(table, action["element"], path), chance)
        got.update(rallied=r.rallied, why=r.why_not, charisma=r.charisma)
        out.lines.append(f"rally {r}")
    elif kind == "surrender":
        gone = flight.surrender(table, action["brigade"])
        got["removed"] = [f.element for f in gone]
        got["surrendered"] = table.brigades[action["brigade"]].surrendered
    elif kind == "effectiveness":
        b = table.brigades[action["brigade"]]
        for ev in action.get("events", []):
            {"D": lambda: effectiveness.disordered(b), "lost": lambda: effectiveness.element_lost(b),
             "commander": lambda: effectiveness.commander_lost(b), "recover": lambda: effectiveness.recover(b)}[ev]()
        got.update(start=b.bef_start, bef=effectiveness.current(b), rating=effectiveness.rating(b))
    elif kind in ("brigade move", "unlimber", "pull apart"):
        from .executor import Executor
        from .orders import Step

        def note(text, *_, **__):  # a line the executor says (a Text: its English; the Text kept beside it)
            out.lines.append(str(text))
            if isinstance(text, Text):
                out.said.append(text)

        ex = Executor(table, sc, decider, chance, note)
        if kind == "brigade move":
            target = None
            if action.get("verb") == "ATTACK":
                from .orders import Ref, Target

                b = table.brigades[action["target"]]
                target = Target(Ref(b.id, b.name))
            step = Step(action.get("verb", "MOVE"), place=action.get("place"), formation=action.get("formation"),
                        target=target)
            got["moved"] = ex.move(action["brigade"], step, set(table.elements), note)
        elif kind == "unlimber":
            got["unlimbered"] = [i for i in action["elements"] if ex.unlimber(_el(table, i, path))]
        else:
            got["moved"] = disorder.pull_apart(table, note, decider)
            got["touching"] = sorted(e.id for e in table.on_table() if e.disorganised and any(
                table.in_contact(e, o) for o in table.brigade_elements(e.brigade) if o.id != e.id))
    elif kind == "evade":
        c = table.commanders[action["commander"]]
        was = c.point
        r = officers.evade(table, c, decider, bool(action.get("second", False)))
        got["rode"] = round(was.distance(c.point) / 10, 1)
        got["ways"] = list(officers.evasion_ways(table, c)) if r.outcome == "evaded" else []
        got.update(outcome=r.outcome, alive=c.alive, bef=effectiveness.current(table.brigades[c.brigade])
                   if c.brigade else None, at=[round(c.x / 10, 1), round(c.y / 10, 1)])
    else:
        raise CaseError(f"{path}: unknown action kind {kind!r}")

    _compare(out, expect, got)
    check_elements(out, expect.get("element", []), table)
    check_brigades(out, expect.get("brigade", {}), table)
    if "dice_used" in expect and len(chance.rolls) != expect["dice_used"]:
        out.failures.append(f"{len(chance.rolls)} dice rolled, expected {expect['dice_used']}")
    out.rolls = chance.rolls
    out.decisions = list(decider.records)
    return out


def check_elements(out: Outcome, specs: list, table, where: str = "") -> None:
    """The ``[[expect.element]]`` tables against the table: where each element stands, its state, or gone."""
    for spec in specs:
        eid = spec["id"]
        e = table.elements.get(eid)
        if spec.get("gone"):
            if e is not None:
                out.failures.append(f"{where}{eid} should be off the table; it is at ({e.x / 10}, {e.y / 10})")
            continue
        if e is None:
            out.failures.append(f"{where}{eid} is off the table")
            continue
        if "at" in spec and (abs(e.x - inches(spec["at"][0])) > 1 or abs(e.y - inches(spec["at"][1])) > 1):
            out.failures.append(f"{where}{eid} at ({e.x / 10}, {e.y / 10}), expected {spec['at']}")
        for k in ("facing", "fleeing", "disorganised", "shaken", "pursuing", "formation", "moved"):
            if k in spec and getattr(e, k) != spec[k]:
                out.failures.append(f"{where}{eid} {k} = {getattr(e, k)!r}, expected {spec[k]!r}")


def check_brigades(out: Outcome, specs: dict, table, where: str = "") -> None:
    """The ``[expect.brigade]`` table against the table: each brigade's BEF, rating, start, surrender."""
    for bid, want in specs.items():
        b = table.brigades[bid]
        if "bef" in want and effectiveness.current(b) != want["bef"]:
            out.failures.append(f"{where}{bid} BEF {effectiveness.current(b)}, expected {want['bef']}")
        if "rating" in want and effectiveness.rating(b) != want["rating"]:
            out.failures.append(f"{where}{bid} rating {effectiveness.rating(b)}, expected {want['rating']}")
        if "start" in want and b.bef_start != want["start"]:
            out.failures.append(f"{where}{bid} starting BEF {b.bef_start}, expected {want['start']}")
        if "surrendered" in want and b.surrendered != want["surrendered"]:
            out.failures.append(f"{where}{bid} surrendered = {b.surrendered}, expected {want['surrendered']}")


def _compare(out: Outcome, expect: dict, got: dict) -> None:
    for k, want in expect.items():
        if k in ("element", "brigade", "lines", "dice_used"):
            continue
        if k not in got:
            raise CaseError(f"{out.path}: expect.{k} is not something this action gives ({', '.join(got)})")
        have = got[k]
        if k in ("why", "refused", "pursuit"):
            if (want == "") != (have == "") or want not in have:
                out.failures.append(f"{k}: {have!r}, expected it to contain {want!r}")
            continue
        if isinstance(want, list) and isinstance(have, list) and k not in ("units", "costs", "at", "seen", "combats",
                                                                            "totals", "outcomes"):
            want, have = sorted(want), sorted(have)
        if have != want:
            out.failures.append(f"{k}: {have!r}, expected {want!r}")
    for text in expect.get("lines", []):
        if not any(text in line for line in out.lines):
            out.failures.append(f"no line contains {text!r} (lines: {out.lines})")


def case_files(root) -> list[Path]:
    return sorted(Path(root).glob("*.toml"))
