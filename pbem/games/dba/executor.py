"""The executor: a brigade's order in force turned into what its elements do on the table (issue 12 §2).

The orders (command.py) say *what* a brigade does this turn — a step MOVE TO, HOLD, ATTACK, DEPLOY, RETREAT TO;
the executor decides *how*: which enemy its volley aims at, which units its PIPs move and in what order, the path
each element takes around the ground it may not enter, how far it goes. Every such choice is a logged
:class:`pbem.core.decisions.Decision` of the brigade's side, whose default is the executor's own choice, so a
moderator can overrule it (a recorded answer replaces the default) and the report says what was chosen. A step it
cannot map onto the table (a place it cannot reach, a target it does not see) becomes HOLD with a line saying why.

:class:`BrigadeSight` is the orders' ``Sight`` protocol (command.Sight) answered from the brigade's own sight:
its elements and its commander, within the scenario's spotting range (sight.py).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import shapely
from shapely.geometry import Point

from pbem.core.decisions import Decider, Decision
from pbem.lang import say_plural

from . import fire, movement, pips, sight
from pbem.lang import Text

from .elements import Element, formations_for, in_inches, inches, length_said
from .orders import Event, Step
from .lang import N_, joined, term
from .lang import say as T  # a Text: a line each seat reads in its own language
from .table import Table

GUNS_BY_ROAD = "«Труднопроходимую местность не может пересечь артиллерия, которая должна воспользоваться дорогами»"
ARRIVED = inches(2)      # a brigade has reached a place when its centre is this near it (or inside an area)
TRIES = (1.0, 0.75, 0.5, 0.25)  # fractions of a blocked move tried, longest first


def brigade_centre(table: Table, bid: str) -> Point | None:
    els = [e for e in table.brigade_elements(bid) if not e.fleeing]
    if not els:
        return None
    return Point(sum(e.x for e in els) / len(els), sum(e.y for e in els) / len(els))


def brigade_seen(table: Table, scenario, bid: str) -> set[str]:
    """The enemy elements the brigade's own troops and its commander see now."""
    b = table.brigades[bid]
    return sight.seen(table, b.side, scenario.settings.spotting, {bid}, {b.commander} if b.commander else set())


@dataclass
class BrigadeSight:
    """command.Sight for one brigade this turn, from what its troops see."""

    table: Table
    scenario: object
    brigade: str
    turn: int
    fired_at: set[str] = field(default_factory=set)
    retreated: set[str] = field(default_factory=set)

    def __post_init__(self):
        self.seen = brigade_seen(self.table, self.scenario, self.brigade)
        self.side = self.table.brigades[self.brigade].side

    def _place(self, name: str | None):
        if name is None:
            return None
        loc = self.table.names.find_location(name)
        return None if loc is None else loc.geometry

    def _enemies(self, ref) -> list[Element]:
        return [self.table.elements[i] for i in sorted(self.seen) if i in self.table.elements
                and (ref is None or self.table.elements[i].brigade == ref.id)]

    def happened(self, event: Event) -> bool:
        t, kind = self.table, event.kind
        own = t.brigade_elements(self.brigade)
        geom = self._place(event.place)
        if kind == "TURN":
            return self.turn >= event.turn
        if kind == "ENEMY REACHES":
            return geom is not None and any(e.shape.distance(geom) <= 10 for e in self._enemies(event.brigade))
        if kind == "ENEMY WITHIN":
            if geom is not None:
                return any(e.shape.distance(geom) <= event.distance for e in self._enemies(event.brigade))
            return any(Table.distance(e, o) <= event.distance for e in self._enemies(event.brigade) for o in own)
        if kind == "ENEMY ATTACKS":
            return any(t.engaged(o) for o in own)
        if kind == "ENEMY FIRES":
            return self.brigade in self.fired_at
        friend = event.brigade.id if event.brigade else None
        theirs = t.brigade_elements(friend) if friend in t.brigades else []
        if kind == "FRIENDLY REACHES":
            return geom is not None and any(e.shape.distance(geom) <= 10 for e in theirs)
        if kind == "FRIENDLY ATTACKS":
            return any(t.in_contact(e, o) for e in theirs for o in t.enemies_of(e))
        if kind == "FRIENDLY RETREATS":
            return friend in self.retreated or any(e.fleeing for e in theirs)
        return False

    def done(self, step: Step) -> bool:
        if step.verb in ("MOVE", "RETREAT"):
            return reached(self.table, self.brigade, self._place(step.place))
        if step.verb == "ATTACK":  # done when the brigade named is gone; an enemy not in sight is HOLD, not done
            named = step.target.brigade if step.target else None
            return named is not None and (named.id not in self.table.brigades
                                          or not self.table.brigade_elements(named.id)
                                          or self.table.brigades[named.id].surrendered)
        if step.verb == "DEPLOY":
            els = self.table.brigade_elements(self.brigade)
            formed = step.formation is None or all(e.formation == step.formation for e in els
                                                   if step.formation in formations_for(e.troop))
            return formed and (step.place is None or reached(self.table, self.brigade, self._place(step.place)))
        return False  # HOLD holds until an UNTIL, or a new order


def reached(table: Table, bid: str, geom) -> bool:
    centre = brigade_centre(table, bid)
    if geom is None or centre is None:
        return True  # nothing to reach (an unknown place is reported where the step is carried out)
    return geom.distance(centre) <= ARRIVED


def attack_targets(table: Table, bid: str, step: Step, seen: set[str]) -> list[Element]:
    """The enemy elements an ATTACK step aims at, as the brigade sees them: the named brigade's, those at (or
    nearest) the place, or all it sees (nearest first is the executor's choice per element)."""
    enemies = [table.elements[i] for i in sorted(seen) if i in table.elements]
    target = step.target
    if target is None:
        return enemies
    if target.brigade is not None:
        return [e for e in enemies if e.brigade == target.brigade.id]
    if target.place is not None:
        loc = table.names.find_location(target.place)
        if loc is None or not enemies:
            return []
        near = min(e.shape.distance(loc.geometry) for e in enemies)
        return [e for e in enemies if e.shape.distance(loc.geometry) <= max(near, inches(3))]
    return enemies


STORED_BEFORE = (N_("%(element)s moves %(distance)s towards %(goal)s%(round)s to (%(x)s, %(y)s)"),
                 N_("%(element)s moves %(distance)s to (%(x)s\", %(y)s\")"))
"""Entries a game's state may still hold as a Text's data (a report's news written before a point became its own
value, read with the reader's decimal sign and separator): kept in the catalog so that it reads as before."""


class Executor:
    """Carries out one turn's steps on ``table``; ``say(text, side)`` records a report line for a side."""

    def __init__(self, table: Table, scenario, decider: Decider, chance, say):
        self.table, self.scenario, self.decider, self.chance, self.say = table, scenario, decider, chance, say
        # elements that may not move this turn: rallied ones («В тот тур, когда элемент был остановлен, он не может
        # получать или отдавать приказы»)
        self.still: set[str] = set()

    def decide(self, side: str, kind: str, question, options: list[str], default: str, labels=None) -> str:
        """``question``: a Text (read in each language; its English is the logged question) or a plain string;
        ``labels``: {option: its Text} for the options that are words."""
        options = list(dict.fromkeys(options))
        if default not in options:
            options.insert(0, default)
        said = question if isinstance(question, Text) else None
        return self.decider.decide(Decision(side, kind, str(question), tuple(options), (default,), said=said,
                                            said_labels=tuple((labels or {}).items())), given=None)[0]

    # -- fire ------------------------------------------------------------------------------------------------

    def fire(self, bid: str, step: Step, seen: set[str]) -> fire.Volley | None:
        """The brigade's volley: at the ordered target if it sees one in reach, else at the nearest enemy."""
        t = self.table
        b = t.brigades[bid]
        shooters = [e for e in t.brigade_elements(bid) if fire.why_not_fire(t, e) is None]
        if not shooters or b.surrendered or step.verb == "RETREAT":
            return None
        spotting = self.scenario.settings.spotting
        choices: dict[str, tuple[float, str]] = {}  # "brigade/arm" -> (nearest range, why)
        tried: set[tuple[str, str]] = set()
        ordered = {e.brigade for e in attack_targets(t, bid, step, seen)} if step.verb == "ATTACK" else set()
        for eid in sorted(seen):
            target = t.elements.get(eid)
            if target is None:
                continue
            arm = target.arm if target.arm != "staff" else "infantry"
            if f"{target.brigade}/{arm}" in choices or (target.brigade, arm) in tried:
                continue  # the group was weighed already, from another of its elements
            tried.add((target.brigade, arm))
            group = fire.target_groups(t, target.brigade).get(arm, [])
            shots = [fire.shot(t, s, group, spotting) for s in shooters]
            if not any(s.value for s in shots):
                continue
            key = f"{target.brigade}/{arm}"
            r = min(s.range for s in shots if s.value)
            if key not in choices or r < choices[key][0]:
                choices[key] = (r, "ordered" if target.brigade in ordered else "nearest")
        if not choices:
            return None
        ranked = sorted(choices, key=lambda k: (choices[k][1] != "ordered", choices[k][0], k))
        pick = self.decide(b.side, "fire target", T("%(brigade)s fires at which enemy (brigade/arm)?", brigade=term(b.name)), ranked, ranked[0])
        target_brigade, arm = pick.split("/")
        v = fire.volley(t, shooters, target_brigade, arm, self.chance, self.decider, spotting)
        return v

    # -- movement --------------------------------------------------------------------------------------------

    def goal_of(self, bid: str, step: Step, seen: set[str]) -> tuple[str, object] | None:
        """Where the step takes the brigade: ("place", geometry) or ("enemy", elements); None: it stays."""
        if step.verb in ("MOVE", "RETREAT") or (step.verb in ("HOLD", "DEPLOY") and step.place):
            loc = self.table.names.find_location(step.place)
            if loc is None:
                return None
            return "place", loc.geometry
        if step.verb == "ATTACK":
            return "enemy", attack_targets(self.table, bid, step, seen)
        return None

    def move(self, bid: str, step: Step, seen: set[str], hold_reason) -> list[str]:
        """The brigade's movement phase: PIPs rolled, units moved in order while PIPs last. Returns what moved."""
        t = self.table
        b = t.brigades[bid]
        moved: list[str] = []
        if b.surrendered:
            return moved
        goal = self.goal_of(bid, step, seen)
        change = step.formation if step.verb in ("DEPLOY", "MOVE", "RETREAT", "ATTACK") else None
        if goal is None and change is None:
            if step.verb not in ("HOLD", "DEPLOY"):
                hold_reason(T("%(brigade)s: %(step)s cannot be carried out on the table (the place is unknown): HOLD",
                              brigade=term(b.name), step=step.said))
            return moved
        if goal is not None and goal[0] == "enemy" and not goal[1]:
            hold_reason(T("%(brigade)s: %(attack)s: no such enemy in sight: HOLD", brigade=term(b.name),
                          attack=joined(term("ATTACK"), step.target.said, sep=" ")))
            goal = None
            if change is None:
                return moved
        if goal is not None and goal[0] == "place" and reached(t, bid, goal[1]) and change is None:
            return moved
        die, points = pips.roll(b, self.chance)
        radius = self.scenario.settings.command_radius
        units = pips.units(t, bid)
        units = [[i for i in u if i not in self.still] for u in units if not any(t.elements[i].fleeing for i in u)]
        units = [u for u in units if u]
        centre = brigade_centre(t, bid)
        if goal is not None and goal[0] == "place":
            target = goal[1].centroid if goal[1].geom_type != "Point" else goal[1]
            units.sort(key=lambda u: (-min(t.elements[i].front.distance(target) for i in u), u[0]))
        labels = [" ".join(u) for u in units]
        self.say(say_plural("%(brigade)s: PIP die %(die)s, %(num)d PIP; units %(units)s",
                            "%(brigade)s: PIP die %(die)s, %(num)d PIPs; units %(units)s", points, brigade=term(b.name),
                            die=die, units=", ".join(labels) if labels else T("none")), b.side)
        for unit, label in zip(units, labels):
            c = pips.cost(t, unit, radius)
            if c > points:
                self.say(say_plural("%(brigade)s: unit %(unit)s stays (needs %(num)d PIP, %(left)s left)",
                                    "%(brigade)s: unit %(unit)s stays (needs %(num)d PIPs, %(left)s left)", c,
                                    brigade=term(b.name), unit=label, left=points), b.side)
                continue
            go = self.decide(b.side, "unit moves", T("%(brigade)s: does unit %(unit)s move (%(cost)s PIP)?", brigade=term(b.name), unit=label, cost=c), ["yes", "no"], "yes")
            if go != "yes":
                continue
            points -= c
            for eid in unit:
                e = t.elements.get(eid)
                if e is None:
                    continue
                if e.arm == "artillery" and goal is not None:  # guns move limbered (D6)
                    if goal[0] == "enemy" and not e.limbered and self.in_range(e, goal[1]) and self.decide(
                            b.side, "battery", T("%(element)s: the enemy attacked is within its guns' reach: stay "
                                                 "unlimbered and support by fire, or limber and follow?", element=e.id),
                            ["stay", "follow"], "stay", {"stay": term("stay"), "follow": term("follow")}) == "stay":
                        self.say(T("%(element)s stays unlimbered: the enemy attacked is within its range",
                                   element=e.id), b.side)
                        continue
                    if self.move_battery(e, goal, centre, b.side):
                        moved.append(eid)
                    elif change and change in formations_for(e.troop) and e.formation != change:
                        self.reform(e, change)
                    continue
                if change and change in formations_for(e.troop) and e.formation != change:
                    self.reform(e, change)
                    if change == "dismounted" and e.formation == change:  # «спешиться вместо перемещения» (DR6)
                        self.say(T("%(element)s dismounts instead of moving", element=e.id), b.side)
                        continue
                if goal is not None:
                    if self.move_element(e, goal, centre, b.side):
                        moved.append(eid)
        return moved

    def move_battery(self, e: Element, goal, centre: Point | None, side: str) -> bool:
        """D6 («Если артиллерия двигалась передком вперед … снять с передков»): an unlimbered battery limbers to
        move and stays limbered where it stops, guns turned forward, until the next fire phase unlimbers it
        (:meth:`unlimber`); when it cannot limber where it stands or does not move after all, it stays as it was."""
        if not e.limbered:
            if not self._room(e, "limbered"):
                self.say(T("%(element)s cannot limber where it stands (no room): it stays", element=e.id), side)
                return False
            e.formation = "limbered"
            if not self.move_element(e, goal, centre, side):
                e.formation = "unlimbered"
                return False
            self.say(T("%(element)s moved limbered: it unlimbers at the next fire phase", element=e.id), side)
            return True
        return self.move_element(e, goal, centre, side)

    def in_range(self, e: Element, enemies) -> bool:
        """Whether an enemy of ``enemies`` is within the reach of battery ``e``'s guns (it supports an attack by fire
        rather than limbering to close: its guns fire only unlimbered, D6)."""
        weapon = fire.WEAPONS.get(e.arms or "")
        return weapon is not None and any(e.front.distance(o.shape) <= weapon.reach for o in enemies)

    def unlimber(self, e: Element) -> bool:
        """D6 («В начале следующей фазы стрельбы … отцепите орудия»): a limbered battery unlimbers where it stands,
        facing as it is (not a move: moved_last is the move's); with no room, it stays limbered."""
        if not self._room(e, "unlimbered"):
            self.say(T("%(element)s cannot unlimber where it stands (no room)", element=e.id), e.side)
            return False
        e.formation = "unlimbered"
        self.say(T("%(element)s unlimbers", element=e.id), e.side)
        return True

    def _room(self, e: Element, formation: str) -> bool:
        """Whether ``e`` fits in ``formation`` where it stands: on the table, on no base, on open ground."""
        t = self.table
        trial = e.moved_to(e.x, e.y)
        trial.formation = formation
        blocked = [o.id for o in t.on_table() if o.id != e.id and Table.overlap(trial, o)]
        closed = movement.obstacles(t, trial)
        return not blocked and t.area.contains(trial.shape) and (
            closed.is_empty or not closed.intersects(trial.shape) or closed.intersection(trial.shape).area <= 0.5)

    def reform(self, e: Element, formation: str) -> None:
        if not self._room(e, formation):
            self.say(T("%(element)s cannot form %(formation)s where it stands (no room)", element=e.id,
                       formation=term(formation)), e.side)
            return
        e.formation = formation
        e.moved = True
        self.say(T("%(element)s forms %(formation)s", element=e.id, formation=term(formation)), e.side)

    def barred_to_guns(self, e: Element, aims: list[Point]):
        """The difficult ground off a road (woods, rough, a town, marsh) that holds every point a battery aims at,
        named as the map names it, or None: «Труднопроходимую местность не может пересечь артиллерия, которая
        должна воспользоваться дорогами»."""
        block = movement.obstacles(self.table, e)
        for f in self.table.terrain.features:
            if f.type.difficult and all(f.shape.contains(p) and block.contains(p) for p in aims):
                return term(f.name or f.kind)
        return None

    def move_element(self, e: Element, goal, centre: Point | None, side: str) -> bool:
        t = self.table
        kind, what = goal
        if kind == "place":
            aim = what if what.geom_type == "Point" else what.centroid
            if centre is not None:  # keep the brigade's shape: each element aims at its own offset
                aim = Point(aim.x + (e.x - centre.x), aim.y + (e.y - centre.y))
            aim = Point(min(max(aim.x, 5), t.width - 5), min(max(aim.y, 5), t.depth - 5))
            why = T("the place")
        else:
            enemy = min(what, key=lambda o: (e.front.distance(o.shape), o.id))
            near = enemy.shape.exterior.interpolate(enemy.shape.exterior.project(e.front))
            aim = Point(round(near.x), round(near.y))
            why = f"the nearest enemy it sees of the target, {enemy.id}"
        if e.front.distance(aim) < 1:
            return False
        path = movement.find_path(t, e, aim)
        centre_aim = (what if what.geom_type == "Point" else what.centroid) if kind == "place" else aim
        if path is None and kind == "place":  # its own offset is on closed ground: aim at the place itself
            path = movement.find_path(t, e, centre_aim)
        if path is None and e.arm == "artillery":
            ground = self.barred_to_guns(e, [aim] + ([centre_aim] if kind == "place" else []))
            if ground is not None:  # the way is closed to guns, not to the brigade: the owner is told why
                self.say(T("%(element)s cannot follow its brigade into %(ground)s: guns may not cross difficult "
                           "ground off a road (%(quote)s): it holds", element=e.id, ground=ground, quote=GUNS_BY_ROAD),
                         side)
                return False
        if path is None:
            self.say(T("%(element)s: no way around impassable ground to %(goal)s: it holds", element=e.id,
                       goal=why if kind == "place" else T("the nearest enemy it sees of the target, %(enemy)s",
                                                          enemy=enemy.id)), side)
            return False
        rate = movement.allowance(t, e, path)
        tries = []
        for frac in TRIES:
            go = min(path.length, rate) * frac
            if go < 1:
                break
            tries.append(round(go))
        seen = movement.around(t, e) if tries and not e.fleeing else None  # the same for every try
        for go in tries:
            coords = movement.stretch(path, go)  # list(substring(path, 0, go).coords)
            if len(coords) < 2 or all(c == coords[0] for c in coords):  # substring's line has no length
                continue
            x, y, facing = movement.end_of(e, coords)  # movement.advance(t, e, path, go): the same stretch
            part = shapely.linestrings(coords[:-1] + [(x, y)])  # LineString(...), without its checks
            if part.length == 0:
                continue
            why_not = movement.check_move(t, e, part, facing, seen=seen)
            if why_not is None:
                corners = len(path.coords) - 2
                goal = why if kind == "place" else T("the nearest enemy it sees of the target, %(enemy)s",
                                                     enemy=enemy.id)
                question = T("%(element)s moves %(distance)s towards %(goal)s%(round)s to %(point)s",
                             element=e.id, distance=length_said(round(part.length)), goal=goal,
                             round=T(" round %(corners)s corner(s) of impassable ground", corners=corners)
                             if corners > 0 else "", point=T("(%(x)s, %(y)s)", x=in_inches(x), y=in_inches(y)))
                choice = self.decide(side, "path", question, ["go", "stay"], "go")
                if choice != "go":
                    return False
                e.x, e.y, e.facing = x, y, facing
                e.moved = True
                self.say(T("%(element)s moves %(distance)s to %(point)s", element=e.id,
                           distance=length_said(round(part.length)),
                           point=T('(%(x)s", %(y)s")', x=in_inches(x), y=in_inches(y))), side)
                return True
            last = why_not
        if tries:
            self.say(T("%(element)s does not move: %(why)s", element=e.id, why=last), side)
        return False

