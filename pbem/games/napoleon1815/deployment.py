"""§6.22-6.24 Deployment on the battle board: by the players' DEPLOY orders (the hybrid and
live modes) or by doctrine, and what each seat reads of it (§6.24, §12).

A mixin of :class:`pbem.games.napoleon1815.battle.Fight`, which holds the board and the
helpers these use (``at``, ``name``, ``where``, ``say``, ``doctrine``, ``witnessed``).
"""

from __future__ import annotations

from pbem.core.events import Event
from pbem.lang import say, say_plural

from .blocks import is_artillery
from .board import ARMIES
from .sight import visible_armies
from .words import Join


class Deployment:
    def deploy_given(self, battle, role, given: dict) -> None:
        """§6.22 by the players' DEPLOY orders; blocks not named go to the reserve; artillery
        named into woods goes to the reserve; an empty position gets a block (§6.22)."""
        for b in battle.blocks.values():
            if b.role == role:
                i = given.get(b.id)
                b.loc = f"res-{role}" if i is None else f"{role}{i}"
                if is_artillery(b.type) and battle.terrain.get(b.loc) == "woods":
                    b.loc = f"res-{role}"
        self.one_corps(battle, role)
        for i in (1, 0, 2):
            loc = f"{role}{i}"
            if self.at(battle, loc, role):
                continue
            woods = battle.terrain.get(loc) == "woods"
            pool = [b for b in self.at(battle, f"res-{role}", role) if not (woods and is_artillery(b.type))]
            if not pool:
                fullest = max((f"{role}{j}" for j in range(3)), key=lambda l: len(self.at(battle, l, role)))
                if len(self.at(battle, fullest, role)) > 1:
                    pool = [b for b in self.at(battle, fullest, role) if not (woods and is_artillery(b.type))]
            if pool:
                b = sorted(pool, key=lambda b: (b.type == "leader", b.id))[0]
                b.loc = loc
                self.say(battle, say("%(block)s goes to %(where)s: every position needs a block (§6.22).",
                                     block=b.id, where=self.where(loc)))
        self.announce(battle, role)

    def one_corps(self, battle, role) -> None:
        """§6.23 on the board, whoever sent the orders: blocks of two corps (two armies' corps are two
        corps) share a position only with a leader. Each seat's DEPLOY keeps it for its own blocks; where
        the two Allied seats' deployments meet in a position without a leader, the blocks of the later
        seat's army go to the reserve."""
        for i in range(3):
            here = self.at(battle, f"{role}{i}", role)
            if any(b.type == "leader" for b in here):
                continue
            corps = list(dict.fromkeys((b.army, self.sc.blocks[b.id].corps) for b in sorted(
                here, key=lambda b: (ARMIES.index(b.army), b.id))))
            for b in sorted(here, key=lambda b: b.id):
                if (b.army, self.sc.blocks[b.id].corps) != corps[0]:
                    b.loc = f"res-{role}"
                    self.say(battle, say("%(block)s goes to the reserve: blocks of two corps share a position only "
                                         "with a leader (§6.23).", block=b.id))

    def announce(self, battle, role) -> None:
        """The deployment, face up (§6.24) — but blocks in the reserve or in woods stay hidden
        from the enemy, who sees how many stand there. A seat reads its own blocks (in the
        two-player game, both Allied armies' blocks) in full; in the three-player game an Allied
        seat reads its partner's deployment as the enemy does (§12); seats with no army in the
        battle read nothing of it."""
        armies = {b.army for b in battle.blocks.values() if b.role == role}
        versions: dict[str, list[str]] = {}
        said = {}
        for seat in self.witnessed(battle):
            text = self.deployment_text(battle, role, visible_armies(self.st.players, seat))
            said.setdefault(str(text), text)
            versions.setdefault(str(text), []).append(seat)
        full = self.deployment_text(battle, role, armies)
        blind = self.deployment_text(battle, role, set())
        self.events.append(Event("battle", owner=tuple(versions.pop(str(full), ())), said=full, seen_said=blind,
                                 witnesses=tuple(versions.pop(str(blind), ()))))
        for text, seats in versions.items():  # a partner's deployment beside one's own (§12)
            self.events.append(Event("battle", data={"partial": True}, owner=tuple(seats), said=said[text]))

    def deployment_text(self, battle, role, armies: set[str]) -> str:
        """The deployment of ``role`` as a seat that sees ``armies`` reads it. At deployment every block stands
        in its own role's locations: a location names its role's blocks alone."""
        parts = []
        for i in (0, 1, 2):
            loc = f"{role}{i}"
            here = self.at(battle, loc)
            woods = battle.terrain.get(loc) == "woods"
            shown = [b for b in here if b.army in armies or not woods]
            names = [self.name(b) for b in shown]
            hidden = len(here) - len(shown)
            if hidden:
                names.append(say_plural("%(num)s block in the woods", "%(num)s blocks in the woods", hidden))
            parts.append(say("%(where)s: %(blocks)s", where=self.where(loc),
                             blocks=Join(names) if names else say("nobody")))
        reserve = self.at(battle, f"res-{role}")
        own = [b for b in reserve if b.army in armies]
        if not own:
            res = say_plural("%(num)s block in reserve", "%(num)s blocks in reserve", len(reserve))
        elif len(own) == len(reserve):
            res = say_plural("%(num)s block in reserve (%(blocks)s)", "%(num)s blocks in reserve (%(blocks)s)",
                             len(reserve), blocks=Join(self.name(b) for b in own))
        else:
            res = say_plural("%(num)s block in reserve (%(blocks)s and %(more)s more)",
                             "%(num)s blocks in reserve (%(blocks)s and %(more)s more)", len(reserve),
                             blocks=Join(self.name(b) for b in own), more=len(reserve) - len(own))
        deployed = Join(parts + [res], say("; "))  # the language's separator of clauses ("a ; b", "a；b")
        return (say("The attacker deploys: %(deployment)s.", deployment=deployed) if role == "att" else
                say("The defender deploys: %(deployment)s.", deployment=deployed))

    def deploy(self, battle, role):
        """§6.22-6.23 by doctrine: one corps to a position (more with the leader), at least one
        block in each, artillery out of woods, RESERVE blocks (cavalry first) behind."""
        mine = sorted((b for b in battle.blocks.values() if b.role == role), key=lambda b: b.id)
        corps: dict[tuple, list] = {}
        for b in mine:
            corps.setdefault((b.army, self.sc.blocks[b.id].corps), []).append(b)
        groups = sorted(corps.values(), key=lambda g: (-sum(self.strength(b.id) for b in g), g[0].id))
        order = (1, 0, 2)
        placed: dict[int, list] = {i: [] for i in order}
        leader = [b for b in mine if b.type == "leader"]
        rest_groups = [g for g in groups if g[0].type != "leader" or len(g) > 1]
        for k, g in enumerate(rest_groups):
            if k < 3:
                placed[order[k]] += g
            elif leader:
                placed[1] += g
            else:
                for b in g:
                    b.loc = f"res-{role}"
        for b in leader:
            placed[1].append(b)
        for i in order:  # at least one block in each position (§6.22)
            while not placed[i]:
                donor = max(order, key=lambda j: len(placed[j]))
                if len(placed[donor]) < 2:
                    break
                placed[i].append(placed[donor].pop())
        keep = int(self.doctrine(battle, role, "RESERVE"))
        for i in order:
            for b in placed[i]:
                b.loc = f"{role}{i}"
        movable = sorted((b for i in order for b in placed[i]), key=lambda b: (b.type != "cavalry", b.id))
        for b in movable:
            if keep <= 0:
                break
            if len(self.at(battle, b.loc, role)) > 1 and b.type != "leader":
                b.loc = f"res-{role}"
                keep -= 1
        for b in mine:  # artillery may not stand in woods (§6.21)
            if is_artillery(b.type) and battle.terrain.get(b.loc) == "woods":
                b.loc = f"res-{role}"
        self.announce(battle, role)
