"""The sequence of play — «Последовательность игры».

    «1. Игроки пишут приказы … 2. Игроки бросают кубик d6 на инициативу – выбросивший больше решает, кто будет
    игроком A, а кто игроком B. 3. Игрок A проводит стрельбу 4. Игрок B проводит стрельбу 5. Игрок B бросает
    кубик d6 для определения PIP и выполняет перемещения 6. Игрок A … 7. Рукопашная схватка
    * Армии с высшим командным навыком могут добавить 1 к броску на инициативу.»

The initiative roll of the turn (who is A) lives here; the commander's initiative test of «Приказы» is the
order engineer's (command.py). Ties are rolled again (D27). The higher roller's choice is a decision: by default
he takes A (fires first).
"""

from __future__ import annotations

from dataclasses import dataclass

from pbem.core.chance import Chance
from pbem.core.decisions import Decider, Decision

from .lang import Text, joined, side_term, term
from .lang import say as T  # a Text: read in each seat's language

PHASES = ("orders", "initiative", "fire A", "fire B", "move B", "move A", "melee")


@dataclass
class Initiative:
    rolls: list[tuple[int, int]]      # (first side's die + bonus, second side's), each try
    winner: str
    a: str
    b: str

    def line(self) -> str:
        tries = "; ".join(f"{x} against {y}" for x, y in self.rolls)
        return f"initiative: {tries}: {self.winner} chooses; {self.a} is A, {self.b} is B"

    def said(self) -> Text:
        """:meth:`line` read in each language."""
        tries = joined(*[T("%(first)s against %(second)s", first=x, second=y) for x, y in self.rolls], sep="; ")
        return T("initiative: %(tries)s: %(winner)s chooses; %(a)s is A, %(b)s is B", tries=tries,
                 winner=side_term(self.winner), a=side_term(self.a), b=side_term(self.b))


def initiative(sides: tuple[str, str], chance: Chance, bonus: dict[str, int] | None = None,
               decider: Decider | None = None) -> Initiative:
    """Both roll a d6 (+ the scenario's bonus); the higher chooses who is A; ties roll again (at most 20 tries,
    then the first side wins, a limit no fair die reaches in practice)."""
    bonus = bonus or {}
    decider = decider or Decider()
    first, second = sides
    rolls = []
    for _ in range(20):
        x = chance.roll(f"initiative, {first}") + bonus.get(first, 0)
        y = chance.roll(f"initiative, {second}") + bonus.get(second, 0)
        rolls.append((x, y))
        if x != y:
            break
    winner = first if rolls[-1][0] >= rolls[-1][1] else second
    other = second if winner == first else first
    said = T("You won the initiative: be player A (fire first, move second) or player B")
    pick = decider.decide(Decision(winner, "initiative", str(said), ("A", "B"), ("A",), said=said), given=None)
    a, b = (winner, other) if pick == ("A",) else (other, winner)
    return Initiative(rolls, winner, a, b)
