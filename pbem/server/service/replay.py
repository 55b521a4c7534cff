"""Replay: a game stepped through day by day, in each side's view and the neutral view.

Once a game is over every view of every day is open (its seed is public then too, with the
export). While it is played, only a game that sets ``spectator_delay`` N may be watched: the
neutral view (the ruleset's SPECTATOR), up to N days behind the last day resolved; its
moderator sees every view as on the game page."""

from __future__ import annotations

from pbem.core.ruleset import SPECTATOR, read_in, victory_said, words_of
from pbem.server import deadlines

from .base import ServiceBase, ServiceError

NEUTRAL = "neutral"


class Replay(ServiceBase):

    def replay_bounds(self, game_id: int, moderator: bool = False) -> tuple[int, list[str]]:
        """How many days may be replayed and in which views ("neutral" and seat ids)."""
        info = self.info(game_id)
        game = self.game(game_id)
        seats = list(self.seat_titles(game_id))
        if game.over or info["status"] == "finished" or moderator:
            return len(game.days), [NEUTRAL] + seats
        delay = deadlines.settings_with_defaults(info["settings"])["spectator_delay"]
        if delay is None:
            raise ServiceError("game %(game)s is being played: it may be replayed once it is over", game=game_id)
        return max(0, len(game.days) - delay), [NEUTRAL]

    def replay_day(self, game_id: int, day: int, view: str, moderator: bool = False, lang: str = "en") -> dict:
        """Day ``day`` (0: the first resolved) in ``view``: its label and its map (SVG) in ``lang``, and the
        game's end."""
        shown, views = self.replay_bounds(game_id, moderator)
        if view not in views:
            raise ServiceError("the view may be %(names)s, not %(view)s", names=', '.join(views), view=repr(view))
        if not 0 <= day < shown:
            raise ServiceError(f"day {day} cannot be replayed: days 0 to {shown - 1} can" if shown
                               else "no day can be replayed yet")
        game = self.game(game_id)
        seen = game.view(SPECTATOR if view == NEUTRAL else view, day)
        return {"day": day, "days": shown, "views": views, "view": view,
                "label": game.turn_label(day, lang),
                "svg": game.ruleset.render_svg(game.scenario, seen, title=self.label(game_id), lang=lang),
                "over": game.over and day == len(game.days) - 1,
                "victory": victory_in(game, day, seen, lang) if game.over and day == len(game.days) - 1 else ""}


def victory_in(game, day: int, seen: dict, lang: str) -> str:
    """How the game was won, in ``lang``: the day's "victory" event as the rules said it, read through the game's
    catalog (a game whose victory is no such event says it through its ruleset: pbem.core.ruleset.victory_said);
    in English the position's own words."""
    said = next((e.said for e in reversed(game.days[day].events) if e.kind == "victory" and e.said is not None), None)
    if not lang or lang == "en":
        return seen.get("victory", "")
    if said is None:
        said = victory_said(game.ruleset, game.scenario, seen)
    return read_in(words_of(game.ruleset, lang), said)
