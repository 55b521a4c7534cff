"""Computer players: a seat played by one of its ruleset's bots (``Ruleset.bots()``).

A game keeps its computer seats in its settings (``"bots": {seat: bot name}``). When a
turn starts, each computer seat that owes orders sends them at once, through ``submit``
like any player's and recorded with source "bot", marked FINAL; on the others' turns a
bot with standing orders sends those. A computer seat has no address: it gets no mail,
and the game starts when every other seat is taken. It is never asked a question by
mail: the rules' defaults answer for it.
"""

from __future__ import annotations

from pbem.core.chance import DICE_PLAIN
from pbem.core.ruleset import title_said

from .base import ServiceBase, ServiceError


class Bots(ServiceBase):

    def bots_of(self, game_id: int, info: dict | None = None) -> dict[str, str]:
        """The game's computer seats: seat -> bot name (``info``: the game's row, when the caller read it)."""
        return dict(((info or self.info(game_id))["settings"] or {}).get("bots") or {})

    @staticmethod
    def check_bots(rules, seat_ids, bots: dict[str, str] | None) -> dict[str, str]:
        """``bots`` checked against the ruleset: known seats, known bots."""
        bots = dict(bots or {})
        offered = rules.bots()
        for seat, name in bots.items():
            if seat not in seat_ids:
                raise ServiceError("%(title)s has no seat %(seat)s for the computer to play",
                                   title=title_said(rules), seat=seat)
            if name not in offered:
                raise ServiceError("%(title)s has no computer player %(name)s (it has %(names)s)",
                                   title=title_said(rules), name=repr(name), names=', '.join(offered))
        if bots and set(bots) >= set(seat_ids):
            raise ServiceError("the computer cannot play every seat: keep one for a person")
        return bots

    def play_bots(self, game_id: int) -> list[str]:
        """Each computer seat sends what it owes now; returns the seats that sent orders."""
        bots = self.bots_of(game_id)
        if not bots:
            return []
        game = self.game(game_id)
        if game.over:
            return []
        turn = game.turn()
        sent = []
        for seat, name in sorted(bots.items()):
            bot = game.ruleset.bots()[name]
            seed = bot_seed(game, self.info(game_id)["seed"])
            if seat in turn.seats and not game.orders_text(game.day, seat):
                text = bot.orders(game.scenario, game.view(seat), seed).rstrip("\n") + "\nFINAL\n"
            elif seat in turn.others and bot.standing is not None and not game.orders_text(game.day, seat):
                text = bot.standing(game.scenario, game.view(seat), seed)
                if not text.strip():
                    continue
            else:
                continue
            try:
                result = self.submit(game_id, seat, text, source="bot", who=f"bot:{name}")
            except Exception as exc:  # noqa: BLE001 - recorded; the game goes on
                self.store.audit(f"bot:{name}", "error", game_id, why=f"{type(exc).__name__}: {exc}")
                continue
            if not result.ok:  # a bot's mistake must not stop the game: the day goes on without its orders
                self.store.audit(f"bot:{name}", "error", game_id, why=result.message()[:500])
                continue
            sent.append(seat)
        return sent

    def ask_function(self, game_id: int, info: dict | None = None):
        """As for any game, but a computer seat is never asked: the defaults answer for it."""
        ask = super().ask_function(game_id, info)
        bots = self.bots_of(game_id, info)
        if not bots:
            return ask
        return lambda decision: getattr(decision, "side", None) not in bots and ask(decision)


def bot_seed(game, seed: int) -> int:
    """The seed a computer player draws its orders of the coming day from: the game's seed plus the
    day (dice version 1, as ever); for a keyed game (version 2) a draw of its keyed stream
    "computer player, day N", which tells nothing of the seed whatever the orders show."""
    if game.dice == DICE_PLAIN:
        return seed + game.day
    return game.chance.stream(f"computer player, day {game.day}").next64()
