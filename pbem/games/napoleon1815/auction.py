"""§13 Bidding, held in the game: the auction is its first sub-turn (option ``bid = auction``).

Every seat sends a sealed ``BID <steps>`` at once (docs/rules-notes.md, "§13 bidding"):
the number of steps its side is ready to remove at its setup. The side of the higher
bid wins the auction and pays its bid at its setup (setup.pay_bid: one step a block
at most, BID LOSS names them); the other side pays nothing. In the two-player game
one player holds both Allied seats, in the three-player game the Allied players may
talk during the setup (§12): the Allies' bid is the higher of their two seats'. A
seat that sends no BID bids 0 (the default). Equal bids above 0 are settled by the
coin of §13, a recorded two-sided die (1: France, 2: the Allies); two bids of 0 cost
nobody anything.
"""

from __future__ import annotations

from pbem.core.events import Event

MAX_BID = 10  # as the option's fixed bids (france-0 .. allies-10)
SIDE_SEATS = {"france": ("french",), "allies": ("anglo-dutch", "prussian")}
SIDE_NAME = {"france": "France", "allies": "the Allies"}


def bids_of(orders: dict) -> dict[str, int]:
    """Each side's bid: the highest BID of its seats, 0 where none was sent."""
    return {side: max([orders[s].bid for s in seats if s in orders and orders[s].bid is not None] or [0])
            for side, seats in SIDE_SEATS.items()}


def resolve_auction(state, orders: dict, chance) -> list[Event]:
    """Settle the sealed bids: ``state.bid`` gets the winning side and its steps (with both bids,
    for the reports), ``state.auction`` is done. The French setup or the Allied one then pays it."""
    bids = bids_of(orders)
    missing = [s for seats in SIDE_SEATS.values() for s in seats if s not in orders or orders[s].bid is None]
    events = [Event("auction", "No BID from this seat: it bids 0 (the default).", owner=s) for s in missing]
    france, allies = bids["france"], bids["allies"]
    said = f"The auction (§13): France bids {france}, the Allies {allies}."
    if france == allies == 0:
        state.bid = {"side": "france", "steps": 0, "bids": bids}
        events.append(Event("auction", said + " Nobody bid a step: neither side sets up down.", {"bids": bids}))
    else:
        if france == allies:
            coin = chance.roll("the coin of the auction: 1 France, 2 the Allies (§13)", sides=2)
            side = "france" if coin == 1 else "allies"
            said += f" A tie: the coin falls {coin}, for {SIDE_NAME[side]}."
        else:
            side = "france" if france > allies else "allies"
        state.bid = {"side": side, "steps": bids[side], "bids": bids}
        who = "The French" if side == "france" else "The Allies"
        events.append(Event("auction", said + f" {who} win the auction and set up {bids[side]} step(s) down, "
                            "one a block at most.", {"bids": bids, "side": side}))
    state.auction = None
    return events
