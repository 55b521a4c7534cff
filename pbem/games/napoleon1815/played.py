"""A battle round as the players play it: the orders of a round sub-turn (round_orders.py) carried
out block by block in each side's next part of the round, after its morale (§6.31) and before the
doctrine plays the blocks they leave unsaid (§6.3). Each order carried out, or no longer possible
when its part comes (its block gone, engaged or moved meanwhile), is recorded as a decision of the
seat's ("Choices made for you": your orders), and the report tells what it did.

The battle's own logic is battle.py's and combat.py's; this layer only moves the named blocks
as the rules let them (§6.32, §6.5, §7) and answers the doctrine's hooks: which blocks fire first
and at what (``firing_order``, ``aim``: §6.33, §6.51) and which blocks of a town join first
(``reinforcement_order``: §6.34)."""

from __future__ import annotations

from dataclasses import replace

from pbem.lang import say

from .battle import Fight
from .blocks import is_artillery, is_mounted
from .combat import OTHER
from .retreat import retreat_towns, rout_losses, withdraw
from .round_orders import own_loc
from .scenario import ARMY_SEAT
from .words import asked

DONE_SAID = (("yes", say("carried out")), ("no", say("no longer possible when its turn came")))


class PlayedFight(Fight):
    """A Fight whose seats gave their round's orders block by block (``plays``: seat -> Plays)."""

    def __init__(self, scenario, state, orders, decider, chance, events, battle_towns, plays=None):
        super().__init__(scenario, state, orders, decider, chance, events, battle_towns)
        self.plays = {seat: [replace(p, blocks=list(p.blocks)) for p in ps]  # carried out block by block: copies
                      for seat, ps in (plays or {}).items() if ps}
        self.fire_first: dict[str, str] = {}  # FIRE: block -> aim ("" for the doctrine's)
        self.held: set[str] = set()  # HOLD: blocks that stand this round
        self.called: list[str] = []  # REINFORCE: the blocks named, in order
        self.engaged_by_order: set = set()  # (town, role) whose part saw an ENGAGE or WITHDRAW carried out (§6.7)

    # -- the orders, in the side's part of the round

    def morale(self, battle, role):
        super().morale(battle, role)
        if not battle.over:
            self.carry_out(battle, role)

    def carry_out(self, battle, role) -> None:
        self.engaged_by_order.discard((battle.town, role))
        for bid in [bid for bid in (*self.fire_first, *self.held) if bid in battle.blocks
                    and battle.blocks[bid].role == role]:  # a FIRE or HOLD counts for one part
            self.fire_first.pop(bid, None)
            self.held.discard(bid)
        for seat, plays in self.plays.items():
            for play in plays:
                for bid in list(play.blocks):
                    b = battle.blocks.get(bid)
                    if play.verb == "REINFORCE":
                        if battle.sides[role] == self.side_of(bid) and bid not in self.called:
                            self.called.append(bid)
                        continue
                    if b is None or b.role != role:
                        continue
                    play.blocks.remove(bid)  # an order is carried out once, in the side's next part
                    done = getattr(self, f"do_{play.verb.lower()}")(battle, b, play)
                    if done and play.verb in ("ENGAGE", "WITHDRAW"):
                        self.engaged_by_order.add((battle.town, role))
                    self.record(seat, battle, role, play, bid, done)
                    if battle.over:
                        return

    def side_of(self, bid: str) -> str:
        from .blocks import ARMY_SIDE

        return ARMY_SIDE[self.sc.blocks[bid].army]

    def reinforce(self, battle, role) -> bool:
        came = super().reinforce(battle, role)
        for bid in [bid for bid in self.called if bid in battle.blocks and battle.blocks[bid].role == role]:
            self.called.remove(bid)  # a REINFORCE named block that joined: the seat's order carried out
            self.record(ARMY_SEAT[battle.blocks[bid].army], battle, role, None, bid, True)
        return came

    def record(self, seat, battle, role, play, bid, done: bool) -> None:
        verb = "FORM SQUARE" if play and play.verb == "FORM" else "BREAK SQUARE" if play and play.verb == "BREAK" \
            else play.verb if play else "REINFORCE"
        where = play.where if play and play.verb != "WITHDRAW" else \
            f"TO {self.sc.board.name(play.where)}" if play else ""
        order = f"{verb} {bid}" + (f" {where}" if where else "")
        question = say("Battle of %(town)s, round %(n)s: %(order)s", town=self.town(battle), n=battle.rounds[role],
                       order=order)
        self.decider.decide(asked(seat, "round", question, ("yes", "no"), ("no",), DONE_SAID),
                            ("yes" if done else "no",), source="orders")

    def ready(self, b) -> bool:
        return not b.moved and not b.fired and not b.square

    def do_engage(self, battle, b, play) -> bool:
        """§6.32 "Вступление в бой": into the enemy's position opposite (never diagonally)."""
        role = b.role
        if not self.ready(b) or not b.loc.startswith(role) or self.engaged(battle, b) or b.type == "foot_artillery":
            return False
        theirs = f"{OTHER[role]}{b.loc[3]}"
        if battle.terrain.get(theirs) == "woods" and b.type == "horse_artillery":
            return False
        if "stream" in (battle.terrain.get(b.loc), battle.terrain.get(theirs)):
            if b.type == "horse_artillery" or battle.crossings[(role, b.loc[3])] >= 2:
                return False
            battle.crossings[(role, b.loc[3])] += 1
        first = not self.at(battle, theirs, role)
        for o in self.at(battle, theirs, OTHER[role]) if first else ():  # canister (§6.33)
            if is_artillery(o.type):
                o.fresh = True
        b.loc, b.moved, b.fresh = theirs, True, True
        self.say(battle, say("%(block)s engages %(where)s (your order).", block=self.name(b), where=self.where(theirs)))
        self.check_rout(battle)
        return True

    def do_disengage(self, battle, b, play) -> bool:
        """§6.32 "Выход из боя": back out of the enemy, never forward."""
        if not self.ready(b) or not self.engaged(battle, b):
            return False
        self.disengage(battle, b)
        if b.id in battle.blocks:
            self.say(battle, say("%(block)s leaves the fight for %(where)s (your order).", block=self.name(b),
                                 where=self.where(b.loc)))
        self.check_rout(battle)
        return True

    def do_shift(self, battle, b, play) -> bool:
        """§6.32 "Передислокация": within one's own side; from one position to another only through the
        reserve, two moves, which cavalry, horse artillery and leaders make."""
        to = own_loc(b.role, play.where)
        lateral = not b.loc.startswith("res") and not to.startswith("res")
        if (not self.ready(b) or self.engaged(battle, b) or not b.loc.startswith(("res", b.role)) or to == b.loc
                or lateral and not (is_mounted(b.type) or b.type == "leader")
                or is_artillery(b.type) and battle.terrain.get(to) == "woods"):
            return False
        b.loc, b.moved = to, True
        self.say(battle, say("%(block)s moves to %(where)s (your order).", block=self.name(b), where=self.where(to)))
        return True

    def do_fire(self, battle, b, play) -> bool:
        """§6.33: fires first, in the order written, at the group named (§6.51)."""
        self.fire_first[b.id] = play.where
        return True

    def do_hold(self, battle, b, play) -> bool:
        """The block stands this round: it neither fires (§6.33) nor moves (a reserve block is not
        committed by the doctrine this round)."""
        if b.moved or b.fired:
            return False
        self.held.add(b.id)
        b.moved = True
        return True

    def do_form(self, battle, b, play) -> bool:
        """§6.5: infantry forms square in one of its own positions, not in woods or on a farm."""
        if (not self.ready(b) or b.type != "infantry" or not b.loc.startswith(b.role)
                or battle.terrain.get(b.loc) in ("woods", "farm")):
            return False
        b.square, b.moved = True, True
        self.say(battle, say("%(block)s forms square (§6.5, your order).", block=self.name(b)))
        return True

    def do_break(self, battle, b, play) -> bool:
        if not b.square or b.moved or b.fired:
            return False
        b.square, b.moved = False, True
        self.say(battle, say("%(block)s leaves its square (§6.5, your order).", block=self.name(b)))
        return True

    def do_withdraw(self, battle, b, play) -> bool:
        """§7: a block that has not moved or fired leaves the battle by road to the town named, within
        the round's 2/1 a road (§7.2); an engaged block takes its rout losses (§7.41)."""
        towns = retreat_towns(self.sc, self.st, battle.town, battle.sides[b.role], b.role == "att", battle.entries,
                              self.towns)
        if not self.ready(b) or play.where not in towns:
            return False
        road = self.sc.board.road(battle.town, play.where)
        if battle.round_roads[play.where] >= self.sc.battle_road[road.kind]:
            return False
        if self.engaged(battle, b):
            met = b.type == "cavalry" and any(o.role != b.role and o.type == "cavalry" for o in self.at(battle, b.loc))
            rout_losses(self.sc, self.st, [b.id], {b.id} if met else set(), self.told(battle))
        if self.st.blocks[b.id].town is not None:
            withdraw(self.sc, self.st, [b.id], [play.where], battle.town, battle.round_roads, self.told(battle),
                     "withdrawal")
        battle.blocks.pop(b.id, None)
        self.end_if_empty(battle)
        self.check_rout(battle)
        return True

    # -- the doctrine's hooks

    def move(self, battle, role, n) -> bool:
        """The doctrine's combat movement; an engagement or a withdrawal ordered in this part counts as
        the side's activity too (§6.7: «отказывается стрелять, входить в бой или отступать»)."""
        acted = super().move(battle, role, n)
        return acted or (battle.town, role) in self.engaged_by_order

    def firing_order(self, battle, role, shooters: list) -> list:
        named = [b for bid in self.fire_first for b in shooters if b.id == bid]
        return named + [b for b in shooters if b not in named and b.id not in self.held]

    def aim(self, battle, b, squares: list, plain: list) -> list:
        wanted = {"SQUARE": squares, "LINE": plain}.get(self.fire_first.get(b.id, ""))
        return wanted if wanted else super().aim(battle, b, squares, plain)

    def reinforcement_order(self, blk):
        named = blk.id in self.called
        return (not named, self.called.index(blk.id) if named else 0, -blk.strength, blk.id)

