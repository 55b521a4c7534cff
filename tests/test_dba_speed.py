"""Napoleonic DBA made faster without changing a game (issue 15, docs/performance.md "dbaspeed").

Each shortcut is checked against what it replaces: the games of tests/fixtures/dba-golden.json (recorded with the
code before the shortcuts) play and replay to the same logs, day digests and outcomes; the state's own copy shares
no list, dict or unfrozen object with the state it copies and holds the same; the sight asked of many observers at
once answers as the one-by-one question; Table.apart never says "apart" of two bases within the gap; the path
finder with its kept visibility graph finds the path the plain Dijkstra over the same corners finds."""

from __future__ import annotations

import copy
import dataclasses
import hashlib
import heapq
import json
import math
import random
import sys
from pathlib import Path

import pytest
from shapely.geometry import LineString, Point

from pbem.core.game import Game
from pbem.games.dba import movement
from pbem.games.dba.elements import Commander, Element, formations_for
from pbem.games.dba.ruleset import DBA_RULESET as RULES
from pbem.games.dba.table import Table
from pbem.tools.selfplay import play, play_game, simple_players

GOLDEN = Path(__file__).parent / "fixtures" / "dba-golden.json"
SCENARIOS = {name: RULES.load_scenario(path) for name, path in RULES.scenarios().items()}
# (scenario, command, seed, days or None for the whole game, random decisions)
GAMES = [("dba-meeting", "commanders", 1, None, True), ("dba-meeting", "commanders", 2, None, False),
         ("dba-meeting", "commanders", 7, None, True), ("dba-meeting", "kriegsspiel", 3, None, True),
         ("dba-quatre-bras", "commanders", 1, 6, True), ("dba-quatre-bras", "kriegsspiel", 2, 5, False)]


def _played(name, command, seed, days, rnd) -> Game:
    scenario, options = SCENARIOS[name], {"command": command}
    if days is None:
        return play(RULES, scenario, seed, random_decisions=rnd, options=options)
    from pbem.tools.selfplay import chooser

    return play_game(RULES, scenario, seed, simple_players(RULES, scenario, options),
                     choose=(lambda g: chooser(seed, g.day)) if rnd else None, days=days, options=options)


def _h(value) -> str:
    return hashlib.sha256(json.dumps(value, sort_keys=True, ensure_ascii=False).encode()).hexdigest()[:16]


def _record(game: Game) -> dict:
    days = [RULES.digest(d.after) for d in game.days]
    events = [[(e.kind, e.text, e.owner, e.seen) for e in d.events] for d in game.days]
    return {"log": _h(game.log), "days": _h(days), "events": _h(events), "winner": game.state.winner,
            "victory": game.state.victory}


@pytest.mark.parametrize("name, command, seed, days, rnd", GAMES)
def test_games_play_and_replay_exactly_as_recorded(name, command, seed, days, rnd):
    """A change that alters a game fails here; if it is meant, say why in its commit and record the games again
    (``python tests/test_dba_speed.py --record``)."""
    want = json.loads(GOLDEN.read_text(encoding="utf-8"))[f"{name} {command} {seed}"]
    game = _played(name, command, seed, days, rnd)
    assert _record(game) == want
    again = Game(RULES, SCENARIOS[name], seed, game.log, options={"command": command})
    assert [RULES.digest(d.after) for d in again.days] == [RULES.digest(d.after) for d in game.days]


def _mutable_parts(obj, seen=None, out=None):
    """Every list, dict, set and unfrozen dataclass reachable from ``obj`` (by id), frozen objects walked through."""
    seen = set() if seen is None else seen
    out = {} if out is None else out
    if id(obj) in seen or obj is None or isinstance(obj, (str, int, float, bool)):
        return out
    seen.add(id(obj))
    if isinstance(obj, tuple):
        for x in obj:
            _mutable_parts(x, seen, out)
    elif isinstance(obj, (list, set)):
        out[id(obj)] = obj
        for x in obj:
            _mutable_parts(x, seen, out)
    elif isinstance(obj, dict):
        out[id(obj)] = obj
        for k, v in obj.items():
            _mutable_parts(k, seen, out)
            _mutable_parts(v, seen, out)
    elif dataclasses.is_dataclass(obj):
        if not obj.__dataclass_params__.frozen:
            out[id(obj)] = obj
        for f in dataclasses.fields(obj):
            _mutable_parts(getattr(obj, f.name), seen, out)
    return out


@pytest.mark.parametrize("command", ["commanders", "kriegsspiel"])
def test_a_state_copy_holds_the_same_and_shares_nothing_the_rules_change(command):
    """State.__deepcopy__ copies part by part: every day's state of a game (couriers, reports on the road,
    states of command with orders, memories) copies to the same JSON form, and no list, dict or unfrozen object
    of the copy is one of the original's (but a report's lines, a Text's data written once and only read); a day
    resolved on the copy and on a full deep copy (pickle) digests the same. The digest, written field by field,
    is the one ``json.dumps(to_dict())`` gives."""
    import pickle

    game = _played("dba-meeting", command, 5, 8, True)
    states = [game.initial] + [d.after for d in game.days]
    assert any(s.post.couriers for s in states) and any(s.commands[b].current for s in states for b in s.commands)
    if command == "kriegsspiel":
        assert any(s.reports.reports for s in states)
    for state in states:
        made = copy.deepcopy(state)
        assert made.to_dict() == state.to_dict() and made.digest() == state.digest()
        text = json.dumps(state.to_dict(), sort_keys=True, ensure_ascii=False)  # the digest as it was written
        assert state.digest() == hashlib.sha256(text.encode()).hexdigest()[:16]
        # a report's lines (Texts' data) are written when it is sent and only read: shared, the list itself not
        lines = {i for r in state.reports.reports for line in r.lines for i in _mutable_parts(line)}
        shared = (_mutable_parts(made).keys() & _mutable_parts(state).keys()) - lines
        assert not shared, [type(_mutable_parts(state)[i]).__name__ for i in shared]
    day = 4
    result = game.days[day]
    orders = {seat: RULES.parse_orders(game.scenario, result.before, seat, game.orders_text(day, seat))
              for seat in game.seats() if game.orders_text(day, seat)}

    def resolved(state):
        from pbem.core.decisions import Decider

        decider = Decider(answers=game.answers(day))
        return RULES.digest(RULES.resolve(game.scenario, state, orders, decider, game.chance.for_turn(day))[0])

    assert resolved(copy.deepcopy(result.before)) == resolved(pickle.loads(pickle.dumps(result.before))) \
        == RULES.digest(result.after)


def _fresh(name):
    """(the scenario, a fresh table of it, every troop type its elements have)."""
    sc = SCENARIOS[name]
    return sc, sc.fresh_table(), sorted({e.troop for e in list(sc.table.elements.values()) + list(sc.waiting.values())})


def _random_element(rng, table, troops, eid="t", side="x") -> Element:
    troop = rng.choice(troops)
    return Element(eid, side, "b", troop, rng.randrange(table.width), rng.randrange(table.depth), rng.randrange(360),
                   rng.choice(formations_for(troop)))


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_sight_asked_of_many_observers_answers_as_one_by_one(name):
    """Table._sees_pairs (every pair's sight lines asked of the terrain at once) and Table.seen_by (the observers
    beyond the bound left out, the remembered answers read first) answer as Table._sees asked pair by pair."""
    sc, table, troops = _fresh(name)
    rng = random.Random(11)
    asked = seen = 0
    for _ in range(150):
        targets = [_random_element(rng, table, troops, f"t{i}") for i in range(rng.randrange(1, 5))]
        observers = [Commander("c", "C", "y", x=rng.randrange(table.width), y=rng.randrange(table.depth))
                     if rng.random() < 0.3 else _random_element(rng, table, troops, "o", "y") for _ in range(12)]
        spotting = rng.choice([60, sc.settings.spotting, 10 ** 6])
        pairs = [(o, t) for t in targets for o in observers]
        one_by_one = [table._sees(o, t, spotting) for o, t in pairs]
        assert table._sees_pairs([o for o, _ in pairs], [t for _, t in pairs], spotting) == one_by_one
        by_target = [any(table._sees(o, t, spotting) for o in observers) for t in targets]
        assert table.seen_by(observers, targets, spotting) == by_target
        assert table.seen_by(observers, targets, spotting) == by_target  # from the remembered answers
        asked, seen = asked + len(one_by_one), seen + sum(one_by_one)
    assert 0.1 * asked < seen < 0.9 * asked  # both answers were met


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_apart_says_apart_only_of_bases_farther_than_the_gap(name):
    sc, table, troops = _fresh(name)
    rng = random.Random(3)
    near_misses = 0
    for _ in range(3000):
        a = _random_element(rng, table, troops, "a")
        b = a.moved_to(a.x + rng.randrange(-60, 61), a.y + rng.randrange(-60, 61), rng.randrange(360))
        b.troop = rng.choice(troops)
        b.formation = rng.choice(formations_for(b.troop))
        gap = rng.choice([0, 1, 30])
        d = a.shape.distance(b.shape)
        if Table.apart(a, b, gap):
            assert d > gap
            near_misses += d < gap + 20
        assert Table.in_contact(a, b) == (d <= 1) and Table.near(a, b, gap) == (d <= gap)
        assert Table.overlap(a, b) == (a.shape.intersection(b.shape).area > 0.5)
    assert near_misses  # the bound was met close to its edge


def _plain_path(table, e, goal):
    """find_path as it was before the kept visibility graph: every stretch asked of shapely on its own."""
    start = e.front
    block = movement.obstacles(table, e)
    if block.is_empty:
        return LineString([start, goal])
    grown = block.buffer(e.frontage / 2 + 1, join_style="mitre")
    if grown.contains(goal):
        return None
    core = block.buffer(e.frontage / 2 - 0.5) if e.frontage > 2 else block

    def clear(a, b):
        seg = LineString([a, b])
        return not seg.intersects(core) or seg.intersection(core).length < 0.01

    if clear(start, goal):
        return LineString([start, goal])
    nodes = [(start.x, start.y), (goal.x, goal.y)]
    for p in list(getattr(grown, "geoms", [grown])):
        nodes += [c for c in p.exterior.coords[:-1] if table.area.buffer(1).contains(Point(c))]
    dist, prev, heap, done = {0: 0.0}, {}, [(0.0, 0)], set()
    while heap:
        d, i = heapq.heappop(heap)
        if i in done:
            continue
        done.add(i)
        if i == 1:
            break
        for j in range(len(nodes)):
            if j in done or j == i or not clear(Point(nodes[i]), Point(nodes[j])):
                continue
            nd = d + math.dist(nodes[i], nodes[j])
            if nd < dist.get(j, math.inf) - 1e-9:
                dist[j], prev[j] = nd, i
                heapq.heappush(heap, (nd, j))
    if 1 not in prev:
        return None
    way, i = [1], 1
    while i != 0:
        i = prev[i]
        way.append(i)
    return LineString([nodes[k] for k in reversed(way)])


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_kept_way_finder_finds_the_plain_dijkstras_path(name):
    sc, table, troops = _fresh(name)
    rng = random.Random(7)
    around = 0
    for _ in range(60):
        e = _random_element(rng, table, troops, "e")
        goal = Point(rng.randrange(5, table.width - 5), rng.randrange(5, table.depth - 5))
        want, got = _plain_path(table, e, goal), movement.find_path(table, e, goal)
        assert (None if want is None else list(want.coords)) == (None if got is None else list(got.coords))
        around += got is not None and len(got.coords) > 2
    assert around  # some paths went round the closed ground


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_stretches_deep_in_closed_ground_are_answered_as_shapely_measures_them(name):
    """Ways._clear (stretches meeting the core deeper than movement.DEEP answered without measuring) says of every
    stretch what ``not intersects or length(intersection) < 0.01`` says: stretches between the corners, across the
    core, grazing it, along its edge and ending just inside it, for guns and for foot."""
    from shapely.geometry import Point as P

    sc, table, troops = _fresh(name)
    rng = random.Random(17)
    kinds = set()
    for troop in troops:
        for formation in formations_for(troop):
            e = Element("e", "x", "b", troop, 100, 100, 0, formation)
            w = movement.ways(table, e)
            if w.block.is_empty:
                continue
            ring = [c for p in getattr(w.core, "geoms", [w.core]) for c in p.exterior.coords]
            points = w.corners + ring[::7] + [(rng.uniform(0, table.width), rng.uniform(0, table.depth))
                                              for _ in range(30)]
            for _ in range(300):
                a, b = rng.choice(points), rng.choice(points)
                if rng.random() < 0.3:  # just short of the ground, or a touch into it
                    b = (b[0] + rng.uniform(-0.2, 0.2), b[1] + rng.uniform(-0.2, 0.2))
                seg = LineString([a, b])
                want = not seg.intersects(w.core) or seg.intersection(w.core).length < 0.01
                assert w.clear(a, [b]) == [want], (a, b)
                kinds.add((want, seg.intersects(w.core)))
            assert w.clear(P(0, 0).coords[0], []) == []
    assert kinds == {(True, False), (True, True), (False, True)}  # clear, touching, crossing: all met


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_sight_line_runs_into_a_wood_as_shapely_measures_it(name):
    """Terrain._runs_into (the length inside a convex wood or town found by clipping, shapely asked only within a
    millionth of the limit) answers ``length(intersection(wood, line)) > limit`` for lines across, along and into
    every feature, among them lines ending exactly the limit inside an edge (left to shapely)."""
    import numpy as np
    import shapely

    from pbem.games.dba.terrain import SEE_INTO, convex_corners, inside_lengths

    sc, table, troops = _fresh(name)
    terrain = table.terrain
    rng = random.Random(29)
    convex = 0
    for f in terrain.features:
        x0, y0, x1, y1 = f.shape.bounds
        ends = [[(rng.uniform(x0 - 40, x1 + 40), rng.uniform(y0 - 40, y1 + 40)),
                 (rng.uniform(x0 - 40, x1 + 40), rng.uniform(y0 - 40, y1 + 40))] for _ in range(400)]
        ends += [[(x0 - 30, y), (x0 + SEE_INTO, y)] for y in np.linspace(y0, y1, 7)]  # exactly the limit in
        ends += [[(x, y0), (x, y1)] for x in (x0, x1)]                                  # along an edge
        ends = np.array(ends, dtype=float)
        lines = shapely.linestrings(ends)
        for limit in (SEE_INTO, 0.5):
            want = shapely.length(shapely.intersection(f.shape, lines)) > limit
            assert terrain._runs_into(f, ends, lines, limit).tolist() == want.tolist()
        corners = convex_corners(f.shape)
        if corners is not None:
            convex += 1
            inside = inside_lengths(corners, ends)
            assert np.abs(inside - shapely.length(shapely.intersection(f.shape, lines))).max() < 1e-9
    assert convex


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_swept_ground_answers_as_the_union_built(name):
    """table.SweptGround.overlaps (answered from its three parts where they settle it) says what the union built as
    check_move built it said, ``unary_union([path.buffer(half, flat), base]).union(moved)`` sharing more than the
    least with another base (or the closed ground, asked the other way round): moves straight and round corners,
    bases beside the path, on it, touching it, overlapping it a little and across it."""
    from shapely.ops import unary_union

    from pbem.games.dba.table import SweptGround

    sc, table, troops = _fresh(name)
    rng = random.Random(31)
    block = movement.obstacles(table, Element("g", "x", "b", "heavy_artillery", 0, 0, 0, "limbered"))
    met = set()
    for _ in range(600):
        e = _random_element(rng, table, troops)
        turns = [(e.x, e.y)] + [(e.x + rng.randrange(-60, 61), e.y + rng.randrange(-60, 61))
                                for _ in range(rng.choice([1, 1, 2]))]
        path = LineString(turns) if rng.random() < 0.95 else LineString([(e.x, e.y), (e.x, e.y)])
        moved = e.moved_to(round(turns[-1][0]), round(turns[-1][1]), rng.randrange(360))
        grown = path.buffer(e.frontage / 2, cap_style="flat")
        whole = (unary_union([grown, e.shape]) if path.length else e.shape).union(moved.shape)
        swept = SweptGround(path, e.frontage, e.shape, moved.shape)
        for _ in range(4):
            o = e.moved_to(rng.randrange(e.x - 70, e.x + 71), rng.randrange(e.y - 70, e.y + 71), rng.randrange(360))
            if rng.random() < 0.3:  # beside the base where it stands: touching it, or nearly
                o = e.moved_to(*[round(c) for c in placed_beside(e, rng.choice([-1, 1]) * (e.frontage + rng.choice([0, 0, 1, -1])))])
            for least in (0.5, 30):
                want = whole.intersection(o.shape).area > least
                assert swept.overlaps(o.shape, least) == want
                met.add((want, least))
        assert swept.overlaps(block, shape_first=True) == (block.intersection(whole).area > 0.5)
    assert met == {(True, 0.5), (False, 0.5), (True, 30), (False, 30)}


def placed_beside(e, sideways):
    """The point ``sideways`` tenths to the right of ``e``'s front centre, as it faces."""
    from pbem.games.dba.elements import placed

    return placed([(sideways, 0)], e.facing, e.x, e.y)[0]


# -- speed-engine (issue 35 item 4): each shortcut against the shapely call it replaces --------------------------

def test_a_base_and_its_edges_are_the_floats_shapely_affinity_gives():
    """elements.placed writes out translate(rotate(geom, -facing, origin=(0, 0)), x, y): the same bytes (WKB, so
    the sign of a zero too) for every troop, formation and whole facing, at the table's edge and inside it."""
    from shapely import affinity
    from shapely.geometry import box

    from pbem.games.dba.elements import TROOPS, _base, _edge, footprint_size

    rng = random.Random(3)
    compared = 0
    for troop in TROOPS:
        for formation in formations_for(troop):
            w, d = footprint_size(troop, formation)
            for facing in list(range(360)) + [-90, 360, 725]:
                x, y = rng.choice([(0, 0), (0, 17), (rng.randrange(1000), rng.randrange(800))])
                want = affinity.translate(affinity.rotate(box(-w / 2, -d, w / 2, 0), -facing, origin=(0, 0)), x, y)
                assert _base.__wrapped__(troop, formation, x, y, facing).wkb == want.wkb, (troop, formation, facing)
                for which, local in (("front", ((-w / 2, 0), (w / 2, 0))), ("rear", ((-w / 2, -d), (w / 2, -d))),
                                     ("left", ((-w / 2, 0), (-w / 2, -d))), ("right", ((w / 2, 0), (w / 2, -d)))):
                    want = affinity.translate(affinity.rotate(LineString(local), -facing, origin=(0, 0)), x, y)
                    assert _edge.__wrapped__(troop, formation, x, y, facing, which).wkb == want.wkb
                compared += 1
    assert compared > 5000


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_the_stretch_of_a_path_is_shapelys_substring(name):
    """movement.stretch(path, go) is substring(path, 0, go)'s coordinates, for the paths the way finder gives (round
    corners and straight) and lengths short of a corner, past one, at the end and beyond it."""
    from shapely.ops import substring

    sc, table, troops = _fresh(name)
    rng = random.Random(5)
    corners = 0
    for _ in range(80):
        e = _random_element(rng, table, troops, "e")
        path = movement.find_path(table, e, Point(rng.randrange(5, table.width - 5), rng.randrange(5, table.depth - 5)))
        if path is None or path.length < 1:
            continue
        corners += len(path.coords) > 2
        for go in {1, round(path.length / 3) or 1, round(path.length), round(path.length) + 3, rng.randrange(1, 400)}:
            assert movement.stretch(path, go) == list(substring(path, 0, go).coords)
    assert corners


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_difficult_going_asked_by_boxes_answers_as_every_feature(name):
    """Terrain.difficult and path_difficult skip the features whose bounding box is apart: the same answers as
    asking every feature (``at``), for bases and paths all over the table."""
    sc, table, troops = _fresh(name)
    terrain = table.terrain
    rng = random.Random(9)
    answers = []
    for _ in range(400):
        e = _random_element(rng, table, troops)
        path = LineString([(e.x, e.y), (rng.randrange(table.width), rng.randrange(table.depth))])
        assert terrain.difficult(e.shape) == any(f.type.difficult for f in terrain.at(e.shape))
        plain = any(f.type.difficult and f.shape.intersects(path) and not f.shape.touches(path)
                    for f in terrain.features) or _crosses_plain(terrain, path)
        assert terrain.path_difficult(path) == plain
        answers.append(plain)
    assert 0 < sum(answers) < len(answers)


def _crosses_plain(terrain, path) -> bool:
    """Terrain.crosses_stream as it was, every stream asked."""
    for s in terrain.streams:
        if not s.line.intersects(path):
            continue
        cut = s.line.intersection(path)
        if cut.is_empty:
            continue
        pieces = [cut] if cut.geom_type == "Point" else list(getattr(cut, "geoms", [cut]))
        if any(not (terrain.on_road(p) if p.geom_type == "Point" else terrain.path_on_road(p)) for p in pieces):
            return True
    return False


@pytest.mark.parametrize("name", sorted(SCENARIOS))
def test_a_move_checked_with_what_is_around_kept_answers_as_checked_alone(name):
    """check_move given movement.around (worked out once for the tries of a move) answers as when it works it out
    itself, for moves among other elements of both sides (the games of dba-golden.json check the rest of it)."""
    sc, table, troops = _fresh(name)
    rng = random.Random(13)
    for i in range(40):
        table.elements[f"f{i}"] = _random_element(rng, table, troops, f"f{i}", "x")
        table.elements[f"g{i}"] = _random_element(rng, table, troops, f"g{i}", "y")
    reasons = set()
    for _ in range(300):
        e = table.elements[rng.choice(sorted(table.elements))]
        end = (e.x + rng.randrange(-120, 121), e.y + rng.randrange(-120, 121))
        if end == (e.x, e.y):
            continue
        path = LineString([(e.x, e.y), end])
        alone = movement.check_move(table, e, path)
        assert movement.check_move(table, e, path, seen=movement.around(table, e)) == alone
        reasons.add(None if alone is None else str(alone).split(" ", 1)[1][:20])
    assert len(reasons) >= 4  # several answers were met, a move allowed among them


if __name__ == "__main__" and sys.argv[1:] == ["--record"]:  # python tests/test_dba_speed.py --record
    recorded = {f"{name} {command} {seed}": _record(_played(name, command, seed, days, rnd))
                for name, command, seed, days, rnd in GAMES}
    GOLDEN.write_text(json.dumps(recorded, indent=1, sort_keys=True, ensure_ascii=False) + "\n", encoding="utf-8")
    print("recorded", GOLDEN)
