"""Decisions: the choices the rules give a player during resolution.

A ruleset never guesses what a player wants. Where the rules give a side a
choice, the ruleset builds a :class:`Decision` and asks the :class:`Decider`.
The decider answers, in this order, from:

1. an answer recorded in the game's log for this decision (a player's
   "ask me" reply or a moderator's ruling), by the decision's index in the day;
2. the answer the ruleset found in the side's orders (own day) or standing
   orders (enemy's day), passed as ``given``;
3. the decision's documented default, unless the side asked to be asked, in
   which case resolution stops with :class:`Pending` (not when the rules leave
   one answer only: there is nothing to ask).

Every answer is recorded as a :class:`DecisionRecord`, with its source, so a
report can say which choices were taken on a side's behalf and how.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable, Iterable

from pbem.core.orders import fold
from pbem.lang import Text, Tongue


@dataclass(frozen=True)
class Decision:
    """One choice, put to one side.

    ``options`` are keys the deciding side may see (never an enemy block id);
    ``labels`` maps each key to the text shown to that side. An answer is a
    tuple of between ``min`` and ``max`` distinct option keys.

    ``question`` and each label may be given as a :class:`pbem.lang.Text`: their English is
    written when first read (and kept), not when the decision is made -- a game replayed from
    its log (issue 15) makes every day's decisions and reads few of them. Read, they are
    always English strings, as when given so.
    """

    side: str
    kind: str
    question: str
    options: tuple[str, ...]
    default: tuple[str, ...]
    labels: tuple[tuple[str, str], ...] = ()
    min: int = 1
    max: int = 1
    said: Text | None = field(default=None, compare=False, repr=False)
    """The question as a :class:`pbem.lang.Text`, to be read in the side's language (``question``
    is its English); not stored (``to_dict``)."""

    said_labels: tuple[tuple[str, Text], ...] = field(default=(), compare=False, repr=False)
    """The labels written as Texts (a block, "stay in the reserve"), by key; not stored."""

    def question_in(self, tongue: Tongue) -> str:
        """The question in ``tongue``'s language (its English when it was written as a string)."""
        return tongue.say(self.said) if self.said is not None else self.question

    def label_in(self, key: str, tongue: Tongue) -> str:
        """An option's label in ``tongue``'s language (its English when it was written as a string)."""
        said = dict(self.said_labels).get(key)
        return tongue.say(said) if said is not None else self.label(key)

    def label(self, key: str) -> str:
        return dict(self.labels).get(key, key)

    def to_dict(self) -> dict:
        return {
            "side": self.side,
            "kind": self.kind,
            "question": self.question,
            "options": list(self.options),
            "labels": dict(self.labels),
            "default": list(self.default),
            "min": self.min,
            "max": self.max,
        }

    def read(self, words: Iterable[str]) -> tuple[str, ...]:
        """The option keys a player's words name: each a key or a label as the question shows it
        (``cascina_bianca`` or ``Cascina Bianca``), in any case and with or without accents; the
        longest run of words that names one is taken. A word that names none is kept as written,
        for ``problem`` to refuse."""
        names: dict[str, str] = {}
        for key in self.options:
            names.setdefault(fold(self.label(key)), key)
            names[fold(key)] = key
        words, out, i = list(words), [], 0
        while i < len(words):
            for j in range(len(words), i, -1):
                key = names.get(fold(" ".join(words[i:j])))
                if key is not None:
                    out.append(key)
                    i = j
                    break
            else:
                out.append(words[i])
                i += 1
        return tuple(out)

    def one_answer(self) -> bool:
        """Whether the rules leave one answer only (every option, and no fewer): nothing to ask."""
        return self.min == self.max == len(self.options)

    def problem(self, answer: Iterable[str]) -> str | None:
        """Why ``answer`` is not a legal answer, or None."""
        answer = tuple(answer)
        if len(set(answer)) != len(answer):
            return "an option is named twice"
        if not self.min <= len(answer) <= self.max:
            if self.min == self.max:
                return f"expected exactly {self.min} choice(s), got {len(answer)}"
            return f"expected {self.min} to {self.max} choices, got {len(answer)}"
        for key in answer:
            if key not in self.options:
                return f"{key!r} is not one of the options ({', '.join(self.options) or 'none'})"
        return None


def _english(decision: Decision, kept: str):
    """The field ``kept`` of ``decision`` (``_question``, ``_labels``) in English: a Text given
    there written now, once, and kept."""
    value = decision.__dict__[kept]  # always there: the dataclass's __init__ gives every field through _keep
    if kept == "_question":
        if not isinstance(value, str):
            value = decision.__dict__[kept] = str(value)
    elif any(not isinstance(label, str) for _, label in value):
        value = decision.__dict__[kept] = tuple((key, str(label)) for key, label in value)
    return value


def _keep(decision: Decision, kept: str, value) -> None:
    decision.__dict__[kept] = value if kept == "_question" else tuple(value)


# After the dataclass is made, as pbem/core/events.py does for an event's text: its __init__ (through
# object.__setattr__, frozen as it is), __eq__, __hash__, __repr__ and to_dict go through these properties.
Decision.question = property(lambda decision: _english(decision, "_question"),
                             lambda decision, value: _keep(decision, "_question", value))
Decision.labels = property(lambda decision: _english(decision, "_labels"),
                           lambda decision, value: _keep(decision, "_labels", value))


@dataclass
class DecisionRecord:
    index: int
    decision: Decision
    answer: tuple[str, ...]
    source: str  # "log", "orders", "standing", "default", "chosen" (by a bot's choose function)
    note: str = ""

    def to_dict(self) -> dict:
        return {
            "index": self.index,
            "decision": self.decision.to_dict(),
            "answer": list(self.answer),
            "source": self.source,
            "note": self.note,
        }


class Pending(Exception):
    """Resolution stopped at a decision its side wants to answer itself."""

    def __init__(self, index: int, decision: Decision):
        super().__init__(f"decision {index} ({decision.kind}) awaits {decision.side}")
        self.index = index
        self.decision = decision


def never(decision: Decision) -> bool:
    return False


@dataclass
class Decider:
    """Answers a day's decisions, numbering them in the order they arise."""

    answers: dict[int, tuple[str, ...]] = field(default_factory=dict)
    ask: Callable[[Decision], bool] = never
    choose: Callable[[Decision], tuple[str, ...] | None] | None = None  # a bot's own answers
    records: list[DecisionRecord] = field(default_factory=list)

    def decide(
        self,
        decision: Decision,
        given: Iterable[str] | None = None,
        source: str = "orders",
        check: Callable[[tuple[str, ...]], str | None] | None = None,
    ) -> tuple[str, ...]:
        """The answer to ``decision``; see the module docstring for the order."""
        index = len(self.records)

        def problem(answer: tuple[str, ...]) -> str | None:
            return decision.problem(answer) or (check(answer) if check else None)

        notes = []
        if index in self.answers:
            answer = tuple(self.answers[index])
            why = problem(answer)
            if why is None:
                return self._record(index, decision, answer, "log")
            notes.append(f"recorded answer {' '.join(answer) or 'none'} not legal: {why}")
        if given is not None:
            answer = tuple(given)
            why = problem(answer)
            if why is None:
                return self._record(index, decision, answer, source, "; ".join(notes))
            notes.append(f"{source} answer {' '.join(answer) or 'none'} not legal: {why}")
        if self.ask(decision) and index not in self.answers and not decision.one_answer():
            raise Pending(index, decision)
        if self.choose is not None:
            answer = tuple(self.choose(decision) or ())
            if problem(answer) is None:
                return self._record(index, decision, answer, "chosen", "; ".join(notes))
        default = tuple(decision.default)
        if problem(default) is not None:  # a ruleset bug: never silently accept it
            raise AssertionError(f"default {default} of {decision} is not legal: {problem(default)}")
        return self._record(index, decision, default, "default", "; ".join(notes))

    def _record(self, index, decision, answer, source, note=""):
        self.records.append(DecisionRecord(index, decision, answer, source, note))
        return answer
