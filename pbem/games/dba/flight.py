"""Flight and rally — «Бегство».

    «Бегущие элементы перемещаются: пехота на 6", кавалерия – на 9". Бегущая артиллерия считаются выбывшими
    из игры сразу же. Элементы, которые по каким-либо причинам не могут двигаться, считаются уничтоженными или
    сдавшимися в плен врагу … Бегущие элементы бригады с положительным БЭФ могут быть остановлены бригадным
    главнокомандующим. Он должен войти в контакт с бегущим элементом, к результату броска кубика следует
    добавить генеральский Рейтинг воздействия на бегущих. Если в результате получится 6 или больше, элемент
    считается остановленным. В тот тур, когда элемент был остановлен, он не может получать или отдавать
    приказы.»

A fleeing element faces away and runs straight back each of its side's movement phases; off the table it has
fled (gone, −2 BEF like a destroyed element, D23); blocked it is taken. «Харизма» of the command table is the
rally rating (dashing +1, ordinary and cautious 0, timid −1).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from pbem.core.chance import Chance

from . import effectiveness, officers
from .elements import Element, inches
from .melee import slide, step_back, turn_about
from .table import Table

FLEE = {"infantry": inches(6), "cavalry": inches(9), "staff": inches(9)}
CHARISMA = {"dashing": 1, "ordinary": 0, "cautious": 0, "timid": -1}


@dataclass
class Fled:
    element: str
    outcome: str      # "ran", "fled the table", "taken", "removed" (artillery)
    x: int = 0
    y: int = 0
    commanders_lost: list[str] = field(default_factory=list)  # who touched it when it was taken (DR8)


def start_flight(table: Table, e: Element) -> Fled | None:
    """An element begins to flee: it turns about; fleeing artillery is out of the game at once."""
    if e.arm == "artillery":
        table.remove(e.id)
        effectiveness.element_lost(table.brigades[e.brigade])
        return Fled(e.id, "removed")
    if not e.fleeing:
        turn_about(e)
    return None


def flee(table: Table, e: Element) -> Fled:
    """One move of a fleeing element: 6" (foot) or 9" (horse) straight on; off the table it has fled, unable to
    move it is taken («считаются уничтоженными или сдавшимися в плен»)."""
    if e.arm == "artillery":
        return start_flight(table, e)
    run = FLEE[e.arm]
    x, y = step_back(e, -run)
    gone = e.moved_to(x, y)
    if not gone.shape.within(table.area):
        table.remove(e.id)
        effectiveness.element_lost(table.brigades[e.brigade])
        return Fled(e.id, "fled the table", x, y)
    ok = slide(table, e, run)
    if not ok:  # taken: a commander touching it is taken with it, as with an element destroyed (DR8)
        dead = officers.destroy(table, e.id)
        effectiveness.element_lost(table.brigades[e.brigade])
        return Fled(e.id, "taken", commanders_lost=dead)
    return Fled(e.id, "ran", e.x, e.y)


@dataclass
class Rally:
    element: str
    die: int
    charisma: int
    rallied: bool
    why_not: str = ""


def rally(table: Table, e: Element, chance: Chance) -> Rally:
    """The brigade's commander tries to stop a fleeing element he touches: d6 + his charisma, 6 or more."""
    b = table.brigades[e.brigade]
    c = table.commanders.get(b.commander) if b.commander else None
    if not e.fleeing:
        return Rally(e.id, 0, 0, False, f"{e.id} is not fleeing")
    if c is None or not c.alive:
        return Rally(e.id, 0, 0, False, f"{b.id} has no commander")
    if effectiveness.current(b) <= 0:
        return Rally(e.id, 0, 0, False, f"{b.id}'s effectiveness is not positive")
    if c.point.distance(e.shape) > 1:
        return Rally(e.id, 0, 0, False, f"{c.name} is not in contact with {e.id}")
    bonus = CHARISMA[c.character]
    die = chance.roll(f"rally, {c.name} stops {e.id}")
    ok = die + bonus >= 6
    if ok:
        e.fleeing = False
        e.disorganised = False
    return Rally(e.id, die, bonus, ok)


def surrender(table: Table, brigade: str) -> list[Fled]:
    """«Когда БЭФ уменьшается до нуля и ниже, бригада сдается и все её элементы бегут с поля боя»: every element
    of a brigade at 0 or below starts to flee (artillery is removed)."""
    b = table.brigades[brigade]
    if not effectiveness.check_surrender(b) and not b.surrendered:
        return []
    out = []
    for e in list(table.brigade_elements(brigade)):
        got = start_flight(table, e)
        if got:
            out.append(got)
    return out
