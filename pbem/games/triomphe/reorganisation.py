"""French disorganisation and reorganisation (000 §14).

All French blocks on the map start disorganised. A reorganisation action
(one order) organises one block, or two in different locales when France has
three or more organised blocks on the map (T38). A locale's blocks are
organised all in one turn or not at all (T39).
"""

from __future__ import annotations

from .orders import Reorganise
from pbem.lang import say, say_plural
from .turn import Turn, Void

MANY = 3  # «Якщо на мапі є три або більше впорядкованих французьких фігур, дія може впорядкувати дві»


def reorganise(turn: Turn, order: Reorganise) -> None:
    st = turn.st
    if turn.side != "france":
        raise Void(say("only the French reorganise (000 §14)"))
    blocks = []
    for bid in order.blocks:
        b = st.blocks.get(bid)
        if b is None or b.side != "france" or not b.on_map:
            raise Void(say("%(block)s is not a French block on the map", block=bid))
        if not b.disorganised:
            raise Void(say("%(block)s is not disorganised", block=bid))
        blocks.append(b)
    allowed = 2 if turn.organised_count() >= MANY else 1
    if len(blocks) > allowed:
        raise Void(say("with fewer than %(many)d organised French blocks on the map a reorganisation organises one "
                       "block (000 §14)", many=MANY))
    if len(blocks) == 2 and blocks[0].locale == blocks[1].locale:
        raise Void(say("two blocks reorganised by one action must be in different locales (000 §14)"))
    turn.pay(1)
    for b in blocks:
        b.disorganised = False
        turn.organised.setdefault(b.locale, set()).add(b.id)
    turn.private("organise", "france", say("Reorganised: %(blocks)s.", blocks=turn.ids(blocks)),
                 seen=say_plural("France reorganises %(num)d block(s) in %(places)s.",
                                 "France reorganises %(num)d block(s) in %(places)s.", len(blocks),
                                 places=[turn.name(b.locale) for b in blocks]), blocks=[b.id for b in blocks])


def all_or_none(turn: Turn) -> None:
    """T39: where some but not all of a locale's blocks were organised this turn, undo it."""
    st = turn.st
    for locale, done in turn.organised.items():
        rest = [st.blocks[bid] for bid in turn.start_disorganised.get(locale, set()) - done]
        rest = [b for b in rest if b.on_map and b.disorganised and b.locale == locale]
        if not rest:
            continue
        undone = [st.blocks[bid] for bid in sorted(done) if st.blocks[bid].on_map]
        for b in undone:
            b.disorganised = True
        if undone:
            turn.private("organise", "france",
                         say("Disorganised again: %(blocks)s — the other blocks of %(place)s were not reorganised "
                             "this turn (000 §14: all of a locale or none).", blocks=turn.ids(undone),
                             place=turn.name(locale)),
                         seen=say_plural("%(num)d French block(s) in %(place)s are disorganised again.",
                                         "%(num)d French block(s) in %(place)s are disorganised again.", len(undone),
                                         place=turn.name(locale)))
