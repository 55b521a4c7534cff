"""Morale discs (000 §18): receiving, committing, losing, the end-of-turn update.

An army's morale is its uncommitted discs plus the discs it has committed to
locales. Discs are received from the time track at the start of the army's
turn, committed to locales when it wins a defence (and, for Austria, when it
retreats), lost for reductions, and at the end of its turn lost or returned
by the update. The opponent chooses whose committed discs cover a shortfall.
Conservation: uncommitted + committed + lost = received, always.
"""

from __future__ import annotations

from .scenario import SIDE_ADJ, SIDE_NAME
from pbem.games.simmons.clock import hour_label
from pbem.games.simmons.clock import Clock
from pbem.games.simmons.turn import adjective
from pbem.lang import say, say_plural
from .state import enemy
from .turn import Ended, Turn

RETURN_BEFORE = 16  # 000 §18 step 3: «до 16:00»


def receive(turn: Turn) -> None:
    """Regular morale update: the discs of this hour's cell of the time track."""
    st, side = turn.st, turn.side
    n = turn.sc.track.get(side, {}).get(turn.hour, 0)
    if n:
        st.uncommitted[side] += n
        st.received[side] += n
        turn.public("discs", say_plural("The %(side)s army receives %(num)d morale disc from the time track (%(hour)s); "
                                        "morale %(morale)d.", "The %(side)s army receives %(num)d morale discs from the "
                                        "time track (%(hour)s); morale %(morale)d.", n, side=adjective(side),
                                        hour=Clock(turn.hour), morale=st.morale(side)), side=side, discs=n)


def _most(committed: dict[str, int], board, exclude: str | None = None) -> list[str]:
    """Locales holding discs, most first, then in map order."""
    order = {lid: i for i, lid in enumerate(board.locales)}
    return sorted((lid for lid, n in committed.items() if n > 0 and lid != exclude),
                  key=lambda lid: (-committed[lid], order.get(lid, 0)))


def commit(turn: Turn, side: str, locale: str, n: int, why: str) -> None:
    """Commit ``n`` of ``side``'s discs to ``locale``: uncommitted first; a shortfall
    the opponent may cover with ``side``'s discs from other locales (T45)."""
    st = turn.st
    if n <= 0:
        return
    own = min(n, st.uncommitted[side])
    st.uncommitted[side] -= own
    _add(st.committed[side], locale, own)
    short = n - own
    moved = 0
    opponent = enemy(side)
    policy = turn.standing(opponent, "cover")
    while short > 0:
        sources = _most(st.committed[side], turn.board, exclude=locale)
        if not sources:
            break
        options = [("none", say("do not cover"))] + [
            (lid, say_plural("%(place)s (%(num)d disc)", "%(place)s (%(num)d discs)", st.committed[side][lid],
                             place=turn.name(lid)))
            for lid in sources]
        given = None
        if policy is not None:
            given = ("none",) if policy.value == "NEVER" else (sources[0],)
        key = turn.decide(opponent, "cover",
                          say_plural("The %(side)s army is %(num)d disc(s) short to commit to %(place)s: move one of its "
                                     "committed discs there from another locale?", "The %(side)s army is %(num)d disc(s) "
                                     "short to commit to %(place)s: move one of its committed discs there from another "
                                     "locale?", short, side=adjective(side), place=turn.name(locale)),
                          options, (sources[0],), given=given, source="standing" if given else None)[0]
        if key == "none":
            break
        st.committed[side][key] -= 1
        if not st.committed[side][key]:
            del st.committed[side][key]
        _add(st.committed[side], locale, 1)
        mark_moved(turn, side, locale)
        moved += 1
        short -= 1
    done = own + moved
    how = say(" (%(moved)d moved from other locales by %(side)s)", moved=moved,
              side=say("Austria") if opponent == "austria" else say("France")) if moved else ""
    missing = say("; %(short)d could not be committed", short=short) if short else ""
    turn.public("commit", say_plural("The %(side)s army commits %(num)d disc to %(place)s (%(why)s)%(how)s%(missing)s.",
                                     "The %(side)s army commits %(num)d discs to %(place)s (%(why)s)%(how)s%(missing)s.",
                                     done, side=adjective(side), place=turn.name(locale), why=say(why), how=how,
                                     missing=missing), side=side, locale=locale, discs=done)


def mark_moved(turn: Turn, side: str, locale: str) -> None:
    moved = turn.st.moved.setdefault(side, {"day": -1, "locales": {}})
    if moved["day"] != turn.st.day:
        moved["day"], moved["locales"] = turn.st.day, {}
    _add(moved["locales"], locale, 1)


def _add(table: dict[str, int], key: str, n: int) -> None:
    if n:
        table[key] = table.get(key, 0) + n


def lose(turn: Turn, side: str, n: int, why: str) -> None:
    """``side`` loses ``n`` discs (one a reduction): uncommitted first, then
    committed discs the opponent chooses (T46). Demoralised at zero (T44)."""
    st = turn.st
    if n <= 0:
        return
    own = min(n, st.uncommitted[side])
    st.uncommitted[side] -= own
    short = n - own
    taken = own
    opponent = enemy(side)
    while short > 0:
        sources = _most(st.committed[side], turn.board)
        if not sources:
            break
        options = [(lid, f"{turn.name(lid)} ({st.committed[side][lid]} discs)") for lid in sources]
        key = turn.decide(opponent, "disc_loss",
                          say("The %(side)s army loses a disc and has no uncommitted one: from which locale?",
                              side=adjective(side)), options, (sources[0],))[0]
        st.committed[side][key] -= 1
        if not st.committed[side][key]:
            del st.committed[side][key]
        taken += 1
        short -= 1
    st.lost[side] += taken
    turn.public("discs", say_plural("The %(side)s army loses %(num)d morale disc (%(why)s); morale %(morale)d.",
                                    "The %(side)s army loses %(num)d morale discs (%(why)s); morale %(morale)d.", taken,
                                    side=adjective(side), why=say(why), morale=st.morale(side)), side=side, lost=taken)
    if st.morale(side) == 0:
        demoralise(turn, side)


def demoralise(turn: Turn, side: str) -> None:
    st = turn.st
    st.demoralised[side] = True
    st.over = True
    st.winner = enemy(side)
    said = say("%(winner)s wins a decisive victory: the %(side)s army is demoralised (its morale fell to zero, "
               "000 §19).", winner=say("Austria") if st.winner == "austria" else say("France"), side=adjective(side))
    st.victory = str(said)
    turn.public("victory", said, winner=st.winner)
    raise Ended(st.victory)


def update(turn: Turn) -> None:
    """The end-of-turn morale update of the moving army (000 §18, steps 1-3)."""
    st, side, board = turn.st, turn.side, turn.board
    foe = turn.foe
    committed = st.committed[side]
    lost = 0
    for lid in list(committed):
        held = st.occupied_by(lid, foe)
        empty_theirs = not st.in_locale(lid) and st.last_entered.get(lid) == foe
        if held or empty_theirs:
            n = committed.pop(lid)
            lost += n
            why = "held by the enemy" if held else "the enemy entered it last"
            turn.public("discs", say_plural("The %(side)s army loses the %(num)d disc(s) committed to %(place)s "
                                            "(%(why)s).", "The %(side)s army loses the %(num)d disc(s) committed to "
                                            "%(place)s (%(why)s).", n, side=adjective(side), place=turn.name(lid),
                                            why=say(why)), side=side, locale=lid, lost=n)
    returned = []
    for lid in list(committed):
        if not any(st.occupied_by(n, foe) for n in board.touching(lid)):  # across impassable borders too (T62)
            n = committed.pop(lid)
            st.uncommitted[side] += n
            returned.append(f"{n} from {turn.name(lid)}")
    if returned:
        turn.public("discs", say("The %(side)s army's discs return to uncommitted: %(places)s (no enemy next to "
                                 "them).", side=adjective(side), places=returned), side=side)
    if side == "france" and turn.hour < RETURN_BEFORE:
        extra_return(turn)
    if lost:
        st.lost[side] += lost
        if st.morale(side) == 0:
            demoralise(turn, side)


def extra_return(turn: Turn) -> None:
    """000 §18 step 3: France may return one committed disc, not one moved in the enemy's last turn."""
    st = turn.st
    committed = st.committed["france"]
    moved = st.moved.get("france", {"day": -1, "locales": {}})
    fresh = moved["locales"] if moved["day"] == st.day - 1 else {}
    eligible = [lid for lid in _most(committed, turn.board) if committed[lid] > fresh.get(lid, 0)]
    if not eligible:
        return
    options = [("none", "none")] + [(lid, f"{turn.name(lid)} ({committed[lid]} discs)") for lid in eligible]
    given = None
    for order in turn.orders.orders:
        if type(order).__name__ == "Return":
            given = (order.locale or "none",)
    key = turn.decide("france", "disc_return", say("Return one committed disc to uncommitted (000 §18 step 3)?"),
                      options, (eligible[0],), given=given)[0]
    if key == "none":
        return
    committed[key] -= 1
    if not committed[key]:
        del committed[key]
    st.uncommitted["france"] += 1
    turn.public("discs", say("France returns a disc from %(place)s to uncommitted (000 §18 step 3).",
                             place=turn.name(key)),
                side="france", locale=key)
