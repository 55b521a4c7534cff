"""§13 Bidding, held in the game: the auction is its first sub-turn (option ``bid = auction``).

Every seat sends a sealed ``BID [side] <steps>`` at once (docs/rules-notes.md, "§13
bidding"): the number of steps its player is ready to remove at the setup of the side he
names (none named: the side he holds). The highest bid wins: its player plays the side
he named and pays his bid at its setup (setup.pay_bid: one step a block at most, BID
LOSS names them); the other side pays nothing. A player is a bidder: in the two-player
game the Allied player holds both Allied seats (his bid is the higher of theirs), in the
three-player game each seat bids, and the French player bidding for the Allies names
the army he would command. When the winner named a side he does not hold, the player
who holds it takes the winner's seats: ``state.bid["moves"]`` says so (new seat -> the
seat whose player takes it) and the ruleset's ``seat_moves`` hands it to the server,
which moves the players before the setup. A seat that sends no BID bids 0 for its own
side (the default). Equal highest bids that end differently are settled by the coin of
§13, a recorded die (two-sided for France against the Allies); equal bids that end
alike throw nothing.
"""

from __future__ import annotations

from pbem.core.events import Event
from pbem.lang import say, say_plural

from .words import Join

MAX_BID = 10  # as the option's fixed bids (france-0 .. allies-10)
SIDE_SEATS = {"france": ("french",), "allies": ("anglo-dutch", "prussian")}
SIDE_NAME = {"france": "France", "allies": "the Allies"}


SEAT_NAME = {"french": "the French player", "anglo-dutch": "the Anglo-Dutch player",
             "prussian": "the Prussian player", "allies": "the Allied player"}
TARGET_NAME = {"france": "France", "allies": "the Allies", "anglo-dutch": "the Anglo-Dutch army",
               "prussian": "the Prussian army"}
SEAT_SAID = {"french": say("the French player"), "anglo-dutch": say("the Anglo-Dutch player"),
             "prussian": say("the Prussian player"), "allies": say("the Allied player")}
SEAT_CAP_SAID = {"french": say("The French player"), "anglo-dutch": say("The Anglo-Dutch player"),
                 "prussian": say("The Prussian player"), "allies": say("The Allied player")}
TARGET_SAID = {"france": say("France"), "allies": say("the Allies"), "anglo-dutch": say("the Anglo-Dutch army"),
               "prussian": say("the Prussian army")}


def bidders(players: int) -> dict[str, tuple[str, ...]]:
    """Who bids: each player, with the seats he holds (the two-player game's Allied player holds two)."""
    if players == 2:
        return {"french": ("french",), "allies": ("anglo-dutch", "prussian")}
    return {seat: (seat,) for seats in SIDE_SEATS.values() for seat in seats}


def target_seats(target: str) -> tuple[str, ...]:
    return SIDE_SEATS.get(target) or (target,)


def bids_of(orders: dict) -> dict[str, int]:
    """Each side's bid: the highest BID of its seats, 0 where none was sent."""
    return {side: max([orders[s].bid for s in seats if s in orders and orders[s].bid is not None] or [0])
            for side, seats in SIDE_SEATS.items()}


def player_bids(players: int, orders: dict) -> list[tuple[str, int, str]]:
    """Each bidder's bid, in seat order: (bidder, steps, target), the target being the side (or, in the
    three-player game, the Allied seat) he plays if he wins; his own when he names none."""
    out = []
    for bidder, seats in bidders(players).items():
        sent = [(orders[s].bid, orders[s].bid_for) for s in seats if s in orders and orders[s].bid is not None]
        steps, target = max(sent, key=lambda b: b[0]) if sent else (0, None)  # max keeps the first of equals
        own = "france" if bidder == "french" else "allies" if players == 2 else bidder
        out.append((bidder, steps, target or own))
    return out


def moves_of(players: int, bidder: str, target: str) -> dict[str, str]:
    """The seats that change hands when ``bidder`` wins with a bid for ``target``: new seat -> the seat
    whose player takes it (empty when he bid for what he holds)."""
    mine, theirs = bidders(players)[bidder], target_seats(target)
    if set(mine) == set(theirs):
        return {}
    return {**{seat: mine[0] for seat in theirs}, **{seat: theirs[0] for seat in mine}}


def resolve_auction(state, orders: dict, chance) -> list[Event]:
    """Settle the sealed bids: ``state.bid`` gets the side that pays and its steps (with both sides'
    bids, for the reports, and the seats that change hands), ``state.auction`` is done. The French
    setup or the Allied one then pays it; the server moves the players first (ruleset.seat_moves)."""
    bids = bids_of(orders)
    missing = [s for seats in SIDE_SEATS.values() for s in seats if s not in orders or orders[s].bid is None]
    events = [Event("auction", said=say("No BID from this seat: it bids 0 (the default)."), owner=s) for s in missing]
    offers = player_bids(state.players, orders)
    france, allies = bids["france"], bids["allies"]
    parts = [say("The auction (§13): France bids %(france)s, the Allies %(allies)s.", france=france, allies=allies)]
    for bidder, steps, target in offers:
        if moves_of(state.players, bidder, target):
            parts.append(say("%(bidder)s's bid of %(steps)s is to play %(target)s.", bidder=SEAT_CAP_SAID[bidder],
                             steps=steps, target=TARGET_SAID[target]))
    top = max(steps for _, steps, _ in offers)
    # the outcomes of the highest bids, in seat order: equal bids that end alike need no coin
    ends: dict[tuple, tuple[str, str]] = {}
    for bidder, steps, target in offers:
        if steps == top:
            side = "france" if target == "france" else "allies"
            key = (tuple(sorted(moves_of(state.players, bidder, target).items())), side if top else None)
            ends.setdefault(key, (bidder, target))
    winners = list(ends.values())
    if len(winners) > 1:
        names = [end_name(state.players, *w) for w in winners]
        labels = ", ".join(f"{i} {n}" for i, n in enumerate(names, 1))
        coin = chance.roll(f"the coin of the auction: {labels} (§13)", sides=len(winners))
        bidder, target = winners[coin - 1]
        parts.append(say("A tie: the coin falls %(coin)s, for %(who)s.", coin=coin,
                         who=end_said(state.players, *winners[coin - 1])))
    else:
        bidder, target = winners[0]
    side = "france" if target == "france" else "allies"
    moves = moves_of(state.players, bidder, target)
    state.bid = {"side": side, "steps": top, "bids": bids}
    if moves:
        state.bid["moves"] = moves
        loser = next(b for b, seats in bidders(state.players).items() if target_seats(target)[0] in seats)
        parts.append(say("%(bidder)s wins the auction and plays %(target)s from now on, %(loser)s %(held)s in his "
                         "place.", bidder=SEAT_CAP_SAID[bidder], target=TARGET_SAID[target], loser=SEAT_SAID[loser],
                         held=TARGET_SAID["france" if bidder == "french" else bidder]))
    if top == 0:
        parts.append(say("Nobody bid a step: neither side sets up down."))
        events.append(Event("auction", "", {"bids": bids, **({"moves": moves} if moves else {})},
                            said=Join(parts, " ")))
    else:
        parts.append(say_plural("The French win the auction and set up %(num)s step down, one a block at most.",
                                "The French win the auction and set up %(num)s steps down, one a block at most.",
                                top) if side == "france" else
                     say_plural("The Allies win the auction and set up %(num)s step down, one a block at most.",
                                "The Allies win the auction and set up %(num)s steps down, one a block at most.",
                                top))
        events.append(Event("auction", "", {"bids": bids, "side": side, **({"moves": moves} if moves else {})},
                            said=Join(parts, " ")))
    state.auction = None
    return events


def end_name(players: int, bidder: str, target: str) -> str:
    """How the coin names one outcome: the side that wins, or the player who wins another side."""
    if not moves_of(players, bidder, target):
        return SIDE_NAME["france" if target == "france" else "allies"]
    return f"{SEAT_NAME[bidder]} (to play {TARGET_NAME[target]})"


def end_said(players: int, bidder: str, target: str):
    """``end_name`` as a Text, read in each language."""
    if not moves_of(players, bidder, target):
        return say("France") if target == "france" else say("the Allies")
    return say("%(player)s (to play %(target)s)", player=SEAT_SAID[bidder], target=TARGET_SAID[target])


def held_name(bidder: str) -> str:
    """What a bidder holds, as the auction's event names it."""
    return TARGET_NAME["france" if bidder == "french" else bidder]


def cap(text: str) -> str:
    return text[:1].upper() + text[1:]
