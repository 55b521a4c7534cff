"""What a drawing worker does (pbem.server.serve runs them, one a core): a seat's map drawn whole
from the seat's view, its SVG and its PNG both.

The server's own process replays the game and takes the seat's view (what the seat may see: hidden
information stays decided there); a worker builds the SVG from that view and rasterises it. Before,
the server's process built every SVG itself (twice a report: once to draw it ahead, once for the
report) and the workers only rasterised: in a tournament round the server's process was the
bottleneck (63% of its time in SVGs) while the workers waited (issue 35).
"""

from __future__ import annotations

from pbem.games import ruleset
from pbem.server.mapcache import digest

_scenarios: dict[tuple[str, str], object] = {}  # loaded once a worker


def map_picture(game: str, scenario: str, view: dict, title: str, lang: str) -> tuple[str, bytes]:
    """(the SVG's digest, the PNG) of ``view``'s map in game ``game``'s scenario ``scenario`` (its file
    name, as a game's row keeps it), titled ``title``, in ``lang``: the digest is the map cache's key
    of that PNG, the same as the server's own SVG of the map would give (pbem.server.mapcache)."""
    from pbem.render import render_png
    from pbem.server.service.base import scenario_path

    rules = ruleset(game)
    if (game, scenario) not in _scenarios:
        _scenarios[(game, scenario)] = rules.load_scenario(scenario_path(scenario))
    svg = rules.render_svg(_scenarios[(game, scenario)], view, title=title, lang=lang)
    return digest(svg), render_png(svg)
