"""The names of the turns (the turn track, the setups, the sub-turns of the auction and of battles)
as Texts, read in each reader's language; their English is what the server and the log know."""

from __future__ import annotations

from pbem.lang import say

from .words import turn_said


def number_said(scenario, n: int):
    """Campaign turn ``n`` (``state.turn``, the position's turn track)."""
    if n == 0:
        return say("Allied setup")
    if n == 1:
        return say("French setup")
    if n - 2 >= len(scenario.track):
        return say("the end of the game")
    return turn_said(scenario.track[n - 2])


def label_said(scenario, state):
    """The name of the turn the position ``state`` waits for (Turn.label)."""
    if state.pending and state.pending["stage"] == "round":
        rounds = sorted({b["rounds"].get("def", 0) + 1 for b in state.pending["fought"]})
        return say("%(turn)s: battle round %(rounds)s", turn=number_said(scenario, state.turn),
                   rounds="/".join(map(str, rounds)))
    if state.auction is not None:
        return say("the auction (§13)")
    if state.pending:
        if state.pending["stage"] == "def":
            return say("%(turn)s: the defenders deploy", turn=number_said(scenario, state.turn))
        return say("%(turn)s: the attackers deploy", turn=number_said(scenario, state.turn))
    return number_said(scenario, state.turn)


def view_label(scenario, view: dict):
    """A view's ``turn_label`` (the English name Game.view gives it) as a Text: its turn is the
    view's ``turn``, its kind the ending the English name has."""
    english = view.get("turn_label", "")
    n = view.get("turn", 0)
    number = number_said(scenario, n)
    head = str(number)
    if english == head:
        return number
    if english == "the auction (§13)":
        return say("the auction (§13)")
    if english == head + ": the defenders deploy":
        return say("%(turn)s: the defenders deploy", turn=number)
    if english == head + ": the attackers deploy":
        return say("%(turn)s: the attackers deploy", turn=number)
    if english.startswith(head + ": battle round "):
        return say("%(turn)s: battle round %(rounds)s", turn=number, rounds=english[len(head + ": battle round "):])
    return english
