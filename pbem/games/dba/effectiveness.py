"""Brigade effectiveness — «Эффективность бригады».

    «Каждая бригада имеет Бригадный эффективный фактор (БЭФ). Начальное значение БЭФ равно 2 на элемент, +1
    за командующего, +2 если вся бригада состоит из элитных войск, +1 если вся бригада состоит из ветеранов,
    -1 если вся бригада состоит из зеленых новичков.
    БЭФ понижается на -1 за каждый результат D, полученный данным элементом. Эти потери временные. БЭФ также
    понижается на 2 за каждый уничтоженный или бежавший элемент, а ещё в случае потери главнокомандующего.
    Эти потери постоянные. Временные снижения БЭФ восстанавливаются со скоростью 1 за тур.»

The rating (D13): fresh from 100% down to 75% of the start, tired below 75% down to 50%, spent below 50% while
above 0; at 0 or below the brigade surrenders and all its elements flee («Когда БЭФ уменьшается до нуля и
ниже, бригада сдается»).
"""

from __future__ import annotations

from .elements import Brigade, Commander, Element

RATINGS = ("fresh", "tired", "spent", "broken")
RATING_RUSSIAN = {"fresh": "Свежая", "tired": "Уставшая", "spent": "Истощенная", "broken": "Бежит"}


def starting_bef(brigade: Brigade, elements: list[Element], commanders: dict[str, Commander]) -> int:
    """2 an element, +1 with a commander, +2 all elite, +1 all veteran, −1 all green."""
    bef = 2 * len(elements)
    if brigade.commander and brigade.commander in commanders:
        bef += 1
    qualities = {e.quality for e in elements}
    if qualities == {"elite"}:
        bef += 2
    elif qualities == {"veteran"}:
        bef += 1
    elif qualities == {"green"}:
        bef -= 1
    return bef


def current(b: Brigade) -> int:
    return b.bef_start - b.bef_permanent - b.bef_temporary


def rating(b: Brigade) -> str:
    """fresh, tired, spent or broken (D13)."""
    now = current(b)
    if now <= 0 or b.surrendered:
        return "broken"
    if 4 * now >= 3 * b.bef_start:
        return "fresh"
    if 2 * now >= b.bef_start:
        return "tired"
    return "spent"


def disordered(b: Brigade, results: int = 1) -> None:
    """A D result taken: −1 for each, temporary."""
    b.bef_temporary += results


def element_lost(b: Brigade, count: int = 1) -> None:
    """An element destroyed or fled: −2 each, permanent."""
    b.bef_permanent += 2 * count


def commander_lost(b: Brigade) -> None:
    """The brigade's commander killed or taken: −2, permanent (D14)."""
    b.bef_permanent += 2


def recover(b: Brigade) -> int:
    """The turn's recovery of temporary losses (1); returns what was recovered."""
    if b.bef_temporary > 0:
        b.bef_temporary -= 1
        return 1
    return 0


def check_surrender(b: Brigade) -> bool:
    """Whether the brigade has just surrendered (BEF at 0 or below); marks it so."""
    if not b.surrendered and current(b) <= 0:
        b.surrendered = True
        return True
    return False
