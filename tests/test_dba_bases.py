"""The bound on the ground two bases share (pbem/games/dba/bases.py) against shapely's answer.

``share_at_most(a, b, least)`` is used to skip shapely's ``a.shape.intersection(b.shape).area > least``: wherever it
says True, shapely must find no more than ``least``, or a game would change. Asked here of many random pairs of bases
and of the borderline ones the games meet most: side by side along an edge (touching), corner to corner, front to
rear, one slid into the other by a little, turned by a degree; and it must settle most of the touching ones (or it
saves nothing)."""

from __future__ import annotations

import math
import random

import pytest
import shapely

from pbem.games.dba.bases import corners_of, farther_than, grown_corners, share_at_most, slab_bound, sweep_shares_at_most
from pbem.games.dba.elements import TROOPS, Element, formations_for
from pbem.games.dba.table import SweptGround

POSES = [(troop, formation) for troop in sorted(TROOPS) for formation in formations_for(troop)
         if formation != "mounted"]


def element(troop, formation, x, y, facing, name="a") -> Element:
    return Element(name, "", "", troop, x, y, facing % 360, formation)


def shared(a: Element, b: Element) -> float:
    return a.shape.intersection(b.shape).area


def beside(a: Element, troop, formation, along: float, ahead: float, turn: int = 0) -> Element:
    """An element placed ``along`` tenths to ``a``'s right and ``ahead`` tenths forward (in ``a``'s frame),
    rounded to whole tenths as the rules place elements, facing as ``a`` (turned by ``turn`` degrees)."""
    angle = math.radians(a.facing)
    x = a.x + along * math.cos(angle) + ahead * math.sin(angle)
    y = a.y - along * math.sin(angle) + ahead * math.cos(angle)
    return element(troop, formation, round(x), round(y), a.facing + turn, "b")


def check(a: Element, b: Element, least: float = 0.5) -> bool:
    area = shared(a, b)
    assert slab_bound(corners_of(a), corners_of(b), corners_of(a)) >= area - 1e-9
    assert slab_bound(corners_of(a), corners_of(b), corners_of(b)) >= area - 1e-9
    settled = share_at_most(a, b, least)
    if settled:
        assert area <= least, (a, b, area)
    return settled


def test_corners_are_the_shape_s():
    for troop, formation in POSES:
        for facing in (0, 1, 45, 90, 179, 271, 359):
            e = element(troop, formation, 300, 200, facing)
            assert [list(c) for c in corners_of(e)] == shapely.get_coordinates(e.shape).tolist()[:4]


def test_random_pairs_agree_with_shapely():
    rng = random.Random(35)
    settled = 0
    for _ in range(20000):
        a = element(*rng.choice(POSES), rng.randint(100, 140), rng.randint(100, 140), rng.randrange(360))
        b = element(*rng.choice(POSES), rng.randint(90, 150), rng.randint(90, 150), rng.randrange(360), "b")
        settled += check(a, b, rng.choice((0.5, 0.5, 0.01, 5.0)))
    assert settled > 2000


@pytest.mark.parametrize("facing", [0, 30, 45, 90, 133, 180, 225, 270, 359])
def test_borderline_pairs_agree_with_shapely(facing):
    rng = random.Random(facing)
    settled = touching = 0
    for troop, formation in POSES:
        a = element(troop, formation, 400, 300, facing)
        for other in POSES:
            wb = element(*other, 0, 0, 0).frontage
            for along in ((a.frontage + wb) / 2, -(a.frontage + wb) / 2):
                for slide in (0, 0.4, 1, 2, -0.4, -1):
                    for ahead in (0, 1, -1, 3):
                        b = beside(a, *other, along - math.copysign(slide, along), ahead)
                        got = check(a, b)
                        settled += got
                        if slide == 0 and ahead == 0 and facing % 90 == 0:
                            touching += 1
                            assert got, "bases side by side, touching along an edge, must be settled"
                        check(a, beside(a, *other, along, ahead, rng.choice((1, -1, 2))))
            depth_b = element(*other, 0, 0, 0).depth
            for gap in (0, 1, -1, 0.5):  # b in front of a, its rear on a's front edge; a behind b
                b = beside(a, *other, rng.choice((0, 3, -5)), depth_b + gap)
                check(a, b)
                check(b, a)
            for dx, dy in ((1, 1), (1, -1), (-1, 1), (-1, -1)):  # corner to corner
                b = beside(a, *other, dx * (a.frontage + wb) / 2, dy * depth_b if dy > 0 else -a.depth)
                check(a, b)
    assert touching == 0 or settled >= touching


def test_a_grown_path_is_geos_s_buffer():
    rng = random.Random(4)
    for _ in range(3000):
        ends = [(rng.uniform(0, 600), rng.uniform(0, 600)), (rng.uniform(0, 600), rng.uniform(0, 600))]
        if rng.random() < 0.5:  # whole tenths, straight along an axis or not, as the moves' paths mostly are
            ends = [(round(x), round(y)) for x, y in ends]
        if ends[0] == ends[1]:
            continue
        half = rng.choice((4, 5, 8))
        geos = shapely.linestrings(ends).buffer(half, cap_style="flat")
        ours = shapely.polygons(list(grown_corners(ends, half)) + [grown_corners(ends, half)[0]])
        assert shapely.hausdorff_distance(geos, ours) < 1e-9
        assert geos.symmetric_difference(ours).area < 1e-7


def _swept_pairs(rng):
    """A mover, where a straight move takes it, and another base near its way (side by side at either end, ahead of
    it, or anywhere around)."""
    troop, formation = rng.choice(POSES)
    facing = rng.choice((0, 90, 180, 270, rng.randrange(360)))
    e = element(troop, formation, 300, 300, facing)
    go = rng.choice((10, 20, 30, 40, rng.randint(1, 60)))
    turn = rng.choice((0, 0, 0, rng.randint(-40, 40)))
    angle = math.radians(facing + turn)
    end = (round(300 + go * math.sin(angle)), round(300 + go * math.cos(angle)))
    if end == (300, 300):
        return None
    moved = e.moved_to(end[0], end[1], facing + turn)
    other = rng.choice(POSES)
    wb = element(*other, 0, 0, 0).frontage
    where = rng.random()
    base = rng.choice((e, moved))
    if where < 0.6:  # beside where it stands or where it ends, a little off or touching
        along = rng.choice((1, -1)) * ((base.frontage + wb) / 2 + rng.choice((0, 0, 0.4, 1, -0.4, -1, 3)))
        o = beside(base, *other, along, rng.choice((0, 0, 1, -2, 5)), rng.choice((0, 0, 1, -1)))
    elif where < 0.8:  # ahead of where it ends
        o = beside(moved, *other, rng.uniform(-10, 10), element(*other, 0, 0, 0).depth + rng.choice((0, 1, 3, -1)))
    else:
        o = element(*other, rng.randint(250, 350), rng.randint(250, 350), rng.randrange(360), "b")
    return e, moved, [(300, 300), end], o


def test_swept_ground_bound_agrees_with_shapely():
    rng = random.Random(35)
    settled = asked = 0
    for _ in range(6000):
        made = _swept_pairs(rng)
        if made is None:
            continue
        e, moved, ends, o = made
        half = e.frontage / 2
        path = shapely.linestrings(ends)
        whole = SweptGround(path, e.frontage, e.shape, moved.shape)
        exact = whole.whole.intersection(o.shape).area
        asked += 1
        if sweep_shares_at_most(ends, half, e, moved, o, 0.5):
            settled += 1
            assert exact <= 0.5 and not whole.overlaps(o.shape), (e, moved, o, exact)
    assert settled > asked / 5


def test_farther_than_agrees_with_shapely():
    rng = random.Random(36)
    settled = 0
    for _ in range(20000):
        a = element(*rng.choice(POSES), rng.randint(100, 160), rng.randint(100, 160), rng.randrange(360))
        if rng.random() < 0.5:  # touching or near it, front to front, side by side, a little apart
            other = rng.choice(POSES)
            b = beside(a, *other, rng.choice((0, 3, (a.frontage + element(*other, 0, 0, 0).frontage) / 2)),
                       rng.choice((0, 0.5, 1, 1.4, 2, 5)), rng.choice((0, 180, 90, 1)))
        else:
            b = element(*rng.choice(POSES), rng.randint(80, 180), rng.randint(80, 180), rng.randrange(360), "b")
        gap = rng.choice((1, 1, 0, 30, 0.5))
        if farther_than(a, b, gap):
            settled += 1
            assert a.shape.distance(b.shape) > gap, (a, b, gap)
    assert settled > 2000
