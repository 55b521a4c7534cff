"""Standing orders in a Marengo-family game: how a new one replaces an old one, and
which one is in force for a decision.

A side's standing orders are kept in its state as dicts (``state.standing[side]``,
:meth:`pbem.games.simmons.orders.Standing.to_dict`); each stays in force until one of
the same kind and place replaces it, or ``STANDING CLEAR [kind]`` removes it. Both
games read them the same way; which kinds there are is each game's (its
STANDING_KINDS).
"""

from __future__ import annotations

from .orders import Standing


def update_standing(state, side: str, standing: Standing) -> None:
    """A standing order replaces the one of the same kind and place; CLEAR removes."""
    orders = state.standing.setdefault(side, [])
    if standing.kind == "clear":
        kind = (standing.value or "").lower() or None
        state.standing[side] = [d for d in orders if kind is not None and d["kind"] != kind]
        return
    state.standing[side] = [d for d in orders if (d["kind"], d.get("locale"), d.get("toward")) != standing.key()]
    state.standing[side].append(standing.to_dict())


def in_force(state, side: str, kind: str, locale: str | None = None, toward: str | None = None
             ) -> Standing | None:
    """The most specific standing order of ``side`` for this kind and place (of two as
    specific, the later)."""
    best = None
    for d in state.standing.get(side, []):
        if d["kind"] != kind:
            continue
        if d.get("locale") not in (None, locale) or d.get("toward") not in (None, toward):
            continue
        score = (d.get("locale") is not None) + (d.get("toward") is not None)
        if best is None or score >= best[0]:
            best = (score, d)
    return Standing.from_dict(best[1]) if best else None
