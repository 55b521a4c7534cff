"""Retreat (003 §12): where a beaten side's blocks go, and what they lose on the way.

Also the revealing of blocks that act where the enemy sees them (§10-§12), which
retreat, assault and pursuit share. Movement (an attack maneuver the enemy does
not block) and combat (a lost assault) both send blocks here.
"""

from __future__ import annotations

from pbem.games.simmons.retreat import preferred, ranked
from pbem.lang import say

from .day import Day
from .state import Block, enemy


REVEALED = {  # what a revealed block does: (as its owner reads it, as the enemy reads it)
    "retreats": ("%(block)s retreats and is revealed.", "%(block)s block retreats."),
    "leads the assault": ("%(block)s leads the assault and is revealed.", "%(block)s block leads the assault."),
    "fires in defence": ("%(block)s fires in defence and is revealed.", "%(block)s block fires in defence."),
    "leads the defence": ("%(block)s leads the defence and is revealed.", "%(block)s block leads the defence."),
    "pursues": ("%(block)s pursues and is revealed.", "%(block)s block pursues."),
}
"""(The enemy's reading begins with its article, "An" or "A": one catalog entry each.)"""


def reveal(day: Day, blocks: list[Block], what: str) -> None:
    mine, theirs = REVEALED[what]
    for b in blocks:
        day.private("reveal", b.side, say(mine, block=day.own(b)),
                    seen=say(f"{day.article(b.side)} {theirs}", block=day.shown(b)),
                    seen_data={"side": b.side, "type": b.type, "strength": b.strength})


# -- §12 retreats ------------------------------------------------------------------------------


def retreat_options(day: Day, side: str, locale: str, came_from: str | None, assigned: dict[str, int]
                    ) -> list[str]:
    out = []
    for there in day.board.adjacent(locale):
        if there == came_from or day.st.occupied_by(there, other(side)):
            continue
        own = day.st.count_in(there, side) + assigned.get(there, 0)
        if own + 1 > day.board.locales[there].capacity:
            continue
        out.append(there)
    return out


def other(side: str) -> str:
    return enemy(side)


def retreat(day: Day, side: str, locale: str, came_from: str | None, exempt: set[str] = frozenset()) -> None:
    """All of ``side``'s blocks in ``locale`` retreat (§12)."""
    blocks = day.st.in_locale(locale, side)
    if not blocks:
        return
    reveal(day, blocks, "retreats")
    for b in [b for b in blocks if b.type == "artillery"]:
        before = b.strength
        day.eliminate(b, "retreat")
        day.loss_event(b, before, "artillery forced to retreat is eliminated (003 §12)")
    infantry = [b for b in blocks if b.on_map and b.facing is None and b.type == "infantry" and b.id not in exempt]
    if infantry:
        target = day.pick_own_loss(side, infantry, say("Your infantry retreating from the reserve of %(place)s loses 1: "
                                                       "which block takes it?", place=day.name(locale)))
        day.lose(target, 1, "retreat from the reserve")
        day.loss_event(target, 1, "retreat from the reserve")
    facings = sorted({b.facing for b in blocks if b.facing is not None})
    for facing in facings:
        here = [b for b in blocks if b.on_map and b.facing == facing and b.type in ("infantry", "cavalry")
                and b.id not in exempt]  # §12: those of the assault take no further loss
        if not here:
            continue
        target = day.pick_own_loss(side, here, say("Your blocks retreating from %(place)s lose 1: which block takes it?",
                                                   place=day.place(locale, facing)))
        day.lose(target, 1, "retreat from an approach")
        day.loss_event(target, 1, "retreat from an approach")
    assigned: dict[str, int] = {}
    goal = (day.sc.retreat_toward or {}).get(side)
    standing = day.standing(side, "retreat", locale)
    moved: dict[str, list[Block]] = {}
    for b in sorted([b for b in blocks if b.on_map], key=lambda b: b.id):
        options = retreat_options(day, side, locale, came_from, assigned)
        if not options:
            day.private("loss", side, say("%(block)s has nowhere to retreat and is eliminated (003 §12).",
                                          block=day.own(b)),
                        seen=say("A retreating %(block)s block has nowhere to go and is eliminated.",
                                 block=day.shown(b)),
                        seen_data={"side": side, "type": b.type, "strength": b.strength})
            day.eliminate(b, "no retreat")
            continue
        free = {lid: day.board.locales[lid].capacity - day.st.count_in(lid, side) - assigned.get(lid, 0)
                for lid in options}
        best = ranked(day.board, options, goal, free)
        dest = day.decide(side, "retreat", say("%(block)s retreats from %(place)s: where to?", block=day.own(b),
                                               place=day.name(locale)),
                          [(lid, day.name(lid)) for lid in best], (best[0],), given=preferred(standing, options),
                          source="standing")[0]
        assigned[dest] = assigned.get(dest, 0) + 1
        moved.setdefault(dest, []).append(b)
    for dest, group in moved.items():
        for b in group:
            day.st.put(b, dest, None)
            b.bombard = None
        day.private("retreat", side, say("%(blocks)s retreat from %(place)s to %(to)s.",
                                         blocks=[b.id for b in group], place=day.name(locale), to=day.name(dest)),
                    seen=say("%(blocks)s retreat from %(place)s to %(to)s.", blocks=day.count(len(group), side),
                             place=day.name(locale), to=day.name(dest)),
                    seen_data={"from": locale, "to": dest, "count": len(group)})
        day.record_move(side, (locale, None), (dest, None), len(group), "retreat")
