"""PIPs — «Единицы движения PIP».

    «Для определения количества PIP бросается по одному кубику на каждую бригаду. Один пункт PIP позволяет
    активировать для движения одно подразделение. Если подразделение находится вне зоны командования своего
    офицера (12" = шагов), для перемещения подразделения требуется 2 пункта PIP. Подразделением считается
    отдельный элемент, группа элементов в колонне или в линии (элементы ориентированы в одном направлении и
    касаются подставками). Кроме того, легкая пехота может находиться впереди другого формирования легкой
    пехоты на расстоянии в 3 шага (типа застрельщики). То же относится и к легкой кавалерии. Из количества
    пунктов PIP, выброшенного на каждом кубике, вычитается 1, если игрок составил армию из союзников от разных
    стран, или же присутствуют некоторые сложности на путях коммуникаций»
"""

from __future__ import annotations

from pbem.core.chance import Chance

from .elements import Brigade, Element, inches, reach
from .table import Table

SCREEN = inches(3)   # light troops up to 3" ahead of their formation belong to it


def roll(b: Brigade, chance: Chance, penalty: bool = False) -> tuple[int, int]:
    """The brigade's PIP die and its PIPs: the die, −1 for an allied army or troubled communications (the
    brigade's ``allied`` flag or the scenario's ``penalty``), never below 0."""
    die = chance.roll(f"PIPs, {b.id}")
    return die, max(0, die - (1 if (b.allied or penalty) else 0))


def _joined(table: Table, a: Element, b: Element) -> bool:
    """Two elements of one unit: same facing, touching, neither disorganised nor fleeing (D17)."""
    return a.facing == b.facing and table.in_contact(a, b)


def _screens(table: Table, light: Element, body: list[Element]) -> bool:
    """A light element up to 3" ahead of a formation of the same light arm («впереди другого формирования
    легкой пехоты»): some of the formation has it in its front within 3" (D18)."""
    return any(o.type.light and o.arm == light.arm and table.quarter(o, light.centre) == "front"
               and table.distance(o, light) <= SCREEN for o in body)


def units(table: Table, brigade: str) -> list[list[str]]:
    """The brigade's units («подразделения»): single elements, or elements in column or line (same facing,
    touching), with their light screens; disorganised and fleeing elements each stand alone. In element order."""
    els = [e for e in table.brigade_elements(brigade)]
    free = [e for e in els if not e.disorganised and not e.fleeing]
    parent = {e.id: e.id for e in els}

    def find(i):
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    for n, a in enumerate(free):
        for b in free[n + 1:]:
            if _joined(table, a, b):
                parent[find(a.id)] = find(b.id)
    for light in free:
        if not light.type.light:
            continue
        if any(find(o.id) == find(light.id) for o in free if o.id != light.id):
            continue  # already part of a formation
        for o in free:
            if o.id != light.id and find(o.id) != find(light.id) and _screens(table, light, [o]):
                parent[find(light.id)] = find(o.id)
                break
    groups: dict[str, list[str]] = {}
    for e in els:
        groups.setdefault(find(e.id), []).append(e.id)
    return sorted(groups.values(), key=lambda g: [b.id for b in els].index(g[0]))


def in_command(table: Table, unit: list[str], radius: int) -> bool:
    """Whether a unit is within its commander's radius: some element of it within ``radius`` of him (D19)."""
    b = table.brigades[table.elements[unit[0]].brigade]
    c = table.commanders.get(b.commander) if b.commander else None
    if c is None or not c.alive or not c.present:
        return False
    def near(e) -> bool:  # surely beyond the radius (from where the two stand), else as shapely measures
        dx, dy, far = c.x - e.x, c.y - e.y, radius + reach(e) + 1
        return dx * dx + dy * dy <= far * far and c.point.distance(e.shape) <= radius

    return any(near(table.elements[i]) for i in unit)


def cost(table: Table, unit: list[str], radius: int) -> int:
    """PIPs to move a unit: 1, or 2 beyond the command radius."""
    return 1 if in_command(table, unit, radius) else 2
