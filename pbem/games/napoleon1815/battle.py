"""§6 Combat: the battle board (§6.2), terrain (§6.21), deployment (§6.22-6.24), battle
rounds of morale, combat and reinforcement (§6.3), losses (§6.4), squares (§6.5),
stalemate (§6.7), with retreat and rout (§7) from retreat.py.

In the doctrine mode (docs/rules-notes.md ("Napoleon 1815"), "battles by mail") each
seat's standing DOCTRINE orders play its side of the whole battle; the choices the
rules leave to a player outside his own turn (terrain placement, ties among equally
strong blocks, retreat towns) go through the Decider, so a player may ask to be asked.

The board: each side has three positions, 0, 1 and 2 from the attacker's left (the
attacker's left faces the defender's right), and a reserve. A location is
"att0".."att2", "def0".."def2" (a side's own positions) or "res-att"/"res-def".
A block standing in a location that holds enemy blocks is engaged.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field

from pbem.core.events import Event
from pbem.lang import say, say_plural

from .blocks import ARMY_SIDE
from .combat import OTHER, POSITION, WINS, RoundActions
from .deployment import Deployment
from .movement import eliminate
from .retreat import choose_towns, rout_losses, withdraw
from .scenario import ARMY_SEAT, SEATS
from .sight import Told, seats_seeing
from .skirmish import first
from .words import MARKER_SAID, POSITION_SAID, TYPE_SAID, Place, asked

WHERE_SAID = {("att", "left"): say("the attacker's left"), ("att", "centre"): say("the attacker's centre"),
              ("att", "right"): say("the attacker's right"), ("def", "left"): say("the defender's left"),
              ("def", "centre"): say("the defender's centre"), ("def", "right"): say("the defender's right")}



@dataclass
class BB:
    """A block on the battle board."""

    id: str
    role: str  # "att" or "def"
    army: str
    type: str
    loc: str
    moved: bool = False
    fired: bool = False
    fresh: bool = False  # entered an enemy location and has not fired since (shock, canister)
    square: bool = False
    shelter: str | None = None  # the square this leader or artillery block shelters in (§6.52)


@dataclass
class Battle:
    town: str
    sides: dict[str, str]  # role -> side ("france"/"allies")
    entries: set[str]
    blocks: dict[str, BB] = field(default_factory=dict)
    terrain: dict[str, str] = field(default_factory=dict)  # location -> marker
    rounds: Counter = field(default_factory=Counter)
    start: dict[str, int] = field(default_factory=dict)
    idle: int = 0
    over: bool = False
    winner: str | None = None  # role
    retreat_to: dict[str, list[str]] = field(default_factory=dict)
    round_roads: Counter = field(default_factory=Counter)
    crossings: Counter = field(default_factory=Counter)
    reinforced: bool = False
    withdrawing: set = field(default_factory=set)  # roles that must leave the field (§6.7)
    stand: set = field(default_factory=set)  # roles whose player chose to fight on below the WITHDRAW line
    witnesses: set = field(default_factory=set)  # the seats told of it (sight.py): who sees an army in it
    asked: set = field(default_factory=set)  # the triggers already put to a seat (a battle asks each once)
    occupant: dict = field(default_factory=dict)  # farm/hill location -> the block on the marker, or None
    commits: dict = field(default_factory=dict)  # COMMIT between two rounds: reserve block -> position 0-2

    def to_dict(self) -> dict:
        """The battle as plain data, to wait in the position between two rounds (a sub-turn)."""
        return {"town": self.town, "sides": dict(self.sides), "entries": sorted(self.entries),
                "blocks": {bid: {"id": b.id, "role": b.role, "army": b.army, "type": b.type, "loc": b.loc,
                                 "moved": b.moved, "fired": b.fired, "fresh": b.fresh, "square": b.square,
                                 "shelter": b.shelter}
                           for bid, b in sorted(self.blocks.items())},
                "terrain": dict(self.terrain), "rounds": dict(self.rounds), "start": dict(self.start),
                "idle": self.idle, "over": self.over, "winner": self.winner,
                "retreat_to": {r: list(t) for r, t in self.retreat_to.items()},
                "reinforced": self.reinforced, "withdrawing": sorted(self.withdrawing),
                "stand": sorted(self.stand), "witnesses": sorted(self.witnesses), "asked": sorted(self.asked),
                "occupant": dict(self.occupant), "commits": dict(self.commits)}

    @classmethod
    def from_dict(cls, d: dict) -> "Battle":
        battle = cls(d["town"], dict(d["sides"]), set(d["entries"]), terrain=dict(d["terrain"]))
        battle.blocks = {bid: BB(**b) for bid, b in d["blocks"].items()}
        battle.rounds, battle.start = Counter(d["rounds"]), dict(d["start"])
        battle.idle, battle.over, battle.winner = d["idle"], d["over"], d["winner"]
        battle.retreat_to = {r: list(t) for r, t in d["retreat_to"].items()}
        battle.reinforced = d["reinforced"]
        battle.withdrawing, battle.stand = set(d["withdrawing"]), set(d["stand"])
        battle.witnesses, battle.asked = set(d["witnesses"]), set(d["asked"])
        battle.occupant, battle.commits = dict(d["occupant"]), dict(d.get("commits", {}))
        return battle


class Fight(Deployment, RoundActions):
    """The battles of one turn, fought round by round together (§2.2)."""

    def __init__(self, scenario, state, orders, decider, chance, events, battle_towns):
        self.sc, self.st, self.orders, self.decider, self.chance = scenario, state, orders, decider, chance
        self.events = events
        self.towns = set(battle_towns)

    # -- helpers

    def say(self, battle, text, public=False, **data):
        """A line of the battle's narrative (a Text), told to its witnesses (``public``: to every
        seat, for what the map shows anyway: that a battle is fought there, and who won it)."""
        if public:
            self.events.append(Event("battle", data=data, owner=self.witnessed(battle), said=text, seen_said=text))
        else:
            self.told(battle).append(Event("battle", data=data, said=text))

    def told(self, battle) -> Told:
        """The sink of the battle's events: told to the seats that see an army in it (§12)."""
        return Told(self.events, battle.witnesses)

    def witnessed(self, battle) -> tuple[str, ...]:
        return tuple(s for s in SEATS if s in battle.witnesses)

    def watch(self, battle) -> None:
        """The seats that see an army with blocks in the battle become its witnesses."""
        battle.witnesses |= set(seats_seeing(self.st.players, {b.army for b in battle.blocks.values()}))

    def seat(self, army):
        return ARMY_SEAT[army]

    def doctrine(self, battle, role, key):
        side = battle.sides[role]
        seats = [s for s in ("french", "anglo-dutch", "prussian")
                 if (s == "french") == (side == "france")]
        for s in seats:
            o = self.orders.get(s)
            if o is not None and key in o.doctrine:
                return o.doctrine[key]
        from .orders import DOCTRINE

        return DOCTRINE[key][0]

    def first_seat(self, battle, role):
        armies = sorted({b.army for b in battle.blocks.values() if b.role == role}) or (
            ["french"] if battle.sides[role] == "france" else ["anglo"])
        return self.seat("french" if "french" in armies else armies[0])

    def at(self, battle, loc, role=None):
        return [b for b in battle.blocks.values() if b.loc == loc and (role is None or b.role == role)]

    def engaged(self, battle, b):
        return not b.loc.startswith("res") and any(o.role != b.role for o in self.at(battle, b.loc))

    def strength(self, bid):
        return self.st.blocks[bid].strength

    def side_strength(self, battle, role):
        return sum(self.strength(b.id) for b in battle.blocks.values() if b.role == role)

    def name(self, b):
        spec = self.sc.blocks[b.id]
        return say("%(block)s (%(type)s %(strength)s, %(fire)s)", block=b.id, type=TYPE_SAID[spec.type],
                   strength=self.strength(b.id), fire=spec.fire)

    def town(self, battle) -> Place:
        return Place(self.sc.board.name(battle.town))

    def where(self, loc):
        if loc.startswith("res"):
            return say("the reserve")
        i = int(loc[3])
        side = i if loc.startswith("att") else 2 - i
        return WHERE_SAID[(loc[:3], POSITION[side])]

    # -- the start of a battle: terrain and deployment (§6.21-6.23)

    def open(self, town, attacker_side, entries, deployments: dict | None = None) -> Battle:
        """A battle begun, terrain placed and both sides deployed (by ``deployments``, role ->
        block -> position 0-2 or None for the reserve, else by doctrine)."""
        battle = self.begin(town, attacker_side, entries)
        self.deploy_all(battle, deployments)
        return battle

    def deploy_all(self, battle, deployments: dict | None = None) -> None:
        for role in ("def", "att"):
            given = (deployments or {}).get(role)
            if given:
                self.deploy_given(battle, role, given)
            else:
                self.deploy(battle, role)
        for role in ("att", "def"):
            battle.start[role] = self.side_strength(battle, role)
        for loc, marker in sorted(battle.terrain.items()):  # the marker is put on a block (§6.21)
            if marker in ("farm", "hill"):
                held = sorted(b.id for b in self.at(battle, loc, loc[:3]) if self.may_hold(b, marker))
                battle.occupant[loc] = held[0] if held else None

    def resume(self, town, sides: dict, entries, terrain: dict) -> Battle:
        """A battle paused before deployment (a sub-turn), from its saved form."""
        battle = Battle(town, dict(sides), set(entries), terrain=dict(terrain))
        for role, side in battle.sides.items():
            for blk in self.st.side_at(town, side):
                spec = self.sc.blocks[blk.id]
                battle.blocks[blk.id] = BB(blk.id, role, blk.army, spec.type, f"res-{role}")
        self.watch(battle)
        return battle

    def begin(self, town, attacker_side, entries) -> Battle:
        """§6.2-6.21: the blocks go to the battle board (all in reserve) and the terrain is drawn."""
        defender_side = "allies" if attacker_side == "france" else "france"
        battle = Battle(town, {"att": attacker_side, "def": defender_side}, set(entries))
        for role, side in battle.sides.items():
            for blk in self.st.side_at(town, side):
                spec = self.sc.blocks[blk.id]
                battle.blocks[blk.id] = BB(blk.id, role, blk.army, spec.type, f"res-{role}")
        self.watch(battle)
        place, att, dfd = Place(self.sc.board.name(town)), self.count(battle, "att"), self.count(battle, "def")
        # each count chooses its own plural: the defenders as a Text of their own
        self.say(battle, say_plural("Battle of %(town)s: %(num)s French block attacks %(dfd)s.",
                                    "Battle of %(town)s: %(num)s French blocks attack %(dfd)s.", att, town=place,
                                    dfd=say_plural("%(num)s Allied block", "%(num)s Allied blocks", dfd))
                 if attacker_side == "france" else
                 say_plural("Battle of %(town)s: %(num)s Allied block attacks %(dfd)s.",
                            "Battle of %(town)s: %(num)s Allied blocks attack %(dfd)s.", att, town=place,
                            dfd=say_plural("%(num)s French block", "%(num)s French blocks", dfd)),
                 public=True, town=town)
        pool = list(self.sc.markers)
        for role, n in (("att", 1), ("def", 2)):
            for _ in range(n):
                if not pool:
                    break
                k = self.chance.roll(f"terrain draw, battle of {self.sc.board.name(town)}", sides=len(pool),
                                     seen_by=self.witnessed(battle))
                marker = pool.pop(k - 1)
                # the side's own sections (0 its left) still bare: the defender's left is board position 2
                free = [i for i in (1, 0, 2) if f"{role}{i if role == 'att' else 2 - i}" not in battle.terrain]
                labels = tuple((POSITION[i], POSITION_SAID[POSITION[i]]) for i in free)
                seat = self.first_seat(battle, role)
                standing = self.orders.get(seat)
                wanted = (standing.terrain.get(marker, "") if standing is not None else "").lower()
                question = say("Where do you place the %(marker)s (battle of %(town)s)?",
                               marker=MARKER_SAID.get(marker, marker), town=Place(self.sc.board.name(town)))
                got = self.decider.decide(asked(seat, "terrain", question, tuple(POSITION[i] for i in free),
                                                (POSITION[free[0]],), labels),
                                          (wanted,) if wanted in (POSITION[i] for i in free) else None,
                                          source="standing")
                i = {v: k for k, v in POSITION.items()}[got[0]]
                loc = f"{role}{i if role == 'att' else 2 - i}"
                battle.terrain[loc] = marker
                values = dict(marker=MARKER_SAID.get(marker, marker), where=self.where(loc))
                self.say(battle, say("The attacker places %(marker)s on %(where)s.", **values) if role == "att" else
                         say("The defender places %(marker)s on %(where)s.", **values))
        return battle

    def count(self, battle, role):
        return sum(1 for b in battle.blocks.values() if b.role == role)

    # -- rounds

    def fight(self, battles: list[Battle], pause=None) -> bool:
        """Fight ``battles`` round by round to their ends (§2.2: a round in each battle in turn,
        the attacker's then the defender's). ``pause(fight, battles, battle, role)`` is asked
        before each round (``battle`` None) and before each side's part of it; returning True
        stops the fight there — a sub-turn — and this returns True: the battles wait, saved
        with ``Battle.to_dict``, and a later call goes on where they stopped (each battle's
        ``rounds`` says which part is next; a pause asks each question once, Battle.asked)."""
        done: set[str] = {b.town for b in battles if b.over}
        while any(not b.over for b in battles):
            n = 1 + min(b.rounds["def"] for b in battles if not b.over)  # the round being fought
            if pause is not None and pause(self, battles, None, None):
                return True
            for battle in battles:
                for role in ("att", "def"):
                    if battle.over or battle.rounds[role] >= n:
                        continue
                    if pause is not None and pause(self, battles, battle, role):
                        return True
                    self.round(battle, role)
                if battle.over and battle.town not in done:
                    done.add(battle.town)
                    self.towns.discard(battle.town)
                    self.regroup(battle)
                if not battle.over and battle.rounds["att"] >= self.sc.max_battle_rounds:
                    self.say(battle, say("Battle of %(town)s: still open after %(n)s rounds; the attacker leaves at "
                                         "once (§6.7, rules notes).", town=self.town(battle), n=battle.rounds["att"]),
                             public=True)
                    self.rout(battle, "att", stalemate=True)
        return False

    def round(self, battle, role):
        battle.rounds[role] += 1
        n = battle.rounds[role]
        battle.round_roads = Counter()
        battle.crossings = Counter()
        for b in battle.blocks.values():
            if b.role == role:
                b.moved = b.fired = False
        self.say(battle, say("Battle of %(town)s, round %(n)s of the attacker.", town=self.town(battle), n=n)
                 if role == "att" else
                 say("Battle of %(town)s, round %(n)s of the defender.", town=self.town(battle), n=n))
        self.morale(battle, role)
        if battle.over:
            return
        acted = False
        start = battle.start[role] or 1
        leaving = role in battle.withdrawing or (
            role not in battle.stand and self.below_line(battle, role, start)
            and self.confirm_withdrawal(battle, role, start))
        if leaving:
            acted = self.withdraw_round(battle, role)
            if battle.over:
                return
        if not acted:  # not leaving, or no road out this round: fight on
            self.occupy(battle, role)  # taking terrain, forming square, moving behind the line:
            self.squares(battle, role)  # none of them counts against a stalemate (§6.7)
            acted |= self.fire(battle, role)
            if battle.over:
                return
            acted |= self.move(battle, role, n)
            if battle.over:
                return
        came = False if leaving else self.reinforce(battle, role)
        if role == "att":
            battle.idle = 0 if (acted or came) else battle.idle + 1
            if battle.idle >= 2 and "att" not in battle.withdrawing:
                self.say(battle, say("The attacker has neither fired, engaged nor retreated for two rounds: "
                                     "stalemate; it must retreat with every block (§6.7)."))
                battle.withdrawing.add("att")

    # §6.31
    # §6.33
    # §6.4
    # §7.4
    def check_rout(self, battle) -> bool:
        if battle.over:
            return True
        for role in ("att", "def"):
            for i in range(3):
                loc = f"{role}{i}"
                if self.at(battle, loc, OTHER[role]) and not self.at(battle, loc, role):
                    where = self.where(loc)
                    self.say(battle, say("The enemy holds %(where)s with none of its own there: the attacker routs "
                                         "(§7.4).", where=where) if role == "att" else
                             say("The enemy holds %(where)s with none of its own there: the defender routs (§7.4).",
                                 where=where))
                    self.rout(battle, role)
                    return True
        return battle.over

    def towns_for(self, battle, role):
        if role not in battle.retreat_to:
            from .retreat import retreat_towns

            side = battle.sides[role]
            options = retreat_towns(self.sc, self.st, battle.town, side, role == "att", battle.entries, self.towns)
            battle.retreat_to[role] = choose_towns(self.sc, self.st, battle.town, side, options, self.decider,
                                                   self.orders, self.first_seat(battle, role))
        return battle.retreat_to[role]

    def rout(self, battle, role, stalemate=False):
        mine = [b for b in battle.blocks.values() if b.role == role]
        met = {b.id for b in mine if b.type == "cavalry"
               and any(o.role != role and o.type == "cavalry" for o in self.at(battle, b.loc))}
        if not stalemate:
            rout_losses(self.sc, self.st, [b.id for b in mine], met, self.told(battle))
        self.squares_lost(battle, mine)
        survivors = first(sorted((b.id for b in mine if self.st.blocks[b.id].town is not None),
                                 key=lambda bid: (self.sc.blocks[bid].type != "leader", -self.strength(bid), bid)),
                          self.orders, "retreat_first")
        towns = self.towns_for(battle, role)
        left = withdraw(self.sc, self.st, survivors, towns, battle.town, battle.round_roads, self.told(battle),
                        "stalemate" if stalemate else "rout")
        for bid in left:
            eliminate(self.st, bid, self.told(battle), say("no road left to retreat by (§7.4)"))
        for b in mine:
            battle.blocks.pop(b.id, None)
        battle.over, battle.winner = True, OTHER[role]
        self.say(battle, WINS[(OTHER[role], battle.sides[OTHER[role]])](self.town(battle)), public=True)

    def squares_lost(self, battle, mine) -> None:
        """A routed side's squares cannot retreat («Части в каре не могут выйти из боя», §6.5), and
        blocks that cannot retreat for any reason are lost (§7.4): each square is destroyed, with
        the block sheltering in it (§6.52)."""
        for b in sorted(mine, key=lambda b: b.id):
            if b.square and self.st.blocks[b.id].town is not None:
                eliminate(self.st, b.id, self.told(battle), say("a square cannot retreat (§6.5, §7.4)"))
                for o in mine:
                    if o.shelter == b.id and self.st.blocks[o.id].town is not None:
                        why = say("its square (%(square)s) was destroyed (§6.52)", square=b.id)
                        eliminate(self.st, o.id, self.told(battle), why)

    def below_line(self, battle, role, start) -> bool:
        """Whether the side is below its WITHDRAW line."""
        return self.side_strength(battle, role) * 100 < int(self.doctrine(battle, role, "WITHDRAW")) * start

    def confirm_withdrawal(self, battle, role, start) -> bool:
        """The WITHDRAW line is crossed: the doctrine says withdraw; a player who asked to be
        asked ("withdraw") may answer "fight" instead, once a battle (then the side stands)."""
        seat = self.first_seat(battle, role)
        if role in battle.withdrawing:
            return True
        decision = asked(seat, "withdraw", say("Battle of %(town)s: your strength there is %(strength)s of "
                                               "%(start)s, below your WITHDRAW line. Withdraw?", town=self.town(battle),
                                               strength=self.side_strength(battle, role), start=start),
                         ("withdraw", "fight"), ("withdraw",),
                         (("withdraw", say("withdraw, reserve first")), ("fight", say("fight on to the end"))))
        if self.decider.decide(decision)[0] == "fight":
            battle.stand.add(role)
            return False
        battle.withdrawing.add(role)
        return True

    def withdraw_round(self, battle, role) -> bool:
        """§7: blocks that have not moved or fired leave by road, 2 a major and 1 a minor road
        a round; reserve first, then the rest; engaged blocks take rout losses (§7)."""
        towns = self.towns_for(battle, role)
        mine = sorted((b for b in battle.blocks.values() if b.role == role and not b.moved and not b.fired
                       and not b.square),  # a square cannot leave the fight (§6.5)
                      key=lambda b: (not b.loc.startswith("res"), self.engaged(battle, b), b.id))
        if not towns or not mine:
            return False
        self.say(battle, say("The attacker withdraws from %(town)s.", town=self.town(battle)) if role == "att" else
                 say("The defender withdraws from %(town)s.", town=self.town(battle)))
        went = False
        for b in mine:
            if b.id not in battle.blocks or battle.over:
                continue
            if not self.road_open(battle, towns):
                break  # no road left this round: the rest stay, and lose nothing for a retreat not made (§7)
            if self.engaged(battle, b):
                met = any(o.role != role and o.type == "cavalry" for o in self.at(battle, b.loc))
                rout_losses(self.sc, self.st, [b.id], {b.id} if met and b.type == "cavalry" else set(), self.told(battle))
                if self.st.blocks[b.id].town is None:
                    battle.blocks.pop(b.id, None)
                    self.end_if_empty(battle)
                    continue
            left = withdraw(self.sc, self.st, [b.id], towns, battle.town, battle.round_roads, self.told(battle), "withdrawal")
            if not left:
                battle.blocks.pop(b.id, None)
                went = True
                self.end_if_empty(battle)
                if self.check_rout(battle):
                    return True
        return went

    def road_open(self, battle, towns) -> bool:
        """Whether a road out still has room this round (§7.2: 2 a major, 1 a minor road)."""
        return any(battle.round_roads[t] < self.sc.battle_road[self.sc.board.road(battle.town, t).kind]
                   for t in towns)

    # §6.32
    # §7.5
    def regroup(self, battle) -> None:
        """The winner of a battle (not a skirmish) may draw blocks from adjacent towns into the
        town it won, 2 a major and 1 a minor road (§7.2), by its REGROUP doctrine (default NO);
        one block stays in each town only by the KEEP doctrine (default NO: the rule sets no such condition)."""
        role = battle.winner
        if role is None or self.doctrine(battle, role, "REGROUP") != "YES":
            return
        side = battle.sides[role]
        for town in self.sc.board.adjacent(battle.town):
            if town in self.towns or any(ARMY_SIDE[b.army] != side for b in self.st.at(town)):
                continue
            road = self.sc.board.road(battle.town, town)
            there = sorted((b for b in self.st.side_at(town, side) if not b.disorganized),
                           key=lambda b: (-b.strength, b.id))
            room = min(self.sc.battle_road[road.kind], len(self.st.at(town)) - self.kept(battle, role))
            for blk in there[:max(0, room)]:
                blk.town = battle.town
                into = self.town(battle)
                self.told(battle).append(Event(
                    "regroup", "", {"block": blk.id}, owner=ARMY_SEAT[blk.army],
                    said=say("%(block)s regroups from %(town)s into %(into)s (§7.5)", block=blk.id,
                             town=Place(self.sc.board.name(town)), into=into),
                    seen_said=say("A French block regroups into %(into)s", into=into) if side == "france" else
                    say("An Allied block regroups into %(into)s", into=into)))

    # §6.34
    def coming(self, battle, role) -> list[tuple[str, object]]:
        """The blocks that may join the battle this round from adjacent towns, with their towns:
        2 by a major and 1 by a minor road, the strongest first (one block staying in each town by
        the KEEP doctrine), never from a town with enemies or another battle, never disorganised ones."""
        side = battle.sides[role]
        out = []
        for town in self.sc.board.adjacent(battle.town):
            if town in self.towns or any(ARMY_SIDE[b.army] != side for b in self.st.at(town)):
                continue
            road = self.sc.board.road(battle.town, town)
            room = self.sc.battle_road[road.kind]
            there = sorted((b for b in self.st.side_at(town, side) if not b.disorganized),
                           key=self.reinforcement_order)
            room = min(room, len(self.st.at(town)) - self.kept(battle, role))
            out += [(town, blk) for blk in there[:max(0, room)]]
        return out

    def kept(self, battle, role) -> int:
        """The blocks a side leaves in each town reinforcements or regroup draw from: its KEEP doctrine."""
        return 1 if self.doctrine(battle, role, "KEEP") == "YES" else 0

    def reinforcement_order(self, blk):
        """The order in which a town's blocks join a battle (§6.34): the doctrine's strongest first
        (played.py: a player's REINFORCE first, in the order written)."""
        return (-blk.strength, blk.id)

    def reinforcements(self, battle, role) -> list[str]:
        """The ids of the blocks ``coming`` (whatever the REINFORCE doctrine says)."""
        return [] if battle.over else [blk.id for _, blk in self.coming(battle, role)]

    def reinforce(self, battle, role) -> bool:
        if battle.over or self.doctrine(battle, role, "REINFORCE") != "YES":
            return False
        side = battle.sides[role]
        came = False
        for town, blk in self.coming(battle, role):
            blk.town = battle.town
            spec = self.sc.blocks[blk.id]
            battle.blocks[blk.id] = BB(blk.id, role, blk.army, spec.type, f"res-{role}")
            battle.start[role] += blk.strength
            if role == "att":
                battle.entries.add(town)
            came = True
            self.watch(battle)
            values = dict(into=self.town(battle), town=Place(self.sc.board.name(town)))
            self.told(battle).append(Event(
                "reinforce", "", {"block": blk.id}, owner=ARMY_SEAT[blk.army],
                said=say("%(block)s joins the battle of %(into)s from %(town)s", block=blk.id, **values),
                seen_said=say("A French block joins the battle of %(into)s from %(town)s", **values)
                if side == "france" else say("An Allied block joins the battle of %(into)s from %(town)s", **values)))
        return came
