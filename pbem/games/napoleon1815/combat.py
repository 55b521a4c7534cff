"""§6.3 The battle round's actions: morale (§6.31), combat movement (§6.32), fire
(§6.33), losses (§6.4) and squares (§6.5), as the doctrine plays them.

A mixin of :class:`pbem.games.napoleon1815.battle.Fight`, which holds the board and
the helpers these use (``at``, ``engaged``, ``strength``, ``say``, ``doctrine``).
"""

from __future__ import annotations

from pbem.lang import say, say_plural

from .blocks import is_artillery, is_mounted
from .losses import victim
from .movement import eliminate
from .words import MARKER_SAID

POSITION = {0: "left", 1: "centre", 2: "right"}
OTHER = {"att": "def", "def": "att"}


WINS = {("att", "france"): lambda town: say("Battle of %(town)s is over: the attacker (French) wins.", town=town),
        ("att", "allies"): lambda town: say("Battle of %(town)s is over: the attacker (Allied) wins.", town=town),
        ("def", "france"): lambda town: say("Battle of %(town)s is over: the defender (French) wins.", town=town),
        ("def", "allies"): lambda town: say("Battle of %(town)s is over: the defender (Allied) wins.", town=town)}
HOLDS = {("att", "france"): lambda town: say("Battle of %(town)s is over: the attacker (French) holds the field.",
                                             town=town),
         ("att", "allies"): lambda town: say("Battle of %(town)s is over: the attacker (Allied) holds the field.",
                                             town=town),
         ("def", "france"): lambda town: say("Battle of %(town)s is over: the defender (French) holds the field.",
                                             town=town),
         ("def", "allies"): lambda town: say("Battle of %(town)s is over: the defender (Allied) holds the field.",
                                             town=town)}


class RoundActions:
    def morale(self, battle, role):
        for b in sorted(battle.blocks.values(), key=lambda b: b.id):
            if b.role != role or b.id not in battle.blocks or not self.engaged(battle, b):
                continue
            if self.sheltered(battle, b):
                continue  # §6.52: sheltered blocks take no morale test
            if self.strength(b.id) != 1:
                continue
            friends = [o for o in self.at(battle, b.loc, role) if o.id != b.id]
            if b.type == "leader" and friends:
                continue  # §9.2: a leader tests only when alone in its position
            bonus = 1 if b.square else 0
            if b.type == "leader" or any(o.type == "leader" and o.army == b.army for o in friends):
                bonus += 1
            die = self.chance.roll(f"morale of {b.id}, battle of {self.sc.board.name(battle.town)}",
                                    seen_by=self.witnessed(battle))
            values = dict(block=self.name(b), die=f"{die}{' +' + str(bonus) if bonus else ''}")
            if die + bonus >= 4:
                self.say(battle, say("Morale of %(block)s: die %(die)s: good.", **values))
                continue
            if b.square or b.type == "foot_artillery":
                self.say(battle, say("Morale of %(block)s: die %(die)s: bad; it is destroyed (§6.31).", **values))
                self.kill(battle, b, say("bad morale (§6.31)"))
            else:
                self.say(battle, say("Morale of %(block)s: die %(die)s: bad; it must leave the fight (§6.31).",
                                     **values))
                self.disengage(battle, b)
            if self.check_rout(battle):
                return

    def disengage(self, battle, b):
        back = f"{b.role}{b.loc[3]}" if not b.loc.startswith(b.role) else f"res-{b.role}"
        if battle.terrain.get(f"att{b.loc[3]}") == "stream" or battle.terrain.get(f"def{b.loc[3]}") == "stream":
            if not back.startswith("res"):
                if battle.crossings[(b.role, b.loc[3])] >= 2:
                    self.kill(battle, b, say("it cannot cross the stream (§6.21)"))
                    return
                battle.crossings[(b.role, b.loc[3])] += 1
        b.loc, b.moved, b.fresh, b.square = back, True, False, False

    def squares(self, battle, role) -> bool:
        if self.doctrine(battle, role, "SQUARE") != "YES":
            return False
        acted = False
        for b in sorted(battle.blocks.values(), key=lambda b: b.id):
            if b.role != role or b.type != "infantry" or b.moved or b.square or not b.loc.startswith(role):
                continue  # never in the reserve, nor in the enemy's three positions (§6.5)
            if battle.terrain.get(b.loc) == "woods" or self.farm_holder(battle, b):
                continue  # not in woods, nor the block on the farm: the farm is one unit's (§6.21)
            if any(o.role != role and o.type == "cavalry" for o in self.at(battle, b.loc)):
                b.square, b.moved, acted = True, True, True
                self.say(battle, say("%(block)s forms square (§6.5).", block=self.name(b)))
        if self.doctrine(battle, role, "SHELTER") == "YES":
            self.shelter(battle, role)
        return acted

    def sheltered(self, battle, b) -> bool:
        """Whether ``b`` shelters in a square that still stands by it (§6.52)."""
        square = battle.blocks.get(b.shelter) if b.shelter else None
        return square is not None and square.square and square.loc == b.loc

    def shelter(self, battle, role) -> None:
        """§6.52: leaders and artillery that have not moved or fired this round shelter in the
        squares of their position, one a square (the leader first, then by id)."""
        for b in sorted(battle.blocks.values(), key=lambda b: (b.type != "leader", b.id)):
            if (b.role != role or b.moved or b.fired or self.sheltered(battle, b)
                    or not (b.type == "leader" or is_artillery(b.type)) or b.loc.startswith("res")):
                continue
            taken = {o.shelter for o in battle.blocks.values() if self.sheltered(battle, o)}
            free = sorted(o.id for o in self.at(battle, b.loc, role) if o.square and o.id not in taken)
            if free:
                b.shelter = free[0]
                self.say(battle, say("%(block)s shelters in the square of %(square)s (§6.52).", block=self.name(b),
                                     square=free[0]))

    def may_hold(self, b, marker) -> bool:
        """§6.21: a farm holds one infantry block, a hill one artillery block."""
        return b.type == "infantry" if marker == "farm" else is_artillery(b.type)

    def occupy(self, battle, role) -> bool:
        """§6.21: a farm or hill whose block is gone is taken — or retaken — by a block of the
        right type standing in its position that has not moved or fired this round; it spends
        its combat turn on it (the OCCUPY doctrine, default YES)."""
        if self.doctrine(battle, role, "OCCUPY") != "YES":
            return False
        acted = False
        for loc, marker in sorted(battle.terrain.items()):
            if marker not in ("farm", "hill"):
                continue
            held = battle.blocks.get(battle.occupant.get(loc) or "")
            if held is not None and held.loc == loc:
                continue
            ready = sorted(b.id for b in self.at(battle, loc, role) if self.may_hold(b, marker) and not b.moved
                           and not b.fired and not b.square and not self.sheltered(battle, b))
            if not ready:
                battle.occupant[loc] = None
                continue
            b = battle.blocks[ready[0]]
            battle.occupant[loc], b.moved, acted = b.id, True, True
            values = dict(block=self.name(b), marker=MARKER_SAID[marker], where=self.where(loc))
            self.say(battle, say("%(block)s takes the %(marker)s on %(where)s (§6.21).", **values) if loc[:3] != role
                     else say("%(block)s occupies the %(marker)s on %(where)s (§6.21).", **values))
        return acted

    def fire(self, battle, role, moved_once=()) -> bool:
        """The side's blocks fire (§6.33); ``moved_once``: horse artillery that may fire after its one move."""
        acted = False
        shooters = self.firing_order(battle, role, sorted(
            (b for b in battle.blocks.values() if b.role == role and not b.loc.startswith("res")
             and not self.sheltered(battle, b) and (not moved_once or b.id in moved_once)),
            key=lambda b: (self.sc.blocks[b.id].letter, b.id)))
        for b in shooters:
            if b.id not in battle.blocks or (b.moved and b.id not in moved_once) or b.fired or battle.over:
                continue
            spec = self.sc.blocks[b.id]
            if self.engaged(battle, b):
                target_loc, long = b.loc, False
            elif is_artillery(b.type) and b.loc.startswith(role):
                target_loc, long = f"{OTHER[role]}{b.loc[3]}", True
                if not self.at(battle, target_loc, OTHER[role]) or self.at(battle, target_loc, role):
                    continue  # nothing to hit, or friends engaged there (rules notes)
                if battle.terrain.get(target_loc) == "woods":
                    continue
            else:
                continue
            enemies = [o for o in self.at(battle, target_loc) if o.role != role]
            squares = [o for o in enemies if o.square or self.sheltered(battle, o)]  # §6.51-6.52
            plain = [o for o in enemies if o not in squares]
            group = self.aim(battle, b, squares, plain)
            at_square = bool(squares) and group is squares  # the square group, whoever shelters in it (§6.52)
            if b.type == "cavalry" and battle.terrain.get(target_loc) == "farm":
                group = [o for o in group if not self.farm_holder(battle, o)]
            if not group:
                continue
            value = spec.firepower
            woods = battle.terrain.get(b.loc) == "woods"
            if b.type == "cavalry":
                if woods:
                    value = 1
                elif at_square:
                    value -= 1
                elif b.fresh:
                    value += 1
            elif b.type == "infantry":
                value += 1 if self.farm_holder(battle, b) else 0
                value += 1 if at_square else 0
            elif is_artillery(b.type):
                if long:
                    value += 1 if at_square else 0
                    if battle.terrain.get(b.loc) == "hill" and self.hill_holder(battle, b):
                        value += 1
                elif b.fresh:
                    value += 1
            value = max(0, min(6, value))
            b.fired, b.fresh, acted = True, False, True
            if value == 0:
                continue
            dice = [self.chance.roll(f"{b.id} fires, battle of {self.sc.board.name(battle.town)}",
                                    seen_by=self.witnessed(battle))
                    for _ in range(self.strength(b.id))]
            hits = sum(1 for d in dice if d <= value)
            values = dict(block=self.name(b), where=self.where(target_loc), value=value,
                          dice=" ".join(map(str, dice)))
            self.say(battle, say_plural("%(block)s fires at long range at %(where)s (hits on %(value)s or less): "
                                        "%(dice)s: %(num)s hit.",
                                        "%(block)s fires at long range at %(where)s (hits on %(value)s or less): "
                                        "%(dice)s: %(num)s hits.", hits, **values) if long else
                     say_plural("%(block)s fires at %(where)s (hits on %(value)s or less): %(dice)s: %(num)s hit.",
                                "%(block)s fires at %(where)s (hits on %(value)s or less): %(dice)s: %(num)s hits.",
                                hits, **values))
            for _ in range(hits):
                group = [o for o in group if o.id in battle.blocks]
                if not group:
                    break
                self.hit(battle, group, can_kill=not long)
                if self.check_rout(battle):
                    return True
        return acted

    def firing_order(self, battle, role, shooters: list) -> list:
        """The blocks that may fire, in the order they fire (§6.33: "в любом порядке по выбору
        игрока"); the doctrine's: by fire letter, then id (played.py puts a player's FIRE first)."""
        return shooters

    def aim(self, battle, b, squares: list, plain: list) -> list:
        """The group ``b`` fires at where the enemy has squares and blocks not in square (§6.51): the
        doctrine's cavalry the line, the others the squares (played.py: a player's FIRE ... SQUARE|LINE)."""
        return (plain or squares) if b.type == "cavalry" else (squares or plain)

    def farm_holder(self, battle, b):
        """The block on the farm (§6.21): it fires +1, and cavalry hits cannot fall on it."""
        return battle.terrain.get(b.loc) == "farm" and battle.occupant.get(b.loc) == b.id

    def hill_holder(self, battle, b):
        """The block on the hill (§6.21): +1 at long range."""
        return battle.terrain.get(b.loc) == "hill" and battle.occupant.get(b.loc) == b.id

    def hit(self, battle, group, can_kill=True):
        bid = victim(self.sc, self.st, self.decider, [o.id for o in group],
                     say("Battle of %(town)s", town=self.town(battle)), self.orders)
        victim_block, top = battle.blocks[bid], self.strength(bid)
        if top == 1 and not can_kill:
            self.say(battle, say("The hit on %(block)s is lost: long-range artillery cannot eliminate (§6.4).",
                                 block=self.name(victim_block)))
            return
        block = self.st.blocks[bid]
        block.strength -= 1
        if block.strength <= 0:
            block.strength = 1
            self.kill(battle, victim_block, say("hit in battle (§6.4)"))
        else:
            self.say(battle, say("%(block)s takes a hit: strength %(strength)s.", block=bid, strength=block.strength))

    def kill(self, battle, b, why):
        inside = [o for o in battle.blocks.values() if o.shelter == b.id and self.sheltered(battle, o)]
        battle.blocks.pop(b.id, None)
        eliminate(self.st, b.id, self.told(battle), why)
        for o in inside:  # §6.52: the square's destruction destroys the block sheltering in it
            battle.blocks.pop(o.id, None)
            eliminate(self.st, o.id, self.told(battle), say("its square (%(square)s) was destroyed (§6.52)",
                                                            square=b.id))
        self.end_if_empty(battle)

    def end_if_empty(self, battle):
        for role in ("att", "def"):
            if not battle.over and self.count(battle, role) == 0:
                battle.over, battle.winner = True, OTHER[role]
                self.say(battle, HOLDS[(OTHER[role], battle.sides[OTHER[role]])](self.town(battle)), public=True)

    def committed(self, battle, role) -> bool:
        """The reserve blocks a player sent in by name between two rounds (COMMIT), before the doctrine."""
        acted = False
        for bid, i in sorted(battle.commits.items()):
            b = battle.blocks.get(bid)
            if b is None or b.role != role:
                continue
            del battle.commits[bid]
            loc = f"{role}{i}"
            if b.loc.startswith("res") and not b.moved and not b.fired and not (
                    is_artillery(b.type) and battle.terrain.get(loc) == "woods"):
                b.loc, b.moved, acted = loc, True, True
                b.steps = 1
                self.say(battle, say("%(block)s goes in from the reserve to %(where)s (COMMIT).", block=self.name(b),
                                     where=self.where(loc)))
        return acted

    def move(self, battle, role, n) -> bool:
        """Reserve blocks go in to their own positions, then blocks engage; True when a block
        engaged (a move behind one's own line is no activity against a stalemate, §6.7)."""
        self.committed(battle, role)
        acted = False
        commit = n >= int(self.doctrine(battle, role, "COMMIT"))
        for b in sorted(battle.blocks.values(), key=lambda b: b.id):
            if b.role != role or not b.loc.startswith("res") or b.moved or b.fired:
                continue
            empty = [i for i in range(3) if not self.at(battle, f"{role}{i}", role)]
            if not (commit or empty):
                continue
            choices = [i for i in (empty or range(3))
                       if not (is_artillery(b.type) and battle.terrain.get(f"{role}{i}") == "woods")]
            if not choices:
                continue
            i = min(choices, key=lambda i: (len(self.at(battle, f"{role}{i}", role)), abs(i - 1)))
            b.loc, b.moved = f"{role}{i}", True
            b.steps = 1
        attack = self.doctrine(battle, role, "ATTACK")
        attack = (role == "att") if attack == "AUTO" else attack == "YES"
        for i in range(3):
            own, theirs = f"{role}{i}", f"{OTHER[role]}{i}"
            enemies = self.at(battle, theirs, OTHER[role])
            here = sorted((b for b in self.at(battle, own, role)
                           if b.type in ("infantry", "cavalry", "horse_artillery") and not b.fired and not b.square
                           and not self.sheltered(battle, b)
                           and (self.strength(b.id) > 1 or not enemies)
                           and not self.engaged(battle, b) and (not b.moved or self.second_step(battle, b))),
                          key=lambda b: (b.type != "cavalry", -self.strength(b.id), b.id))
            if not here or not (attack or not enemies):
                continue
            stream = "stream" in (battle.terrain.get(own), battle.terrain.get(theirs))
            stay = len(self.at(battle, own, role)) - len(here)
            # Engage with every block when the enemy is there (its blocks, engaged, cannot step
            # into the position left empty); into an empty enemy position keep one block back.
            go = here if (enemies or stay > 0) else here[:-1]
            for b in go:
                if battle.terrain.get(theirs) == "woods" and b.type == "horse_artillery":
                    continue
                if stream:
                    if b.type == "horse_artillery" or battle.crossings[(role, str(i))] >= 2:
                        continue
                    battle.crossings[(role, str(i))] += 1
                first = not self.at(battle, theirs, role)
                b.loc, b.moved, b.fresh, acted = theirs, True, True, True
                b.steps = getattr(b, "steps", 0) + 1
                for o in enemies if first else ():  # canister: +1 on the first fire at close range (§6.33)
                    if is_artillery(o.type):
                        o.fresh = True
                self.say(battle, say("%(block)s engages %(where)s.", block=self.name(b),
                                     where=self.where(theirs)))
                if self.check_rout(battle):
                    return True
        self.horse_artillery_fires(battle, role)
        for b in battle.blocks.values():
            if hasattr(b, "steps"):
                del b.steps
        return acted

    def second_step(self, battle, b) -> bool:
        """Whether ``b``, in from the reserve this round, may step on (§6.32: mounted blocks move
        twice), unless it is cavalry that has just entered woods, which must stop there (§6.21)."""
        return (is_mounted(b.type) and getattr(b, "steps", 0) == 1
                and not (b.type == "cavalry" and battle.terrain.get(b.loc) == "woods"))

    def horse_artillery_fires(self, battle, role) -> None:
        """§6.32: horse artillery that moved one position this round, and has not fired, fires
        after its move (at short range with canister if it engaged, §6.33)."""
        once = [b.id for b in battle.blocks.values()
                if b.role == role and b.type == "horse_artillery" and getattr(b, "steps", 0) == 1 and not b.fired]
        if once and not battle.over:
            self.fire(battle, role, once)
